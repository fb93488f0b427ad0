#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A quick run of ppctime's glibc benchmarks (glibc-bench --duration=0: one
# batch per variant) on each target: glibc's machinery builds and runs every
# benchmark with the vDSO and without, each bench.out passes glibc's schema
# (glibc-bench fails otherwise) and holds every variant of every inputs
# file, and compare_bench.py compares each variant.  Not how fast.
set -eu
: "${top_builddir:=.}" "${srcdir:=.}"
srcdir=$(cd "$srcdir" && pwd -P)
cd "$top_builddir"
. tests/config.sh
out=benchtests/glibc-smoke
rm -rf "$out"
mkdir -p "$out"

# FUNC(VARIANT) for each variant the inputs files name, as compare_bench.py
# prints them; a file without "## name:" has the one variant "".
variants=$(for f in "$srcdir"/benchtests/glibc/*-inputs; do
	func=${f##*/}
	func=${func%-inputs}
	awk -v fn="$func" '
		/^## name:/ { sub(/^## name:[ \t]*/, ""); print fn "(" $0 ")"; named = 1 }
		END { if (!named) print fn "()" }' "$f"
done)

failed=0
for t in $TARGETS; do
	eval "triplet=\$TRIPLET_$t"
	if [ ! -f "sysroot/$triplet.stamp" ]; then
		echo "SKIP: glibc benchtests $t: no sysroot/$triplet (make sysroot)"
		continue
	fi
	if ! srcdir=$srcdir bash "$srcdir/benchtests/glibc-bench" --duration=0 \
		--output="$out" "$t" >"$out/glibc-bench-$t.log" 2>&1; then
		echo "FAIL: glibc benchtests $t: glibc-bench failed:"
		sed 's/^/    /' "$out/glibc-bench-$t.log" | tail -n 12
		failed=1
		continue
	fi
	for f in "$out/bench-$t.out" "$out/bench-$t-no-vdso.out"; do
		missing=$(for v in $variants; do
			func=${v%%(*} var=${v#*(}
			var=${var%)}
			grep -qF "\"$var\": {" "$f" && grep -qF "\"$func\": {" "$f" || echo "$v"
		done)
		if [ -z "$missing" ]; then
			echo "PASS: glibc benchtests $t: ${f##*/} valid, every variant present"
		else
			echo "FAIL: glibc benchtests $t: ${f##*/} lacks:" $missing
			failed=1
		fi
	done
	compared=$(for v in $variants; do
		grep -qF " $v[mean]: " "$out/compare_bench-$t.txt" && echo "$v"
	done | wc -l)
	if [ "$compared" -eq "$(echo "$variants" | wc -l)" ]; then
		echo "PASS: glibc benchtests $t: compare_bench.py compared all $compared variants"
	else
		echo "FAIL: glibc benchtests $t: compare_bench.py compared $compared of $(echo "$variants" | wc -l) variants"
		failed=1
	fi
done
exit $failed
