# SPDX-License-Identifier: GPL-2.0
# The benchmarks: "make bench" runs benchtests/report; make check runs a
# quick smoke run of each (benchtests/smoke-test.sh).

define bench_rules
benchtests/vdso-insns-$(1): $(srcdir)/benchtests/vdso-insns.c \
		$(srcdir)/tests/guest/vdso_call.h
	@$(MKDIR_P) $$(@D)
	$$(quiet) CC "$$@"
	@$(CROSS_$(1))gcc -std=gnu11 -O2 -g -Wall -Wextra \
		-I$(srcdir)/tests/guest -o $$@ $$< -ldl
endef
$(foreach t,$(TARGETS),$(eval $(call bench_rules,$(t))))

BENCH_PROGRAMS = $(foreach t,$(TARGETS),benchtests/vdso-insns-$(t))
BENCH_DEPS += $(BENCH_PROGRAMS) linux-vdso
CHECK_DEPS += $(BENCH_PROGRAMS)
TESTS += $(srcdir)/benchtests/smoke-test.sh
CLEANFILES += $(BENCH_PROGRAMS) bench
