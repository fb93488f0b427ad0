# SPDX-License-Identifier: GPL-2.0
# The preload that has a dynamically linked QEMU load the loader in the
# program's place (launch_protocol.h) and answers QEMU's time calls from
# the data page with guest_clock.c, the vDSO's core built for the host
# (host-arch/): preload/ppctime-qemu-preload.so, a host shared object
# private to ppctime-run (no soname: nothing links with it).

PRELOAD_CPPFLAGS = -fPIC -DHZ=$(HZ) -I$(srcdir)/preload -I$(srcdir)/preload/host-arch \
	-I$(srcdir)/loader -I$(srcdir)/timekeeper -I$(srcdir)/vdso-kernel/include
PRELOAD_OBJS = preload/qemu-preload.o preload/guest_clock.o
$(eval $(call host_objects,preload,$(PRELOAD_CPPFLAGS)))

preload/ppctime-qemu-preload.so: $(PRELOAD_OBJS)
	$(quiet) LD $@
	$(Q)$(CC) $(HOST_CFLAGS) $(LDFLAGS) -shared -o $@ $(filter %.o,$^) -ldl

ALL += preload/ppctime-qemu-preload.so
# Beside the loaders: ppctime-run finds it in PRELOAD_DIR.
INSTALL_HOST_LIBEXEC += preload/ppctime-qemu-preload.so
CLEANFILES += preload/ppctime-qemu-preload.so $(PRELOAD_OBJS)
