// SPDX-License-Identifier: GPL-2.0
/*
 * Where ppctime-run finds what it runs (run.h): its support files in
 * LOADER_DIR, PRELOAD_DIR, DAEMON_DIR, HANDLER_DIR and IMAGE_DIR, given at
 * compile time (run/Rules.mk builds this file once per tree), and
 * QEMU, on the PATH or where configure found it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run.h"

/*
 * A file ppctime-run needs at run time, NAME in DIR, a directory relative
 * to this program's own: run/Rules.mk builds ppctime-run twice, the
 * build tree's finding the build tree's files, the installed one the
 * installed files wherever the installed tree was moved.
 */
static int support_file(const char *dir, const char *name, bool required, char **found,
			struct run_error *e)
{
	static char own_dir[PATH_MAX];
	char *path, *tidy;

	*found = NULL;
	if (!own_dir[0]) {
		ssize_t len = readlink("/proc/self/exe", own_dir, sizeof(own_dir) - 1);

		if (len <= 0)
			return refuse(e, "cannot find this program's directory: /proc/self/exe: %s",
				      len < 0 ? strerror(errno) : "empty");
		own_dir[len] = '\0';
		*strrchr(own_dir, '/') = '\0';
	}
	if (asprintf(&path, "%s/%s/%s", own_dir, dir, name) < 0)
		return refuse(e, "out of memory");
	if (access(path, R_OK) < 0) {
		if (required)
			refuse(e, "%s: %s: was the target enabled at configure time, and the tree "
			       "built (or installed)?", path, strerror(errno));
		free(path);
		return required ? -1 : 0;
	}
	tidy = realpath(path, NULL);
	if (tidy) {
		free(path);
		path = tidy;
	}
	*found = path;
	return 0;
}

int support_daemon(char **path, struct run_error *e)
{
	return support_file(DAEMON_DIR, "ppctime-timekeeperd", false, path, e);
}

int support_image(const struct ppctime_target *t, char **path, struct run_error *e)
{
	return support_file(IMAGE_DIR, t->image, true, path, e);
}

int support_loader(const struct ppctime_target *t, bool required, char **path, struct run_error *e)
{
	return support_file(LOADER_DIR, t->loader, required, path, e);
}

/* What ppctime puts in QEMU: the preload or the host vDSO. */
int support_preload(const char *name, char **path, struct run_error *e)
{
	return support_file(PRELOAD_DIR, name, true, path, e);
}

/* name in the handlers' directory; "." that directory. */
int support_handler(const char *name, char **path, struct run_error *e)
{
	return support_file(HANDLER_DIR, name, true, path, e);
}

/*
 * t's QEMU: choice (--qemu or QEMU_ENV), a program or a directory holding
 * t's by its name (qemu-ppc64le, or qemu-ppc64le-static); else configure's,
 * else the one of either name on the PATH.
 */
const char *find_qemu(const struct ppctime_target *t, const char *choice, struct run_error *e)
{
	const char *slash = strrchr(t->qemu, '/'), *name = slash ? slash + 1 : t->qemu;
	const char *dirs = getenv("PATH");
	static char path[PATH_MAX];
	struct stat st;

	if (choice && stat(choice, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(path, sizeof(path), "%s/%s", choice, name);
		if (access(path, X_OK) < 0)
			snprintf(path, sizeof(path), "%s/%s-static", choice, name);
		if (access(path, X_OK) == 0)
			return path;
		refuse(e, "%s holds no %s (nor %s-static): --qemu or " QEMU_ENV " names a QEMU, "
		       "or a directory holding the target's", choice, name, name);
		return NULL;
	}
	if (choice) {
		if (access(choice, X_OK) == 0)
			return choice;
		refuse(e, "%s: %s (--qemu or " QEMU_ENV ")", choice, strerror(errno));
		return NULL;
	}
	if (slash && access(t->qemu, X_OK) == 0)
		return t->qemu;
	/* qemu-user's name, else qemu-user-static's. */
	for (int s = 0; s < 2; s++) {
		for (const char *d = dirs; d && *d;) {
			int len = strcspn(d, ":");

			if (len && snprintf(path, sizeof(path), "%.*s/%s%s", len, d, name,
					    s ? "-static" : "") < (int)sizeof(path) &&
			    access(path, X_OK) == 0)
				return path;
			d += len + (d[len] == ':');
		}
	}
	refuse(e, "%s not found: install the Debian package qemu-user", name);
	return NULL;
}

/* Debian's static QEMU for t: qemu-ppcXX-static in dir or beside QEMU;
 * in dir, qemu-ppcXX if that is missing (QEMU 10's qemu-user is static). */
void static_qemu(const struct ppctime_target *t, const char *dir, char *path, size_t len)
{
	const char *slash = strrchr(t->qemu, '/'), *name = slash ? slash + 1 : t->qemu;
	int dirlen = dir ? (int)strlen(dir) : slash ? (int)(slash - t->qemu) : 0;

	snprintf(path, len, "%.*s%s%s-static", dirlen, dir ? dir : t->qemu, dirlen ? "/" : "",
		 name);
	if (dir && access(path, R_OK) < 0)
		snprintf(path, len, "%s/%s", dir, name);
}
