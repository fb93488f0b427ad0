/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The clock_gettime vDSO pointer.  Linux PowerPC version.
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

/* clock_gettime.S (powerpc32/ and powerpc64/) calls whatever
   __clock_gettime_vdso holds with no NULL check, and takes CR0[SO] set as
   "r3 is an errno", as for a system call: so the pointer always holds
   something callable with that convention, the vDSO entry or a fallback.
   In libc.so an IFUNC resolver fills it as libc is relocated (ld.so has
   bound the vDSO entries by then), so it is RELRO, like the GLRO pointers
   it copies.  Static programs bind the vDSO only after their IRELATIVE
   relocations are applied; there clock_gettime.S reads GLRO itself and
   tests for NULL.  */

#include <sysdep.h>
#include <errno.h>
#include <time.h>
#include <ldsodefs.h>
#include <sysdep-vdso.h>

#ifdef SHARED
/* The fallback, code in clock_gettime.S (a code address, no descriptor).  */
extern const char __clock_gettime_fallback[] attribute_hidden;

# ifdef HAVE_CLOCK_GETTIME64_VSYSCALL
#  define VDSO_CLOCK_GETTIME GLRO(dl_vdso_clock_gettime64)
# else
#  define VDSO_CLOCK_GETTIME GLRO(dl_vdso_clock_gettime)
# endif

static void *
clock_gettime_vdso_resolver (void)
{
  void *entry = VDSO_CLOCK_GETTIME;
  return entry != NULL ? entry : (void *) __clock_gettime_fallback;
}

/* Never called: only its address is taken, which the linker turns into an
   IRELATIVE relocation, applied after libc's symbol relocations.  */
extern void clock_gettime_vdso_ifunc (void)
  __attribute__ ((ifunc ("clock_gettime_vdso_resolver")));

void *const __clock_gettime_vdso attribute_hidden attribute_relro
  = (void *) clock_gettime_vdso_ifunc;
#endif

#if __TIMESIZE != 64
/* powerpc32 without __kernel_clock_gettime64 (Linux before 5.11, or no
   vDSO): the 32-bit entry, else the system calls, as in glibc's
   clock_gettime.c.  Returns 0 or a positive errno; the fallback in
   clock_gettime.S adds CR0[SO].  */
extern int __clock_gettime64_slow (clockid_t, struct __timespec64 *)
  attribute_hidden;

int
__clock_gettime64_slow (clockid_t clock_id, struct __timespec64 *tp)
{
  int r;

  int (*vdso_time) (clockid_t clock_id, struct timespec *tp)
    = GLRO(dl_vdso_clock_gettime);
  if (vdso_time != NULL)
    {
      struct timespec tp32;
      r = INTERNAL_VSYSCALL_CALL (vdso_time, 2, clock_id, &tp32);
      if (r == 0 && tp32.tv_sec >= 0)
	{
	  *tp = valid_timespec_to_timespec64 (tp32);
	  return 0;
	}
      else if (r != 0)
	return -r;
      /* Past 2038 the 32-bit entry wraps: ask the system call.  */
    }

  r = INTERNAL_SYSCALL_CALL (clock_gettime64, clock_id, tp);
  if (r != -ENOSYS)
    return -r;

# ifndef __ASSUME_TIME64_SYSCALLS
  struct timespec tp32;
  r = INTERNAL_SYSCALL_CALL (clock_gettime, clock_id, &tp32);
  if (r == 0)
    {
      *tp = valid_timespec_to_timespec64 (tp32);
      return 0;
    }
# endif
  return -r;
}
#endif
