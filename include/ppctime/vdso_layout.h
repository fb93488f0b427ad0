/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The vDSO data layouts (<vdso/datapage.h>, VDSO_LAYOUT_*) as the host
 * programs that write, read and map the pages need them: how many pages,
 * where the time data, its clock sources, the time info and the timebase
 * frequency lie, for a target of either word size.  Derived from the
 * layouts' structures there, so the facts stay in one place.  Integers
 * only, no pointer: the host vDSO (preload/), which no one relocates,
 * reads this table too.
 */
#ifndef PPCTIME_VDSO_LAYOUT_H
#define PPCTIME_VDSO_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <vdso/datapage.h>

struct vdso_layout {
	int id;				/* VDSO_LAYOUT_* */
	unsigned nr_pages;		/* the data pages below the image */
	uint32_t code_pages;		/* a bit per page its code finds from the PC */
	size_t time_data[2];		/* [is64]: the time data in the first page */
	size_t time_bytes;		/* its size */
	size_t clocks[CS_BASES];	/* the clock sources, from the time data */
	size_t infos[CS_BASES];		/* each copy of the time info, from it too */
	unsigned nr_infos;
	unsigned tbfreq_page;		/* the page holding tb_ticks_per_sec */
	size_t tbfreq[2];		/* [is64]: where in it */
};

#define VDSO_LAYOUT_OFFSET(type, field)	__builtin_offsetof(type, field)

static const struct vdso_layout vdso_layouts[] = {
	{
		.id = VDSO_LAYOUT_6_1,
		.nr_pages = VDSO_NR_PAGES_6_1,
		.code_pages = 1u << 0,
		.time_data = { VDSO_DATA_OFFSET32, VDSO_DATA_OFFSET64 },
		.time_bytes = CS_BASES * sizeof(struct vdso_data),
		.clocks = { 0, sizeof(struct vdso_data) },
		.infos = { VDSO_LAYOUT_OFFSET(struct vdso_data, info),
			   sizeof(struct vdso_data) + VDSO_LAYOUT_OFFSET(struct vdso_data, info) },
		.nr_infos = CS_BASES,
		.tbfreq_page = 0,
		.tbfreq = { VDSO_TBFREQ_OFFSET32, VDSO_TBFREQ_OFFSET64 },
	},
	{
		.id = VDSO_LAYOUT_DATASTORE,
		.nr_pages = VDSO_NR_PAGES_DATASTORE,
		.code_pages = 1u << 0 | 1u << VDSO_DATASTORE_RNG_PAGE |
			      1u << VDSO_DATASTORE_ARCH_PAGE,
		.time_data = { 0, 0 },
		.time_bytes = sizeof(struct vdso_time_data),
		.clocks = { VDSO_LAYOUT_OFFSET(struct vdso_time_data, clock_data[CS_HRES_COARSE]),
			    VDSO_LAYOUT_OFFSET(struct vdso_time_data, clock_data[CS_RAW]) },
		.infos = { VDSO_LAYOUT_OFFSET(struct vdso_time_data, info) },
		.nr_infos = 1,
		.tbfreq_page = VDSO_DATASTORE_ARCH_PAGE,
		.tbfreq = { VDSO_LAYOUT_OFFSET(struct vdso_arch_data_datastore, tb_ticks_per_sec),
			    VDSO_LAYOUT_OFFSET(struct vdso_arch_data_datastore, tb_ticks_per_sec) },
	},
};

/* The layout id names, or NULL. */
static inline const struct vdso_layout *vdso_layout_find(int id)
{
	for (size_t i = 0; i < sizeof(vdso_layouts) / sizeof(vdso_layouts[0]); i++)
		if (vdso_layouts[i].id == id)
			return &vdso_layouts[i];
	return NULL;
}

/* The first page's bytes up to the end of the time data: what its readers map. */
static inline size_t vdso_layout_time_end(const struct vdso_layout *l, bool is64)
{
	return l->time_data[is64] + l->time_bytes;
}

/* For messages and -v: "6.1", "datastore", as the images are named. */
static inline const char *vdso_layout_name(int id)
{
	switch (id) {
	case VDSO_LAYOUT_6_1:
		return "6.1";
	case VDSO_LAYOUT_DATASTORE:
		return "datastore";
	}
	return "unknown";
}

#endif /* PPCTIME_VDSO_LAYOUT_H */
