#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# debian/ agrees with the tree: the package's version is configure's, and
# debian/control has for each target of targets.txt its sysroot package,
# depending on that target's cross gcc, and the target's cross tools among
# the Build-Depends.  (scripts/check-debs builds and checks the packages
# themselves.)  Protocol: tests/README.md.
. "${srcdir:=.}/tests/test-lib.sh"
# The version; per target its sysroot package and its Build-Depends.
plan $((1 + 2 * $(count $TARGETS)))
control=$srcdir/debian/control

version=$(sed -n '1s/^ppctime (\([^)]*\)).*/\1/p' "$srcdir/debian/changelog")
if [ "$version" = "$VERSION" ]; then
	pass "debian/changelog: version $version, configure's"
else
	fail "debian/changelog" "version '$version', configure's is $VERSION"
fi

# field PACKAGE FIELD: the field of PACKAGE's paragraph (Source for 0).
field() {
	awk -v pkg="$1" -v name="$2" '
		/^(Source|Package):/ { here = ($2 == pkg) }
		here && $0 ~ "^" name ":" { on = 1; sub("^" name ": *", ""); print; next }
		on && /^ / { print; next }
		{ on = 0 }' "$control" | tr '\n' ' '
}
build_depends=$(field ppctime Build-Depends)
for t in $TARGETS; do
	eval triplet=\$TRIPLET_$t debarch=\$DEBARCH_$t
	depends=$(field "ppctime-sysroot-$debarch" Depends)
	case $depends in
	*"gcc-$triplet"*) pass "debian/control: $t: ppctime-sysroot-$debarch needs gcc-$triplet" ;;
	'') fail "debian/control: $t" "no package ppctime-sysroot-$debarch" ;;
	*) fail "debian/control: $t" "ppctime-sysroot-$debarch does not depend on gcc-$triplet" ;;
	esac
	missing=
	for p in "gcc-$triplet" "binutils-$triplet" "libc6-dev-$debarch-cross"; do
		case " $build_depends" in *[\ ,]"$p"[,\ ]*) ;; *) missing="$missing $p" ;; esac
	done
	if [ -z "$missing" ]; then
		pass "debian/control: $t: its cross tools are Build-Depends"
	else
		fail "debian/control: $t" "Build-Depends lacks$missing"
	fi
done
exit $failed
