#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A quick run of each benchmark, checking that it runs and that its output
# parses, not how fast anything is.
. "${srcdir:=.}/tests/test-lib.sh"
set -e
cd "$top_builddir"
check_insn_count() { # TARGET
	t=$1
	out=$("$srcdir"/benchtests/insn-count run/ppctime-run benchtests/vdso-insns-$t) || :
	# every line: ENTRY CLOCK COUNT COUNT, counts plain or '~'-marked numbers
	rows=$(printf '%s\n' "$out" | grep -cE '^[_a-z0-9]+ [-A-Z_]+ ~?[0-9]+ ~?[0-9]+$' || :)
	# a count that varied between repeats is '~'-marked: still a count
	served=$(printf '%s\n' "$out" | awk '$1 ~ /clock_gettime/ && $2 == "MONOTONIC" { sub(/^~/, "", $3); if ($3 + 0 > 0) n++ } END { print n + 0 }')
	if [ "$rows" -ge 10 ] && [ "$rows" -eq "$(printf '%s\n' "$out" | wc -l)" ] && [ "$served" -ge 2 ]; then
		pass "$t: insn-count: $rows cases parsed"
	else
		fail "$t: insn-count" "$rows rows parsed, $served clock_gettime MONOTONIC rows with a count; the lines that do not parse:
$(printf '%s\n' "$out" | grep -vE '^[_a-z0-9]+ [-A-Z_]+ ~?[0-9]+ ~?[0-9]+$' | head -5)"
	fi
}

for t in $TARGETS; do
	case_add check_insn_count "$t"
done
run_cases
exit $failed
