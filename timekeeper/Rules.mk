# SPDX-License-Identifier: GPL-2.0
# The timekeeper (timekeeper.h; its parts in timekeeper/README.md): the one
# writer of the data pages, and the watchdog of a keeper (keeper_watch.h),
# objects ppctime-run and ppctime-timekeeperd link as $(TIMEKEEPER_OBJ);
# and its host tests, tests/timekeeper-test and timekeeper-options-test.

timekeeper_parts = timekeeper calibrate mirror host_vvar steer vclock datapage_writer \
	keeper_watch sealed_pages
TIMEKEEPER_OBJ = $(timekeeper_parts:%=timekeeper/%.o)
TIMEKEEPER_CPPFLAGS = $(CONTRACT_CPPFLAGS)
$(eval $(call host_objects,timekeeper,$(TIMEKEEPER_CPPFLAGS)))

# Its tests, one of each layout and one of the options, read the page
# through timekeeper-rig.o and run the timekeeper in threads; they name its
# headers from the top ("timekeeper/timekeeper_internal.h").
TIMEKEEPER_TESTS = tests/timekeeper-test tests/timekeeper-options-test
TIMEKEEPER_TEST_OBJS = $(TIMEKEEPER_TESTS:%=%.o) tests/timekeeper-rig.o
$(TIMEKEEPER_TEST_OBJS): tests/%.o: $(srcdir)/tests/%.c Makefile
	$(Q)$(MKDIR_P) $(@D)
	$(quiet) CC $@
	$(Q)$(CC) $(HOST_CFLAGS) $(CPPFLAGS) $(TIMEKEEPER_CPPFLAGS) -I$(srcdir) -pthread \
		-c -o $@ $<

$(TIMEKEEPER_TESTS): %: %.o tests/timekeeper-rig.o $(TIMEKEEPER_OBJ)
	$(quiet) CCLD $@
	$(Q)$(CC) $(HOST_CFLAGS) $(LDFLAGS) -pthread -o $@ $(filter %.o,$^)

TESTS += $(TIMEKEEPER_TESTS)
DISTCHECK_TESTS += $(TIMEKEEPER_TESTS)
CHECK_DEPS += $(TIMEKEEPER_TESTS)
CLEANFILES += $(TIMEKEEPER_OBJ) $(TIMEKEEPER_TESTS) $(TIMEKEEPER_TEST_OBJS)
