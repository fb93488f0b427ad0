# SPDX-License-Identifier: GPL-2.0
# The launcher: launcher/ppctime-run and the preload it loads into QEMU,
# launcher/ppctime-qemu-preload.so (host), and, per target, the static
# guest loader launcher/ppctime-loader-TARGET; tests/launcher-test.sh and
# its guest programs tests/guest/launcher-probe[-static|-nopie]-TARGET,
# tests/guest/origin-TARGET/ (a program and its $ORIGIN library) and
# tests/guest/mini-sh-TARGET (a script's interpreter, binfmt-test.sh).
# The timekeeper's objects come from its own fragment, launcher/timekeeper.mk,
# which adds them to ppctime-run's and ppctime-timekeeperd's prerequisites;
# the vDSO image reader, $(VDSO_IMAGE_OBJS), is built here and linked by
# tests/vdso-check.mk, tests/vdso-image.mk and launcher/fuzz.mk too (this
# fragment is read before theirs: it sorts first).

launcher_src = $(srcdir)/launcher
# The vDSO image reader (vdso_image.h) and the ELF reader it is built on
# (elf_file.h).
VDSO_IMAGE_OBJS = launcher/elf_file.o launcher/vdso_image.o launcher/vdso_guest_rules.o \
	launcher/vdso_page_size.o
VDSO_IMAGE_HEADERS = $(launcher_src)/elf_file.h $(launcher_src)/vdso_image.h \
	$(launcher_src)/fail.h
LAUNCHER_LOADERS = $(foreach t,$(TARGETS),launcher/$(LOADER_$(t)))
LAUNCHER_PROBES = $(foreach t,$(TARGETS),tests/guest/launcher-probe-$(t) \
	tests/guest/launcher-probe-static-$(t) tests/guest/launcher-probe-nopie-$(t) \
	tests/guest/mini-sh-$(t) tests/guest/origin-$(t)/origin-probe \
	tests/guest/origin-$(t)/lib/libppctime-origin.so)

# ppctime-run is built twice, and the two differ only in where they find
# their loaders and default images, relative to their own directory: the
# build tree's launcher/ppctime-run in the build tree, and
# launcher/installable/ppctime-run, the one 'make install' installs, in
# $(pkglibexecdir) and $(pkglibdir) as seen from $(bindir), so an installed
# tree works wherever it is moved.  The installed directories can be given
# to 'make install' too: launcher/installable/dirs.h (rewritten only when
# they change) holds them.  QEMU's paths come with the targets (targets.h).
launcher_run_defs = -DPACKAGE_VERSION='"$(VERSION)"' -DPACKAGE_BUGREPORT='"$(PACKAGE_BUGREPORT)"'
launcher_run_deps = $(launcher_src)/ppctime-run.c $(launcher_src)/launch_protocol.h \
	$(launcher_src)/binfmt.h $(launcher_src)/bundle.h $(launcher_src)/userland_exec.h \
	$(launcher_src)/timekeeper.h $(launcher_src)/timekeeperd_client.h \
	$(VDSO_IMAGE_HEADERS) $(launcher_src)/elf_program.h \
	$(srcdir)/vdso-kernel/include/vdso/datapage.h targets.h Makefile
launcher_run_cc = $(CC) $(HOST_CFLAGS) $(CPPFLAGS) -I$(launcher_src) \
	-I$(srcdir)/vdso-kernel/include $(launcher_run_defs)

# Where the build tree's ppctime-run finds what it runs, from its own
# directory; the installed one finds all but the images in $(pkglibexecdir).
launcher_build_dirs = -DLOADER_DIR='"."' -DPRELOAD_DIR='"."' -DDAEMON_DIR='"."' \
	-DHANDLER_DIR='"."' -DIMAGE_DIR='"../vdso-kernel"'

launcher/ppctime-run.o: $(launcher_run_deps)
	$(Q)$(MKDIR_P) $(@D)
	$(quiet) CC $@
	$(Q)$(launcher_run_cc) $(launcher_build_dirs) -c -o $@ $<

launcher/installable/dirs.h: FORCE
	$(Q)$(MKDIR_P) $(@D)
	$(Q){ for d in LOADER PRELOAD DAEMON HANDLER; do \
		printf '#define %s_DIR "%s"\n' $$d $(call bindir_to,$(pkglibexecdir)); done; \
		printf '#define IMAGE_DIR "%s"\n' $(call bindir_to,$(pkglibdir)); } >$@.new
	$(Q)if cmp -s $@.new $@; then rm $@.new; else mv $@.new $@; fi

launcher/installable/ppctime-run.o: $(launcher_run_deps) launcher/installable/dirs.h
	$(quiet) CC $@
	$(Q)$(launcher_run_cc) -include launcher/installable/dirs.h -c -o $@ $<

# The vDSO image reader, and what ppctime-run reads of a program with the
# ELF reader (elf_program.h).
$(VDSO_IMAGE_OBJS) launcher/elf_program.o: launcher/%.o: $(launcher_src)/%.c \
		$(VDSO_IMAGE_HEADERS) $(launcher_src)/elf_program.h Makefile
	$(Q)$(MKDIR_P) $(@D)
	$(quiet) CC $@
	$(Q)$(CC) $(HOST_CFLAGS) $(CPPFLAGS) -I$(launcher_src) -c -o $@ $<

launcher_run_objs = launcher/timekeeperd_client.o launcher/keeper_watch.o launcher/binfmt.o \
	launcher/bundle.o launcher/userland_exec.o launcher/elf_program.o $(VDSO_IMAGE_OBJS)
launcher/ppctime-run launcher/installable/ppctime-run: %/ppctime-run: %/ppctime-run.o \
		$(launcher_run_objs)
	$(quiet) LD $@
	$(Q)$(CC) $(HOST_CFLAGS) $(LDFLAGS) -o $@ $^

# The chroot handler (bundle.h): ppctime-run as a static PIE, which
# --binfmt-register bundles with the static QEMU, loader and image.
launcher/ppctime-binfmt-static: launcher/ppctime-run.o $(launcher_run_objs)
	$(quiet) LD $@
	$(Q)$(CC) $(HOST_CFLAGS) $(LDFLAGS) -static-pie -o $@ $^

launcher/bundle.o launcher/userland_exec.o: launcher/%.o: $(launcher_src)/%.c \
		$(launcher_src)/%.h $(launcher_src)/elf_file.h Makefile
	$(Q)$(MKDIR_P) $(@D)
	$(quiet) CC $@
	$(Q)$(CC) $(HOST_CFLAGS) $(CPPFLAGS) -I$(launcher_src) -c -o $@ $<

# The shared timekeeper (ppctime-timekeeperd.c) and a launch's side of it,
# which the daemon links too (the user's directory).  ppctime-run finds
# the daemon beside its loaders; the systemd units name it there.
launcher_tkd_headers = $(launcher_src)/timekeeperd_protocol.h $(launcher_src)/keeper_watch.h \
	$(launcher_src)/fail.h $(launcher_src)/binfmt.h \
	$(launcher_src)/timekeeperd_client.h $(launcher_src)/timekeeper.h \
	$(srcdir)/vdso-kernel/include/vdso/datapage.h targets.h
launcher/timekeeperd_client.o launcher/ppctime-timekeeperd.o launcher/keeper_watch.o \
		launcher/binfmt.o: \
		launcher/%.o: $(launcher_src)/%.c $(launcher_tkd_headers) Makefile
	$(Q)$(MKDIR_P) $(@D)
	$(quiet) CC $@
	$(Q)$(CC) $(HOST_CFLAGS) $(CPPFLAGS) -I$(launcher_src) -I$(srcdir)/vdso-kernel/include \
		-c -o $@ $<

launcher/ppctime-timekeeperd: launcher/ppctime-timekeeperd.o launcher/timekeeperd_client.o \
		launcher/keeper_watch.o
	$(quiet) LD $@
	$(Q)$(CC) $(HOST_CFLAGS) $(LDFLAGS) -pthread -o $@ $^

# binfmt_misc's handler: ppctime-run by another name (binfmt.h).
launcher/ppctime-binfmt: launcher/ppctime-run
	$(Q)ln -sf ppctime-run $@

# systemd's units: the machine's daemon, and the entries registered again
# after systemd-binfmt at boot, serving in chroots too.
launcher_units = launcher/ppctime-timekeeperd.service launcher/ppctime-timekeeperd.socket \
	launcher/ppctime-binfmt.service
$(launcher_units): launcher/%: $(launcher_src)/%.in Makefile
	$(Q)$(MKDIR_P) $(@D)
	$(Q)$(SED) -e 's|@pkglibexecdir@|$(pkglibexecdir)|g' -e 's|@bindir@|$(bindir)|g' $< >$@

# The preload that has QEMU load the loader in PROGRAM's place
# (launch_protocol.h): a host shared object, private to ppctime-run (no
# soname: nothing links with it).
# It answers QEMU's time calls with guest_clock.c, the vDSO's core built
# for the host.
launcher/ppctime-qemu-preload.so: $(launcher_src)/qemu-preload.c $(launcher_src)/launch_protocol.h \
		$(launcher_src)/guest_clock.c $(launcher_src)/guest_clock.h \
		$(launcher_src)/host-arch/asm/vdso/gettimeofday.h $(launcher_src)/timekeeper.h \
		$(launcher_src)/tsc.h $(srcdir)/vdso-kernel/lib/gettimeofday.c \
		$(srcdir)/vdso-kernel/include/vdso/datapage.h \
		$(srcdir)/vdso-kernel/include/vdso/compiler.h targets.h Makefile
	$(Q)$(MKDIR_P) $(@D)
	$(quiet) CC $@
	$(Q)$(CC) $(HOST_CFLAGS) $(CPPFLAGS) $(LDFLAGS) -I$(launcher_src) -I. \
		-I$(launcher_src)/host-arch -I$(srcdir)/vdso-kernel/include -DHZ=$(HZ) \
		-shared -fPIC -o $@ $(launcher_src)/qemu-preload.c $(launcher_src)/guest_clock.c -ldl

# The loader: static, with no C library (its own _start and system calls;
# no loop turned into a call of the memset it does not have; no unwind
# tables, nothing unwinds it), and linked well above 0x10000000 where
# static ET_EXEC programs sit (Debian's cross toolchains have no
# static-pie).  The probe: PIE (ET_DYN with PT_INTERP), static (ET_EXEC)
# and non-PIE dynamic.
LOADER_CFLAGS = -std=gnu11 -Wall -Wextra -O2 -ffreestanding -fno-stack-protector -fno-pie \
	-fno-tree-loop-distribute-patterns -fno-asynchronous-unwind-tables -fno-unwind-tables
LOADER_LDFLAGS = -nostdlib -static -no-pie -Wl,-Ttext-segment=0x30000000
define launcher_rules
launcher/$(LOADER_$(1)): $(launcher_src)/ppctime-loader.c $(launcher_src)/launch_protocol.h \
		$(srcdir)/vdso-kernel/include/vdso/datapage.h
	$(Q)$(MKDIR_P) $$(@D)
	$$(quiet) CC $$@
	$(Q)$(CROSS_$(1))gcc $(LOADER_CFLAGS) $(LOADER_LDFLAGS) -I$(launcher_src) \
		-I$(srcdir)/vdso-kernel/include -o $$@ $$<

tests/guest/launcher-probe-$(1): $(srcdir)/tests/guest/launcher-probe.c
	$(Q)$(MKDIR_P) $$(@D)
	$$(quiet) CC $$@
	$(Q)$(CROSS_$(1))gcc -std=gnu11 -Wall -Wextra -O2 -o $$@ $$<

tests/guest/launcher-probe-static-$(1): $(srcdir)/tests/guest/launcher-probe.c
	$(Q)$(MKDIR_P) $$(@D)
	$$(quiet) CC $$@
	$(Q)$(CROSS_$(1))gcc -std=gnu11 -Wall -Wextra -O2 -static -o $$@ $$<

tests/guest/mini-sh-$(1): $(srcdir)/tests/guest/mini-sh.c
	$(Q)$(MKDIR_P) $$(@D)
	$$(quiet) CC $$@
	$(Q)$(CROSS_$(1))gcc -std=gnu11 -Wall -Wextra -O2 -static -o $$@ $$<

tests/guest/launcher-probe-nopie-$(1): $(srcdir)/tests/guest/launcher-probe.c
	$(Q)$(MKDIR_P) $$(@D)
	$$(quiet) CC $$@
	$(Q)$(CROSS_$(1))gcc -std=gnu11 -Wall -Wextra -O2 -no-pie -o $$@ $$<

# A program whose library only its RUNPATH $$ORIGIN/lib finds.
tests/guest/origin-$(1)/lib/libppctime-origin.so: $(srcdir)/tests/guest/origin-lib.c
	$(Q)$(MKDIR_P) $$(@D)
	$$(quiet) CC $$@
	$(Q)$(CROSS_$(1))gcc -std=gnu11 -Wall -Wextra -O2 -shared -fPIC -o $$@ $$<

tests/guest/origin-$(1)/origin-probe: $(srcdir)/tests/guest/origin-probe.c \
		tests/guest/origin-$(1)/lib/libppctime-origin.so
	$$(quiet) CC $$@
	$(Q)$(CROSS_$(1))gcc -std=gnu11 -Wall -Wextra -O2 -o $$@ $$< \
		-Ltests/guest/origin-$(1)/lib -lppctime-origin \
		-Wl,--enable-new-dtags,-rpath,'$$$$ORIGIN/lib'
endef
$(foreach t,$(TARGETS),$(eval $(call launcher_rules,$(t))))

# A big-endian ppc64 program of ABI version 2, which its header declares.
ifneq ($(filter ppc64,$(TARGETS)),)
LAUNCHER_PROBES += tests/guest/elfv2-probe-ppc64
tests/guest/elfv2-probe-ppc64: $(srcdir)/tests/guest/elfv2-probe.S
	$(Q)$(MKDIR_P) $(@D)
	$(quiet) AS $@
	$(Q)$(CROSS_ppc64)gcc -nostdlib -static -o $@ $<
endif

ALL += launcher/ppctime-run launcher/installable/ppctime-run launcher/ppctime-run.1 \
	$(LAUNCHER_LOADERS) launcher/ppctime-qemu-preload.so launcher/ppctime-timekeeperd \
	$(launcher_units) launcher/ppctime-binfmt launcher/ppctime-binfmt-static
INSTALL_BIN += launcher/installable/ppctime-run
# QEMU runs only files with an execute bit.
INSTALL_LIBEXEC += $(LAUNCHER_LOADERS)
# Beside the loaders: ppctime-run finds both in LOADER_DIR.
INSTALL_HOST_LIBEXEC += launcher/ppctime-qemu-preload.so
# binfmt_misc's entries as a binfmt.d(5) file, with the installed handler
# (rewritten only when it changes, as dirs.h: 'make install' may be given
# other directories).  At boot systemd-binfmt registers the files in the
# order of their names and binfmt_misc tries the last registered first:
# the name comes after qemu-user-binfmt's qemu-*.conf.
binfmtdir = $(prefix)/lib/binfmt.d
launcher_binfmt_d = launcher/zz-ppctime.conf
$(launcher_binfmt_d): launcher/ppctime-run launcher/ppctime-binfmt $(LAUNCHER_LOADERS) FORCE
	$(Q){ echo "# powerpc programs run by ppctime-run, with a vDSO (ppctime-run --binfmt-print)"; \
		launcher/ppctime-run --binfmt-print=$(pkglibexecdir)/ppctime-binfmt; } >$@.new
	$(Q)if cmp -s $@.new $@; then rm $@.new; else mv $@.new $@; fi
ALL += $(launcher_binfmt_d)
# The daemon runs, so it is not among INSTALL_HOST_LIBEXEC (mode 644); its
# units go where systemd looks for a package's (Debian 12's
# /lib/systemd/system: debian/rules sets it).
systemdsystemunitdir = $(prefix)/lib/systemd/system
install-launcher-system: installdirs all
	$(INSTALL_PROGRAM) launcher/ppctime-timekeeperd launcher/ppctime-binfmt-static \
		$(DESTDIR)$(pkglibexecdir)
	ln -sf $(shell realpath -m -s --relative-to=$(pkglibexecdir) $(bindir)/ppctime-run) \
		$(DESTDIR)$(pkglibexecdir)/ppctime-binfmt
	$(MKDIR_P) $(DESTDIR)$(systemdsystemunitdir) $(DESTDIR)$(binfmtdir)
	$(INSTALL_DATA) $(launcher_units) $(DESTDIR)$(systemdsystemunitdir)
	$(INSTALL_DATA) $(launcher_binfmt_d) $(DESTDIR)$(binfmtdir)
uninstall-launcher-system:
	rm -f $(DESTDIR)$(pkglibexecdir)/ppctime-timekeeperd $(DESTDIR)$(pkglibexecdir)/ppctime-binfmt \
		$(DESTDIR)$(pkglibexecdir)/ppctime-binfmt-static \
		$(addprefix $(DESTDIR)$(systemdsystemunitdir)/,$(notdir $(launcher_units))) \
		$(DESTDIR)$(binfmtdir)/$(notdir $(launcher_binfmt_d))
INSTALL_HOOKS += install-launcher-system
UNINSTALL_HOOKS += uninstall-launcher-system
.PHONY: install-launcher-system uninstall-launcher-system
# The manual page, made by configure (the version).
INSTALL_MAN1 += launcher/ppctime-run.1
TESTS += $(srcdir)/tests/launcher-test.sh $(srcdir)/tests/timekeeperd-test.sh \
	$(srcdir)/tests/binfmt-test.sh $(srcdir)/tests/chroot-test.sh
CHECK_DEPS += $(LAUNCHER_PROBES)
INSTALLCHECK_DEPS += $(LAUNCHER_PROBES)
DISTCHECK_TESTS += $(srcdir)/tests/launcher-test.sh
CLEANFILES += launcher/ppctime-run launcher/ppctime-run.o $(VDSO_IMAGE_OBJS) \
	launcher/elf_program.o \
	launcher/ppctime-timekeeperd launcher/ppctime-timekeeperd.o \
	launcher/timekeeperd_client.o launcher/keeper_watch.o launcher/binfmt.o launcher/ppctime-binfmt \
	launcher/bundle.o launcher/userland_exec.o launcher/ppctime-binfmt-static \
	tests/qemu-user-static tests/qemu-user-static.lock \
	$(launcher_units) tests/timekeeperd $(launcher_binfmt_d) \
	launcher/installable \
	$(LAUNCHER_LOADERS) launcher/ppctime-qemu-preload.so \
	$(LAUNCHER_PROBES) $(foreach t,$(TARGETS),tests/guest/origin-$(t))
