// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of the timekeeper (timekeeper/timekeeper.h): it writes a data
 * page for each target layout while this program reads the page the way
 * ppctime's powerpc vDSO does (target byte order, the seqcount, the
 * 64-bit delta * mult, the timebase being the TSC), and compares what it
 * reads with the host's own clocks.
 *
 * Per layout: the published timebase frequency; agreement with the host's
 * clock_gettime() in the mode the timekeeper picks here and in forced
 * steer mode; no clock going backwards across two threads; a seqcount
 * torture against a writer updating back to back; the watchdog's mode
 * NONE.  Then --realtime offsets, the timezone and bad options.
 *
 * Prints PASS:/FAIL:/SKIP: lines (tests/README.md) and, on lines starting
 * with '#', the figures behind them.
 */
#define _GNU_SOURCE
/* White-box: the rigs hold a struct timekeeper, private to the library. */
#include "timekeeper_internal.h"
#include "datapage_writer.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <x86intrin.h>

#include <vdso/datapage.h>

#include "targets.h"
#include "test_harness.h"

#define NSEC_PER_SEC		1000000000ull
#define UPDATE_HZ		10000
#define STEER_TOLERANCE_NS	2000
#define TORTURE_READS		10000000ull
#define TORTURE_MAX_NS		(12 * NSEC_PER_SEC)
/*
 * A coarse clock is copied from the host's at each update, so it lags
 * while the host has ticked and the timekeeper has not yet run: a tick
 * usually, more when the timekeeper's thread waits for a CPU (5-12 ms
 * seen on an idle 2-CPU VM, 56 ms with other jobs running).  Its lag is
 * reported; this limit only catches a copy that stopped.
 */
#define COARSE_LAG_LIMIT_NS	(1000 * 1000000ll)

struct layout {
	const char *name;
	struct timekeeper_target target;
	size_t page_size;
};

#define LAYOUT(n, tr, cls, be, img, so, ld, pg, qm) \
	{ n, { .is64 = (cls) == 64, .big_endian = be }, pg },
static const struct layout layouts[] = { PPCTIME_TARGETS(LAYOUT) };
#undef LAYOUT

static const struct {
	int id;
	const char *name;
	bool coarse;
} clocks[] = {
	{ VDSO_CLOCK_REALTIME, "REALTIME", false },
	{ VDSO_CLOCK_MONOTONIC, "MONOTONIC", false },
	{ VDSO_CLOCK_BOOTTIME, "BOOTTIME", false },
	{ VDSO_CLOCK_TAI, "TAI", false },
	{ VDSO_CLOCK_MONOTONIC_RAW, "MONOTONIC_RAW", false },
	{ VDSO_CLOCK_REALTIME_COARSE, "REALTIME_COARSE", true },
	{ VDSO_CLOCK_MONOTONIC_COARSE, "MONOTONIC_COARSE", true },
};
#define NCLOCKS (sizeof(clocks) / sizeof(*clocks))

static uint64_t host_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/* ---- The emulated powerpc vDSO reader ---- */

/* The page as the guest sees it: read-only, in the target's byte order. */
struct reader {
	const uint8_t *page;
	bool is64, big_endian;
};

static uint32_t rd32(const struct reader *r, size_t off)
{
	uint32_t v = __atomic_load_n((const uint32_t *)(r->page + off),
				     __ATOMIC_RELAXED);

	return r->big_endian ? __builtin_bswap32(v) : v;
}

/* ppc64 loads a doubleword at once; ppc32 (big-endian) in two words. */
static uint64_t rd64(const struct reader *r, size_t off)
{
	uint64_t v;

	if (!r->is64)
		return (uint64_t)rd32(r, off) << 32 | rd32(r, off + 4);
	v = __atomic_load_n((const uint64_t *)(r->page + off), __ATOMIC_RELAXED);
	return r->big_endian ? __builtin_bswap64(v) : v;
}

static size_t data_at(const struct reader *r, int i)
{
	return (r->is64 ? VDSO_DATA_OFFSET64 : VDSO_DATA_OFFSET32) +
	       i * sizeof(struct vdso_data);
}

#define FIELD(r, i, f) (data_at(r, i) + offsetof(struct vdso_data, f))

/* seq and clock_mode: one doubleword load on ppc64, as the vDSO does. */
static void rd_seq_mode(const struct reader *r, int i, uint32_t *seq,
			int32_t *mode)
{
	if (r->is64) {
		uint64_t both = rd64(r, FIELD(r, i, seq_mode));

		*seq = r->big_endian ? both >> 32 : (uint32_t)both;
		*mode = r->big_endian ? (uint32_t)both : both >> 32;
	} else {
		*seq = rd32(r, FIELD(r, i, seq));
		*mode = rd32(r, FIELD(r, i, clock_mode));
	}
}

/* The guest's mftb: QEMU's cpu_get_host_ticks(), in program order here. */
static uint64_t mftb(void)
{
	_mm_lfence();
	return __rdtsc();
}

/*
 * clock_gettime() as the vDSO computes it, in ns; false where the vDSO
 * would make the system call.  *retries counts seqcount retries.
 */
static bool emu_read(const struct reader *r, int clk, uint64_t *ns,
		     uint64_t *retries)
{
	int i = clk == VDSO_CLOCK_MONOTONIC_RAW ? CS_RAW : CS_HRES_COARSE;
	bool hres = !(VDSO_COARSE & (1u << clk));
	uint32_t seq;
	int32_t mode;
	uint64_t sec, nsec;

	for (;;) {
		rd_seq_mode(r, i, &seq, &mode);
		if (mode == VDSO_CLOCKMODE_NONE)
			return false;
		if (seq & 1) {
			_mm_pause();
			continue;
		}
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		nsec = rd64(r, FIELD(r, i, basetime[clk].nsec));
		if (hres) {
			uint64_t tb = mftb();

			nsec = (nsec + (tb - rd64(r, FIELD(r, i, cycle_last))) *
				rd32(r, FIELD(r, i, mult))) >>
			       rd32(r, FIELD(r, i, shift));
		}
		sec = rd64(r, FIELD(r, i, basetime[clk].sec));
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (rd32(r, FIELD(r, i, seq)) == seq)
			break;
		++*retries;
	}
	*ns = sec * NSEC_PER_SEC + nsec;
	return true;
}

/* __kernel_time(): the realtime base's seconds, in ns here. */
static bool emu_time(const struct reader *r, uint64_t *ns)
{
	uint32_t seq;
	int32_t mode;

	rd_seq_mode(r, CS_HRES_COARSE, &seq, &mode);
	if (mode == VDSO_CLOCKMODE_NONE)
		return false;
	*ns = rd64(r, FIELD(r, CS_HRES_COARSE, basetime[VDSO_CLOCK_REALTIME].sec)) *
	      NSEC_PER_SEC;
	return true;
}

/* ---- A timekeeper at work on a shared page ---- */

struct rig {
	const struct layout *layout;
	void *page;			/* the timekeeper's writable mapping */
	struct reader reader;		/* a second, read-only mapping */
	struct timekeeper tk;
	pthread_t thread;
	bool running;
	char err[256];			/* why rig_init failed */
};

static void *run_timekeeper(void *arg)
{
	struct rig *rig = arg;

	if (timekeeper_run(&rig->tk))
		perror("timekeeper_run");
	return NULL;
}

/* Map the page as the launcher does (memfd, shared) and initialise;
 * false, with rig->err, if the timekeeper refuses. */
static bool rig_init(struct rig *rig, const struct layout *l,
		     const struct timekeeper_options *options)
{
	int fd = memfd_create("datapage", MFD_CLOEXEC);

	memset(rig, 0, sizeof(*rig));
	rig->layout = l;
	if (fd < 0 || ftruncate(fd, l->page_size)) {
		perror("memfd");
		exit(1);
	}
	rig->page = mmap(NULL, l->page_size, PROT_READ | PROT_WRITE, MAP_SHARED,
			 fd, 0);
	rig->reader.page = mmap(NULL, l->page_size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (rig->page == MAP_FAILED || rig->reader.page == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	rig->reader.is64 = l->target.is64;
	rig->reader.big_endian = l->target.big_endian;
	return !timekeeper_init(&rig->tk, rig->page, &l->target, options,
				rig->err, sizeof(rig->err));
}

static void rig_start(struct rig *rig)
{
	rig->running = !pthread_create(&rig->thread, NULL, run_timekeeper, rig);
	if (!rig->running) {
		perror("pthread_create");
		exit(1);
	}
}

static void rig_stop(struct rig *rig)
{
	if (rig->running) {
		timekeeper_stop(&rig->tk);
		pthread_join(rig->thread, NULL);
		rig->running = false;
	}
}

static void rig_free(struct rig *rig)
{
	rig_stop(rig);
	munmap(rig->page, rig->layout->page_size);
	munmap((void *)rig->reader.page, rig->layout->page_size);
}

static bool is_mirror(const struct rig *rig)
{
	return !strcmp(timekeeper_mode_name(&rig->tk), "mirror");
}

static void spin_ns(uint64_t ns)
{
	uint64_t end = host_ns(CLOCK_MONOTONIC) + ns;

	while (host_ns(CLOCK_MONOTONIC) < end)
		;
}

/* ---- (a) agreement with the host's clock_gettime ---- */

/*
 * Interleaved readings: host, page, host.  "behind" is how far the page's
 * reading fell below the host reading just before it, "ahead" how far it
 * rose above the one just after; either one positive is a clock going
 * backwards as a program mixing the two would see it.
 *
 * Mirror mode reads the host's own timekeeper, so for the high resolution
 * clocks neither may be positive at all; in steer mode they must stay
 * within STEER_TOLERANCE_NS.  The coarse clocks and time() are the host's
 * values as of the last update: never ahead, behind while they lag (see
 * COARSE_LAG_LIMIT_NS; time() by a whole second then).
 */
static void test_agreement(struct rig *rig, const char *what, uint64_t ns)
{
	int64_t behind[NCLOCKS + 1], ahead[NCLOCKS + 1];
	uint64_t reads[NCLOCKS + 1] = { 0 }, lagging[NCLOCKS + 1] = { 0 };
	uint64_t end = host_ns(CLOCK_MONOTONIC) + ns, syscalls = 0, retries = 0;
	bool mirror = is_mirror(rig), ok = true;
	char bad[200] = "";

	for (size_t c = 0; c <= NCLOCKS; c++)
		behind[c] = ahead[c] = INT64_MIN;
	while (host_ns(CLOCK_MONOTONIC) < end) {
		/* c == NCLOCKS is time(). */
		for (size_t c = 0; c <= NCLOCKS; c++) {
			bool is_time = c == NCLOCKS;
			uint64_t before, v, after;
			bool served;

			before = is_time ? time(NULL) * NSEC_PER_SEC
					 : host_ns(clocks[c].id);
			served = is_time ? emu_time(&rig->reader, &v)
					 : emu_read(&rig->reader, clocks[c].id, &v,
						    &retries);
			if (!served) {
				syscalls++;
				continue;
			}
			after = is_time ? time(NULL) * NSEC_PER_SEC
					: host_ns(clocks[c].id);
			if ((int64_t)(before - v) > behind[c])
				behind[c] = before - v;
			if ((int64_t)(v - after) > ahead[c])
				ahead[c] = v - after;
			lagging[c] += v < before;
			reads[c]++;
		}
	}
	for (size_t c = 0; c <= NCLOCKS; c++) {
		const char *name = c < NCLOCKS ? clocks[c].name : "time()";
		int64_t limit_behind, limit_ahead;

		if (c == NCLOCKS) {
			limit_behind = NSEC_PER_SEC;
			limit_ahead = 0;
		} else if (clocks[c].coarse) {
			limit_behind = COARSE_LAG_LIMIT_NS;
			limit_ahead = 0;
		} else if (mirror) {
			limit_behind = limit_ahead = 0;
		} else {
			limit_behind = limit_ahead = STEER_TOLERANCE_NS;
		}
		printf("# %s %s %-16s worst behind %10" PRId64 " ns, ahead %5"
		       PRId64 " ns; %" PRIu64 " of %" PRIu64 " readings behind\n",
		       rig->layout->name, what, name, behind[c], ahead[c],
		       lagging[c], reads[c]);
		if ((behind[c] > limit_behind || ahead[c] > limit_ahead) && ok) {
			snprintf(bad, sizeof(bad), "%s %" PRId64 " ns behind, %"
				 PRId64 " ns ahead (limits %" PRId64 ", %" PRId64 ")",
				 name, behind[c], ahead[c], limit_behind,
				 limit_ahead);
			ok = false;
		}
	}
	printf("# %s %s: %" PRIu64 " seqcount retries, %" PRIu64
	       " syscall fallbacks\n", rig->layout->name, what, retries, syscalls);
	if (syscalls && ok) {
		snprintf(bad, sizeof(bad), "%" PRIu64 " readings found clock_mode "
			 "NONE", syscalls);
		ok = false;
	}
	report(ok, "agreement %s %s%s%s", rig->layout->name, what,
	       ok ? "" : ": ", bad);
}

/* ---- (b) never backwards, across two threads ---- */

struct mono_state {
	struct rig *rig;
	uint64_t end;
	uint64_t last[NCLOCKS];		/* latest reading any thread has seen */
	int64_t worst[NCLOCKS];		/* largest step back seen */
	uint64_t reads, retries;
};

static void *mono_thread(void *arg)
{
	struct mono_state *st = arg;
	uint64_t reads = 0, retries = 0, v;

	while (host_ns(CLOCK_MONOTONIC) < st->end) {
		for (size_t c = 0; c < NCLOCKS; c++) {
			uint64_t seen = __atomic_load_n(&st->last[c], __ATOMIC_ACQUIRE);

			if (!emu_read(&st->rig->reader, clocks[c].id, &v, &retries))
				continue;
			reads++;
			if (v < seen) {
				int64_t back = seen - v, w;

				w = __atomic_load_n(&st->worst[c], __ATOMIC_RELAXED);
				while (back > w && !__atomic_compare_exchange_n(
					&st->worst[c], &w, back, false,
					__ATOMIC_RELAXED, __ATOMIC_RELAXED))
					;
				continue;
			}
			while (v > seen && !__atomic_compare_exchange_n(
				&st->last[c], &seen, v, false, __ATOMIC_RELEASE,
				__ATOMIC_ACQUIRE))
				;
		}
	}
	__atomic_add_fetch(&st->reads, reads, __ATOMIC_RELAXED);
	__atomic_add_fetch(&st->retries, retries, __ATOMIC_RELAXED);
	return NULL;
}

static void test_monotonic(struct rig *rig, const char *what, uint64_t ns)
{
	struct mono_state st = { .rig = rig, .end = host_ns(CLOCK_MONOTONIC) + ns };
	pthread_t threads[2];
	bool ok = true;
	char bad[160] = "";

	for (int i = 0; i < 2; i++)
		pthread_create(&threads[i], NULL, mono_thread, &st);
	for (int i = 0; i < 2; i++)
		pthread_join(threads[i], NULL);
	for (size_t c = 0; c < NCLOCKS; c++)
		if (st.worst[c] && ok) {
			snprintf(bad, sizeof(bad), "%s went back %" PRId64 " ns",
				 clocks[c].name, st.worst[c]);
			ok = false;
		}
	printf("# %s %s: %" PRIu64 " readings by 2 threads, %" PRIu64
	       " seqcount retries\n", rig->layout->name, what, st.reads, st.retries);
	report(ok && st.reads, "monotonic %s %s%s%s", rig->layout->name, what,
	       ok ? "" : ": ", ok ? "" : bad);
}

/* ---- (c) seqcount torture ---- */

struct torture {
	struct rig *rig;
	int stop;
	uint64_t updates;
	int64_t realtime_minus_mono;
	uint64_t reads, retries, backwards, torn;
};

static void *torture_writer(void *arg)
{
	struct torture *t = arg;

	while (!__atomic_load_n(&t->stop, __ATOMIC_ACQUIRE)) {
		timekeeper_update(&t->rig->tk);
		t->updates++;
	}
	return NULL;
}

/*
 * MONOTONIC, REALTIME, MONOTONIC again: each never below the last, and
 * REALTIME minus the host's offset between the two MONOTONIC readings
 * (both are one function of the counter plus a whole-ns offset, so this
 * is exact).  A torn read breaks one or the other.
 */
static void *torture_reader(void *arg)
{
	struct torture *t = arg;
	uint64_t reads = 0, retries = 0, backwards = 0, torn = 0;
	uint64_t last_mono = 0, last_rt = 0, m1, rt, m2;

	while (!__atomic_load_n(&t->stop, __ATOMIC_ACQUIRE)) {
		if (!emu_read(&t->rig->reader, VDSO_CLOCK_MONOTONIC, &m1, &retries) ||
		    !emu_read(&t->rig->reader, VDSO_CLOCK_REALTIME, &rt, &retries) ||
		    !emu_read(&t->rig->reader, VDSO_CLOCK_MONOTONIC, &m2, &retries)) {
			torn++;
			continue;
		}
		reads += 3;
		backwards += (m1 < last_mono) + (m2 < m1) + (rt < last_rt);
		torn += rt - t->realtime_minus_mono < m1 ||
			rt - t->realtime_minus_mono > m2;
		last_mono = m2;
		last_rt = rt;
		/* Now and then, so the main thread sees the count grow. */
		if (reads >= 1 << 16) {
			__atomic_add_fetch(&t->reads, reads, __ATOMIC_RELAXED);
			reads = 0;
		}
	}
	__atomic_add_fetch(&t->reads, reads, __ATOMIC_RELAXED);
	__atomic_add_fetch(&t->retries, retries, __ATOMIC_RELAXED);
	__atomic_add_fetch(&t->backwards, backwards, __ATOMIC_RELAXED);
	__atomic_add_fetch(&t->torn, torn, __ATOMIC_RELAXED);
	return NULL;
}

/* REALTIME - MONOTONIC exactly: the coarse clocks of one tick. */
static int64_t host_realtime_minus_mono(void)
{
	for (;;) {
		uint64_t rt = host_ns(CLOCK_REALTIME_COARSE);
		uint64_t mono = host_ns(CLOCK_MONOTONIC_COARSE);

		if (host_ns(CLOCK_REALTIME_COARSE) == rt)
			return rt - mono;
	}
}

/*
 * Two readers against a writer updating back to back (steer mode, so
 * every update rewrites the page), until TORTURE_READS readings.
 */
static void test_torture(const struct layout *l)
{
	struct timekeeper_options o = { .mode = TIMEKEEPER_STEER,
					 .update_hz = UPDATE_HZ,
					 .page_size = l->page_size };
	struct torture t = { 0 };
	struct rig rig;
	pthread_t writer, readers[2];
	uint64_t start, end, elapsed;

	if (!rig_init(&rig, l, &o))
		return;
	t.rig = &rig;
	t.realtime_minus_mono = host_realtime_minus_mono();
	start = host_ns(CLOCK_MONOTONIC);
	end = start + TORTURE_MAX_NS;
	pthread_create(&writer, NULL, torture_writer, &t);
	for (int i = 0; i < 2; i++)
		pthread_create(&readers[i], NULL, torture_reader, &t);
	while (__atomic_load_n(&t.reads, __ATOMIC_RELAXED) < TORTURE_READS &&
	       host_ns(CLOCK_MONOTONIC) < end)
		usleep(10000);
	__atomic_store_n(&t.stop, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < 2; i++)
		pthread_join(readers[i], NULL);
	pthread_join(writer, NULL);
	elapsed = host_ns(CLOCK_MONOTONIC) - start;
	printf("# %s torture: %" PRIu64 " reads, %" PRIu64 " seqcount retries, %"
	       PRIu64 " updates in %.2f s (%.0f updates/s), %" PRIu64
	       " backwards, %" PRIu64 " torn\n", l->name, t.reads, t.retries,
	       t.updates, elapsed / 1e9, t.updates * 1e9 / elapsed, t.backwards,
	       t.torn);
	report(!t.backwards && !t.torn && t.reads >= TORTURE_READS &&
	       t.updates * NSEC_PER_SEC / elapsed >= UPDATE_HZ,
	       "seqcount torture %s: %" PRIu64 " reads, %" PRIu64 " backwards, %"
	       PRIu64 " torn, %.0f updates/s", l->name, t.reads, t.backwards,
	       t.torn, t.updates * 1e9 / elapsed);
	rig_free(&rig);
}

/* ---- (d) the timebase frequency ---- */

/* TSC ticks per second against CLOCK_MONOTONIC_RAW, over 200 ms. */
static uint64_t measure_tsc_hz(void)
{
	uint64_t tsc[2], ns[2];

	for (int k = 0; k < 2; k++) {
		uint64_t best = UINT64_MAX;

		if (k)
			usleep(200000);
		for (int i = 0; i < 32; i++) {
			uint64_t t1 = mftb(), n = host_ns(CLOCK_MONOTONIC_RAW);
			uint64_t t2 = mftb();

			if (t2 - t1 < best) {
				best = t2 - t1;
				tsc[k] = t1 + (t2 - t1) / 2;
				ns[k] = n;
			}
		}
	}
	return (unsigned __int128)(tsc[1] - tsc[0]) * NSEC_PER_SEC / (ns[1] - ns[0]);
}

static void test_tbfreq(struct rig *rig, uint64_t measured)
{
	const struct reader *r = &rig->reader;
	uint64_t published = rd64(r, r->is64 ? VDSO_TBFREQ_OFFSET64
					     : VDSO_TBFREQ_OFFSET32);
	double off = ((double)published - measured) / measured;

	printf("# %s tb_ticks_per_sec %" PRIu64 ", measured %" PRIu64
	       " Hz: %+.1f ppm\n", rig->layout->name, published, measured, off * 1e6);
	report(off < 0.001 && off > -0.001, "tbfreq %s within 0.1%%",
	       rig->layout->name);
}

/* ---- (e) --realtime ---- */

/*
 * REALTIME, REALTIME_COARSE and TAI run offset by exactly the offset (to
 * the agreement limits), the other clocks not at all.
 */
static void test_realtime_offset(const struct layout *l, struct timespec offset)
{
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

/* ---- (f) the page after the timekeeper process ---- */

/*
 * A timekeeper process that dies (SIGKILL at a random moment of a 100 kHz
 * update loop, so also in mid-write; SIGKILL while stopped; or a plain
 * exit) leaves both clock_modes NONE, and readers go to the system call.
 */
static void test_clear_mode_at_exit(const struct layout *l)
{
	static const char *const ends[] = { "killed", "killed while stopped", "exited" };
	struct timekeeper_options o = { .update_hz = TIMEKEEPER_MAX_HZ,
					 .page_size = l->page_size };
	const int rounds = 60;
	int cleared = 0, seq_odd = 0, served = 0;
	char last[160] = "";

	for (int n = 0; n < rounds; n++) {
		int end = n % 3, status;
		struct rig rig;
		uint32_t seq[CS_BASES];
		int32_t mode[CS_BASES];
		uint64_t v, retries = 0;
		int ready[2];
		char byte;
		pid_t pid;

		if (!rig_init(&rig, l, &o))
			return;
		if (pipe(ready) < 0 || (pid = fork()) < 0) {
			perror("fork");
			exit(1);
		}
		if (pid == 0) {
			if (timekeeper_clear_mode_at_exit(&rig.tk) == 0 &&
			    write(ready[1], "", 1) == 1 && end != 2)
				timekeeper_run(&rig.tk);
			_exit(0);
		}
		close(ready[1]);
		/* As the launcher does: only once it is armed. */
		if (read(ready[0], &byte, 1) != 1)
			printf("# the timekeeper process did not start\n");
		close(ready[0]);
		if (end != 2) {
			usleep(1000 + n * 97 % 5000);
			if (end == 1)
				kill(pid, SIGSTOP);
			kill(pid, SIGKILL);
		}
		waitpid(pid, &status, 0);
		for (int i = 0; i < CS_BASES; i++)
			rd_seq_mode(&rig.reader, i, &seq[i], &mode[i]);
		if (mode[0] == VDSO_CLOCKMODE_NONE && mode[1] == VDSO_CLOCKMODE_NONE)
			cleared++;
		else
			snprintf(last, sizeof(last), "; round %d (%s): clock_mode %d, %d",
				 n, ends[end], mode[0], mode[1]);
		seq_odd += (seq[0] | seq[1]) & 1;
		served += emu_read(&rig.reader, VDSO_CLOCK_MONOTONIC, &v, &retries) ||
			  emu_read(&rig.reader, VDSO_CLOCK_MONOTONIC_RAW, &v, &retries);
		rig_free(&rig);
	}
	report(cleared == rounds && !served,
	       "mode NONE after the timekeeper %s: %d of %d rounds (%d left a write "
	       "half done), %d served a stale page%s", l->name, cleared, rounds,
	       seq_odd, served, last);
}

/* ---- gettimeofday()'s timezone and clock_getres() ---- */

static void test_tz_res(const struct layout *l)
{
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
	west = rd32(&rig.reader, FIELD(&rig.reader, 0, tz_minuteswest));
	dst = rd32(&rig.reader, FIELD(&rig.reader, 0, tz_dsttime));
	hrtimer_res = rd32(&rig.reader, FIELD(&rig.reader, 0, hrtimer_res));
	coarse_res = rd32(&rig.reader, FIELD(&rig.reader, 0, coarse_res));
	/* The coarse clocks move once per update: whole host ticks, as few
	 * as keep the rate within TIMEKEEPER_AUTO_MAX_HZ. */
	report(west == tz.tz_minuteswest && dst == tz.tz_dsttime &&
	       hrtimer_res == res.tv_nsec && !res.tv_sec && !coarse.tv_sec &&
	       coarse_res % coarse.tv_nsec == 0 &&
	       coarse_res >= NSEC_PER_SEC / TIMEKEEPER_AUTO_MAX_HZ &&
	       coarse_res < NSEC_PER_SEC / TIMEKEEPER_AUTO_MAX_HZ + coarse.tv_nsec,
	       "timezone, hrtimer_res and the coarse resolution %s: %d minutes west, "
	       "dst %d, %u ns, %u ns (host: %ld ns, its tick %ld ns)", l->name, west,
	       dst, hrtimer_res, coarse_res, res.tv_nsec, coarse.tv_nsec);
	rig_free(&rig);
}

/*
 * The default schedule: an update a period (the coarse resolution the
 * page gives, whole host ticks) after the host's tick the last one saw, a
 * little later, and never in the past; update_hz says so.
 */
static void test_schedule(const struct layout *l)
{
	struct timekeeper_options o = { .page_size = l->page_size };
	struct timespec tick, now;
	uint64_t period, next, at, bad = 0;
	struct rig rig;

	if (!rig_init(&rig, l, &o))
		return;
	clock_getres(CLOCK_MONOTONIC_COARSE, &tick);
	period = rd32(&rig.reader, FIELD(&rig.reader, 0, coarse_res));
	for (int i = 0; i < 100; i++) {
		timekeeper_update(&rig.tk);
		clock_gettime(CLOCK_MONOTONIC, &now);
		at = now.tv_sec * NSEC_PER_SEC + now.tv_nsec;
		next = timekeeper_next_update(&rig.tk, at);
		if (next <= at || next > at + period + tick.tv_nsec)
			bad++;
		else
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME,
					&(struct timespec){ next / NSEC_PER_SEC,
							    next % NSEC_PER_SEC }, NULL);
	}
	report(!bad && period % tick.tv_nsec == 0 &&
	       timekeeper_update_hz(&rig.tk) == (NSEC_PER_SEC + period / 2) / period,
	       "schedule %s: %" PRIu64 " ns between updates (host tick %ld ns, %u a "
	       "second), %" PRIu64 " of 100 due outside the next period", l->name,
	       period, tick.tv_nsec, timekeeper_update_hz(&rig.tk), bad);
	rig_free(&rig);
}

/* ---- (g) bad input ---- */

static const struct timezone far_tz = { .tz_minuteswest = 24 * 60 };
static const struct {
	const char *what;
	struct timekeeper_target target;
	struct timekeeper_options options;
} bad_input_cases[] = {
	{ "ppc32 little-endian", { 0, 0 }, { 0 } },
	{ "update rate too high", { 1, 0 }, { .update_hz = 10000000 } },
	{ "realtime offset tv_nsec", { 1, 0 },
	  { .realtime_offset = { 0, 1000000000 } } },
	{ "realtime before 1970", { 1, 0 },
	  { .realtime_offset = { -200LL * 365 * 86400, 0 } } },
	{ "timezone", { 1, 0 }, { .tz = &far_tz } },
	{ "page too small", { 1, 0 }, { .page_size = 128 } },
	{ "page size not a power of two", { 0, 1 }, { .page_size = 5000 } },
	{ "unknown mode", { 0, 1 }, { .mode = 7 } },
};

static void test_bad_input(void)
{
	static uint8_t page[65536] __attribute__((aligned(65536)));

	for (size_t i = 0; i < TEST_ARRAY_SIZE(bad_input_cases); i++) {
		struct timekeeper tk;
		char err[256] = "";
		int rc = timekeeper_init(&tk, page, &bad_input_cases[i].target,
					 &bad_input_cases[i].options, err, sizeof(err));

		printf("# bad input, %s: %s\n", bad_input_cases[i].what, err);
		report(rc == -1 && err[0], "bad input rejected: %s",
		       bad_input_cases[i].what);
	}
}

/*
 * The results main's loop gives a layout: tbfreq, agreement (and a SKIP of
 * exact agreement if it steers), monotonic, the steer fallback's two once
 * a layout has mirrored, torture and the mode cleared at exit; or the one
 * FAIL of a timekeeper that refuses the layout.  Whether it mirrors is
 * the host's say: a timekeeper set up and dropped asks it.
 */
static unsigned int layout_results(const struct layout *l,
				   const struct timekeeper_options *o,
				   bool *mirror_available)
{
	struct rig rig;
	bool mirror;

	if (!rig_init(&rig, l, o))
		return 1;
	mirror = is_mirror(&rig);
	rig_free(&rig);
	*mirror_available |= mirror;
	return 1 + (mirror ? 1 : 2) + 1 + (*mirror_available ? 2 : 0) + 2;
}

int main(void)
{
	uint64_t tsc_hz = measure_tsc_hz();
	bool mirror_available = false, mirrored = false;
	/* The two realtime offsets, tz and res, the schedule, bad input. */
	unsigned int results = 2 + 1 + 1 + TEST_ARRAY_SIZE(bad_input_cases);

	for (size_t i = 0; i < TEST_ARRAY_SIZE(layouts); i++) {
		struct timekeeper_options o = { .update_hz = UPDATE_HZ,
						 .page_size = layouts[i].page_size };

		results += layout_results(&layouts[i], &o, &mirrored);
	}
	test_plan(results);
	for (size_t i = 0; i < sizeof(layouts) / sizeof(*layouts); i++) {
		const struct layout *l = &layouts[i];
		struct timekeeper_options o = { .update_hz = UPDATE_HZ,
						 .page_size = l->page_size };
		struct rig rig;
		char description[300];

		if (!rig_init(&rig, l, &o)) {
			report(false, "%s: timekeeper_init: %s", l->name, rig.err);
			continue;
		}
		timekeeper_describe(&rig.tk, description, sizeof(description));
		printf("# %s: %s\n", l->name, description);
		test_tbfreq(&rig, tsc_hz);
		rig_start(&rig);
		if (is_mirror(&rig)) {
			mirror_available = true;
			test_agreement(&rig, "mirror", NSEC_PER_SEC);
		} else {
			printf("SKIP: exact agreement %s: the timekeeper steers (%s), "
			       "so its clocks only track the host's\n", l->name,
			       description);
			spin_ns(NSEC_PER_SEC);
			test_agreement(&rig, "steer", NSEC_PER_SEC);
		}
		test_monotonic(&rig, timekeeper_mode_name(&rig.tk), NSEC_PER_SEC);
		rig_free(&rig);

		/* The fallback, wherever the host would allow mirroring. */
		if (mirror_available) {
			o.mode = TIMEKEEPER_STEER;
			if (!rig_init(&rig, l, &o)) {
				report(false, "%s: timekeeper_init: %s", l->name,
				       rig.err);
				continue;
			}
			rig_start(&rig);
			spin_ns(NSEC_PER_SEC);
			test_agreement(&rig, "steer", NSEC_PER_SEC);
			test_monotonic(&rig, "steer", NSEC_PER_SEC);
			rig_free(&rig);
		}
		test_torture(l);
		test_clear_mode_at_exit(l);
	}
	test_realtime_offset(&layouts[2], (struct timespec){ 5 * 365 * 86400 + 12345,
							     123456789 });
	test_realtime_offset(&layouts[0], (struct timespec){ -365 * 86400, 0 });
	test_tz_res(&layouts[1]);
	test_schedule(&layouts[1]);
	test_bad_input();
	return test_failures ? 1 : 0;
}
