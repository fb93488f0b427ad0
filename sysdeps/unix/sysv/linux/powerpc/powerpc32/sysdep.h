/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Syscall definitions, Linux PowerPC 32-bit version.
   Copyright (C) 2026 Free Software Foundation, Inc.
   This file is part of the GNU C Library.

   The GNU C Library is free software; you can redistribute it and/or
   modify it under the terms of the GNU Lesser General Public
   License as published by the Free Software Foundation; either
   version 2.1 of the License, or (at your option) any later version.

   The GNU C Library is distributed in the hope that it will be useful,
   but WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
   Lesser General Public License for more details.

   You should have received a copy of the GNU Lesser General Public
   License along with the GNU C Library; if not, see
   <https://www.gnu.org/licenses/>.  */

/* This comes before the generic linux/powerpc/sysdep.h in the 32-bit
   sysdeps order and adds the 64-bit time_t vDSO entries: Linux exports
   __kernel_clock_gettime64 since 5.11 and __kernel_clock_getres_time64
   since 7.0, and from 7.3 a kernel without COMPAT_32BIT_TIME exports only
   these.  As on i386 and arm, the 64-bit entries are used when the vDSO
   has them and the 32-bit ones only when it does not (clock_gettime.c,
   clock_getres.c).  */

#ifndef _LINUX_POWERPC32_SYSDEP_H
#define _LINUX_POWERPC32_SYSDEP_H 1

#include <sysdeps/unix/sysv/linux/powerpc/sysdep.h>

#define HAVE_CLOCK_GETTIME64_VSYSCALL	"__kernel_clock_gettime64"
#define HAVE_CLOCK_GETRES64_VSYSCALL	"__kernel_clock_getres_time64"

#endif /* linux/powerpc/powerpc32/sysdep.h */
