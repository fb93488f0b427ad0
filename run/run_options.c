// SPDX-License-Identifier: GPL-2.0
/*
 * ppctime-run's command line (run.h): its options, with the usage they
 * are given in, and binfmt_misc's arguments.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <time.h>

#include "run.h"

#define PPCTIME_STRING_(x) #x
#define PPCTIME_STRING(x) PPCTIME_STRING_(x)

static const char usage_text[] =
	"Usage: ppctime-run [OPTIONS] PROGRAM [ARGS...]\n"
	"Run a powerpc Linux PROGRAM under QEMU user mode (qemu-ppc, qemu-ppc64 or\n"
	"qemu-ppc64le, chosen from its ELF header) with a vDSO mapped as the kernel\n"
	"maps it, its data pages kept current by the shared timekeeper\n"
	"(ppctime-timekeeperd: the machine's, else the user's, started when needed)\n"
	"or, with the clock options below, by a timekeeper of its own.\n"
	"\n"
	"  --sysroot=DIR      dynamic programs get their ld.so and libraries from DIR\n"
	"                     (QEMU's -L; default /usr/TRIPLET, the Debian cross libc,\n"
	"                     or $QEMU_LD_PREFIX when set)\n"
	"  --vdso=IMAGE       map IMAGE, a vDSO built for Linux 6.1's data pages or\n"
	"                     the datastore's (6.17 on), as its layout note says, or\n"
	"                     Linux's own by its release (default: ppctime's own\n"
	"                     6.1 image for the program's target)\n"
	"  --page-size=BYTES  the kernel page size IMAGE must have been built for (its\n"
	"                     data pages are 2 or 4 pages below it), a power of two\n"
	"                     from 4096 to 1048576 in decimal; the image is refused if\n"
	"                     its code says otherwise (default: what it says)\n"
	"  --qemu=QEMU        run QEMU, a QEMU user-mode program (static, as QEMU\n"
	"                     10's qemu-user, or dynamic, as QEMU 7.2's), or a\n"
	"                     directory holding the target's (qemu-ppc64le or\n"
	"                     qemu-ppc64le-static...); default: $" QEMU_ENV ", else\n"
	"                     configure's, else qemu-ppc* on the PATH\n"
	"  --no-vdso          run PROGRAM under plain QEMU, without ppctime's vDSO\n"
	"  -0, --argv0=NAME   PROGRAM's argv[0] is NAME (QEMU's -0; QEMU_ARGV0 works too)\n"
	"  --realtime=WHEN    CLOCK_REALTIME starts at WHEN (YYYY, YYYY-MM-DD,\n"
	"                     'YYYY-MM-DD HH:MM:SS' in UTC, or @SECONDS), from 1970\n"
	"                     to 2232 as Linux allows; the other clocks stay true.\n"
	"                     (ppc32 glibc reads dates past 2038 with the system\n"
	"                     call, which gives the host's time.)\n"
	"  --tz=MINUTES[,DST] the timezone gettimeofday reports: minutes west of\n"
	"                     Greenwich, -900 to 900, and the DST flag, any int\n"
	"                     (default: the host's)\n"
	"  --update-hz=N      timekeeper updates per second, at most %2$d (default:\n"
	"                     after the host's ticks, at most %1$d a second)\n"
	"  --timekeeper=MODE  auto (default): mirror the host kernel's timekeeping\n"
	"                     where it can, else steer its own; mirror; or steer\n"
	"  --private-timekeeper\n"
	"                     a timekeeper of its own, not the shared one (the four\n"
	"                     options above imply it)\n"
	"  --host-time-syscalls\n"
	"                     QEMU answers PROGRAM's time system calls with the\n"
	"                     host's clocks, as plain QEMU does, not from the data\n"
	"                     page its vDSO reads (to compare the two)\n"
	"  -v, --verbose      say which timekeeper keeps time and how (stderr)\n"
	"  --binfmt-register  make ppctime-run the kernel's handler (binfmt_misc) of\n"
	"                     powerpc programs, in front of QEMU's own: every program\n"
	"                     run, and every program it runs, gets the vDSO\n"
	"  --static-qemu=DIR  with --binfmt-register: where qemu-ppc*-static are\n"
	"                     (default: beside qemu-ppc*, the Debian package\n"
	"                     qemu-user-static); with them the entries serve in\n"
	"                     foreign chroots too (flags OPF)\n"
	"  --binfmt-unregister\n"
	"                     undo that: QEMU's handlers, if any, serve again\n"
	"  --binfmt-print[=HANDLER]\n"
	"                     print those entries as a binfmt.d(5) file would hold\n"
	"                     them, with HANDLER (default: this ppctime-run's) the\n"
	"                     handler\n"
	"  -h, --help         show this text\n"
	"      --version      show the version\n"
	"\n"
	"PROGRAM's exit status or fatal signal is ppctime-run's.  Otherwise:\n"
	"  125  ppctime-run failed: a bad option, a refused vDSO image, a missing\n"
	"       loader or QEMU, the data pages or the timekeeper not started\n"
	"  126  PROGRAM cannot be run: not a regular file, not executable, not a\n"
	"       powerpc ELF program\n"
	"  127  PROGRAM (or its ELF interpreter) not found, or its ELF interpreter\n"
	"       empty\n"
	"\n"
	"Report bugs to <" PACKAGE_BUGREPORT ">.\n";

enum {
	OPT_SYSROOT = 256, OPT_VDSO, OPT_NO_VDSO, OPT_QEMU, OPT_PAGE_SIZE, OPT_REALTIME,
	OPT_TZ, OPT_UPDATE_HZ, OPT_TIMEKEEPER, OPT_PRIVATE, OPT_HOST_TIME, OPT_VERSION,
	OPT_BINFMT_REGISTER, OPT_BINFMT_UNREGISTER, OPT_BINFMT_PRINT, OPT_STATIC_QEMU,
};

static const char version_text[] =
	"ppctime-run (ppctime) " PACKAGE_VERSION "\n"
	"Copyright (C) 2026 ppctime developers.\n"
	"License GPL-2.0: GNU GPL version 2 <https://gnu.org/licenses/old-licenses/gpl-2.0.html>.\n"
	"This is free software: you are free to change and redistribute it.\n"
	"There is NO WARRANTY, to the extent permitted by law.\n";

/* A bad command line: refused, pointing at --help. */
#define usage_error(e, fmt, ...) refuse(e, fmt "\nTry 'ppctime-run --help'.", ##__VA_ARGS__)

static int parse_when(const char *when, time_t *when_s, struct run_error *e)
{
	static const char *const formats[] = {
		"%Y", "%Y-%m-%d", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S",
	};
	char *end;

	long long secs = -1;
	bool parsed = false, exists = true;

	if (when[0] == '@') {
		errno = 0;
		secs = strtoll(when + 1, &end, 10);
		parsed = end != when + 1 && !*end && !errno;
	}
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]) && !parsed; i++) {
		struct tm tm = { .tm_mday = 1 }, asked;	/* "%Y": January 1st */
		const char *rest = strptime(when, formats[i], &tm);

		if (rest && !*rest) {
			asked = tm;
			/* timegm() normalizes tm as mktime() does: a day that
			 * does not exist, February 30th, comes back another. */
			secs = timegm(&tm);
			exists = tm.tm_year == asked.tm_year && tm.tm_mon == asked.tm_mon &&
				 tm.tm_mday == asked.tm_mday && tm.tm_hour == asked.tm_hour &&
				 tm.tm_min == asked.tm_min && tm.tm_sec == asked.tm_sec;
			parsed = true;
		}
	}
	if (!parsed)
		return usage_error(e, "--realtime takes YYYY, YYYY-MM-DD, 'YYYY-MM-DD HH:MM:SS' "
				   "or @SECONDS");
	if (!exists)
		return usage_error(e, "--realtime=%.64s: no such date or time", when);
	if (secs < 0 || secs >= TIMEKEEPER_REALTIME_MAX_SEC)
		return usage_error(e, "--realtime takes a time from 1970 to @%lld (in 2232), "
				   "what Linux lets a clock be set to",
				   TIMEKEEPER_REALTIME_MAX_SEC - 1);
	*when_s = secs;
	return 0;
}

/* --realtime's WHEN as an offset from the host's CLOCK_REALTIME now. */
static struct timespec realtime_offset(time_t when)
{
	struct timespec now, offset;

	clock_gettime(CLOCK_REALTIME, &now);
	offset.tv_sec = when - now.tv_sec - (now.tv_nsec > 0);
	offset.tv_nsec = now.tv_nsec > 0 ? 1000000000L - now.tv_nsec : 0;
	return offset;
}

/*
 * What settimeofday(2) takes, and the timekeeper: minutes west within 15
 * hours, and any int as the DST flag, which Linux keeps unchecked.
 */
static int parse_tz(const char *arg, struct timezone *tz, struct run_error *e)
{
	char *end;
	long west, dst = 0;

	errno = 0;
	west = strtol(arg, &end, 10);
	if (end != arg && *end == ',') {
		arg = end + 1;
		dst = strtol(arg, &end, 10);
	}
	if (end == arg || *end || errno || west < -TIMEKEEPER_MAX_TZ_MINUTES || west > TIMEKEEPER_MAX_TZ_MINUTES ||
	    dst < INT_MIN || dst > INT_MAX)
		return usage_error(e, "--tz takes MINUTES_WEST[,DST]: minutes from -"
				   PPCTIME_STRING(TIMEKEEPER_MAX_TZ_MINUTES) " to "
				   PPCTIME_STRING(TIMEKEEPER_MAX_TZ_MINUTES)
				   " and a flag that fits an int, as settimeofday(2) does");
	tz->tz_minuteswest = west;
	tz->tz_dsttime = dst;
	return 0;
}

/* arg in decimal digits alone (no sign, blank or base prefix) into *value. */
static bool parse_decimal(const char *arg, unsigned long *value)
{
	char *end;

	errno = 0;
	*value = strtoul(arg, &end, 10);
	return *arg >= '0' && *arg <= '9' && !*end && !errno;
}

static int parse_update_hz(const char *arg, unsigned *update_hz, struct run_error *e)
{
	unsigned long hz;

	if (!parse_decimal(arg, &hz) || hz < 1 || hz > TIMEKEEPER_MAX_HZ)
		return usage_error(e, "--update-hz takes a rate from 1 to "
				   PPCTIME_STRING(TIMEKEEPER_MAX_HZ));
	*update_hz = hz;
	return 0;
}

static int parse_page_size(const char *arg, unsigned long *page_size, struct run_error *e)
{
	unsigned long size;

	if (!parse_decimal(arg, &size) || size < 4096 || size > (1ul << 20) ||
	    (size & (size - 1)))
		return usage_error(e, "--page-size takes 4096, 8192, 16384, 32768, 65536, "
				   "131072, 262144, 524288 or 1048576 (bytes, in decimal)");
	*page_size = size;
	return 0;
}

/* One option of parse_arguments() into req, or -1. */
static int parse_option(int opt, const char *arg, struct request *req, bool *clock_options,
			struct run_error *e)
{
	time_t when = 0;
	int r = 0;

	switch (opt) {
	case OPT_SYSROOT: req->sysroot = arg; break;
	case OPT_VDSO: req->image_path = arg; break;
	case OPT_NO_VDSO: req->use_vdso = false; break;
	case OPT_QEMU: req->qemu = arg; break;
	case OPT_PAGE_SIZE: r = parse_page_size(arg, &req->page_size, e); break;
	case OPT_REALTIME:
		r = parse_when(arg, &when, e);
		if (!r)
			req->tk_options.realtime_offset = realtime_offset(when);
		*clock_options = true;
		break;
	case OPT_TZ:
		r = parse_tz(arg, &req->tz, e);
		req->tk_options.tz = &req->tz;
		*clock_options = true;
		break;
	case OPT_UPDATE_HZ:
		r = parse_update_hz(arg, &req->tk_options.update_hz, e);
		*clock_options = true;
		break;
	case OPT_TIMEKEEPER:
		if (timekeeper_mode_from_name(arg, &req->tk_options.mode))
			r = usage_error(e, "--timekeeper takes auto, mirror or steer");
		*clock_options = true;
		break;
	case OPT_PRIVATE: req->private_keeper = true; break;
	case OPT_HOST_TIME: req->host_time_syscalls = true; break;
	case OPT_BINFMT_REGISTER: req->binfmt_action = BINFMT_REGISTER; break;
	case OPT_BINFMT_UNREGISTER: req->binfmt_action = BINFMT_UNREGISTER; break;
	case OPT_BINFMT_PRINT:
		req->binfmt_action = BINFMT_PRINT;
		req->binfmt_handler = arg;
		break;
	case OPT_STATIC_QEMU: req->static_qemu_dir = arg; break;
	case '0': req->argv0 = arg; break;
	case 'v': req->verbose = true; break;
	default: r = usage_error(e, "bad option");
	}
	return r;
}

/* ppctime-run [OPTIONS] PROGRAM [ARGS...]. */
int parse_arguments(int argc, char **argv, struct request *req, struct run_error *e)
{
	static const struct option options[] = {
		{ "sysroot", required_argument, NULL, OPT_SYSROOT },
		{ "vdso", required_argument, NULL, OPT_VDSO },
		{ "no-vdso", no_argument, NULL, OPT_NO_VDSO },
		{ "qemu", required_argument, NULL, OPT_QEMU },
		{ "page-size", required_argument, NULL, OPT_PAGE_SIZE },
		{ "realtime", required_argument, NULL, OPT_REALTIME },
		{ "tz", required_argument, NULL, OPT_TZ },
		{ "update-hz", required_argument, NULL, OPT_UPDATE_HZ },
		{ "timekeeper", required_argument, NULL, OPT_TIMEKEEPER },
		{ "private-timekeeper", no_argument, NULL, OPT_PRIVATE },
		{ "host-time-syscalls", no_argument, NULL, OPT_HOST_TIME },
		{ "binfmt-register", no_argument, NULL, OPT_BINFMT_REGISTER },
		{ "binfmt-unregister", no_argument, NULL, OPT_BINFMT_UNREGISTER },
		{ "binfmt-print", optional_argument, NULL, OPT_BINFMT_PRINT },
		{ "static-qemu", required_argument, NULL, OPT_STATIC_QEMU },
		{ "argv0", required_argument, NULL, '0' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	bool clock_options = false;
	int opt;

	*req = (struct request){ .use_vdso = true, .program_fd = -1, .qemu = getenv(QEMU_ENV) };
	/* '+': the first non-option is PROGRAM; what follows is its. */
	while ((opt = getopt_long(argc, argv, "+0:hv", options, NULL)) != -1) {
		if (opt == 'h') {
			printf(usage_text, TIMEKEEPER_AUTO_MAX_HZ, TIMEKEEPER_MAX_HZ);
			return 1;
		}
		if (opt == OPT_VERSION) {
			fputs(version_text, stdout);
			return 1;
		}
		if (parse_option(opt, optarg, req, &clock_options, e))
			return -1;
	}
	/* The shared page is the host's clocks as they are. */
	req->private_keeper |= clock_options;
	if (!req->use_vdso && (req->image_path || req->page_size || clock_options ||
			       req->host_time_syscalls))
		return usage_error(e, "--no-vdso runs plain QEMU: --vdso, --page-size, "
				   "--host-time-syscalls and the timekeeper's options need the "
				   "vDSO");
	if (req->binfmt_action && optind != argc)
		return usage_error(e, "--binfmt-register, --binfmt-unregister and --binfmt-print "
				   "take no PROGRAM");
	if (req->static_qemu_dir && req->binfmt_action != BINFMT_REGISTER)
		return usage_error(e, "--static-qemu goes with --binfmt-register");
	if (req->binfmt_action)
		return 0;
	if (optind == argc)
		return usage_error(e, "no PROGRAM to run");
	req->program_argv = argv + optind;
	req->program_argc = argc - optind;
	return 0;
}

/*
 * Run by binfmt_misc with flags BINFMT_FLAGS: HANDLER PATH ARGV0 ARGS...,
 * PATH open as AT_EXECFD.  As "ppctime-run --argv0=ARGV0 PATH ARGS...".
 */
int parse_binfmt_arguments(int argc, char **argv, struct request *req, struct run_error *e)
{
	unsigned long fd = getauxval(AT_EXECFD);

	if (argc < 3 || !fd)
		return refuse(e, BINFMT_HANDLER " is ppctime-run as binfmt_misc runs it, with "
			      "flags " BINFMT_FLAGS " (ppctime-run --binfmt-register)");
	*req = (struct request){ .use_vdso = true, .binfmt = true, .program_fd = fd,
				 .argv0 = argv[2], .qemu = getenv(QEMU_ENV) };
	/* PATH ARGS...: QEMU's, as ever. */
	argv[2] = argv[1];
	req->program_argv = argv + 2;
	req->program_argc = argc - 2;
	return 0;
}

