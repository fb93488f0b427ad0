#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# ppctime-bench import-lava on a small results file of the test's own, in
# the form a LAVA server exports a job's results (lavacli results JOB
# --yaml): two runs of a booted vdsotest and a third with a libc figure,
# as a lava/bench-TARGET-CONFIG.yaml job records them, beside the job's
# own case.  The records go through the schema into a report whose kernel
# table has the rows "booted on DEVICE (LAVA job N)" with the runs'
# median; results without a vdsotest figure are refused.
. "${srcdir:=.}/tests/test-lib.sh"
set -e
cd "$top_builddir"
export srcdir
make_work
bench() { "$PYTHON" "$srcdir/benchtests/ppctime-bench" --out="$work/out" "$@"; }
target=${TARGETS%% *} device=qemu-lava-test job=4242
first=$((100 + RANDOM % 100)) libc=$((150 + RANDOM % 100))
second=$((first + 2 * (100 + RANDOM % 50)))	# the median, their mean, is whole
median=$(((first + second) / 2))
suite=${target}_ppctime-7.3_vdsotest_0.1
case_line() { # SUITE NAME MEASUREMENT
	printf -- "- {job: '%s', suite: %s, name: %s, result: pass, measurement: '%s', unit: nsec/call, level: 4.1}\n" \
		"$job" "$1" "$2" "$3"
}
{
	printf -- "- {job: '%s', suite: lava, name: job, result: pass, measurement: 'None', unit: ''}\n" "$job"
	case_line "${suite}_1" clock_gettime_monotonic_vdso "$first.0"
	case_line "${suite}_1" clock_gettime_monotonic_syscall "$((first * 3)).0"
	case_line "${suite}_2" clock_gettime_monotonic_vdso "$second.0"
	case_line "${suite}_2" clock_gettime_monotonic_syscall "$((second * 3)).0"
	case_line "${suite}_3" gettimeofday_libc "$libc.5"
} >"$work/results.yaml"

check_import() {
	if bench import-lava --device="$device" "$work/results.yaml" >"$work/import.log" 2>&1 &&
			[ "$(cat "$work"/out/records/kernel-"$target"-lava-$job.jsonl | wc -l)" -eq 5 ]; then
		pass "import-lava: 5 records from 5 figures, each matching record.schema.json"
	else
		fail "import-lava" "$(tail -n 3 "$work/import.log")"
	fi
}
# The records rendered, for this case and the next.
check_median_row() {
	bench render >"$work/render.log" 2>&1 || true
	row=$(grep -F "| ppctime-7.3, booted on $device (LAVA job $job) " "$work/out/report.md" 2>/dev/null |
		grep -F "| clock_gettime |" || true)
	if printf '%s\n' "$row" | grep -q "| *$median\(\.[0-9]*\)\? \["; then
		pass "report.md: clock_gettime booted on $device (LAVA job $job), the median of its runs ($median)"
	else
		fail "report.md: the row booted on $device (LAVA job $job)" \
			"not with $median: ${row:-none}; $(tail -n 2 "$work/render.log")"
	fi
}
check_syscall_row() {
	if grep -qF "| syscall under ppctime-7.3, booted on $device (LAVA job $job) " "$work/out/report.md" &&
			grep -F "| gettimeofday " "$work/out/report.md" | grep -qF "$libc.5"; then
		pass "report.md: the system call's row and the libc figure"
	else
		fail "report.md" "no syscall row or no gettimeofday libc $libc.5"
	fi
}
check_no_figure() {
	head -n 1 "$work/results.yaml" >"$work/none.yaml"
	if bench import-lava --device="$device" "$work/none.yaml" >"$work/none.log" 2>&1; then
		fail "import-lava refuses results without a figure" "it took them"
	else
		pass "import-lava refuses results without a figure: $(tail -n 1 "$work/none.log")"
	fi
}

case_add check_import
case_add check_median_row
case_add check_syscall_row
case_add check_no_figure
run_cases
exit $failed
