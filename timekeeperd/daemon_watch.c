// SPDX-License-Identifier: GPL-2.0
/*
 * ppctime-timekeeperd's watchdog (daemon.h), the keeper's parent: it
 * kills a keeper that a stop (its SIGCHLD) holds still, by the rule
 * ppctime-run's watchdog applies to a launch's own (keeper_watch.h), and
 * the daemon ends with the keeper.  It looks only when alerted: whatever
 * else stalls the keeper, its own deadline ends it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>

#include "daemon.h"

enum keeper_event daemon_watch(struct keeper_watchdog *wd, int *status, char *why,
			       size_t whylen)
{
	enum keeper_event event;

	do {
		struct pollfd fds[2];

		keeper_watchdog_fds(wd, fds);
		poll(fds, 2, keeper_watchdog_wait_ms(wd));
		event = keeper_watchdog_check(wd, fds, status, why, whylen);
	} while (event == KEEPER_KEEPS);
	/* SIGTERM and the like end us both. */
	keeper_watchdog_end(wd);
	/* The socket stays: the next daemon unlinks it under the lock, which
	 * it may hold already if we were stopped. */
	return event;
}
