#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The committed series (patches/linux-VERSION, patches/glibc-VERSION) are
# what the tree makes of vdso-kernel/ and sysdeps/ now, each glibc series
# applies to its pristine glibc (patches/glibc-sources.mk says where each
# is), and each kernel series passes its tree's own scripts/checkpatch.pl
# --strict with what its series.json's "checkpatch" asks ("0 errors", or
# "0 errors, 0 warnings"; the rest is counted on the PASS line, and
# patches/README.md says why it stays).
. "${srcdir:=.}/tests/test-lib.sh"
set -e
. "$top_builddir/tests/make-series.sh"
make_work
# linux_patches VERSION: the series' patches, without the cover letter.
linux_patches() {
	(cd "$srcdir/patches/linux-$1" && ls -- 0*.patch | grep -vx 0000-cover-letter.patch || :)
}
# same SERIES MADE_DIR: the committed patches are the made ones.
same() {
	local committed made f
	committed=$(cd "$srcdir/patches/$1" && ls -- *.patch 2>/dev/null || :)
	made=$(cd "$2" && ls)
	for f in $made; do
		cmp -s "$2/$f" "$srcdir/patches/$1/$f" || made="$made (differs: $f)"
	done
	if [ "$committed" = "$made" ]; then
		pass "series: patches/$1 is what 'make patches' makes of the tree"
	else
		fail "series: patches/$1" "not what the tree makes: run 'make patches' and commit the result"
	fi
}

# made KIND VERSION: patches/KIND-VERSION made (make_KIND) and the same.
made() {
	mkdir "$work/$1-$2"
	if "make_$1" "$2" "$work/$1-$2" >"$work/made.out" 2>&1; then
		same "$1-$2" "$work/$1-$2"
	else
		fail "series: making patches/$1-$2" "$(tail -1 "$work/made.out")"
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
			fail "series: patches/glibc-$1 applies to $pristine" "${p##*/}: $(head -n 1 "$work/apply.out")"
			return
		fi
	done
	pass "series: patches/glibc-$1 applies to $pristine"
}

# Each glibc series made and applied; each kernel series made, and
# checkpatch on each of its patches.
# shellcheck disable=SC2154
for v in $glibc_versions; do
	pristine=$(glibc_pristine "$v") base=$(glibc_pristine "$glibc_overlay_base")
	if [ ! -e "$pristine" ] || [ ! -e "$base" ]; then
		[ -e "$pristine" ] || base=$pristine
		why=$(tail -n 1 "$top_builddir/glibc-source/$v/why" 2>/dev/null || :)
		for what in "is what 'make patches' makes" "applies"; do
			case_add skip "series: patches/glibc-$v $what" "no glibc source $base${why:+ ($why)}:\
 make glibc-fetch, or install Debian's glibc-source"
		done
		continue
	fi
	case_add made glibc "$v"
	case_add applies "$v"
done

# checkpatch VERSION PATCH: PATCH passes Linux VERSION's checkpatch --strict
# with what the series asks.
checkpatch() {
	local want out total
	want=$(sed -n 's/^ *"checkpatch": "\(.*\)",*$/\1/p' "$srcdir/patches/linux-$1/series.json")
	# Not --terse, which prints no total for a clean patch.
	out=$(cd "$top_builddir/$(linux_tree "$1")" && perl scripts/checkpatch.pl --strict \
		--show-types "$2" 2>&1) || :
	total=$(printf '%s\n' "$out" | sed -n 's/^total: //p')
	case $total in
	"${want:-0 errors}"*) pass "checkpatch --strict: linux-$1/${2##*/}: $total" ;;
	*)
		fail "checkpatch --strict: linux-$1/${2##*/}" "${total:-no verdict}, not ${want:-0 errors}"
		if [ -n "$total" ]; then
			printf '%s\n' "$out" | grep -E '^(ERROR|WARNING):' | sed 's/^/# /'
		else
			printf '%s\n' "$out" | tail -n 5 | sed 's/^/# /'
		fi ;;
	esac
}

for v in $linux_series_versions; do
	case " $linux_versions " in
	*" $v "*) ;;
	*)
		why=$(tail -n 1 "$top_builddir/linux-source/$v/why" 2>/dev/null || :)
		for what in "is what 'make patches' makes" $(linux_patches "$v"); do
			case_add skip "series: patches/linux-$v: $what" "no Linux $v source${why:+ ($why)}:\
 configure --with-linux-source (Debian's linux-source), then make linux-fetch"
		done
		continue ;;
	esac
	case_add made linux "$v"
	for p in $(linux_patches "$v"); do
		case_add checkpatch "$v" "$srcdir/patches/linux-$v/$p"
	done
done
run_cases
exit $failed
