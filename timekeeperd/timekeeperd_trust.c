// SPDX-License-Identifier: GPL-2.0
/* Whom the daemon and its launches trust (timekeeperd_trust.h). */
#define _GNU_SOURCE
#include "timekeeperd_trust.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <sys/socket.h>

#include "ppctime/fail.h"

/* PROC_TIME_INIT_INO: the kernel's fixed inode of the initial time namespace. */
#define INITIAL_TIME_NS	"time:[4026531834]"
#define NEEDED_SEALS	(F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_FUTURE_WRITE)

bool tkd_peer_is(uid_t peer, uid_t want, uid_t overflow)
{
	return peer == want && want != overflow;
}

bool tkd_may_serve(bool system, bool by_name, uid_t peer, uid_t self, uid_t overflow)
{
	return system || !by_name || tkd_peer_is(peer, self, overflow);
}

bool tkd_machine_trusted(const char *socket, uid_t peer, uid_t overflow)
{
	return socket[0] == '/' || tkd_peer_is(peer, 0, overflow);
}

enum tkd_user_step tkd_user_next(bool connected, uid_t peer, uid_t self, uid_t overflow,
				 int connect_errno, bool dir_trusted, bool may_start)
{
	bool squatted = connected && !tkd_peer_is(peer, self, overflow);

	if (connected && !squatted)
		return TKD_USE;
	if (dir_trusted && may_start && self != overflow &&
	    (squatted || connect_errno == ENOENT || connect_errno == ECONNREFUSED))
		return TKD_START;
	return TKD_GIVE_UP;
}

bool tkd_time_ns_initial(const char *ns)
{
	return !ns || !strcmp(ns, INITIAL_TIME_NS);
}

int tkd_check_fresh(uint64_t last_ns, uint64_t now_ns, char *why, size_t whylen)
{
	if (last_ns > now_ns + TKD_FUTURE_SLACK_NS)
		return fail(why, whylen, "its last update is %" PRIu64 " ms ahead of our "
			    "CLOCK_MONOTONIC: another time namespace's clocks",
			    (last_ns - now_ns) / 1000000);
	if (now_ns > last_ns && now_ns - last_ns > TKD_STALE_MS * 1000000ull)
		return fail(why, whylen, "it is stalled: no update in %" PRIu64 " ms",
			    (now_ns - last_ns) / 1000000) - 1;
	return 0;
}

int tkd_check_sealed(int seals, int access_mode, uint64_t size, uint64_t size_needed,
		     const char *what, char *why, size_t whylen)
{
	if (seals < 0 || (seals & NEEDED_SEALS) != NEEDED_SEALS)
		return fail(why, whylen, "its %s is not a memfd sealed against writing", what);
	if (access_mode != O_RDONLY)
		return fail(why, whylen, "its %s was not handed over read-only", what);
	if (size < size_needed)
		return fail(why, whylen, "its %s is smaller than %" PRIu64 " bytes", what,
			    size_needed);
	return 0;
}

int tkd_check_hello(const struct tkd_hello *h, size_t n, int msg_flags, int nr_fds,
		    char *why, size_t whylen)
{
	if (n != sizeof(*h) || h->magic != TKD_MAGIC || h->version != TKD_VERSION)
		return fail(why, whylen, "not a ppctime-timekeeperd of version %d", TKD_VERSION);
	if (h->flags & TKD_HELLO_REFUSED_BUSY)
		return fail(why, whylen, "this user connected too often just now");
	if (h->flags & TKD_HELLO_REFUSED_ALL)
		return fail(why, whylen, "it serves no more launches now (%u at most, of all "
			    "users)", (unsigned)h->limit);
	if (h->flags & TKD_HELLO_REFUSED)
		return fail(why, whylen, "it serves no more launches of this user now (%u at "
			    "most)", (unsigned)h->limit);
	if (msg_flags & MSG_CTRUNC)
		return fail(why, whylen, "its %d descriptors did not fit: too few free file "
			    "descriptors (ulimit -n)", TKD_NR_FDS);
	if (h->nr_fds != TKD_NR_FDS || nr_fds != TKD_NR_FDS)
		return fail(why, whylen, "it sent %u descriptors, not %d", (unsigned)h->nr_fds,
			    TKD_NR_FDS);
	return 0;
}
