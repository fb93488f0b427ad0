/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the timekeeper's host tests share (timekeeper-rig.c): the targets
 * and data layouts and the clocks they test, the limits of agreement with
 * the host's clocks, the pages read the way ppctime's powerpc vDSO reads
 * them, and a rig, a timekeeper at work on pages mapped as the launcher
 * maps them.
 */
#ifndef TIMEKEEPER_RIG_H
#define TIMEKEEPER_RIG_H

/* White-box: the rigs hold a struct timekeeper, private to the library. */
#include "timekeeper/timekeeper_internal.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <x86intrin.h>

#include <vdso/datapage.h>

#include "ppctime/vdso_layout.h"
#include "targets.h"

#define NSEC_PER_SEC		1000000000ull
#define UPDATE_HZ		10000
#define STEER_TOLERANCE_NS	2000
/*
 * A coarse clock is copied from the host's at each update, so it lags
 * while the host has ticked and the timekeeper has not yet run: a tick
 * usually, more when the timekeeper's thread waits for a CPU (5-12 ms
 * seen on an idle 2-CPU VM, 56 ms with other jobs running).  Its lag is
 * reported; this limit only catches a copy that stopped.
 */
#define COARSE_LAG_LIMIT_NS	(1000 * 1000000ll)

/* A target and data layout, and the kernel page size its pages lie apart by. */
struct layout {
	const char *name;
	struct timekeeper_target target;
	size_t page_size;
};

/* Each target in Linux 6.1's layout, then in the datastore's. */
#define LAYOUT(n, tr, cls, be, img, so, ld, pg, qm) \
	{ n, { .is64 = (cls) == 64, .big_endian = be, .layout = VDSO_LAYOUT_6_1 }, pg },
static const struct layout layouts[] = { PPCTIME_TARGETS(LAYOUT) };
#undef LAYOUT
#define LAYOUT(n, tr, cls, be, img, so, ld, pg, qm) \
	{ n " datastore", { .is64 = (cls) == 64, .big_endian = be, \
			    .layout = VDSO_LAYOUT_DATASTORE }, pg },
static const struct layout datastore_layouts[] = { PPCTIME_TARGETS(LAYOUT) };
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

static inline uint64_t host_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/* ---- The emulated powerpc vDSO reader ---- */

/*
 * The pages as the guest sees them: read-only, in the target's byte order
 * and data layout, page_size apart.
 */
struct reader {
	const uint8_t *page;
	bool is64, big_endian;
	const struct vdso_layout *layout;
	size_t page_size;
};

uint32_t rd32(const struct reader *r, size_t off);
uint64_t rd64(const struct reader *r, size_t off);
size_t data_at(const struct reader *r, int i);

/* Clock source i's field f, the (first) time info's f, the frequency. */
#define FIELD(r, i, f) (data_at(r, i) + offsetof(struct vdso_clock, f))
#define INFO(r, f) ((r)->layout->time_data[(r)->is64] + (r)->layout->infos[0] + \
		    offsetof(struct vdso_time_info, f))
#define TBFREQ(r) ((r)->layout->tbfreq_page * (r)->page_size + \
		   (r)->layout->tbfreq[(r)->is64])

void rd_seq_mode(const struct reader *r, int i, uint32_t *seq, int32_t *mode);

/* The guest's mftb: QEMU's cpu_get_host_ticks(), in program order here. */
static inline uint64_t mftb(void)
{
	_mm_lfence();
	return __rdtsc();
}

bool emu_read(const struct reader *r, int clk, uint64_t *ns, uint64_t *retries);
bool emu_time(const struct reader *r, uint64_t *ns);

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

bool rig_init(struct rig *rig, const struct layout *l,
	      const struct timekeeper_options *options);
void rig_start(struct rig *rig);
void rig_free(struct rig *rig);
bool is_mirror(const struct rig *rig);
void spin_ns(uint64_t ns);

#endif
