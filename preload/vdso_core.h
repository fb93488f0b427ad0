/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The generic vDSO core (vdso-kernel/lib/gettimeofday.c) built for the
 * host: its architecture's hooks first (host-arch/asm/vdso/gettimeofday.h),
 * then the core itself, whose static functions become the including
 * file's own.  Included by guest_clock.c alone, once.
 */
#ifndef PPCTIME_PRELOAD_VDSO_CORE_H
#define PPCTIME_PRELOAD_VDSO_CORE_H

#include "host-arch/asm/vdso/gettimeofday.h"
#include "vdso-kernel/lib/gettimeofday.c"

#endif /* PPCTIME_PRELOAD_VDSO_CORE_H */
