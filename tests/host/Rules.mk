# SPDX-License-Identifier: GPL-2.0
# The releases ppctime's users build on (tests/host/README.md):
#   make check-release         what depends on the host's release: make
#                              check-subset's tests, the launcher's,
#                              daemon's and QEMU's (RELEASE_TESTS), and the
#                              series of the host's glibc compiled patch by
#                              patch; no sysroot, no kernel (its rule is
#                              beside make check's, in Makefile.in)
#   make check-host HOST=SUITE README's quick start (install-deps,
#                              configure, make check-release) in a fresh
#                              Debian SUITE root (tests/host/check-host)
# 'make check-all' runs check-host for each of HOST_SUITES.

host_src = $(srcdir)/tests/host
# Debian 13 (stable) and testing (forky), beside the Debian 12 of this
# machine and CI; HOST_TESTING's archive is in flux, and what it cannot
# install now SKIPs (tests/host/check-host --testing).
HOST_SUITES = trixie forky
HOST_TESTING = forky
HOST = trixie
host_tests = $(1:%=tests/host/host-%.sh)

tests/host/host-%.sh: Makefile
	$(Q)$(MKDIR_P) $(@D)
	$(Q)printf '#!/bin/sh\nexec "%s/check-host" %s%s "%s"\n' \
		'$(host_src)' '$(if $(filter $*,$(HOST_TESTING)),--testing )' '$*' \
		'$(abspath $(distdir).tar.xz)' >$@
	$(Q)chmod +x $@

check-host: dist $(call host_tests,$(HOST))
	$(Q)echo "check-host: Debian $(HOST): a root, install-deps, configure, make check-release" \
		"(about 20 minutes the first time; progress: tests/logs/host-$(HOST).sh.log)"
	$(Q)top_builddir=. srcdir=$(srcdir) $(SHELL) $(srcdir)/tests/run-tests \
		$(call host_tests,$(HOST))

CHECK_ALL_DEPS += dist $(call host_tests,$(HOST_SUITES))
CHECK_ALL_TESTS += $(call host_tests,$(HOST_SUITES))
# Of tests/host/ only what was made here: in a build in the source tree
# the folder is this one's too.  The roots, gigabytes from the archive,
# are kept by make mostlyclean.
host_dirs = $(patsubst %/,%,$(wildcard tests/host/*/))
CLEANFILES += $(host_dirs) $(wildcard tests/host/host-*.sh)
MOSTLYCLEAN_KEEPS += $(host_dirs)
.PHONY: check-host
