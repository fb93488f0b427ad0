# SPDX-License-Identifier: GPL-2.0
# The glibc 2.36 sysroots, one per target: sysroot/TRIPLET/, glibc built by
# sysdeps/build-glibc from GLIBC_SOURCE with the series made from ppctime's
# sysdeps/ overlay (patches/glibc-2.36, patches/Rules.mk) applied to it
# (sysdeps/README.md).  'make sysroot' builds them; 'make check'
# builds them and runs glibc's own time tests in them (check-glibc) and
# ppctime's tests against them (tests/glibc/).

glibc_overlay = $(srcdir)/sysdeps
SYSROOTS = $(foreach t,$(TARGETS),sysroot/$(TRIPLET_$(t)))

# The stamp stands for a finished build and install; build-glibc itself
# decides what in glibc needs redoing.  '+': glibc's make shares our job
# slots.
define glibc_rules
sysroot/$(TRIPLET_$(1)).stamp: $(GLIBC_PATCHES) $(glibc_overlay)/build-glibc $(GLIBC_SOURCE)
	+@$(glibc_overlay)/build-glibc $(1) $(TRIPLET_$(1)) $(GLIBC_SOURCE) $(patches_src)/glibc-2.36
	@touch $$@
endef
$(foreach t,$(TARGETS),$(eval $(call glibc_rules,$(t))))

sysroot: $(addsuffix .stamp,$(SYSROOTS))

# glibc's tests, run by glibc's machinery through ppctime-run, with and
# without the vDSO; and ppctime's tests of the sysroots.  Both are part of
# 'make check' too.
check-glibc: $(addsuffix .stamp,$(SYSROOTS)) launcher/ppctime-run
	@top_builddir=. srcdir=$(srcdir) $(SHELL) $(srcdir)/tests/run-tests \
		$(srcdir)/tests/glibc/check-glibc
check-sysroot: $(addsuffix .stamp,$(SYSROOTS)) launcher/ppctime-run
	@top_builddir=. srcdir=$(srcdir) $(SHELL) $(srcdir)/tests/run-tests \
		$(srcdir)/tests/glibc/sysroot-test.sh

CHECK_GLIBC_DEPS += $(addsuffix .stamp,$(SYSROOTS))
TESTS += $(srcdir)/tests/glibc/sysroot-test.sh $(srcdir)/tests/glibc/check-glibc
CLEANFILES += $(SYSROOTS) $(addsuffix .stamp,$(SYSROOTS)) $(addsuffix .log,$(SYSROOTS)) \
	$(addsuffix -gcc,$(SYSROOTS)) glibc-build glibc-src

.PHONY: sysroot check-glibc check-sysroot
