/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host's TSC, which is the guest's timebase (mftb), read with the
 * fences each use needs.
 */
#ifndef PPCTIME_TSC_H
#define PPCTIME_TSC_H

#include <stdint.h>
#include <x86intrin.h>

#ifndef __x86_64__
#error "the timekeeper reads the guest's timebase as the x86-64 TSC"
#endif

/* The counter, read after everything before it has executed. */
static inline uint64_t tsc_ordered(void)
{
	_mm_lfence();
	return __rdtsc();
}

/* The end of a bracket: after the bracketed work, before what follows. */
static inline uint64_t tsc_bracket_end(void)
{
	unsigned int aux;
	uint64_t t = __rdtscp(&aux);

	_mm_lfence();
	return t;
}

/* The counter, read once the stores before it are visible to everyone. */
static inline uint64_t tsc_after_stores(void)
{
	_mm_mfence();
	return tsc_ordered();
}

#endif /* PPCTIME_TSC_H */
