// SPDX-License-Identifier: GPL-2.0
/* The watchdogs' stall rule (keeper_watch.h). */
#define _GNU_SOURCE
#include "keeper_watch.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* The state letter of /proc/PID/stat: R, S, D, T, t, Z... */
static char process_state(pid_t pid)
{
	char path[64], stat[512], *end;
	int fd, len;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return '?';
	len = read(fd, stat, sizeof(stat) - 1);
	close(fd);
	if (len <= 0)
		return '?';
	stat[len] = '\0';
	end = strrchr(stat, ')');	/* the name may hold anything */
	return end && end[1] == ' ' ? end[2] : '?';
}

void keeper_watch_start(struct keeper_watch *w, pid_t keeper, unsigned update_hz,
			long long poll_ms, uint64_t updates)
{
	*w = (struct keeper_watch){
		.keeper = keeper, .period_ms = 1000 / update_hz, .poll_ms = poll_ms,
		.last_updates = updates, .moved_ms = now_ms(),
	};
	w->last_look_ms = w->moved_ms;
}

void keeper_watch_alerted(struct keeper_watch *w)
{
	/* Until a stop would have counted, and a little more. */
	w->closely_until_ms = now_ms() + 4 * KEEPER_STALL_STOPPED_MS;
}

int keeper_watch_wait_ms(const struct keeper_watch *w)
{
	return now_ms() < w->closely_until_ms ? KEEPER_STALL_STOPPED_MS / 4 : w->poll_ms;
}

int keeper_watch_look(struct keeper_watch *w, uint64_t updates, char *why, size_t len)
{
	long long now = now_ms(), still, every = keeper_watch_wait_ms(w);
	char state;

	/* A gap in our own looking (stopped, descheduled) proves nothing,
	 * nor a look between alerts, where we do not look. */
	if (updates != w->last_updates || every < 0 || now - w->last_look_ms > 2 * every + 30)
		w->moved_ms = now;
	w->last_updates = updates;
	w->last_look_ms = now;
	still = now - w->moved_ms;
	if (still <= KEEPER_STALL_STOPPED_MS || still <= 2 * w->period_ms)
		return 0;
	state = process_state(w->keeper);
	if (!strchr("Tt", state) && (still <= KEEPER_STALL_MS || still <= 3 * w->period_ms))
		return 0;
	kill(w->keeper, SIGKILL);
	waitpid(w->keeper, NULL, 0);
	snprintf(why, len, "timekeeper stalled (no update in %lld ms, state %c), killed it",
		 still, state);
	return -1;
}

static void push_deadline(struct keeper_deadline *d, uint64_t now_ns)
{
	struct itimerspec when = { .it_value = { d->ns / 1000000000, d->ns % 1000000000 } };

	d->pushed_ns = now_ns;
	timer_settime(d->timer, 0, &when, NULL);
}

int keeper_deadline_start(struct keeper_deadline *d, unsigned update_hz)
{
	struct sigevent kill_me = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGKILL };
	long long ms = KEEPER_DEADLINE_MS;

	if (ms < 6 * 1000 / update_hz)
		ms = 6 * 1000 / update_hz;
	d->ns = ms * 1000000ull;
	if (timer_create(CLOCK_MONOTONIC, &kill_me, &d->timer) < 0)
		return -1;
	push_deadline(d, now_ms() * 1000000ull);
	return 0;
}

void keeper_deadline_updated(struct keeper_deadline *d, uint64_t now_ns)
{
	/* A system call a push: one per half deadline, not per update. */
	if (now_ns - d->pushed_ns >= d->ns / 2)
		push_deadline(d, now_ns);
}
