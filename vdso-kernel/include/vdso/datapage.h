/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The vDSO data page as Linux 6.1 lays it out on powerpc.  One header for
 * every party that touches the page: the vDSO (built for the target), the
 * timekeeper and the tests (built for the host, writing the target's byte
 * order).  Hence fixed-width types and explicit alignment throughout, and
 * both arch layouts visible at once.
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

/* Which clocks each vdso_data serves. */
#define VDSO_HRES	((1u << VDSO_CLOCK_REALTIME) | (1u << VDSO_CLOCK_MONOTONIC) | \
			 (1u << VDSO_CLOCK_BOOTTIME) | (1u << VDSO_CLOCK_TAI))
#define VDSO_COARSE	((1u << VDSO_CLOCK_REALTIME_COARSE) | \
			 (1u << VDSO_CLOCK_MONOTONIC_COARSE))
#define VDSO_RAW	(1u << VDSO_CLOCK_MONOTONIC_RAW)

/* data[] index: CS_HRES_COARSE serves HRES and COARSE, CS_RAW serves RAW. */
#define CS_HRES_COARSE	0
#define CS_RAW		1
#define CS_BASES	2

/* vdso_data.clock_mode */
#define VDSO_CLOCKMODE_NONE	0	/* no counter: readers use the syscall */
#define VDSO_CLOCKMODE_ARCHTIMER 1	/* read the timebase */
#define VDSO_CLOCKMODE_TIMENS	0x7fffffff /* time namespace page: see below */

#ifndef __ASSEMBLER__
#include <stdint.h>

typedef uint64_t vdso_u64 __attribute__((aligned(8)));

struct vdso_timestamp {
	vdso_u64 sec;
	vdso_u64 nsec;		/* high resolution bases: shifted left by shift */
};

/* In a time namespace page the bases hold offsets instead. */
struct timens_offset {
	int64_t sec __attribute__((aligned(8)));
	vdso_u64 nsec;
};

struct vdso_data {
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
	int32_t tz_minuteswest;
	int32_t tz_dsttime;
	uint32_t hrtimer_res;
	/*
	 * 6.1's padding, which a kernel leaves 0: its vDSO is built with its
	 * HZ.  ppctime's images are built before the host they run on is
	 * known, so its timekeeper writes the host's tick here.
	 */
	uint32_t coarse_res;
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

#endif /* __ASSEMBLER__ */

#define VDSO_DATA_OFFSET64	248
#define VDSO_DATA_OFFSET32	72
#define VDSO_TBFREQ_OFFSET64	0x38
#define VDSO_TBFREQ_OFFSET32	0

/*
 * Where the pages sit: the image is mapped VDSO_NR_PAGES pages above the
 * data page.  A task in a time namespace sees its namespace page first and
 * the real data one page further up.
 */
#define VDSO_NR_PAGES		2

#ifndef __ASSEMBLER__
_Static_assert(sizeof(struct vdso_data) == 240, "vdso_data is 6.1's 240 bytes");
_Static_assert(__builtin_offsetof(struct vdso_data, basetime) == 32, "basetime");
_Static_assert(__builtin_offsetof(struct vdso_data, tz_minuteswest) == 224, "tz");
_Static_assert(__builtin_offsetof(struct vdso_arch_data64, tb_ticks_per_sec) ==
	       VDSO_TBFREQ_OFFSET64, "ppc64 tb_ticks_per_sec");
_Static_assert(__builtin_offsetof(struct vdso_arch_data64, data) ==
	       VDSO_DATA_OFFSET64, "ppc64 data[]");
_Static_assert(__builtin_offsetof(struct vdso_arch_data32, data) ==
	       VDSO_DATA_OFFSET32, "ppc32 data[]");
#endif

#endif /* VDSO_DATAPAGE_H */
