// SPDX-License-Identifier: GPL-2.0
/* Data pages in a sealed memfd (sealed_pages.h). */
#define _GNU_SOURCE
#include "sealed_pages.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ppctime/fail.h"

int sealed_pages_create(const char *name, const char *what, size_t len, void **map,
			char *why, size_t whylen)
{
	int fd = memfd_create(name, MFD_ALLOW_SEALING | MFD_CLOEXEC), saved;

	if (fd < 0 || ftruncate(fd, len) < 0) {
		fail(why, whylen, "cannot create %s: %s", what, fd_error());
		goto fail;
	}
	*map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (*map == MAP_FAILED) {
		fail(why, whylen, "cannot map %s: %s", what, strerror(errno));
		goto fail;
	}
	if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_FUTURE_WRITE |
		  F_SEAL_SEAL) == 0)
		return fd;
	fail(why, whylen, "cannot seal %s: %s", what, strerror(errno));
	munmap(*map, len);
fail:
	saved = errno;
	if (fd >= 0)
		close(fd);
	errno = saved;
	return -1;
}
