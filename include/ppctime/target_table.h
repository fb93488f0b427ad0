/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The targets, from targets.txt through the X-macro configure makes of it
 * (targets.h), as the one table every component reads: its name, its ELF
 * identity, its files and tools, and the data pages a target's programs
 * read.  What only one component needs of a target (binfmt_misc's magic,
 * vdso-check's exports) it derives from an entry here.  A static table,
 * as vdso_layout.h's: each file that reads it has its own copy, which
 * nothing compares across files.
 */
#ifndef PPCTIME_TARGET_TABLE_H
#define PPCTIME_TARGET_TABLE_H

#include <elf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ppctime/page_target.h"
#include "targets.h"

struct ppctime_target {
	const char *name;		/* ppctime's short name: ppc32, ppc64, ppc64le */
	const char *triplet;		/* the GNU triplet of its cross tools */
	int elf_class;			/* 32 or 64 */
	bool big_endian;
	uint16_t machine;		/* EM_PPC or EM_PPC64 */
	const char *image;		/* the default vDSO image's file name */
	const char *soname;		/* its DT_SONAME */
	const char *loader;		/* the guest loader's file name */
	unsigned long page_size;	/* the configured kernel page size */
	const char *qemu;		/* configure's path; the PATH is searched too */
};

#define PPCTIME_TARGET_ENTRY(n, tr, cls, be, img, so, ld, pg, qm) \
	{ n, tr, cls, be, PPCTIME_MACHINE(cls), img, so, ld, pg, qm },
static const struct ppctime_target ppctime_targets[] = {
	PPCTIME_TARGETS(PPCTIME_TARGET_ENTRY)
};
#undef PPCTIME_TARGET_ENTRY

#define PPCTIME_NR_TARGETS	(sizeof(ppctime_targets) / sizeof(ppctime_targets[0]))

/* The target called name, or NULL. */
static inline const struct ppctime_target *ppctime_target_named(const char *name)
{
	for (size_t i = 0; i < PPCTIME_NR_TARGETS; i++)
		if (!strcmp(ppctime_targets[i].name, name))
			return &ppctime_targets[i];
	return NULL;
}

/* What t's data pages of layout (VDSO_LAYOUT_*) are for. */
static inline struct timekeeper_target ppctime_target_pages(const struct ppctime_target *t,
							    int layout)
{
	return (struct timekeeper_target){
		.is64 = t->elf_class == 64, .big_endian = t->big_endian, .layout = layout,
	};
}

#endif /* PPCTIME_TARGET_TABLE_H */
