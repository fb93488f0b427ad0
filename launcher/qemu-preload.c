// SPDX-License-Identifier: GPL-2.0
/*
 * ppctime-qemu-preload.so: loaded into QEMU user mode by ppctime-run,
 * through the dynamic linker's --preload (launch_protocol.h).  QEMU 7.2's
 * main() loads the guest from getauxval(AT_EXECFD) when that is not 0,
 * the descriptor binfmt_misc's 'O' flag passes, and opens its program
 * argument only otherwise; this makes getauxval(AT_EXECFD) the loader's
 * descriptor, so QEMU runs the loader while everything it says about the
 * program (exec_path, argv, AT_EXECFN, /proc/self/exe, /proc/self/cmdline)
 * stays PROGRAM's, as without ppctime.  The descriptors come in a memfd,
 * not in the environment, which the guest can read as QEMU's
 * /proc/self/environ.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "launch_protocol.h"

/* glibc's own, under the name it also exports. */
extern unsigned long __getauxval(unsigned long type);

static unsigned long execfd;

/* The descriptor of the memfd LAUNCH_MEMFD, or -1. */
static int find_launch_memfd(void)
{
	static const char link[] = "/memfd:" LAUNCH_MEMFD " (deleted)";
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *d;
	char buf[sizeof(link)];
	int fd = -1;

	while (dir && fd < 0 && (d = readdir(dir)))
		if (readlinkat(dirfd(dir), d->d_name, buf, sizeof(buf)) == sizeof(link) - 1 &&
		    !memcmp(buf, link, sizeof(link) - 1))
			fd = atoi(d->d_name);
	if (dir)
		closedir(dir);
	return fd;
}

/* Before QEMU's main() copies the environment for the guest.  Only
 * ppctime-run preloads this, always with the memfd: without it, QEMU
 * would silently run PROGRAM with no vDSO. */
__attribute__((constructor)) static void take_launch(void)
{
	int fd = find_launch_memfd();
	char buf[128], *end;
	ssize_t len = fd >= 0 ? pread(fd, buf, sizeof(buf) - 1, 0) : -1;

	if (fd >= 0)
		close(fd);
	if (len > 0) {
		buf[len] = '\0';
		execfd = strtoul(buf, &end, 10);
	}
	if (len <= 0 || !execfd || *end != ' ' || setenv(LAUNCH_ENV, end + 1, 1) < 0) {
		fprintf(stderr, "ppctime-qemu-preload.so: no usable " LAUNCH_MEMFD
			" memfd (loaded by ppctime-run only)\n");
		_exit(LAUNCH_EXIT_ERROR);
	}
}

unsigned long getauxval(unsigned long type)
{
	if (type == AT_EXECFD)
		return execfd;
	return __getauxval(type);
}
