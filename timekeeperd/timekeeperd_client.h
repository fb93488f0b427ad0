/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A launch's side of ppctime-timekeeperd (ppctime/timekeeperd_protocol.h): find
 * the machine's or the user's daemon, start the user's if there is none
 * (root's with no runtime directory: the machine's), and take the data
 * file for one target once it is proved sealed, read-only and fresh.
 */
#ifndef TIMEKEEPERD_CLIENT_H
#define TIMEKEEPERD_CLIENT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "ppctime/page_target.h"

struct tkd_attach {
	int sock;		/* held while the program runs, hanging up when
				   the daemon dies; -1 if the daemon watches
				   this process instead */
	int data_fd;		/* the target's and layout's data file, read-only */
	pid_t pid;		/* the keeper's */
	pid_t watchdog;		/* the user's daemon's, its socket's peer */
	bool started;		/* this launch started the daemon */
	bool ours;		/* the one this user starts (tkd_user_dir()),
				   not the machine's found first */
	char socket[PATH_MAX];	/* its path, or "@" and its abstract name */
	char describe[384];
};

/*
 * Attach to a daemon for a t program (its target and the layout its vDSO
 * reads) with page_size-byte pages, starting
 * the user's (root's with no runtime directory: the machine's) from
 * daemon_path (NULL: never) if none answers.  Returns 0, or -1 with why
 * (the launch then keeps its own timekeeper).
 */
int tkd_attach(struct tkd_attach *a, const struct timekeeper_target *t,
	       unsigned long page_size, const char *daemon_path,
	       char *why, size_t whylen);

#endif /* TIMEKEEPERD_CLIENT_H */
