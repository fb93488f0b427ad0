// SPDX-License-Identifier: GPL-2.0
/*
 * A launch attaching to ppctime-timekeeperd (timekeeperd_client.h).
 *
 * Trust: the machine's socket counts only in a directory root alone can
 * write (a systemd socket unit's); the user's only in one the user alone
 * can, with the peer running as the user.  Where that directory is not
 * seen (a chroot), the same name in the abstract namespace counts only
 * if its peer runs as root (systemd, who listens for the machine's
 * daemon) or as the user: anyone may bind an abstract name, no one
 * another's uid.  What is handed over is proved
 * by the kernel, not by the daemon's word: each file is a memfd sealed
 * against writes and new writable mappings, open read-only, and the
 * status page shows an update within the last STALE_MS.
 */
#define _GNU_SOURCE
#include "timekeeperd_client.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fail.h"
#include "timekeeperd_protocol.h"
#include "vdso/datapage.h"

/*
 * A page whose last update is older than this is not taken: the daemon's
 * watchdog kills a keeper stopped for 20 ms, one stuck otherwise after
 * 200 ms (as ppctime-run's own did), so a page older than that is dying.
 */
#define STALE_MS	250
#define HELLO_TIMEOUT_MS 500	/* a socket-activated one calibrates first */
#define START_TIMEOUT_MS 3000	/* calibration, mirror validation, threads */
#define NEEDED_SEALS	(F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_FUTURE_WRITE)

static const struct timekeeper_target tkd_targets[] = {
#define TKD_TARGET(n, tr, cls, be, ...) { .is64 = (cls) == 64, .big_endian = be },
	PPCTIME_TARGETS(TKD_TARGET)
#undef TKD_TARGET
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* A directory of uid's that no one else can write. */
static int check_dir(const char *dir, uid_t uid, mode_t forbidden, char *why, size_t whylen)
{
	struct stat st;

	if (lstat(dir, &st) < 0)
		return fail(why, whylen, "%s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return fail(why, whylen, "%s is not a directory", dir);
	if (st.st_uid != uid)
		return fail(why, whylen, "%s belongs to uid %u, not %u", dir,
			    (unsigned)st.st_uid, (unsigned)uid);
	if (st.st_mode & forbidden)
		return fail(why, whylen, "%s has mode %03o: others may write there", dir,
			    (unsigned)(st.st_mode & 0777));
	return 0;
}

int tkd_user_dir(char *buf, size_t len, bool create, char *why, size_t whylen)
{
	const char *runtime = getenv("XDG_RUNTIME_DIR"), *own = getenv(TKD_ENV);
	char fallback[64];

	/* Tests and benchmarks: a directory of their own, nothing else. */
	if (own && own[0] == '/') {
		if ((size_t)snprintf(buf, len, "%s", own) >= len)
			return fail(why, whylen, "%s: name too long", own);
	} else {
		if (!runtime || runtime[0] != '/') {
			snprintf(fallback, sizeof(fallback), "/run/user/%u", (unsigned)getuid());
			runtime = fallback;
		}
		if ((size_t)snprintf(buf, len, "%s/" TKD_USER_SUBDIR, runtime) >= len)
			return fail(why, whylen, "%s: name too long", runtime);
		if (check_dir(runtime, getuid(), S_IWGRP | S_IWOTH, why, whylen))
			return -1;
	}
	if (create && mkdir(buf, 0700) < 0 && errno != EEXIST)
		return fail(why, whylen, "cannot create %s: %s", buf, strerror(errno));
	return check_dir(buf, getuid(), 077, why, whylen);
}

int tkd_lock_within(int fd, int ms)
{
	for (int waited = 0; flock(fd, LOCK_EX | LOCK_NB) < 0; waited += 10) {
		if (errno != EWOULDBLOCK || waited >= ms)
			return -1;
		usleep(10000);
	}
	return 0;
}

socklen_t tkd_socket_address(struct sockaddr_un *sun, const char *path, bool abstract)
{
	size_t len = strlen(path);

	if (len + abstract >= sizeof(sun->sun_path)) {
		errno = ENAMETOOLONG;
		return 0;
	}
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	memcpy(sun->sun_path + abstract, path, len);
	return offsetof(struct sockaddr_un, sun_path) + abstract + len;
}

/*
 * Connected to the socket at path, or with abstract to the one of the same
 * name in the abstract namespace; -1 with errno (ENOENT, ECONNREFUSED: no
 * daemon).
 */
static int connect_to(const char *path, bool abstract)
{
	struct sockaddr_un sun;
	socklen_t len = tkd_socket_address(&sun, path, abstract);
	int fd, saved;

	if (!len)
		return -1;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sun, len) == 0)
		return fd;
	saved = errno;
	close(fd);
	errno = saved;
	return -1;
}

/* The daemon's socket, or the name it also listens on where a chroot does
 * not show the file (a->socket: "@" and the name then). */
static int connect_either(struct tkd_attach *a, const char *dir, bool dir_trusted)
{
	int sock = -1;

	if ((size_t)snprintf(a->socket, sizeof(a->socket), "@%s/" TKD_SOCKET, dir) >=
	    sizeof(a->socket)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (dir_trusted)
		sock = connect_to(a->socket + 1, false);
	if (sock >= 0)
		memmove(a->socket, a->socket + 1, strlen(a->socket));
	else if (!dir_trusted || errno == ENOENT || errno == ECONNREFUSED)
		sock = connect_to(a->socket + 1, true);
	return sock;
}

/* The hello and its descriptors; fds[] -1 where none came.  -2: no answer,
 * -3: hung up. */
static int receive_hello(int sock, struct tkd_hello *h, int fds[TKD_NR_FDS],
			 char *why, size_t whylen)
{
	union {
		char buf[CMSG_SPACE(TKD_NR_FDS * sizeof(int))];
		struct cmsghdr align;
	} control;
	struct iovec iov = { h, sizeof(*h) };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = control.buf, .msg_controllen = sizeof(control.buf),
	};
	struct pollfd p = { sock, POLLIN, 0 };
	ssize_t n;

	for (int i = 0; i < TKD_NR_FDS; i++)
		fds[i] = -1;
	if (poll(&p, 1, HELLO_TIMEOUT_MS) != 1)
		return fail(why, whylen, "no answer in %d ms", HELLO_TIMEOUT_MS) - 1;
	n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
			size_t got = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);

			for (size_t i = 0; i < got && i < TKD_NR_FDS; i++)
				memcpy(&fds[i], CMSG_DATA(c) + i * sizeof(int), sizeof(int));
		}
	if (n < 0)
		return fail(why, whylen, "recvmsg: %s", strerror(errno));
	if (n == 0)
		return fail(why, whylen, "it hung up (exiting?)") - 2;
	if (n != sizeof(*h) || h->magic != TKD_MAGIC || h->version != TKD_VERSION ||
	    h->nr_fds != TKD_NR_FDS || fds[TKD_NR_FDS - 1] < 0 || msg.msg_flags & MSG_CTRUNC)
		return fail(why, whylen, "not a ppctime-timekeeperd of version %d", TKD_VERSION);
	return 0;
}

/* Proved by the kernel: sealed against writing, open read-only, big enough. */
static int check_file(int fd, uint64_t size, const char *what, char *why, size_t whylen)
{
	struct stat st;
	int seals = fcntl(fd, F_GET_SEALS);

	if (seals < 0 || (seals & NEEDED_SEALS) != NEEDED_SEALS)
		return fail(why, whylen, "its %s is not a memfd sealed against writing", what);
	if ((fcntl(fd, F_GETFL) & O_ACCMODE) != O_RDONLY)
		return fail(why, whylen, "its %s was not handed over read-only", what);
	if (fstat(fd, &st) < 0 || (uint64_t)st.st_size < size)
		return fail(why, whylen, "its %s is smaller than %" PRIu64 " bytes", what, size);
	return 0;
}

/* The status page moved within STALE_MS: the keeper lives and keeps up
 * (-2 if not). */
static int check_fresh(int fd, struct tkd_attach *a, char *why, size_t whylen)
{
	const struct tkd_status *st = mmap(NULL, sizeof(*st), PROT_READ, MAP_SHARED, fd, 0);
	uint64_t last, now;
	int r = 0;

	if (st == MAP_FAILED)
		return fail(why, whylen, "cannot map its status: %s", strerror(errno));
	last = __atomic_load_n(&st->last_update_ns, __ATOMIC_ACQUIRE);
	now = mono_ns();
	if (st->magic != TKD_MAGIC || st->version != TKD_VERSION)
		r = fail(why, whylen, "its status page is not version %d", TKD_VERSION);
	else if (now > last && now - last > STALE_MS * 1000000ull)
		r = fail(why, whylen, "it is stalled: no update in %" PRIu64 " ms",
			 (now - last) / 1000000) - 1;
	a->pid = st->pid;
	snprintf(a->describe, sizeof(a->describe), "%.*s", (int)sizeof(st->describe),
		 st->describe);
	munmap((void *)st, sizeof(*st));
	return r;
}

/*
 * Start the user's daemon in dir, detached (its own session, /dev/null for
 * stdio: no one waiting for a pipe to close waits for it), and wait until
 * it listens.  The caller holds the spawn lock.
 */
static int spawn(const char *daemon_path, const char *dir, char *why, size_t whylen)
{
	int ready[2];
	char byte, dir_arg[PATH_MAX + 16];
	struct pollfd p;
	pid_t pid;

	snprintf(dir_arg, sizeof(dir_arg), "--socket-dir=%s", dir);
	if (pipe2(ready, O_CLOEXEC) < 0 || (pid = fork()) < 0)
		return fail(why, whylen, "cannot start %s: %s", daemon_path, strerror(errno));
	if (!pid) {
		int null = open("/dev/null", O_RDWR), log;
		char log_path[PATH_MAX + 32];

		setsid();
		if (fork())
			_exit(0);	/* the daemon is init's child, not ours */
		if (null >= 0)
			for (int i = 0; i < 3; i++)
				dup2(null, i);
		/* Its rare words (a keeper it killed) are kept beside its socket. */
		snprintf(log_path, sizeof(log_path), "%s/" TKD_LOG, dir);
		log = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (log >= 0)
			dup2(log, STDERR_FILENO);
		if (dup2(ready[1], 3) == 3) {
			close_range(4, ~0u, 0);
			execl(daemon_path, "ppctime-timekeeperd", dir_arg, "--idle-exit=30",
			      "--ready-fd=3", (char *)NULL);
		}
		_exit(127);
	}
	close(ready[1]);
	waitpid(pid, NULL, 0);
	p = (struct pollfd){ ready[0], POLLIN, 0 };
	if (poll(&p, 1, START_TIMEOUT_MS) != 1 || read(ready[0], &byte, 1) != 1) {
		close(ready[0]);
		return fail(why, whylen, "%s did not start", daemon_path);
	}
	close(ready[0]);
	return 0;
}

/*
 * Kill the user's stuck daemon and wait, up to START_TIMEOUT_MS, until its
 * directory lock is free: both processes are gone, their listening socket
 * with them, so the next connect starts another instead of waiting on it.
 * (Found by its abstract name, its directory is not seen: no wait.)
 */
static void end_stuck(const struct tkd_attach *a)
{
	char lock[PATH_MAX + 16];
	const char *slash = strrchr(a->socket, '/');
	int fd;

	kill(a->watchdog, SIGKILL);
	if (a->socket[0] != '/')
		return;
	snprintf(lock, sizeof(lock), "%.*s/" TKD_LOCK, (int)(slash - a->socket), a->socket);
	fd = open(lock, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return;
	tkd_lock_within(fd, START_TIMEOUT_MS);
	close(fd);
}

/* The peer's credentials (for a listening socket's, of who called listen()). */
static struct ucred peer_of(int sock)
{
	struct ucred peer = { .pid = 0, .uid = (uid_t)-1 };
	socklen_t len = sizeof(peer);

	getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &peer, &len);
	return peer;
}

/*
 * The user's daemon, started if none answers (under the spawn lock) by a
 * launch that may: one whose directory is seen and trusted.
 */
static int connect_user(struct tkd_attach *a, const char *daemon_path, char *why, size_t whylen)
{
	char dir[PATH_MAX], lock[PATH_MAX + 16];
	bool trusted = !tkd_user_dir(dir, sizeof(dir), daemon_path != NULL, why, whylen);
	int sock = connect_either(a, dir, trusted), lock_fd, saved = errno;

	if (sock >= 0 || !trusted || !daemon_path || (errno != ENOENT && errno != ECONNREFUSED)) {
		size_t used = trusted ? 0 : strlen(why);

		if (sock < 0)
			snprintf(why + used, whylen - used, "%s%s: %s", used ? "; " : "",
				 a->socket, strerror(saved));
		return sock;
	}
	snprintf(lock, sizeof(lock), "%s/" TKD_SPAWN_LOCK, dir);
	lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (lock_fd < 0 || flock(lock_fd, LOCK_EX) < 0) {
		fail(why, whylen, "%s: %s", lock, strerror(errno));
		if (lock_fd >= 0)
			close(lock_fd);
		return -1;
	}
	/* Another launch may have started it while we waited for the lock. */
	sock = connect_either(a, dir, true);
	if (sock < 0 && spawn(daemon_path, dir, why, whylen) == 0) {
		a->started = true;
		sock = connect_either(a, dir, true);
		if (sock < 0)
			fail(why, whylen, "%s: %s", a->socket, strerror(errno));
	}
	close(lock_fd);
	return sock;
}

static int connect_daemon(struct tkd_attach *a, const char *daemon_path, char *why, size_t whylen)
{
	const char *own = getenv(TKD_ENV);
	char system_why[256];
	struct ucred peer;
	int sock;

	if (own && !strcmp(own, "off"))
		return fail(why, whylen, TKD_ENV "=off");
	/* The machine's first: in root's directory, whoever serves it. */
	if (!own || own[0] != '/') {
		sock = connect_either(a, TKD_SYSTEM_DIR,
				      !check_dir(TKD_SYSTEM_DIR, 0, S_IWGRP | S_IWOTH,
						 system_why, sizeof(system_why)));
		if (sock >= 0 && (a->socket[0] == '/' || peer_of(sock).uid == 0))
			return sock;
		if (sock >= 0)
			close(sock);
	}
	sock = connect_user(a, daemon_path, why, whylen);
	if (sock < 0)
		return -1;
	peer = peer_of(sock);
	if (peer.uid != getuid()) {
		close(sock);
		return fail(why, whylen, "%s is served by uid %u, not this user", a->socket,
			    (unsigned)peer.uid);
	}
	/* The socket is the watchdog's: it bound it before forking the keeper. */
	a->watchdog = peer.pid;
	a->ours = true;
	return sock;
}

int tkd_attach(struct tkd_attach *a, const struct timekeeper_target *t,
	       unsigned long page_size, const char *daemon_path,
	       char *why, size_t whylen)
{
	struct tkd_hello h;
	int fds[TKD_NR_FDS], index = -1, r = -1;

	memset(a, 0, sizeof(*a));
	a->sock = a->data_fd = -1;
	for (int i = 0; i < TKD_NR_TARGETS; i++)
		if (tkd_targets[i].is64 == t->is64 && tkd_targets[i].big_endian == t->big_endian)
			index = i;
	if (index < 0 || page_size > TKD_MAX_PAGE_SIZE)
		return fail(why, whylen, "it serves no such target or page size");
	/*
	 * A daemon exiting for idleness hangs up on a launch that came just
	 * then: that launch starts the next one.  One of ours that does not
	 * answer is stuck (stopped?): programs running now may read its
	 * pages.  The watchdog's death takes the keeper (PR_SET_PDEATHSIG),
	 * whose death puts them in mode NONE; the next try starts another.
	 */
	for (int tries = 0; tries < 2 && r; tries++) {
		if (tries && r == -2 && a->ours && a->watchdog > 1 && a->watchdog != getpid()) {
			end_stuck(a);
		} else if (tries && r != -3) {
			break;
		}
		if (a->sock >= 0)
			close(a->sock);
		a->watchdog = 0;
		a->ours = false;
		a->sock = connect_daemon(a, daemon_path, why, whylen);
		if (a->sock < 0)
			return -1;
		r = receive_hello(a->sock, &h, fds, why, whylen);
		if (r)
			for (int i = 0; i < TKD_NR_FDS; i++)
				if (fds[i] >= 0)
					close(fds[i]);
	}
	if (!r && h.page_bytes < VDSO_NR_PAGES * page_size)
		r = fail(why, whylen, "its pages are %" PRIu64 " bytes, not %lu", h.page_bytes,
			 VDSO_NR_PAGES * page_size);
	if (!r)
		r = check_file(fds[0], sizeof(struct tkd_status), "status page", why, whylen);
	if (!r)
		r = check_file(fds[1 + index], VDSO_NR_PAGES * page_size, "data page", why, whylen);
	if (!r)
		r = check_fresh(fds[0], a, why, whylen);
	/* Stale: the same, but there is no time left to start another. */
	if (r == -2 && a->ours && a->watchdog > 1 && a->watchdog != getpid())
		kill(a->watchdog, SIGKILL);
	for (int i = 0; i < TKD_NR_FDS; i++)
		if (fds[i] >= 0 && (r || i != 1 + index))
			close(fds[i]);
	if (r) {
		close(a->sock);
		a->sock = -1;
		return -1;
	}
	a->data_fd = fds[1 + index];
	if (h.flags & TKD_HELLO_PID_WATCHED) {
		close(a->sock);
		a->sock = -1;
	}
	return 0;
}
