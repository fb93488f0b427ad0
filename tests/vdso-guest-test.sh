#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs tests/guest/vdso-clock-test on each target under ppctime-run: ABI
# and bad input, agreement with the syscall, monotonicity, the seqcount
# under a 10 kHz timekeeper, and no syscall on the fast path; with the
# datastore's image (IMAGE-datastore.so) ABI and bad input and the
# auxiliary clocks (none set up) passed on to the kernel.  The guest
# program plans its own results; this script plans its own.
. "${srcdir:=.}/tests/test-lib.sh"
set -e
run=$top_builddir/run/ppctime-run
make_work

# served clocks, then ones the vDSO passes to the kernel
served="0 1 4 5 6 7 11"
passed_on="2 3"
# With the datastore's image: CLOCK_AUX (16), which ppctime's timekeeper
# leaves in mode NONE, the kernel's (launcher-test.sh counts a served
# one's calls).
datastore_passed_on=16

# guest NAME ARGS...: one run of ppctime-run ARGS, a subtest (its TAP
# nested, held to its own plan; a run that fails is a failure too).
guest() {
	local name=$1
	shift
	subtest "$name" "$run" "$@"
}

# The guest's timebase is the host's TSC, read on whichever CPU each
# thread runs.  A host kernel that does not keep time with its TSC
# (clocksource kvm-clock, TSCs marked unstable) may have TSCs tens of
# microseconds apart between CPUs, from time to time, so that no clock
# read from them, the bare timebase included, is monotonic across
# threads on different CPUs.  There the reader threads of the
# monotonicity and seqcount runs share one CPU, where every interleaving
# they look for (a reader preempted mid-read) still happens.
clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource \
	2>/dev/null || echo unknown)
steps_on=
# strace_calls TARGET CLOCK WANT [OPTIONS...]: QEMU's -strace of 100 vDSO
# calls on CLOCK shows WANT clock_gettime syscalls (time_syscalls --whole).
strace_calls() {
	local t=$1 clk=$2 want=$3 image_label=
	shift 3
	[ $# -eq 0 ] || image_label=" (datastore image)"
	time_syscalls --whole "$run" "$@" "$top_builddir/tests/guest/vdso-clock-test-$t" \
		calls "$clk" 100
	if [ "$calls" -eq "$want" ]; then
		pass "$t: strace: 100 vDSO calls on clock $clk$image_label made $calls clock_gettime syscalls"
	else
		fail "$t: strace: 100 vDSO calls on clock $clk$image_label" "$calls clock_gettime syscalls, expected $want"
	fi
}

if [ "$clocksource" != tsc ]; then
	steps_on=one-cpu
	case_add skip "monotonic, torture: readers on two CPUs" "the host keeps time with\
 '$clocksource', not its TSC, whose CPUs need not agree; the readers share one CPU"
fi

for t in $TARGETS; do
	prog=$top_builddir/tests/guest/vdso-clock-test-$t
	case_add guest "$t abi" "$prog" abi

	# QEMU answers the system calls from the vDSO's page: exact, in
	# either timekeeper mode.
	case_add guest "$t agree" "$prog" agree
	case_add guest "$t monotonic" "$prog" monotonic $steps_on
	case_add guest "$t torture" --update-hz=10000 "$prog" torture $steps_on

	# QEMU's -strace: no clock_gettime syscall for served clocks, one
	# per call for the others.
	for clk in $served; do
		case_add strace_calls "$t" "$clk" 0
	done
	for clk in $passed_on; do
		case_add strace_calls "$t" "$clk" 100
	done

	eval datastore=$top_builddir/vdso-kernel/\$IMAGE_$t-datastore.so
	case_add guest "$t datastore abi" --vdso="$datastore" "$prog" abi
	case_add strace_calls "$t" "$datastore_passed_on" 100 --vdso="$datastore"
done
run_cases
exit $failed
