/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arch-powerpc: the system call of ppctime-loader.c, the same on
 * 32- and 64-bit powerpc; arch-ppc32.h and arch-ppc64.h
 * build on it.
 */
#ifndef LOADER_ARCH_POWERPC_H
#define LOADER_ARCH_POWERPC_H

/*
 * A system call as the powerpc kernel takes it: the number in r0, the
 * arguments in r3-r8, the result in r3, which is a positive errno when sc
 * sets CR0[SO].  Returns the result, or -errno: see failed().
 */
static long syscall6(long nr, long a1, long a2, long a3, long a4, long a5, long a6)
{
	register long r0 __asm__("r0") = nr;
	register long r3 __asm__("r3") = a1;
	register long r4 __asm__("r4") = a2;
	register long r5 __asm__("r5") = a3;
	register long r6 __asm__("r6") = a4;
	register long r7 __asm__("r7") = a5;
	register long r8 __asm__("r8") = a6;

	__asm__ volatile("sc\n\t"
			 "bns+ 1f\n\t"
			 "neg %1,%1\n"
			 "1:"
			 : "+r"(r0), "+r"(r3), "+r"(r4), "+r"(r5), "+r"(r6), "+r"(r7), "+r"(r8)
			 :
			 : "r9", "r10", "r11", "r12", "cr0", "ctr", "memory");
	return r3;
}

#endif /* LOADER_ARCH_POWERPC_H */
