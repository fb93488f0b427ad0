/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arch-ppc32: ppctime-loader.c's own part on 32-bit powerpc (see
 * there for what it provides).
 */
#ifndef LOADER_ARCH_PPC32_H
#define LOADER_ARCH_PPC32_H

#include <stdbool.h>
#include <asm/unistd.h>

#include "arch-powerpc.h"

#define ElfW(type)	Elf32_##type
#define ELF_CLASS	ELFCLASS32
#define ELF_MACHINE	EM_PPC

__asm__(".text\n"
	".globl _start\n"
	".type _start,@function\n"
	"_start:\n\t"
	"mr 3,1\n\t"
	"clrrwi 1,1,4\n\t"
	"li 0,0\n\t"
	"stwu 0,-16(1)\n\t"
	"bl loader_main\n"
	".size _start,.-_start");

static long sys_pread(int fd, void *buf, unsigned long len, unsigned long offset)
{
	/* The 64-bit offset goes in an aligned register pair, high word first. */
	return syscall6(__NR_pread64, fd, (long)buf, len, 0, 0, offset);
}

static long sys_mmap(unsigned long addr, unsigned long len, int prot, int flags,
		     int fd, unsigned long offset)
{
	/* mmap2 counts the offset in 4096-byte units, whatever the page size. */
	return syscall6(__NR_mmap2, addr, len, prot, flags, fd, offset / 4096);
}

/* Every register but r1 zero. */
static void __attribute__((noreturn))
enter(unsigned long *sp, unsigned long entry, unsigned long bias, bool elfv2)
{
	register unsigned long new_sp asm("r14") = (unsigned long)sp;
	register unsigned long code asm("r15") = entry;

	(void)bias;
	(void)elfv2;
	asm volatile("mr 1,14\n\tmtctr 15\n\t"
		     ".irp r,0,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,"
		     "21,22,23,24,25,26,27,28,29,30,31\n\tli \\r,0\n\t.endr\n\t"
		     "mtlr 0\n\tbctr"
		     : : "r"(new_sp), "r"(code) : "memory");
	__builtin_unreachable();
}

#endif /* LOADER_ARCH_PPC32_H */
