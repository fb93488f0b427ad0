// SPDX-License-Identifier: GPL-2.0
/*
 * Becoming QEMU on the loader (run.h): through the host's dynamic linker
 * with the preload, the loader and image from files, or, in the chroot
 * handler, the bundle's QEMU, loader and image; and what QEMU inherits:
 * its descriptors, the launch memfd and the caller's RLIMIT_NOFILE.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bundle.h"
#include "elf_program.h"
#include "run.h"
#include "vdso_image.h"
#include "userland_exec.h"

/* RLIMIT_NOFILE as the caller set it, QEMU's (enter_qemu()).  Ours is the
 * hard limit (keep_qemu_nofile()): a caller who leaves as few descriptors
 * free as plain QEMU needs must not see a launch fail for want of ours. */
static struct rlimit qemu_nofile;

void keep_qemu_nofile(void)
{
	if (getrlimit(RLIMIT_NOFILE, &qemu_nofile) < 0)
		refuse("getrlimit: %s", strerror(errno));
	setrlimit(RLIMIT_NOFILE, &(struct rlimit){ qemu_nofile.rlim_max, qemu_nofile.rlim_max });
}

/* The ELF interpreter of the host program at PATH (malloc'd), or NULL. */
static char *host_interpreter(const char *path)
{
	unsigned char eh[ELF_HEADER_MAX];
	struct elf_file elf;
	char *interp = NULL;
	int fd = open_regular(path, LAUNCH_EXIT_ERROR);

	/* Not the file's fault: QEMU would be refused as static. */
	if (fd < 0 && (errno == EMFILE || errno == ENFILE))
		refuse("cannot read %s: %s", path, fd_error());
	if (fd < 0)
		return NULL;
	if (elf_program_read_header(&elf, eh, elf_read_fd, &fd, NULL, 0) == 0)
		elf_program_interpreter(&elf, elf_read_fd, &fd, &interp, NULL, 0);
	close(fd);
	return interp;
}

/*
 * The dynamic linker that runs QEMU with the preload (launch_protocol.h):
 * the preload is built for this program's C library, so QEMU must be
 * linked with this program's dynamic linker, as Debian's qemu-user is.
 */
static char *qemu_dynamic_linker(const char *qemu)
{
	char *ours = host_interpreter("/proc/self/exe"), *its = host_interpreter(qemu);
	struct stat a, b;

	if (!its)
		refuse("%s is statically linked (or unreadable): ppctime-run needs a "
		       "dynamically linked QEMU (the Debian package qemu-user) to preload "
		       "into it; --no-vdso runs this one", qemu);
	if (!ours || stat(ours, &a) < 0 || stat(its, &b) < 0 || a.st_dev != b.st_dev ||
	    a.st_ino != b.st_ino)
		refuse("%s uses the dynamic linker %s, not ppctime-run's %s: it cannot load "
		       "ppctime's preload (the Debian package qemu-user does); --no-vdso runs "
		       "this one", qemu, its, ours ? ours : "(none)");
	free(its);
	return ours;
}

/* fd (what, just opened), moved for QEMU to inherit (no close-on-exec) to
 * the caller's soft limit or above, where the hard limit leaves room, so the
 * program has free every descriptor it would have under plain QEMU; else
 * above stdio (never 0, to QEMU's AT_EXECFD none, even with stdin closed). */
int for_qemu(int fd, const char *what)
{
	rlim_t limit = qemu_nofile.rlim_cur;
	int moved = -1;

	if (fd >= 0 && limit > STDERR_FILENO && limit < qemu_nofile.rlim_max)
		moved = fcntl(fd, F_DUPFD, (int)limit);
	if (fd >= 0 && moved < 0)
		moved = fcntl(fd, F_DUPFD, STDERR_FILENO + 1);
	if (moved < 0)
		refuse("cannot open %s: %s", what, fd_error());
	close(fd);
	return moved;
}

/* The memfd, found by its name, the preload takes LOADER_FD and the loader's
 * arguments from (launch_protocol.h): none of them is in QEMU's environment. */
void launch_memfd(int loader_fd, const char *target, bool host_time,
		  const char *launch)
{
	int fd = memfd_create(LAUNCH_MEMFD, 0);

	if (fd < 0 || dprintf(fd, "%d %s %s %s", loader_fd, target,
			      host_time ? LAUNCH_TIME_HOST : LAUNCH_TIME_PAGE, launch) < 0)
		refuse("cannot write the launch memfd: %s", fd_error());
	for_qemu(fd, "the launch memfd");
}

/* A sealed memfd holding len bytes, for QEMU: the guest maps exactly the
 * bytes that were checked, whatever happens to their file meanwhile. */
static int sealed_memfd(const char *name, const void *bytes, size_t len)
{
	int fd = memfd_create(name, MFD_ALLOW_SEALING);

	if (fd < 0 || write(fd, bytes, len) != (ssize_t)len ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) < 0)
		refuse("cannot copy %s into a memfd: %s", name, fd_error());
	return for_qemu(fd, name);
}

/* QEMU behind the host's dynamic linker, loader and image from files. */
void prepare_preload(struct qemu_launch *q, const struct program_info *program,
		     const struct request *req, char **qemu_argv, int n)
{
	const struct target *t = program->target;
	const char *image_path = req->image_path;
	struct vdso_image image;
	char *loader, *preload;

	if (!image_path)
		image_path = support_image(t);
	q->page_size = check_image(image_path, t, req->page_size, &image);
	q->image_fd = sealed_memfd("ppctime-vdso-image", image.elf.buf, image.elf.len);
	vdso_image_free(&image);
	loader = support_loader(t, true);
	preload = support_preload();
	if (strpbrk(preload, ": \t\n"))
		refuse("%s: ld.so --preload takes no file name with a colon or a blank", preload);
	/* ld.so --preload, not LD_PRELOAD: the user's LD_PRELOAD and QEMU's
	 * environment stay as they are; the rest is plain QEMU's argv. */
	q->argv = calloc(3 + n + req->program_argc + 1, sizeof(char *));
	if (!q->argv)
		refuse("out of memory");
	q->argv[0] = qemu_dynamic_linker(qemu_argv[0]);
	q->argv[1] = "--preload";
	q->argv[2] = preload;
	memcpy(q->argv + 3, qemu_argv, n * sizeof(char *));
	memcpy(q->argv + 3 + n, req->program_argv, req->program_argc * sizeof(char *));
	/* QEMU loads the loader from this descriptor (AT_EXECFD), not PROGRAM. */
	q->loader_fd = for_qemu(open(loader, O_RDONLY | O_CLOEXEC), loader);
	q->image_name = image_path;
	q->loader_name = loader;
}

/* The chroot handler: QEMU, loader and image from the bundle, checked
 * when it was made. */
void prepare_bundled(struct qemu_launch *q, const struct request *req,
		     char **qemu_argv, int n)
{
	const struct bundle *b = req->bundle;

	q->argv = calloc(n + req->program_argc + 1, sizeof(char *));
	if (!q->argv)
		refuse("out of memory");
	memcpy(q->argv, qemu_argv, n * sizeof(char *));
	memcpy(q->argv + n, req->program_argv, req->program_argc * sizeof(char *));
	q->bundled = b->qemu;
	q->page_size = b->page_size;
	q->image_fd = sealed_memfd("ppctime-vdso-image", b->image, b->image_size);
	q->loader_fd = sealed_memfd("ppctime-loader", b->loader, b->loader_size);
}

/* Start QEMU as q says, in this process; returns only if that failed. */
void enter_qemu(const struct qemu_launch *q)
{
	setrlimit(RLIMIT_NOFILE, &qemu_nofile);
	if (!q->bundled) {
		execv(q->argv[0], q->argv);
		return;
	}
	/* What the preload does for a dynamic QEMU. */
	if (setenv(LAUNCH_ENV, q->launch, 1) == 0)
		userland_exec(q->bundled, q->argv, environ, q->loader_fd, q->program);
}

/* Start plain QEMU on qemu_argv in this process; returns only if that failed. */
void exec_plain_qemu(char **qemu_argv)
{
	setrlimit(RLIMIT_NOFILE, &qemu_nofile);
	execv(qemu_argv[0], qemu_argv);
}
