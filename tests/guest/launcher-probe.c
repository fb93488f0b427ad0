// SPDX-License-Identifier: GPL-2.0
/*
 * Guest side of tests/launcher-test.sh, built per target, dynamic and
 * static.  One command per run:
 *
 *   vdso              what the program sees of its vDSO: AT_SYSINFO_EHDR,
 *                     whether glibc registered it, where its data pages are
 *   echo ARGS...      argc, argv, cwd, $PROBE_VAR, then stdin copied to
 *                     stdout; a line on stderr
 *   env               the environment
 *   exit N            exit status N
 *   signal N          die by signal N
 *   signals           a line for each SIGUSR1 and SIGTERM as it comes, after
 *                     "ready"; exit 0 500 ms after the first SIGTERM (a
 *                     second one would show by then)
 *   nofile            the soft RLIMIT_NOFILE, and how many descriptors the
 *                     program can open
 *   calls N CLOCK     N glibc clock_gettime(CLOCK) calls (for a syscall count)
 *   compare MS CLOCK...  for MS milliseconds, glibc's clock_gettime against
 *                     the system call: prints the reads, how many were out
 *                     of line and by how much at worst, per clock (run with
 *                     ppctime-run --host-time-syscalls, the system call is
 *                     the host kernel's, a judge of the data page)
 *   steps CLOCK N     a coarse CLOCK read in a busy loop until it stepped N
 *                     times (5 s at most): its resolution, its median and
 *                     mean step, and how far it lags its fine clock (median)
 *   orphan exit|wait  fork a child in a session of its own and exit (or wait
 *                     to be killed); the child, once this process is gone,
 *                     compares every clock with the system call 2 s and
 *                     30 s later (as compare does, once per clock)
 *   year              the year CLOCK_REALTIME and REALTIME_COARSE say it is,
 *                     and CLOCK_REALTIME's system call
 *   tz                the timezone gettimeofday() reports
 *   shifted MS        for MS milliseconds, every realtime reading (the
 *                     realtime clocks, gettimeofday, time, the system
 *                     call): the earliest year seen, the largest step back
 *                     of CLOCK_REALTIME (its vDSO and system call readings
 *                     in turn) and the last timezone (a --realtime clock
 *                     whose timekeeper dies meanwhile)
 *   auxv              the auxiliary vector, addresses as checks on them
 *   identity ARGS...  who the program is: /proc/self/exe (its target and
 *                     size), argv, AT_EXECFN, /proc/self/cmdline, and what
 *                     it reads of its environment: /proc/self/environ and
 *                     LD_PRELOAD
 *
 * Output is "key=value" words the shell test matches.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static int vdso_listed(struct dl_phdr_info *info, size_t size, void *found)
{
	(void)size;
	if (!strncmp(info->dlpi_name, "linux-vdso", 10) ||
	    (info->dlpi_phnum && info->dlpi_addr == getauxval(AT_SYSINFO_EHDR)))
		*(int *)found = 1;
	return 0;
}

/*
 * QEMU's /proc/self/maps: is there a read-only, non-executable mapping
 * ending exactly where the image starts (the data pages), and does it stay
 * read-only when asked to become writable?  Prints the mapping lines
 * around the image so a failure says why.
 */
static void show_vdso_maps(unsigned long image)
{
	FILE *maps = fopen("/proc/self/maps", "r");
	char line[512];
	unsigned long data_start = 0;
	int data_below = 0, image_rx = 0, data_stays_ro;

	if (!maps) {
		perror("/proc/self/maps");
		return;
	}
	while (fgets(line, sizeof(line), maps)) {
		unsigned long start, end;
		char perms[8];

		if (sscanf(line, "%lx-%lx %7s", &start, &end, perms) != 3)
			continue;
		if (end == image && !strncmp(perms, "r--", 3)) {
			data_below = 1;
			data_start = start;
		}
		if (start == image && !strncmp(perms, "r-x", 3))
			image_rx = 1;
		if (end >= image - 0x40000 && start <= image + 0x40000)
			fprintf(stderr, "maps: %s", line);
	}
	fclose(maps);
	data_stays_ro = data_below &&
		mprotect((void *)data_start, image - data_start, PROT_READ | PROT_WRITE) < 0;
	printf("data_below=%d image_rx=%d data_stays_ro=%d\n", data_below, image_rx,
	       data_stays_ro);
}

struct auxv_check {
	unsigned long base, phdr;
	int base_found, phdr_found;
};

static int find_auxv_addresses(struct dl_phdr_info *info, size_t size, void *data)
{
	struct auxv_check *check = data;

	(void)size;
	if (check->base && info->dlpi_addr == check->base)
		check->base_found = 1;
	if ((unsigned long)info->dlpi_phdr == check->phdr)
		check->phdr_found = 1;
	return 0;
}

/* A /proc/self file's contents on one line, NULs as '|'. */
static void show_proc_file(const char *name)
{
	char buf[65536];
	int fd = open(name, O_RDONLY);
	ssize_t len = fd >= 0 ? read(fd, buf, sizeof(buf)) : -1;

	if (fd >= 0)
		close(fd);
	for (ssize_t i = 0; i < len; i++)
		putchar(buf[i] ? buf[i] : '|');
	putchar('\n');
}

/* What QEMU emulates of the program's identity and environment. */
static void show_identity(int argc, char **argv)
{
	char buf[8192];
	const char *preload = getenv("LD_PRELOAD");
	ssize_t len = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	int fd = open("/proc/self/exe", O_RDONLY);

	printf("exe=%.*s\n", len > 0 ? (int)len : 0, buf);
	printf("exe_size=%ld\n", fd >= 0 ? (long)lseek(fd, 0, SEEK_END) : -1L);
	if (fd >= 0)
		close(fd);
	for (int i = 0; i < argc; i++)
		printf("argv[%d]=%s\n", i, argv[i]);
	printf("execfn=%s\n", (const char *)getauxval(AT_EXECFN));
	printf("cmdline=");
	show_proc_file("/proc/self/cmdline");
	printf("environ=");
	show_proc_file("/proc/self/environ");
	printf("LD_PRELOAD%s%s\n", preload ? "=" : " unset", preload ? preload : "");
}

/* Values as they are; addresses (which differ from run to run) as whether
 * they point where they should. */
static void show_auxv(void)
{
	static const struct { unsigned long type; const char *name; } values[] = {
		{ AT_HWCAP, "hwcap" }, { AT_HWCAP2, "hwcap2" }, { AT_PAGESZ, "pagesz" },
		{ AT_CLKTCK, "clktck" }, { AT_PHENT, "phent" }, { AT_PHNUM, "phnum" },
		{ AT_FLAGS, "flags" }, { AT_UID, "uid" }, { AT_EUID, "euid" },
		{ AT_GID, "gid" }, { AT_EGID, "egid" }, { AT_SECURE, "secure" },
		{ AT_DCACHEBSIZE, "dcachebsize" }, { AT_ICACHEBSIZE, "icachebsize" },
		{ AT_UCACHEBSIZE, "ucachebsize" }, { AT_MINSIGSTKSZ, "minsigstksz" },
	};
	extern char _start[];
	struct auxv_check check = { getauxval(AT_BASE), getauxval(AT_PHDR), 0, 0 };
	const char *platform = (const char *)getauxval(AT_PLATFORM);
	const unsigned char *random = (const unsigned char *)getauxval(AT_RANDOM);

	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		printf("%s=%#lx\n", values[i].name, getauxval(values[i].type));
	printf("platform=%s\n", platform ? platform : "(none)");
	printf("execfn=%s\n", (const char *)getauxval(AT_EXECFN));
	printf("random=%s\n", random && (random[0] | random[7] | random[15]) ? "set" : "unset");
	printf("entry_is_start=%d\n", getauxval(AT_ENTRY) == (unsigned long)_start);
	dl_iterate_phdr(find_auxv_addresses, &check);
	printf("base=%s\n", !check.base ? "0" : check.base_found ? "ld.so" : "elsewhere");
	printf("phdr_is_program=%d\n", check.phdr_found);
}

static const struct { const char *name; int id; } clocks[] = {
	{ "realtime", CLOCK_REALTIME },
	{ "monotonic", CLOCK_MONOTONIC },
	{ "realtime-coarse", CLOCK_REALTIME_COARSE },
	{ "monotonic-coarse", CLOCK_MONOTONIC_COARSE },
	{ "monotonic-raw", CLOCK_MONOTONIC_RAW },
	{ "boottime", CLOCK_BOOTTIME },
	{ "tai", CLOCK_TAI },
};
#define NCLOCKS (sizeof(clocks) / sizeof(clocks[0]))

static int clock_id(const char *name)
{
	for (size_t i = 0; i < NCLOCKS; i++)
		if (!strcmp(name, clocks[i].name))
			return clocks[i].id;
	fprintf(stderr, "probe: unknown clock %s\n", name);
	exit(2);
}

static long long ns(const struct timespec *ts)
{
	return ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

static void syscall_clock(int clock, struct timespec *ts)
{
#if defined(__NR_clock_gettime64) && !defined(__powerpc64__)
	/* 32-bit time_t in the old call: use the one with 64-bit seconds. */
	struct { long long sec; long long nsec; } ts64;

	syscall(__NR_clock_gettime64, clock, &ts64);
	ts->tv_sec = ts64.sec;
	ts->tv_nsec = ts64.nsec;
#else
	syscall(__NR_clock_gettime, clock, ts);
#endif
}

/*
 * Every glibc read must lie between the system-call reads around it (a
 * microsecond of slack for rounding): a stale or jumping vDSO shows.  The
 * clocks NAMES are read in turn for MS milliseconds; prints the worst
 * error of each, and how far its system call moved meanwhile.
 */
static int compare_clocks(long ms, int nclocks, char **names)
{
	struct timespec before, lib, after, start;
	long long reads = 0, off = 0, worst[nclocks], first[nclocks], last[nclocks];

	memset(worst, 0, sizeof(worst));
	syscall_clock(CLOCK_MONOTONIC, &start);
	do {
		for (int i = 0; i < nclocks; i++) {
			int clock = clock_id(names[i]);

			syscall_clock(clock, &before);
			clock_gettime(clock, &lib);
			syscall_clock(clock, &after);
			if (reads < nclocks)	/* the first round */
				first[i] = ns(&before);
			last[i] = ns(&after);
			reads++;
			long long early = ns(&before) - ns(&lib), late = ns(&lib) - ns(&after);
			long long err = early > late ? early : late;

			if (err <= 1000)
				continue;
			if (off++ < 5)
				fprintf(stderr, "probe: read %lld (%s) is %lld ns out of line\n",
					reads, names[i], err);
			if (err > worst[i])
				worst[i] = err;
		}
		syscall_clock(CLOCK_MONOTONIC, &after);
	} while (ns(&after) - ns(&start) < ms * 1000000LL);
	printf("reads=%lld off=%lld", reads, off);
	for (int i = 0; i < nclocks; i++)
		printf(" worst_%s=%lld span_%s=%lld", names[i], worst[i], names[i],
		       last[i] - first[i]);
	printf("\n");
	return 0;
}

/* How far outside [before, after] a reading of the span [lo, lo + width] is. */
static long long outside(long long before, long long lo, long long width, long long after)
{
	long long early = before - (lo + width), late = lo - after;

	return early > late ? (early > 0 ? early : 0) : (late > 0 ? late : 0);
}

/* Every clock, time() and gettimeofday() against the system call. */
static void compare_all(int after_s)
{
	struct timespec before, lib, after;
	struct timeval tv;
	time_t t;

	printf("after=%ds", after_s);
	for (size_t i = 0; i < NCLOCKS; i++) {
		syscall_clock(clocks[i].id, &before);
		clock_gettime(clocks[i].id, &lib);
		syscall_clock(clocks[i].id, &after);
		printf(" worst_%s=%lld", clocks[i].name,
		       outside(ns(&before), ns(&lib), 0, ns(&after)));
	}
	/* time() is the coarse realtime clock's seconds, as time(2) is: a
	 * tick behind CLOCK_REALTIME just after a second begins. */
	syscall_clock(CLOCK_REALTIME_COARSE, &before);
	t = time(NULL);
	syscall_clock(CLOCK_REALTIME_COARSE, &after);
	printf(" worst_time=%lld", outside(ns(&before), t * 1000000000LL, 999999999,
					   ns(&after)));
	syscall_clock(CLOCK_REALTIME, &before);
	gettimeofday(&tv, NULL);
	syscall_clock(CLOCK_REALTIME, &after);
	printf(" worst_gettimeofday=%lld\n",
	       outside(ns(&before), tv.tv_sec * 1000000000LL + tv.tv_usec * 1000LL, 999,
		       ns(&after)));
	fflush(stdout);
}

static int by_value(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/*
 * The coarse clock CLOCK as a program busy reading it sees it, until it
 * has stepped N times (or 5 s have passed): its resolution, its median
 * and mean step (a tick; a reader kept from running a while sees a long
 * step too, which the median leaves out), and the median of how far each
 * reading lags its high-resolution clock, read just after (half a tick
 * where it steps at every tick, however seldom the reader runs).
 */
static int clock_steps(int clock, int n)
{
	enum { BUCKET_NS = 100000, BUCKETS = 2000 };
	struct timespec res, start, now, t;
	long long step[n], first = -1, last = -1, lags = 0, seen = 0, lag;
	static long long lagged[BUCKETS];
	int fine = clock == CLOCK_REALTIME_COARSE ? CLOCK_REALTIME : CLOCK_MONOTONIC, steps = 0;

	clock_getres(clock, &res);
	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		clock_gettime(clock, &t);
		clock_gettime(fine, &now);
		lag = (ns(&now) - ns(&t)) / BUCKET_NS;
		lagged[lag < 0 ? 0 : lag < BUCKETS ? lag : BUCKETS - 1]++;
		lags++;
		if (ns(&t) != last) {
			if (first < 0)
				first = ns(&t);
			else
				step[steps++] = ns(&t) - last;
			last = ns(&t);
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (steps < n && ns(&now) - ns(&start) < 5000000000LL);
	qsort(step, steps, sizeof(step[0]), by_value);
	for (lag = 0; lag < BUCKETS && (seen += lagged[lag]) < (lags + 1) / 2; lag++)
		;
	printf("res=%lld steps=%d median_step=%lld mean_step=%lld median_lag=%lld\n",
	       ns(&res), steps, steps ? step[steps / 2] : 0, steps ? (last - first) / steps : 0,
	       lag * BUCKET_NS);
	return 0;
}

/* A shifted clock, across its timekeeper's death. */
static int shifted_clock(long ms)
{
	static const int realtime_clocks[] = { CLOCK_REALTIME_COARSE, CLOCK_TAI };
	struct timespec start, now, ts;
	struct timeval tv;
	struct timezone tz = { 0, 0 };
	struct tm tm;
	long long reads = 0, last = 0, back = 0, low = LLONG_MAX;
	time_t year_of;

	syscall_clock(CLOCK_MONOTONIC, &start);
	do {
		for (int i = 0; i < 2; i++) {
			if (i)
				syscall_clock(CLOCK_REALTIME, &ts);
			else
				clock_gettime(CLOCK_REALTIME, &ts);
			if (reads++ && last - ns(&ts) > back)
				back = last - ns(&ts);
			last = ns(&ts);
			low = ts.tv_sec < low ? ts.tv_sec : low;
		}
		for (size_t i = 0; i < sizeof(realtime_clocks) / sizeof(realtime_clocks[0]); i++) {
			clock_gettime(realtime_clocks[i], &ts);
			low = ts.tv_sec < low ? ts.tv_sec : low;
		}
		gettimeofday(&tv, &tz);
		low = tv.tv_sec < low ? tv.tv_sec : low;
		ts.tv_sec = time(NULL);
		low = ts.tv_sec < low ? ts.tv_sec : low;
		usleep(1000);
		syscall_clock(CLOCK_MONOTONIC, &now);
	} while (ns(&now) - ns(&start) < ms * 1000000LL);
	year_of = low;
	gmtime_r(&year_of, &tm);
	printf("reads=%lld low_year=%d back=%lld minuteswest=%d dsttime=%d\n", reads,
	       tm.tm_year + 1900, back, tz.tz_minuteswest, tz.tz_dsttime);
	return 0;
}

static volatile sig_atomic_t terminated;

/* A line per delivery, by write(): stdio is not for signal handlers. */
static void count_signal(int sig)
{
	terminated |= sig == SIGTERM;
	write(STDOUT_FILENO, sig == SIGTERM ? "TERM\n" : "USR1\n", 5);
}

/* Each SIGUSR1 and SIGTERM sent, seen once per sending. */
static int count_signals(void)
{
	struct timespec rest = { 0, 500000000 };
	sigset_t both, before;

	sigemptyset(&both);
	sigaddset(&both, SIGUSR1);
	sigaddset(&both, SIGTERM);
	sigprocmask(SIG_BLOCK, &both, &before);
	signal(SIGUSR1, count_signal);
	signal(SIGTERM, count_signal);
	alarm(60);
	printf("ready\n");
	fflush(stdout);
	while (!terminated)
		sigsuspend(&before);
	sigprocmask(SIG_SETMASK, &before, NULL);
	while (nanosleep(&rest, &rest) < 0)
		;
	return 0;
}

/* A daemon's view of the clocks once the program that started it is gone. */
static int orphan(int parent_waits)
{
	pid_t parent = getpid(), child;

	fflush(stdout);
	child = fork();
	if (child < 0) {
		perror("fork");
		return 1;
	}
	if (child) {
		printf("daemon=%d\n", (int)child);
		fflush(stdout);
		while (parent_waits)
			pause();
		return 0;
	}
	setsid();
	alarm(120);
	while (getppid() == parent)
		usleep(10000);
	sleep(2);
	compare_all(2);
	sleep(28);
	compare_all(30);
	printf("done\n");
	return 0;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	if (!strcmp(cmd, "vdso")) {
		unsigned long image = getauxval(AT_SYSINFO_EHDR);
		int listed = 0;
		struct timespec ts;

		dl_iterate_phdr(vdso_listed, &listed);
		printf("sysinfo_ehdr=%#lx listed=%d\n", image, listed);
		if (image)
			show_vdso_maps(image);
		printf("clock_gettime=%d\n", clock_gettime(CLOCK_MONOTONIC, &ts));
		return 0;
	}
	if (!strcmp(cmd, "echo")) {
		char cwd[4096], buf[4096];
		size_t got;

		printf("argc=%d\n", argc);
		for (int i = 0; i < argc; i++)
			printf("argv[%d]=%s\n", i, argv[i]);
		printf("cwd=%s\n", getcwd(cwd, sizeof(cwd)) ? cwd : "?");
		printf("PROBE_VAR=%s\n", getenv("PROBE_VAR") ? getenv("PROBE_VAR") : "(unset)");
		while ((got = fread(buf, 1, sizeof(buf), stdin)) > 0)
			fwrite(buf, 1, got, stdout);
		fprintf(stderr, "to stderr\n");
		return 0;
	}
	if (!strcmp(cmd, "env")) {
		for (char **e = environ; *e; e++)
			printf("%s\n", *e);
		return 0;
	}
	if (!strcmp(cmd, "exit") && argc == 3)
		return atoi(argv[2]);
	if (!strcmp(cmd, "signal") && argc == 3) {
		signal(atoi(argv[2]), SIG_DFL);
		raise(atoi(argv[2]));
		return 99;
	}
	if (!strcmp(cmd, "signals"))
		return count_signals();
	if (!strcmp(cmd, "nofile")) {
		struct rlimit nofile;
		int opened = 0;

		getrlimit(RLIMIT_NOFILE, &nofile);
		while (open("/", O_RDONLY) >= 0)
			opened++;
		printf("nofile=%llu free=%d\n", (unsigned long long)nofile.rlim_cur, opened);
		return 0;
	}
	if (!strcmp(cmd, "calls") && argc == 4) {
		struct timespec ts;

		for (long i = atol(argv[2]); i > 0; i--)
			clock_gettime(clock_id(argv[3]), &ts);
		return 0;
	}
	if (!strcmp(cmd, "compare") && argc >= 4)
		return compare_clocks(atol(argv[2]), argc - 3, argv + 3);
	if (!strcmp(cmd, "steps") && argc == 4)
		return clock_steps(clock_id(argv[2]), atoi(argv[3]) > 0 ? atoi(argv[3]) : 1);
	if (!strcmp(cmd, "shifted") && argc == 3)
		return shifted_clock(atol(argv[2]));
	if (!strcmp(cmd, "orphan") && argc == 3)
		return orphan(!strcmp(argv[2], "wait"));
	if (!strcmp(cmd, "year")) {
		struct timespec ts, coarse, sys;
		struct tm tm, tm_coarse, tm_sys;

		clock_gettime(CLOCK_REALTIME, &ts);
		clock_gettime(CLOCK_REALTIME_COARSE, &coarse);
		syscall_clock(CLOCK_REALTIME, &sys);
		gmtime_r(&ts.tv_sec, &tm);
		gmtime_r(&coarse.tv_sec, &tm_coarse);
		gmtime_r(&sys.tv_sec, &tm_sys);
		printf("year=%d year_coarse=%d year_syscall=%d\n", tm.tm_year + 1900,
		       tm_coarse.tm_year + 1900, tm_sys.tm_year + 1900);
		return 0;
	}
	if (!strcmp(cmd, "auxv")) {
		show_auxv();
		return 0;
	}
	if (!strcmp(cmd, "identity")) {
		show_identity(argc, argv);
		return 0;
	}
	if (!strcmp(cmd, "tz")) {
		struct timeval tv;
		struct timezone tz;

		gettimeofday(&tv, &tz);
		printf("minuteswest=%d dsttime=%d\n", tz.tz_minuteswest, tz.tz_dsttime);
		return 0;
	}
	fprintf(stderr, "usage: %s vdso|echo ARGS|env|exit N|signal N|signals|nofile|calls N CLOCK|"
		"compare MS CLOCK...|steps CLOCK N|shifted MS|orphan exit|wait|year|tz|auxv|identity ARGS|env\n", argv[0]);
	return 2;
}
