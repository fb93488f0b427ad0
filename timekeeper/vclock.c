// SPDX-License-Identifier: GPL-2.0
/*
 * Linear functions of the counter (vclock.h): moving them along the
 * counter, reading them as the guest's vDSO does, choosing mult and shift.
 */
#include "vclock.h"

/*
 * The same functions, held at another cycle_last: exact, whichever way it
 * moves.  Coarse bases do not depend on the counter and stay.
 */
void vclock_rebase(struct vclock *vc, int i, uint64_t cycle_last)
{
	__int128 moved = (__int128)(int64_t)(cycle_last - vc->cycle_last) *
			 vc->mult;
	unsigned moving = i == CS_RAW ? VDSO_RAW : VDSO_HRES;

	for (int clk = 0; clk < VDSO_BASES; clk++)
		if (moving & (1u << clk))
			base_set(vc, clk, base_get(vc, clk) + moved);
	vc->cycle_last = cycle_last;
}

/*
 * cycle_last some way in the past, but with data[0] no further back than
 * the realtime base's second goes: __kernel_time() returns that second as
 * it stands, and must not return the one before.  data[1] has no such
 * reader.
 */
void vclock_keep_in_past(struct vclock vc[CS_BASES], uint64_t margin,
			 uint64_t margin_min)
{
	uint64_t room = vc[0].base[VDSO_CLOCK_REALTIME].nsec / vc[0].mult;

	if (room < margin_min)
		room = margin_min;
	vclock_rebase(&vc[0], 0, vc[0].cycle_last - (margin < room ? margin : room));
	vclock_rebase(&vc[1], 1, vc[1].cycle_last - margin);
}

uint64_t vclock_read(const struct vclock *vc, int clk, uint64_t tb)
{
	uint64_t ns = vc->base[clk].nsec;

	if (clk != VDSO_CLOCK_REALTIME_COARSE && clk != VDSO_CLOCK_MONOTONIC_COARSE)
		ns = (ns + (tb - vc->cycle_last) * vc->mult) >> vc->shift;
	return vc->base[clk].sec * NSEC_PER_SEC + ns;
}

/* REALTIME, TAI and REALTIME_COARSE; MONOTONIC, BOOTTIME and RAW stay true. */
void vclock_offset_realtime(struct vclock *vc, const struct timespec *off)
{
	__int128 shifted = to_shifted((__int128)off->tv_sec * NSEC_PER_SEC +
				      off->tv_nsec, vc->shift);

	base_set(vc, VDSO_CLOCK_REALTIME, base_get(vc, VDSO_CLOCK_REALTIME) + shifted);
	base_set(vc, VDSO_CLOCK_TAI, base_get(vc, VDSO_CLOCK_TAI) + shifted);
	plain_set(vc, VDSO_CLOCK_REALTIME_COARSE,
		  vc->base[VDSO_CLOCK_REALTIME_COARSE].sec * NSEC_PER_SEC +
		  vc->base[VDSO_CLOCK_REALTIME_COARSE].nsec +
		  off->tv_sec * (int64_t)NSEC_PER_SEC + off->tv_nsec);
}

/*
 * The kernel's clocks_calc_mult_shift(): the largest shift whose mult
 * still lets maxsec seconds of ticks be multiplied in 64 bits.
 */
void calc_mult_shift(uint32_t *mult, uint32_t *shift, uint64_t from,
		     uint64_t to, uint32_t maxsec)
{
	uint64_t tmp = ((uint64_t)maxsec * from) >> 32;
	uint32_t sft, sftacc = 32;

	while (tmp) {
		tmp >>= 1;
		sftacc--;
	}
	for (sft = 32; sft > 0; sft--) {
		tmp = (to << sft) + from / 2;
		tmp /= from;
		if ((tmp >> sftacc) == 0)
			break;
	}
	*mult = tmp;
	*shift = sft;
}
