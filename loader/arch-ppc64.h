/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arch-ppc64: ppctime-loader.c's own part on 64-bit powerpc, both
 * ABIs (see there for what it provides).  The loader's own ABI, _CALL_ELF,
 * decides only its _start; the program's, from its ELF header, how it is
 * entered.
 */
#ifndef LOADER_ARCH_PPC64_H
#define LOADER_ARCH_PPC64_H

#include <stdbool.h>
#include <asm/unistd.h>

#include "arch-powerpc.h"

#define ElfW(type)	Elf64_##type
#define ELF_CLASS	ELFCLASS64
#define ELF_MACHINE	EM_PPC64

/* At _start r2 holds the TOC from the entry's descriptor (ELFv1), or r12
 * the entry itself to compute it from (ELFv2). */
#if _CALL_ELF == 2
__asm__(".text\n"
	".globl _start\n"
	".type _start,@function\n"
	"_start:\n\t"
	"addis 2,12,.TOC.-_start@ha\n\t"
	"addi 2,2,.TOC.-_start@l\n\t"
	"mr 3,1\n\t"
	"clrrdi 1,1,4\n\t"
	"li 0,0\n\t"
	"stdu 0,-32(1)\n\t"
	"bl loader_main\n\t"
	"nop\n"
	".size _start,.-_start");
#else
/* ELFv1: _start is a function descriptor, the code .L_start_code. */
__asm__(".section .opd,\"aw\"\n"
	".align 3\n"
	".globl _start\n"
	"_start:\n\t"
	".quad .L_start_code,.TOC.@tocbase,0\n"
	".text\n"
	".L_start_code:\n\t"
	"mr 3,1\n\t"
	"clrrdi 1,1,4\n\t"
	"li 0,0\n\t"
	"stdu 0,-112(1)\n\t"
	"bl loader_main\n\t"
	"nop");
#endif

static long sys_pread(int fd, void *buf, unsigned long len, unsigned long offset)
{
	return syscall6(__NR_pread64, fd, (long)buf, len, offset, 0, 0);
}

static long sys_mmap(unsigned long addr, unsigned long len, int prot, int flags,
		     int fd, unsigned long offset)
{
	return syscall6(__NR_mmap, addr, len, prot, flags, fd, offset);
}

/* Every register but r1 zero, except r12 = entry for ELFv2 and r2 = the
 * TOC from the entry's descriptor for ELFv1. */
static void __attribute__((noreturn))
enter(unsigned long *sp, unsigned long entry, unsigned long bias, bool elfv2)
{
	register unsigned long new_sp asm("r14") = (unsigned long)sp;
	register unsigned long code asm("r15") = entry;
	register unsigned long toc asm("r16") = 0;
	register unsigned long r12 asm("r17") = entry;

	/* ELFv1: ENTRY is a function descriptor; like the kernel, add the
	 * bias since nothing has relocated the descriptor yet. */
	if (!elfv2) {
		code = ((unsigned long *)entry)[0] + bias;
		toc = ((unsigned long *)entry)[1] + bias;
		r12 = 0;
	}
	asm volatile("mr 1,14\n\tmr 2,16\n\tmr 12,17\n\tmtctr 15\n\t"
		     ".irp r,0,3,4,5,6,7,8,9,10,11,13,14,15,16,17,18,19,20,"
		     "21,22,23,24,25,26,27,28,29,30,31\n\tli \\r,0\n\t.endr\n\t"
		     "mtlr 0\n\tbctr"
		     : : "r"(new_sp), "r"(code), "r"(toc), "r"(r12) : "memory");
	__builtin_unreachable();
}

#endif /* LOADER_ARCH_PPC64_H */
