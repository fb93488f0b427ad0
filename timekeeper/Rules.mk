# SPDX-License-Identifier: GPL-2.0
# The timekeeper (timekeeper.h; its parts in timekeeper/README.md): the one
# writer of the data pages, and the watchdog of a keeper (keeper_watch.h),
# objects ppctime-run and ppctime-timekeeperd link as $(TIMEKEEPER_OBJ);
# and its host test, tests/timekeeper-test.

timekeeper_parts = timekeeper calibrate mirror host_vvar steer vclock datapage_writer \
	keeper_watch
TIMEKEEPER_OBJ = $(timekeeper_parts:%=timekeeper/%.o)
TIMEKEEPER_CPPFLAGS = -I$(srcdir)/timekeeper -I$(srcdir)/include -I$(srcdir)/vdso-kernel/include
$(eval $(call host_objects,timekeeper,$(TIMEKEEPER_CPPFLAGS)))

# The test runs the timekeeper in threads.
tests/timekeeper-test: $(srcdir)/tests/timekeeper-test.c $(TIMEKEEPER_OBJ) Makefile
	$(quiet) CCLD $@
	$(Q)$(MKDIR_P) $(@D)
	$(Q)$(CC) $(HOST_CFLAGS) $(CPPFLAGS) $(TIMEKEEPER_CPPFLAGS) $(LDFLAGS) -pthread -o $@ \
		$(srcdir)/tests/timekeeper-test.c $(TIMEKEEPER_OBJ)

TESTS += tests/timekeeper-test
DISTCHECK_TESTS += tests/timekeeper-test
CHECK_DEPS += tests/timekeeper-test
CLEANFILES += $(TIMEKEEPER_OBJ) tests/timekeeper-test
