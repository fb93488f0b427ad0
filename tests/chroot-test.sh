#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# ppctime-run --binfmt-register --static-qemu=DIR: entries (flags OPF) whose
# handler serves in a foreign chroot, where no host file is seen.  In a
# user and mount namespace of the test's own with a binfmt_misc of its own
# (Linux 6.7 or later), so nothing on the machine changes; per target, a
# tree of the target's own (its dynamic linker and C library from
# /usr/TRIPLET, the probes in /bin): a static program and a dynamic one (no
# QEMU_LD_PREFIX: the sysroot is the tree's /) get the vDSO; a powerpc
# script's powerpc interpreter runs a program that gets it and makes no
# time system call; /proc/self/exe and AT_EXECFN are the program's; the
# $ORIGIN program finds its library; 20 programs at once in the tree read
# the one data page of the daemon a launch outside started (its socket's
# file is not in the tree: they find it by its abstract name); a program
# gets the vDSO with no /proc in the tree; ppctime-run PROGRAM still works
# outside; and the entries are removed.  They are registered as at boot:
# the binfmt.d file's first, then ppctime-binfmt.service's command.  A
# dynamic QEMU given as the
# static one, and the handler run by hand, are refused.  The static QEMUs
# are Debian's qemu-user-static (tests/qemu-user-static.sh).
# Variables named by target are read with eval:
# shellcheck disable=SC2154
. "${srcdir:=.}/tests/test-lib.sh"
. "$srcdir/tests/binfmt-lib.sh"
misc=/proc/sys/fs/binfmt_misc

skip_all() {
	for t in $TARGETS; do case_add skip "chroot-$t" "$1"; done
	run_cases
	exit 0
}

if [ "${PPCTIME_CHROOT_TEST:-}" != inside ]; then
	unshare -Urm true 2>/dev/null ||
		skip_all "no user and mount namespaces here (unshare -Urm failed)"
	err=$(unshare -Urm mount -t binfmt_misc binfmt_misc "$misc" 2>&1) ||
		skip_all "no binfmt_misc of a user namespace's own here (Linux 6.7 or later): $err"
	# The second QEMU where it is static (QEMU 10's qemu-user: make
	# check-all's second QEMU pass on Debian 12).
	if [ -d "${PPCTIME_QEMU-}" ] && is_static "$PPCTIME_QEMU/qemu-ppc"; then
		static=$PPCTIME_QEMU
	else
		static=$(static_qemus 2>&1) || skip_all "$static"
	fi
	exec env PPCTIME_CHROOT_TEST=inside PPCTIME_CHROOT_QEMU="$static" \
		top_builddir="$top_builddir" srcdir="$srcdir" unshare -Urm sh "$0"
fi

run=$top_builddir/run/ppctime-run
probes=$top_builddir/tests/guest
make_work
at_exit 'umount -l "$work"/root-*/proc 2>/dev/null'
PPCTIME_TIMEKEEPERD=$work/tkd
export PPCTIME_TIMEKEEPERD
# No prefix but the tree's own /.
unset QEMU_LD_PREFIX

if ! mount -t binfmt_misc binfmt_misc "$misc" 2>"$work/err"; then
	skip_all "no binfmt_misc of a user namespace's own here: $(cat "$work/err")"
fi
# A tree as the target's Debian has it, of what the probes need: the
# dynamic linker where PT_INTERP says, libc.so.6 in the multiarch directory
# it searches, the probes in /bin (the $ORIGIN one as its directory).
make_tree() { # ROOT TARGET
	eval "triplet=\$TRIPLET_$2 cross=\$CROSS_$2"
	interp=$("${cross}readelf" -l "$probes/launcher-probe-$2" |
		sed -n 's/.*program interpreter: \(.*\)]$/\1/p')
	mkdir -p "$1/bin" "$1/proc" "$1/lib/$triplet" "$1${interp%/*}" &&
	cp "/usr/$triplet/lib/${interp##*/}" "$1$interp" &&
	cp "/usr/$triplet/lib/libc.so.6" "$1/lib/$triplet/" &&
	for lib in libdl.so.2 libatomic.so.1; do
		[ ! -f "/usr/$triplet/lib/$lib" ] || cp "/usr/$triplet/lib/$lib" "$1/lib/$triplet/" ||
			return 1
	done &&
	cp "$probes/launcher-probe-$2" "$probes/launcher-probe-static-$2" \
		"$probes/mini-sh-$2" "$probes/vdso-clock-test-$2" "$1/bin/" &&
	cp -R "$probes/origin-$2" "$1/bin/" &&
	mount --rbind /proc "$1/proc"
}

# The bundled QEMU's time calls read the page through the host vDSO, as
# ppctime-run's do: each served clock, the coarse ones over 2 s of their
# updates, agrees with the system call in sequence (vdso-clock-test).
check_agree() { # NAME ROOT PROGRAM
	chroot "$2" "$3" agree >"$work/out" 2>"$work/err"
	status=$?
	# Its TAP: results, none "not ok".
	if [ "$status" -eq 0 ] && ! grep -q '^not ok' "$work/out" && grep -q '^ok ' "$work/out"
	then pass "$1 ($(grep -c '^ok ' "$work/out") results; $(sed -n 's/^ok [0-9]* .*\(clock 5: .*\)/\1/p' "$work/out"))"
	else fail "$1" "status $status"; grep '^not ok' "$work/out" | sed 's/^/# /'; show_err; fi
}

check_identity() { # NAME ROOT PROGRAM
	chroot "$2" "$3" identity x >"$work/out" 2>"$work/err"
	status=$?
	if [ "$status" -eq 0 ] && [ "$(value exe)" = "$3" ] &&
	   [ "$(value execfn)" = "$3" ] && [ "$(value 'argv\[2\]')" = x ]
	then pass "$1"
	else fail "$1" "status $status, exe '$(value exe)', execfn '$(value execfn)', argv[2] '$(value 'argv\[2\]')'"; show_err; fi
}

check_origin() { # NAME ROOT PROGRAM
	chroot "$2" "$3" >"$work/out" 2>"$work/err"
	status=$?
	ehdr=$(value sysinfo_ehdr)
	if [ "$status" -eq 0 ] && [ "$(value lib)" = found ] && [ "${ehdr:-0}" != 0 ] &&
	   [ "$(value exe)" = "$3" ]
	then pass "$1"
	else fail "$1" "status $status, lib '$(value lib)', exe '$(value exe)', AT_SYSINFO_EHDR ${ehdr:-none}"; show_err; fi
}

# The daemon a launch outside the tree starts, whose page 20 programs in
# the tree read (its socket's file is not there: they find its name).
check_shared() { # NAME ROOT PROGRAM PROGRAM_OUTSIDE
	rm -f "$work"/err*
	"$run" "$4" vdso >"$work/out" 2>"$work/err"
	outside=$(data_pages)
	check_many "$1" "${outside:-none}" chroot "$2" "$3"
}

# Bad input: a dynamic program (ppctime-run itself) where a static QEMU
# must be; the handler as built, run by hand.  A message and 125, nothing
# registered.
check_refuse_dynamic() {
	mkdir "$work/dynamic"
	for t in $TARGETS; do
		eval "qemu=\$QEMU_$t"
		ln -s "$(cd "$top_builddir/run" && pwd -P)/ppctime-run" "$work/dynamic/${qemu##*/}-static"
	done
	"$run" --binfmt-register --static-qemu="$work/dynamic" >"$work/out" 2>"$work/err"
	status=$?
	if [ "$status" -eq 125 ] && grep -q 'not a static PIE' "$work/err" &&
	   ! ls "$misc"/ppctime-* >/dev/null 2>&1
	then pass "chroot-refuse-dynamic-qemu"
	else fail chroot-refuse-dynamic-qemu "status $status, entries: $(ls "$misc")"; show_err; fi
}
check_by_hand() {
	"$top_builddir/run/ppctime-binfmt-static" "$probes/launcher-probe-static-${TARGETS%% *}" \
		>"$work/out" 2>"$work/err"
	status=$?
	if [ "$status" -eq 125 ] && grep -q 'binfmt-register makes' "$work/err"
	then pass "chroot-handler-by-hand: refused"
	else fail chroot-handler-by-hand "status $status"; show_err; fi
}

# As at boot: systemd-binfmt registers the binfmt.d file (the dynamic
# handler, flags OP), then ppctime-binfmt.service runs its command, whose
# entries must take their place and serve in chroots.
check_binfmt_d() {
	grep -v '^#' "$top_builddir/run/zz-ppctime.conf" | while read -r entry; do
		printf '%s' "$entry" >"$misc/register"
	done
	# (The kernel lists the flags in its own order.)
	op=$(grep -lx 'flags: \(OP\|PO\)' "$misc"/ppctime-* 2>/dev/null | wc -l)
	if [ "$op" -eq "$(echo $TARGETS | wc -w)" ]; then pass "chroot-binfmt.d ($op entries, flags OP)"
	else fail chroot-binfmt.d "$op entries of the binfmt.d file registered with flags OP"; fi
}
check_register() {
	boot=$(sed -n 's/^ExecStart=[^ ]* //p' "$top_builddir/run/ppctime-binfmt.service")
	# shellcheck disable=SC2086
	if "$run" $boot --static-qemu="$PPCTIME_CHROOT_QEMU" >"$work/out" 2>"$work/err"
	then pass "chroot-register (after the binfmt.d file, as at boot: $(grep -c '^ppctime-run: registered' "$work/err") entries)"
	else fail chroot-register "status $?"; show_err; fi
}

check_entry() { # TARGET
	# The kernel lists them in its own order (POF).
	flags=$(sed -n 's/^flags: //p' "$misc/ppctime-$1" 2>/dev/null)
	if [ "$(echo "$flags" | grep -o . | sort | tr -d '\n')" = FOP ]; then
		pass "chroot-entry-$1 (flags OPF)"
	else
		fail "chroot-entry-$1" "no entry ppctime-$1 with flags OPF (flags '$flags')"
	fi
}

# The tree made, then the static probe in it gets the vDSO; without a tree
# its other cases fail too.
check_tree_vdso() { # TARGET ROOT PROGRAM
	if ! make_tree "$2" "$1" 2>"$work/err"; then
		fail "chroot-tree-$1" "cannot make the tree"; show_err
		return
	fi
	check_vdso "chroot-vdso-$1" chroot "$2" "$3"
}

check_no_proc() { # NAME ROOT PROGRAM
	umount -l "$2/proc"
	check_vdso "$1" chroot "$2" "$3"
}

check_unregister() {
	"$run" --binfmt-unregister >"$work/out" 2>"$work/err"
	status=$?
	if [ "$status" -eq 0 ] && ! ls "$misc"/ppctime-* >/dev/null 2>&1; then
		pass chroot-unregister
	else
		fail chroot-unregister "status $status, entries: $(ls "$misc")"; show_err
	fi
}

# The refused dynamic QEMU, the handler by hand, the binfmt.d file,
# registering; per target its entry and 9 cases, or a SKIP; unregistering.
case_add check_refuse_dynamic
case_add check_by_hand
case_add check_binfmt_d
case_add check_register
for t in $TARGETS; do
	root=$work/root-$t static=/bin/launcher-probe-static-$t
	if [ ! -x "$probes/launcher-probe-static-$t" ] || [ ! -x "$probes/mini-sh-$t" ] ||
	   [ ! -x "$probes/vdso-clock-test-$t" ]; then
		case_add skip "chroot-$t" "the probes not built"
		continue
	fi
	case_add check_entry "$t"
	case_add check_tree_vdso "$t" "$root" "$static"
	case_add check_vdso "chroot-dynamic-$t" chroot "$root" "/bin/launcher-probe-$t"
	case_add check_script "chroot-script-$t" "$root/script" "/bin/mini-sh-$t" "$static" \
		chroot "$root" /script
	case_add check_identity "chroot-exe-$t" "$root" "$static"
	case_add check_agree "chroot-agree-$t" "$root" "/bin/vdso-clock-test-$t"
	case_add check_origin "chroot-origin-$t" "$root" "/bin/origin-$t/origin-probe"
	case_add check_shared "chroot-shared-$t" "$root" "$static" "$probes/launcher-probe-static-$t"
	case_add check_no_proc "chroot-no-proc-$t" "$root" "$static"
	case_add check_old_form "chroot-old-form-$t" "$probes/launcher-probe-static-$t"
done
case_add check_unregister
run_cases
exit "$failed"
