/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Check __ppc_get_timebase_freq() for architecture changes
   Copyright (C) 2012-2022 Free Software Foundation, Inc.
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

/* A frequency of 0 fails when the vDSO or the "timebase" line of
   /proc/cpuinfo gave it.  With neither (QEMU user mode on another host,
   with no vDSO or with QEMU's own, which has no __kernel_get_tbfreq: only
   a POWER kernel writes that line) nothing can know the frequency, and
   the test is UNSUPPORTED.  */

/* Test if __ppc_get_timebase_freq() works and is different from zero.  A read
   failure might indicate a Linux Kernel change.
   This test also use the frequency to compute the real elapsed time.  */

#include <elf.h>
#include <inttypes.h>
#include <link.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>
#include <support/test-driver.h>

#include <sys/platform/ppc.h>

/* Maximum value of the Time Base Register: 2^60 - 1.  */
#define MAX_TB 0xFFFFFFFFFFFFFFF

/* Whether /proc/cpuinfo names the time base frequency, as a POWER
   kernel's does.  */
static int
cpuinfo_has_timebase (void)
{
  char line[256];
  int found = 0;
  FILE *f = fopen ("/proc/cpuinfo", "r");
  if (f == NULL)
    return 0;
  while (!found && fgets (line, sizeof line, f) != NULL)
    found = strncmp (line, "timebase", strlen ("timebase")) == 0;
  fclose (f);
  return found;
}

/* Whether the vDSO, if there is one, has __kernel_get_tbfreq, which
   glibc asks before /proc/cpuinfo.  The whole image is mapped, its
   section headers too.  */
static int
vdso_has_get_tbfreq (void)
{
  const char *image = (const char *) getauxval (AT_SYSINFO_EHDR);
  if (image == NULL)
    return 0;
  const ElfW(Ehdr) *ehdr = (const ElfW(Ehdr) *) image;
  const ElfW(Shdr) *shdr = (const ElfW(Shdr) *) (image + ehdr->e_shoff);
  for (int i = 0; i < ehdr->e_shnum; i++)
    if (shdr[i].sh_type == SHT_DYNSYM && shdr[i].sh_entsize != 0)
      {
	const ElfW(Sym) *sym = (const ElfW(Sym) *) (image + shdr[i].sh_offset);
	const char *names = image + shdr[shdr[i].sh_link].sh_offset;
	for (size_t n = 0; n < shdr[i].sh_size / shdr[i].sh_entsize; n++)
	  if (sym[n].st_shndx != SHN_UNDEF
	      && strcmp (names + sym[n].st_name, "__kernel_get_tbfreq") == 0)
	    return 1;
      }
  return 0;
}

static int
do_test (void)
{
  uint64_t t1, t2, f, diff;

  t1 = __ppc_get_timebase ();
  printf ("t1 = %"PRIu64"\n", t1);

  f = __ppc_get_timebase_freq ();
  printf ("Time Base frequency = %"PRIu64" Hz\n", f);

  if (f == 0 && !vdso_has_get_tbfreq () && !cpuinfo_has_timebase ())
    {
      printf ("No __kernel_get_tbfreq in a vDSO and no timebase line in"
	      " /proc/cpuinfo: the time base frequency is unknowable here.\n");
      return EXIT_UNSUPPORTED;
    }

  if (f == 0) {
      printf ("Fail: The time base frequency can't be zero.\n");
      return 1;
  }

  t2 = __ppc_get_timebase ();
  printf ("t2 = %"PRIu64"\n", t2);

  if (t2 > t1) {
    diff = t2 - t1;
  } else {
    diff = (MAX_TB - t2) + t1;
  }

  printf ("Elapsed time  = %1.2f usecs\n", (double) diff * 1000000 / f );

  return 0;
}

#define TEST_FUNCTION do_test ()
#include "../test-skeleton.c"
