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
# (make check-all: sysroot-VERSION/TRIPLET, tests/glibc/Rules.mk).
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
# use_variant TARGET VARIANT: what the cases of the probe's VARIANT build for
# TARGET work with: the sysroot, the case's name, the compiler's flags, the
# probe, and whether its time_t is 64-bit.
use_variant() {
	eval "triplet=\$TRIPLET_$1"
	sysroot=$top_builddir/$sysroots/$triplet
	name="$sysroots $1 $2"
	flags=
	case $2 in static*) flags="$flags -static" ;; esac
	case $1:$2 in
	*-time64) flags="$flags -D_TIME_BITS=64 -D_FILE_OFFSET_BITS=64" ;;
	# 32-bit time_t, no longer Debian 13's default (tests/vdso-kselftest.mk)
	ppc32:*) flags="$flags -U_TIME_BITS -U_FILE_OFFSET_BITS" ;;
	esac
	probe=$work/probe-$1-$2
	time64=$(time64_of "$1" "$2")
}

# The probe built against the sysroot; without it the variant's other
# cases fail.
check_build() { # TARGET VARIANT
	use_variant "$1" "$2"
	# shellcheck disable=SC2086
	if ! "$sysroot-gcc" -std=gnu11 -Wall -Wextra -O2 $flags \
		-o "$probe" "$probe_src" >"$work/out" 2>&1; then
		fail "$name: builds against the sysroot" "$(head -n 5 "$work/out" | tr '\n' ' ')"
		return
	fi
	# shellcheck disable=SC2086
	check_linked "$name" "$sysroot-gcc" "$probe_src" $flags
}

check_libc() { # TARGET VARIANT
	use_variant "$1" "$2"
	launch --sysroot="$sysroot" "$probe" libc
	libc=$(reported libc)
	case $libc in
	"$sysroot"/*) pass "$name: runs on the sysroot's libc" ;;
	*) fail "$name: runs on the sysroot's libc" "libc mapped from '$libc' (status $status)"; show ;;
	esac
}

# The vDSO is used: no time system call from the fast clocks.
check_fast() { # TARGET VARIANT
	use_variant "$1" "$2"
	launch --sysroot="$sysroot" "$probe" fast "$fast_calls"
	time_syscalls --every --last
	with_vdso=$calls
	fast_ok=$(reported fast)
	launch --no-vdso --sysroot="$sysroot" "$probe" fast "$fast_calls"
	time_syscalls --every --last
	without_vdso=$calls
	fast_ok="$fast_ok $(reported fast)"
	echo "info: $name: $fast_calls rounds of every fast entry: $with_vdso time system calls with the vDSO, $without_vdso without"
	if [ "$with_vdso" -eq 0 ] && [ "$without_vdso" -ge "$fast_calls" ] && [ "$fast_ok" = "ok ok" ]; then
		pass "$name: fast clocks make no system call"
	else
		fail "$name: fast clocks make no system call" \
			"$with_vdso time system calls with the vDSO, $without_vdso without (status $status)"
		show
	fi
}

# Year 2040.
check_year() { # TARGET VARIANT
	use_variant "$1" "$2"
	launch --sysroot="$sysroot" --realtime=2040-01-01 "$probe" year
	time_syscalls --every --last
	if [ "$time64" = yes ]; then
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
}

# both_ways CHECK: the probe's CHECK with the vDSO, its output kept in
# CHECK-vdso, and through the syscalls (out).  both_seen CHECK: both, for
# a failure.
both_ways() {
	launch --sysroot="$sysroot" "$probe" "$1"
	cp "$work/out" "$work/$1-vdso"
	launch --no-vdso --sysroot="$sysroot" "$probe" "$1"
}
both_seen() { echo "with the vDSO: $(tr '\n' ';' <"$work/$1-vdso") without: $(tr '\n' ';' <"$work/out")"; }

# errno for bad clock ids, with the vDSO and through the syscalls; what
# the vDSO gave, in errno-vdso, is what each partial vDSO must give too.
check_errno() { # TARGET VARIANT
	use_variant "$1" "$2"
	both_ways errno
	if [ "$(grep -c ': -1 EINVAL$' "$work/errno-vdso")" -eq 6 ] \
		&& grep -qx 'clock_gettime(CLOCK_PROCESS_CPUTIME_ID): 0 EBADF' "$work/errno-vdso" \
		&& cmp -s "$work/errno-vdso" "$work/out"; then
		pass "$name: bad clock ids give EINVAL, as the syscalls do"
	else
		fail "$name: bad clock ids give EINVAL, as the syscalls do" "$(both_seen errno)"
	fi
}

# Another errno the same way: a pointer the system call refuses (64-bit
# time_t only: with a 32-bit one glibc copies the result itself and
# faults, as stock glibc does).
check_efault() { # TARGET VARIANT
	use_variant "$1" "$2"
	both_ways efault
	if grep -qx 'clock_gettime(CLOCK_PROCESS_CPUTIME_ID, bad pointer): -1 EFAULT' "$work/efault-vdso" \
		&& cmp -s "$work/efault-vdso" "$work/out"; then
		pass "$name: a bad pointer gives EFAULT, as the syscall does"
	else
		fail "$name: a bad pointer gives EFAULT, as the syscall does" "$(both_seen efault)"
	fi
}

# The timebase frequency: the timekeeper's, and true.
check_tbfreq() { # TARGET VARIANT
	use_variant "$1" "$2"
	launch --verbose --sysroot="$sysroot" "$probe" tbfreq
	keeper=$(sed -n 's/.*timebase \([0-9]*\) Hz.*/\1/p' "$work/err" | head -n 1)
	freq=$(reported tbfreq)
	low=$(reported measured_low) high=$(reported measured_high)
	time_syscalls --every --last
	# within what the brackets allow, and 1% for the host's own error
	if [ -n "$keeper" ] && [ "$freq" = "$keeper" ] && [ "$calls" -eq 0 ] \
		&& awk -v f="$freq" -v l="$low" -v h="$high" 'BEGIN { exit !(l != "" && f >= l * 0.99 && f <= h * 1.01) }'; then
		pass "$name: __ppc_get_timebase_freq is the timekeeper's $keeper Hz"
	else
		fail "$name: __ppc_get_timebase_freq is the timekeeper's" \
			"glibc says '$freq', the timekeeper '$keeper', measured '$low' to '$high'"
		show
	fi
}

# A vDSO without one of the entries glibc binds: the rest still serve,
# and the missing one's calls go to the system call with the same results
# (ENTRY: partial_entries' SYMBOL:CALLS).  The image is ppctime's with the
# entry's name changed.
check_partial() { # TARGET VARIANT ENTRY
	use_variant "$1" "$2"
	symbol=${3%%:*} expected_calls=${3#*:}
	image=$work/vdso-without$symbol.so
	if ! perl -0777 -e '$_ = <STDIN>; $n = s/\Q$ARGV[0]\E\0/substr($ARGV[0], 0, -1) . "_\0"/ge; print; exit($n != 1)' \
		"$symbol" <"$top_builddir/vdso-kernel/$(vdso_image "$1")" >"$image"; then
		fail "$name: a vDSO without $symbol" "cannot make the image"
		return
	fi
	launch --vdso="$image" --sysroot="$sysroot" "$probe" fast "$fast_calls"
	time_syscalls --every --last
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
}

# C++, through the sysroot's g++ wrapper: libstdc++'s clocks reach the
# vDSO, and Debian's cross libstdc++ and libgcc_s load from the sysroot.
# use_cxx TARGET LINK: as use_variant does, for the C++ probe linked LINK.
use_cxx() {
	eval "triplet=\$TRIPLET_$1"
	sysroot=$top_builddir/$sysroots/$triplet
	name="$sysroots $1 C++ $2"
	flags=
	[ "$2" = dynamic ] || flags=-static
	probe=$work/cxx-probe-$1-$2
}

# The C++ probe built against the sysroot; without it its run fails.
check_cxx_build() { # TARGET LINK
	use_cxx "$1" "$2"
	# shellcheck disable=SC2086
	if ! "$sysroot-g++" -std=gnu++17 -Wall -Wextra -O2 $flags -pthread \
		-o "$probe" "$srcdir/tests/glibc/cxx-probe.cc" >"$work/out" 2>&1; then
		fail "$name: builds against the sysroot" "$(head -n 5 "$work/out" | tr '\n' ' ')"
		return
	fi
	# shellcheck disable=SC2086
	check_linked "$name" "$sysroot-g++" "$srcdir/tests/glibc/cxx-probe.cc" $flags -pthread
}

check_cxx() { # TARGET LINK
	use_cxx "$1" "$2"
	launch --sysroot="$sysroot" "$probe" "$fast_calls"
	time_syscalls --every --last
	with_vdso=$calls result=$(cat "$work/out")
	launch --no-vdso --sysroot="$sysroot" "$probe" "$fast_calls"
	time_syscalls --every --last
	without_vdso=$calls
	result="$result; $(cat "$work/out")"
	if [ "$result" = "cxx: ok; cxx: ok" ] && [ "$with_vdso" -eq 0 ] \
		&& [ "$without_vdso" -ge $((2 * fast_calls)) ]; then
		pass "$name: std::chrono without a system call, an exception and a thread ($without_vdso time system calls without the vDSO)"
	else
		fail "$name: std::chrono, an exception and a thread" \
			"saw '$result' (status $status); $with_vdso time system calls with the vDSO, $without_vdso without"
		show
	fi
}

# Per target with a sysroot and a launcher, per variant: built against the
# sysroot, the sysroot's libc (dynamic), fast clocks, 2040, errno, EFAULT
# (64-bit time_t), tbfreq, each partial vDSO; C++ dynamic and static:
# built against the sysroot, and run.  Without: a SKIP or a FAIL.
for target in $TARGETS; do
	eval "triplet=\$TRIPLET_$target"
	sysroot=$top_builddir/$sysroots/$triplet
	if [ ! -f "$sysroot.stamp" ]; then
		case_add skip "$sysroots $target" "no sysroot built in $sysroot (make sysroot; sysroot-VERSION: make check-all)"
		continue
	fi
	if [ ! -x "$run" ]; then
		case_add fail "$sysroots $target" "$run is not built"
		continue
	fi
	for variant in $(variants "$target"); do
		case_add check_build "$target" "$variant"
		[ "$variant" != dynamic ] || case_add check_libc "$target" "$variant"
		case_add check_fast "$target" "$variant"
		case_add check_year "$target" "$variant"
		case_add check_errno "$target" "$variant"
		[ "$(time64_of "$target" "$variant")" = no ] || case_add check_efault "$target" "$variant"
		case_add check_tbfreq "$target" "$variant"
		for entry in $(partial_entries "$target" "$variant"); do
			case_add check_partial "$target" "$variant" "$entry"
		done
	done
	for link in dynamic static; do
		case_add check_cxx_build "$target" "$link"
		case_add check_cxx "$target" "$link"
	done
done
run_cases
exit $failed
