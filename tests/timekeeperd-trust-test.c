// SPDX-License-Identifier: GPL-2.0
/*
 * Whom ppctime-timekeeperd and its launches trust (timekeeperd_trust.h,
 * timekeeperd_socket.h), put crafted cases, as no test machine could
 * stage them without root and other users: the overflow uid is no one,
 * a foreign time namespace's clocks are refused, a socket name another
 * user squats is neither served nor trusted, a refusal says which limit,
 * and only a sealed read-only memfd (sealed_pages.h, as both keepers make
 * them) is taken.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_harness.h"
#include "timekeeper/sealed_pages.h"
#include "timekeeperd/timekeeperd_socket.h"
#include "timekeeperd/timekeeperd_trust.h"

#define OVERFLOW	65534
#define USER		1000
#define OTHER		1001
#define MS		1000000ull

static char why[512];

static void test_overflow_uid(const void *unused __attribute__((unused)))
{
	case_begin("the overflow uid is no one: not the user, not served, never started for");
	if (!tkd_peer_is(USER, USER, OVERFLOW) || tkd_peer_is(OTHER, USER, OVERFLOW))
		case_fail("a peer's uid is not told from another's");
	if (tkd_peer_is(OVERFLOW, OVERFLOW, OVERFLOW))
		case_fail("a peer showing the overflow uid trusted as a launch of it");
	if (tkd_may_serve(false, true, OVERFLOW, OVERFLOW, OVERFLOW))
		case_fail("a user's daemon running as the overflow uid serves it by name");
	if (tkd_machine_trusted("@" TKD_SYSTEM_DIR "/" TKD_SOCKET, 0, 0))
		case_fail("root trusted by name where root is the overflow uid");
	if (tkd_user_next(false, 0, OVERFLOW, OVERFLOW, ENOENT, true, true) != TKD_GIVE_UP ||
	    tkd_user_next(true, OVERFLOW, OVERFLOW, OVERFLOW, 0, true, true) != TKD_GIVE_UP)
		case_fail("a launch as the overflow uid uses or starts a daemon of its own");
	case_end();
}

static void test_time_namespaces(const void *unused __attribute__((unused)))
{
	uint64_t now = 1000000 * MS;

	case_begin("a foreign time namespace's clocks are refused, not taken as stale");
	if (!tkd_time_ns_initial("time:[4026531834]") || !tkd_time_ns_initial(NULL))
		case_fail("the initial time namespace (or one that cannot be told) refused");
	if (tkd_time_ns_initial("time:[4026532512]"))
		case_fail("another time namespace taken as the initial one");
	if (tkd_check_fresh(now - 10 * MS, now, why, sizeof(why)) ||
	    tkd_check_fresh(now + TKD_FUTURE_SLACK_NS / 2, now, why, sizeof(why)))
		case_fail("a fresh update refused: %s", why);
	if (tkd_check_fresh(now + 3600000 * MS, now, why, sizeof(why)) != -1 ||
	    !strstr(why, "another time namespace"))
		case_fail("an update an hour ahead: %s", why);
	if (tkd_check_fresh(now - (TKD_STALE_MS + 1) * MS, now, why, sizeof(why)) != -2 ||
	    !strstr(why, "stalled"))
		case_fail("an update %d ms old not stale: %s", TKD_STALE_MS + 1, why);
	case_end();
}

static void test_squatted_names(const void *unused __attribute__((unused)))
{
	case_begin("a socket name another user squats is neither trusted nor served");
	if (tkd_user_next(true, OTHER, USER, OVERFLOW, 0, true, true) != TKD_START)
		case_fail("a squatted name stops the user starting a daemon where it may");
	if (tkd_user_next(true, OTHER, USER, OVERFLOW, 0, false, true) != TKD_GIVE_UP)
		case_fail("another user's daemon used, or one started in an untrusted directory");
	if (tkd_user_next(true, USER, USER, OVERFLOW, 0, false, true) != TKD_USE)
		case_fail("the user's own daemon, by name, not used");
	if (tkd_user_next(false, 0, USER, OVERFLOW, ECONNREFUSED, true, false) != TKD_GIVE_UP)
		case_fail("a daemon started where none is installed");
	if (tkd_user_next(false, 0, USER, OVERFLOW, ETIMEDOUT, true, true) != TKD_GIVE_UP)
		case_fail("a daemon started beside one whose backlog is full");
	if (tkd_machine_trusted("@" TKD_SYSTEM_DIR "/" TKD_SOCKET, USER, OVERFLOW) ||
	    !tkd_machine_trusted("@" TKD_SYSTEM_DIR "/" TKD_SOCKET, 0, OVERFLOW) ||
	    !tkd_machine_trusted(TKD_SYSTEM_DIR "/" TKD_SOCKET, USER, OVERFLOW))
		case_fail("the machine's name trusted from a user, or root's not trusted");
	if (tkd_may_serve(false, true, OTHER, USER, OVERFLOW) ||
	    !tkd_may_serve(false, false, USER, USER, OVERFLOW) ||
	    !tkd_may_serve(true, true, OTHER, 0, OVERFLOW))
		case_fail("a user's daemon serves another user by name, or the machine's does not");
	case_end();
}

static void test_limits(const void *unused __attribute__((unused)))
{
	struct tkd_hello h = { .magic = TKD_MAGIC, .version = TKD_VERSION,
			       .nr_fds = TKD_NR_FDS, .limit = 48 };

	case_begin("a refusal says which limit, and a hello proves the rest");
	if (tkd_check_hello(&h, sizeof(h), 0, TKD_NR_FDS, why, sizeof(why)))
		case_fail("a good hello refused: %s", why);
	h.flags = TKD_HELLO_REFUSED;
	if (!tkd_check_hello(&h, sizeof(h), 0, 0, why, sizeof(why)) ||
	    !strstr(why, "of this user now (48 at most)"))
		case_fail("the user's limit: %s", why);
	h.flags = TKD_HELLO_REFUSED | TKD_HELLO_REFUSED_ALL;
	if (!tkd_check_hello(&h, sizeof(h), 0, 0, why, sizeof(why)) ||
	    !strstr(why, "(48 at most, of all users)"))
		case_fail("the limit of all: %s", why);
	h.flags = TKD_HELLO_REFUSED | TKD_HELLO_REFUSED_BUSY;
	if (!tkd_check_hello(&h, sizeof(h), 0, 0, why, sizeof(why)) ||
	    !strstr(why, "too often"))
		case_fail("a uid's connections: %s", why);
	h.flags = 0;
	if (!tkd_check_hello(&h, sizeof(h), MSG_CTRUNC, 2, why, sizeof(why)) ||
	    !strstr(why, "ulimit -n"))
		case_fail("descriptors cut short: %s", why);
	if (!tkd_check_hello(&h, sizeof(h), 0, TKD_NR_FDS - 1, why, sizeof(why)))
		case_fail("a hello short of a descriptor taken");
	h.version++;
	if (!tkd_check_hello(&h, sizeof(h), 0, TKD_NR_FDS, why, sizeof(why)) ||
	    !tkd_check_hello(&h, sizeof(h) - 1, 0, TKD_NR_FDS, why, sizeof(why)))
		case_fail("another version, or a short hello, taken");
	case_end();
}

/* What a launch reads of fd: its seals, access mode and size. */
static int check_fd(int fd, uint64_t size_needed)
{
	struct stat st;

	fstat(fd, &st);
	return tkd_check_sealed(fcntl(fd, F_GET_SEALS), fcntl(fd, F_GETFL) & O_ACCMODE,
				st.st_size, size_needed, "page", why, sizeof(why));
}

static void test_sealed_pages(const void *unused __attribute__((unused)))
{
	void *map;
	int fd = sealed_pages_create("trust-test", "the test pages", 4096, &map, why,
				     sizeof(why)), ro, plain = memfd_create("plain", MFD_CLOEXEC);
	char self[64];

	case_begin("only a sealed memfd handed over read-only is taken");
	if (fd < 0) {
		case_fail("%s", why);
		case_end();
		return;
	}
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	ro = open(self, O_RDONLY | O_CLOEXEC);
	if (check_fd(ro, 4096))
		case_fail("sealed and read-only: %s", why);
	if (!check_fd(fd, 4096) || !strstr(why, "read-only"))
		case_fail("handed over writable: %s", why);
	if (!check_fd(ro, 8192) || !strstr(why, "smaller"))
		case_fail("too small: %s", why);
	if (plain < 0 || ftruncate(plain, 4096) < 0 || !check_fd(plain, 4096) ||
	    !strstr(why, "sealed"))
		case_fail("an unsealed memfd: %s", why);
	if (mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, ro, 0) != MAP_FAILED)
		case_fail("its read-only copy maps writable");
	case_end();
	close(ro);
	close(fd);
	close(plain);
}

static void test_directories(const void *unused __attribute__((unused)))
{
	char dir[] = "/tmp/ppctime-trust-XXXXXX";

	case_begin("a daemon's directory is trusted only as its owner's, closed to others");
	if (!mkdtemp(dir)) {
		case_fail("mkdtemp: %s", strerror(errno));
		case_end();
		return;
	}
	chmod(dir, 0700);
	if (tkd_check_dir(dir, getuid(), 077, why, sizeof(why)))
		case_fail("its owner's, 0700: %s", why);
	if (!tkd_check_dir(dir, getuid() + 1, 077, why, sizeof(why)) ||
	    !strstr(why, "belongs to uid"))
		case_fail("another uid's taken: %s", why);
	chmod(dir, 0777);
	if (!tkd_check_dir(dir, getuid(), S_IWGRP | S_IWOTH, why, sizeof(why)) ||
	    !strstr(why, "others may write"))
		case_fail("mode 0777 taken: %s", why);
	rmdir(dir);
	case_end();
}

int main(void)
{
	test_start_watchdog();
	test_add_case(test_overflow_uid, NULL);
	test_add_case(test_time_namespaces, NULL);
	test_add_case(test_squatted_names, NULL);
	test_add_case(test_limits, NULL);
	test_add_case(test_sealed_pages, NULL);
	test_add_case(test_directories, NULL);
	return test_run_cases();
}
