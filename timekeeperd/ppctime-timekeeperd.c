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
 * for launches is bounded (launch_table.h, daemon_keeper.c).  Its
 * descriptors are its own (daemon_options.c raises its limit where it
 * may), not those of the launch that started it.
 *
 * Run by systemd for the machine (--system: the socket unit's listening
 * socket, or TKD_SYSTEM_DIR), or started by the first launch of a user
 * (--socket-dir=$XDG_RUNTIME_DIR/ppctime --idle-exit=30 --ready-fd=3),
 * which then exits once no launch has been attached for that long; where
 * root has no runtime directory (no systemd), root's first launch starts
 * the machine's so (--system --idle-exit=30 --ready-fd=3).
 *
 * This file is the flow (daemon.h names the parts); its main() alone
 * says why the daemon stops, and with what status.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "daemon.h"
#include "timekeeperd_socket.h"

/* The one place the daemon says why it stops: status 1. */
static int __attribute__((format(printf, 1, 2))) say(const char *fmt, ...)
{
	va_list ap;

	fputs("ppctime-timekeeperd: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

int main(int argc, char **argv)
{
	struct daemon d = { .ready_fd = -1, .listeners = { -1, -1 }, .lock_fd = -1 };
	struct keeper_watchdog wd;
	char dir[PATH_MAX], why[512];
	int status;
	pid_t keeper;

	/* No one, the user included, reaches the pages through /proc/PID/mem. */
	prctl(PR_SET_DUMPABLE, 0);
	switch (daemon_options(argc, argv, &d, why, sizeof(why))) {
	case 0:
		break;
	case 1:
		daemon_usage(stdout);
		return 0;
	case 2:
		daemon_usage(stderr);
		return 1;
	default:
		return say("%s", why);
	}
	/* Its pages would hold this namespace's clocks for every launch. */
	if (!tkd_initial_time_ns())
		return say("in a time namespace of its own: it keeps the initial namespace's "
			   "clocks, for every launch");
	if (!d.dir) {
		if (tkd_user_dir(dir, sizeof(dir), true, &d.system, why, sizeof(why)))
			return say("%s", why);
		d.dir = dir;
	}
	if (daemon_listen(&d, why, sizeof(why)) || daemon_create_pages(&d, why, sizeof(why)))
		return say("%s", why);

	/* The keeper's stops come as SIGCHLD; these end us both. */
	keeper = keeper_watchdog_fork(&wd, d.tk, "ppctime-tkd",
				      (const int[]){ SIGTERM, SIGINT, SIGHUP, 0 },
				      KEEPER_WATCH_ALERTS_ONLY, why, sizeof(why));
	if (keeper < 0)
		return say("%s", why);
	if (!keeper)
		return daemon_keep(&d, why, sizeof(why)) ? say("%s", why) : 0;
	daemon_leave_to_keeper(&d);
	switch (daemon_watch(&wd, &status, why, sizeof(why))) {
	case KEEPER_ENDED:
		if (WIFSIGNALED(status))
			fprintf(stderr, "ppctime-timekeeperd: keeper killed by signal %d\n",
				WTERMSIG(status));
		return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
	case KEEPER_STALLED:
		return say("%s; its pages are now in mode NONE", why);
	default:
		return 0;
	}
}
