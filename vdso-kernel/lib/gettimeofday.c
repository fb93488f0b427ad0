// SPDX-License-Identifier: GPL-2.0
/*
 * The generic time vDSO: every clock the data page serves, read under its
 * seqcount.  Included by the architecture's C entry file after its
 * <asm/vdso/gettimeofday.h>, which supplies:
 *
 *   __arch_get_hw_counter()		read the counter
 *   vdso_calc_ns()			optional: the counter to ns math, or
 *   VDSO_DELTA_NOMASK			a counter as wide as its delta
 *   __arch_get_timens_vdso_data(p)	the real page's p, for p in a namespace page
 *   smp_rmb(), cpu_relax()
 *   clock_gettime_fallback(), clock_getres_fallback(),
 *   gettimeofday_fallback(), time_fallback()	the system calls, -errno
 *   and, with VDSO_HAS_32BIT_TIMESPEC, clock_gettime32_fallback() and
 *   clock_getres32_fallback() for the old 32-bit time_t entries.
 *
 * Nothing here knows which architecture it runs on, and only
 * <vdso/datapage.h> knows which layout (VDSO_LAYOUT): the core reads the
 * time data it is given (vdso_time_data_t) through vdso_clock_data() and
 * vdso_time_info(), and the auxiliary clocks where the layout has them.
 */
#include <vdso/compiler.h>
#include <vdso/datapage.h>

#define NSEC_PER_SEC	1000000000u
#ifndef LOW_RES_NSEC
#define LOW_RES_NSEC	((NSEC_PER_SEC + HZ / 2) / HZ)	/* the tick */
#endif

/*
 * base->nsec + (counter - cycle_last) * mult, shifted down to ns: the
 * data page's conversion.  An architecture whose counter is as wide as
 * the delta needs no mask (VDSO_DELTA_NOMASK); one with its own math
 * replaces it all, and may read vc again on a rare path.
 */
#ifndef vdso_calc_ns
static inline uint64_t vdso_calc_ns(const struct vdso_clock *vc,
				    uint64_t cycles,
				    const struct vdso_timestamp *base)
{
	uint64_t delta = cycles - vc->cycle_last;

#ifndef VDSO_DELTA_NOMASK
	delta &= vc->mask;
#endif
	return (delta * vc->mult + base->nsec) >> vc->shift;
}
#endif

/* What a clock read yields, before it is stored in the caller's layout. */
struct vdso_time {
	uint64_t sec;
	uint64_t nsec;		/* below NSEC_PER_SEC */
};

struct vdso_timezone {
	int tz_minuteswest;
	int tz_dsttime;
};

/*
 * ns is below a few seconds' worth: subtracting beats a 64-bit divide.
 * The common case is told by a bound one instruction loads, NSEC_PER_SEC
 * with its low half cleared; the settle keeps the compiler from folding
 * the two tests into one and the loop into a divide.
 */
static inline void vdso_time_set(struct vdso_time *t, uint64_t sec,
				 uint64_t ns)
{
	while (unlikely(ns >= (NSEC_PER_SEC & ~0xffffu))) {
		vdso_settle(ns);
		if (ns < NSEC_PER_SEC)
			break;
		ns -= NSEC_PER_SEC;
		sec++;
	}
	t->sec = sec;
	t->nsec = ns;
}

enum vdso_read { VDSO_READ_OK, VDSO_READ_SYSCALL, VDSO_READ_TIMENS };

/*
 * The seqcount.  Where a doubleword is one load, seq and clock_mode (side
 * by side in one) are read together, and the begin test "seq even and a
 * counter to read" is one rotate-and-mask and one compare: with seq's low
 * bit rotated into the sign and clock_mode just below it, the doubleword
 * is then positive.
 * A time namespace page keeps seq odd for good, so its readers are caught
 * on the way out of the wait and the fast path never pays for them.
 */
#if __SIZEOF_LONG__ == 8
typedef uint64_t vdso_seq_t;

static inline vdso_seq_t vdso_read_seq(const struct vdso_clock *vc)
{
	return READ_ONCE(vc->seq_mode);
}

/* seq as read by vdso_read_seq() is even and clock_mode not NONE. */
static inline bool vdso_read_ready(const struct vdso_clock *vc,
				   vdso_seq_t seq)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t key = seq >> 1 | seq << 63;
#else
	uint64_t key = seq << 31 | seq >> 33;
#endif
	(void)vc;
	return (int64_t)(key & 0xffffffff80000000) > 0;
}
#else
typedef uint32_t vdso_seq_t;

static inline vdso_seq_t vdso_read_seq(const struct vdso_clock *vc)
{
	return READ_ONCE(vc->seq);
}

/*
 * The same test on a word: seq's low bit as the sign, clock_mode below.
 * Modes are never negative, so none is masked: unmasked, the or sets the
 * condition itself, and the mask, INT_MAX, is also TIMENS, a constant
 * the compiler would then keep in a register for the wait below.
 */
static inline bool vdso_read_ready(const struct vdso_clock *vc,
				   vdso_seq_t seq)
{
	uint32_t mode = READ_ONCE(vc->clock_mode);

	return (int32_t)(seq << 31 | mode) > 0;
}
#endif

/*
 * One consistent read of a base: high resolution (hres) bases are
 * extended by the counter, coarse ones are taken as they are.
 */
static inline enum vdso_read
vdso_read_base(const struct vdso_clock *vc, int clk, bool hres,
	       uint64_t *sec, uint64_t *ns)
{
	const struct vdso_timestamp *base = &vc->basetime[clk];
	vdso_seq_t seq;

	do {
		while (unlikely(!vdso_read_ready(vc, seq = vdso_read_seq(vc)))) {
			int32_t mode = READ_ONCE(vc->clock_mode);

			/* No timekeeper: a stale base must not be served. */
			if (mode == VDSO_CLOCKMODE_NONE)
				return VDSO_READ_SYSCALL;
			if (mode == VDSO_CLOCKMODE_TIMENS)
				return VDSO_READ_TIMENS;
			cpu_relax();
		}
		smp_rmb();	/* seq before the data */
		if (hres) {
			uint64_t cycles = __arch_get_hw_counter();

			*ns = vdso_calc_ns(vc, cycles, base);
			/*
			 * Finish the arithmetic before loading sec rather
			 * than after the check: fewer values live at once,
			 * so no register is saved on the fast path.
			 */
			vdso_settle(*ns);
		} else {
			*ns = base->nsec;
		}
		*sec = base->sec;
		smp_rmb();	/* the data before seq again */
	} while (unlikely(vdso_read_seq(vc) != seq));
	return VDSO_READ_OK;
}

/*
 * The namespace page's offsets applied to the real page's reading (an
 * auxiliary clock's are 0: no namespace moves it).
 */
static inline bool vdso_read_timens(const struct vdso_clock *vcns,
				    int clk, bool hres,
				    struct vdso_time *t)
{
	const struct vdso_clock *vc = __arch_get_timens_vdso_data(vcns);
	uint64_t sec, ns;

	if (vdso_read_base(vc, clk, hres, &sec, &ns) != VDSO_READ_OK)
		return false;
	vdso_time_set(t, sec + vcns->offset[clk].sec,
		      ns + vcns->offset[clk].nsec);
	return true;
}

static inline bool vdso_read(const struct vdso_clock *vc, int clk,
			     bool hres, struct vdso_time *t)
{
	uint64_t sec, ns;

	switch (vdso_read_base(vc, clk, hres, &sec, &ns)) {
	case VDSO_READ_OK:
		/* Coarse bases are below a second already. */
		if (hres) {
			vdso_time_set(t, sec, ns);
		} else {
			t->sec = sec;
			t->nsec = ns;
		}
		return true;
	case VDSO_READ_TIMENS:
		return vdso_read_timens(vc, clk, hres, t);
	default:
		return false;
	}
}

/*
 * An id past TAI: an auxiliary clock, where the layout has them, or the
 * kernel's (false).  Apart from the ids the page serves most, so that
 * their paths are the same in every layout.
 */
static inline bool vdso_clock_read_aux(const vdso_time_data_t *vd,
				       int clk, struct vdso_time *t)
{
#if VDSO_NR_AUX_CLOCKS
	uint32_t i = (uint32_t)clk - VDSO_CLOCK_AUX;
	const struct vdso_clock *vc;

	/* One in mode NONE (none set up) is the kernel's too. */
	if (i >= VDSO_NR_AUX_CLOCKS)
		return false;
	vc = vdso_aux_clock_data(vd, i);
	/*
	 * One register for the clock, not one per offset the compiler
	 * derives from vd: ppc32 has no room for more on a frameless path.
	 */
	__asm__("" : "+r" (vc));
	return vdso_read(vc, VDSO_BASE_AUX, true, t);
#else
	(void)vd, (void)clk, (void)t;
#endif
	return false;
}

/* False sends the call to the system call. */
static inline bool vdso_clock_read(const vdso_time_data_t *vd,
				   int clk, struct vdso_time *t)
{
	uint32_t msk;

	/* Negative ids (CPU-time clocks) are the kernel's. */
	if (unlikely((uint32_t)clk >= VDSO_BASES))
		return vdso_clock_read_aux(vd, clk, t);
	msk = 1u << clk;
	if (likely(msk & VDSO_HRES))
		return vdso_read(vdso_clock_data(vd, CS_HRES_COARSE), clk, true, t);
	if (msk & VDSO_COARSE)
		return vdso_read(vdso_clock_data(vd, CS_HRES_COARSE), clk, false, t);
	if (msk & VDSO_RAW)
		return vdso_read(vdso_clock_data(vd, CS_RAW), clk, true, t);
	return false;
}

/*
 * The resolutions of the clocks up to TAI; an auxiliary clock's is the
 * kernel's to say, which knows whether there is one.
 */
static inline bool vdso_clock_res(const vdso_time_data_t *vd, int clk,
				  struct vdso_time *t)
{
	const struct vdso_time_info *info;
	uint32_t msk;

	if (unlikely((uint32_t)clk >= VDSO_BASES))
		return false;
	msk = 1u << clk;
	/*
	 * hrtimer_res and coarse_res live in the real page only.  The modes
	 * are NONE, ARCHTIMER and TIMENS (INT_MAX): above ARCHTIMER is one
	 * compare with an immediate, where TIMENS needs two to build.
	 */
	if (unlikely(READ_ONCE(vdso_clock_data(vd, CS_HRES_COARSE)->clock_mode) >
		     VDSO_CLOCKMODE_ARCHTIMER))
		vd = __arch_get_timens_vdso_data(vd);
	info = vdso_time_info(vd);
	if (likely(msk & (VDSO_HRES | VDSO_RAW)))
		t->nsec = READ_ONCE(info->hrtimer_res);
	else if (msk & VDSO_COARSE)
		t->nsec = READ_ONCE(info->coarse_res) ?: LOW_RES_NSEC;
	else
		return false;
	t->sec = 0;
	return true;
}

static inline long
__cvdso_clock_gettime_data(const vdso_time_data_t *vd, int clk,
			   struct __kernel_timespec *ts)
{
	struct vdso_time t;

	if (unlikely(!vdso_clock_read(vd, clk, &t)))
		return clock_gettime_fallback(clk, ts);
	ts->tv_sec = t.sec;
	ts->tv_nsec = t.nsec;
	return 0;
}

static inline long
__cvdso_clock_getres_data(const vdso_time_data_t *vd, int clk,
			  struct __kernel_timespec *res)
{
	struct vdso_time t;

	if (unlikely(!vdso_clock_res(vd, clk, &t)))
		return clock_getres_fallback(clk, res);
	/* NULL is valid: the caller only asks whether the clock exists. */
	if (likely(res)) {
		res->tv_sec = t.sec;
		res->tv_nsec = t.nsec;
	}
	return 0;
}

#ifdef VDSO_HAS_32BIT_TIMESPEC
/* The pre-y2038 entries: seconds truncated to 32 bits, as Linux does. */
static inline long
__cvdso_clock_gettime32_data(const vdso_time_data_t *vd, int clk,
			     struct __kernel_old_timespec *ts)
{
	struct vdso_time t;

	if (unlikely(!vdso_clock_read(vd, clk, &t)))
		return clock_gettime32_fallback(clk, ts);
	ts->tv_sec = t.sec;
	ts->tv_nsec = t.nsec;
	return 0;
}

static inline long
__cvdso_clock_getres32_data(const vdso_time_data_t *vd, int clk,
			    struct __kernel_old_timespec *res)
{
	struct vdso_time t;

	if (unlikely(!vdso_clock_res(vd, clk, &t)))
		return clock_getres32_fallback(clk, res);
	if (likely(res)) {
		res->tv_sec = t.sec;
		res->tv_nsec = t.nsec;
	}
	return 0;
}
#endif

static inline long
__cvdso_gettimeofday_data(const vdso_time_data_t *vd,
			  struct __kernel_old_timeval *tv,
			  struct vdso_timezone *tz)
{
	const struct vdso_clock *vc = vdso_clock_data(vd, CS_HRES_COARSE);

	if (likely(tv)) {
		struct vdso_time t;

		if (unlikely(!vdso_read(vc, VDSO_CLOCK_REALTIME, true, &t)))
			return gettimeofday_fallback(tv, tz);
		tv->tv_sec = t.sec;
		tv->tv_usec = (uint32_t)t.nsec / 1000;
	}
	if (unlikely(tz)) {
		const struct vdso_time_info *info;

		if (READ_ONCE(vc->clock_mode) == VDSO_CLOCKMODE_TIMENS)
			vd = __arch_get_timens_vdso_data(vd);
		info = vdso_time_info(vd);
		tz->tz_minuteswest = info->tz_minuteswest;
		tz->tz_dsttime = info->tz_dsttime;
	}
	return 0;
}

/*
 * The realtime base's seconds: one load, no seqcount needed.  A word of
 * them: on ppc32 an old time_t is the low word.
 */
#if __SIZEOF_LONG__ == 8
#define vdso_sec_word(ts)	((ts)->sec)
#else
#define vdso_sec_word(ts)	((ts)->sec_word[__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__])
#endif

static inline __kernel_old_time_t
__cvdso_time_data(const vdso_time_data_t *vd, __kernel_old_time_t *time)
{
	const struct vdso_clock *vc = vdso_clock_data(vd, CS_HRES_COARSE);
	int32_t mode = READ_ONCE(vc->clock_mode);
	__kernel_old_time_t t;

	if (unlikely(mode != VDSO_CLOCKMODE_ARCHTIMER)) {
		if (mode == VDSO_CLOCKMODE_TIMENS) {
			vd = __arch_get_timens_vdso_data(vd);
			vc = vdso_clock_data(vd, CS_HRES_COARSE);
			mode = READ_ONCE(vc->clock_mode);
		}
		if (mode == VDSO_CLOCKMODE_NONE)
			return time_fallback(time);
	}
	t = READ_ONCE(vdso_sec_word(&vc->basetime[VDSO_CLOCK_REALTIME]));
	if (time)
		*time = t;
	return t;
}
