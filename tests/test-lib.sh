# SPDX-License-Identifier: GPL-2.0
# Sourced first by every shell test, as
#     . "${srcdir:=.}/tests/test-lib.sh"
# The protocol of tests/README.md (plan, pass, fail, skip; "failed" set for
# the script's exit status), what configure found (tests/config.sh, in a
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
# plain QEMU too, so that both run one QEMU (make check's QEMU 10 pass).
if [ -d "${PPCTIME_QEMU-}" ]; then
	for t in ${TARGETS-}; do
		eval "QEMU_$t=\$PPCTIME_QEMU/\${QEMU_$t##*/}"
	done
fi

# plan N: N results follow (run-tests fails a script that reports more or
# fewer); count WORD...: how many words, for plan's arithmetic.
plan() { echo "PLAN: $1"; }
count() { echo $#; }
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; failed=1; }
skip() { echo "SKIP: $1: $2"; }

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

# vdso_image TARGET: the vDSO image ppctime-run maps by default for TARGET.
vdso_image() { eval echo "\$IMAGE_$1.so"; }

# The helpers below read and write $work/out and $work/err.
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
show_out() { sed 's/^/    out: /' "$work/out"; }
show_err() { grep -v '^[0-9][0-9]* ' "$work/err" | sed 's/^/    err: /'; }
show() { show_out; show_err; }
