#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# For each configured target: vdso-check on the real vDSO images, of each
# data layout (subtests: their own plans, and a result per rule), then on
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
# check_fixture TARGET OBJDUMP NAME RULES WHAT: vdso-check fails the
# fixture NAME for exactly RULES.
check_fixture() {
	fixture=$top_builddir/tests/bad-vdso/$1/$3.so
	out=$("$check" --target="$1" --objdump="$2" --label="$1/bad-vdso/$3" \
		"$fixture" "$fixture.dbg" 2>&1)
	rc=$?
	rules_failed=$(printf '%s\n' "$out" |
		sed -n 's/^not ok [0-9]* [^ ]* rule \([0-9]\): .*/\1/p' | paste -sd, -)
	want_rc=1
	[ "$4" != - ] || want_rc=0
	if [ "${rules_failed:--}" = "$4" ] && [ $rc -eq $want_rc ]; then
		pass "$1 bad-vdso/$3: rules failed: $4 ($5)"
	else
		fail "$1 bad-vdso/$3" "rules failed: ${rules_failed:--} (exit status $rc), expected $4 ($5)"
		printf '%s\n' "$out" | sed 's/^/# | /'
	fi
}

for t in $TARGETS; do
	eval objdump=\${CROSS_$t}objdump name=\$IMAGE_$t
	for image in $name $name-datastore; do
		image=$top_builddir/vdso-kernel/$image.so
		case_add subtest "vdso-check $t/${image##*/}" \
			"$check" --target="$t" --objdump="$objdump" "$image" "$image.dbg"
	done
	while read -r name rules what; do
		case_add check_fixture "$t" "$objdump" "$name" "$rules" "$what"
	done <<EOF
$(fixtures "$t")
EOF
done
run_cases
exit $failed
