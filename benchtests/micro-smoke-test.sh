#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A very brief run of each microbenchmark (benchtests/micro.mk) on each
# target under ppctime-run, checking that it runs, that its output parses
# as benchtests/ppctime-bench reads it, and that it refuses a bad argument; not
# how fast anything is.
. "${srcdir:=.}/tests/test-lib.sh"
set -e
cd "$top_builddir"
run=run/ppctime-run
# check NAME OUTPUT AWK-ARGUMENTS...: the awk program exits 0 when OUTPUT parses
check() {
	local name=$1 output=$2
	if printf '%s\n' "$output" | awk "${@:3}"; then
		pass "$name"
	else
		fail "$name" "output does not parse:
$(printf '%s\n' "$output" | head -5)"
	fi
}

# every line "NAME: METHOD: NS nsec/call"; 10 names, and vdso lines for
# each with ours; with --no-vdso, plain QEMU's: none, or with a QEMU that
# maps its own vDSO (8.2 and later) one for each entry it has
check_vdsotest() { # TARGET vdso|no-vdso
	local options=() vdso_lines=10 out
	if [ "$2" = no-vdso ]; then
		options=(--no-vdso)
		case $(plain_vdso "$1") in
		none) vdso_lines=0 ;;
		set) vdso_lines=some ;;
		*) fail "$1: vdsotest, $2" "plain QEMU's vDSO unread (tests/guest/launcher-probe-static-$1)"; return ;;
		esac
	fi
	out=$("$run" "${options[@]}" benchtests/vdsotest-$1 0.001 2>&1) || :
	check "$1: vdsotest, $2" "$out" -v vdso_lines="$vdso_lines" '
		/^[-a-z]+: (syscall|libc|vdso): [0-9]+\.[0-9] nsec\/call$/ && $3 > 0 {
			sub(/:$/, "", $1); names[$1] = 1; methods[$2]++; next }
		{ bad = 1 }
		END {
			for (n in names) count++
			vdso = methods["vdso:"]
			exit bad || count != 10 || methods["syscall:"] != 10 ||
			     methods["libc:"] != 10 ||
			     (vdso_lines == "some" ? vdso < 1 || vdso > 10 : vdso != vdso_lines)
		}'
}

# with a NAME, its three lines alone
check_one_benchmark() { # TARGET
	local out
	out=$("$run" benchtests/vdsotest-$1 0.001 clock-gettime-monotonic 2>&1) || :
	check "$1: vdsotest, one benchmark" "$out" '
		/^clock-gettime-monotonic: (syscall|libc|vdso): [0-9]+\.[0-9] nsec\/call$/ && $3 > 0 { n++; next }
		{ n = -9 } END { exit n != 3 }'
}

check_tb() { # TARGET
	local out
	out=$("$run" benchtests/tb-$1 1000 2>&1) || :
	check "$1: tb" "$out" 'NR == 1 && /^time = [0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]$/ { ok = 1; next } { ok = 0 } END { exit !ok }'
}

check_null_syscall() { # TARGET
	local out
	out=$("$run" benchtests/null_syscall-$1 0.01 2 2>&1) || :
	check "$1: null_syscall" "$out" '
		NR == 1 && /^getppid: 2 rounds, [1-9][0-9]* calls$/ { n++; next }
		NR == 2 && /^ticks\/call: mean = [0-9.]+ sd = [0-9.]+$/ && $4 > 0 { n++; next }
		NR == 3 && /^ns\/call: mean = [0-9.]+ sd = [0-9.]+$/ && $4 > 0 { n++; next }
		{ n = -9 } END { exit n != 3 }'
}

check_context_switch() { # TARGET
	local out
	out=$("$run" benchtests/context_switch-$1 0.01 2>&1) || :
	check "$1: context_switch" "$out" '
		NR == 1 && /^context_switch: [1-9][0-9]* round trips in [0-9.]+ s$/ { n++; next }
		NR == 2 && /^switches\/s = [1-9][0-9]*$/ { n++; next }
		{ n = -9 } END { exit n != 2 }'
}

# a bad argument: a message and status 2, passed through by ppctime-run
check_bad_arguments() { # TARGET
	local refused='' program status
	for program in vdsotest tb null_syscall context_switch; do
		status=0
		"$run" benchtests/$program-$1 not-a-number >/dev/null 2>&1 || status=$?
		[ "$status" -eq 2 ] || refused="$refused $program(status $status)"
	done
	status=0
	"$run" benchtests/vdsotest-$1 0.001 no-such-benchmark >/dev/null 2>&1 || status=$?
	[ "$status" -eq 2 ] || refused="$refused vdsotest-NAME(status $status)"
	if [ -z "$refused" ]; then
		pass "$1: bad arguments refused"
	else
		fail "$1" "bad arguments not refused with status 2:$refused"
	fi
}

# Per target: vdsotest with and without the vDSO and for one benchmark,
# tb, null_syscall, context_switch, the bad arguments.
for t in $TARGETS; do
	case_add check_vdsotest "$t" vdso
	case_add check_vdsotest "$t" no-vdso
	case_add check_one_benchmark "$t"
	case_add check_tb "$t"
	case_add check_null_syscall "$t"
	case_add check_context_switch "$t"
	case_add check_bad_arguments "$t"
done
run_cases
exit $failed
