# SPDX-License-Identifier: GPL-2.0
# The guest loader, loader/ppctime-loader-TARGET (LOADER_T), that QEMU runs
# in the program's place (ppctime/launch_protocol.h): static, with no C library
# (its own _start and system calls; no loop turned into a call of the
# memset it does not have; no unwind tables, nothing unwinds it), and
# linked well above 0x10000000 where static ET_EXEC programs sit (Debian's
# cross toolchains have no static-pie).

LOADER_CFLAGS = -std=gnu11 -Wall -Wextra -O2 -ffreestanding -fno-stack-protector -fno-pie \
	-fno-tree-loop-distribute-patterns -fno-asynchronous-unwind-tables -fno-unwind-tables
LOADER_LDFLAGS = -nostdlib -static -no-pie -Wl,-Ttext-segment=0x30000000
LOADERS = $(foreach t,$(TARGETS),loader/$(LOADER_$(t)))
define loader_rules
loader/$(LOADER_$(1)): $(srcdir)/loader/ppctime-loader.c Makefile
	$(Q)$(MKDIR_P) $$(@D)
	$$(quiet) CC $$@
	$(Q)$(CROSS_$(1))gcc $(LOADER_CFLAGS) $(DEPFLAGS) $(LOADER_LDFLAGS) -I$(srcdir)/include \
		-o $$@ $$<
endef
$(foreach t,$(TARGETS),$(eval $(call loader_rules,$(t))))

ALL += $(LOADERS)
# QEMU runs only files with an execute bit.
INSTALL_LIBEXEC += $(LOADERS)
DEPDIRS += loader
CLEANFILES += $(LOADERS)
