// SPDX-License-Identifier: GPL-2.0
/*
 * Becoming QEMU on the loader (run.h), the loader and image from files: a
 * dynamic QEMU through the host's dynamic linker with the preload, a
 * static one mapped and entered here; or, in the chroot handler, the
 * bundle's QEMU, loader and image; and what QEMU inherits: its
 * descriptors, the launch memfd and the caller's RLIMIT_NOFILE.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "bundle.h"
#include "elf/elf_program.h"
#include "elf/vdso_image.h"
#include "ppctime/vdso_layout.h"
#include "preload/host_vdso.h"
#include "run.h"
#include "userland_exec.h"

/* RLIMIT_NOFILE as the caller set it, QEMU's (enter_qemu()).  Ours is the
 * hard limit (keep_qemu_nofile()): a caller who leaves as few descriptors
 * free as plain QEMU needs must not see a launch fail for want of ours. */
static struct rlimit qemu_nofile;

int keep_qemu_nofile(struct run_error *e)
{
	if (getrlimit(RLIMIT_NOFILE, &qemu_nofile) < 0)
		return refuse(e, "getrlimit: %s", strerror(errno));
	setrlimit(RLIMIT_NOFILE, &(struct rlimit){ qemu_nofile.rlim_max, qemu_nofile.rlim_max });
	return 0;
}

/*
 * The descriptors a launch with the vDSO holds at once, at most (QEMU and
 * its copy, the loader, the image, the data pages, PROGRAM, the launch
 * memfd, the watchdog's), with room to spare: a lower hard limit is
 * refused at once, saying so, not by whichever open fails first.
 */
#define LAUNCH_NOFILE	16

int check_launch_nofile(struct run_error *e)
{
	if (qemu_nofile.rlim_max < LAUNCH_NOFILE)
		return refuse(e, "the hard limit of open files (ulimit -Hn) is %llu; a launch with the vDSO "
		       "needs %d (it holds the loader's, the vDSO's image's and data pages', its "
		       "timekeeper's descriptors and more beside QEMU's): raise it, or --no-vdso "
		       "runs plain QEMU, which needs fewer",
		       (unsigned long long)qemu_nofile.rlim_max, LAUNCH_NOFILE);
	return 0;
}

/* The ELF interpreter of the host program open on fd (malloc'd), or NULL:
 * none, or the file is no ELF program (QEMU refuses it then). */
static char *host_interpreter(int fd)
{
	unsigned char eh[ELF_HEADER_MAX];
	struct elf_file elf;
	char *interp = NULL;

	if (elf_program_read_header(&elf, eh, elf_read_fd, &fd, NULL, 0) == 0)
		elf_program_interpreter(&elf, elf_read_fd, &fd, &interp, NULL, 0);
	return interp;
}

/*
 * The dynamic linker that runs a dynamic QEMU with the preload
 * (ppctime/launch_protocol.h), its interpreter interp: the preload is built for
 * this program's C library, so QEMU must be linked with this program's
 * dynamic linker, as Debian 12's qemu-user is.
 */
static char *qemu_dynamic_linker(const char *qemu, char *interp, struct run_error *e)
{
	char *ours = NULL;
	int fd = open_regular("/proc/self/exe", LAUNCH_EXIT_ERROR, e);
	struct stat a, b;

	if (fd >= 0) {
		ours = host_interpreter(fd);
		close(fd);
		if (!ours || stat(ours, &a) < 0 || stat(interp, &b) < 0 || a.st_dev != b.st_dev ||
		    a.st_ino != b.st_ino) {
			refuse(e, "%s uses the dynamic linker %s, not ppctime-run's %s: it cannot "
			       "load ppctime's preload (a QEMU built with the host's C library "
			       "can, as Debian's qemu-user, or a static one); --no-vdso runs "
			       "this one", qemu, interp, ours ? ours : "(none)");
			free(ours);
			ours = NULL;
		}
	}
	free(interp);
	return ours;
}

/* fd (what, just opened), moved for QEMU to inherit (no close-on-exec) to
 * the caller's soft limit or above, where the hard limit leaves room, so the
 * program has free every descriptor it would have under plain QEMU; else
 * above stdio (never 0, to QEMU's AT_EXECFD none, even with stdin closed). */
int for_qemu(int fd, const char *what, struct run_error *e)
{
	rlim_t limit = qemu_nofile.rlim_cur;
	int moved = -1;

	if (fd >= 0 && limit > STDERR_FILENO && limit < qemu_nofile.rlim_max)
		moved = fcntl(fd, F_DUPFD, (int)limit);
	if (fd >= 0 && moved < 0)
		moved = fcntl(fd, F_DUPFD, STDERR_FILENO + 1);
	if (moved < 0)
		return refuse(e, "cannot open %s: %s", what, fd_error());
	close(fd);
	return moved;
}

/* The memfd, found by its name, the preload takes LOADER_FD and the loader's
 * arguments from (ppctime/launch_protocol.h): none of them is in QEMU's environment. */
static int launch_memfd(int loader_fd, const char *target, int layout, bool host_time,
			const struct guest_shift *shift, const char *launch, const char *comm,
			struct run_error *e)
{
	int fd = memfd_create(LAUNCH_MEMFD, 0);
	char own[64] = LAUNCH_SHIFT_NONE;

	if (shift->own)
		snprintf(own, sizeof(own), "%lld,%ld,%d,%d", (long long)shift->realtime.tv_sec,
			 shift->realtime.tv_nsec, shift->tz.tz_minuteswest, shift->tz.tz_dsttime);
	if (fd < 0 || dprintf(fd, "%d %s %d %s %s %s %s", loader_fd, target, layout,
			      host_time ? LAUNCH_TIME_HOST : LAUNCH_TIME_PAGE, own, launch,
			      comm) < 0) {
		refuse(e, "cannot write the launch memfd: %s", fd_error());
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return for_qemu(fd, "the launch memfd", e) < 0 ? -1 : 0;
}

/* A sealed copy of len bytes, for QEMU: the guest maps exactly the bytes
 * that were checked, whatever happens to their file meanwhile. */
static int sealed_copy(const char *name, const void *bytes, size_t len, struct run_error *e)
{
	int fd = memfd_create(name, MFD_ALLOW_SEALING);

	if (fd < 0 || write(fd, bytes, len) != (ssize_t)len ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) < 0) {
		refuse(e, "cannot copy %s into a memfd: %s", name, fd_error());
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return for_qemu(fd, name, e);
}

/* q->argv: qemu_argv[0..n) and PROGRAM ARGS after extra words. */
static int qemu_arguments(struct qemu_launch *q, const struct request *req,
			  size_t extra, char **qemu_argv, int n, struct run_error *e)
{
	q->argv = calloc(extra + n + req->program_argc + 1, sizeof(char *));
	if (!q->argv)
		return refuse(e, "out of memory");
	memcpy(q->argv + extra, qemu_argv, n * sizeof(char *));
	memcpy(q->argv + extra + n, req->program_argv, req->program_argc * sizeof(char *));
	return 0;
}

/* A host program of ours, mapped (userland_exec.h) with below bytes below. */
static const unsigned char *map_host_program(const char *path, size_t below,
					     struct run_error *e)
{
	int fd = open_regular(path, LAUNCH_EXIT_ERROR, e);
	const unsigned char *at;
	char err[512];

	if (fd < 0)
		return NULL;
	at = userland_map(fd, path, below, err, sizeof(err));
	close(fd);
	if (!at)
		refuse(e, "%s", err);
	return at;
}

/* A static QEMU, open as fd: mapped here, with the host vDSO for its
 * time calls unless they are to stay the host's. */
static int map_static_qemu(struct qemu_launch *q, const struct request *req, int fd,
			   char **qemu_argv, int n, struct run_error *e)
{
	char err[512];

	q->mapped = userland_map(fd, qemu_argv[0], 0, err, sizeof(err));
	if (!q->mapped)
		return refuse(e, "%s (ppctime-run runs a static QEMU, or a dynamic one linked "
			      "with its own C library); --no-vdso runs this one", err);
	if (qemu_arguments(q, req, 0, qemu_argv, n, e))
		return -1;
	if (req->host_time_syscalls)
		return 0;
	if (support_preload(HOST_VDSO_NAME, &q->host_vdso_name, e))
		return -1;
	q->host_vdso = map_host_program(q->host_vdso_name, HOST_VDSO_PARAMS_SIZE, e);
	return q->host_vdso ? 0 : -1;
}

/* A dynamic QEMU, its interpreter interp: exec'd behind ld.so --preload,
 * not LD_PRELOAD: the user's LD_PRELOAD and QEMU's environment stay as
 * they are; the rest is plain QEMU's argv. */
static int preload_dynamic_qemu(struct qemu_launch *q, const struct request *req,
				char *interp, char **qemu_argv, int n, struct run_error *e)
{
	char *preload;

	if (support_preload("ppctime-qemu-preload.so", &preload, e))
		return -1;
	if (strpbrk(preload, ": \t\n"))
		return refuse(e, "%s: ld.so --preload takes no file name with a colon or a "
			      "blank", preload);
	if (qemu_arguments(q, req, 3, qemu_argv, n, e))
		return -1;
	q->argv[0] = qemu_dynamic_linker(qemu_argv[0], interp, e);
	q->argv[1] = "--preload";
	q->argv[2] = preload;
	return q->argv[0] ? 0 : -1;
}

/*
 * QEMU qemu_argv[0], loader and image from files.  A static QEMU (QEMU
 * 10's qemu-user) is mapped here and entered as exec would enter it,
 * given the loader as binfmt_misc's O flag would, and the host vDSO
 * (host_vdso.h) for its time calls; a dynamic one (Debian 12's) is
 * exec'd behind the host's dynamic linker with the preload, which gives
 * it the loader the same way and answers its time calls: an exec can
 * give it neither AT_EXECFD nor a vDSO of ours.
 */
int prepare_files(struct qemu_launch *q, const struct program_info *program,
		  const struct request *req, char **qemu_argv, int n, struct run_error *e)
{
	const struct ppctime_target *t = program->target;
	char *image_path = (char *)req->image_path;
	struct vdso_image image;
	char *loader, *interp, magic[2];
	int fd, r, layout;

	if (!image_path && support_image(t, &image_path, e))
		return -1;
	q->page_size = req->page_size;
	if (check_image(image_path, t, &q->page_size, &image, &layout, e))
		return -1;
	q->data = ppctime_target_pages(t, layout);
	q->image_fd = sealed_copy("ppctime-vdso-image", image.elf.buf, image.elf.len, e);
	vdso_image_free(&image);
	if (q->image_fd < 0 || support_loader(t, true, &loader, e))
		return -1;
	q->image_name = image_path;
	q->loader_name = loader;
	/* The process name plain QEMU would have: its file's, as exec names a
	 * process, or, run by binfmt_misc, PROGRAM's, the kernel's. */
	if (req->binfmt)
		prctl(PR_GET_NAME, q->comm);
	else
		snprintf(q->comm, sizeof(q->comm), "%s", basename(qemu_argv[0]));

	/* exec needs no read permission; QEMU mapped here, or by the dynamic
	 * linker, does. */
	fd = open_regular(qemu_argv[0], LAUNCH_EXIT_ERROR, e);
	if (fd < 0 && errno == EACCES)
		return refuse(e, "cannot read %s: %s (ppctime-run starts QEMU itself, mapped here "
			      "or by the dynamic linker, which must read it: exec alone runs an "
			      "execute-only one; --no-vdso runs it so)", qemu_argv[0],
			      strerror(errno));
	if (fd < 0)
		return -1;
	if (pread(fd, magic, 2, 0) == 2 && !memcmp(magic, "#!", 2))
		r = refuse(e, "%s is a script: ppctime-run starts QEMU itself, to give it the "
			   "loader and the vDSO, which a script would not hand on to the QEMU it "
			   "runs; --qemu takes that QEMU, or --no-vdso runs this script",
			   qemu_argv[0]);
	else if ((interp = host_interpreter(fd)) == NULL)
		r = map_static_qemu(q, req, fd, qemu_argv, n, e);
	else
		r = preload_dynamic_qemu(q, req, interp, qemu_argv, n, e);
	close(fd);
	if (r)
		return -1;
	/* QEMU loads the loader from this descriptor (AT_EXECFD), not PROGRAM. */
	q->loader_fd = for_qemu(open(loader, O_RDONLY | O_CLOEXEC), loader, e);
	return q->loader_fd < 0 ? -1 : 0;
}

/* The chroot handler: QEMU, loader and image from the bundle, checked
 * when it was made. */
int prepare_bundled(struct qemu_launch *q, const struct request *req,
		    char **qemu_argv, int n, struct run_error *e)
{
	const struct bundle *b = req->bundle;
	const struct ppctime_target *t = target_named(b->target, e);

	if (!t || qemu_arguments(q, req, 0, qemu_argv, n, e))
		return -1;
	q->mapped = b->qemu;
	if (!req->host_time_syscalls)
		q->host_vdso = b->host_vdso;
	q->page_size = b->page_size;
	q->data = ppctime_target_pages(t, b->layout);
	q->image_fd = sealed_copy("ppctime-vdso-image", b->image, b->image_size, e);
	if (q->image_fd < 0)
		return -1;
	q->loader_fd = sealed_copy("ppctime-loader", b->loader, b->loader_size, e);
	return q->loader_fd < 0 ? -1 : 0;
}

/*
 * The launch's own clock (--realtime, --tz), as its timekeeper keeps it,
 * for QEMU's time calls to keep once the page serves no more: the host's
 * timezone as the keeper took it, where --tz gives none.  Where QEMU
 * answers from the page only: --host-time-syscalls leaves them the host's.
 */
static int launch_shift(const struct timekeeper_options *o, bool host_time,
			struct guest_shift *shift, struct run_error *e)
{
	*shift = (struct guest_shift){
		.own = !host_time &&
		       (o->tz || o->realtime_offset.tv_sec || o->realtime_offset.tv_nsec),
		.realtime = o->realtime_offset,
	};
	if (o->tz)
		shift->tz = *o->tz;
	else if (shift->own && gettimeofday(&(struct timeval){ 0 }, &shift->tz) < 0)
		return refuse(e, "gettimeofday: %s", strerror(errno));
	return 0;
}

/* QEMU's own time calls read the guest's data pages, data_fd, as the
 * guest's vDSO does: through the preload, or the host vDSO. */
int qemu_clock(struct qemu_launch *q, const struct ppctime_target *t, const struct request *req,
	       int data_fd, struct run_error *e)
{
	struct guest_shift shift;
	struct host_vdso_params *p;
	const void *page;

	if (launch_shift(&req->tk_options, req->host_time_syscalls, &shift, e))
		return -1;
	if (!q->mapped)
		return launch_memfd(q->loader_fd, t->name, q->data.layout,
				    req->host_time_syscalls, &shift, q->launch, q->comm, e);
	if (!q->host_vdso)
		return 0;
	page = mmap(NULL, vdso_layout_time_end(vdso_layout_find(q->data.layout), q->data.is64),
		    PROT_READ, MAP_SHARED, data_fd, 0);
	if (page == MAP_FAILED)
		return refuse(e, "cannot map the vDSO data pages: %s", strerror(errno));
	p = (void *)(q->host_vdso - HOST_VDSO_PARAMS_SIZE);
	*p = (struct host_vdso_params){
		.guest = { .page = page, .target = q->data, .shift = shift },
	};
	if (mprotect(p, HOST_VDSO_PARAMS_SIZE, PROT_READ) < 0)
		return refuse(e, "cannot seal the host vDSO's parameters: %s", strerror(errno));
	return 0;
}

/* Start QEMU as q says, in this process; returns only if that failed. */
void enter_qemu(const struct qemu_launch *q)
{
	setrlimit(RLIMIT_NOFILE, &qemu_nofile);
	if (!q->mapped) {
		execv(q->argv[0], q->argv);
		return;
	}
	/* What the preload does for a dynamic QEMU. */
	if (*q->comm)
		prctl(PR_SET_NAME, q->comm);
	if (setenv(LAUNCH_ENV, q->launch, 1) == 0)
		userland_exec(q->mapped, q->argv, environ, q->loader_fd, q->program,
			      q->host_vdso);
}

/* Start plain QEMU on qemu_argv in this process; returns only if that failed. */
void exec_plain_qemu(char **qemu_argv)
{
	setrlimit(RLIMIT_NOFILE, &qemu_nofile);
	execv(qemu_argv[0], qemu_argv);
}
