/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What ppctime-run's files (ppctime-run.c and run_*.c) share: the request,
 * PROGRAM's target, the launch of QEMU and its watchdog, and the one way
 * they all refuse.  Each function that can fail returns -1 (or NULL) with
 * a struct run_error filled; only main() says it and exits.
 */
#ifndef PPCTIME_RUN_H
#define PPCTIME_RUN_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/time.h>
#include <sys/types.h>

#include "binfmt.h"
#include "ppctime/fail.h"
#include "ppctime/launch_protocol.h"
#include "ppctime/target_table.h"
#include "timekeeper/keeper_watch.h"
#include "timekeeper/timekeeper.h"

struct bundle;
struct vdso_image;

/*
 * A refusal: what main() says after "ppctime-run: ", and the status it
 * exits with (ppctime/launch_protocol.h: as env, 125 ppctime-run's own failure,
 * 126 PROGRAM cannot be run, 127 not found).  Room for a few paths.
 */
struct run_error {
	int status;
	char msg[3 * PATH_MAX];		/* "": said already */
};

/* Fill e (ppctime/fail.h's way) and give -1 to return. */
#define refuse_with(e, st, ...) \
	((e)->status = (st), fail((e)->msg, sizeof((e)->msg), __VA_ARGS__))
/* Most refusals are ppctime-run's own failures; PROGRAM's say which. */
#define refuse(e, ...) refuse_with(e, LAUNCH_EXIT_ERROR, __VA_ARGS__)
#define refuse_program(e, ...) refuse_with(e, LAUNCH_EXIT_CANNOT_EXECUTE, __VA_ARGS__)

/* --qemu's default, for launches that take no options (binfmt_misc's). */
#define QEMU_ENV	"PPCTIME_QEMU"

/* What ppctime-run needs to know about PROGRAM before starting it. */
struct program_info {
	const struct ppctime_target *target;
	bool dynamic;			/* has PT_INTERP */
	int fd;				/* open, close-on-exec */
};

/* What the command line asks for. */
struct request {
	const char *sysroot, *image_path, *argv0;
	const char *qemu;		/* --qemu's or PPCTIME_QEMU's, or NULL */
	bool use_vdso, verbose;
	bool private_keeper;		/* asked for, or implied by a clock option */
	bool host_time_syscalls;	/* the preload leaves QEMU's time calls alone */
	bool binfmt;			/* run by binfmt_misc (BINFMT_HANDLER) */
	enum binfmt_action binfmt_action;	/* --binfmt-ACTION, or 0 */
	const char *binfmt_handler;	/* --binfmt-print's, or NULL: ours */
	const char *static_qemu_dir;	/* --static-qemu's, or NULL: QEMU's */
	const struct bundle *bundle;	/* the chroot handler's, or NULL */
	int program_fd;			/* the kernel's (AT_EXECFD), or -1 */
	unsigned long page_size;	/* 0: the image's */
	struct timekeeper_options tk_options;
	struct timezone tz;
	char **program_argv;		/* PROGRAM ARGS... NULL */
	int program_argc;
};

/*
 * How QEMU is started on the loader: through the host's dynamic linker
 * with the preload (ppctime/launch_protocol.h), or mapped in this process and
 * entered there (userland_exec.h): a static QEMU, or, in the chroot
 * handler, the one the kernel mapped with the bundle (bundle.h).
 */
struct qemu_launch {
	char **argv;			/* ld.so --preload PRELOAD QEMU ..., or QEMU ... */
	const unsigned char *mapped;	/* the static QEMU's address 0, or NULL: execv() */
	const unsigned char *host_vdso;	/* its AT_SYSINFO_EHDR, or NULL: the kernel's */
	const char *program;		/* PROGRAM's path (AT_EXECFN) */
	const char *image_name, *loader_name;	/* for -v (binfmt_misc's launches: none) */
	char *host_vdso_name;		/* for -v: the host vDSO's file, or NULL */
	int loader_fd, image_fd;
	unsigned long page_size;
	struct timekeeper_target data;	/* what the data pages are for: the
					   target and the image's layout */
	char *launch;			/* LAUNCH_ENV's value */
	char comm[16];			/* QEMU's process name, or "": as it is */
};

/* What a launch's watchdog watches (run_watch.c). */
struct watch {
	int launch_fd;			/* the launch's pidfd, QEMU's once it runs */
	pid_t launch_pid;
	int daemon_fd;			/* the shared keeper's socket, or -1 */
	struct timekeeper *tk;		/* shared with the keeper, or NULL */
	void *pages;			/* the keeper's to write */
	size_t pages_len;
	struct keeper_watchdog keeper;	/* the launch's own, if tk */
};

/*
 * run_options.c: the command line into req.  0, 1 if it asked for
 * --help or --version (printed: ppctime-run is done), or -1.
 */
int parse_arguments(int argc, char **argv, struct request *req, struct run_error *e);
int parse_binfmt_arguments(int argc, char **argv, struct request *req, struct run_error *e);

/*
 * run_program.c.  open_regular(): path opened to read it, a regular
 * file; refused with status (and, with LAUNCH_EXIT_CANNOT_EXECUTE,
 * LAUNCH_EXIT_NOT_FOUND if it is missing, as env), errno kept.
 */
int open_regular(const char *path, int status, struct run_error *e);
int read_program_header(const char *path, int fd, struct program_info *info,
			struct run_error *e);
const struct ppctime_target *target_named(const char *name, struct run_error *e);

/*
 * run_support.c, the one file built once per tree (run/Rules.mk):
 * what ppctime-run runs, found relative to its own directory.  Each
 * malloc'd into *path, 0; refused if missing (-1), but where it may be
 * missing: then *path is NULL.
 */
int support_daemon(char **path, struct run_error *e);
int support_image(const struct ppctime_target *t, char **path, struct run_error *e);
int support_loader(const struct ppctime_target *t, bool required, char **path, struct run_error *e);
int support_preload(const char *name, char **path, struct run_error *e);
int support_handler(const char *name, char **path, struct run_error *e);
const char *find_qemu(const struct ppctime_target *t, const char *choice, struct run_error *e);
void static_qemu(const struct ppctime_target *t, const char *dir, char *path, size_t len);

/* run_image.c: *page_size the one asked for (0: any), then the image's. */
int check_image(const char *path, const struct ppctime_target *t, unsigned long *page_size,
		struct vdso_image *img, int *layout, struct run_error *e);

/* run_keeper.c */
int take_data_pages(struct watch *w, const struct ppctime_target *t, const struct request *req,
		    const struct qemu_launch *q, struct run_error *e);

/* run_exec.c */
int keep_qemu_nofile(struct run_error *e);
int check_launch_nofile(struct run_error *e);
int for_qemu(int fd, const char *what, struct run_error *e);
int prepare_files(struct qemu_launch *q, const struct program_info *program,
		  const struct request *req, char **qemu_argv, int n, struct run_error *e);
int prepare_bundled(struct qemu_launch *q, const struct request *req,
		    char **qemu_argv, int n, struct run_error *e);
int qemu_clock(struct qemu_launch *q, const struct ppctime_target *t, const struct request *req,
	       int data_fd, struct run_error *e);
void enter_qemu(const struct qemu_launch *q);
void exec_plain_qemu(char **qemu_argv);

/* run_watch.c */
int detach_watchdog(struct watch *w, struct run_error *e);

/* run_binfmt.c: --binfmt-ACTION, 0 or -1 (e's message empty where
 * binfmt.c said why). */
int binfmt_action(const struct request *req, struct run_error *e);

#endif /* PPCTIME_RUN_H */
