// SPDX-License-Identifier: GPL-2.0
/*
 * The timekeeper: keeps the guest's vDSO data page as the kernel's
 * update_vsyscall() keeps a real one.  See timekeeper.h for the two modes.
 *
 * Time inside is mostly "shifted nanoseconds" (ns << shift), the unit the
 * page's high resolution bases are in, held in 128 bits so that whole
 * dates fit and nothing is rounded: moving a linear function's cycle_last
 * by d ticks and its base by d * mult leaves it exactly the same function.
 */
#define _GNU_SOURCE
#include "timekeeper.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <x86intrin.h>

#include <vdso/datapage.h>

#include "fail.h"

#ifndef __x86_64__
#error "the timekeeper reads the guest's timebase as the x86-64 TSC"
#endif

#define NSEC_PER_SEC		1000000000ull
#define MARGIN_NS		1000000	/* how far back cycle_last is kept */
/*
 * Never less: a guest's counter read may come from a CPU whose TSC trails
 * by a little, and the vDSO does not clamp a negative delta.  time() may
 * then return the previous second for this long after a second begins.
 */
#define MARGIN_MIN_NS		20000
#define CALIBRATION_NS		20000000	/* the launcher waits for it */
#define CALIBRATION_TRIES	5
#define CALIBRATION_MAX_WIDTH_NS 4000	/* widest bracket calibration uses */
#define SAMPLE_MAX_WIDTH_NS	1000	/* widest bracket steering uses */
#define STEER_HORIZON_NS	20000000 /* errors are corrected over this */
#define STEER_SLEW_PPM		500	/* bounded like NTP's */
#define RATE_MIN_BASELINE_NS	1000000000ull
#define RATE_ROLL_NS		8000000000ull
#define MIRROR_STALE_NS		16000000000ull
#define MIRROR_TOLERANCE_NS	1000
#define MIRROR_VALIDATION_ROUNDS 16
#define BOOTTIME_STEP_NS	1000000	/* a suspend, not noise */
#define MAX_TZ_MINUTES		(15 * 60)	/* what settimeofday() accepts */

/* data[0]'s high resolution clocks: their bases move with cycle_last. */
static const int hres_clocks[] = {
	VDSO_CLOCK_REALTIME, VDSO_CLOCK_MONOTONIC, VDSO_CLOCK_BOOTTIME,
	VDSO_CLOCK_TAI,
};

/*
 * One vdso_data's worth of a linear function, in host byte order: what is
 * published, or what was read from the host's page.
 */
struct vclock {
	int32_t clock_mode;
	uint64_t cycle_last;
	uint32_t mult, shift;
	struct { uint64_t sec, nsec; } base[VDSO_BASES];
};

/*
 * Layouts of the host kernel's x86 time data, newest first: where the
 * first clock's data sits in the first [vvar] page, the distance to the
 * second (CS_RAW), and whether max_cycles (overflow protection) sits
 * between cycle_last and mask.  Anything else is left to validation to
 * turn down.
 */
struct host_layout {
	const char *kernels, *shape;
	size_t offset, stride;
	bool has_max_cycles;
};

static const struct host_layout host_layouts[] = {
	{ "6.15+", "vdso_clock[] at 0, 232 bytes", 0, 232, true },
	{ "6.10-6.14", "vdso_data[] at 128, 248 bytes", 128, 248, true },
	{ "5.3-6.9", "vdso_data[] at 128, 240 bytes", 128, 240, false },
};

/* x86's VDSO_CLOCKMODE_TSC: the only host mode whose data is TSC-based. */
#define HOST_CLOCKMODE_TSC	1
/* The host kernel's writes take well under a microsecond; this is ~1 ms. */
#define HOST_MAX_SPINS		100000

/* The counter, read after everything before it has executed. */
static inline uint64_t tsc_ordered(void)
{
	_mm_lfence();
	return __rdtsc();
}

/* The end of a bracket: after the bracketed work, before what follows. */
static inline uint64_t tsc_bracket_end(void)
{
	unsigned int aux;
	uint64_t t = __rdtscp(&aux);

	_mm_lfence();
	return t;
}

/* The counter, read once the stores before it are visible to everyone. */
static inline uint64_t tsc_after_stores(void)
{
	_mm_mfence();
	return tsc_ordered();
}

static uint64_t ts_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * NSEC_PER_SEC + ts->tv_nsec;
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts_ns(&ts);
}

static uint64_t ns_to_ticks(const struct timekeeper *tk, uint64_t ns)
{
	return (unsigned __int128)ns * tk->tb_ticks_per_sec / NSEC_PER_SEC;
}

/* ---- The page, in the target's byte order ---- */

static size_t data_offset(const struct timekeeper_target *t, int i)
{
	return (t->is64 ? VDSO_DATA_OFFSET64 : VDSO_DATA_OFFSET32) +
	       i * sizeof(struct vdso_data);
}

#define DATA_FIELD(t, i, field) \
	(data_offset(t, i) + offsetof(struct vdso_data, field))

static void put32(uint8_t *page, const struct timekeeper_target *t,
		  size_t off, uint32_t v)
{
	if (t->big_endian)
		v = __builtin_bswap32(v);
	__atomic_store_n((uint32_t *)(page + off), v, __ATOMIC_RELAXED);
}

/*
 * One store: a ppc64 reader loads the doubleword at once, a ppc32 one in
 * two words, which only the seqcount makes consistent.
 */
static void put64(uint8_t *page, const struct timekeeper_target *t,
		  size_t off, uint64_t v)
{
	if (t->big_endian)
		v = __builtin_bswap64(v);
	__atomic_store_n((uint64_t *)(page + off), v, __ATOMIC_RELAXED);
}

static uint32_t get32(const uint8_t *page, const struct timekeeper_target *t,
		      size_t off)
{
	uint32_t v = __atomic_load_n((const uint32_t *)(page + off),
				     __ATOMIC_RELAXED);

	return t->big_endian ? __builtin_bswap32(v) : v;
}

/*
 * seq odd in data[0] and data[1], then the write barrier.  A seq found odd
 * (a writer died half way, or the page is new) stays odd rather than
 * becoming even with a half-written page behind it.
 */
static void page_write_begin(uint8_t *page, const struct timekeeper_target *t,
			     uint32_t seq[CS_BASES])
{
	for (int i = 0; i < CS_BASES; i++) {
		seq[i] = get32(page, t, DATA_FIELD(t, i, seq)) | 1;
		put32(page, t, DATA_FIELD(t, i, seq), seq[i]);
	}
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static void page_write_end(uint8_t *page, const struct timekeeper_target *t,
			   const uint32_t seq[CS_BASES])
{
	__atomic_thread_fence(__ATOMIC_RELEASE);
	for (int i = 0; i < CS_BASES; i++)
		put32(page, t, DATA_FIELD(t, i, seq), seq[i] + 1);
}

/*
 * clock_mode is written only when it changes: after this process's death
 * the kernel writes NONE there (timekeeper_clear_mode_at_exit()), possibly
 * while the writer is still finishing an update, which must not undo it.
 */
static void page_write_vclock(struct timekeeper *tk, int i,
			      const struct vclock *vc)
{
	const struct timekeeper_target *t = &tk->target;
	uint8_t *page = tk->page;

	if (!tk->updates || vc->clock_mode != tk->page_mode[i]) {
		put32(page, t, DATA_FIELD(t, i, clock_mode), vc->clock_mode);
		tk->page_mode[i] = vc->clock_mode;
	}
	put64(page, t, DATA_FIELD(t, i, cycle_last), vc->cycle_last);
	put64(page, t, DATA_FIELD(t, i, mask), UINT64_MAX);
	put32(page, t, DATA_FIELD(t, i, mult), vc->mult);
	put32(page, t, DATA_FIELD(t, i, shift), vc->shift);
	for (int k = 0; k < VDSO_BASES; k++) {
		put64(page, t, DATA_FIELD(t, i, basetime[k].sec), vc->base[k].sec);
		put64(page, t, DATA_FIELD(t, i, basetime[k].nsec), vc->base[k].nsec);
	}
	/* The vDSO reads these from data[0]; data[1] gets the same. */
	put32(page, t, DATA_FIELD(t, i, tz_minuteswest), tk->tz.tz_minuteswest);
	put32(page, t, DATA_FIELD(t, i, tz_dsttime), tk->tz.tz_dsttime);
	put32(page, t, DATA_FIELD(t, i, hrtimer_res), tk->hrtimer_res);
	put32(page, t, DATA_FIELD(t, i, coarse_res), tk->coarse_res);
}

static void page_publish(struct timekeeper *tk, const struct vclock vc[CS_BASES])
{
	uint32_t seq[CS_BASES];

	page_write_begin(tk->page, &tk->target, seq);
	for (int i = 0; i < CS_BASES; i++)
		page_write_vclock(tk, i, &vc[i]);
	page_write_end(tk->page, &tk->target, seq);
}

/* ---- The page after this process ---- */

struct clear_mode_at_exit {
	void *field;
	sem_t *started;
};

/* Never returns: sleeps, every signal blocked, until the process dies. */
static void *clear_mode_at_exit_thread(void *arg)
{
	struct clear_mode_at_exit *c = arg;
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	syscall(SYS_set_tid_address, c->field);
	sem_post(c->started);
	for (;;)
		pause();
	return NULL;
}

/*
 * Starts n threads that only wait, each with its clear_child_tid
 * (set_tid_address(2)) on one of the page's clock_mode fields, two per
 * field: the first 2 * CS_BASES - n of data[0]'s are the caller's to set.
 */
static int clear_mode_threads(struct timekeeper *tk, int n)
{
	const struct timekeeper_target *t = &tk->target;
	struct clear_mode_at_exit helpers[2 * CS_BASES];
	pthread_attr_t attr;
	pthread_t thread;
	sem_t started;
	int e = pthread_attr_init(&attr), k;

	sem_init(&started, 0, 0);
	if (!e)
		e = pthread_attr_setstacksize(&attr, PTHREAD_STACK_MIN);
	if (!e)
		e = pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	for (k = 0; k < n && !e; k++) {
		helpers[k] = (struct clear_mode_at_exit){
			tk->page + DATA_FIELD(t, (k + 2 * CS_BASES - n) / 2, clock_mode),
			&started };
		e = pthread_create(&thread, &attr, clear_mode_at_exit_thread, &helpers[k]);
	}
	pthread_attr_destroy(&attr);
	/* Each must have set its address before the page depends on it. */
	for (int i = e ? k - 1 : k; i > 0; i--)
		while (sem_wait(&started) && errno == EINTR)
			;
	sem_destroy(&started);
	if (e) {
		errno = e;
		return -1;
	}
	return 0;
}

/*
 * A thread's clear_child_tid is where the kernel writes 0 when the thread
 * exits, but only while another thread still shares its memory.  So each
 * clock_mode gets two threads: whichever of the four dies last, both
 * fields are cleared by one that died before.  This thread, the writer,
 * is one of data[0]'s: its own write comes after its last update for sure.
 */
int timekeeper_clear_mode_at_exit(struct timekeeper *tk)
{
	if (clear_mode_threads(tk, 2 * CS_BASES - 1))
		return -1;
	syscall(SYS_set_tid_address,
		tk->page + DATA_FIELD(&tk->target, CS_HRES_COARSE, clock_mode));
	return 0;
}

/* A thread has one clear_child_tid: a writer of several pages lends it to none. */
int timekeeper_clear_mode_at_exit_threads(struct timekeeper *tk)
{
	return clear_mode_threads(tk, 2 * CS_BASES);
}

/* ---- Linear functions of the counter ---- */

/* Signed ns (an offset) in shifted ns. */
static __int128 to_shifted(__int128 ns, uint32_t shift)
{
	return ns * ((__int128)1 << shift);
}

static unsigned __int128 sec_unit(uint32_t shift)
{
	return (unsigned __int128)NSEC_PER_SEC << shift;
}

static unsigned __int128 base_get(const struct vclock *vc, int clk)
{
	return vc->base[clk].sec * sec_unit(vc->shift) + vc->base[clk].nsec;
}

static void base_set(struct vclock *vc, int clk, unsigned __int128 v)
{
	vc->base[clk].sec = v / sec_unit(vc->shift);
	vc->base[clk].nsec = v % sec_unit(vc->shift);
}

/* A coarse base: plain ns. */
static void plain_set(struct vclock *vc, int clk, uint64_t ns)
{
	vc->base[clk].sec = ns / NSEC_PER_SEC;
	vc->base[clk].nsec = ns % NSEC_PER_SEC;
}

/*
 * The same functions, held at another cycle_last: exact, whichever way it
 * moves.  Coarse bases do not depend on the counter and stay.
 */
static void vclock_rebase(struct vclock *vc, int i, uint64_t cycle_last)
{
	__int128 moved = (__int128)(int64_t)(cycle_last - vc->cycle_last) *
			 vc->mult;

	if (i == CS_RAW) {
		base_set(vc, VDSO_CLOCK_MONOTONIC_RAW,
			 base_get(vc, VDSO_CLOCK_MONOTONIC_RAW) + moved);
	} else {
		for (size_t k = 0; k < sizeof(hres_clocks) / sizeof(*hres_clocks); k++)
			base_set(vc, hres_clocks[k],
				 base_get(vc, hres_clocks[k]) + moved);
	}
	vc->cycle_last = cycle_last;
}

/*
 * cycle_last some way in the past, but with data[0] no further back than
 * the realtime base's second goes: __kernel_time() returns that second as
 * it stands, and must not return the one before.  data[1] has no such
 * reader.
 */
static void vclock_keep_in_past(struct vclock vc[CS_BASES], uint64_t margin,
				uint64_t margin_min)
{
	uint64_t room = vc[0].base[VDSO_CLOCK_REALTIME].nsec / vc[0].mult;

	if (room < margin_min)
		room = margin_min;
	vclock_rebase(&vc[0], 0, vc[0].cycle_last - (margin < room ? margin : room));
	vclock_rebase(&vc[1], 1, vc[1].cycle_last - margin);
}

/* What the ppc vDSO computes from vc for clock clk at timebase tb, in ns. */
static uint64_t vclock_read(const struct vclock *vc, int clk, uint64_t tb)
{
	uint64_t ns = vc->base[clk].nsec;

	if (clk != VDSO_CLOCK_REALTIME_COARSE && clk != VDSO_CLOCK_MONOTONIC_COARSE)
		ns = (ns + (tb - vc->cycle_last) * vc->mult) >> vc->shift;
	return vc->base[clk].sec * NSEC_PER_SEC + ns;
}

/* Add the --realtime offset to the clocks it moves. */
static void vclock_offset_realtime(const struct timekeeper *tk, struct vclock *vc)
{
	const struct timespec *off = &tk->options.realtime_offset;
	__int128 shifted = to_shifted((__int128)off->tv_sec * NSEC_PER_SEC +
				      off->tv_nsec, vc->shift);

	base_set(vc, VDSO_CLOCK_REALTIME, base_get(vc, VDSO_CLOCK_REALTIME) + shifted);
	base_set(vc, VDSO_CLOCK_TAI, base_get(vc, VDSO_CLOCK_TAI) + shifted);
	plain_set(vc, VDSO_CLOCK_REALTIME_COARSE,
		  vc->base[VDSO_CLOCK_REALTIME_COARSE].sec * NSEC_PER_SEC +
		  vc->base[VDSO_CLOCK_REALTIME_COARSE].nsec +
		  off->tv_sec * (int64_t)NSEC_PER_SEC + off->tv_nsec);
}

/*
 * The kernel's clocks_calc_mult_shift(): the largest shift whose mult
 * still lets maxsec seconds of ticks be multiplied in 64 bits.
 */
static void calc_mult_shift(uint32_t *mult, uint32_t *shift, uint64_t from,
			    uint64_t to, uint32_t maxsec)
{
	uint64_t tmp = ((uint64_t)maxsec * from) >> 32;
	uint32_t sft, sftacc = 32;

	while (tmp) {
		tmp >>= 1;
		sftacc--;
	}
	for (sft = 32; sft > 0; sft--) {
		tmp = (to << sft) + from / 2;
		tmp /= from;
		if ((tmp >> sftacc) == 0)
			break;
	}
	*mult = tmp;
	*shift = sft;
}

/* ---- Samples of the host's clocks against the counter ---- */

struct sample {
	uint64_t tsc;		/* the bracket's middle */
	uint64_t ns;
	uint64_t width;		/* ticks between the bracket's ends */
};

static struct sample sample_clock(clockid_t id)
{
	struct timespec ts;
	uint64_t t1 = tsc_ordered(), t2;

	clock_gettime(id, &ts);
	t2 = tsc_bracket_end();
	return (struct sample){ t1 + (t2 - t1) / 2, ts_ns(&ts), t2 - t1 };
}

/* The narrowest of a few brackets: a preempted one is wide. */
static struct sample sample_best(clockid_t id, int tries)
{
	struct sample best = sample_clock(id);

	while (--tries > 0) {
		struct sample s = sample_clock(id);

		if (s.width < best.width)
			best = s;
	}
	return best;
}

/* Host clock's ns per tick, << shift: a mult for that rate. */
static uint64_t rate_mult(const struct sample *a, const struct sample *b,
			  uint32_t shift)
{
	return ((unsigned __int128)(b->ns - a->ns) << shift) / (b->tsc - a->tsc);
}

/*
 * The timebase frequency against CLOCK_MONOTONIC_RAW, and the samples it
 * ended with for steer mode to start from.
 */
static int calibrate(struct timekeeper *tk, struct sample *raw_end,
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

/* ---- Mirror: the host kernel's own time data ---- */

static const uint8_t *find_host_vvar(void)
{
	FILE *maps = fopen("/proc/self/maps", "r");
	char line[512];
	unsigned long start, end;
	const uint8_t *vvar = NULL;

	if (!maps)
		return NULL;
	while (fgets(line, sizeof(line), maps)) {
		size_t n = strlen(line);

		if (n > 7 && !strcmp(line + n - 7, "[vvar]\n") &&
		    sscanf(line, "%lx-%lx", &start, &end) == 2 && end - start >= 4096)
			vvar = (const uint8_t *)start;
	}
	fclose(maps);
	return vvar;
}

static uint32_t host32(const uint8_t *p)
{
	return __atomic_load_n((const uint32_t *)p, __ATOMIC_RELAXED);
}

static uint64_t host64(const uint8_t *p)
{
	return __atomic_load_n((const uint64_t *)p, __ATOMIC_RELAXED);
}

/*
 * One clock's data under the host's seqcount.  What is not TSC data is
 * reported as such (clock_mode -1) and not interpreted further: that
 * includes a time namespace's page, whose seq stays odd for good, and a
 * wrong layout's "seq" that happens to be odd.
 */
static void host_read_clock(const uint8_t *vvar, const struct host_layout *l,
			    int i, struct vclock *vc, uint32_t *seq_out)
{
	const uint8_t *d = vvar + l->offset + i * l->stride;
	size_t after_last = l->has_max_cycles ? 24 : 16;
	uint32_t seq;

	do {
		int spins = 0;

		memset(vc, 0, sizeof(*vc));
		while ((seq = __atomic_load_n((const uint32_t *)d,
					      __ATOMIC_ACQUIRE)) & 1) {
			if (host32(d + 4) != HOST_CLOCKMODE_TSC ||
			    ++spins > HOST_MAX_SPINS) {
				vc->clock_mode = -1;
				*seq_out = seq;
				return;
			}
			_mm_pause();
		}
		vc->clock_mode = host32(d + 4);
		vc->cycle_last = host64(d + 8);
		/* A mask other than all ones is no TSC: not mirrored. */
		if (host64(d + after_last) != UINT64_MAX)
			vc->clock_mode = -1;
		vc->mult = host32(d + after_last + 8);
		vc->shift = host32(d + after_last + 12);
		for (int k = 0; k < VDSO_BASES; k++) {
			vc->base[k].sec = host64(d + after_last + 16 + 16 * k);
			vc->base[k].nsec = host64(d + after_last + 24 + 16 * k);
		}
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while (__atomic_load_n((const uint32_t *)d, __ATOMIC_RELAXED) != seq);
	*seq_out = seq;
}

/* Only what the ppc page serves is kept: hres and coarse, and RAW. */
static void host_read(const struct timekeeper *tk, struct vclock vc[CS_BASES],
		      uint32_t seq[CS_BASES])
{
	for (int i = 0; i < CS_BASES; i++) {
		struct vclock h;

		host_read_clock(tk->host_vvar, tk->host_layout, i, &h, &seq[i]);
		vc[i] = h;
		memset(vc[i].base, 0, sizeof(vc[i].base));
		vc[i].clock_mode = h.clock_mode == HOST_CLOCKMODE_TSC ?
				   VDSO_CLOCKMODE_ARCHTIMER : VDSO_CLOCKMODE_NONE;
		if (i == CS_RAW) {
			vc[i].base[VDSO_CLOCK_MONOTONIC_RAW] =
				h.base[VDSO_CLOCK_MONOTONIC_RAW];
			continue;
		}
		for (size_t k = 0; k < sizeof(hres_clocks) / sizeof(*hres_clocks); k++)
			vc[i].base[hres_clocks[k]] = h.base[hres_clocks[k]];
		vc[i].base[VDSO_CLOCK_REALTIME_COARSE] =
			h.base[VDSO_CLOCK_REALTIME_COARSE];
		vc[i].base[VDSO_CLOCK_MONOTONIC_COARSE] =
			h.base[VDSO_CLOCK_MONOTONIC_COARSE];
	}
}

/*
 * What mirror mode publishes for a host snapshot: the same functions,
 * moved to the present if the host left them long unrefreshed (the ppc
 * vDSO's 64-bit delta * mult must not overflow), offset as asked, with
 * cycle_last in the past.
 */
static bool mirror_stale(const struct timekeeper *tk, const struct vclock *vc,
			 uint64_t now)
{
	return (int64_t)(now - vc->cycle_last) > (int64_t)ns_to_ticks(tk, MIRROR_STALE_NS);
}

static void mirror_build(const struct timekeeper *tk, struct vclock vc[CS_BASES],
			 bool with_offset)
{
	uint64_t now = tsc_ordered();

	for (int i = 0; i < CS_BASES; i++)
		if (mirror_stale(tk, &vc[i], now))
			vclock_rebase(&vc[i], i, now);
	if (with_offset)
		vclock_offset_realtime(tk, &vc[0]);
	vclock_keep_in_past(vc, tk->margin, tk->margin_min);
}

static bool host_plausible(const struct timekeeper *tk, const struct vclock *vc,
			   char *why, size_t whylen)
{
	uint64_t now = tsc_ordered();

	for (int i = 0; i < CS_BASES; i++) {
		uint64_t hz;

		if (vc[i].clock_mode != VDSO_CLOCKMODE_ARCHTIMER)
			return !fail(why, whylen, "data[%d] holds no TSC time",
				     i);
		if (vc[i].shift < 1 || vc[i].shift > 32 || vc[i].mult == 0)
			return !fail(why, whylen, "data[%d] has mult %u shift %u",
				     i, vc[i].mult, vc[i].shift);
		hz = ((unsigned __int128)NSEC_PER_SEC << vc[i].shift) / vc[i].mult;
		if (hz < tk->tb_ticks_per_sec * 98 / 100 ||
		    hz > tk->tb_ticks_per_sec * 102 / 100)
			return !fail(why, whylen, "data[%d]'s mult %u shift %u means "
				     "%" PRIu64 " Hz, the TSC runs at %" PRIu64 " Hz",
				     i, vc[i].mult, vc[i].shift, hz,
				     tk->tb_ticks_per_sec);
		if (vc[i].cycle_last - now < ns_to_ticks(tk, 1000000))
			continue;	/* a hair ahead: another CPU's read */
		if (now - vc[i].cycle_last > ns_to_ticks(tk, 1000 * NSEC_PER_SEC))
			return !fail(why, whylen, "data[%d]'s cycle_last is no "
				     "recent TSC value", i);
	}
	return true;
}

static uint64_t syscall_clock_ns(clockid_t id)
{
	struct timespec ts;

	syscall(SYS_clock_gettime, id, &ts);
	return ts_ns(&ts);
}

/*
 * Compute every served clock from a fresh copy, as the guest would, between
 * two real system calls (not the host's vDSO: that reads the same page).
 */
static bool host_validate(const struct timekeeper *tk, char *why, size_t whylen)
{
	static const int clocks[] = {
		VDSO_CLOCK_REALTIME, VDSO_CLOCK_MONOTONIC, VDSO_CLOCK_BOOTTIME,
		VDSO_CLOCK_TAI, VDSO_CLOCK_REALTIME_COARSE,
		VDSO_CLOCK_MONOTONIC_COARSE, VDSO_CLOCK_MONOTONIC_RAW,
	};

	for (int round = 0; round < MIRROR_VALIDATION_ROUNDS; round++) {
		for (size_t c = 0; c < sizeof(clocks) / sizeof(*clocks); c++) {
			int clk = clocks[c];
			struct vclock vc[CS_BASES];
			uint32_t seq[CS_BASES];
			uint64_t before, after, ours;

			before = syscall_clock_ns(clk);
			host_read(tk, vc, seq);
			if (!host_plausible(tk, vc, why, whylen))
				return false;
			mirror_build(tk, vc, false);
			ours = vclock_read(&vc[clk == VDSO_CLOCK_MONOTONIC_RAW],
					   clk, tsc_ordered());
			after = syscall_clock_ns(clk);
			if (ours + MIRROR_TOLERANCE_NS < before ||
			    ours > after + MIRROR_TOLERANCE_NS)
				return !fail(why, whylen, "clock %d computed from "
					     "it is %" PRId64 " ns off the system "
					     "call's [%" PRIu64 ", %" PRIu64 "]",
					     clk, ours < before ? (int64_t)(ours - before)
					     : (int64_t)(ours - after), before, after);
		}
	}
	return true;
}

/* Find the host's layout; on failure leave why it could not be used. */
static bool mirror_setup(struct timekeeper *tk, char *why, size_t whylen)
{
	char tried[sizeof(tk->steer_reason)] = "";
	size_t used = 0;

	tk->host_vvar = find_host_vvar();
	if (!tk->host_vvar)
		return !fail(why, whylen, "no [vvar] mapping in /proc/self/maps");
	for (size_t l = 0; l < sizeof(host_layouts) / sizeof(*host_layouts); l++) {
		char layout_why[128];

		tk->host_layout = &host_layouts[l];
		if (host_validate(tk, layout_why, sizeof(layout_why)))
			return true;
		if (used < sizeof(tried))
			used += snprintf(tried + used, sizeof(tried) - used, "%s%s: %s",
					 l ? "; " : "", host_layouts[l].kernels,
					 layout_why);
	}
	tk->host_layout = NULL;
	return !fail(why, whylen, "no known layout fits the host's [vvar] (a "
		     "time namespace? another clocksource?): %s", tried);
}

static void mirror_update(struct timekeeper *tk)
{
	struct vclock vc[CS_BASES];
	uint32_t seq[CS_BASES];
	uint64_t now = tsc_ordered();
	bool stale = false;

	host_read(tk, vc, seq);
	for (int i = 0; i < CS_BASES; i++)
		stale |= mirror_stale(tk, &vc[i], now);
	if (tk->updates && !stale && seq[0] == tk->host_seq[0] &&
	    seq[1] == tk->host_seq[1])
		return;	/* unchanged: don't make readers retry for nothing */
	tk->host_seq[0] = seq[0];
	tk->host_seq[1] = seq[1];
	if (vc[0].clock_mode != VDSO_CLOCKMODE_ARCHTIMER ||
	    vc[1].clock_mode != VDSO_CLOCKMODE_ARCHTIMER) {
		/*
		 * The host left the TSC (unstable, another clocksource): its
		 * own vDSO now makes system calls, and so will the guest's
		 * until it comes back.
		 */
		vc[0].clock_mode = vc[1].clock_mode = VDSO_CLOCKMODE_NONE;
		page_publish(tk, vc);
		return;
	}
	tk->host_mult = vc[0].mult;
	tk->host_shift = vc[0].shift;
	mirror_build(tk, vc, true);
	page_publish(tk, vc);
}

/* ---- Steer: our own functions, kept on the host's clocks ---- */

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

static void steer_update(struct timekeeper *tk)
{
	struct vclock vc[CS_BASES];
	uint32_t seq[CS_BASES];
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
	page_write_begin(tk->page, &tk->target, seq);
	/*
	 * Readers done with the old data read the counter before seq went odd,
	 * readers of the new one will read it after seq goes even: the
	 * functions meet at a point in between.
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
	page_write_end(tk->page, &tk->target, seq);
}

static void steer_setup(struct timekeeper *tk, const struct sample *raw,
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

/* ---- The API ---- */

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
	if (o->tz && (o->tz->tz_minuteswest > MAX_TZ_MINUTES ||
		      o->tz->tz_minuteswest < -MAX_TZ_MINUTES))
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
	if (__builtin_add_overflow(now.tv_sec, o->realtime_offset.tv_sec,
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

	put64(tk->page, t, t->is64 ? VDSO_TBFREQ_OFFSET64 : VDSO_TBFREQ_OFFSET32,
	      tk->tb_ticks_per_sec);
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
	put64(tk->page, t, t->is64 ? VDSO_TBFREQ_OFFSET64 : VDSO_TBFREQ_OFFSET32,
	      tk->tb_ticks_per_sec);
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
				"(layout of %s: %s): mult %u shift %u; timebase %"
				PRIu64 " Hz", tk->host_layout->kernels,
				tk->host_layout->shape, tk->host_mult,
				tk->host_shift, tk->tb_ticks_per_sec);
	return snprintf(buf, len, "timekeeper: steer (%s): mult %u shift %u; "
			"timebase %" PRIu64 " Hz", tk->steer_reason,
			tk->mono.mult, tk->shift, tk->tb_ticks_per_sec);
}
