/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The C tests' side of tests/README.md's protocol, TAP version 13 as
 * kselftest prints it.  test_add_case(run, arg) for each case, then
 * test_run_cases(): the plan is the number of cases added, then each
 * case's run(arg) reports one result; a case that reports none fails.  A result is either one report(ok, what) or
 * test_skip(what, why), or a case of many checks: case_begin(what), any
 * number of case_fail(why), case_end(): "ok N what", or "not ok N what #
 * the first failure" with the next few and how many there were as "# "
 * lines before it.  test_start_watchdog() makes a hang or a crash a
 * "not ok" of the case it happened in.  TEST_LABEL, if defined before
 * this header, begins every case's name.  test_failures: for the exit
 * status.
 */
#ifndef TEST_HARNESS_H
#define TEST_HARNESS_H

#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef TEST_LABEL
#define TEST_LABEL ""
#endif
#define TEST_FAILS_SHOWN	5
#define TEST_WATCHDOG_SECONDS	120
#define TEST_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define TEST_STRINGIFY(x)	#x
#define TEST_SECONDS_TEXT(x)	TEST_STRINGIFY(x)

static unsigned int test_failures;
static unsigned int test_results;
static char case_name[160];
static char case_first_failure[300];
static unsigned int case_failures;
/* "not ok N name", ready for the signal handler, which cannot format. */
static char case_crash_line[200];

#define TEST_CASES_MAX		256

struct test_case {
	void (*run)(const void *arg);
	const void *arg;
};
static struct test_case test_cases[TEST_CASES_MAX];
static size_t test_nr_cases;

static inline void test_plan(size_t results)
{
	printf("TAP version 13\n1..%zu\n", results);
	fflush(stdout);
}

static inline void test_vresult(bool ok, const char *directive,
				const char *fmt, va_list ap)
{
	printf("%s %u " TEST_LABEL, ok ? "ok" : "not ok", ++test_results);
	vprintf(fmt, ap);
	if (directive)
		printf(" # %s", directive);
	putchar('\n');
	fflush(stdout);
	test_failures += !ok;
}

static inline void __attribute__((format(printf, 2, 3)))
report(bool ok, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	test_vresult(ok, NULL, fmt, ap);
	va_end(ap);
}

/* test_fail(why, what...): "not ok N what # why". */
static inline void __attribute__((format(printf, 2, 3)))
test_fail(const char *why, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	test_vresult(false, why, fmt, ap);
	va_end(ap);
}

/* test_skip(why, what...): "ok N what # SKIP why". */
static inline void __attribute__((format(printf, 2, 3)))
test_skip(const char *why, const char *fmt, ...)
{
	char directive[400];
	va_list ap;

	snprintf(directive, sizeof(directive), "SKIP %s", why);
	va_start(ap, fmt);
	test_vresult(true, directive, fmt, ap);
	va_end(ap);
}

static inline void test_add_case(void (*run)(const void *arg), const void *arg)
{
	if (test_nr_cases == TEST_CASES_MAX) {
		puts("Bail out! more than " TEST_SECONDS_TEXT(TEST_CASES_MAX) " cases");
		_exit(2);
	}
	test_cases[test_nr_cases++] = (struct test_case){ run, arg };
}

/* The exit status: 1 if a case failed. */
static inline int test_run_cases(void)
{
	test_plan(test_nr_cases);
	for (size_t i = 0; i < test_nr_cases; i++) {
		unsigned int before = test_results;

		test_cases[i].run(test_cases[i].arg);
		if (test_results == before)
			report(false, "case %zu of %zu reported no result", i + 1,
			       test_nr_cases);
	}
	return test_failures != 0;
}

static inline void __attribute__((format(printf, 1, 2)))
case_begin(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(case_name, sizeof(case_name), fmt, ap);
	va_end(ap);
	case_failures = 0;
	snprintf(case_crash_line, sizeof(case_crash_line), "not ok %u " TEST_LABEL "%s",
		 test_results + 1, case_name);
}

static inline void __attribute__((format(printf, 1, 2)))
case_fail(const char *fmt, ...)
{
	va_list ap;

	if (case_failures++ >= TEST_FAILS_SHOWN)
		return;
	va_start(ap, fmt);
	if (case_failures == 1) {
		vsnprintf(case_first_failure, sizeof(case_first_failure), fmt, ap);
	} else {
		fputs("# and: ", stdout);
		vprintf(fmt, ap);
		putchar('\n');
	}
	va_end(ap);
}

static inline void case_end(void)
{
	if (case_failures > TEST_FAILS_SHOWN)
		printf("# %u failures in all\n", case_failures);
	if (!case_failures)
		report(true, "%s", case_name);
	else
		test_fail(case_first_failure, "%s", case_name);
}

static inline void test_on_fatal_signal(int sig)
{
	const char *why = sig == SIGALRM ?
		" # still running after " TEST_SECONDS_TEXT(TEST_WATCHDOG_SECONDS) " s\n" :
		" # crashed\n";

	if (write(STDOUT_FILENO, case_crash_line, strlen(case_crash_line)) < 0 ||
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
