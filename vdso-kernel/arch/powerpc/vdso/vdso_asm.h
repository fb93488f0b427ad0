/* SPDX-License-Identifier: GPL-2.0 */
/* Assembler words shared by the powerpc vDSO's .S files. */
#ifndef VDSO_ASM_H
#define VDSO_ASM_H

#include <vdso/datapage.h>

/*
 * From the first data page of the layout built for (VDSO_LAYOUT): the time
 * data the C is given, and the timebase frequency.
 */
#if VDSO_LAYOUT == VDSO_LAYOUT_6_1 || VDSO_LAYOUT == VDSO_LAYOUT_6_12
#if VDSO_LAYOUT == VDSO_LAYOUT_6_12
#define VDSO_DATA_OFFSET	PAGE_SIZE
#elif defined(__powerpc64__)
#define VDSO_DATA_OFFSET	VDSO_DATA_OFFSET64
#else
#define VDSO_DATA_OFFSET	VDSO_DATA_OFFSET32
#endif
#ifdef __powerpc64__
#define VDSO_TBFREQ_OFFSET	VDSO_TBFREQ_OFFSET64
#else
#define VDSO_TBFREQ_OFFSET	VDSO_TBFREQ_OFFSET32
#endif
#else
#define VDSO_DATA_OFFSET	0
#define VDSO_TBFREQ_OFFSET	(VDSO_DATASTORE_ARCH_PAGE * PAGE_SIZE)
#endif

/*
 * bl to a C function: on ELFv1 to its code ("dot") symbol.  gas macros
 * rather than cpp ones: these are assembler statements.
 */
.macro call_c func
#if defined(__powerpc64__) && _CALL_ELF != 2
	bl	.\func
#else
	bl	\func
#endif
.endm

#define r0 0
#define r3 3
#define r4 4
#define r5 5
#define r11 11
#define r12 12

/*
 * An exported entry: a plain code symbol, also on ELFv1 (no descriptor).
 * Symbols are set rather than written as labels, which checkpatch would
 * read as C.
 */
.macro vdso_function name
	.globl	\name
	.type	\name, @function
	.balign	16
	.set	\name, .
.endm

.macro vdso_function_end name
	.set	.L\name\()_end, .
	.size	\name, .L\name\()_end - \name
.endm

/*
 * reg = the data page + offset, found from the PC: "bcl 20,31,.+4" is the
 * one form the branch predictor treats as "read the PC" rather than as a
 * call, so it leaves the link stack alone (bcl+8 corrupted it on POWER8).
 * With 4K pages the data lies within a 16-bit offset and one add does.
 */
.macro get_datapage reg, offset
	bcl	20, 31, .+4
	mflr	\reg		/* its own address, 4 and 8 bytes before the adds */
#if PAGE_SIZE > 4096
	addis	\reg, \reg, (VDSO_DATA_SYMBOL + \offset + 4 - .)@ha
	addi	\reg, \reg, (VDSO_DATA_SYMBOL + \offset + 8 - .)@l
#else
	addi	\reg, \reg, VDSO_DATA_SYMBOL + \offset + 4 - .
#endif
.endm

#endif /* VDSO_ASM_H */
