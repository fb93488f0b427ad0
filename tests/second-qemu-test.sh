#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# second-qemu-test.sh TEST: tests/TEST.sh with the second QEMU
# (tests/second-qemu.mk): its QEMUs as PPCTIME_QEMU, for ppctime-run and
# the test's plain QEMU alike.
set -eu
: "${top_builddir:=.}" "${srcdir:=.}"
dir=$top_builddir/tests/second-qemu
if [ -f "$dir/why" ] || [ ! -f "$dir/version" ]; then
	echo "PLAN: 1"
	echo "SKIP: $1-second-qemu: no second QEMU: $(tail -n 1 "$dir/why" 2>/dev/null ||
		echo 'not fetched (make check fetches it)')"
	exit 0
fi
echo "The second QEMU: $(cat "$dir/version")"
PPCTIME_QEMU=$(cd "$dir/root/usr/bin" && pwd -P)
export PPCTIME_QEMU
exec "$srcdir/tests/$1.sh"
