# SPDX-License-Identifier: GPL-2.0
# ppctime-run, which runs a powerpc program under QEMU user mode with the
# vDSO (run/README.md), built three ways from the same objects: the build
# tree's run/ppctime-run, run/installable/ppctime-run (what 'make install'
# installs) and run/ppctime-binfmt-static (the chroot handler, bundle.h);
# run/ppctime-binfmt, binfmt_misc's handler, is ppctime-run by another
# name; binfmt_misc's entries as a binfmt.d(5) file and a systemd unit.

RUN_CPPFLAGS = $(CONTRACT_CPPFLAGS) -I$(srcdir) \
	-DPACKAGE_VERSION='"$(VERSION)"' -DPACKAGE_BUGREPORT='"$(PACKAGE_BUGREPORT)"'
$(eval $(call host_objects,run,$(RUN_CPPFLAGS)))
DEPDIRS += run/installable

# The two differ only in where they find what they run, relative to their
# own directory (run_support.c, the one object built for each): the build
# tree's finds the build tree's files; the installed one finds them in
# $(pkglibexecdir) and $(pkglibdir) as seen from $(bindir), so an installed
# tree works wherever it is moved.  The installed directories can be given to 'make install'
# too: run/installable/dirs.h (rewritten only when they change) holds them.
run_build_dirs = -DLOADER_DIR='"../loader"' -DPRELOAD_DIR='"../preload"' \
	-DDAEMON_DIR='"../timekeeperd"' -DHANDLER_DIR='"."' -DIMAGE_DIR='"../vdso-kernel"'
run/run_support.o: $(srcdir)/run/run_support.c Makefile
	$(Q)$(MKDIR_P) $(@D)
	$(quiet) CC $@
	$(Q)$(CC) $(HOST_CFLAGS) $(CPPFLAGS) $(RUN_CPPFLAGS) $(run_build_dirs) -c -o $@ $<

run/installable/dirs.h: FORCE
	$(Q)$(MKDIR_P) $(@D)
	$(Q){ for d in LOADER PRELOAD DAEMON HANDLER; do \
		printf '#define %s_DIR "%s"\n' $$d $(call bindir_to,$(pkglibexecdir)); done; \
		printf '#define IMAGE_DIR "%s"\n' $(call bindir_to,$(pkglibdir)); } >$@.new
	$(Q)if cmp -s $@.new $@; then rm $@.new; else mv $@.new $@; fi

run/installable/run_support.o: $(srcdir)/run/run_support.c run/installable/dirs.h Makefile
	$(quiet) CC $@
	$(Q)$(CC) $(HOST_CFLAGS) $(CPPFLAGS) $(RUN_CPPFLAGS) -include run/installable/dirs.h \
		-c -o $@ $<

# The rest, the same in both and in the chroot handler.
run_parts = ppctime-run run_options run_program run_image run_keeper run_exec run_watch \
	run_binfmt binfmt bundle userland_exec
RUN_OBJS = $(run_parts:%=run/%.o) $(TIMEKEEPERD_CLIENT_OBJS) $(TIMEKEEPER_OBJ) \
	$(ELF_PROGRAM_OBJS) $(VDSO_IMAGE_OBJS)
run/ppctime-run run/installable/ppctime-run: %/ppctime-run: %/run_support.o $(RUN_OBJS)
	$(quiet) LD $@
	$(Q)$(CC) $(HOST_CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^)

# The chroot handler (bundle.h): ppctime-run as a static PIE, which
# --binfmt-register bundles with the static QEMU, loader and image.
run/ppctime-binfmt-static: run/run_support.o $(RUN_OBJS)
	$(quiet) LD $@
	$(Q)$(CC) $(HOST_CFLAGS) $(LDFLAGS) -static-pie -o $@ $(filter %.o,$^)

# binfmt_misc's handler: ppctime-run by another name (binfmt.h).
run/ppctime-binfmt: run/ppctime-run
	$(Q)ln -sf ppctime-run $@

# The entries registered again after systemd-binfmt at boot, serving in
# chroots too.
run/ppctime-binfmt.service: $(srcdir)/run/ppctime-binfmt.service.in Makefile
	$(Q)$(MKDIR_P) $(@D)
	$(Q)$(SED) -e 's|@pkglibexecdir@|$(pkglibexecdir)|g' -e 's|@bindir@|$(bindir)|g' $< >$@

# binfmt_misc's entries as a binfmt.d(5) file, with the installed handler
# (rewritten only when it changes, as dirs.h: 'make install' may be given
# other directories).  At boot systemd-binfmt registers the files in the
# order of their names and binfmt_misc tries the last registered first:
# the name comes after qemu-user-binfmt's qemu-*.conf.
binfmtdir = $(prefix)/lib/binfmt.d
run_binfmt_d = run/zz-ppctime.conf
$(run_binfmt_d): run/ppctime-run run/ppctime-binfmt $(LOADERS) FORCE
	$(Q){ echo "# powerpc programs run by ppctime-run, with a vDSO (ppctime-run --binfmt-print)"; \
		run/ppctime-run --binfmt-print=$(pkglibexecdir)/ppctime-binfmt; } >$@.new
	$(Q)if cmp -s $@.new $@; then rm $@.new; else mv $@.new $@; fi

ALL += run/ppctime-run run/installable/ppctime-run run/ppctime-run.1 run/ppctime-binfmt \
	run/ppctime-binfmt-static run/ppctime-binfmt.service $(run_binfmt_d)
INSTALL_BIN += run/installable/ppctime-run
# The manual page, made by configure (the version).
INSTALL_MAN1 += run/ppctime-run.1
install-run-binfmt: installdirs all
	$(INSTALL_PROGRAM) run/ppctime-binfmt-static $(DESTDIR)$(pkglibexecdir)
	ln -sf $(shell realpath -m -s --relative-to=$(pkglibexecdir) $(bindir)/ppctime-run) \
		$(DESTDIR)$(pkglibexecdir)/ppctime-binfmt
	$(MKDIR_P) $(DESTDIR)$(systemdsystemunitdir) $(DESTDIR)$(binfmtdir)
	$(INSTALL_DATA) run/ppctime-binfmt.service $(DESTDIR)$(systemdsystemunitdir)
	$(INSTALL_DATA) $(run_binfmt_d) $(DESTDIR)$(binfmtdir)
uninstall-run-binfmt:
	rm -f $(DESTDIR)$(pkglibexecdir)/ppctime-binfmt $(DESTDIR)$(pkglibexecdir)/ppctime-binfmt-static \
		$(DESTDIR)$(systemdsystemunitdir)/ppctime-binfmt.service \
		$(DESTDIR)$(binfmtdir)/$(notdir $(run_binfmt_d))
INSTALL_HOOKS += install-run-binfmt
UNINSTALL_HOOKS += uninstall-run-binfmt
.PHONY: install-run-binfmt uninstall-run-binfmt
CLEANFILES += run/ppctime-run run/run_support.o $(run_parts:%=run/%.o) \
	run/ppctime-binfmt run/ppctime-binfmt-static run/ppctime-binfmt.service $(run_binfmt_d) \
	run/installable
