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
#include <sys/mman.h>
#include <sys/prctl.h>

#include <vdso/datapage.h>

#include "calibrate.h"
#include "datapage_writer.h"
#include "host_clock_ns.h"
#include "host_vvar.h"
#include "mirror.h"
#include "ppctime/fail.h"
#include "steer.h"
#include "timekeeper_internal.h"

#define MARGIN_NS		1000000	/* how far back cycle_last is kept */
/*
 * Never less: a guest's counter read may come from a CPU whose TSC trails
 * by a little, and the vDSO does not clamp a negative delta.  time() may
 * then return the previous second for this long after a second begins.
 */
#define MARGIN_MIN_NS		20000
/*
 * The host's coarse clocks step by whole ticks on a grid of their own
 * (the clocksource's), while its tick interrupt, which publishes each
 * step, comes at a phase of its own after the grid's point (20 to 100 us
 * on a kvm-clock guest at HZ 250, anything below a tick elsewhere; and
 * it drifts with NTP's adjustments).  So an update comes a settle after
 * the grid's point, learnt: a step of a sixteenth of a tick later after
 * an update too early to see the tick, a 256th earlier after each one
 * that saw it, so it follows the phase and stays just past it.
 */
#define SETTLE_STEP_UP		16
#define SETTLE_STEP_DOWN	256

static int check_options(const struct timekeeper_target *t,
			 const struct timekeeper_options *o,
			 char *err, size_t errlen)
{
	const struct vdso_layout *l;
	size_t needed;

	if (!t)
		return fail(err, errlen, "no target given");
	l = vdso_layout_find(t->layout);
	if (!l)
		return fail(err, errlen, "no data layout %d", t->layout);
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
	/* What the first page holds, and the frequency's page. */
	needed = vdso_layout_time_end(l, t->is64);
	if (!o->page_size && l->tbfreq_page)
		return fail(err, errlen, "the %s layout's pages need a page size",
			    vdso_layout_name(l->id));
	if (!l->tbfreq_page && needed < l->tbfreq[t->is64] + sizeof(uint64_t))
		needed = l->tbfreq[t->is64] + sizeof(uint64_t);
	if (o->page_size && (o->page_size & (o->page_size - 1)))
		return fail(err, errlen, "page size %zu is not a power of two",
			    o->page_size);
	if (o->page_size && o->page_size < needed)
		return fail(err, errlen, "page size %zu is smaller than the "
			    "%zu bytes of the data page", o->page_size, needed);
	return 0;
}

/* The caller's pages for t, page_size apart: checked by check_options(). */
static struct timekeeper_page new_page(void *data, const struct timekeeper_target *t,
				       size_t page_size)
{
	return (struct timekeeper_page){ .data = data, .page_size = page_size,
					 .target = *t, .layout = vdso_layout_find(t->layout) };
}

/*
 * The period: the configured rate's, or the host's tick, as many ticks as
 * keep it within TIMEKEEPER_AUTO_MAX_HZ (every tick while readers run).
 * The coarse clocks move once per update or per tick, whichever is less
 * often: that is their resolution, the host's tick by default.
 */
static void set_period(struct timekeeper *tk, uint64_t host_tick)
{
	const uint64_t shortest = NSEC_PER_SEC / TIMEKEEPER_AUTO_MAX_HZ;

	tk->host_tick_ns = host_tick ? host_tick : shortest;
	tk->settle_ns = tk->host_tick_ns / SETTLE_STEP_UP;
	if (tk->options.update_hz)
		tk->period_ns = NSEC_PER_SEC / tk->options.update_hz;
	else
		tk->period_ns = (shortest + tk->host_tick_ns - 1) / tk->host_tick_ns *
				tk->host_tick_ns;
	tk->coarse_res = tk->options.update_hz && tk->period_ns > tk->host_tick_ns
			 ? tk->period_ns : tk->host_tick_ns;
}

struct timekeeper *timekeeper_create(void)
{
	struct timekeeper *tk = mmap(NULL, sizeof(*tk), PROT_READ | PROT_WRITE,
				     MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return tk == MAP_FAILED ? NULL : tk;
}

void timekeeper_destroy(struct timekeeper *tk)
{
	munmap(tk, sizeof(*tk));
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
	tk->pages[0] = new_page(datapage, t, o->page_size);
	tk->nr_pages = 1;
	tk->options = *o;
	tk->options.tz = NULL;	/* copied below; the caller's may go away */
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
	set_period(tk, ts_ns(&res));

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

	page_write_tbfreq(tk, &tk->pages[0]);
	timekeeper_update(tk);
	tk->due_ns = clock_ns(CLOCK_MONOTONIC);
	return 0;
}

int timekeeper_add_page(struct timekeeper *tk, void *datapage,
			const struct timekeeper_target *t, size_t page_size,
			char *err, size_t errlen)
{
	struct timekeeper_options o = tk->options;
	struct timekeeper_page *p = &tk->pages[tk->nr_pages];

	o.page_size = page_size;
	if (tk->nr_pages == TIMEKEEPER_MAX_PAGES)
		return fail(err, errlen, "a timekeeper keeps %d pages at most",
			    TIMEKEEPER_MAX_PAGES);
	if (check_options(t, &o, err, errlen))
		return -1;
	if (!datapage)
		return fail(err, errlen, "no data page given");
	*p = new_page(datapage, t, page_size);
	tk->nr_pages++;
	page_write_tbfreq(tk, p);
	/* This page has seen nothing yet: the next update writes it all. */
	memset(tk->host_seq, 0, sizeof(tk->host_seq));
	timekeeper_update(tk);
	return 0;
}

void timekeeper_update(struct timekeeper *tk)
{
	/* The tick this update copies, or a later one. */
	uint64_t tick = clock_ns(CLOCK_MONOTONIC_COARSE);
	uint64_t up = tk->host_tick_ns / SETTLE_STEP_UP, down = tk->host_tick_ns / SETTLE_STEP_DOWN;

	if (clock_ns(CLOCK_MONOTONIC) - tick < tk->host_tick_ns) {
		tk->ticks_missed = 0;
		if (tk->settle_ns >= 2 * down)
			tk->settle_ns -= down;
	} else {
		tk->ticks_missed++;
		if (tk->settle_ns + up < tk->host_tick_ns)
			tk->settle_ns += up;
	}
	tk->tick_seen_ns = tick;
	if (tk->mode == TIMEKEEPER_MIRROR)
		mirror_update(tk);
	else
		steer_update(tk);
	__atomic_add_fetch(&tk->updates, 1, __ATOMIC_RELAXED);
	if (tk->deadline_armed)
		keeper_deadline_updated(&tk->deadline, clock_ns(CLOCK_MONOTONIC));
}

int timekeeper_arm_deadline(struct timekeeper *tk)
{
	if (keeper_deadline_start(&tk->deadline, timekeeper_update_hz(tk)) < 0)
		return -1;
	tk->deadline_armed = 1;
	return 0;
}

int timekeeper_reader_init(struct timekeeper_reader *r, pid_t pid, uint64_t now)
{
	struct timespec cpu;
	int e = clock_getcpuclockid(pid, &r->cpu_clock);

	if (e || clock_gettime(r->cpu_clock, &cpu)) {
		errno = e ? e : errno;
		return -1;
	}
	r->cpu_ns = ts_ns(&cpu);
	r->looked_ns = now;
	return 0;
}

int timekeeper_reader_ran(struct timekeeper_reader *r, uint64_t now)
{
	struct timespec cpu;
	uint64_t ran, looked = r->looked_ns;

	if (clock_gettime(r->cpu_clock, &cpu))
		return 0;
	ran = ts_ns(&cpu) - r->cpu_ns;
	r->cpu_ns = ts_ns(&cpu);
	r->looked_ns = now;
	return ran && ran * 32 >= now - looked;
}

int timekeeper_readers_due(struct timekeeper *tk, uint64_t now)
{
	if (tk->options.update_hz || now - tk->readers_looked_ns < tk->period_ns)
		return 0;
	tk->readers_looked_ns = now;
	return 1;
}

void timekeeper_readers_ran(struct timekeeper *tk, uint64_t now)
{
	tk->readers_ran_until_ns = now + 2 * tk->period_ns;
}

uint64_t timekeeper_updates(const struct timekeeper *tk)
{
	return __atomic_load_n(&tk->updates, __ATOMIC_RELAXED);
}

void timekeeper_stop(struct timekeeper *tk)
{
	__atomic_store_n(&tk->stop, 1, __ATOMIC_RELEASE);
}

uint64_t timekeeper_next_update(struct timekeeper *tk, uint64_t now)
{
	uint64_t period = now < tk->readers_ran_until_ns ? tk->host_tick_ns : tk->period_ns;

	if (period < tk->host_tick_ns) {
		tk->due_ns += period;
		/* Late by more than a period (stopped, overloaded): the
		 * missed updates are gone. */
		if (tk->due_ns + period <= now)
			tk->due_ns = now + period;
	} else if (tk->ticks_missed == 1) {
		/* Came before the host had its tick: once more, a little later. */
		tk->due_ns = now + tk->host_tick_ns / SETTLE_STEP_UP;
	} else {
		tk->due_ns = tk->tick_seen_ns + period + tk->settle_ns;
		/* The host's tick is late, or we are: a period from now. */
		if (tk->due_ns <= now)
			tk->due_ns = now + period;
	}
	return tk->due_ns;
}

unsigned timekeeper_update_hz(const struct timekeeper *tk)
{
	return (NSEC_PER_SEC + tk->period_ns / 2) / tk->period_ns;
}

int timekeeper_run(struct timekeeper *tk, pid_t reader)
{
	sigset_t all;

	/* A reader we cannot look at is taken as asleep: the default rate. */
	tk->reader_pid = reader && !timekeeper_reader_init(&tk->reader, reader,
							  clock_ns(CLOCK_MONOTONIC)) ? reader : 0;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	/* The default 50 us of timer slack would halve a 10 kHz rate. */
	if (tk->period_ns < tk->host_tick_ns)
		prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	while (!__atomic_load_n(&tk->stop, __ATOMIC_ACQUIRE)) {
		uint64_t at = timekeeper_next_update(tk, clock_ns(CLOCK_MONOTONIC));
		struct timespec next = { at / NSEC_PER_SEC, at % NSEC_PER_SEC };
		int e;

		e = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		if (e && e != EINTR) {
			errno = e;
			return -1;
		}
		timekeeper_update(tk);
		if (tk->reader_pid && timekeeper_readers_due(tk, ts_ns(&next)) &&
		    timekeeper_reader_ran(&tk->reader, ts_ns(&next)))
			timekeeper_readers_ran(tk, ts_ns(&next));
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
