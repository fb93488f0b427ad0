# SPDX-License-Identifier: GPL-2.0
# vdso-check: the host program that checks vDSO images against the rules in
# tests/vdso-check.c, the small bad images (tests/bad-vdso/fixtures) it must
# reject, and the test that runs it on both (tests/vdso-check.sh).

VDSO_CHECK = tests/vdso-check

# The rules and main (vdso-check.c), the code they read (vdso-code.c).
VDSO_CHECK_OBJS = tests/vdso-check.o tests/vdso-code.o
$(VDSO_CHECK_OBJS): tests/%.o: $(srcdir)/tests/%.c Makefile
	$(Q)$(MKDIR_P) $(@D)
	$(quiet) CC $@
	$(Q)$(CC) $(HOST_CFLAGS) $(CPPFLAGS) $(ELF_CPPFLAGS) -I$(srcdir) -c -o $@ $<

$(VDSO_CHECK): $(VDSO_CHECK_OBJS) $(VDSO_IMAGE_OBJS)
	$(quiet) LD $@
	$(Q)$(CC) $(HOST_CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^)

BAD_VDSO_DIR = $(srcdir)/tests/bad-vdso
# The linker script exports the real image's entries, from its list.
BAD_VDSO_SRCS = $(BAD_VDSO_DIR)/vdso.S $(BAD_VDSO_DIR)/vdso.lds.S $(BAD_VDSO_DIR)/fixtures \
		$(srcdir)/vdso-kernel/arch/powerpc/vdso/vdso_entries.lds.h
# Faults made at link time; a later -soname or --hash-style wins.
BAD_VDSO_LDFLAGS_bad-soname = -Wl,-soname=linux-vdso.so.1
BAD_VDSO_LDFLAGS_sysv-hash = -Wl,--hash-style=sysv

# The fixtures a target has: "all" or the target in the list's third column
# (comment lines start with no letter).
bad_vdso_names = $(shell awk '$$1 ~ /^[a-z]/ && ($$3 == "all" || \
	index("," $$3 ",", ",$(1),")) { print $$1 }' $(BAD_VDSO_DIR)/fixtures)

# $(1) = target.  Like the real images: an unstripped NAME.so.dbg (ld marks
# .dynamic and .got writable; the rules want no SHF_WRITE, so the flags are
# reset) and NAME.so stripped from it.
define bad_vdso_rules
tests/bad-vdso/$(1)/%.so.dbg: $(BAD_VDSO_SRCS)
	$$(quiet) LD $$@
	$(Q)$$(MKDIR_P) $$(@D)
	$(Q)$$(CROSS_$(1))gcc -E -P -x c -DFIXTURE_$$(subst -,_,$$*) -I$(srcdir) \
		$(BAD_VDSO_DIR)/vdso.lds.S -o tests/bad-vdso/$(1)/$$*.lds
	$(Q)$$(CROSS_$(1))gcc -c -DFIXTURE_$$(subst -,_,$$*) \
		$(BAD_VDSO_DIR)/vdso.S -o tests/bad-vdso/$(1)/$$*.o
	$(Q)$$(CROSS_$(1))gcc -nostdlib -shared -Wl,--hash-style=both \
		-Wl,-soname=$$(SONAME_$(1)) $$(BAD_VDSO_LDFLAGS_$$*) \
		-Wl,-T,tests/bad-vdso/$(1)/$$*.lds -o $$@.tmp tests/bad-vdso/$(1)/$$*.o
	$(Q)$$(CROSS_$(1))objcopy --set-section-flags .dynamic=alloc,load,readonly,data \
		--set-section-flags .got=alloc,load,readonly,data $$@.tmp $$@
	$(Q)rm -f $$@.tmp

tests/bad-vdso/$(1)/%.so: tests/bad-vdso/$(1)/%.so.dbg
	$(Q)$$(CROSS_$(1))objcopy -S $$< $$@

BAD_VDSO_FILES += $(foreach n,$(call bad_vdso_names,$(1)), \
	tests/bad-vdso/$(1)/$(n).so tests/bad-vdso/$(1)/$(n).so.dbg)
endef
BAD_VDSO_FILES =
$(foreach t,$(TARGETS),$(eval $(call bad_vdso_rules,$(t))))

CHECK_DEPS += $(VDSO_CHECK) $(BAD_VDSO_FILES)
TESTS += $(srcdir)/tests/vdso-check.sh
DISTCHECK_TESTS += $(srcdir)/tests/vdso-check.sh
RELEASE_TESTS += $(srcdir)/tests/vdso-check.sh
# Only what the build made: the fixtures' sources live beside it in tests/bad-vdso.
CLEANFILES += $(VDSO_CHECK) $(VDSO_CHECK_OBJS) $(foreach t,$(TARGETS),tests/bad-vdso/$(t))
