// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's data pages, written in the target's byte order and data
 * layout (datapage_writer.h, ppctime/vdso_layout.h), and the threads that
 * leave their clock_mode NONE once the writer's process is gone
 * (ppctime/clear_mode.h).
 */
#define _GNU_SOURCE
#include "datapage_writer.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ppctime/clear_mode.h"
#include "timekeeper_internal.h"

/* ---- The pages, in the target's byte order and layout ---- */

/* Clock source i's field at offset field, from the first page. */
static size_t clock_at(const struct timekeeper_page *pg, int i, size_t field)
{
	return pg->layout->time_data[pg->target.is64] + pg->layout->clocks[i] + field;
}

#define CLOCK_FIELD(pg, i, f)	clock_at(pg, i, offsetof(struct vdso_clock, f))
/* The time info's copy k. */
#define INFO_FIELD(pg, k, f)	((pg)->layout->time_data[(pg)->target.is64] + \
				 (pg)->layout->infos[k] + offsetof(struct vdso_time_info, f))

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
 * seq odd in both clock sources, then the write barrier.  A seq found odd
 * (a writer died half way, or the page is new) stays odd rather than
 * becoming even with a half-written page behind it.
 */
void page_write_begin(struct timekeeper *tk, struct page_seqs *s)
{
	for (int p = 0; p < tk->nr_pages; p++) {
		const struct timekeeper_page *pg = &tk->pages[p];

		for (int i = 0; i < CS_BASES; i++) {
			s->seq[p][i] = get32(pg->data, &pg->target, CLOCK_FIELD(pg, i, seq)) | 1;
			put32(pg->data, &pg->target, CLOCK_FIELD(pg, i, seq), s->seq[p][i]);
		}
	}
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

void page_write_end(struct timekeeper *tk, const struct page_seqs *s)
{
	__atomic_thread_fence(__ATOMIC_RELEASE);
	for (int p = 0; p < tk->nr_pages; p++) {
		struct timekeeper_page *pg = &tk->pages[p];

		for (int i = 0; i < CS_BASES; i++)
			put32(pg->data, &pg->target, CLOCK_FIELD(pg, i, seq), s->seq[p][i] + 1);
		pg->written = 1;
	}
}

/*
 * clock_mode is written only when it changes: after this process's death
 * the kernel writes NONE there (timekeeper_clear_mode_at_exit()), possibly
 * while the writer is still finishing an update, which must not undo it.
 */
void page_write_vclock(struct timekeeper *tk, int i, const struct vclock *vc)
{
	for (int p = 0; p < tk->nr_pages; p++) {
		struct timekeeper_page *pg = &tk->pages[p];
		const struct timekeeper_target *t = &pg->target;
		uint8_t *page = pg->data;

		if (!pg->written || vc->clock_mode != pg->mode[i]) {
			put32(page, t, CLOCK_FIELD(pg, i, clock_mode), vc->clock_mode);
			pg->mode[i] = vc->clock_mode;
		}
		put64(page, t, CLOCK_FIELD(pg, i, cycle_last), vc->cycle_last);
		put64(page, t, CLOCK_FIELD(pg, i, mask), UINT64_MAX);
		put32(page, t, CLOCK_FIELD(pg, i, mult), vc->mult);
		put32(page, t, CLOCK_FIELD(pg, i, shift), vc->shift);
		for (int k = 0; k < VDSO_BASES; k++) {
			put64(page, t, CLOCK_FIELD(pg, i, basetime[k].sec), vc->base[k].sec);
			put64(page, t, CLOCK_FIELD(pg, i, basetime[k].nsec), vc->base[k].nsec);
		}
		/* 6.1 has a copy per clock source (the vDSO reads the first's),
		 * the datastore one. */
		if (i >= (int)pg->layout->nr_infos)
			continue;
		put32(page, t, INFO_FIELD(pg, i, tz_minuteswest), tk->tz.tz_minuteswest);
		put32(page, t, INFO_FIELD(pg, i, tz_dsttime), tk->tz.tz_dsttime);
		put32(page, t, INFO_FIELD(pg, i, hrtimer_res), tk->hrtimer_res);
		put32(page, t, INFO_FIELD(pg, i, coarse_res), tk->coarse_res);
	}
}

void page_publish(struct timekeeper *tk, const struct vclock vc[CS_BASES])
{
	struct page_seqs s;

	page_write_begin(tk, &s);
	for (int i = 0; i < CS_BASES; i++)
		page_write_vclock(tk, i, &vc[i]);
	page_write_end(tk, &s);
}

void page_write_tbfreq(struct timekeeper *tk, struct timekeeper_page *p)
{
	const struct vdso_layout *l = p->layout;

	put64(p->data, &p->target,
	      l->tbfreq_page * p->page_size + l->tbfreq[p->target.is64],
	      tk->tb_ticks_per_sec);
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
 * field: the first 2 * CS_BASES - n of clock source 0's are the caller's to set.
 */
static int clear_mode_threads(struct timekeeper_page *pg, int n)
{
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
			pg->data + CLOCK_FIELD(pg, (k + 2 * CS_BASES - n) / 2, clock_mode),
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
 * is one of the first page's clock source 0's: its own write comes after its
 * last update for sure.
 */
int timekeeper_clear_mode_at_exit(struct timekeeper *tk)
{
	struct timekeeper_page *first = &tk->pages[0];

	if (clear_mode_threads(first, 2 * CS_BASES - 1))
		return -1;
	for (int p = 1; p < tk->nr_pages; p++)
		if (clear_mode_threads(&tk->pages[p], 2 * CS_BASES))
			return -1;
	syscall(SYS_set_tid_address, first->data + CLOCK_FIELD(first, CS_HRES_COARSE, clock_mode));
	return 0;
}

int timekeeper_clear_mode_at_exit_threads(struct timekeeper *tk)
{
	for (int p = 0; p < tk->nr_pages; p++)
		if (clear_mode_threads(&tk->pages[p], 2 * CS_BASES))
			return -1;
	return 0;
}
