/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What ppctime-timekeeperd and a launch's side of it (timekeeperd_client.h)
 * share: the daemon's directory, its lock and its socket's address, and
 * what says whom either trusts (ppctime/timekeeperd_protocol.h).
 */
#ifndef TIMEKEEPERD_SOCKET_H
#define TIMEKEEPERD_SOCKET_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>

/*
 * The directory of the daemon this user's launches start, into buf: the
 * user's, $XDG_RUNTIME_DIR/ppctime (or /run/user/UID/ppctime), with create
 * made 0700 if need be, trusted if this user alone can write there; for
 * root with no runtime directory at all (no systemd: a container, a build
 * chroot, CI), the machine's, TKD_SYSTEM_DIR, made 0755 and trusted as
 * tkd_check_system_dir() says, and *system set: its daemon serves every
 * user.  0, or -1 with why if it is not to be trusted (buf still names
 * it, if the name fits).
 */
int tkd_user_dir(char *buf, size_t len, bool create, bool *system, char *why, size_t whylen);

/*
 * 0 if TKD_SYSTEM_DIR is root's and root alone can write there (as a
 * systemd socket unit makes it), else -1 with why.
 */
int tkd_check_system_dir(char *why, size_t whylen);

/*
 * dir made with mode if missing, whatever the umask (one of the machine's
 * is no use to other users at 0700); 0, or -1 with why.
 */
int tkd_make_dir(const char *dir, mode_t mode, char *why, size_t whylen);

/*
 * The address of the Unix socket at path, or with abstract of the one
 * named path in the abstract namespace, into sun; its length, or 0 with
 * errno ENAMETOOLONG.
 */
socklen_t tkd_socket_address(struct sockaddr_un *sun, const char *path, bool abstract);

/*
 * The overflow uid (/proc/sys/kernel/overflowuid): how every user unmapped
 * in the reader's user namespace shows, and so no one's in particular.
 */
uid_t tkd_overflow_uid(void);

/*
 * Whether this process reads the initial time namespace's clocks, as the
 * daemons do (true too where that cannot be told: no /proc, no time
 * namespaces).
 */
bool tkd_initial_time_ns(void);

/*
 * An exclusive flock on fd, tried every 10 ms for up to ms: a daemon's
 * directory lock, held while it lives.  0, or -1 with errno (EWOULDBLOCK:
 * still held).
 */
int tkd_lock_within(int fd, int ms);

/*
 * 0 if dir is a directory of uid's with none of the forbidden mode bits
 * (those that let others write there), else -1 with why.
 */
int tkd_check_dir(const char *dir, uid_t uid, mode_t forbidden, char *why, size_t whylen);

#endif /* TIMEKEEPERD_SOCKET_H */
