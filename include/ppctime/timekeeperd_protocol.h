/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How a launch finds the shared timekeeper (ppctime-timekeeperd) and what
 * it gets from it: shared by the daemon and ppctime-run.
 *
 * The daemon listens on a Unix socket, the machine's under TKD_SYSTEM_DIR
 * (a systemd socket unit, root's directory) or the user's under
 * $XDG_RUNTIME_DIR/TKD_USER_SUBDIR (started on demand by the first
 * launch).  Each also listens on the socket's path as a name in the
 * abstract namespace (a NUL, then the path), for launches in a chroot,
 * which does not show the file; anyone may bind such a name, so a launch
 * trusts it only if the peer is root (systemd's socket unit) or the user,
 * and the user's daemon serves it to its user alone.
 * A launch connects and at once gets one message: a struct
 * tkd_hello and, as SCM_RIGHTS, TKD_NR_FDS descriptors, opened read-only:
 * the status page, then one data file per target and data layout
 * (tkd_data_index()), so that no program is ever handed a page of
 * another layout than its image reads.  Each is a memfd sealed against
 * growing, shrinking and any new writable mapping or write(): only the
 * daemon, which mapped it before sealing, writes it.  A data file holds
 * its layout's pages LAUNCH_DATA_STRIDE apart, as the loader maps them
 * (ppctime/launch_protocol.h), for any page size up to that.
 *
 * The daemon counts the launches attached to know when it is idle.  It
 * watches the launch's process through a pidfd (the peer's, as the kernel
 * names it) and says so with TKD_HELLO_PID_WATCHED: the launch may then
 * hang up and become the program (ppctime-run execs QEMU), since that
 * process ends when the program does.  Where it cannot (a peer in a PID
 * namespace it does not see), the launch keeps the connection open while
 * its program runs, and the daemon counts the connections.  What it keeps
 * is bounded: one entry per process however often it connects, released
 * when the process ends (or the connection closes), at most `limit` per
 * user and as many in all as its descriptors allow, and so many
 * connections a user in a short time; a launch past that gets
 * TKD_HELLO_REFUSED, saying which limit, and keeps a timekeeper of its
 * own.
 */
#ifndef TIMEKEEPERD_PROTOCOL_H
#define TIMEKEEPERD_PROTOCOL_H

#include <stdint.h>

#include "ppctime/launch_protocol.h"
#include "ppctime/target_table.h"
#include "ppctime/vdso_layout.h"

#define TKD_SYSTEM_DIR		"/run/ppctime"
#define TKD_USER_SUBDIR		"ppctime"
#define TKD_SOCKET		"timekeeperd.sock"
/* Held (flock) by the live daemon for its whole life: one per directory. */
#define TKD_LOCK		"timekeeperd.lock"
/* Held by the launch that is starting one, so only one launch does. */
#define TKD_SPAWN_LOCK		"spawn.lock"
/* The stderr of a daemon a launch started. */
#define TKD_LOG			"timekeeperd.log"

/*
 * For ppctime-run: "off", no daemon; an absolute directory, the user's
 * daemon there and no other (tests, benchmarks).
 */
#define TKD_ENV			"PPCTIME_TIMEKEEPERD"

#define TKD_MAX_PAGE_SIZE	LAUNCH_DATA_STRIDE	/* what --page-size accepts */
#define TKD_MAGIC		0x70707464u	/* "pptd" */
#define TKD_VERSION		3

/*
 * After the status, one data file per target of ppctime_targets[] and
 * layout of vdso_layouts[], the targets in their order, each with its
 * layouts in theirs.
 */
#define TKD_NR_TARGETS	((int)PPCTIME_NR_TARGETS)
#define TKD_NR_LAYOUTS	((int)(sizeof(vdso_layouts) / sizeof(vdso_layouts[0])))
#define TKD_NR_DATA	(TKD_NR_TARGETS * TKD_NR_LAYOUTS)
#define TKD_NR_FDS	(1 + TKD_NR_DATA)

/* Which data file serves ppctime_targets[target] in vdso_layouts[layout]. */
static inline int tkd_data_index(int target, int layout)
{
	return target * TKD_NR_LAYOUTS + layout;
}

/* The size of a data file of layout l. */
static inline uint64_t tkd_data_bytes(const struct vdso_layout *l)
{
	return (uint64_t)l->nr_pages * LAUNCH_DATA_STRIDE;
}

#define TKD_HELLO_PID_WATCHED	1u	/* the launch may hang up */
#define TKD_HELLO_REFUSED	2u	/* no descriptors: its user has the most
					   launches attached that it serves */
#define TKD_HELLO_REFUSED_ALL	4u	/* with it: it serves the most in all */
#define TKD_HELLO_REFUSED_BUSY	8u	/* with it: its user connected too often
					   just now */

struct tkd_hello {
	uint32_t magic, version;
	int32_t pid;		/* the keeper's */
	uint32_t nr_fds;
	uint64_t page_stride;	/* between the pages of each data file */
	uint32_t flags;		/* TKD_HELLO_* */
	uint32_t limit;		/* launches served per user, or in all */
};

/*
 * The status page, written by the keeper at every update: a launch uses
 * the data pages only if this moved lately, and the daemon's watchdog
 * kills a keeper whose count stands still.
 */
struct tkd_status {
	uint32_t magic, version;
	int32_t pid;		/* the keeper's */
	uint32_t update_hz;
	uint64_t updates;		/* atomic */
	uint64_t last_update_ns;	/* CLOCK_MONOTONIC, atomic */
	char describe[384];		/* timekeeper_describe(), for -v */
};

#endif /* TIMEKEEPERD_PROTOCOL_H */
