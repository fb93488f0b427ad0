// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The guest of ppctime-bench's timekeeper measurer: reads CLOCK_MONOTONIC,
 * sleeps SECONDS (0: none, a start-up probe), reads it again, and says
 * whether the clock moved as much.  Whatever the keeper costs while it sleeps is
 * the keeper's alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 0;
	struct timespec a, b, nap = { (time_t)seconds,
				      (long)((seconds - (time_t)seconds) * 1e9) };
	double took;

	clock_gettime(CLOCK_MONOTONIC, &a);
	if (seconds > 0)
		nanosleep(&nap, NULL);
	clock_gettime(CLOCK_MONOTONIC, &b);
	took = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
	if (took < seconds) {
		printf("clock moved %.6f s in a %.6f s sleep\n", took, seconds);
		return 1;
	}
	return 0;
}
