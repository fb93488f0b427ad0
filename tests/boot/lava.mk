# SPDX-License-Identifier: GPL-2.0
# The boots of tests/boot/Rules.mk as LAVA jobs (tests/boot/README.md, "LAVA"):
#   make lava-jobs    lava/KIND-BOOT.yaml for each boot 'make check',
#                     'make check-all' and 'make bench' run, the kernel and
#                     initramfs by URL: LAVA_URL (default file:// of this
#                     build tree) followed by their path in the build tree
#   make check-lava   ('make check-all' runs it) each target's boot of the
#                     newest Linux through LAVA's own dispatcher, lava-run, against
#                     LAVA's QEMU device type, and its results against the
#                     harness's (boot/lava-run-test-BOOT.sh)
# 'make check' validates every job against LAVA's job schema
# (boot/lava-validate-test.sh).  LAVA's packages are Debian 12's
# (LAVA_SUITE), unpacked into tests/lava/PACKAGE by build-aux/fetch-deb,
# nothing installed: lava-common (the schemas) for 'make check', with
# lava-dispatcher, lava-dispatcher-host and lava-server (its device types)
# for check-lava.

LAVA_SUITE = bookworm
LAVA_URL = file://$(abspath .)/
LAVA_PACKAGES = lava-common lava-dispatcher lava-dispatcher-host lava-server
lava_root = tests/lava/$(1)/root

# lava_boot GOAL BOOT KIND INITRAMFS: a boot as lava-jobs takes it.
lava_boot = --boot $(1) $(2) $(3) boot/$(call boot_kernel,$(2))/vmlinux $(4) \
	$(INITRAMFS_TESTS_$(3))
lava_check_boots = $(foreach b,$(2),$(call lava_boot,$(1),$(b),check,\
	$(call check_initramfs,$(call boot_target,$(b)),$(call boot_glibc,$(b)))))
LAVA_BOOTS = $(call lava_check_boots,check-all,$(BOOTS) $(GLIBC_BOOTS)) \
	$(foreach t,$(BOOT_TARGETS),$(foreach k,$(BENCH_KERNELS),\
		$(call lava_boot,bench,$(t)-$(k),bench,boot/initramfs-$(t)-bench.cpio)))

lava-jobs: $(kernel_src)/lava-jobs $(kernel_src)/machines.py $(kernel_src)/check.tests \
		$(kernel_src)/ksft.tests $(kernel_src)/bench.tests Makefile
	$(Q)$(PYTHON) $(kernel_src)/lava-jobs --out=lava --url=$(LAVA_URL) $(LAVA_BOOTS)

$(LAVA_PACKAGES:%=lava-fetch-%): lava-fetch-%:
	$(call fetch_deb,$(LAVA_SUITE),$*,tests/lava/$*)

# The check boot of each target: the newest Linux with its series.
LAVA_RUN_BOOTS = $(filter $(BOOT_TARGETS:%=%-$(call ppctime_config,$(LINUX_NEWEST))),$(BOOTS))
lava_run_tests = $(1:%=boot/lava-run-test-%.sh)
boot/lava-validate-test.sh: Makefile
	$(Q)$(MKDIR_P) $(@D)
	$(Q)printf '#!/bin/sh\nexec "%s" "%s/lava-validate" --lava=%s lava\n' \
		'$(PYTHON)' '$(kernel_src)' '$(call lava_root,lava-common)' >$@
	$(Q)chmod +x $@
boot/lava-run-test-%.sh: Makefile
	$(Q)$(MKDIR_P) $(@D)
	$(Q)printf '#!/bin/sh\nexec "%s" "%s/lava-run-test" --lava=tests/lava --qemu="%s" %s\n' \
		'$(PYTHON)' '$(kernel_src)' '$(QEMU_SYSTEM_$(call boot_target,$*))' '$*' >$@
	$(Q)chmod +x $@

check-lava: lava-jobs $(LAVA_PACKAGES:%=lava-fetch-%) $(call boot_check_deps,$(LAVA_RUN_BOOTS)) \
		$(call lava_run_tests,$(LAVA_RUN_BOOTS))
	$(Q)top_builddir=. srcdir=$(srcdir) $(SHELL) $(srcdir)/tests/run-tests \
		$(call lava_run_tests,$(LAVA_RUN_BOOTS))

TESTS += boot/lava-validate-test.sh
CHECK_DEPS += lava-jobs lava-fetch-lava-common boot/lava-validate-test.sh
CHECK_ALL_DEPS += $(LAVA_PACKAGES:%=lava-fetch-%) $(call boot_check_deps,$(LAVA_RUN_BOOTS)) \
	$(call lava_run_tests,$(LAVA_RUN_BOOTS))
CHECK_ALL_TESTS += $(call lava_run_tests,$(LAVA_RUN_BOOTS))
CLEANFILES += lava tests/lava
.PHONY: lava-jobs check-lava $(LAVA_PACKAGES:%=lava-fetch-%)
