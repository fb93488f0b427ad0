// SPDX-License-Identifier: GPL-2.0
/*
 * ppctime-host-vdso.so (host_vdso.h): the kernel's x86-64 vDSO entries,
 * answered from the guest's data page where it serves the call, else by
 * the system call, as the guest's own vDSO falls back.  Freestanding: no
 * C library, no relocations, nothing but what is here and guest_clock.c.
 */
#include <stddef.h>
#include <asm/unistd.h>

#include "host_vdso.h"

/* This object's first byte (its ELF header), as the linker places it. */
extern const char __ehdr_start[] __attribute__((visibility("hidden")));

static const struct host_vdso_params *params(void)
{
	const char *at;

	/* Below the object, where ppctime-run put them: hidden from the
	 * compiler, which knows no object there. */
	__asm__("" : "=r"(at) : "0"(__ehdr_start));
	return (const void *)(at - HOST_VDSO_PARAMS_SIZE);
}

#define ENTRY	__attribute__((visibility("default")))

static long syscall2(long nr, long a, long b)
{
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "0"(nr), "D"(a), "S"(b)
			 : "rcx", "r11", "memory");
	return ret;
}

/* The host's clock clk, as the guest's: a launch's own clock stays shifted. */
static long host_clock(const struct host_vdso_params *p, clockid_t clk, struct timespec *ts)
{
	long r = syscall2(__NR_clock_gettime, clk, (long)ts);

	if (r == 0)
		guest_clock_shift(&p->guest, clk, ts);
	return r;
}

ENTRY int __vdso_clock_gettime(clockid_t clk, struct timespec *ts)
{
	const struct host_vdso_params *p = params();

	if (p->guest.page && guest_clock_gettime(&p->guest, clk, ts) == 0)
		return 0;
	return host_clock(p, clk, ts);
}

ENTRY int __vdso_clock_getres(clockid_t clk, struct timespec *res)
{
	const struct host_vdso_params *p = params();

	if (p->guest.page && guest_clock_getres(&p->guest, clk, res) == 0)
		return 0;
	return syscall2(__NR_clock_getres, clk, (long)res);
}

ENTRY int __vdso_gettimeofday(struct timeval *tv, struct timezone *tz)
{
	const struct host_vdso_params *p = params();
	struct timespec now;
	long r;

	if (p->guest.page && guest_gettimeofday(&p->guest, tv, tz) == 0)
		return 0;
	if (!p->guest.shift.own)
		return syscall2(__NR_gettimeofday, (long)tv, (long)tz);
	r = host_clock(p, CLOCK_REALTIME, &now);
	if (r == 0)
		guest_clock_timeval(&p->guest, &now, tv, tz);
	return r;
}

ENTRY time_t __vdso_time(time_t *t)
{
	const struct host_vdso_params *p = params();
	struct timespec coarse;
	time_t now;

	if (!p->guest.page || guest_time(&p->guest, &now) != 0) {
		if (!p->guest.shift.own)
			return syscall2(__NR_time, (long)t, 0);
		/* time(2) is the coarse realtime clock's second. */
		host_clock(p, CLOCK_REALTIME_COARSE, &coarse);
		now = coarse.tv_sec;
	}
	if (t)
		*t = now;
	return now;
}
