# SPDX-License-Identifier: GPL-2.0
# Sourced first by every shell test, as
#     . "${srcdir:=.}/tests/test-lib.sh"
# The protocol of tests/README.md (TAP: run_cases, or plan, then pass,
# fail, skip), what configure found (tests/config.sh, in a
# build tree; the installed tests, debian/tests, run from the sources),
# srcdir and top_builddir made absolute (some cases run from another
# directory), a temporary directory removed on exit, and the helpers that
# run a program and look at what it printed.
set -u
: "${top_builddir:=.}" "${srcdir:=.}"
top_builddir=$(cd "$top_builddir" && pwd -P)
srcdir=$(cd "$srcdir" && pwd -P)
if [ -f "$top_builddir/tests/config.sh" ]; then
	. "$top_builddir/tests/config.sh"
fi
failed=0

# PPCTIME_QEMU, a directory (ppctime-run(1)): its QEMUs for the tests'
# plain QEMU too, so that both run one QEMU (make check's second QEMU pass).
if [ -d "${PPCTIME_QEMU-}" ]; then
	for t in ${TARGETS-}; do
		eval "QEMU_$t=\$PPCTIME_QEMU/\${QEMU_$t##*/}"
	done
fi

# TAP version 13, as kselftest prints it (tests/README.md): plan N, once
# and before the first result, then one pass, fail or skip per case, each
# numbered; "failed" set for the exit status.  The plan comes from the
# list of cases (run_cases), never from a sum kept by hand.
tap_number=0
plan() { printf 'TAP version 13\n1..%s\n' "$1"; }
# result ok|not ok NAME [DIRECTIVE]: the next numbered line ('#' in NAME
# escaped: it would start a directive), appended to the file
# $results_copy too when it is set (tests/host/root-steps.sh keeps a
# passing run's).
result() {
	local line
	tap_number=$((tap_number + 1))
	line="$1 $tap_number $(printf %s "$2" | sed 's/#/\\#/g')${3:+ # $3}"
	printf '%s\n' "$line"
	[ -z "${results_copy-}" ] || printf '%s\n' "$line" >>"$results_copy"
}
pass() { result ok "$1"; }
# fail NAME WHY: WHY's first line on the result line, the rest as
# diagnostics.
fail() {
	result 'not ok' "$1" "$(printf %s "$2" | head -n 1)"
	printf '%s\n' "$2" | sed '1d; s/^/# /'
	failed=1
}
skip() { result ok "$1" "SKIP $2"; }

# case_add COMMAND [ARG...]: one more case for run_cases, a command that
# reports one result (its words quoted for eval, each case ended by a
# \001, which no word holds: a word may hold a newline).
# run_cases: the plan, as many results as cases were added, then each
# case; one that reported no result fails, named after its command, and
# one that reported more makes the count differ from the plan, which
# run-tests fails.
cases= case_end=$(printf '\001')
case_add() {
	for word; do
		quoted=
		while :; do
			case $word in
			*\'*) quoted="$quoted${word%%\'*}'\\''" word=${word#*\'} ;;
			*) break ;;
			esac
		done
		cases="$cases '$quoted$word'"
	done
	cases="$cases$case_end"
}
run_cases() {
	set -f
	IFS_saved=$IFS IFS=$case_end
	set -- $cases
	IFS=$IFS_saved
	set +f
	plan $#
	for case_command; do
		case_results=$tap_number
		eval "$case_command"
		[ "$tap_number" -ne "$case_results" ] || fail "${case_command# }" "reported no result"
	done
}
count() { echo $#; }

# subtest NAME COMMAND...: COMMAND, a test program of its own, nested as
# kselftest nests one: its TAP (stdout and stderr) four spaces deeper,
# then one result for it, ok if it exited 0.  run-tests holds the nested
# stream to its own plan.
subtest() {
	subtest_name=$1
	shift
	echo "    # Subtest: $subtest_name"
	{ subtest_status=$( { { "$@" 2>&1 3>&- 4>&-; echo $? >&3; } |
		sed 's/^/    /' >&4; } 3>&1); } 4>&1
	if [ "$subtest_status" -eq 0 ]; then pass "$subtest_name"
	else fail "$subtest_name" "exit status $subtest_status"; fi
}

# at_exit COMMAND: run COMMAND (a string, for eval) when the script exits,
# before the commands given earlier.
exit_commands=:
at_exit() { exit_commands="$1; $exit_commands"; }
trap 'eval "$exit_commands"' EXIT

# make_work: $work, a directory of the script's own, removed on exit.
make_work() {
	work=$(mktemp -d "${TMPDIR:-/tmp}/$(basename "$0" .sh).XXXXXX")
	at_exit 'rm -rf --one-file-system "$work"'
}

# static_qemus: the directory of Debian's static QEMUs of every target
# (tests/qemu-user-static.sh), or why on stderr and status 1.
static_qemus() {
	set --
	for t in $TARGETS; do
		eval "set -- \"\$@\" \"\$QEMU_$t\""
	done
	sh "$srcdir/tests/qemu-user-static.sh" "$top_builddir/tests/qemu-user-static" "$@"
}

# is_static FILE: FILE is an ELF program without an interpreter, as a
# static QEMU is.
is_static() {
	headers=$(LC_ALL=C readelf -lW "$1" 2>/dev/null) && [ -n "$headers" ] &&
		case $headers in *'program interpreter'*) false ;; *) true ;; esac
}

# plain_vdso TARGET: "none" when plain QEMU gives TARGET's programs no
# vDSO (QEMU 7.2), else "set" (8.2 and later map one of their own), as the
# static launcher probe reads it; what ppctime-run --no-vdso gives too.
plain_vdso() {
	local qemu
	eval "qemu=\$QEMU_$1"
	"$qemu" "$top_builddir/tests/guest/launcher-probe-static-$1" vdso </dev/null |
		sed -n 's/^sysinfo_ehdr=0 .*/none/p; s/^sysinfo_ehdr=.*/set/p'
}

# vdso_image TARGET: the vDSO image ppctime-run maps by default for TARGET.
vdso_image() { eval echo "\$IMAGE_$1.so"; }

# keeper_of TAG: the ppctime-tk of the launch run with "$run -0 TAG", once
# it is there.  The launch becomes QEMU; its detached watchdog forks the
# keeper, which keeps the launch's command line: the tag tells it from the
# keepers of other tests running meanwhile.  One pgrep a try: a scan of
# /proc by hand took seconds on a loaded machine, longer than some programs
# live.  (As text too, for a shell of its own: launcher-test.sh's
# check_not_dumpable.)
keeper_of_sh='keeper_of() {
	for _ in $(seq 100); do
		for k in $(pgrep -f -- "^$run -0 $1 "); do
			[ "$(cat "/proc/$k/comm" 2>/dev/null)" = ppctime-tk ] && echo "$k" && return 0
		done
		sleep 0.05
	done
	return 1
}'
eval "$keeper_of_sh"

# freeze_keeper KEEPER: stop KEEPER and its watchdog (its parent) for
# 2 s, as a frozen cgroup would, from half a second on ($watchdog: whom).
# frozen_verdict NAME: the last launch's program compared its coarse clock
# with the system call meanwhile (compare 3000 monotonic-coarse): the
# keeper's deadline ended it, so the clock stood still 800 ms at most.
freeze_keeper() {
	watchdog=$(ps -o ppid= -p "${1:-0}" 2>/dev/null | tr -d ' ')
	sleep 0.5
	[ -n "$watchdog" ] || return 0
	kill -STOP "$watchdog" "$1"
	sleep 2
	kill -CONT "$watchdog" "$1" 2>/dev/null
}
frozen_verdict() {
	coarse=$(value worst_monotonic-coarse)
	if [ -z "$watchdog" ] || [ "$status" -ne 0 ] || [ -z "$coarse" ]; then
		fail "$1" "keeper '$keeper', watchdog '$watchdog', status $status"; show_err
	elif [ "$coarse" -gt 800000000 ]; then
		fail "$1" "the coarse clock stood still for $coarse ns"
	else
		pass "$1 (worst $coarse ns)"
	fi
}

# The helpers below read and write $work/out and $work/err.
# time_syscalls [--every] [--whole] COMMAND...: COMMAND (a launch of a
# probe: ppctime-run, its options, the probe) makes 1000 calls of
# clock_gettime(CLOCK_MONOTONIC) under QEMU_STRACE; $status its status,
# $calls how many clock_gettime system calls QEMU's -strace showed (one a
# call without a vDSO).  --whole: COMMAND has its probe's arguments
# already, none are added (tests/guest/vdso-clock-test's "calls CLOCK N").
# time_syscalls [--every] --last: $calls of the last launch's stderr
# (QEMU_STRACE set for it), $status untouched.
# --every: every time system call, not only clock_gettime: strace lines
# of clock_gettime, clock_gettime64, clock_getres, clock_getres_time64,
# gettimeofday and time, and QEMU 7.2's "Unknown syscall" 403 and 406
# (it names no clock_getres_time64, ppc32's 406, and answers it ENOSYS).
# Counted from the last getppid() on, where the probe marks its main
# (tests/glibc/sysroot-probe.c): a static glibc 2.43 may read
# CLOCK_MONOTONIC before it has found the vDSO, as on Linux (malloc's
# tcache_key_initialize falls back to random_bits() for a key with too
# few or too many bits set: 3 ppc32 launches in 150 here).  Without a
# mark, all of them.
time_syscalls() {
	ts_pattern=clock_gettime ts_whole= ts_last=
	while :; do
		case ${1-} in
		--every) ts_pattern='^[0-9]+ ((clock_gettime|clock_gettime64|clock_getres|clock_getres_time64|gettimeofday|time)\(|Unknown syscall 40[36]$)' ;;
		--whole) ts_whole=1 ;;
		--last) ts_last=1 ;;
		*) break ;;
		esac
		shift
	done
	if [ -z "$ts_last" ]; then
		[ -n "$ts_whole" ] || set -- "$@" calls 1000 monotonic
		status=0
		QEMU_STRACE=1 "$@" >"$work/out" 2>"$work/err" </dev/null ||
			status=$?
	fi
	calls=$(TS_PATTERN=$ts_pattern awk '/^[0-9]+ getppid\(/ { n = 0; next }
		$0 ~ ENVIRON["TS_PATTERN"] { n++ } END { print n + 0 }' "$work/err")
}
# launch ARGS...: ppctime-run ($run) with ARGS, its stdout, stderr and
# status ($status) kept.
launch() {
	"$run" "$@" >"$work/out" 2>"$work/err" </dev/null
	status=$?
}
# has PATTERN FILE: the last launch's FILE (out or err) has PATTERN.
has() { grep -q -- "$1" "$work/$2"; }
# value KEY: the first "KEY=value" the last launch printed.
value() { sed -n "s/.*\<$1=\([^ ]*\).*/\1/p" "$work/out" | head -n 1; }
# Show what a case saw, for the log; QEMU's -strace lines ("PID call(...")
# would bury the rest.
show_out() { sed 's/^/# out: /' "$work/out"; }
show_err() { grep -v '^[0-9][0-9]* ' "$work/err" | sed 's/^/# err: /'; }
show() { show_out; show_err; }
