# SPDX-License-Identifier: GPL-2.0
# The list's microbenchmarks (benchtests/README.md), dynamic powerpc
# programs per target: benchtests/PROGRAM-TARGET.  benchtests/ppctime-bench runs
# them for "make bench"; make check runs each once, briefly
# (benchtests/micro-smoke-test.sh).

MICRO_BENCHMARKS = tb null_syscall context_switch vdsotest sleeper

# $(1): program, $(2): target
define micro_rules
benchtests/$(1)-$(2): $(srcdir)/benchtests/$(1).c
	$(Q)$(MKDIR_P) $$(@D)
	$$(quiet) CC "$$@"
	$(Q)$(CROSS_$(2))gcc -std=gnu11 -O2 -g -Wall -Wextra $(DEPFLAGS) $(FILE_PREFIX_MAP) \
		-I$(srcdir)/tests/guest -o $$@ $$< -ldl -lm
endef
$(foreach p,$(MICRO_BENCHMARKS),$(foreach t,$(TARGETS),$(eval $(call micro_rules,$(p),$(t)))))

MICRO_PROGRAMS = $(foreach p,$(MICRO_BENCHMARKS),$(foreach t,$(TARGETS),benchtests/$(p)-$(t)))
BENCH_DEPS += $(MICRO_PROGRAMS)
CHECK_DEPS += $(MICRO_PROGRAMS)
TESTS += $(srcdir)/benchtests/micro-smoke-test.sh
CLEANFILES += $(MICRO_PROGRAMS)
