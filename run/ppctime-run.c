// SPDX-License-Identifier: GPL-2.0
/*
 * ppctime-run: run a powerpc program under QEMU user mode with a vDSO, as
 * a Linux kernel would give it one at exec.
 *
 * The host side of the work: pick the QEMU for PROGRAM's ELF header, check
 * the vDSO image, take the data pages from the shared timekeeper
 * (ppctime-timekeeperd, timekeeperd_client.h), or where there is none or
 * a clock option asks for a timekeeper of its own, create them as a memfd
 * and start the timekeeper in a child process (named ppctime-tk) that
 * keeps them current, and start QEMU as for PROGRAM itself but loading
 * the guest loader (ppctime-loader-TARGET) in its place
 * (launch_protocol.h), which maps the pages and the image in the guest and
 * enters PROGRAM.  This process becomes QEMU, as under plain QEMU: one
 * process, its pid, signals, status and core dump the program's.  The
 * daemon watches it.  With a timekeeper of its own (or a daemon that
 * cannot watch it), a detached watchdog starts the keeper, kills it if it
 * stalls, and once this process has ended; however the keeper dies, it
 * leaves the page in VDSO_CLOCKMODE_NONE (the kernel writes it,
 * timekeeper_clear_mode_at_exit()), so readers, those that outlive the
 * program too, use the system call.  Only the keeper maps the data pages
 * writable, and neither it nor the watchdog can be read or written
 * through /proc/PID/mem by others (not dumpable).
 *
 * Linked statically and made into a bundle with Debian's static QEMU
 * (bundle.h), it is the handler binfmt_misc runs in a foreign chroot:
 * QEMU, loader and image are then the bundle's, and QEMU is entered where
 * the kernel mapped it (userland_exec.h) instead of exec'd.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vdso/datapage.h"
#include "binfmt.h"
#include "bundle.h"
#include "elf_program.h"
#include "keeper_watch.h"
#include "launch_protocol.h"
#include "targets.h"
#include "timekeeper.h"
#include "timekeeperd_client.h"
#include "userland_exec.h"
#include "vdso_image.h"

#define PPCTIME_STRING_(x) #x
#define PPCTIME_STRING(x) PPCTIME_STRING_(x)

struct target {
	const char *name;
	int elf_class;
	bool big_endian;
	uint16_t machine;
	const char *qemu;		/* configure's path; the PATH is searched too */
	const char *triplet;
	const char *image;		/* default vDSO, in vdso-kernel/ or pkglibdir */
	const char *loader;		/* in launcher/ or pkglibdir */
	struct timekeeper_target tk_target;
};

#define TARGET(n, tr, cls, be, img, so, ld, pg, qm) \
	{ n, cls, be, PPCTIME_MACHINE(cls), qm, tr, img, \
	  ld, { .is64 = (cls) == 64, .big_endian = be } },
static const struct target targets[] = { PPCTIME_TARGETS(TARGET) };
#undef TARGET

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
	"  --vdso=IMAGE       map IMAGE, any vDSO built for the Linux 6.1 data page\n"
	"                     ABI (default: ppctime's own for the program's target)\n"
	"  --page-size=BYTES  the kernel page size IMAGE must have been built for (its\n"
	"                     data page is 2 pages below it), a power of two from 4096\n"
	"                     to 1048576 in decimal; the image is refused if its code\n"
	"                     says otherwise (default: what it says)\n"
	"  --no-vdso          run PROGRAM under plain QEMU, with no vDSO\n"
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

static const char version_text[] =
	"ppctime-run (ppctime) " PACKAGE_VERSION "\n"
	"Copyright (C) 2026 ppctime developers.\n"
	"License GPL-2.0: GNU GPL version 2 <https://gnu.org/licenses/old-licenses/gpl-2.0.html>.\n"
	"This is free software: you are free to change and redistribute it.\n"
	"There is NO WARRANTY, to the extent permitted by law.\n";

static void __attribute__((noreturn, format(printf, 2, 3)))
refuse_with(int status, const char *fmt, ...)
{
	va_list ap;

	fputs("ppctime-run: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}
/* Most refusals are ppctime-run's own failures; PROGRAM's say which. */
#define refuse(...) refuse_with(LAUNCH_EXIT_ERROR, __VA_ARGS__)
#define refuse_program(...) refuse_with(LAUNCH_EXIT_CANNOT_EXECUTE, __VA_ARGS__)

static void __attribute__((noreturn)) usage_error(const char *what)
{
	fprintf(stderr, "ppctime-run: %s\nTry 'ppctime-run --help'.\n", what);
	exit(LAUNCH_EXIT_ERROR);
}

/* strerror(errno), in plain words where a descriptor could not be had. */
static const char *fd_error(void)
{
	return errno == EMFILE || errno == ENFILE ? "too few free file descriptors" :
	       strerror(errno);
}

/* RLIMIT_NOFILE as the caller set it, QEMU's (enter_qemu()).  Ours is the
 * hard limit (main()): a caller who leaves as few descriptors free as plain
 * QEMU needs must not see a launch fail for want of ours. */
static struct rlimit qemu_nofile;

/* What ppctime-run needs to know about PROGRAM before starting it. */
struct program_info {
	const struct target *target;
	bool dynamic;			/* has PT_INTERP */
	int fd;				/* open, close-on-exec */
};

/*
 * Opens path, a file the user named, to read it: the descriptor, or -1
 * with open's errno.  Anything but a regular file is refused with status
 * before it is waited for (a FIFO), read (a device) or made our terminal.
 */
static int open_regular(const char *path, int status)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0)
		refuse_with(status, "cannot stat %s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		refuse_with(status, "%s: not a regular file", path);
	/* Its readers, QEMU's loader among them, see an ordinary file. */
	if (fcntl(fd, F_SETFL, 0) < 0)
		refuse_with(status, "fcntl: %s", strerror(errno));
	return fd;
}

/* What the kernel's exec asks of a regular file, which QEMU does not ask
 * as a user. */
static void check_executable(int fd, const char *path)
{
	char self[64];

	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	if (faccessat(AT_FDCWD, self, X_OK, AT_EACCESS) < 0)
		refuse_program("%s: %s", path, strerror(errno));
}

/* PROGRAM at path, or open as fd (binfmt_misc's O flag: maybe unreadable). */
static void read_program_header(const char *path, int fd, struct program_info *info)
{
	unsigned char eh[ELF_HEADER_MAX];
	struct elf_file elf;
	char bad[128];
	char *interp;

	/* The kernel's (AT_EXECFD) passed exec's checks already. */
	if (fd >= 0) {
		if (fcntl(fd, F_SETFD, FD_CLOEXEC) < 0)
			refuse("fcntl: %s", strerror(errno));
	} else {
		fd = open_regular(path, LAUNCH_EXIT_CANNOT_EXECUTE);
		/* As env: only a missing file is "not found". */
		if (fd < 0)
			refuse_with(errno == ENOENT ? LAUNCH_EXIT_NOT_FOUND :
				    LAUNCH_EXIT_CANNOT_EXECUTE, "cannot open %s: %s", path,
				    strerror(errno));
		check_executable(fd, path);
	}
	if (elf_program_read_header(&elf, eh, elf_read_fd, &fd, NULL, 0) < 0)
		refuse_program("%s: not an ELF program", path);
	info->target = NULL;
	for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++)
		if (targets[i].elf_class == elf.elf_class &&
		    targets[i].big_endian == elf.big_endian && targets[i].machine == elf.machine)
			info->target = &targets[i];
	if (!info->target)
		refuse_program("%s: not a powerpc program (ELF class %u, byte order %u, machine %u):"
		       " ppctime runs ppc32, ppc64 and ppc64le ones", path,
		       eh[EI_CLASS], eh[EI_DATA], elf.machine);

	if (elf_program_interpreter(&elf, elf_read_fd, &fd, &interp, bad, sizeof(bad)) < 0)
		refuse_program("%s: %s", path, bad);
	/* The kernel's exec cannot open it either: ENOENT. */
	if (interp && !interp[0])
		refuse_with(LAUNCH_EXIT_NOT_FOUND, "%s has an empty ELF interpreter (PT_INTERP)",
			    path);
	info->dynamic = interp != NULL;
	free(interp);
	info->fd = fd;
}

/*
 * A file ppctime-run needs at run time, NAME in DIR, a directory relative
 * to this program's own: launcher/Rules.mk builds the launcher twice, the
 * build tree's finding the build tree's files, the installed one the
 * installed files wherever the installed tree was moved.
 */
static char *support_file(const char *dir, const char *name, bool required)
{
	static char own_dir[PATH_MAX];
	char *path, *tidy;

	if (!own_dir[0]) {
		ssize_t len = readlink("/proc/self/exe", own_dir, sizeof(own_dir) - 1);

		if (len <= 0)
			refuse("cannot find this program's directory: /proc/self/exe: %s",
			       len < 0 ? strerror(errno) : "empty");
		own_dir[len] = '\0';
		*strrchr(own_dir, '/') = '\0';
	}
	if (asprintf(&path, "%s/%s/%s", own_dir, dir, name) < 0)
		refuse("out of memory");
	if (access(path, R_OK) < 0) {
		if (!required) {
			free(path);
			return NULL;
		}
		refuse("%s: %s: was the target enabled at configure time, and the tree "
		       "built (or installed)?", path, strerror(errno));
	}
	tidy = realpath(path, NULL);
	if (tidy) {
		free(path);
		path = tidy;
	}
	return path;
}

static char *find_support_file(const char *dir, const char *name)
{
	return support_file(dir, name, true);
}

static const char *find_qemu(const struct target *t)
{
	const char *slash = strrchr(t->qemu, '/'), *name = slash ? slash + 1 : t->qemu;
	const char *dirs = getenv("PATH");
	static char path[PATH_MAX];

	if (slash && access(t->qemu, X_OK) == 0)
		return t->qemu;
	while (dirs && *dirs) {
		size_t len = strcspn(dirs, ":");

		if (len && snprintf(path, sizeof(path), "%.*s/%s", (int)len, dirs, name) <
			   (int)sizeof(path) && access(path, X_OK) == 0)
			return path;
		dirs += len + (dirs[len] == ':');
	}
	refuse("%s not found: install the Debian package qemu-user", name);
}

/* The ELF interpreter of the host program at PATH (malloc'd), or NULL. */
static char *host_interpreter(const char *path)
{
	unsigned char eh[ELF_HEADER_MAX];
	struct elf_file elf;
	char *interp = NULL;
	int fd = open_regular(path, LAUNCH_EXIT_ERROR);

	/* Not the file's fault: QEMU would be refused as static. */
	if (fd < 0 && (errno == EMFILE || errno == ENFILE))
		refuse("cannot read %s: %s", path, fd_error());
	if (fd < 0)
		return NULL;
	if (elf_program_read_header(&elf, eh, elf_read_fd, &fd, NULL, 0) == 0)
		elf_program_interpreter(&elf, elf_read_fd, &fd, &interp, NULL, 0);
	close(fd);
	return interp;
}

/*
 * The dynamic linker that runs QEMU with the preload (launch_protocol.h):
 * the preload is built for this program's C library, so QEMU must be
 * linked with this program's dynamic linker, as Debian's qemu-user is.
 */
static char *qemu_dynamic_linker(const char *qemu)
{
	char *ours = host_interpreter("/proc/self/exe"), *its = host_interpreter(qemu);
	struct stat a, b;

	if (!its)
		refuse("%s is statically linked (or unreadable): ppctime-run needs a "
		       "dynamically linked QEMU (the Debian package qemu-user) to preload "
		       "into it; --no-vdso runs this one", qemu);
	if (!ours || stat(ours, &a) < 0 || stat(its, &b) < 0 || a.st_dev != b.st_dev ||
	    a.st_ino != b.st_ino)
		refuse("%s uses the dynamic linker %s, not ppctime-run's %s: it cannot load "
		       "ppctime's preload (the Debian package qemu-user does); --no-vdso runs "
		       "this one", qemu, its, ours ? ours : "(none)");
	free(its);
	return ours;
}

/* fd (what, just opened), moved for QEMU to inherit (no close-on-exec) to
 * the caller's soft limit or above, where the hard limit leaves room, so the
 * program has free every descriptor it would have under plain QEMU; else
 * above stdio (never 0, to QEMU's AT_EXECFD none, even with stdin closed). */
static int for_qemu(int fd, const char *what)
{
	rlim_t limit = qemu_nofile.rlim_cur;
	int moved = -1;

	if (fd >= 0 && limit > STDERR_FILENO && limit < qemu_nofile.rlim_max)
		moved = fcntl(fd, F_DUPFD, (int)limit);
	if (fd >= 0 && moved < 0)
		moved = fcntl(fd, F_DUPFD, STDERR_FILENO + 1);
	if (moved < 0)
		refuse("cannot open %s: %s", what, fd_error());
	close(fd);
	return moved;
}

/* The memfd, found by its name, the preload takes LOADER_FD and the loader's
 * arguments from (launch_protocol.h): none of them is in QEMU's environment. */
static void launch_memfd(int loader_fd, const char *target, bool host_time,
			 const char *launch)
{
	int fd = memfd_create(LAUNCH_MEMFD, 0);

	if (fd < 0 || dprintf(fd, "%d %s %s %s", loader_fd, target,
			      host_time ? LAUNCH_TIME_HOST : LAUNCH_TIME_PAGE, launch) < 0)
		refuse("cannot write the launch memfd: %s", fd_error());
	for_qemu(fd, "the launch memfd");
}

/* A sealed memfd holding len bytes, for QEMU: the guest maps exactly the
 * bytes that were checked, whatever happens to their file meanwhile. */
static int sealed_memfd(const char *name, const void *bytes, size_t len)
{
	int fd = memfd_create(name, MFD_ALLOW_SEALING);

	if (fd < 0 || write(fd, bytes, len) != (ssize_t)len ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) < 0)
		refuse("cannot copy %s into a memfd: %s", name, fd_error());
	return for_qemu(fd, name);
}

/*
 * Loads the image at path into img if a t program can run with it, with
 * data pages of page_size bytes (0: the size it was built for, returned).
 */
static unsigned long check_image(const char *path, const struct target *t,
				 unsigned long page_size, struct vdso_image *img)
{
	unsigned char ident[EI_NIDENT];
	char err[512];
	uint64_t entry, built_for;
	int fd;

	if (vdso_image_load(img, path, err, sizeof(err)) < 0) {
		/* Say so if class or byte order is wrong: every later field
		 * is then misread, and err would be about one of those. */
		fd = open_regular(path, LAUNCH_EXIT_ERROR);
		if (fd >= 0 && pread(fd, ident, sizeof(ident), 0) == sizeof(ident) &&
		    !memcmp(ident, ELFMAG, SELFMAG)) {
			if (ident[EI_CLASS] != (t->elf_class == 64 ? ELFCLASS64 : ELFCLASS32))
				refuse("refusing vDSO image %s: wrong ELF class (EI_CLASS %u): "
				       "the %s program needs a %d-bit image", path,
				       ident[EI_CLASS], t->name, t->elf_class);
			if (ident[EI_DATA] != (t->big_endian ? ELFDATA2MSB : ELFDATA2LSB))
				refuse("refusing vDSO image %s: wrong byte order (EI_DATA %u): "
				       "the %s program needs a %s-endian image", path,
				       ident[EI_DATA], t->name,
				       t->big_endian ? "big" : "little");
		}
		refuse("refusing vDSO image %s: %s", path, err);
	}
	if (vdso_image_match(img, t->elf_class, t->big_endian, t->machine, err, sizeof(err)) < 0)
		refuse("refusing vDSO image %s: %s (the program is %s)", path, err, t->name);
	if (vdso_image_lookup(img, "__kernel_clock_gettime", VDSO_VERSION, &entry,
			      err, sizeof(err)) < 0)
		refuse("refusing vDSO image %s: no __kernel_clock_gettime@%s: %s",
		       path, VDSO_VERSION, err);
	if (vdso_image_check_guest(img, err, sizeof(err)) < 0 ||
	    vdso_image_page_size(img, &built_for, err, sizeof(err)) < 0)
		refuse("refusing vDSO image %s: %s", path, err);
	if (page_size && page_size != built_for)
		refuse("refusing vDSO image %s: it finds its data page with %" PRIu64
		       "-byte pages, not the --page-size=%lu asked for", path,
		       built_for, page_size);
	return built_for;
}

/*
 * The data pages: shared with the timekeeper (read-write here) and the
 * guest.  F_SEAL_FUTURE_WRITE keeps our mapping writable but makes every
 * later one, the guest's included, read-only for good.
 */
static void *create_data_pages(unsigned long page_size, int *fd_out)
{
	size_t len = VDSO_NR_PAGES * page_size;
	int fd = memfd_create("ppctime-vdso-data", MFD_ALLOW_SEALING);
	void *pages;

	if (fd < 0 || ftruncate(fd, len) < 0)
		refuse("cannot create the vDSO data pages: %s", fd_error());
	pages = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pages == MAP_FAILED)
		refuse("cannot map the vDSO data pages: %s", strerror(errno));
	if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_FUTURE_WRITE |
		  F_SEAL_SEAL) < 0)
		refuse("cannot seal the vDSO data pages: %s", strerror(errno));
	*fd_out = fd;
	return pages;
}

static time_t parse_when(const char *when)
{
	static const char *const formats[] = {
		"%Y", "%Y-%m-%d", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S",
	};
	char *end, why[128];

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
		usage_error("--realtime takes YYYY, YYYY-MM-DD, 'YYYY-MM-DD HH:MM:SS' "
			    "or @SECONDS");
	if (!exists) {
		snprintf(why, sizeof(why), "--realtime=%.64s: no such date or time", when);
		usage_error(why);
	}
	if (secs < 0 || secs >= TIMEKEEPER_REALTIME_MAX_SEC) {
		snprintf(why, sizeof(why), "--realtime takes a time from 1970 to @%lld "
			 "(in 2232), what Linux lets a clock be set to",
			 TIMEKEEPER_REALTIME_MAX_SEC - 1);
		usage_error(why);
	}
	return secs;
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
static void parse_tz(const char *arg, struct timezone *tz)
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
		usage_error("--tz takes MINUTES_WEST[,DST]: minutes from -"
			    PPCTIME_STRING(TIMEKEEPER_MAX_TZ_MINUTES) " to " PPCTIME_STRING(TIMEKEEPER_MAX_TZ_MINUTES)
			    " and a flag that fits an int, as settimeofday(2) does");
	tz->tz_minuteswest = west;
	tz->tz_dsttime = dst;
}

/* arg in decimal digits alone (no sign, blank or base prefix) into *value. */
static bool parse_decimal(const char *arg, unsigned long *value)
{
	char *end;

	errno = 0;
	*value = strtoul(arg, &end, 10);
	return *arg >= '0' && *arg <= '9' && !*end && !errno;
}

static unsigned parse_update_hz(const char *arg)
{
	unsigned long hz;

	if (!parse_decimal(arg, &hz) || hz < 1 || hz > TIMEKEEPER_MAX_HZ)
		usage_error("--update-hz takes a rate from 1 to "
			    PPCTIME_STRING(TIMEKEEPER_MAX_HZ));
	return hz;
}

static enum timekeeper_mode parse_timekeeper_mode(const char *arg)
{
	enum timekeeper_mode mode;

	if (timekeeper_mode_from_name(arg, &mode) == 0)
		return mode;
	usage_error("--timekeeper takes auto, mirror or steer");
}

static unsigned long parse_page_size(const char *arg)
{
	unsigned long size;

	if (!parse_decimal(arg, &size) || size < 4096 || size > (1ul << 20) ||
	    (size & (size - 1)))
		usage_error("--page-size takes 4096, 8192, 16384, 32768, 65536, 131072, "
			    "262144, 524288 or 1048576 (bytes, in decimal)");
	return size;
}

/*
 * In the watchdog, its child the keeper, gone with it if it is killed.
 * Returns once its death would clear the page: a program started before
 * could outlive a keeper killed early and read stale data.
 */
static pid_t start_timekeeper(struct timekeeper *tk)
{
	pid_t watchdog = getpid(), pid;
	int ready[2];
	char byte;

	if (pipe2(ready, O_CLOEXEC) < 0 || (pid = fork()) < 0)
		refuse("cannot start the timekeeper: %s", fd_error());
	if (pid) {
		close(ready[1]);
		/* It said why; the launch says it did not start. */
		if (read(ready[0], &byte, 1) != 1)
			_exit(LAUNCH_EXIT_ERROR);
		close(ready[0]);
		return pid;
	}
	prctl(PR_SET_NAME, "ppctime-tk");
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != watchdog)
		_exit(0);
	if (timekeeper_clear_mode_at_exit(tk) == 0 && write(ready[1], "", 1) == 1) {
		close_range(3, ~0u, 0);
		timekeeper_run(tk);
	}
	fprintf(stderr, "ppctime-run: timekeeper: %s\n", strerror(errno));
	_exit(1);
}

/*
 * How QEMU is started on the loader: through the host's dynamic linker
 * with the preload (launch_protocol.h), or, in the chroot handler, where
 * the kernel mapped it with the bundle (bundle.h, userland_exec.h).
 */
struct qemu_launch {
	char **argv;			/* ld.so --preload PRELOAD QEMU ..., or QEMU ... */
	const unsigned char *bundled;	/* the bundle's QEMU, or NULL: execv() */
	const char *program;		/* PROGRAM's path (AT_EXECFN) */
	const char *image_name, *loader_name;	/* for -v (binfmt_misc's launches: none) */
	int loader_fd, image_fd;
	unsigned long page_size;
	char *launch;			/* LAUNCH_ENV's value */
};

/* Start QEMU as q says, in this process; returns only if that failed. */
static void enter_qemu(const struct qemu_launch *q)
{
	setrlimit(RLIMIT_NOFILE, &qemu_nofile);
	if (!q->bundled) {
		execv(q->argv[0], q->argv);
		return;
	}
	/* What the preload does for a dynamic QEMU. */
	if (setenv(LAUNCH_ENV, q->launch, 1) == 0)
		userland_exec(q->bundled, q->argv, environ, q->loader_fd, q->program);
}

static int pidfd_of(pid_t pid)
{
	int fd = syscall(SYS_pidfd_open, pid, 0);

	if (fd < 0)
		refuse("pidfd_open: %s (Linux 5.3 or later needed)", strerror(errno));
	return fd;
}

/* What a launch's watchdog watches (run_watchdog()). */
struct watch {
	int launch_fd;			/* the launch's pidfd, QEMU's once it runs */
	pid_t keeper;			/* the launch's own; 0: none, or gone */
	int keeper_fd;
	int daemon_fd;			/* the shared keeper's socket, or -1 */
	int sigchld_fd;			/* the keeper's stops, or -1 */
	struct timekeeper *tk;		/* shared with the keeper, or NULL */
	void *pages;			/* the keeper's to write */
	size_t pages_len;
	unsigned update_hz;
	struct keeper_watch stall;
};

/* Its death left the page in mode NONE: say so. */
static void keeper_gone(struct watch *w, const char *why)
{
	fprintf(stderr, "ppctime-run: %s: clocks now served by the system call\n", why);
	close(w->keeper_fd);
	w->keeper_fd = -1;
	w->keeper = 0;
}

static void check_keeper(struct watch *w)
{
	/* Its update count, not the page's seq: in mirror mode an update
	 * that finds the host's clocks unchanged publishes nothing. */
	uint64_t updates = __atomic_load_n(&w->tk->updates, __ATOMIC_RELAXED);
	char why[128];

	if (keeper_watch_look(&w->stall, updates, why, sizeof(why)))
		keeper_gone(w, why);
}

static void reap_keeper(struct watch *w)
{
	int status;
	char why[128];

	if (waitpid(w->keeper, &status, WNOHANG) <= 0)
		return;
	if (WIFSIGNALED(status))
		snprintf(why, sizeof(why), "timekeeper died (signal %d)", WTERMSIG(status));
	else
		snprintf(why, sizeof(why), "timekeeper exited (status %d)", WEXITSTATUS(status));
	keeper_gone(w, why);
}

/* Until the launch's process ends, or nothing is left to watch. */
static void watch_launch(struct watch *w)
{
	while (w->keeper || w->daemon_fd >= 0) {
		struct pollfd fds[4] = {
			{ .fd = w->launch_fd, .events = POLLIN },
			{ .fd = w->keeper_fd, .events = POLLIN },
			{ .fd = w->daemon_fd, .events = POLLIN },
			{ .fd = w->keeper ? w->sigchld_fd : -1, .events = POLLIN },
		};
		struct signalfd_siginfo si;

		/* The shared keeper has a watchdog of its own: no need to look. */
		if ((poll(fds, 4, w->keeper ? keeper_watch_wait_ms(&w->stall) : -1) < 0 &&
		     errno != EINTR) || fds[0].revents)
			return;
		if (fds[3].revents & POLLIN && read(w->sigchld_fd, &si, sizeof(si)) == sizeof(si))
			keeper_watch_alerted(&w->stall);
		if (w->keeper && fds[1].revents & POLLIN)
			reap_keeper(w);
		else if (w->keeper)
			check_keeper(w);
		if (fds[2].revents) {
			fprintf(stderr, "ppctime-run: timekeeper daemon gone: clocks now served by "
				"the system call\n");
			close(w->daemon_fd);
			w->daemon_fd = -1;
		}
	}
}

/* Every descriptor above stderr closed but the n in keep. */
static void close_all_but(const int *keep, int n)
{
	unsigned from = STDERR_FILENO + 1, next;

	do {
		next = ~0u;
		for (int i = 0; i < n; i++)
			if (keep[i] >= (int)from && (unsigned)keep[i] < next)
				next = keep[i];
		close_range(from, next - 1, 0);
		from = next + 1;
	} while (next != ~0u);
}

/*
 * The watchdog: starts the launch's own keeper, if any, says the launch
 * may go on (ready_fd), and watches until the launch's process ends; then
 * the keeper goes too, its death leaving the pages in mode NONE for what
 * the program left running (a daemon).
 */
static void __attribute__((noreturn)) run_watchdog(struct watch *w, int ready_fd)
{
	int null = open("/dev/null", O_RDWR);

	/* Hold none of the program's files but stderr, for our one line:
	 * whoever waits for EOF on its stdout must not wait for us too. */
	dup2(null, STDIN_FILENO);
	dup2(null, STDOUT_FILENO);
	close_all_but((const int[]){ w->launch_fd, w->daemon_fd, ready_fd }, 3);
	/* A closed stderr must not end us, and with us the keeper. */
	signal(SIGPIPE, SIG_IGN);
	if (w->tk) {
		sigset_t chld;

		/* Blocked before the fork: no stop goes unseen. */
		sigemptyset(&chld);
		sigaddset(&chld, SIGCHLD);
		sigprocmask(SIG_BLOCK, &chld, NULL);
		w->sigchld_fd = signalfd(-1, &chld, SFD_CLOEXEC);
		if (w->sigchld_fd < 0)
			refuse("signalfd: %s", fd_error());
		w->keeper = start_timekeeper(w->tk);
		/* From here the keeper is the pages' one writer. */
		munmap(w->pages, w->pages_len);
		w->keeper_fd = pidfd_of(w->keeper);
		keeper_watch_start(&w->stall, w->keeper, w->update_hz, KEEPER_WATCH_POLL_MS,
				   w->tk->updates);
	}
	if (write(ready_fd, "", 1) == 1)
		watch_launch(w);
	if (w->keeper) {
		kill(w->keeper, SIGKILL);
		waitpid(w->keeper, NULL, 0);
	}
	_exit(0);
}

/*
 * Leave w's watchdog behind this process, which is to become QEMU: a
 * grandchild in a session of its own, out of reach of the signals meant
 * for the program, and no child of QEMU's (which passes SIGCHLD on to the
 * guest).  Returns once it holds the daemon's socket or its keeper is armed.
 */
static void detach_watchdog(struct watch *w)
{
	int ready[2];
	pid_t child;
	char byte;

	/* Opened before the exec, which keeps the pid: QEMU's once it runs. */
	w->launch_fd = pidfd_of(getpid());
	if (pipe2(ready, O_CLOEXEC) < 0 || (child = fork()) < 0)
		refuse("cannot start the watchdog: %s", fd_error());
	if (!child) {
		setsid();
		if (fork() == 0)
			run_watchdog(w, ready[1]);
		_exit(0);
	}
	close(ready[1]);	/* our other ends close at the exec */
	waitpid(child, NULL, 0);
	if (read(ready[0], &byte, 1) != 1)
		refuse("the %s did not start", w->tk ? "timekeeper" : "watchdog");
}

/* What the command line asks for. */
struct request {
	const char *sysroot, *image_path, *argv0;
	bool use_vdso, verbose;
	bool private_keeper;		/* asked for, or implied by a clock option */
	bool host_time_syscalls;	/* the preload leaves QEMU's time calls alone */
	bool binfmt;			/* run by binfmt_misc (BINFMT_HANDLER) */
	enum binfmt_action binfmt_action;	/* --binfmt-ACTION, or 0 */
	const char *binfmt_handler;	/* --binfmt-print's, or NULL: ours */
	const char *static_qemu_dir;	/* --static-qemu's, or NULL: QEMU's */
	const struct bundle *bundle;	/* the chroot handler's, or NULL */
	int program_fd;			/* the kernel's (AT_EXECFD), or -1 */
	unsigned long page_size;	/* 0: the image's */
	struct timekeeper_options tk_options;
	struct timezone tz;
	char **program_argv;		/* PROGRAM ARGS... NULL */
	int program_argc;
};

static void parse_arguments(int argc, char **argv, struct request *req)
{
	enum {
		OPT_SYSROOT = 256, OPT_VDSO, OPT_NO_VDSO, OPT_PAGE_SIZE, OPT_REALTIME,
		OPT_TZ, OPT_UPDATE_HZ, OPT_TIMEKEEPER, OPT_PRIVATE, OPT_HOST_TIME, OPT_VERSION,
		OPT_BINFMT_REGISTER, OPT_BINFMT_UNREGISTER, OPT_BINFMT_PRINT, OPT_STATIC_QEMU,
	};
	static const struct option options[] = {
		{ "sysroot", required_argument, NULL, OPT_SYSROOT },
		{ "vdso", required_argument, NULL, OPT_VDSO },
		{ "no-vdso", no_argument, NULL, OPT_NO_VDSO },
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

	*req = (struct request){ .use_vdso = true, .program_fd = -1 };
	/* '+': the first non-option is PROGRAM; what follows is its. */
	while ((opt = getopt_long(argc, argv, "+0:hv", options, NULL)) != -1) {
		switch (opt) {
		case OPT_SYSROOT: req->sysroot = optarg; break;
		case OPT_VDSO: req->image_path = optarg; break;
		case OPT_NO_VDSO: req->use_vdso = false; break;
		case OPT_PAGE_SIZE: req->page_size = parse_page_size(optarg); break;
		case OPT_REALTIME:
			req->tk_options.realtime_offset = realtime_offset(parse_when(optarg));
			clock_options = true;
			break;
		case OPT_TZ:
			parse_tz(optarg, &req->tz);
			req->tk_options.tz = &req->tz;
			clock_options = true;
			break;
		case OPT_UPDATE_HZ:
			req->tk_options.update_hz = parse_update_hz(optarg);
			clock_options = true;
			break;
		case OPT_TIMEKEEPER:
			req->tk_options.mode = parse_timekeeper_mode(optarg);
			clock_options = true;
			break;
		case OPT_PRIVATE: req->private_keeper = true; break;
		case OPT_HOST_TIME: req->host_time_syscalls = true; break;
		case OPT_BINFMT_REGISTER: req->binfmt_action = BINFMT_REGISTER; break;
		case OPT_BINFMT_UNREGISTER: req->binfmt_action = BINFMT_UNREGISTER; break;
		case OPT_BINFMT_PRINT:
			req->binfmt_action = BINFMT_PRINT;
			req->binfmt_handler = optarg;
			break;
		case OPT_STATIC_QEMU: req->static_qemu_dir = optarg; break;
		case '0': req->argv0 = optarg; break;
		case 'v': req->verbose = true; break;
		case 'h':
			printf(usage_text, TIMEKEEPER_AUTO_MAX_HZ, TIMEKEEPER_MAX_HZ);
			exit(0);
		case OPT_VERSION:
			fputs(version_text, stdout);
			exit(0);
		default: usage_error("bad option");
		}
	}
	/* The shared page is the host's clocks as they are. */
	req->private_keeper |= clock_options;
	if (!req->use_vdso && (req->image_path || req->page_size || clock_options ||
			       req->host_time_syscalls))
		usage_error("--no-vdso runs plain QEMU: --vdso, --page-size, "
			    "--host-time-syscalls and the timekeeper's options need the vDSO");
	if (req->binfmt_action && optind != argc)
		usage_error("--binfmt-register, --binfmt-unregister and --binfmt-print take no PROGRAM");
	if (req->static_qemu_dir && req->binfmt_action != BINFMT_REGISTER)
		usage_error("--static-qemu goes with --binfmt-register");
	if (req->binfmt_action)
		return;
	if (optind == argc)
		usage_error("no PROGRAM to run");
	req->program_argv = argv + optind;
	req->program_argc = argc - optind;
}

/*
 * The shared timekeeper's page for t, if one can be had: the machine's
 * daemon, or the user's, started now if need be.  A launch without one
 * keeps its own timekeeper and, with -v, says why.
 */
static int attach_daemon(const struct target *t, unsigned long page_size,
			 const struct request *req, struct tkd_attach *daemon,
			 char *why, size_t whylen)
{
	/* The chroot handler has no files but its own: a daemon it finds. */
	char *path = req->bundle ? NULL : support_file(DAEMON_DIR, "ppctime-timekeeperd", false);
	int r = tkd_attach(daemon, &t->tk_target, page_size, path, why, whylen);

	if (r && req->verbose)
		fprintf(stderr, "ppctime-run: no timekeeper daemon (%s%s): using a private "
			"timekeeper\n", why, path ? "" : "; ppctime-timekeeperd not installed");
	free(path);
	return r;
}

/* QEMU behind the host's dynamic linker, loader and image from files. */
static void prepare_preload(struct qemu_launch *q, const struct program_info *program,
			    const struct request *req, char **qemu_argv, int n)
{
	const struct target *t = program->target;
	const char *image_path = req->image_path;
	struct vdso_image image;
	char *loader, *preload;

	if (!image_path)
		image_path = find_support_file(IMAGE_DIR, t->image);
	q->page_size = check_image(image_path, t, req->page_size, &image);
	q->image_fd = sealed_memfd("ppctime-vdso-image", image.elf.buf, image.elf.len);
	vdso_image_free(&image);
	loader = find_support_file(LOADER_DIR, t->loader);
	preload = find_support_file(PRELOAD_DIR, "ppctime-qemu-preload.so");
	if (strpbrk(preload, ": \t\n"))
		refuse("%s: ld.so --preload takes no file name with a colon or a blank", preload);
	/* ld.so --preload, not LD_PRELOAD: the user's LD_PRELOAD and QEMU's
	 * environment stay as they are; the rest is plain QEMU's argv. */
	q->argv = calloc(3 + n + req->program_argc + 1, sizeof(char *));
	if (!q->argv)
		refuse("out of memory");
	q->argv[0] = qemu_dynamic_linker(qemu_argv[0]);
	q->argv[1] = "--preload";
	q->argv[2] = preload;
	memcpy(q->argv + 3, qemu_argv, n * sizeof(char *));
	memcpy(q->argv + 3 + n, req->program_argv, req->program_argc * sizeof(char *));
	/* QEMU loads the loader from this descriptor (AT_EXECFD), not PROGRAM. */
	q->loader_fd = for_qemu(open(loader, O_RDONLY | O_CLOEXEC), loader);
	q->image_name = image_path;
	q->loader_name = loader;
}

/* The chroot handler: QEMU, loader and image from the bundle, checked
 * when it was made. */
static void prepare_bundled(struct qemu_launch *q, const struct request *req,
			    char **qemu_argv, int n)
{
	const struct bundle *b = req->bundle;

	q->argv = calloc(n + req->program_argc + 1, sizeof(char *));
	if (!q->argv)
		refuse("out of memory");
	memcpy(q->argv, qemu_argv, n * sizeof(char *));
	memcpy(q->argv + n, req->program_argv, req->program_argc * sizeof(char *));
	q->bundled = b->qemu;
	q->page_size = b->page_size;
	q->image_fd = sealed_memfd("ppctime-vdso-image", b->image, b->image_size);
	q->loader_fd = sealed_memfd("ppctime-loader", b->loader, b->loader_size);
}

/*
 * Everything but plain QEMU: check the image, take the data pages from
 * the daemon or create them, leave a watchdog behind where the keeper is
 * ours or the daemon cannot watch this process, and become QEMU on the
 * loader.  qemu_argv[0..n) is QEMU and the options plain QEMU would be
 * run with.
 */
static void __attribute__((noreturn))
run_with_vdso(const struct program_info *program, struct request *req,
	      char **qemu_argv, int n)
{
	const struct target *t = program->target;
	struct qemu_launch q = { .program = req->program_argv[0] };
	struct tkd_attach daemon;
	struct watch w = { .keeper_fd = -1, .daemon_fd = -1, .sigchld_fd = -1 };
	char err[512];
	int data_fd, program_fd;

	if (req->bundle)
		prepare_bundled(&q, req, qemu_argv, n);
	else
		prepare_preload(&q, program, req, qemu_argv, n);
	if (!req->private_keeper &&
	    attach_daemon(t, q.page_size, req, &daemon, err, sizeof(err)) == 0) {
		data_fd = daemon.data_fd;
		w.daemon_fd = daemon.sock;	/* -1: it watches our pid */
		if (req->verbose)
			fprintf(stderr, "ppctime-run: %s vDSO %s, %lu-byte pages, shared "
				"timekeeper %s: daemon %d at %s\n"
				"ppctime-run: %s\n",
				t->name, q.image_name, q.page_size,
				daemon.started ? "started" : "found", (int)daemon.pid,
				daemon.socket, daemon.describe);
	} else {
		w.pages_len = VDSO_NR_PAGES * q.page_size;
		w.pages = create_data_pages(q.page_size, &data_fd);
		req->tk_options.page_size = q.page_size;
		/* Shared, so the watchdog sees the keeper's update count move. */
		w.tk = mmap(NULL, sizeof(*w.tk), PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (w.tk == MAP_FAILED)
			refuse("cannot map the timekeeper's state: %s", strerror(errno));
		if (timekeeper_init(w.tk, w.pages, &t->tk_target, &req->tk_options,
				    err, sizeof(err)) < 0)
			refuse("cannot start the timekeeper: %s", err);
		w.update_hz = timekeeper_update_hz(w.tk);
		if (req->verbose && timekeeper_describe(w.tk, err, sizeof(err)) >= 0)
			fprintf(stderr, "ppctime-run: %s vDSO %s, %lu-byte pages, private "
				"timekeeper mode: %s\n"
				"ppctime-run: %s\n",
				t->name, q.image_name, q.page_size, timekeeper_mode_name(w.tk),
				err);
	}
	if (req->verbose && !q.bundled)
		fprintf(stderr, "ppctime-run: loader %s, preload %s (%s --preload)\n",
			q.loader_name, q.argv[2], q.argv[0]);
	/* The loader maps the very file checked here, whatever -L says. */
	program_fd = for_qemu(program->fd, q.program);
	data_fd = for_qemu(data_fd, "the vDSO data pages");
	/* LAUNCH_ARGS in their order; the preload takes the words before. */
	if (asprintf(&q.launch, "%d,%lu,%d,%d", data_fd, q.page_size, q.image_fd,
		     program_fd) < 0)
		refuse("out of memory");
	if (!q.bundled)
		launch_memfd(q.loader_fd, t->name, req->host_time_syscalls, q.launch);
	if (w.tk || w.daemon_fd >= 0)
		detach_watchdog(&w);
	/* The keeper's alone: the chroot handler's QEMU runs in this mapping. */
	if (w.tk) {
		munmap(w.pages, w.pages_len);
		munmap(w.tk, sizeof(*w.tk));
	}
	enter_qemu(&q);
	refuse("cannot run %s: %s", q.argv[0], strerror(errno));
}

/*
 * Run by binfmt_misc with flags BINFMT_FLAGS: HANDLER PATH ARGV0 ARGS...,
 * PATH open as AT_EXECFD.  As "ppctime-run --argv0=ARGV0 PATH ARGS...".
 */
static void parse_binfmt_arguments(int argc, char **argv, struct request *req)
{
	unsigned long fd = getauxval(AT_EXECFD);

	if (argc < 3 || !fd)
		refuse(BINFMT_HANDLER " is ppctime-run as binfmt_misc runs it, with flags "
		       BINFMT_FLAGS " (ppctime-run --binfmt-register)");
	*req = (struct request){ .use_vdso = true, .binfmt = true, .program_fd = fd,
				 .argv0 = argv[2] };
	/* PATH ARGS...: QEMU's, as ever. */
	argv[2] = argv[1];
	req->program_argv = argv + 2;
	req->program_argc = argc - 2;
}

static const struct target *target_named(const char *name)
{
	for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++)
		if (!strcmp(targets[i].name, name))
			return &targets[i];
	refuse("no target %s", name);
}

/* Debian's static QEMU for t: qemu-ppcXX-static, in dir or beside QEMU. */
static void static_qemu(const struct target *t, const char *dir, char *path, size_t len)
{
	const char *slash = strrchr(t->qemu, '/');
	int dirlen = dir ? (int)strlen(dir) : slash ? (int)(slash - t->qemu) : 0;

	snprintf(path, len, "%.*s%s%s-static", dirlen, dir ? dir : t->qemu, dirlen ? "/" : "",
		 slash ? slash + 1 : t->qemu);
}

/* The dynamic handler (BINFMT_HANDLER in HANDLER_DIR, or
 * --binfmt-print's) for a target that is built. */
static int host_handler(const char *target, struct binfmt_handler *h, void *ctx)
{
	const struct request *req = ctx;
	const struct target *t = target_named(target);
	char *loader, *dir;

	loader = support_file(LOADER_DIR, t->loader, false);
	if (!loader)
		return 0;
	free(loader);
	if (req->binfmt_handler) {
		snprintf(h->path, sizeof(h->path), "%s", req->binfmt_handler);
	} else {
		/* The link's own name, which says how the handler was run. */
		dir = find_support_file(HANDLER_DIR, ".");
		snprintf(h->path, sizeof(h->path), "%s/" BINFMT_HANDLER, dir);
		free(dir);
		if (access(h->path, X_OK) < 0)
			refuse("%s: %s", h->path, strerror(errno));
	}
	if (h->path[0] != '/' || strchr(h->path, ':'))
		refuse("%s: binfmt_misc takes a handler by its absolute path, with no ':'",
		       h->path);
	h->flags = BINFMT_FLAGS;
	h->about[0] = '\0';
	return 1;
}

/* --binfmt-register: where the static QEMU is, a bundle (bundle.h) that
 * serves in chroots too; else the dynamic handler. */
static int register_handler(const char *target, struct binfmt_handler *h, void *ctx)
{
	const struct request *req = ctx;
	const struct target *t = target_named(target);
	char qemu[PATH_MAX], err[512];
	char *handler, *loader, *image;
	struct vdso_image img;
	unsigned long page_size;
	int r = host_handler(target, h, ctx), fd;

	static_qemu(t, req->static_qemu_dir, qemu, sizeof(qemu));
	if (r <= 0 || (access(qemu, R_OK) < 0 && !req->static_qemu_dir))
		return r;
	handler = find_support_file(HANDLER_DIR, BUNDLE_HANDLER);
	loader = find_support_file(LOADER_DIR, t->loader);
	image = find_support_file(IMAGE_DIR, t->image);
	page_size = check_image(image, t, 0, &img);
	vdso_image_free(&img);
	fd = bundle_make(handler, qemu, loader, image, t->name, page_size, err, sizeof(err));
	if (fd < 0) {
		fprintf(stderr, "ppctime-run: cannot make %s's handler: %s\n", t->name, err);
		return -1;
	}
	/* The kernel opens it now, and keeps it (F). */
	snprintf(h->path, sizeof(h->path), "/proc/self/fd/%d", fd);
	h->flags = BINFMT_FLAGS_CHROOT;
	snprintf(h->about, sizeof(h->about), "in chroots too, with %s", qemu);
	free(handler);
	free(loader);
	free(image);
	return 1;
}

static int binfmt_action(struct request *req)
{
	switch (req->binfmt_action) {
	case BINFMT_UNREGISTER:
		return binfmt_unregister() ? LAUNCH_EXIT_ERROR : 0;
	case BINFMT_PRINT:
		return binfmt_print(host_handler, req) ? LAUNCH_EXIT_ERROR : 0;
	default:
		return binfmt_register(register_handler, req) ? LAUNCH_EXIT_ERROR : 0;
	}
}

int main(int argc, char **argv)
{
	struct request req;
	struct program_info program;
	struct bundle bundle;
	char **qemu_argv, *sysroot, qemu[PATH_MAX];
	int n = 0;

	/* Others' /proc/PID/mem must not reach the data page through us or
	 * the timekeeper (which inherits this); QEMU's exec resets it. */
	prctl(PR_SET_DUMPABLE, 0);
	if (getrlimit(RLIMIT_NOFILE, &qemu_nofile) < 0)
		refuse("getrlimit: %s", strerror(errno));
	setrlimit(RLIMIT_NOFILE, &(struct rlimit){ qemu_nofile.rlim_max, qemu_nofile.rlim_max });
	if (bundle_self(&bundle) == 0) {
		parse_binfmt_arguments(argc, argv, &req);
		req.bundle = &bundle;
	} else if (!strcmp(basename(argv[0]), BUNDLE_HANDLER)) {
		refuse(BUNDLE_HANDLER " runs as the handler ppctime-run --binfmt-register makes "
		       "of it, with Debian's static QEMU");
	} else if (!strcmp(basename(argv[0]), BINFMT_HANDLER)) {
		parse_binfmt_arguments(argc, argv, &req);
	} else {
		parse_arguments(argc, argv, &req);
	}
	if (req.binfmt_action)
		return binfmt_action(&req);
	read_program_header(req.program_argv[0], req.program_fd, &program);
	if (req.bundle && strcmp(program.target->name, bundle.target))
		refuse_program("%s: a %s program, not %s as this handler runs",
			       req.program_argv[0], program.target->name, bundle.target);

	/* QEMU [-L SYSROOT] [-0 ARGV0] (5 at most), PROGRAM ARGS... NULL: with
	 * the vDSO too (run_with_vdso), so QEMU says what it says of PROGRAM. */
	qemu_argv = calloc(5 + req.program_argc + 1, sizeof(char *));
	if (!qemu_argv)
		refuse("out of memory");
	/* The bundle's QEMU by the name Debian gives it. */
	if (req.bundle)
		static_qemu(program.target, NULL, qemu, sizeof(qemu));
	qemu_argv[n++] = req.bundle ? qemu : (char *)find_qemu(program.target);
	/* Only dynamic programs: -L also redirects the paths a program opens.
	 * Run by the kernel, as QEMU's handlers are: QEMU's own default. */
	if (program.dynamic && !req.binfmt && (req.sysroot || !getenv("QEMU_LD_PREFIX"))) {
		sysroot = (char *)req.sysroot;
		if (!sysroot && asprintf(&sysroot, "/usr/%s", program.target->triplet) < 0)
			refuse("out of memory");
		qemu_argv[n++] = "-L";
		qemu_argv[n++] = sysroot;
	}
	if (req.argv0) {
		qemu_argv[n++] = "-0";
		qemu_argv[n++] = (char *)req.argv0;
	}
	if (req.use_vdso)
		run_with_vdso(&program, &req, qemu_argv, n);

	/* Plain QEMU, exactly: same process, same status. */
	memcpy(qemu_argv + n, req.program_argv, req.program_argc * sizeof(char *));
	setrlimit(RLIMIT_NOFILE, &qemu_nofile);
	execv(qemu_argv[0], qemu_argv);
	refuse("cannot run %s: %s", qemu_argv[0], strerror(errno));
}
