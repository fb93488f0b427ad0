/* SPDX-License-Identifier: GPL-2.0 */
/* Assembler words shared by the powerpc vDSO's .S files. */
#ifndef VDSO_ASM_H
#define VDSO_ASM_H

#include <vdso/datapage.h>

#ifdef __powerpc64__
#define VDSO_DATA_OFFSET	VDSO_DATA_OFFSET64
#define VDSO_TBFREQ_OFFSET	VDSO_TBFREQ_OFFSET64
#else
#define VDSO_DATA_OFFSET	VDSO_DATA_OFFSET32
#define VDSO_TBFREQ_OFFSET	VDSO_TBFREQ_OFFSET32
#endif

/* ELFv1 C functions are reached through their code ("dot") symbol. */
#if defined(__powerpc64__) && _CALL_ELF != 2
#define DOTSYM(sym)	.sym
#else
#define DOTSYM(sym)	sym
#endif

#define r0 0
#define r3 3
#define r4 4
#define r5 5
#define r11 11
#define r12 12

/* An exported entry: a plain code symbol, also on ELFv1 (no descriptor). */
#define VDSO_FUNCTION(name)	\
	.globl name;		\
	.type name,@function;	\
	.balign 16;		\
name:

#define VDSO_FUNCTION_END(name)	\
	.size name,.-name

/*
 * reg = the data page + offset, found from the PC: "bcl 20,31,.+4" is the
 * one form the branch predictor treats as "read the PC" rather than as a
 * call, so it leaves the link stack alone (bcl+8 corrupted it on POWER8).
 * With 4K pages the data lies within a 16-bit offset and one add does.
 */
.macro get_datapage reg, offset
	bcl	20, 31, .+4
0:	mflr	\reg
#if PAGE_SIZE > 4096
	addis	\reg, \reg, (_vdso_datapage + \offset - 0b)@ha
	addi	\reg, \reg, (_vdso_datapage + \offset - 0b)@l
#else
	addi	\reg, \reg, _vdso_datapage + \offset - 0b
#endif
.endm

#endif /* VDSO_ASM_H */
