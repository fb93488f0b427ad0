/* SPDX-License-Identifier: GPL-2.0 */
/* u64 __kernel_get_tbfreq(void): the timebase frequency from the data page. */
#include "vdso_asm.h"

	.text
vdso_function __kernel_get_tbfreq
	.cfi_startproc
	mflr	r11
	.cfi_register lr, r11
	get_datapage r3, VDSO_TBFREQ_OFFSET
	mtlr	r11
	.cfi_restore lr
#ifdef __powerpc64__
	ld	r3, 0(r3)
#else
	lwz	r4, 4(r3)	/* a u64 comes back in r3:r4 */
	lwz	r3, 0(r3)
#endif
	crclr	so
	blr
	.cfi_endproc
vdso_function_end __kernel_get_tbfreq

#ifdef VDSO_VARIANT_DATAPAGE_HELPER
/*
 * For the benchmarks only, never installed: the data page found the way
 * kernels before 5.5 did, by an out-of-line helper reading an offset word,
 * its bcl aimed at the next instruction (VDSO_VARIANT_DATAPAGE_HELPER=4)
 * or past the word (=8, the form that corrupted POWER8's link stack).
 * Returns the page in r12; clobbers r0 and LR.
 */
	.hidden	__vdso_datapage_helper
vdso_function __vdso_datapage_helper
	mflr	r0
#if VDSO_VARIANT_DATAPAGE_HELPER == 8
	bcl	20, 31, 1f
0:	.long	_vdso_datapage - 0b
1:	mflr	r12
#else
	bcl	20, 31, 1f
1:	mflr	r12
	addi	r12, r12, 0f - 1b
#endif
	mtlr	r0
#ifdef __powerpc64__
	lwa	r0, 0(r12)	/* the page lies below: a negative offset */
#else
	lwz	r0, 0(r12)
#endif
	add	r12, r12, r0
	blr
#if VDSO_VARIANT_DATAPAGE_HELPER != 8
0:	.long	_vdso_datapage - 0b
#endif
vdso_function_end __vdso_datapage_helper
#endif

	.section .note.GNU-stack, "", @progbits
