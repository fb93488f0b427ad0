#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The source tree stays the sources in an in-tree build: a copy of the
# tracked files is configured in place for one target and built ('make
# check-programs': all that 'make check' runs but the glibc sysroots);
# git then sees no untracked output (.gitignore has them all), 'make clean'
# and 'make distclean' remove no source, and distclean leaves the tree as
# it was; built again from clean in another directory, it installs the
# same files.  Protocol: tests/README.md.
. "${srcdir:=.}/tests/test-lib.sh"

if ! command -v git >/dev/null || ! git -C "$srcdir" rev-parse --is-inside-work-tree \
	>/dev/null 2>&1; then
	plan 1
	skip in-tree "$srcdir is not a git work tree (or no git: Debian package git)"
	exit 0
fi
make_work
tree=$work/tree
target=${TARGETS%% *}

# git_status [--ignored]: what git sees beside the committed copy.
git_status() { git -C "$tree" status --porcelain --untracked-files=all "$@"; }

# The work tree's tracked files as they are now, edits included, copied,
# committed, configured and built in place; git sees no output.  Without
# a copy or a build there is nothing to check further: exit 1.
check_build() {
	mkdir "$tree"
	git -C "$srcdir" ls-files -z | (cd "$srcdir" && xargs -0 tar -cf -) | tar -C "$tree" -xf -
	(cd "$tree" && git init -q && git add -A && git -c user.name=t -c user.email=t@t \
		commit -qm tree) || { fail in-tree "cannot make a git copy of the tree"; exit 1; }
	if ! (cd "$tree" && ./configure --enable-targets="$target" && make -j2 check-programs) \
		>"$work/build.log" 2>&1; then
		fail "in-tree build" "configure or make failed:"
		tail -n 20 "$work/build.log" | sed 's/^/# /'
		exit 1
	fi
	git_status >"$work/status"
	if [ -s "$work/status" ]; then
		fail "in-tree build: outputs ignored" "git sees $(wc -l <"$work/status") files:"
		head -n 20 "$work/status" | sed 's/^/# /'
	else
		pass "in-tree build: outputs ignored"
	fi
}

# Reproducible: the build moved to another directory and made again from
# clean installs the same files byte for byte (a build-id covers the debug
# information, which names directories), and the vDSO image's .dbg twin
# is the same.
check_reproducible() {
	eval "image=vdso-kernel/\$IMAGE_$target.so"
	(cd "$tree" && make install DESTDIR="$work/first" && cp "$image.dbg" "$work/") \
		>"$work/moved.log" 2>&1 && mv "$tree" "$work/moved" &&
		(cd "$work/moved" && make clean && make all && make install DESTDIR="$work/again") \
		>>"$work/moved.log" 2>&1
	status=$?
	[ -d "$work/moved" ] && mv "$work/moved" "$tree"
	if [ "$status" -ne 0 ]; then
		fail "reproducible build" "cannot build and install in another directory:"
		tail -n 20 "$work/moved.log" | sed 's/^/# /'
	elif ! diff -r "$work/first" "$work/again" >"$work/diff" 2>&1 ||
	     ! cmp -s "$tree/$image.dbg" "$work/${image##*/}.dbg"; then
		fail "reproducible build" "built in $work/moved, differs from the build in $tree:"
		{ cat "$work/diff"; cmp "$tree/$image.dbg" "$work/${image##*/}.dbg"; } 2>&1 | head -n 10 | sed 's/^/# /'
	else
		pass "reproducible build: the $(find "$work/first" -type f | wc -l) files installed and $image.dbg the same from another directory"
	fi
}

check_keeps_sources() { # STEP
	(cd "$tree" && make "$1") >"$work/$1.log" 2>&1
	if git_status | grep '^ D' >"$work/status"; then
		fail "in-tree make $1: keeps the sources" "deleted:"
		head -n 20 "$work/status" | sed 's/^/# /'
	else
		pass "in-tree make $1: keeps the sources"
	fi
}

check_as_it_was() {
	git_status --ignored >"$work/status"
	if [ -s "$work/status" ]; then
		fail "in-tree make distclean: the tree as it was" "left:"
		head -n 20 "$work/status" | sed 's/^/# /'
	else
		pass "in-tree make distclean: the tree as it was"
	fi
}

# Outputs ignored, reproducible, clean, distclean, the tree as it was.
case_add check_build
case_add check_reproducible
for step in clean distclean; do
	case_add check_keeps_sources "$step"
done
case_add check_as_it_was
run_cases
exit $failed
