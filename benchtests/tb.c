// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Anton Blanchard's tb.c, as the list ran it: CALLS gettimeofday() calls
 * (default 10 million) timed by gettimeofday() itself, printed as
 *
 *   time = S.UUUUUU
 *
 *   tb [CALLS]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

int main(int argc, char **argv)
{
	struct timeval tv_start, tv_end;
	long calls = 10000000;

	if (argc > 2) {
		fprintf(stderr, "usage: %s [CALLS]\n", argv[0]);
		return 2;
	}
	if (argc == 2) {
		char *end;

		errno = 0;
		calls = strtol(argv[1], &end, 10);
		if (errno || end == argv[1] || *end || calls < 1) {
			fprintf(stderr, "%s: CALLS must be a positive integer, not '%s'\n",
				argv[0], argv[1]);
			return 2;
		}
	}

	gettimeofday(&tv_start, NULL);
	for (long i = 0; i < calls; i++)
		gettimeofday(&tv_end, NULL);

	printf("time = %.6f\n", tv_end.tv_sec - tv_start.tv_sec +
	       (tv_end.tv_usec - tv_start.tv_usec) * 1e-6);
	return 0;
}
