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
 * Anything but a regular file is refused before it is waited for (a
 * FIFO), read (a device) or made our terminal.  A file that cannot be
 * opened: PROGRAM's "cannot open", as env says it; another's "cannot
 * read", where what is short is often descriptors.
 */
int open_regular(const char *path, int status, struct run_error *e)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY), saved = errno;

	if (fd < 0 && status == LAUNCH_EXIT_CANNOT_EXECUTE)
		refuse_with(e, saved == ENOENT ? LAUNCH_EXIT_NOT_FOUND : status,
			    "cannot open %s: %s", path, strerror(saved));
	else if (fd < 0)
		refuse_with(e, status, "cannot read %s: %s", path, fd_error());
	if (fd < 0) {
		errno = saved;
		return -1;
	}
	if (fstat(fd, &st) < 0)
		refuse_with(e, status, "cannot stat %s: %s", path, strerror(errno));
	else if (!S_ISREG(st.st_mode))
		refuse_with(e, status, "%s: not a regular file", path);
	/* Its readers, QEMU's loader among them, see an ordinary file. */
	else if (fcntl(fd, F_SETFL, 0) < 0)
		refuse_with(e, status, "fcntl: %s", strerror(errno));
	else
		return fd;
	close(fd);
	return -1;
}

/* What the kernel's exec asks of a regular file, which QEMU does not ask
 * as a user. */
static int check_executable(int fd, const char *path, struct run_error *e)
{
	char self[64];

	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	if (faccessat(AT_FDCWD, self, X_OK, AT_EACCESS) < 0)
		return refuse_program(e, "%s: %s", path, strerror(errno));
	return 0;
}

/* PROGRAM at path, or open as fd (binfmt_misc's O flag: maybe unreadable). */
int read_program_header(const char *path, int fd, struct program_info *info,
			struct run_error *e)
{
	unsigned char eh[ELF_HEADER_MAX];
	struct elf_file elf;
	char bad[128];
	char *interp;

	/* The kernel's (AT_EXECFD) passed exec's checks already. */
	if (fd >= 0) {
		if (fcntl(fd, F_SETFD, FD_CLOEXEC) < 0)
			return refuse(e, "fcntl: %s", strerror(errno));
	} else {
		fd = open_regular(path, LAUNCH_EXIT_CANNOT_EXECUTE, e);
		if (fd < 0 || check_executable(fd, path, e))
			return -1;
	}
	if (elf_program_read_header(&elf, eh, elf_read_fd, &fd, NULL, 0) < 0)
		return refuse_program(e, "%s: not an ELF program", path);
	info->target = NULL;
	for (size_t i = 0; i < PPCTIME_NR_TARGETS; i++)
		if (ppctime_targets[i].elf_class == elf.elf_class &&
		    ppctime_targets[i].big_endian == elf.big_endian &&
		    ppctime_targets[i].machine == elf.machine)
			info->target = &ppctime_targets[i];
	if (!info->target)
		return refuse_program(e, "%s: not a powerpc program (ELF class %u, byte order %u, "
				      "machine %u): ppctime runs ppc32, ppc64 and ppc64le ones",
				      path, eh[EI_CLASS], eh[EI_DATA], elf.machine);

	if (elf_program_interpreter(&elf, elf_read_fd, &fd, &interp, bad, sizeof(bad)) < 0)
		return refuse_program(e, "%s: %s", path, bad);
	info->dynamic = interp != NULL;
	/* The kernel's exec cannot open it either: ENOENT. */
	if (interp && !interp[0]) {
		free(interp);
		return refuse_with(e, LAUNCH_EXIT_NOT_FOUND,
				   "%s has an empty ELF interpreter (PT_INTERP)", path);
	}
	free(interp);
	info->fd = fd;
	return 0;
}

const struct ppctime_target *target_named(const char *name, struct run_error *e)
{
	const struct ppctime_target *t = ppctime_target_named(name);

	if (!t)
		refuse(e, "no target %s", name);
	return t;
}
