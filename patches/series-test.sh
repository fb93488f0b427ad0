#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The committed series (patches/linux-6.1, patches/glibc-VERSION) are what
# the tree makes of vdso-kernel/ and sysdeps/ now, each glibc series applies
# to its pristine glibc (patches/glibc-sources.mk says where each is), and
# the kernel's passes the tree's own scripts/checkpatch.pl --strict with no
# error (its warnings and checks are counted on the PASS line;
# patches/README.md says why they stay).
. "${srcdir:=.}/tests/test-lib.sh"
set -e
. "$top_builddir/tests/make-series.sh"
make_work
linux_patches=$(cd "$srcdir/patches/linux-6.1" &&
	ls -- 0*.patch | grep -vx 0000-cover-letter.patch || :)
# Each glibc series made and applied, the kernel's, and checkpatch on each
# kernel patch if there is a kernel.
# shellcheck disable=SC2154
glibc_results=$((2 * $(count $glibc_versions)))
if [ -z "$LINUX_SOURCE" ]; then
	plan $((glibc_results + 1))
else
	plan $((glibc_results + 1 + $(count $linux_patches)))
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

# applies VERSION: patches/glibc-VERSION applies to the pristine glibc.
applies() {
	local pristine dir=$work/apply-$1 f p files
	pristine=$(glibc_pristine "$1")
	files=$(sed -n 's|^+++ b/||p' "$srcdir/patches/glibc-$1"/0*.patch | sort -u)
	mkdir "$dir"
	if [ -d "$pristine" ]; then
		(cd "$pristine" && for f in $files; do [ ! -f "$f" ] || cp --parents "$f" "$dir/"; done)
	else
		# shellcheck disable=SC2046
		tar -xf "$pristine" -C "$dir" --strip-components=1 --wildcards \
			$(printf '*/%s ' $files) 2>/dev/null || :
	fi
	for p in "$srcdir/patches/glibc-$1"/0*.patch; do
		if ! patch -d "$dir" -p1 -s -f --no-backup-if-mismatch <"$p" >"$work/apply.out" 2>&1; then
			echo "FAIL: series: patches/glibc-$1 applies to $pristine: ${p##*/}: $(head -n 1 "$work/apply.out")"
			failed=1
			return
		fi
	done
	echo "PASS: series: patches/glibc-$1 applies to $pristine"
}

mkdir "$work/linux"
for v in $glibc_versions; do
	pristine=$(glibc_pristine "$v") base=$(glibc_pristine "$glibc_overlay_base")
	if [ ! -e "$pristine" ] || [ ! -e "$base" ]; then
		[ -e "$pristine" ] || base=$pristine
		why=$(tail -n 1 "$top_builddir/glibc-source/$v/why" 2>/dev/null || :)
		for what in "is what 'make patches' makes" "applies"; do
			echo "SKIP: series: patches/glibc-$v $what: no glibc source $base${why:+ ($why)}:" \
				"make glibc-fetch, or install Debian's glibc-source"
		done
		continue
	fi
	mkdir "$work/glibc-$v"
	if make_glibc "$v" "$work/glibc-$v" >"$work/glibc.out" 2>&1; then
		same "glibc-$v" "$work/glibc-$v"
	else
		echo "FAIL: series: making patches/glibc-$v: $(tail -1 "$work/glibc.out")"
		failed=1
	fi
	applies "$v"
done

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
