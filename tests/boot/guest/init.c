// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the boot tests' initramfs (tests/boot/mkinitramfs): mounts /proc,
 * runs each line of /boot-tests (a program and its arguments, separated by
 * spaces) with its output on the console, then powers the machine off.
 * tests/boot/boot-test reads the console:
 *
 *   BOOT-TEST: start CPUS          first, with the CPUs online
 *   BOOT-TEST: run CMD             before each program
 *   BOOT-TEST: exit STATUS CMD     after it: its exit status, or 128 + signal
 *   BOOT-TEST: done                last, before the power-off
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_ARGS 16

static int run(char *line)
{
	char *argv[MAX_ARGS + 1], *save = NULL, *word;
	int argc = 0, status;
	pid_t pid;

	for (word = strtok_r(line, " \n", &save); word && argc < MAX_ARGS;
	     word = strtok_r(NULL, " \n", &save))
		argv[argc++] = word;
	argv[argc] = NULL;
	if (!argc)
		return -1;
	pid = fork();
	if (pid == 0) {
		execv(argv[0], argv);
		printf("Bail out! %s: cannot run: %m\n", argv[0]);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 127;
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

int main(void)
{
	char line[512], shown[512];
	FILE *list;

	/* The kernel opened /dev/console for us if the initramfs has it. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (mount("proc", "/proc", "proc", 0, NULL))
		printf("BOOT-TEST: fail init: mount /proc: %m\n");
	printf("BOOT-TEST: start %ld\n", sysconf(_SC_NPROCESSORS_ONLN));
	list = fopen("/boot-tests", "r");
	if (!list)
		printf("BOOT-TEST: fail init: /boot-tests: %m\n");
	while (list && fgets(line, sizeof(line), list)) {
		int status;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		line[strcspn(line, "\n")] = '\0';
		strcpy(shown, line);
		printf("BOOT-TEST: run %s\n", shown);
		status = run(line);
		if (status >= 0)
			printf("BOOT-TEST: exit %d %s\n", status, shown);
	}
	printf("BOOT-TEST: done\n");
	sync();
	reboot(RB_POWER_OFF);
	/* Should the machine not power off, the host stops it after "done". */
	for (;;)
		pause();
}
