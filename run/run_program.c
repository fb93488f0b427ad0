// SPDX-License-Identifier: GPL-2.0
/*
 * PROGRAM as ppctime-run first sees it (run.h): a file the kernel would
 * exec, and which of the targets (ppctime/target_table.h) it is for.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf/elf_program.h"
#include "run.h"

/*
 * Opens path, a file the user named, to read it: the descriptor, or -1
 * with open's errno.  Anything but a regular file is refused with status
 * before it is waited for (a FIFO), read (a device) or made our terminal.
 */
int open_regular(const char *path, int status)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0)
		refuse_with(status, "cannot stat %s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		refuse_with(status, "%s: not a regular file", path);
	/* Its readers, QEMU's loader among them, see an ordinary file. */
	if (fcntl(fd, F_SETFL, 0) < 0)
		refuse_with(status, "fcntl: %s", strerror(errno));
	return fd;
}

/* What the kernel's exec asks of a regular file, which QEMU does not ask
 * as a user. */
static void check_executable(int fd, const char *path)
{
	char self[64];

	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	if (faccessat(AT_FDCWD, self, X_OK, AT_EACCESS) < 0)
		refuse_program("%s: %s", path, strerror(errno));
}

/* PROGRAM at path, or open as fd (binfmt_misc's O flag: maybe unreadable). */
void read_program_header(const char *path, int fd, struct program_info *info)
{
	unsigned char eh[ELF_HEADER_MAX];
	struct elf_file elf;
	char bad[128];
	char *interp;

	/* The kernel's (AT_EXECFD) passed exec's checks already. */
	if (fd >= 0) {
		if (fcntl(fd, F_SETFD, FD_CLOEXEC) < 0)
			refuse("fcntl: %s", strerror(errno));
	} else {
		fd = open_regular(path, LAUNCH_EXIT_CANNOT_EXECUTE);
		/* As env: only a missing file is "not found". */
		if (fd < 0)
			refuse_with(errno == ENOENT ? LAUNCH_EXIT_NOT_FOUND :
				    LAUNCH_EXIT_CANNOT_EXECUTE, "cannot open %s: %s", path,
				    strerror(errno));
		check_executable(fd, path);
	}
	if (elf_program_read_header(&elf, eh, elf_read_fd, &fd, NULL, 0) < 0)
		refuse_program("%s: not an ELF program", path);
	info->target = NULL;
	for (size_t i = 0; i < PPCTIME_NR_TARGETS; i++)
		if (ppctime_targets[i].elf_class == elf.elf_class &&
		    ppctime_targets[i].big_endian == elf.big_endian &&
		    ppctime_targets[i].machine == elf.machine)
			info->target = &ppctime_targets[i];
	if (!info->target)
		refuse_program("%s: not a powerpc program (ELF class %u, byte order %u, machine %u):"
		       " ppctime runs ppc32, ppc64 and ppc64le ones", path,
		       eh[EI_CLASS], eh[EI_DATA], elf.machine);

	if (elf_program_interpreter(&elf, elf_read_fd, &fd, &interp, bad, sizeof(bad)) < 0)
		refuse_program("%s: %s", path, bad);
	/* The kernel's exec cannot open it either: ENOENT. */
	if (interp && !interp[0])
		refuse_with(LAUNCH_EXIT_NOT_FOUND, "%s has an empty ELF interpreter (PT_INTERP)",
			    path);
	info->dynamic = interp != NULL;
	free(interp);
	info->fd = fd;
}

const struct ppctime_target *target_named(const char *name)
{
	const struct ppctime_target *t = ppctime_target_named(name);

	if (!t)
		refuse("no target %s", name);
	return t;
}
