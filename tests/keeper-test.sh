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
# A keeper of sleeping programs updates at whole ticks no more often than
# TIMEKEEPER_AUTO_MAX_HZ a second (timekeeper/timekeeper.h).
auto_max_hz=$(sed -n 's/^#define TIMEKEEPER_AUTO_MAX_HZ[[:space:]]*\([0-9]*\).*/\1/p' \
	"$srcdir/timekeeper/timekeeper.h")
sleeping_period=$(((1000000000 / auto_max_hz + host_res - 1) / host_res * host_res))
# A reading lags the fine clock by the host's own coarse lag, which the
# keeper mirrors, and by half the keeper's update period (medians): about
# a tick and a half where the keeper steps at every tick (5.7 to 6.1 ms
# at HZ 250, on a quiet machine and under four busy jobs on two cores),
# a tick and half the sleeping period where it does not (18 ms).  The
# bound is midway: a crowded machine, whose keeper wakes some
# milliseconds late, stays below it.
max_lag=$((host_res + (host_res + sleeping_period) / 4))

# A program reads CLOCK in a loop until it stepped 100 times: its getres
# is the host's, and its lag is a stepping keeper's.  Its lag, not its
# step, since a reader kept from running on a crowded machine sees long
# steps whatever the keeper does.
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
	elif [ "$lag" -gt "$max_lag" ]; then
		fail "$name" "it lags by $lag ns (median), more than $max_lag ns (tick $host_res ns, sleeping period $sleeping_period ns)"
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
