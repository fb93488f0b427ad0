/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Calling the powerpc vDSO's entries from C as a C library does: found
 * through the dynamic linker, called with the system call convention's
 * result (r3, r4 and CR0[SO]) handed back.
 */
#ifndef VDSO_CALL_H
#define VDSO_CALL_H

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/auxv.h>

#ifdef __powerpc64__
#define VDSO_SONAME "linux-vdso64.so.1"
#else
#define VDSO_SONAME "linux-vdso32.so.1"
#endif

struct vdso_ret {
	long r3;
	long r4;
	bool so;
};

/* The entries need no TOC, so ELFv1 needs no descriptor either. */
static inline struct vdso_ret vdso_call(void *fn, long arg1, long arg2)
{
	register long r3 __asm__("r3") = arg1;
	register long r4 __asm__("r4") = arg2;
	register void *r12 __asm__("r12") = fn;
	unsigned long cr;

	__asm__ __volatile__("mtctr %3\n\tbctrl\n\tmfcr %2"
			     : "+r" (r3), "+r" (r4), "=r" (cr)
			     : "r" (r12)
			     : "r0", "r5", "r6", "r7", "r8", "r9", "r10", "r11",
			       "ctr", "lr", "xer", "cr0", "cr1", "cr5", "cr6",
			       "cr7", "memory");
	return (struct vdso_ret){ r3, r4, (cr >> 28) & 1 };
}

/* The dynamic linker's handle on the vDSO; exits if there is none. */
static inline void *vdso_open(void)
{
	void *vdso;

	if (!getauxval(AT_SYSINFO_EHDR)) {
		puts("Bail out! no vDSO: AT_SYSINFO_EHDR is 0 (run under ppctime-run)");
		exit(1);
	}
	vdso = dlopen(VDSO_SONAME, RTLD_NOW | RTLD_NOLOAD);
	if (!vdso) {
		printf("Bail out! the dynamic linker does not know %s\n", VDSO_SONAME);
		exit(1);
	}
	return vdso;
}

/* An entry at the 6.1 version; NULL if the image lacks it. */
static inline void *vdso_entry(void *vdso, const char *name)
{
	return dlvsym(vdso, name, "LINUX_2.6.15");
}

#endif /* VDSO_CALL_H */
