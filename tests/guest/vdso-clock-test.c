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
 * calls either.  Absent, test_time32_absent is WHAT's one case.
 */
static bool time32_present(void)
{
	return vdso_gettimeofday && vdso_time;
}

static void test_time32_absent(const void *what)
{
	long g, t;

	g = syscall(SYS_gettimeofday, NULL, NULL) ? errno : 0;
	t = syscall(SYS_time, NULL) == -1 ? errno : 0;
	report(!vdso_gettimeofday && !vdso_time && g == ENOSYS && t == ENOSYS,
	       "%s: __kernel_gettimeofday %s, __kernel_time %s, as the system calls "
	       "(gettimeofday errno %ld, time errno %ld)", (const char *)what,
	       vdso_gettimeofday ? "present" : "absent",
	       vdso_time ? "present" : "absent", g, t);
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

/* The last two are set when the test runs (set_cpu_clock_ids). */
static struct clock_id { const char *name; long id; } ids[] = {
	{ "-1", -1 }, { "INT_MIN", INT_MIN }, { "INT_MAX", INT_MAX },
	{ "12", 12 }, { "16", 16 },
	{ "CLOCK_PROCESS_CPUTIME_ID", CLOCK_PROCESS_CPUTIME_ID },
	{ "CLOCK_THREAD_CPUTIME_ID", CLOCK_THREAD_CPUTIME_ID },
	{ "CLOCK_REALTIME_ALARM", CLOCK_REALTIME_ALARM },
	{ "CLOCK_BOOTTIME_ALARM", CLOCK_BOOTTIME_ALARM },
	{ "the process's CPU clock", 0 },
	{ "the thread's CPU clock", 0 },
};

static void set_cpu_clock_ids(void)
{
	clockid_t process_clock, thread_clock;

	clock_getcpuclockid(getpid(), &process_clock);
	pthread_getcpuclockid(pthread_self(), &thread_clock);
	ids[9].id = process_clock;
	ids[10].id = thread_clock;
}

static void test_abi_gettime_id(const void *arg)
{
	const struct clock_id *c = arg;
	struct ts64 vt = { -1, -1 }, st = { -1, -1 };
	int serr = sys_clock(SYS_gettime64, c->id, &st);
	struct vdso_ret v = vdso_call(vdso_gettime, c->id, (long)&vt);

	/* A CPU clock read after the syscall cannot be behind it. */
	report(v.so == (serr != 0) && (!v.so ? v.r3 == 0 && ts_ns(vt) >= ts_ns(st)
					     : v.r3 == serr),
	       "abi: clock_gettime(%s): vDSO r3=%ld so=%d, syscall errno %d",
	       c->name, v.r3, v.so, serr);
}

static void test_abi_getres_id(const void *arg)
{
	const struct clock_id *c = arg;
	struct ts64 vr = { -1, -1 }, sr = { -1, -1 };
	int rerr = sys_clock(SYS_getres64, c->id, &sr);
	struct vdso_ret g = vdso_call(vdso_getres, c->id, (long)&vr);

	report(g.so == (rerr != 0) &&
	       (g.so ? g.r3 == rerr : g.r3 == 0 && ts_ns(vr) == ts_ns(sr)),
	       "abi: clock_getres(%s): vDSO r3=%ld so=%d res %" PRId64
	       ", syscall errno %d res %" PRId64,
	       c->name, g.r3, g.so, ts_ns(vr), rerr, ts_ns(sr));
}

static void test_abi_served(const void *arg)
{
	int clk = *(const int *)arg;
	struct ts64 vr = { -1, -1 }, sr = { -1, -1 };
	int rerr = sys_clock(SYS_getres64, clk, &sr);
	struct vdso_ret g = vdso_call(vdso_getres, clk, (long)&vr);
	struct vdso_ret n = vdso_call(vdso_getres, clk, 0);

	report(!g.so && g.r3 == 0 && !rerr && ts_ns(vr) == ts_ns(sr) &&
	       !n.so && n.r3 == 0,
	       "abi: clock_getres(%d) = %" PRId64 " ns as the syscall's %"
	       PRId64 ", NULL accepted", clk, ts_ns(vr), ts_ns(sr));
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

static struct bad_call {
	const char *name;
	void *p;
	int clk;
} bad_calls[BAD_POINTERS][TEST_ARRAY_SIZE(bad_pointer_clocks)];

static void test_abi_pointer(const void *arg)
{
	const struct bad_call *b = arg;
	int serr = sys_clock(SYS_gettime64, b->clk, b->p);
	int status;

	bad_pointer = b->p;
	bad_clock = b->clk;
	status = in_child(gettime_bad_pointer, (long)vdso_gettime);
	report(serr == EFAULT && (status == 0 || status == 128 + SIGSEGV),
	       "abi: clock_gettime(%d, %s): syscall errno %d, vDSO %s",
	       b->clk, b->name, serr,
	       status == 0 ? "EFAULT" : status == 128 + SIGSEGV ?
	       "SIGSEGV" : "neither EFAULT nor SIGSEGV");
}

/* The read-only page stays mapped for its cases, to the end. */
static void add_abi_pointer_cases(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *ro = mmap(NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *gone = mmap(NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	const struct { const char *name; void *p; } ptrs[BAD_POINTERS] = {
		{ "NULL", NULL }, { "unmapped", gone }, { "read-only", ro },
	};

	munmap(gone, page);
	for (size_t p = 0; p < BAD_POINTERS; p++) {
		for (size_t c = 0; c < TEST_ARRAY_SIZE(bad_pointer_clocks); c++) {
			bad_calls[p][c] = (struct bad_call){ ptrs[p].name, ptrs[p].p,
							      bad_pointer_clocks[c] };
			test_add_case(test_abi_pointer, &bad_calls[p][c]);
		}
	}
}

struct timeval_k {
	long sec;
	long usec;
};

/* gettimeofday with and without each pointer. */
static const struct gettimeofday_call { bool tv, tz; } gettimeofday_calls[] = {
	{ false, false }, { true, false }, { false, true }, { true, true },
};

static void test_abi_gettimeofday(const void *arg)
{
	const struct gettimeofday_call *a = arg;
	struct timeval_k tv = { -1, -1 }, stv;
	int tz[2] = { -1, -1 }, stz[2];
	void *tvp = a->tv ? &tv : NULL, *tzp = a->tz ? tz : NULL;
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

static void test_abi_time(const void *unused __attribute__((unused)))
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
static void test_abi_tbfreq(const void *unused __attribute__((unused)))
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

static void test_agree_clock(const void *arg)
{
	char name[32];

	snprintf(name, sizeof(name), "clock %d", *(const int *)arg);
	agree(*(const int *)arg, name);
}

static void test_agree_time(const void *unused __attribute__((unused)))
{
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

/*
 * What a run of the readers saw, which its cases judge: the timebase,
 * the SKIP if it cannot tell, each served clock.
 */
static struct {
	const char *mode;
	long reads;
	uint64_t freq;
	struct steps all[NSOURCES];
	bool tb_tells;
} steps_seen;

static void test_timebase_steps(const void *unused __attribute__((unused)))
{
	const struct steps *tb = &steps_seen.all[NSERVED];

	report(tb->own == 0,
	       "%s: bare timebase (mftb, %" PRIu64 " Hz): 2 threads x %ld "
	       "readings in %d rounds: back in a thread %ld (worst %" PRId64
	       " ns), across threads %ld (worst %" PRId64 " ns)",
	       steps_seen.mode, steps_seen.freq, steps_seen.reads * STEP_ROUNDS,
	       STEP_ROUNDS, tb->own, tb->own_worst, tb->cross, tb->cross_worst);
}

static void test_hres_steps_skipped(const void *unused __attribute__((unused)))
{
	char why[200];

	snprintf(why, sizeof(why), "the bare timebase steps back %" PRId64
		 " ns across threads, too near a torn read's %d to tell the "
		 "two apart", steps_seen.all[NSERVED].cross_worst, STEP_TEAR_NS);
	test_skip(why, "%s: hres clocks across threads", steps_seen.mode);
}

static void test_clock_steps(const void *arg)
{
	const struct steps *s = arg, *tb = &steps_seen.all[NSERVED];
	int clk = served[s - steps_seen.all];
	bool coarse = clk == CLOCK_REALTIME_COARSE || clk == CLOCK_MONOTONIC_COARSE;
	/* No timebase in a coarse clock: loads only, kept in order on x86. */
	int64_t allowed = coarse ? 0 : !steps_seen.tb_tells ? INT64_MAX :
			  tb->cross_worst + STEP_SLACK_NS;

	report(s->own == 0 && s->cross_worst <= allowed,
	       "%s: clock %d: 2 threads x %ld readings in %d rounds: back "
	       "in a thread %ld (worst %" PRId64 " ns), across threads %ld "
	       "(worst %" PRId64 " ns, allowed %" PRId64 "; bare timebase "
	       "%ld, worst %" PRId64 " ns)", steps_seen.mode, clk,
	       steps_seen.reads * STEP_ROUNDS, STEP_ROUNDS, s->own,
	       s->own_worst, s->cross, s->cross_worst,
	       allowed, tb->cross, tb->cross_worst);
}

/* Runs the readers, READS per source and round, and adds the cases. */
static void run_steps(const char *mode, long reads)
{
	struct step_reader r[2] = { { .reads = reads }, { .reads = reads } };
	uint64_t freq = tbfreq_of(vdso_call(vdso_tbfreq, 0, 0));
	struct steps *all = steps_seen.all;
	pthread_t tid[2];

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
	steps_seen.mode = mode;
	steps_seen.reads = reads;
	steps_seen.freq = freq;
	steps_seen.tb_tells = all[NSERVED].cross_worst <= STEP_TEAR_NS / 2;

	test_add_case(test_timebase_steps, NULL);
	if (!steps_seen.tb_tells)
		test_add_case(test_hres_steps_skipped, NULL);
	for (size_t src = 0; src < NSERVED; src++)
		test_add_case(test_clock_steps, &all[src]);
}

/*
 * Readers against a timekeeper updating at 10 kHz or more (the caller
 * runs ppctime-run so): a torn read shows as a step back, beyond the
 * timebase's own, or as a reading outside the syscall bracket around the
 * whole run.
 */
static struct ts64 torture_before, torture_after;

static void test_torture_bracket(const void *unused __attribute__((unused)))
{
	int64_t high = atomic_load(&source_high[1]);	/* CLOCK_MONOTONIC */
	bool within = high >= ts_ns(torture_before) && high <= ts_ns(torture_after);

	report(within, "torture: %ld vDSO reads against the timekeeper: the last "
	       "MONOTONIC within the run's syscall bracket: %s",
	       steps_seen.reads * STEP_ROUNDS * 2 * (long)NSERVED, within ? "yes" : "no");
}

static void run_torture(void)
{
	torture_before = sys_now(CLOCK_MONOTONIC);
	run_steps("torture", 10000000 / NSERVED / 2 / STEP_ROUNDS + 1);
	torture_after = sys_now(CLOCK_MONOTONIC);
	test_add_case(test_torture_bracket, NULL);
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
 * then aborts): there the threaded tests say SKIP, their one case.
 */
static bool threads_can_wait(void)
{
	int word = 0;

	return syscall(SYS_futex, &word, FUTEX_WAKE, 1, NULL, NULL, 0) != -1 ||
	       errno != ENOSYS;
}

static void test_threads_cannot_wait(const void *what)
{
	test_skip("no futex system call for 32-bit time_t (a kernel without "
		  "COMPAT_32BIT_TIME), which this C library's threads need", "%s",
		  (const char *)what);
}

static void add_abi_cases(void)
{
	set_cpu_clock_ids();
	for (size_t i = 0; i < TEST_ARRAY_SIZE(ids); i++) {
		test_add_case(test_abi_gettime_id, &ids[i]);
		test_add_case(test_abi_getres_id, &ids[i]);
	}
	for (size_t i = 0; i < NSERVED; i++)
		test_add_case(test_abi_served, &served[i]);
	add_abi_pointer_cases();
	if (time32_present()) {
		for (size_t i = 0; i < TEST_ARRAY_SIZE(gettimeofday_calls); i++)
			test_add_case(test_abi_gettimeofday, &gettimeofday_calls[i]);
		test_add_case(test_abi_time, NULL);
	} else {
		test_add_case(test_time32_absent, "abi");
	}
	test_add_case(test_abi_tbfreq, NULL);
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	find_vdso();
	if (!strcmp(what, "abi")) {
		add_abi_cases();
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
		for (size_t i = 0; i < NSERVED; i++)
			test_add_case(test_agree_clock, &served[i]);
		test_add_case(time32_present() ? test_agree_time : test_time32_absent,
			      "agree: time()");
		usleep(100000);		/* the timekeeper's warm-up */
	} else if ((!strcmp(what, "monotonic") || !strcmp(what, "torture")) &&
		   (argc == 2 || (argc == 3 && !strcmp(argv[2], "one-cpu")))) {
		if (argc == 3)
			step_cpu = first_cpu();
		if (!threads_can_wait())
			test_add_case(test_threads_cannot_wait, what);
		else if (!strcmp(what, "monotonic"))
			run_steps("monotonic", 1000000 / STEP_ROUNDS);
		else
			run_torture();
	} else if (!strcmp(what, "calls") && argc == 4) {
		/* No TAP: a count of the system calls these make is the test. */
		for (long n = strtol(argv[3], NULL, 0); n > 0; n--)
			vdso_now(atoi(argv[2]));
		return 0;
	} else {
		fprintf(stderr, "usage: %s abi|agree|monotonic [one-cpu]"
			"|torture [one-cpu]|calls CLOCK N\n", argv[0]);
		return 2;
	}
	return test_run_cases();
}
