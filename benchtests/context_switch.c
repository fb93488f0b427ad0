// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Context switches per second, after Anton Blanchard's context_switch.c:
 * two processes pass a one-byte token back and forth over two pipes, each
 * calling gettimeofday() (the vDSO, where there is one) every round, for
 * SECONDS (default 1).  A round trip is two switches.  Prints
 *
 *   context_switch: ROUNDS round trips in S.SSSSSS s
 *   switches/s = N
 *
 *   context_switch [SECONDS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

static void pass_token(int to, int from)
{
	char token = 't';

	if (write(to, &token, 1) != 1 || read(from, &token, 1) != 1) {
		perror("context_switch: pipe");
		exit(1);
	}
}

static double seconds_since(const struct timeval *start, const struct timeval *now)
{
	return now->tv_sec - start->tv_sec + (now->tv_usec - start->tv_usec) * 1e-6;
}

int main(int argc, char **argv)
{
	double seconds = 1, elapsed;
	int to_child[2], to_parent[2], status;
	struct timeval start, now;
	long rounds = 0;
	pid_t child;
	char token;

	if (argc > 2) {
		fprintf(stderr, "usage: %s [SECONDS]\n", argv[0]);
		return 2;
	}
	if (argc == 2) {
		char *end;

		seconds = strtod(argv[1], &end);
		if (end == argv[1] || *end || !(seconds > 0 && seconds <= 600)) {
			fprintf(stderr, "%s: SECONDS must be a number in (0, 600], not '%s'\n",
				argv[0], argv[1]);
			return 2;
		}
	}
	if (pipe(to_child) || pipe(to_parent)) {
		perror("context_switch: pipe");
		return 1;
	}

	child = fork();
	if (child < 0) {
		perror("context_switch: fork");
		return 1;
	}
	if (child == 0) {
		/* echo each token back until the parent closes its end */
		close(to_child[1]);
		close(to_parent[0]);
		while (read(to_child[0], &token, 1) == 1) {
			gettimeofday(&now, NULL);
			if (write(to_parent[1], &token, 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	close(to_child[0]);
	close(to_parent[1]);

	gettimeofday(&start, NULL);
	do {
		pass_token(to_child[1], to_parent[0]);
		gettimeofday(&now, NULL);
		rounds++;
		elapsed = seconds_since(&start, &now);
	} while (elapsed < seconds);

	close(to_child[1]);
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "context_switch: the child process failed\n");
		return 1;
	}
	printf("context_switch: %ld round trips in %.6f s\n", rounds, elapsed);
	printf("switches/s = %.0f\n", 2 * rounds / elapsed);
	return 0;
}
