/* SPDX-License-Identifier: GPL-2.0 */
/* The few compiler words the vDSO code uses, for freestanding and host builds. */
#ifndef VDSO_COMPILER_H
#define VDSO_COMPILER_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The entries (vgettimeofday.c) are flattened: every call below them is
 * inlined, so the fast path has no call in it, whatever the compiler's
 * inlining limits.
 */
#define __flatten	__attribute__((__flatten__))
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

/*
 * The kernel's READ_ONCE (asm-generic/rwonce.h): a volatile access, so
 * one load, here, in program order with the others.  Spelled
 * __volatile__, as this code spells its GNU keywords.  An asm-hidden
 * load or a relaxed atomic one costs the fast path 2 to 6 instructions:
 * the compiler then schedules the seqcount's loads more freely.
 */
#define READ_ONCE(x)	(*(const __volatile__ __typeof__(x) *)&(x))

/*
 * The 64-bit v is computed here, before any memory access that follows,
 * and is opaque to the compiler from here on.  An asm operand is a word:
 * on a 32-bit machine v goes as its two halves, as a register pair would
 * cost moves.
 */
#if __SIZEOF_LONG__ == 8
#define vdso_settle(v)	({ __asm__ __volatile__("" : "+r" (v) : : "memory"); })
#else
#define vdso_settle(v)	do {						\
		uint32_t lo_ = (v), hi_ = (v) >> 32;			\
									\
		__asm__ __volatile__("" : "+r" (lo_), "+r" (hi_) : : "memory"); \
		(v) = (uint64_t)hi_ << 32 | lo_;			\
	} while (0)
#endif

#endif /* VDSO_COMPILER_H */
