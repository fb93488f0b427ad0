/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What ppctime-run's files (ppctime-run.c and run_*.c) share: the request,
 * PROGRAM's target, the launch of QEMU and its watchdog, and the one way
 * they all refuse.
 */
#ifndef PPCTIME_RUN_H
#define PPCTIME_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/time.h>
#include <sys/types.h>

#include "binfmt.h"
#include "ppctime/launch_protocol.h"
#include "ppctime/target_table.h"
#include "timekeeper/keeper_watch.h"
#include "timekeeper/timekeeper.h"

struct bundle;
struct vdso_image;

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
 * with the preload (ppctime/launch_protocol.h), or mapped in this process
 * and entered there (userland_exec.h): a static QEMU, or, in the chroot
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
	pid_t keeper;			/* the launch's own; 0: none, or gone */
	int keeper_fd;
	int daemon_fd;			/* the shared keeper's socket, or -1 */
	int sigchld_fd;			/* the keeper's stops, or -1 */
	struct timekeeper *tk;		/* shared with the keeper, or NULL */
	void *pages;			/* the keeper's to write */
	size_t pages_len;
	unsigned update_hz;
	struct keeper_watch stall;
};

/* ppctime-run.c */
void __attribute__((noreturn, format(printf, 2, 3)))
refuse_with(int status, const char *fmt, ...);
/* Most refusals are ppctime-run's own failures; PROGRAM's say which. */
#define refuse(...) refuse_with(LAUNCH_EXIT_ERROR, __VA_ARGS__)
#define refuse_program(...) refuse_with(LAUNCH_EXIT_CANNOT_EXECUTE, __VA_ARGS__)
const char *fd_error(void);

/* run_options.c: the command line into req. */
void parse_arguments(int argc, char **argv, struct request *req);
void parse_binfmt_arguments(int argc, char **argv, struct request *req);

/* run_program.c */
int open_regular(const char *path, int status);
void read_program_header(const char *path, int fd, struct program_info *info);
const struct ppctime_target *target_named(const char *name);

/*
 * run_support.c, the one file built once per tree (run/Rules.mk):
 * what ppctime-run runs, found relative to its own directory.  Each
 * malloc'd; refused if missing, but where it may be missing: then NULL.
 */
char *support_daemon(void);
char *support_image(const struct ppctime_target *t);
char *support_loader(const struct ppctime_target *t, bool required);
char *support_preload(const char *name);
char *support_handler(const char *name);
const char *find_qemu(const struct ppctime_target *t, const char *choice);
void static_qemu(const struct ppctime_target *t, const char *dir, char *path, size_t len);

/* run_image.c */
unsigned long check_image(const char *path, const struct ppctime_target *t,
			  unsigned long page_size, struct vdso_image *img, int *layout);

/* run_keeper.c */
int take_data_pages(struct watch *w, const struct ppctime_target *t, struct request *req,
		    const struct qemu_launch *q);
pid_t start_timekeeper(struct timekeeper *tk, pid_t reader);

/* run_exec.c */
void keep_qemu_nofile(void);
void check_launch_nofile(void);
int for_qemu(int fd, const char *what);
void prepare_files(struct qemu_launch *q, const struct program_info *program,
		   const struct request *req, char **qemu_argv, int n);
void prepare_bundled(struct qemu_launch *q, const struct request *req,
		     char **qemu_argv, int n);
void qemu_clock(struct qemu_launch *q, const struct ppctime_target *t,
		const struct request *req, int data_fd);
void enter_qemu(const struct qemu_launch *q);
void exec_plain_qemu(char **qemu_argv);

/* run_watch.c */
void detach_watchdog(struct watch *w);

/* run_binfmt.c: --binfmt-ACTION's exit status. */
int binfmt_action(struct request *req);

#endif /* PPCTIME_RUN_H */
