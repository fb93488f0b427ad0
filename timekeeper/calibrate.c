// SPDX-License-Identifier: GPL-2.0
/*
 * The timebase frequency, measured by sampling the host's clocks against
 * the counter (calibrate.h).
 */
#include "calibrate.h"

#include "host_clock_ns.h"
#include "ppctime/fail.h"
#include "ppctime/tsc.h"
#include "timekeeper_internal.h"

#define CALIBRATION_NS		20000000	/* the launcher waits for it */
#define CALIBRATION_TRIES	5
#define CALIBRATION_MAX_WIDTH_NS 4000	/* widest bracket calibration uses */

static struct sample sample_clock(clockid_t id)
{
	struct timespec ts;
	uint64_t t1 = tsc_ordered(), t2;

	clock_gettime(id, &ts);
	t2 = tsc_bracket_end();
	return (struct sample){ t1 + (t2 - t1) / 2, ts_ns(&ts), t2 - t1 };
}

struct sample sample_best(clockid_t id, int tries)
{
	struct sample best = sample_clock(id);

	while (--tries > 0) {
		struct sample s = sample_clock(id);

		if (s.width < best.width)
			best = s;
	}
	return best;
}

int calibrate(struct timekeeper *tk, struct sample *raw_end,
	      struct sample *mono_end, uint64_t *mono_rate_hz,
	      char *err, size_t errlen)
{
	const struct timespec pause = { 0, CALIBRATION_NS };

	for (int attempt = 0; attempt < CALIBRATION_TRIES; attempt++) {
		struct sample raw0 = sample_best(CLOCK_MONOTONIC_RAW, 16);
		struct sample mono0 = sample_best(CLOCK_MONOTONIC, 16);
		uint64_t widest;

		nanosleep(&pause, NULL);
		*raw_end = sample_best(CLOCK_MONOTONIC_RAW, 16);
		*mono_end = sample_best(CLOCK_MONOTONIC, 16);
		if (raw_end->tsc <= raw0.tsc || raw_end->ns <= raw0.ns)
			return fail(err, errlen, "the TSC does not advance with "
				    "CLOCK_MONOTONIC_RAW: no timebase to publish");
		tk->tb_ticks_per_sec = ((unsigned __int128)(raw_end->tsc - raw0.tsc) *
					NSEC_PER_SEC + (raw_end->ns - raw0.ns) / 2) /
				       (raw_end->ns - raw0.ns);
		*mono_rate_hz = (unsigned __int128)(mono_end->tsc - mono0.tsc) *
				NSEC_PER_SEC / (mono_end->ns - mono0.ns);
		widest = raw0.width;
		if (mono0.width > widest) widest = mono0.width;
		if (raw_end->width > widest) widest = raw_end->width;
		if (mono_end->width > widest) widest = mono_end->width;
		if (widest <= ns_to_ticks(tk, CALIBRATION_MAX_WIDTH_NS)) {
			/* Steering trusts samples about as good as these. */
			tk->max_bracket = 4 * widest;
			if (tk->max_bracket < ns_to_ticks(tk, SAMPLE_MAX_WIDTH_NS))
				tk->max_bracket = ns_to_ticks(tk, SAMPLE_MAX_WIDTH_NS);
			return 0;
		}
	}
	return fail(err, errlen, "cannot calibrate the TSC: reading a clock "
		    "kept taking more than %d ns in %d tries (machine overloaded?)",
		    CALIBRATION_MAX_WIDTH_NS, CALIBRATION_TRIES);
}
