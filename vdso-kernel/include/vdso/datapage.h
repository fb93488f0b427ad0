/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The vDSO data pages as Linux lays them out on powerpc, in the two
 * layouts ppctime builds images for: Linux 6.1's and the generic
 * datastore's (6.17 on).  One header for every party that touches the
 * pages: the vDSO (built for the target and for one layout, VDSO_LAYOUT,
 * below), the timekeeper and the tests (built for the host, writing the
 * target's byte order, every layout at once).  Hence fixed-width types
 * and explicit alignment throughout, and both arch layouts visible at once.
 */
#ifndef VDSO_DATAPAGE_H
#define VDSO_DATAPAGE_H

/* Clock ids (uapi <linux/time.h>); VDSO_BASES covers 0 .. CLOCK_TAI. */
#define VDSO_CLOCK_REALTIME		0
#define VDSO_CLOCK_MONOTONIC		1
#define VDSO_CLOCK_MONOTONIC_RAW	4
#define VDSO_CLOCK_REALTIME_COARSE	5
#define VDSO_CLOCK_MONOTONIC_COARSE	6
#define VDSO_CLOCK_BOOTTIME		7
#define VDSO_CLOCK_TAI			11
#define VDSO_BASES			(VDSO_CLOCK_TAI + 1)
/* The auxiliary clocks (6.17): CLOCK_AUX .. CLOCK_AUX + MAX_AUX_CLOCKS - 1. */
#define VDSO_CLOCK_AUX			16
#define VDSO_MAX_AUX_CLOCKS		8
/* An auxiliary clock keeps its one base in basetime[VDSO_BASE_AUX]. */
#define VDSO_BASE_AUX			0

/* Which clocks each clock source serves. */
#define VDSO_HRES	((1u << VDSO_CLOCK_REALTIME) | (1u << VDSO_CLOCK_MONOTONIC) | \
			 (1u << VDSO_CLOCK_BOOTTIME) | (1u << VDSO_CLOCK_TAI))
#define VDSO_COARSE	((1u << VDSO_CLOCK_REALTIME_COARSE) | \
			 (1u << VDSO_CLOCK_MONOTONIC_COARSE))
#define VDSO_RAW	(1u << VDSO_CLOCK_MONOTONIC_RAW)

/* Clock source index: CS_HRES_COARSE serves HRES and COARSE, CS_RAW RAW. */
#define CS_HRES_COARSE	0
#define CS_RAW		1
#define CS_BASES	2

/* vdso_clock.clock_mode */
#define VDSO_CLOCKMODE_NONE	0	/* no counter: readers use the syscall */
#define VDSO_CLOCKMODE_ARCHTIMER 1	/* read the timebase */
#define VDSO_CLOCKMODE_TIMENS	0x7fffffff /* time namespace page: see below */

/*
 * The layouts.  An image says which one it was built for in a note of
 * ppctime's own, beside the Linux version note (which says the first
 * Linux release of the layout):
 *
 *   VDSO_LAYOUT_6_1	   Linux 6.1's: VDSO_NR_PAGES_6_1 pages below the
 *			   image, the first holding struct vdso_arch_data64
 *			   or 32, whose data[] are the clock sources, each
 *			   with its own copy of the time info (readers take
 *			   data[0]'s), as until 6.11.
 *   VDSO_LAYOUT_6_12	   Linux 6.12's (to 6.14): the same, but data[]
 *			   on a page of its own, the second of
 *			   VDSO_NR_PAGES_6_12.  For a kernel's build only:
 *			   ppctime's launcher writes the other two.
 *   VDSO_LAYOUT_DATASTORE the generic datastore, Linux 6.17's (6.15 made
 *			   it, 6.17 added the auxiliary clocks):
 *			   VDSO_NR_PAGES_DATASTORE pages, struct
 *			   vdso_time_data in the first, the time namespace's
 *			   in the second, getrandom's state in the third,
 *			   struct vdso_arch_data_datastore in the fourth.
 *
 * The note: name VDSO_LAYOUT_NOTE_NAME, type VDSO_LAYOUT_NOTE_TYPE, a
 * 4-byte desc holding VDSO_LAYOUT_*, in the image's byte order.
 */
#define VDSO_LAYOUT_6_1		1
#define VDSO_LAYOUT_DATASTORE	2
#define VDSO_LAYOUT_6_12	3
#define VDSO_LAYOUT_NOTE_NAME	"ppctime"
#define VDSO_LAYOUT_NOTE_TYPE	1

/* KERNEL_VERSION(a, b, c), as .note.Linux holds it. */
#define VDSO_LINUX_VERSION(a, b, c)	(((a) << 16) + ((b) << 8) + (c))
#define VDSO_LINUX_6_1		VDSO_LINUX_VERSION(6, 1, 0)
#define VDSO_LINUX_6_12		VDSO_LINUX_VERSION(6, 12, 0)
#define VDSO_LINUX_DATASTORE	VDSO_LINUX_VERSION(6, 17, 0)

/*
 * Where the pages sit: the image is mapped VDSO_NR_PAGES_* pages above the
 * first.  A task in a time namespace sees its namespace page first and the
 * real time data one page further up, in either layout.
 */
#define VDSO_NR_PAGES_6_1		2
#define VDSO_NR_PAGES_6_12		3
#define VDSO_NR_PAGES_DATASTORE		4
#define VDSO_DATASTORE_RNG_PAGE		2
#define VDSO_DATASTORE_ARCH_PAGE	3

#ifndef __ASSEMBLER__
#include <stdint.h>

/*
 * 8-byte aligned on every target and on the x86-64 host (the asserts
 * below hold the layouts to it).
 */
typedef uint64_t vdso_u64;
typedef int64_t vdso_s64;

struct vdso_timestamp {
	union {
		vdso_u64 sec;
		uint32_t sec_word[2];	/* an old time_t on ppc32: the low one */
	};
	vdso_u64 nsec;		/* high resolution bases: shifted left by shift */
};

/* In a time namespace page the bases hold offsets instead. */
struct timens_offset {
	vdso_s64 sec;
	vdso_u64 nsec;
};

/* One clock source: 6.1 calls it the head of struct vdso_data. */
struct vdso_clock {
	union {
		struct {
			uint32_t seq;	/* odd while the writer is in the middle */
			int32_t clock_mode;
		};
		vdso_u64 seq_mode;	/* both, for a reader's single load */
	};
	vdso_u64 cycle_last;
	vdso_u64 mask;
	uint32_t mult;
	uint32_t shift;
	union {
		struct vdso_timestamp basetime[VDSO_BASES];
		struct timens_offset offset[VDSO_BASES];
	};
};

/* What every clock shares: the timezone and the resolutions. */
struct vdso_time_info {
	int32_t tz_minuteswest;
	int32_t tz_dsttime;
	uint32_t hrtimer_res;
	/*
	 * Linux's padding, which a kernel leaves 0: its vDSO is built with
	 * its HZ.  ppctime's images are built before the host they run on is
	 * known, so its timekeeper writes the host's tick here.
	 */
	uint32_t coarse_res;
};

/* ---- Linux 6.1's layout ---- */

struct vdso_data {
	struct vdso_clock clock;
	struct vdso_time_info info;
};

/* 6.1's NR_syscalls on powerpc is 451: (451 + 31) / 32 map words. */
#define VDSO_SYSCALL_MAP_SIZE	15

/* ppc64 and ppc64le: the legacy systemcfg block, then the syscall maps. */
struct vdso_arch_data64 {
	uint8_t eye_catcher[16];
	uint32_t version_major;
	uint32_t version_minor;
	uint32_t platform;
	uint32_t processor;
	vdso_u64 processor_count;
	vdso_u64 physical_memory_size;
	vdso_u64 tb_orig_stamp;
	vdso_u64 tb_ticks_per_sec;
	vdso_u64 tb_to_xs;
	vdso_u64 stamp_xsec;
	vdso_u64 tb_update_count;
	uint32_t tz_minuteswest;
	uint32_t tz_dsttime;
	uint32_t dcache_size;
	uint32_t dcache_line_size;
	uint32_t icache_size;
	uint32_t icache_line_size;
	uint32_t dcache_block_size;
	uint32_t icache_block_size;
	uint32_t dcache_log_block_size;
	uint32_t icache_log_block_size;
	uint32_t syscall_map[VDSO_SYSCALL_MAP_SIZE];
	uint32_t compat_syscall_map[VDSO_SYSCALL_MAP_SIZE];
	struct vdso_data data[CS_BASES];
};

/* ppc32: the timebase frequency and one syscall map. */
struct vdso_arch_data32 {
	vdso_u64 tb_ticks_per_sec;
	uint32_t syscall_map[VDSO_SYSCALL_MAP_SIZE];
	struct vdso_data data[CS_BASES];
};

/* ---- The generic datastore's layout ---- */

/* The first page: the clock sources, the auxiliary clocks, the info. */
struct vdso_time_data {
	struct vdso_clock clock_data[CS_BASES];
	struct vdso_clock aux_clock_data[VDSO_MAX_AUX_CLOCKS];
	struct vdso_time_info info;
};

/*
 * The fourth page starts with the timebase frequency, on ppc32 and ppc64
 * alike; the cache geometry and syscall maps after it are no clock's.
 */
struct vdso_arch_data_datastore {
	vdso_u64 tb_ticks_per_sec;
};

#endif /* __ASSEMBLER__ */

#define VDSO_DATA_OFFSET64	248
#define VDSO_DATA_OFFSET32	72
#define VDSO_TBFREQ_OFFSET64	0x38
#define VDSO_TBFREQ_OFFSET32	0
#define VDSO_TIME_INFO_OFFSET_DATASTORE	2240

#ifndef __ASSEMBLER__
_Static_assert(_Alignof(vdso_u64) == 8 && _Alignof(vdso_s64) == 8, "64-bit fields 8-aligned");
_Static_assert(sizeof(struct vdso_clock) == 224, "vdso_clock is 224 bytes");
_Static_assert(sizeof(struct vdso_data) == 240, "vdso_data is 6.1's 240 bytes");
_Static_assert(__builtin_offsetof(struct vdso_clock, basetime) == 32, "basetime");
_Static_assert(__builtin_offsetof(struct vdso_data, info) == 224, "tz");
_Static_assert(__builtin_offsetof(struct vdso_arch_data64, tb_ticks_per_sec) ==
	       VDSO_TBFREQ_OFFSET64, "ppc64 tb_ticks_per_sec");
_Static_assert(__builtin_offsetof(struct vdso_arch_data64, data) ==
	       VDSO_DATA_OFFSET64, "ppc64 data[]");
_Static_assert(__builtin_offsetof(struct vdso_arch_data32, data) ==
	       VDSO_DATA_OFFSET32, "ppc32 data[]");
_Static_assert(__builtin_offsetof(struct vdso_time_data, info) ==
	       VDSO_TIME_INFO_OFFSET_DATASTORE, "datastore tz_minuteswest");
#endif

/*
 * Built for one layout (the vDSO, and the host builds of its core): the
 * time data the core is given (vdso_time_data_t, in 6.1 data[0] of
 * data[CS_BASES]), its clock sources and info, how many auxiliary clocks
 * it has, where the pages are from the first, and the symbol the linker
 * script puts at the first (Linux's name for it in that layout).
 */
#ifdef VDSO_LAYOUT
#if VDSO_LAYOUT == VDSO_LAYOUT_6_1 || VDSO_LAYOUT == VDSO_LAYOUT_6_12
#if VDSO_LAYOUT == VDSO_LAYOUT_6_1
#define VDSO_NR_PAGES		VDSO_NR_PAGES_6_1
#define VDSO_LAYOUT_LINUX	VDSO_LINUX_6_1
#else
#define VDSO_NR_PAGES		VDSO_NR_PAGES_6_12
#define VDSO_LAYOUT_LINUX	VDSO_LINUX_6_12
#endif
#define VDSO_DATA_SYMBOL	_vdso_datapage
#define VDSO_NR_AUX_CLOCKS	0
#ifndef __ASSEMBLER__
#define vdso_time_data_t	struct vdso_data
#define vdso_clock_data(vd, cs)	(&(vd)[cs].clock)
#define vdso_time_info(vd)	(&(vd)[CS_HRES_COARSE].info)
#endif
#elif VDSO_LAYOUT == VDSO_LAYOUT_DATASTORE
#define VDSO_NR_PAGES		VDSO_NR_PAGES_DATASTORE
#define VDSO_LAYOUT_LINUX	VDSO_LINUX_DATASTORE
#define VDSO_DATA_SYMBOL	vdso_u_time_data
#define VDSO_NR_AUX_CLOCKS	VDSO_MAX_AUX_CLOCKS
#ifndef __ASSEMBLER__
#define vdso_time_data_t	struct vdso_time_data
#define vdso_clock_data(vd, cs)	(&(vd)->clock_data[cs])
#define vdso_aux_clock_data(vd, i) (&(vd)->aux_clock_data[i])
#define vdso_time_info(vd)	(&(vd)->info)
#endif
#else
#error "VDSO_LAYOUT is none of the VDSO_LAYOUT_* this header knows"
#endif
#endif /* VDSO_LAYOUT */

#endif /* VDSO_DATAPAGE_H */
