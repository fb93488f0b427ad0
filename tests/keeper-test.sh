#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A keeper's schedule, the launch's own and the shared daemon's alike:
# while a program reads its coarse clocks in a loop, they step at the
# host's tick and say so (clock_getres), as under plain QEMU, which hands
# them to the host; and a launch's own keeper stopped together with its
# watchdog is ended by its own deadline, as the daemon's is, so the
# coarse clocks stand still a few hundred ms at most, not for as long as
# the stop.
. "${srcdir:=.}/tests/test-lib.sh"

run=$top_builddir/run/ppctime-run
probes=$top_builddir/tests/guest
make_work
# The host's tick, as its coarse clocks have it.
host_res=$("$PYTHON" -c 'import time; print(int(time.clock_getres(6) * 1e9))')

# A program reads CLOCK in a loop until it stepped 100 times: its getres
# is the host's, and a reading lags the fine clock by half a tick or so
# (median; at most a tick and 2 ms on a busy machine), as it steps at every
# tick, where a keeper of sleeping programs updates every 25-30 ms (a lag
# of 12-15 ms).  Its lag, not its step, since a reader kept from running
# on a crowded machine sees long steps whatever the keeper does.
check_coarse_steps() { # NAME CLOCK PROBE private|shared
	name=$1
	if [ "$4" = private ]
	then launch -v --private-timekeeper "$3" steps "$2" 100
	else launch -v "$3" steps "$2" 100; fi
	res=$(value res) lag=$(value median_lag)
	if [ "$status" -ne 0 ] || [ -z "$lag" ] || ! has "$4 timekeeper" err; then
		fail "$name" "status $status, or no $4 timekeeper"; show
	elif [ "$res" != "$host_res" ]; then
		fail "$name" "clock_getres says $res ns, the host's $host_res ns"
	elif [ "$lag" -gt $((host_res + 2000000)) ]; then
		fail "$name" "it lags by $lag ns (median), the host's tick being $host_res ns"
	else
		pass "$name (getres $res ns as the host's; lag $lag ns, median step $(value median_step) ns over $(value steps))"
	fi
}

# The launch's own keeper and its watchdog stopped for 2 s while the
# program compares its coarse clock with the host's system call: the
# keeper's deadline ends it (its pages go to mode NONE) long before.
check_stopped_with_watchdog() { # NAME PROBE
	"$run" -0 "$$-$1" --private-timekeeper --host-time-syscalls "$2" compare 3000 \
		monotonic-coarse >"$work/out" 2>"$work/err" </dev/null &
	launcher=$!
	keeper=$(keeper_of "$$-$1")
	freeze_keeper "$keeper"
	wait $launcher
	status=$?
	frozen_verdict "$1"
}

for t in $TARGETS; do
	probe=$probes/launcher-probe-$t
	if [ ! -x "$probe" ]; then
		case_add skip "coarse-steps-private-$t" "the probe is not built"
		case_add skip "coarse-steps-shared-$t" "the probe is not built"
		continue
	fi
	case_add check_coarse_steps "coarse-steps-private-$t" monotonic-coarse "$probe" private
	case_add check_coarse_steps "coarse-steps-shared-$t" realtime-coarse "$probe" shared
	checked=$probe
done
if [ -n "${checked-}" ]; then
	case_add check_stopped_with_watchdog keeper-deadline "$checked"
else
	case_add skip keeper-deadline "no probe built"
fi
run_cases
exit $failed
