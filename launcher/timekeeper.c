// SPDX-License-Identifier: GPL-2.0
/*
 * The timekeeper's API (timekeeper.h): options, calibration and the
 * choice of mode at init, then updates at the configured rate.  The
 * parts: calibrate.c measures the timebase; mirror.c (reading the host's
 * [vvar] with host_vvar.c) or steer.c computes each update's linear
 * functions (vclock.c); datapage_writer.c writes them to the page.
 */
#define _GNU_SOURCE
#include "timekeeper.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>

#include <vdso/datapage.h>

#include "calibrate.h"
#include "datapage_writer.h"
#include "fail.h"
#include "host_vvar.h"
#include "mirror.h"
#include "steer.h"
#include "timekeeper_internal.h"

#define MARGIN_NS		1000000	/* how far back cycle_last is kept */
/*
 * Never less: a guest's counter read may come from a CPU whose TSC trails
 * by a little, and the vDSO does not clamp a negative delta.  time() may
 * then return the previous second for this long after a second begins.
 */
#define MARGIN_MIN_NS		20000

static int check_options(const struct timekeeper_target *t,
			 const struct timekeeper_options *o,
			 char *err, size_t errlen)
{
	size_t needed;

	if (!t)
		return fail(err, errlen, "no target given");
	if (!t->is64 && !t->big_endian)
		return fail(err, errlen, "ppc32 little-endian is not a target: "
			    "ppc32 is big-endian");
	if (o->mode != TIMEKEEPER_AUTO && o->mode != TIMEKEEPER_MIRROR &&
	    o->mode != TIMEKEEPER_STEER)
		return fail(err, errlen, "unknown timekeeper mode %d", o->mode);
	if (o->update_hz > TIMEKEEPER_MAX_HZ)
		return fail(err, errlen, "update rate %u Hz is above the %u Hz "
			    "the timekeeper can keep", o->update_hz,
			    TIMEKEEPER_MAX_HZ);
	if (o->realtime_offset.tv_nsec < 0 ||
	    o->realtime_offset.tv_nsec >= (long)NSEC_PER_SEC)
		return fail(err, errlen, "realtime offset's tv_nsec %ld is not "
			    "in [0, 1e9)", o->realtime_offset.tv_nsec);
	if (o->tz && (o->tz->tz_minuteswest > TIMEKEEPER_MAX_TZ_MINUTES ||
		      o->tz->tz_minuteswest < -TIMEKEEPER_MAX_TZ_MINUTES))
		return fail(err, errlen, "timezone %d minutes west is more than "
			    "15 hours away", o->tz->tz_minuteswest);
	needed = t->is64 ? sizeof(struct vdso_arch_data64)
			 : sizeof(struct vdso_arch_data32);
	if (o->page_size && (o->page_size & (o->page_size - 1)))
		return fail(err, errlen, "page size %zu is not a power of two",
			    o->page_size);
	if (o->page_size && o->page_size < needed)
		return fail(err, errlen, "page size %zu is smaller than the "
			    "%zu bytes of the data page", o->page_size, needed);
	return 0;
}

int timekeeper_init(struct timekeeper *tk, void *datapage,
		    const struct timekeeper_target *t,
		    const struct timekeeper_options *o,
		    char *err, size_t errlen)
{
	static const struct timekeeper_options defaults;
	struct sample raw, mono;
	uint64_t mono_rate_hz = 0;	/* set by calibrate() */
	struct timespec res, now;
	int64_t realtime_sec;
	char why[sizeof(tk->steer_reason)];

	if (!o)
		o = &defaults;
	if (check_options(t, o, err, errlen))
		return -1;
	if (!datapage)
		return fail(err, errlen, "no data page given");
	memset(tk, 0, sizeof(*tk));
	tk->page = datapage;
	tk->target = *t;
	tk->options = *o;
	tk->options.tz = NULL;	/* copied below; the caller's may go away */
	tk->period_ns = NSEC_PER_SEC / (o->update_hz ? o->update_hz
						     : TIMEKEEPER_DEFAULT_HZ);

	clock_gettime(CLOCK_REALTIME, &now);
	/* The carry of the nanoseconds too: an offset to @0 is not -1 s. */
	if (__builtin_add_overflow(now.tv_sec, o->realtime_offset.tv_sec +
				   (now.tv_nsec + o->realtime_offset.tv_nsec >= (long)NSEC_PER_SEC),
				   &realtime_sec) ||
	    realtime_sec < 0 || realtime_sec >= TIMEKEEPER_REALTIME_MAX_SEC)
		return fail(err, errlen, "realtime offset %jd s puts the clock "
			    "before 1970 or past what Linux can set (%jd)",
			    (intmax_t)o->realtime_offset.tv_sec,
			    (intmax_t)TIMEKEEPER_REALTIME_MAX_SEC);
	if (o->tz)
		tk->tz = *o->tz;
	else if (gettimeofday(&(struct timeval){ 0 }, &tk->tz))
		return fail(err, errlen, "gettimeofday: %s", strerror(errno));
	if (clock_getres(CLOCK_MONOTONIC, &res))
		return fail(err, errlen, "clock_getres: %s", strerror(errno));
	tk->hrtimer_res = ts_ns(&res);
	if (clock_getres(CLOCK_MONOTONIC_COARSE, &res))
		return fail(err, errlen, "clock_getres: %s", strerror(errno));
	tk->coarse_res = ts_ns(&res);

	if (calibrate(tk, &raw, &mono, &mono_rate_hz, err, errlen))
		return -1;
	tk->margin = ns_to_ticks(tk, MARGIN_NS);
	tk->margin_min = ns_to_ticks(tk, MARGIN_MIN_NS);

	if (o->mode != TIMEKEEPER_STEER && mirror_setup(tk, why, sizeof(why))) {
		tk->mode = TIMEKEEPER_MIRROR;
	} else if (o->mode == TIMEKEEPER_MIRROR) {
		return fail(err, errlen, "cannot mirror the host's time: %s", why);
	} else {
		tk->mode = TIMEKEEPER_STEER;
		snprintf(tk->steer_reason, sizeof(tk->steer_reason), "%s",
			 o->mode == TIMEKEEPER_STEER ? "asked to steer" : why);
		steer_setup(tk, &raw, &mono, mono_rate_hz);
	}

	page_write_tbfreq(tk);
	timekeeper_update(tk);
	return 0;
}

int timekeeper_init_like(struct timekeeper *tk, void *datapage,
			 const struct timekeeper_target *t, size_t page_size,
			 const struct timekeeper *like, char *err, size_t errlen)
{
	struct timekeeper_options o = like->options;

	o.page_size = page_size;
	if (check_options(t, &o, err, errlen))
		return -1;
	if (!datapage)
		return fail(err, errlen, "no data page given");
	*tk = *like;
	tk->page = datapage;
	tk->target = *t;
	tk->options = o;
	/* This page has seen nothing yet: the first update writes it all. */
	tk->updates = 0;
	tk->stop = 0;
	memset(tk->host_seq, 0, sizeof(tk->host_seq));
	page_write_tbfreq(tk);
	timekeeper_update(tk);
	return 0;
}

void timekeeper_update(struct timekeeper *tk)
{
	if (tk->mode == TIMEKEEPER_MIRROR)
		mirror_update(tk);
	else
		steer_update(tk);
	__atomic_add_fetch(&tk->updates, 1, __ATOMIC_RELAXED);
}

void timekeeper_stop(struct timekeeper *tk)
{
	__atomic_store_n(&tk->stop, 1, __ATOMIC_RELEASE);
}

int timekeeper_run(struct timekeeper *tk)
{
	sigset_t all;
	struct timespec next;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	/* The default 50 us of timer slack would halve a 10 kHz rate. */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!__atomic_load_n(&tk->stop, __ATOMIC_ACQUIRE)) {
		uint64_t at = ts_ns(&next) + tk->period_ns;
		int e;

		/* Fell behind (stopped, overloaded): don't try to catch up. */
		if (at + tk->period_ns < clock_ns(CLOCK_MONOTONIC))
			at = clock_ns(CLOCK_MONOTONIC) + tk->period_ns;
		next.tv_sec = at / NSEC_PER_SEC;
		next.tv_nsec = at % NSEC_PER_SEC;
		e = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		if (e && e != EINTR) {
			errno = e;
			return -1;
		}
		timekeeper_update(tk);
	}
	return 0;
}

int timekeeper_mode_from_name(const char *name, enum timekeeper_mode *mode)
{
	static const char *const names[] = {
		[TIMEKEEPER_AUTO] = "auto", [TIMEKEEPER_MIRROR] = "mirror",
		[TIMEKEEPER_STEER] = "steer",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i])) {
			*mode = i;
			return 0;
		}
	return -1;
}

const char *timekeeper_mode_name(const struct timekeeper *tk)
{
	return tk->mode == TIMEKEEPER_MIRROR ? "mirror" : "steer";
}

int timekeeper_describe(const struct timekeeper *tk, char *buf, size_t len)
{
	if (tk->mode == TIMEKEEPER_MIRROR)
		return snprintf(buf, len, "timekeeper: mirror of the host's [vvar] "
				"(layout of %s: %s[] at %zu, %zu bytes): mult %u "
				"shift %u; timebase %" PRIu64 " Hz",
				tk->host_layout->kernels, tk->host_layout->array,
				tk->host_layout->offset, tk->host_layout->stride,
				tk->host_mult, tk->host_shift, tk->tb_ticks_per_sec);
	return snprintf(buf, len, "timekeeper: steer (%s): mult %u shift %u; "
			"timebase %" PRIu64 " Hz", tk->steer_reason,
			tk->mono.mult, tk->shift, tk->tb_ticks_per_sec);
}
