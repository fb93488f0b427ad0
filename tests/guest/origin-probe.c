// SPDX-License-Identifier: GPL-2.0
/*
 * Guest side of tests/launcher-test.sh's $ORIGIN case, built per target:
 * linked with tests/guest/origin-lib.c as lib/libppctime-origin.so, found
 * only through its RUNPATH $ORIGIN/lib, which the dynamic linker takes
 * from AT_EXECFN (or /proc/self/exe): it starts only if that is this
 * program's.  Prints "lib=..." (the library's word), "sysinfo_ehdr=0x..."
 * and "exe=" /proc/self/exe.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <sys/auxv.h>
#include <unistd.h>

const char *origin_lib(void);

int main(void)
{
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	printf("lib=%s\n", origin_lib());
	printf("sysinfo_ehdr=%#lx\n", getauxval(AT_SYSINFO_EHDR));
	printf("exe=%.*s\n", len > 0 ? (int)len : 0, exe);
	return 0;
}
