// SPDX-License-Identifier: GPL-2.0
/*
 * The shared keeper's launch table (timekeeperd/launch_table.h), alone:
 * no user may take more than half the launches it serves however its
 * descriptors bound them, a refusal says which limit, an ended launch
 * gives its share back, a uid's burst of connections is cut at its
 * budget without touching another's, an ended process no longer counts,
 * and a running launch shows as one while a sleeping one does not.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_harness.h"
#include "timekeeper/host_clock_ns.h"
#include "timekeeperd/launch_table.h"

static int ep;

/* A child that spins (running) or sleeps until killed, and its pidfd. */
static pid_t child(bool running, int *pidfd)
{
	pid_t pid = fork();

	if (!pid) {
		for (;;)
			if (!running)
				pause();
	}
	*pidfd = syscall(SYS_pidfd_open, pid, 0);
	return pid;
}

static void end(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static void test_share(const void *unused __attribute__((unused)))
{
	struct launch_table l = { 0 };

	case_begin("a user's share is half of what the descriptors allow");
	launch_table_limits(&l, 96, 1024);
	if (l.max != 96 || l.max_per_user != 48)
		case_fail("96 launches in all: %zu in all, %zu per user", l.max, l.max_per_user);
	launch_table_limits(&l, 65472, 1024);
	if (l.max_per_user != 1024)
		case_fail("65472 in all: %zu per user, not the 1024 asked", l.max_per_user);
	case_end();
}

static void test_refusals(const void *unused __attribute__((unused)))
{
	struct launch_table l = { 0 };
	uint64_t now = clock_ns(CLOCK_MONOTONIC);
	size_t of_uid;

	case_begin("each refusal says which limit");
	launch_table_limits(&l, 4, 1024);
	for (int fd = 0; fd < 2; fd++)
		if (!launch_table_attach(&l, ep, 0, 1001, eventfd(0, EFD_CLOEXEC), now))
			case_fail("attach: %m");
	launch_table_find(&l, 0, 1001, &of_uid);
	if (of_uid != 2 || launch_table_room(&l, of_uid) != LAUNCH_REFUSED_USER)
		case_fail("uid 1001 with %zu of 2: not refused as a user", of_uid);
	launch_table_find(&l, 0, 1002, &of_uid);
	if (launch_table_room(&l, of_uid) != LAUNCH_SERVED)
		case_fail("uid 1002 refused with %zu of 4 taken", l.n);
	launch_table_attach(&l, ep, 0, 1002, eventfd(0, EFD_CLOEXEC), now);
	launch_table_attach(&l, ep, 0, 1003, eventfd(0, EFD_CLOEXEC), now);
	launch_table_find(&l, 0, 1004, &of_uid);
	if (launch_table_room(&l, of_uid) != LAUNCH_REFUSED_ALL)
		case_fail("uid 1004 with all 4 taken: not refused as all");
	while (l.n)
		launch_table_detach(&l, l.v[0].fd);
	case_end();
}

static void test_share_back(const void *unused __attribute__((unused)))
{
	struct launch_table l = { 0 };
	uint64_t now = clock_ns(CLOCK_MONOTONIC);
	size_t of_uid;
	int fd;

	case_begin("a launch that ended frees its user's share; another descriptor is no launch's");
	launch_table_limits(&l, 4, 1024);
	fd = eventfd(0, EFD_CLOEXEC);
	launch_table_attach(&l, ep, 0, 1001, fd, now);
	launch_table_attach(&l, ep, 0, 1001, eventfd(0, EFD_CLOEXEC), now);
	if (!launch_table_detach(&l, fd))
		case_fail("a launch's descriptor not detached");
	launch_table_find(&l, 0, 1001, &of_uid);
	if (of_uid != 1 || launch_table_room(&l, of_uid) != LAUNCH_SERVED)
		case_fail("uid 1001 with %zu of 2 after one ended: refused", of_uid);
	if (launch_table_detach(&l, STDIN_FILENO) || l.n != 1)
		case_fail("stdin taken for a launch's descriptor");
	while (l.n)
		launch_table_detach(&l, l.v[0].fd);
	case_end();
}

static void test_connects(const void *unused __attribute__((unused)))
{
	struct launch_table l = { 0 };
	uint64_t now = clock_ns(CLOCK_MONOTONIC);
	int served = 0;

	case_begin("a uid's burst of connections is cut at its budget, another's is not");
	for (int i = 0; i < 1000; i++)
		served += launch_table_connect(&l, 2002, now) == LAUNCH_SERVED;
	if (served != CONNECTS_PER_UID)
		case_fail("%d of 1000 served in one window, not %d", served, CONNECTS_PER_UID);
	if (launch_table_connect(&l, 1001, now) != LAUNCH_SERVED)
		case_fail("another uid refused in the same window");
	if (launch_table_connect(&l, 2002, now + CONNECT_WINDOW_NS) != LAUNCH_SERVED)
		case_fail("the flooding uid refused in the next window");
	for (uid_t uid = 3000; uid < 3000 + CONNECT_WINDOW_UIDS; uid++)
		launch_table_connect(&l, uid, now + CONNECT_WINDOW_NS);
	if (launch_table_connect(&l, 9999, now + CONNECT_WINDOW_NS) != LAUNCH_REFUSED_BUSY)
		case_fail("a uid past %d in one window served", CONNECT_WINDOW_UIDS);
	case_end();
}

/* The process cases, in turn, on one table of two children. */
static struct launch_table procs;
static int busy_fd, idle_fd;
static pid_t busy, idle;

static void test_live_process(const void *unused __attribute__((unused)))
{
	size_t of_uid;

	busy = child(true, &busy_fd);
	idle = child(false, &idle_fd);
	launch_table_limits(&procs, 64, 1024);
	case_begin("a live process counts, once");
	launch_table_attach(&procs, ep, idle, getuid(), idle_fd, clock_ns(CLOCK_MONOTONIC));
	if (!launch_table_find(&procs, idle, getuid(), &of_uid) || of_uid != 1)
		case_fail("a live process not found");
	case_end();
}

static void test_running(const void *unused __attribute__((unused)))
{
	struct timespec tenth = { 0, 100000000 };

	case_begin("a running launch shows as one, a sleeping one does not");
	nanosleep(&tenth, NULL);
	if (launch_table_ran(&procs, 8, clock_ns(CLOCK_MONOTONIC)))
		case_fail("a sleeping process taken as running");
	launch_table_attach(&procs, ep, busy, getuid(), busy_fd, clock_ns(CLOCK_MONOTONIC));
	nanosleep(&tenth, NULL);
	if (!launch_table_ran(&procs, 8, clock_ns(CLOCK_MONOTONIC)))
		case_fail("a spinning process not taken as running");
	case_end();
}

static void test_ended(const void *unused __attribute__((unused)))
{
	size_t of_uid;

	end(busy);
	end(idle);
	case_begin("an ended process no longer counts");
	if (launch_table_find(&procs, idle, getuid(), &of_uid))
		case_fail("an ended process found");
	case_end();
}

int main(void)
{
	test_start_watchdog();
	ep = epoll_create1(EPOLL_CLOEXEC);
	test_add_case(test_share, NULL);
	test_add_case(test_refusals, NULL);
	test_add_case(test_share_back, NULL);
	test_add_case(test_connects, NULL);
	test_add_case(test_live_process, NULL);
	test_add_case(test_running, NULL);
	test_add_case(test_ended, NULL);
	return test_run_cases();
}
