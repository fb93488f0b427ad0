// SPDX-License-Identifier: GPL-2.0
/*
 * ppctime-qemu-preload.so: loaded into QEMU user mode by ppctime-run,
 * through the dynamic linker's --preload (ppctime/launch_protocol.h).
 * QEMU 7.2's main() loads the guest from getauxval(AT_EXECFD) when that is
 * not 0, the descriptor binfmt_misc's 'O' flag passes, and opens its
 * program argument only otherwise; this makes getauxval(AT_EXECFD) the
 * loader's descriptor, so QEMU runs the loader while everything it says
 * about the program (exec_path, argv, AT_EXECFN, /proc/self/exe,
 * /proc/self/cmdline) stays PROGRAM's, as without ppctime.  The
 * descriptors come in a memfd, not in the environment, which the guest can
 * read as QEMU's /proc/self/environ.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "guest_clock.h"
#include "ppctime/launch_protocol.h"
#include "ppctime/target_table.h"
#include "ppctime/vdso_layout.h"

/* glibc's own, under the name it also exports. */
extern unsigned long __getauxval(unsigned long type);

static unsigned long execfd;
static struct guest_clock guest;

/* The descriptor of the memfd LAUNCH_MEMFD, or -1. */
static int find_launch_memfd(void)
{
	static const char link[] = "/memfd:" LAUNCH_MEMFD " (deleted)";
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *d;
	char buf[sizeof(link)];
	int fd = -1;

	while (dir && fd < 0 && (d = readdir(dir)))
		if (readlinkat(dirfd(dir), d->d_name, buf, sizeof(buf)) == sizeof(link) - 1 &&
		    !memcmp(buf, link, sizeof(link) - 1))
			fd = atoi(d->d_name);
	if (dir)
		closedir(dir);
	return fd;
}

/* TARGET's pages in LAYOUT (a number); false for names that are none. */
static bool target_pages(const char *name, const char *layout, struct timekeeper_target *t)
{
	const struct ppctime_target *target = ppctime_target_named(name);
	char *end;
	long id = strtol(layout, &end, 10);

	if (end == layout || *end || !vdso_layout_find(id) || !target)
		return false;
	*t = ppctime_target_pages(target, id);
	return true;
}

/*
 * The first data page, from LAUNCH's DATA_FD, read-only: the guest's
 * loader maps the same descriptor.
 */
static bool map_page(const char *launch)
{
	char *end;
	long fd = strtol(launch, &end, 10);
	void *page;

	if (end == launch || *end != ',' || fd < 0)
		return false;
	page = mmap(NULL, vdso_layout_time_end(vdso_layout_find(guest.target.layout),
					       guest.target.is64),
		    PROT_READ, MAP_SHARED, fd, 0);
	if (page == MAP_FAILED)
		return false;
	guest.page = page;
	return true;
}

/* SHIFT of the memfd: the launch's own clock, or LAUNCH_SHIFT_NONE. */
static bool parse_shift(const char *arg, struct guest_shift *shift)
{
	long long sec;
	long nsec;
	int west, dst, end = 0;

	if (!strcmp(arg, LAUNCH_SHIFT_NONE))
		return true;
	if (sscanf(arg, "%lld,%ld,%d,%d%n", &sec, &nsec, &west, &dst, &end) != 4 || arg[end] ||
	    nsec < 0 || nsec >= 1000000000L)
		return false;
	*shift = (struct guest_shift){ true, { sec, nsec }, { west, dst } };
	return true;
}

/* Before QEMU's main() copies the environment for the guest.  Only
 * ppctime-run preloads this, always with the memfd: without it, QEMU
 * would silently run PROGRAM with no vDSO. */
__attribute__((constructor)) static void take_launch(void)
{
	int fd = find_launch_memfd(), end = 0;
	char buf[256], target[16], layout[16], answer[8], shift[64], launch[128];
	ssize_t len = fd >= 0 ? pread(fd, buf, sizeof(buf) - 1, 0) : -1;

	if (fd >= 0)
		close(fd);
	if (len > 0) {
		buf[len] = '\0';
		/* LOADER_FD TARGET LAYOUT TIME SHIFT LAUNCH COMM, COMM the rest */
		if (sscanf(buf, "%lu %15s %15s %7s %63s %127s%n", &execfd, target, layout,
			   answer, shift, launch, &end) != 6 || buf[end] != ' ')
			execfd = 0;
		/* Named as plain QEMU would be, not as the dynamic linker. */
		else if (buf[end + 1])
			prctl(PR_SET_NAME, buf + end + 1);
	}
	if (!execfd || !target_pages(target, layout, &guest.target) ||
	    !parse_shift(shift, &guest.shift) ||
	    (strcmp(answer, LAUNCH_TIME_HOST) &&
	     (strcmp(answer, LAUNCH_TIME_PAGE) || !map_page(launch))) ||
	    setenv(LAUNCH_ENV, launch, 1) < 0) {
		fprintf(stderr, "ppctime-qemu-preload.so: no usable " LAUNCH_MEMFD
			" memfd (loaded by ppctime-run only)\n");
		_exit(LAUNCH_EXIT_ERROR);
	}
}

/*
 * The host's function of that name: the C library's, the next after us.
 * Bound on first use, since a library's constructor may read the time
 * before ours has run (guest.page is still NULL then).
 */
#define HOST(name) ({							\
	static __typeof__(name) *host_##name;				\
	if (!host_##name)						\
		host_##name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name); \
	host_##name;							\
})

int clock_gettime(clockid_t clk, struct timespec *ts)
{
	if (guest.page && guest_clock_gettime(&guest, clk, ts) == 0)
		return 0;
	if (HOST(clock_gettime)(clk, ts) < 0)
		return -1;
	guest_clock_shift(&guest, clk, ts);
	return 0;
}

int clock_getres(clockid_t clk, struct timespec *res)
{
	if (guest.page && guest_clock_getres(&guest, clk, res) == 0)
		return 0;
	return HOST(clock_getres)(clk, res);
}

/* glibc declares the timezone argument void *. */
int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
	struct timespec now;

	if (guest.page && guest_gettimeofday(&guest, tv, tz) == 0)
		return 0;
	if (!guest.shift.own)
		return HOST(gettimeofday)(tv, tz);
	if (clock_gettime(CLOCK_REALTIME, &now) < 0)
		return -1;
	guest_clock_timeval(&guest, &now, tv, tz);
	return 0;
}

time_t time(time_t *t)
{
	struct timespec coarse;
	time_t now;

	if (!guest.page || guest_time(&guest, &now) != 0) {
		if (!guest.shift.own)
			return HOST(time)(t);
		/* time(2) is the coarse realtime clock's second. */
		if (clock_gettime(CLOCK_REALTIME_COARSE, &coarse) < 0)
			return -1;
		now = coarse.tv_sec;
	}
	if (t)
		*t = now;
	return now;
}

unsigned long getauxval(unsigned long type)
{
	if (type == AT_EXECFD)
		return execfd;
	return __getauxval(type);
}
