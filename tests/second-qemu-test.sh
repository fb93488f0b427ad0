#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# second-qemu-test.sh TEST: tests/TEST.sh with the second QEMU
# (tests/second-qemu.mk): its QEMUs as PPCTIME_QEMU, for ppctime-run and
# the test's plain QEMU alike.  It execs the test, whose TAP is its own.
set -eu
: "${top_builddir:=.}" "${srcdir:=.}"
dir=$top_builddir/tests/second-qemu
if [ -f "$dir/why" ] || [ ! -f "$dir/version" ]; then
	# TAP (tests/README.md): one case, its SKIP.
	printf 'TAP version 13\n1..1\nok 1 %s # SKIP no second QEMU: %s\n' "$1-second-qemu" \
		"$(tail -n 1 "$dir/why" 2>/dev/null || echo 'not fetched (make check fetches it)')"
	exit 0
fi
echo "# The second QEMU: $(cat "$dir/version")"
PPCTIME_QEMU=$(cd "$dir/root/usr/bin" && pwd -P)
export PPCTIME_QEMU
exec "$srcdir/tests/$1.sh"
