// SPDX-License-Identifier: GPL-2.0
/* The watchdogs' stall rule and the one watchdog (keeper_watch.h). */
#define _GNU_SOURCE
#include "keeper_watch.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ppctime/fail.h"
#include "timekeeper.h"

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

pid_t keeper_watchdog_fork(struct keeper_watchdog *wd, struct timekeeper *tk,
			   const char *name, const int *also, long long poll_ms,
			   char *why, size_t whylen)
{
	pid_t watchdog = getpid(), pid;
	sigset_t sigs;

	*wd = (struct keeper_watchdog){ .tk = tk, .pidfd = -1, .sigfd = -1 };
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGCHLD);
	for (; also && *also; also++)
		sigaddset(&sigs, *also);
	sigprocmask(SIG_BLOCK, &sigs, NULL);
	wd->sigfd = signalfd(-1, &sigs, SFD_CLOEXEC);
	if (wd->sigfd < 0)
		return fail(why, whylen, "signalfd: %s", fd_error());
	pid = fork();
	if (pid < 0)
		return fail(why, whylen, "cannot start the timekeeper: %s", fd_error());
	if (!pid) {
		close(wd->sigfd);
		prctl(PR_SET_NAME, name);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* The watchdog died before the line above: so do we. */
		if (getppid() != watchdog)
			raise(SIGKILL);
		return 0;
	}
	wd->keeper = pid;
	wd->pidfd = syscall(SYS_pidfd_open, pid, 0);
	if (wd->pidfd < 0) {
		fail(why, whylen, "cannot watch the timekeeper: pidfd_open: %s (Linux 5.3 or "
		     "later needed)", strerror(errno));
		keeper_watchdog_end(wd);
		return -1;
	}
	keeper_watch_start(&wd->stall, pid, timekeeper_update_hz(tk), poll_ms,
			   timekeeper_updates(tk));
	return pid;
}

void keeper_watchdog_fds(const struct keeper_watchdog *wd, struct pollfd fds[2])
{
	fds[0] = (struct pollfd){ .fd = wd->keeper ? wd->pidfd : -1, .events = POLLIN };
	fds[1] = (struct pollfd){ .fd = wd->sigfd, .events = POLLIN };
}

int keeper_watchdog_wait_ms(const struct keeper_watchdog *wd)
{
	return wd->keeper ? keeper_watch_wait_ms(&wd->stall) : -1;
}

/* The keeper is gone, reaped: nothing left to watch but signals. */
static void keeper_watchdog_gone(struct keeper_watchdog *wd)
{
	close(wd->pidfd);
	wd->pidfd = -1;
	wd->keeper = 0;
}

enum keeper_event keeper_watchdog_check(struct keeper_watchdog *wd,
					const struct pollfd fds[2], int *status,
					char *why, size_t whylen)
{
	struct signalfd_siginfo si;

	if (fds[1].revents & POLLIN && read(wd->sigfd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo != SIGCHLD) {
			*status = si.ssi_signo;
			return KEEPER_SIGNALLED;
		}
		keeper_watch_alerted(&wd->stall);
	}
	if (!wd->keeper)
		return KEEPER_KEEPS;
	if (fds[0].revents & POLLIN) {
		waitpid(wd->keeper, status, 0);
		keeper_watchdog_gone(wd);
		return KEEPER_ENDED;
	}
	/* Its update count, not a page's seq: in mirror mode an update that
	 * finds the host's clocks unchanged publishes nothing. */
	if (keeper_watch_look(&wd->stall, timekeeper_updates(wd->tk), why, whylen) == 0)
		return KEEPER_KEEPS;
	keeper_watchdog_gone(wd);
	return KEEPER_STALLED;
}

void keeper_watchdog_end(struct keeper_watchdog *wd)
{
	if (!wd->keeper)
		return;
	kill(wd->keeper, SIGKILL);
	waitpid(wd->keeper, NULL, 0);
	keeper_watchdog_gone(wd);
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
