/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ppctime-run as the kernel's handler for powerpc programs (binfmt_misc):
 * one entry per target, "ppctime-TARGET", matching its ELF header as
 * QEMU's do, with flags P (argv[0] kept: the handler gets
 * HANDLER PATH ARGV0 ARGS...) and O (the kernel opens the program and
 * passes it as AT_EXECFD, so a program that may be run but not read
 * runs).  Not C: a dynamic handler running with a set-user-ID program's
 * credentials would start ld.so and QEMU with the caller's environment.
 * These are the flags Debian's qemu-user-binfmt uses.
 *
 * The handler is ppctime-run under the name BINFMT_HANDLER (a link to it
 * beside the loaders), which is how it knows the kernel ran it.  Where
 * Debian's static QEMU is installed (qemu-user-static), --binfmt-register
 * makes each entry's handler a bundle instead (bundle.h), with flags
 * BINFMT_FLAGS_CHROOT as qemu-user-static's: F has the kernel open it
 * once, at registration, so programs in a foreign chroot run with it too.
 *
 * binfmt_misc tries the entry registered last first, so ours, registered
 * after qemu-user-binfmt's, are used instead of theirs, and theirs again
 * once ours are gone: theirs are never changed.  At boot, systemd-binfmt
 * registers binfmt.d(5) files in the order of their names: the file
 * that holds ours (run/Rules.mk) is named to come after qemu-*.conf.
 */
#ifndef PPCTIME_BINFMT_H
#define PPCTIME_BINFMT_H

#include <stdbool.h>

#define BINFMT_HANDLER	"ppctime-binfmt"
#define BINFMT_MISC_DIR	"/proc/sys/fs/binfmt_misc"
#define BINFMT_FLAGS	"OP"
#define BINFMT_FLAGS_CHROOT	"OPF"

/* What ppctime-run --binfmt-ACTION does. */
enum binfmt_action {
	BINFMT_REGISTER = 1,
	BINFMT_UNREGISTER,
	BINFMT_PRINT,
};

/* What serves one target's entry. */
struct binfmt_handler {
	char path[4096];		/* absolute, without ':' */
	const char *flags;		/* BINFMT_FLAGS or BINFMT_FLAGS_CHROOT */
	char about[4096 + 64];		/* said when it is registered, or "" */
};

/* The handler of target's entry, for ctx: 1; 0 if the target has none
 * (not built); -1 having said why on stderr. */
typedef int binfmt_handler_fn(const char *target, struct binfmt_handler *h, void *ctx);

/*
 * Register each target's entry, anew so that it is the last registered;
 * say which entries it now stands in front of.  Returns 0, or -1 having
 * said why on stderr.
 */
int binfmt_register(binfmt_handler_fn *handler, void *ctx);

/*
 * The same entries as lines of a binfmt.d(5) file, on stdout.  Returns 0,
 * or -1 if no target has one.
 */
int binfmt_print(binfmt_handler_fn *handler, void *ctx);

/* Remove ours; say whose entries are used again.  0, or -1 as above. */
int binfmt_unregister(void);

#endif /* PPCTIME_BINFMT_H */
