# SPDX-License-Identifier: GPL-2.0
# The second QEMU, of the other kind than configure's (configure.ac says
# which: QEMU 10's static qemu-user from bookworm-backports beside Debian
# 12's dynamic 7.2, Debian 12's dynamic 7.2 beside Debian 13's static 10):
# the tests of ppctime-run, the daemon, binfmt, the chroot handler and the
# guest's vDSO run again with it, so that both paths ppctime-run has (exec
# of a dynamic QEMU with the preload, a static one mapped and entered) are
# tested on every host: 'make check' the launcher's, binfmt's and Linux's
# vDSO selftests, 'make check-all' the rest too.  The package is fetched by
# name from SECOND_QEMU_SUITE of the machine's own Debian archive
# (build-aux/fetch-deb: a private apt list, nothing installed) into
# tests/second-qemu/root, once; each test runs as
# tests/second-qemu/TEST-second-qemu.sh (tests/second-qemu-test.sh), with
# PPCTIME_QEMU its QEMUs, or says SKIP and why (tests/second-qemu/why) where
# the package cannot be had or does not run here (Debian 12's dynamic QEMU
# needs Debian 12's libraries, which a Debian 13 host may lack).

SECOND_QEMU_TESTS = launcher-test binfmt-test vdso-kselftest
SECOND_QEMU_ALL_TESTS = timekeeperd-test keeper-test chroot-test vdso-guest-test
second_qemu_wrappers = $(1:%=tests/second-qemu/%-second-qemu.sh)

second_qemu_runs = q=tests/second-qemu/root/usr/bin/qemu-ppc; \
	if ! $$q --version >/dev/null 2>tests/second-qemu/why; then \
		echo "$(SECOND_QEMU_SUITE)'s qemu-user does not run here:" \
			"$$(head -n 1 tests/second-qemu/why)" >tests/second-qemu/why; \
		cat tests/second-qemu/why >&2; \
	else rm -f tests/second-qemu/why; fi;
second-qemu-fetch:
	$(call fetch_deb,$(SECOND_QEMU_SUITE),qemu-user,tests/second-qemu,$(second_qemu_runs))

tests/second-qemu/%-second-qemu.sh: Makefile
	$(Q)$(MKDIR_P) $(@D)
	$(Q)printf '#!/bin/sh\nexec "%s/tests/second-qemu-test.sh" %s\n' '$(srcdir)' '$*' >$@
	$(Q)chmod +x $@

TESTS += $(call second_qemu_wrappers,$(SECOND_QEMU_TESTS))
RELEASE_TESTS += $(call second_qemu_wrappers,$(SECOND_QEMU_TESTS))
CHECK_DEPS += second-qemu-fetch $(call second_qemu_wrappers,$(SECOND_QEMU_TESTS))
CHECK_ALL_TESTS += $(call second_qemu_wrappers,$(SECOND_QEMU_ALL_TESTS))
CHECK_ALL_DEPS += $(call second_qemu_wrappers,$(SECOND_QEMU_ALL_TESTS))
CLEANFILES += tests/second-qemu
.PHONY: second-qemu-fetch
