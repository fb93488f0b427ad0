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

/* ppctime: glibc has no such file; it comes before the generic
   linux/powerpc/sysdep.h in the 32-bit sysdeps order and adds the 64-bit
   time_t vDSO entries.  Stock 2.36 binds only __kernel_clock_gettime and
   __kernel_clock_getres on powerpc32, so a 64-bit time_t program falls to
   the clock_gettime64 syscall once tv_sec passes 2038, and clock_getres
   asks the clock_getres_time64 syscall before any vDSO entry.  Linux exports
   __kernel_clock_gettime64 since 5.11, later kernels also
   __kernel_clock_getres_time64.  As on i386 and arm, the 64-bit entries
   are used when the vDSO has them and the 32-bit ones only when it does
   not (clock_gettime.c, clock_getres.c).  */

#ifndef _LINUX_POWERPC32_SYSDEP_H
#define _LINUX_POWERPC32_SYSDEP_H 1

#include <sysdeps/unix/sysv/linux/powerpc/sysdep.h>

#define HAVE_CLOCK_GETTIME64_VSYSCALL	"__kernel_clock_gettime64"
#define HAVE_CLOCK_GETRES64_VSYSCALL	"__kernel_clock_getres_time64"

#endif /* linux/powerpc/powerpc32/sysdep.h */
