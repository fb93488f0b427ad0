#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# One case: runs elf/fuzz_vdso_image on a corpus seeded with the built vDSO images,
# the vdso-check fixtures and a large image of 65536 version definitions.
# With FUZZ_RUNS set ("make fuzz") that many executions, the fuzzer
# required; without (a "make check" test) a few seconds, or SKIP when
# elf/fuzz-smoke.status says it could not be built.  A crash, a
# sanitizer report or an input taking over 10 s (a loop, or a quadratic walk
# of the large image) fails it, keeping the input as elf/fuzz-crash-*.
. "${srcdir:=.}/tests/test-lib.sh"
plan 1
name=fuzz-vdso-image
fuzzer=$top_builddir/elf/fuzz_vdso_image
corpus=$top_builddir/elf/fuzz-corpus
log=$top_builddir/elf/fuzz.log
smoke_seconds=5

if [ -n "${FUZZ_RUNS:-}" ]; then
	limit=-runs=$FUZZ_RUNS
else
	ready=$(cat "$top_builddir/elf/fuzz-smoke.status" 2>/dev/null) ||
		ready="elf/fuzz-smoke.status is missing: run make check"
	if [ "$ready" != ready ]; then
		skip "$name" "$ready"
		exit 0
	fi
	limit=-max_total_time=$smoke_seconds
fi

# libFuzzer adds what it finds to the corpus: start from the seeds alone.
rm -rf "$corpus"
mkdir -p "$corpus"
for f in "$top_builddir"/vdso-kernel/*.so "$top_builddir"/vdso-kernel/*.so.dbg \
	 "$top_builddir"/tests/bad-vdso/*/*.so "$top_builddir"/tests/bad-vdso/*/*.so.dbg; do
	[ -f "$f" ] && cp "$f" "$corpus/$(echo "${f#"$top_builddir"/}" | tr / _)"
done
if ! ls "$corpus" | grep -q 'vdso-kernel_'; then
	fail "$name" "no vDSO image under $top_builddir/vdso-kernel to seed the corpus with: run make"
	exit 1
fi
image=$(ls "$corpus"/vdso-kernel_*.so | head -n 1)
if ! python3 "$srcdir/tests/vdso-image-patch.py" many-verdefs=65536 "$image" \
	"$corpus/many-verdefs.so"; then
	fail "$name" "cannot make the large seed from $image"
	exit 1
fi
# libFuzzer would cut inputs at 1 MiB: the large seed must stay whole.
max_len=0
for f in "$corpus"/*; do
	size=$(wc -c <"$f")
	[ "$size" -le "$max_len" ] || max_len=$size
done

if "$fuzzer" "$limit" -max_len="$max_len" -timeout=10 -print_final_stats=1 \
	-artifact_prefix="$top_builddir/elf/fuzz-crash-" "$corpus" >"$log" 2>&1; then
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	pass "$name: $runs executions ($limit), no crash or sanitizer report"
else
	fail "$name" "crash, hang or sanitizer report (log: $log; input: elf/fuzz-crash-*)
$(tail -n 40 "$log")"
	exit 1
fi
