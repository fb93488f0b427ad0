// SPDX-License-Identifier: GPL-2.0
/*
 * Guest side of tests/glibc/sysroot-test.sh: a program built against a
 * ppctime sysroot (dynamic or static, and on ppc32 with 32- or 64-bit
 * time_t) that exercises glibc's time entries and prints what it saw, one
 * "key: value" line each, for the host side to judge.
 *
 *   sysroot-probe fast N   call every fast clock entry N times (the host
 *                          counts system calls with QEMU's -strace)
 *   sysroot-probe year     the UTC year, or the error, of clock_gettime,
 *                          gettimeofday, time and timespec_get
 *   sysroot-probe errno    return value and errno for bad clock ids
 *   sysroot-probe efault   the same for a bad pointer the system call
 *                          refuses
 *   sysroot-probe tbfreq   __ppc_get_timebase_freq and the timebase rate
 *                          measured against CLOCK_MONOTONIC
 *   sysroot-probe libc     the file the C library was mapped from
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/platform/ppc.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static const clockid_t fast_clocks[] = {
	CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_BOOTTIME, CLOCK_TAI,
	CLOCK_REALTIME_COARSE, CLOCK_MONOTONIC_COARSE, CLOCK_MONOTONIC_RAW,
};
#define N_FAST (sizeof(fast_clocks) / sizeof(fast_clocks[0]))

static int fast(long n)
{
	struct timespec ts;
	struct timeval tv;
	long i;
	size_t c;
	int bad = 0;

	for (i = 0; i < n; i++) {
		for (c = 0; c < N_FAST; c++) {
			bad |= clock_gettime(fast_clocks[c], &ts) != 0;
			bad |= clock_getres(fast_clocks[c], &ts) != 0;
		}
		bad |= gettimeofday(&tv, NULL) != 0;
		bad |= time(NULL) == (time_t)-1;
		bad |= timespec_get(&ts, TIME_UTC) != TIME_UTC;
		bad |= timespec_getres(&ts, TIME_UTC) != TIME_UTC;
	}
	printf("fast: %s\n", bad ? "error" : "ok");
	return bad;
}

/* "KEY: YEAR" for seconds SEC, or "KEY: RET ERRNO-NAME" on failure. */
static void print_year(const char *key, int failed, long long ret, time_t sec)
{
	struct tm tm;

	if (failed)
		printf("%s: %lld %s\n", key, ret, strerrorname_np(errno));
	else if (!gmtime_r(&sec, &tm))
		printf("%s: unrepresentable %lld\n", key, (long long)sec);
	else
		printf("%s: %d\n", key, tm.tm_year + 1900);
}

static int year(void)
{
	struct timespec ts;
	struct timeval tv;
	time_t t;
	int r;

	errno = 0;
	r = clock_gettime(CLOCK_REALTIME, &ts);
	print_year("clock_gettime", r != 0, r, ts.tv_sec);
	errno = 0;
	r = gettimeofday(&tv, NULL);
	print_year("gettimeofday", r != 0, r, tv.tv_sec);
	errno = 0;
	t = time(NULL);
	print_year("time", t == (time_t)-1, t, t);
	errno = 0;
	r = timespec_get(&ts, TIME_UTC);
	print_year("timespec_get", r != TIME_UTC, r, ts.tv_sec);
	printf("time_t: %zu bits\n", sizeof(time_t) * 8);
	return 0;
}

static int bad_clock_ids(void)
{
	/* Ids beyond every clock and a CPU-clock id with an invalid clock type:
	 * the vDSO hands each to the system call.  (Not 16 to 23: Linux 6.17's
	 * auxiliary clocks, which exist when the host's kernel has them.) */
	static const clockid_t ids[] = { 12345, 0x7fffffff, -1 };
	struct timespec ts;
	size_t i;
	int r;

	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		errno = 0;
		r = clock_gettime(ids[i], &ts);
		printf("clock_gettime(%d): %d %s\n", (int)ids[i], r, strerrorname_np(errno));
		errno = 0;
		r = clock_getres(ids[i], &ts);
		printf("clock_getres(%d): %d %s\n", (int)ids[i], r, strerrorname_np(errno));
	}
	/* A clock the vDSO does not serve succeeds through its system call and
	 * leaves errno alone. */
	errno = EBADF;
	r = clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	printf("clock_gettime(CLOCK_PROCESS_CPUTIME_ID): %d %s\n", r, strerrorname_np(errno));
	return 0;
}

/* An errno other than EINVAL through the same path: a result pointer the
 * system call cannot write, which the vDSO (or glibc without one) passes
 * on.  Only where glibc does not copy the result itself (a 32-bit time_t,
 * or ppc32 without __kernel_clock_gettime64: it faults there, as stock
 * glibc does). */
static int bad_pointer(void)
{
	int r;

	errno = 0;
	r = clock_gettime(CLOCK_PROCESS_CPUTIME_ID, (struct timespec *)8);
	printf("clock_gettime(CLOCK_PROCESS_CPUTIME_ID, bad pointer): %d %s\n",
	       r, strerrorname_np(errno));
	return 0;
}

static long long ns(const struct timespec *ts)
{
	return ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

/*
 * CLOCK_MONOTONIC between two timebase reads, the narrowest of a few
 * tries: a preemption on a busy host widens a bracket, never the result.
 */
static void tb_bracket(uint64_t *lo, long long *at, uint64_t *hi)
{
	struct timespec t;
	uint64_t width = UINT64_MAX;

	for (int i = 0; i < 20; i++) {
		uint64_t tb0 = __ppc_get_timebase(), tb1;

		clock_gettime(CLOCK_MONOTONIC, &t);
		tb1 = __ppc_get_timebase();
		if (tb1 - tb0 < width) {
			width = tb1 - tb0;
			*lo = tb0, *at = ns(&t), *hi = tb1;
		}
	}
}

/* The rate lies between the brackets' inner and outer spans. */
static int tbfreq(void)
{
	struct timespec pause = { 0, 200000000 };
	uint64_t lo0, hi0, lo1, hi1;
	long long at0, at1;
	double s;

	printf("tbfreq: %" PRIu64 "\n", __ppc_get_timebase_freq());
	tb_bracket(&lo0, &at0, &hi0);
	nanosleep(&pause, NULL);
	tb_bracket(&lo1, &at1, &hi1);
	s = (at1 - at0) / 1e9;
	printf("measured_low: %.0f\nmeasured_high: %.0f\n", (lo1 - hi0) / s, (hi1 - lo0) / s);
	return 0;
}

static int libc_file(void)
{
	char line[4096];
	FILE *maps = fopen("/proc/self/maps", "r");

	if (!maps)
		return 1;
	while (fgets(line, sizeof(line), maps)) {
		char *path = strchr(line, '/');
		if (path && strstr(path, "/libc.so.6")) {
			printf("libc: %s", path);
			break;
		}
	}
	fclose(maps);
	return 0;
}

int main(int argc, char **argv)
{
	/* The mark after which sysroot-test.sh counts time system calls:
	 * what glibc's start-up makes before it has the vDSO is not ours. */
	getppid();
	if (argc == 3 && !strcmp(argv[1], "fast"))
		return fast(atol(argv[2]));
	if (argc == 2 && !strcmp(argv[1], "year"))
		return year();
	if (argc == 2 && !strcmp(argv[1], "efault"))
		return bad_pointer();
	if (argc == 2 && !strcmp(argv[1], "errno"))
		return bad_clock_ids();
	if (argc == 2 && !strcmp(argv[1], "tbfreq"))
		return tbfreq();
	if (argc == 2 && !strcmp(argv[1], "libc"))
		return libc_file();
	fprintf(stderr, "usage: sysroot-probe fast N | year | errno | efault | tbfreq | libc\n");
	return 2;
}
