# SPDX-License-Identifier: GPL-2.0
# libFuzzer (with ASan and UBSan) on the vDSO image reader and on what
# ppctime-run reads of a program (elf/Rules.mk: $(VDSO_IMAGE_OBJS),
# $(ELF_PROGRAM_OBJS)), seeded with the built vDSO images, the
# vdso-check fixtures and a large image that tests/vdso-image-patch.py
# makes (elf/fuzz-vdso-image.sh).
# "make fuzz" runs FUZZ_RUNS executions and fails on a crash or sanitizer
# report, or without clang; "make check" runs a few seconds of it, or says
# SKIP and why when clang cannot build it.

FUZZ_CC = clang
FUZZ_CFLAGS = -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=all
FUZZ_RUNS = 1000000
FUZZ_PACKAGES = clang libclang-rt-dev

fuzz_bin = elf/fuzz_vdso_image
fuzz_srcs = $(srcdir)/elf/fuzz_vdso_image.c \
	$(patsubst elf/%.o,$(srcdir)/elf/%.c,$(VDSO_IMAGE_OBJS) $(ELF_PROGRAM_OBJS))
fuzz_script = $(srcdir)/elf/fuzz-vdso-image.sh

# One compile of many sources: its headers are named here.
$(fuzz_bin): $(fuzz_srcs) $(wildcard $(srcdir)/elf/*.h $(srcdir)/include/ppctime/*.h)
	$(Q)command -v $(FUZZ_CC) >/dev/null || { echo "$(FUZZ_CC) not found: install the Debian packages $(FUZZ_PACKAGES)" >&2; exit 1; }
	$(quiet) FUZZCC $@
	$(Q)$(MKDIR_P) $(@D)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $(ELF_CPPFLAGS) -o $@ $(fuzz_srcs) || \
		{ echo "$(FUZZ_CC) cannot build a libFuzzer program: install the Debian packages $(FUZZ_PACKAGES)" >&2; exit 1; }

fuzz: all $(fuzz_bin)
	$(quiet) FUZZ "$(fuzz_bin), $(FUZZ_RUNS) runs"
	$(Q)top_builddir=. srcdir=$(srcdir) FUZZ_RUNS=$(FUZZ_RUNS) $(SHELL) $(fuzz_script)

# make check's smoke run: this file says "ready", or why the fuzzer cannot
# be built here.  Remade every time, so installing clang takes effect.
elf/fuzz-smoke.status:
	$(Q)$(MKDIR_P) $(@D)
	$(Q)if ! command -v $(FUZZ_CC) >/dev/null; then \
		echo "$(FUZZ_CC) not found: install the Debian packages $(FUZZ_PACKAGES)"; \
	elif $(MAKE) $(fuzz_bin) >$@.log 2>&1; then \
		echo ready; \
	else \
		echo "$(FUZZ_CC) cannot build the fuzzer (see $@.log): install the Debian packages $(FUZZ_PACKAGES)"; \
	fi >$@

CHECK_DEPS += elf/fuzz-smoke.status
TESTS += $(fuzz_script)
CLEANFILES += $(fuzz_bin) elf/fuzz-smoke.status elf/fuzz-smoke.status.log \
	elf/fuzz-corpus elf/fuzz.log elf/fuzz-crash-*
.PHONY: fuzz elf/fuzz-smoke.status
