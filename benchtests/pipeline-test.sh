#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The benchmark pipeline (benchtests/ppctime-bench) on brief runs of its
# measurers on the first target: records that match the schema, a
# report.md with its tables, a summary that matches its, opaque charts, an unknown
# suite rendered as a table, bad records refused, and bench-compare: a run
# against itself all "same", against a doctored copy the doctored figures
# and only those.  Not how fast.
. "${srcdir:=.}/tests/test-lib.sh"
cd "$top_builddir" || exit 1
export srcdir LLVM_MCA
# mca after insns: it models the calls insns traced.
suites="insns mca timings timekeeper qemu"
bench() { "$PYTHON" "$srcdir/benchtests/ppctime-bench" --out="$out" "$@"; }
out=benchtests/pipeline-smoke
rm -rf "$out"
mkdir -p "$out"
report=$out/report.md
# One target: the pipeline is the same code for each, and each target's
# measurers took a minute of CI's (make bench measures every target).
target=${TARGETS%% *}

check_measure() { # SUITE
	if BENCH_DURATION=0.001 BENCH_REPS=5 bench measure "$1" "$target" >"$out/$1.log" 2>&1; then
		pass "measure $1: $(cat "$out"/records/"$1"-*.jsonl | wc -l) records"
	else
		fail "measure $1" "$(tail -n 3 "$out/$1.log")"
	fi
}

# the records rendered, among them a suite the renderer does not know, with
# a figure of the test's own
check_render() {
	echo "{\"suite\": \"kernel\", \"target\": \"$target\", \"config\": \"pipeline-test\", \"entry\": \"boot\", \"clock\": null, \"metric\": \"seconds\", \"unit\": \"s\", \"value\": 12.5, \"exact\": false, \"rep\": 0}" \
		>"$out/records/kernel-$target.jsonl"
	BENCH_DURATION=0.001 bench machine
	if bench render >"$out/render.log" 2>&1; then
		pass "render"
	else
		fail "render" "$(tail -n 5 "$out/render.log")"
	fi
}

check_report() { # TARGET
	local t=$1 missing='' heading section
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
}

# the summary and its schema, checked here rather than by the renderer
check_summary() { # TARGET
	if "$PYTHON" -c 'import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))
rows = json.load(open(sys.argv[1]))["rows"]
sys.exit(not rows or not all(r["vdso_insns"]["ppctime"] for r in rows))' \
		"$out/summary-$1.json" "$srcdir/benchtests/summary.schema.json" 2>"$out/schema.log"; then
		pass "$1: summary-$1.json matches its schema, every row counted"
	else
		fail "$1: summary-$1.json" "$(tail -n 2 "$out/schema.log")"
	fi
}

# a chart's PNG and SVG, the PNG without a transparent pixel
check_chart() { # CHART
	if [ -s "$out/$1.svg" ] && "$PYTHON" -c 'import sys, matplotlib.image
p = matplotlib.image.imread(sys.argv[1])
sys.exit(bool(p.ndim != 3 or (p.shape[2] == 4 and p[:, :, 3].min() < 1)))' "$out/$1.png" 2>/dev/null; then
		pass "chart $1: PNG (opaque) and SVG"
	else
		fail "chart $1" "no $out/$1.svg, or $out/$1.png missing or transparent"
	fi
}

check_unknown_suite() {
	if grep -qF "### kernel" "$report" && grep -F "| boot" "$report" | grep -qF "12.5"; then
		pass "an unknown suite: a table of its own"
	else
		fail "an unknown suite" "no 'kernel' table with the test's figure in $report"
	fi
}

# bench-compare: against itself, every figure the same
check_compare_self() {
	bench save self >/dev/null
	bench compare self >"$out/self.log" 2>&1
	if grep -qE '^[1-9][0-9]* same, 0 different' "$out/self.log"; then
		pass "compare: a run against itself: $(tail -n 1 "$out/self.log" | cut -d: -f1)"
	else
		fail "compare: a run against itself" "$(tail -n 3 "$out/self.log")"
	fi
}

# against a baseline (the run saved by the case before) with one count one
# higher and the ppctime vDSO's timings four times slower: those, and
# nothing else, differ
check_compare_doctored() {
	local doctored=$out/saved/doctored changed_counts other_insns faster
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
	if [ "$changed_counts" -eq 1 ] && [ "$other_insns" -eq 0 ] && [ "$faster" -gt 0 ]; then
		pass "compare: a doctored baseline: $changed_counts count(s) -1, $faster timings faster, nothing else"
	else
		fail "compare: a doctored baseline" "$changed_counts counts -1 (want one), $other_insns other count changes, $faster ppctime timings faster"
	fi
}

# a record that breaks the schema is refused, naming its file
check_bad_record() {
	echo '{"suite": "insns", "target": "x"}' >"$out/records/bad.jsonl"
	if bench render >"$out/bad.log" 2>&1; then
		fail "a bad record" "render accepted it"
	elif grep -q 'bad.jsonl:1' "$out/bad.log"; then
		pass "a bad record: refused, with its file and line"
	else
		fail "a bad record" "refused without saying where: $(head -n 2 "$out/bad.log")"
	fi
}

# A measure per suite, render; report.md and its summary; the insns chart
# and the target's three; the unknown suite, two compares, a bad record.
for suite in $suites; do
	case_add check_measure "$suite"
done
case_add check_render
case_add check_report "$target"
case_add check_summary "$target"
case_add check_chart insns
case_add check_chart "cycles-$target"
case_add check_chart "speedup-$target"
case_add check_chart "seeds-$target"
case_add check_unknown_suite
case_add check_compare_self
case_add check_compare_doctored
case_add check_bad_record
run_cases
exit $failed
