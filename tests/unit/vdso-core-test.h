/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the vDSO core's host unit tests share (vdso-core-test.c and
 * vdso-seqcount-test.c): the build variant that labels every line, the
 * state the synthetic architecture (asm/vdso/gettimeofday.h) declares, a
 * random source, and the data pages and clocks.  Each test program is one
 * translation unit that includes this header first, once: the synthetic
 * architecture, then the core (vdso-kernel/lib/gettimeofday.c), whose
 * static functions so become the program's own.
 */
#ifndef VDSO_CORE_TEST_H
#define VDSO_CORE_TEST_H

#include "asm/vdso/gettimeofday.h"
#include "vdso-kernel/lib/gettimeofday.c"

#include <stdint.h>
#include <string.h>

#ifdef TEST_DELTA32_PIECES
#define DELTA_VARIANT	"delta32"
#else
#define DELTA_VARIANT	"delta64"
#endif
/* 6.1's lines as they always were; the datastore's say so. */
#if VDSO_LAYOUT == VDSO_LAYOUT_6_1
#define VARIANT	DELTA_VARIANT
#else
#define VARIANT	DELTA_VARIANT " datastore"
#endif
#define TEST_LABEL	VARIANT ": "
#include "../test_harness.h"

_Thread_local uint64_t test_counter;
_Thread_local void (*test_counter_hook)(void);
_Thread_local unsigned long test_rmb_count;
_Thread_local unsigned long test_relax_count;
struct test_fallback_log test_fallback;

/* splitmix64: small, fast, and any seed gives a full-period sequence. */
static uint64_t random64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
	return z ^ (z >> 31);
}

/* ---- The data pages and the clocks. ---- */

/*
 * A time namespace page with the real page right above it, and the page
 * above that where the vDSO image would be: any page the core may be
 * given has one above it, as the compiler checks.  data is the time data
 * the core is given, in the build's layout (6.1's data[0] of data[]).
 */
union test_page {
#if VDSO_LAYOUT == VDSO_LAYOUT_6_1
	struct vdso_data data[CS_BASES];
#else
	struct vdso_time_data data[1];
#endif
	char bytes[PAGE_SIZE];
};
static struct {
	union test_page timens, real, image;
} pages __attribute__((aligned(PAGE_SIZE)));

enum clock_kind { CLOCK_KIND_HRES, CLOCK_KIND_COARSE, CLOCK_KIND_RAW, CLOCK_KIND_AUX };

static const struct clock_desc {
	int clk;
	const char *name;
	enum clock_kind kind;
} clocks[] = {
	{ VDSO_CLOCK_REALTIME, "REALTIME", CLOCK_KIND_HRES },
	{ VDSO_CLOCK_MONOTONIC, "MONOTONIC", CLOCK_KIND_HRES },
	{ VDSO_CLOCK_BOOTTIME, "BOOTTIME", CLOCK_KIND_HRES },
	{ VDSO_CLOCK_TAI, "TAI", CLOCK_KIND_HRES },
	{ VDSO_CLOCK_REALTIME_COARSE, "REALTIME_COARSE", CLOCK_KIND_COARSE },
	{ VDSO_CLOCK_MONOTONIC_COARSE, "MONOTONIC_COARSE", CLOCK_KIND_COARSE },
	{ VDSO_CLOCK_MONOTONIC_RAW, "MONOTONIC_RAW", CLOCK_KIND_RAW },
};
#define NR_CLOCKS	(int)(sizeof(clocks) / sizeof(clocks[0]))

/* Its clock in page_clock()'s numbering. */
static int clock_entry(const struct clock_desc *c)
{
	if (c->kind == CLOCK_KIND_AUX)
		return CS_BASES + c->clk - VDSO_CLOCK_AUX;
	return c->kind == CLOCK_KIND_RAW ? CS_RAW : CS_HRES_COARSE;
}

/* Each clock's base is this many seconds apart, so reading another clock's shows. */
static uint64_t clock_skew_sec(int clk)
{
	return (uint64_t)clk * 1000003;
}

#define REALTIME_2025	1764460800ull	/* 2025-11-30 00:00 UTC */

/* Every clock of the layout: the clock sources, then the auxiliary clocks. */
#define NR_PAGE_CLOCKS	(CS_BASES + VDSO_NR_AUX_CLOCKS)

static struct vdso_clock *page_clock(union test_page *page, int i)
{
#if VDSO_NR_AUX_CLOCKS
	if (i >= CS_BASES)
		return vdso_aux_clock_data(page->data, i - CS_BASES);
#endif
	return vdso_clock_data(page->data, i);
}

/* Each info of the page: 6.1 keeps one per clock source. */
static struct vdso_time_info *page_info(union test_page *page, int e)
{
#if VDSO_LAYOUT == VDSO_LAYOUT_6_1
	return &page->data[e].info;
#else
	(void)e;
	return vdso_time_info(page->data);
#endif
}

/*
 * Plausible but wrong values everywhere, so a read of the wrong entry or
 * slot shows; bounded so that such a read still ends quickly.
 */
static void fill_decoys(union test_page *page, uint64_t counter, uint64_t *rng)
{
	memset(page, 0, sizeof(*page));
	for (int e = 0; e < NR_PAGE_CLOCKS; e++) {
		struct vdso_clock *d = page_clock(page, e);

		d->seq = 2 * (uint32_t)(random64(rng) & 0xffff);
		d->clock_mode = VDSO_CLOCKMODE_ARCHTIMER;
		d->cycle_last = counter - random64(rng) % (1u << 24);
		d->mask = UINT64_MAX;
		d->mult = 1 + random64(rng) % (1u << 24);
		d->shift = 20 + random64(rng) % 8;
		for (int clk = 0; clk < VDSO_BASES; clk++) {
			d->basetime[clk].sec = random64(rng) % (1ull << 34);
			d->basetime[clk].nsec = random64(rng) % (1ull << 50);
		}
	}
	for (int e = 0; e < CS_BASES; e++) {
		struct vdso_time_info *info = page_info(page, e);

		info->tz_minuteswest = (int32_t)(random64(rng) % 1440) - 720;
		info->tz_dsttime = random64(rng) % 7;
		info->hrtimer_res = 2 + random64(rng) % 1000;
		info->coarse_res = random64(rng) % 10000000;	/* 0: a kernel's page */
	}
}

#endif /* VDSO_CORE_TEST_H */
