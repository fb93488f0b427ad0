// SPDX-License-Identifier: GPL-2.0
/*
 * Where ppctime-timekeeperd listens (daemon.h): its directory's lock and
 * sockets, systemd's (socket activation) or its own, and what it tells
 * systemd (sd_notify(3), without libsystemd).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon.h"
#include "ppctime/fail.h"
#include "timekeeperd_socket.h"

#define LOCK_WAIT_MS		1000	/* for a daemon that is exiting */

/*
 * One daemon per directory: the lock is held as long as the keeper, which
 * holds the listening sockets too, lives.  (Not the watchdog: a keeper
 * killed while its watchdog is stopped frees the directory for the next.)
 */
static int take_lock(struct daemon *d, char *why, size_t whylen)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/" TKD_LOCK, d->dir);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return fail(why, whylen, "%s: %s", path, strerror(errno));
	if (tkd_lock_within(fd, LOCK_WAIT_MS) < 0) {
		fail(why, whylen, "%s: another daemon holds it (%s)", path, strerror(errno));
		close(fd);
		return -1;
	}
	d->lock_fd = fd;
	return 0;
}

/*
 * systemd's listening sockets (socket activation): systemd starts one of
 * us at a time, and made the directory, which we may not write.  Each is
 * the path's or the abstract name's, as its address says.  1 if systemd
 * gave them, 0 if not, -1 with why.
 */
static int socket_activated(struct daemon *d, char *why, size_t whylen)
{
	const char *pid = getenv("LISTEN_PID"), *nfds = getenv("LISTEN_FDS");
	int n = nfds ? atoi(nfds) : 0;

	if (!pid || atoi(pid) != getpid() || n < 1 || n > NR_LISTENERS)
		return 0;
	for (int fd = 3; fd < 3 + n; fd++) {
		struct sockaddr_un sun;
		socklen_t len = sizeof(sun);

		if (getsockname(fd, (struct sockaddr *)&sun, &len) < 0 || sun.sun_family != AF_UNIX)
			return fail(why, whylen, "systemd passed descriptor %d, not a Unix socket",
				    fd);
		d->listeners[sun.sun_path[0] ? BY_PATH : BY_NAME] = fd;
		fcntl(fd, F_SETFD, FD_CLOEXEC);
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	}
	return 1;
}

/* Listening on path (of mode), or with abstract on its name in the
 * abstract namespace; -1 with errno. */
static int listen_on(const char *path, bool abstract, mode_t mode)
{
	struct sockaddr_un sun;
	socklen_t len = tkd_socket_address(&sun, path, abstract);
	int fd, saved;

	if (!len)
		return -1;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&sun, len) == 0 &&
	    (abstract || chmod(path, mode) == 0) && listen(fd, 128) == 0)
		return fd;
	saved = errno;
	close(fd);
	errno = saved;
	return -1;
}

/*
 * Our own at DIR/TKD_SOCKET, under the lock, and by its name.  The name is
 * anyone's to take: if another process holds it, launches in chroots keep
 * their own timekeepers, and we say so.
 */
static int bind_sockets(struct daemon *d, char *why, size_t whylen)
{
	/* Under the lock: what is there is a dead daemon's. */
	unlink(d->socket);
	d->listeners[BY_PATH] = listen_on(d->socket, false, d->system ? 0666 : 0600);
	if (d->listeners[BY_PATH] < 0)
		return fail(why, whylen, "%s: %s", d->socket, strerror(errno));
	d->own_socket = true;
	d->listeners[BY_NAME] = listen_on(d->socket, true, 0);
	if (d->listeners[BY_NAME] < 0)
		fprintf(stderr, "ppctime-timekeeperd: @%s: %s: launches in chroots will not "
			"find this daemon\n", d->socket, strerror(errno));
	return 0;
}

int daemon_listen(struct daemon *d, char *why, size_t whylen)
{
	int r;

	snprintf(d->socket, sizeof(d->socket), "%s/" TKD_SOCKET, d->dir);
	r = socket_activated(d, why, whylen);
	if (r)
		return r < 0 ? -1 : 0;
	/* Root's, 0755: every user's launches connect there.  Any other is
	 * ours alone: no one else may replace our socket. */
	if (d->system ? tkd_make_dir(d->dir, 0755, why, whylen) ||
			tkd_check_system_dir(why, whylen)
		      : tkd_check_dir(d->dir, getuid(), S_IWGRP | S_IWOTH, why, whylen))
		return -1;
	if (take_lock(d, why, whylen))
		return -1;
	return bind_sockets(d, why, whylen);
}

/*
 * READY=1 once the pages are armed, then WATCHDOG=1 from the keeper
 * itself, so that a daemon stuck as a whole (keeper and watchdog both
 * stopped) is killed by systemd, and its pages go to mode NONE.
 */
void daemon_notify_open(struct daemon *d)
{
	const char *path = getenv("NOTIFY_SOCKET"), *usec = getenv("WATCHDOG_USEC");
	struct daemon_notify *n = &d->notify;

	n->fd = -1;
	if (!path || (path[0] != '/' && path[0] != '@'))
		return;
	n->len = tkd_socket_address(&n->addr, path + (path[0] == '@'), path[0] == '@');
	if (!n->len)
		return;
	n->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	/* Pinged four times per period: a missed ping or two is no death. */
	if (usec && strtoull(usec, NULL, 10))
		n->watchdog_every = strtoull(usec, NULL, 10) * d->status->update_hz /
				    1000000 / 4 + 1;
}

void daemon_notify(const struct daemon *d, const char *what)
{
	if (d->notify.fd >= 0)
		sendto(d->notify.fd, what, strlen(what), MSG_NOSIGNAL | MSG_DONTWAIT,
		       (struct sockaddr *)&d->notify.addr, d->notify.len);
}
