/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the generic vDSO (lib/gettimeofday.c) needs from powerpc: the
 * timebase, the system calls, the delta math, barriers and where a time
 * namespace's real page is.
 */
#ifndef ASM_VDSO_GETTIMEOFDAY_H
#define ASM_VDSO_GETTIMEOFDAY_H

#include <stdint.h>
#include <asm/unistd.h>
#include <linux/time_types.h>
#include <vdso/compiler.h>
#include <vdso/datapage.h>

/* Orders the seqcount's loads and the data's (lib/gettimeofday.c). */
#define smp_rmb()	({ __asm__ __volatile__("lwsync" : : : "memory"); })
/* Low then medium SMT priority while a writer holds the seqcount. */
#define cpu_relax()	({ __asm__ __volatile__("or 1,1,1; or 2,2,2" : : : "memory"); })

/*
 * The "memory" clobbers keep the data page loads after the read, so they
 * are not live across it (on ppc32 that spares a stack frame).
 */
#ifdef __powerpc64__
static inline uint64_t __arch_get_hw_counter(void)
{
	uint64_t tb;

	__asm__ __volatile__("mftb %0" : "=r" (tb) : : "memory");
	return tb;
}
#else
/*
 * Low half first, then high: a carry in between makes the result exactly
 * 2^32 ahead, never behind.  vdso_calc_ns() sees that as a delta with a
 * nonzero high word, its rare case, which reads again the careful way.
 */
static inline uint64_t __arch_get_hw_counter(void)
{
	uint32_t hi, lo;

	__asm__ __volatile__("mftb %0; mftbu %1" : "=r" (lo), "=r" (hi)
			     : : "memory");
	return (uint64_t)hi << 32 | lo;
}

static inline uint64_t ppc32_get_tb_exact(void)
{
	uint32_t hi, lo, again;

	do {
		__asm__ __volatile__("mftbu %0; mftb %1; mftbu %2"
				     : "=r" (hi), "=r" (lo), "=r" (again)
				     : : "memory");
	} while (unlikely(hi != again));
	return (uint64_t)hi << 32 | lo;
}
#endif

/* The timebase is 64 bits wide: the mask is all ones and not applied. */
#define VDSO_DELTA_NOMASK	1

#ifndef __powerpc64__
/* slw takes counts up to 63, and from 32 on gives 0. */
static inline uint32_t vdso_shl32(uint32_t x, uint32_t n)
{
	uint32_t r;

	__asm__("slw %0,%1,%2" : "=r" (r) : "r" (x), "r" (n));
	return r;
}
#define vdso_shl32	vdso_shl32

#include <asm/vdso/delta32.h>

/*
 * A delta with a nonzero high word is rare, or a carry between the two
 * halves of the read: the timebase is read again the careful way.  Its
 * clobber reloads cycle_last and mult, so that neither stays in a
 * register through the common case.
 */
static inline uint64_t vdso_calc_ns(const struct vdso_clock *vc,
				    uint64_t cycles,
				    const struct vdso_timestamp *base)
{
	if (unlikely((cycles - vc->cycle_last) >> 32))
		cycles = ppc32_get_tb_exact();
	return vdso_calc_ns32(vc, cycles, base);
}
#define vdso_calc_ns	vdso_calc_ns
#endif

/* Any time data's counterpart in the real page, a page above. */
static inline const void *__arch_get_timens_vdso_data(const void *p)
{
	return (const char *)p + PAGE_SIZE;
}

/*
 * The entries keep their return address in r11 rather than in a stack
 * frame (gettimeofday.S), so the C is built with -ffixed-r11.  The kernel
 * may clobber r11 in a system call: it waits on a scratch frame below the
 * ABI's protected zone meanwhile.  Returns 0 or -errno.
 */
#ifdef __powerpc64__
#define VDSO_SC_SAVE	"stdu 1,-320(1); std 11,8(1)"	/* 288-byte zone + 32 */
#define VDSO_SC_RESTORE	"ld 11,8(1); addi 1,1,320"
#else
#define VDSO_SC_SAVE	"stwu 1,-16(1); stw 11,8(1)"
#define VDSO_SC_RESTORE	"lwz 11,8(1); addi 1,1,16"
#endif

static inline long do_syscall_2(long nr, unsigned long arg1,
				unsigned long arg2)
{
	register long r0 __asm__("r0") = nr;
	register unsigned long r3 __asm__("r3") = arg1;
	register unsigned long r4 __asm__("r4") = arg2;

	__asm__ __volatile__(VDSO_SC_SAVE "\n\t"
			     "sc\n\t"
			     VDSO_SC_RESTORE "\n\t"
			     "bns+ 1f\n\t"
			     "neg 3,3\n"
			     "1:"
			     : "+r" (r0), "+r" (r3), "+r" (r4)
			     :
			     : "memory", "cr0", "ctr", "xer", "r5", "r6",
			       "r7", "r8", "r9", "r10", "r12");
	return r3;
}

struct vdso_timezone;

static inline long gettimeofday_fallback(struct __kernel_old_timeval *tv,
					 struct vdso_timezone *tz)
{
	return do_syscall_2(__NR_gettimeofday, (unsigned long)tv,
			    (unsigned long)tz);
}

static inline long time_fallback(__kernel_old_time_t *t)
{
	return do_syscall_2(__NR_time, (unsigned long)t, 0);
}

#ifdef __powerpc64__
static inline long clock_gettime_fallback(int clk,
					  struct __kernel_timespec *ts)
{
	return do_syscall_2(__NR_clock_gettime, clk, (unsigned long)ts);
}

static inline long clock_getres_fallback(int clk,
					 struct __kernel_timespec *ts)
{
	return do_syscall_2(__NR_clock_getres, clk, (unsigned long)ts);
}
#else
#define VDSO_HAS_32BIT_TIMESPEC	1

static inline long clock_gettime_fallback(int clk,
					  struct __kernel_timespec *ts)
{
	return do_syscall_2(__NR_clock_gettime64, clk, (unsigned long)ts);
}

static inline long clock_getres_fallback(int clk,
					 struct __kernel_timespec *ts)
{
	return do_syscall_2(__NR_clock_getres_time64, clk, (unsigned long)ts);
}

static inline long
clock_gettime32_fallback(int clk, struct __kernel_old_timespec *ts)
{
	return do_syscall_2(__NR_clock_gettime, clk, (unsigned long)ts);
}

static inline long
clock_getres32_fallback(int clk, struct __kernel_old_timespec *ts)
{
	return do_syscall_2(__NR_clock_getres, clk, (unsigned long)ts);
}
#endif

/*
 * The entries' C halves (vgettimeofday.c), which gettimeofday.S calls
 * with the time data as the last argument.
 */
#ifdef __powerpc64__
long __c_kernel_clock_gettime(int clk, struct __kernel_timespec *ts,
			      const vdso_time_data_t *vd);
long __c_kernel_clock_getres(int clk, struct __kernel_timespec *res,
			     const vdso_time_data_t *vd);
#else
long __c_kernel_clock_gettime(int clk, struct __kernel_old_timespec *ts,
			      const vdso_time_data_t *vd);
long __c_kernel_clock_getres(int clk, struct __kernel_old_timespec *res,
			     const vdso_time_data_t *vd);
long __c_kernel_clock_gettime64(int clk, struct __kernel_timespec *ts,
				const vdso_time_data_t *vd);
long __c_kernel_clock_getres_time64(int clk, struct __kernel_timespec *res,
				    const vdso_time_data_t *vd);
#endif
long __c_kernel_gettimeofday(struct __kernel_old_timeval *tv,
			     struct vdso_timezone *tz,
			     const vdso_time_data_t *vd);
__kernel_old_time_t __c_kernel_time(__kernel_old_time_t *t,
				    const vdso_time_data_t *vd);

#endif /* ASM_VDSO_GETTIMEOFDAY_H */
