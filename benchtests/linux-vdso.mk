# SPDX-License-Identifier: GPL-2.0
# Linux 6.1's own vDSO images, built from Debian's linux-source-6.1 with the
# kernel's own Makefiles (benchtests/build-linux-vdso), so the benchmarks
# can run the same measurements on them as on ppctime's images:
# linux-vdso/IMAGE.so (targets.txt) and their .so.dbg twins.
# Nothing is built unless configure found the tarball (LINUX_SOURCE).

LINUX_VDSO_IMAGES = $(foreach t,$(TARGETS),linux-vdso/$(IMAGE_$(t)).so)

# The script keeps what is newer than the tarball, so running it each time
# costs nothing once the images exist.  The coarse clocks' resolution is
# the tick, so the kernel gets ppctime's HZ for the two to agree.
linux-vdso:
ifneq ($(LINUX_SOURCE),)
	$(Q)bash $(srcdir)/benchtests/build-linux-vdso --source=$(LINUX_SOURCE) --hz=$(HZ) \
		$(foreach t,$(TARGETS),$(t):$(CROSS_$(t)):$(PAGE_SIZE_$(t)):$(IMAGE_$(t)))
else
	$(Q)echo "linux-vdso: no kernel source: configure --with-linux-source=TARBALL" \
		"(Debian package linux-source-6.1); not built"
endif

CLEANFILES += linux-vdso linux-src
.PHONY: linux-vdso
