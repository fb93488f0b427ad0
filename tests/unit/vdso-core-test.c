// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the generic vDSO core, compiled natively against the
 * synthetic architecture in tests/unit/asm/vdso/gettimeofday.h: the delta
 * math against 128-bit arithmetic, every clock and entry against values
 * computed here from the data page's definitions (REFERENCE.md), the
 * system call fallbacks, clock_mode NONE and time namespaces, and the
 * seqcount's begin test (vdso-seqcount-test runs it against a writer),
 * and where the layout has them the auxiliary clocks.  Built per delta
 * math (TEST_DELTA32_PIECES: the ppc32 pieces) and layout (VDSO_LAYOUT);
 * every line names which.
 *
 * On a 64-bit host the core's seqcount reads seq and clock_mode as one
 * doubleword (the ppc64 path), little-endian here.
 */
#include "vdso-core-test.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

/* ---- 1. The delta math: (base + (cycles - last) * mult) >> shift. ---- */

#define DELTA_SEED	0x5eed0ff1ce2026ull
#define DELTA_TRIPLES	2000000
#define TSC_MULT	7294442u	/* this host kernel's TSC mult at shift 24 */

/* From 128-bit arithmetic, wrapped to 64 bits as the counter and sum do. */
static uint64_t reference_product(uint64_t cycles, uint64_t last, uint32_t mult)
{
	return (uint64_t)((unsigned __int128)(cycles - last) * mult);
}

static uint64_t reference_ns(uint64_t cycles, uint64_t last, uint32_t mult,
			     uint32_t shift, uint64_t base)
{
	return (uint64_t)(base + (unsigned __int128)reference_product(cycles, last, mult))
		>> shift;
}

/* The core's vdso_calc_ns() as this build compiles it. */
static uint64_t core_ns(uint64_t cycles, uint64_t last, uint32_t mult,
			uint32_t shift, uint64_t base)
{
	/* The timebase's mask: all ones. */
	struct vdso_clock vc = { .cycle_last = last, .mask = UINT64_MAX,
				 .mult = mult, .shift = shift };
	struct vdso_timestamp ts = { .nsec = base };

	return vdso_calc_ns(&vc, cycles, &ts);
}

/* The product alone is the conversion at shift 0 from base 0. */
static void check_delta_math(uint64_t cycles, uint64_t last, uint32_t mult,
			     uint32_t shift, uint64_t base)
{
	uint64_t product = core_ns(cycles, last, mult, 0, 0);
	uint64_t ns = core_ns(cycles, last, mult, shift, base);
	uint64_t want_product = reference_product(cycles, last, mult);
	uint64_t want_ns = reference_ns(cycles, last, mult, shift, base);

	if (product != want_product || ns != want_ns)
		case_fail("cycles %#" PRIx64 " last %#" PRIx64 " mult %#" PRIx32
			  " shift %" PRIu32 " base %#" PRIx64 ": product %#" PRIx64
			  " ns %#" PRIx64 ", want %#" PRIx64 " and %#" PRIx64,
			  cycles, last, mult, shift, base, product, ns,
			  want_product, want_ns);
}

/* Sizes drawn log-uniformly, so small, 32-bit, high-word and overflowing deltas all come up. */
static void test_delta_random(const void *unused __attribute__((unused)))
{
	uint64_t rng = DELTA_SEED;

	case_begin("delta math == 128-bit reference over %d random (delta, mult, shift, base) (seed %#llx)",
		   DELTA_TRIPLES, (unsigned long long)DELTA_SEED);
	for (int i = 0; i < DELTA_TRIPLES; i++) {
		uint64_t sizes = random64(&rng);
		uint64_t last = random64(&rng);
		uint64_t delta = random64(&rng) >> (sizes & 63);
		uint32_t mult = (uint32_t)random64(&rng) >> (sizes >> 6 & 31);
		uint64_t base = random64(&rng) >> (sizes >> 11 & 63);

		check_delta_math(last + delta, last, mult, sizes >> 17 & 31, base);
	}
	case_end();
}

static const struct delta_edge {
	const char *what;
	uint64_t cycles, last;
	uint32_t mult;
	uint64_t base;
} delta_edges[] = {
	{ "zero delta", 0x123456789abcdef0, 0x123456789abcdef0, TSC_MULT,
	  999999999ull << 24 },
	{ "delta of one", 0x123456789abcdef1, 0x123456789abcdef0, TSC_MULT, 0 },
	{ "delta of only a high word", 0x100000000 + 77, 77, UINT32_MAX, 0 },
	{ "delta with both words", 0x380000001 + 5, 5, TSC_MULT, 12345 },
	{ "largest delta whose product fits, TSC mult", UINT64_MAX / TSC_MULT, 0,
	  TSC_MULT, 0 },
	{ "smallest delta whose product overflows, TSC mult",
	  UINT64_MAX / TSC_MULT + 1, 0, TSC_MULT, 0 },
	{ "largest delta whose product fits, mult 2^32-1", 0x100000001, 0,
	  UINT32_MAX, 0 },
	{ "smallest delta whose product overflows, mult 2^32-1", 0x100000002, 0,
	  UINT32_MAX, 0 },
	{ "delta of 2^64-1", UINT64_MAX, 0, UINT32_MAX, 0 },
	{ "counter wrapped past 2^64", 10, UINT64_MAX - 5, TSC_MULT, 0 },
	{ "sum's low word carries into its high word", 1, 0, 1, 0xffffffff },
	{ "sum of all ones", 1, 0, TSC_MULT, UINT64_MAX - TSC_MULT },
	{ "sum wraps past 2^64", 1, 0, 1, UINT64_MAX },
};

static void test_delta_edge(const void *arg)
{
	const struct delta_edge *e = arg;

	case_begin("delta math: %s, shifts 0..31", e->what);
	for (uint32_t shift = 0; shift < 32; shift++)
		check_delta_math(e->cycles, e->last, e->mult, shift, e->base);
	case_end();
}
/* ---- Values computed from the definitions. ---- */

/* One timekeeper state: the hres and raw entries both get it, coarse bases its sec and nsec. */
struct clock_case {
	const char *name;
	uint64_t cycle_last, counter;
	uint32_t mult, shift;
	uint64_t sec, nsec;	/* the base, with frac below nsec in hres bases */
	uint64_t frac;		/* below 2^shift */
};

#define LARGEST_SUM_DELTA \
	((UINT64_MAX - ((999999999ull << 24) | 0xffffff)) / TSC_MULT)

static const struct clock_case clock_cases[] = {
	{ "zero delta", 0x123456789abc, 0x123456789abc, TSC_MULT, 24,
	  REALTIME_2025, 123456789, 0xabcdef },
	{ "one cycle", 0x123456789abc, 0x123456789abd, TSC_MULT, 24,
	  REALTIME_2025, 123456789, 0xabcdef },
	{ "nsec carry into sec", 0x123456789abc, 0x123456789abd, TSC_MULT, 24,
	  REALTIME_2025, 999999999, 0xffffff },
	{ "7.5 s of delta (high word set)", 0x123456789abc,
	  0x123456789abc + 17250000000, TSC_MULT, 24, REALTIME_2025, 876543210, 0x123 },
	{ "shift 0, mult 1, 4.9 s of delta", 1000, 1000 + 0x123456789, 1, 0,
	  REALTIME_2025, 999999999, 0 },
	{ "shift 31, 3 s of delta", 1000, 1000 + 3000000000, 0x80000000, 31,
	  REALTIME_2025, 999999999, 0x7fffffff },
	{ "largest delta before the sum overflows (1099 s)", 1ull << 40,
	  (1ull << 40) + LARGEST_SUM_DELTA, TSC_MULT, 24, REALTIME_2025, 999999999,
	  0xffffff },
	{ "counter wrapped past 2^64", UINT64_MAX - 99, 400, TSC_MULT, 24,
	  REALTIME_2025, 500000000, 0 },
};
#define NR_CLOCK_CASES	(int)(sizeof(clock_cases) / sizeof(clock_cases[0]))

struct test_time {
	uint64_t sec, nsec;
};

/*
 * What clock c reads in case cc, from the definitions: an hres or raw base
 * is sec plus (nsec << shift | frac) / 2^shift ns, advanced by
 * (counter - cycle_last) * mult / 2^shift ns and truncated; a coarse base
 * is read as stored.
 */
static struct test_time expected_time(const struct clock_case *cc,
				      const struct clock_desc *c)
{
	unsigned __int128 ns = cc->nsec, total;

	if (c->kind != CLOCK_KIND_COARSE)
		ns = (((unsigned __int128)cc->nsec << cc->shift) + cc->frac +
		      (unsigned __int128)(cc->counter - cc->cycle_last) * cc->mult) >>
		     cc->shift;
	total = (unsigned __int128)(cc->sec + clock_skew_sec(c->clk)) * NSEC_PER_SEC + ns;
	return (struct test_time){ total / NSEC_PER_SEC, total % NSEC_PER_SEC };
}

static struct test_time add_offset(struct test_time t, const struct timens_offset *o)
{
	__int128 total = (__int128)t.sec * NSEC_PER_SEC + t.nsec +
			 (__int128)o->sec * NSEC_PER_SEC + o->nsec;

	return (struct test_time){ total / NSEC_PER_SEC, total % NSEC_PER_SEC };
}

/* Where clock c keeps its base in its clock. */
static int clock_base(const struct clock_desc *c)
{
	return c->kind == CLOCK_KIND_AUX ? VDSO_BASE_AUX : c->clk;
}

static void install_clock(union test_page *page, const struct clock_case *cc,
			  const struct clock_desc *c)
{
	struct vdso_clock *d = page_clock(page, clock_entry(c));
	struct vdso_timestamp *base = &d->basetime[clock_base(c)];

	d->cycle_last = cc->cycle_last;
	d->mult = cc->mult;
	d->shift = cc->shift;
	base->sec = cc->sec + clock_skew_sec(c->clk);
	base->nsec = c->kind == CLOCK_KIND_COARSE ? cc->nsec :
		     cc->nsec << cc->shift | cc->frac;
}

/* A page serving every clock from case cc, decoys elsewhere. */
static void install_case(union test_page *page, const struct clock_case *cc,
			 uint64_t *rng)
{
	fill_decoys(page, cc->counter, rng);
	for (int i = 0; i < NR_CLOCKS; i++)
		install_clock(page, cc, &clocks[i]);
	test_counter = cc->counter;
}

/* ---- Checking the entries. ---- */

static void fallback_reset(void)
{
	memset(&test_fallback, 0, sizeof(test_fallback));
}

static void expect_no_fallback(const char *entry)
{
	if (test_fallback.calls)
		case_fail("%s took the system call (%d)", entry, test_fallback.which);
	fallback_reset();
}

static void expect_fallback(const char *entry, long ret, enum test_fallback fb,
			    int clk, const void *arg, const void *arg2)
{
	if (ret != TEST_FB_RESULT(fb) || test_fallback.calls != 1 ||
	    test_fallback.which != fb || test_fallback.clk != clk ||
	    test_fallback.arg != arg || test_fallback.arg2 != arg2)
		case_fail("%s: returned %ld after %u system calls (last %d, clock %d),"
			  " want the one system call %d for clock %d",
			  entry, ret, test_fallback.calls, test_fallback.which,
			  test_fallback.clk, fb, clk);
	fallback_reset();
}

static void expect_time(const char *entry, const char *clock, long ret,
			int64_t sec, int64_t nsec, struct test_time want)
{
	if (ret || (uint64_t)sec != want.sec || (uint64_t)nsec != want.nsec)
		case_fail("%s(%s) = %ld, {%" PRId64 ", %" PRId64 "}; want 0, {%"
			  PRIu64 ", %" PRIu64 "}", entry, clock, ret, sec, nsec,
			  want.sec, want.nsec);
	expect_no_fallback(entry);
}

/* clock_gettime through both timespec layouts. */
static void check_clock_gettime(const vdso_time_data_t *vd,
				const struct clock_desc *c, struct test_time want)
{
	struct __kernel_timespec ts;
	struct __kernel_old_timespec ts32;
	long ret;

	memset(&ts, 0xa5, sizeof(ts));
	ret = __cvdso_clock_gettime_data(vd, c->clk, &ts);
	expect_time("clock_gettime", c->name, ret, ts.tv_sec, ts.tv_nsec, want);

	memset(&ts32, 0xa5, sizeof(ts32));
	ret = __cvdso_clock_gettime32_data(vd, c->clk, &ts32);
	expect_time("clock_gettime32", c->name, ret, ts32.tv_sec, ts32.tv_nsec, want);
}

/*
 * gettimeofday with and without tv and tz, and time with and without a
 * result pointer: realtime is what clock_gettime(REALTIME) reads, tz and
 * time's seconds come from the page given.
 */
static void check_realtime_entries(const vdso_time_data_t *vd,
				   struct test_time realtime,
				   union test_page *tz_and_time_page)
{
	const struct vdso_time_info *src = page_info(tz_and_time_page, CS_HRES_COARSE);
	const struct vdso_clock *realtime_src = page_clock(tz_and_time_page, CS_HRES_COARSE);
	struct test_time want_tv = { realtime.sec, realtime.nsec / 1000 };
	struct __kernel_old_timeval tv;
	struct vdso_timezone tz;
	__kernel_old_time_t t = -1;
	long ret;

	memset(&tv, 0xa5, sizeof(tv));
	ret = __cvdso_gettimeofday_data(vd, &tv, NULL);
	expect_time("gettimeofday", "tv, no tz", ret, tv.tv_sec, tv.tv_usec, want_tv);

	for (int with_tv = 0; with_tv < 2; with_tv++) {
		memset(&tv, 0xa5, sizeof(tv));
		memset(&tz, 0xa5, sizeof(tz));
		ret = __cvdso_gettimeofday_data(vd, with_tv ? &tv : NULL, &tz);
		if (with_tv)
			expect_time("gettimeofday", "tv and tz", ret, tv.tv_sec,
				    tv.tv_usec, want_tv);
		else
			expect_time("gettimeofday", "tz only", ret, 0, 0,
				    (struct test_time){ 0, 0 });
		if (tz.tz_minuteswest != src->tz_minuteswest ||
		    tz.tz_dsttime != src->tz_dsttime)
			case_fail("gettimeofday tz = {%d, %d}, want {%d, %d}",
				  tz.tz_minuteswest, tz.tz_dsttime,
				  src->tz_minuteswest, src->tz_dsttime);
	}

	/* time() is the realtime base's seconds, not advanced by the counter. */
	ret = __cvdso_time_data(vd, NULL);
	expect_time("time", "NULL", 0, ret, 0,
		    (struct test_time){ realtime_src->basetime[VDSO_CLOCK_REALTIME].sec, 0 });
	ret = __cvdso_time_data(vd, &t);
	if (t != ret)
		case_fail("time stored %lld but returned %ld", (long long)t, ret);
	expect_time("time", "&t", 0, ret, 0,
		    (struct test_time){ realtime_src->basetime[VDSO_CLOCK_REALTIME].sec, 0 });
}

/* ---- 2. Every clock, every entry, each timekeeper state. ---- */

/* Clock c of case cc on a page of decoys, read. */
static void check_clock_alone(const struct clock_case *cc, const struct clock_desc *c,
			      uint64_t *rng)
{
	fill_decoys(&pages.real, cc->counter, rng);
	install_clock(&pages.real, cc, c);
	test_counter = cc->counter;
	check_clock_gettime(pages.real.data, c, expected_time(cc, c));
}

/* One generator for the clock cases in turn. */
static uint64_t clock_reads_rng = 1;

static void test_clock_reads(const void *arg)
{
	const struct clock_case *cc = arg;

	case_begin("clock reads, %s: %d clocks x 2 timespecs, gettimeofday, time",
		   cc->name, NR_CLOCKS);
	for (int k = 0; k < NR_CLOCKS; k++)
		check_clock_alone(cc, &clocks[k], &clock_reads_rng);
	install_case(&pages.real, cc, &clock_reads_rng);
	check_realtime_entries(pages.real.data, expected_time(cc, &clocks[0]), &pages.real);
	case_end();
}

/* ---- 3. Clocks the page does not serve, and clock_getres. ---- */

static const int unserved_clocks[] = {
	-1, INT_MIN, INT_MAX,
	2, 3,		/* the process and thread CPU clocks */
	8, 9, 10,	/* REALTIME_ALARM, BOOTTIME_ALARM, the unused SGI_CYCLE */
	12, 15,		/* past TAI */
	VDSO_CLOCK_AUX + VDSO_MAX_AUX_CLOCKS,	/* past the auxiliary clocks */
#if !VDSO_NR_AUX_CLOCKS
	VDSO_CLOCK_AUX,	/* a layout without them */
	VDSO_CLOCK_AUX + VDSO_MAX_AUX_CLOCKS - 1,
#endif
};

/* Every clock_getres entry must pass clk on to the system call. */
static void expect_getres_falls_back(const vdso_time_data_t *vd, int clk)
{
	struct __kernel_timespec ts;
	struct __kernel_old_timespec ts32;

	expect_fallback("clock_getres", __cvdso_clock_getres_data(vd, clk, &ts),
			TEST_FB_CLOCK_GETRES, clk, &ts, NULL);
	expect_fallback("clock_getres(NULL)", __cvdso_clock_getres_data(vd, clk, NULL),
			TEST_FB_CLOCK_GETRES, clk, NULL, NULL);
	expect_fallback("clock_getres32", __cvdso_clock_getres32_data(vd, clk, &ts32),
			TEST_FB_CLOCK_GETRES32, clk, &ts32, NULL);
	expect_fallback("clock_getres32(NULL)", __cvdso_clock_getres32_data(vd, clk, NULL),
			TEST_FB_CLOCK_GETRES32, clk, NULL, NULL);
}

/* And every clock_gettime entry too. */
static void expect_all_entries_fall_back(const vdso_time_data_t *vd, int clk)
{
	struct __kernel_timespec ts;
	struct __kernel_old_timespec ts32;

	expect_fallback("clock_gettime", __cvdso_clock_gettime_data(vd, clk, &ts),
			TEST_FB_CLOCK_GETTIME, clk, &ts, NULL);
	expect_fallback("clock_gettime32", __cvdso_clock_gettime32_data(vd, clk, &ts32),
			TEST_FB_CLOCK_GETTIME32, clk, &ts32, NULL);
	expect_getres_falls_back(vd, clk);
}

static void test_unserved_clock(const void *arg)
{
	const int *clk = arg;
	uint64_t rng = 2;

	install_case(&pages.real, &clock_cases[1], &rng);
	case_begin("clock id %d goes to the system call", *clk);
	expect_all_entries_fall_back(pages.real.data, *clk);
	case_end();
}

/* The tick, from its definition: a second divided by HZ, rounded. */
static uint64_t tick_nsec(void)
{
	return (uint64_t)((double)NSEC_PER_SEC / HZ + 0.5);
}

/*
 * hres and raw report hrtimer_res from res_page, coarse its coarse_res or,
 * where that is 0 (a kernel's page), the tick; NULL res only asks.
 */
static void check_clock_getres(const vdso_time_data_t *vd, union test_page *res_page)
{
	const struct vdso_time_info *r = page_info(res_page, CS_HRES_COARSE);

	for (int i = 0; i < NR_CLOCKS; i++) {
		const struct clock_desc *c = &clocks[i];
		struct test_time want = {
			0, c->kind != CLOCK_KIND_COARSE ? r->hrtimer_res :
			   r->coarse_res ? r->coarse_res : tick_nsec()
		};
		struct __kernel_timespec res;
		struct __kernel_old_timespec res32;
		long ret;

		memset(&res, 0xa5, sizeof(res));
		ret = __cvdso_clock_getres_data(vd, c->clk, &res);
		expect_time("clock_getres", c->name, ret, res.tv_sec, res.tv_nsec, want);
		memset(&res32, 0xa5, sizeof(res32));
		ret = __cvdso_clock_getres32_data(vd, c->clk, &res32);
		expect_time("clock_getres32", c->name, ret, res32.tv_sec,
			    res32.tv_nsec, want);
		expect_time("clock_getres(NULL)", c->name,
			    __cvdso_clock_getres_data(vd, c->clk, NULL), 0, 0,
			    (struct test_time){ 0, 0 });
		expect_time("clock_getres32(NULL)", c->name,
			    __cvdso_clock_getres32_data(vd, c->clk, NULL), 0, 0,
			    (struct test_time){ 0, 0 });
	}
}

static void test_clock_getres(const void *unused __attribute__((unused)))
{
	uint64_t rng = 3;

	install_case(&pages.real, &clock_cases[1], &rng);
	page_info(&pages.real, CS_HRES_COARSE)->hrtimer_res = 1;
	page_info(&pages.real, CS_HRES_COARSE)->coarse_res = 0;
	case_begin("clock_getres: hres and raw give hrtimer_res, coarse the tick (%" PRIu64
		   " ns at HZ=%d) where the page gives none, NULL res accepted",
		   tick_nsec(), HZ);
	check_clock_getres(pages.real.data, &pages.real);
	case_end();
}

/* After test_clock_getres, on its page. */
static void test_coarse_res(const void *unused __attribute__((unused)))
{
	/* Not a tick of the build's HZ: the host's, whatever the build assumed. */
	page_info(&pages.real, CS_HRES_COARSE)->coarse_res = tick_nsec() + 1;
	case_begin("clock_getres: coarse gives the page's coarse_res (%" PRIu32 " ns)",
		   page_info(&pages.real, CS_HRES_COARSE)->coarse_res);
	check_clock_getres(pages.real.data, &pages.real);
	case_end();
}

/* ---- 4. No timekeeper, and time namespaces. ---- */

/* With no counter to read every reading goes to the system call; getres still answers, as in Linux. */
static void expect_reads_fall_back(const vdso_time_data_t *vd, union test_page *real)
{
	struct __kernel_old_timeval tv;
	struct vdso_timezone tz;
	__kernel_old_time_t t;

	for (int i = 0; i < NR_CLOCKS; i++) {
		struct __kernel_timespec ts;
		struct __kernel_old_timespec ts32;
		int clk = clocks[i].clk;

		expect_fallback("clock_gettime", __cvdso_clock_gettime_data(vd, clk, &ts),
				TEST_FB_CLOCK_GETTIME, clk, &ts, NULL);
		expect_fallback("clock_gettime32",
				__cvdso_clock_gettime32_data(vd, clk, &ts32),
				TEST_FB_CLOCK_GETTIME32, clk, &ts32, NULL);
	}
	expect_fallback("gettimeofday(tv, NULL)", __cvdso_gettimeofday_data(vd, &tv, NULL),
			TEST_FB_GETTIMEOFDAY, 0, &tv, NULL);
	expect_fallback("gettimeofday(tv, tz)", __cvdso_gettimeofday_data(vd, &tv, &tz),
			TEST_FB_GETTIMEOFDAY, 0, &tv, &tz);
	expect_fallback("time(NULL)", __cvdso_time_data(vd, NULL), TEST_FB_TIME, 0,
			NULL, NULL);
	expect_fallback("time(&t)", __cvdso_time_data(vd, &t), TEST_FB_TIME, 0, &t, NULL);
	check_clock_getres(vd, real);
}

/* Every clock of the page: a time namespace's has its auxiliary clocks too. */
static void set_clock_mode(union test_page *page, int32_t mode, uint32_t seq)
{
	for (int e = 0; e < NR_PAGE_CLOCKS; e++) {
		page_clock(page, e)->clock_mode = mode;
		page_clock(page, e)->seq = seq;
	}
}

/* Odd too: a writer that switched to NONE mid-update must not be waited for. */
static const uint32_t none_seqs[] = { 40, 41 };
/* One generator for both cases in turn. */
static uint64_t none_rng = 4;

static void test_clock_mode_none(const void *arg)
{
	uint32_t seq = *(const uint32_t *)arg;

	case_begin("clock_mode NONE, seq %s: every clock, gettimeofday and time"
		   " take the system call", seq & 1 ? "odd" : "even");
	install_case(&pages.real, &clock_cases[3], &none_rng);
	set_clock_mode(&pages.real, VDSO_CLOCKMODE_NONE, seq);
	expect_reads_fall_back(pages.real.data, &pages.real);
	case_end();
}

/*
 * As the kernel sets them (timens_setup_vdso_data): offsets for the
 * monotonic and boot clocks in both entries, none for realtime or TAI.
 * Distinct per slot here, one negative, some carrying into the seconds.
 */
static const struct {
	int clk;
	struct timens_offset offset;
} timens_offsets[] = {
	{ VDSO_CLOCK_MONOTONIC, { -3601, 250000000 } },
	{ VDSO_CLOCK_MONOTONIC_COARSE, { 3 * 86400, 900000000 } },
	{ VDSO_CLOCK_MONOTONIC_RAW, { 7, 999999999 } },
	{ VDSO_CLOCK_BOOTTIME, { 1000, 600000000 } },
};

static void install_timens_page(uint64_t *rng)
{
	union test_page *ns = &pages.timens;

	/* Whatever else a namespace page holds must not be read. */
	fill_decoys(ns, test_counter, rng);
	for (int e = 0; e < NR_PAGE_CLOCKS; e++) {
		struct vdso_clock *d = page_clock(ns, e);

		memset(d->offset, 0, sizeof(d->offset));
		for (size_t i = 0; e < CS_BASES && i < TEST_ARRAY_SIZE(timens_offsets); i++)
			d->offset[timens_offsets[i].clk] = timens_offsets[i].offset;
	}
	set_clock_mode(ns, VDSO_CLOCKMODE_TIMENS, 1);
}

static void test_timens(const void *unused __attribute__((unused)))
{
	const struct clock_case *cc = &clock_cases[3];
	uint64_t rng = 5;

	case_begin("time namespace: real page + offsets for %d clocks, gettimeofday;"
		   " getres, tz and time from the real page", NR_CLOCKS);
	install_case(&pages.real, cc, &rng);
	install_timens_page(&rng);
	for (int i = 0; i < NR_CLOCKS; i++) {
		const struct clock_desc *c = &clocks[i];
		const struct vdso_clock *ns = page_clock(&pages.timens, clock_entry(c));

		check_clock_gettime(pages.timens.data, c,
				    add_offset(expected_time(cc, c), &ns->offset[c->clk]));
	}
	check_realtime_entries(pages.timens.data,
			       add_offset(expected_time(cc, &clocks[0]),
					  &page_clock(&pages.timens, CS_HRES_COARSE)->
						offset[VDSO_CLOCK_REALTIME]),
			       &pages.real);
	check_clock_getres(pages.timens.data, &pages.real);
	case_end();
}

/* After test_timens, on its pages. */
static void test_timens_none(const void *unused __attribute__((unused)))
{
	case_begin("time namespace over clock_mode NONE: every reading takes the system call");
	set_clock_mode(&pages.real, VDSO_CLOCKMODE_NONE, 2);
	expect_reads_fall_back(pages.timens.data, &pages.real);
	case_end();
}

#if VDSO_NR_AUX_CLOCKS
/* ---- 5. The auxiliary clocks, where the layout has them. ---- */

static const struct clock_desc aux_clocks[] = {
	{ VDSO_CLOCK_AUX + 0, "AUX+0", CLOCK_KIND_AUX },
	{ VDSO_CLOCK_AUX + 1, "AUX+1", CLOCK_KIND_AUX },
	{ VDSO_CLOCK_AUX + 2, "AUX+2", CLOCK_KIND_AUX },
	{ VDSO_CLOCK_AUX + 3, "AUX+3", CLOCK_KIND_AUX },
	{ VDSO_CLOCK_AUX + 4, "AUX+4", CLOCK_KIND_AUX },
	{ VDSO_CLOCK_AUX + 5, "AUX+5", CLOCK_KIND_AUX },
	{ VDSO_CLOCK_AUX + 6, "AUX+6", CLOCK_KIND_AUX },
	{ VDSO_CLOCK_AUX + 7, "AUX+7", CLOCK_KIND_AUX },
};
_Static_assert(TEST_ARRAY_SIZE(aux_clocks) == VDSO_NR_AUX_CLOCKS, "every auxiliary clock");
/* One generator for the three cases in turn. */
static uint64_t aux_rng = 6;

static void test_aux_reads(const void *unused __attribute__((unused)))
{
	const struct clock_case *cc = &clock_cases[3];
	uint64_t *rng = &aux_rng;

	case_begin("auxiliary clocks: each read from its aux_clock_data, %d x 2 timespecs;"
		   " clock_getres takes the system call", VDSO_NR_AUX_CLOCKS);
	for (int i = 0; i < VDSO_NR_AUX_CLOCKS; i++) {
		check_clock_alone(cc, &aux_clocks[i], rng);
		/* Its resolution is the kernel's to say. */
		expect_getres_falls_back(pages.real.data, aux_clocks[i].clk);
	}
	case_end();
}

static void test_aux_none(const void *unused __attribute__((unused)))
{
	const struct clock_case *cc = &clock_cases[3];

	case_begin("auxiliary clocks: one in clock_mode NONE (none set up) takes the system call");
	install_case(&pages.real, cc, &aux_rng);
	for (int i = 0; i < VDSO_NR_AUX_CLOCKS; i++) {
		page_clock(&pages.real, clock_entry(&aux_clocks[i]))->clock_mode =
			VDSO_CLOCKMODE_NONE;
		expect_all_entries_fall_back(pages.real.data, aux_clocks[i].clk);
	}
	case_end();
}

/* A namespace moves no auxiliary clock: its offsets there are 0. */
static void test_aux_timens(const void *unused __attribute__((unused)))
{
	const struct clock_case *cc = &clock_cases[3];

	case_begin("auxiliary clocks in a time namespace: the real page's, unmoved");
	install_case(&pages.real, cc, &aux_rng);
	for (int i = 0; i < VDSO_NR_AUX_CLOCKS; i++)
		install_clock(&pages.real, cc, &aux_clocks[i]);
	install_timens_page(&aux_rng);
	for (int i = 0; i < VDSO_NR_AUX_CLOCKS; i++)
		check_clock_gettime(pages.timens.data, &aux_clocks[i],
				    expected_time(cc, &aux_clocks[i]));
	case_end();
}
#endif

/* The seqcount's begin test, whichever seq/clock_mode load this host compiles. */
static void test_read_ready(const void *unused __attribute__((unused)))
{
	static const uint32_t seqs[] = { 0, 1, 2, 3, 0x7fffffff, 0x80000000,
					 0xfffffffe, 0xffffffff };
	static const int32_t modes[] = { VDSO_CLOCKMODE_NONE, VDSO_CLOCKMODE_ARCHTIMER,
					 VDSO_CLOCKMODE_TIMENS, 2, -1, INT_MIN };
	struct vdso_clock vc = { 0 };

	case_begin("seqcount begin: ready exactly when seq is even and clock_mode is not NONE");
	for (size_t i = 0; i < sizeof(seqs) / sizeof(seqs[0]); i++) {
		for (size_t j = 0; j < sizeof(modes) / sizeof(modes[0]); j++) {
			bool want = !(seqs[i] & 1) && modes[j] != VDSO_CLOCKMODE_NONE;

			vc.seq = seqs[i];
			vc.clock_mode = modes[j];
			if (vdso_read_ready(&vc, vdso_read_seq(&vc)) != want)
				case_fail("seq %#" PRIx32 " clock_mode %" PRId32 ": ready %d",
					  seqs[i], modes[j], !want);
		}
	}
	case_end();
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_start_watchdog();
	test_add_case(test_delta_random, NULL);
	for (size_t i = 0; i < TEST_ARRAY_SIZE(delta_edges); i++)
		test_add_case(test_delta_edge, &delta_edges[i]);
	/* Before any read: a wrong begin test would hang them. */
	test_add_case(test_read_ready, NULL);
	for (int i = 0; i < NR_CLOCK_CASES; i++)
		test_add_case(test_clock_reads, &clock_cases[i]);
	for (size_t i = 0; i < TEST_ARRAY_SIZE(unserved_clocks); i++)
		test_add_case(test_unserved_clock, &unserved_clocks[i]);
	test_add_case(test_clock_getres, NULL);
	test_add_case(test_coarse_res, NULL);
	for (size_t i = 0; i < TEST_ARRAY_SIZE(none_seqs); i++)
		test_add_case(test_clock_mode_none, &none_seqs[i]);
	test_add_case(test_timens, NULL);
	test_add_case(test_timens_none, NULL);
#if VDSO_NR_AUX_CLOCKS
	test_add_case(test_aux_reads, NULL);
	test_add_case(test_aux_none, NULL);
	test_add_case(test_aux_timens, NULL);
#endif
	return test_run_cases();
}
