// SPDX-License-Identifier: GPL-2.0
/*
 * A powerpc stand-in for /bin/sh, for tests/binfmt-test.sh: run as a
 * script's interpreter (#!), it runs each line of the script that is not
 * a comment, a command and its words split at spaces, one after another,
 * by fork and execv, and exits with the last one's status.
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char line[4096];
	int status = 0;
	FILE *script;

	if (argc != 2 || !(script = fopen(argv[1], "r"))) {
		fprintf(stderr, "usage: mini-sh SCRIPT\n");
		return 2;
	}
	while (fgets(line, sizeof(line), script)) {
		char *words[64], *save;
		int n = 0;
		pid_t pid;

		for (char *w = strtok_r(line, " \n", &save); w && n < 63;
		     w = strtok_r(NULL, " \n", &save))
			words[n++] = w;
		words[n] = NULL;
		if (!n || words[0][0] == '#')
			continue;
		fflush(NULL);
		pid = fork();
		if (pid == 0) {
			execv(words[0], words);
			perror(words[0]);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &status, 0) < 0)
			return 125;
		status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	}
	return status;
}
