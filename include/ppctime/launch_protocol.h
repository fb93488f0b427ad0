// SPDX-License-Identifier: GPL-2.0
/*
 * How ppctime-run starts the guest loader, and how the loader says it
 * failed: included by ppctime-run, the loader and QEMU's preload (the
 * loader is freestanding, so nothing here may need a C library).
 *
 * ppctime-run runs QEMU as plain QEMU would be run, but through the host
 * dynamic linker, the one ppctime-run itself uses, with the preload
 * (ppctime-qemu-preload.so) added:
 *
 *	ld.so --preload ppctime-qemu-preload.so qemu-ppcXX [-L SYSROOT]
 *		[-0 ARGV0] PROGRAM [ARGS...]
 *
 * so QEMU's own exec_path, argv, AT_EXECFN, /proc/self/exe and
 * /proc/self/cmdline are PROGRAM's, and its environment (the guest's
 * /proc/self/environ) is the user's, with nothing of ours in it.
 * QEMU also gets a memfd named LAUNCH_MEMFD holding "LOADER_FD TARGET
 * LAYOUT TIME SHIFT LAUNCH": TARGET's name as in targets.txt, LAYOUT the
 * data layout's number (VDSO_LAYOUT_*, <vdso/datapage.h>), TIME
 * LAUNCH_TIME_PAGE or LAUNCH_TIME_HOST, SHIFT the launch's own clock
 * (--realtime, --tz), "SEC,NSEC,MINUTESWEST,DSTTIME" (what its timekeeper
 * adds to CLOCK_REALTIME and reports as the timezone; the preload's
 * answers keep them once the page serves no more), or LAUNCH_SHIFT_NONE,
 * numbers in decimal.  Before
 * QEMU's main(), the preload finds it, closes it, maps DATA_FD's first
 * data page to answer QEMU's time calls from unless TIME says the host's
 * (qemu-preload.c), makes
 * QEMU's getauxval(AT_EXECFD) LOADER_FD, the loader, open, and sets
 * LAUNCH_ENV=LAUNCH in the environment QEMU copies for the guest.  QEMU
 * then loads the loader from that descriptor, as under binfmt_misc's 'O'
 * flag, instead of opening PROGRAM.  The loader reads its arguments,
 * "DATA_FD,DATA_PAGES,PAGE_SIZE,IMAGE_FD,PROGRAM_FD", from LAUNCH_ENV
 * and removes that variable from PROGRAM's environment.
 *
 * DATA_FD, the data file, holds the image's layout of data pages, page k
 * at k * LAUNCH_DATA_STRIDE whatever the kernel page size: the loader maps
 * each where the image looks for it, so one file serves a guest of any
 * page size up to that stride (the shared timekeeper's serve every launch).
 */
#ifndef LAUNCH_PROTOCOL_H
#define LAUNCH_PROTOCOL_H

/* Found by name, read and closed by the preload, in QEMU before main(). */
#define LAUNCH_MEMFD		"ppctime-launch"
/* Who answers the guest's time system calls: the data page, or the host. */
#define LAUNCH_TIME_PAGE	"page"
#define LAUNCH_TIME_HOST	"host"
/* SHIFT: the host's clock as it is. */
#define LAUNCH_SHIFT_NONE	"-"

/* Set by the preload; read and removed by the loader, in the guest. */
#define LAUNCH_ENV		"PPCTIME_LAUNCH"

/* Where a data file's pages lie apart: the largest page size served. */
#define LAUNCH_DATA_STRIDE	(1ul << 20)
/* More data pages than any layout has are a broken launch. */
#define LAUNCH_MAX_DATA_PAGES	16

/* X(NAME, what it is): the fields of LAUNCH_ENV, in order. */
#define LAUNCH_ARGS(X)							\
	X(DATA_FD, "the vDSO data pages, mapped shared and read-only")	\
	X(DATA_PAGES, "how many, as the image's layout has them")	\
	X(PAGE_SIZE, "the page size the vDSO image was built for")	\
	X(IMAGE_FD, "the vDSO image, copied into private pages")	\
	X(PROGRAM_FD, "PROGRAM, open, so QEMU's -L does not apply to it")

enum launch_arg {
#define LAUNCH_ARG_INDEX(name, what) LAUNCH_ARG_##name,
	LAUNCH_ARGS(LAUNCH_ARG_INDEX)
#undef LAUNCH_ARG_INDEX
	LAUNCH_NR_ARGS,
};

/* ",DATA_FD,PAGE_SIZE,...", for messages: print from LAUNCH_FIELDS + 1. */
#define LAUNCH_ARG_NAME(name, what) "," #name
#define LAUNCH_FIELDS LAUNCH_ARGS(LAUNCH_ARG_NAME)

/*
 * The loader's exit statuses when it fails before PROGRAM starts, as env,
 * chroot and timeout use them, so a harness tells them from PROGRAM's own.
 */
#define LAUNCH_EXIT_ERROR		125	/* the launch itself: bad
						   arguments, the vDSO unmappable */
#define LAUNCH_EXIT_CANNOT_EXECUTE	126	/* PROGRAM or its interpreter
						   is there but cannot run */
#define LAUNCH_EXIT_NOT_FOUND		127	/* its interpreter is not there */

#endif
