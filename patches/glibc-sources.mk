# SPDX-License-Identifier: GPL-2.0
# Where each glibc version with a series (patches/glibc-VERSION) comes
# from, pristine: the configured source (GLIBC_SOURCE) for its own
# version; else the host's glibc-source tarball when it is that version
# (2.36 on Debian 12, 2.41 on Debian 13); else the glibc-source package of
# GLIBC_SUITE_VERSION, fetched by name from the machine's own Debian
# archive (build-aux/fetch-deb: a private apt list, dpkg -x, nothing
# installed) into glibc-source/VERSION/root, once.  Where it cannot be
# had, glibc-source/VERSION/why says why, and what needs it SKIPs.

# The version sysdeps/ is written against: the others' series carry its
# files onto their own by a three-way merge (make-series --overlay-base).
GLIBC_OVERLAY_BASE = 2.36
GLIBC_SERIES_VERSIONS = $(sort $(patsubst $(patches_src)/glibc-%/series.json,%,\
	$(wildcard $(patches_src)/glibc-*/series.json)))
GLIBC_VERSION := $(if $(GLIBC_SOURCE),$(shell $(srcdir)/sysdeps/glibc-version $(GLIBC_SOURCE)))
GLIBC_SUITE_2.36 = bookworm
GLIBC_SUITE_2.41 = trixie
GLIBC_SUITE_2.43 = forky
glibc_installed_tarball = /usr/src/glibc/glibc-$(1).tar.xz
GLIBC_FETCHED = $(foreach v,$(filter-out $(GLIBC_VERSION),$(GLIBC_SERIES_VERSIONS)),\
	$(if $(wildcard $(call glibc_installed_tarball,$(v))),,$(v)))

# glibc_pristine VERSION: VERSION's pristine tarball (or tree).
glibc_pristine = $(strip $(if $(filter $(1),$(GLIBC_VERSION)),$(GLIBC_SOURCE),\
	$(if $(filter $(1),$(GLIBC_FETCHED)),$(glibc_fetched_tarball),$(glibc_installed_tarball))))
glibc_fetched_tarball = glibc-source/$(1)/root/usr/src/glibc/glibc-$(1).tar.xz

glibc-fetch:
	$(foreach v,$(GLIBC_FETCHED),$(call fetch_deb,$(GLIBC_SUITE_$(v)),glibc-source,glibc-source/$(v)))

CLEANFILES += glibc-source
MOSTLYCLEAN_KEEPS += glibc-source
.PHONY: glibc-fetch
