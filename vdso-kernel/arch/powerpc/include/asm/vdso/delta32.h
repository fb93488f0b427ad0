/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ppc32 delta math in 32-bit pieces.  Left to itself the compiler
 * does (cycles - last) * mult and the shift in full 64-bit arithmetic,
 * which on ppc32 costs libgcc calls and twice the multiplies (see
 * 1571662378.git.christophe.leroy: 1533 ns/call against the asm's 750).
 * Plain C with no assembly, so the host unit tests run it as it is.
 */
#ifndef ASM_VDSO_DELTA32_H
#define ASM_VDSO_DELTA32_H

#include <stdint.h>
#include <vdso/compiler.h>
#include <vdso/datapage.h>

/*
 * The delta's high word is zero unless the timekeeper stalled for
 * seconds, so its product is the rare case; exact modulo 2^64 like the
 * full multiply either way.
 */
static inline uint64_t vdso_calc_delta32(uint64_t cycles,
					 uint64_t last, uint32_t mult)
{
	uint64_t delta = cycles - last;
	uint64_t ns = (uint64_t)(uint32_t)delta * mult;
	uint32_t dh = delta >> 32;

	if (unlikely(dh))
		ns += (uint64_t)(dh * mult) << 32;
	return ns;
}

/*
 * x << n for n from 1 to 32: C's << does not allow 32.  An architecture
 * whose shift instruction takes 32 in its stride defines its own.
 */
#ifndef vdso_shl32
static inline uint32_t vdso_shl32(uint32_t x, uint32_t n)
{
	return (x << 1) << (n - 1);
}
#endif

/* shift is below 32. */
static inline uint64_t vdso_shift_ns32(uint64_t ns, uint32_t shift)
{
	uint32_t hi = ns >> 32;
	uint32_t lo = ns;

	lo = (lo >> shift) | vdso_shl32(hi, 32 - shift);
	hi >>= shift;
	return ((uint64_t)hi << 32) | lo;
}

/* The core's vdso_calc_ns() in these pieces. */
static inline uint64_t vdso_calc_ns32(const struct vdso_clock *vc,
				      uint64_t cycles,
				      const struct vdso_timestamp *base)
{
	return vdso_shift_ns32(vdso_calc_delta32(cycles, vc->cycle_last,
						 vc->mult) + base->nsec,
			       vc->shift);
}

#endif /* ASM_VDSO_DELTA32_H */
