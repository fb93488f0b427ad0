/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one rule by which a watchdog gives up on a timekeeper: ppctime-run's
 * for a launch's own keeper, ppctime-timekeeperd's for the shared one.
 *
 * A keeper updates every period (by default just after the host's ticks,
 * at most 40 times a second while its readers sleep).  Stopped (SIGSTOP, a tracer) it counts as
 * stalled once its update count has stayed put
 * KEEPER_STALL_STOPPED_MS (or 2 periods), since until then the coarse
 * clocks stand still; in any other state after KEEPER_STALL_MS (or 3
 * periods): merely waiting for a busy CPU is no reason to give up the
 * vDSO, whose high-resolution clocks run on between updates.  The
 * watchdog then kills it; its death leaves the pages in mode NONE.
 */
#ifndef PPCTIME_KEEPER_WATCH_H
#define PPCTIME_KEEPER_WATCH_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

struct timekeeper;

#define KEEPER_STALL_STOPPED_MS	20
#define KEEPER_STALL_MS		200

/*
 * How often a watchdog looks, if at all.  The keeper is its child: a stop
 * sends it SIGCHLD, after which it looks four times as often as a stop
 * counts for a while (keeper_watch_alerted()), so a stop is seen in time
 * without waking often otherwise.  A keeper with a deadline of its own
 * (below) needs no other looks: whatever else stalls it, the deadline
 * ends it, and its death is seen at once.
 */
#define KEEPER_WATCH_POLL_MS	100
#define KEEPER_WATCH_ALERTS_ONLY	(-1)

struct keeper_watch {
	pid_t keeper;
	long long period_ms, poll_ms;	/* its updates', our looks' */
	uint64_t last_updates;
	long long moved_ms, last_look_ms;
	long long closely_until_ms;	/* after a SIGCHLD */
};

/*
 * Watch keeper, which has made updates so far, looking every poll_ms
 * (KEEPER_WATCH_POLL_MS, or KEEPER_WATCH_ALERTS_ONLY: after SIGCHLD only).
 */
void keeper_watch_start(struct keeper_watch *w, pid_t keeper, unsigned update_hz,
			long long poll_ms, uint64_t updates);

/* The keeper's SIGCHLD came: a stop or a continue. */
void keeper_watch_alerted(struct keeper_watch *w);

/* How long, in ms, until the next look: poll()'s timeout (-1: none). */
int keeper_watch_wait_ms(const struct keeper_watch *w);

/*
 * A look at the keeper's update count: 0 while it keeps up; otherwise it
 * has been killed and reaped, why says so, and -1.
 */
int keeper_watch_look(struct keeper_watch *w, uint64_t updates, char *why, size_t len);

/*
 * The one watchdog of a keeper, a launch's (run/run_watch.c) or the
 * daemon's (timekeeperd/daemon_watch.c), applying the rule above: the
 * keeper is its child, its stops seen through SIGCHLD (blocked and read
 * from sigfd before the fork: no stop goes unseen), its death through
 * pidfd, its stalls through tk's update count, which both share.  Its
 * loop is the caller's, which polls keeper_watchdog_fds() with its own.
 */
struct keeper_watchdog {
	struct timekeeper *tk;
	pid_t keeper;			/* 0: none, or gone */
	int pidfd, sigfd;		/* -1: none */
	struct keeper_watch stall;
};

/*
 * Block SIGCHLD and the signals in also (0-terminated, or NULL), which
 * sigfd then reads, and fork the keeper of tk, named name, killed when
 * this process dies (PR_SET_PDEATHSIG).  0 in the keeper (sigfd closed);
 * here its pid, watched from now on (poll_ms as keeper_watch_start()
 * takes it); -1 with why (no keeper left running).
 */
pid_t keeper_watchdog_fork(struct keeper_watchdog *wd, struct timekeeper *tk,
			   const char *name, const int *also, long long poll_ms,
			   char *why, size_t whylen);

/* The two descriptors to poll for wd, into fds (fd -1: none left). */
void keeper_watchdog_fds(const struct keeper_watchdog *wd, struct pollfd fds[2]);

/* poll()'s timeout for wd: -1 once no keeper is left. */
int keeper_watchdog_wait_ms(const struct keeper_watchdog *wd);

enum keeper_event {
	KEEPER_KEEPS,			/* nothing to do */
	KEEPER_ENDED,			/* it died: reaped, *status its wait status */
	KEEPER_STALLED,			/* killed and reaped, why says so */
	KEEPER_SIGNALLED,		/* one of also came: *status its number */
};

/*
 * What the poll() of keeper_watchdog_fds() found, fds as it returned
 * them.  Past KEEPER_ENDED and KEEPER_STALLED no keeper is left.
 */
enum keeper_event keeper_watchdog_check(struct keeper_watchdog *wd,
					const struct pollfd fds[2], int *status,
					char *why, size_t whylen);

/* Kill the keeper, if one is left, and reap it. */
void keeper_watchdog_end(struct keeper_watchdog *wd);

/*
 * The keeper's own backstop, for when its watchdog cannot act (both
 * stopped, a frozen cgroup): a timer that sends the keeper SIGKILL, which
 * the kernel delivers to a stopped or frozen process too, unless its
 * updates keep pushing it back.  It fires KEEPER_DEADLINE_MS (or 6
 * periods) after the last update at most, and half that at least: twice
 * the watchdog's bound for a keeper that is not stopped, so it acts only
 * where the watchdog could not.
 */
#define KEEPER_DEADLINE_MS	(2 * KEEPER_STALL_MS)

struct keeper_deadline {
	timer_t timer;
	uint64_t ns, pushed_ns;		/* its length; CLOCK_MONOTONIC when set */
};

/* Arm it in the keeper, which updates update_hz times a second; 0 or -1. */
int keeper_deadline_start(struct keeper_deadline *d, unsigned update_hz);

/* Called at each update, made at now_ns (CLOCK_MONOTONIC): pushes the
 * deadline back once half of it has passed. */
void keeper_deadline_updated(struct keeper_deadline *d, uint64_t now_ns);

#endif /* PPCTIME_KEEPER_WATCH_H */
