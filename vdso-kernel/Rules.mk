# SPDX-License-Identifier: GPL-2.0
# The vDSO images: vdso-kernel/IMAGE.so for each target (targets.txt:
# vdso32.so, vdso64.so, vdso64le.so), each linked as IMAGE.so.dbg (symbols
# kept) and stripped to IMAGE.so.

vdso_src = $(srcdir)/vdso-kernel
# Every source of an image; benchtests/seeds.mk copies them.
vdso_sources = $(wildcard $(vdso_src)/lib/*.c $(vdso_src)/include/vdso/*.h \
	$(vdso_src)/arch/powerpc/include/asm/vdso/*.h $(vdso_src)/arch/powerpc/vdso/*)
# Go before 1.16 assumed the vDSO preserves r30.
VDSO_CFLAGS_ppc64 = -ffixed-r30
VDSO_CFLAGS_ppc64le = -ffixed-r30

VDSO_ASM = gettimeofday datapage getcpu note
VDSO_IMAGES = $(foreach t,$(TARGETS),vdso-kernel/$(IMAGE_$(t)).so)

# r11 carries the entries' return address across the C (gettimeofday.S).
# Hoisted loop invariants serve only the cold paths (writer waits, time
# namespaces) but cost the fast path registers.
# The source directory $(2) is named vdso-kernel in the debug information,
# wherever it is (a seed's copy too): FILE_PREFIX_MAP.
vdso_cppflags = -I$(2)/include -I$(2)/arch/powerpc/include \
	-DPAGE_SIZE=$(PAGE_SIZE_$(1)) -DHZ=$(HZ) \
	$(FILE_PREFIX_MAP) -ffile-prefix-map=$(abspath $(2))=vdso-kernel
vdso_cflags = -std=gnu11 -O2 -g -Wall -Wextra -fPIC -ffreestanding \
	-fno-builtin -fno-common -fno-stack-protector \
	-fasynchronous-unwind-tables -fno-move-loop-invariants -ffixed-r11 \
	$(VDSO_CFLAGS_$(1))

# vdso_rules TARGET DIR SOURCE: DIR/IMAGE.so and DIR/IMAGE.so.dbg for TARGET,
# objects in DIR/TARGET/, from SOURCE, a vdso-kernel/ tree.
define vdso_rules
$(2)/$(1)/vgettimeofday.o: $(3)/arch/powerpc/vdso/vgettimeofday.c
	$(Q)$(MKDIR_P) $$(@D)
	$$(quiet) CC "$$@"
	$(Q)$(CROSS_$(1))gcc $(call vdso_cppflags,$(1),$(3)) $(call vdso_cflags,$(1)) \
		$(DEPFLAGS) -c -o $$@ $$<

$(2)/$(1)/%.o: $(3)/arch/powerpc/vdso/%.S
	$(Q)$(MKDIR_P) $$(@D)
	$$(quiet) AS "$$@"
	$(Q)$(CROSS_$(1))gcc $(call vdso_cppflags,$(1),$(3)) -D__ASSEMBLER__ $(DEPFLAGS) -c -o $$@ $$<

$(2)/$(1)/vdso.lds: $(3)/arch/powerpc/vdso/vdso.lds.S
	$(Q)$(MKDIR_P) $$(@D)
	$(Q)$(CROSS_$(1))gcc $(call vdso_cppflags,$(1),$(3)) -D__ASSEMBLER__ -Upowerpc -E -P \
		-x assembler-with-cpp $(DEPFLAGS) -MT $$@ -MF $$@.d -o $$@ $$<

$(2)/$(IMAGE_$(1)).so.dbg: $(2)/$(1)/vdso.lds \
		$(addprefix $(2)/$(1)/,$(addsuffix .o,$(VDSO_ASM) vgettimeofday))
	$$(quiet) LD "$$@"
	$(Q)$(CROSS_$(1))gcc -shared -nostdlib -Wl,-T,$(2)/$(1)/vdso.lds \
		-Wl,-soname=$(SONAME_$(1)) -Wl,--hash-style=both \
		-Wl,--eh-frame-hdr -Wl,--build-id=sha1 -Wl,-z,noexecstack \
		-Wl,--no-undefined -o $$@ $$(filter %.o,$$^)

# ld flags .dynamic and .got writable by habit; they lie in the image's one
# read-only segment and nothing writes them, so the headers say so too.
$(2)/$(IMAGE_$(1)).so: $(2)/$(IMAGE_$(1)).so.dbg
	$$(quiet) STRIP "$$@"
	$(Q)$(CROSS_$(1))objcopy -S --set-section-flags .dynamic=alloc,readonly,contents \
		--set-section-flags .got=alloc,readonly,contents $$< $$@
DEPDIRS += $(2)/$(1)
endef
$(foreach t,$(TARGETS),$(eval $(call vdso_rules,$(t),vdso-kernel,$(vdso_src))))

ALL += $(VDSO_IMAGES)
INSTALL_LIB += $(VDSO_IMAGES)
CLEANFILES += $(foreach t,$(TARGETS),vdso-kernel/$(t) vdso-kernel/$(IMAGE_$(t)).so \
	vdso-kernel/$(IMAGE_$(t)).so.dbg)
