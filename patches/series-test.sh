#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The committed series (patches/linux-6.1, patches/glibc-2.36) are what the
# tree makes of vdso-kernel/ and sysdeps/ now, and the kernel's passes the
# tree's own scripts/checkpatch.pl --strict with no error (its warnings and
# checks are counted on the PASS line; patches/README.md says why they stay).
. "${srcdir:=.}/tests/test-lib.sh"
set -e
. "$top_builddir/tests/make-series.sh"
make_work
linux_patches=$(cd "$srcdir/patches/linux-6.1" &&
	ls -- 0*.patch | grep -vx 0000-cover-letter.patch || :)
# Each series, and checkpatch on each kernel patch if there is a kernel.
if [ -z "$LINUX_SOURCE" ]; then
	plan 2
else
	plan $((2 + $(count $linux_patches)))
fi

# same SERIES MADE_DIR: the committed patches are the made ones.
same() {
	local committed made f
	committed=$(cd "$srcdir/patches/$1" && ls -- *.patch 2>/dev/null || :)
	made=$(cd "$2" && ls)
	for f in $made; do
		cmp -s "$2/$f" "$srcdir/patches/$1/$f" || made="$made (differs: $f)"
	done
	if [ "$committed" = "$made" ]; then
		echo "PASS: series: patches/$1 is what 'make patches' makes of the tree"
	else
		echo "FAIL: series: patches/$1 is not what the tree makes: run 'make patches' and commit the result"
		failed=1
	fi
}

mkdir "$work/glibc" "$work/linux"
if [ -z "$GLIBC_SOURCE" ]; then
	echo "SKIP: series: patches/glibc-2.36: no glibc source (configured --without-glibc-source)"
elif make_glibc "$work/glibc" >"$work/glibc.out" 2>&1; then
	same glibc-2.36 "$work/glibc"
else
	echo "FAIL: series: making patches/glibc-2.36: $(tail -1 "$work/glibc.out")"
	failed=1
fi

if [ -z "$LINUX_SOURCE" ]; then
	echo "SKIP: series: patches/linux-6.1: no kernel source (Debian package linux-source-6.1)"
	exit $failed
fi
if make_linux "$work/linux" >"$work/linux.out" 2>&1; then
	same linux-6.1 "$work/linux"
else
	echo "FAIL: series: making patches/linux-6.1: $(tail -1 "$work/linux.out")"
	failed=1
fi
for p in $linux_patches; do
	p=$srcdir/patches/linux-6.1/$p
	out=$(cd "$top_builddir/linux-src" && perl scripts/checkpatch.pl --strict --terse \
		--show-types "$p" 2>&1) || :
	total=$(printf '%s\n' "$out" | sed -n 's/^total: //p')
	case $total in
	"0 errors"*) echo "PASS: checkpatch --strict: ${p##*/}: $total" ;;
	*)
		echo "FAIL: checkpatch --strict: ${p##*/}: ${total:-no verdict}"
		if [ -n "$total" ]; then
			printf '%s\n' "$out" | grep ': ERROR:' | sed 's/^/    /'
		else
			printf '%s\n' "$out" | tail -n 5 | sed 's/^/    /'
		fi
		failed=1 ;;
	esac
done
exit $failed
