/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whom ppctime-timekeeperd and its launches trust, as decisions on what
 * the kernel told them (a peer's uid, a time namespace's name, a file's
 * seals, the clock), so that tests/timekeeperd-trust-test.c can put any
 * case to them without root.  The overflow uid is no one's: every user
 * unmapped in the reader's user namespace shows as it (and so does
 * "nobody"), so it is never trusted as anyone.
 */
#ifndef TIMEKEEPERD_TRUST_H
#define TIMEKEEPERD_TRUST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ppctime/timekeeperd_protocol.h"

/*
 * A page whose last update is older than this is not taken: the daemon's
 * watchdog kills a keeper stopped for 20 ms, one stuck otherwise after
 * 200 ms (as ppctime-run's own did), so a page older than that is dying.
 */
#define TKD_STALE_MS		250
#define TKD_FUTURE_SLACK_NS	1000000	/* CLOCK_MONOTONIC read on two CPUs */

/* Whether a peer showing uid peer is user want: never the overflow uid. */
bool tkd_peer_is(uid_t peer, uid_t want, uid_t overflow);

/*
 * The daemon: whether it serves a launch whose peer shows uid peer, come
 * by its abstract name (by_name: anyone may connect there) or its path.
 * The machine's (system) serves every user; a user's (running as self)
 * serves its user alone, which the path's directory already ensures.
 */
bool tkd_may_serve(bool system, bool by_name, uid_t peer, uid_t self, uid_t overflow);

/*
 * A launch: whether the machine's daemon, reached at socket (a path, in
 * root's directory: trusted as it is; or "@NAME", an abstract name anyone
 * may bind), is one, its peer showing uid peer: root there.
 */
bool tkd_machine_trusted(const char *socket, uid_t peer, uid_t overflow);

/* What a launch does about the user's daemon (tkd_user_next()). */
enum tkd_user_step {
	TKD_USE,		/* it answered, as the user */
	TKD_START,		/* start one in the user's directory */
	TKD_GIVE_UP,		/* keep a timekeeper of its own */
};

/*
 * A launch running as self reached the user's daemon (connected, its peer
 * showing uid peer) or not (connect_errno).  A name another user holds is
 * no daemon of ours: where the user's directory is seen and trusted
 * (dir_trusted) and a daemon may be started there (may_start), one is
 * started regardless, as where no one answered; never for the overflow
 * uid, which cannot be told from another user.
 */
enum tkd_user_step tkd_user_next(bool connected, uid_t peer, uid_t self, uid_t overflow,
				 int connect_errno, bool dir_trusted, bool may_start);

/*
 * Whether ns, the target of /proc/self/ns/time (NULL: unreadable, before
 * Linux 5.6 or without /proc), is the initial time namespace, whose
 * clocks the daemons keep: where it cannot be told, yes (the freshness
 * check, which refuses a clock ahead of ours, is what is left).
 */
bool tkd_time_ns_initial(const char *ns);

/*
 * The status page's last update, last_ns, at now_ns (both the reader's
 * CLOCK_MONOTONIC): 0 if fresh; -1 with why if it is ahead (another time
 * namespace's clocks: refused, not killed); -2 with why if it is older
 * than TKD_STALE_MS (the keeper is stuck).
 */
int tkd_check_fresh(uint64_t last_ns, uint64_t now_ns, char *why, size_t whylen);

/*
 * A handed file's proofs, what (its name in messages): its seals (-1:
 * none, no memfd), its access mode (O_ACCMODE) and size, which must be
 * size_needed at least.  0, or -1 with why.
 */
int tkd_check_sealed(int seals, int access_mode, uint64_t size, uint64_t size_needed,
		     const char *what, char *why, size_t whylen);

/*
 * The hello h, n bytes of it received with msg_flags (recvmsg's), and
 * nr_fds descriptors: 0 if it hands over the pages; else -1 with why,
 * a refusal saying which limit (launch_table.h) or a daemon not ours.
 */
int tkd_check_hello(const struct tkd_hello *h, size_t n, int msg_flags, int nr_fds,
		    char *why, size_t whylen);

#endif /* TIMEKEEPERD_TRUST_H */
