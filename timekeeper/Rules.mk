# SPDX-License-Identifier: GPL-2.0
# The timekeeper (timekeeper.h; its parts in timekeeper/README.md): the one
# writer of the data pages, and the watchdog of a keeper (keeper_watch.h),
# objects ppctime-run and ppctime-timekeeperd link as $(TIMEKEEPER_OBJ).
# Its tests are in tests/ (tests/timekeeper.mk).

timekeeper_parts = timekeeper calibrate mirror host_vvar steer vclock datapage_writer \
	keeper_watch sealed_pages
TIMEKEEPER_OBJ = $(timekeeper_parts:%=timekeeper/%.o)
TIMEKEEPER_CPPFLAGS = $(CONTRACT_CPPFLAGS)
$(eval $(call host_objects,timekeeper,$(TIMEKEEPER_CPPFLAGS)))

CLEANFILES += $(TIMEKEEPER_OBJ)
