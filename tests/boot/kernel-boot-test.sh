#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boots Linux 6.1 with the series (boot/TARGET-ppctime/vmlinux) on each
# TARGET given (none: every target) under qemu-system with the check
# initramfs, and passes on what the guest reports (tests/boot/boot-test,
# tests/boot/check.tests).
#
#   kernel-boot-test.sh [TARGET...]
# vdso-check, boot-test and the guest's programs plan their own results.
. "${srcdir:=.}/tests/test-lib.sh"
set -e
# Generous for TCG on a busy 2-core machine (a boot takes about 5 s, the
# tests a minute or two), but bounded: a hung guest is a FAIL.
timeout=${BOOT_TEST_TIMEOUT:-900}

if [ -z "$LINUX_SOURCE" ]; then
	plan 1
	echo "SKIP: kernel boot: no kernel source (configure --with-linux-source; Debian package linux-source-6.1)"
	exit 0
fi
# check_image TARGET: the image the kernel built keeps the properties of
# ppctime's code (tests/vdso-check rules 1, 2, 6, 7); rules 3 to 5, a SKIP
# each, are about ppctime's own image and the kernel's parts around the
# code (its signal trampolines' bctrl, the writable .dynamic of its linker
# script, its further exports) break them by design.
check_image() {
	local t=$1 name objdump objcopy dbg
	eval name=\$KERNEL_IMAGE_$t objdump=\${CROSS_$t}objdump objcopy=\${CROSS_$t}objcopy
	dbg=$top_builddir/boot/$t-ppctime/arch/powerpc/kernel/vdso/$name.so.dbg
	if [ ! -f "$dbg" ]; then
		echo "FAIL: $t: kernel image: no $dbg (make check-kernel builds it)"
		failed=1
		return
	fi
	"$objcopy" -S "$dbg" "$dbg.stripped"
	"$top_builddir/tests/vdso-check" --target="$t" --objdump="$objdump" \
		--label="$t: kernel image" "$dbg.stripped" "$dbg" 2>&1 |
		sed -e "s/^[A-Z]*: \([^:]*: kernel image rule [345]: [^:]*\).*/SKIP: \1: about ppctime's own image; the kernel's parts around the time code break it by design/" \
			-e '/^    /d' >"$dbg.check"
	cat "$dbg.check"
	! grep -q '^FAIL' "$dbg.check" || failed=1
}

for t in ${*:-$TARGETS}; do
	eval qemu=\$QEMU_SYSTEM_$t
	# Without qemu-system the kernel is not built; boot-test says SKIP.
	[ -z "$qemu" ] || check_image "$t"
	"$PYTHON" "$srcdir/tests/boot/boot-test" --target="$t" --qemu="$qemu" \
		--kernel="$top_builddir/boot/$t-ppctime/vmlinux" \
		--initrd="$top_builddir/boot/initramfs-$t-check.cpio" \
		--name="$t: kernel" --timeout="$timeout" \
		--log="$top_builddir/boot/$t-ppctime-check.console" || failed=1
done
exit $failed
