// SPDX-License-Identifier: GPL-2.0
/*
 * How ppctime-run starts the guest loader, and how the loader says it
 * failed: included by both (the loader is freestanding, so nothing here
 * may need a C library).  ppctime-run runs
 *
 *	qemu-ppcXX [-L SYSROOT] ppctime-loader-T LAUNCH_ARGS... PROGRAM [ARGS...]
 *
 * the numbers in decimal; the loader's argv[LAUNCH_ARG_PROGRAM] onwards
 * becomes PROGRAM's argv.
 */
#ifndef LAUNCH_PROTOCOL_H
#define LAUNCH_PROTOCOL_H

/* X(NAME, what it is): the arguments between the loader and PROGRAM. */
#define LAUNCH_ARGS(X)							\
	X(DATA_FD, "the vDSO data pages, mapped shared and read-only")	\
	X(PAGE_SIZE, "the page size the vDSO image was built for")	\
	X(IMAGE_FD, "the vDSO image, copied into private pages")	\
	X(PROGRAM_FD, "PROGRAM, open, so QEMU's -L does not apply to it")

/* argv[LAUNCH_ARG_NAME] */
enum launch_arg {
	LAUNCH_ARG_LOADER,
#define LAUNCH_ARG_INDEX(name, what) LAUNCH_ARG_##name,
	LAUNCH_ARGS(LAUNCH_ARG_INDEX)
#undef LAUNCH_ARG_INDEX
	LAUNCH_ARG_PROGRAM,
};

/* "DATA_FD PAGE_SIZE ...", for messages. */
#define LAUNCH_ARG_NAME(name, what) #name " "
#define LAUNCH_USAGE LAUNCH_ARGS(LAUNCH_ARG_NAME) "PROGRAM [ARGS...]"

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
