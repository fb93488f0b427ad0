/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Entering a static PIE that is already mapped in this process, as the
 * kernel enters a program once exec has mapped it: a stack of its own
 * with argv, envp and an auxiliary vector, then its entry point.  This is
 * how the chroot handler (bundle.h) starts the static QEMU the kernel
 * mapped with it: an exec could not give QEMU AT_EXECFD, the guest loader
 * it is to load in PROGRAM's place (launch_protocol.h).  x86-64 only.
 */
#ifndef PPCTIME_USERLAND_EXEC_H
#define PPCTIME_USERLAND_EXEC_H

/*
 * Enter the static PIE whose address 0 is at image (its ELF header and
 * program headers mapped there), with argv and envp (their strings stay
 * where they are), AT_EXECFD execfd and AT_EXECFN execfn, and this
 * process's other auxiliary values.  What exec would also do is done:
 * close-on-exec descriptors closed, caught signals back to their default,
 * the process dumpable again.  Returns only if the new stack cannot be
 * had, with errno set; nothing has changed then.
 */
int userland_exec(const unsigned char *image, char *const argv[], char *const envp[],
		  int execfd, const char *execfn);

#endif /* PPCTIME_USERLAND_EXEC_H */
