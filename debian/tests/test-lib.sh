# SPDX-License-Identifier: GPL-2.0
# Shared by the installed tests: each target of the source's targets.txt,
# and a check of a launch's time system calls (tests/test-lib.sh's
# time_syscalls, run from the source tree as autopkgtest runs them).
# Results are TAP (tests/README.md's protocol and helpers); a "not ok"
# makes the test exit 1 at the end.
. tests/test-lib.sh
work=${AUTOPKGTEST_TMP:-$(mktemp -d)}
probe_source=$PWD/tests/guest/launcher-probe.c

# The targets, for the plans: nr_targets of them.
nr_targets=$(sh build-aux/target-fields targets.txt name | wc -l)

# for_targets FUNCTION: FUNCTION NAME TRIPLET QEMU for each target.
for_targets() {
	while read -r name triplet qemu; do
		"$1" "$name" "$triplet" "$qemu"
	done <<-EOF
	$(sh build-aux/target-fields targets.txt name triplet qemu)
	EOF
}

# check_run NAME PROBE [OPTION...]: ppctime-run OPTION... gives the probe
# the vDSO, and its clock_gettime calls make no system call, where with
# --no-vdso each makes one.
check_run() {
	name=$1 probe=$2
	shift 2
	vdso=$(ppctime-run "$@" "$probe" vdso 2>/dev/null | head -n 1) || :
	case $vdso in
	sysinfo_ehdr=0x*" listed=1") pass "$name: AT_SYSINFO_EHDR given ($vdso)" ;;
	*) fail "$name" "no vDSO: $vdso" ;;
	esac
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
