// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's clocks read on the host (guest_clock.h): a native copy of
 * the data page's two clock sources and time info, from the guest's
 * layout (ppctime/vdso_layout.h) into Linux 6.1's two vdso_data, then the
 * vDSO's core on the copy, built for the host and that layout
 * (vdso_core.h).  No C library and no thread-local state: the host vDSO
 * (host-vdso.c) is built from it too.
 */
#include "guest_clock.h"

#include <stddef.h>
#include <stdint.h>

#include "vdso_core.h"

#include "ppctime/tsc.h"
#include "ppctime/vdso_layout.h"

static uint32_t load32(const struct guest_clock *g, const void *p)
{
	uint32_t v = __atomic_load_n((const uint32_t *)p, __ATOMIC_RELAXED);

	return g->target.big_endian ? __builtin_bswap32(v) : v;
}

/* One load, as a ppc64 reader's; a ppc32 one's two are made whole by seq. */
static uint64_t load64(const struct guest_clock *g, const void *p)
{
	uint64_t v = __atomic_load_n((const uint64_t *)p, __ATOMIC_RELAXED);

	return g->target.big_endian ? __builtin_bswap64(v) : v;
}

/* The counter read with the copy travels in it: the core's delta,
 * counter - cycle_last, is kept as 0 - (cycle_last - counter), the same
 * modulo 2^64 and under any mask, with the host's counter hook 0. */
static void copy_clock(const struct guest_clock *g, struct vdso_clock *to,
		       const struct vdso_clock *from)
{
	to->clock_mode = load32(g, &from->clock_mode);
	to->cycle_last = load64(g, &from->cycle_last);
	to->mask = load64(g, &from->mask);
	to->mult = load32(g, &from->mult);
	to->shift = load32(g, &from->shift);
	for (int k = 0; k < VDSO_BASES; k++) {
		to->basetime[k].sec = load64(g, &from->basetime[k].sec);
		to->basetime[k].nsec = load64(g, &from->basetime[k].nsec);
	}
}

static void copy_info(const struct guest_clock *g, struct vdso_time_info *to,
		      const struct vdso_time_info *from)
{
	to->tz_minuteswest = load32(g, &from->tz_minuteswest);
	to->tz_dsttime = load32(g, &from->tz_dsttime);
	to->hrtimer_res = load32(g, &from->hrtimer_res);
	to->coarse_res = load32(g, &from->coarse_res);
}

/*
 * Both clock sources as one update left them, with the time info the
 * vDSO reads, and the timebase read before the update after it: what a
 * guest reader sees in one seqcount window.  As in the vDSO, an odd seq
 * is waited out unless the mode is NONE (the writer died, maybe half
 * way): then the copy says NONE.
 */
static void copy_page(const struct guest_clock *g, struct vdso_data copy[CS_BASES])
{
	const struct vdso_layout *l = vdso_layout_find(g->target.layout);
	const uint8_t *td = (const uint8_t *)g->page + l->time_data[g->target.is64];
	const struct vdso_clock *vc[CS_BASES] = {
		(const void *)(td + l->clocks[CS_HRES_COARSE]),
		(const void *)(td + l->clocks[CS_RAW]),
	};
	uint32_t seq[CS_BASES];
	uint64_t counter;

	for (;;) {
		bool odd = false;

		for (int i = 0; i < CS_BASES; i++) {
			seq[i] = load32(g, &vc[i]->seq);
			odd |= seq[i] & 1;
		}
		if (odd) {
			if (load32(g, &vc[CS_HRES_COARSE]->clock_mode) == VDSO_CLOCKMODE_NONE)
				break;
			cpu_relax();
			continue;
		}
		smp_rmb();
		for (int i = 0; i < CS_BASES; i++)
			copy_clock(g, &copy[i].clock, vc[i]);
		copy_info(g, &copy[CS_HRES_COARSE].info, (const void *)(td + l->infos[0]));
		counter = tsc_ordered();
		smp_rmb();
		for (int i = 0; i < CS_BASES; i++)
			odd |= load32(g, &vc[i]->seq) != seq[i];
		if (odd)
			continue;
		for (int i = 0; i < CS_BASES; i++) {
			copy[i].clock.seq = 0;
			copy[i].clock.cycle_last -= counter;
			if (copy[i].clock.clock_mode != VDSO_CLOCKMODE_ARCHTIMER)
				copy[i].clock.clock_mode = VDSO_CLOCKMODE_NONE;
		}
		return;
	}
	for (int i = 0; i < CS_BASES; i++)
		copy[i] = (struct vdso_data){ .clock.clock_mode = VDSO_CLOCKMODE_NONE };
}

/* r, with *k as a struct timespec in *ts where r says it was served. */
static int as_timespec(long r, const struct __kernel_timespec *k, struct timespec *ts)
{
	if (r == 0 && ts) {
		ts->tv_sec = k->tv_sec;
		ts->tv_nsec = k->tv_nsec;
	}
	return r;
}

int guest_clock_gettime(const struct guest_clock *g, clockid_t clk, struct timespec *ts)
{
	struct vdso_data copy[CS_BASES];
	struct __kernel_timespec k;

	copy_page(g, copy);
	return as_timespec(__cvdso_clock_gettime_data(copy, clk, &k), &k, ts);
}

int guest_clock_getres(const struct guest_clock *g, clockid_t clk, struct timespec *res)
{
	struct vdso_data copy[CS_BASES];
	struct __kernel_timespec k;

	copy_page(g, copy);
	/* The vDSO's answer holds after the keeper too; the host's is as good. */
	if (copy[CS_HRES_COARSE].clock.clock_mode != VDSO_CLOCKMODE_ARCHTIMER)
		return GUEST_CLOCK_UNSERVED;
	return as_timespec(__cvdso_clock_getres_data(copy, clk, &k), &k, res);
}

int guest_gettimeofday(const struct guest_clock *g, struct timeval *tv, struct timezone *tz)
{
	struct vdso_data copy[CS_BASES];
	struct __kernel_old_timeval ktv;
	struct vdso_timezone ktz;
	long r;

	copy_page(g, copy);
	r = __cvdso_gettimeofday_data(copy, tv ? &ktv : NULL, tz ? &ktz : NULL);
	if (r)
		return r;
	if (tv) {
		tv->tv_sec = ktv.tv_sec;
		tv->tv_usec = ktv.tv_usec;
	}
	if (tz) {
		tz->tz_minuteswest = ktz.tz_minuteswest;
		tz->tz_dsttime = ktz.tz_dsttime;
	}
	return 0;
}

int guest_time(const struct guest_clock *g, time_t *t)
{
	struct vdso_data copy[CS_BASES];
	time_t now;

	copy_page(g, copy);
	if (copy[CS_HRES_COARSE].clock.clock_mode != VDSO_CLOCKMODE_ARCHTIMER)
		return GUEST_CLOCK_UNSERVED;
	now = __cvdso_time_data(copy, NULL);
	if (t)
		*t = now;
	return 0;
}

void guest_clock_shift(const struct guest_clock *g, clockid_t clk, struct timespec *ts)
{
	if (!g->shift.own || (clk != CLOCK_REALTIME && clk != CLOCK_REALTIME_COARSE &&
			      clk != CLOCK_TAI))
		return;
	ts->tv_sec += g->shift.realtime.tv_sec;
	ts->tv_nsec += g->shift.realtime.tv_nsec;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_nsec -= 1000000000L;
		ts->tv_sec++;
	}
}

void guest_clock_timeval(const struct guest_clock *g, const struct timespec *now,
			 struct timeval *tv, struct timezone *tz)
{
	if (tv) {
		tv->tv_sec = now->tv_sec;
		tv->tv_usec = now->tv_nsec / 1000;
	}
	if (tz)
		*tz = g->shift.tz;
}
