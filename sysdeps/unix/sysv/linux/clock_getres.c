/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clock_getres -- Get the resolution of a POSIX clockid_t.  Linux version.
   Copyright (C) 2003-2022 Free Software Foundation, Inc.
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

/* The same order as clock_gettime.c: the 64-bit time_t vDSO entry, else
   the 32-bit one, else the system calls.  Were the clock_getres_time64
   system call asked before the 32-bit entry, every call would be a system
   call with a vDSO that has the 32-bit entry but no 64-bit one (powerpc32
   with Linux 5.11 to 6.19).  */

#include <sysdep.h>
#include <errno.h>
#include <time.h>

#include <sysdep-vdso.h>
#include <shlib-compat.h>
#include <kernel-features.h>

/* Get resolution of clock.  */
int
__clock_getres64 (clockid_t clock_id, struct __timespec64 *res)
{
  int r;

#ifndef __NR_clock_getres_time64
# define __NR_clock_getres_time64 __NR_clock_getres
#endif

#ifdef HAVE_CLOCK_GETRES64_VSYSCALL
  int (*vdso_getres64) (clockid_t clock_id, struct __timespec64 *res)
    = GLRO(dl_vdso_clock_getres_time64);
  if (vdso_getres64 != NULL)
    {
      r = INTERNAL_VSYSCALL_CALL (vdso_getres64, 2, clock_id, res);
      if (r == 0)
	return 0;
      return INLINE_SYSCALL_ERROR_RETURN_VALUE (-r);
    }
#endif

#ifdef HAVE_CLOCK_GETRES_VSYSCALL
  int (*vdso_getres) (clockid_t clock_id, struct timespec *res)
    = GLRO(dl_vdso_clock_getres);
  if (vdso_getres != NULL)
    {
      /* A resolution always fits a 32-bit time_t.  */
      struct timespec ts32;
      r = INTERNAL_VSYSCALL_CALL (vdso_getres, 2, clock_id,
				  res != NULL ? &ts32 : NULL);
      if (r == 0)
	{
	  if (res != NULL)
	    *res = valid_timespec_to_timespec64 (ts32);
	  return 0;
	}
      return INLINE_SYSCALL_ERROR_RETURN_VALUE (-r);
    }
#endif

  r = INTERNAL_SYSCALL_CALL (clock_getres_time64, clock_id, res);
  if (r == 0)
    return 0;
  if (r != -ENOSYS)
    return INLINE_SYSCALL_ERROR_RETURN_VALUE (-r);

#ifndef __ASSUME_TIME64_SYSCALLS
  /* Fallback code that uses 32-bit support.  */
  struct timespec ts32;
  r = INTERNAL_SYSCALL_CALL (clock_getres, clock_id,
			     res != NULL ? &ts32 : NULL);
  if (r == 0)
    {
      if (res != NULL)
	*res = valid_timespec_to_timespec64 (ts32);
      return 0;
    }
#endif

  return INLINE_SYSCALL_ERROR_RETURN_VALUE (-r);
}
#if __TIMESIZE != 64
libc_hidden_def (__clock_getres64)

int
__clock_getres (clockid_t clock_id, struct timespec *res)
{
  struct __timespec64 ts64;
  int retval;

  retval = __clock_getres64 (clock_id, &ts64);
  if (retval == 0 && res != NULL)
    *res = valid_timespec64_to_timespec (ts64);

  return retval;
}
#endif
libc_hidden_def (__clock_getres)

versioned_symbol (libc, __clock_getres, clock_getres, GLIBC_2_17);
/* clock_getres moved to libc in version 2.17;
   old binaries may expect the symbol version it had in librt.  */
#if SHLIB_COMPAT (libc, GLIBC_2_2, GLIBC_2_17)
strong_alias (__clock_getres, __clock_getres_2);
compat_symbol (libc, __clock_getres_2, clock_getres, GLIBC_2_2);
#endif
