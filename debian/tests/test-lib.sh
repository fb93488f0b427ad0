# SPDX-License-Identifier: GPL-2.0
# Shared by the installed tests: each target of the source's targets.txt,
# a probe built once for all its cases, and the checks of a launch's vDSO
# and of its time system calls (tests/test-lib.sh's time_syscalls, run
# from the source tree as autopkgtest runs them).
# Results are TAP (tests/README.md's protocol and helpers); a "not ok"
# makes the test exit 1 at the end.
. tests/test-lib.sh
# autopkgtest's own directory, or one of the test's, removed on exit.
if [ -n "${AUTOPKGTEST_TMP-}" ]; then work=$AUTOPKGTEST_TMP; else make_work; fi
probe_source=$PWD/tests/guest/launcher-probe.c

# for_targets COMMAND [ARG...]: COMMAND ARG... NAME TRIPLET QEMU for each
# target (for_targets case_add CHECK: a case of CHECK for each).
for_targets() {
	while read -r name triplet qemu; do
		"$@" "$name" "$triplet" "$qemu"
	done <<-EOF
	$(sh build-aux/target-fields targets.txt name triplet qemu)
	EOF
}

# built PROBE NAME COMPILER [ARG...]: PROBE, as COMPILER ARG... -o PROBE
# builds it, once for all the cases that run it; or case NAME fails
# saying why, and status 1.
built() {
	built_probe=$1 built_name=$2
	shift 2
	[ -x "$built_probe" ] || "$@" -o "$built_probe" 2>"$work/cc" || {
		fail "$built_name" "$1 cannot build the probe: $(cat "$work/cc")"
		return 1
	}
}

# check_vdso NAME PROBE [OPTION...]: ppctime-run OPTION... gives the probe
# the vDSO.
check_vdso() {
	name=$1 probe=$2
	shift 2
	vdso=$(ppctime-run "$@" "$probe" vdso 2>/dev/null | head -n 1) || :
	case $vdso in
	sysinfo_ehdr=0x*" listed=1") pass "$name: AT_SYSINFO_EHDR given ($vdso)" ;;
	*) fail "$name" "no vDSO: $vdso" ;;
	esac
}

# check_calls NAME PROBE [OPTION...]: under ppctime-run OPTION..., the
# probe's clock_gettime calls make no system call, where with --no-vdso
# each makes one.
check_calls() {
	name=$1 probe=$2
	shift 2
	# tests/test-lib.sh's count, as the build tree's tests take it.
	time_syscalls ppctime-run "$@" "$probe"
	with=$calls
	[ "$status" -eq 0 ] || with="none (it failed: $(tail -n 2 "$work/err"))"
	time_syscalls ppctime-run --no-vdso "$@" "$probe"
	without=$calls
	[ "$status" -eq 0 ] || without=failed
	if [ "$with" = 0 ] && [ "$without" != failed ] && [ "$without" -ge 1000 ]; then
		pass "$name: 1000 clock_gettime calls, 0 system calls ($without without the vDSO)"
	else
		fail "$name" "1000 clock_gettime calls made $with system calls ($without without the vDSO)"
	fi
}
