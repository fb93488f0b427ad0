/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest's clocks as its vDSO reads them, read on the host: for the
 * time system calls QEMU makes on the guest's behalf (qemu-preload.c),
 * so that a system call and a vDSO call read one timekeeper, as in a
 * kernel.  Each call copies the data page, in the target's byte order,
 * under its seqcount, with the timebase, then runs the vDSO's own core
 * (vdso-kernel/lib/gettimeofday.c) on the copy.  Each returns 0, or
 * GUEST_CLOCK_UNSERVED where the guest's vDSO would make the system call
 * (a clock it does not serve, a page in mode NONE): then ask the host.
 */
#ifndef PPCTIME_GUEST_CLOCK_H
#define PPCTIME_GUEST_CLOCK_H

#include <sys/time.h>
#include <time.h>

#include "timekeeper.h"

/* What a call returns where the page does not serve it. */
#define GUEST_CLOCK_UNSERVED	1

struct guest_clock {
	const void *page;	/* the first data page, mapped read-only */
	struct timekeeper_target target;	/* and the layout it is in */
};

int guest_clock_gettime(const struct guest_clock *g, clockid_t clk, struct timespec *ts);
int guest_clock_getres(const struct guest_clock *g, clockid_t clk, struct timespec *res);
int guest_gettimeofday(const struct guest_clock *g, struct timeval *tv, struct timezone *tz);
int guest_time(const struct guest_clock *g, time_t *t);

#endif /* PPCTIME_GUEST_CLOCK_H */
