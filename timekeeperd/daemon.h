/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What ppctime-timekeeperd's files share: the daemon's state and its
 * parts.  ppctime-timekeeperd.c holds main() and the flow;
 * daemon_options.c the command line and the daemon's limits;
 * daemon_listen.c its directory's lock, its listening sockets (systemd's,
 * by socket activation, or its own) and systemd's notifications;
 * daemon_keeper.c the pages and the keeper's loop; daemon_watch.c the
 * watchdog's, on keeper_watch.h's watchdog.  Each function that can fail
 * returns -1 with why (ppctime/fail.h); only main() says it and exits.
 */
#ifndef PPCTIME_DAEMON_H
#define PPCTIME_DAEMON_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>

#include "launch_table.h"
#include "ppctime/timekeeperd_protocol.h"
#include "timekeeper/keeper_watch.h"
#include "timekeeper/timekeeper.h"

/* Where launches come from: the socket's path, and the same name in the
 * abstract namespace, for launches in a chroot that does not show it. */
enum { BY_PATH, BY_NAME, NR_LISTENERS };

/* systemd's notification socket (sd_notify(3), without libsystemd). */
struct daemon_notify {
	int fd;				/* -1: none given */
	struct sockaddr_un addr;
	socklen_t len;
	uint64_t watchdog_every;	/* updates between WATCHDOG=1; 0: none */
};

struct daemon {
	const char *dir;
	char socket[PATH_MAX];
	bool system;			/* the machine's: it serves every user */
	bool own_socket;		/* bound here, not systemd's */
	unsigned idle_s;		/* 0: live for ever */
	int ready_fd, listeners[NR_LISTENERS];	/* -1: none */
	int lock_fd;			/* the keeper's alone once it runs */
	struct timekeeper_options options;
	struct timekeeper *tk;		/* pages per target and layout */
	void *pages[TKD_NR_DATA];	/* the keeper's to write */
	int fds[TKD_NR_FDS];		/* read-only, for launches */
	struct tkd_status *status;	/* shared with the watchdog */
	struct launch_table launches;	/* the keeper's */
	struct daemon_notify notify;	/* the keeper's */
};

/*
 * daemon_options.c: the command line into d.  0; 1 if --help was asked
 * (main() prints daemon_usage() on stdout); 2 for a bad one (on stderr,
 * status 1); -1 with why.
 */
int daemon_options(int argc, char **argv, struct daemon *d, char *why, size_t whylen);
void daemon_usage(FILE *to);

/* daemon_listen.c: d's directory, locked, and its listening sockets:
 * systemd's, else bound here.  0, or -1 with why. */
int daemon_listen(struct daemon *d, char *why, size_t whylen);
/* In the keeper: systemd's notification socket, if it gave one, and a
 * message there (READY=1, WATCHDOG=1), if so. */
void daemon_notify_open(struct daemon *d);
void daemon_notify(const struct daemon *d, const char *what);

/* daemon_keeper.c: the sealed pages, calibrated; 0, or -1 with why. */
int daemon_create_pages(struct daemon *d, char *why, size_t whylen);
/* In the watchdog: the keeper's things let go (the pages unmapped, the
 * sockets, lock and ready pipe closed). */
void daemon_leave_to_keeper(struct daemon *d);
/* The keeper's life, in its process: arms the pages, says it is ready,
 * updates and serves until idle (0), or -1 with why. */
int daemon_keep(struct daemon *d, char *why, size_t whylen);

/* daemon_watch.c: the watchdog's loop, until the keeper ends, stalls or a
 * signal of also (keeper_watchdog_fork()) comes: what ended it. */
enum keeper_event daemon_watch(struct keeper_watchdog *wd, int *status, char *why,
			       size_t whylen);

#endif /* PPCTIME_DAEMON_H */
