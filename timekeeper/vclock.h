/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Linear functions of the counter, as one vdso_data holds them: the math,
 * with no page and no host behind it.
 *
 * Time here is mostly "shifted nanoseconds" (ns << shift), the unit the
 * page's high resolution bases are in, held in 128 bits so that whole
 * dates fit and nothing is rounded: moving a linear function's cycle_last
 * by d ticks and its base by d * mult leaves it exactly the same function.
 */
#ifndef PPCTIME_VCLOCK_H
#define PPCTIME_VCLOCK_H

#include <stdint.h>
#include <time.h>

#include <vdso/datapage.h>

#define NSEC_PER_SEC		1000000000ull

/*
 * One vdso_data's worth of a linear function, in host byte order: what is
 * published, or what was read from the host's page.
 */
struct vclock {
	int32_t clock_mode;
	uint64_t cycle_last;
	uint32_t mult, shift;
	struct { uint64_t sec, nsec; } base[VDSO_BASES];
};

/* Signed ns (an offset) in shifted ns. */
static inline __int128 to_shifted(__int128 ns, uint32_t shift)
{
	return ns * ((__int128)1 << shift);
}

/* One second in shifted ns. */
static inline unsigned __int128 sec_unit(uint32_t shift)
{
	return (unsigned __int128)NSEC_PER_SEC << shift;
}

/* A high resolution base, in shifted ns. */
static inline unsigned __int128 base_get(const struct vclock *vc, int clk)
{
	return vc->base[clk].sec * sec_unit(vc->shift) + vc->base[clk].nsec;
}

static inline void base_set(struct vclock *vc, int clk, unsigned __int128 v)
{
	vc->base[clk].sec = v / sec_unit(vc->shift);
	vc->base[clk].nsec = v % sec_unit(vc->shift);
}

/* A coarse base: plain ns. */
static inline void plain_set(struct vclock *vc, int clk, uint64_t ns)
{
	vc->base[clk].sec = ns / NSEC_PER_SEC;
	vc->base[clk].nsec = ns % NSEC_PER_SEC;
}

/* vc, data[i] of the page, held at another cycle_last. */
void vclock_rebase(struct vclock *vc, int i, uint64_t cycle_last);

/* vc[] with cycle_last margin ticks back, at least margin_min for data[0]. */
void vclock_keep_in_past(struct vclock vc[CS_BASES], uint64_t margin,
			 uint64_t margin_min);

/* What the ppc vDSO computes from vc for clock clk at timebase tb, in ns. */
uint64_t vclock_read(const struct vclock *vc, int clk, uint64_t tb);

/* Add off (--realtime) to the clocks of data[0] it moves. */
void vclock_offset_realtime(struct vclock *vc, const struct timespec *off);

/* The mult and shift that turn from units into to units, as the kernel's. */
void calc_mult_shift(uint32_t *mult, uint32_t *shift, uint64_t from,
		     uint64_t to, uint32_t maxsec);

#endif /* PPCTIME_VCLOCK_H */
