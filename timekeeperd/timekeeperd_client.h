/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A launch's side of ppctime-timekeeperd (timekeeperd_protocol.h): find
 * the machine's or the user's daemon, start the user's if there is none,
 * and take the data file for one target once it is proved sealed,
 * read-only and fresh.
 */
#ifndef TIMEKEEPERD_CLIENT_H
#define TIMEKEEPERD_CLIENT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>

#include "timekeeper.h"

struct tkd_attach {
	int sock;		/* held while the program runs, hanging up when
				   the daemon dies; -1 if the daemon watches
				   this process instead */
	int data_fd;		/* the target's data file, read-only */
	pid_t pid;		/* the keeper's */
	pid_t watchdog;		/* the user's daemon's, its socket's peer */
	bool started;		/* this launch started the daemon */
	bool ours;		/* the user's daemon, not the machine's */
	char socket[PATH_MAX];	/* its path, or "@" and its abstract name */
	char describe[384];
};

/*
 * Attach to a daemon for a t program with page_size-byte pages, starting
 * the user's from daemon_path (NULL: never) if none answers.  Returns 0,
 * or -1 with why (the launch then keeps its own timekeeper).
 */
int tkd_attach(struct tkd_attach *a, const struct timekeeper_target *t,
	       unsigned long page_size, const char *daemon_path,
	       char *why, size_t whylen);

/*
 * The user's directory for the daemon, $XDG_RUNTIME_DIR/ppctime (or
 * /run/user/UID/ppctime), into buf, with create made 0700 if need be; 0,
 * or -1 with why if there is none this user alone can write (buf still
 * names it, if the name fits).
 */
int tkd_user_dir(char *buf, size_t len, bool create, char *why, size_t whylen);

/*
 * The address of the Unix socket at path, or with abstract of the one
 * named path in the abstract namespace, into sun; its length, or 0 with
 * errno ENAMETOOLONG.
 */
socklen_t tkd_socket_address(struct sockaddr_un *sun, const char *path, bool abstract);

/*
 * The overflow uid (/proc/sys/kernel/overflowuid): how every user unmapped
 * in the reader's user namespace shows, and so no one's in particular.
 */
uid_t tkd_overflow_uid(void);

/*
 * Whether this process reads the initial time namespace's clocks, as the
 * daemons do (true too where that cannot be told: no /proc, no time
 * namespaces).
 */
bool tkd_initial_time_ns(void);

/*
 * An exclusive flock on fd, tried every 10 ms for up to ms: a daemon's
 * directory lock, held while it lives.  0, or -1 with errno (EWOULDBLOCK:
 * still held).
 */
int tkd_lock_within(int fd, int ms);

#endif /* TIMEKEEPERD_CLIENT_H */
