# SPDX-License-Identifier: GPL-2.0
# The tests of the glibc sysroots (sysdeps/Rules.mk builds them) and of
# the glibc series (tests/README.md): sysroot-test.sh, check-glibc,
# series-compile.sh.

# 'make check-glibc': glibc's tests, run by glibc's machinery through
# ppctime-run, with and without the vDSO; 'make check-sysroot': ppctime's
# tests of the sysroots.  Both are part of 'make check' too.
check-glibc: $(addsuffix .stamp,$(SYSROOTS)) run/ppctime-run
	$(Q)top_builddir=. srcdir=$(srcdir) $(SHELL) $(srcdir)/tests/run-tests \
		$(srcdir)/tests/glibc/check-glibc
check-sysroot: $(addsuffix .stamp,$(SYSROOTS)) run/ppctime-run
	$(Q)top_builddir=. srcdir=$(srcdir) $(SHELL) $(srcdir)/tests/run-tests \
		$(srcdir)/tests/glibc/sysroot-test.sh

CHECK_GLIBC_DEPS += $(addsuffix .stamp,$(SYSROOTS))
TESTS += $(srcdir)/tests/glibc/sysroot-test.sh $(srcdir)/tests/glibc/check-glibc
CHECK_GLIBC_TESTS += $(srcdir)/tests/glibc/sysroot-test.sh $(srcdir)/tests/glibc/check-glibc

# The proof that each patch of the upstream series builds on its own,
# which no sysroot build gives: glibc GLIBC_PROOF_VERSION configured for
# each target and the objects its series changes compiled, patch by patch
# (tests/glibc/series-compile.sh), as tests/glibc-VERSION/series-compile.sh
# (make check-release runs the host glibc's too).
# make check-all's: minutes of CI's that make check's sysroots and
# series-test.sh (every series applies) leave it without.
GLIBC_PROOF_VERSION = 2.43
GLIBC_PROOF_TEST = tests/glibc-$(GLIBC_PROOF_VERSION)/series-compile.sh
tests/glibc-%/series-compile.sh: Makefile
	$(Q)$(MKDIR_P) $(@D)
	$(Q)printf '#!/bin/sh\nexec "%s/tests/glibc/series-compile.sh" %s "%s"\n' '$(srcdir)' \
		$* '$(call glibc_pristine,$*)' >$@
	$(Q)chmod +x $@
CHECK_ALL_TESTS += $(GLIBC_PROOF_TEST)
CHECK_ALL_DEPS += $(GLIBC_PROOF_TEST)

# check-all: tests/glibc/sysroot-test.sh against each other version's
# sysroots, as tests/sysroot-test-glibc-VERSION.sh (a name of its own, and
# so a log of its own).
OTHER_SYSROOT_TESTS = $(GLIBC_OTHER_VERSIONS:%=tests/sysroot-test-glibc-%.sh)
tests/sysroot-test-glibc-%.sh: Makefile
	$(Q)$(MKDIR_P) $(@D)
	$(Q)printf '#!/bin/sh\nPPCTIME_SYSROOTS=sysroot-%s exec "%s/tests/glibc/sysroot-test.sh"\n' \
		'$*' '$(srcdir)' >$@
	$(Q)chmod +x $@
CHECK_ALL_TESTS += $(OTHER_SYSROOT_TESTS)
CHECK_ALL_DEPS += $(OTHER_SYSROOT_TESTS) $(if $(GLIBC_SOURCE),$(addsuffix .stamp,$(OTHER_SYSROOTS)))
CLEANFILES += $(foreach v,$(GLIBC_SERIES_VERSIONS),tests/glibc-$(v)) $(OTHER_SYSROOT_TESTS)
.PHONY: check-glibc check-sysroot
