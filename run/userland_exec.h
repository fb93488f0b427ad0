/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Starting a static PIE in this process, as the kernel does at exec: its
 * segments mapped, then a stack of its own with argv, envp and an
 * auxiliary vector, then its entry point.  This is how ppctime-run starts
 * a static QEMU (QEMU 10's qemu-user, Debian's qemu-user-static), mapped
 * from its file, and how the chroot handler (bundle.h) starts the one the
 * kernel mapped with it: an exec could not give QEMU AT_EXECFD, the guest
 * loader it is to load in PROGRAM's place (ppctime/launch_protocol.h).  x86-64
 * only.
 */
#ifndef PPCTIME_USERLAND_EXEC_H
#define PPCTIME_USERLAND_EXEC_H

#include <elf.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "elf/elf_file.h"

/*
 * Whether f, holding a whole file (named path), is a program
 * userland_exec() can enter: an x86-64 static PIE, or where fixed, a
 * static program linked at fixed addresses too (not a PIE), whose
 * PT_LOADs lie in the file and whose program headers its first segment
 * maps (a PIE's at its address 0).  0, or -1 with why in err.
 */
int userland_check(const struct elf_file *f, const char *path, bool fixed, char *err,
		   size_t errlen);

/* Program header i of f, once userland_check() has passed it. */
static inline Elf64_Phdr userland_phdr(const struct elf_file *f, size_t i)
{
	Elf64_Phdr ph;

	memcpy(&ph, f->buf + f->phoff + i * sizeof(ph), sizeof(ph));
	return ph;
}

/*
 * Map the static PIE open on fd (named path) as exec would, from a sealed
 * copy of the file (no later write to the file reaches it), at an address
 * of the system's choosing: its segments with their protections, their
 * bss zeroed; and below its address 0, below bytes (a multiple of the
 * page size) of zeros, read-write, for the caller.  With none below, a
 * static program that is not a PIE is mapped too, where it was linked to
 * be, if nothing of this process lies there.  Where its ELF header is
 * mapped (a PIE's address 0), or NULL with why in err.  A shared object
 * with no relocations (a vDSO) is mapped as well.
 */
const unsigned char *userland_map(int fd, const char *path, size_t below, char *err,
				  size_t errlen);

/*
 * Enter the static program whose first segment is mapped at image (its
 * ELF header and program headers: a PIE's address 0), with argv and envp (their strings stay
 * where they are), AT_EXECFD execfd, AT_EXECFN execfn, AT_SYSINFO_EHDR
 * vdso (NULL: this process's), and this process's other auxiliary values.  What exec would also do is done:
 * close-on-exec descriptors closed, caught signals back to their default,
 * the process dumpable again.  Returns only if the new stack cannot be
 * had, with errno set; nothing has changed then.
 */
int userland_exec(const unsigned char *image, char *const argv[], char *const envp[],
		  int execfd, const char *execfn, const void *vdso);

#endif /* PPCTIME_USERLAND_EXEC_H */
