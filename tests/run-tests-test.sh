#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/run-tests reads TAP and holds each program to its plan: run on
# small programs of the test's own, it passes one that reports as many
# results as its plan, a subtest's stream nested in it too; and it fails
# (with the reason, in the failures list too) one that reports fewer, one
# that reports more, one with no plan, one that bails out, one whose
# subtest breaks its own plan, one whose results are misnumbered, and one
# that exits non-zero with no "not ok"; a "not ok" is listed again; it
# refuses two programs of one name, whose logs would be one file; and
# programs run one by one (--run, as make check runs them) are reported
# (--report) as when run together, one that never ran failed.
# Protocol: tests/README.md.
. "${srcdir:=.}/tests/test-lib.sh"
make_work

# program NAME STATUS LINE...: an executable $work/NAME printing LINE...
# and exiting with STATUS.
program() {
	name=$1 rc=$2
	shift 2
	printf '#!/bin/sh\n' >"$work/$name"
	printf "echo '%s'\n" "$@" >>"$work/$name"
	echo "exit $rc" >>"$work/$name"
	chmod +x "$work/$name"
}
# run_tests ARG...: tests/run-tests with ARGs on $work, outside make.
run_tests() { env -u MAKEFLAGS top_builddir="$work" sh "$srcdir/tests/run-tests" "$@"; }
# check_run NAME EXPECTED_STATUS SUMMARY [LISTED]: run-tests on program
# NAME exits with EXPECTED_STATUS, ends with SUMMARY, and lists LISTED
# (a line of its own or of the program's) under "== failures", or
# nothing.
check_run() {
	rc=0
	run_tests "$work/$1" >"$work/out" 2>&1 || rc=$?
	listed=$(sed -n '/^== failures$/,$p' "$work/out" | sed '1d; $d')
	if [ "$rc" -eq "$2" ] && [ "$(tail -n 1 "$work/out")" = "$3" ] &&
		[ "$listed" = "${4-}" ]; then
		pass "run-tests: $1: $3"
	else
		fail "run-tests: $1" "exit status $rc, expected $2; output:
$(cat "$work/out")"
	fi
}
log() { echo "(log: $work/tests/logs/$1.log)"; }

program as-planned 0 "TAP version 13" "1..2" "ok 1 one" "ok 2 two # SKIP not here"
case_add check_run as-planned 0 "1 passed, 0 failed, 1 skipped"
program nested 0 "TAP version 13" "1..2" "    # Subtest: inner" "    1..2" \
	"    ok 1 in one" "    ok 2 in two # SKIP not here" "ok 1 inner" "ok 2 two"
case_add check_run nested 0 "3 passed, 0 failed, 1 skipped"
program not-ok 1 "1..2" "ok 1 one" "not ok 2 two # broke" "# how"
case_add check_run not-ok 1 "1 passed, 1 failed, 0 skipped" "not ok 2 two # broke (not-ok)"
program fewer 0 "1..3" "ok 1 one" "ok 2 two"
case_add check_run fewer 1 "2 passed, 1 failed, 0 skipped" \
	"FAIL: fewer planned 3 results, reported 2 $(log fewer)"
program more 0 "1..1" "ok 1 one" "ok 2 two"
case_add check_run more 1 "2 passed, 1 failed, 0 skipped" \
	"FAIL: more planned 1 results, reported 2 $(log more)"
program no-plan 0 "ok 1 one"
case_add check_run no-plan 1 "1 passed, 1 failed, 0 skipped" \
	"FAIL: no-plan reported 1 results without a plan $(log no-plan)"
program bail-out 0 "1..2" "ok 1 one" "Bail out! no disk"
case_add check_run bail-out 1 "1 passed, 1 failed, 0 skipped" \
	"FAIL: bail-out bailed out: no disk $(log bail-out)"
program nested-fewer 0 "1..1" "    1..2" "    ok 1 in one" "ok 1 inner"
case_add check_run nested-fewer 1 "2 passed, 1 failed, 0 skipped" \
	"FAIL: nested-fewer subtest at depth 1: planned 2 results, reported 1 $(log nested-fewer)"
program misnumbered 0 "1..2" "ok 1 one" "ok 3 three"
case_add check_run misnumbered 1 "2 passed, 1 failed, 0 skipped" \
	"FAIL: misnumbered result 3 came as result 2 $(log misnumbered)"
program exit-status 3 "1..1" "ok 1 one"
case_add check_run exit-status 1 "1 passed, 1 failed, 0 skipped" \
	"FAIL: exit-status exited with status 3 $(log exit-status)"

check_two_of_a_name() {
	mkdir "$work/other"
	cp "$work/as-planned" "$work/other/as-planned"
	rc=0
	run_tests "$work/as-planned" "$work/other/as-planned" >"$work/out" 2>&1 || rc=$?
	if [ "$rc" -eq 2 ] && grep -q 'two tests named as-planned would share one log' "$work/out"; then
		pass "run-tests: two programs named as-planned: refused"
	else
		fail "run-tests: two programs named as-planned" "exit status $rc, expected 2; output:
$(cat "$work/out")"
	fi
}
case_add check_two_of_a_name

# check_run_one_by_one: --run on as-planned and not-ok exits 0 each time,
# --report on both then gives run-tests' verdict on them together.
check_run_one_by_one() {
	rc=0
	for p in as-planned not-ok; do
		run_tests --run "$work/$p" >>"$work/runs" 2>&1 || rc=$?
	done
	run_tests --report "$work/as-planned" "$work/not-ok" >"$work/out" 2>&1 || rc=$((rc + $?))
	if [ "$rc" -eq 1 ] && [ "$(tail -n 1 "$work/out")" = "2 passed, 1 failed, 1 skipped" ] &&
		grep -qxF "not ok 2 two # broke (not-ok)" "$work/out"; then
		pass "run-tests --run, --report: as run together"
	else
		fail "run-tests --run, --report" "exit statuses summed $rc, expected 1; output:
$(cat "$work/runs" "$work/out")"
	fi
}
case_add check_run_one_by_one

# check_diagnostics: a failure's '#' lines follow it in the report.
check_diagnostics() {
	run_tests "$work/not-ok" >"$work/out" 2>&1 || :
	if grep -A 1 -xF "not ok 2 two # broke" "$work/out" | grep -qxF "# how"; then
		pass "run-tests: a failure's diagnostics follow it"
	else
		fail "run-tests: a failure's diagnostics follow it" "output: $(cat "$work/out")"
	fi
}
case_add check_diagnostics
# check_report_unrun: --report on a program that never ran fails it.
check_report_unrun() {
	program never-ran 0 "1..1" "ok 1 one"
	rc=0
	run_tests --report "$work/never-ran" >"$work/out" 2>&1 || rc=$?
	if [ "$rc" -eq 1 ] && [ "$(tail -n 1 "$work/out")" = "0 passed, 1 failed, 0 skipped" ] &&
		grep -qF "FAIL: never-ran did not run" "$work/out"; then
		pass "run-tests --report: a program that never ran failed"
	else
		fail "run-tests --report: a program that never ran" "exit status $rc, expected 1; output:
$(cat "$work/out")"
	fi
}
case_add check_report_unrun
run_cases
exit $failed
