/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host kernel's own time data, in its [vvar] mapping: where the
 * layouts of the x86-64 kernels put each field, and a consistent read
 * under the host's seqcount.  What a layout's data is worth is for the
 * mirror (mirror.h) to judge.
 */
#ifndef PPCTIME_HOST_VVAR_H
#define PPCTIME_HOST_VVAR_H

#include <stddef.h>
#include <stdint.h>

#include <vdso/datapage.h>

#include "vclock.h"

/* Where a field sits in one clock's data, from the data's start. */
struct host_fields {
	size_t seq, clock_mode, cycle_last, mask, mult, shift, basetime;
};

struct host_layout {
	const char *kernels;	/* the host kernels that lay it out so */
	const char *array;	/* the kernel's name of one clock's data */
	size_t offset;		/* of the first clock's data in [vvar] */
	size_t stride;		/* to the second's (CS_RAW) */
	struct host_fields at;
};

/* Newest first: anything else is left to validation to turn down. */
extern const struct host_layout host_layouts[];
extern const size_t host_layout_count;

/* This process's [vvar] mapping, or NULL. */
const uint8_t *find_host_vvar(void);

/*
 * Both clocks' data in l, in host byte order, with the seqs it was read
 * under.  clock_mode ARCHTIMER where it is TSC data, else NONE; only the
 * bases the ppc page serves are kept (data[0] HRES and COARSE, data[1]
 * RAW), the others are 0.
 */
void host_vvar_read(const uint8_t *vvar, const struct host_layout *l,
		    struct vclock vc[CS_BASES], uint32_t seq[CS_BASES]);

#endif /* PPCTIME_HOST_VVAR_H */
