# SPDX-License-Identifier: GPL-2.0
# The C tests of the timekeeper and the daemon's parts, which need neither
# root nor a daemon: tests/timekeeper-test (one of each data layout) and
# timekeeper-options-test read the page through timekeeper-rig.o and run
# the timekeeper in threads; launch-table-test and timekeeperd-trust-test
# check the daemon's launch table and whom its client trusts.  They name
# the headers they test from the top ("timekeeper/timekeeper_internal.h",
# "timekeeperd/launch_table.h").

TIMEKEEPER_TESTS = tests/timekeeper-test tests/timekeeper-options-test \
	tests/launch-table-test tests/timekeeperd-trust-test
TIMEKEEPER_TEST_OBJS = $(TIMEKEEPER_TESTS:%=%.o) tests/timekeeper-rig.o
$(TIMEKEEPER_TEST_OBJS): tests/%.o: $(srcdir)/tests/%.c Makefile
	$(Q)$(MKDIR_P) $(@D)
	$(quiet) CC $@
	$(Q)$(CC) $(HOST_CFLAGS) $(CPPFLAGS) $(CONTRACT_CPPFLAGS) -I$(srcdir) -pthread \
		-c -o $@ $<

tests/timekeeper-test tests/timekeeper-options-test: tests/timekeeper-rig.o
tests/launch-table-test: timekeeperd/launch_table.o
tests/timekeeperd-trust-test: $(TIMEKEEPERD_SOCKET_OBJS)
$(TIMEKEEPER_TESTS): %: %.o $(TIMEKEEPER_OBJ)
	$(quiet) CCLD $@
	$(Q)$(CC) $(HOST_CFLAGS) $(LDFLAGS) -pthread -o $@ $(filter %.o,$^)

TESTS += $(TIMEKEEPER_TESTS)
DISTCHECK_TESTS += $(TIMEKEEPER_TESTS)
CHECK_DEPS += $(TIMEKEEPER_TESTS)
CLEANFILES += $(TIMEKEEPER_TESTS) $(TIMEKEEPER_TEST_OBJS)
