# SPDX-License-Identifier: GPL-2.0
# Linux booted under qemu-system with ppctime's vDSO (tests/boot/README.md):
#   boot/linux-ppctime/          linux-src/ with patches/linux-6.1 applied
#   boot/linux-ppctime-7.3/      linux-src-7.3/ with patches/linux-7.3 applied
#                                (patches/linux-sources.mk; kernel_tree_rules)
#   boot/TARGET-CONFIG/vmlinux   CONFIG ppctime (6.1 and its series),
#                                ppctime-VERSION (6.12, 7.3 and theirs) or
#                                linux-VERSION (stock 6.1 and 7.3), built by
#                                tests/boot/build-kernel
#   boot/initramfs-TARGET-KIND.cpio  init and the programs of tests/boot/KIND.tests
# 'make check-kernel' boots the ppctime kernels ('make check' one of them,
# 'make check-all' all);
# 'make bench' boots ppctime-7.3 and linux-7.3, side by side.

kernel_src = $(srcdir)/tests/boot
# The kernels with the series, by Linux version: 6.1's is "ppctime"; and
# stock ones, linux-VERSION, of STOCK_VERSIONS (patches/linux-sources.mk).
ppctime_config = ppctime$(if $(filter-out 6.1,$(1)),-$(1))
PPCTIME_CONFIGS = $(foreach v,$(LINUX_VERSIONS),$(call ppctime_config,$(v)))
# And the newest with the series on ppc32 without the 32-bit time_t system
# calls (time64.config), where its vDSO has only the time64 entries.
TIME64_CONFIG = $(call ppctime_config,$(LINUX_NEWEST))-time64
KERNEL_CONFIGS = $(PPCTIME_CONFIGS) $(TIME64_CONFIG) $(STOCK_VERSIONS:%=linux-%)
KERNEL_FRAGMENTS_ppc32 = common ppc32 time32
KERNEL_FRAGMENTS_ppc64 = common ppc64 ppc64be
KERNEL_FRAGMENTS_ppc64le = common ppc64 ppc64le
# kernel_fragments TARGET CONFIG: a -time64 CONFIG has time64 for time32.
kernel_fragments = $(foreach f,$(if $(filter %-time64,$(2)),$(patsubst time32,time64,\
	$(KERNEL_FRAGMENTS_$(1))),$(KERNEL_FRAGMENTS_$(1))),$(kernel_src)/$(f).config)
# Each configuration's source tree and what makes it.
$(foreach v,$(LINUX_VERSIONS),$(eval KERNEL_TREE_$(call ppctime_config,$(v)) = boot/linux-$(call ppctime_config,$(v))))
KERNEL_TREE_$(TIME64_CONFIG) = $(KERNEL_TREE_$(call ppctime_config,$(LINUX_NEWEST)))
$(foreach v,$(STOCK_VERSIONS),$(eval KERNEL_TREE_linux-$(v) = $(call linux_tree,$(v))))
kernel_tree_dep = $(if $(filter boot/%,$(KERNEL_TREE_$(1))),$(KERNEL_TREE_$(1)).stamp,\
	$(call linux_unpacked,$(1:linux-%=%)))

ifneq ($(LINUX_SOURCE),)
# kernel_rules TARGET CONFIG
define kernel_rules
boot/$(1)-$(2)/vmlinux: $(call kernel_tree_dep,$(2)) \
		$(call kernel_fragments,$(1),$(2)) $(kernel_src)/build-kernel
	+$(Q)bash $(kernel_src)/build-kernel $(1) $(CROSS_$(1)) $(KERNEL_TREE_$(2)) boot/$(1)-$(2) \
		$(HZ) $(call kernel_fragments,$(1),$(2))
	$(Q)touch $$@

# The vDSO alone, in a directory of its own (a minute of both cores).
boot/$(1)-$(2)-vdso/vdso.stamp: $(call kernel_tree_dep,$(2)) \
		$(call kernel_fragments,$(1),$(2)) $(kernel_src)/build-kernel
	+$(Q)bash $(kernel_src)/build-kernel --vdso-only $(1) $(CROSS_$(1)) $(KERNEL_TREE_$(2)) \
		boot/$(1)-$(2)-vdso $(HZ) $(call kernel_fragments,$(1),$(2))
	$(Q)touch $$@
endef
$(foreach t,$(TARGETS),$(foreach c,$(KERNEL_CONFIGS),$(eval $(call kernel_rules,$(t),$(c)))))

# kernel_tree_rules DIR PATCHES VERSION: DIR is Linux VERSION's tree with
# PATCHES applied to hard links of it; each file a patch touches is first
# made a copy of its own.  Files an earlier series touched get a fresh
# copy too, so that their dates tell the kernel's make they changed.
define kernel_tree_rules
$(1).stamp: $(call linux_unpacked,$(3)) $(2)
	$$(quiet) PATCH "$(1) ($(words $(2)) patches)"
	$$(Q)rm -rf $(1) && $(MKDIR_P) $$(@D) && cp -al $(call linux_tree,$(3)) $(1)
	$$(Q)for f in $$$$(cat $$@ 2>/dev/null) $$$$(sed -n 's|^+++ b/||p' $(2)); do \
		if [ -f $(call linux_tree,$(3))/$$$$f ]; then \
			rm -f $(1)/$$$$f && cp $(call linux_tree,$(3))/$$$$f $(1)/$$$$f; \
		fi; \
	done
	$$(Q)for p in $(2); do \
		patch -d $(1) -p1 -s --no-backup-if-mismatch <$$$$p || exit 1; \
	done
	$$(Q)sed -n 's|^+++ b/||p' $(2) >$$@
endef
$(foreach v,$(LINUX_VERSIONS),$(eval $(call kernel_tree_rules,$(KERNEL_TREE_$(call ppctime_config,$(v))),$(call linux_patches,$(v)),$(v))))

# Bisectable: each series' every shorter prefix, series-VERSION-K (its
# first K patches), also builds for each target; the whole series is
# 'make kernels'.  Not in 'make check': a kernel build per prefix and target.
linux_prefixes = $(shell seq 1 $$(($(words $(call linux_patches,$(1))) - 1)))
define series_prefix_rules
KERNEL_TREE_series-$(1)-$(2) = boot/linux-series-$(1)-$(2)
$(call kernel_tree_rules,boot/linux-series-$(1)-$(2),$(wordlist 1,$(2),$(call linux_patches,$(1))),$(1))
$(foreach t,$(TARGETS),$(call kernel_rules,$(t),series-$(1)-$(2)))
SERIES_PREFIX_KERNELS += $(foreach t,$(TARGETS),boot/$(t)-series-$(1)-$(2)/vmlinux)
endef
$(foreach v,$(LINUX_VERSIONS),$(foreach k,$(call linux_prefixes,$(v)),\
	$(eval $(call series_prefix_rules,$(v),$(k)))))
check-series-build: $(SERIES_PREFIX_KERNELS)
	$(Q)echo "check-series-build: every shorter prefix of the series for Linux" \
		"$(LINUX_VERSIONS) built for $(TARGETS)"
endif

# What /init runs, by initramfs (one a line; tests/boot/lava.mk's jobs too).
INITRAMFS_TESTS_check = $(kernel_src)/check.tests $(if $(GUEST_KSFT),$(kernel_src)/ksft.tests)
INITRAMFS_TESTS_bench = $(kernel_src)/bench.tests

# The guest programs: init (static, Debian's libc) and kernel-test, built
# against the sysroot's glibc statically and dynamically; the dynamic one
# finds the sysroot's dynamic linker and libraries under /sysroot.
guest_src = $(kernel_src)/guest
GUEST_INTERP_ppc32 = /lib/ld.so.1
GUEST_INTERP_ppc64 = /lib64/ld64.so.1
GUEST_INTERP_ppc64le = /lib64/ld64.so.2
GUEST_LINK_static = -static
GUEST_LINK_dynamic = -Wl,--dynamic-linker=/sysroot$(GUEST_INTERP_$(1)) \
	-Wl,-rpath,/sysroot/lib:/sysroot/lib64:/sysroot/usr/lib:/sysroot/usr/lib64

# Linux 7.3's own vDSO selftests (their own vdso_call.h makes the calls
# the powerpc way), where its source is here: those tests/boot/ksft.tests
# runs, built static as their Makefile builds them, from its tree; the
# kernel's uapi types vdso_test_correctness takes from the kernel's headers
# come from the cross libc's.
GUEST_KSFT_VERSION = 7.3
GUEST_KSFT = $(if $(filter $(GUEST_KSFT_VERSION),$(LINUX_VERSIONS)),\
	$(notdir $(filter /ksft/%,$(file <$(kernel_src)/ksft.tests))))
guest_ksft_dir = $(call linux_tree,$(GUEST_KSFT_VERSION))/tools/testing/selftests
GUEST_KSFT_CFLAGS_vdso_test_correctness = -include linux/types.h -include linux/posix_types.h

# guest_rules TARGET
define guest_rules
boot/guest/init-$(1) boot/guest/ksft-$(1): boot/guest/%-$(1): $(guest_src)/%.c
	$(Q)$(MKDIR_P) $$(@D)
	$$(quiet) CC "$$@"
	$(Q)$(CROSS_$(1))gcc -std=gnu11 -O2 -Wall -Wextra $(DEPFLAGS) -static -o $$@ $$<

boot/guest/ksft/$(1)/%: $(call linux_unpacked,$(GUEST_KSFT_VERSION))
	$(Q)$(MKDIR_P) $$(@D)
	$$(quiet) CC "$$@"
	$(Q)$(CROSS_$(1))gcc -std=gnu99 -O2 -Wall -static -I$(guest_ksft_dir) \
		$$(GUEST_KSFT_CFLAGS_$$*) -o $$@ $(guest_ksft_dir)/vDSO/parse_vdso.c \
		$(guest_ksft_dir)/vDSO/$$*.c

boot/initramfs-$(1)-bench.cpio: $(kernel_src)/bench.tests $(kernel_src)/mkinitramfs \
		boot/guest/init-$(1) benchtests/vdsotest-$(1)
	$$(quiet) CPIO "$$@"
	$(Q)$(PYTHON) $(kernel_src)/mkinitramfs --out=$$@ --init=boot/guest/init-$(1) \
		$(INITRAMFS_TESTS_bench:%=--tests=%) --root=/usr/$(TRIPLET_$(1)):/ \
		/bin/vdsotest=benchtests/vdsotest-$(1)
endef
$(foreach t,$(TARGETS),$(eval $(call guest_rules,$(t))))
DEPDIRS += boot/guest

# The check initramfs, boot/initramfs-TARGET-check.cpio, with kernel-test
# built against the configured glibc's sysroot; or against glibc VERSION's
# (tests/boot/glibc.mk), boot/initramfs-TARGET-check-glibc-VERSION.cpio.
# check_sysroot TARGET VERSION, check_guest_dir VERSION,
# check_initramfs TARGET VERSION (VERSION empty: the configured glibc).
check_sysroot = sysroot$(if $(2),-$(2))/$(TRIPLET_$(1))
check_guest_dir = boot/guest$(if $(1),/glibc-$(1))
check_initramfs = boot/initramfs-$(1)-check$(if $(2),-glibc-$(2)).cpio

# check_rules TARGET VERSION: /init running check.tests, then the
# kselftests of ksft.tests where they are built, FILES as
# GUEST_PATH=HOST_FILE.
define check_rules
$(call check_guest_dir,$(2))/kernel-test-$(1)-%: $(guest_src)/kernel-test.c \
		$(call check_sysroot,$(1),$(2)).stamp
	$(Q)$(MKDIR_P) $$(@D)
	$$(quiet) CC "$$@"
	$(Q)$(call check_sysroot,$(1),$(2))-gcc -std=gnu11 -O2 -Wall -Wextra $(DEPFLAGS) \
		$(TIME64_CFLAGS_$(1)) $$(call GUEST_LINK_$$*,$(1)) -o $$@ $$<

$(call check_initramfs,$(1),$(2)): $(kernel_src)/check.tests $(kernel_src)/mkinitramfs \
		boot/guest/init-$(1) $(call check_guest_dir,$(2))/kernel-test-$(1)-static \
		$(call check_guest_dir,$(2))/kernel-test-$(1)-dynamic tests/guest/vdso-clock-test-$(1) \
		$(if $(GUEST_KSFT),$(kernel_src)/ksft.tests boot/guest/ksft-$(1) \
			$(GUEST_KSFT:%=boot/guest/ksft/$(1)/%))
	$$(quiet) CPIO "$$@"
	$(Q)$(PYTHON) $(kernel_src)/mkinitramfs --out=$$@ --init=boot/guest/init-$(1) \
		$(INITRAMFS_TESTS_check:%=--tests=%) \
		--root=$(call check_sysroot,$(1),$(2)):/sysroot --root=/usr/$(TRIPLET_$(1)):/ \
		/bin/kernel-test-static=$(call check_guest_dir,$(2))/kernel-test-$(1)-static \
		/bin/kernel-test-dynamic=$(call check_guest_dir,$(2))/kernel-test-$(1)-dynamic \
		/bin/vdso-clock-test=tests/guest/vdso-clock-test-$(1) \
		$(if $(GUEST_KSFT),/bin/ksft=boot/guest/ksft-$(1) \
			$(foreach p,$(GUEST_KSFT),/ksft/$(p)=boot/guest/ksft/$(1)/$(p)))
endef
$(foreach t,$(TARGETS),$(eval $(call check_rules,$(t),)))

# The boot tests run for the targets whose qemu-system configure found,
# each ppctime kernel a boot, named TARGET-CONFIG as its boot/ directory.
BOOT_TARGETS = $(if $(LINUX_SOURCE),$(foreach t,$(TARGETS),$(if $(QEMU_SYSTEM_$(t)),$(t))))
BOOTS = $(foreach t,$(BOOT_TARGETS),$(foreach c,$(PPCTIME_CONFIGS),$(t)-$(c))) \
	$(addsuffix -$(TIME64_CONFIG),$(filter ppc32,$(BOOT_TARGETS)))
boot_target = $(firstword $(subst -, ,$(1)))
# A boot with another glibc's sysroot is named TARGET-CONFIG-glibc-VERSION.
boot_kernel = $(firstword $(subst -glibc-, ,$(1)))
boot_glibc = $(word 2,$(subst -glibc-, ,$(1)))
boot_check_deps = $(foreach b,$(1),boot/$(call boot_kernel,$(b))/vmlinux \
	$(call check_initramfs,$(call boot_target,$(b)),$(call boot_glibc,$(b))))
boot_tests = $(1:%=boot/kernel-boot-test-%.sh)

# make bench: the newest Linux here with the series and as it is, booted
# in turn on each target, each time.
BENCH_KERNELS = $(call ppctime_config,$(LINUX_NEWEST)) linux-$(LINUX_NEWEST)
define kernel_bench_rules
bench/records/kernel-$(1).jsonl: FORCE $(BENCH_KERNELS:%=boot/$(1)-%/vmlinux) \
		run/ppctime-run benchtests/vdso-insns-$(1) \
		boot/initramfs-$(1)-bench.cpio
	$$(quiet) BENCH "$(1): Linux $(LINUX_NEWEST) with the series and as it is, under qemu-system"
	$(Q)$(MKDIR_P) $$(@D)
	$(Q)$(PYTHON) $(kernel_src)/bench-kernel --target=$(1) --qemu=$(QEMU_SYSTEM_$(1)) \
		--cross=$(CROSS_$(1)) --kernel-image=$(KERNEL_IMAGE_$(1)) --srcdir=$(srcdir) \
		--ours=$(word 1,$(BENCH_KERNELS)) --stock=$(word 2,$(BENCH_KERNELS)) \
		--out=$$@ >bench/kernel-$(1).txt
	$(Q)cat bench/kernel-$(1).txt
endef
$(foreach t,$(BOOT_TARGETS),$(eval $(call kernel_bench_rules,$(t))))
# Timed one at a time, on their own: a benchmark beside another measures both.
BENCH_DEPS += $(foreach t,$(BOOT_TARGETS),$(BENCH_KERNELS:%=boot/$(t)-%/vmlinux) \
	boot/initramfs-$(t)-bench.cpio benchtests/vdso-insns-$(t))
BENCH_RUNS += $(foreach t,$(BOOT_TARGETS),bench/records/kernel-$(t).jsonl)

kernels: $(foreach t,$(TARGETS),$(foreach c,$(PPCTIME_CONFIGS),boot/$(t)-$(c)/vmlinux))

check-kernel: $(call boot_check_deps,$(BOOTS)) $(call boot_tests,$(BOOTS))
	$(Q)top_builddir=. srcdir=$(srcdir) $(SHELL) $(srcdir)/tests/run-tests \
		$(call boot_tests,$(BOOTS))

# 'make check-all' boots every kernel; 'make check' none, since each is
# minutes of both cores (a sixth of CI's hour on a slow machine): it
# builds each series' vDSO in its kernel tree and checks it as a booted
# kernel's is, boot/kernel-vdso-test-TARGET-CONFIG.sh: the newest Linux's
# on ppc64le (BOOT_NEWEST, the first boot of check-all and of LAVA's), the
# backports' on ppc32 (the 32-bit entries, the 32-bit delta math).
# BOOT_NEWEST: a pseries guest with two vCPUs, readers on one CPU while
# the kernel's timekeeping updates the page on the other.  Each boot is a
# test of its own, boot/kernel-boot-test-TARGET-CONFIG.sh; without a
# kernel to boot the one test says SKIP and why.
BOOT_NEWEST = $(firstword $(filter ppc64le-$(call ppctime_config,$(lastword $(LINUX_VERSIONS))),$(BOOTS)) \
	$(BOOTS))
VDSO_CI = $(if $(BOOTS),$(BOOT_NEWEST) $(foreach c,$(filter-out $(lastword $(PPCTIME_CONFIGS)),\
	$(PPCTIME_CONFIGS)),$(firstword $(filter ppc32,$(TARGETS)) $(TARGETS))-$(c)))
vdso_tests = $(1:%=boot/kernel-vdso-test-%.sh)
boot/kernel-vdso-test-%.sh: Makefile
	$(Q)$(MKDIR_P) $(@D)
	$(Q)printf '#!/bin/sh\nexec "%s/kernel-boot-test.sh" --vdso-only %s\n' '$(kernel_src)' '$*' >$@
	$(Q)chmod +x $@
boot/kernel-boot-test-%.sh: Makefile
	$(Q)$(MKDIR_P) $(@D)
	$(Q)printf '#!/bin/sh\nexec "%s/kernel-boot-test.sh" %s\n' '$(kernel_src)' '$*' >$@
	$(Q)chmod +x $@

CHECK_GLIBC_DEPS += $(VDSO_CI:%=boot/%-vdso/vdso.stamp)
CHECK_DEPS += $(call vdso_tests,$(VDSO_CI))
TESTS += $(if $(BOOTS),,$(kernel_src)/kernel-boot-test.sh) $(call vdso_tests,$(VDSO_CI))
CHECK_GLIBC_TESTS += $(call vdso_tests,$(VDSO_CI))
CHECK_ALL_DEPS += $(call boot_check_deps,$(BOOTS)) $(call boot_tests,$(BOOTS))
CHECK_ALL_TESTS += $(call boot_tests,$(BOOTS))

include $(kernel_src)/lava.mk $(kernel_src)/glibc.mk

CLEANFILES += boot linux-src.lock
.PHONY: kernels check-kernel check-series-build FORCE
FORCE:
