#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The modelled-cycle measurer (ppctime-bench model, benchtests/ppctime_bench/
# mca.py) on a hand-written instruction stream whose answer the scheduling
# model documents: N dependent mulld r3,r3,r3, each waiting for the one
# before, on POWER9.  LLVM's P9InstrResources.td puts MULLD among its
# "5 cycle Restricted DP operation"s, so back to back a call costs N * 5
# cycles exactly, and one call from an empty pipeline at least that.
. "${srcdir:=.}/tests/test-lib.sh"
set -e
cd "$top_builddir"
export srcdir
make_work
n=8
latency=5
# mulld RT,RA,RB: primary opcode 31, RT, RA, RB, XO 233 (Power ISA 3.0,
# XO-form): 31<<26 | 3<<21 | 3<<16 | 3<<11 | 233<<1
mulld=7c6319d2
stream="__kernel_chain -"
i=0
while [ $i -lt $n ]; do
	stream="$stream $mulld"
	i=$((i + 1))
done
echo "$stream" >"$work/streams"
# 0x7c6319d2 & ~1 is itself: no call for the measurer to rewrite.

# The model's run, whose figures back to back reads too.
check_one_call() {
	status=0
	"$PYTHON" "$srcdir/benchtests/ppctime-bench" model ppc64le "$work/streams" >"$work/out" 2>&1 || status=$?
	one=$(awk '$3 == "pwr9" { print $4 }' "$work/out")
	b2b=$(awk '$3 == "pwr9" { print $5 }' "$work/out")
	if [ $status -eq 0 ] && [ -n "$one" ] && [ "$one" -ge $((n * latency)) ]; then
		pass "one call: $one cycles for $n dependent mulld (at least $((n * latency)))"
	else
		fail "one call" "status $status, '${one}' cycles, not >= $((n * latency)): $(cat "$work/out")"
	fi
}
check_back_to_back() {
	if [ $status -eq 0 ] && [ "$b2b" = $((n * latency)) ]; then
		pass "back to back: $b2b cycles a call, $n x mulld's $latency"
	else
		fail "back to back" "status $status, '${b2b}' cycles a call, not $((n * latency)): $(cat "$work/out")"
	fi
}
# A full barrier some models lack (LLVM 19's pwr9 has no scheduling class
# for sync; LLVM 14's gives it one): its call gets that model's figures or
# none with the reason, never figures with the barrier dropped, and the
# call beside it keeps its own.
check_lacked() {
	# sync (hwsync): primary opcode 31, XO 598: 31<<26 | 598<<1
	{ echo "__kernel_barrier - 7c0004ac $mulld $mulld"; echo "$stream"; } >"$work/lacked"
	status=0
	"$PYTHON" "$srcdir/benchtests/ppctime-bench" model ppc64le "$work/lacked" >"$work/out" 2>&1 || status=$?
	barrier9=$(awk '$1 == "__kernel_barrier" && $3 == "pwr9" { print $4, $5 }' "$work/out")
	barrier10=$(awk '$1 == "__kernel_barrier" && $3 == "pwr10" { print $4 }' "$work/out")
	chain9=$(awk '$1 == "__kernel_chain" && $3 == "pwr9" { print $5 }' "$work/out")
	verdict=
	if [ "$barrier9" = "- -" ]; then
		grep -q "^__kernel_barrier - pwr9 - - (the model lacks '.*')$" "$work/out" &&
			verdict="no pwr9 figure, the reason given"
	elif [ "${barrier9% *}" -ge 1 ] 2>/dev/null; then
		verdict="pwr9 $barrier9 cycles"
	fi
	if [ $status -eq 0 ] && [ -n "$verdict" ] && [ "${barrier10:-x}" -ge 1 ] 2>/dev/null &&
		[ "$chain9" = $((n * latency)) ]; then
		pass "a barrier: $verdict; pwr10 $barrier10 cycles; the chain beside it still $chain9"
	else
		fail "a barrier" "status $status: $(cat "$work/out")"
	fi
}
# A stream that is not one is refused, saying where.
check_bad_stream() {
	echo "__kernel_chain - 7c6319d2 xyz" >"$work/bad"
	if "$PYTHON" "$srcdir/benchtests/ppctime-bench" model ppc64le "$work/bad" >"$work/out" 2>&1; then
		fail "bad stream" "accepted: $(cat "$work/out")"
	elif grep -q "bad:1: not ENTRY CLOCK WORD" "$work/out"; then
		pass "bad stream: refused, with its line"
	else
		fail "bad stream" "refused without saying where: $(cat "$work/out")"
	fi
}

why=
if [ -z "${PYTHON-}" ]; then
	why="no python3 with jsonschema (configure found none)"
elif [ -z "${LLVM_MCA-}" ]; then
	why="no llvm-mca: install Debian's llvm"
fi
if [ -n "$why" ]; then
	for c in 'one call' 'back to back' 'a barrier' 'bad stream'; do
		case_add skip "$c" "$why"
	done
else
	export LLVM_MCA
	case_add check_one_call
	case_add check_back_to_back
	case_add check_lacked
	case_add check_bad_stream
fi
run_cases
exit $failed
