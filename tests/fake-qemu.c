// SPDX-License-Identifier: GPL-2.0
/*
 * A stand-in for a static QEMU that is not a PIE, which ppctime-run maps
 * where it was linked (tests/launch-fidelity-test.sh): says where it runs,
 * what it was handed (the loader, a vDSO) and the year its
 * clock_gettime(), through that vDSO, reads.
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/auxv.h>
#include <time.h>

int main(int argc, char **argv)
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	printf("main=%#lx execfd=%lu vdso=%d year=%d argc=%d program=%s\n",
	       (unsigned long)(uintptr_t)main, getauxval(AT_EXECFD),
	       getauxval(AT_SYSINFO_EHDR) != 0, tm.tm_year + 1900, argc, argv[argc - 1]);
	return 0;
}
