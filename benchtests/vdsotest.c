// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A vdsotest-style table of the time functions' cost, three ways each:
 * the system call (syscall(2)), the C library's function and the vDSO's
 * entry called directly.  Each loop runs for SECONDS (default 0.1) of
 * CLOCK_MONOTONIC, read once per batch of calls, and prints
 *
 *   NAME: METHOD: NSEC nsec/call
 *
 * NAME is vdsotest's (clock-gettime-monotonic, gettimeofday, ...), METHOD
 * syscall, libc or vdso.  Without a vDSO (ppctime-run --no-vdso under QEMU
 * 7.2; 8.2 and later map one of their own) there are no vdso lines, and
 * libc's are its system call fallback; an entry the image lacks gets none
 * either.  With NAME, only NAME's lines.
 *
 *   vdsotest [SECONDS [NAME]]
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "vdso_call.h"

/* 64-bit time on every target, as the C library reads it: on ppc32 the
 * time64 system call and vDSO entry. */
#ifdef __powerpc64__
#define SYS_GETTIME	SYS_clock_gettime
#define VDSO_GETTIME	"__kernel_clock_gettime"
#else
#define SYS_GETTIME	SYS_clock_gettime64
#define VDSO_GETTIME	"__kernel_clock_gettime64"
#endif
/* Linux 6.1's ppc32 image has no getres_time64: both ABIs' plain getres. */
#define SYS_GETRES	SYS_clock_getres
#define VDSO_GETRES	"__kernel_clock_getres"

#define BATCH 256	/* calls between two readings of the clock */

enum call_kind { CLOCK_GETTIME, CLOCK_GETRES, GETTIMEOFDAY, TIME };
enum method { SYSCALL, LIBC, VDSO };

struct bench {
	const char *name;
	enum call_kind kind;
	clockid_t clock;
	void *vdso_fn;
};

/* Room for a timespec or timeval of either time_t width. */
struct time_buf {
	int64_t a, b;
};

static const char *const method_names[] = { "syscall", "libc", "vdso" };

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static inline __attribute__((always_inline)) void
call_once(const struct bench *b, enum method m)
{
	struct time_buf buf;
	struct timespec ts;
	struct timeval tv;

	switch (m) {
	case SYSCALL:
		switch (b->kind) {
		case CLOCK_GETTIME: syscall(SYS_GETTIME, b->clock, &buf); break;
		case CLOCK_GETRES: syscall(SYS_GETRES, b->clock, &buf); break;
		case GETTIMEOFDAY: syscall(SYS_gettimeofday, &buf, NULL); break;
		case TIME: syscall(SYS_time, NULL); break;
		}
		break;
	case LIBC:
		switch (b->kind) {
		case CLOCK_GETTIME: clock_gettime(b->clock, &ts); break;
		case CLOCK_GETRES: clock_getres(b->clock, &ts); break;
		case GETTIMEOFDAY: gettimeofday(&tv, NULL); break;
		case TIME: time(NULL); break;
		}
		break;
	case VDSO:
		switch (b->kind) {
		case CLOCK_GETTIME:
		case CLOCK_GETRES: vdso_call(b->vdso_fn, b->clock, (long)&buf); break;
		case GETTIMEOFDAY: vdso_call(b->vdso_fn, (long)&buf, 0); break;
		case TIME: vdso_call(b->vdso_fn, 0, 0); break;
		}
		break;
	}
}

/* Inlined per method, so the switches fold away outside the loop. */
static inline __attribute__((always_inline)) double
ns_per_call(const struct bench *b, enum method m, int64_t duration_ns)
{
	int64_t start = now_ns(), elapsed;
	long calls = 0;

	do {
		for (int i = 0; i < BATCH; i++)
			call_once(b, m);
		calls += BATCH;
		elapsed = now_ns() - start;
	} while (elapsed < duration_ns);
	return (double)elapsed / calls;
}

static double measure(const struct bench *b, enum method m, int64_t duration_ns)
{
	switch (m) {
	case SYSCALL: return ns_per_call(b, SYSCALL, duration_ns);
	case LIBC: return ns_per_call(b, LIBC, duration_ns);
	default: return ns_per_call(b, VDSO, duration_ns);
	}
}

static double parse_seconds(int argc, char **argv)
{
	char *end;
	double seconds;

	if (argc > 3) {
		fprintf(stderr, "usage: %s [SECONDS [NAME]]\n", argv[0]);
		exit(2);
	}
	if (argc < 2)
		return 0.1;
	seconds = strtod(argv[1], &end);
	if (end == argv[1] || *end || !(seconds > 0 && seconds <= 60)) {
		fprintf(stderr, "%s: SECONDS must be a number in (0, 60], not '%s'\n",
			argv[0], argv[1]);
		exit(2);
	}
	return seconds;
}

int main(int argc, char **argv)
{
	int64_t duration_ns = parse_seconds(argc, argv) * 1e9;
	/* --no-vdso: no image; vdso_open() would end the program */
	void *vdso = getauxval(AT_SYSINFO_EHDR) ? vdso_open() : NULL;
	struct bench benches[] = {
		{ "clock-gettime-realtime", CLOCK_GETTIME, CLOCK_REALTIME, NULL },
		{ "clock-gettime-monotonic", CLOCK_GETTIME, CLOCK_MONOTONIC, NULL },
		{ "clock-gettime-realtime-coarse", CLOCK_GETTIME, CLOCK_REALTIME_COARSE, NULL },
		{ "clock-gettime-monotonic-coarse", CLOCK_GETTIME, CLOCK_MONOTONIC_COARSE, NULL },
		{ "clock-gettime-monotonic-raw", CLOCK_GETTIME, CLOCK_MONOTONIC_RAW, NULL },
		{ "clock-gettime-boottime", CLOCK_GETTIME, CLOCK_BOOTTIME, NULL },
		/* the vDSO hands this one to the system call: the control */
		{ "clock-gettime-process-cputime", CLOCK_GETTIME, CLOCK_PROCESS_CPUTIME_ID, NULL },
		{ "clock-getres-monotonic", CLOCK_GETRES, CLOCK_MONOTONIC, NULL },
		{ "gettimeofday", GETTIMEOFDAY, 0, NULL },
		{ "time", TIME, 0, NULL },
	};
	static const char *const entry_names[] = {
		[CLOCK_GETTIME] = VDSO_GETTIME, [CLOCK_GETRES] = VDSO_GETRES,
		[GETTIMEOFDAY] = "__kernel_gettimeofday", [TIME] = "__kernel_time",
	};
	const char *only = argc > 2 ? argv[2] : NULL;
	size_t n = sizeof(benches) / sizeof(benches[0]), found = 0;

	for (size_t i = 0; only && i < n; i++)
		found += !strcmp(benches[i].name, only);
	if (only && !found) {
		fprintf(stderr, "%s: no benchmark named '%s'\n", argv[0], only);
		exit(2);
	}
	for (size_t i = 0; i < n; i++) {
		struct bench *b = &benches[i];

		if (only && strcmp(b->name, only))
			continue;
		b->vdso_fn = vdso ? vdso_entry(vdso, entry_names[b->kind]) : NULL;
		for (enum method m = SYSCALL; m <= VDSO; m++) {
			if (m == VDSO && !b->vdso_fn)
				continue;
			printf("%s: %s: %.1f nsec/call\n", b->name, method_names[m],
			       measure(b, m, duration_ns));
			fflush(stdout);
		}
	}
	return 0;
}
