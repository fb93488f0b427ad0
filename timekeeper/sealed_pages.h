/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one way data pages are made, for a launch's own keeper
 * (run/run_keeper.c) and the shared one (timekeeperd/daemon_keeper.c): a
 * memfd mapped read-write by the process that creates it, then sealed, so
 * that this mapping, which its keeper inherits, stays the only writable
 * one: no one else, a reader reopening it through /proc included, can
 * write the file or map it writable.
 */
#ifndef PPCTIME_SEALED_PAGES_H
#define PPCTIME_SEALED_PAGES_H

#include <stddef.h>

/*
 * A memfd named name of len bytes, close-on-exec, mapped read-write at
 * *map, sealed against growing, shrinking and every later writable
 * mapping (F_SEAL_FUTURE_WRITE), and against new seals.  Its descriptor,
 * or -1 with why (what: the pages as a message names them).
 */
int sealed_pages_create(const char *name, const char *what, size_t len, void **map,
			char *why, size_t whylen);

#endif /* PPCTIME_SEALED_PAGES_H */
