/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Samples of the host's clocks against the counter, and the calibration
 * of the timebase from them.
 */
#ifndef PPCTIME_CALIBRATE_H
#define PPCTIME_CALIBRATE_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "timekeeper.h"

#define SAMPLE_MAX_WIDTH_NS	1000	/* widest bracket steering uses */

/* A host clock's reading, bracketed by two counter reads. */
struct sample {
	uint64_t tsc;		/* the bracket's middle */
	uint64_t ns;
	uint64_t width;		/* ticks between the bracket's ends */
};

/* The narrowest of tries brackets: a preempted one is wide. */
struct sample sample_best(clockid_t id, int tries);

/*
 * Measure tk->tb_ticks_per_sec against CLOCK_MONOTONIC_RAW, and the widest
 * bracket steering may trust (tk->max_bracket).  Returns 0 with the last
 * samples of MONOTONIC_RAW and MONOTONIC, for steer mode to start from,
 * and the ticks in one second of MONOTONIC; or -1 with a message in err.
 */
int calibrate(struct timekeeper *tk, struct sample *raw_end,
	      struct sample *mono_end, uint64_t *mono_rate_hz,
	      char *err, size_t errlen);

#endif /* PPCTIME_CALIBRATE_H */
