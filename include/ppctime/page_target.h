/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a set of vDSO data pages is for, as their writer (the timekeeper)
 * fills them and their readers (the preload's guest clock, a launch, the
 * shared keeper's clients) read and map them: the target's word size and
 * byte order, and the data layout its vDSO reads.
 */
#ifndef PPCTIME_PAGE_TARGET_H
#define PPCTIME_PAGE_TARGET_H

/*
 * ppc32 (big-endian only), ppc64, ppc64le, and the data layout its vDSO
 * reads (VDSO_LAYOUT_*, <vdso/datapage.h>).
 */
struct timekeeper_target {
	int is64;
	int big_endian;
	int layout;
};

#endif /* PPCTIME_PAGE_TARGET_H */
