/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The timekeeper: a host-native writer of the guest's vDSO data page, doing
 * what the kernel's update_vsyscall() does for a real powerpc vDSO.
 *
 * The guest's mftb is the host's TSC, so the page holds a linear function of
 * the TSC per clock (cycle_last, mult, shift, bases).  Two ways to fill it:
 *
 *   mirror  the host kernel publishes exactly such functions of the TSC in
 *           its own [vvar] page for its own vDSO.  Copying them (layout and
 *           byte order translated) makes the guest's vDSO and the host's
 *           clock_gettime() read one and the same timekeeper.
 *   steer   where the host's page cannot be used (another layout, a
 *           paravirtual clock, a time namespace), keep our own functions:
 *           continuous at every update, steered towards the host's clocks
 *           through mult only, with a bounded slew.  MONOTONIC_RAW has
 *           its own function, steered onto the host's MONOTONIC_RAW: its
 *           mult never takes MONOTONIC's NTP adjustments, only the small
 *           corrections that keep it on the host's.
 *
 * The high resolution clocks then agree with the host's clock_gettime()
 * exactly (mirror) or to well under a microsecond (steer).  The coarse
 * clocks and time() are the host's as of the last update, which comes
 * just after the host's tick: they may lag the host's by up to an update
 * period (longer while the timekeeper is kept from running), but are
 * never ahead of it.  While a program reading the pages runs, updates
 * come at every host tick, so its coarse clocks step as the host's do
 * (timekeeper_readers_ran()).  The guest's own system calls read this page too
 * (guest_clock.h), so the guest sees one timekeeper.
 *
 * Either way cycle_last is published a little in the past, since the
 * powerpc vDSO takes (tb - cycle_last) unsigned: a reader's tb just before
 * cycle_last would be a jump of minutes.
 *
 * Mirror mode reads the [vvar] mapping of the process that called
 * timekeeper_init(): forking after it is fine, exec is not.
 *
 * One writer at a time per page: timekeeper_run() in a thread or a forked
 * child, or timekeeper_update() by hand, never both at once.
 */
#ifndef PPCTIME_TIMEKEEPER_H
#define PPCTIME_TIMEKEEPER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/time.h>
#include <sys/types.h>
#include <time.h>

#include "ppctime/page_target.h"

enum timekeeper_mode {
	TIMEKEEPER_AUTO,	/* mirror where the host allows, else steer */
	TIMEKEEPER_MIRROR,	/* mirror or fail */
	TIMEKEEPER_STEER,	/* steer even where mirroring would work */
};

/*
 * The latest CLOCK_REALTIME Linux lets settimeofday() set (its
 * TIME_SETTOD_SEC_MAX, in 2232): with 30 years of uptime on top, still no
 * clock wraps its 64-bit nanoseconds.  The earliest is 1970.
 */
#define TIMEKEEPER_REALTIME_MAX_SEC	(INT64_MAX / 1000000000 - 30LL * 365 * 86400)

/* The timezone's minutes west, as settimeofday() takes them: 15 hours. */
#define TIMEKEEPER_MAX_TZ_MINUTES	900

/*
 * By default the timekeeper updates just after the host's ticks, as the
 * kernel does at its tick: at every tick while a program reading its
 * pages runs (its coarse clocks step at the updates), but no more often
 * than this while they all sleep (every few ticks: 28 ms at HZ 250, 25
 * at 1000, 30 at 100).  A wakeup costs a keeper 20 to 50 us of CPU on a
 * virtual machine, the more the longer it slept (a PVM guest at HZ 250:
 * 0.5% of a core at every tick, 0.34% at 83 a second, 0.20-0.33% at 50,
 * 0.13-0.21% at 36): 40 a second at most keep a keeper of sleeping
 * programs well within 0.3%.  The coarse clocks' resolution is the
 * host's tick, as the host's own is.
 */
#define TIMEKEEPER_AUTO_MAX_HZ	40
#define TIMEKEEPER_MAX_HZ	100000

/* All-zero (or a NULL pointer) means: the defaults. */
struct timekeeper_options {
	enum timekeeper_mode mode;
	/*
	 * Added to CLOCK_REALTIME, REALTIME_COARSE and TAI (--realtime=WHEN:
	 * WHEN minus the time now); MONOTONIC, BOOTTIME and RAW stay true.
	 * tv_nsec in [0, 1e9), tv_sec may be negative.
	 */
	struct timespec realtime_offset;
	/* What gettimeofday() reports as the timezone; NULL: the host's. */
	const struct timezone *tz;
	/* Updates per second; 0: in step with the host's tick. */
	unsigned update_hz;
	/*
	 * How far apart the layout's data pages lie in the caller's mapping
	 * (a data file's stride, ppctime/launch_protocol.h, or the target kernel's
	 * page size); 0: the first page's data only, which Linux 6.1's
	 * layout, all in its first page, allows.  Checked to hold what is
	 * written in each.
	 */
	size_t page_size;
};

/* The daemon's: one set of pages per target and layout. */
#define TIMEKEEPER_MAX_PAGES	6

/* Private to the timekeeper's files (timekeeper_internal.h). */
struct timekeeper;

/*
 * A timekeeper's state, zeroed, for timekeeper_init(): in memory that the
 * children forked after share (a watchdog sees timekeeper_updates() move).
 * NULL with errno set if it cannot be mapped.
 */
struct timekeeper *timekeeper_create(void);

/* Unmap tk, in this process. */
void timekeeper_destroy(struct timekeeper *tk);

/*
 * Calibrate, choose mirror or steer, and publish the first update, with
 * clock_mode ARCHTIMER.  datapage is the caller's shared mapping of the
 * target's layout of pages, page_size apart (the options); the
 * timekeeper writes tb_ticks_per_sec and the clock sources' data and
 * time info only (an auxiliary clock it leaves in mode NONE: the system
 * call's).  Returns 0, or -1 with a message in err.
 */
int timekeeper_init(struct timekeeper *tk, void *datapage,
		    const struct timekeeper_target *t,
		    const struct timekeeper_options *o,
		    char *err, size_t errlen);

/*
 * Another set of pages, for another target or layout, kept by the same
 * updates: a keeper of several calibrates and measures once, and each
 * update writes them all at one instant.  page_size as in the options.
 * Writes their first update.  Returns 0, or -1 with a message in err.
 */
int timekeeper_add_page(struct timekeeper *tk, void *datapage,
			const struct timekeeper_target *t, size_t page_size,
			char *err, size_t errlen);

/*
 * Update at the configured rate until timekeeper_stop(), by default at
 * every host tick while reader (the process reading the pages; 0: none
 * known) runs.  Blocks every signal it can first (in a thread it must not
 * take the target's signals), so in a forked child only SIGKILL ends it:
 * have the launcher set PR_SET_PDEATHSIG to SIGKILL there.  Returns 0
 * once stopped, -1 with errno set if sleeping fails.
 */
int timekeeper_run(struct timekeeper *tk, pid_t reader);

/*
 * A process that reads the pages, looked at now and then: whether it ran
 * since the last look (a 32nd of the time at least: a program at work,
 * even on a crowded machine, not a sleeper's wakeups), by its CPU-time
 * clock.
 */
struct timekeeper_reader {
	clockid_t cpu_clock;
	uint64_t cpu_ns, looked_ns;
};

/* Start looking at pid at now (CLOCK_MONOTONIC ns): 0, or -1 with errno. */
int timekeeper_reader_init(struct timekeeper_reader *r, pid_t pid, uint64_t now);

/* Whether it ran since the last look, at now; a process gone did not. */
int timekeeper_reader_ran(struct timekeeper_reader *r, uint64_t now);

/*
 * For a caller that sleeps on its own and knows its readers: whether it
 * is time to look at them (once a period of the default schedule; never
 * with a configured rate), and, where one ran, that it did: the updates
 * then come at every host tick for two such periods more.
 */
int timekeeper_readers_due(struct timekeeper *tk, uint64_t now);
void timekeeper_readers_ran(struct timekeeper *tk, uint64_t now);

/*
 * In the process that updates, once readers may come: a timer that
 * SIGKILLs it when no update comes in time (keeper_watch.h's deadline),
 * for when its watchdog cannot act (both stopped, a frozen cgroup); each
 * update pushes it back.  0, or -1 with errno.
 */
int timekeeper_arm_deadline(struct timekeeper *tk);

/*
 * When the next update is due, in CLOCK_MONOTONIC nanoseconds, for a
 * caller that sleeps on its own (now: that clock's time), after an
 * update.  At a period of a host tick or more, just after the host's
 * tick, so the update copies a coarse time a moment old; otherwise at the
 * configured rate.  A caller late by more than a period skips the missed
 * updates.
 */
uint64_t timekeeper_next_update(struct timekeeper *tk, uint64_t now);

/* Updates per second, as timekeeper_next_update() spaces them. */
unsigned timekeeper_update_hz(const struct timekeeper *tk);

/* Ask timekeeper_run() to return after its current update. */
void timekeeper_stop(struct timekeeper *tk);

/* One update, now. */
void timekeeper_update(struct timekeeper *tk);

/*
 * timekeeper_update() calls so far, read atomically: another process
 * sharing tk (timekeeper_create()) sees the timekeeper is alive.
 */
uint64_t timekeeper_updates(const struct timekeeper *tk);

/* "mirror" or "steer". */
const char *timekeeper_mode_name(const struct timekeeper *tk);

/* auto, mirror or steer (--timekeeper=NAME): 0, or -1 for another name. */
int timekeeper_mode_from_name(const char *name, enum timekeeper_mode *mode);

/*
 * One line for -v: the mode, the host layout mirrored or why not, mult,
 * shift and the timebase frequency.  Returns what snprintf() returns.
 */
int timekeeper_describe(const struct timekeeper *tk, char *buf, size_t len);

#endif /* PPCTIME_TIMEKEEPER_H */
