# SPDX-License-Identifier: GPL-2.0
# The vDSO's entries called directly inside powerpc programs run by
# ppctime-run: tests/guest/vdso-clock-test-TARGET, driven by
# tests/vdso-guest-test.sh.

VDSO_GUEST_LIBS_ppc32 = -latomic

define vdso_guest_rules
tests/guest/vdso-clock-test-$(1): $(srcdir)/tests/guest/vdso-clock-test.c
	$(Q)$(MKDIR_P) $$(@D)
	$$(quiet) CC "$$@"
	$(Q)$(CROSS_$(1))gcc $(GUEST_CFLAGS) -g -pthread -o $$@ $$< \
		-ldl $(VDSO_GUEST_LIBS_$(1))
endef
$(foreach t,$(TARGETS),$(eval $(call vdso_guest_rules,$(t))))

CHECK_DEPS += $(foreach t,$(TARGETS),tests/guest/vdso-clock-test-$(t))
TESTS += $(srcdir)/tests/vdso-guest-test.sh
CLEANFILES += $(foreach t,$(TARGETS),tests/guest/vdso-clock-test-$(t))
