// SPDX-License-Identifier: GPL-2.0
/*
 * A launch attaching to ppctime-timekeeperd (timekeeperd_client.h).
 *
 * Trust: the machine's socket counts only in a directory root alone can
 * write (a systemd socket unit's, or the one root's launch makes where
 * there is no systemd); the user's only in one the user alone can, with
 * the peer running as the user.  Where that directory is not seen (a
 * chroot), the same name in the abstract namespace counts only if its
 * peer runs as root (systemd, who listens for the machine's daemon) or as
 * the user: anyone may bind an abstract name, no one another's uid.  The overflow uid is no one's: it is how every user
 * unmapped in our user namespace shows (and "nobody"), so a launch
 * running as it, or a peer showing it, is never trusted.  A launch outside
 * the initial time namespace takes no shared pages: they hold the initial
 * namespace's clocks.  What is handed over is proved by the kernel, not
 * by the daemon's word: each file is a memfd sealed against writes and
 * new writable mappings, open read-only, and the status page shows an
 * update within the last TKD_STALE_MS, and none in the future
 * (timekeeperd_trust.h decides, on what the kernel says).
 *
 * Nothing waits unbounded: a connect gets CONNECT_TIMEOUT_MS, the hello
 * HELLO_TIMEOUT_MS, the spawn lock and a new daemon START_TIMEOUT_MS each.
 */
#define _GNU_SOURCE
#include "timekeeperd/timekeeperd_client.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ppctime/fail.h"
#include "ppctime/timekeeperd_protocol.h"
#include "timekeeper/host_clock_ns.h"
#include "timekeeperd_socket.h"
#include "timekeeperd_trust.h"

#define CONNECT_TIMEOUT_MS 500	/* a full backlog: the daemon takes no one */
#define HELLO_TIMEOUT_MS 500	/* a socket-activated one calibrates first */
#define START_TIMEOUT_MS 3000	/* calibration, mirror validation, threads */

/*
 * Connected to the socket at path, or with abstract to the one of the same
 * name in the abstract namespace; -1 with errno (ENOENT, ECONNREFUSED: no
 * daemon; ETIMEDOUT: its backlog stayed full for CONNECT_TIMEOUT_MS).  A
 * Unix socket's connect() would wait for room in the backlog for ever: it
 * is non-blocking, and tried again every 10 ms.
 */
static int connect_to(const char *path, bool abstract)
{
	struct sockaddr_un sun;
	socklen_t len = tkd_socket_address(&sun, path, abstract);
	int fd, r, saved;

	if (!len)
		return -1;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	for (int waited = 0;; waited += 10) {
		r = connect(fd, (struct sockaddr *)&sun, len);
		if (r == 0 || errno != EAGAIN)
			break;
		if (waited >= CONNECT_TIMEOUT_MS) {
			errno = ETIMEDOUT;
			break;
		}
		usleep(10000);
	}
	if (r == 0)
		return fd;
	saved = errno;
	close(fd);
	errno = saved;
	return -1;
}

/* a->socket: DIR/TKD_SOCKET, or with abstract "@" and that name; NULL
 * with errno if it does not fit. */
static const char *socket_name(struct tkd_attach *a, const char *dir, bool abstract)
{
	if ((size_t)snprintf(a->socket, sizeof(a->socket), "%s%s/" TKD_SOCKET,
			     abstract ? "@" : "", dir) >= sizeof(a->socket)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return a->socket;
}

/* The daemon's socket in a trusted dir, or, where a chroot does not show
 * it (or nothing listens there), the name it also listens on. */
static int connect_either(struct tkd_attach *a, const char *dir, bool dir_trusted)
{
	int sock;

	if (dir_trusted) {
		if (!socket_name(a, dir, false))
			return -1;
		sock = connect_to(a->socket, false);
		if (sock >= 0 || (errno != ENOENT && errno != ECONNREFUSED))
			return sock;
	}
	if (!socket_name(a, dir, true))
		return -1;
	return connect_to(a->socket + 1, true);
}

/* The hello and its descriptors; fds[] -1 where none came.  -2: no answer,
 * -3: hung up (a daemon exiting for idleness closes its backlog: reset). */
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
	int got = 0;

	for (int i = 0; i < TKD_NR_FDS; i++)
		fds[i] = -1;
	if (poll(&p, 1, HELLO_TIMEOUT_MS) != 1)
		return fail(why, whylen, "no answer in %d ms", HELLO_TIMEOUT_MS) - 1;
	n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
			size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);

			for (size_t i = 0; i < n && got < TKD_NR_FDS; i++)
				memcpy(&fds[got++], CMSG_DATA(c) + i * sizeof(int), sizeof(int));
		}
	if (n == 0 || (n < 0 && errno == ECONNRESET))
		return fail(why, whylen, "it hung up (exiting?)") - 2;
	if (n < 0)
		return fail(why, whylen, "recvmsg: %s", strerror(errno));
	return tkd_check_hello(h, n, msg.msg_flags, got, why, whylen);
}

/* Proved by the kernel: sealed against writing, open read-only, big enough. */
static int check_file(int fd, uint64_t size, const char *what, char *why, size_t whylen)
{
	struct stat st;

	return tkd_check_sealed(fcntl(fd, F_GET_SEALS), fcntl(fd, F_GETFL) & O_ACCMODE,
				fstat(fd, &st) < 0 ? 0 : (uint64_t)st.st_size, size, what,
				why, whylen);
}

/* The status page moved within TKD_STALE_MS: the keeper lives and keeps
 * up (-2 if not).  An update ahead of our clock is another time
 * namespace's (a launch without /proc cannot tell otherwise): refused,
 * not killed. */
static int check_fresh(int fd, struct tkd_attach *a, char *why, size_t whylen)
{
	const struct tkd_status *st = mmap(NULL, sizeof(*st), PROT_READ, MAP_SHARED, fd, 0);
	uint64_t last;
	int r;

	if (st == MAP_FAILED)
		return fail(why, whylen, "cannot map its status: %s", strerror(errno));
	last = __atomic_load_n(&st->last_update_ns, __ATOMIC_ACQUIRE);
	if (st->magic != TKD_MAGIC || st->version != TKD_VERSION)
		r = fail(why, whylen, "its status page is not version %d", TKD_VERSION);
	else
		r = tkd_check_fresh(last, clock_ns(CLOCK_MONOTONIC), why, whylen);
	a->pid = st->pid;
	snprintf(a->describe, sizeof(a->describe), "%.*s", (int)sizeof(st->describe),
		 st->describe);
	munmap((void *)st, sizeof(*st));
	return r;
}

/*
 * What the daemon's process takes of the launch that starts it: nothing
 * a service manager would not give it.  Its limits are the hard ones (a
 * root launch's, which root may raise, are lifted; the daemon sets its
 * descriptors itself), its priority the default (as far as the launch
 * may raise it: a user's daemon serves that user alone), umask 022.
 */
static void as_a_service(void)
{
	static const int lifted[] = {
		RLIMIT_CPU, RLIMIT_FSIZE, RLIMIT_DATA, RLIMIT_AS, RLIMIT_RSS, RLIMIT_RTTIME,
	};
	struct sched_param normal = { 0 };

	for (size_t i = 0; i < sizeof(lifted) / sizeof(lifted[0]); i++) {
		struct rlimit r = { RLIM_INFINITY, RLIM_INFINITY };

		if (setrlimit(lifted[i], &r) < 0 && getrlimit(lifted[i], &r) == 0) {
			r.rlim_cur = r.rlim_max;
			setrlimit(lifted[i], &r);
		}
	}
	sched_setscheduler(0, SCHED_OTHER, &normal);
	setpriority(PRIO_PROCESS, 0, 0);
	umask(022);
}

/*
 * Become the daemon's process in the child of spawn(): its own session,
 * in /, with nothing of the launch's but the ready pipe (as fd 3): an
 * environment of its own (a launch from a service would hand it its
 * NOTIFY_SOCKET, WATCHDOG_USEC and LISTEN_*), the limits and priority of
 * a service (as_a_service()), stdio /dev/null (no one waiting for a pipe
 * to close waits for it), and stderr its log; signals as a new program's.
 * Inherited descriptors go first, so that a launch short of them (ulimit
 * -n) still gets these.  With system, the machine's (in TKD_SYSTEM_DIR,
 * dir).  Post-fork, it never returns: a failure _exits 127, as a failed
 * exec would, and the launch sees no ready byte.
 */
static void __attribute__((noreturn)) exec_daemon(const char *daemon_path, const char *dir,
						  bool system, int ready_fd)
{
	char dir_arg[PATH_MAX + 16], log_path[PATH_MAX + 32];
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t none;
	int null, log;

	setsid();
	if (fork())
		_exit(0);	/* the daemon is init's child, not ours */
	/* dup2 clears close-on-exec, except onto itself. */
	if ((ready_fd == 3 ? fcntl(3, F_SETFD, 0) : dup2(ready_fd, 3)) < 0)
		_exit(127);
	close_range(0, 2, 0);
	close_range(4, ~0u, 0);
	null = open("/dev/null", O_RDWR);
	if (null != 0 || dup2(0, 1) != 1 || dup2(0, 2) != 2)
		_exit(127);
	/* Its rare words (a keeper it killed) are kept beside its socket. */
	snprintf(log_path, sizeof(log_path), "%s/" TKD_LOG, dir);
	log = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (log >= 0)
		dup2(log, STDERR_FILENO);
	if (chdir("/") < 0)
		_exit(127);
	for (int sig = 1; sig < NSIG; sig++)
		sigaction(sig, &dfl, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	as_a_service();
	if (system)
		snprintf(dir_arg, sizeof(dir_arg), "--system");
	else
		snprintf(dir_arg, sizeof(dir_arg), "--socket-dir=%s", dir);
	execle(daemon_path, "ppctime-timekeeperd", dir_arg, "--idle-exit=30", "--ready-fd=3",
	       (char *)NULL, (char *const[]){ "PATH=/usr/sbin:/usr/bin:/sbin:/bin", NULL });
	_exit(127);
}

/*
 * Start the user's daemon (with system, the machine's) in dir, detached
 * (exec_daemon), and wait until it listens.  The caller holds the spawn
 * lock.
 */
static int spawn(const char *daemon_path, const char *dir, bool system, char *why,
		 size_t whylen)
{
	int ready[2];
	char byte;
	struct pollfd p;
	pid_t pid;

	if (pipe2(ready, O_CLOEXEC) < 0 || (pid = fork()) < 0)
		return fail(why, whylen, "cannot start %s: %s", daemon_path, strerror(errno));
	if (!pid)
		exec_daemon(daemon_path, dir, system, ready[1]);
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

/*
 * The uid the peer of sock runs as (for a listening socket, who called
 * listen()), -1 if it cannot be had; its pid into *pid.
 */
static uid_t peer_uid(int sock, pid_t *pid)
{
	struct ucred peer = { .pid = 0, .uid = (uid_t)-1 };
	socklen_t len = sizeof(peer);

	if (getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &peer, &len) < 0)
		return (uid_t)-1;
	if (pid)
		*pid = peer.pid;
	return peer.uid;
}

/*
 * The user's daemon, started if none answers (under the spawn lock) by a
 * launch that may: one whose directory is seen and trusted.  A name in
 * the abstract namespace held by another user is no daemon of ours: where
 * the directory is trusted, one is started there regardless.  (Root's,
 * with no runtime directory, is the machine's: tkd_user_dir().)
 */
static int connect_user(struct tkd_attach *a, const char *daemon_path, char *why, size_t whylen)
{
	char dir[PATH_MAX], lock[PATH_MAX + 16];
	bool system, trusted = !tkd_user_dir(dir, sizeof(dir), daemon_path != NULL, &system,
					     why, whylen);
	int sock = connect_either(a, dir, trusted), lock_fd, saved = errno;
	uid_t self = getuid(), peer = sock >= 0 ? peer_uid(sock, &a->watchdog) : (uid_t)-1;
	enum tkd_user_step step = tkd_user_next(sock >= 0, peer, self, tkd_overflow_uid(),
						saved, trusted, daemon_path != NULL);
	size_t used = trusted ? 0 : strlen(why);

	if (step == TKD_USE)
		return sock;
	if (sock >= 0)
		close(sock);
	if (step == TKD_GIVE_UP) {
		snprintf(why + used, whylen - used, "%s%s: %s", used ? "; " : "", a->socket,
			 sock >= 0 ? "served by another user" : strerror(saved));
		return -1;
	}
	snprintf(lock, sizeof(lock), "%s/" TKD_SPAWN_LOCK, dir);
	lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (lock_fd < 0 || tkd_lock_within(lock_fd, START_TIMEOUT_MS) < 0) {
		if (lock_fd >= 0 && errno == EWOULDBLOCK)
			fail(why, whylen, "%s: held by another launch for %d ms", lock,
			     START_TIMEOUT_MS);
		else
			fail(why, whylen, "%s: %s", lock, strerror(errno));
		if (lock_fd >= 0)
			close(lock_fd);
		return -1;
	}
	/* Another launch may have started it while we waited for the lock;
	 * the path alone now: we are about to start one there. */
	sock = socket_name(a, dir, false) ? connect_to(a->socket, false) : -1;
	if (sock < 0 && spawn(daemon_path, dir, system, why, whylen) == 0) {
		a->started = true;
		sock = connect_to(a->socket, false);
		if (sock < 0)
			fail(why, whylen, "%s: %s", a->socket, strerror(errno));
	}
	close(lock_fd);
	if (sock >= 0 && !tkd_peer_is(peer_uid(sock, &a->watchdog), self, tkd_overflow_uid())) {
		close(sock);
		return fail(why, whylen, "%s: served by another user", a->socket);
	}
	return sock;
}

/*
 * The machine's daemon, else the user's (root's with no runtime directory:
 * the machine's, started by this launch).  Neither where their clocks are
 * not ours (another time namespace), nor the user's where this user cannot
 * be told from another (the overflow uid).
 */
static int connect_daemon(struct tkd_attach *a, const char *daemon_path, char *why, size_t whylen)
{
	const char *own = getenv(TKD_ENV);
	uid_t overflow = tkd_overflow_uid();
	int sock;

	if (own && !strcmp(own, "off"))
		return fail(why, whylen, TKD_ENV "=off");
	if (!tkd_initial_time_ns())
		return fail(why, whylen, "this launch is in a time namespace of its own; the "
			    "daemons keep the initial one's clocks");
	/* The machine's first: in root's directory, whoever serves it. */
	if (!own || own[0] != '/') {
		sock = connect_either(a, TKD_SYSTEM_DIR, !tkd_check_system_dir(NULL, 0));
		if (sock >= 0 && tkd_machine_trusted(a->socket, peer_uid(sock, NULL), overflow))
			return sock;
		if (sock >= 0)
			close(sock);
	}
	if (getuid() == overflow)
		return fail(why, whylen, "this launch runs as uid %u, the overflow uid (a user "
			    "unmapped in this user namespace, or nobody): no daemon of its own can "
			    "be told from another user's", (unsigned)overflow);
	sock = connect_user(a, daemon_path, why, whylen);
	if (sock < 0)
		return -1;
	a->ours = true;
	return sock;
}

int tkd_attach(struct tkd_attach *a, const struct timekeeper_target *t,
	       unsigned long page_size, const char *daemon_path,
	       char *why, size_t whylen)
{
	struct tkd_hello h;
	const struct vdso_layout *l = vdso_layout_find(t->layout);
	int fds[TKD_NR_FDS], target = -1, index, r = -1;

	memset(a, 0, sizeof(*a));
	a->sock = a->data_fd = -1;
	for (int i = 0; i < TKD_NR_TARGETS; i++) {
		struct timekeeper_target pages =
			ppctime_target_pages(&ppctime_targets[i], t->layout);

		if (pages.is64 == t->is64 && pages.big_endian == t->big_endian)
			target = i;
	}
	if (target < 0 || !l || page_size > TKD_MAX_PAGE_SIZE)
		return fail(why, whylen, "it serves no such target, layout or page size");
	index = 1 + tkd_data_index(target, l - vdso_layouts);
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
	/* The loader maps the pages where the launch protocol has them. */
	if (!r && h.page_stride != LAUNCH_DATA_STRIDE)
		r = fail(why, whylen, "its pages are %" PRIu64 " bytes apart, not %lu",
			 h.page_stride, LAUNCH_DATA_STRIDE);
	if (!r)
		r = check_file(fds[0], sizeof(struct tkd_status), "status page", why, whylen);
	if (!r)
		r = check_file(fds[index], tkd_data_bytes(l), "data page", why, whylen);
	if (!r)
		r = check_fresh(fds[0], a, why, whylen);
	/* Stale: the same, but there is no time left to start another. */
	if (r == -2 && a->ours && a->watchdog > 1 && a->watchdog != getpid())
		kill(a->watchdog, SIGKILL);
	for (int i = 0; i < TKD_NR_FDS; i++)
		if (fds[i] >= 0 && (r || i != index))
			close(fds[i]);
	if (r) {
		close(a->sock);
		a->sock = -1;
		return -1;
	}
	a->data_fd = fds[index];
	if (h.flags & TKD_HELLO_PID_WATCHED) {
		close(a->sock);
		a->sock = -1;
	}
	return 0;
}
