// SPDX-License-Identifier: GPL-2.0
/*
 * A launch's data pages (run.h): the shared timekeeper's
 * (timekeeperd_client.h), or pages of its own and the timekeeper that
 * keeps them, which the watchdog starts.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "ppctime/clear_mode.h"
#include "ppctime/vdso_layout.h"
#include "run.h"
#include "timekeeperd/timekeeperd_client.h"

/*
 * The data file, len bytes: shared with the timekeeper (read-write here)
 * and the guest.  F_SEAL_FUTURE_WRITE keeps our mapping writable but
 * makes every later one, the guest's included, read-only for good.
 */
static void *create_data_pages(size_t len, int *fd_out)
{
	int fd = memfd_create("ppctime-vdso-data", MFD_ALLOW_SEALING);
	void *pages;

	if (fd < 0 || ftruncate(fd, len) < 0)
		refuse("cannot create the vDSO data pages: %s", fd_error());
	pages = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pages == MAP_FAILED)
		refuse("cannot map the vDSO data pages: %s", strerror(errno));
	if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_FUTURE_WRITE |
		  F_SEAL_SEAL) < 0)
		refuse("cannot seal the vDSO data pages: %s", strerror(errno));
	*fd_out = fd;
	return pages;
}

/*
 * The shared timekeeper's page for t, if one can be had: the machine's
 * daemon, or the user's, started now if need be.  A launch without one
 * keeps its own timekeeper and, with -v, says why.
 */
static int attach_daemon(const struct qemu_launch *q, const struct request *req,
			 struct tkd_attach *daemon, char *why, size_t whylen)
{
	/* The chroot handler has no files but its own: a daemon it finds. */
	char *path = req->bundle ? NULL : support_daemon();
	int r = tkd_attach(daemon, &q->data, q->page_size, path, why, whylen);

	if (r && req->verbose)
		fprintf(stderr, "ppctime-run: no timekeeper daemon (%s%s): using a private "
			"timekeeper\n", why, path ? "" : "; ppctime-timekeeperd not installed");
	free(path);
	return r;
}

/*
 * The data pages for a t program with q's page size and layout: the
 * shared timekeeper's, w holding the daemon's socket, or new ones, w
 * holding them and the launch's own timekeeper, ready for the watchdog to
 * start (start_timekeeper()).  Their descriptor: a data file as the
 * loader maps it (ppctime/launch_protocol.h).
 */
int take_data_pages(struct watch *w, const struct ppctime_target *t, struct request *req,
		    const struct qemu_launch *q)
{
	const char *layout = vdso_layout_name(q->data.layout);
	struct tkd_attach daemon;
	char err[512];
	int data_fd;

	if (!req->private_keeper && attach_daemon(q, req, &daemon, err, sizeof(err)) == 0) {
		w->daemon_fd = daemon.sock;	/* -1: it watches our pid */
		if (req->verbose)
			fprintf(stderr, "ppctime-run: %s vDSO %s, %lu-byte pages, %s layout, "
				"shared timekeeper %s: daemon %d at %s\n"
				"ppctime-run: %s\n",
				t->name, q->image_name, q->page_size, layout,
				daemon.started ? "started" : "found", (int)daemon.pid,
				daemon.socket, daemon.describe);
		return daemon.data_fd;
	}
	w->pages_len = vdso_layout_find(q->data.layout)->nr_pages * LAUNCH_DATA_STRIDE;
	w->pages = create_data_pages(w->pages_len, &data_fd);
	req->tk_options.page_size = LAUNCH_DATA_STRIDE;
	/* Shared, so the watchdog sees the keeper's update count move. */
	w->tk = timekeeper_create();
	if (!w->tk)
		refuse("cannot map the timekeeper's state: %s", strerror(errno));
	if (timekeeper_init(w->tk, w->pages, &q->data, &req->tk_options,
			    err, sizeof(err)) < 0)
		refuse("cannot start the timekeeper: %s", err);
	w->update_hz = timekeeper_update_hz(w->tk);
	if (req->verbose && timekeeper_describe(w->tk, err, sizeof(err)) >= 0)
		fprintf(stderr, "ppctime-run: %s vDSO %s, %lu-byte pages, %s layout, private "
			"timekeeper mode: %s\n"
			"ppctime-run: %s\n",
			t->name, q->image_name, q->page_size, layout,
			timekeeper_mode_name(w->tk), err);
	return data_fd;
}

/*
 * In the watchdog, its child the keeper, gone with it if it is killed, or
 * by its own deadline if it stalls where the watchdog cannot act (both
 * stopped), as the daemon's keeper is; at every host tick while reader,
 * the launch's process, runs.  Returns once its death would clear the
 * page: a program started before could outlive a keeper killed early and
 * read stale data.
 */
pid_t start_timekeeper(struct timekeeper *tk, pid_t reader)
{
	pid_t watchdog = getpid(), pid;
	int ready[2];
	char byte;

	if (pipe2(ready, O_CLOEXEC) < 0 || (pid = fork()) < 0)
		refuse("cannot start the timekeeper: %s", fd_error());
	if (pid) {
		close(ready[1]);
		/* It said why; the launch says it did not start. */
		if (read(ready[0], &byte, 1) != 1)
			_exit(LAUNCH_EXIT_ERROR);
		close(ready[0]);
		return pid;
	}
	prctl(PR_SET_NAME, "ppctime-tk");
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != watchdog)
		_exit(0);
	if (timekeeper_clear_mode_at_exit(tk) == 0 && timekeeper_arm_deadline(tk) == 0 &&
	    write(ready[1], "", 1) == 1) {
		close_range(3, ~0u, 0);
		timekeeper_run(tk, reader);
	}
	fprintf(stderr, "ppctime-run: timekeeper: %s\n", strerror(errno));
	_exit(1);
}

