# SPDX-License-Identifier: GPL-2.0
# The releases ppctime's users build on (tests/host/README.md):
#   make check-release         what depends on the host's release
#                              (RELEASE_TESTS): the launcher's tests with
#                              its QEMU, static and dynamic, the images its
#                              compilers make, the installed tree, the
#                              series its git makes, and the series of its
#                              glibc compiled patch by patch; no sysroot, no
#                              kernel, nothing of the host's own alone (the
#                              timekeepers: make check-all's full pass)
#                              (its rule is beside make check's, in
#                              Makefile.in)
#   make check-host HOST=SUITE README's quick start (install-deps,
#                              configure, make check-release) in a fresh
#                              Debian SUITE root (tests/host/check-host)
# 'make check-all' runs, in a root of each of HOST_SUITES, the whole of
# README's commands (check-host --full: make check, scripts/check-debs),
# and builds the source package by sbuild in a clean root of each of
# SBUILD_SUITES (tests/host/sbuild-test).

host_src = $(srcdir)/tests/host
# Debian 13 (stable) and testing (forky), beside the Debian 12 of this
# machine and CI; HOST_TESTING's archive is in flux, and what it cannot
# install now SKIPs (tests/host/check-host --testing).
HOST_SUITES = trixie forky
HOST_TESTING = forky
HOST = trixie
# The releases ppctime's packages are built for.
SBUILD_SUITES = bookworm trixie
# tests/host/host-[full-]SUITE.sh: check-host [--full] SUITE.
host_tests = $(1:%=tests/host/host-%.sh)
host_suite = $(patsubst full-%,%,$(1))

tests/host/host-%.sh: Makefile
	$(Q)$(MKDIR_P) $(@D)
	$(Q)printf '#!/bin/sh\nexec "%s/check-host" %s%s%s "%s"\n' '$(host_src)' \
		'$(if $(filter $(call host_suite,$*),$(HOST_TESTING)),--testing )' \
		'$(if $(filter full-%,$*),--full )' '$(call host_suite,$*)' \
		'$(abspath $(distdir).tar.xz)' >$@
	$(Q)chmod +x $@
tests/host/sbuild-%.sh: Makefile
	$(Q)$(MKDIR_P) $(@D)
	$(Q)printf '#!/bin/sh\nexec "%s/sbuild-test" %s "%s"\n' '$(host_src)' '$*' \
		'$(abspath $(distdir).tar.xz)' >$@
	$(Q)chmod +x $@

check-host: dist $(call host_tests,$(HOST))
	$(Q)echo "check-host: Debian $(HOST): a root, install-deps, configure, make check-release" \
		"(about 10 minutes the first time; progress: tests/logs/host-$(HOST).sh.log)"
	$(Q)top_builddir=. srcdir=$(srcdir) $(SHELL) $(srcdir)/tests/run-tests \
		$(call host_tests,$(HOST))

HOST_ALL_TESTS = $(call host_tests,$(HOST_SUITES:%=full-%)) $(SBUILD_SUITES:%=tests/host/sbuild-%.sh)
CHECK_ALL_DEPS += dist $(HOST_ALL_TESTS)
CHECK_ALL_TESTS += $(HOST_ALL_TESTS)
# Of tests/host/ only what was made here: in a build in the source tree
# the folder is this one's too.  The roots, gigabytes from the archive,
# are kept by make mostlyclean.
host_dirs = $(patsubst %/,%,$(wildcard tests/host/*/))
CLEANFILES += $(host_dirs) $(wildcard tests/host/host-*.sh tests/host/sbuild-*.sh)
MOSTLYCLEAN_KEEPS += $(host_dirs)
.PHONY: check-host
