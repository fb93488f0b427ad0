#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ppctime's tests of the sysroots (sysroot/TRIPLET, 'make sysroot'): the
# sysroot works as a cross sysroot, and the glibc in it reaches the vDSO.
# Per target, tests/glibc/sysroot-probe.c is built against the sysroot
# (sysroot/TRIPLET-gcc), dynamic and static, and on ppc32 also with 64-bit
# time_t, then run by ppctime-run --sysroot:
#   - the dynamic probe runs on the sysroot's libc, not Debian's;
#   - the fast clocks make no time system call (QEMU's -strace), while
#     with --no-vdso the same calls are all system calls;
#   - with --realtime=2040-01-01 a 64-bit time_t program reads 2040 from
#     clock_gettime, gettimeofday, time and timespec_get without a system
#     call, and a 32-bit one gets EOVERFLOW where glibc defines it;
#   - a bad clock id gives EINVAL through every entry, with the vDSO and
#     without it, a clock the vDSO hands on leaves errno alone, and a bad
#     pointer that clock's system call refuses gives EFAULT (64-bit time_t);
#   - __ppc_get_timebase_freq is the timekeeper's frequency, and the
#     timebase really runs at it;
#   - with a vDSO missing an entry glibc binds, everything still works, the
#     missing entry's calls going to the system call or, on ppc32, to the
#     32-bit entry;
#   - tests/glibc/cxx-probe.cc, built by sysroot/TRIPLET-g++ dynamic and
#     static, reads std::chrono's clocks without a system call, throws and
#     catches, and runs a thread.
# PPCTIME_SYSROOTS=sysroot-2.43 tests another glibc version's sysroots
# (make check-all: sysroot-VERSION/TRIPLET, sysdeps/Rules.mk).
# Protocol: tests/README.md.
. "${srcdir:=.}/tests/test-lib.sh"
run=$top_builddir/run/ppctime-run
sysroots=${PPCTIME_SYSROOTS:-sysroot}
probe_src=$srcdir/tests/glibc/sysroot-probe.c
make_work
fast_calls=100
# Every launch with QEMU's -strace on: the err file has the system calls.
QEMU_STRACE=1
export QEMU_STRACE

# The time system calls the last launch made once in main, which the
# probes mark with a getppid(): a static glibc 2.43 may read
# CLOCK_MONOTONIC before it has found the vDSO, as on Linux (malloc's
# tcache_key_initialize falls back to random_bits() for a key with too
# few or too many bits set: 3 ppc32 launches in 150 here).  Without the
# mark, all of them.  QEMU 7.2 names no clock_getres_time64 (ppc32's 406)
# and answers it ENOSYS.
time_syscalls() {
	awk '/^[0-9]+ getppid\(/ { n = 0; next }
		/^[0-9]+ ((clock_gettime|clock_gettime64|clock_getres|clock_getres_time64|gettimeofday|time)\(|Unknown syscall 40[36]$)/ { n++ }
		END { print n + 0 }' "$work/err"
}

# check_linked NAME COMPILER SOURCE [FLAG...]: COMPILER links SOURCE with
# the sysroot's start files and C library, not Debian's.
check_linked() {
	local name=$1 compiler=$2 source=$3 linked
	shift 3
	linked=$(cd "$work" && "$compiler" "$@" -o "$work/trace" "$source" \
		-Wl,--trace 2>/dev/null | grep -E '/(crt1|Scrt1)\.o$|/libc\.(a|so(\.6)?)$' | sort -u)
	case $(printf '%s\n' "$linked" | grep -vc "^$sysroot/") in
	0) pass "$name: builds against the sysroot" ;;
	*) fail "$name: builds against the sysroot" "linked $(echo $linked)" ;;
	esac
}

# reported KEY: the value of "KEY: value" in the last launch's output.
reported() { sed -n "s/^$1: //p" "$work/out"; }

# variants TARGET: the probe's builds for TARGET.
variants() {
	echo dynamic static
	[ "$1" != ppc32 ] || echo dynamic-time64 static-time64
}
# time64_of TARGET VARIANT: yes if the variant's time_t is 64-bit.
time64_of() {
	case $1:$2 in
	ppc32:*-time64) echo yes ;;
	ppc32:*) echo no ;;
	*) echo yes ;;
	esac
}
# partial_entries TARGET VARIANT: ENTRY:CALLS, each vDSO entry glibc binds
# taken out in turn and the time system calls its calls then make (empty:
# some).  Where the missing entry has another vDSO entry behind it
# (ppc32's 64-bit entries), still none.
partial_entries() {
	case $1:$2 in
	ppc32:*-time64) echo "__kernel_clock_getres_time64:0 __kernel_clock_gettime64:0" ;;
	ppc32:*) echo "__kernel_clock_gettime64:0" ;;
	*) echo "__kernel_time:$fast_calls __kernel_gettimeofday:$fast_calls __kernel_clock_getres:" ;;
	esac
}
# Per target with a sysroot and a launcher, per variant: built against the
# sysroot, fast clocks, 2040, errno, tbfreq, and the sysroot's libc
# (dynamic), EFAULT (64-bit time_t), each partial vDSO; C++ dynamic and
# static: built against the sysroot, and run.  Without: a SKIP or a FAIL.
results=0
for target in $TARGETS; do
	eval "triplet=\$TRIPLET_$target"
	if [ ! -f "$top_builddir/$sysroots/$triplet.stamp" ] || [ ! -x "$run" ]; then
		results=$((results + 1))
		continue
	fi
	for variant in $(variants "$target"); do
		results=$((results + 5 + $(count $(partial_entries "$target" "$variant"))))
		[ "$variant" != dynamic ] || results=$((results + 1))
		[ "$(time64_of "$target" "$variant")" = no ] || results=$((results + 1))
	done
	results=$((results + 2 * 2))
done
plan "$results"

for target in $TARGETS; do
	eval "triplet=\$TRIPLET_$target"
	sysroot=$top_builddir/$sysroots/$triplet
	if [ ! -f "$sysroot.stamp" ]; then
		skip "$sysroots $target" "no sysroot built in $sysroot (make sysroot; sysroot-VERSION: make check-all)"
		continue
	fi
	if [ ! -x "$run" ]; then
		fail "$sysroots $target" "$run is not built"
		continue
	fi

	for variant in $(variants "$target"); do
		name="$sysroots $target $variant"
		flags=
		case $variant in static*) flags="$flags -static" ;; esac
		case $variant in *-time64) flags="$flags -D_TIME_BITS=64 -D_FILE_OFFSET_BITS=64" ;; esac
		probe=$work/probe-$target-$variant
		# shellcheck disable=SC2086
		if ! "$sysroot-gcc" -std=gnu11 -Wall -Wextra -O2 $flags \
			-o "$probe" "$probe_src" >"$work/out" 2>&1; then
			fail "$name: builds against the sysroot" "$(head -n 5 "$work/out" | tr '\n' ' ')"
			continue
		fi
		# shellcheck disable=SC2086
		check_linked "$name" "$sysroot-gcc" "$probe_src" $flags
		time64=$(time64_of "$target" "$variant")

		if [ "$variant" = dynamic ]; then
			launch --sysroot="$sysroot" "$probe" libc
			libc=$(reported libc)
			case $libc in
			"$sysroot"/*) pass "$name: runs on the sysroot's libc" ;;
			*) fail "$name: runs on the sysroot's libc" "libc mapped from '$libc' (status $status)"; show ;;
			esac
		fi

		# The vDSO is used: no time system call from the fast clocks.
		launch --sysroot="$sysroot" "$probe" fast $fast_calls
		with_vdso=$(time_syscalls)
		fast_ok=$(reported fast)
		launch --no-vdso --sysroot="$sysroot" "$probe" fast $fast_calls
		without_vdso=$(time_syscalls)
		fast_ok="$fast_ok $(reported fast)"
		echo "info: $name: $fast_calls rounds of every fast entry: $with_vdso time system calls with the vDSO, $without_vdso without"
		if [ "$with_vdso" -eq 0 ] && [ "$without_vdso" -ge $fast_calls ] && [ "$fast_ok" = "ok ok" ]; then
			pass "$name: fast clocks make no system call"
		else
			fail "$name: fast clocks make no system call" \
				"$with_vdso time system calls with the vDSO, $without_vdso without (status $status)"
			show
		fi

		# Year 2040.
		launch --sysroot="$sysroot" --realtime=2040-01-01 "$probe" year
		calls=$(time_syscalls)
		if [ $time64 = yes ]; then
			expected="clock_gettime: 2040
gettimeofday: 2040
time: 2040
timespec_get: 2040"
		else
			expected="clock_gettime: -1 EOVERFLOW
gettimeofday: -1 EOVERFLOW
time: -1 EOVERFLOW
timespec_get: 0 EOVERFLOW"
		fi
		if [ "$(grep -v '^time_t:' "$work/out")" = "$expected" ] && [ "$calls" -eq 0 ]; then
			pass "$name: year 2040 ($(reported time_t) time_t) without a system call"
		else
			fail "$name: year 2040 ($(reported time_t) time_t) without a system call" \
				"$calls time system calls; saw: $(tr '\n' ';' <"$work/out")"
			show
		fi

		# errno for bad clock ids, with the vDSO and through the syscalls.
		launch --sysroot="$sysroot" "$probe" errno
		cp "$work/out" "$work/errno-vdso"
		launch --no-vdso --sysroot="$sysroot" "$probe" errno
		if [ "$(grep -c ': -1 EINVAL$' "$work/errno-vdso")" -eq 6 ] \
			&& grep -qx 'clock_gettime(CLOCK_PROCESS_CPUTIME_ID): 0 EBADF' "$work/errno-vdso" \
			&& cmp -s "$work/errno-vdso" "$work/out"; then
			pass "$name: bad clock ids give EINVAL, as the syscalls do"
		else
			fail "$name: bad clock ids give EINVAL, as the syscalls do" \
				"with the vDSO: $(tr '\n' ';' <"$work/errno-vdso") without: $(tr '\n' ';' <"$work/out")"
		fi

		# Another errno the same way: a pointer the system call refuses
		# (64-bit time_t only: with a 32-bit one glibc copies the
		# result itself and faults, as stock glibc does).
		if [ $time64 = yes ]; then
			launch --sysroot="$sysroot" "$probe" efault
			cp "$work/out" "$work/efault-vdso"
			launch --no-vdso --sysroot="$sysroot" "$probe" efault
			if grep -qx 'clock_gettime(CLOCK_PROCESS_CPUTIME_ID, bad pointer): -1 EFAULT' "$work/efault-vdso" \
				&& cmp -s "$work/efault-vdso" "$work/out"; then
				pass "$name: a bad pointer gives EFAULT, as the syscall does"
			else
				fail "$name: a bad pointer gives EFAULT, as the syscall does" \
					"with the vDSO: $(tr '\n' ';' <"$work/efault-vdso") without: $(tr '\n' ';' <"$work/out")"
			fi
		fi

		# The timebase frequency: the timekeeper's, and true.
		launch --verbose --sysroot="$sysroot" "$probe" tbfreq
		keeper=$(sed -n 's/.*timebase \([0-9]*\) Hz.*/\1/p' "$work/err" | head -n 1)
		freq=$(reported tbfreq)
		low=$(reported measured_low) high=$(reported measured_high)
		# within what the brackets allow, and 1% for the host's own error
		if [ -n "$keeper" ] && [ "$freq" = "$keeper" ] && [ "$(time_syscalls)" -eq 0 ] \
			&& awk -v f="$freq" -v l="$low" -v h="$high" 'BEGIN { exit !(l != "" && f >= l * 0.99 && f <= h * 1.01) }'; then
			pass "$name: __ppc_get_timebase_freq is the timekeeper's $keeper Hz"
		else
			fail "$name: __ppc_get_timebase_freq is the timekeeper's" \
				"glibc says '$freq', the timekeeper '$keeper', measured '$low' to '$high'"
			show
		fi

		# A vDSO without one of the entries glibc binds: the rest still
		# serve, and the missing one's calls go to the system call with
		# the same results.  The image is ppctime's with the entry's name
		# changed.
		for entry in $(partial_entries "$target" "$variant"); do
			symbol=${entry%%:*} expected_calls=${entry#*:}
			image=$work/vdso-without$symbol.so
			if ! perl -0777 -e '$_ = <STDIN>; $n = s/\Q$ARGV[0]\E\0/substr($ARGV[0], 0, -1) . "_\0"/ge; print; exit($n != 1)' \
				"$symbol" <"$top_builddir/vdso-kernel/$(vdso_image "$target")" >"$image"; then
				fail "$name: a vDSO without $symbol" "cannot make the image"
				continue
			fi
			launch --vdso="$image" --sysroot="$sysroot" "$probe" fast $fast_calls
			calls=$(time_syscalls)
			fast_ok=$(reported fast)
			launch --vdso="$image" --sysroot="$sysroot" "$probe" errno
			echo "info: $name: $fast_calls rounds with a vDSO without $symbol: $calls time system calls"
			if [ "$fast_ok" = ok ] && cmp -s "$work/errno-vdso" "$work/out" \
				&& { [ -z "$expected_calls" ] || [ "$calls" -eq "$expected_calls" ]; }; then
				pass "$name: a vDSO without $symbol"
			else
				fail "$name: a vDSO without $symbol" \
					"fast: '$fast_ok', $calls time system calls (expected ${expected_calls:-some}); errno: $(tr '\n' ';' <"$work/out")"
			fi
		done
	done

	# C++, through the sysroot's g++ wrapper: libstdc++'s clocks reach
	# the vDSO, and Debian's cross libstdc++ and libgcc_s load from the
	# sysroot.
	for link in dynamic static; do
		name="$sysroots $target C++ $link"
		flags=
		[ $link = dynamic ] || flags=-static
		probe=$work/cxx-probe-$target-$link
		# shellcheck disable=SC2086
		if ! "$sysroot-g++" -std=gnu++17 -Wall -Wextra -O2 $flags -pthread \
			-o "$probe" "$srcdir/tests/glibc/cxx-probe.cc" >"$work/out" 2>&1; then
			fail "$name: builds against the sysroot" "$(head -n 5 "$work/out" | tr '\n' ' ')"
			continue
		fi
		# shellcheck disable=SC2086
		check_linked "$name" "$sysroot-g++" "$srcdir/tests/glibc/cxx-probe.cc" $flags -pthread
		launch --sysroot="$sysroot" "$probe" $fast_calls
		with_vdso=$(time_syscalls) result=$(cat "$work/out")
		launch --no-vdso --sysroot="$sysroot" "$probe" $fast_calls
		without_vdso=$(time_syscalls)
		result="$result; $(cat "$work/out")"
		if [ "$result" = "cxx: ok; cxx: ok" ] && [ "$with_vdso" -eq 0 ] \
			&& [ "$without_vdso" -ge $((2 * fast_calls)) ]; then
			pass "$name: std::chrono without a system call, an exception and a thread ($without_vdso time system calls without the vDSO)"
		else
			fail "$name: std::chrono, an exception and a thread" \
				"saw '$result' (status $status); $with_vdso time system calls with the vDSO, $without_vdso without"
			show
		fi
	done
done
exit $failed
