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
ifneq ($(GLIBC_SOURCE),)
define glibc_rules
sysroot/$(TRIPLET_$(1)).stamp: $(GLIBC_PATCHES) $(glibc_overlay)/build-glibc $(GLIBC_SOURCE)
	+$(Q)$(glibc_overlay)/build-glibc $(1) $(TRIPLET_$(1)) $(GLIBC_SOURCE) $(patches_src)/glibc-2.36
	$(Q)touch $$@
endef
$(foreach t,$(TARGETS),$(eval $(call glibc_rules,$(t))))
else
$(addsuffix .stamp,$(SYSROOTS)):
	$(Q)echo "$@: configured --without-glibc-source: no sysroots" \
		"(configure --with-glibc-source=TARBALL|DIR, Debian package glibc-source)" >&2
	$(Q)exit 1
endif

sysroot: $(addsuffix .stamp,$(SYSROOTS))

# glibc's tests, run by glibc's machinery through ppctime-run, with and
# without the vDSO; and ppctime's tests of the sysroots.  Both are part of
# 'make check' too.
check-glibc: $(addsuffix .stamp,$(SYSROOTS)) launcher/ppctime-run
	$(Q)top_builddir=. srcdir=$(srcdir) $(SHELL) $(srcdir)/tests/run-tests \
		$(srcdir)/tests/glibc/check-glibc
check-sysroot: $(addsuffix .stamp,$(SYSROOTS)) launcher/ppctime-run
	$(Q)top_builddir=. srcdir=$(srcdir) $(SHELL) $(srcdir)/tests/run-tests \
		$(srcdir)/tests/glibc/sysroot-test.sh

CHECK_GLIBC_DEPS += $(addsuffix .stamp,$(SYSROOTS))
TESTS += $(srcdir)/tests/glibc/sysroot-test.sh $(srcdir)/tests/glibc/check-glibc
# The sysroots built, installed as they are in the build tree: sysroot/T/
# and its compiler wrapper sysroot/T-gcc (which finds the sysroot beside
# itself) as $(pkglibdir)/T/ and $(pkglibdir)/T-gcc, and a link to the
# wrapper as $(bindir)/T-ppctime-gcc (T-gcc there is Debian's cross gcc),
# with its manual page made from sysdeps/ppctime-gcc.1.in.
SYSROOTS_BUILT = $(patsubst %.stamp,%,$(wildcard $(addsuffix .stamp,$(SYSROOTS))))
install-sysroots: installdirs
	$(Q)for s in $(notdir $(SYSROOTS_BUILT)); do \
		echo "install sysroot/$$s into $(DESTDIR)$(pkglibdir)"; \
		rm -rf $(DESTDIR)$(pkglibdir)/$$s && \
		cp -pR sysroot/$$s $(DESTDIR)$(pkglibdir)/$$s && \
		$(INSTALL) sysroot/$$s-gcc $(DESTDIR)$(pkglibdir)/$$s-gcc && \
		ln -sf $(call bindir_to,$(pkglibdir))/$$s-gcc $(DESTDIR)$(bindir)/$$s-ppctime-gcc && \
		$(SED) -e "s|@TRIPLET@|$$s|g" -e 's|@VERSION@|$(VERSION)|g' \
			$(srcdir)/sysdeps/ppctime-gcc.1.in >$(DESTDIR)$(man1dir)/$$s-ppctime-gcc.1 || \
		exit 1; \
	done
uninstall-sysroots:
	rm -rf $(foreach s,$(notdir $(SYSROOTS)),$(DESTDIR)$(pkglibdir)/$(s) \
		$(DESTDIR)$(pkglibdir)/$(s)-gcc $(DESTDIR)$(bindir)/$(s)-ppctime-gcc \
		$(DESTDIR)$(man1dir)/$(s)-ppctime-gcc.1)
INSTALL_HOOKS += install-sysroots
UNINSTALL_HOOKS += uninstall-sysroots

glibc_outputs = $(SYSROOTS) $(addsuffix .stamp,$(SYSROOTS)) $(addsuffix .log,$(SYSROOTS)) \
	$(addsuffix -gcc,$(SYSROOTS)) glibc-build glibc-src
CLEANFILES += $(glibc_outputs)
MOSTLYCLEAN_KEEPS += $(glibc_outputs)

.PHONY: sysroot check-glibc check-sysroot install-sysroots uninstall-sysroots
