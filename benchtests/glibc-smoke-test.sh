#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A quick run of ppctime's glibc benchmarks, as "make bench" runs them
# (ppctime-bench measure glibc: glibc-bench, here once with --duration=0,
# one batch per variant) on each target: glibc's machinery builds and runs
# every benchmark with the vDSO and without, each bench.out passes glibc's
# schema (glibc-bench fails otherwise) and holds every variant of every
# inputs file, compare_bench.py lists each variant that changed, and the records
# come out and render as each target's glibc table.  Not how fast.
. "${srcdir:=.}/tests/test-lib.sh"
set -e
cd "$top_builddir"
out=benchtests/glibc-smoke
rm -rf "$out"
mkdir -p "$out"

# FUNC(VARIANT) for each variant the inputs files name, as compare_bench.py
# prints them; a file without "## name:" has the one variant "".
variants=$(for f in "$srcdir"/benchtests/glibc/*-inputs; do
	func=${f##*/}
	func=${func%-inputs}
	awk -v fn="$func" '
		/^## name:/ { sub(/^## name:[ \t]*/, ""); print fn "(" $0 ")"; named = 1 }
		END { if (!named) print fn "()" }' "$f"
done)

# Per target with a sysroot: the two bench.out files, compare_bench.py,
# the records and their rendered table; without one, its SKIP.
results=0
for t in $TARGETS; do
	eval "triplet=\$TRIPLET_$t"
	if [ -f "sysroot/$triplet.stamp" ]; then
		results=$((results + 5))
	else
		results=$((results + 1))
	fi
done
plan "$results"
for t in $TARGETS; do
	eval "triplet=\$TRIPLET_$t"
	if [ ! -f "sysroot/$triplet.stamp" ]; then
		skip "glibc benchtests $t" "no sysroot/$triplet (make sysroot)"
		continue
	fi
	if ! BENCH_DURATION=0 BENCH_GLIBC_REPS=1 srcdir=$srcdir "$PYTHON" \
		"$srcdir/benchtests/ppctime-bench" --out="$out" measure glibc "$t" \
		>"$out/glibc-bench-$t.log" 2>&1; then
		fail "glibc benchtests $t" "ppctime-bench measure glibc failed:
$(tail -n 12 "$out/glibc-bench-$t.log")"
		continue
	fi
	for f in "$out/bench-$t.out" "$out/bench-$t-no-vdso.out"; do
		missing=$(for v in $variants; do
			func=${v%%(*} var=${v#*(}
			var=${var%)}
			grep -qF "\"$var\": {" "$f" && grep -qF "\"$func\": {" "$f" || echo "$v"
		done)
		if [ -z "$missing" ]; then
			pass "glibc benchtests $t: ${f##*/} valid, every variant present"
		else
			fail "glibc benchtests $t" "${f##*/} lacks: $(echo $missing)"
		fi
	done
	# compare_bench.py at its default threshold (10%) lists a variant's mean
	# exactly when the two runs' means differ by that much
	expected=$("$PYTHON" -c 'import json, sys
a, b = (json.load(open(f))["functions"] for f in sys.argv[1:])
for fn, variants in a.items():
    for v, x in variants.items():
        if abs(b[fn][v]["mean"] - x["mean"]) * 100 / x["mean"] > 10:
            print(f"{fn}({v})")' "$out/bench-$t-no-vdso.out" "$out/bench-$t.out" | sort)
	listed=$(sed -n 's/^[-+ ]*\([^ ]*\)\[mean\]: .*/\1/p' "$out/compare_bench-$t.txt" | sort)
	if [ -n "$expected" ] && [ "$listed" = "$expected" ]; then
		pass "glibc benchtests $t: compare_bench.py lists the $(echo "$listed" | wc -l) variants 10% apart"
	else
		fail "glibc benchtests $t" "compare_bench.py lists: $(echo $listed); 10% apart: $(echo $expected)"
	fi
	# two records (mean, min) per variant and configuration
	records=$(cat "$out/records/glibc-$t.jsonl" 2>/dev/null | wc -l)
	if [ "$records" -eq $((4 * $(echo "$variants" | wc -l))) ]; then
		pass "glibc benchtests $t: $records records"
	else
		fail "glibc benchtests $t" "$records records, not 4 per variant"
	fi
done

# The records through the report's renderer: each measured target's
# section has its glibc table, a row per variant.
bench() { srcdir=$srcdir "$PYTHON" "$srcdir/benchtests/ppctime-bench" --out="$out" "$@"; }
if ls "$out"/records/glibc-*.jsonl >/dev/null 2>&1 &&
	! { BENCH_DURATION=0.001 bench machine && bench render; } >"$out/render.log" 2>&1; then
	echo "Bail out! glibc benchtests: render: $(tail -n 1 "$out/render.log")"
	exit 1
fi
for records in "$out"/records/glibc-*.jsonl; do
	[ -f "$records" ] || continue
	t=${records##*/glibc-}
	t=${t%.jsonl}
	rows=$(awk -v section="## $t" '
		/^## / { here = ($0 == section) }
		here && /^### / { table = ($0 == "### glibc benchtests") }
		here && table && /^\|/ { n++ }
		END { print n + 0 }' "$out/report.md")
	# a header and a rule besides the rows
	if [ "$rows" -eq $(($(echo "$variants" | wc -l) + 2)) ]; then
		pass "glibc benchtests $t: rendered, $((rows - 2)) rows"
	else
		fail "glibc benchtests $t" "report.md's glibc table has $rows lines, not a header,\
 a rule and one per variant"
	fi
done
exit $failed
