# SPDX-License-Identifier: GPL-2.0
# Every test's rules live in the folder of its source (tests/README.md):
# here, and in tests/'s fragments, one for each group of tests.
tests_fragments = boot/Rules.mk glibc/Rules.mk timekeeper.mk launcher.mk vdso-check.mk \
	vdso-guest.mk vdso-image.mk vdso-kselftest.mk second-qemu.mk host/Rules.mk
include $(tests_fragments:%=$(srcdir)/tests/%)

# Host unit tests of the generic vDSO core (tests/README.md):
# tests/unit/vdso-core-test checks every entry against a still page,
# tests/unit/vdso-seqcount-test the seqcount against a writer thread; each
# built as -delta64, the core with its own 64-bit delta math, and as
# -delta32, with the ppc32 32-bit pieces, for Linux 6.1's layout, and
# with -datastore added for the datastore's (the seqcount's only with
# -delta64: its reads are the same code in either layout, its writer's
# two seconds enough once).

unit_src = $(srcdir)/tests/unit
VDSO_CORE_TESTS = $(foreach t,vdso-core-test vdso-seqcount-test,\
	tests/unit/$(t)-delta64 tests/unit/$(t)-delta32 tests/unit/$(t)-delta64-datastore) \
	tests/unit/vdso-core-test-delta32-datastore
# vdso_core_test_flags VARIANT: DELTA[-LAYOUT]'s flags.
VDSO_CORE_TEST_FLAGS_delta64 =
VDSO_CORE_TEST_FLAGS_delta32 = -DTEST_DELTA32_PIECES
vdso_core_test_flags = $(VDSO_CORE_TEST_FLAGS_$(firstword $(subst -, ,$(1)))) \
	-DVDSO_LAYOUT=$(if $(filter %-datastore,$(1)),VDSO_LAYOUT_DATASTORE,VDSO_LAYOUT_6_1)

# Each program is one source, which includes the core by its path from
# $(srcdir) after tests/unit's asm/vdso/gettimeofday.h, the host
# "architecture" (vdso-core-test.h); delta32.h comes from the powerpc tree.
define vdso_core_test_cc
$(Q)$(MKDIR_P) $(@D)
$(quiet) CC $@
$(Q)$(CC) -O2 $(HOST_CFLAGS) $(CPPFLAGS) -pthread -I$(srcdir) \
	-I$(srcdir)/vdso-kernel/include -I$(srcdir)/vdso-kernel/arch/powerpc/include \
	-DHZ=$(HZ) $(call vdso_core_test_flags,$*) $(LDFLAGS) -o $@ $<
endef
tests/unit/vdso-core-test-%: $(unit_src)/vdso-core-test.c Makefile
	$(vdso_core_test_cc)
tests/unit/vdso-seqcount-test-%: $(unit_src)/vdso-seqcount-test.c Makefile
	$(vdso_core_test_cc)

TESTS += $(VDSO_CORE_TESTS)
CHECK_DEPS += $(VDSO_CORE_TESTS)
DISTCHECK_TESTS += $(VDSO_CORE_TESTS)
CLEANFILES += $(VDSO_CORE_TESTS)
DEPDIRS += tests tests/unit

# 'make install' into a DESTDIR, moved, and uninstalled; the installed
# launcher's own test, which 'make installcheck' runs on the installed tree.
TESTS += $(srcdir)/tests/install-test.sh
# It installs the sysroots built.
CHECK_GLIBC_TESTS += $(srcdir)/tests/install-test.sh
DISTCHECK_TESTS += $(srcdir)/tests/install-test.sh
RELEASE_TESTS += $(srcdir)/tests/install-test.sh
INSTALLCHECK_TESTS += $(srcdir)/tests/installed-test.sh

# The in-tree build keeps the source tree clean (tests/tree-test.sh): two
# builds of their own, minutes of CI's, in make check-all.
TESTS += $(srcdir)/tests/debian-test.sh
CHECK_ALL_TESTS += $(srcdir)/tests/tree-test.sh

# run-tests holds each program to its plan.
TESTS += $(srcdir)/tests/run-tests-test.sh
