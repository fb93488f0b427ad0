// SPDX-License-Identifier: GPL-2.0
/*
 * ppctime-timekeeperd's keeper (daemon.h): the pages, made and sealed in
 * the watchdog before the fork, and the keeper's one thread, which
 * updates them every period and hands them to launches in between.
 *
 * Any local user may connect to the machine's daemon, so what it keeps
 * for launches is bounded (launch_table.h), and no connection, however
 * many come, delays an update: the keeper takes ACCEPT_BATCH of them at a
 * time, then updates if one is due.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "daemon.h"
#include "ppctime/clear_mode.h"
#include "ppctime/fail.h"
#include "timekeeper/host_clock_ns.h"
#include "timekeeper/sealed_pages.h"
#include "timekeeperd_socket.h"
#include "timekeeperd_trust.h"

#define ACCEPT_BATCH		16	/* connections taken between looks at the time */
#define READERS_PER_LOOK	2	/* launches looked at a period, and the last runner */

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD		77	/* Linux 6.5; not in glibc 2.36 */
#endif

_Static_assert(TKD_NR_DATA <= TIMEKEEPER_MAX_PAGES, "pages per target and layout");

/* The data file i's layout (ppctime/timekeeperd_protocol.h). */
static const struct vdso_layout *data_layout(int i)
{
	return &vdso_layouts[i % TKD_NR_LAYOUTS];
}

/*
 * Pages of len bytes named name, mapped read-write here (map), sealed
 * (sealed_pages.h).  Returns the descriptor launches get, reopened
 * read-only too; or -1 with why.
 */
static int launch_pages(const char *name, size_t len, void **map, char *why, size_t whylen)
{
	int fd = sealed_pages_create(name, name, len, map, why, whylen), ro;
	char self[64];

	if (fd < 0)
		return -1;
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	ro = open(self, O_RDONLY | O_CLOEXEC);
	if (ro < 0)
		fail(why, whylen, "cannot reopen %s read-only: %s", name, strerror(errno));
	close(fd);
	return ro;
}

/* Calibrate once, for the first data file; the others share its clocks. */
int daemon_create_pages(struct daemon *d, char *why, size_t whylen)
{
	char err[512];
	void *map;

	d->fds[0] = launch_pages("ppctime-tkd-status", sizeof(*d->status), &map, why, whylen);
	if (d->fds[0] < 0)
		return -1;
	d->status = map;
	d->options.page_size = LAUNCH_DATA_STRIDE;
	d->tk = timekeeper_create();
	if (!d->tk)
		return fail(why, whylen, "cannot map the timekeeper's state: %s", strerror(errno));
	for (int i = 0; i < TKD_NR_DATA; i++) {
		const struct vdso_layout *l = data_layout(i);
		const struct ppctime_target *target = &ppctime_targets[i / TKD_NR_LAYOUTS];
		struct timekeeper_target t = ppctime_target_pages(target, l->id);
		char name[64];
		int r;

		snprintf(name, sizeof(name), "ppctime-vdso-data-%s-%s", target->name,
			 vdso_layout_name(l->id));
		d->fds[1 + i] = launch_pages(name, tkd_data_bytes(l), &map, why, whylen);
		if (d->fds[1 + i] < 0)
			return -1;
		d->pages[i] = map;
		r = i ? timekeeper_add_page(d->tk, map, &t, LAUNCH_DATA_STRIDE, err, sizeof(err))
		      : timekeeper_init(d->tk, map, &t, &d->options, err, sizeof(err));
		if (r < 0)
			return fail(why, whylen, "cannot start the timekeeper: %s", err);
	}
	*d->status = (struct tkd_status){
		.magic = TKD_MAGIC, .version = TKD_VERSION,
		.update_hz = timekeeper_update_hz(d->tk),
		.last_update_ns = clock_ns(CLOCK_MONOTONIC),
	};
	timekeeper_describe(d->tk, d->status->describe, sizeof(d->status->describe));
	return 0;
}

void daemon_leave_to_keeper(struct daemon *d)
{
	/* The watchdog writes nothing: the pages are the keeper's alone. */
	for (int i = 0; i < TKD_NR_DATA; i++)
		munmap(d->pages[i], tkd_data_bytes(data_layout(i)));
	for (int l = 0; l < NR_LISTENERS; l++)
		if (d->listeners[l] >= 0)
			close(d->listeners[l]);
	if (d->lock_fd >= 0)
		close(d->lock_fd);
	if (d->ready_fd >= 0)
		close(d->ready_fd);
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

/* Each update, then whether the launches' programs run: they set the
 * next one's time (timekeeper_readers_ran()). */
static void update_all(struct daemon *d)
{
	uint64_t now, n;

	timekeeper_update(d->tk);
	now = clock_ns(CLOCK_MONOTONIC);
	__atomic_store_n(&d->status->last_update_ns, now, __ATOMIC_RELEASE);
	n = __atomic_add_fetch(&d->status->updates, 1, __ATOMIC_RELEASE);
	if (d->notify.watchdog_every && n % d->notify.watchdog_every == 0)
		daemon_notify(d, "WATCHDOG=1");
	if (timekeeper_readers_due(d->tk, now) &&
	    launch_table_ran(&d->launches, READERS_PER_LOOK, now))
		timekeeper_readers_ran(d->tk, now);
}

static int epoll_add(int ep, int fd)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };

	return epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
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
		    !tkd_may_serve(d->system, listener == d->listeners[BY_NAME], peer.uid,
				   getuid(), tkd_overflow_uid())) {
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
static int keep(struct daemon *d, char *why, size_t whylen)
{
	uint64_t idle_since = clock_ns(CLOCK_MONOTONIC), next = timekeeper_next_update(d->tk, idle_since);
	int ep = epoll_create1(EPOLL_CLOEXEC);
	bool paused[NR_LISTENERS] = { false };	/* out of descriptors */
	sigset_t all;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, NULL);
	if (ep < 0)
		return fail(why, whylen, "epoll: %s", strerror(errno));
	for (int l = 0; l < NR_LISTENERS; l++)
		if (d->listeners[l] >= 0 && epoll_add(ep, d->listeners[l]) < 0)
			return fail(why, whylen, "epoll: %s", strerror(errno));
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
				return 0;
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
			return fail(why, whylen, "epoll_pwait2: %s (Linux 5.11 or later needed)",
				    strerror(errno));
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

int daemon_keep(struct daemon *d, char *why, size_t whylen)
{
	/* A stop of the watchdog's group is not one of the keeper's. */
	setpgid(0, 0);
	d->status->pid = getpid();
	if (timekeeper_clear_mode_at_exit_threads(d->tk) < 0)
		return fail(why, whylen, "cannot arm the pages: %s", strerror(errno));
	/* The pages are safe to hand out from here: launches may come. */
	if (d->ready_fd >= 0 && (write(d->ready_fd, "", 1) != 1 || close(d->ready_fd)))
		return fail(why, whylen, "cannot say we are ready: %s", strerror(errno));
	daemon_notify_open(d);
	daemon_notify(d, "READY=1");
	/* Readers may come now: no stall may outlast it. */
	if (timekeeper_arm_deadline(d->tk) < 0)
		return fail(why, whylen, "cannot arm the keeper's deadline: %s", strerror(errno));
	return keep(d, why, whylen);
}
