#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The benchmark pipeline (benchtests/ppctime-bench) on brief runs of its
# measurers: records that match the schema, a report.md with every
# target's tables, summaries that match theirs, opaque charts, an unknown
# suite rendered as a table, bad records refused, and bench-compare: a run
# against itself all "same", against a doctored copy the doctored figures
# and only those.  Not how fast.
. "${srcdir:=.}/tests/test-lib.sh"
cd "$top_builddir" || exit 1
export srcdir LLVM_MCA
# mca after insns: it models the calls insns traced.
suites="insns mca timings timekeeper qemu"
# A measure per suite, render; per target report.md, its summary and two
# charts; the insns chart, the unknown suite, two compares, a bad record.
plan $(($(count $suites) + 1 + 4 * $(count $TARGETS) + 1 + 1 + 2 + 1))
bench() { "$PYTHON" "$srcdir/benchtests/ppctime-bench" --out="$out" "$@"; }
out=benchtests/pipeline-smoke
rm -rf "$out"
mkdir -p "$out"

for suite in $suites; do
	if BENCH_DURATION=0.001 BENCH_REPS=5 bench measure "$suite" $TARGETS >"$out/$suite.log" 2>&1; then
		pass "measure $suite: $(cat "$out"/records/"$suite"-*.jsonl | wc -l) records"
	else
		fail "measure $suite" "$(tail -n 3 "$out/$suite.log")"
	fi
done
# a suite the renderer does not know, with a figure of the test's own
first=${TARGETS%% *}
echo "{\"suite\": \"kernel\", \"target\": \"$first\", \"config\": \"pipeline-test\", \"entry\": \"boot\", \"clock\": null, \"metric\": \"seconds\", \"unit\": \"s\", \"value\": 12.5, \"exact\": false, \"rep\": 0}" \
	>"$out/records/kernel-$first.jsonl"
BENCH_DURATION=0.001 bench machine

if bench render >"$out/render.log" 2>&1; then
	pass "render"
else
	fail "render" "$(tail -n 5 "$out/render.log")"
fi
report=$out/report.md
charts=
for t in $TARGETS; do
	missing=
	for heading in "## $t" "### Summary" "### Instructions per call" "### Modelled cycles" "#### Floors" \
			"### The seeds' designs" "### Timings" "### timekeeper" "### Each QEMU"; do
		grep -qxF "$heading" "$report" 2>/dev/null || grep -qF "$heading (" "$report" 2>/dev/null ||
			missing="$missing '$heading'"
	done
	grep -q "^Keeper CPU bound, [0-9.]*% of a core for the shared daemon: \(within\|OVER\) (worst " "$report" ||
		missing="$missing 'Keeper CPU bound'"
	# in the target's section: two QEMUs by their versions, or why the
	# second is not there; start-up as root, a row per QEMU and timekeeper,
	# or why not
	section=$(awk -v h="## $t" '$0 == h { on = 1; next } /^## / { on = 0 } on' "$report" 2>/dev/null)
	[ "$(printf '%s\n' "$section" |
		grep -c "^- QEMU [0-9][0-9.]*: \`qemu-ppc[a-z0-9]* version [0-9]")" -eq 2 ] ||
		printf '%s\n' "$section" | grep -q "^- The second QEMU: not measured: " ||
		missing="$missing 'each QEMU'"
	printf '%s\n' "$section" |
		grep -q "^| [0-9.]* *| .* runs) *| .* | \(met\|NOT met\) *|$\|^Not measured: " ||
		missing="$missing 'start-up as root'"
	if [ -z "$missing" ]; then
		pass "$t: report.md has every table"
	else
		fail "$t: report.md" "lacks$missing"
	fi
	# the summary and its schema, checked here rather than by the renderer
	if "$PYTHON" -c 'import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))
rows = json.load(open(sys.argv[1]))["rows"]
sys.exit(not rows or not all(r["vdso_insns"]["ppctime"] for r in rows))' \
		"$out/summary-$t.json" "$srcdir/benchtests/summary.schema.json" 2>"$out/schema.log"; then
		pass "$t: summary-$t.json matches its schema, every row counted"
	else
		fail "$t: summary-$t.json" "$(tail -n 2 "$out/schema.log")"
	fi
	charts="$charts speedup-$t seeds-$t"
done
# every chart PNG and SVG, the PNGs without a transparent pixel
for chart in insns $charts; do
	if [ -s "$out/$chart.svg" ] && "$PYTHON" -c 'import sys, matplotlib.image
p = matplotlib.image.imread(sys.argv[1])
sys.exit(bool(p.ndim != 3 or (p.shape[2] == 4 and p[:, :, 3].min() < 1)))' "$out/$chart.png" 2>/dev/null; then
		pass "chart $chart: PNG (opaque) and SVG"
	else
		fail "chart $chart" "no $out/$chart.svg, or $out/$chart.png missing or transparent"
	fi
done
if grep -qF "### kernel" "$report" && grep -F "| boot" "$report" | grep -qF "12.5"; then
	pass "an unknown suite: a table of its own"
else
	fail "an unknown suite" "no 'kernel' table with the test's figure in $report"
fi

# bench-compare: against itself, every figure the same
bench save self >/dev/null
bench compare self >"$out/self.log" 2>&1
if grep -qE '^[1-9][0-9]* same, 0 different' "$out/self.log"; then
	pass "compare: a run against itself: $(tail -n 1 "$out/self.log" | cut -d: -f1)"
else
	fail "compare: a run against itself" "$(tail -n 3 "$out/self.log")"
fi
# against a baseline with one count one higher and the ppctime vDSO's
# timings four times slower: those, and nothing else, differ
doctored=$out/saved/doctored
cp -R "$out/saved/self" "$doctored"
"$PYTHON" - "$doctored/records" <<'PY'
import glob, json, sys
for path in glob.glob(sys.argv[1] + "/*.jsonl"):
    records = [json.loads(line) for line in open(path)]
    for r in records:
        if r["suite"] == "insns" and r["config"] == "ppctime" and r["entry"] == "__kernel_time" \
                and r["metric"] == "insns_vdso":
            r["value"] += 1
        if r["suite"] == "timings" and r["config"] == "ppctime" and r["metric"] == "ns_per_call":
            r["value"] *= 4
    with open(path, "w") as f:
        f.writelines(json.dumps(r) + "\n" for r in records)
PY
bench compare doctored >"$out/doctored.log" 2>&1
changed_counts=$(grep -c '| -1 insns' "$out/compare-doctored.md")
other_insns=$(grep -E '\| insns_(vdso|libc) ' "$out/compare-doctored.md" | grep -vcE '\| (same|-1 insns) *\|$')
faster=$(grep -E '\| ppctime +\| ns_per_call +\|' "$out/compare-doctored.md" | grep -c 'faster')
if [ "$changed_counts" -eq "$(echo $TARGETS | wc -w)" ] && [ "$other_insns" -eq 0 ] && [ "$faster" -gt 0 ]; then
	pass "compare: a doctored baseline: $changed_counts count(s) -1, $faster timings faster, nothing else"
else
	fail "compare: a doctored baseline" "$changed_counts counts -1 (want one a target), $other_insns other count changes, $faster ppctime timings faster"
fi

# a record that breaks the schema is refused, naming its file
echo '{"suite": "insns", "target": "x"}' >"$out/records/bad.jsonl"
if bench render >"$out/bad.log" 2>&1; then
	fail "a bad record" "render accepted it"
elif grep -q 'bad.jsonl:1' "$out/bad.log"; then
	pass "a bad record: refused, with its file and line"
else
	fail "a bad record" "refused without saying where: $(head -n 2 "$out/bad.log")"
fi
exit $failed
