// SPDX-License-Identifier: GPL-2.0
/*
 * Steer mode (steer.h): each update measures the host's clocks against
 * the counter, chooses the next mult (the host clock's rate plus a
 * bounded correction), and moves the functions on from where readers
 * see them now, so that no reading steps back.
 */
#include "steer.h"

#include <string.h>

#include "datapage_writer.h"
#include "host_clock_ns.h"
#include "ppctime/tsc.h"
#include "timekeeper_internal.h"
#include "vclock.h"

#define STEER_HORIZON_NS	20000000 /* errors are corrected over this */
#define STEER_SLEW_PPM		500	/* bounded like NTP's */
#define RATE_MIN_BASELINE_NS	1000000000ull
#define RATE_ROLL_NS		8000000000ull
#define BOOTTIME_STEP_NS	1000000	/* a suspend, not noise */

/* Host clock's ns per tick, << shift: a mult for that rate. */
static uint64_t rate_mult(const struct sample *a, const struct sample *b,
			  uint32_t shift)
{
	return ((unsigned __int128)(b->ns - a->ns) << shift) / (b->tsc - a->tsc);
}

static unsigned __int128 steered_at(const struct timekeeper_steered *s,
				    uint64_t tsc)
{
	return s->base + (__int128)(int64_t)(tsc - s->cycle_last) * s->mult;
}

static void steer_start(struct timekeeper *tk, struct timekeeper_steered *s,
			int clock_id, const struct sample *at, uint64_t rate)
{
	s->clock_id = clock_id;
	s->cycle_last = at->tsc;
	s->base = (unsigned __int128)at->ns << tk->shift;
	s->mult = rate;
	s->rate_mult = rate;
	s->ref_tsc = s->next_tsc = at->tsc;
	s->ref_ns = s->next_ns = at->ns;
}

/*
 * Choose the mult for the next interval from a fresh sample: the host
 * clock's rate, measured over seconds, plus a correction that closes the
 * present error over STEER_HORIZON_NS, bounded to STEER_SLEW_PPM.  A
 * sample with a wide bracket says too little and is passed over.
 */
static void steer_mult(struct timekeeper *tk, struct timekeeper_steered *s)
{
	struct sample now = sample_best(s->clock_id, 2);
	uint64_t horizon = ns_to_ticks(tk, STEER_HORIZON_NS);
	__int128 error, correction, limit;

	if (now.width > tk->max_bracket)
		return;
	if (now.tsc - s->ref_tsc >= ns_to_ticks(tk, RATE_MIN_BASELINE_NS))
		s->rate_mult = rate_mult(&(struct sample){ s->ref_tsc, s->ref_ns, 0 },
					 &now, tk->shift);
	if (now.tsc - s->next_tsc >= ns_to_ticks(tk, RATE_ROLL_NS)) {
		s->ref_tsc = s->next_tsc;
		s->ref_ns = s->next_ns;
		s->next_tsc = now.tsc;
		s->next_ns = now.ns;
	}
	if (horizon < 8 * ns_to_ticks(tk, tk->period_ns))
		horizon = 8 * ns_to_ticks(tk, tk->period_ns);
	error = (__int128)(steered_at(s, now.tsc) -
			   ((unsigned __int128)now.ns << tk->shift));
	correction = error / (__int128)horizon;
	limit = s->rate_mult * STEER_SLEW_PPM / 1000000;
	if (correction > limit)
		correction = limit;
	if (correction < -limit)
		correction = -limit;
	s->new_mult = s->rate_mult - correction;
}

/*
 * The steered function from tsc on: equal to the one readers had at tsc,
 * so no reading steps back, with cycle_last up to margin before it.
 */
static void steer_advance(struct timekeeper_steered *s, uint64_t tsc,
			  uint64_t margin)
{
	unsigned __int128 v = steered_at(s, tsc);

	s->mult = s->new_mult;
	s->cycle_last = tsc - margin;
	s->base = v - (unsigned __int128)margin * s->mult;
}

/*
 * The offsets of the other clocks from MONOTONIC, which the host changes
 * only by stepping (settimeofday, leap seconds, suspend).  REALTIME's is
 * exact: the coarse clocks of one tick differ by just that.
 */
static void steer_offsets(struct timekeeper *tk)
{
	int64_t tai;

	for (int tries = 0; tries < 3; tries++) {
		uint64_t rt = clock_ns(CLOCK_REALTIME_COARSE);
		uint64_t mono = clock_ns(CLOCK_MONOTONIC_COARSE);

		if (clock_ns(CLOCK_REALTIME_COARSE) == rt) {
			tk->realtime_minus_mono = rt - mono;
			tk->mono_coarse = mono;
			break;
		}
	}
	/* TAI - UTC is whole seconds. */
	tai = clock_ns(CLOCK_TAI) - clock_ns(CLOCK_REALTIME);
	tk->tai_minus_realtime = (tai + (int64_t)NSEC_PER_SEC / 2) /
				 (int64_t)NSEC_PER_SEC * NSEC_PER_SEC;
}

/* BOOTTIME - MONOTONIC from the best of a few brackets. */
static int64_t boottime_offset(int tries, uint64_t *width)
{
	int64_t best = 0;

	*width = UINT64_MAX;
	while (tries-- > 0) {
		uint64_t m1 = clock_ns(CLOCK_MONOTONIC);
		uint64_t b = clock_ns(CLOCK_BOOTTIME);
		uint64_t m2 = clock_ns(CLOCK_MONOTONIC);

		if (m2 - m1 < *width) {
			*width = m2 - m1;
			best = b - (m1 + (m2 - m1) / 2);
		}
	}
	return best;
}

void steer_update(struct timekeeper *tk)
{
	struct vclock vc[CS_BASES];
	struct page_seqs seqs;
	unsigned __int128 unit = sec_unit(tk->shift), mono, rt, tick_sec;
	const struct timespec *off = &tk->options.realtime_offset;
	__int128 offset = (__int128)off->tv_sec * NSEC_PER_SEC + off->tv_nsec;
	uint64_t width, tsc, room, margin, mono_coarse;
	int64_t boot;

	steer_mult(tk, &tk->mono);
	steer_mult(tk, &tk->raw);
	steer_offsets(tk);
	boot = boottime_offset(2, &width);
	if (width < SAMPLE_MAX_WIDTH_NS &&
	    (boot - tk->boottime_minus_mono > BOOTTIME_STEP_NS ||
	     tk->boottime_minus_mono - boot > BOOTTIME_STEP_NS))
		tk->boottime_minus_mono = boot;

	memset(vc, 0, sizeof(vc));
	page_write_begin(tk, &seqs);
	/*
	 * Readers done with the old data read the counter before seq went odd,
	 * readers of the new one will read it after seq goes even, on every
	 * page: the functions meet at a point in between.
	 */
	tsc = tsc_after_stores();

	/*
	 * __kernel_time() returns the realtime base's second as it stands,
	 * and the host's time() the second of its last tick.  Where a second
	 * began since that tick, hold cycle_last just before the second began
	 * (or the guest's time() would run ahead of the host's); otherwise
	 * keep it no further back than the second's start (see
	 * vclock_keep_in_past()).
	 */
	rt = steered_at(&tk->mono, tsc) +
	     to_shifted(tk->realtime_minus_mono + offset, tk->shift);
	tick_sec = (tk->mono_coarse + tk->realtime_minus_mono + offset) /
		   NSEC_PER_SEC;
	if (rt / unit > tick_sec) {
		margin = (rt - (tick_sec + 1) * unit) / tk->mono.new_mult + 1;
	} else {
		room = (rt % unit) / tk->mono.new_mult;
		margin = tk->margin < room ? tk->margin : room;
	}
	if (margin < tk->margin_min)
		margin = tk->margin_min;
	steer_advance(&tk->mono, tsc, margin);
	steer_advance(&tk->raw, tsc, tk->margin);

	mono = tk->mono.base;
	vc[0].clock_mode = VDSO_CLOCKMODE_ARCHTIMER;
	vc[0].cycle_last = tk->mono.cycle_last;
	vc[0].mult = tk->mono.mult;
	vc[0].shift = tk->shift;
	base_set(&vc[0], VDSO_CLOCK_MONOTONIC, mono);
	base_set(&vc[0], VDSO_CLOCK_REALTIME,
		 mono + to_shifted(tk->realtime_minus_mono + offset, tk->shift));
	base_set(&vc[0], VDSO_CLOCK_BOOTTIME,
		 mono + to_shifted(tk->boottime_minus_mono, tk->shift));
	base_set(&vc[0], VDSO_CLOCK_TAI,
		 mono + to_shifted(tk->realtime_minus_mono + offset +
				   tk->tai_minus_realtime, tk->shift));
	/*
	 * The host's coarse clocks, but never past our own high resolution
	 * ones: the kernel's coarse reading is never later than a precise one.
	 * Its REALTIME_COARSE is MONOTONIC_COARSE plus the same offset.
	 */
	mono_coarse = steered_at(&tk->mono, tsc) >> tk->shift;
	if (tk->mono_coarse < mono_coarse)
		mono_coarse = tk->mono_coarse;
	plain_set(&vc[0], VDSO_CLOCK_MONOTONIC_COARSE, mono_coarse);
	plain_set(&vc[0], VDSO_CLOCK_REALTIME_COARSE,
		  mono_coarse + tk->realtime_minus_mono + offset);

	vc[1].clock_mode = VDSO_CLOCKMODE_ARCHTIMER;
	vc[1].cycle_last = tk->raw.cycle_last;
	vc[1].mult = tk->raw.mult;
	vc[1].shift = tk->shift;
	base_set(&vc[1], VDSO_CLOCK_MONOTONIC_RAW, tk->raw.base);

	for (int i = 0; i < CS_BASES; i++)
		page_write_vclock(tk, i, &vc[i]);
	page_write_end(tk, &seqs);
}

void steer_setup(struct timekeeper *tk, const struct sample *raw,
		 const struct sample *mono, uint64_t mono_rate_hz)
{
	uint32_t mult;
	uint64_t width;

	/* Like the kernel's clocksource: delta * mult fits for 600 s. */
	calc_mult_shift(&mult, &tk->shift, tk->tb_ticks_per_sec, NSEC_PER_SEC, 600);
	steer_start(tk, &tk->raw, CLOCK_MONOTONIC_RAW, raw,
		    ((unsigned __int128)NSEC_PER_SEC << tk->shift) /
		    tk->tb_ticks_per_sec);
	steer_start(tk, &tk->mono, CLOCK_MONOTONIC, mono,
		    ((unsigned __int128)NSEC_PER_SEC << tk->shift) / mono_rate_hz);
	tk->raw.new_mult = tk->raw.mult;
	tk->mono.new_mult = tk->mono.mult;
	tk->boottime_minus_mono = boottime_offset(16, &width);
}
