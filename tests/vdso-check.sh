#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# For each configured target: vdso-check on the real vDSO images, of each
# data layout (their own plans, and a PASS/FAIL line per rule), then on
# every fixture of
# tests/bad-vdso/fixtures, which it must reject for exactly the rules listed
# there ("-": for none).
. "${srcdir:=.}/tests/test-lib.sh"
check=$top_builddir/tests/vdso-check

# fixtures TARGET: "NAME RULES WHAT" of each fixture for TARGET.
fixtures() {
	while read -r name rules targets what; do
		case $name in '#'*|'') continue ;; esac
		case ",$targets," in ,all,|*",$1,"*) echo "$name $rules $what" ;; esac
	done <"$srcdir/tests/bad-vdso/fixtures"
}
results=0
for t in $TARGETS; do
	results=$((results + $(fixtures "$t" | wc -l)))
done
plan "$results"

for t in $TARGETS; do
	eval objdump=\${CROSS_$t}objdump name=\$IMAGE_$t
	for image in $name $name-datastore; do
		image=$top_builddir/vdso-kernel/$image.so
		"$check" --target="$t" --objdump="$objdump" "$image" "$image.dbg" || failed=1
	done

	while read -r name rules what; do
		fixture=$top_builddir/tests/bad-vdso/$t/$name.so
		out=$("$check" --target="$t" --objdump="$objdump" \
			--label="$t/bad-vdso/$name" "$fixture" "$fixture.dbg" 2>&1)
		rc=$?
		rules_failed=$(printf '%s\n' "$out" |
			sed -n 's/^FAIL: [^ ]* rule \([0-9]\): .*/\1/p' | paste -sd, -)
		want_rc=1
		[ "$rules" != - ] || want_rc=0
		if [ "${rules_failed:--}" = "$rules" ] && [ $rc -eq $want_rc ]; then
			pass "$t bad-vdso/$name: rules failed: $rules ($what)"
		else
			fail "$t bad-vdso/$name" "rules failed: ${rules_failed:--} (exit status $rc), expected $rules ($what)"
			printf '%s\n' "$out" | sed 's/^/# | /'
		fi
	done <<EOF
$(fixtures "$t")
EOF
done
exit $failed
