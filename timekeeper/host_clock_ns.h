/* SPDX-License-Identifier: GPL-2.0 */
/* The host's clocks in nanoseconds, as the timekeeper and its daemon read them. */
#ifndef PPCTIME_HOST_CLOCK_NS_H
#define PPCTIME_HOST_CLOCK_NS_H

#include <stdint.h>
#include <time.h>

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

#endif /* PPCTIME_HOST_CLOCK_NS_H */
