#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# qemu10-test.sh TEST: tests/TEST.sh with QEMU 10 (tests/qemu10.mk): its
# QEMUs as PPCTIME_QEMU, for ppctime-run and the test's plain QEMU alike.
set -eu
: "${top_builddir:=.}" "${srcdir:=.}"
dir=$top_builddir/tests/qemu10
if [ ! -f "$dir/version" ]; then
	echo "PLAN: 1"
	echo "SKIP: $1-qemu10: no QEMU 10: $(tail -n 1 "$dir/why" 2>/dev/null ||
		echo 'not fetched (make check fetches it)')"
	exit 0
fi
echo "QEMU 10: $(cat "$dir/version")"
PPCTIME_QEMU=$(cd "$dir/root/usr/bin" && pwd -P)
export PPCTIME_QEMU
exec "$srcdir/tests/$1.sh"
