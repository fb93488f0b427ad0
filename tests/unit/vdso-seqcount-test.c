// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of the generic vDSO core's seqcount against a writer
 * thread, compiled natively against the synthetic architecture in
 * tests/unit/asm/vdso/gettimeofday.h; vdso-core-test checks the
 * seqcount's begin test and everything read from a still page.  Built
 * per delta math (TEST_DELTA32_PIECES: the ppc32 pieces) and layout
 * (VDSO_LAYOUT); every line names which.
 *
 * On a 64-bit host the core's seqcount reads seq and clock_mode as one
 * doubleword (the ppc64 path), little-endian here.
 */
#include "vdso-core-test.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/*
 * Every generation the writer publishes lies on one line per clock: a
 * random cycle_last in [C0, C0 + SPREAD) with the base at
 * t0 + (cycle_last - C0) * ns_per_cycle, and mult/shift alternating
 * between two pairs of equal ratio.  So any consistent read at counter c
 * is exactly t0 + (c - C0) * ns_per_cycle, and a torn one (cycle_last,
 * base, sec, nsec, mult or shift from different generations) is not.
 * Coarse bases carry nsec as a function of sec.  Readers' counters lie
 * 2^32 to 3 * 2^32 cycles past C0, above every cycle_last: deltas often
 * use the high word.
 */
#define TORTURE_READERS	2
#define TORTURE_READS	1000000
#define TORTURE_C0	0x0123456789000000ull
#define TORTURE_SPREAD	(1ull << 32)
/* One read in this many waits mid-read for a new generation, as a preempted reader would. */
#define TORTURE_PREEMPT_EVERY	1024

static const uint32_t torture_ns_per_cycle[CS_BASES] = { 3, 5 };
static const uint32_t torture_shifts[2] = { 8, 20 };

static uint64_t torture_generations;	/* published so far */
static int torture_readers_done;

static uint64_t torture_t0(int clk)
{
	return (REALTIME_2025 + clock_skew_sec(clk)) * NSEC_PER_SEC;
}

static uint64_t coarse_nsec_of(uint64_t sec)
{
	return sec * 7919 % NSEC_PER_SEC;
}

static void store64(vdso_u64 *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

static void publish(struct vdso_clock *d, int entry, uint64_t generation,
		    uint64_t *rng)
{
	uint32_t shift = torture_shifts[generation & 1];
	uint32_t k = torture_ns_per_cycle[entry];
	uint64_t cycle_last = TORTURE_C0 + random64(rng) % TORTURE_SPREAD;

	__atomic_store_n(&d->seq, 2 * (uint32_t)generation + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	store64(&d->cycle_last, cycle_last);
	__atomic_store_n(&d->mult, k << shift, __ATOMIC_RELAXED);
	__atomic_store_n(&d->shift, shift, __ATOMIC_RELAXED);
	for (int i = 0; i < NR_CLOCKS; i++) {
		const struct clock_desc *c = &clocks[i];
		struct vdso_timestamp *base = &d->basetime[c->clk];

		if (clock_entry(c) != entry)
			continue;
		if (c->kind == CLOCK_KIND_COARSE) {
			uint64_t sec = generation + clock_skew_sec(c->clk);

			store64(&base->sec, sec);
			store64(&base->nsec, coarse_nsec_of(sec));
		} else {
			uint64_t t = torture_t0(c->clk) + (cycle_last - TORTURE_C0) * k;

			store64(&base->sec, t / NSEC_PER_SEC);
			store64(&base->nsec, t % NSEC_PER_SEC << shift);
		}
	}
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&d->seq, 2 * (uint32_t)generation + 2, __ATOMIC_RELAXED);
}

static void *torture_writer(void *arg)
{
	uint64_t rng = 6, generation = 0;

	(void)arg;
	while (__atomic_load_n(&torture_readers_done, __ATOMIC_RELAXED) < TORTURE_READERS) {
		generation++;
		for (int e = 0; e < CS_BASES; e++)
			publish(page_clock(&pages.real, e), e, generation, &rng);
		__atomic_store_n(&torture_generations, generation, __ATOMIC_RELEASE);
		/* A varying pause leaves readers whole windows, and some not. */
		for (uint64_t n = random64(&rng) % 4096; n; n--)
			__asm__ __volatile__("");
	}
	return NULL;
}

/* What the reader loop asks of its next read's counter hook. */
static _Thread_local bool mid_read_preempt;
static _Thread_local unsigned int mid_read_latency;

/*
 * A counter read that takes a while widens the window a writer can land
 * in; a preempted one (first attempt only) lets a whole generation in, so
 * the end check must fail and the read retry.
 */
static void torture_mid_read(void)
{
	if (mid_read_preempt && test_rmb_count == 1) {
		uint64_t seen = __atomic_load_n(&torture_generations, __ATOMIC_ACQUIRE);

		while (__atomic_load_n(&torture_generations, __ATOMIC_ACQUIRE) == seen)
			sched_yield();
	}
	for (unsigned int n = mid_read_latency; n; n--)
		__asm__ __volatile__("");
}

struct torture_reader {
	uint64_t seed;
	unsigned long preempted, retried_reads, retries, relaxes, torn;
	/* The first inconsistent read. */
	int bad_clk;
	long bad_ret;
	uint64_t bad_counter, bad_sec, bad_nsec;
};

static bool torture_consistent(const struct clock_desc *c, uint64_t counter,
			       uint64_t sec, uint64_t nsec)
{
	if (nsec >= NSEC_PER_SEC)
		return false;
	if (c->kind == CLOCK_KIND_COARSE)
		return nsec == coarse_nsec_of(sec);
	return sec * NSEC_PER_SEC + nsec == torture_t0(c->clk) +
		(counter - TORTURE_C0) * torture_ns_per_cycle[clock_entry(c)];
}

static void *torture_reader(void *arg)
{
	struct torture_reader *r = arg;
	uint64_t rng = r->seed;

	test_counter_hook = torture_mid_read;
	for (int i = 0; i < TORTURE_READS; i++) {
		const struct clock_desc *c = &clocks[i % NR_CLOCKS];
		struct __kernel_timespec ts;
		long ret;

		test_counter = TORTURE_C0 + TORTURE_SPREAD + random64(&rng) % (2 * TORTURE_SPREAD);
		/* Only hres and raw reads call the counter hook. */
		mid_read_preempt = c->kind != CLOCK_KIND_COARSE &&
				   random64(&rng) % TORTURE_PREEMPT_EVERY == 0;
		r->preempted += mid_read_preempt;
		mid_read_latency = random64(&rng) % 64;
		test_rmb_count = 0;
		ret = __cvdso_clock_gettime_data(pages.real.data, c->clk, &ts);
		/* Two barriers per attempt. */
		if (test_rmb_count > 2) {
			r->retried_reads++;
			r->retries += test_rmb_count / 2 - 1;
		}
		if (!ret && torture_consistent(c, test_counter, ts.tv_sec, ts.tv_nsec))
			continue;
		if (!r->torn++) {
			r->bad_clk = c->clk;
			r->bad_ret = ret;
			r->bad_counter = test_counter;
			r->bad_sec = ts.tv_sec;
			r->bad_nsec = ts.tv_nsec;
		}
	}
	r->relaxes = test_relax_count;
	__atomic_fetch_add(&torture_readers_done, 1, __ATOMIC_RELAXED);
	return NULL;
}

static void test_seqcount_torture(const void *unused __attribute__((unused)))
{
	struct torture_reader readers[TORTURE_READERS] = { 0 };
	pthread_t writer, reader_threads[TORTURE_READERS];
	bool started[TORTURE_READERS];
	unsigned long preempted = 0, retried_reads = 0, retries = 0, relaxes = 0;
	uint64_t rng = 7;
	struct timespec start, end;

	case_begin("seqcount: %d readers x %d reads against a writer thread",
		   TORTURE_READERS, TORTURE_READS);
	fill_decoys(&pages.real, TORTURE_C0, &rng);
	for (int e = 0; e < CS_BASES; e++)
		publish(page_clock(&pages.real, e), e, 0, &rng);
	clock_gettime(CLOCK_MONOTONIC, &start);
	if (pthread_create(&writer, NULL, torture_writer, NULL)) {
		case_fail("cannot start the writer thread");
		case_end();
		return;
	}
	for (int i = 0; i < TORTURE_READERS; i++) {
		readers[i].seed = 100 + i;
		started[i] = !pthread_create(&reader_threads[i], NULL, torture_reader,
					     &readers[i]);
		if (!started[i]) {
			case_fail("cannot start reader thread %d", i);
			/* The writer stops once it has heard from every reader. */
			__atomic_fetch_add(&torture_readers_done, 1, __ATOMIC_RELAXED);
		}
	}
	for (int i = 0; i < TORTURE_READERS; i++) {
		struct torture_reader *r = &readers[i];

		if (started[i])
			pthread_join(reader_threads[i], NULL);
		preempted += r->preempted;
		retried_reads += r->retried_reads;
		retries += r->retries;
		relaxes += r->relaxes;
		if (r->torn)
			case_fail("reader %d: %lu inconsistent reads; first: clock %d at"
				  " counter %#" PRIx64 " returned %ld, {%" PRIu64 ", %"
				  PRIu64 "}", i, r->torn, r->bad_clk, r->bad_counter,
				  r->bad_ret, r->bad_sec, r->bad_nsec);
	}
	pthread_join(writer, NULL);
	clock_gettime(CLOCK_MONOTONIC, &end);
	printf("# seqcount: %" PRIu64 " generations written; %lu reads retried"
	       " (%lu of them preempted mid-read), %lu retries in all,"
	       " %lu spins on an odd seq; %.2f s\n", torture_generations,
	       retried_reads, preempted, retries, relaxes,
	       (double)(end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9);
	/* Every preempted read must have retried; the rest may have. */
	if (retried_reads < preempted || !retried_reads)
		case_fail("%lu reads retried, fewer than the %lu preempted mid-read",
			  retried_reads, preempted);
	snprintf(case_name + strlen(case_name), sizeof(case_name) - strlen(case_name),
		 ": none torn, %lu retried", retried_reads);
	case_end();
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_start_watchdog();
	test_add_case(test_seqcount_torture, NULL);
	return test_run_cases();
}
