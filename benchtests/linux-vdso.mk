# SPDX-License-Identifier: GPL-2.0
# The stock Linux versions' own vDSO images (STOCK_VERSIONS: 6.1 and the
# newest here), built from their trees (patches/linux-sources.mk)
# with the kernel's own Makefiles (benchtests/build-linux-vdso), so the
# benchmarks can run the same measurements on them as on ppctime's images:
# linux-vdso/VERSION/IMAGE.so (targets.txt) and their .so.dbg twins.
# Nothing is built unless configure found the tarball (LINUX_SOURCE).

# The script keeps what is newer than its tree, so running it each time
# costs nothing once the images exist.  The coarse clocks' resolution is
# the tick, so the kernels get ppctime's HZ for the two to agree.
ifneq ($(LINUX_SOURCE),)
linux-vdso: $(foreach v,$(STOCK_VERSIONS),$(call linux_unpacked,$(v)))
	$(Q)bash $(srcdir)/benchtests/build-linux-vdso --hz=$(HZ) \
		$(foreach v,$(STOCK_VERSIONS),--linux=$(v):$(call linux_tree,$(v))) \
		$(foreach t,$(TARGETS),$(t):$(CROSS_$(t)):$(PAGE_SIZE_$(t)):$(KERNEL_IMAGE_$(t)):$(IMAGE_$(t)))
else
linux-vdso:
	$(Q)echo "linux-vdso: no kernel source: configure --with-linux-source=TARBALL" \
		"(Debian package linux-source); not built"
endif

CLEANFILES += linux-vdso
.PHONY: linux-vdso
