// SPDX-License-Identifier: GPL-2.0
/*
 * A launch's watchdog (run.h), left behind the process that becomes QEMU:
 * it starts the launch's own timekeeper and kills it if it stalls or dies
 * with the launch, and says when the shared one is gone.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run.h"

static int pidfd_of(pid_t pid)
{
	int fd = syscall(SYS_pidfd_open, pid, 0);

	if (fd < 0)
		refuse("pidfd_open: %s (Linux 5.3 or later needed)", strerror(errno));
	return fd;
}

/* Its death left the page in mode NONE: say so. */
static void keeper_gone(struct watch *w, const char *why)
{
	fprintf(stderr, "ppctime-run: %s: clocks now served by the system call\n", why);
	close(w->keeper_fd);
	w->keeper_fd = -1;
	w->keeper = 0;
}

static void check_keeper(struct watch *w)
{
	/* Its update count, not the page's seq: in mirror mode an update
	 * that finds the host's clocks unchanged publishes nothing. */
	uint64_t updates = timekeeper_updates(w->tk);
	char why[128];

	if (keeper_watch_look(&w->stall, updates, why, sizeof(why)))
		keeper_gone(w, why);
}

static void reap_keeper(struct watch *w)
{
	int status;
	char why[128];

	if (waitpid(w->keeper, &status, WNOHANG) <= 0)
		return;
	if (WIFSIGNALED(status))
		snprintf(why, sizeof(why), "timekeeper died (signal %d)", WTERMSIG(status));
	else
		snprintf(why, sizeof(why), "timekeeper exited (status %d)", WEXITSTATUS(status));
	keeper_gone(w, why);
}

/* Until the launch's process ends, or nothing is left to watch. */
static void watch_launch(struct watch *w)
{
	while (w->keeper || w->daemon_fd >= 0) {
		struct pollfd fds[4] = {
			{ .fd = w->launch_fd, .events = POLLIN },
			{ .fd = w->keeper_fd, .events = POLLIN },
			{ .fd = w->daemon_fd, .events = POLLIN },
			{ .fd = w->keeper ? w->sigchld_fd : -1, .events = POLLIN },
		};
		struct signalfd_siginfo si;

		/* The shared keeper has a watchdog of its own: no need to look. */
		if ((poll(fds, 4, w->keeper ? keeper_watch_wait_ms(&w->stall) : -1) < 0 &&
		     errno != EINTR) || fds[0].revents)
			return;
		if (fds[3].revents & POLLIN && read(w->sigchld_fd, &si, sizeof(si)) == sizeof(si))
			keeper_watch_alerted(&w->stall);
		if (w->keeper && fds[1].revents & POLLIN)
			reap_keeper(w);
		else if (w->keeper)
			check_keeper(w);
		if (fds[2].revents) {
			fprintf(stderr, "ppctime-run: timekeeper daemon gone: clocks now served by "
				"the system call\n");
			close(w->daemon_fd);
			w->daemon_fd = -1;
		}
	}
}

/* Every descriptor above stderr closed but the n in keep. */
static void close_all_but(const int *keep, int n)
{
	unsigned from = STDERR_FILENO + 1, next;

	do {
		next = ~0u;
		for (int i = 0; i < n; i++)
			if (keep[i] >= (int)from && (unsigned)keep[i] < next)
				next = keep[i];
		close_range(from, next - 1, 0);
		from = next + 1;
	} while (next != ~0u);
}

/*
 * The watchdog: starts the launch's own keeper, if any, says the launch
 * may go on (ready_fd), and watches until the launch's process ends; then
 * the keeper goes too, its death leaving the pages in mode NONE for what
 * the program left running (a daemon).
 */
static void __attribute__((noreturn)) run_watchdog(struct watch *w, int ready_fd)
{
	int null = open("/dev/null", O_RDWR);

	/* Hold none of the program's files but stderr, for our one line:
	 * whoever waits for EOF on its stdout must not wait for us too. */
	dup2(null, STDIN_FILENO);
	dup2(null, STDOUT_FILENO);
	close_all_but((const int[]){ w->launch_fd, w->daemon_fd, ready_fd }, 3);
	/* A closed stderr must not end us, and with us the keeper. */
	signal(SIGPIPE, SIG_IGN);
	if (w->tk) {
		sigset_t chld;

		/* Blocked before the fork: no stop goes unseen. */
		sigemptyset(&chld);
		sigaddset(&chld, SIGCHLD);
		sigprocmask(SIG_BLOCK, &chld, NULL);
		w->sigchld_fd = signalfd(-1, &chld, SFD_CLOEXEC);
		if (w->sigchld_fd < 0)
			refuse("signalfd: %s", fd_error());
		w->keeper = start_timekeeper(w->tk, w->launch_pid);
		/* From here the keeper is the pages' one writer. */
		munmap(w->pages, w->pages_len);
		w->keeper_fd = pidfd_of(w->keeper);
		keeper_watch_start(&w->stall, w->keeper, w->update_hz, KEEPER_WATCH_POLL_MS,
				   timekeeper_updates(w->tk));
	}
	if (write(ready_fd, "", 1) == 1)
		watch_launch(w);
	if (w->keeper) {
		kill(w->keeper, SIGKILL);
		waitpid(w->keeper, NULL, 0);
	}
	_exit(0);
}

/*
 * Leave w's watchdog behind this process, which is to become QEMU: a
 * grandchild in a session of its own, out of reach of the signals meant
 * for the program, and no child of QEMU's (which passes SIGCHLD on to the
 * guest).  Returns once it holds the daemon's socket or its keeper is armed.
 */
void detach_watchdog(struct watch *w)
{
	int ready[2];
	pid_t child;
	char byte;

	/* Opened before the exec, which keeps the pid: QEMU's once it runs. */
	w->launch_pid = getpid();
	w->launch_fd = pidfd_of(w->launch_pid);
	if (pipe2(ready, O_CLOEXEC) < 0 || (child = fork()) < 0)
		refuse("cannot start the watchdog: %s", fd_error());
	if (!child) {
		setsid();
		if (fork() == 0)
			run_watchdog(w, ready[1]);
		_exit(0);
	}
	close(ready[1]);	/* our other ends close at the exec */
	waitpid(child, NULL, 0);
	if (read(ready[0], &byte, 1) != 1)
		refuse("the %s did not start", w->tk ? "timekeeper" : "watchdog");
}

