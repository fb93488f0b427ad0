/* SPDX-License-Identifier: GPL-2.0 */
/*
 * int __kernel_getcpu(unsigned *cpu, unsigned *node): the system call.
 * Linux 6.1 reads SPRG3 on ppc64 (and has no getcpu on SMP ppc32), which
 * only a kernel that loads SPRG3 can answer; the system call is right
 * everywhere, QEMU user mode included, and sets CR0[SO] itself.
 */
#include <asm/unistd.h>
#include "vdso_asm.h"

	.text
vdso_function __kernel_getcpu
	.cfi_startproc
	li	r0, __NR_getcpu
	sc
	blr
	.cfi_endproc
vdso_function_end __kernel_getcpu

	.section .note.GNU-stack, "", @progbits
