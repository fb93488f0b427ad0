# SPDX-License-Identifier: GPL-2.0
# tests/vdso-image-test.sh: ppctime-run's image checks (elf/vdso_image)
# on the built images and on corrupt copies of them, through the host
# driver tests/vdso-image-probe.  The benchmarks' variant images are
# checked too: their data-page helpers must still tell the page size.

VDSO_IMAGE_PROBE = tests/vdso-image-probe

$(VDSO_IMAGE_PROBE): $(srcdir)/tests/vdso-image-probe.c $(VDSO_IMAGE_OBJS) Makefile
	$(quiet) CC $@
	$(Q)$(MKDIR_P) $(@D)
	$(Q)$(CC) $(HOST_CFLAGS) $(CPPFLAGS) $(ELF_CPPFLAGS) -I$(srcdir) $(LDFLAGS) -o $@ \
		$(srcdir)/tests/vdso-image-probe.c $(VDSO_IMAGE_OBJS)

CHECK_DEPS += $(VDSO_IMAGE_PROBE) $(SEED_IMAGES)
TESTS += $(srcdir)/tests/vdso-image-test.sh
DISTCHECK_TESTS += $(srcdir)/tests/vdso-image-test.sh
CLEANFILES += $(VDSO_IMAGE_PROBE)
