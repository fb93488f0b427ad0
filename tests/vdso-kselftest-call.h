/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Forced (-include) into Linux 6.1's vDSO kselftests by
 * tests/vdso-kselftest.mk: their calls through pointers to vDSO entries,
 * made the way a powerpc vDSO is called.  6.1's tests call them as C
 * functions, which powerpc's are not: an error comes back as the positive
 * errno with CR0[SO] set (vdso_test_correctness's clocks that do not
 * exist then FAIL on any powerpc kernel, "returned 22"), and a symbol's
 * address is its code, which an ELFv1 (ppc64) call through a pointer
 * takes for a function descriptor (SIGSEGV).  Linux fixed its tests the
 * same way later ("selftests: vdso: Fix the way vDSO functions are called
 * for powerpc", 2024), not in 6.1.y.
 *
 * Each call-site name below becomes a function-like macro: only
 * "name(" expands, so the pointers' declarations and tests are left as
 * they are.
 */
#ifndef VDSO_KSELFTEST_CALL_H
#define VDSO_KSELFTEST_CALL_H

#ifdef __powerpc64__
#define KSFT_PPC_STU "stdu"
#else
#define KSFT_PPC_STU "stwu"
#endif

/*
 * The entry's code at its address, as glibc calls it: volatile registers
 * clobbered, r2 and the non-volatile ones kept, as the kernel's vDSO
 * keeps them.  The asm gives the callee a frame of its own, 512 bytes
 * below the caller's r1, past any red zone (288 bytes on ppc64) the
 * compiler may keep data in: it sees no call in an asm statement.
 */
static inline long ksft_ppc_vdso_call(void *fn, long a, long b, long c)
{
	register void *r0 __asm__("r0") = fn;
	register long r3 __asm__("r3") = a;
	register long r4 __asm__("r4") = b;
	register long r5 __asm__("r5") = c;

	__asm__ volatile(KSFT_PPC_STU " 1,-512(1)\n\t"
			 "mtctr %0\n\t"
			 "bctrl\n\t"
			 "addi 1,1,512\n\t"
			 "bns+ 1f\n\t"
			 "neg %1,%1\n"
			 "1:"
			 : "+r"(r0), "+r"(r3), "+r"(r4), "+r"(r5)
			 :
			 : "r6", "r7", "r8", "r9", "r10", "r11", "r12", "ctr", "lr", "xer",
			   "cr0", "cr1", "cr5", "cr6", "cr7", "memory");
	return r3;
}

/* Up to three arguments, the missing ones 0. */
#define KSFT_PPC_ARGS(a, b, c, ...) (long)(a), (long)(b), (long)(c)
#define KSFT_PPC_CALL(fn, ...) \
	ksft_ppc_vdso_call((void *)(fn), KSFT_PPC_ARGS(__VA_ARGS__, 0, 0, 0))

/* vdso_test_abi.c, vdso_test_correctness.c */
#define vdso_gettimeofday(...) KSFT_PPC_CALL(vdso_gettimeofday, __VA_ARGS__)
#define vdso_clock_gettime(...) KSFT_PPC_CALL(vdso_clock_gettime, __VA_ARGS__)
#define vdso_clock_gettime64(...) KSFT_PPC_CALL(vdso_clock_gettime64, __VA_ARGS__)
#define vdso_clock_getres(...) KSFT_PPC_CALL(vdso_clock_getres, __VA_ARGS__)
#define vdso_time(...) KSFT_PPC_CALL(vdso_time, __VA_ARGS__)
#define vdso_getcpu(...) KSFT_PPC_CALL(vdso_getcpu, __VA_ARGS__)
/* vdso_test_gettimeofday.c, vdso_test_getcpu.c */
#define gtod(...) KSFT_PPC_CALL(gtod, __VA_ARGS__)
#define get_cpu(...) KSFT_PPC_CALL(get_cpu, __VA_ARGS__)

#endif
