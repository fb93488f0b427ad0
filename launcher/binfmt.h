/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ppctime-run as the kernel's handler for powerpc programs (binfmt_misc):
 * one entry per target, "ppctime-TARGET", matching its ELF header as
 * QEMU's do, with flags P (argv[0] kept: the handler gets
 * HANDLER PATH ARGV0 ARGS...) and O (the kernel opens the program and
 * passes it as AT_EXECFD, so a program that may be run but not read
 * runs).  Not C: a dynamic handler running with a set-user-ID program's
 * credentials would start ld.so and QEMU with the caller's environment;
 * nor F, which would not find a dynamic handler's libraries in a
 * chroot anyway.  These are the flags Debian's qemu-user-binfmt uses.
 *
 * The handler is ppctime-run under the name BINFMT_HANDLER (a link to it
 * beside the loaders), which is how it knows the kernel ran it.
 *
 * binfmt_misc tries the entry registered last first, so ours, registered
 * after qemu-user-binfmt's, are used instead of theirs, and theirs again
 * once ours are gone: theirs are never changed.  At boot, systemd-binfmt
 * registers binfmt.d(5) files in the order of their names: the file
 * that holds ours (launcher/Rules.mk) is named to come after qemu-*.conf.
 */
#ifndef PPCTIME_BINFMT_H
#define PPCTIME_BINFMT_H

#include <stdbool.h>

#define BINFMT_HANDLER	"ppctime-binfmt"
#define BINFMT_MISC_DIR	"/proc/sys/fs/binfmt_misc"
#define BINFMT_FLAGS	"OP"

/* What ppctime-run --binfmt-ACTION does. */
enum binfmt_action {
	BINFMT_REGISTER = 1,
	BINFMT_UNREGISTER,
	BINFMT_PRINT,
};

/*
 * Register handler (an absolute path) for the targets whose
 * enabled(name) is true, each entry anew so that it is the last
 * registered; say which entries it now stands in front of.  Returns 0, or
 * -1 having said why on stderr.
 */
int binfmt_register(const char *handler, bool (*enabled)(const char *target));

/*
 * The same entries as lines of a binfmt.d(5) file, on stdout.  Returns 0,
 * or -1 if no target is enabled.
 */
int binfmt_print(const char *handler, bool (*enabled)(const char *target));

/* Remove ours; say whose entries are used again.  0, or -1 as above. */
int binfmt_unregister(void);

#endif /* PPCTIME_BINFMT_H */
