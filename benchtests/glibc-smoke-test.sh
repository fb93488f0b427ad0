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

bench() { srcdir=$srcdir "$PYTHON" "$srcdir/benchtests/ppctime-bench" --out="$out" "$@"; }

# measured TARGET: TARGET measured (ppctime-bench measure glibc), once for
# all its cases; if that failed, the case fails saying so, and status 1.
measured() {
	eval "measure_status=\${measure_status_$1-}"
	if [ -z "$measure_status" ]; then
		measure_status=0
		BENCH_DURATION=0 BENCH_GLIBC_REPS=1 bench measure glibc "$1" \
			>"$out/glibc-bench-$1.log" 2>&1 || measure_status=$?
		eval "measure_status_$1=\$measure_status"
	fi
	[ "$measure_status" -ne 0 ] || return 0
	fail "glibc benchtests $1" "ppctime-bench measure glibc failed:
$(tail -n 12 "$out/glibc-bench-$1.log")"
	return 1
}

check_bench_out() { # TARGET FILE
	measured "$1" || return 0
	missing=$(for v in $variants; do
		func=${v%%(*} var=${v#*(}
		var=${var%)}
		grep -qF "\"$var\": {" "$out/$2" && grep -qF "\"$func\": {" "$out/$2" || echo "$v"
	done)
	if [ -z "$missing" ]; then
		pass "glibc benchtests $1: $2 valid, every variant present"
	else
		fail "glibc benchtests $1" "$2 lacks: $(echo $missing)"
	fi
}

# compare_bench.py at its default threshold (10%) lists a variant's mean
# exactly when the two runs' means differ by that much
check_compare() { # TARGET
	measured "$1" || return 0
	expected=$("$PYTHON" -c 'import json, sys
a, b = (json.load(open(f))["functions"] for f in sys.argv[1:])
for fn, variants in a.items():
    for v, x in variants.items():
        if abs(b[fn][v]["mean"] - x["mean"]) * 100 / x["mean"] > 10:
            print(f"{fn}({v})")' "$out/bench-$1-no-vdso.out" "$out/bench-$1.out" | sort)
	listed=$(sed -n 's/^[-+ ]*\([^ ]*\)\[mean\]: .*/\1/p' "$out/compare_bench-$1.txt" | sort)
	if [ -n "$expected" ] && [ "$listed" = "$expected" ]; then
		pass "glibc benchtests $1: compare_bench.py lists the $(echo "$listed" | wc -l) variants 10% apart"
	else
		fail "glibc benchtests $1" "compare_bench.py lists: $(echo $listed); 10% apart: $(echo $expected)"
	fi
}

# two records (mean, min) per variant and configuration
check_records() { # TARGET
	measured "$1" || return 0
	records=$(cat "$out/records/glibc-$1.jsonl" 2>/dev/null | wc -l)
	if [ "$records" -eq $((4 * $(echo "$variants" | wc -l))) ]; then
		pass "glibc benchtests $1: $records records"
	else
		fail "glibc benchtests $1" "$records records, not 4 per variant"
	fi
}

# The records through the report's renderer, once every target is
# measured: each measured target's section has its glibc table, a row per
# variant.
check_rendered() { # TARGET
	measured "$1" || return 0
	if [ -z "${rendered-}" ]; then
		rendered=1
		if ls "$out"/records/glibc-*.jsonl >/dev/null 2>&1 &&
			! { BENCH_DURATION=0.001 bench machine && bench render; } >"$out/render.log" 2>&1; then
			echo "Bail out! glibc benchtests: render: $(tail -n 1 "$out/render.log")"
			exit 1
		fi
	fi
	rows=$(awk -v section="## $1" '
		/^## / { here = ($0 == section) }
		here && /^### / { table = ($0 == "### glibc benchtests") }
		here && table && /^\|/ { n++ }
		END { print n + 0 }' "$out/report.md") || rows=0
	# a header and a rule besides the rows
	if [ "$rows" -eq $(($(echo "$variants" | wc -l) + 2)) ]; then
		pass "glibc benchtests $1: rendered, $((rows - 2)) rows"
	else
		fail "glibc benchtests $1" "report.md's glibc table has $rows lines, not a header,\
 a rule and one per variant"
	fi
}

# Per target with a sysroot: the two bench.out files, compare_bench.py,
# the records; without one, its SKIP.  Then each one's rendered table.
measured_targets=
for t in $TARGETS; do
	eval "triplet=\$TRIPLET_$t"
	if [ ! -f "sysroot/$triplet.stamp" ]; then
		case_add skip "glibc benchtests $t" "no sysroot/$triplet (make sysroot)"
		continue
	fi
	case_add check_bench_out "$t" "bench-$t.out"
	case_add check_bench_out "$t" "bench-$t-no-vdso.out"
	case_add check_compare "$t"
	case_add check_records "$t"
	measured_targets="$measured_targets $t"
done
for t in $measured_targets; do
	case_add check_rendered "$t"
done
run_cases
exit $failed
