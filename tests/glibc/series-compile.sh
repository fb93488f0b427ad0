#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check's proof of a glibc series without a glibc build (the sysroots
# of every version are make check-all's): glibc VERSION, pristine, is
# configured for each target as sysdeps/build-glibc configures it, then its
# series (patches/glibc-VERSION) is applied one patch at a time, and after
# each the objects the series changes that exist by then are compiled
# afresh, static (.o) and shared (.os): each patch builds on its own.  At
# the end, glibc's time routines include clock_gettime-vdso.
#
#   series-compile.sh VERSION PRISTINE_TARBALL_OR_TREE
#
# Protocol: tests/README.md.
. "${srcdir:=.}/tests/test-lib.sh"
version=$1 pristine=$2
series=$srcdir/patches/glibc-$version
# The objects the series changes, SUBDIR/NAME: libc's routines (.o, .os)
# and the tests (.o).  Every .c and .S file the series writes is one.
routines="time/clock_gettime time/clock_getres time/clock_gettime-vdso"
tests="misc/test-gettimebasefreq"

patches=$(cd "$series" && for p in 0*.patch; do [ "$p" = 0000-cover-letter.patch ] || echo "$p"; done)
if [ ! -e "$pristine" ]; then
	plan 1
	why=$(tail -n 1 "$top_builddir/glibc-source/$version/why" 2>/dev/null || :)
	skip "glibc $version series compiles" "no glibc $version source at $pristine${why:+ ($why)}: make glibc-fetch fetches Debian's glibc-source"
	exit 0
fi
make_work

# shellcheck disable=SC2086
series_files=$(cd "$series" && sed -n 's|^+++ b/||p' $patches | sort -u)
# Every file the series writes that is compiled is in the lists above.
check_sources() {
	local stems f stem missing=
	stems=" $(echo $routines $tests | tr ' ' '\n' | sed 's|.*/||' | tr '\n' ' ')"
	for f in $series_files; do
		case $f in *.c|*.S)
			stem=${f##*/} stem=${stem%.*}
			case $stems in *" $stem "*) ;; *) missing="$missing $f" ;; esac ;;
		esac
	done
	if [ -z "$missing" ]; then
		pass "glibc $version series compiles: every source it writes is compiled here"
	else
		fail "glibc $version series compiles: every source it writes is compiled here" "not:$missing"
	fi
}

src=$work/src
mkdir "$src"
if [ -d "$pristine" ]; then
	cp -a "$pristine/." "$src/"
else
	tar -xf "$pristine" -C "$src" --strip-components=1
fi
# The originals of the files the series writes, to start each target from.
mkdir "$work/pristine"
(cd "$src" && for f in $series_files; do [ ! -f "$f" ] || cp --parents "$f" "$work/pristine/"; done)
# unpatch: the source as it was.
unpatch() {
	(cd "$src" && rm -f $series_files) && cp -a "$work/pristine/." "$src/"
}

# objects_of K: the objects to compile after patch K, those whose source
# the sysdeps search or the subdirectory has by then.
objects_of() {
	local o stem subdir
	for o in $routines $tests; do
		subdir=${o%/*} stem=${o#*/}
		if [ -n "$(find "$src/sysdeps" "$src/$subdir" \( -name "$stem.c" -o -name "$stem.S" \) -print -quit)" ]; then
			echo "$o.o"
			case " $routines " in *" $o "*) echo "$o.os" ;; esac
		fi
	done
}

# glibc_make OBJDIR SUBDIR ARGS...: make in glibc's SUBDIR as its own
# subdirectory makes do (tests/glibc/glibc-make).
glibc_make() {
	"$srcdir/tests/glibc/glibc-make" "$src" "$@"
}

# check_patch TARGET K PATCH: patches 1 to K (PATCH the Kth) applied to
# the source configured for TARGET, and the objects they change compiled;
# the first configures it, from the pristine source.  Once the source
# cannot be configured or a patch does not apply ($stopped says which),
# TARGET's later patches fail.
check_patch() {
	local name="glibc $version $1: patches 1 to $2 compile" triplet cross objects bad o
	obj=$work/obj-$1 log=$work/$1.log
	if [ "$2" -eq 1 ]; then
		eval "triplet=\$TRIPLET_$1 cross=\$CROSS_$1"
		mkdir "$obj"
		unpatch
		start=$(date +%s) stopped=
		# shellcheck disable=SC2046
		if ! (cd "$obj" && "$src/configure" $("$srcdir/sysdeps/build-glibc" --configure-options "$triplet") \
			CC="${cross}gcc" CXX="${cross}g++" CFLAGS="-O2" CXXFLAGS="-O2") >"$log" 2>&1; then
			fail "glibc $version $1: configure" "$(tail -n 3 "$log" | tr '\n' ' ')"
			stopped="configure failed"
			return
		fi
	fi
	if [ -n "$stopped" ]; then
		fail "$name" "$stopped"
		return
	fi
	if ! patch -d "$src" -p1 -s --no-backup-if-mismatch <"$series/$3" >>"$log" 2>&1; then
		fail "$name" "$3 does not apply to $pristine"
		stopped="an earlier patch failed"
		return
	fi
	objects=$(objects_of)
	bad=
	for o in $objects; do
		rm -f "$obj/$o"
		glibc_make "$obj" "${o%%/*}" "$obj/$o" >>"$log" 2>&1 || bad="$bad $o"
	done
	if [ -z "$bad" ]; then
		pass "$name ($(echo $objects))"
	else
		fail "$name" "$bad failed; $(grep -m 1 'error:' "$log")"
	fi
}

check_vdso_routine() { # TARGET
	if glibc_make "$work/obj-$1" time -n "$work/obj-$1/time/stamp.os" 2>/dev/null | grep -q 'clock_gettime-vdso\.os'; then
		pass "glibc $version $1: libc's time routines include clock_gettime-vdso ($(($(date +%s) - start)) s)"
	else
		fail "glibc $version $1: libc's time routines include clock_gettime-vdso" "not in make -n stamp.os"
	fi
}

# The sources; per target each patch in turn, and clock_gettime-vdso.
case_add check_sources
for target in $TARGETS; do
	k=0
	for p in $patches; do
		k=$((k + 1))
		case_add check_patch "$target" "$k" "$p"
	done
	case_add check_vdso_routine "$target"
done
run_cases
exit $failed
