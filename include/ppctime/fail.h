/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How the launcher's and the daemon's modules report an error: a message
 * in the caller's buffer (if it gave one), and -1 to return; only a
 * program's main() says it and exits.
 */
#ifndef PPCTIME_FAIL_H
#define PPCTIME_FAIL_H

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static inline int __attribute__((format(printf, 3, 4)))
fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* strerror(errno), in plain words where a descriptor could not be had. */
static inline const char *fd_error(void)
{
	return errno == EMFILE || errno == ENFILE ? "too few free file descriptors" :
	       strerror(errno);
}

#endif /* PPCTIME_FAIL_H */
