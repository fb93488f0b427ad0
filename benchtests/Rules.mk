# SPDX-License-Identifier: GPL-2.0
# The benchmarks: "make bench" runs benchtests/ppctime-bench; make check runs
# a quick smoke run of each (benchtests/smoke-test.sh, glibc-smoke-test.sh)
# and of the pipeline (pipeline-test.sh).

define bench_rules
benchtests/vdso-insns-$(1): $(srcdir)/benchtests/vdso-insns.c
	$(Q)$(MKDIR_P) $$(@D)
	$$(quiet) CC "$$@"
	$(Q)$(CROSS_$(1))gcc -std=gnu11 -O2 -g -Wall -Wextra $(DEPFLAGS) $(FILE_PREFIX_MAP) \
		-I$(srcdir)/tests/guest -o $$@ $$< -ldl
endef
$(foreach t,$(TARGETS),$(eval $(call bench_rules,$(t))))

# The same harness on the sysroot's glibc (sysdeps/), ppc32 with 64-bit
# time_t, as new programs there are built.
TIME64_CFLAGS_ppc32 = -D_TIME_BITS=64 -D_FILE_OFFSET_BITS=64
define bench_glibc_rules
benchtests/vdso-insns-$(1)-glibc: $(srcdir)/benchtests/vdso-insns.c \
		sysroot/$(TRIPLET_$(1)).stamp
	$(Q)$(MKDIR_P) $$(@D)
	$$(quiet) CC "$$@"
	$(Q)sysroot/$(TRIPLET_$(1))-gcc -std=gnu11 -O2 -g -Wall -Wextra $(DEPFLAGS) $(TIME64_CFLAGS_$(1)) \
		-I$(srcdir)/tests/guest -o $$@ $$< -ldl
endef
$(foreach t,$(TARGETS),$(eval $(call bench_glibc_rules,$(t))))

DEPDIRS += benchtests
BENCH_PROGRAMS = $(foreach t,$(TARGETS),benchtests/vdso-insns-$(t))
BENCH_GLIBC_PROGRAMS = $(foreach t,$(TARGETS),benchtests/vdso-insns-$(t)-glibc)
BENCH_DEPS += $(BENCH_PROGRAMS) $(BENCH_GLIBC_PROGRAMS) linux-vdso $(addsuffix .stamp,$(SYSROOTS))
# The qemu suite's second QEMU, fetched as make check fetches it
# (tests/second-qemu.mk), or why not left in tests/second-qemu/why for the
# report.
BENCH_DEPS += second-qemu-fetch
CHECK_DEPS += $(BENCH_PROGRAMS)
CHECK_GLIBC_DEPS += $(BENCH_GLIBC_PROGRAMS)
TESTS += $(srcdir)/benchtests/smoke-test.sh $(srcdir)/benchtests/mca-test.sh \
	$(srcdir)/benchtests/glibc-smoke-test.sh $(srcdir)/benchtests/pipeline-test.sh
# The pipeline measures the sysroots' harnesses too, where they are built.
CHECK_GLIBC_TESTS += $(srcdir)/benchtests/glibc-smoke-test.sh $(srcdir)/benchtests/pipeline-test.sh
# ppctime-bench import-lava on a LAVA results file of the test's own; the
# booted timings' verdict on made-up rounds.
TESTS += $(srcdir)/benchtests/lava-import-test.sh $(srcdir)/benchtests/rounds-test.sh
CLEANFILES += $(BENCH_PROGRAMS) $(BENCH_GLIBC_PROGRAMS) bench benchtests/glibc-smoke \
	benchtests/pipeline-smoke

# Installed: ppctime-bench in $(bindir), measuring the installed ppctime-run
# with the harnesses in $(bench_programs_dir) (the ones built against
# Debian's cross C libraries: the other measurements need a build tree) and
# the data it reads in $(pkgdatadir), with its Python package, a private
# one as Debian's Python policy has them.  It finds both relative to itself.
bench_programs_dir = $(pkglibexecdir)/bench
bench_data = $(srcdir)/targets.txt $(srcdir)/benchtests/record.schema.json \
	$(srcdir)/benchtests/summary.schema.json
bench_package = $(wildcard $(srcdir)/benchtests/ppctime_bench/*.py)
ALL += $(BENCH_PROGRAMS) $(MICRO_PROGRAMS)
install-bench: installdirs all
	$(MKDIR_P) $(DESTDIR)$(bench_programs_dir) $(DESTDIR)$(pkgdatadir)/ppctime_bench
	$(INSTALL_GUEST_PROGRAM) $(BENCH_PROGRAMS) $(MICRO_PROGRAMS) $(DESTDIR)$(bench_programs_dir)
	$(INSTALL) $(srcdir)/benchtests/insn-count $(DESTDIR)$(bench_programs_dir)
	$(INSTALL_DATA) $(bench_data) $(DESTDIR)$(pkgdatadir)
	$(INSTALL_DATA) $(bench_package) $(DESTDIR)$(pkgdatadir)/ppctime_bench
	$(SED) -e '1s|.*|#!$(or $(PYTHON),/usr/bin/env python3)|' \
		-e 's|^INSTALLED = None$$|INSTALLED = ("$(call bindir_to,$(pkgdatadir))", "$(call bindir_to,$(bench_programs_dir))")|' \
		$(srcdir)/benchtests/ppctime-bench >$(DESTDIR)$(bindir)/ppctime-bench
	chmod 755 $(DESTDIR)$(bindir)/ppctime-bench
	$(SED) -e 's|@VERSION@|$(VERSION)|g' $(srcdir)/benchtests/ppctime-bench.1.in \
		>$(DESTDIR)$(man1dir)/ppctime-bench.1
uninstall-bench:
	rm -rf $(DESTDIR)$(bench_programs_dir) $(DESTDIR)$(bindir)/ppctime-bench \
		$(DESTDIR)$(pkgdatadir)/ppctime_bench \
		$(DESTDIR)$(man1dir)/ppctime-bench.1 \
		$(addprefix $(DESTDIR)$(pkgdatadir)/,$(notdir $(bench_data)))
	-rmdir $(DESTDIR)$(pkgdatadir)
INSTALL_HOOKS += install-bench
UNINSTALL_HOOKS += uninstall-bench
.PHONY: install-bench uninstall-bench

include $(srcdir)/benchtests/micro.mk $(srcdir)/benchtests/seeds.mk \
	$(srcdir)/benchtests/linux-vdso.mk
