# SPDX-License-Identifier: GPL-2.0
# The seeds' "before" designs, built only for the benchmarks and never
# installed: each benchtests/seeds/NAME.patch applied to a copy of
# vdso-kernel/ in benchtests/seeds/NAME/vdso-kernel/, built as
# benchtests/seeds/NAME/IMAGE.so.  helper-bcl8, helper-bcl4: the data page
# through an out-of-line helper (seed 000's before and after; seed 003
# inlined it); math64: ppc32's delta in full 64-bit math (seed 001's before).

SEED_VARIANTS_ppc32 = helper-bcl8 helper-bcl4 math64
SEED_VARIANTS_ppc64 = helper-bcl8 helper-bcl4
SEED_VARIANTS_ppc64le = helper-bcl8 helper-bcl4
SEED_NAMES = $(sort $(foreach t,$(TARGETS),$(SEED_VARIANTS_$(t))))

# seed_source NAME: the patched copy; each copied file an explicit target,
# so make keeps it.
define seed_source
benchtests/seeds/$(1)/vdso-kernel.stamp: $(srcdir)/benchtests/seeds/$(1).patch $(vdso_sources)
	$$(quiet) PATCH "benchtests/seeds/$(1)/vdso-kernel"
	$(Q)rm -rf benchtests/seeds/$(1)/vdso-kernel
	$(Q)$(MKDIR_P) benchtests/seeds/$(1)/vdso-kernel
	$(Q)cp -R $(vdso_src)/arch $(vdso_src)/include $(vdso_src)/lib benchtests/seeds/$(1)/vdso-kernel/
	$(Q)cd benchtests/seeds/$(1) && $(PATCH) -s -p1 <$$(abspath $$<) || \
		{ echo "$$<: no longer applies to vdso-kernel/: refresh it"; exit 1; }
	$(Q)touch $$@
$(patsubst $(vdso_src)/%,benchtests/seeds/$(1)/vdso-kernel/%,$(vdso_sources)): \
		benchtests/seeds/$(1)/vdso-kernel.stamp ;
endef
$(foreach v,$(SEED_NAMES),$(eval $(call seed_source,$(v))))
$(foreach t,$(TARGETS),$(foreach v,$(SEED_VARIANTS_$(t)),\
	$(eval $(call vdso_rules,$(t),benchtests/seeds/$(v),benchtests/seeds/$(v)/vdso-kernel))))
SEED_IMAGES = $(foreach t,$(TARGETS),$(foreach v,$(SEED_VARIANTS_$(t)),\
	benchtests/seeds/$(v)/$(IMAGE_$(t)).so))

BENCH_DEPS += $(SEED_IMAGES)
CLEANFILES += $(addprefix benchtests/seeds/,$(SEED_NAMES))
