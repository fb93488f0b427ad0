# SPDX-License-Identifier: GPL-2.0
# The glibc sysroots, one per target: sysroot/TRIPLET/, glibc built by
# sysdeps/build-glibc from GLIBC_SOURCE with the series of its version made
# from ppctime's sysdeps/ overlay (patches/glibc-GLIBC_VERSION,
# patches/Rules.mk) applied to it (sysdeps/README.md).  'make sysroot'
# builds them, 'make check' too.
# 'make check-all' also builds them from every other version with a series,
# sysroot-VERSION/TRIPLET/ (patches/glibc-sources.mk: where each comes
# from).  Their tests are in tests/glibc/ (tests/glibc/Rules.mk).

glibc_overlay = $(srcdir)/sysdeps
SYSROOTS = $(foreach t,$(TARGETS),sysroot/$(TRIPLET_$(t)))
# The other versions' sysroots (check-all).
GLIBC_OTHER_VERSIONS = $(filter-out $(GLIBC_VERSION),$(GLIBC_SERIES_VERSIONS))
OTHER_SYSROOTS = $(foreach v,$(GLIBC_OTHER_VERSIONS),$(foreach t,$(TARGETS),sysroot-$(v)/$(TRIPLET_$(t))))

# glibc_rules TARGET VERSION SOURCE SUFFIX: sysroot$(SUFFIX)/TRIPLET from
# glibc VERSION's SOURCE and series.  The stamp stands for a finished build
# and install; build-glibc itself decides what in glibc needs redoing.
# '+': glibc's make shares our job slots.
define glibc_rules
sysroot$(4)/$(TRIPLET_$(1)).stamp: $(call glibc_patches,$(2)) $(glibc_overlay)/build-glibc $(3)
	+$(Q)$(glibc_overlay)/build-glibc $(1) $(TRIPLET_$(1)) $(3) $(patches_src)/glibc-$(2) $(4)
	$(Q)touch $$@
endef
ifneq ($(GLIBC_SOURCE),)
$(foreach t,$(TARGETS),$(eval $(call glibc_rules,$(t),$(GLIBC_VERSION),$(GLIBC_SOURCE),)))
$(foreach v,$(GLIBC_OTHER_VERSIONS),$(foreach t,$(TARGETS),\
	$(eval $(call glibc_rules,$(t),$(v),$(call glibc_pristine,$(v)),-$(v)))))
# The fetched tarballs come from glibc-fetch; order only, as its recipe
# always runs.
$(foreach v,$(GLIBC_FETCHED),$(call glibc_fetched_tarball,$(v))): | glibc-fetch
else
$(addsuffix .stamp,$(SYSROOTS) $(OTHER_SYSROOTS)):
	$(Q)echo "$@: configured --without-glibc-source: no sysroots" \
		"(configure --with-glibc-source=TARBALL|DIR, Debian package glibc-source)" >&2
	$(Q)exit 1
endif

sysroot: $(addsuffix .stamp,$(SYSROOTS))

# The sysroots built, installed as they are in the build tree: sysroot/T/
# and its compiler wrappers sysroot/T-gcc and T-g++ (which find the sysroot
# beside themselves) as $(pkglibdir)/T/ and $(pkglibdir)/T-gcc, -g++, and
# links to the wrappers as $(bindir)/T-ppctime-gcc, -g++ (T-gcc there is
# Debian's cross gcc), made from sysdeps/*.in: their manual page, a Meson
# cross file and a CMake toolchain file, whose tests run with ppctime-run.
SYSROOT_TARGETS_BUILT = $(foreach t,$(TARGETS),$(if $(wildcard sysroot/$(TRIPLET_$(t)).stamp),$(t)))
meson_cross_dir = $(datadir)/meson/cross
SYSROOT_COMPILERS = gcc g++
# sysroot_files T: what installing T's sysroot makes, without DESTDIR.
sysroot_files = $(pkglibdir)/$(TRIPLET_$(1)) $(meson_cross_dir)/$(TRIPLET_$(1))-ppctime \
	$(pkglibdir)/$(TRIPLET_$(1)).cmake $(foreach c,$(SYSROOT_COMPILERS),$(pkglibdir)/$(TRIPLET_$(1))-$(c) \
	$(bindir)/$(TRIPLET_$(1))-ppctime-$(c) $(man1dir)/$(TRIPLET_$(1))-ppctime-$(c).1)
# sysroot_sed T: the templates' words for target T.
sysroot_sed = $(SED) -e 's|@TRIPLET@|$(TRIPLET_$(1))|g' -e 's|@VERSION@|$(VERSION)|g' \
	-e 's|@BINDIR@|$(bindir)|g' -e 's|@SYSROOT@|$(pkglibdir)/$(TRIPLET_$(1))|g' \
	-e 's|@CPU_FAMILY@|$(if $(filter 64,$(ELF_CLASS_$(1))),ppc64,ppc)|g' \
	-e 's|@CPU@|$(patsubst ppc32,ppc,$(1))|g' -e 's|@ENDIAN@|$(BYTE_ORDER_$(1))|g'
# install_sysroot_compiler T COMPILER
define install_sysroot_compiler
	$(Q)$(INSTALL) sysroot/$(TRIPLET_$(1))-$(2) $(DESTDIR)$(pkglibdir)/$(TRIPLET_$(1))-$(2)
	$(Q)ln -sf $(call bindir_to,$(pkglibdir))/$(TRIPLET_$(1))-$(2) \
		$(DESTDIR)$(bindir)/$(TRIPLET_$(1))-ppctime-$(2)

endef
define install_sysroot
	@echo "install sysroot/$(TRIPLET_$(1)) into $(DESTDIR)$(pkglibdir)"
	$(Q)rm -rf $(DESTDIR)$(pkglibdir)/$(TRIPLET_$(1))
	$(Q)cp -pR sysroot/$(TRIPLET_$(1)) $(DESTDIR)$(pkglibdir)/$(TRIPLET_$(1))
	$(foreach c,$(SYSROOT_COMPILERS),$(call install_sysroot_compiler,$(1),$(c)))
	$(Q)$(call sysroot_sed,$(1)) $(srcdir)/sysdeps/ppctime-gcc.1.in \
		>$(DESTDIR)$(man1dir)/$(TRIPLET_$(1))-ppctime-gcc.1
	$(Q)echo .so man1/$(TRIPLET_$(1))-ppctime-gcc.1 >$(DESTDIR)$(man1dir)/$(TRIPLET_$(1))-ppctime-g++.1
	$(Q)$(call sysroot_sed,$(1)) $(srcdir)/sysdeps/meson-cross.in \
		>$(DESTDIR)$(meson_cross_dir)/$(TRIPLET_$(1))-ppctime
	$(Q)$(call sysroot_sed,$(1)) $(srcdir)/sysdeps/toolchain.cmake.in \
		>$(DESTDIR)$(pkglibdir)/$(TRIPLET_$(1)).cmake

endef
install-sysroots: installdirs
	$(if $(SYSROOT_TARGETS_BUILT),$(Q)$(MKDIR_P) $(DESTDIR)$(meson_cross_dir))
	$(foreach t,$(SYSROOT_TARGETS_BUILT),$(call install_sysroot,$(t)))
uninstall-sysroots:
	rm -rf $(addprefix $(DESTDIR),$(foreach t,$(TARGETS),$(call sysroot_files,$(t))))
	-rmdir $(DESTDIR)$(meson_cross_dir) $(DESTDIR)$(datadir)/meson
INSTALL_HOOKS += install-sysroots
UNINSTALL_HOOKS += uninstall-sysroots

glibc_outputs = $(SYSROOTS) $(addsuffix .stamp,$(SYSROOTS)) $(addsuffix .log,$(SYSROOTS)) \
	$(foreach c,$(SYSROOT_COMPILERS),$(addsuffix -$(c),$(SYSROOTS))) glibc-build glibc-src \
	$(foreach v,$(GLIBC_OTHER_VERSIONS),sysroot-$(v) glibc-build-$(v) glibc-src-$(v))
CLEANFILES += $(glibc_outputs)
MOSTLYCLEAN_KEEPS += $(glibc_outputs)

.PHONY: sysroot install-sysroots uninstall-sysroots
