#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 'make install' from this build tree into a DESTDIR, with every GNU
# directory given (and laid out unlike the defaults, so each must reach
# the installed launcher): the files land in the GNU directories and
# nothing else does; the manual page formats without warnings; the tree,
# moved elsewhere, still works (tests/installed-test.sh); install-strip
# strips the host program and preload and leaves the powerpc files as
# built; 'make uninstall' leaves no file.  Needs no glibc sysroot; a built
# one is expected installed too.  Protocol: tests/README.md.
. "${srcdir:=.}/tests/test-lib.sh"
make_work
dest=$work/dest
p=/opt/pt
dirs="prefix=$p exec_prefix=$p bindir=$p/bin libdir=$p/lib64 libexecdir=$p/lib64/exec
	datarootdir=$p/share mandir=$p/share/man docdir=$p/share/doc/ppctime-docs"

# installed_make TARGET DESTDIR: make TARGET with those directories (not
# under make check's job server: its descriptors are not ours).
installed_make() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$top_builddir" -s "$1" \
		DESTDIR="$2" $dirs >"$work/$1.log" 2>&1 ||
		{ fail "make $1" "failed:"; sed 's/^/# /' "$work/$1.log"; exit 1; }
}
# files DIR: every file and link under DIR, relative to it, sorted.
files() { (cd "$1" && find . \( -type f -o -type l \) | sed 's|^\./||' | LC_ALL=C sort); }

installed_make install "$dest"
# Each manual page but the links (.so requests) to another.
manuals=$(for man in "$dest$p"/share/man/man1/*.1; do
	[ "$(head -c 4 "$man")" = ".so " ] || echo "$man"
done)
check_directories() {
	{
		echo "${p#/}/bin/ppctime-run ${p#/}/bin/ppctime-bench ${p#/}/lib64/exec/ppctime/bench/insn-count"
		echo "${p#/}/lib64/exec/ppctime/ppctime-qemu-preload.so ${p#/}/lib64/exec/ppctime/ppctime-host-vdso.so"
		echo "${p#/}/lib64/exec/ppctime/ppctime-timekeeperd ${p#/}/lib64/exec/ppctime/ppctime-binfmt"
		echo "${p#/}/lib64/exec/ppctime/ppctime-binfmt-static"
		echo "${p#/}/lib/systemd/system/ppctime-timekeeperd.service"
		echo "${p#/}/lib/systemd/system/ppctime-timekeeperd.socket"
		echo "${p#/}/lib/systemd/system/ppctime-binfmt.service"
		echo "${p#/}/lib/binfmt.d/zz-ppctime.conf"
		for t in $TARGETS; do
			eval echo "${p#/}/lib64/exec/ppctime/\$LOADER_$t" "${p#/}/lib64/ppctime/\$IMAGE_$t.so" \
				"${p#/}/lib64/ppctime/\$IMAGE_$t-datastore.so"
			for b in vdso-insns tb null_syscall context_switch vdsotest sleeper; do
				echo "${p#/}/lib64/exec/ppctime/bench/$b-$t"
			done
			eval triplet=\$TRIPLET_$t
			[ ! -f "$top_builddir/sysroot/$triplet.stamp" ] ||
				for c in gcc g++; do
					echo "${p#/}/bin/$triplet-ppctime-$c ${p#/}/lib64/ppctime/$triplet-$c" \
						"${p#/}/share/man/man1/$triplet-ppctime-$c.1"
				done
			[ ! -f "$top_builddir/sysroot/$triplet.stamp" ] ||
				echo "${p#/}/share/meson/cross/$triplet-ppctime ${p#/}/lib64/ppctime/$triplet.cmake"
		done
		echo "${p#/}/share/man/man1/ppctime-run.1 ${p#/}/share/man/man1/ppctime-bench.1"
		for f in targets.txt record.schema.json summary.schema.json; do echo "${p#/}/share/ppctime/$f"; done
		for f in "$srcdir"/benchtests/ppctime_bench/*.py; do echo "${p#/}/share/ppctime/ppctime_bench/${f##*/}"; done
		for f in README.md COPYING COPYING.LIB; do echo "${p#/}/share/doc/ppctime-docs/$f"; done
	} | tr ' ' '\n' | LC_ALL=C sort >"$work/expected"
	# A sysroot's own files are its business.
	files "$dest" | grep -v "^${p#/}/lib64/ppctime/[^/]*/" >"$work/installed"
	if cmp -s "$work/expected" "$work/installed"; then
		pass "install: the GNU directories ($(wc -l <"$work/installed") files)"
	else
		fail "install: the GNU directories" "expected (<) and installed (>):"
		diff "$work/expected" "$work/installed" | grep '^[<>]' | sed 's/^/# /'
	fi
}

check_executable() {
	not_x=
	for f in "$p/bin/ppctime-run" "$p/bin/ppctime-bench" $(for t in $TARGETS; do eval echo "$p/lib64/exec/ppctime/\$LOADER_$t"; done); do
		[ -x "$dest$f" ] || not_x="$not_x $f"
	done
	if [ -z "$not_x" ]; then pass "install: programs executable"
	else fail "install: programs executable" "not:$not_x"; fi
}

# binfmt.d's entries name the installed handler, one entry per target.
check_binfmt() {
	conf=$dest$p/lib/binfmt.d/zz-ppctime.conf
	handlers=$(grep -v '^#' "$conf" 2>/dev/null | awk -F: '{ print $7 }' | sort -u)
	entries=$(grep -vc '^#' "$conf" 2>/dev/null)
	if [ "$handlers" = "$p/lib64/exec/ppctime/ppctime-binfmt" ] &&
	   [ "$entries" -eq "$(echo $TARGETS | wc -w)" ]; then
		pass "install: binfmt.d's $entries entries name the installed handler"
	else
		fail "install: binfmt.d" "$entries entries, handlers '$handlers'"
	fi
}

check_manual() { # PAGE
	name="install: manual page $(basename "$1")"
	if ! command -v groff >/dev/null; then
		skip "$name" "no groff (Debian package groff-base)"
	elif LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$1" >"$work/man.log" 2>&1 &&
	     [ ! -s "$work/man.log" ] && grep -qE '^\.SH "?EXIT STATUS' "$1"; then
		pass "$name"
	else
		fail "$name" "groff -man -ww says (or it has no EXIT STATUS):"; sed 's/^/# /' "$work/man.log"
	fi
}

# The whole tree moved: the launcher finds its files relative to itself
# (installed-test.sh, a subtest).
check_relocated() {
	mkdir -p "$work/elsewhere"
	mv "$dest$p" "$work/elsewhere/tree"
	subtest "install: relocated" env INSTALLED_LABEL=relocated \
		bindir="$work/elsewhere/tree/bin" "$srcdir/tests/installed-test.sh"
	mv "$work/elsewhere/tree" "$dest$p"
}

check_uninstall() {
	installed_make uninstall "$dest"
	files "$dest" >"$work/left"
	if [ -s "$work/left" ]; then
		fail uninstall "left $(wc -l <"$work/left") files:"; head -n 20 "$work/left" | sed 's/^/# /'
	else
		pass "uninstall: no file left"
	fi
}

check_install_strip() {
	installed_make install-strip "$work/strip"
	if readelf -S "$work/strip$p/bin/ppctime-run" | grep -q '\.symtab'; then
		fail install-strip "ppctime-run kept its symbol table"
	elif readelf -S "$work/strip$p/lib64/exec/ppctime/ppctime-qemu-preload.so" | grep -q '\.symtab'; then
		fail install-strip "ppctime-qemu-preload.so kept its symbol table"
	else
		changed=
		for t in $TARGETS; do
			eval loader=\$LOADER_$t image=\$IMAGE_$t.so
			cmp -s "$work/strip$p/lib64/exec/ppctime/$loader" "$top_builddir/loader/$loader" ||
				changed="$changed $loader"
			cmp -s "$work/strip$p/lib64/ppctime/$image" "$top_builddir/vdso-kernel/$image" ||
				changed="$changed $image"
		done
		if [ -z "$changed" ]; then pass "install-strip: the host files only"
		else fail install-strip "not as built:$changed"; fi
	fi
}

case_add check_directories
case_add check_executable
case_add check_binfmt
for man in $manuals; do
	case_add check_manual "$man"
done
case_add check_relocated
case_add check_uninstall
case_add check_install_strip
run_cases
# The installed launcher as 'make all' left it, for the configured
# directories: a later 'make install' then builds nothing.
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$top_builddir" -s run/installable/ppctime-run \
	>"$work/relink.log" 2>&1 ||
	{ echo "Bail out! relink: $(tail -n 1 "$work/relink.log")"; exit 1; }
exit $failed
