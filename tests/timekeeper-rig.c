// SPDX-License-Identifier: GPL-2.0
/*
 * For the timekeeper's host tests (timekeeper-rig.h): the page read the
 * way ppctime's powerpc vDSO reads it (target byte order, the seqcount,
 * the 64-bit delta * mult, the timebase being the TSC), and the rig that
 * maps a page and runs a timekeeper on it in a thread.
 */
#define _GNU_SOURCE
#include "timekeeper-rig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

uint32_t rd32(const struct reader *r, size_t off)
{
	uint32_t v = __atomic_load_n((const uint32_t *)(r->page + off),
				     __ATOMIC_RELAXED);

	return r->big_endian ? __builtin_bswap32(v) : v;
}

/* ppc64 loads a doubleword at once; ppc32 (big-endian) in two words. */
uint64_t rd64(const struct reader *r, size_t off)
{
	uint64_t v;

	if (!r->is64)
		return (uint64_t)rd32(r, off) << 32 | rd32(r, off + 4);
	v = __atomic_load_n((const uint64_t *)(r->page + off), __ATOMIC_RELAXED);
	return r->big_endian ? __builtin_bswap64(v) : v;
}

size_t data_at(const struct reader *r, int i)
{
	return r->layout->time_data[r->is64] + r->layout->clocks[i];
}

/* seq and clock_mode: one doubleword load on ppc64, as the vDSO does. */
void rd_seq_mode(const struct reader *r, int i, uint32_t *seq, int32_t *mode)
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

/*
 * clock_gettime() as the vDSO computes it, in ns; false where the vDSO
 * would make the system call.  *retries counts seqcount retries.
 */
bool emu_read(const struct reader *r, int clk, uint64_t *ns, uint64_t *retries)
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
bool emu_time(const struct reader *r, uint64_t *ns)
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

static void *run_timekeeper(void *arg)
{
	struct rig *rig = arg;

	if (timekeeper_run(&rig->tk, 0))
		perror("timekeeper_run");
	return NULL;
}

/* The pages' bytes, as the guest maps them. */
static size_t rig_bytes(const struct layout *l)
{
	return vdso_layout_find(l->target.layout)->nr_pages * l->page_size;
}

/* Map the pages as the launcher does (memfd, shared) and initialise;
 * false, with rig->err, if the timekeeper refuses. */
bool rig_init(struct rig *rig, const struct layout *l,
	      const struct timekeeper_options *options)
{
	int fd = memfd_create("datapage", MFD_CLOEXEC);

	memset(rig, 0, sizeof(*rig));
	rig->layout = l;
	if (fd < 0 || ftruncate(fd, rig_bytes(l))) {
		perror("memfd");
		exit(1);
	}
	rig->page = mmap(NULL, rig_bytes(l), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	rig->reader.page = mmap(NULL, rig_bytes(l), PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (rig->page == MAP_FAILED || rig->reader.page == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	rig->reader.is64 = l->target.is64;
	rig->reader.big_endian = l->target.big_endian;
	rig->reader.layout = vdso_layout_find(l->target.layout);
	rig->reader.page_size = l->page_size;
	return !timekeeper_init(&rig->tk, rig->page, &l->target, options,
				rig->err, sizeof(rig->err));
}

void rig_start(struct rig *rig)
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

void rig_free(struct rig *rig)
{
	rig_stop(rig);
	munmap(rig->page, rig_bytes(rig->layout));
	munmap((void *)rig->reader.page, rig_bytes(rig->layout));
}

bool is_mirror(const struct rig *rig)
{
	return !strcmp(timekeeper_mode_name(&rig->tk), "mirror");
}

void spin_ns(uint64_t ns)
{
	uint64_t end = host_ns(CLOCK_MONOTONIC) + ns;

	while (host_ns(CLOCK_MONOTONIC) < end)
		;
}
