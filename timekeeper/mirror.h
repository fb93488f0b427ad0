/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Mirror mode (timekeeper.h): the guest's page holds the host kernel's
 * own functions of the TSC, read from its [vvar] (host_vvar.h).
 */
#ifndef PPCTIME_MIRROR_H
#define PPCTIME_MIRROR_H

#include <stdbool.h>
#include <stddef.h>

#include "timekeeper.h"

/*
 * Find the host's [vvar] and the layout whose clocks agree with the
 * system calls (tk->host_vvar, tk->host_layout), once calibrated; false
 * with why it could not be used in why.
 */
bool mirror_setup(struct timekeeper *tk, char *why, size_t whylen);

/* Publish the host's data if it changed since the last update. */
void mirror_update(struct timekeeper *tk);

#endif /* PPCTIME_MIRROR_H */
