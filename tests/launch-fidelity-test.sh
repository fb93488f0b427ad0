#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A launch as plain QEMU's, where launcher-test.sh does not look, with
# configure's QEMU and the second QEMU, of the other kind (tests/second-qemu,
# as make check fetches it; the static one of the two is QEMU 10): a clock
# shifted by --realtime
# and --tz stays so once its timekeeper is gone (killed while stopped), a
# static QEMU runs on when its file is overwritten, as exec keeps it, and
# where it is not a PIE, the process bears QEMU's name, and what cannot be
# run so is refused saying why (a script for QEMU, an unreadable QEMU, a
# hard limit of 5 open files).
# Guest side: tests/guest/launcher-probe.c.
. "${srcdir:=.}/tests/test-lib.sh"

run=$top_builddir/run/ppctime-run
PPCTIME_TIMEKEEPERD=off
export PPCTIME_TIMEKEEPERD
make_work
command -v pgrep >/dev/null || {
	echo "Bail out! launch-fidelity-test: no pgrep: install the Debian package procps"
	exit 1
}

# One target serves: the paths under test are the host's.
case " $TARGETS " in
*" ppc64le "*) t=ppc64le ;;
*) t=${TARGETS%% *} ;;
esac
probe=$top_builddir/tests/guest/launcher-probe-$t
eval "qemu=\$QEMU_$t"
second=$top_builddir/tests/second-qemu/root/usr/bin/${qemu##*/}
if [ -f "$top_builddir/tests/second-qemu/version" ] && [ ! -f "$top_builddir/tests/second-qemu/why" ]; then
	no_second=
else
	no_second="no second QEMU: $(tail -n 1 "$top_builddir/tests/second-qemu/why" 2>/dev/null ||
		echo 'not fetched (make check fetches it)')"
fi
# The static one of the two, for what only a static QEMU has.
if is_static "$qemu"; then
	static=$qemu no_static=
elif [ -z "$no_second" ] && is_static "$second"; then
	static=$second no_static=
else
	static= no_static="no static QEMU: configure's is dynamic${no_second:+, $no_second}"
fi

# wait_ready: until the probe started in the background says "ready".
wait_ready() {
	for _ in $(seq 400); do
		has '^ready' out && return 0
		sleep 0.05
	done
	return 1
}

# --realtime and --tz survive their keeper: stopped, it is killed by its
# watchdog, which leaves the page to the system call, whose answers the
# preload or the host vDSO shift as the keeper did.  No realtime reading
# may fall back to the host's year, nor CLOCK_REALTIME step back.
check_shifted_clock() { # NAME QEMU
	"$run" -0 "$$-$1" --qemu="$2" --realtime=2040-01-01 --tz=-60,1 "$probe" shifted 2000 \
		>"$work/out" 2>"$work/err" </dev/null &
	launcher=$!
	keeper=$(keeper_of "$$-$1")
	sleep 0.3
	[ -n "$keeper" ] && kill -STOP "$keeper"
	wait $launcher
	status=$?
	[ -n "$keeper" ] && kill -CONT "$keeper" 2>/dev/null
	back=$(value back)
	if [ -z "$keeper" ]; then
		fail "$1" "no ppctime-tk child found"; show
	elif [ "$status" -ne 0 ] || [ -z "$back" ]; then
		fail "$1" "status $status"; show
	elif ! has 'timekeeper \(stalled\|died\)' err; then
		fail "$1" "the keeper was not killed while the program ran"; show
	elif [ "$(value low_year)" != 2040 ]; then
		fail "$1" "a realtime reading said $(value low_year), not 2040"; show
	elif [ "$back" -gt 1000000 ]; then
		fail "$1" "CLOCK_REALTIME stepped back $back ns"; show
	elif [ "$(value minuteswest)" != -60 ] || [ "$(value dsttime)" != 1 ]; then
		fail "$1" "gettimeofday's timezone is not --tz=-60,1 after the keeper"; show
	else
		pass "$1 ($(value reads) reads, 2040 throughout, worst step back $back ns)"
	fi
}

# cp over a running static QEMU: exec would refuse it (ETXTBSY), and the
# program runs on.  The file truncated first, as cp does: pages mapped from
# it would be gone (SIGBUS).
check_overwritten() { # NAME QEMU_DIR
	mkdir "$work/q"
	cp "$2/${qemu##*/}" "$work/q/"
	"$run" --qemu="$work/q" "$probe" signals >"$work/out" 2>"$work/err" </dev/null &
	launcher=$!
	wait_ready
	: >"$work/q/${qemu##*/}"
	cp "$2/qemu-ppc" "$work/q/${qemu##*/}"
	kill -TERM $launcher
	wait $launcher 2>/dev/null	# no "Bus error" from the shell
	status=$?
	if [ "$status" -ne 0 ] || ! has '^TERM' out; then
		fail "$1" "status $status once its file was overwritten"; show
	else
		pass "$1"
	fi
	rm -rf "$work/q"
}

# ps, pgrep and killall know a process by its name: QEMU's, as exec names
# it after its file (15 bytes of it), not ppctime-run's nor ld.so's.
# A QEMU root alone may write, run by another user, is mapped as it is,
# its pages shared with every program running it, not copied: a package
# upgrade renames over it, never writes it in place.
check_system_qemu_shared() { # NAME QEMU_DIR
	mkdir -m 755 "$work/sysq"
	cp "$2/${qemu##*/}" "$work/sysq/"
	chmod 755 "$work" "$work/sysq/${qemu##*/}"
	unprivileged env PPCTIME_TIMEKEEPERD=off "$run" --qemu="$work/sysq" "$probe" signals \
		>"$work/out" 2>"$work/err" </dev/null &
	launcher=$!
	wait_ready
	pid=$(pgrep -n -u 65534 -x "${qemu##*/}")
	mapped=$(grep -c " $work/sysq/${qemu##*/}\$" "/proc/${pid:-0}/maps" 2>/dev/null)
	copied=$(grep -c "memfd:${qemu##*/}" "/proc/${pid:-0}/maps" 2>/dev/null)
	kill -TERM "${pid:-$launcher}"
	wait $launcher
	status=$?
	if [ "$status" -ne 0 ] || [ -z "$pid" ]; then
		fail "$1" "status $status, process '$pid'"; show
	elif [ "${mapped:-0}" -eq 0 ] || [ "${copied:-0}" -ne 0 ]; then
		fail "$1" "$mapped mappings of the file, $copied of a copy"
	else
		pass "$1 ($mapped mappings of the file itself)"
	fi
	rm -rf "$work/sysq"
}

check_name() { # NAME QEMU
	"$run" --qemu="$2" "$probe" signals >"$work/out" 2>"$work/err" </dev/null &
	launcher=$!
	wait_ready
	comm=$(cat "/proc/$launcher/comm" 2>/dev/null)
	kill -TERM $launcher
	wait $launcher
	status=$?
	want=$(printf '%.15s' "${2##*/}")
	if [ "$comm" != "$want" ]; then
		fail "$1" "the process is named '$comm', not '$want'"; show
	elif [ "$status" -ne 0 ]; then
		fail "$1" "status $status"; show
	else
		pass "$1 ($comm)"
	fi
}

# A static QEMU that is not a PIE runs where it was linked, given the
# loader and the host vDSO: a stand-in says so.
check_not_pie() { # NAME
	fake=$top_builddir/tests/fake-qemu-nopie
	launch --qemu="$fake" --realtime=2040-01-01 "$probe" exit 0
	linked=$(readelf -lW "$fake" 2>/dev/null | awk '$1 == "LOAD" { print $3; exit }')
	main=$(value main)
	if [ "$status" -ne 0 ] || [ -z "$main" ]; then
		fail "$1" "status $status"; show
	elif [ $((main < linked || main >= linked + 0x10000000)) = 1 ]; then
		fail "$1" "it runs at $main, not where it was linked ($linked)"; show
	elif [ "$(value execfd)" = 0 ] || [ "$(value vdso)" != 1 ] || [ "$(value year)" != 2040 ]; then
		fail "$1" "not given the loader and the host vDSO"; show
	else
		pass "$1 (main at $main)"
	fi
}

# REFUSAL: the launch is refused (125) saying so; plain QEMU (--no-vdso),
# as exec runs it, then runs.  QEMU: the one given by --qemu; RUN: how to
# run a command (its words).
check_refused() { # NAME QEMU MESSAGE RUN...
	name=$1 use_qemu=$2 message=$3
	shift 3
	"$@" "$run" --qemu="$use_qemu" "$probe" exit 0 >"$work/out" 2>"$work/err" </dev/null
	status=$?
	"$@" "$run" --no-vdso --qemu="$use_qemu" "$probe" exit 0 >"$work/plain" 2>&1 </dev/null
	plain=$?
	if [ "$status" -ne 125 ] || ! has "$message" err || ! has 'no-vdso' err; then
		fail "$name" "status $status, not refused saying '$message' and --no-vdso"; show
	elif [ "$plain" -ne 0 ]; then
		fail "$name" "--no-vdso: status $plain"; sed 's/^/# plain: /' "$work/plain"
	else
		pass "$name ($(sed 's/^ppctime-run: //' "$work/err" | cut -c 1-60)...)"
	fi
}

# As a user for whom the execute-only QEMU is so: root reads any file.
unprivileged() {
	if [ "$(id -u)" != 0 ]; then
		"$@"
	else
		setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
	fi
}

# Closes what the caller leaves open (make's jobserver) and sets a hard
# limit of 5 open files, as `ulimit -n 5` does.
five_files() { sh -c 'exec 3<&- 4<&-; ulimit -n 5 && exec "$@"' five_files "$@"; }

# A copy of the QEMU exec runs, which no one but its owner (root) reads.
check_execute_only_refused() { # NAME
	chmod 755 "$work"
	cp "$qemu" "$work/qemu-exec-only"
	chmod 0711 "$work/qemu-exec-only"
	check_refused "$1" "$work/qemu-exec-only" 'must read it' unprivileged
}

for kind in configure second; do
	if [ $kind = second ] && [ -n "$no_second" ]; then
		case_add skip "shifted-clock-keeper-stopped-$kind" "$no_second"
		case_add skip "process-name-$kind" "$no_second"
		continue
	fi
	q=$qemu
	[ $kind = second ] && q=$second
	case_add check_shifted_clock "shifted-clock-keeper-stopped-$kind" "$q"
	case_add check_name "process-name-$kind" "$q"
done
if [ -n "$no_static" ]; then
	case_add skip static-qemu-overwritten "$no_static"
else
	case_add check_overwritten static-qemu-overwritten "${static%/*}"
fi
if [ -n "$no_static" ]; then
	case_add skip static-system-qemu-shared "$no_static"
elif [ "$(id -u)" != 0 ] || ! unprivileged test -r "$probe" 2>/dev/null; then
	case_add skip static-system-qemu-shared "needs root, setpriv, and a build tree uid 65534 can read"
else
	case_add check_system_qemu_shared static-system-qemu-shared "${static%/*}"
fi

case_add check_not_pie static-qemu-not-pie

printf '#!/bin/sh\nexec "%s" "$@"\n' "$qemu" >"$work/qemu-script"
chmod +x "$work/qemu-script"
case_add check_refused qemu-script-refused "$work/qemu-script" 'is a script' env

if ! unprivileged true 2>/dev/null; then
	case_add skip qemu-execute-only-refused "no setpriv to drop root's privileges"
elif ! unprivileged test -r "$probe"; then
	case_add skip qemu-execute-only-refused "the build tree cannot be read by uid 65534"
else
	case_add check_execute_only_refused qemu-execute-only-refused
fi

case_add check_refused hard-limit-of-5-files-refused "$qemu" 'ulimit -Hn' five_files
if [ -n "$no_second" ]; then
	case_add skip hard-limit-of-5-files-refused-second "$no_second"
else
	case_add check_refused hard-limit-of-5-files-refused-second "$second" 'ulimit -Hn' five_files
fi
run_cases
exit $failed
