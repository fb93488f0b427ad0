# SPDX-License-Identifier: GPL-2.0
# The timekeeper (launcher/timekeeper.c): an object the launcher links, as
# $(TIMEKEEPER_OBJ), and its host test.  Included by the top Makefile;
# builds in the build directory, sources from $(srcdir).

TIMEKEEPER_OBJ = launcher/timekeeper.o
TIMEKEEPER_CPPFLAGS = -I$(srcdir)/launcher -I$(srcdir)/vdso-kernel/include \
		      $(CPPFLAGS)
TIMEKEEPER_HEADERS = $(srcdir)/launcher/timekeeper.h $(srcdir)/launcher/fail.h \
		     $(srcdir)/vdso-kernel/include/vdso/datapage.h

# Makefile: configure's CFLAGS live there (a package build reconfigures).
$(TIMEKEEPER_OBJ): $(srcdir)/launcher/timekeeper.c $(TIMEKEEPER_HEADERS) Makefile
	$(quiet) CC $@
	$(Q)$(MKDIR_P) $(@D)
	$(Q)$(CC) $(HOST_CFLAGS) $(TIMEKEEPER_CPPFLAGS) -c -o $@ \
		$(srcdir)/launcher/timekeeper.c

# The test runs the timekeeper in threads.
tests/timekeeper-test: $(srcdir)/tests/timekeeper-test.c $(TIMEKEEPER_OBJ) \
		       $(TIMEKEEPER_HEADERS) targets.h
	$(quiet) CCLD $@
	$(Q)$(MKDIR_P) $(@D)
	$(Q)$(CC) $(HOST_CFLAGS) $(TIMEKEEPER_CPPFLAGS) $(LDFLAGS) -pthread -o $@ \
		$(srcdir)/tests/timekeeper-test.c $(TIMEKEEPER_OBJ)

TESTS += tests/timekeeper-test
DISTCHECK_TESTS += tests/timekeeper-test
CHECK_DEPS += tests/timekeeper-test
CLEANFILES += $(TIMEKEEPER_OBJ) tests/timekeeper-test
