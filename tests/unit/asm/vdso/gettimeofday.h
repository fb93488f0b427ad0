/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A synthetic host "architecture" for the generic vDSO core
 * (vdso-kernel/lib/gettimeofday.c), which vdso-core-test.h includes by its
 * path ahead of the core, so the unit tests compile the core natively: a
 * counter the test sets, host barriers, and system call fallbacks that
 * only record that they ran.
 *
 * Built per delta math: by default the core's own 64-bit delta math; with
 * TEST_DELTA32_PIECES, the ppc32 pieces mapped in as the powerpc header
 * does for ppc32.  And per layout: the build's VDSO_LAYOUT.
 */
#ifndef ASM_VDSO_GETTIMEOFDAY_H
#define ASM_VDSO_GETTIMEOFDAY_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/time_types.h>
#include <vdso/compiler.h>
#include <vdso/datapage.h>

/* The time namespace page lies one page below the real one. */
#define PAGE_SIZE	4096

/*
 * Per thread, so each seqcount reader knows exactly which counter value
 * its read used, and can count its own barriers and spins.  The hook, if
 * set, runs at each counter read, between the seqcount's begin and end:
 * where a slow or preempted read lets a writer in.
 */
extern _Thread_local uint64_t test_counter;
extern _Thread_local void (*test_counter_hook)(void);
extern _Thread_local unsigned long test_rmb_count;	/* two per read attempt */
extern _Thread_local unsigned long test_relax_count;	/* spins on an odd seq */

#define smp_rmb()	do {						\
				test_rmb_count++;			\
				__atomic_thread_fence(__ATOMIC_ACQUIRE); \
			} while (0)
/* Yields: on a busy host the writer being waited for may need this CPU. */
#define cpu_relax()	do {						\
				test_relax_count++;			\
				sched_yield();				\
			} while (0)

static inline __always_inline uint64_t __arch_get_hw_counter(void)
{
	if (test_counter_hook)
		test_counter_hook();
	return test_counter;
}

#ifdef TEST_DELTA32_PIECES
#include <asm/vdso/delta32.h>
#define vdso_calc_ns	vdso_calc_ns32
#endif

static inline __always_inline const void *__arch_get_timens_vdso_data(const void *p)
{
	return (const char *)p + PAGE_SIZE;
}

/* Which system call the core fell back to; each returns its own sentinel. */
enum test_fallback {
	TEST_FB_NONE,
	TEST_FB_CLOCK_GETTIME,
	TEST_FB_CLOCK_GETRES,
	TEST_FB_GETTIMEOFDAY,
	TEST_FB_TIME,
	TEST_FB_CLOCK_GETTIME32,
	TEST_FB_CLOCK_GETRES32,
};
#define TEST_FB_RESULT(fb)	(-1000L - (fb))

struct test_fallback_log {
	enum test_fallback which;	/* the last one taken */
	unsigned int calls;
	int clk;
	const void *arg;		/* the result pointer passed on */
	const void *arg2;		/* gettimeofday's tz */
};
extern struct test_fallback_log test_fallback;

static inline long test_take_fallback(enum test_fallback which, int clk,
				      const void *arg, const void *arg2)
{
	test_fallback.which = which;
	test_fallback.calls++;
	test_fallback.clk = clk;
	test_fallback.arg = arg;
	test_fallback.arg2 = arg2;
	return TEST_FB_RESULT(which);
}

struct vdso_timezone;

static inline long clock_gettime_fallback(int clk, struct __kernel_timespec *ts)
{
	return test_take_fallback(TEST_FB_CLOCK_GETTIME, clk, ts, NULL);
}

static inline long clock_getres_fallback(int clk, struct __kernel_timespec *ts)
{
	return test_take_fallback(TEST_FB_CLOCK_GETRES, clk, ts, NULL);
}

static inline long gettimeofday_fallback(struct __kernel_old_timeval *tv,
					 struct vdso_timezone *tz)
{
	return test_take_fallback(TEST_FB_GETTIMEOFDAY, 0, tv, tz);
}

static inline long time_fallback(__kernel_old_time_t *t)
{
	return test_take_fallback(TEST_FB_TIME, 0, t, NULL);
}

/* The old time_t entries are compiled too, as ppc32 has them. */
#define VDSO_HAS_32BIT_TIMESPEC	1

static inline long clock_gettime32_fallback(int clk,
					    struct __kernel_old_timespec *ts)
{
	return test_take_fallback(TEST_FB_CLOCK_GETTIME32, clk, ts, NULL);
}

static inline long clock_getres32_fallback(int clk,
					   struct __kernel_old_timespec *ts)
{
	return test_take_fallback(TEST_FB_CLOCK_GETRES32, clk, ts, NULL);
}

#endif /* ASM_VDSO_GETTIMEOFDAY_H */
