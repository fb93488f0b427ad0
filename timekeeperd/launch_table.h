/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The launches the shared keeper serves, in its one thread: what it keeps
 * for them is bounded, since any local user may connect to the machine's
 * daemon.  One entry per process however often it connects, released
 * when the process ends; at most max in all, which its descriptors bound,
 * and max_per_user of them per uid, never more than half of max, so no
 * user can take them all; and at most CONNECTS_PER_UID connections a uid
 * per CONNECT_WINDOW_NS, so that a user's flood of connections costs that
 * user, not the keeper's updates nor the launches of others.
 */
#ifndef PPCTIME_LAUNCH_TABLE_H
#define PPCTIME_LAUNCH_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "timekeeper/timekeeper.h"

#define CONNECTS_PER_UID	64	/* a parallel build's launches, and more */
#define CONNECT_WINDOW_NS	100000000ull
#define CONNECT_WINDOW_UIDS	64	/* uids connecting in one window */

/* A launch attached: its process's pidfd, or (pid 0: a process we do not
 * see) its connection; and its process's CPU clock, whether it runs
 * setting the updates' rate. */
struct launch {
	pid_t pid;
	uid_t uid;
	int fd;
	bool looked;			/* reader holds its CPU clock */
	struct timekeeper_reader reader;
};

struct launch_table {
	struct launch *v;
	size_t n, size, max, max_per_user;
	size_t next_look;		/* where launch_table_ran() goes on */
	size_t runner;			/* the last seen running, looked at first */
	uint64_t window_ns;		/* the connection window's start */
	size_t nr_connecting;
	struct { uid_t uid; unsigned connects; } connecting[CONNECT_WINDOW_UIDS];
};

/* Whether a launch is served, or why not. */
enum launch_refusal {
	LAUNCH_SERVED,
	LAUNCH_REFUSED_USER,		/* its uid has max_per_user */
	LAUNCH_REFUSED_ALL,		/* the table has max */
	LAUNCH_REFUSED_BUSY,		/* its uid connected too often just now */
};

/*
 * The limits from the descriptors the daemon may hold (files, less what
 * it needs itself) and the per-user one asked for, which stays below
 * half the total.
 */
void launch_table_limits(struct launch_table *l, uint64_t files, size_t max_per_user);

/* A connection of uid at now: LAUNCH_REFUSED_BUSY past its budget. */
enum launch_refusal launch_table_connect(struct launch_table *l, uid_t uid, uint64_t now);

/*
 * The entry of pid, a live process, or NULL, and how many uid has: an
 * entry whose process ended (its pidfd readable, not yet seen by the
 * caller's epoll) does not count, so its pid can be someone else's.
 */
struct launch *launch_table_find(struct launch_table *l, pid_t pid, uid_t uid, size_t *of_uid);

/* Whether another launch of a uid that has of_uid may be attached. */
enum launch_refusal launch_table_room(const struct launch_table *l, size_t of_uid);

/* Attach it (fd: its pidfd, or with pid 0 its connection) and add fd to
 * the epoll set ep; false on failure. */
bool launch_table_attach(struct launch_table *l, int ep, pid_t pid, uid_t uid, int fd,
			 uint64_t now);

/* fd, a launch's, ended: closing it also takes it off epoll.  False if it
 * is no launch's. */
bool launch_table_detach(struct launch_table *l, int fd);

/* Whether the launch last seen running, or one of the next at_most, ran
 * since it was last looked at (timekeeper_reader_ran()): a system call
 * each, so a few a look, and a busy one found again at once. */
bool launch_table_ran(struct launch_table *l, size_t at_most, uint64_t now);

#endif /* PPCTIME_LAUNCH_TABLE_H */
