/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the timekeeper's parts share besides their headers and struct
 * timekeeper: nanoseconds from the host's clocks, and in the measured
 * timebase.
 */
#ifndef PPCTIME_TIMEKEEPER_INTERNAL_H
#define PPCTIME_TIMEKEEPER_INTERNAL_H

#include <stdint.h>
#include <time.h>

#include "timekeeper.h"
#include "vclock.h"

static inline uint64_t ts_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * NSEC_PER_SEC + ts->tv_nsec;
}

static inline uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts_ns(&ts);
}

/* Once calibrated: ns as timebase ticks. */
static inline uint64_t ns_to_ticks(const struct timekeeper *tk, uint64_t ns)
{
	return (unsigned __int128)ns * tk->tb_ticks_per_sec / NSEC_PER_SEC;
}

#endif /* PPCTIME_TIMEKEEPER_INTERNAL_H */
