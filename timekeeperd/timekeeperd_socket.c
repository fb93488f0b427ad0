// SPDX-License-Identifier: GPL-2.0
/*
 * Where ppctime-timekeeperd and its launches meet, and whom they trust
 * there (timekeeperd_socket.h).
 */
#define _GNU_SOURCE
#include "timekeeperd_socket.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ppctime/fail.h"
#include "ppctime/timekeeperd_protocol.h"
#include "timekeeperd_trust.h"

uid_t tkd_overflow_uid(void)
{
	char buf[16] = "";
	int fd = open("/proc/sys/kernel/overflowuid", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (read(fd, buf, sizeof(buf) - 1) < 0)
			buf[0] = '\0';
		close(fd);
	}
	return buf[0] ? (uid_t)strtoul(buf, NULL, 10) : 65534;
}

bool tkd_initial_time_ns(void)
{
	char ns[64];
	ssize_t len = readlink("/proc/self/ns/time", ns, sizeof(ns) - 1);

	if (len >= 0)
		ns[len] = '\0';
	return tkd_time_ns_initial(len < 0 ? NULL : ns);
}

int tkd_check_dir(const char *dir, uid_t uid, mode_t forbidden, char *why, size_t whylen)
{
	struct stat st;

	if (lstat(dir, &st) < 0)
		return fail(why, whylen, "%s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return fail(why, whylen, "%s is not a directory", dir);
	if (st.st_uid != uid)
		return fail(why, whylen, "%s belongs to uid %u, not %u", dir,
			    (unsigned)st.st_uid, (unsigned)uid);
	if (st.st_mode & forbidden)
		return fail(why, whylen, "%s has mode %03o: others may write there", dir,
			    (unsigned)(st.st_mode & 0777));
	return 0;
}

int tkd_check_system_dir(char *why, size_t whylen)
{
	return tkd_check_dir(TKD_SYSTEM_DIR, 0, S_IWGRP | S_IWOTH, why, whylen);
}

int tkd_make_dir(const char *dir, mode_t mode, char *why, size_t whylen)
{
	/* Made now: with the bits the umask took away too. */
	if (mkdir(dir, mode) == 0 ? chmod(dir, mode) < 0 : errno != EEXIST)
		return fail(why, whylen, "cannot create %s: %s", dir, strerror(errno));
	return 0;
}

int tkd_user_dir(char *buf, size_t len, bool create, bool *system, char *why, size_t whylen)
{
	const char *runtime = getenv("XDG_RUNTIME_DIR"), *own = getenv(TKD_ENV);
	char fallback[64];

	if (!runtime || runtime[0] != '/') {
		snprintf(fallback, sizeof(fallback), "/run/user/%u", (unsigned)getuid());
		runtime = fallback;
	}
	/* Root with none (systemd makes /run/user/0; not here: a container,
	 * a build chroot, CI) starts the machine's daemon. */
	*system = (!own || own[0] != '/') && runtime == fallback && !getuid() &&
		  access(fallback, F_OK) < 0 && errno == ENOENT;
	if (*system) {
		snprintf(buf, len, "%s", TKD_SYSTEM_DIR);
		if (create && tkd_make_dir(buf, 0755, why, whylen))
			return -1;
		return tkd_check_system_dir(why, whylen);
	}
	/* Tests and benchmarks: a directory of their own, nothing else. */
	if (own && own[0] == '/') {
		if ((size_t)snprintf(buf, len, "%s", own) >= len)
			return fail(why, whylen, "%s: name too long", own);
	} else {
		if ((size_t)snprintf(buf, len, "%s/" TKD_USER_SUBDIR, runtime) >= len)
			return fail(why, whylen, "%s: name too long", runtime);
		if (tkd_check_dir(runtime, getuid(), S_IWGRP | S_IWOTH, why, whylen))
			return -1;
	}
	if (create && tkd_make_dir(buf, 0700, why, whylen))
		return -1;
	return tkd_check_dir(buf, getuid(), 077, why, whylen);
}

int tkd_lock_within(int fd, int ms)
{
	for (int waited = 0; flock(fd, LOCK_EX | LOCK_NB) < 0; waited += 10) {
		if (errno != EWOULDBLOCK || waited >= ms)
			return -1;
		usleep(10000);
	}
	return 0;
}

socklen_t tkd_socket_address(struct sockaddr_un *sun, const char *path, bool abstract)
{
	size_t len = strlen(path);

	if (len + abstract >= sizeof(sun->sun_path)) {
		errno = ENAMETOOLONG;
		return 0;
	}
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	memcpy(sun->sun_path + abstract, path, len);
	return offsetof(struct sockaddr_un, sun_path) + abstract + len;
}
