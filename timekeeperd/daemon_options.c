// SPDX-License-Identifier: GPL-2.0
/*
 * ppctime-timekeeperd's command line and limits (daemon.h): where it
 * serves, how it keeps time, how many launches it takes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "daemon.h"
#include "ppctime/fail.h"
#include "timekeeperd_socket.h"

#define MAX_PER_USER		1024	/* launches attached, by default */
#define MAX_FILES		65536	/* descriptors, where the daemon may raise */
#define SPARE_FDS		64	/* kept from launches: pages, sockets, epoll */

/* arg, option's, a number from min to max into *n; or -1 with why. */
static int number(const char *option, const char *arg, unsigned long min, unsigned long max,
		  unsigned long *n, char *why, size_t whylen)
{
	char *end;

	errno = 0;
	*n = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || *n < min || *n > max)
		return fail(why, whylen, "--%s=%s: not a number from %lu to %lu", option, arg,
			    min, max);
	return 0;
}

void daemon_usage(FILE *to)
{
	fprintf(to,
		"Usage: ppctime-timekeeperd [--system | --socket-dir=DIR] [--idle-exit=SECONDS]\n"
		"                           [--update-hz=N] [--timekeeper=auto|mirror|steer]\n"
		"                           [--max-launches-per-user=N]\n"
		"The shared timekeeper of ppctime-run: keeps one vDSO data page per powerpc\n"
		"target and hands them, sealed read-only, to every launch.\n");
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

/* One option into d (per_user: --max-launches-per-user's): 0, 2 or -1. */
static int daemon_option(int opt, const char *arg, struct daemon *d, unsigned long *per_user,
			 char *why, size_t whylen)
{
	unsigned long n;

	switch (opt) {
	case 's': d->system = true; d->dir = TKD_SYSTEM_DIR; return 0;
	case 'd': d->dir = arg; return 0;
	case 'i':
		if (number("idle-exit", arg, 0, 86400, &n, why, whylen))
			return -1;
		d->idle_s = n;
		return 0;
	case 'r':
		if (number("ready-fd", arg, 3, INT_MAX, &n, why, whylen))
			return -1;
		d->ready_fd = n;
		return 0;
	case 'u':
		if (number("update-hz", arg, 1, TIMEKEEPER_MAX_HZ, &n, why, whylen))
			return -1;
		d->options.update_hz = n;
		return 0;
	case 'm':
		if (timekeeper_mode_from_name(arg, &d->options.mode))
			return fail(why, whylen, "--timekeeper=%s: auto, mirror or steer", arg);
		return 0;
	case 'p':
		return number("max-launches-per-user", arg, 1, INT_MAX, per_user, why, whylen);
	default:
		return 2;
	}
}

int daemon_options(int argc, char **argv, struct daemon *d, char *why, size_t whylen)
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
	unsigned long per_user = MAX_PER_USER;
	int opt, r;

	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		if (opt == 'h')
			return 1;
		r = daemon_option(opt, optarg, d, &per_user, why, whylen);
		if (r)
			return r;
	}
	if (optind != argc)
		return 2;
	launch_table_limits(&d->launches, own_files(), per_user);
	if (d->ready_fd >= 0)
		fcntl(d->ready_fd, F_SETFD, FD_CLOEXEC);
	return 0;
}
