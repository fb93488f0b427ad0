// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of the timekeeper's options (timekeeper/timekeeper.h), read
 * from its data page the way ppctime's powerpc vDSO reads it
 * (timekeeper-rig.h): --realtime offsets, gettimeofday()'s timezone and
 * clock_getres(), the default update schedule, and bad options rejected.
 *
 * Prints TAP (tests/README.md) and, on lines starting with
 * '#', the figures behind them.
 */
#define _GNU_SOURCE
#include "timekeeper-rig.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "test_harness.h"

/* ---- --realtime ---- */

/*
 * REALTIME, REALTIME_COARSE and TAI run offset by exactly the offset (to
 * the agreement limits), the other clocks not at all.
 */
struct offset_case {
	const struct layout *l;
	struct timespec offset;
};

static void test_realtime_offset(const void *arg)
{
	const struct layout *l = ((const struct offset_case *)arg)->l;
	struct timespec offset = ((const struct offset_case *)arg)->offset;
	struct timekeeper_options o = { .realtime_offset = offset,
					 .update_hz = UPDATE_HZ,
					 .page_size = l->page_size };
	int64_t off = offset.tv_sec * (int64_t)NSEC_PER_SEC + offset.tv_nsec;
	int64_t worst[NCLOCKS] = { 0 };
	uint64_t retries = 0;
	struct rig rig;
	bool ok = true;
	char bad[160] = "";

	if (!rig_init(&rig, l, &o))
		return;
	rig_start(&rig);
	if (!is_mirror(&rig))
		spin_ns(NSEC_PER_SEC);	/* steering settles */
	for (int round = 0; round < 20000; round++) {
		for (size_t c = 0; c < NCLOCKS; c++) {
			int id = clocks[c].id;
			int64_t shift = id == VDSO_CLOCK_REALTIME || id == VDSO_CLOCK_TAI ||
					id == VDSO_CLOCK_REALTIME_COARSE ? off : 0;
			int64_t below = clocks[c].coarse ? COARSE_LAG_LIMIT_NS :
					is_mirror(&rig) ? 0 : STEER_TOLERANCE_NS;
			int64_t above = clocks[c].coarse || is_mirror(&rig) ? 0 :
					STEER_TOLERANCE_NS;
			uint64_t before = host_ns(id), v, after;
			int64_t err;

			if (!emu_read(&rig.reader, id, &v, &retries))
				continue;
			after = host_ns(id);
			v -= shift;
			err = v < before ? (int64_t)(v - before) :
			      v > after ? (int64_t)(v - after) : 0;
			if (err < -below || err > above) {
				if (ok)
					snprintf(bad, sizeof(bad), ": %s is %" PRId64
						 " ns off the host's plus %" PRId64,
						 clocks[c].name, err, shift);
				ok = false;
			}
			if (llabs(err) > llabs(worst[c]))
				worst[c] = err;
		}
	}
	printf("# %s realtime offset %+" PRId64 " ns (%s):", l->name, off,
	       timekeeper_mode_name(&rig.tk));
	for (size_t c = 0; c < NCLOCKS; c++)
		printf(" %s %+" PRId64, clocks[c].name, worst[c]);
	printf(" (worst ns off host + expected offset)\n");
	report(ok, "realtime offset %s %+" PRId64 " s%s", l->name,
	       (int64_t)offset.tv_sec, bad);
	rig_free(&rig);
}

/* ---- gettimeofday()'s timezone and clock_getres() ---- */

static void test_tz_res(const void *arg)
{
	const struct layout *l = arg;
	static const struct timezone tz = { .tz_minuteswest = -90, .tz_dsttime = 1 };
	struct timekeeper_options o = { .tz = &tz, .page_size = l->page_size };
	struct timespec res, coarse;
	struct rig rig;
	int32_t west, dst;
	uint32_t hrtimer_res, coarse_res;

	if (!rig_init(&rig, l, &o))
		return;
	clock_getres(CLOCK_MONOTONIC, &res);
	clock_getres(CLOCK_REALTIME_COARSE, &coarse);
	west = rd32(&rig.reader, INFO(&rig.reader, tz_minuteswest));
	dst = rd32(&rig.reader, INFO(&rig.reader, tz_dsttime));
	hrtimer_res = rd32(&rig.reader, INFO(&rig.reader, hrtimer_res));
	coarse_res = rd32(&rig.reader, INFO(&rig.reader, coarse_res));
	/* By default the coarse clocks step at every host tick while a
	 * reader runs: their resolution is the host's. */
	report(west == tz.tz_minuteswest && dst == tz.tz_dsttime &&
	       hrtimer_res == res.tv_nsec && !res.tv_sec && !coarse.tv_sec &&
	       coarse_res == coarse.tv_nsec,
	       "timezone, hrtimer_res and the coarse resolution %s: %d minutes west, "
	       "dst %d, %u ns, %u ns (host: %ld ns, its tick %ld ns)", l->name, west,
	       dst, hrtimer_res, coarse_res, res.tv_nsec, coarse.tv_nsec);
	rig_free(&rig);
}

/*
 * The default schedule: an update a period (whole host ticks, as few as
 * keep the rate within TIMEKEEPER_AUTO_MAX_HZ; one tick while a reader
 * runs) after the host's tick the last one saw, a little later, and never
 * in the past; update_hz says the readers' sleeping rate.
 */
static void test_schedule(const void *arg)
{
	const struct layout *l = arg;
	struct timekeeper_options o = { .page_size = l->page_size };
	struct timespec tick, now;
	uint64_t slow, period, next, at, bad = 0;
	struct rig rig;

	if (!rig_init(&rig, l, &o))
		return;
	clock_getres(CLOCK_MONOTONIC_COARSE, &tick);
	slow = (NSEC_PER_SEC / TIMEKEEPER_AUTO_MAX_HZ + tick.tv_nsec - 1) / tick.tv_nsec *
	       tick.tv_nsec;
	for (int i = 0; i < 100; i++) {
		timekeeper_update(&rig.tk);
		clock_gettime(CLOCK_MONOTONIC, &now);
		at = now.tv_sec * NSEC_PER_SEC + now.tv_nsec;
		/* The second half with a reader running. */
		period = i < 50 ? slow : (uint64_t)tick.tv_nsec;
		if (i >= 50)
			timekeeper_readers_ran(&rig.tk, at);
		next = timekeeper_next_update(&rig.tk, at);
		if (next <= at || next > at + period + tick.tv_nsec)
			bad++;
		else
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME,
					&(struct timespec){ next / NSEC_PER_SEC,
							    next % NSEC_PER_SEC }, NULL);
	}
	report(!bad && timekeeper_update_hz(&rig.tk) == (NSEC_PER_SEC + slow / 2) / slow,
	       "schedule %s: %" PRIu64 " ns between updates, a tick (%ld ns) while a "
	       "reader runs (%u a second), %" PRIu64 " of 100 due outside the next "
	       "period", l->name, slow, tick.tv_nsec, timekeeper_update_hz(&rig.tk), bad);
	rig_free(&rig);
}

/* ---- bad input ---- */

static const struct timezone far_tz = { .tz_minuteswest = 24 * 60 };
static const struct bad_input {
	const char *what;
	struct timekeeper_target target;
	struct timekeeper_options options;
} bad_input_cases[] = {
	{ "ppc32 little-endian", { 0, 0, VDSO_LAYOUT_6_1 }, { 0 } },
	{ "update rate too high", { 1, 0, VDSO_LAYOUT_6_1 }, { .update_hz = 10000000 } },
	{ "realtime offset tv_nsec", { 1, 0, VDSO_LAYOUT_6_1 },
	  { .realtime_offset = { 0, 1000000000 } } },
	{ "realtime before 1970", { 1, 0, VDSO_LAYOUT_6_1 },
	  { .realtime_offset = { -200LL * 365 * 86400, 0 } } },
	{ "timezone", { 1, 0, VDSO_LAYOUT_6_1 }, { .tz = &far_tz } },
	{ "page too small", { 1, 0, VDSO_LAYOUT_6_1 }, { .page_size = 128 } },
	{ "page size not a power of two", { 0, 1, VDSO_LAYOUT_6_1 }, { .page_size = 5000 } },
	{ "unknown mode", { 0, 1, VDSO_LAYOUT_6_1 }, { .mode = 7 } },
	{ "unknown data layout", { 1, 0, 0 }, { 0 } },
	{ "datastore pages with no page size", { 1, 0, VDSO_LAYOUT_DATASTORE }, { 0 } },
	{ "datastore page too small", { 1, 0, VDSO_LAYOUT_DATASTORE }, { .page_size = 2048 } },
};

static void test_bad_input(const void *arg)
{
	static uint8_t page[65536] __attribute__((aligned(65536)));
	const struct bad_input *bad = arg;
	struct timekeeper tk;
	char err[256] = "";
	int rc = timekeeper_init(&tk, page, &bad->target, &bad->options, err, sizeof(err));

	printf("# bad input, %s: %s\n", bad->what, err);
	report(rc == -1 && err[0], "bad input rejected: %s", bad->what);
}

int main(void)
{
	static const struct offset_case offsets[] = {
		{ &layouts[2], { 5 * 365 * 86400 + 12345, 123456789 } },
		{ &layouts[0], { -365 * 86400, 0 } },
	};

	for (size_t i = 0; i < TEST_ARRAY_SIZE(offsets); i++)
		test_add_case(test_realtime_offset, &offsets[i]);
	test_add_case(test_tz_res, &layouts[1]);
	test_add_case(test_tz_res, &datastore_layouts[0]);
	test_add_case(test_schedule, &layouts[1]);
	for (size_t i = 0; i < TEST_ARRAY_SIZE(bad_input_cases); i++)
		test_add_case(test_bad_input, &bad_input_cases[i]);
	return test_run_cases();
}
