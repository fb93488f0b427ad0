# SPDX-License-Identifier: GPL-2.0
# The second QEMU: the tests of ppctime-run, the daemon, binfmt, the
# chroot handler and the guest's vDSO run again with QEMU 10, whose
# qemu-user is static (Debian 13's; Debian 12's bookworm-backports):
# 'make check' the launcher's, binfmt's and Linux's vDSO selftests, which
# cover the static path end to end; 'make check-all' the rest too.  The
# package is fetched by name from QEMU10_SUITE of the machine's own Debian
# archive (build-aux/fetch-deb: a private apt list, nothing installed)
# into tests/qemu10/root, once; each test runs as
# tests/qemu10/TEST-qemu10.sh (tests/qemu10-test.sh), with PPCTIME_QEMU
# its QEMUs, or says SKIP and why where the package cannot be had.

QEMU10_SUITE = bookworm-backports
QEMU10_TESTS = launcher-test binfmt-test vdso-kselftest
QEMU10_ALL_TESTS = timekeeperd-test keeper-test chroot-test vdso-guest-test
qemu10_wrappers = $(1:%=tests/qemu10/%-qemu10.sh)

# fetch-deb fetches nothing while tests/qemu10/version names the package;
# an archive that cannot be reached (status 2) leaves why for the tests.
qemu10-fetch:
	$(Q)$(MKDIR_P) tests/qemu10
	$(Q)status=0; $(PYTHON) $(srcdir)/build-aux/fetch-deb $(QEMU10_SUITE) qemu-user \
		tests/qemu10 2>tests/qemu10/why || status=$$?; \
	if [ $$status -eq 0 ]; then rm -f tests/qemu10/why; else cat tests/qemu10/why >&2; fi; \
	[ $$status -ne 1 ]

tests/qemu10/%-qemu10.sh: Makefile
	$(Q)$(MKDIR_P) $(@D)
	$(Q)printf '#!/bin/sh\nexec "%s/tests/qemu10-test.sh" %s\n' '$(srcdir)' '$*' >$@
	$(Q)chmod +x $@

TESTS += $(call qemu10_wrappers,$(QEMU10_TESTS))
CHECK_DEPS += qemu10-fetch $(call qemu10_wrappers,$(QEMU10_TESTS))
CHECK_ALL_TESTS += $(call qemu10_wrappers,$(QEMU10_ALL_TESTS))
CHECK_ALL_DEPS += $(call qemu10_wrappers,$(QEMU10_ALL_TESTS))
CLEANFILES += tests/qemu10
.PHONY: qemu10-fetch
