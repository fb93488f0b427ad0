// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of the timekeeper (timekeeper/timekeeper.h), each target in
 * turn: it writes the data pages while this program reads them the way
 * ppctime's powerpc vDSO does (timekeeper-rig.h) and compares what it
 * reads with the host's own clocks.
 *
 * Per target, in Linux 6.1's layout: the published timebase frequency;
 * agreement with the host's clock_gettime() in the mode the timekeeper
 * picks here and in forced steer mode; no clock going backwards across
 * two threads; a seqcount torture against a writer updating back to
 * back; the watchdog's mode NONE.  In the datastore's, what depends on
 * where the writer puts things: the frequency on its own page, agreement
 * (briefly) and mode NONE.  The options' tests are
 * timekeeper-options-test.c.
 *
 * Prints TAP (tests/README.md) and, on lines starting with '#', the
 * figures behind them.
 */
#define _GNU_SOURCE
#include "ppctime/clear_mode.h"
#include "timekeeper-rig.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_harness.h"

#define TORTURE_READS		10000000ull
#define TORTURE_MAX_NS		(12 * NSEC_PER_SEC)

/* rig_init, or its failure the case's result. */
static bool rig_up(struct rig *rig, const struct layout *l,
		   const struct timekeeper_options *o)
{
	if (rig_init(rig, l, o))
		return true;
	report(false, "%s: timekeeper_init: %s", l->name, rig->err);
	return false;
}

/* ---- agreement with the host's clock_gettime ---- */

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

/* ---- never backwards, across two threads ---- */

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

/* ---- seqcount torture ---- */

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
static void test_torture(const void *arg)
{
	const struct layout *l = arg;
	struct timekeeper_options o = { .mode = TIMEKEEPER_STEER,
					 .update_hz = UPDATE_HZ,
					 .page_size = l->page_size };
	struct torture t = { 0 };
	struct rig rig;
	pthread_t writer, readers[2];
	uint64_t start, end, elapsed;

	if (!rig_up(&rig, l, &o))
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

/* ---- the timebase frequency ---- */

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

/* ---- a layout's timekeeper, shared by its cases in turn ---- */

/*
 * A layout's cases that share one timekeeper: the first sets it up (or
 * reports why it could not), the last drops it.
 */
struct layout_run {
	const struct layout *l;
	int clear_mode_rounds;
	struct rig rig;
	bool up;
	char description[300];
};

static struct layout_run runs[TEST_ARRAY_SIZE(layouts)];
static struct layout_run datastore_runs[TEST_ARRAY_SIZE(datastore_layouts)];
static uint64_t tsc_hz;

/* The timekeeper an earlier case set up, or this case's failure. */
static struct rig *shared_rig(struct layout_run *run, const char *what)
{
	if (run->up)
		return &run->rig;
	test_fail("its timekeeper was not set up", "%s %s", what, run->l->name);
	return NULL;
}

static void drop_rig(struct layout_run *run)
{
	rig_free(&run->rig);
	run->up = false;
}

/* Sets up the layout's timekeeper, checks its frequency, starts it. */
static void test_tbfreq(const void *arg)
{
	struct layout_run *run = (struct layout_run *)arg;
	struct timekeeper_options o = { .update_hz = UPDATE_HZ,
					 .page_size = run->l->page_size };
	const struct reader *r = &run->rig.reader;
	uint64_t published;
	double off;

	run->up = rig_up(&run->rig, run->l, &o);
	if (!run->up)
		return;
	timekeeper_describe(&run->rig.tk, run->description, sizeof(run->description));
	printf("# %s: %s\n", run->l->name, run->description);
	published = rd64(r, TBFREQ(r));
	off = ((double)published - tsc_hz) / tsc_hz;
	printf("# %s tb_ticks_per_sec %" PRIu64 ", measured %" PRIu64
	       " Hz: %+.1f ppm\n", run->l->name, published, tsc_hz, off * 1e6);
	report(off < 0.001 && off > -0.001, "tbfreq %s within 0.1%%", run->l->name);
	rig_start(&run->rig);
}

static void test_exact_agreement_skipped(const void *arg)
{
	struct layout_run *run = (struct layout_run *)arg;
	char why[400];

	if (!shared_rig(run, "exact agreement"))
		return;
	snprintf(why, sizeof(why), "the timekeeper steers (%s), so its clocks "
		 "only track the host's", run->description);
	test_skip(why, "exact agreement %s", run->l->name);
}

static void test_layout_agreement(const void *arg)
{
	struct rig *rig = shared_rig((struct layout_run *)arg, "agreement");

	if (!rig)
		return;
	if (!is_mirror(rig))
		spin_ns(NSEC_PER_SEC);
	test_agreement(rig, timekeeper_mode_name(&rig->tk), NSEC_PER_SEC);
}

static void test_layout_monotonic(const void *arg)
{
	struct layout_run *run = (struct layout_run *)arg;
	struct rig *rig = shared_rig(run, "monotonic");

	if (!rig)
		return;
	test_monotonic(rig, timekeeper_mode_name(&rig->tk), NSEC_PER_SEC);
	drop_rig(run);
}

/* The fallback: a timekeeper asked to steer where it could mirror. */
static void test_steer_agreement(const void *arg)
{
	struct layout_run *run = (struct layout_run *)arg;
	struct timekeeper_options o = { .mode = TIMEKEEPER_STEER,
					 .update_hz = UPDATE_HZ,
					 .page_size = run->l->page_size };

	run->up = rig_up(&run->rig, run->l, &o);
	if (!run->up)
		return;
	rig_start(&run->rig);
	test_layout_agreement(run);
}

/*
 * The datastore layout's agreement, briefer than 6.1's: only where the
 * writer puts things differs.
 */
#define DATASTORE_AGREEMENT_NS	(NSEC_PER_SEC / 4)

static void test_datastore_agreement(const void *arg)
{
	struct layout_run *run = (struct layout_run *)arg;
	struct rig *rig = shared_rig(run, "agreement");

	if (!rig)
		return;
	test_agreement(rig, timekeeper_mode_name(&rig->tk), DATASTORE_AGREEMENT_NS);
	drop_rig(run);
}

/* ---- the page after the timekeeper process ---- */

#define CLEAR_MODE_ROUNDS	60
#define DATASTORE_CLEAR_MODE_ROUNDS	12

/*
 * A timekeeper process that dies (SIGKILL at a random moment of a 100 kHz
 * update loop, so also in mid-write; SIGKILL while stopped; or a plain
 * exit), in each of the layout's clear_mode_rounds rounds, leaves both
 * clock_modes NONE, and readers go to the system call.
 */
static void test_clear_mode_at_exit(const void *arg)
{
	static const char *const ends[] = { "killed", "killed while stopped", "exited" };
	const struct layout *l = ((const struct layout_run *)arg)->l;
	int rounds = ((const struct layout_run *)arg)->clear_mode_rounds;
	struct timekeeper_options o = { .update_hz = TIMEKEEPER_MAX_HZ,
					 .page_size = l->page_size };
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

		if (!rig_up(&rig, l, &o))
			return;
		if (pipe(ready) < 0 || (pid = fork()) < 0) {
			perror("fork");
			exit(1);
		}
		if (pid == 0) {
			if (timekeeper_clear_mode_at_exit(&rig.tk) == 0 &&
			    write(ready[1], "", 1) == 1 && end != 2)
				timekeeper_run(&rig.tk, 0);
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

/*
 * A layout's cases: tbfreq, agreement (after a SKIP of exact agreement if
 * it steers), monotonic, the steer fallback's two once a layout has
 * mirrored, torture and the mode cleared at exit; or, if the timekeeper
 * refuses the layout, tbfreq alone, which says so.  Whether it mirrors is
 * the host's say: a timekeeper set up and dropped asks it.
 */
static void add_layout_cases(struct layout_run *run, bool *mirror_available)
{
	struct timekeeper_options o = { .update_hz = UPDATE_HZ,
					 .page_size = run->l->page_size };
	bool mirror;

	run->clear_mode_rounds = CLEAR_MODE_ROUNDS;
	test_add_case(test_tbfreq, run);
	if (!rig_init(&run->rig, run->l, &o))
		return;
	mirror = is_mirror(&run->rig);
	rig_free(&run->rig);
	*mirror_available |= mirror;
	if (!mirror)
		test_add_case(test_exact_agreement_skipped, run);
	test_add_case(test_layout_agreement, run);
	test_add_case(test_layout_monotonic, run);
	if (*mirror_available) {
		test_add_case(test_steer_agreement, run);
		test_add_case(test_layout_monotonic, run);
	}
	test_add_case(test_torture, run->l);
	test_add_case(test_clear_mode_at_exit, run);
}

int main(void)
{
	bool mirror_available = false;

	tsc_hz = measure_tsc_hz();
	for (size_t i = 0; i < TEST_ARRAY_SIZE(layouts); i++) {
		runs[i].l = &layouts[i];
		add_layout_cases(&runs[i], &mirror_available);
	}
	/* The datastore's tbfreq, agreement and mode NONE. */
	for (size_t i = 0; i < TEST_ARRAY_SIZE(datastore_layouts); i++) {
		struct layout_run *run = &datastore_runs[i];

		run->l = &datastore_layouts[i];
		run->clear_mode_rounds = DATASTORE_CLEAR_MODE_ROUNDS;
		test_add_case(test_tbfreq, run);
		test_add_case(test_datastore_agreement, run);
		test_add_case(test_clear_mode_at_exit, run);
	}
	return test_run_cases();
}
