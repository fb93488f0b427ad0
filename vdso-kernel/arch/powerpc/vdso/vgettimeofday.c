// SPDX-License-Identifier: GPL-2.0
/*
 * The C half of the powerpc time entries: gettimeofday.S computes the
 * address of the time data (of the layout built for: <vdso/datapage.h>)
 * and calls these, which return 0 or -errno.  Those of a 32-bit time_t
 * on ppc32 are built only with COMPAT_32BIT_TIME (gettimeofday.S).
 */
#include <asm/vdso/gettimeofday.h>
#include "../../../lib/gettimeofday.c"

#ifdef __powerpc64__
long __flatten __c_kernel_clock_gettime(int clk, struct __kernel_timespec *ts,
					const vdso_time_data_t *vd)
{
	return __cvdso_clock_gettime_data(vd, clk, ts);
}

long __flatten __c_kernel_clock_getres(int clk, struct __kernel_timespec *res,
				       const vdso_time_data_t *vd)
{
	return __cvdso_clock_getres_data(vd, clk, res);
}
#else
#ifdef CONFIG_COMPAT_32BIT_TIME
long __flatten __c_kernel_clock_gettime(int clk, struct __kernel_old_timespec *ts,
					const vdso_time_data_t *vd)
{
	return __cvdso_clock_gettime32_data(vd, clk, ts);
}

long __flatten __c_kernel_clock_getres(int clk, struct __kernel_old_timespec *res,
				       const vdso_time_data_t *vd)
{
	return __cvdso_clock_getres32_data(vd, clk, res);
}
#endif

long __flatten __c_kernel_clock_gettime64(int clk, struct __kernel_timespec *ts,
					  const vdso_time_data_t *vd)
{
	return __cvdso_clock_gettime_data(vd, clk, ts);
}

long __flatten __c_kernel_clock_getres_time64(int clk, struct __kernel_timespec *res,
					      const vdso_time_data_t *vd)
{
	return __cvdso_clock_getres_data(vd, clk, res);
}
#endif

#if defined(__powerpc64__) || defined(CONFIG_COMPAT_32BIT_TIME)
long __flatten __c_kernel_gettimeofday(struct __kernel_old_timeval *tv,
				       struct vdso_timezone *tz,
				       const vdso_time_data_t *vd)
{
	return __cvdso_gettimeofday_data(vd, tv, tz);
}

__kernel_old_time_t __flatten __c_kernel_time(__kernel_old_time_t *t,
					      const vdso_time_data_t *vd)
{
	return __cvdso_time_data(vd, t);
}
#endif
