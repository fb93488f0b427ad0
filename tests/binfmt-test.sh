#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# ppctime-run as binfmt_misc's handler, in a user and mount namespace of
# the test's own with a binfmt_misc of its own (Linux 6.7 or later), so
# nothing on the machine changes: per target, a program run as any other
# gets the vDSO; a powerpc script's powerpc interpreter runs a powerpc
# program that gets it too and makes no time system call; argv[0] and
# /proc/self/exe are the program's; a program that may be run but not
# read runs; the $ORIGIN program finds its library; 20 programs at once
# share one data page; an entry registered before ours serves again once
# ours are removed; ppctime-run PROGRAM still works meanwhile; the
# handler run by hand says what it is; and the lines --binfmt-print gives
# a binfmt.d file, registered as they are, serve as ours do.
. "${srcdir:=.}/tests/test-lib.sh"
. "$srcdir/tests/binfmt-lib.sh"

if [ "${PPCTIME_BINFMT_TEST:-}" != inside ]; then
	if ! unshare -Urm true 2>/dev/null; then
		plan 1
		skip binfmt "no user and mount namespaces here (unshare -Urm failed)"
		exit 0
	fi
	exec env PPCTIME_BINFMT_TEST=inside top_builddir="$top_builddir" srcdir="$srcdir" \
		unshare -Urm sh "$0"
fi

run=$top_builddir/run/ppctime-run
probes=$top_builddir/tests/guest
misc=/proc/sys/fs/binfmt_misc
make_work
# A daemon of the test's own, started in the namespace.
PPCTIME_TIMEKEEPERD=$work/tkd
export PPCTIME_TIMEKEEPERD

if ! mount -t binfmt_misc binfmt_misc "$misc" 2>"$work/err"; then
	plan 1
	skip binfmt "no binfmt_misc of a user namespace's own here (Linux 6.7 or later): $(cat "$work/err")"
	exit 0
fi


# A handler registered before ours, as qemu-user-binfmt's would be: it
# takes the target's programs by their ELF machine.
printf '#!/bin/sh\necho "fake handler $*"\n' >"$work/fake-handler"
chmod +x "$work/fake-handler"
for t in $TARGETS; do
	eval class=\$ELF_CLASS_$t order=\$BYTE_ORDER_$t
	machine='\x14'
	[ "$class" = 64 ] && machine='\x15'
	if [ "$order" = little ]; then bytes="$machine\\x00"; else bytes="\\x00$machine"; fi
	printf ':fake-%s:M:18:%s::%s:' "$t" "$bytes" "$work/fake-handler" >"$misc/register"
done

registered=0
"$run" --binfmt-register >"$work/out" 2>"$work/err" || registered=$?

check_register() {
	if [ "$registered" -eq 0 ]; then
		pass "register ($(grep -c '^ppctime-run: registered' "$work/err") entries)"
	else
		fail register "status $registered"; show_err
	fi
}

check_identity() { # NAME PROBE
	bash -c 'exec -a myname "$0" identity x' "$2" >"$work/out" 2>"$work/err"
	status=$?
	if [ "$status" -eq 0 ] && [ "$(value 'argv\[0\]')" = myname ] &&
	   [ "$(value 'argv\[2\]')" = x ] && [ "$(value exe)" = "$2" ]
	then pass "$1"
	else fail "$1" "status $status, argv[0] '$(value 'argv\[0\]')', exe '$(value exe)'"; show_err; fi
}

# Run, not read: only the kernel can open it (O), not the handler, which
# has no capability to pass over the file's mode either.
check_execute_only() { # NAME PROBE
	cp "$2" "$work/execute-only"
	chmod 111 "$work/execute-only"
	setpriv --bounding-set=-all --inh-caps=-all "$work/execute-only" vdso \
		>"$work/out" 2>"$work/err"
	status=$?
	ehdr=$(value sysinfo_ehdr)
	if [ "$status" -eq 0 ] && [ "${ehdr:-0}" != 0 ]; then pass "$1"
	else fail "$1" "status $status, AT_SYSINFO_EHDR ${ehdr:-none}"; show_err; fi
}

check_origin() { # NAME TRIPLET PROBE
	QEMU_LD_PREFIX=/usr/$2 "$3" >"$work/out" 2>"$work/err"
	status=$?
	ehdr=$(value sysinfo_ehdr)
	if [ "$status" -eq 0 ] && [ "$(value lib)" = found ] && [ "${ehdr:-0}" != 0 ] &&
	   [ "$(value exe)" = "$3" ]
	then pass "$1"
	else fail "$1" "status $status, lib '$(value lib)', exe '$(value exe)'"; show_err; fi
}

# By hand, not by the kernel: no AT_EXECFD, a message and 125.
check_by_hand() {
	"$top_builddir/run/ppctime-binfmt" "$probes/launcher-probe-static-${TARGETS%% *}" x y \
		>"$work/out" 2>"$work/err"
	status=$?
	if [ "$status" -eq 125 ] && grep -q 'as binfmt_misc runs it' "$work/err"; then
		pass "handler run by hand: refused"
	else
		fail "handler run by hand" "status $status"; show_err
	fi
}

check_unregister() {
	if "$run" --binfmt-unregister >"$work/out" 2>"$work/err" &&
	   ! ls "$misc"/ppctime-* >/dev/null 2>&1; then
		pass unregister
	else
		fail unregister "entries left: $(ls "$misc")"; show_err
	fi
}

check_earlier_handler() { # TARGET
	out=$("$probes/launcher-probe-static-$1" vdso 2>&1)
	if [ "${out#fake handler}" != "$out" ]; then pass "unregister-$1: the earlier handler serves again"
	else fail "unregister-$1" "not the earlier handler: $(echo "$out" | head -n 2)"; fi
}

# What a binfmt.d file holds (ppctime-run --binfmt-print), registered as
# systemd-binfmt registers it at boot, line by line, before the first
# target's case ($print_status the status of --binfmt-print): the same
# entries.
check_print() { # TARGET
	if [ -z "${print_status-}" ]; then
		print_status=0
		if "$run" --binfmt-print >"$work/binfmt.conf" 2>"$work/err"; then
			grep -v '^#' "$work/binfmt.conf" | while read -r entry; do
				printf '%s' "$entry" >"$misc/register" || echo "cannot register: $entry"
			done >"$work/err" 2>&1
		else
			print_status=$?
		fi
	fi
	if [ "$print_status" -ne 0 ]; then
		fail "binfmt-print-$1" "ppctime-run --binfmt-print: status $print_status"; show_err
		return
	fi
	"$probes/launcher-probe-static-$1" vdso >"$work/out" 2>>"$work/err"
	ehdr=$(value sysinfo_ehdr)
	if [ "${ehdr:-0}" != 0 ] && [ -e "$misc/ppctime-$1" ]; then
		pass "binfmt-print-$1: its entry, registered by hand, serves"
	else
		fail "binfmt-print-$1" "AT_SYSINFO_EHDR ${ehdr:-none}"; show_err
	fi
}

# Registering; per target 8 cases, or a SKIP without its probes or entry;
# the handler run by hand, unregistering; per target with a probe, the
# earlier handler again and --binfmt-print's entry.
case_add check_register
for t in $TARGETS; do
	static=$probes/launcher-probe-static-$t shell=$probes/mini-sh-$t
	origin=$probes/origin-$t/origin-probe
	eval triplet=\$TRIPLET_$t
	if [ ! -x "$static" ] || [ ! -x "$shell" ] || [ ! -e "$misc/ppctime-$t" ]; then
		case_add skip "binfmt-$t" "the probes not built, or no entry registered for $t"
		continue
	fi
	case_add check_vdso "binfmt-direct-$t" "$static"
	# A dynamic one with QEMU's prefix, as QEMU's handler would run it.
	case_add check_vdso "binfmt-direct-dynamic-$t" env QEMU_LD_PREFIX="/usr/$triplet" \
		"$probes/launcher-probe-$t"
	case_add check_script "binfmt-script-$t" "$work/script" "$shell" "$static" "$work/script"
	case_add check_identity "binfmt-argv0-exe-$t" "$static"
	case_add check_execute_only "binfmt-execute-only-$t" "$static"
	case_add check_origin "binfmt-origin-$t" "$triplet" "$origin"
	case_add check_many "binfmt-one-page-$t" "" "$static"
	case_add check_old_form "binfmt-old-form-$t" "$static"
done
case_add check_by_hand
case_add check_unregister
for t in $TARGETS; do
	[ ! -x "$probes/launcher-probe-static-$t" ] || case_add check_earlier_handler "$t"
done
for t in $TARGETS; do
	[ ! -x "$probes/launcher-probe-static-$t" ] || case_add check_print "$t"
done
run_cases
[ "${print_status-1}" -ne 0 ] || "$run" --binfmt-unregister 2>/dev/null
exit $failed
