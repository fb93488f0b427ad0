#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs launcher/fuzz_vdso_image on a corpus seeded with the built vDSO images
# and the vdso-check fixtures.  With FUZZ_RUNS set ("make fuzz") that many
# executions, the fuzzer required; without (a "make check" test) a few
# seconds, or SKIP when launcher/fuzz-smoke.status says it could not be built.
# A crash, a sanitizer report or an input taking over 10 s (a loop) fails
# it, keeping the input as launcher/fuzz-crash-*.
set -u
: "${top_builddir:=.}"
name=fuzz-vdso-image
fuzzer=$top_builddir/launcher/fuzz_vdso_image
corpus=$top_builddir/launcher/fuzz-corpus
log=$top_builddir/launcher/fuzz.log
smoke_seconds=5

if [ -n "${FUZZ_RUNS:-}" ]; then
	limit=-runs=$FUZZ_RUNS
else
	ready=$(cat "$top_builddir/launcher/fuzz-smoke.status" 2>/dev/null) ||
		ready="launcher/fuzz-smoke.status is missing: run make check"
	if [ "$ready" != ready ]; then
		echo "SKIP: $name: $ready"
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
	echo "FAIL: $name: no vDSO image under $top_builddir/vdso-kernel to seed the corpus with: run make"
	exit 1
fi

if "$fuzzer" "$limit" -timeout=10 -print_final_stats=1 \
	-artifact_prefix="$top_builddir/launcher/fuzz-crash-" "$corpus" >"$log" 2>&1; then
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	echo "PASS: $name: $runs executions ($limit), no crash or sanitizer report"
else
	tail -n 40 "$log"
	echo "FAIL: $name: crash, hang or sanitizer report (log: $log; input: launcher/fuzz-crash-*)"
	exit 1
fi
