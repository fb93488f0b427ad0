# SPDX-License-Identifier: GPL-2.0
# Shared by the installed tests: each target of the source's targets.txt,
# and the counting of a program's time system calls under QEMU_STRACE.
# Results are PASS:/FAIL: lines (tests/README.md's protocol and helpers);
# a FAIL makes the test exit 1 at the end.
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

# time_syscalls PROBE [OPTION...]: how many clock_gettime system calls the
# probe's 1000 calls of clock_gettime(CLOCK_MONOTONIC) make when
# ppctime-run OPTION... runs it.
time_syscalls() {
	probe=$1
	shift
	QEMU_STRACE=1 ppctime-run "$@" "$probe" calls 1000 monotonic \
		2>"$work/strace" >/dev/null || return 1
	grep -c 'clock_gettime' "$work/strace" || :
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
	with=$(time_syscalls "$probe" "$@") || with="none (it failed: $(tail -n 2 "$work/strace"))"
	without=$(time_syscalls "$probe" --no-vdso "$@") || without=failed
	if [ "$with" = 0 ] && [ "$without" != failed ] && [ "$without" -ge 1000 ]; then
		pass "$name: 1000 clock_gettime calls, 0 system calls ($without without the vDSO)"
	else
		fail "$name" "1000 clock_gettime calls made $with system calls ($without without the vDSO)"
	fi
}
