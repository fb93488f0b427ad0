# SPDX-License-Identifier: GPL-2.0
# 'make check-all' boots the newest Linux on ppc64le (BOOT_NEWEST) once more
# for each other glibc version with a sysroot (sysdeps/Rules.mk), its
# kernel-test built against that sysroot: as TARGET-CONFIG-glibc-VERSION
# (tests/boot/Rules.mk's check_rules).  So each version's glibc reads every
# clock with no system call in a real kernel, and from 2.41 fills
# getrandom() through the kernel's __kernel_getrandom.  Included after
# sysdeps/Rules.mk, which says which versions those are.

GLIBC_BOOTS = $(foreach v,$(GLIBC_OTHER_VERSIONS),$(BOOT_NEWEST:%=%-glibc-$(v)))
$(foreach v,$(GLIBC_OTHER_VERSIONS),$(foreach t,$(TARGETS),$(eval $(call check_rules,$(t),$(v)))))
DEPDIRS += $(GLIBC_OTHER_VERSIONS:%=boot/guest/glibc-%)
CHECK_ALL_DEPS += $(call boot_check_deps,$(GLIBC_BOOTS)) $(call boot_tests,$(GLIBC_BOOTS))
CHECK_ALL_TESTS += $(call boot_tests,$(GLIBC_BOOTS))
