#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/run-tests holds each program to its plan: run on small programs of
# the test's own, it passes one that reports as many results as its PLAN:
# lines add up to, and fails (with the counts, in the failures list too)
# one that reports fewer, one that reports more and one with no plan; and
# it refuses two programs of one name, whose logs would be one file.
# Protocol: tests/README.md.
. "${srcdir:=.}/tests/test-lib.sh"
make_work
plan 6

# program NAME LINE...: an executable $work/NAME printing LINE... and
# exiting 0.
program() {
	name=$1
	shift
	printf '#!/bin/sh\n' >"$work/$name"
	printf 'echo "%s"\n' "$@" >>"$work/$name"
	chmod +x "$work/$name"
}
# check_run NAME EXPECTED_STATUS SUMMARY [FAIL_LINE]: run-tests on program
# NAME exits with EXPECTED_STATUS, ends with SUMMARY, and lists FAIL_LINE
# (with its log) under "== failures", or lists nothing.
check_run() {
	rc=0
	env -u MAKEFLAGS top_builddir="$work" sh "$srcdir/tests/run-tests" "$work/$1" \
		>"$work/out" 2>&1 || rc=$?
	listed=$(sed -n '/^== failures$/,$p' "$work/out" | grep '^FAIL: ' || :)
	if [ "$rc" -eq "$2" ] && [ "$(tail -n 1 "$work/out")" = "$3" ] &&
		[ "$listed" = "${4:+$4 (log: $work/tests/logs/$1.log)}" ]; then
		pass "run-tests: $1: $3${4:+; $4}"
	else
		fail "run-tests: $1" "exit status $rc, expected $2; output:"
		sed 's/^/    /' "$work/out"
	fi
}

program as-planned "PLAN: 2" "PASS: one" "SKIP: two: not here"
check_run as-planned 0 "1 passed, 0 failed, 1 skipped"
program plans-add-up "PLAN: 1" "PASS: one" "PLAN: 2" "PASS: two" "PASS: three"
check_run plans-add-up 0 "3 passed, 0 failed, 0 skipped"
program fewer "PLAN: 3" "PASS: one" "PASS: two"
check_run fewer 1 "2 passed, 1 failed, 0 skipped" \
	"FAIL: fewer planned 3 results, reported 2"
program more "PLAN: 1" "PASS: one" "PASS: two"
check_run more 1 "2 passed, 1 failed, 0 skipped" \
	"FAIL: more planned 1 results, reported 2"
program no-plan "PASS: one"
check_run no-plan 1 "1 passed, 1 failed, 0 skipped" \
	"FAIL: no-plan reported 1 results without a plan"
mkdir "$work/other"
cp "$work/as-planned" "$work/other/as-planned"
rc=0
env -u MAKEFLAGS top_builddir="$work" sh "$srcdir/tests/run-tests" "$work/as-planned" \
	"$work/other/as-planned" >"$work/out" 2>&1 || rc=$?
if [ "$rc" -eq 2 ] && grep -q 'two tests named as-planned would share one log' "$work/out"; then
	pass "run-tests: two programs named as-planned: refused"
else
	fail "run-tests: two programs named as-planned" "exit status $rc, expected 2; output:"
	sed 's/^/    /' "$work/out"
fi
exit $failed
