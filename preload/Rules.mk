# SPDX-License-Identifier: GPL-2.0
# What ppctime-run puts in QEMU, both answering QEMU's time calls from the
# data page with guest_clock.c, the vDSO's core built for the host
# (host-arch/): preload/ppctime-qemu-preload.so, which also has a
# dynamically linked QEMU load the loader in the program's place
# (ppctime/launch_protocol.h), a host shared object private to ppctime-run (no
# soname: nothing links with it); and preload/ppctime-host-vdso.so, a
# static QEMU's vDSO (host_vdso.h).

# -I$(srcdir): the core, "vdso-kernel/lib/gettimeofday.c" (vdso_core.h).
PRELOAD_CPPFLAGS = -fPIC -DHZ=$(HZ) -DVDSO_LAYOUT=VDSO_LAYOUT_6_1 $(CONTRACT_CPPFLAGS) \
	-I$(srcdir)
PRELOAD_OBJS = preload/qemu-preload.o preload/guest_clock.o
$(eval $(call host_objects,preload,$(PRELOAD_CPPFLAGS)))

preload/ppctime-qemu-preload.so: $(PRELOAD_OBJS)
	$(quiet) LD $@
	$(Q)$(CC) $(HOST_CFLAGS) $(LDFLAGS) -shared -o $@ $(filter %.o,$^) -ldl

# The host vDSO: freestanding, as the kernel's (no C library, no stack
# protector, no unwind tables), its entries the only symbols seen, laid
# out as one segment, and checked to be that and to need no relocation,
# which no one would apply.  No soname: no one links with it, and a
# library's name would make it one to ldconfig and lintian.
HOST_VDSO_OBJS = preload/host-vdso/host-vdso.o preload/host-vdso/guest_clock.o
preload/host-vdso/%.o: $(srcdir)/preload/%.c Makefile
	$(Q)$(MKDIR_P) $(@D)
	$(quiet) CC $@
	$(Q)$(CC) $(HOST_CFLAGS) $(CPPFLAGS) $(PRELOAD_CPPFLAGS) -O2 -ffreestanding \
		-fno-stack-protector -fno-asynchronous-unwind-tables -fvisibility=hidden \
		-U_FORTIFY_SOURCE -c -o $@ $<
DEPDIRS += preload/host-vdso

preload/ppctime-host-vdso.so: $(HOST_VDSO_OBJS) $(srcdir)/preload/host-vdso.lds \
		$(srcdir)/preload/host-vdso.ver
	$(quiet) LD $@
	$(Q)$(CC) $(HOST_CFLAGS) -shared -nostdlib -Wl,--hash-style=both -Wl,-T,$(srcdir)/preload/host-vdso.lds \
		-Wl,--version-script=$(srcdir)/preload/host-vdso.ver \
		-Wl,--no-undefined -Wl,-z,noexecstack -o $@.tmp $(filter %.o,$^)
	$(Q)if readelf -rW $@.tmp | grep -q 'Relocation section' || \
	    [ "$$(readelf -lW $@.tmp | grep -c '^ *LOAD ')" != 1 ]; then \
		echo "$@: not one segment with no relocations" >&2; rm -f $@.tmp; exit 1; fi
	$(Q)mv $@.tmp $@

ALL += preload/ppctime-qemu-preload.so preload/ppctime-host-vdso.so
# Beside the loaders: ppctime-run finds them in PRELOAD_DIR.
INSTALL_HOST_LIBEXEC += preload/ppctime-qemu-preload.so preload/ppctime-host-vdso.so
CLEANFILES += preload/ppctime-qemu-preload.so $(PRELOAD_OBJS) preload/ppctime-host-vdso.so \
	preload/host-vdso
