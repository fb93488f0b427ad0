# SPDX-License-Identifier: GPL-2.0
# Linux's own vDSO selftests (tools/testing/selftests/vDSO of Linux
# KSFT_LINUX, from its tarball: patches/linux-sources.mk) for each target,
# tests/kselftest/TARGET/PROGRAM, which tests/vdso-kselftest.sh runs under
# ppctime-run.  Their few files come into tests/kselftest/src from its
# tree where the kernel builds have unpacked it
# (tests/boot/unpack-linux-source), else from the tarball by name (xz
# still reads it all: about 10 s, once).  Built as vDSO/Makefile builds
# them, dynamic (vdso_test_correctness dlopens the vDSO), with
# tests/vdso-kselftest-call.h forced in: their calls through vDSO pointers
# made the powerpc way.  Without that version's source nothing is built
# and the test says SKIP.

# 6.1's: the calls vdso-kselftest-call.h makes the powerpc way are theirs.
KSFT_LINUX = 6.1
KSFT_SRC = tests/kselftest/src
KSFT_SELFTESTS = tools/testing/selftests
# vDSO/Makefile's TEST_GEN_PROGS but the x86 one, each with its sources
# and libraries; its CFLAGS.
KSFT_PROGS = vdso_test_gettimeofday vdso_test_getcpu vdso_test_abi \
	vdso_test_clock_getres vdso_test_correctness
KSFT_SRCS_vdso_test_gettimeofday = parse_vdso.c vdso_test_gettimeofday.c
KSFT_SRCS_vdso_test_getcpu = parse_vdso.c vdso_test_getcpu.c
KSFT_SRCS_vdso_test_abi = parse_vdso.c vdso_test_abi.c
KSFT_SRCS_vdso_test_clock_getres = vdso_test_clock_getres.c
KSFT_SRCS_vdso_test_correctness = vdso_test_correctness.c
KSFT_LIBS_vdso_test_correctness = -ldl
# 6.1's selftests hand the vDSO's entries the C library's struct timespec
# and timeval, as 32-bit time_t was on ppc32 then: built so, where Debian
# 13's 32-bit compilers default to 64-bit time_t (its time64 transition:
# their specs add -D_TIME_BITS=64 -D_FILE_OFFSET_BITS=64 unless these are
# undefined on the command line; elsewhere the -U change nothing).
KSFT_CFLAGS = -std=gnu99 -U_TIME_BITS -U_FILE_OFFSET_BITS
KSFT_CALL_H = $(srcdir)/tests/vdso-kselftest-call.h

ifneq ($(filter $(KSFT_LINUX),$(LINUX_VERSIONS)),)
ksft_tarball = $(call linux_tarball,$(KSFT_LINUX))
ksft_tree = $(call linux_tree,$(KSFT_LINUX))
# The tree is read under its lock, as unpack-linux-source writes it.
$(KSFT_SRC)/.unpacked: $(ksft_tarball)
	$(quiet) UNPACK "$(KSFT_SRC): Linux $(KSFT_LINUX)'s vDSO selftests"
	$(Q)rm -rf $(KSFT_SRC) && $(MKDIR_P) $(KSFT_SRC)
	$(Q)if flock $(ksft_tree).lock sh -c '[ $(ksft_tree)/.ppctime-unpacked -nt "$$1" ] && \
			cp -R $(ksft_tree)/$(KSFT_SELFTESTS)/vDSO \
			$(ksft_tree)/$(KSFT_SELFTESTS)/kselftest.h $(KSFT_SRC)/' sh $(ksft_tarball); then \
		:; \
	else \
		rm -rf $(KSFT_SRC)/* && \
		tar -xJf $(ksft_tarball) -C $(KSFT_SRC) --strip-components=4 --wildcards \
			'*/$(KSFT_SELFTESTS)/vDSO/*' '*/$(KSFT_SELFTESTS)/kselftest.h'; \
	fi
	$(Q)touch $@

# ksft_rules TARGET PROGRAM
define ksft_rules
tests/kselftest/$(1)/$(2): $(KSFT_SRC)/.unpacked $(KSFT_CALL_H)
	$(Q)$(MKDIR_P) $$(@D)
	$$(quiet) CC "$$@"
	$(Q)$(CROSS_$(1))gcc $(KSFT_CFLAGS) -include $(KSFT_CALL_H) -o $$@ \
		$(addprefix $(KSFT_SRC)/vDSO/,$(KSFT_SRCS_$(2))) $(KSFT_LIBS_$(2))
endef
$(foreach t,$(TARGETS),$(foreach p,$(KSFT_PROGS),$(eval $(call ksft_rules,$(t),$(p)))))

CHECK_DEPS += $(foreach t,$(TARGETS),$(addprefix tests/kselftest/$(t)/,$(KSFT_PROGS)))
endif

TESTS += $(srcdir)/tests/vdso-kselftest.sh
RELEASE_TESTS += $(srcdir)/tests/vdso-kselftest.sh
CLEANFILES += tests/kselftest
