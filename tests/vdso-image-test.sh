#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# ppctime-run's image checks (elf/vdso_image) through
# tests/vdso-image-probe, for each configured target: the built images of
# both data layouts, the benchmarks' variants and Linux's own of 6.1 and
# of the newest version with a series (when built) are accepted with the
# layout and page size they were built for;
# copies of the built image corrupted one way each, which today's checks
# let through to crash or mislead the guest, are refused with the reason;
# the layout notes are read as ppctime-run reads them (a layout it does not
# know, a note that is not the code's, Linux's own images by release);
# images with tens of thousands of version definitions are checked in
# linear time.
# The corruptions are tests/vdso-image-patch.py's.  Protocol:
# tests/README.md.
. "${srcdir:=.}/tests/test-lib.sh"
set -e

patch_image() { "$PYTHON" "$srcdir/tests/vdso-image-patch.py" "$@"; }

probe=$top_builddir/tests/vdso-image-probe
make_work
# A generous bound on checking an image in linear time: it takes
# milliseconds; the quadratic walk took seconds for 8000 version
# definitions, a minute for 30000.
time_limit=10

# What the probe says of image $2 for target $1, with its exit status
# appended (as ": exit N").
verdict() {
	rc=0
	out=$(timeout "$time_limit" "$probe" "$1" "$2" 2>&1) || rc=$?
	[ $rc -ne 124 ] || out="no verdict in $time_limit s"
	echo "$out: exit $rc"
}

# expect_accepted NAME TARGET IMAGE PAGE_SIZE [LAYOUT]: of LAYOUT (6.1).
expect_accepted() {
	out=$(verdict "$2" "$3")
	if [ "$out" = "accepted: ${5:-6.1} layout, $4-byte pages: exit 0" ]; then
		pass "$1: accepted, ${5:-6.1} layout, $4-byte pages"
	else
		fail "$1" "expected accepted with the ${5:-6.1} layout and $4-byte pages, got: $out"
	fi
}

# expect_refused NAME TARGET IMAGE STEP MESSAGE-PART
expect_refused() {
	out=$(verdict "$2" "$3")
	case $out in
	"refused by $4: "*"$5"*": exit 1") pass "$1: ${out%: exit 1}" ;;
	*) fail "$1" "expected refused by $4 (...$5...), got: $out" ;;
	esac
}

# The page size the .dbg twin $2's data symbol $4 says, by readelf: the
# symbol lies the layout's pages, $3 of them, below the image.
symbol_page_size() {
	value=$("$1" -sW "$2" | awk -v sym="$4" '$8 == sym { print $2 }')
	[ -n "$value" ] || return 1
	low=$(printf '%s\n' "$value" | sed 's/.*\(........\)$/\1/')
	echo $(((4294967296 - 0x$low) / $3))
}

now_ms() {
	echo $(($(date +%s%N) / 1000000))
}

# patched OP: $image changed by OP into $bad, or a FAIL line for case $t OP.
patched() {
	bad=$work/$t-${1%=*}.so
	err=$(patch_image "$1" "$image" "$bad" 2>&1) && return
	fail "$t ${1%=*}" "cannot make the image: $err"
	return 1
}

# The corruptions refused: OPERATION|STEP|MESSAGE-PART.
refusals='dynamic-vaddr|check|PT_DYNAMIC p_vaddr
tls-segment|check|PT_TLS
phdrs-outside-load|check|program headers
rela-without-relaent|check|DT_RELA without DT_RELAENT
rela-wrong-relaent|check|DT_RELAENT is 16
rel-without-relent|check|DT_REL without DT_RELENT
relr-without-relrent|check|DT_RELR without DT_RELRENT
pltrel-rel|check|DT_PLTREL is 17
rela-entries|check|nothing relocates a vDSO
textrel|check|DT_TEXTREL
verneed|check|DT_VERNEED
hash-counts-differ|check|DT_HASH covers
verdef-index-twice|check|repeats index 2
base-verdef-index|check|base version definition
symbol-name|check|name is not in the string table
symbol-value|check|outside the PT_LOAD segment
function-inside-function|check|overlap
function-alias|check|overlap
function-misaligned|check|not aligned
function-size-zero|check|is 0 bytes long
function-size-partial|check|is 6 bytes long
function-outside-code|check|outside the executable sections
function-past-code|check|outside the executable sections
export-object|check|not STT_FUNC
export-hidden|check|hidden
version-symbol-value|check|no version node
one-data-page-lower|page-size|-byte pages), at
no-data-page|page-size|no code finds a data page
linux-image=0x060c00|layout|Linux 6.12 to 6.16 lay'
# The datastore image's notes: OPERATION|ACCEPTED LAYOUT or REFUSING STEP|MESSAGE-PART.
datastore_notes='linux-image=0x070304|datastore|
layout-note=99|layout|asks for data layout 99
layout-note=1|page-size|not in a page the 6.1 layout
linux-image=0x061000|layout|Linux 6.12 to 6.16 lay'
# The version definitions of an image checked in linear time.
verdef_counts="30000 262144"
# seeds NAME: the benchmarks' variants of image NAME.so.
seeds() { ls "$top_builddir"/benchtests/seeds/*/"$1.so" 2>/dev/null || :; }

# The stock versions make linux-vdso builds Linux's own images of: 6.1
# and the newest with a series (STOCK_VERSIONS, patches/linux-sources.mk).
newest=$(for f in "$srcdir"/patches/linux-*/series.json; do
	f=${f%/series.json}
	echo "${f##*/linux-}"
done | sort -V | tail -n 1)

# The images built, each IMAGE LAYOUT PAGES: ppctime's of each layout and
# Linux's own of each stock version, 6.1's layout or, from 6.17 on, the
# datastore's.
images() {
	echo "vdso-kernel/$1 6.1 2"
	echo "vdso-kernel/$1-datastore datastore 4"
	echo "linux-vdso/6.1/$1 6.1 2"
	[ "$newest" = 6.1 ] || echo "linux-vdso/$newest/$1 datastore 4"
}

# Why Linux's own image $1 (linux-vdso/VERSION/IMAGE) is not there.
not_built() {
	v=${1#linux-vdso/}
	v=${v%%/*}
	if [ -f "$top_builddir/linux-source/$v/why" ]; then
		echo "Linux $v's source could not be had: $(tail -n 1 "$top_builddir/linux-source/$v/why")"
	else
		echo "not built (make linux-fetch linux-vdso builds Linux $v's)"
	fi
}

# check_symbol_page TARGET F PAGES: Linux's name for the first data page
# in F.so.dbg says configure's page size too.
check_symbol_page() {
	eval page=\$PAGE_SIZE_$1 readelf=\${CROSS_$1}readelf
	case $3 in
	2) sym=_vdso_datapage ;;
	*) sym=vdso_u_time_data ;;
	esac
	sym_page=$(symbol_page_size "$readelf" "$top_builddir/$2.so.dbg" "$3" "$sym") ||
		sym_page="no $sym"
	if [ "$sym_page" = "$page" ]; then
		pass "$1 $2.so.dbg: $sym says $page-byte pages too"
	else
		fail "$1 $2.so.dbg" "$sym says $sym_page, configure $page"
	fi
}

# patched_accepted TARGET IMAGE OP NAME PAGE_SIZE [LAYOUT],
# patched_refused TARGET IMAGE OP NAME STEP MESSAGE-PART: IMAGE changed by
# OP, then expect_accepted or expect_refused.
patched_accepted() {
	t=$1 image=$2
	patched "$3" || return 0
	shift 3
	expect_accepted "$1" "$t" "$bad" "$2" ${3+"$3"}
}
patched_refused() {
	t=$1 image=$2
	patched "$3" || return 0
	expect_refused "$4" "$t" "$bad" "$5" "$6"
}

# As dh_strip strips a shared library, with the target's strip.
check_dh_strip() { # TARGET IMAGE
	eval readelf=\${CROSS_$1}readelf
	bad=$work/$1-dh_strip.so
	if ! err=$("${readelf%readelf}strip" --remove-section=.comment --remove-section=.note \
		--strip-unneeded -o "$bad" "$2" 2>&1); then
		fail "$1 dh_strip" "cannot make the image: $err"
	else
		expect_refused "$1 dh_strip" "$1" "$bad" check "no Linux version note"
	fi
}

# N version definitions, the symbols' own last: checked in linear time.
# Past 0x7ffd their indexes repeat, which the check refuses, after the
# lookup ppctime-run does.
check_verdefs() { # TARGET IMAGE N
	t=$1 image=$2 n=$3
	eval page=\$PAGE_SIZE_$t
	patched many-verdefs="$n" || return 0
	start=$(now_ms)
	out=$(verdict "$t" "$bad")
	ms=$(($(now_ms) - start))
	rm -f "$bad"
	case $n:$out in
	30000:"accepted: 6.1 layout, $page-byte pages: exit 0" | \
	262144:"refused by check: "*"repeats index"*": exit 1")
		pass "$t $n version definitions: $ms ms (bound $time_limit s): ${out%: exit ?}" ;;
	*) fail "$t $n version definitions" "in $ms ms: $out" ;;
	esac
}

for t in $TARGETS; do
	eval page=\$PAGE_SIZE_$t name=\$IMAGE_$t
	image=$top_builddir/vdso-kernel/$name.so
	datastore=$top_builddir/vdso-kernel/$name-datastore.so

	while read -r f layout pages; do
		if [ ! -f "$top_builddir/$f.so" ]; then
			case_add skip "$t $f.so" "$(not_built "$f")"
			continue
		fi
		case_add expect_accepted "$t $f.so" "$t" "$top_builddir/$f.so" "$page" "$layout"
		case_add expect_accepted "$t $f.so.dbg" "$t" "$top_builddir/$f.so.dbg" "$page" \
			"$layout"
		case_add check_symbol_page "$t" "$f" "$pages"
	done <<-EOF
	$(images "$name")
	EOF
	for f in $(seeds "$name"); do
		case_add expect_accepted "$t ${f#"$top_builddir"/}" "$t" "$f" "$page"
	done

	# The page size comes from the code: moved two pages down, the data
	# page says pages twice as large; moved in one entry only, nothing.
	case_add patched_accepted "$t" "$image" data-page-lower=$((2 * page)) \
		"$t data-page-lower" $((2 * page))

	while IFS='|' read -r op step message; do
		case $op in *-lower) op=$op=$((2 * page)) ;; esac
		case_add patched_refused "$t" "$image" "$op" "$t ${op%=*}" "$step" "$message"
	done <<-EOF
	$refusals
	EOF

	# Linux's own 6.1 image has no layout note: its release says 6.1's.
	case_add patched_accepted "$t" "$image" linux-image=0x060100 \
		"$t linux-image=0x060100" "$page" 6.1

	# Which layout the datastore image's notes say: Linux 7.3's own
	# image (no layout note) is the datastore's too.
	while IFS='|' read -r op step message; do
		case $step in
		datastore)
			case_add patched_accepted "$t" "$datastore" "$op" "$t datastore $op" \
				"$page" "$step" ;;
		*)
			case_add patched_refused "$t" "$datastore" "$op" "$t datastore $op" \
				"$step" "$message" ;;
		esac
	done <<-EOF
	$datastore_notes
	EOF

	case_add check_dh_strip "$t" "$image"
	for n in $verdef_counts; do
		case_add check_verdefs "$t" "$image" "$n"
	done
done
run_cases
exit $failed
