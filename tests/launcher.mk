# SPDX-License-Identifier: GPL-2.0
# The tests of ppctime-run, the daemon, binfmt and the chroot handler
# (tests/launcher-test.sh, timekeeperd-test.sh, keeper-test.sh,
# binfmt-test.sh, chroot-test.sh) and their guest programs, per target:
# tests/guest/launcher-probe[-static|-nopie]-TARGET, tests/guest/origin-TARGET/
# (a program and its $ORIGIN library) and tests/guest/mini-sh-TARGET (a
# script's interpreter, binfmt-test.sh).

LAUNCHER_PROBES = $(foreach t,$(TARGETS),tests/guest/launcher-probe-$(t) \
	tests/guest/launcher-probe-static-$(t) tests/guest/launcher-probe-nopie-$(t) \
	tests/guest/mini-sh-$(t) tests/guest/origin-$(t)/origin-probe \
	tests/guest/origin-$(t)/lib/libppctime-origin.so)

define launcher_probe_rules
tests/guest/launcher-probe-$(1): $(srcdir)/tests/guest/launcher-probe.c
	$(Q)$(MKDIR_P) $$(@D)
	$$(quiet) CC $$@
	$(Q)$(CROSS_$(1))gcc $(GUEST_CFLAGS) -o $$@ $$<

tests/guest/launcher-probe-static-$(1): $(srcdir)/tests/guest/launcher-probe.c
	$(Q)$(MKDIR_P) $$(@D)
	$$(quiet) CC $$@
	$(Q)$(CROSS_$(1))gcc $(GUEST_CFLAGS) -static -o $$@ $$<

tests/guest/mini-sh-$(1): $(srcdir)/tests/guest/mini-sh.c
	$(Q)$(MKDIR_P) $$(@D)
	$$(quiet) CC $$@
	$(Q)$(CROSS_$(1))gcc $(GUEST_CFLAGS) -static -o $$@ $$<

tests/guest/launcher-probe-nopie-$(1): $(srcdir)/tests/guest/launcher-probe.c
	$(Q)$(MKDIR_P) $$(@D)
	$$(quiet) CC $$@
	$(Q)$(CROSS_$(1))gcc $(GUEST_CFLAGS) -no-pie -o $$@ $$<

# A program whose library only its RUNPATH $$ORIGIN/lib finds.
tests/guest/origin-$(1)/lib/libppctime-origin.so: $(srcdir)/tests/guest/origin-lib.c
	$(Q)$(MKDIR_P) $$(@D)
	$$(quiet) CC $$@
	$(Q)$(CROSS_$(1))gcc $(GUEST_CFLAGS) -shared -fPIC -o $$@ $$<

tests/guest/origin-$(1)/origin-probe: $(srcdir)/tests/guest/origin-probe.c \
		tests/guest/origin-$(1)/lib/libppctime-origin.so
	$$(quiet) CC $$@
	$(Q)$(CROSS_$(1))gcc $(GUEST_CFLAGS) -o $$@ $$< \
		-Ltests/guest/origin-$(1)/lib -lppctime-origin \
		-Wl,--enable-new-dtags,-rpath,'$$$$ORIGIN/lib'
endef
$(foreach t,$(TARGETS),$(eval $(call launcher_probe_rules,$(t))))
DEPDIRS += tests/guest $(foreach t,$(TARGETS),tests/guest/origin-$(t) tests/guest/origin-$(t)/lib)

# A big-endian ppc64 program of ABI version 2, which its header declares.
ifneq ($(filter ppc64,$(TARGETS)),)
LAUNCHER_PROBES += tests/guest/elfv2-probe-ppc64
tests/guest/elfv2-probe-ppc64: $(srcdir)/tests/guest/elfv2-probe.S
	$(Q)$(MKDIR_P) $(@D)
	$(quiet) AS $@
	$(Q)$(CROSS_ppc64)gcc -nostdlib -static -o $@ $<
endif

# A static QEMU's stand-in that is not a PIE (launch-fidelity-test.sh),
# for the host: built with the host's static C library.
tests/fake-qemu-nopie: $(srcdir)/tests/fake-qemu.c
	$(quiet) CC $@
	$(Q)$(CC) $(HOST_CFLAGS) -O2 -static -no-pie -o $@ $<

TESTS += $(srcdir)/tests/launcher-test.sh $(srcdir)/tests/launch-fidelity-test.sh \
	$(srcdir)/tests/timekeeperd-test.sh $(srcdir)/tests/keeper-test.sh \
	$(srcdir)/tests/binfmt-test.sh \
	$(srcdir)/tests/chroot-test.sh
CHECK_DEPS += $(LAUNCHER_PROBES) tests/fake-qemu-nopie
INSTALLCHECK_DEPS += $(LAUNCHER_PROBES)
DISTCHECK_TESTS += $(srcdir)/tests/launcher-test.sh
RELEASE_TESTS += $(srcdir)/tests/launcher-test.sh $(srcdir)/tests/launch-fidelity-test.sh \
	$(srcdir)/tests/binfmt-test.sh $(srcdir)/tests/chroot-test.sh
CLEANFILES += tests/qemu-user-static tests/qemu-user-static.lock tests/timekeeperd \
	tests/fake-qemu-nopie \
	$(LAUNCHER_PROBES) $(foreach t,$(TARGETS),tests/guest/origin-$(t))
