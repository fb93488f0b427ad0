/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The C tests' side of tests/README.md's protocol.  test_plan(n) first:
 * how many results follow.  Then each result is either one report(ok, what)
 * or a case: case_begin(what), any number of case_fail(why), case_end():
 * one PASS line, or one FAIL line with the first failure and, indented
 * below it for the log, the next few and how many there were.
 * test_start_watchdog() makes a hang or a crash a FAIL of the case it
 * happened in.  TEST_LABEL, if defined before this header, begins every
 * case's name (with its own ": ").  test_failures: for the exit status.
 */
#ifndef TEST_HARNESS_H
#define TEST_HARNESS_H

#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef TEST_LABEL
#define TEST_LABEL ""
#endif
#define TEST_FAILS_SHOWN	5
#define TEST_WATCHDOG_SECONDS	120
#define TEST_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static unsigned int test_failures;
static char case_name[160];
static unsigned int case_failures;

static inline void test_plan(unsigned int results)
{
	printf("PLAN: %u\n", results);
	fflush(stdout);
}

static inline void __attribute__((format(printf, 2, 3)))
report(bool ok, const char *fmt, ...)
{
	va_list ap;

	fputs(ok ? "PASS: " TEST_LABEL : "FAIL: " TEST_LABEL, stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	test_failures += !ok;
}

static inline void __attribute__((format(printf, 1, 2)))
case_begin(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(case_name, sizeof(case_name), fmt, ap);
	va_end(ap);
	case_failures = 0;
}

static inline void __attribute__((format(printf, 1, 2)))
case_fail(const char *fmt, ...)
{
	va_list ap;

	test_failures++;
	if (case_failures++ >= TEST_FAILS_SHOWN)
		return;
	if (case_failures == 1)
		printf("FAIL: " TEST_LABEL "%s: ", case_name);
	else
		fputs("    and: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static inline void case_end(void)
{
	if (!case_failures)
		printf("PASS: " TEST_LABEL "%s\n", case_name);
	else if (case_failures > TEST_FAILS_SHOWN)
		printf("    %u failures in all\n", case_failures);
	fflush(stdout);
}

#define TEST_STRINGIFY(x)	#x
#define TEST_SECONDS_TEXT(x)	TEST_STRINGIFY(x)

static inline void test_on_fatal_signal(int sig)
{
	static const char head[] = "FAIL: " TEST_LABEL;
	const char *why = sig == SIGALRM ?
		": still running after " TEST_SECONDS_TEXT(TEST_WATCHDOG_SECONDS) " s\n" :
		": crashed\n";

	if (write(STDOUT_FILENO, head, sizeof(head) - 1) < 0 ||
	    write(STDOUT_FILENO, case_name, strlen(case_name)) < 0 ||
	    write(STDOUT_FILENO, why, strlen(why)) < 0)
		_exit(2);
	_exit(1);
}

static inline void test_start_watchdog(void)
{
	static const int fatal[] = { SIGALRM, SIGSEGV, SIGBUS, SIGFPE, SIGILL };

	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		signal(fatal[i], test_on_fatal_signal);
	alarm(TEST_WATCHDOG_SECONDS);
}

#endif /* TEST_HARNESS_H */
