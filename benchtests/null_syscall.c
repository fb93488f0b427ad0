// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The cost of a null system call (getppid()), after Anton Blanchard's
 * null_syscall.c: ROUNDS rounds (default 10) of calls, each round timed
 * for SECONDS / ROUNDS of CLOCK_MONOTONIC (SECONDS default 1), and the
 * cost per call in timebase ticks and in nanoseconds, mean and standard
 * deviation over the rounds:
 *
 *   getppid: ROUNDS rounds, CALLS calls
 *   ticks/call: mean = M sd = SD
 *   ns/call: mean = M sd = SD
 *
 * Under QEMU user mode the timebase is the host's cycle counter.
 *
 *   null_syscall [SECONDS [ROUNDS]]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define BATCH 256	/* calls between two readings of the clock */
#define MAX_ROUNDS 1000

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void mean_sd(const double *x, int n, double *mean, double *sd)
{
	double sum = 0, squares = 0;

	for (int i = 0; i < n; i++)
		sum += x[i];
	*mean = sum / n;
	for (int i = 0; i < n; i++)
		squares += (x[i] - *mean) * (x[i] - *mean);
	*sd = n > 1 ? sqrt(squares / (n - 1)) : 0;
}

static void usage_error(const char *prog, const char *what)
{
	fprintf(stderr, "%s: %s\nusage: %s [SECONDS [ROUNDS]]\n", prog, what, prog);
	exit(2);
}

int main(int argc, char **argv)
{
	double seconds = 1, ticks[MAX_ROUNDS], ns[MAX_ROUNDS], mean, sd;
	long rounds = 10, total_calls = 0;
	char *end;

	if (argc > 3)
		usage_error(argv[0], "too many arguments");
	if (argc > 1) {
		seconds = strtod(argv[1], &end);
		if (end == argv[1] || *end || !(seconds > 0 && seconds <= 600))
			usage_error(argv[0], "SECONDS must be a number in (0, 600]");
	}
	if (argc > 2) {
		errno = 0;
		rounds = strtol(argv[2], &end, 10);
		if (errno || end == argv[2] || *end || rounds < 1 || rounds > MAX_ROUNDS)
			usage_error(argv[0], "ROUNDS must be an integer from 1 to 1000");
	}

	for (int r = 0; r < rounds; r++) {
		int64_t round_ns = seconds * 1e9 / rounds, start = now_ns(), elapsed;
		uint64_t tb_start = __builtin_ppc_get_timebase();
		long calls = 0;

		do {
			for (int i = 0; i < BATCH; i++)
				getppid();
			calls += BATCH;
			elapsed = now_ns() - start;
		} while (elapsed < round_ns);
		ticks[r] = (double)(__builtin_ppc_get_timebase() - tb_start) / calls;
		ns[r] = (double)elapsed / calls;
		total_calls += calls;
	}

	printf("getppid: %ld rounds, %ld calls\n", rounds, total_calls);
	mean_sd(ticks, rounds, &mean, &sd);
	printf("ticks/call: mean = %.1f sd = %.3f\n", mean, sd);
	mean_sd(ns, rounds, &mean, &sd);
	printf("ns/call: mean = %.1f sd = %.3f\n", mean, sd);
	return 0;
}
