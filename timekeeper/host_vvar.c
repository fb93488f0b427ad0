// SPDX-License-Identifier: GPL-2.0
/*
 * The host kernel's [vvar] (host_vvar.h): its layouts, described by the
 * host kernel's own structures, and the read of its time data.
 */
#include "host_vvar.h"

#include <stdio.h>
#include <string.h>
#include <x86intrin.h>

/* The host kernel's struct vdso_timestamp. */
struct host_timestamp {
	uint64_t sec, nsec;
};

/*
 * One clock's data as the host kernels define it (x86-64, whose arch data
 * is empty; VDSO_BASES is CLOCK_TAI + 1 there as here), up to its bases:
 * 5.3-6.9's struct vdso_data, then from 6.10 on with max_cycles
 * (overflow protection) between cycle_last and mask.  6.15's struct
 * vdso_clock is exactly that.
 */
struct host_clock_5_3 {
	uint32_t seq;
	int32_t clock_mode;
	uint64_t cycle_last;
	uint64_t mask;
	uint32_t mult, shift;
	struct host_timestamp basetime[VDSO_BASES];
};

struct host_clock_6_10 {
	uint32_t seq;
	int32_t clock_mode;
	uint64_t cycle_last;
	uint64_t max_cycles;
	uint64_t mask;
	uint32_t mult, shift;
	struct host_timestamp basetime[VDSO_BASES];
};

/* What vdso_data held after the bases until 6.14; 6.15 moved it out. */
struct host_vdso_data_tail {
	int32_t tz_minuteswest, tz_dsttime;
	uint32_t hrtimer_res, unused;
};

struct host_vdso_data_5_3 {
	struct host_clock_5_3 clock;
	struct host_vdso_data_tail tail;
};

struct host_vdso_data_6_10 {
	struct host_clock_6_10 clock;
	struct host_vdso_data_tail tail;
};

_Static_assert(sizeof(struct host_vdso_data_5_3) == 240, "5.3's vdso_data");
_Static_assert(sizeof(struct host_vdso_data_6_10) == 248, "6.10's vdso_data");
_Static_assert(sizeof(struct host_clock_6_10) == 232, "6.15's vdso_clock");

/* A layout whose fields sit as in clock, its clocks sizeof(data) apart. */
#define HOST_LAYOUT(kernels_, array_, offset_, clock, data) {		\
	.kernels = kernels_, .array = array_, .offset = offset_,	\
	.stride = sizeof(data), .at = {					\
		.seq = offsetof(clock, seq),				\
		.clock_mode = offsetof(clock, clock_mode),		\
		.cycle_last = offsetof(clock, cycle_last),		\
		.mask = offsetof(clock, mask),				\
		.mult = offsetof(clock, mult),				\
		.shift = offsetof(clock, shift),			\
		.basetime = offsetof(clock, basetime),			\
	} }

/*
 * The offsets: 6.15's vdso_time_data starts with its clock data; before,
 * x86's vvar page held vdso_data[] at 128.
 */
const struct host_layout host_layouts[] = {
	HOST_LAYOUT("6.15+", "vdso_clock", 0,
		    struct host_clock_6_10, struct host_clock_6_10),
	HOST_LAYOUT("6.10-6.14", "vdso_data", 128,
		    struct host_clock_6_10, struct host_vdso_data_6_10),
	HOST_LAYOUT("5.3-6.9", "vdso_data", 128,
		    struct host_clock_5_3, struct host_vdso_data_5_3),
};
const size_t host_layout_count = sizeof(host_layouts) / sizeof(*host_layouts);

/* x86's VDSO_CLOCKMODE_TSC: the only host mode whose data is TSC-based. */
#define HOST_CLOCKMODE_TSC	1
/* The host kernel's writes take well under a microsecond; this is ~1 ms. */
#define HOST_MAX_SPINS		100000

const uint8_t *find_host_vvar(void)
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
	const struct host_fields *f = &l->at;
	uint32_t seq;

	do {
		int spins = 0;

		memset(vc, 0, sizeof(*vc));
		while ((seq = __atomic_load_n((const uint32_t *)(d + f->seq),
					      __ATOMIC_ACQUIRE)) & 1) {
			if (host32(d + f->clock_mode) != HOST_CLOCKMODE_TSC ||
			    ++spins > HOST_MAX_SPINS) {
				vc->clock_mode = -1;
				*seq_out = seq;
				return;
			}
			_mm_pause();
		}
		vc->clock_mode = host32(d + f->clock_mode);
		vc->cycle_last = host64(d + f->cycle_last);
		/* A mask other than all ones is no TSC: not mirrored. */
		if (host64(d + f->mask) != UINT64_MAX)
			vc->clock_mode = -1;
		vc->mult = host32(d + f->mult);
		vc->shift = host32(d + f->shift);
		for (int k = 0; k < VDSO_BASES; k++) {
			const uint8_t *b = d + f->basetime +
					   k * sizeof(struct host_timestamp);

			vc->base[k].sec = host64(b + offsetof(struct host_timestamp, sec));
			vc->base[k].nsec = host64(b + offsetof(struct host_timestamp, nsec));
		}
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while (__atomic_load_n((const uint32_t *)(d + f->seq),
				 __ATOMIC_RELAXED) != seq);
	*seq_out = seq;
}

void host_vvar_read(const uint8_t *vvar, const struct host_layout *l,
		    struct vclock vc[CS_BASES], uint32_t seq[CS_BASES])
{
	for (int i = 0; i < CS_BASES; i++) {
		unsigned served = i == CS_RAW ? VDSO_RAW : VDSO_HRES | VDSO_COARSE;

		host_read_clock(vvar, l, i, &vc[i], &seq[i]);
		vc[i].clock_mode = vc[i].clock_mode == HOST_CLOCKMODE_TSC ?
				   VDSO_CLOCKMODE_ARCHTIMER : VDSO_CLOCKMODE_NONE;
		for (int clk = 0; clk < VDSO_BASES; clk++)
			if (!(served & (1u << clk)))
				memset(&vc[i].base[clk], 0, sizeof(vc[i].base[clk]));
	}
}
