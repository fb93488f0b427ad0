/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The entries the vDSO exports, the global part of its version node:
 * written once for vdso.lds.S and for the vdso-check fixtures'
 * tests/bad-vdso/vdso.lds.S, which include it inside their VERSION blocks.
 * ppc32 adds the 64-bit time_t entries.
 */
		__kernel_clock_gettime;
		__kernel_clock_getres;
		__kernel_gettimeofday;
		__kernel_time;
		__kernel_get_tbfreq;
		__kernel_getcpu;
#ifndef __powerpc64__
		__kernel_clock_gettime64;
		__kernel_clock_getres_time64;
#endif
