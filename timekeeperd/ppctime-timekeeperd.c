// SPDX-License-Identifier: GPL-2.0
/*
 * ppctime-timekeeperd: one timekeeper for every launch, as a kernel has
 * one for every process.  It keeps the data pages of each target (ppc32,
 * ppc64, ppc64le: byte order and word size differ) in each data layout
 * (Linux 6.1's, the datastore's) and hands them to launches over a Unix
 * socket (ppctime/timekeeperd_protocol.h), sealed and read-only, so
 * however many programs run, one thread updates the six sets at once
 * just after the host's ticks (timekeeper_next_update()).
 *
 * Two processes.  The keeper writes the pages and serves the socket;
 * however it dies, its clear_child_tid threads leave every page in mode
 * NONE (timekeeper_clear_mode_at_exit_threads()), so readers, those that
 * outlive it included, fall back to the system call.  Its parent, the
 * watchdog, kills it when a stop (its SIGCHLD) holds its update count
 * still (keeper_watch.h), the job ppctime-run's watchdog does for a
 * launch's own keeper, and it ends the daemon with it: the next
 * launch (or systemd) starts a new one with new pages, so no page ever
 * comes back to life under a reader that saw it die.  Where the watchdog
 * cannot act (both stopped, a frozen cgroup), the keeper's own deadline
 * kills it (timekeeper_arm_deadline()).
 *
 * Any local user may connect to the machine's daemon, so what it keeps
 * for launches is bounded (launch_table.h), and no connection, however
 * many come, delays an update: the keeper takes ACCEPT_BATCH of them at a
 * time, then updates if one is due.  Its descriptors are its own (it
 * raises its limit to MAX_FILES where it may), not those of the launch
 * that started it.
 *
 * Run by systemd for the machine (--system: the socket unit's listening
 * socket, or TKD_SYSTEM_DIR), or started by the first launch of a user
 * (--socket-dir=$XDG_RUNTIME_DIR/ppctime --idle-exit=30 --ready-fd=3),
 * which then exits once no launch has been attached for that long; where
 * root has no runtime directory (no systemd), root's first launch starts
 * the machine's so (--system --idle-exit=30 --ready-fd=3).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "launch_table.h"
#include "ppctime/clear_mode.h"
#include "ppctime/timekeeperd_protocol.h"
#include "timekeeper/host_clock_ns.h"
#include "timekeeper/keeper_watch.h"
#include "timekeeper/timekeeper.h"
#include "timekeeperd_socket.h"

#define LOCK_WAIT_MS		1000	/* for a daemon that is exiting */
#define MAX_PER_USER		1024	/* launches attached, by default */
#define MAX_FILES		65536	/* descriptors, where the daemon may raise */
#define SPARE_FDS		64	/* kept from launches: pages, sockets, epoll */
#define ACCEPT_BATCH		16	/* connections taken between looks at the time */
#define READERS_PER_LOOK	2	/* launches looked at a period, and the last runner */

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD		77	/* Linux 6.5; not in glibc 2.36 */
#endif

/* Where launches come from: the socket's path, and the same name in the
 * abstract namespace, for launches in a chroot that does not show it. */
enum { BY_PATH, BY_NAME, NR_LISTENERS };

_Static_assert(TKD_NR_DATA <= TIMEKEEPER_MAX_PAGES, "pages per target and layout");

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
};

static void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;

	fputs("ppctime-timekeeperd: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/*
 * A memfd mapped read-write here, then sealed: no one else, a launch
 * reopening it through /proc included, can write it or map it writable.
 * Returns the descriptor launches get: read-only too.
 */
static int sealed_memfd(const char *name, size_t len, void **map)
{
	int fd = memfd_create(name, MFD_ALLOW_SEALING | MFD_CLOEXEC), ro;
	char self[64];

	if (fd < 0 || ftruncate(fd, len) < 0)
		die("cannot create %s: %s", name, strerror(errno));
	*map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (*map == MAP_FAILED)
		die("cannot map %s: %s", name, strerror(errno));
	if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_FUTURE_WRITE |
		  F_SEAL_SEAL) < 0)
		die("cannot seal %s: %s", name, strerror(errno));
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	ro = open(self, O_RDONLY | O_CLOEXEC);
	if (ro < 0)
		die("cannot reopen %s read-only: %s", name, strerror(errno));
	close(fd);
	return ro;
}

/*
 * One daemon per directory: the lock is held as long as the keeper, which
 * holds the listening sockets too, lives.  (Not the watchdog: a keeper
 * killed while its watchdog is stopped frees the directory for the next.)
 */
static void take_lock(struct daemon *d)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/" TKD_LOCK, d->dir);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	if (tkd_lock_within(fd, LOCK_WAIT_MS) < 0)
		die("%s: another daemon holds it (%s)", path, strerror(errno));
	d->lock_fd = fd;
}

/*
 * systemd's listening sockets (socket activation): systemd starts one of
 * us at a time, and made the directory, which we may not write.  Each is
 * the path's or the abstract name's, as its address says.
 */
static bool socket_activated(struct daemon *d)
{
	const char *pid = getenv("LISTEN_PID"), *nfds = getenv("LISTEN_FDS");
	int n = nfds ? atoi(nfds) : 0;

	snprintf(d->socket, sizeof(d->socket), "%s/" TKD_SOCKET, d->dir);
	if (!pid || atoi(pid) != getpid() || n < 1 || n > NR_LISTENERS)
		return false;
	for (int fd = 3; fd < 3 + n; fd++) {
		struct sockaddr_un sun;
		socklen_t len = sizeof(sun);

		if (getsockname(fd, (struct sockaddr *)&sun, &len) < 0 || sun.sun_family != AF_UNIX)
			die("systemd passed descriptor %d, not a Unix socket", fd);
		d->listeners[sun.sun_path[0] ? BY_PATH : BY_NAME] = fd;
		fcntl(fd, F_SETFD, FD_CLOEXEC);
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	}
	return true;
}

/* Listening on path (of mode), or with abstract on its name in the
 * abstract namespace; -1 with errno. */
static int listen_on(const char *path, bool abstract, mode_t mode)
{
	struct sockaddr_un sun;
	socklen_t len = tkd_socket_address(&sun, path, abstract);
	int fd, saved;

	if (!len)
		die("%s: name too long", path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		die("socket: %s", strerror(errno));
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
static void bind_sockets(struct daemon *d)
{
	/* Under the lock: what is there is a dead daemon's. */
	unlink(d->socket);
	d->listeners[BY_PATH] = listen_on(d->socket, false, d->system ? 0666 : 0600);
	if (d->listeners[BY_PATH] < 0)
		die("%s: %s", d->socket, strerror(errno));
	d->own_socket = true;
	d->listeners[BY_NAME] = listen_on(d->socket, true, 0);
	if (d->listeners[BY_NAME] < 0)
		fprintf(stderr, "ppctime-timekeeperd: @%s: %s: launches in chroots will not "
			"find this daemon\n", d->socket, strerror(errno));
}

/* The data file i's layout (ppctime/timekeeperd_protocol.h). */
static const struct vdso_layout *data_layout(int i)
{
	return &vdso_layouts[i % TKD_NR_LAYOUTS];
}

/* Calibrate once, for the first data file; the others share its clocks. */
static void create_pages(struct daemon *d)
{
	char err[512];
	void *map;

	d->fds[0] = sealed_memfd("ppctime-tkd-status", sizeof(*d->status), &map);
	d->status = map;
	d->options.page_size = LAUNCH_DATA_STRIDE;
	d->tk = timekeeper_create();
	if (!d->tk)
		die("cannot map the timekeeper's state: %s", strerror(errno));
	for (int i = 0; i < TKD_NR_DATA; i++) {
		const struct vdso_layout *l = data_layout(i);
		const struct ppctime_target *target = &ppctime_targets[i / TKD_NR_LAYOUTS];
		struct timekeeper_target t = ppctime_target_pages(target, l->id);
		char name[64];
		int r;

		snprintf(name, sizeof(name), "ppctime-vdso-data-%s-%s", target->name,
			 vdso_layout_name(l->id));
		d->fds[1 + i] = sealed_memfd(name, tkd_data_bytes(l), &map);
		d->pages[i] = map;
		r = i ? timekeeper_add_page(d->tk, map, &t, LAUNCH_DATA_STRIDE, err, sizeof(err))
		      : timekeeper_init(d->tk, map, &t, &d->options, err, sizeof(err));
		if (r < 0)
			die("cannot start the timekeeper: %s", err);
	}
	*d->status = (struct tkd_status){
		.magic = TKD_MAGIC, .version = TKD_VERSION,
		.update_hz = timekeeper_update_hz(d->tk),
		.last_update_ns = clock_ns(CLOCK_MONOTONIC),
	};
	timekeeper_describe(d->tk, d->status->describe, sizeof(d->status->describe));
}

/*
 * The launch's process, as a pidfd, or -1: the kernel's own (Linux 6.5),
 * else one opened by the pid it recorded at connect(), while the launch,
 * waiting for the hello, cannot have gone.  A peer in a PID namespace we
 * do not see has pid 0.
 */
static int peer_pidfd(int sock, const struct ucred *peer)
{
	socklen_t len = sizeof(int);
	int fd;

	if (getsockopt(sock, SOL_SOCKET, SO_PEERPIDFD, &fd, &len) == 0 && fd >= 0)
		return fd;
	if (peer->pid <= 0)
		return -1;
	return syscall(SYS_pidfd_open, peer->pid, 0);
}

/* The hello, with the descriptors unless flags says TKD_HELLO_REFUSED. */
static void send_hello(const struct daemon *d, int fd, uint32_t flags)
{
	bool refused = flags & TKD_HELLO_REFUSED;
	struct tkd_hello h = {
		.magic = TKD_MAGIC, .version = TKD_VERSION, .pid = getpid(),
		.nr_fds = refused ? 0 : TKD_NR_FDS,
		.page_stride = LAUNCH_DATA_STRIDE,
		.flags = flags,
		.limit = flags & TKD_HELLO_REFUSED_ALL ? d->launches.max
						       : d->launches.max_per_user,
	};
	union {
		char buf[CMSG_SPACE(sizeof(d->fds))];
		struct cmsghdr align;
	} control;
	struct iovec iov = { &h, sizeof(h) };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = control.buf, .msg_controllen = sizeof(control.buf),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(d->fds));
	memcpy(CMSG_DATA(c), d->fds, sizeof(d->fds));
	if (refused)
		msg.msg_control = NULL, msg.msg_controllen = 0;
	/* A launch that cannot take it just keeps its own keeper. */
	sendmsg(fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
}

/*
 * systemd's notification socket, if it gave one (sd_notify(3), without
 * libsystemd): READY=1 once the pages are armed, then WATCHDOG=1 from the
 * keeper itself, so that a daemon stuck as a whole (keeper and watchdog
 * both stopped) is killed by systemd, and its pages go to mode NONE.
 */
static int notify_fd = -1;
static struct sockaddr_un notify_addr;
static socklen_t notify_len;
static uint64_t watchdog_every;	/* updates between pings; 0: none */

static void notify_open(const struct daemon *d)
{
	const char *path = getenv("NOTIFY_SOCKET"), *usec = getenv("WATCHDOG_USEC");

	if (!path || (path[0] != '/' && path[0] != '@'))
		return;
	notify_len = tkd_socket_address(&notify_addr, path + (path[0] == '@'), path[0] == '@');
	if (!notify_len)
		return;
	notify_fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	/* Pinged four times per period: a missed ping or two is no death. */
	if (usec && strtoull(usec, NULL, 10))
		watchdog_every = strtoull(usec, NULL, 10) * d->status->update_hz /
				 1000000 / 4 + 1;
}

static void notify(const char *what)
{
	if (notify_fd >= 0)
		sendto(notify_fd, what, strlen(what), MSG_NOSIGNAL | MSG_DONTWAIT,
		       (struct sockaddr *)&notify_addr, notify_len);
}

/* Each update, then whether the launches' programs run: they set the
 * next one's time (timekeeper_readers_ran()). */
static void update_all(struct daemon *d)
{
	uint64_t now, n;

	timekeeper_update(d->tk);
	now = clock_ns(CLOCK_MONOTONIC);
	__atomic_store_n(&d->status->last_update_ns, now, __ATOMIC_RELEASE);
	n = __atomic_add_fetch(&d->status->updates, 1, __ATOMIC_RELEASE);
	if (watchdog_every && n % watchdog_every == 0)
		notify("WATCHDOG=1");
	if (timekeeper_readers_due(d->tk, now) &&
	    launch_table_ran(&d->launches, READERS_PER_LOOK, now))
		timekeeper_readers_ran(d->tk, now);
}

static int epoll_add(int ep, int fd)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };

	return epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
}

/* The user's daemon serves its user alone, though anyone may connect to
 * its abstract name; the overflow uid is no one's. */
static bool may_serve(const struct daemon *d, int listener, const struct ucred *peer)
{
	return d->system || listener != d->listeners[BY_NAME] ||
	       (peer->uid == getuid() && peer->uid != tkd_overflow_uid());
}

/* The hello's flags for a refusal. */
static const uint32_t refused_flags[] = {
	[LAUNCH_REFUSED_USER] = TKD_HELLO_REFUSED,
	[LAUNCH_REFUSED_ALL] = TKD_HELLO_REFUSED | TKD_HELLO_REFUSED_ALL,
	[LAUNCH_REFUSED_BUSY] = TKD_HELLO_REFUSED | TKD_HELLO_REFUSED_BUSY,
};

/*
 * Up to ACCEPT_BATCH launches waiting on listener get their hello, each
 * counted until it ends: its process, as a pidfd, or else its
 * connection; once per process, however often it connects, and within
 * the limits (launch_table.h).  Returns 0 once the backlog is empty, 1 if
 * more may wait (the caller updates first if one is due), -1 if the rest
 * must wait (out of descriptors).
 */
static int take_launches(struct daemon *d, int ep, int listener)
{
	struct launch_table *l = &d->launches;

	for (int taken = 0; taken < ACCEPT_BATCH; taken++) {
		int c = accept4(listener, NULL, NULL, SOCK_CLOEXEC), pidfd;
		uint64_t now = clock_ns(CLOCK_MONOTONIC);
		struct ucred peer = { 0 };
		socklen_t len = sizeof(peer);
		enum launch_refusal refusal;
		size_t of_uid;

		if (c < 0)
			return errno == EAGAIN || errno == EINTR ? 0 : -1;
		if (getsockopt(c, SOL_SOCKET, SO_PEERCRED, &peer, &len) < 0 ||
		    !may_serve(d, listener, &peer)) {
			close(c);
			continue;
		}
		refusal = launch_table_connect(l, peer.uid, now);
		if (!refusal && launch_table_find(l, peer.pid, peer.uid, &of_uid)) {
			/* A launch trying again: counted already. */
			send_hello(d, c, TKD_HELLO_PID_WATCHED);
			close(c);
			continue;
		}
		if (!refusal)
			refusal = launch_table_room(l, of_uid);
		if (refusal) {
			send_hello(d, c, refused_flags[refusal]);
			close(c);
			continue;
		}
		pidfd = peer_pidfd(c, &peer);
		if (!launch_table_attach(l, ep, pidfd >= 0 ? peer.pid : 0, peer.uid,
					 pidfd >= 0 ? pidfd : c, now)) {
			if (pidfd >= 0)
				close(pidfd);
			close(c);
			continue;
		}
		send_hello(d, c, pidfd >= 0 ? TKD_HELLO_PID_WATCHED : 0);
		if (pidfd >= 0)
			close(c);
	}
	return 1;
}

/*
 * The keeper: updates every period, takes launches in between, and with
 * idle_s ends once none has been attached for that long.  One thread, so
 * nothing but ACCEPT_BATCH launches arriving delays an update (a backlog
 * still full after them waits for the next turn of the loop, which looks
 * at the time first); epoll, so a wakeup costs
 * the same with 1 launch attached as with 1000; and its timeout is the
 * next update's time, so a quiet period is one system call.
 */
static void __attribute__((noreturn)) keep(struct daemon *d)
{
	uint64_t idle_since = clock_ns(CLOCK_MONOTONIC), next = timekeeper_next_update(d->tk, idle_since);
	int ep = epoll_create1(EPOLL_CLOEXEC);
	bool paused[NR_LISTENERS] = { false };	/* out of descriptors */
	sigset_t all;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, NULL);
	if (ep < 0)
		die("epoll: %s", strerror(errno));
	for (int l = 0; l < NR_LISTENERS; l++)
		if (d->listeners[l] >= 0 && epoll_add(ep, d->listeners[l]) < 0)
			die("epoll: %s", strerror(errno));
	for (;;) {
		struct epoll_event ready[64];
		uint64_t now = clock_ns(CLOCK_MONOTONIC), wait;
		struct timespec timeout;
		int n;

		if (now >= next) {
			update_all(d);
			next = timekeeper_next_update(d->tk, clock_ns(CLOCK_MONOTONIC));
			if (d->idle_s && !d->launches.n && now - idle_since > d->idle_s * 1000000000ull) {
				/* Off the path first: the next launch starts another. */
				if (d->own_socket)
					unlink(d->socket);
				exit(0);
			}
			/* The backlog waited: try again. */
			for (int l = 0; l < NR_LISTENERS; l++)
				if (paused[l])
					paused[l] = epoll_add(ep, d->listeners[l]) < 0;
			now = clock_ns(CLOCK_MONOTONIC);
		}
		wait = next > now ? next - now : 0;
		timeout = (struct timespec){ wait / 1000000000, wait % 1000000000 };
		n = epoll_pwait2(ep, ready, 64, &timeout, NULL);
		if (n < 0 && errno != EINTR)
			die("epoll_pwait2: %s (Linux 5.11 or later needed)", strerror(errno));
		for (int i = 0; i < n; i++) {
			int fd = ready[i].data.fd, l = NR_LISTENERS;

			while (l-- && fd != d->listeners[l])
				;
			if (l >= 0) {
				/* No spinning on a backlog we cannot take. */
				if (take_launches(d, ep, fd) < 0)
					paused[l] = !epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL);
			} else if (launch_table_detach(&d->launches, fd) && !d->launches.n) {
				idle_since = clock_ns(CLOCK_MONOTONIC);
			}
		}
	}
}

/*
 * The watchdog: until the keeper ends, or SIGTERM ends us both.  Returns
 * the daemon's exit status.
 */
static int watch(struct daemon *d, pid_t keeper)
{
	int pidfd = syscall(SYS_pidfd_open, keeper, 0), sigfd, status;
	struct keeper_watch stall;
	sigset_t sigs;

	sigemptyset(&sigs);
	for (const int *s = (const int[]){ SIGTERM, SIGINT, SIGHUP, SIGCHLD, 0 }; *s; s++)
		sigaddset(&sigs, *s);
	sigprocmask(SIG_BLOCK, &sigs, NULL);
	sigfd = signalfd(-1, &sigs, SFD_CLOEXEC);
	if (pidfd < 0 || sigfd < 0) {
		kill(keeper, SIGKILL);
		die("cannot watch the keeper: %s", strerror(errno));
	}
	/* The keeper's deadline ends it if it stalls but for a stop. */
	keeper_watch_start(&stall, keeper, d->status->update_hz, KEEPER_WATCH_ALERTS_ONLY,
			   __atomic_load_n(&d->status->updates, __ATOMIC_ACQUIRE));
	for (;;) {
		struct pollfd p[2] = { { pidfd, POLLIN, 0 }, { sigfd, POLLIN, 0 } };
		struct signalfd_siginfo si;
		char why[128];

		poll(p, 2, keeper_watch_wait_ms(&stall));
		if (p[1].revents & POLLIN && read(sigfd, &si, sizeof(si)) == sizeof(si)) {
			if (si.ssi_signo != SIGCHLD) {
				kill(keeper, SIGKILL);
				waitpid(keeper, NULL, 0);
				status = 0;
				break;
			}
			keeper_watch_alerted(&stall);
		}
		if (p[0].revents & POLLIN) {
			waitpid(keeper, &status, 0);
			if (WIFSIGNALED(status))
				fprintf(stderr, "ppctime-timekeeperd: keeper killed by signal %d\n",
					WTERMSIG(status));
			status = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
			break;
		}
		if (keeper_watch_look(&stall, __atomic_load_n(&d->status->updates,
							      __ATOMIC_ACQUIRE),
				      why, sizeof(why))) {
			fprintf(stderr, "ppctime-timekeeperd: %s; its pages are now in mode NONE\n",
				why);
			status = 1;
			break;
		}
	}
	/* The socket stays: the next daemon unlinks it under the lock, which
	 * it may hold already if we were stopped. */
	return status;
}

static unsigned long number(const char *option, const char *arg, unsigned long min,
			    unsigned long max)
{
	unsigned long n;
	char *end;

	errno = 0;
	n = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || n < min || n > max)
		die("--%s=%s: not a number from %lu to %lu", option, arg, min, max);
	return n;
}

static void __attribute__((noreturn)) usage(int status)
{
	fprintf(status ? stderr : stdout,
		"Usage: ppctime-timekeeperd [--system | --socket-dir=DIR] [--idle-exit=SECONDS]\n"
		"                           [--update-hz=N] [--timekeeper=auto|mirror|steer]\n"
		"                           [--max-launches-per-user=N]\n"
		"The shared timekeeper of ppctime-run: keeps one vDSO data page per powerpc\n"
		"target and hands them, sealed read-only, to every launch.\n");
	exit(status);
}

/*
 * A launch is a descriptor while it runs: the daemon takes MAX_FILES
 * where it may (root raises its hard limit), whatever the launch that
 * started it had, else as many as its hard limit allows.  Returns how
 * many launches they leave room for.
 */
static uint64_t own_files(void)
{
	struct rlimit files = { MAX_FILES, MAX_FILES };

	if (setrlimit(RLIMIT_NOFILE, &files) < 0 && getrlimit(RLIMIT_NOFILE, &files) == 0) {
		files.rlim_cur = files.rlim_max;
		setrlimit(RLIMIT_NOFILE, &files);
	}
	getrlimit(RLIMIT_NOFILE, &files);
	return files.rlim_cur > 2 * SPARE_FDS ? files.rlim_cur - SPARE_FDS : SPARE_FDS;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "system", no_argument, NULL, 's' },
		{ "socket-dir", required_argument, NULL, 'd' },
		{ "idle-exit", required_argument, NULL, 'i' },
		{ "ready-fd", required_argument, NULL, 'r' },
		{ "update-hz", required_argument, NULL, 'u' },
		{ "timekeeper", required_argument, NULL, 'm' },
		{ "max-launches-per-user", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct daemon d = { .ready_fd = -1, .listeners = { -1, -1 }, .lock_fd = -1 };
	char dir[PATH_MAX], why[256];
	size_t per_user = MAX_PER_USER;
	pid_t watchdog, keeper;
	int opt;

	/* No one, the user included, reaches the pages through /proc/PID/mem. */
	prctl(PR_SET_DUMPABLE, 0);
	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (opt) {
		case 's': d.system = true; d.dir = TKD_SYSTEM_DIR; break;
		case 'd': d.dir = optarg; break;
		case 'i': d.idle_s = number("idle-exit", optarg, 0, 86400); break;
		case 'r': d.ready_fd = number("ready-fd", optarg, 3, INT_MAX); break;
		case 'u':
			d.options.update_hz = number("update-hz", optarg, 1, TIMEKEEPER_MAX_HZ);
			break;
		case 'm':
			if (timekeeper_mode_from_name(optarg, &d.options.mode))
				die("--timekeeper=%s: auto, mirror or steer", optarg);
			break;
		case 'p':
			per_user = number("max-launches-per-user", optarg, 1, INT_MAX);
			break;
		case 'h': usage(0);
		default: usage(1);
		}
	}
	if (optind != argc)
		usage(1);
	launch_table_limits(&d.launches, own_files(), per_user);
	/* Its pages would hold this namespace's clocks for every launch. */
	if (!tkd_initial_time_ns())
		die("in a time namespace of its own: it keeps the initial namespace's clocks, "
		    "for every launch");
	if (!d.dir) {
		if (tkd_user_dir(dir, sizeof(dir), true, &d.system, why, sizeof(why)))
			die("%s", why);
		d.dir = dir;
	}
	if (d.ready_fd >= 0)
		fcntl(d.ready_fd, F_SETFD, FD_CLOEXEC);
	if (!socket_activated(&d)) {
		/* Root's, 0755: every user's launches connect there.  Any
		 * other is ours alone: no one else may replace our socket. */
		if (d.system ? tkd_make_dir(d.dir, 0755, why, sizeof(why)) ||
			       tkd_check_system_dir(why, sizeof(why))
			     : tkd_check_dir(d.dir, getuid(), S_IWGRP | S_IWOTH, why, sizeof(why)))
			die("%s", why);
		take_lock(&d);
		bind_sockets(&d);
	}
	create_pages(&d);

	watchdog = getpid();
	keeper = fork();
	if (keeper < 0)
		die("fork: %s", strerror(errno));
	if (!keeper) {
		prctl(PR_SET_NAME, "ppctime-tkd");
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != watchdog)
			_exit(1);
		/* A stop of the watchdog's group is not one of the keeper's. */
		setpgid(0, 0);
		d.status->pid = getpid();
		if (timekeeper_clear_mode_at_exit_threads(d.tk) < 0)
			die("cannot arm the pages: %s", strerror(errno));
		/* The pages are safe to hand out from here: launches may come. */
		if (d.ready_fd >= 0 && (write(d.ready_fd, "", 1) != 1 || close(d.ready_fd)))
			die("cannot say we are ready: %s", strerror(errno));
		notify_open(&d);
		notify("READY=1");
		/* Readers may come now: no stall may outlast it. */
		if (timekeeper_arm_deadline(d.tk) < 0)
			die("cannot arm the keeper's deadline: %s", strerror(errno));
		keep(&d);
	}
	/* The watchdog writes nothing: the pages are the keeper's alone. */
	for (int i = 0; i < TKD_NR_DATA; i++)
		munmap(d.pages[i], tkd_data_bytes(data_layout(i)));
	for (int l = 0; l < NR_LISTENERS; l++)
		if (d.listeners[l] >= 0)
			close(d.listeners[l]);
	if (d.lock_fd >= 0)
		close(d.lock_fd);
	if (d.ready_fd >= 0)
		close(d.ready_fd);
	return watch(&d, keeper);
}
