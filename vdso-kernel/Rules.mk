# SPDX-License-Identifier: GPL-2.0
# The vDSO images: vdso-kernel/vdso32.so, vdso64.so, vdso64le.so, each
# linked as NAME.so.dbg (symbols kept) and stripped to NAME.so.

vdso_src = $(srcdir)/vdso-kernel
vdso_arch = $(vdso_src)/arch/powerpc/vdso
VDSO_NAME_ppc32 = vdso32
VDSO_NAME_ppc64 = vdso64
VDSO_NAME_ppc64le = vdso64le
VDSO_SONAME_ppc32 = linux-vdso32.so.1
VDSO_SONAME_ppc64 = linux-vdso64.so.1
VDSO_SONAME_ppc64le = linux-vdso64.so.1
# Go before 1.16 assumed the vDSO preserves r30.
VDSO_CFLAGS_ppc64 = -ffixed-r30
VDSO_CFLAGS_ppc64le = -ffixed-r30

VDSO_ASM = gettimeofday datapage getcpu note
VDSO_IMAGES = $(foreach t,$(TARGETS),vdso-kernel/$(VDSO_NAME_$(t)).so)

# r11 carries the entries' return address across the C (gettimeofday.S).
# Hoisted loop invariants serve only the cold paths (writer waits, time
# namespaces) but cost the fast path registers.
vdso_cppflags = -I$(vdso_src)/include -I$(vdso_src)/arch/powerpc/include \
	-DPAGE_SIZE=$(PAGE_SIZE_$(1)) -DHZ=$(HZ)
vdso_cflags = -std=gnu11 -O2 -g -Wall -Wextra -fPIC -ffreestanding \
	-fno-builtin -fno-common -fno-stack-protector \
	-fasynchronous-unwind-tables -fno-move-loop-invariants -ffixed-r11 \
	$(VDSO_CFLAGS_$(1))

# vdso_rules TARGET DIR FLAGS: DIR/NAME.so and DIR/NAME.so.dbg for TARGET,
# objects in DIR/TARGET/, built with the extra preprocessor FLAGS.
define vdso_rules
$(2)/$(1)/vgettimeofday.o: $(vdso_arch)/vgettimeofday.c \
		$(vdso_src)/lib/gettimeofday.c $(wildcard $(vdso_src)/include/vdso/*.h \
		$(vdso_src)/arch/powerpc/include/asm/vdso/*.h)
	@$(MKDIR_P) $$(@D)
	$$(quiet) CC "$$@"
	@$(CROSS_$(1))gcc $(call vdso_cppflags,$(1)) $(3) $(call vdso_cflags,$(1)) \
		-c -o $$@ $$<

$(2)/$(1)/%.o: $(vdso_arch)/%.S $(vdso_arch)/vdso_asm.h \
		$(vdso_src)/include/vdso/datapage.h
	@$(MKDIR_P) $$(@D)
	$$(quiet) AS "$$@"
	@$(CROSS_$(1))gcc $(call vdso_cppflags,$(1)) $(3) -D__ASSEMBLER__ -c -o $$@ $$<

$(2)/$(1)/vdso.lds: $(vdso_arch)/vdso.lds.S $(vdso_src)/include/vdso/datapage.h
	@$(MKDIR_P) $$(@D)
	@$(CROSS_$(1))gcc $(call vdso_cppflags,$(1)) -D__ASSEMBLER__ -Upowerpc -E -P \
		-x assembler-with-cpp -o $$@ $$<

$(2)/$(VDSO_NAME_$(1)).so.dbg: $(2)/$(1)/vdso.lds \
		$(addprefix $(2)/$(1)/,$(addsuffix .o,$(VDSO_ASM) vgettimeofday))
	$$(quiet) LD "$$@"
	@$(CROSS_$(1))gcc -shared -nostdlib -Wl,-T,$(2)/$(1)/vdso.lds \
		-Wl,-soname=$(VDSO_SONAME_$(1)) -Wl,--hash-style=both \
		-Wl,--eh-frame-hdr -Wl,--build-id=sha1 -Wl,-z,noexecstack \
		-Wl,--no-undefined -o $$@ $$(filter %.o,$$^)

# ld flags .dynamic and .got writable by habit; they lie in the image's one
# read-only segment and nothing writes them, so the headers say so too.
$(2)/$(VDSO_NAME_$(1)).so: $(2)/$(VDSO_NAME_$(1)).so.dbg
	$$(quiet) STRIP "$$@"
	@$(CROSS_$(1))objcopy -S --set-section-flags .dynamic=alloc,readonly,contents \
		--set-section-flags .got=alloc,readonly,contents $$< $$@
endef
$(foreach t,$(TARGETS),$(eval $(call vdso_rules,$(t),vdso-kernel)))

# The seeds' "before" designs, built only for the benchmarks and never
# installed: the data page through an out-of-line helper with bcl+8 (seed
# 000's before) or bcl+4 (its after; seed 003 inlined it), and ppc32's
# delta in full 64-bit math (seed 001's before).
VDSO_VARIANT_FLAGS_helper-bcl8 = -DVDSO_VARIANT_DATAPAGE_HELPER=8
VDSO_VARIANT_FLAGS_helper-bcl4 = -DVDSO_VARIANT_DATAPAGE_HELPER=4
VDSO_VARIANT_FLAGS_math64 = -DVDSO_VARIANT_MATH64
VDSO_VARIANTS_ppc32 = helper-bcl8 helper-bcl4 math64
VDSO_VARIANTS_ppc64 = helper-bcl8 helper-bcl4
VDSO_VARIANTS_ppc64le = helper-bcl8 helper-bcl4
$(foreach t,$(TARGETS),$(foreach v,$(VDSO_VARIANTS_$(t)),\
	$(eval $(call vdso_rules,$(t),vdso-kernel/variants/$(v),$(VDSO_VARIANT_FLAGS_$(v))))))
VDSO_VARIANT_IMAGES = $(foreach t,$(TARGETS),$(foreach v,$(VDSO_VARIANTS_$(t)),\
	vdso-kernel/variants/$(v)/$(VDSO_NAME_$(t)).so))

ALL += $(VDSO_IMAGES)
INSTALL_LIB += $(VDSO_IMAGES)
BENCH_DEPS += $(VDSO_VARIANT_IMAGES)
CLEANFILES += $(foreach t,$(TARGETS),vdso-kernel/$(t) vdso-kernel/$(VDSO_NAME_$(t)).so \
	vdso-kernel/$(VDSO_NAME_$(t)).so.dbg) vdso-kernel/variants
