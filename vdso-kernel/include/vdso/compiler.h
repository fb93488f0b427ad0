/* SPDX-License-Identifier: GPL-2.0 */
/* The few compiler words the vDSO code uses, for freestanding and host builds. */
#ifndef VDSO_COMPILER_H
#define VDSO_COMPILER_H

#include <stdbool.h>
#include <stdint.h>

/*
 * <linux/stddef.h> may have defined it as a plain, optional inline.  The
 * attribute alone, so that the macro is one token's worth (kernel style):
 * functions say "static inline __always_inline".
 */
#undef __always_inline
#define __always_inline	__attribute__((__always_inline__))
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))

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
