/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The timekeeper's state, private to its parts (timekeeper/README.md);
 * callers see struct timekeeper only through timekeeper.h.
 */
#ifndef PPCTIME_TIMEKEEPER_INTERNAL_H
#define PPCTIME_TIMEKEEPER_INTERNAL_H

#include <stdint.h>
#include <sys/time.h>

#include <vdso/datapage.h>

#include "keeper_watch.h"
#include "ppctime/vdso_layout.h"
#include "timekeeper.h"
#include "vclock.h"

struct host_layout;

/* One clock's linear function in steer mode. */
struct timekeeper_steered {
	uint64_t cycle_last;	/* where base holds */
	uint32_t mult;		/* as published: rate plus phase correction */
	uint32_t new_mult;	/* for the next update to publish */
	unsigned __int128 base;	/* ns << shift at cycle_last */
	uint64_t rate_mult;	/* the host clock's measured rate, as a mult */
	uint64_t ref_tsc, ref_ns;	/* the sample the rate is measured from */
	uint64_t next_tsc, next_ns;	/* the one that will replace it */
	int clock_id;		/* the host clock it follows */
};

/* One set of pages the timekeeper writes, in its target's layout and byte order. */
struct timekeeper_page {
	uint8_t *data;			/* the first of them */
	size_t page_size;		/* how far apart they lie there */
	struct timekeeper_target target;
	const struct vdso_layout *layout;	/* target.layout's */
	int32_t mode[CS_BASES];		/* clock_mode as last written */
	int written;			/* by an update yet */
};

/* timekeeper.h's, whole. */
struct timekeeper {
	struct timekeeper_page pages[TIMEKEEPER_MAX_PAGES];
	int nr_pages;
	struct timekeeper_options options;	/* page_size: the first page's */
	struct timezone tz;
	enum timekeeper_mode mode;	/* MIRROR or STEER once initialised */
	char steer_reason[320];		/* why not mirror, in steer mode */
	uint64_t tb_ticks_per_sec;	/* measured, as published */
	uint32_t shift;			/* of our own functions (steer) */
	uint64_t margin;		/* ticks cycle_last is kept in the past */
	uint64_t margin_min;		/* ticks it is kept back at the least */
	uint64_t period_ns;		/* between updates */
	uint64_t host_tick_ns;		/* the host's tick, from its coarse res */
	uint64_t tick_seen_ns;		/* the host's last tick, at the last update */
	int ticks_missed;		/* updates in a row that came before it */
	uint64_t settle_ns;		/* how long after the tick's point it comes */
	uint64_t due_ns;		/* when the next update is due */
	uint64_t readers_looked_ns;	/* timekeeper_readers_due() */
	uint64_t readers_ran_until_ns;	/* updates at every tick until then */
	struct timekeeper_reader reader;	/* timekeeper_run()'s, if reader_pid */
	pid_t reader_pid;
	struct keeper_deadline deadline;	/* the updating process's, if armed */
	int deadline_armed;
	uint32_t hrtimer_res;
	uint32_t coarse_res;		/* the page's: the host's tick, or a set period */
	int stop;			/* set by timekeeper_stop() */
	uint64_t updates;		/* timekeeper_update() calls so far */
	/* mirror */
	const uint8_t *host_vvar;
	const struct host_layout *host_layout;
	uint32_t host_seq[2];		/* of the data last copied */
	uint32_t host_mult, host_shift;	/* last copied, for describe */
	/* steer */
	struct timekeeper_steered mono, raw;
	uint64_t max_bracket;		/* widest TSC bracket a sample may have */
	int64_t realtime_minus_mono, boottime_minus_mono, tai_minus_realtime;
	uint64_t mono_coarse;		/* the host's, when last read */
};


/* Once calibrated: ns as timebase ticks. */
static inline uint64_t ns_to_ticks(const struct timekeeper *tk, uint64_t ns)
{
	return (unsigned __int128)ns * tk->tb_ticks_per_sec / NSEC_PER_SEC;
}

#endif /* PPCTIME_TIMEKEEPER_INTERNAL_H */
