// SPDX-License-Identifier: GPL-2.0
/*
 * ppctime-run: run a powerpc program under QEMU user mode with a vDSO, as
 * a Linux kernel would give it one at exec.
 *
 * The host side of the work: pick the QEMU for PROGRAM's ELF header, check
 * the vDSO image, take the data pages from the shared timekeeper
 * (ppctime-timekeeperd, timekeeperd_client.h), or where there is none or
 * a clock option asks for a timekeeper of its own, create them as a memfd
 * and start the timekeeper in a child process (named ppctime-tk) that
 * keeps them current, and start QEMU as for PROGRAM itself but loading
 * the guest loader (ppctime-loader-TARGET) in its place
 * (ppctime/launch_protocol.h), which maps the pages and the image in the
 * guest and enters PROGRAM.  This process becomes QEMU, as under plain QEMU: one
 * process, its pid, signals, status and core dump the program's.  The
 * daemon watches it.  With a timekeeper of its own (or a daemon that
 * cannot watch it), a detached watchdog starts the keeper, kills it if it
 * stalls, and once this process has ended; however the keeper dies, it
 * leaves the page in VDSO_CLOCKMODE_NONE (the kernel writes it,
 * timekeeper_clear_mode_at_exit()), so readers, those that outlive the
 * program too, use the system call.  Only the keeper maps the data pages
 * writable, and neither it nor the watchdog can be read or written
 * through /proc/PID/mem by others (not dumpable).
 *
 * Linked statically and made into a bundle with Debian's static QEMU
 * (bundle.h), it is the handler binfmt_misc runs in a foreign chroot:
 * QEMU, loader and image are then the bundle's, and QEMU is entered where
 * the kernel mapped it (userland_exec.h) instead of exec'd.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>

#include "bundle.h"
#include "ppctime/vdso_layout.h"
#include "run.h"

/* The one place ppctime-run says why it stops: its status. */
static int say(const struct run_error *e)
{
	if (e->msg[0])
		fprintf(stderr, "ppctime-run: %s\n", e->msg);
	return e->status;
}

/*
 * Everything but plain QEMU: check the image, take the data pages from
 * the daemon or create them, leave a watchdog behind where the keeper is
 * ours or the daemon cannot watch this process, and become QEMU on the
 * loader.  qemu_argv[0..n) is QEMU and the options plain QEMU would be
 * run with.  Returns only if that failed: -1.
 */
static int run_with_vdso(const struct program_info *program, const struct request *req,
			 char **qemu_argv, int n, struct run_error *e)
{
	const struct ppctime_target *t = program->target;
	struct qemu_launch q = { .program = req->program_argv[0] };
	struct watch w = { .daemon_fd = -1 };
	int data_fd, program_fd;

	if (check_launch_nofile(e) ||
	    (req->bundle ? prepare_bundled(&q, req, qemu_argv, n, e)
			 : prepare_files(&q, program, req, qemu_argv, n, e)))
		return -1;
	data_fd = take_data_pages(&w, t, req, &q, e);
	if (data_fd < 0)
		return -1;
	if (req->verbose && q.mapped && !req->bundle)
		fprintf(stderr, "ppctime-run: loader %s, host vDSO %s (%s static: mapped and "
			"entered here)\n", q.loader_name,
			q.host_vdso_name ? q.host_vdso_name : "none: --host-time-syscalls",
			qemu_argv[0]);
	else if (req->verbose && !q.mapped)
		fprintf(stderr, "ppctime-run: loader %s, preload %s (%s --preload)\n",
			q.loader_name, q.argv[2], q.argv[0]);
	/* The loader maps the very file checked here, whatever -L says. */
	program_fd = for_qemu(program->fd, q.program, e);
	if (program_fd < 0)
		return -1;
	data_fd = for_qemu(data_fd, "the vDSO data pages", e);
	if (data_fd < 0)
		return -1;
	/* LAUNCH_ARGS in their order; the preload takes the words before. */
	if (asprintf(&q.launch, "%d,%u,%lu,%d,%d", data_fd,
		     vdso_layout_find(q.data.layout)->nr_pages, q.page_size, q.image_fd,
		     program_fd) < 0)
		return refuse(e, "out of memory");
	if (qemu_clock(&q, t, req, data_fd, e) ||
	    ((w.tk || w.daemon_fd >= 0) && detach_watchdog(&w, e)))
		return -1;
	/* The keeper's alone: the chroot handler's QEMU runs in this mapping. */
	if (w.tk) {
		munmap(w.pages, w.pages_len);
		timekeeper_destroy(w.tk);
	}
	enter_qemu(&q);
	return refuse(e, "cannot run %s: %s", q.argv[0], strerror(errno));
}

int main(int argc, char **argv)
{
	struct request req;
	struct program_info program;
	struct bundle bundle;
	struct run_error e;
	char **qemu_argv, *sysroot, qemu[PATH_MAX];
	const char *qemu_path;
	int n = 0, r;

	/* Others' /proc/PID/mem must not reach the data page through us or
	 * the timekeeper (which inherits this); QEMU's exec resets it. */
	prctl(PR_SET_DUMPABLE, 0);
	if (keep_qemu_nofile(&e))
		return say(&e);
	if (bundle_self(&bundle) == 0) {
		r = parse_binfmt_arguments(argc, argv, &req, &e);
		req.bundle = &bundle;
	} else if (!strcmp(basename(argv[0]), BUNDLE_HANDLER)) {
		r = refuse(&e, BUNDLE_HANDLER " runs as the handler ppctime-run --binfmt-register "
			   "makes of it, with Debian's static QEMU");
	} else if (!strcmp(basename(argv[0]), BINFMT_HANDLER)) {
		r = parse_binfmt_arguments(argc, argv, &req, &e);
	} else {
		r = parse_arguments(argc, argv, &req, &e);
	}
	if (r)
		return r > 0 ? 0 : say(&e);
	if (req.binfmt_action)
		return binfmt_action(&req, &e) ? say(&e) : 0;
	if (read_program_header(req.program_argv[0], req.program_fd, &program, &e))
		return say(&e);
	if (req.bundle && strcmp(program.target->name, bundle.target)) {
		refuse_program(&e, "%s: a %s program, not %s as this handler runs",
			       req.program_argv[0], program.target->name, bundle.target);
		return say(&e);
	}

	/* QEMU [-L SYSROOT] [-0 ARGV0] (5 at most), PROGRAM ARGS... NULL: with
	 * the vDSO too (run_with_vdso), so QEMU says what it says of PROGRAM. */
	qemu_argv = calloc(5 + req.program_argc + 1, sizeof(char *));
	if (!qemu_argv) {
		refuse(&e, "out of memory");
		return say(&e);
	}
	/* The bundle's QEMU by the name Debian gives it. */
	if (req.bundle)
		static_qemu(program.target, NULL, qemu, sizeof(qemu));
	qemu_path = req.bundle ? qemu : find_qemu(program.target, req.qemu, &e);
	if (!qemu_path)
		return say(&e);
	qemu_argv[n++] = (char *)qemu_path;
	/* Only dynamic programs: -L also redirects the paths a program opens.
	 * Run by the kernel, as QEMU's handlers are: QEMU's own default. */
	if (program.dynamic && !req.binfmt && (req.sysroot || !getenv("QEMU_LD_PREFIX"))) {
		sysroot = (char *)req.sysroot;
		if (!sysroot && asprintf(&sysroot, "/usr/%s", program.target->triplet) < 0) {
			refuse(&e, "out of memory");
			return say(&e);
		}
		qemu_argv[n++] = "-L";
		qemu_argv[n++] = sysroot;
	}
	if (req.argv0) {
		qemu_argv[n++] = "-0";
		qemu_argv[n++] = (char *)req.argv0;
	}
	if (req.use_vdso) {
		run_with_vdso(&program, &req, qemu_argv, n, &e);
		return say(&e);
	}

	/* Plain QEMU, exactly: same process, same status. */
	memcpy(qemu_argv + n, req.program_argv, req.program_argc * sizeof(char *));
	exec_plain_qemu(qemu_argv);
	refuse(&e, "cannot run %s: %s", qemu_argv[0], strerror(errno));
	return say(&e);
}
