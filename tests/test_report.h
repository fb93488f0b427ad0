/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One line per case, as tests/README.md has it: "PASS: what" or
 * "FAIL: what", counted for the program's exit status.
 */
#ifndef TEST_REPORT_H
#define TEST_REPORT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static int failures;

static void __attribute__((format(printf, 2, 3)))
report(bool ok, const char *fmt, ...)
{
	va_list ap;

	fputs(ok ? "PASS: " : "FAIL: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	failures += !ok;
}

#endif /* TEST_REPORT_H */
