# SPDX-License-Identifier: GPL-2.0
# The timekeeper (launcher/timekeeper.h; its parts in launcher/README.md):
# objects the launcher links, as $(TIMEKEEPER_OBJ), and its host test.
# Included by the top Makefile after launcher/Rules.mk, whose programs get
# $(TIMEKEEPER_OBJ) here; builds in the build directory, sources from
# $(srcdir).

timekeeper_parts = timekeeper calibrate mirror host_vvar steer vclock datapage_writer
TIMEKEEPER_OBJ = $(timekeeper_parts:%=launcher/%.o)
TIMEKEEPER_CPPFLAGS = -I$(srcdir)/launcher -I$(srcdir)/vdso-kernel/include \
		      $(CPPFLAGS)
# What a caller includes, and what the parts include of each other.
TIMEKEEPER_HEADERS = $(srcdir)/launcher/timekeeper.h \
		     $(srcdir)/vdso-kernel/include/vdso/datapage.h
timekeeper_part_headers = $(addprefix $(srcdir)/launcher/,timekeeper_internal.h \
	calibrate.h mirror.h host_vvar.h steer.h vclock.h datapage_writer.h tsc.h fail.h)

# Makefile: configure's CFLAGS live there (a package build reconfigures).
$(TIMEKEEPER_OBJ): launcher/%.o: $(srcdir)/launcher/%.c $(TIMEKEEPER_HEADERS) \
		$(timekeeper_part_headers) Makefile
	$(quiet) CC $@
	$(Q)$(MKDIR_P) $(@D)
	$(Q)$(CC) $(HOST_CFLAGS) $(TIMEKEEPER_CPPFLAGS) -c -o $@ $<

# launcher/Rules.mk links these from $^.
launcher/ppctime-run launcher/installable/ppctime-run launcher/ppctime-binfmt-static \
		launcher/ppctime-timekeeperd: \
		$(TIMEKEEPER_OBJ)

# The test runs the timekeeper in threads.
tests/timekeeper-test: $(srcdir)/tests/timekeeper-test.c $(TIMEKEEPER_OBJ) \
		       $(TIMEKEEPER_HEADERS) $(srcdir)/tests/test_report.h targets.h
	$(quiet) CCLD $@
	$(Q)$(MKDIR_P) $(@D)
	$(Q)$(CC) $(HOST_CFLAGS) $(TIMEKEEPER_CPPFLAGS) $(LDFLAGS) -pthread -o $@ \
		$(srcdir)/tests/timekeeper-test.c $(TIMEKEEPER_OBJ)

TESTS += tests/timekeeper-test
DISTCHECK_TESTS += tests/timekeeper-test
CHECK_DEPS += tests/timekeeper-test
CLEANFILES += $(TIMEKEEPER_OBJ) tests/timekeeper-test
