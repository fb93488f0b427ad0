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

	.section .note.GNU-stack, "", @progbits
