// SPDX-License-Identifier: GPL-2.0
/*
 * A launch's data pages (run.h): the shared timekeeper's
 * (timekeeperd_client.h), or pages of its own and the timekeeper that
 * keeps them, which the watchdog starts.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ppctime/vdso_layout.h"
#include "run.h"
#include "timekeeper/sealed_pages.h"
#include "timekeeperd/timekeeperd_client.h"

/*
 * The shared timekeeper's page for t, if one can be had: the machine's
 * daemon, or the user's, started now if need be.  A launch without one
 * (1) keeps its own timekeeper and, with -v, says why; -1: refused.
 */
static int attach_daemon(const struct qemu_launch *q, const struct request *req,
			 struct tkd_attach *daemon, struct run_error *e)
{
	char why[512], *path = NULL;
	int r;

	/* The chroot handler has no files but its own: a daemon it finds. */
	if (!req->bundle && support_daemon(&path, e))
		return -1;
	r = tkd_attach(daemon, &q->data, q->page_size, path, why, sizeof(why));
	if (r && req->verbose)
		fprintf(stderr, "ppctime-run: no timekeeper daemon (%s%s): using a private "
			"timekeeper\n", why, path ? "" : "; ppctime-timekeeperd not installed");
	free(path);
	return r ? 1 : 0;
}

/*
 * The data pages for a t program with q's page size and layout: the
 * shared timekeeper's, w holding the daemon's socket, or new ones, w
 * holding them and the launch's own timekeeper, ready for the watchdog to
 * start (run_watch.c).  Their descriptor, a data file as the loader maps
 * it (ppctime/launch_protocol.h), or -1.
 */
int take_data_pages(struct watch *w, const struct ppctime_target *t, const struct request *req,
		    const struct qemu_launch *q, struct run_error *e)
{
	const char *layout = vdso_layout_name(q->data.layout);
	struct timekeeper_options options = req->tk_options;
	struct tkd_attach daemon;
	char err[512];
	int data_fd, r = req->private_keeper ? 1 : attach_daemon(q, req, &daemon, e);

	if (r < 0)
		return -1;
	if (r == 0) {
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
	/* Shared with the timekeeper (read-write here) and the guest, which
	 * the seals keep to reading them. */
	w->pages_len = vdso_layout_find(q->data.layout)->nr_pages * LAUNCH_DATA_STRIDE;
	data_fd = sealed_pages_create("ppctime-vdso-data", "the vDSO data pages", w->pages_len,
				      &w->pages, err, sizeof(err));
	if (data_fd < 0)
		return refuse(e, "%s", err);
	options.page_size = LAUNCH_DATA_STRIDE;
	/* Shared, so the watchdog sees the keeper's update count move. */
	w->tk = timekeeper_create();
	if (!w->tk)
		return refuse(e, "cannot map the timekeeper's state: %s", strerror(errno));
	if (timekeeper_init(w->tk, w->pages, &q->data, &options, err, sizeof(err)) < 0)
		return refuse(e, "cannot start the timekeeper: %s", err);
	if (req->verbose && timekeeper_describe(w->tk, err, sizeof(err)) >= 0)
		fprintf(stderr, "ppctime-run: %s vDSO %s, %lu-byte pages, %s layout, private "
			"timekeeper mode: %s\n"
			"ppctime-run: %s\n",
			t->name, q->image_name, q->page_size, layout,
			timekeeper_mode_name(w->tk), err);
	return data_fd;
}
