// SPDX-License-Identifier: GPL-2.0
/* The shared keeper's launches and their limits (launch_table.h). */
#define _GNU_SOURCE
#include "launch_table.h"

#include <poll.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <unistd.h>

void launch_table_limits(struct launch_table *l, uint64_t files, size_t max_per_user)
{
	l->max = files;
	l->max_per_user = max_per_user < files / 2 ? max_per_user : files / 2;
	if (!l->max_per_user)
		l->max_per_user = 1;
}

enum launch_refusal launch_table_connect(struct launch_table *l, uid_t uid, uint64_t now)
{
	size_t i;

	if (now - l->window_ns >= CONNECT_WINDOW_NS) {
		l->window_ns = now;
		l->nr_connecting = 0;
	}
	for (i = 0; i < l->nr_connecting && l->connecting[i].uid != uid; i++)
		;
	if (i == l->nr_connecting) {
		/* So many users at once is a flood of its own. */
		if (i == CONNECT_WINDOW_UIDS)
			return LAUNCH_REFUSED_BUSY;
		l->connecting[l->nr_connecting++].uid = uid;
		l->connecting[i].connects = 0;
	}
	return ++l->connecting[i].connects > CONNECTS_PER_UID ? LAUNCH_REFUSED_BUSY
							      : LAUNCH_SERVED;
}

struct launch *launch_table_find(struct launch_table *l, pid_t pid, uid_t uid, size_t *of_uid)
{
	struct launch *found = NULL;

	*of_uid = 0;
	for (size_t i = 0; i < l->n; i++) {
		struct launch *e = &l->v[i];

		if (pid && e->pid == pid &&
		    poll(&(struct pollfd){ e->fd, POLLIN, 0 }, 1, 0) == 0)
			found = e;
		*of_uid += e->uid == uid;
	}
	return found;
}

enum launch_refusal launch_table_room(const struct launch_table *l, size_t of_uid)
{
	if (of_uid >= l->max_per_user)
		return LAUNCH_REFUSED_USER;
	return l->n >= l->max ? LAUNCH_REFUSED_ALL : LAUNCH_SERVED;
}

bool launch_table_attach(struct launch_table *l, int ep, pid_t pid, uid_t uid, int fd,
			 uint64_t now)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };
	struct launch *e;

	if (l->n == l->size) {
		size_t size = l->size ? 2 * l->size : 64;
		struct launch *v = reallocarray(l->v, size, sizeof(*v));

		if (!v)
			return false;
		l->v = v;
		l->size = size;
	}
	if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) < 0)
		return false;
	e = &l->v[l->n++];
	*e = (struct launch){ .pid = pid, .uid = uid, .fd = fd };
	e->looked = pid && !timekeeper_reader_init(&e->reader, pid, now);
	return true;
}

bool launch_table_detach(struct launch_table *l, int fd)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].fd == fd) {
			close(fd);
			l->v[i] = l->v[--l->n];
			return true;
		}
	return false;
}

static bool ran(struct launch_table *l, size_t i, uint64_t now)
{
	struct launch *e = &l->v[i];

	if (!e->looked || !timekeeper_reader_ran(&e->reader, now))
		return false;
	l->runner = i;
	return true;
}

bool launch_table_ran(struct launch_table *l, size_t at_most, uint64_t now)
{
	size_t runner = l->runner;

	if (runner < l->n && ran(l, runner, now))
		return true;
	for (size_t k = 0; k < at_most && k < l->n; k++) {
		size_t i = l->next_look++ % l->n;

		if (i != runner && ran(l, i, now))
			return true;
	}
	return false;
}
