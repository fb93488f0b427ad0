/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host as an "architecture" of the generic vDSO core
 * (vdso-kernel/lib/gettimeofday.c), for guest_clock.c: the core reads a
 * native copy of the guest's time data (in Linux 6.1's layout, the build's
 * VDSO_LAYOUT, whichever the guest's is), taken under its seqcount with the
 * timebase (the host's TSC) read in the same window, and that reading
 * already taken into the copy's cycle_last (guest_clock.c), so the counter
 * here is 0.  The fallbacks only say "not served": the caller then asks
 * the host.
 */
#ifndef ASM_VDSO_GETTIMEOFDAY_H
#define ASM_VDSO_GETTIMEOFDAY_H

#include <stdint.h>
#include <linux/time_types.h>
#include <vdso/compiler.h>
#include <vdso/datapage.h>

#include "preload/guest_clock.h"

#define smp_rmb()	__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define cpu_relax()	__builtin_ia32_pause()

static inline __always_inline uint64_t __arch_get_hw_counter(void)
{
	return 0;
}

/* ppctime's pages are never a time namespace's: the copy says NONE then. */
static inline __always_inline const void *__arch_get_timens_vdso_data(const void *p)
{
	return p;
}

struct vdso_timezone;

#define clock_gettime_fallback(clk, ts)	GUEST_CLOCK_UNSERVED
#define clock_getres_fallback(clk, ts)	GUEST_CLOCK_UNSERVED
#define gettimeofday_fallback(tv, tz)	GUEST_CLOCK_UNSERVED
/* Never taken: guest_clock_time() asks only a page in service. */
#define time_fallback(t)		0

#endif /* ASM_VDSO_GETTIMEOFDAY_H */
