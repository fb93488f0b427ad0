#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The installed ppctime-run, $bindir/ppctime-run, with none of the build
# tree's launcher, loaders, preload or images: its --version, and per
# target the build's powerpc probe (tests/guest/launcher-probe-TARGET) run
# through it sees a vDSO, with the installed image, loader and preload (or
# host vDSO, a static QEMU's); an
# installed sysroot's compiler wrappers ($bindir/TRIPLET-ppctime-gcc, -g++)
# build the probe and tests/glibc/cxx-probe.cc against it, and they run on
# it; the installed ppctime-bench counts each target's instructions with
# the installed harnesses.  'make installcheck' runs it on the installed
# tree, tests/install-test.sh on one it moved.  Protocol: tests/README.md.
. "${srcdir:=.}/tests/test-lib.sh"
: "${bindir:?bindir: the directory ppctime-run is installed in}"
label=${INSTALLED_LABEL:-installed}
run=$bindir/ppctime-run
make_work

if [ ! -x "$run" ]; then
	echo "Bail out! $label: no $run (make install)"
	exit 1
fi
check_version() {
	"$run" --version >"$work/version" 2>&1
	if [ "$(head -n 1 "$work/version")" = "ppctime-run (ppctime) $VERSION" ]; then
		pass "$label: --version"
	else
		fail "$label: --version" "said: $(head -n 1 "$work/version")"
	fi
}

# check_probe NAME PROBE [OPTIONS]: PROBE sees a vDSO, an installed image.
check_probe() {
	name=$1 probe=$2
	shift 2
	status=0
	"$run" -v "$@" "$probe" vdso >"$work/out" 2>"$work/err" </dev/null || status=$?
	image=$(sed -n 's/^ppctime-run: [a-z0-9]* vDSO \(.*\), [0-9]*-byte pages.*/\1/p' "$work/err")
	# a dynamic QEMU's loader and preload, or a static one's loader and
	# host vDSO (Debian 13's plain QEMU)
	support=$(sed -n -e 's/^ppctime-run: loader \(.*\), preload \(.*\) (.* --preload)$/\1 \2/p' \
		-e 's/^ppctime-run: loader \(.*\), host vDSO \(\/.*\) (.* static: mapped and entered here)$/\1 \2/p' \
		"$work/err")
	if [ "$status" -ne 0 ]; then
		fail "$name" "status $status: $(head -n 1 "$work/err")"
	elif ! grep -q '\<sysinfo_ehdr=0x[1-9a-f]' "$work/out" ||
	     ! grep -q '\<listed=1\>' "$work/out" || ! grep -q '\<clock_gettime=0\>' "$work/out"; then
		fail "$name" "no vDSO seen: $(head -n 1 "$work/out")"
	elif [ -z "$image" ] || [ -z "$support" ]; then
		fail "$name" "-v named no image, loader, preload or host vDSO: $(head -n 1 "$work/err")"
	else
		from_build=
		for f in $image $support; do
			case $(cd "$(dirname "$f")" && pwd -P)/ in
			"$top_builddir"/*) from_build="$from_build $f" ;;
			esac
		done
		if [ -n "$from_build" ]; then fail "$name" "it used the build tree's$from_build"
		else pass "$name ($image)"; fi
	fi
}

# check_sysroot_c TARGET CC: the installed sysroot's C compiler builds the
# probe, which then sees the vDSO.
check_sysroot_c() {
	sysroot=$(dirname "$(readlink -f "$2")")/$(eval echo "\$TRIPLET_$1")
	if "$2" -std=gnu11 -O2 -o "$work/probe-$1" "$srcdir/tests/guest/launcher-probe.c" \
		>"$work/cc.log" 2>&1; then
		check_probe "$label: sysroot-$1" "$work/probe-$1" --sysroot="$sysroot"
	else
		fail "$label: sysroot-$1" "$2 cannot build: $(head -n 3 "$work/cc.log")"
	fi
}

# check_sysroot_cxx TARGET CXX: and its C++ compiler builds cxx-probe.cc,
# which runs.
check_sysroot_cxx() {
	sysroot=$(dirname "$(readlink -f "$2")")/$(eval echo "\$TRIPLET_$1")
	if "$2" -O2 -pthread -o "$work/cxx-probe-$1" "$srcdir/tests/glibc/cxx-probe.cc" \
		>"$work/cc.log" 2>&1; then
		out=$("$run" --sysroot="$sysroot" "$work/cxx-probe-$1" 10 2>&1) || :
		if [ "$out" = "cxx: ok" ]; then pass "$label: sysroot-$1 C++ ($2)"
		else fail "$label: sysroot-$1 C++" "the probe said: $out"; fi
	else
		fail "$label: sysroot-$1 C++" "$2 cannot build: $(head -n 3 "$work/cc.log")"
	fi
}

# The installed benchmark pipeline measures with the installed harnesses
# and launcher (once, for the first target's case): an exact count of
# clock_gettime's instructions per target.
bench=$bindir/ppctime-bench
check_bench() { # TARGET
	if [ ! -x "$bench" ]; then
		fail "$label: ppctime-bench $1" "no $bench"
		return
	fi
	[ -d "$work/bench" ] ||
		"$bench" --out "$work/bench" measure insns >"$work/bench.log" 2>&1 ||
		echo "# measure insns failed: $(tail -n 3 "$work/bench.log")"
	insns=$(grep -h '"entry": "__kernel_clock_gettime", "clock": "MONOTONIC", "metric": "insns_vdso"' \
		"$work/bench/records/insns-$1.jsonl" 2>/dev/null | sed -n 's/.*"value": \([0-9]*\),.*/\1/p')
	case $insns in
	[1-9]*) pass "$label: ppctime-bench $1: __kernel_clock_gettime MONOTONIC, $insns instructions" ;;
	*) fail "$label: ppctime-bench $1" "no count of __kernel_clock_gettime MONOTONIC in $work/bench/records" ;;
	esac
}

case_add check_version
for t in $TARGETS; do
	probe=$top_builddir/tests/guest/launcher-probe-$t
	cc=$bindir/$(eval echo "\$TRIPLET_$t")-ppctime-gcc
	if [ ! -x "$probe" ]; then
		case_add skip "$label: vdso-$t" "$probe not built (make check-programs)"
	else
		case_add check_probe "$label: vdso-$t" "$probe"
		if [ ! -x "$cc" ]; then
			case_add skip "$label: sysroot-$t" \
				"no $cc: no sysroot installed (make sysroot, then make install)"
		else
			case_add check_sysroot_c "$t" "$cc"
			case_add check_sysroot_cxx "$t" "${cc%gcc}g++"
		fi
	fi
	case_add check_bench "$t"
done
run_cases
exit $failed
