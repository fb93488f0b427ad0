/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one writer of the guest's data pages: the target's byte order and
 * data layout (vdso_layout.h), the seqcount around every update, for the
 * timekeeper's parts;
 * and, for the processes that run a timekeeper, what the page holds after
 * the writer's death (timekeeper_clear_mode_at_exit()).
 */
#ifndef PPCTIME_DATAPAGE_WRITER_H
#define PPCTIME_DATAPAGE_WRITER_H

#include <stdint.h>

#include <vdso/datapage.h>

#include "timekeeper.h"
#include "vclock.h"

struct timekeeper_page;

/* Every page's seqs during an update. */
struct page_seqs {
	uint32_t seq[TIMEKEEPER_MAX_PAGES][CS_BASES];
};

/*
 * An update of every page begins: all of them odd before anything is
 * written, so one instant read after this lies in every page's update.
 */
void page_write_begin(struct timekeeper *tk, struct page_seqs *s);

/* seq even again, one past page_write_begin()'s. */
void page_write_end(struct timekeeper *tk, const struct page_seqs *s);

/* Clock source i of every page from vc, between page_write_begin() and _end(). */
void page_write_vclock(struct timekeeper *tk, int i, const struct vclock *vc);

/* Both clock sources from vc[], in one update. */
void page_publish(struct timekeeper *tk, const struct vclock vc[CS_BASES]);

/* tb_ticks_per_sec of page p, which the vDSO reads without the seqcount. */
void page_write_tbfreq(struct timekeeper *tk, struct timekeeper_page *p);

/*
 * In the process that will run timekeeper_run() (a forked child, never a
 * thread of a program): from now on, however this process ends, SIGKILL
 * included, the kernel sets clock_mode NONE in both clock sources of
 * every page, so readers go to the system call rather than serve a page
 * no one updates.  (A write left half done, seq odd, then holds the
 * reader in the wait, where ppctime's vDSO sees NONE.)  Starts threads
 * that only wait, four per page but the first, whose fourth is the
 * caller's own clear_child_tid.  Returns 0, or -1 with errno set: then no
 * reader must be started.
 */
int timekeeper_clear_mode_at_exit(struct timekeeper *tk);

/* The same, the caller's own clear_child_tid left alone: four per page. */
int timekeeper_clear_mode_at_exit_threads(struct timekeeper *tk);

#endif /* PPCTIME_DATAPAGE_WRITER_H */
