#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# ppctime-run end to end, per target: the guest sees a vDSO laid out as the
# kernel lays it out and glibc uses it (dynamic and static programs);
# everything else about running a program is plain QEMU's; bad images,
# page sizes, dates and programs are refused; a dead or stalled timekeeper
# turns into system calls, also for daemons that outlive the launch; no
# one else reaches the data page; the guest loader has no C library, makes
# only the system calls its job needs, and fails with env's statuses (125,
# 126, 127).  Guest side: tests/guest/launcher-probe.c.
# Protocol: README.md.  Where a case judges the data page by the system
# call, it runs with --host-time-syscalls, which leaves that call to the
# host kernel (by default QEMU answers it from the page too).
. "${srcdir:=.}/tests/test-lib.sh"

run=$top_builddir/run/ppctime-run
# The launch's own timekeeper, whatever daemon the machine or the user
# has: tests/timekeeperd-test.sh is the shared one's.
PPCTIME_TIMEKEEPERD=off
export PPCTIME_TIMEKEEPERD
probes=$top_builddir/tests/guest
make_work
command -v pgrep >/dev/null || {
	echo 'Bail out! launcher-test: no pgrep: install the Debian package procps'
	exit 1
}

check_vdso_seen() { # NAME PROBE
	launch "$2" vdso
	ehdr=$(value sysinfo_ehdr)
	if [ "$status" -ne 0 ]; then
		fail "$1" "status $status"; show
	elif [ "${ehdr:-0}" = 0 ]; then
		fail "$1" "AT_SYSINFO_EHDR is 0"; show
	elif [ "$(value listed)" != 1 ]; then
		fail "$1" "glibc did not register the vDSO (dl_iterate_phdr)"; show
	elif [ "$(value data_below)" != 1 ] || [ "$(value image_rx)" != 1 ]; then
		fail "$1" "not [read-only data pages][r-x image] in /proc/self/maps"; show
	elif [ "$(value data_stays_ro)" != 1 ]; then
		fail "$1" "the program could make the data pages writable"; show
	elif [ "$(value clock_gettime)" != 0 ]; then
		fail "$1" "clock_gettime failed"; show
	else
		pass "$1"
	fi
}

# QEMU's auxiliary vector, with the program's own entries where they belong.
check_auxv() { # NAME PROBE
	"$run" --no-vdso "$2" auxv >"$work/plain" 2>&1
	launch "$2" auxv
	if [ "$status" -ne 0 ] || ! cmp -s "$work/out" "$work/plain"; then
		fail "$1" "differs from plain QEMU's:"; diff "$work/plain" "$work/out"; show
	elif [ "$(value entry_is_start)" != 1 ] || [ "$(value phdr_is_program)" != 1 ] ||
	     [ "$(value random)" != set ]; then
		fail "$1" "AT_ENTRY, AT_PHDR or AT_RANDOM wrong"; show
	else
		pass "$1"
	fi
}

check_passthrough() { # NAME PROBE
	mkdir -p "$work/cwd"
	(cd "$work/cwd" && printf 'line one\nline two\n' |
		PROBE_VAR='x y' "$run" "$2" echo a 'b c' '' '-v' >"$work/out" 2>"$work/err")
	status=$?
	printf '%s\n' argc=6 "argv[0]=$2" 'argv[1]=echo' 'argv[2]=a' 'argv[3]=b c' \
		'argv[4]=' 'argv[5]=-v' "cwd=$(cd "$work/cwd" && pwd -P)" 'PROBE_VAR=x y' \
		'line one' 'line two' >"$work/expected"
	if [ "$status" -ne 0 ] || ! cmp -s "$work/out" "$work/expected"; then
		fail "$1" "status $status, output differs from:"
		sed 's/^/# expected: /' "$work/expected"; show
	elif [ "$(cat "$work/err")" != "to stderr" ]; then
		fail "$1" "stderr is not the program's"; show
	else
		pass "$1"
	fi
}

# Who the program is, as QEMU tells it (/proc/self/exe, argv, AT_EXECFN,
# /proc/self/cmdline), and its /proc/self/environ and LD_PRELOAD: plain
# QEMU's, run as ./NAME from its directory, with QEMU_ARGV0, with -0 and
# with a user's LD_PRELOAD (which every ld.so, the guest's too, says it
# cannot load).
check_identity() { # NAME PROBE
	id_name=$1 dir=${2%/*} base=./${2##*/}
	for how in plain QEMU_ARGV0 -0 LD_PRELOAD; do
		case $how in
		plain) set -- "$base" ;;
		QEMU_ARGV0) set -- "$base"; export QEMU_ARGV0=argv0-from-env ;;
		-0) set -- -0 argv0-from-option "$base" ;;
		LD_PRELOAD) set -- "$base"; export LD_PRELOAD="$work/no-such-preload.so" ;;
		esac
		(cd "$dir" && "$run" --no-vdso "$@" identity a 'b c' >"$work/plain" \
			2>"$work/plain-err")
		(cd "$dir" && "$run" "$@" identity a 'b c' >"$work/out" 2>"$work/err")
		status=$?
		unset QEMU_ARGV0 LD_PRELOAD
		if [ "$status" -ne 0 ] || ! cmp -s "$work/out" "$work/plain" ||
		   ! cmp -s "$work/err" "$work/plain-err"; then
			fail "$id_name" "$how: status $status, differs from plain QEMU's:"
			diff "$work/plain" "$work/out"; diff "$work/plain-err" "$work/err"; show
			return
		fi
	done
	pass "$id_name"
}

# $ORIGIN: a program whose library only its RUNPATH $ORIGIN/lib finds,
# run by a relative and an absolute name from elsewhere, starts with the
# vDSO and is itself.
check_origin() { # NAME PROBE
	for prog in "${2#"$top_builddir"/}" "$2"; do
		(cd "$top_builddir" && "$run" "$prog" >"$work/out" 2>"$work/err" </dev/null)
		status=$?
		ehdr=$(value sysinfo_ehdr)
		if [ "$status" -ne 0 ] || [ "$(value lib)" != found ]; then
			fail "$1" "$prog: status $status, the library not found"; show; return
		elif [ "${ehdr:-0}" = 0 ]; then
			fail "$1" "$prog: AT_SYSINFO_EHDR is 0"; show; return
		elif [ "$(value exe)" != "$2" ]; then
			fail "$1" "$prog: /proc/self/exe is not the program"; show; return
		fi
	done
	pass "$1"
}

check_environment() { # NAME PROBE
	PROBE_VAR='a=b c' "$run" --no-vdso "$2" env >"$work/plain" 2>&1
	PROBE_VAR='a=b c' "$run" "$2" env >"$work/out" 2>"$work/err"
	status=$?
	if [ "$status" -eq 0 ] && cmp -s "$work/out" "$work/plain"; then pass "$1"
	else fail "$1" "status $status, environment differs from plain QEMU's:"
		diff "$work/plain" "$work/out"; fi
}

check_status() { # NAME EXPECTED PROBE ARGS...
	name=$1 expected=$2
	shift 2
	launch "$@"
	if [ "$status" -eq "$expected" ]; then pass "$name"
	else fail "$name" "status $status, expected $expected"; show; fi
}

# glibc's clock_gettime: how many system calls 1000 calls make.
check_vdso_used() { # NAME PROBE
	time_syscalls "$run" "$2"
	with=$calls with_status=$status
	time_syscalls "$run" --no-vdso "$2"
	if [ "$with_status" -ne 0 ] || [ "$status" -ne 0 ]; then
		fail "$1" "status $with_status with the vDSO, $status without"
	elif [ "$calls" -lt 1000 ]; then
		fail "$1" "without the vDSO only $calls clock_gettime system calls seen: is -strace working?"
	elif [ "$with" -ge 100 ]; then
		fail "$1" "$with clock_gettime system calls for 1000 calls: the vDSO is not used"
	else
		pass "$1 ($with system calls for 1000 clock_gettime, $calls without)"
	fi
}

# --no-vdso is plain QEMU's vDSO or none (7.2 gives none, 10 its own),
# never ours.
check_no_vdso() { # NAME TARGET PROBE
	plain=$(plain_vdso "$2")
	launch --no-vdso "$3" vdso
	ours=$(sed -n 's/^sysinfo_ehdr=0 .*/none/p; s/^sysinfo_ehdr=.*/set/p' "$work/out")
	if [ "$status" -ne 0 ] || [ "$(value clock_gettime)" != 0 ] ||
	   has ppctime-vdso-data out || [ -z "$plain" ] || [ "$ours" != "$plain" ]; then
		fail "$1" "expected plain QEMU's AT_SYSINFO_EHDR (${plain:-unread}), no data pages of ours and a working clock_gettime"; show
	else
		pass "$1 (AT_SYSINFO_EHDR $plain, as plain QEMU)"
	fi
}

# --qemu: a directory holding the target's QEMU serves; a missing one, a
# directory without it, and a file that is no QEMU ppctime-run can start
# are refused with a message and 125.
qemu_dirs() { # TARGET
	eval "qemu=\$QEMU_$1"
	mkdir "$work/qemus" "$work/no-qemus"
	ln -s "$qemu" "$work/qemus/${qemu##*/}"
	printf '#!/bin/sh\nexit 0\n' >"$work/qemus/script"
	chmod +x "$work/qemus/script"
}
check_qemu_directory() { # PROBE
	launch --qemu="$work/qemus" "$1" vdso
	if [ "$status" -eq 0 ] && has ppctime-vdso-data err; then pass "qemu-option-directory"
	else fail qemu-option-directory "status $status, or no vDSO of ours"; show; fi
}
check_qemu_refused() { # NAME QEMU MESSAGE PROBE
	launch --qemu="$2" "$4" echo ran
	if [ "$status" -eq 125 ] && [ ! -s "$work/out" ] && has "$3" err; then
		pass "$1: $(head -n 1 "$work/err")"
	else
		fail "$1" "status $status, expected 125 and '$3'"; show
	fi
}

# A static QEMU (Debian 12's qemu-user-static, 7.2) as one of QEMU 10's:
# mapped and entered by ppctime-run, with the vDSO, no time system calls.
check_static_qemu() { # NAME PROBE
	if [ -z "$static_qemus" ]; then
		skip "$1" "$static_qemus_why"
		return
	fi
	time_syscalls "$run" --qemu="$static_qemus" "$2"
	if [ "$status" -ne 0 ] || [ "$calls" -ge 100 ]; then
		fail "$1" "status $status, $calls clock_gettime system calls for 1000 calls"; show_err
	else
		pass "$1 ($calls system calls for 1000 clock_gettime)"
	fi
}

check_refused() { # NAME IMAGE PROBE
	launch --vdso="$2" "$3" echo ran
	if [ "$status" -ne 125 ]; then
		fail "$1" "status $status, expected 125"; show
	elif [ -s "$work/out" ]; then
		fail "$1" "the program ran"; show
	elif ! has 'refusing vDSO image' err; then
		fail "$1" "no message saying why"; show
	else
		pass "$1 ($(head -n 1 "$work/err"))"
	fi
}

# A copy of IMAGE with byte OFFSET set to VALUE (0-7).
patched() { # IMAGE OFFSET VALUE OUT
	cp "$1" "$4" && printf '%b' "\\000$3" | dd of="$4" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

# The cases of bad images for TARGET, made from IMAGE.
add_bad_images() { # TARGET PROBE IMAGE
	t=$1 probe=$2 image=$3 bad=$work/bad-$1
	printf 'this is not an ELF file\n' >"$bad-text"
	case_add check_refused "refuse-not-elf-$t" "$bad-text" "$probe"
	# EI_CLASS and EI_DATA are 1 or 2: swap them.
	class=$(od -An -tu1 -j4 -N1 "$image" | tr -d ' ')
	patched "$image" 4 $((3 - class)) "$bad-class"
	case_add check_refused "refuse-wrong-class-$t" "$bad-class" "$probe"
	data=$(od -An -tu1 -j5 -N1 "$image" | tr -d ' ')
	patched "$image" 5 $((3 - data)) "$bad-order"
	case_add check_refused "refuse-wrong-byte-order-$t" "$bad-order" "$probe"
	head -c 40 "$image" >"$bad-header"
	case_add check_refused "refuse-truncated-header-$t" "$bad-header" "$probe"
	head -c $(($(wc -c <"$image") / 2)) "$image" >"$bad-half"
	case_add check_refused "refuse-truncated-$t" "$bad-half" "$probe"
	perl -0777 -pe 's/__kernel_clock_gettime\0/__kernel_clock_gettimX\0/' \
		"$image" >"$bad-nosym"
	case_add check_refused "refuse-no-clock-gettime-$t" "$bad-nosym" "$probe"
	case $t in ppc32) other=ppc64le ;; ppc64) other=ppc32 ;; *) other=ppc64 ;; esac
	other_image=$top_builddir/vdso-kernel/$(vdso_image "$other")
	if [ -f "$other_image" ]; then
		case_add check_refused "refuse-other-target-$t" "$other_image" "$probe"
	else
		case_add skip "refuse-other-target-$t" "no $other image built"
	fi
}

# Where IMAGE's note NAME ("Linux", "ppctime") has its name: its 4-byte desc
# lies 8 bytes on, both names being 8 bytes with their NUL and padding.
note_at() { # IMAGE NAME
	at=$(LC_ALL=C grep -obUaP "$2\\x00" "$1" | head -n 1)
	echo "${at%%:*}"
}

# A copy of IMAGE whose note NAME holds WORD, in the image's byte order.
note_patched() { # IMAGE NAME WORD OUT
	at=$(($(note_at "$1" "$2") + 8))
	if [ "$(od -An -tu1 -j5 -N1 "$1" | tr -d ' ')" = 1 ]; then
		bytes=$(printf '\\%03o\\%03o\\%03o\\%03o' $(($3 & 255)) $(($3 >> 8 & 255)) \
			$(($3 >> 16 & 255)) $(($3 >> 24)))
	else
		bytes=$(printf '\\%03o\\%03o\\%03o\\%03o' $(($3 >> 24)) $(($3 >> 16 & 255)) \
			$(($3 >> 8 & 255)) $(($3 & 255)))
	fi
	[ "$1" = "$4" ] || cp "$1" "$4"
	printf "$bytes" | dd of="$4" bs=1 seek="$at" conv=notrunc 2>/dev/null
}

# An image that asks for a layout this ppctime does not know, or whose
# layout note is not the one its code reads (the datastore's code with
# 6.1's note), is refused: no program runs with pages it would misread.
add_layout_refusals() { # TARGET PROBE DATASTORE_IMAGE
	bad=$work/bad-$1
	note_patched "$3" ppctime 99 "$bad-layout"
	case_add check_refused "refuse-unknown-layout-$1" "$bad-layout" "$2"
	note_patched "$3" ppctime 1 "$bad-mismatch"
	case_add check_refused "refuse-layout-mismatch-$1" "$bad-mismatch" "$2"
}

# The datastore's image (IMAGE-datastore.so), by --vdso, as Linux 6.17 on
# lays the pages out: the guest finds the data pages, all four of them,
# below it; 1000 of glibc's clock_gettime make no time system call; every
# clock it serves reads exactly what QEMU's system call answers from the
# same pages (timekeeper-test holds those pages to the host's clocks).  As
# Linux 7.3's own image (its version note, no layout note of ppctime's) it
# is taken for the datastore's too.
check_datastore_seen() { # TARGET PROBE IMAGE
	t=$1 probe=$2 image=$3
	launch --vdso="$image" "$probe" vdso
	pages=$(grep -c "memfd:ppctime-vdso-data" "$work/err")
	if [ "$status" -ne 0 ] || [ "$(value listed)" != 1 ] || [ "$(value data_below)" != 1 ] ||
	   [ "$(value data_stays_ro)" != 1 ] || [ "$(value clock_gettime)" != 0 ]; then
		fail "datastore-vdso-seen-$t" "status $status, or no vDSO with read-only data below"; show
	elif [ "$pages" -ne 4 ]; then
		fail "datastore-vdso-seen-$t" "$pages data pages mapped, not 4"; show
	else
		pass "datastore-vdso-seen-$t"
	fi
}
check_datastore_used() { # TARGET PROBE IMAGE
	t=$1 probe=$2 image=$3
	time_syscalls "$run" --vdso="$image" "$probe"
	if [ "$status" -ne 0 ] || [ "$calls" -ne 0 ]; then
		fail "datastore-vdso-used-$t" "status $status, $calls clock_gettime system calls for 1000 calls"
	else
		pass "datastore-vdso-used-$t (0 system calls for 1000 clock_gettime)"
	fi
}
check_datastore_agreement() { # TARGET PROBE IMAGE
	t=$1 probe=$2 image=$3
	clocks="realtime monotonic monotonic-raw boottime tai realtime-coarse monotonic-coarse"
	launch --vdso="$image" "$probe" compare 200 $clocks
	off=
	for c in $clocks; do
		[ "$(value "worst_$c")" = 0 ] || off="$off $c:$(value "worst_$c")"
	done
	if [ "$status" -ne 0 ] || [ -n "$off" ]; then
		fail "datastore-agreement-$t" "status $status, or the vDSO and the system call differ (ns):$off"; show
	else
		pass "datastore-agreement-$t ($(value reads) reads of 7 clocks, exact)"
	fi
}
check_datastore_linux_7_3() { # TARGET PROBE IMAGE
	t=$1 probe=$2 image=$3
	note_patched "$image" Linux $((7 << 16 | 3 << 8 | 4)) "$work/linux-7.3-$t"
	printf x | dd of="$work/linux-7.3-$t" bs=1 seek="$(note_at "$image" ppctime)" \
		conv=notrunc 2>/dev/null
	launch -v --vdso="$work/linux-7.3-$t" "$probe" vdso
	if [ "$status" -eq 0 ] && [ "$(value clock_gettime)" = 0 ] && has 'datastore layout' err; then
		pass "datastore-linux-7.3-image-$t"
	else
		fail "datastore-linux-7.3-image-$t" "status $status, or not run as the datastore's"; show
	fi
}

# Kill (or stop) the timekeeper while the guest compares glibc's
# clock_gettime with the system call.  The coarse clock is the one a frozen
# data page shows at once (the high-resolution ones extrapolate): it may
# trail by a tick, or by the time a stop takes to notice, never by the
# second a stale page would make.
check_keeper_loss() { # NAME SIGNAL CLOCK PROBE EXPECTED_MESSAGE COARSE_LIMIT_NS
	"$run" -0 "$$-$1" --host-time-syscalls "$4" compare 1500 "$3" "$3-coarse" >"$work/out" 2>"$work/err" </dev/null &
	launcher=$!
	keeper=$(keeper_of "$$-$1")
	sleep 0.4
	[ -n "$keeper" ] && kill -s "$2" "$keeper"
	wait $launcher
	status=$?
	hres=$(value "worst_$3") coarse=$(value "worst_$3-coarse")
	if [ -z "$keeper" ]; then
		fail "$1" "no ppctime-tk child found"; show
	elif [ "$status" -ne 0 ] || [ -z "$hres" ] || [ -z "$coarse" ]; then
		fail "$1" "status $status"; show
	elif [ "$hres" -gt 1000000 ] || [ "$coarse" -gt "$6" ]; then
		fail "$1" "reads off the system call's time by up to $hres ns ($3), $coarse ns ($3-coarse)"; show
	elif ! has "$5" err; then
		fail "$1" "the launcher did not say '$5'"; show
	else
		pass "$1 ($(value reads) reads, worst $hres ns, coarse $coarse ns; $(grep -m 1 "^ppctime-run:" "$work/err"))"
	fi
}

# The same with the system calls answered from the page, as by default:
# once the keeper is killed, they are the host's again (its death leaves
# mode NONE), so the coarse clock's system call moves on through the run
# rather than stand at a stale page's time.
check_keeper_loss_syscalls() { # NAME PROBE
	"$run" -0 "$$-$1" "$2" compare 1500 monotonic-coarse >"$work/out" 2>"$work/err" </dev/null &
	launcher=$!
	keeper=$(keeper_of "$$-$1")
	sleep 0.4
	[ -n "$keeper" ] && kill -KILL "$keeper"
	wait $launcher
	status=$?
	span=$(value span_monotonic-coarse) worst=$(value worst_monotonic-coarse)
	if [ -z "$keeper" ]; then
		fail "$1" "no ppctime-tk child found"; show
	elif [ "$status" -ne 0 ] || [ -z "$span" ]; then
		fail "$1" "status $status"; show
	elif [ "$span" -lt 1000000000 ] || [ "$worst" -ne 0 ]; then
		fail "$1" "the system call moved $span ns in a 1.5 s run, the vDSO $worst ns off it"; show
	elif ! has 'timekeeper died (signal 9)' err; then
		fail "$1" "the launcher did not say the timekeeper died"; show
	else
		pass "$1 (the system call moved $span ns in a 1.5 s run; vDSO exact)"
	fi
}

# A signal sent to the launcher reaches the program, whose death is ours;
# SIGINT too, which the shell would have a background job ignore.
check_forwarded_signal() { # NAME PROBE SIGNAL STATUS
	env --default-signal=INT "$run" -0 "$$-$1" "$2" compare 3000 monotonic \
		>"$work/out" 2>"$work/err" </dev/null &
	launcher=$!
	keeper_of "$$-$1" >/dev/null
	sleep 0.2
	kill -s "$3" $launcher
	wait $launcher 2>/dev/null	# no "Terminated" from the shell
	status=$?
	if [ "$status" -eq "$4" ]; then pass "$1"
	else fail "$1" "status $status, expected $4 (SIG$3)"; show; fi
}

# A program that dies dumping core: the launch's raw wait status is plain
# QEMU's, core bit included (the launch is QEMU).  QEMU writes the guest's
# core, qemu_PROG_DATE_PID.core, in its directory, then dies of the
# signal, and the kernel dumps QEMU's as the machine's core_pattern says.
check_core_dump() { # NAME PROBE
	mkdir -p "$work/cores"
	for how in no-vdso private-timekeeper; do
		waited=$(cd "$work/cores" || exit
			ulimit -c unlimited 2>/dev/null || ulimit -c "$(ulimit -H -c)"
			perl -e 'system @ARGV; printf "signal=%d core=%d", $? & 127, $? >> 7 & 1' \
				"$run" "--$how" "$2" signal 11 2>"$work/err" </dev/null)
		echo "$waited guest_cores=$(ls "$work/cores" | grep -c '^qemu_.*\.core$')" >"$work/$how"
		rm -f "$work/cores"/*
	done
	plain=$(cat "$work/no-vdso") ours=$(cat "$work/private-timekeeper")
	if [ "$plain" = "${plain#* core=1 }" ]; then
		skip "$1" "plain QEMU gives no core bit ($plain; core_pattern $(cat /proc/sys/kernel/core_pattern))"
	elif [ "$ours" != "$plain" ]; then
		fail "$1" "$ours, plain QEMU $plain"; sed 's/^/# err: /' "$work/err"
	else
		pass "$1 ($ours)"
	fi
}

# Signals sent to the launch's process group (kill -- -PGID, a shell's job
# control) reach the program once each, as under plain QEMU: the watchdog
# and the keeper are in a session of their own, and pass nothing on.
check_group_signal() { # NAME PROBE
	perl -e 'setpgrp; exec @ARGV' "$run" "$2" signals >"$work/out" 2>"$work/err" </dev/null &
	group=$!
	for _ in $(seq 200); do
		has '^ready$' out && break
		sleep 0.05
	done
	# Each once the program has seen the one before, so that none merges
	# with another however busy the machine; a second delivery comes at
	# once.
	for sent in 1 2 3; do
		kill -USR1 "-$group"
		for _ in $(seq 100); do
			[ "$(grep -c '^USR1$' "$work/out")" -ge "$sent" ] && break
			sleep 0.05
		done
		sleep 0.2
	done
	kill -TERM "-$group"
	wait $group
	status=$?
	usr1=$(grep -c '^USR1$' "$work/out") term=$(grep -c '^TERM$' "$work/out")
	if [ "$status" -eq 0 ] && [ "$usr1" -eq 3 ] && [ "$term" -eq 1 ]; then pass "$1"
	else fail "$1" "status $status, 3 SIGUSR1 and 1 SIGTERM seen $usr1 and $term times"; show; fi
}

# ppctime-run ARGS with PPCTIME_TIMEKEEPERD=DAEMON, soft limit 8 and
# descriptors 3-7 closed: the 5 free that plain QEMU needs.
launch_few_fds() { # DAEMON ARGS...
	(daemon=$1
	 shift
	 exec 3<&- 4<&- 5<&- 6<&- 7<&-
	 ulimit -S -n 8 && PPCTIME_TIMEKEEPERD=$daemon exec "$run" "$@") \
		>"$work/out" 2>"$work/err" </dev/null
	status=$?
}

# With that, a launch with its own keeper and one with the daemon (a new
# one, ended after) run, and the program has the limit and the free
# descriptors plain QEMU gives it.
check_few_fds() { # NAME PROBE
	launch_few_fds off --no-vdso "$2" nofile
	plain=$(cat "$work/out")
	if [ "$status" -ne 0 ] || [ -z "$plain" ]; then
		skip "$1" "plain QEMU does not run with 5 descriptors free: status $status"
		return
	fi
	mkdir -m 0700 "$work/daemon-$1"
	bad=
	for daemon in off "$work/daemon-$1"; do
		launch_few_fds "$daemon" -v "$2" nofile
		# A daemon it started: -v names its keeper, whose parent is its watchdog.
		keeper=$(sed -n 's/.* daemon \([0-9]*\) at .*/\1/p' "$work/err")
		if [ -n "$keeper" ]; then
			watchdog=$(ps -o ppid= -p "$keeper" | tr -d ' ')
			[ "$(cat "/proc/$watchdog/comm")" = ppctime-timekee ] && kill "$watchdog"
		fi
		if [ "$status" -ne 0 ] || [ "$(cat "$work/out")" != "$plain" ]; then
			bad="$bad; PPCTIME_TIMEKEEPERD=$daemon: status $status, $(cat "$work/out")"
		elif [ "$daemon" != off ] && [ -z "$keeper" ]; then
			bad="$bad; no daemon started in $daemon"
		fi
	done
	if [ -z "$bad" ]; then pass "$1 ($plain)"
	else fail "$1" "plain QEMU: $plain$bad"; show; fi
}

# The system call says so too, as a kernel's would, unless it is left to
# the host (--host-time-syscalls).
check_realtime() { # NAME PROBE YEAR
	launch --realtime="$3" --host-time-syscalls "$2" year
	host_year=$(value year_syscall)
	launch --realtime="$3" "$2" year
	year=$(value year) year_coarse=$(value year_coarse) year_syscall=$(value year_syscall)
	launch --realtime="$3-06-01" --host-time-syscalls "$2" compare 200 monotonic
	if [ "$year" != "$3" ] || [ "$year_coarse" != "$3" ] || [ "$year_syscall" != "$3" ]; then
		fail "$1" "CLOCK_REALTIME says year ${year:-?}, REALTIME_COARSE ${year_coarse:-?}, its system call ${year_syscall:-?}, not $3"
		show
	elif [ "$host_year" != "$(date -u +%Y)" ]; then
		fail "$1" "with --host-time-syscalls the system call says ${host_year:-?}, not the host's year"
		show
	elif [ "$status" -ne 0 ] || [ "$(value worst_monotonic)" -gt 1000000 ]; then
		fail "$1" "CLOCK_MONOTONIC moved with --realtime"; show
	else
		pass "$1"
	fi
}

# Dates Linux cannot set are refused, the latest it can is every realtime
# clock's, none wrapped.
check_realtime_bounds() { # NAME PROBE
	for when in @-9223372036854775808 @-1 @9223372036854775808 2555 2232-12-31; do
		launch --realtime="$when" "$2" year
		if [ "$status" -ne 125 ] || [ -s "$work/out" ] || ! has 'realtime takes' err; then
			fail "$1" "--realtime=$when: status $status, not refused"; show
			return
		fi
	done
	launch --realtime=2232-01-01 "$2" year
	if [ "$(value year)" = 2232 ] && [ "$(value year_coarse)" = 2232 ]; then pass "$1"
	else fail "$1" "--realtime=2232-01-01: year $(value year), REALTIME_COARSE's $(value year_coarse)"
		show; fi
}

check_tz() { # NAME PROBE
	launch --tz=-60,1 "$2" tz
	if [ "$(value minuteswest)" = -60 ] && [ "$(value dsttime)" = 1 ]; then pass "$1"
	else fail "$1" "gettimeofday's timezone is not --tz=-60,1"; show; fi
}

# PROGRAM can be an ET_DYN without PT_INTERP (the static-pie case): ld.so.
check_ldso_as_program() { # NAME TARGET PROBE
	sysroot=/usr/$(eval echo "\$TRIPLET_$2")
	ldso=
	for f in "$sysroot"/lib/ld*.so.[12]; do
		[ -f "$f" ] && ldso=$f
	done
	if [ -z "$ldso" ]; then
		skip "$1" "no ld.so in $sysroot/lib"
		return
	fi
	launch "$ldso" --library-path "$sysroot/lib" "$3" vdso
	if [ "$status" -eq 0 ] && [ "$(value listed)" = 1 ]; then pass "$1"
	else fail "$1" "the program did not run with the vDSO through $ldso"; show; fi
}

check_sysroot() { # NAME PROBE
	launch --sysroot="$work/empty-sysroot" "$2" echo
	if [ "$status" -ne 127 ] || ! has 'cannot open' err; then
		fail "$1" "a sysroot without ld.so: status $status"; show
	else
		pass "$1 ($(head -n 1 "$work/err"))"
	fi
}

# A --page-size the image was not built for is refused (a wrong one would
# read garbage, spin or crash); the right one, or none, runs.
check_page_size() { # NAME TARGET PROBE
	right=$(eval echo "\$PAGE_SIZE_$2")
	for size in 4096 8192 16384 32768 65536 131072 1048576; do
		launch --page-size=$size "$3" vdso
		if [ "$size" = "$right" ]; then
			[ "$status" -eq 0 ] && [ "$(value clock_gettime)" = 0 ] && continue
			fail "$1" "--page-size=$size, the image's own: status $status"; show
			return
		fi
		if [ "$status" -ne 125 ] || [ -s "$work/out" ] || ! has 'data page with' err; then
			fail "$1" "--page-size=$size for a $right-byte image: status $status"; show
			return
		fi
	done
	pass "$1 ($(head -n 1 "$work/err"))"
}

# What exec would refuse (status 126, as env's): no execute permission,
# not a regular file.
check_not_executable() { # NAME PROBE
	cp "$2" "$work/no-x" && chmod 0644 "$work/no-x"
	launch "$work/no-x" echo ran
	if [ "$status" -ne 126 ] || [ -s "$work/out" ] || ! has 'Permission denied' err; then
		fail "$1" "mode 0644: status $status"; show
		return
	fi
	launch "$work" echo ran
	if [ "$status" -ne 126 ] || ! has 'not a regular file' err; then
		fail "$1" "a directory: status $status"; show
	else
		pass "$1"
	fi
}

# The loader needs no C library: static, no dynamic section, no
# interpreter, nothing left undefined, no libc start-up.
check_loader_freestanding() { # NAME TARGET
	cross=$(eval echo "\$CROSS_$2")
	loader=$top_builddir/loader/$(eval echo "\$LOADER_$2")
	if ! "${cross}readelf" -lW "$loader" >"$work/out" 2>"$work/err" ||
	   ! "${cross}nm" "$loader" >"$work/symbols" 2>>"$work/err"; then
		fail "$1" "${cross}readelf or ${cross}nm failed on $loader"; show
	elif has ' DYNAMIC \| INTERP ' out; then
		fail "$1" "it has a dynamic section or an interpreter"; show
	elif grep ' U \|__libc_start_main' "$work/symbols" >"$work/out"; then
		fail "$1" "undefined or C library symbols:"; show
	else
		pass "$1 ($("${cross}size" "$loader" | awk 'NR == 2 { print $1 }') bytes of text)"
	fi
}

# The system calls QEMU_STRACE shows for "PROBE exit 0" run with OPTIONS.
strace_lines() { # [OPTIONS] PROBE
	QEMU_STRACE=1 "$run" "$@" exit 0 2>&1 >/dev/null </dev/null | grep -c '^[0-9][0-9]* '
}

# The most system calls the loader's job takes (ppctime-loader.c): per
# OBJECT (PROGRAM, its interpreter) open it, read its ELF header, program
# headers and PT_INTERP, reserve its range (a map, two trims), map each
# PT_LOAD's file pages and its .bss, close it; for the vDSO, get the image's
# size, reserve (a map, two trims), map the data pages and the image's
# pages, read the image in, make it executable, close both descriptors.
loader_syscall_bound() { # CROSS OBJECT...
	cross=$1
	shift
	bound=10
	for object in "$@"; do
		loads=$("${cross}readelf" -lW "$object" | grep -c '^ *LOAD ')
		bound=$((bound + 8 + 2 * loads))
	done
}

# PROGRAM's PT_INTERP, or nothing.
interpreter_of() { # CROSS PROGRAM
	"${1}readelf" -lW "$2" | sed -n 's/.*program interpreter: \(.*\)]$/\1/p'
}

# A file that is not an ELF program, and longer than an ELF header.
write_script() { # FILE
	printf '#!/bin/sh\n# %s\n' "a shell script is no ELF program, whatever its name" >"$1"
}

# The loader's start-up is its job alone: what a run with the vDSO makes
# beyond plain QEMU's run of the same program stays within that bound.
check_loader_syscalls() { # NAME TARGET PROBE
	cross=$(eval echo "\$CROSS_$2")
	interp=$(interpreter_of "$cross" "$3")
	loader_syscall_bound "$cross" "$3" ${interp:+"/usr/$(eval echo "\$TRIPLET_$2")$interp"}
	with=$(strace_lines "$3") without=$(strace_lines --no-vdso "$3")
	calls=$((with - without))
	if [ "$without" -lt 2 ]; then
		fail "$1" "QEMU_STRACE shows $without system calls for plain QEMU: is -strace working?"
	elif [ "$calls" -le 0 ] || [ "$calls" -gt "$bound" ]; then
		fail "$1" "$calls system calls before PROGRAM's, its job takes at most $bound"
		echo "# $with with the loader, $without under plain QEMU"
	else
		pass "$1 ($calls system calls before PROGRAM's, at most $bound)"
	fi
}

# The loader's failures, in env's terms: 127 PROGRAM's interpreter is not
# there (sysroot-T), 126 it is there but is no program, 125 the launch
# itself failed.
check_bad_interpreter() { # NAME TARGET PROBE
	interp=$(interpreter_of "$(eval echo "\$CROSS_$2")" "$3")
	mkdir -p "$work/text-sysroot/${interp%/*}"
	write_script "$work/text-sysroot/$interp"
	launch --sysroot="$work/text-sysroot" "$3" echo ran
	if [ "$status" -ne 126 ] || [ -s "$work/out" ] || ! has 'not an ELF file' err; then
		fail "$1" "an interpreter that is a text file: status $status, expected 126"; show
	else
		pass "$1 ($(head -n 1 "$work/err"))"
	fi
}

# The loader run by hand under QEMU with PPCTIME_LAUNCH=LAUNCH (none if
# empty), as ppctime-run runs it but as QEMU's program itself.
run_loader() { # TARGET LAUNCH
	qemu=$(eval echo "\$QEMU_$1")
	loader=$top_builddir/loader/$(eval echo "\$LOADER_$1")
	if [ -n "$2" ]; then
		PPCTIME_LAUNCH=$2 "$qemu" "$loader" >"$work/out" 2>"$work/err" </dev/null
	else
		"$qemu" "$loader" >"$work/out" 2>"$work/err" </dev/null
	fi
	status=$?
}

# PPCTIME_LAUNCH's fields in the order the loader's message names them
# (ppctime/launch_protocol.h), into $args: the data pages Linux 6.1's two.
loader_args() { # TARGET DATA_FD PAGE_SIZE IMAGE_FD PROGRAM_FD
	run_loader "$1" ""
	args=
	for name in $(sed -n 's/.*PPCTIME_LAUNCH=\([A-Z_,]*\).*/\1/p' "$work/err" | tr , ' '); do
		case $name in
		DATA_FD) args="$args,$2" ;;
		DATA_PAGES) args="$args,2" ;;
		PAGE_SIZE) args="$args,$3" ;;
		IMAGE_FD) args="$args,$4" ;;
		PROGRAM_FD) args="$args,$5" ;;
		*) args="$args,unknown-field-$name" ;;
		esac
	done
	args=${args#,}
}

check_loader_status() { # NAME EXPECTED MESSAGE TARGET ARGS...
	name=$1 expected=$2 message=$3
	shift 3
	run_loader "$@"
	if [ "$status" -ne "$expected" ] || [ -s "$work/out" ] || ! has "$message" err; then
		fail "$name" "status $status, expected $expected and '$message'"; show
	else
		pass "$name ($(head -n 1 "$work/err"))"
	fi
}

# The loader given PROGRAM_FD (the field's text) with FILE open as
# descriptor 3; descriptor 9, closed, for the vDSO's.
check_loader_on() { # NAME EXPECTED MESSAGE TARGET PROGRAM_FD FILE
	loader_args "$4" 9 "$(eval echo "\$PAGE_SIZE_$4")" 9 "$5"
	check_loader_status "$1" "$2" "$3" "$4" "$args" 3<"$6" 9<&-
}
add_loader_failures() { # TARGET STATIC_PROBE
	case_add check_loader_status "loader-usage-$1" 125 'no PPCTIME_LAUNCH' "$1" ""
	case_add check_loader_on "loader-bad-argument-$1" 125 'bad PROGRAM_FD' "$1" x "$2"
	case_add check_loader_on "loader-no-vdso-$1" 125 'vDSO image descriptor 9' "$1" 3 "$2"
	case_add check_loader_on "loader-not-elf-$1" 126 'not an ELF file' "$1" 3 "$work/script"
}

# stderr a closed pipe: the notice of the timekeeper's death must not kill
# its watchdog (SIGPIPE), which outlives neither the program nor the keeper.
check_closed_stderr() { # NAME PROBE
	rm -f "$work/status" "$work/killed"
	{
		sleep 0.3	# until the reader is gone
		"$run" -0 "$$-$1" --host-time-syscalls "$2" compare 1500 realtime 2>&1 >"$work/out" </dev/null &
		launcher=$!
		keeper=$(keeper_of "$$-$1") && kill -KILL "$keeper" && : >"$work/killed"
		wait $launcher
		echo $? >"$work/status"
	} | true
	: >"$work/err"
	if [ ! -f "$work/killed" ]; then
		fail "$1" "no ppctime-tk child found"
	elif [ "$(cat "$work/status")" = 0 ] && has '^reads=' out; then
		pass "$1"
	else
		fail "$1" "status $(cat "$work/status"), the program did not finish"; show
	fi
}

# Not even the launcher's parent, without CAP_SYS_PTRACE, opens the
# timekeeper's or its watchdog's memory, where a write would reach the
# data page: neither is dumpable.  (The launch is QEMU, as under plain
# QEMU, and maps the page read-only.)  Root drops CAP_SYS_PTRACE alone:
# without CAP_DAC_OVERRIDE too it could not reach a tree below another
# user's directory, as sbuild's is below /build (sbuild:sbuild, 2770).
# The launch's stderr is kept: why it did not start.
check_not_dumpable() { # NAME PROBE
	drop=
	if [ "$(id -u)" -eq 0 ]; then
		drop="setpriv --bounding-set=-sys_ptrace --inh-caps=-sys_ptrace"
		if ! $drop true 2>/dev/null; then
			skip "$1" "root cannot drop CAP_SYS_PTRACE here (setpriv)"
			return
		fi
	fi
	# shellcheck disable=SC2016
	$drop sh -c "$keeper_of_sh"'
		run=$0
		"$run" -0 "$2" "$1" compare 2000 monotonic >/dev/null </dev/null &
		launcher=$!
		keeper=$(keeper_of "$2")
		echo "keeper=${keeper:-none}"
		for pid in $keeper $(ps -o ppid= -p "${keeper:-0}"); do
			true 3<>"/proc/$pid/mem" 2>/dev/null && echo "opened=$pid"
		done
		kill $launcher
		wait $launcher
	' "$run" "$2" "$$-$1" >"$work/out" 2>"$work/err"
	if [ "$(value keeper)" = none ]; then
		fail "$1" "no timekeeper found"; show
	elif has '^opened=' out; then
		fail "$1" "opened /proc/PID/mem read-write of $(value opened)"; show
	else
		pass "$1"
	fi
}

# A daemon the program leaves behind must never read a stale or wrapped
# clock, however the launch ends (the program exits; the launcher, the
# timekeeper or both are killed): every clock within 1 ms of the system
# call 2 s and 30 s after.  Started first, checked last.
orphan_ways="exit kill-launcher kill-keeper kill-both"
start_orphan() { # TARGET PROBE HOW
	out=$work/orphan-$1-$3
	if [ "$3" = exit ]; then
		"$run" --host-time-syscalls "$2" orphan exit >"$out" 2>"$out.err" </dev/null
		return
	fi
	"$run" -0 "$$-orphan-$1-$3" --host-time-syscalls "$2" orphan wait >"$out" 2>"$out.err" </dev/null &
	launcher=$!
	keeper=$(keeper_of "$$-orphan-$1-$3")
	for _ in $(seq 200); do
		grep -q '^daemon=' "$out" && break
		sleep 0.05
	done
	case $3 in
	kill-launcher) kill -KILL $launcher ;;
	kill-keeper) kill -KILL $keeper; sleep 0.2; kill -TERM $launcher ;;
	kill-both) kill -KILL $keeper $launcher ;;
	esac
	wait $launcher 2>/dev/null
}

check_orphan() { # NAME TARGET HOW
	out=$work/orphan-$2-$3
	for _ in $(seq 900); do
		grep -q '^done' "$out" && break
		sleep 0.1
	done
	worst=$(sed -n 's/^after=[0-9]*s //p' "$out" | tr ' ' '\n' | sed 's/^worst_[^=]*=//' |
		sort -n | tail -n 1)
	if ! grep -q '^done' "$out" || [ "$(grep -c '^after=' "$out")" -ne 2 ]; then
		fail "$1" "the daemon did not report 2 s and 30 s after"
		sed 's/^/# out: /' "$out" "$out.err"
	elif [ "$worst" -gt 1000000 ]; then
		fail "$1" "a clock $worst ns off the system call's"
		sed 's/^/# out: /' "$out"
	else
		pass "$1 (worst $worst ns off the system call, 2 s and 30 s after)"
	fi
}

# launch ARGS..., killed if it takes more than 10 s: a refusal must not hang.
launch_bounded() {
	timeout -k 5 10 "$run" "$@" >"$work/out" 2>"$work/err" </dev/null
	status=$?
}

check_refusal() { # NAME STATUS MESSAGE ARGS...
	name=$1 expected=$2 message=$3
	shift 3
	launch_bounded "$@"
	if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
		fail "$name" "hung: killed after 10 s"; show
	elif [ "$status" -ne "$expected" ] || [ -s "$work/out" ] || ! has "$message" err; then
		fail "$name" "status $status, expected $expected and '$message'"; show
	else
		pass "$name ($(head -n 1 "$work/err"))"
	fi
}

# Option values ppctime-run must refuse as it parses them (status 125,
# whatever PROGRAM is).
check_refused_values() { # NAME MESSAGE OPTION...
	name=$1 message=$2
	shift 2
	for option in "$@"; do
		launch "$option" /bin/true
		if [ "$status" -ne 125 ] || ! has "$message" err; then
			fail "$name" "$option: status $status, expected 125 and '$message'"; show
			return
		fi
	done
	pass "$name ($(head -n 1 "$work/err"))"
}

add_option_values() {
	case_add check_refused_values refuse-nonexistent-date 'no such date' \
		--realtime=2000-02-30 --realtime=1999-02-29 '--realtime=2000-12-31 23:59:60'
	# settimeofday(2)'s ranges: 15 hours, an int.
	case_add check_refused_values refuse-tz-out-of-range 'tz takes' --tz=901 --tz=-901 \
		--tz=+1440 --tz=-1440 --tz=60,2147483648 --tz=60,-2147483649 \
		--tz=60,99999999999999999999
	case_add check_refused_values refuse-page-size-not-decimal 'page-size takes' \
		--page-size=010000 --page-size=0x10000 --page-size=+65536 '--page-size= 65536'
}

# A FIFO is not waited for: as PROGRAM, as image or as PROGRAM's
# interpreter (which the loader opens in the guest, through the sysroot).
add_fifos() { # TARGET PROBE
	mkfifo "$work/fifo-$1"
	case_add check_refusal "refuse-fifo-program-$1" 126 'not a regular file' "$work/fifo-$1"
	case_add check_refusal "refuse-fifo-vdso-$1" 125 'not a regular file' \
		--vdso="$work/fifo-$1" "$2" echo ran
	interp=$(interpreter_of "$(eval echo "\$CROSS_$1")" "$2")
	mkdir -p "$work/fifo-sysroot-$1/${interp%/*}"
	mkfifo "$work/fifo-sysroot-$1/$interp"
	case_add check_refusal "refuse-fifo-interpreter-$1" 126 'Illegal seek' \
		--sysroot="$work/fifo-sysroot-$1" "$2" echo ran
}

# A PT_INTERP naming no file ("", its first byte NUL): exec's ENOENT,
# from ppctime-run and from the loader.
add_empty_interpreter() { # TARGET PROBE
	offset=$("$(eval echo "\$CROSS_$1")readelf" -lW "$2" | awk '$1 == "INTERP" { print $2 }')
	patched "$2" $((offset)) 0 "$work/empty-interp-$1"
	case_add check_refusal "refuse-empty-interpreter-$1" 127 'empty ELF interpreter' \
		"$work/empty-interp-$1" echo ran
	case_add check_loader_on "loader-empty-interpreter-$1" 127 'empty ELF interpreter' \
		"$1" 3 "$work/empty-interp-$1"
}

# Linux's earliest time, 1970-01-01 00:00:00, by date and by seconds.
check_realtime_epoch() { # NAME PROBE
	for when in 1970 @0; do
		launch --realtime="$when" "$2" year
		if [ "$status" -ne 0 ] || [ "$(value year)" != 1970 ] ||
		   [ "$(value year_coarse)" != 1970 ]; then
			fail "$1" "--realtime=$when: status $status, year $(value year)"; show
			return
		fi
	done
	pass "$1"
}

# The statuses env, chroot and timeout use: 125 for ppctime-run's own
# errors, 126 for a PROGRAM it cannot run, 127 for none.
check_launch() { # NAME STATUS STREAM PATTERN ARGS...: STREAM out or err
	name=$1 expected=$2 stream=$3 pattern=$4
	shift 4
	launch "$@"
	if [ "$status" -eq "$expected" ] && has "$pattern" "$stream"; then pass "$name"
	else fail "$name" "$*: status $status, expected $expected and '$pattern'"; show; fi
}
check_version() {
	launch --version
	if [ "$status" -eq 0 ] && [ "$(head -n 1 "$work/out")" = "ppctime-run (ppctime) $VERSION" ] &&
	   has '^Copyright ' out && has '^License ' out; then pass version
	else fail version "--version: status $status"; show; fi
}
add_usage() {
	case_add check_launch usage 0 out '^Usage: ppctime-run' --help
	case_add check_version
	case_add check_launch bad-option 125 err 'ppctime-run --help' --bogus-option /bin/true
	case_add check_launch refuse-host-program 126 err 'not a powerpc program' \
		/bin/sh -c true
	case_add check_launch refuse-missing-program 127 err 'No such file' \
		"$work/no-such-program"
}

# A launcher without its loader and images beside it says which file it
# missed, with status 125.
check_missing_files() { # NAME PROBE
	mkdir -p "$work/alone"
	cp "$run" "$work/alone/ppctime-run"
	status=0
	"$work/alone/ppctime-run" "$2" echo ran >"$work/out" 2>"$work/err" || status=$?
	if [ "$status" -eq 125 ] && [ ! -s "$work/out" ] && has 'was the target enabled' err; then
		pass "$1 ($(head -n 1 "$work/err"))"
	else
		fail "$1" "status $status"; show
	fi
}

# The preload in a program ppctime-run did not start: it says so, with
# status 125, rather than let QEMU run PROGRAM with no vDSO.
check_preload_alone() {
	LD_PRELOAD=$top_builddir/preload/ppctime-qemu-preload.so /bin/true \
		>"$work/out" 2>"$work/err"
	status=$?
	if [ "$status" -eq 125 ] && has 'no usable ppctime-launch memfd' err; then
		pass preload-alone
	else
		fail preload-alone "status $status"; show
	fi
}

if [ ! -x "$run" ]; then
	plan 1
	skip launcher "$run not built"
	exit 0
fi
check_elfv2() { # NAME
	launch "$probes/elfv2-probe-ppc64"
	if [ "$status" -eq 0 ] && has 'entry r12 ok' out; then pass "$1"
	else fail "$1" "status $status"; show; fi
}

add_usage
add_option_values
case_add check_preload_alone
qemu_dirs "${TARGETS%% *}"
case_add check_qemu_directory "$probes/launcher-probe-static-${TARGETS%% *}"
for how in "missing:$work/missing:No such file" "no-qemu:$work/no-qemus:holds no" \
	   "not-elf:$work/qemus/script:is a script"; do
	rest=${how#*:}
	case_add check_qemu_refused "qemu-option-${how%%:*}" "${rest%%:*}" "${rest#*:}" \
		"$probes/launcher-probe-static-${TARGETS%% *}"
done
write_script "$work/script"
for t in $TARGETS; do
	# PIE (ET_DYN with PT_INTERP), static (ET_EXEC), and ET_EXEC with PT_INTERP.
	dyn=$probes/launcher-probe-$t static=$probes/launcher-probe-static-$t
	image=$top_builddir/vdso-kernel/$(vdso_image "$t")
	if [ ! -f "$image" ] || [ ! -x "$dyn" ] || [ ! -x "$static" ]; then
		case_add skip "launcher-$t" "$image or the probes not built"
		continue
	fi
	case_add check_vdso_seen "vdso-dynamic-$t" "$dyn"
	case_add check_vdso_seen "vdso-static-$t" "$static"
	case_add check_vdso_seen "vdso-dynamic-nopie-$t" "$probes/launcher-probe-nopie-$t"
	case_add check_vdso_used "vdso-used-dynamic-$t" "$dyn"
	case_add check_vdso_used "vdso-used-static-$t" "$static"
	case_add check_auxv "auxv-dynamic-$t" "$dyn"
	case_add check_auxv "auxv-static-$t" "$static"
	case_add check_passthrough "passthrough-dynamic-$t" "$dyn"
	case_add check_passthrough "passthrough-static-$t" "$static"
	case_add check_environment "environment-$t" "$dyn"
	case_add check_identity "identity-dynamic-$t" "$dyn"
	case_add check_identity "identity-static-$t" "$static"
	case_add check_origin "origin-$t" "$probes/origin-$t/origin-probe"
	case_add check_status "exit-status-$t" 42 "$dyn" exit 42
	case_add check_status "death-by-signal-$t" 143 "$dyn" signal 15
	case_add check_status "death-by-signal-static-$t" 139 "$static" signal 11
	case_add check_forwarded_signal "forwarded-sigterm-$t" "$dyn" TERM 143
	case_add check_forwarded_signal "forwarded-sigint-$t" "$dyn" INT 130
	case_add check_core_dump "core-dump-status-$t" "$dyn"
	case_add check_group_signal "group-signal-once-$t" "$dyn"
	case_add check_few_fds "few-free-fds-$t" "$dyn"
	case_add check_no_vdso "no-vdso-dynamic-$t" "$t" "$dyn"
	case_add check_no_vdso "no-vdso-static-$t" "$t" "$static"
	case_add check_static_qemu "static-qemu-$t" "$dyn"
	case_add check_status "no-vdso-status-$t" 42 --no-vdso "$static" exit 42
	case_add check_ldso_as_program "ldso-as-program-$t" "$t" "$dyn"
	case_add check_sysroot "sysroot-$t" "$dyn"
	add_bad_images "$t" "$dyn" "$image"
	add_layout_refusals "$t" "$dyn" "${image%.so}-datastore.so"
	for what in seen used agreement linux_7_3; do
		case_add "check_datastore_$what" "$t" "$dyn" "${image%.so}-datastore.so"
	done
	case_add check_page_size "refuse-page-size-$t" "$t" "$dyn"
	case_add check_not_executable "refuse-not-executable-$t" "$dyn"
	case_add check_missing_files "refuse-missing-files-$t" "$dyn"
	case_add check_bad_interpreter "refuse-bad-interpreter-$t" "$t" "$dyn"
	add_fifos "$t" "$dyn"
	add_empty_interpreter "$t" "$dyn"
	case_add check_realtime_epoch "realtime-epoch-$t" "$dyn"
	case_add check_loader_freestanding "loader-freestanding-$t" "$t"
	case_add check_loader_syscalls "loader-syscalls-static-$t" "$t" "$static"
	case_add check_loader_syscalls "loader-syscalls-dynamic-$t" "$t" "$dyn"
	add_loader_failures "$t" "$static"
	case_add check_closed_stderr "closed-stderr-$t" "$dyn"
	case_add check_not_dumpable "not-dumpable-$t" "$dyn"
	# Death is seen at once, a stop after 20 ms without updates, both as
	# soon as the watchdog gets a CPU: on a loaded machine tens of ms.
	# A page left stale would be a second off.
	case_add check_keeper_loss "timekeeper-killed-$t" KILL realtime "$dyn" \
		'timekeeper died (signal 9)' 250000000
	case_add check_keeper_loss "timekeeper-stalled-$t" STOP monotonic "$static" \
		'timekeeper stalled' 250000000
	case_add check_keeper_loss_syscalls "timekeeper-killed-syscalls-$t" "$dyn"
	if [ "$t" = ppc32 ]; then
		# Past 2038 glibc's ppc32 clock_gettime leaves the 32-bit vDSO
		# entry for the system call, which gives the host's time.
		case_add check_realtime "realtime-2037-$t" "$dyn" 2037
		case_add skip "tz-$t" "glibc's 32-bit gettimeofday zeroes the timezone itself"
	else
		case_add check_realtime "realtime-2040-$t" "$dyn" 2040
		case_add check_realtime_bounds "realtime-bounds-$t" "$dyn"
		case_add check_tz "tz-$t" "$dyn"
	fi
	[ "$t" != ppc64 ] || case_add check_elfv2 "elfv2-big-endian-$t"
done
# The orphans, started now and checked last.
static_qemus=$(static_qemus 2>"$work/why") || static_qemus=
static_qemus_why=$(cat "$work/why")
for t in $TARGETS; do
	dyn=$probes/launcher-probe-$t
	[ -x "$dyn" ] || continue
	for how in $orphan_ways; do
		start_orphan "$t" "$dyn" "$how"
		case_add check_orphan "orphan-after-$how-$t" "$t" "$how"
	done
done
run_cases
exit $failed
