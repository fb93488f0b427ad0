# SPDX-License-Identifier: GPL-2.0
# Where each Linux version with a series (patches/linux-VERSION) comes
# from, and where it is unpacked (tests/boot/unpack-linux-source: 6.1's
# in linux-src/, another's in linux-src-VERSION/):
#   the host's  the configured LINUX_SOURCE, of LINUX_SOURCE_VERSION (the
#               installed linux-source, a Build-Depends: 6.1 on Debian 12,
#               6.12 on Debian 13)
#   the others  the linux-source-VERSION package of LINUX_SUITE_VERSION,
#               fetched by name from the machine's own Debian archive
#               (build-aux/fetch-deb: a private apt list, dpkg -x, nothing
#               installed) into linux-source/VERSION/root, once
# Nothing of this without LINUX_SOURCE (no kernel work configured).
# linux-source/fetched.mk says which versions are here (LINUX_FETCHED);
# the goals that use the kernels make it first (make then reads it anew),
# the others read it if it is there.  Where a version cannot be had,
# linux-source/VERSION/why says why, and what needs it SKIPs.

LINUX_SERIES_VERSIONS = $(patsubst $(srcdir)/patches/linux-%/series.json,%,\
	$(wildcard $(srcdir)/patches/linux-*/series.json))
LINUX_SUITE_6.1 = bookworm
LINUX_SUITE_6.12 = trixie
LINUX_SUITE_7.3 = trixie-backports
LINUX_FETCH_GOALS = check check-all check-kernel kernels patches bench linux-vdso linux-fetch \
	check-release check-release-deps \
	lava-jobs check-lava

# linux_tarball VERSION, linux_tree VERSION
linux_tarball = $(if $(filter $(LINUX_SOURCE_VERSION),$(1)),$(LINUX_SOURCE),linux-source/$(1)/root/usr/src/linux-source-$(1).tar.xz)
linux_tree = linux-src$(if $(filter-out 6.1,$(1)),-$(1))

ifneq ($(LINUX_SOURCE),)
LINUX_FETCHED =
-include linux-source/fetched.mk
LINUX_VERSIONS = $(sort $(LINUX_SOURCE_VERSION) $(LINUX_FETCHED))
# The stock kernels booted and benchmarked beside ppctime's (tests/boot,
# benchtests/linux-vdso.mk): 6.1 and the newest here.
LINUX_NEWEST = $(lastword $(LINUX_VERSIONS))
STOCK_VERSIONS = $(sort $(filter 6.1,$(LINUX_VERSIONS)) $(LINUX_NEWEST))

ifneq ($(filter $(LINUX_FETCH_GOALS),$(MAKECMDGOALS)),)
linux-source/fetched.mk: $(srcdir)/patches/linux-sources.mk
	$(Q)$(MKDIR_P) $(@D)
	$(Q)echo '# Made by patches/linux-sources.mk: the Linux versions fetched' >$@.tmp
	$(foreach v,$(filter-out $(LINUX_SOURCE_VERSION),$(LINUX_SERIES_VERSIONS)),$(call fetch_deb,$(LINUX_SUITE_$(v)),\
		linux-source-$(v),linux-source/$(v),echo 'LINUX_FETCHED += $(v)' >>$@.tmp;))
	$(Q)mv $@.tmp $@
endif

# linux_unpacked VERSION: the stamp of its unpacked tree.
linux_unpacked = $(call linux_tree,$(1))/.ppctime-unpacked
define linux_unpack_rules
$(call linux_unpacked,$(1)): $(call linux_tarball,$(1)) $(srcdir)/tests/boot/unpack-linux-source
	$(Q)bash $(srcdir)/tests/boot/unpack-linux-source $(call linux_tarball,$(1)) $(call linux_tree,$(1))
	$(Q)touch $$@
endef
$(foreach v,$(LINUX_VERSIONS),$(eval $(call linux_unpack_rules,$(v))))
endif

linux-fetch: $(if $(LINUX_SOURCE),linux-source/fetched.mk)

CLEANFILES += linux-source $(foreach v,$(LINUX_SERIES_VERSIONS),$(call linux_tree,$(v)) $(call linux_tree,$(v)).lock)
MOSTLYCLEAN_KEEPS += linux-source
.PHONY: linux-fetch
