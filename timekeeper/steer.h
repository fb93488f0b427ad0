/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Steer mode (timekeeper.h): our own functions of the TSC, continuous at
 * every update, servoed onto the host's clocks through mult.
 */
#ifndef PPCTIME_STEER_H
#define PPCTIME_STEER_H

#include <stdint.h>

#include "calibrate.h"
#include "timekeeper.h"

/*
 * Start tk->mono and tk->raw from calibrate()'s last samples of
 * MONOTONIC and MONOTONIC_RAW, MONOTONIC at mono_rate_hz.
 */
void steer_setup(struct timekeeper *tk, const struct sample *raw,
		 const struct sample *mono, uint64_t mono_rate_hz);

/* Steer, and publish the functions from now on. */
void steer_update(struct timekeeper *tk);

#endif /* PPCTIME_STEER_H */
