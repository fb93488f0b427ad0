#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The booted timings' verdict (benchtests/ppctime_bench/stats.py's
# compare_rounds, which the report and tests/boot/bench-kernel use): two
# kernels booted taking turns, ns per call, the i-th boot of each in the
# same round.  Each case's figures are made up so that the answer follows
# from the rule, not from the code: a drift of the host between rounds
# that moves both kernels of a round alike must not hide a speedup every
# round shows, nor a round that disagrees be outvoted.
. "${srcdir:=.}/tests/test-lib.sh"
cd "$top_builddir"

# verdict_is NAME VERDICT OURS THEIRS: OURS and THEIRS, comma-separated
# boot medians, round by round; VERDICT faster, slower, same or none.
verdict_is() {
	got=$("$PYTHON" -c 'import sys
sys.path.insert(0, sys.argv[1] + "/benchtests")
from ppctime_bench.stats import Figure, compare_rounds
def figure(values):
    f = Figure("ns", False)
    f.values = [float(v) for v in values.split(",")]
    return f.finish()
cmp = compare_rounds(figure(sys.argv[2]), figure(sys.argv[3]), "ns_per_call_boot")
print(cmp.verdict if cmp else "none")' "$srcdir" "$3" "$4" 2>&1)
	if [ "$got" = "$2" ]; then
		pass "$1: $2"
	else
		fail "$1" "ours $3, theirs $4: '$got', not $2"
	fi
}

# The rounds drift by half, their ranges overlap, each round ours is 1.3x.
case_add verdict_is "a drifting host, ours ahead in every round" faster \
	100,150,120 130,195,156
# The same, the other way.
case_add verdict_is "a drifting host, ours behind in every round" slower \
	130,195,156 100,150,120
# Two rounds of three ahead, one behind.
case_add verdict_is "one round disagrees" same 100,150,160 130,195,156
# Equal in one round: not ahead in every one.
case_add verdict_is "one round level" same 100,150,156 130,195,156
# A boot of one kernel missing: no rounds to pair.
case_add verdict_is "a round unpaired" none 100,150 130,195,156
run_cases
