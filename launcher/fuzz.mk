# SPDX-License-Identifier: GPL-2.0
# libFuzzer (with ASan and UBSan) on the vDSO image reader and on what
# ppctime-run reads of a program (launcher/Rules.mk: $(VDSO_IMAGE_OBJS),
# launcher/elf_program.o), seeded with the built vDSO images, the
# vdso-check fixtures and a large image that tests/vdso-image-patch.py
# makes (launcher/fuzz-vdso-image.sh).
# "make fuzz" runs FUZZ_RUNS executions and fails on a crash or sanitizer
# report, or without clang; "make check" runs a few seconds of it, or says
# SKIP and why when clang cannot build it.

FUZZ_CC = clang
FUZZ_CFLAGS = -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=all
FUZZ_RUNS = 1000000
FUZZ_PACKAGES = clang libclang-rt-14-dev

fuzz_bin = launcher/fuzz_vdso_image
fuzz_srcs = $(srcdir)/launcher/fuzz_vdso_image.c \
	$(patsubst launcher/%.o,$(srcdir)/launcher/%.c,$(VDSO_IMAGE_OBJS) launcher/elf_program.o)
fuzz_script = $(srcdir)/launcher/fuzz-vdso-image.sh

$(fuzz_bin): $(fuzz_srcs) $(VDSO_IMAGE_HEADERS) $(srcdir)/launcher/elf_program.h
	$(Q)command -v $(FUZZ_CC) >/dev/null || { echo "$(FUZZ_CC) not found: install the Debian packages $(FUZZ_PACKAGES)" >&2; exit 1; }
	$(quiet) FUZZCC $@
	$(Q)$(MKDIR_P) $(@D)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -I$(srcdir)/launcher -o $@ $(fuzz_srcs) || \
		{ echo "$(FUZZ_CC) cannot build a libFuzzer program: install the Debian packages $(FUZZ_PACKAGES)" >&2; exit 1; }

fuzz: all $(fuzz_bin)
	$(quiet) FUZZ "$(fuzz_bin), $(FUZZ_RUNS) runs"
	$(Q)top_builddir=. srcdir=$(srcdir) FUZZ_RUNS=$(FUZZ_RUNS) $(SHELL) $(fuzz_script)

# make check's smoke run: this file says "ready", or why the fuzzer cannot
# be built here.  Remade every time, so installing clang takes effect.
launcher/fuzz-smoke.status:
	$(Q)$(MKDIR_P) $(@D)
	$(Q)if ! command -v $(FUZZ_CC) >/dev/null; then \
		echo "$(FUZZ_CC) not found: install the Debian packages $(FUZZ_PACKAGES)"; \
	elif $(MAKE) $(fuzz_bin) >$@.log 2>&1; then \
		echo ready; \
	else \
		echo "$(FUZZ_CC) cannot build the fuzzer (see $@.log): install the Debian packages $(FUZZ_PACKAGES)"; \
	fi >$@

CHECK_DEPS += launcher/fuzz-smoke.status
TESTS += $(fuzz_script)
CLEANFILES += $(fuzz_bin) launcher/fuzz-smoke.status launcher/fuzz-smoke.status.log \
	launcher/fuzz-corpus launcher/fuzz.log launcher/fuzz-crash-*
.PHONY: fuzz launcher/fuzz-smoke.status
