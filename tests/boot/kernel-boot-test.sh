#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boots each kernel given, boot/TARGET-CONFIG/vmlinux (CONFIG ppctime:
# Linux 6.1 with its series, ppctime-7.3: 7.3 with its; none given: 6.1's
# of every target), under qemu-system with the check initramfs, and passes
# on what the guest reports (tests/boot/boot-test, tests/boot/check.tests).
# TARGET-CONFIG-glibc-VERSION boots it with the initramfs whose kernel-test
# is built against glibc VERSION's sysroot (tests/boot/glibc.mk).
# With --vdso-only, checks the vDSO image of boot/TARGET-CONFIG-vdso/ (a
# kernel's build of the vDSO alone, build-kernel --vdso-only) instead.
#
#   kernel-boot-test.sh [--vdso-only] [TARGET-CONFIG[-glibc-VERSION]...]
# A case per image checked and per boot; vdso-check's and boot-test's TAP
# nested below each (tests/README.md).
. "${srcdir:=.}/tests/test-lib.sh"
set -e
# Generous for TCG on a busy 2-core machine (a boot takes about 5 s, the
# tests a minute or two), but bounded: a hung guest is a FAIL.
timeout=${BOOT_TEST_TIMEOUT:-900}

if [ -z "$LINUX_SOURCE" ]; then
	plan 1
	skip "kernel boot" "no kernel source (configure --with-linux-source; Debian package linux-source)"
	exit 0
fi
vdso_only=
if [ "${1-}" = --vdso-only ]; then
	vdso_only=-vdso
	shift
fi

# check_image TARGET CONFIG: the image the kernel built keeps the properties of
# ppctime's code (tests/vdso-check rules 1, 2, 6, 7, the last two on the
# time code's C, not on 7.3's own getrandom); rules 3 to 5, a SKIP each,
# are about ppctime's own image and the kernel's parts around the code
# (its signal trampolines' bctrl, the writable .dynamic of its linker
# script, its further exports) break them by design.
check_image() {
	local t=$1 config=$2 name objdump objcopy dbg
	eval name=\$KERNEL_IMAGE_$t objdump=\${CROSS_$t}objdump objcopy=\${CROSS_$t}objcopy
	dbg=$top_builddir/boot/$t-$config$vdso_only/arch/powerpc/kernel/vdso/$name.so.dbg
	if [ ! -f "$dbg" ]; then
		fail "$t $config: kernel image" "no $dbg (make check-kernel builds it)"
		return
	fi
	"$objcopy" -S "$dbg" "$dbg.stripped"
	"$top_builddir/tests/vdso-check" --target="$t" --objdump="$objdump" \
		--kernel-c=__c_kernel_getrandom \
		--label="$t $config: kernel image" "$dbg.stripped" "$dbg" 2>&1 |
		sed -e "s/^\(not \)\{0,1\}ok \([0-9]*\) \(.*: kernel image rule [345]: [^#]*[^# ]\).*/ok \2 \3 # SKIP about ppctime's own image; the kernel's parts around the time code break it by design/" \
			-e '/^# /d' >"$dbg.check"
	sed 's/^/    /' "$dbg.check"
	if grep -q '^not ok\|^Bail out!' "$dbg.check"; then
		fail "$t $config: kernel image" "vdso-check failed"
	else
		pass "$t $config: kernel image"
	fi
}

# boot TARGET CONFIG BOOT INITRAMFS LABEL QEMU: boot-test, a subtest.
boot() {
	subtest "$1 $5: boot" "$PYTHON" "$srcdir/tests/boot/boot-test" --target="$1" \
		--qemu="$6" --kernel="$top_builddir/boot/$3/vmlinux" \
		--initrd="$top_builddir/boot/initramfs-$1-$4.cpio" \
		--name="$1 $5: kernel" --timeout="$timeout" \
		--log="$top_builddir/boot/$3-$4.console"
}

for boot in ${*:-$(printf '%s-ppctime ' $TARGETS)}; do
	initramfs=check label=${boot#*-}
	case $boot in
	*-glibc-*)
		initramfs=check-glibc-${boot##*-glibc-}
		boot=${boot%-glibc-*}
		;;
	esac
	t=${boot%%-*} config=${boot#*-}
	if [ -n "$vdso_only" ]; then
		case_add check_image "$t" "$config"
		continue
	fi
	eval qemu=\$QEMU_SYSTEM_$t
	# Without qemu-system the kernel is not built; boot-test says SKIP.
	# Its image is checked once, in its boot with the check initramfs.
	[ -z "$qemu" ] || [ "$initramfs" != check ] || case_add check_image "$t" "$config"
	case_add boot "$t" "$config" "$boot" "$initramfs" "$label" "$qemu"
done
run_cases
exit $failed
