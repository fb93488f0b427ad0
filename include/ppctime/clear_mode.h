/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the data pages hold once their writer dies, as the processes that
 * run a timekeeper (ppctime-run's own keeper, ppctime-timekeeperd's) ask
 * for it: clock_mode NONE, so the guest's vDSO and the preload's guest
 * clock go to the system call.  The timekeeper (timekeeper/) implements it.
 */
#ifndef PPCTIME_CLEAR_MODE_H
#define PPCTIME_CLEAR_MODE_H

struct timekeeper;

/*
 * In the process that will run timekeeper_run() (a forked child, never a
 * thread of a program): from now on, however this process ends, SIGKILL
 * included, the kernel sets clock_mode NONE in both clock sources of
 * every page, so readers go to the system call rather than serve a page
 * no one updates.  (A write left half done, seq odd, then holds the
 * reader in the wait, where ppctime's vDSO sees NONE.)  Starts threads
 * that only wait, four per page but the first, whose fourth is the
 * caller's own clear_child_tid.  Returns 0, or -1 with errno set: then no
 * reader must be started.
 */
int timekeeper_clear_mode_at_exit(struct timekeeper *tk);

/* The same, the caller's own clear_child_tid left alone: four per page. */
int timekeeper_clear_mode_at_exit_threads(struct timekeeper *tk);

#endif /* PPCTIME_CLEAR_MODE_H */
