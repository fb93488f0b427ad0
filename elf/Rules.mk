# SPDX-License-Identifier: GPL-2.0
# The ELF reader (elf_file.h), what ppctime-run reads of a program
# (elf_program.h) and the vDSO image rules (vdso_image.h): objects that
# ppctime-run, tests/vdso-check, tests/vdso-image-probe and the fuzzer
# (elf/fuzz.mk) link.

ELF_CPPFLAGS = $(CONTRACT_CPPFLAGS)
VDSO_IMAGE_OBJS = elf/elf_file.o elf/vdso_image.o elf/vdso_dynamic.o elf/vdso_guest_rules.o \
	elf/vdso_notes.o elf/vdso_page_size.o
ELF_PROGRAM_OBJS = elf/elf_program.o
$(eval $(call host_objects,elf,$(ELF_CPPFLAGS)))

CLEANFILES += $(VDSO_IMAGE_OBJS) $(ELF_PROGRAM_OBJS)

include $(srcdir)/elf/fuzz.mk
