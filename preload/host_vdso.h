/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host vDSO: what ppctime-run gives a static QEMU at AT_SYSINFO_EHDR
 * in place of the kernel's, so that the time calls QEMU makes for the
 * guest's system calls read the guest's data page (guest_clock.h), as a
 * dynamic QEMU's do through the preload.  An x86-64 shared object with
 * the kernel's vDSO entries (__vdso_clock_gettime, __vdso_gettimeofday,
 * __vdso_time, __vdso_clock_getres, version LINUX_2.6), no relocations
 * and no imports, which the C library binds as it binds the kernel's.
 *
 * Like the kernel's vvar, its parameters lie in the HOST_VDSO_PARAMS_SIZE
 * bytes just below its first byte: ppctime-run maps them there, writes
 * them, and makes them read-only before QEMU starts.
 */
#ifndef PPCTIME_HOST_VDSO_H
#define PPCTIME_HOST_VDSO_H

#include <stdint.h>

#include "guest_clock.h"

#define HOST_VDSO_NAME		"ppctime-host-vdso.so"
#define HOST_VDSO_PARAMS_SIZE	4096

struct host_vdso_params {
	struct guest_clock guest;	/* guest.page NULL: the host's clocks */
};

#endif /* PPCTIME_HOST_VDSO_H */
