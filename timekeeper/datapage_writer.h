/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one writer of the guest's data pages: the target's byte order and
 * data layout (ppctime/vdso_layout.h), the seqcount around every update,
 * for the timekeeper's parts.  What the pages hold after the writer's
 * death, which the processes that run a timekeeper ask for, is
 * ppctime/clear_mode.h.
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

#endif /* PPCTIME_DATAPAGE_WRITER_H */
