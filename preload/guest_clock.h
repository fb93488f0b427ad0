/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest's clocks as its vDSO reads them, read on the host: for the
 * time system calls QEMU makes on the guest's behalf (qemu-preload.c),
 * so that a system call and a vDSO call read one timekeeper, as in a
 * kernel.  Each call copies the data page, in the target's byte order,
 * under its seqcount, with the timebase, then runs the vDSO's own core
 * (vdso-kernel/lib/gettimeofday.c) on the copy.  Each returns 0, or
 * GUEST_CLOCK_UNSERVED where the guest's vDSO would make the system call
 * (a clock it does not serve, a page in mode NONE): then ask the host,
 * and make its answer the guest's with guest_clock_shift() (a launch's
 * own clock, --realtime or --tz, survives its timekeeper so).
 */
#ifndef PPCTIME_GUEST_CLOCK_H
#define PPCTIME_GUEST_CLOCK_H

#include <stdbool.h>
#include <sys/time.h>
#include <time.h>

#include "ppctime/page_target.h"

/* What a call returns where the page does not serve it. */
#define GUEST_CLOCK_UNSERVED	1

/*
 * A launch's own clock (--realtime, --tz) as its timekeeper keeps it in
 * the page, kept here too: once the page serves no more (the keeper gone,
 * mode NONE), the host's answers are shifted the same way, so the clock
 * never jumps back to the host's.
 */
struct guest_shift {
	bool own;		/* false: the host's clock, nothing changed */
	struct timespec realtime;	/* added to REALTIME, REALTIME_COARSE, TAI */
	struct timezone tz;	/* what gettimeofday() reports */
};

struct guest_clock {
	const void *page;	/* the first data page, mapped read-only */
	struct timekeeper_target target;	/* and the layout it is in */
	struct guest_shift shift;
};

int guest_clock_gettime(const struct guest_clock *g, clockid_t clk, struct timespec *ts);
int guest_clock_getres(const struct guest_clock *g, clockid_t clk, struct timespec *res);
int guest_gettimeofday(const struct guest_clock *g, struct timeval *tv, struct timezone *tz);
int guest_time(const struct guest_clock *g, time_t *t);

/* The host's reading of clk made the guest's: the launch's offset added. */
void guest_clock_shift(const struct guest_clock *g, clockid_t clk, struct timespec *ts);
/* gettimeofday()'s answer from the guest's CLOCK_REALTIME now (the host's,
 * shifted), with the launch's timezone: where g->shift.own only. */
void guest_clock_timeval(const struct guest_clock *g, const struct timespec *now,
			 struct timeval *tv, struct timezone *tz);

#endif /* PPCTIME_GUEST_CLOCK_H */
