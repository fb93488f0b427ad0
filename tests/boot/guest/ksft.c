// SPDX-License-Identifier: GPL-2.0
/*
 * ksft PROGRAM [ARG...]: one of Linux's own kselftests in the guest, as
 * one result (tests/README.md), read as tests/vdso-kselftest.sh reads them
 * under ppctime-run: exit 0 PASS, 4 (KSFT_SKIP) SKIP with the last line
 * the program printed, anything else, or no end within TIME_LIMIT
 * seconds, FAIL.  Its output goes to the console as '# ' lines, for the log.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../test_harness.h"

#define KSFT_SKIP	4
#define TIME_LIMIT	120

static pid_t child;
static volatile sig_atomic_t timed_out;

static void time_up(int sig)
{
	(void)sig;
	timed_out = 1;
	kill(child, SIGKILL);
}

/* argv: the program and its arguments. */
static void run_ksft(const void *arg)
{
	char *const *argv = arg;
	char *line = NULL, last[200] = "exit 4 (KSFT_SKIP), no reason printed";
	const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	size_t size = 0;
	int fds[2], status;
	FILE *out;

	if (pipe(fds) || (child = fork()) < 0) {
		report(false, "%s: cannot start: %m", name);
		return;
	}
	if (child == 0) {
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		close(fds[0]);
		close(fds[1]);
		execv(argv[0], argv);
		printf("cannot run %s: %m\n", argv[0]);
		_exit(127);
	}
	close(fds[1]);
	signal(SIGALRM, time_up);
	alarm(TIME_LIMIT);
	out = fdopen(fds[0], "r");
	while (getline(&line, &size, out) > 0) {
		line[strcspn(line, "\n")] = '\0';
		printf("# %s\n", line);
		if (line[strspn(line, " \t")])
			snprintf(last, sizeof(last), "%s", line);
	}
	waitpid(child, &status, 0);
	alarm(0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == KSFT_SKIP)
		test_skip(last, "%s", name);
	else if (timed_out)
		report(false, "%s: no end within %d s", name, TIME_LIMIT);
	else if (WIFSIGNALED(status))
		report(false, "%s: killed by signal %d", name, WTERMSIG(status));
	else
		report(WEXITSTATUS(status) == 0, "%s: exit status %d", name,
		       WEXITSTATUS(status));
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2) {
		fprintf(stderr, "usage: %s PROGRAM [ARG...]\n", argv[0]);
		return 2;
	}
	test_add_case(run_ksft, argv + 1);
	return test_run_cases();
}
