/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The time entry points: find the data page, call the C, turn its
 * 0 / -errno into the powerpc convention (CR0[SO] clear, or set with the
 * positive errno in r3).
 *
 * No stack frame: the return address waits in r11, which the C is built
 * never to touch (-ffixed-r11) and never calls out of, so nothing is
 * written at or above the caller's r1: callers without a frame of their
 * own (Go's runtime) are safe.  The C never uses r2 or r30 either (the
 * checker proves all of this from the image), so neither is saved.
 */
#include "vdso_asm.h"

	.text

/* cr0 := the top nibble of r3's low word: 0 on success, 0xf for -errno. */
#ifdef __powerpc64__
#define SET_SO_FROM_R3	mtocrf	0x80, r3
#else
#define SET_SO_FROM_R3	mtcrf	0x80, r3
#endif

/* name(arg1, arg2): the C gets the data page as its third argument. */
.macro time_entry name, cfunc
vdso_function \name
	.cfi_startproc
	mflr	r11
	.cfi_register lr, r11
	get_datapage r5, VDSO_DATA_OFFSET
	call_c	\cfunc
	mtlr	r11
	.cfi_restore lr
	SET_SO_FROM_R3
	bnslr+
	neg	r3, r3
	blr
	.cfi_endproc
vdso_function_end \name
.endm

/*
 * The entries with a 32-bit time_t on ppc32 exist only with
 * COMPAT_32BIT_TIME, as the system calls they stand for.
 */
#if defined(__powerpc64__) || defined(CONFIG_COMPAT_32BIT_TIME)
time_entry __kernel_clock_gettime, __c_kernel_clock_gettime
time_entry __kernel_clock_getres, __c_kernel_clock_getres
time_entry __kernel_gettimeofday, __c_kernel_gettimeofday
#endif
#ifndef __powerpc64__
time_entry __kernel_clock_gettime64, __c_kernel_clock_gettime64
time_entry __kernel_clock_getres_time64, __c_kernel_clock_getres_time64
#endif

#if defined(__powerpc64__) || defined(CONFIG_COMPAT_32BIT_TIME)
/* time_t __kernel_time(time_t *t): cannot fail. */
vdso_function __kernel_time
	.cfi_startproc
	mflr	r11
	.cfi_register lr, r11
	get_datapage r4, VDSO_DATA_OFFSET
	call_c	__c_kernel_time
	mtlr	r11
	.cfi_restore lr
	crclr	so
	blr
	.cfi_endproc
vdso_function_end __kernel_time
#endif

	.section .note.GNU-stack, "", @progbits
