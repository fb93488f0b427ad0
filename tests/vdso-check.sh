#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# For each configured target: vdso-check on the real vDSO image (its own
# PASS/FAIL line per rule), then on every fixture of tests/bad-vdso/fixtures,
# which it must reject for exactly the rules listed there ("-": for none).
set -u
: "${srcdir:=.}" "${top_builddir:=.}"
. "$top_builddir/tests/config.sh"
check=$top_builddir/tests/vdso-check
status=0

for t in $TARGETS; do
	eval objdump=\${CROSS_$t}objdump image=\$IMAGE_$t.so
	image=$top_builddir/vdso-kernel/$image
	"$check" --target="$t" --objdump="$objdump" "$image" "$image.dbg" || status=1

	while read -r name rules targets what; do
		case $name in '#'*|'') continue ;; esac
		case ",$targets," in ,all,|*",$t,"*) ;; *) continue ;; esac
		fixture=$top_builddir/tests/bad-vdso/$t/$name.so
		out=$("$check" --target="$t" --objdump="$objdump" \
			--label="$t/bad-vdso/$name" "$fixture" "$fixture.dbg" 2>&1)
		rc=$?
		failed=$(printf '%s\n' "$out" |
			sed -n 's/^FAIL: [^ ]* rule \([0-9]\): .*/\1/p' | paste -sd, -)
		want_rc=1
		[ "$rules" != - ] || want_rc=0
		if [ "${failed:--}" = "$rules" ] && [ $rc -eq $want_rc ]; then
			echo "PASS: $t bad-vdso/$name: rules failed: $rules ($what)"
		else
			echo "FAIL: $t bad-vdso/$name: rules failed: ${failed:--} (exit status $rc), expected $rules ($what)"
			printf '%s\n' "$out" | sed 's/^/    | /'
			status=1
		fi
	done <"$srcdir/tests/bad-vdso/fixtures"
done
exit $status
