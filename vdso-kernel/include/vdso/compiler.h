/* SPDX-License-Identifier: GPL-2.0 */
/* The few compiler words the vDSO code uses, for freestanding and host builds. */
#ifndef VDSO_COMPILER_H
#define VDSO_COMPILER_H

#include <stdbool.h>

/* <linux/stddef.h> may have defined it as a plain, optional inline. */
#undef __always_inline
#define __always_inline	inline __attribute__((__always_inline__))
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))

#endif /* VDSO_COMPILER_H */
