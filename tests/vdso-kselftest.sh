#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Linux's own vDSO selftests (tests/vdso-kselftest.mk) run under
# ppctime-run on each target: one result per program, PASS (exit 0), SKIP
# with its reason line (4, KSFT_SKIP) or FAIL with its output; then, per
# target, vdso_test_abi again under QEMU's -strace, which must find every
# entry it looks for in the vDSO and call them with no time system call.
# Protocol: tests/README.md.
. "${srcdir:=.}/tests/test-lib.sh"
set -e
run=$top_builddir/run/ppctime-run

# As tests/vdso-kselftest.mk builds them.  Linux 6.1's
# vdso_test_gettimeofday and vdso_test_getcpu look up the x86 names
# (__vdso_gettimeofday, __vdso_getcpu), which no powerpc vDSO has
# (__kernel_*): they say SKIP on powerpc under a kernel too.
programs="vdso_test_gettimeofday vdso_test_getcpu vdso_test_abi
	vdso_test_clock_getres vdso_test_correctness"
# A run that takes longer has hung: each takes well under a second.
time_limit=60
# The system calls the vDSO's entries stand for, as QEMU's -strace names
# them (its clock_getres calls vdso_test_abi makes itself, to compare).
time_calls='(clock_gettime|clock_gettime64|gettimeofday|time)'

# Linux 6.1's selftests (tests/vdso-kselftest.mk): the host's source, or
# fetched by name where the host has another.
fetched=$top_builddir/linux-source/6.1
why=
if [ -z "$LINUX_SOURCE" ]; then
	why="no Linux source: configure found none (--with-linux-source=TARBALL; Debian package linux-source)"
elif [ "$LINUX_SOURCE_VERSION" != 6.1 ] && [ -f "$fetched/why" ]; then
	why="no Linux 6.1 source: $(tail -n 1 "$fetched/why")"
elif [ "$LINUX_SOURCE_VERSION" != 6.1 ] && [ ! -f "$fetched/version" ]; then
	why="the host's Linux source is $LINUX_SOURCE_VERSION and 6.1's was not fetched (make linux-fetch)"
fi
if [ -n "$why" ]; then
	plan 1
	skip vdso-kselftest "$why"
	exit 0
fi
make_work

# One CPU for every run: vdso_test_correctness orders system calls and
# vDSO calls, which read the timebase (the host's TSC) on whatever CPU
# runs them, and a host that does not keep time with its TSCs (kvm-clock,
# hyperv) need not keep them in step across CPUs.
cpu=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*\([0-9]*\).*/\1/p' /proc/self/status)

# launch_prog PROGRAM [NAME=VALUE...]: PROGRAM under ppctime-run, with
# those in its environment, within the time limit ($status 124 when it
# did not end).
launch_prog() {
	prog=$1
	shift
	status=0
	timeout "$time_limit" env "$@" taskset -c "$cpu" "$run" "$prog" >"$work/out" \
		2>"$work/err" </dev/null || status=$?
}

# skip_reason: the last line a program that said SKIP printed.
skip_reason() {
	for f in out err; do
		why=$(sed '/^[[:space:]]*$/d' "$work/$f" | tail -n 1)
		if [ -n "$why" ]; then
			echo "$why"
			return
		fi
	done
	echo "exit 4 (KSFT_SKIP), no reason printed"
}

# skip_target TARGET WHY: every case of TARGET a SKIP.
skip_target() {
	for p in $programs vdso; do
		case_add skip "$1: $p" "$2"
	done
}

check_program() { # TARGET PROGRAM
	launch_prog "$top_builddir/tests/kselftest/$1/$2"
	case $status in
	0) pass "$1: $2" ;;
	4) skip "$1: $2" "$(skip_reason)" ;;
	124)
		fail "$1: $2" "no end in $time_limit s"
		show
		;;
	*)
		fail "$1: $2" "exit status $status"
		show
		;;
	esac
}

# The vDSO found and used: vdso_test_abi's every entry found (none of its
# results a SKIP, as they are where the vDSO lacks one) and no time system
# call made.
check_vdso_used() { # TARGET
	launch_prog "$top_builddir/tests/kselftest/$1/vdso_test_abi" QEMU_STRACE=1
	planned=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$work/out")
	totals=$(grep '^# Totals:' "$work/out" || :)
	calls=$(grep -cE "^[0-9]+ $time_calls\\(" "$work/err" || :)
	why=
	[ "$status" -eq 0 ] || why="exit status $status; "
	[ "$totals" = "# Totals: pass:${planned:-?} fail:0 xfail:0 xpass:0 skip:0 error:0" ] ||
		why="$why${totals:-no totals}, expected pass:${planned:-?} skip:0; "
	[ "$calls" -eq 0 ] || why="$why$calls time system calls (QEMU -strace), expected 0; "
	if [ -z "$why" ]; then
		pass "$1: vdso: vdso_test_abi found its $planned entries in the vDSO; 0 time system calls"
	else
		fail "$1: vdso" "vdso_test_abi: ${why%; }"
		show_out
		grep -E "^[0-9]+ $time_calls\\(" "$work/err" | head -n 5 | sed 's/^/# strace: /'
	fi
}

# Each program on each target, and the vDSO check of each target.
for t in $TARGETS; do
	dir=$top_builddir/tests/kselftest/$t
	eval "cross=\$CROSS_$t triplet=\$TRIPLET_$t"
	missing=
	for p in $programs; do
		[ -x "$dir/$p" ] || missing=yes
	done
	if [ -n "$missing" ]; then
		if ! command -v "${cross}gcc" >/dev/null 2>&1; then
			skip_target "$t" "no cross compiler ${cross}gcc (package gcc-$triplet)"
		else
			skip_target "$t" "tests/kselftest/$t not built (make check-programs)"
		fi
		continue
	fi
	for p in $programs; do
		case_add check_program "$t" "$p"
	done
	case_add check_vdso_used "$t"
done
run_cases
echo "# QEMU: ${PPCTIME_QEMU:-the one configure found}"
echo "# Linux 6.1's vdso_test_gettimeofday and vdso_test_getcpu look up x86 names (__vdso_*):" \
	"they SKIP on powerpc under Linux too"
exit $failed
