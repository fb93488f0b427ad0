# SPDX-License-Identifier: GPL-2.0
# The vDSO images: for each target (targets.txt: vdso32, vdso64, vdso64le)
# one per data layout (<vdso/datapage.h>), from the one core: Linux 6.1's
# as vdso-kernel/IMAGE.so, the generic datastore's (6.17 on) as
# vdso-kernel/IMAGE-datastore.so; each linked as NAME.so.dbg (symbols kept)
# and stripped to NAME.so.

vdso_src = $(srcdir)/vdso-kernel
# Every source of an image; benchtests/seeds.mk copies them.
vdso_sources = $(wildcard $(vdso_src)/lib/*.c $(vdso_src)/include/vdso/*.h \
	$(vdso_src)/arch/powerpc/include/asm/vdso/*.h $(vdso_src)/arch/powerpc/vdso/*)
# Go before 1.16 assumed the vDSO preserves r30.
VDSO_CFLAGS_ppc64 = -ffixed-r30
VDSO_CFLAGS_ppc64le = -ffixed-r30

VDSO_ASM = gettimeofday datapage getcpu note
# Per layout: its VDSO_LAYOUT_* and what its image's name adds.
VDSO_LAYOUTS = 6.1 datastore
VDSO_LAYOUT_6.1 = VDSO_LAYOUT_6_1
VDSO_LAYOUT_datastore = VDSO_LAYOUT_DATASTORE
VDSO_IMAGE_SUFFIX_datastore = -datastore
# vdso_image TARGET LAYOUT: the image's name, without .so.
vdso_image = $(IMAGE_$(1))$(VDSO_IMAGE_SUFFIX_$(2))
VDSO_IMAGES = $(foreach t,$(TARGETS),$(foreach l,$(VDSO_LAYOUTS),\
	vdso-kernel/$(call vdso_image,$(t),$(l)).so))

# r11 carries the entries' return address across the C (gettimeofday.S).
# Hoisted loop invariants serve only the cold paths (writer waits, time
# namespaces) but cost the fast path registers.
# The source directory $(2) is named vdso-kernel in the debug information,
# wherever it is (a seed's copy too): FILE_PREFIX_MAP.  $(3): the layout.
# The images have the ppc32 entries of a 32-bit time_t, as a kernel built
# with COMPAT_32BIT_TIME (Debian's) has.
vdso_cppflags = -I$(2)/include -I$(2)/arch/powerpc/include \
	-DPAGE_SIZE=$(PAGE_SIZE_$(1)) -DHZ=$(HZ) -DVDSO_LAYOUT=$(VDSO_LAYOUT_$(3)) \
	-DCONFIG_COMPAT_32BIT_TIME \
	$(FILE_PREFIX_MAP) -ffile-prefix-map=$(abspath $(2))=vdso-kernel
vdso_cflags = -std=gnu11 -O2 -g -Wall -Wextra -fPIC -ffreestanding \
	-fno-builtin -fno-common -fno-stack-protector \
	-fasynchronous-unwind-tables -fno-move-loop-invariants -ffixed-r11 \
	$(VDSO_CFLAGS_$(1))

# vdso_rules TARGET DIR SOURCE [LAYOUT]: DIR/NAME.so and DIR/NAME.so.dbg for
# TARGET and LAYOUT (default 6.1), objects in DIR/TARGET/ (6.1) or
# DIR/TARGET-LAYOUT/, from SOURCE, a vdso-kernel/ tree.
define vdso_rules
$(eval vdso_l := $(or $(4),6.1))
$(eval vdso_o := $(2)/$(1)$(if $(VDSO_IMAGE_SUFFIX_$(vdso_l)),-$(vdso_l)))
$(eval vdso_so := $(2)/$(call vdso_image,$(1),$(vdso_l)))
$(vdso_o)/vgettimeofday.o: $(3)/arch/powerpc/vdso/vgettimeofday.c
	$(Q)$(MKDIR_P) $$(@D)
	$$(quiet) CC "$$@"
	$(Q)$(CROSS_$(1))gcc $(call vdso_cppflags,$(1),$(3),$(vdso_l)) $(call vdso_cflags,$(1)) \
		$(DEPFLAGS) -c -o $$@ $$<

$(vdso_o)/%.o: $(3)/arch/powerpc/vdso/%.S
	$(Q)$(MKDIR_P) $$(@D)
	$$(quiet) AS "$$@"
	$(Q)$(CROSS_$(1))gcc $(call vdso_cppflags,$(1),$(3),$(vdso_l)) -D__ASSEMBLER__ \
		$(DEPFLAGS) -c -o $$@ $$<

$(vdso_o)/vdso.lds: $(3)/arch/powerpc/vdso/vdso.lds.S
	$(Q)$(MKDIR_P) $$(@D)
	$(Q)$(CROSS_$(1))gcc $(call vdso_cppflags,$(1),$(3),$(vdso_l)) -D__ASSEMBLER__ -Upowerpc -E -P \
		-x assembler-with-cpp $(DEPFLAGS) -MT $$@ -MF $$@.d -o $$@ $$<

$(vdso_so).so.dbg: $(vdso_o)/vdso.lds \
		$(addprefix $(vdso_o)/,$(addsuffix .o,$(VDSO_ASM) vgettimeofday))
	$$(quiet) LD "$$@"
	$(Q)$(CROSS_$(1))gcc -shared -nostdlib -Wl,-T,$(vdso_o)/vdso.lds \
		-Wl,-soname=$(SONAME_$(1)) -Wl,--hash-style=both \
		-Wl,--eh-frame-hdr -Wl,--build-id=sha1 -Wl,-z,noexecstack \
		-Wl,--no-undefined -o $$@ $$(filter %.o,$$^)

# ld flags .dynamic and .got writable by habit; they lie in the image's one
# read-only segment and nothing writes them, so the headers say so too.
$(vdso_so).so: $(vdso_so).so.dbg
	$$(quiet) STRIP "$$@"
	$(Q)$(CROSS_$(1))objcopy -S --set-section-flags .dynamic=alloc,readonly,contents \
		--set-section-flags .got=alloc,readonly,contents $$< $$@
DEPDIRS += $(vdso_o)
CLEANFILES += $(vdso_o) $(vdso_so).so $(vdso_so).so.dbg
endef
$(foreach t,$(TARGETS),$(foreach l,$(VDSO_LAYOUTS),\
	$(eval $(call vdso_rules,$(t),vdso-kernel,$(vdso_src),$(l)))))

ALL += $(VDSO_IMAGES)
INSTALL_LIB += $(VDSO_IMAGES)
