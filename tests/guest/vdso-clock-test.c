// SPDX-License-Identifier: GPL-2.0
/*
 * The vDSO's time entries called directly, as a C library would, against
 * the system call, inside a powerpc program run by ppctime-run:
 *
 *   vdso-clock-test abi                  ids, pointers, errno, CR0[SO]
 *   vdso-clock-test agree                interleaved syscall/vDSO readings
 *   vdso-clock-test monotonic [one-cpu]  per thread and across threads,
 *                                        beside the bare timebase
 *   vdso-clock-test torture [one-cpu]    readers against a fast timekeeper
 *     (one-cpu: the reader threads share the first CPU they may run on)
 *   vdso-clock-test calls CLOCK N        N vDSO clock_gettime calls, for a
 *                                        count of the syscalls they make
 *
 * Prints TAP (tests/README.md).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../test_harness.h"
#include "vdso_call.h"

static void *vdso_gettime, *vdso_getres, *vdso_gettimeofday, *vdso_time,
	*vdso_tbfreq;

static void *vdso_sym(void *vdso, const char *name)
{
	void *p = vdso_entry(vdso, name);

	if (!p) {
		printf("Bail out! %s: not in the vDSO\n", name);
		exit(1);
	}
	return p;
}

static void find_vdso(void)
{
	void *vdso = vdso_open();

	/* 64-bit time_t on every target: ppc32's entry for it is gettime64. */
#ifdef __powerpc64__
	vdso_gettime = vdso_sym(vdso, "__kernel_clock_gettime");
	vdso_getres = vdso_sym(vdso, "__kernel_clock_getres");
	vdso_gettimeofday = vdso_sym(vdso, "__kernel_gettimeofday");
	vdso_time = vdso_sym(vdso, "__kernel_time");
#else
	vdso_gettime = vdso_sym(vdso, "__kernel_clock_gettime64");
	vdso_getres = vdso_sym(vdso, "__kernel_clock_getres_time64");
	/* Linux 7.3 builds the 32-bit time_t entries only with the system
	 * calls they stand for (COMPAT_32BIT_TIME): see time32_absent(). */
	vdso_gettimeofday = vdso_entry(vdso, "__kernel_gettimeofday");
	vdso_time = vdso_entry(vdso, "__kernel_time");
#endif
	vdso_tbfreq = vdso_sym(vdso, "__kernel_get_tbfreq");
}

/*
 * ppc32's __kernel_gettimeofday and __kernel_time may be absent, but only
 * together and only where the kernel has no gettimeofday and time system
 * calls either.  Absent, this reports that as WHAT's one result.
 */
static bool time32_absent(const char *what)
{
	long g, t;

	if (vdso_gettimeofday && vdso_time)
		return false;
	g = syscall(SYS_gettimeofday, NULL, NULL) ? errno : 0;
	t = syscall(SYS_time, NULL) == -1 ? errno : 0;
	report(!vdso_gettimeofday && !vdso_time && g == ENOSYS && t == ENOSYS,
	       "%s: __kernel_gettimeofday %s, __kernel_time %s, as the system calls "
	       "(gettimeofday errno %ld, time errno %ld)", what,
	       vdso_gettimeofday ? "present" : "absent",
	       vdso_time ? "present" : "absent", g, t);
	return true;
}

/* The kernel's struct __kernel_timespec, whatever time_t is. */
struct ts64 {
	int64_t sec;
	int64_t nsec;
};

static int64_t ts_ns(struct ts64 t)
{
	return t.sec * 1000000000 + t.nsec;
}

#ifdef __powerpc64__
#define SYS_gettime64	SYS_clock_gettime
#define SYS_getres64	SYS_clock_getres
#else
#define SYS_gettime64	SYS_clock_gettime64
#define SYS_getres64	SYS_clock_getres_time64
#endif

/* The system call's answer in the vDSO's terms: 0 or the errno. */
static int sys_clock(long nr, long clk, void *res)
{
	return syscall(nr, clk, res) ? errno : 0;
}

static struct ts64 sys_now(int clk)
{
	struct ts64 t;

	syscall(SYS_gettime64, clk, &t);
	return t;
}

static struct ts64 vdso_now(int clk)
{
	struct ts64 t;

	vdso_call(vdso_gettime, clk, (long)&t);
	return t;
}

static const int served[] = {
	CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_MONOTONIC_RAW,
	CLOCK_REALTIME_COARSE, CLOCK_MONOTONIC_COARSE, CLOCK_BOOTTIME,
	CLOCK_TAI,
};
#define NSERVED (sizeof(served) / sizeof(served[0]))

/* Runs fn(arg) in a child: its exit status, or 128 + the signal. */
static int in_child(void (*fn)(long), long arg)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		fn(arg);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

static void *bad_pointer;
static int bad_clock;

static void gettime_bad_pointer(long entry)
{
	struct vdso_ret r = vdso_call((void *)entry, bad_clock, (long)bad_pointer);

	_exit(r.so && r.r3 == EFAULT ? 0 : 1);
}

/* The last two are set when the test runs. */
static const struct { const char *name; long id; } ids[] = {
	{ "-1", -1 }, { "INT_MIN", INT_MIN }, { "INT_MAX", INT_MAX },
	{ "12", 12 }, { "16", 16 },
	{ "CLOCK_PROCESS_CPUTIME_ID", CLOCK_PROCESS_CPUTIME_ID },
	{ "CLOCK_THREAD_CPUTIME_ID", CLOCK_THREAD_CPUTIME_ID },
	{ "CLOCK_REALTIME_ALARM", CLOCK_REALTIME_ALARM },
	{ "CLOCK_BOOTTIME_ALARM", CLOCK_BOOTTIME_ALARM },
	{ "the process's CPU clock", 0 },
	{ "the thread's CPU clock", 0 },
};

static void test_abi_ids(void)
{
	clockid_t process_clock, thread_clock;
	long idv[sizeof(ids) / sizeof(ids[0])];

	clock_getcpuclockid(getpid(), &process_clock);
	pthread_getcpuclockid(pthread_self(), &thread_clock);
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		idv[i] = ids[i].id;
	idv[9] = process_clock;
	idv[10] = thread_clock;

	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		struct ts64 vt = { -1, -1 }, st = { -1, -1 }, vr = { -1, -1 },
			    sr = { -1, -1 };
		int serr = sys_clock(SYS_gettime64, idv[i], &st);
		struct vdso_ret v = vdso_call(vdso_gettime, idv[i], (long)&vt);
		int rerr = sys_clock(SYS_getres64, idv[i], &sr);
		struct vdso_ret g = vdso_call(vdso_getres, idv[i], (long)&vr);

		/* A CPU clock read after the syscall cannot be behind it. */
		report(v.so == (serr != 0) && (!v.so ? v.r3 == 0 && ts_ns(vt) >= ts_ns(st)
						     : v.r3 == serr),
		       "abi: clock_gettime(%s): vDSO r3=%ld so=%d, syscall errno %d",
		       ids[i].name, v.r3, v.so, serr);
		report(g.so == (rerr != 0) &&
		       (g.so ? g.r3 == rerr : g.r3 == 0 && ts_ns(vr) == ts_ns(sr)),
		       "abi: clock_getres(%s): vDSO r3=%ld so=%d res %" PRId64
		       ", syscall errno %d res %" PRId64,
		       ids[i].name, g.r3, g.so, ts_ns(vr), rerr, ts_ns(sr));
	}
}

static void test_abi_served(void)
{
	for (size_t i = 0; i < NSERVED; i++) {
		struct ts64 vr = { -1, -1 }, sr = { -1, -1 };
		int rerr = sys_clock(SYS_getres64, served[i], &sr);
		struct vdso_ret g = vdso_call(vdso_getres, served[i], (long)&vr);
		struct vdso_ret n = vdso_call(vdso_getres, served[i], 0);

		report(!g.so && g.r3 == 0 && !rerr && ts_ns(vr) == ts_ns(sr) &&
		       !n.so && n.r3 == 0,
		       "abi: clock_getres(%d) = %" PRId64 " ns as the syscall's %"
		       PRId64 ", NULL accepted", served[i], ts_ns(vr), ts_ns(sr));
	}
}

/*
 * Bad result pointers.  The syscall must say EFAULT; the vDSO writes the
 * served clocks itself, so EFAULT or SIGSEGV.  (QEMU 7.2's clock_getres
 * does not check its copy-out and returns 0: not tested here.)
 */
#define BAD_POINTERS	3
static const int bad_pointer_clocks[] = {
	CLOCK_MONOTONIC, CLOCK_REALTIME_COARSE, CLOCK_MONOTONIC_RAW,
	CLOCK_PROCESS_CPUTIME_ID
};

static void test_abi_pointers(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *ro = mmap(NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *gone = mmap(NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	const struct { const char *name; void *p; } ptrs[BAD_POINTERS] = {
		{ "NULL", NULL }, { "unmapped", gone }, { "read-only", ro },
	};
	const int *clocks = bad_pointer_clocks;

	munmap(gone, page);
	for (size_t p = 0; p < BAD_POINTERS; p++) {
		for (size_t c = 0; c < TEST_ARRAY_SIZE(bad_pointer_clocks); c++) {
			int serr = sys_clock(SYS_gettime64, clocks[c], ptrs[p].p);
			int status;

			bad_pointer = ptrs[p].p;
			bad_clock = clocks[c];
			status = in_child(gettime_bad_pointer, (long)vdso_gettime);
			report(serr == EFAULT && (status == 0 || status == 128 + SIGSEGV),
			       "abi: clock_gettime(%d, %s): syscall errno %d, vDSO %s",
			       clocks[c], ptrs[p].name, serr,
			       status == 0 ? "EFAULT" : status == 128 + SIGSEGV ?
			       "SIGSEGV" : "neither EFAULT nor SIGSEGV");
		}
	}
	munmap(ro, page);
}

struct timeval_k {
	long sec;
	long usec;
};

/* gettimeofday with and without each pointer, and time(); or that both
 * are absent. */
#define GETTIMEOFDAY_TIME_RESULTS	(vdso_gettimeofday && vdso_time ? 4 + 1 : 1)

static void test_abi_gettimeofday_time(void)
{
	if (time32_absent("abi"))
		return;
	for (int mask = 0; mask < 4; mask++) {
		struct timeval_k tv = { -1, -1 }, stv;
		int tz[2] = { -1, -1 }, stz[2];
		void *tvp = mask & 1 ? &tv : NULL, *tzp = mask & 2 ? tz : NULL;
		long serr = syscall(SYS_gettimeofday, &stv, stz);
		struct vdso_ret r = vdso_call(vdso_gettimeofday, (long)tvp, (long)tzp);
		bool tv_ok = !tvp || (tv.sec - stv.sec <= 1 && tv.sec >= stv.sec &&
				      tv.usec >= 0 && tv.usec < 1000000);
		bool tz_ok = !tzp || (tz[0] == stz[0] && tz[1] == stz[1]);

		report(!serr && !r.so && r.r3 == 0 && tv_ok && tz_ok,
		       "abi: gettimeofday(%s, %s): r3=%ld so=%d tv %ld.%06ld tz %d/%d "
		       "(syscall tz %d/%d)", tvp ? "tv" : "NULL", tzp ? "tz" : "NULL",
		       r.r3, r.so, tv.sec, tv.usec, tz[0], tz[1], stz[0], stz[1]);
	}
	{
		long t = -1, before = syscall(SYS_time, NULL);
		struct vdso_ret a = vdso_call(vdso_time, 0, 0);
		struct vdso_ret b = vdso_call(vdso_time, (long)&t, 0);
		long after = syscall(SYS_time, NULL);

		/* Like the coarse clocks, the second is a copy: it may lag by one. */
		report(!a.so && !b.so && a.r3 >= before - 1 && a.r3 <= after &&
		       b.r3 == t && t >= a.r3 && t <= after,
		       "abi: time(NULL) = %ld, time(&t) = %ld, t = %ld, syscall %ld..%ld",
		       a.r3, b.r3, t, before, after);
	}
}

static uint64_t read_tb(void)
{
#ifdef __powerpc64__
	uint64_t tb;

	__asm__ __volatile__("mftb %0" : "=r" (tb));
	return tb;
#else
	uint32_t hi, lo, again;

	do
		__asm__ __volatile__("mftbu %0; mftb %1; mftbu %2"
				     : "=r" (hi), "=r" (lo), "=r" (again));
	while (hi != again);
	return (uint64_t)hi << 32 | lo;
#endif
}

/* __kernel_get_tbfreq's answer: r3, or r3:r4 on ppc32. */
static uint64_t tbfreq_of(struct vdso_ret r)
{
#ifdef __powerpc64__
	return r.r3;
#else
	return (uint64_t)(uint32_t)r.r3 << 32 | (uint32_t)r.r4;
#endif
}

/*
 * The system call's CLOCK_MONOTONIC_RAW between two timebase reads: the
 * narrowest of a few tries, so a preemption on a busy host widens a
 * bracket, never the measurement.
 */
struct tb_bracket {
	uint64_t lo, hi;	/* timebase before and after */
	int64_t ns;
};

static struct tb_bracket tb_bracket_now(void)
{
	struct tb_bracket best = { 0, UINT64_MAX, 0 }, b;

	for (int i = 0; i < 20; i++) {
		b.lo = read_tb();
		b.ns = ts_ns(sys_now(CLOCK_MONOTONIC_RAW));
		b.hi = read_tb();
		if (b.hi - b.lo < best.hi - best.lo)
			best = b;
	}
	return best;
}

/*
 * The timebase ticks between two system-call readings lie between the
 * brackets' inner and outer spans; the vDSO's frequency must fall in
 * that range, widened by 0.1% for the host's own rate error.
 */
static void test_abi_tbfreq(void)
{
	struct vdso_ret r = vdso_call(vdso_tbfreq, 0, 0);
	uint64_t freq = tbfreq_of(r);
	struct tb_bracket a = tb_bracket_now(), b;
	double s, low, high;

	usleep(300000);
	b = tb_bracket_now();
	s = (b.ns - a.ns) / 1e9;
	low = (b.lo - a.hi) / s * 0.999;
	high = (b.hi - a.lo) / s * 1.001;
	report(!r.so && freq >= low && freq <= high,
	       "abi: __kernel_get_tbfreq %" PRIu64 " Hz, measured %.0f to %.0f Hz",
	       freq, low, high);
}

/*
 * QEMU answers the time system calls from the data page the vDSO reads
 * (preload/guest_clock.h), as a kernel answers both from one timekeeper.
 * So, interleaved, system call, vDSO, system call, ...: no vDSO reading
 * is behind the system call before it or ahead of the one after it, for
 * every served clock and time(): at least AGREE_PAIRS pairs, and for the
 * coarse clocks and time(), which move only at the timekeeper's updates,
 * over at least AGREE_NS, a hundred of them and more.
 */
#define AGREE_PAIRS	1000000
#define AGREE_NS	2000000000

/* One clock's pairs, clk -1 for time(): the worst of each direction. */
static void agree(int clk, const char *name)
{
	bool coarse = clk < 0 || clk == CLOCK_REALTIME_COARSE ||
		      clk == CLOCK_MONOTONIC_COARSE;
	int64_t worst_sv = 0, worst_vs = 0, prev, v, s, end;
	long pairs = 0;

	prev = clk < 0 ? syscall(SYS_time, NULL) : ts_ns(sys_now(clk));
	end = ts_ns(sys_now(CLOCK_MONOTONIC)) + (coarse ? AGREE_NS : 0);
	do {
		for (int n = 0; n < 1000; n++, pairs++) {
			if (clk < 0) {
				v = vdso_call(vdso_time, 0, 0).r3;
				s = syscall(SYS_time, NULL);
			} else {
				v = ts_ns(vdso_now(clk));
				s = ts_ns(sys_now(clk));
			}
			if (prev - v > worst_sv)	/* the vDSO behind the syscall before it */
				worst_sv = prev - v;
			if (v - s > worst_vs)		/* the vDSO ahead of the syscall after it */
				worst_vs = v - s;
			prev = s;
		}
	} while (pairs < AGREE_PAIRS || ts_ns(sys_now(CLOCK_MONOTONIC)) < end);
	report(worst_sv == 0 && worst_vs == 0,
	       "agree: %s: %ld pairs, worst vDSO behind the syscall before it %" PRId64
	       " %s, ahead of the syscall after it %" PRId64 " %s", name, pairs,
	       worst_sv, clk < 0 ? "s" : "ns", worst_vs, clk < 0 ? "s" : "ns");
}

static void test_agree(void)
{
	char name[32];

	usleep(100000);		/* the timekeeper's warm-up */
	for (size_t i = 0; i < NSERVED; i++) {
		snprintf(name, sizeof(name), "clock %d", served[i]);
		agree(served[i], name);
	}
	if (!time32_absent("agree: time()"))
		agree(-1, "time()");
}

/*
 * Monotonicity, per thread and across threads, of each served clock and of
 * the bare timebase beside it.  QEMU 7.2 answers mftb with a plain host
 * rdtsc, which no guest barrier orders (sync and isync become a lock orl):
 * the host may execute it before an earlier load, so a timebase read after
 * loading another thread's reading can be behind it (by under a
 * microsecond on AMD EPYC).  Within one thread it never is.  So a step
 * back in a thread always fails; across threads an hres clock may step
 * back as far as the bare timebase does in the same run, plus
 * STEP_SLACK_NS.  A torn read is off by about a timekeeper update period
 * (100 us at the torture's 10 kHz, the host's tick or a few at the
 * default rate), ten times the slack and more.
 */
#define STEP_ROUNDS	10
#define NSOURCES	(NSERVED + 1)	/* the served clocks, then the timebase */
/*
 * What a vDSO reading may add to the timebase's own worst step.  It is
 * the timebase through a linear function of slope ~1 ns/ns, its mftb
 * further from the load of the maximum than the bare pattern's; the slack
 * covers rounding, the function changing at an update, and sampling: each
 * worst comes of a few steps (with the maximum loaded relaxed, a clock's
 * has been 4.3 us above the timebase's of the same run).
 */
#define STEP_SLACK_NS	10000
/*
 * The smallest tear, one update period at 10 kHz.  A timebase whose own
 * steps come within half of it cannot tell a tear from itself: then the
 * hres clocks' cross-thread steps are not judged (SKIP), rather than
 * failed for the host's timebase.
 */
#define STEP_TEAR_NS	100000

struct steps {
	long own, cross;		/* behind the thread's last, another's */
	int64_t own_worst, cross_worst;	/* ns, or ticks for the timebase */
};

struct step_reader {
	long reads;			/* per source and round */
	struct steps steps[NSOURCES];
};

/*
 * -1, or the one CPU the reader threads share: where the host's TSCs do
 * not agree across CPUs, as the timebase tells nothing there
 * (tests/vdso-guest-test.sh decides).
 */
static int step_cpu = -1;

/* The latest reading any thread has published, per source. */
static _Atomic int64_t source_high[NSOURCES];
static pthread_barrier_t step_phase;

/* One pattern for every source: load the maximum, read, compare, publish. */
static inline __attribute__((always_inline)) void
read_steps(size_t src, bool bare, long reads, struct steps *s)
{
	int64_t mine = 0;

	for (long n = 0; n < reads; n++) {
		int64_t seen = atomic_load(&source_high[src]);
		int64_t t = bare ? (int64_t)read_tb() : ts_ns(vdso_now(served[src]));

		if (t < mine) {
			s->own++;
			if (mine - t > s->own_worst)
				s->own_worst = mine - t;
		} else if (t < seen) {
			s->cross++;
			if (seen - t > s->cross_worst)
				s->cross_worst = seen - t;
		}
		mine = t;
		while (seen < t &&
		       !atomic_compare_exchange_weak(&source_high[src], &seen, t))
			;
	}
}

/* Both threads read one source at a time, the sources in turn, rounds over. */
static void *step_reader(void *arg)
{
	struct step_reader *r = arg;

	if (step_cpu >= 0) {
		cpu_set_t one;

		CPU_ZERO(&one);
		CPU_SET(step_cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one) < 0) {
			perror("vdso-clock-test: sched_setaffinity");
			exit(2);
		}
	}
	for (int round = 0; round < STEP_ROUNDS; round++) {
		for (size_t src = 0; src < NSOURCES; src++) {
			pthread_barrier_wait(&step_phase);
			if (src == NSERVED)
				read_steps(src, true, r->reads, &r->steps[src]);
			else
				read_steps(src, false, r->reads, &r->steps[src]);
		}
	}
	return NULL;
}

/* A timebase step in ns, at the rate the vDSO converts at. */
static int64_t ticks_ns(int64_t ticks, uint64_t freq)
{
	return (int64_t)((double)ticks * 1e9 / freq + 0.5);
}

/* RESULTS_AFTER: how many results the caller reports after these. */
static void run_steps(const char *mode, long reads, unsigned int results_after)
{
	struct step_reader r[2] = { { .reads = reads }, { .reads = reads } };
	uint64_t freq = tbfreq_of(vdso_call(vdso_tbfreq, 0, 0));
	struct steps all[NSOURCES] = { 0 };
	pthread_t tid[2];
	bool tb_tells;

	pthread_barrier_init(&step_phase, NULL, 2);
	for (int i = 0; i < 2; i++)
		pthread_create(&tid[i], NULL, step_reader, &r[i]);
	for (int i = 0; i < 2; i++)
		pthread_join(tid[i], NULL);
	pthread_barrier_destroy(&step_phase);
	for (size_t src = 0; src < NSOURCES; src++) {
		for (int i = 0; i < 2; i++) {
			const struct steps *s = &r[i].steps[src];

			all[src].own += s->own;
			all[src].cross += s->cross;
			if (s->own_worst > all[src].own_worst)
				all[src].own_worst = s->own_worst;
			if (s->cross_worst > all[src].cross_worst)
				all[src].cross_worst = s->cross_worst;
		}
	}
	all[NSERVED].own_worst = ticks_ns(all[NSERVED].own_worst, freq);
	all[NSERVED].cross_worst = ticks_ns(all[NSERVED].cross_worst, freq);

	tb_tells = all[NSERVED].cross_worst <= STEP_TEAR_NS / 2;
	/* The timebase, the SKIP if it cannot tell, each served clock. */
	test_plan(1 + !tb_tells + NSERVED + results_after);
	report(all[NSERVED].own == 0,
	       "%s: bare timebase (mftb, %" PRIu64 " Hz): 2 threads x %ld "
	       "readings in %d rounds: back in a thread %ld (worst %" PRId64
	       " ns), across threads %ld (worst %" PRId64 " ns)",
	       mode, freq, reads * STEP_ROUNDS, STEP_ROUNDS, all[NSERVED].own,
	       all[NSERVED].own_worst, all[NSERVED].cross,
	       all[NSERVED].cross_worst);
	if (!tb_tells) {
		char why[200];

		snprintf(why, sizeof(why), "the bare timebase steps back %" PRId64
			 " ns across threads, too near a torn read's %d to tell the "
			 "two apart", all[NSERVED].cross_worst, STEP_TEAR_NS);
		test_skip(why, "%s: hres clocks across threads", mode);
	}
	for (size_t src = 0; src < NSERVED; src++) {
		int clk = served[src];
		bool coarse = clk == CLOCK_REALTIME_COARSE ||
			      clk == CLOCK_MONOTONIC_COARSE;
		/* No timebase in a coarse clock: loads only, kept in order on x86. */
		int64_t allowed = coarse ? 0 : !tb_tells ? INT64_MAX :
				  all[NSERVED].cross_worst + STEP_SLACK_NS;

		report(all[src].own == 0 && all[src].cross_worst <= allowed,
		       "%s: clock %d: 2 threads x %ld readings in %d rounds: back "
		       "in a thread %ld (worst %" PRId64 " ns), across threads %ld "
		       "(worst %" PRId64 " ns, allowed %" PRId64 "; bare timebase "
		       "%ld, worst %" PRId64 " ns)", mode, clk,
		       reads * STEP_ROUNDS, STEP_ROUNDS, all[src].own,
		       all[src].own_worst, all[src].cross, all[src].cross_worst,
		       allowed, all[NSERVED].cross, all[NSERVED].cross_worst);
	}
}

static void test_monotonic(void)
{
	run_steps("monotonic", 1000000 / STEP_ROUNDS, 0);
}

/*
 * Readers against a timekeeper updating at 10 kHz or more (the caller
 * runs ppctime-run so): a torn read shows as a step back, beyond the
 * timebase's own, or as a reading outside the syscall bracket around the
 * whole run.
 */
static void test_torture(void)
{
	const long per_phase = 10000000 / NSERVED / 2 / STEP_ROUNDS + 1;
	struct ts64 before = sys_now(CLOCK_MONOTONIC), after;
	int64_t high;

	run_steps("torture", per_phase, 1);
	after = sys_now(CLOCK_MONOTONIC);
	high = atomic_load(&source_high[1]);	/* CLOCK_MONOTONIC */
	report(high >= ts_ns(before) && high <= ts_ns(after),
	       "torture: %ld vDSO reads against the timekeeper: the last "
	       "MONOTONIC within the run's syscall bracket: %s",
	       per_phase * STEP_ROUNDS * 2 * (long)NSERVED,
	       high >= ts_ns(before) && high <= ts_ns(after) ? "yes" : "no");
}

/* For one-cpu: the first CPU this thread may run on. */
static int first_cpu(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) < 0) {
		perror("vdso-clock-test: sched_getaffinity");
		exit(2);
	}
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set))
			return cpu;
	return 0;
}

/*
 * This libc waits for threads with the futex system call of 32-bit
 * time_t, which a ppc32 kernel without COMPAT_32BIT_TIME lacks (glibc
 * then aborts): there the threaded tests say SKIP, their one result.
 */
static bool threads_can_wait(const char *what)
{
	int word = 0;

	if (syscall(SYS_futex, &word, FUTEX_WAKE, 1, NULL, NULL, 0) != -1 || errno != ENOSYS)
		return true;
	test_plan(1);
	test_skip("no futex system call for 32-bit time_t (a kernel without "
		  "COMPAT_32BIT_TIME), which this C library's threads need", "%s", what);
	return false;
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	find_vdso();
	if (!strcmp(what, "abi")) {
		/* getres and gettime per id, getres per served clock, a
		 * bad pointer per clock, gettimeofday and time, tbfreq. */
		test_plan(2 * TEST_ARRAY_SIZE(ids) + NSERVED +
			  BAD_POINTERS * TEST_ARRAY_SIZE(bad_pointer_clocks) +
			  GETTIMEOFDAY_TIME_RESULTS + 1);
		test_abi_ids();
		test_abi_served();
		test_abi_pointers();
		test_abi_gettimeofday_time();
		test_abi_tbfreq();
	} else if (!strcmp(what, "agree")) {
		cpu_set_t one;

		/* On one CPU: the host's TSCs need not agree across CPUs (a
		 * host not keeping time with them), which no page can mend. */
		CPU_ZERO(&one);
		CPU_SET(first_cpu(), &one);
		if (sched_setaffinity(0, sizeof(one), &one) < 0) {
			perror("vdso-clock-test: sched_setaffinity");
			return 2;
		}
		test_plan(NSERVED + 1);	/* each served clock, time() */
		test_agree();
	} else if ((!strcmp(what, "monotonic") || !strcmp(what, "torture")) &&
		   (argc == 2 || (argc == 3 && !strcmp(argv[2], "one-cpu")))) {
		if (!threads_can_wait(what))
			return 0;
		if (argc == 3)
			step_cpu = first_cpu();
		if (!strcmp(what, "monotonic"))
			test_monotonic();
		else
			test_torture();
	} else if (!strcmp(what, "calls") && argc == 4) {
		for (long n = strtol(argv[3], NULL, 0); n > 0; n--)
			vdso_now(atoi(argv[2]));
	} else {
		fprintf(stderr, "usage: %s abi|agree|monotonic [one-cpu]"
			"|torture [one-cpu]|calls CLOCK N\n", argv[0]);
		return 2;
	}
	return test_failures != 0;
}
