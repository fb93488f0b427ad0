// SPDX-License-Identifier: GPL-2.0
/*
 * What only a real kernel can show of its vDSO, run as root inside a
 * booted guest (tests/boot/README.md), through the C library as programs call
 * it.  Built against the sysroot's glibc, statically and dynamically:
 *
 *   kernel-test libc      each time function, 0 time system calls (counted
 *                         with ptrace), within the system call's bracket
 *   kernel-test timens    a child in a new time namespace reads the shifted
 *                         clocks through the vDSO, with no system call
 *   kernel-test settime   clock_settime() and adjtimex() by root: every
 *                         clock stays consistent with the system call
 *   kernel-test signal    handlers return through the vDSO's trampolines
 *   kernel-test getrandom getrandom() through the vDSO where both the
 *                         kernel (__kernel_getrandom) and glibc (2.41 on)
 *                         have it: next to no getrandom system calls;
 *                         else one a call
 *
 * Prints TAP (tests/README.md).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <link.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/platform/ppc.h>
#include <sys/ptrace.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timex.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../test_harness.h"

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME	0x00000080
#endif

/* The kernel's struct __kernel_timespec, whatever the C library's time_t. */
struct ts64 {
	int64_t sec;
	int64_t nsec;
};

#ifdef __powerpc64__
#define SYS_gettime64	SYS_clock_gettime
#else
#define SYS_gettime64	SYS_clock_gettime64
#endif

static const int served[] = {
	CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_MONOTONIC_RAW,
	CLOCK_REALTIME_COARSE, CLOCK_MONOTONIC_COARSE, CLOCK_BOOTTIME,
	CLOCK_TAI,
};
#define NSERVED (sizeof(served) / sizeof(served[0]))

static int64_t ns_of(struct timespec t)
{
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* The C library's reading: through the vDSO, if the test passes. */
static int64_t libc_now(int clk)
{
	struct timespec t;

	clock_gettime(clk, &t);
	return ns_of(t);
}

static int64_t sys_now(int clk)
{
	struct ts64 t;

	syscall(SYS_gettime64, clk, &t);
	return t.sec * 1000000000 + t.nsec;
}

/* The time system calls a C library may fall back to. */
static bool is_time_syscall(long nr)
{
	switch (nr) {
	case SYS_clock_gettime:
	case SYS_clock_getres:
	case SYS_gettimeofday:
#ifdef SYS_time
	case SYS_time:
#endif
#ifndef __powerpc64__
	case SYS_clock_gettime64:
	case SYS_clock_getres_time64:
#endif
		return true;
	default:
		return false;
	}
}

/*
 * fn(arg) in a child traced as strace would: the system calls it makes
 * that counted() picks, or -1 if it did not exit with status 0.
 */
static long count_syscalls(bool (*counted)(long), void (*fn)(long), long arg)
{
	long count = 0;
	bool entry = true;
	int status, sig = 0;
	pid_t pid = fork();

	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		fn(arg);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
		return -1;
	ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL);
	for (;;) {
		if (ptrace(PTRACE_SYSCALL, pid, 0, sig) || waitpid(pid, &status, 0) != pid)
			return -1;
		sig = 0;
		if (WIFEXITED(status))
			return WEXITSTATUS(status) ? -1 : count;
		if (WIFSIGNALED(status))
			return -1;
		if (WSTOPSIG(status) == (SIGTRAP | 0x80)) {
			/* r0 holds the number at entry (PT_R0 is 0). */
			if (entry && counted(ptrace(PTRACE_PEEKUSER, pid, 0, 0)))
				count++;
			entry = !entry;
		} else {
			sig = WSTOPSIG(status);
		}
	}
}

#define CALLS 1000

static void call_gettime(long clk)
{
	for (int n = 0; n < CALLS; n++)
		libc_now(clk);
}

static void call_getres(long clk)
{
	struct timespec t;

	for (int n = 0; n < CALLS; n++)
		clock_getres(clk, &t);
}

static void call_gettimeofday(long unused)
{
	struct timeval tv;

	(void)unused;
	for (int n = 0; n < CALLS; n++)
		gettimeofday(&tv, NULL);
}

static void call_time(long unused)
{
	(void)unused;
	for (int n = 0; n < CALLS; n++)
		time(NULL);
}

static void expect_calls(const char *what, void (*fn)(long), long arg, long want)
{
	long n = count_syscalls(is_time_syscall, fn, arg);

	report(n == want, "libc: %d %s calls made %ld time system calls, expected %ld",
	       CALLS, what, n, want);
}

static void test_libc_gettime(const void *arg)
{
	char what[64];

	snprintf(what, sizeof(what), "clock_gettime(clock %d)", *(const int *)arg);
	expect_calls(what, call_gettime, *(const int *)arg, 0);
}

static const struct libc_calls {
	const char *what;
	void (*fn)(long);
	long arg, want;
} libc_calls[] = {
	/* The control: the vDSO hands CPU-time clocks to the kernel. */
	{ "clock_gettime(CLOCK_PROCESS_CPUTIME_ID)", call_gettime,
	  CLOCK_PROCESS_CPUTIME_ID, CALLS },
	{ "clock_getres(CLOCK_MONOTONIC)", call_getres, CLOCK_MONOTONIC, 0 },
	{ "gettimeofday", call_gettimeofday, 0, 0 },
	{ "time", call_time, 0, 0 },
};

static void test_libc_calls(const void *arg)
{
	const struct libc_calls *c = arg;

	expect_calls(c->what, c->fn, c->arg, c->want);
}

/* A served clock between two system call readings, CALLS times. */
static void check_bracket(const char *what, int clk)
{
	long bad = 0;
	int64_t worst = 0;

	for (int n = 0; n < CALLS; n++) {
		int64_t before = sys_now(clk), v = libc_now(clk), after = sys_now(clk);

		if (v < before || v > after) {
			bad++;
			if (before - v > worst)
				worst = before - v;
			if (v - after > worst)
				worst = v - after;
		}
	}
	report(bad == 0, "%s: clock %d: %d libc readings within the system call's "
	       "bracket: %ld outside (worst by %" PRId64 " ns)", what, clk, CALLS,
	       bad, worst);
}

static void test_libc_bracket(const void *arg)
{
	check_bracket("libc", *(const int *)arg);
}

static void add_libc_cases(void)
{
	for (size_t i = 0; i < NSERVED; i++)
		test_add_case(test_libc_gettime, &served[i]);
	for (size_t i = 0; i < TEST_ARRAY_SIZE(libc_calls); i++)
		test_add_case(test_libc_calls, &libc_calls[i]);
	for (size_t i = 0; i < NSERVED; i++)
		test_add_case(test_libc_bracket, &served[i]);
}

/* Offsets of the new namespace, in seconds. */
#define TIMENS_MONOTONIC	100000
#define TIMENS_BOOTTIME		200000

struct timens_reading {
	int64_t real, mono, boot, mono_coarse;
	uint64_t tbfreq;
};

/*
 * The child's readings in the namespace (written to shared, kept in
 * inside), and the system call's outside, before and after.
 */
static struct timens_reading *shared, inside;
static struct timens_reading before, after;
static bool timens_entered;

static void read_in_timens(long unused)
{
	(void)unused;
	shared->real = libc_now(CLOCK_REALTIME);
	shared->mono = libc_now(CLOCK_MONOTONIC);
	shared->boot = libc_now(CLOCK_BOOTTIME);
	shared->mono_coarse = libc_now(CLOCK_MONOTONIC_COARSE);
	shared->tbfreq = __ppc_get_timebase_freq();
}

/* Enters a new time namespace and reads it in a child: the first case. */
static void test_timens_readings(const void *unused)
{
	char offsets[64];
	int fd, len;
	long n;

	(void)unused;
	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED || unshare(CLONE_NEWTIME)) {
		report(false, "timens: unshare(CLONE_NEWTIME): %s", strerror(errno));
		return;
	}
	/* Children made from now on enter it; offsets go in before the first. */
	len = snprintf(offsets, sizeof(offsets), "%d %d 0\n%d %d 0\n",
		       CLOCK_MONOTONIC, TIMENS_MONOTONIC, CLOCK_BOOTTIME, TIMENS_BOOTTIME);
	fd = open("/proc/self/timens_offsets", O_WRONLY);
	if (fd < 0 || write(fd, offsets, len) != len) {
		report(false, "timens: writing /proc/self/timens_offsets: %s", strerror(errno));
		return;
	}
	close(fd);
	before.tbfreq = __ppc_get_timebase_freq();
	before.real = sys_now(CLOCK_REALTIME);
	before.mono = sys_now(CLOCK_MONOTONIC);
	before.boot = sys_now(CLOCK_BOOTTIME);
	before.mono_coarse = sys_now(CLOCK_MONOTONIC_COARSE);
	n = count_syscalls(is_time_syscall, read_in_timens, 0);
	after.mono_coarse = sys_now(CLOCK_MONOTONIC_COARSE);
	after.boot = sys_now(CLOCK_BOOTTIME);
	after.mono = sys_now(CLOCK_MONOTONIC);
	after.real = sys_now(CLOCK_REALTIME);
	inside = *shared;
	timens_entered = true;
	report(n == 0, "timens: 4 clock readings and the timebase frequency in the "
	       "namespace made %ld time system calls (the vDSO's namespace path)", n);
}

/* The readings the first case took, or this case's failure. */
static bool timens_read(const char *what)
{
	if (!timens_entered)
		test_fail("no readings: the namespace was not set up",
			  "timens: %s in the namespace", what);
	return timens_entered;
}

static const struct timens_shift {
	const char *name;
	const int64_t *before, *got, *after;
	int64_t offset_s;
} timens_shifts[] = {
	{ "CLOCK_MONOTONIC", &before.mono, &inside.mono, &after.mono, TIMENS_MONOTONIC },
	{ "CLOCK_BOOTTIME", &before.boot, &inside.boot, &after.boot, TIMENS_BOOTTIME },
	{ "CLOCK_MONOTONIC_COARSE", &before.mono_coarse, &inside.mono_coarse,
	  &after.mono_coarse, TIMENS_MONOTONIC },
	{ "CLOCK_REALTIME (not shifted)", &before.real, &inside.real, &after.real, 0 },
};

static void test_timens_shift(const void *arg)
{
	const struct timens_shift *t = arg;
	int64_t lo = *t->before + t->offset_s * 1000000000;
	int64_t hi = *t->after + t->offset_s * 1000000000;

	if (!timens_read(t->name))
		return;
	report(*t->got >= lo && *t->got <= hi, "timens: %s in the namespace %" PRId64
	       " ns, outside's +%" PRId64 " s bracket [%" PRId64 ", %" PRId64 "]",
	       t->name, *t->got, t->offset_s, lo, hi);
}

static void test_timens_tbfreq(const void *unused)
{
	(void)unused;
	if (!timens_read("the timebase frequency"))
		return;
	report(inside.tbfreq == before.tbfreq && before.tbfreq != 0,
	       "timens: the timebase frequency in the namespace %" PRIu64
	       " Hz, outside %" PRIu64 " Hz", inside.tbfreq, before.tbfreq);
}

static void add_timens_cases(void)
{
	test_add_case(test_timens_readings, NULL);
	for (size_t i = 0; i < TEST_ARRAY_SIZE(timens_shifts); i++)
		test_add_case(test_timens_shift, &timens_shifts[i]);
	test_add_case(test_timens_tbfreq, NULL);
}

/* Each served clock against the system call for about `ms` milliseconds. */
static void check_steady(const char *what, int ms)
{
	int64_t end = sys_now(CLOCK_MONOTONIC) + (int64_t)ms * 1000000;
	int64_t last[NSERVED] = { 0 };
	long back = 0, outside = 0, reads = 0;

	while (sys_now(CLOCK_MONOTONIC) < end) {
		for (size_t i = 0; i < NSERVED; i++) {
			int64_t before = sys_now(served[i]);
			int64_t v = libc_now(served[i]);
			int64_t after = sys_now(served[i]);

			outside += v < before || v > after;
			back += v < last[i];
			last[i] = v;
			reads++;
		}
	}
	report(back == 0 && outside == 0, "%s: %ld libc readings over %d ms: %ld "
	       "outside the system call's bracket, %ld steps back", what, reads, ms,
	       outside, back);
}

/*
 * Cases in turn: each a step of the clocks' settings, or a check of them
 * after the steps before it; the last sets them back.
 */
#define SETTIME_STEP	1000000		/* s: about 11.6 days forward */

static int64_t settime_real, settime_mono;	/* before the first step */

static void test_settime_step(const void *unused)
{
	struct timespec ts;
	int rc;

	(void)unused;
	settime_real = sys_now(CLOCK_REALTIME);
	settime_mono = sys_now(CLOCK_MONOTONIC);
	ts.tv_sec = settime_real / 1000000000 + SETTIME_STEP;
	ts.tv_nsec = settime_real % 1000000000;
	rc = clock_settime(CLOCK_REALTIME, &ts);
	report(rc == 0, "settime: clock_settime(CLOCK_REALTIME, +%" PRId64 " s): %s",
	       (int64_t)SETTIME_STEP, rc ? strerror(errno) : "done");
}

static void test_settime_moved(const void *unused)
{
	const int64_t step = SETTIME_STEP;
	int64_t moved = libc_now(CLOCK_REALTIME) - settime_real;

	(void)unused;
	report(moved >= step * 1000000000 && moved < (step + 60) * 1000000000,
	       "settime: CLOCK_REALTIME moved by %" PRId64 " ns", moved);
}

static void test_settime_bracket(const void *arg)
{
	check_bracket("settime", *(const int *)arg);
}

static void test_settime_tai_set(const void *unused)
{
	struct timex tx = { .modes = ADJ_TAI, .constant = 37 };
	int rc = adjtimex(&tx);

	(void)unused;
	report(rc >= 0, "settime: adjtimex(ADJ_TAI, 37): %s", rc < 0 ? strerror(errno) : "done");
}

static void test_settime_tai_read(const void *unused)
{
	int64_t tai, realtime, offset;

	(void)unused;
	/* TAI read before REALTIME: the difference is 37 s less the gap. */
	usleep(20000);		/* the next tick publishes it */
	tai = libc_now(CLOCK_TAI);
	realtime = libc_now(CLOCK_REALTIME);
	offset = tai - realtime;
	report(offset <= 37000000000 && offset > 37000000000 - 10000000,
	       "settime: CLOCK_TAI - CLOCK_REALTIME after adjtimex(ADJ_TAI) %" PRId64
	       " ns (37 s less the gap between the readings)", offset);
}

static void test_settime_freq_set(const void *unused)
{
	/* +500 ppm, the most adjtimex takes */
	struct timex tx = { .modes = ADJ_FREQUENCY, .freq = 500 << 16 };
	int rc = adjtimex(&tx);

	(void)unused;
	report(rc >= 0, "settime: adjtimex(ADJ_FREQUENCY, +500 ppm): %s",
	       rc < 0 ? strerror(errno) : "done");
}

static void test_settime_steady_fast(const void *unused)
{
	(void)unused;
	check_steady("settime: +500 ppm", 300);
}

static void test_settime_steady_back(const void *unused)
{
	struct timex tx = { .modes = ADJ_FREQUENCY, .freq = 0 };

	(void)unused;
	adjtimex(&tx);
	check_steady("settime: frequency back", 100);
}

/* Back to where realtime would be, and the TAI offset to 0. */
static void test_settime_back(const void *unused)
{
	int64_t real = sys_now(CLOCK_REALTIME) - (int64_t)SETTIME_STEP * 1000000000;
	struct timespec ts = { .tv_sec = real / 1000000000, .tv_nsec = real % 1000000000 };
	struct timex tx = { .modes = ADJ_TAI, .constant = 0 };

	(void)unused;
	clock_settime(CLOCK_REALTIME, &ts);
	adjtimex(&tx);
	report(sys_now(CLOCK_MONOTONIC) > settime_mono,
	       "settime: CLOCK_MONOTONIC went on through the steps");
}

static void add_settime_cases(void)
{
	test_add_case(test_settime_step, NULL);
	test_add_case(test_settime_moved, NULL);
	for (size_t i = 0; i < NSERVED; i++)
		test_add_case(test_settime_bracket, &served[i]);
	test_add_case(test_settime_tai_set, NULL);
	test_add_case(test_settime_tai_read, NULL);
	test_add_case(test_settime_freq_set, NULL);
	test_add_case(test_settime_steady_fast, NULL);
	test_add_case(test_settime_steady_back, NULL);
	test_add_case(test_settime_back, NULL);
}

/*
 * Where a handler returns to: a trampoline in the vDSO, a system call
 * (sc) of __NR_sigreturn or __NR_rt_sigreturn within its first words.
 */
static void *volatile returned_to;

static void __attribute__((noinline)) handler(int sig)
{
	(void)sig;
	returned_to = __builtin_return_address(0);
}

static void handler_info(int sig, siginfo_t *info, void *uc)
{
	(void)sig;
	(void)info;
	(void)uc;
	returned_to = __builtin_return_address(0);
}

static uintptr_t vdso_text_end(uintptr_t base)
{
	const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)base;
	const ElfW(Phdr) *ph = (const ElfW(Phdr) *)(base + eh->e_phoff);

	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD)
			return base + ph[i].p_vaddr + ph[i].p_memsz;
	return base;
}

static const struct signal_frame {
	const char *what;
	bool info;
	long sigreturn_nr;
} signal_frames[] = {
	{ "SA_SIGINFO (rt frame)", true, SYS_rt_sigreturn },
#ifndef __powerpc64__
	{ "plain handler (sigcontext frame)", false, SYS_sigreturn },
#endif
};

static void test_signal_frame(const void *arg)
{
	const struct signal_frame *f = arg;
	uintptr_t base = getauxval(AT_SYSINFO_EHDR), end = base ? vdso_text_end(base) : 0;
	struct sigaction sa = { 0 };
	bool li = false, sc = false;
	uintptr_t at;

	if (f->info) {
		sa.sa_sigaction = handler_info;
		sa.sa_flags = SA_SIGINFO;
	} else {
		sa.sa_handler = handler;
	}
	sigaction(SIGUSR1, &sa, NULL);
	returned_to = NULL;
	raise(SIGUSR1);
	at = (uintptr_t)returned_to;
	/* li r0,NR then sc, within the next few instructions. */
	for (int i = 0; at >= base && at + 32 <= end && i < 8; i++) {
		uint32_t insn = ((const uint32_t *)at)[i];

		li |= insn == (0x38000000u | (uint32_t)f->sigreturn_nr);
		sc |= li && insn == 0x44000002u;
	}
	report(at >= base && at < end && li && sc, "signal: %s: the handler returns to "
	       "%#lx, in the vDSO [%#lx, %#lx): %s; li r0,%ld; sc there: %s, and back "
	       "here", f->what, (unsigned long)at, (unsigned long)base, (unsigned long)end,
	       at >= base && at < end ? "yes" : "no", f->sigreturn_nr,
	       li && sc ? "yes" : "no");
}

/* Whether the vDSO defines name, found in its DT_HASH symbol table. */
static bool vdso_defines(const char *name)
{
	uintptr_t base = getauxval(AT_SYSINFO_EHDR), bias = 0;
	const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)base;
	const ElfW(Phdr) *ph;
	const ElfW(Dyn) *dyn = NULL;
	const ElfW(Sym) *sym = NULL;
	const Elf32_Word *hash = NULL;
	const char *str = NULL;

	if (!base)
		return false;
	ph = (const ElfW(Phdr) *)(base + eh->e_phoff);
	for (int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && !bias)
			bias = base + ph[i].p_offset - ph[i].p_vaddr;
		if (ph[i].p_type == PT_DYNAMIC)
			dyn = (const ElfW(Dyn) *)(base + ph[i].p_offset);
	}
	for (; dyn && dyn->d_tag != DT_NULL; dyn++) {
		if (dyn->d_tag == DT_SYMTAB)
			sym = (const ElfW(Sym) *)(bias + dyn->d_un.d_ptr);
		else if (dyn->d_tag == DT_STRTAB)
			str = (const char *)(bias + dyn->d_un.d_ptr);
		else if (dyn->d_tag == DT_HASH)
			hash = (const Elf32_Word *)(bias + dyn->d_un.d_ptr);
	}
	/* hash[1], nchain, is the number of symbols. */
	for (Elf32_Word i = 1; sym && str && hash && i < hash[1]; i++)
		if (sym[i].st_shndx != SHN_UNDEF && !strcmp(str + sym[i].st_name, name))
			return true;
	return false;
}

static bool is_getrandom_syscall(long nr)
{
	return nr == SYS_getrandom;
}

static void call_getrandom(long unused)
{
	unsigned char buf[32];

	(void)unused;
	for (int n = 0; n < CALLS; n++)
		if (getrandom(buf, sizeof(buf), 0) != sizeof(buf))
			_exit(1);
}

/*
 * Through the vDSO, the kernel is asked for a key only for a new state
 * (the child's first call) and after each reseed of its generator: at
 * most one call in a hundred, which leaves room for reseeds.  glibc 2.41
 * to 2.43 binds the vDSO's getrandom only in dynamic programs: a static
 * one's early initialisation asks the vDSO before its startup has bound
 * it (__libc_early_init before _dl_non_dynamic_init), so every call is a
 * system call there.
 */
static void test_getrandom_calls(const void *unused)
{
	bool kernel = vdso_defines("__kernel_getrandom"), is_static = !getauxval(AT_BASE);
	bool libc = __GLIBC_PREREQ(2, 41) && !(is_static && !__GLIBC_PREREQ(2, 44));
	unsigned char byte;
	long n;

	(void)unused;
	/* Until the kernel's generator is ready its vDSO asks the system
	 * call; this one waits for that. */
	syscall(SYS_getrandom, &byte, 1, 0);
	n = count_syscalls(is_getrandom_syscall, call_getrandom, 0);
	report(kernel && libc ? n >= 0 && n <= CALLS / 100 : n == CALLS,
	       "getrandom: %d calls of 32 bytes made %ld getrandom system calls, expected "
	       "%s (the vDSO %s __kernel_getrandom; glibc %d.%d, %s)", CALLS, n,
	       kernel && libc ? "at most 1 in 100" : "1 a call", kernel ? "has" : "has no",
	       __GLIBC__, __GLIBC_MINOR__, is_static ? "static" : "dynamic");
}

static void test_getrandom_differ(const void *unused)
{
	unsigned char a[32], b[32];

	(void)unused;
	report(getrandom(a, sizeof(a), 0) == sizeof(a) && getrandom(b, sizeof(b), 0) == sizeof(b) &&
	       memcmp(a, b, sizeof(a)), "getrandom: two readings of 32 bytes differ");
}

static void add_getrandom_cases(void)
{
	test_add_case(test_getrandom_calls, NULL);
	test_add_case(test_getrandom_differ, NULL);
}

static void add_signal_cases(void)
{
	for (size_t i = 0; i < TEST_ARRAY_SIZE(signal_frames); i++)
		test_add_case(test_signal_frame, &signal_frames[i]);
}

static const struct {
	const char *name;
	void (*add_cases)(void);
} modes[] = {
	{ "libc", add_libc_cases },
	{ "timens", add_timens_cases },
	{ "settime", add_settime_cases },
	{ "signal", add_signal_cases },
	{ "getrandom", add_getrandom_cases },
};

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (size_t i = 0; i < TEST_ARRAY_SIZE(modes); i++) {
		if (!strcmp(what, modes[i].name)) {
			modes[i].add_cases();
			return test_run_cases();
		}
	}
	fprintf(stderr, "usage: %s libc|timens|settime|signal|getrandom\n", argv[0]);
	return 2;
}
