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
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ppctime/clear_mode.h"
#include "run.h"

/* Its death left the page in mode NONE: say so. */
static void keeper_gone(const char *why)
{
	fprintf(stderr, "ppctime-run: %s: clocks now served by the system call\n", why);
}

/* Until the launch's process ends, or nothing is left to watch. */
static void watch_launch(struct watch *w)
{
	while (w->keeper.keeper || w->daemon_fd >= 0) {
		struct pollfd fds[4] = {
			{ .fd = w->launch_fd, .events = POLLIN },
			{ .fd = w->daemon_fd, .events = POLLIN },
		};
		char why[128];
		int status;

		keeper_watchdog_fds(&w->keeper, fds + 2);
		/* The shared keeper has a watchdog of its own: no need to look. */
		if ((poll(fds, 4, keeper_watchdog_wait_ms(&w->keeper)) < 0 && errno != EINTR) ||
		    fds[0].revents)
			return;
		switch (keeper_watchdog_check(&w->keeper, fds + 2, &status, why, sizeof(why))) {
		case KEEPER_ENDED:
			if (WIFSIGNALED(status))
				snprintf(why, sizeof(why), "timekeeper died (signal %d)",
					 WTERMSIG(status));
			else
				snprintf(why, sizeof(why), "timekeeper exited (status %d)",
					 WEXITSTATUS(status));
			keeper_gone(why);
			break;
		case KEEPER_STALLED:
			keeper_gone(why);
			break;
		default:
			break;
		}
		if (fds[1].revents) {
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
 * In the watchdog, its child the keeper (keeper_watch.h), gone with it if
 * it is killed, or by its own deadline if it stalls where the watchdog
 * cannot act (both stopped), as the daemon's keeper is; at every host
 * tick while reader, the launch's process, runs.  Returns once its death
 * would clear the page, a program started before could outlive a keeper
 * killed early and read stale data: 0, or -1 with why (empty: the
 * keeper said it).  The keeper's own failure it says itself, post-fork:
 * it _exits.
 */
static int start_timekeeper(struct watch *w, pid_t reader, char *why, size_t whylen)
{
	int ready[2];
	char byte;
	pid_t pid;

	if (pipe2(ready, O_CLOEXEC) < 0)
		return fail(why, whylen, "cannot start the timekeeper: %s", fd_error());
	pid = keeper_watchdog_fork(&w->keeper, w->tk, "ppctime-tk", NULL, KEEPER_WATCH_POLL_MS,
				   why, whylen);
	if (pid > 0) {
		close(ready[1]);
		/* It said why; the launch says it did not start. */
		if (read(ready[0], &byte, 1) != 1) {
			why[0] = '\0';
			return -1;
		}
		close(ready[0]);
		return 0;
	}
	if (pid < 0)
		return -1;
	if (timekeeper_clear_mode_at_exit(w->tk) == 0 && timekeeper_arm_deadline(w->tk) == 0 &&
	    write(ready[1], "", 1) == 1) {
		close_range(3, ~0u, 0);
		timekeeper_run(w->tk, reader);
	}
	fprintf(stderr, "ppctime-run: timekeeper: %s\n", strerror(errno));
	_exit(1);
}

/*
 * The watchdog, post-fork (it ends with _exit, as a child that may not
 * run its parent's atexit handlers): starts the launch's own keeper, if
 * any, says the launch may go on (ready_fd), and watches until the
 * launch's process ends; then the keeper goes too, its death leaving the
 * pages in mode NONE for what the program left running (a daemon).  A
 * keeper that cannot start it says, with the status main() would give.
 */
static void __attribute__((noreturn)) run_watchdog(struct watch *w, int ready_fd)
{
	int null = open("/dev/null", O_RDWR);
	char why[512];

	/* Hold none of the program's files but stderr, for our one line:
	 * whoever waits for EOF on its stdout must not wait for us too. */
	dup2(null, STDIN_FILENO);
	dup2(null, STDOUT_FILENO);
	close_all_but((const int[]){ w->launch_fd, w->daemon_fd, ready_fd }, 3);
	/* A closed stderr must not end us, and with us the keeper. */
	signal(SIGPIPE, SIG_IGN);
	if (w->tk) {
		if (start_timekeeper(w, w->launch_pid, why, sizeof(why)) < 0) {
			if (why[0])
				fprintf(stderr, "ppctime-run: %s\n", why);
			_exit(LAUNCH_EXIT_ERROR);
		}
		/* From here the keeper is the pages' one writer. */
		munmap(w->pages, w->pages_len);
	}
	if (write(ready_fd, "", 1) == 1)
		watch_launch(w);
	keeper_watchdog_end(&w->keeper);
	_exit(0);
}

/*
 * Leave w's watchdog behind this process, which is to become QEMU: a
 * grandchild in a session of its own, out of reach of the signals meant
 * for the program, and no child of QEMU's (which passes SIGCHLD on to the
 * guest).  Returns once it holds the daemon's socket or its keeper is
 * armed: 0, or -1.
 */
int detach_watchdog(struct watch *w, struct run_error *e)
{
	int ready[2];
	pid_t child;
	char byte;

	w->keeper = (struct keeper_watchdog){ .pidfd = -1, .sigfd = -1 };
	/* Opened before the exec, which keeps the pid: QEMU's once it runs. */
	w->launch_pid = getpid();
	w->launch_fd = syscall(SYS_pidfd_open, w->launch_pid, 0);
	if (w->launch_fd < 0)
		return refuse(e, "pidfd_open: %s (Linux 5.3 or later needed)", strerror(errno));
	if (pipe2(ready, O_CLOEXEC) < 0 || (child = fork()) < 0)
		return refuse(e, "cannot start the watchdog: %s", fd_error());
	/* The child's and grandchild's: post-fork, _exit. */
	if (!child) {
		setsid();
		if (fork() == 0)
			run_watchdog(w, ready[1]);
		_exit(0);
	}
	close(ready[1]);	/* our other ends close at the exec */
	waitpid(child, NULL, 0);
	if (read(ready[0], &byte, 1) != 1)
		return refuse(e, "the %s did not start", w->tk ? "timekeeper" : "watchdog");
	return 0;
}

