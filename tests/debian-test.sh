#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# debian/ agrees with the tree: the package's version is configure's, and
# debian/control has for each target of targets.txt its sysroot package,
# depending on that target's cross gcc, and the target's cross tools among
# the Build-Depends.  (scripts/check-debs builds and checks the packages
# themselves.)  Protocol: tests/README.md.
. "${srcdir:=.}/tests/test-lib.sh"
control=$srcdir/debian/control

check_version() {
	version=$(sed -n '1s/^ppctime (\([^)]*\)).*/\1/p' "$srcdir/debian/changelog")
	if [ "$version" = "$VERSION" ]; then
		pass "debian/changelog: version $version, configure's"
	else
		fail "debian/changelog" "version '$version', configure's is $VERSION"
	fi
}

# field PACKAGE FIELD: the field of PACKAGE's paragraph (Source for 0).
field() {
	awk -v pkg="$1" -v name="$2" '
		/^(Source|Package):/ { here = ($2 == pkg) }
		here && $0 ~ "^" name ":" { on = 1; sub("^" name ": *", ""); print; next }
		on && /^ / { print; next }
		{ on = 0 }' "$control" | tr '\n' ' '
}
build_depends=$(field ppctime Build-Depends)

check_sysroot_package() { # TARGET
	eval "triplet=\$TRIPLET_$1 debarch=\$DEBARCH_$1"
	depends=$(field "ppctime-sysroot-$debarch" Depends)
	case $depends in
	*"gcc-$triplet"*) pass "debian/control: $1: ppctime-sysroot-$debarch needs gcc-$triplet" ;;
	'') fail "debian/control: $1" "no package ppctime-sysroot-$debarch" ;;
	*) fail "debian/control: $1" "ppctime-sysroot-$debarch does not depend on gcc-$triplet" ;;
	esac
}

check_cross_tools() { # TARGET
	eval "triplet=\$TRIPLET_$1 debarch=\$DEBARCH_$1"
	missing=
	for p in "gcc-$triplet" "binutils-$triplet" "libc6-dev-$debarch-cross"; do
		case " $build_depends" in *[\ ,]"$p"[,\ ]*) ;; *) missing="$missing $p" ;; esac
	done
	if [ -z "$missing" ]; then
		pass "debian/control: $1: its cross tools are Build-Depends"
	else
		fail "debian/control: $1" "Build-Depends lacks$missing"
	fi
}

# The version; per target its sysroot package and its Build-Depends.
case_add check_version
for t in $TARGETS; do
	case_add check_sysroot_package "$t"
	case_add check_cross_tools "$t"
done
run_cases
exit $failed
