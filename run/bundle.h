/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The chroot handler: what binfmt_misc's F flag opens once, when the entry
 * is registered, so that a powerpc program gets its vDSO where neither
 * ppctime's files nor the host's are in reach (a foreign chroot, a
 * container's root).  It must therefore be one file that needs no other:
 * BUNDLE_HANDLER, ppctime-run linked statically, made at registration into
 * a bundle, a sealed memfd holding the handler followed by, for one target,
 * Debian's static QEMU (qemu-TARGET-static, a static PIE), the guest loader
 * and the vDSO image, and the host vDSO (preload/host_vdso.h) with its
 * parameters' page.  All are PT_LOAD segments added to the handler's
 * program headers, so the kernel maps them when it maps the handler; the
 * handler then enters QEMU where it lies (userland_exec.h), the host vDSO
 * its AT_SYSINFO_EHDR.
 *
 * The handler's ELF note BUNDLE_NOTE_NAME holds struct bundle_header: empty
 * as built, filled in by bundle_make() with where the parts lie, and with
 * the bundle's new program header table behind it (the note is in the
 * handler's first, read-only segment, where file offset and address agree,
 * as e_phoff must for every kernel to find the table in memory).
 */
#ifndef PPCTIME_BUNDLE_H
#define PPCTIME_BUNDLE_H

#include <stddef.h>

#define BUNDLE_HANDLER	"ppctime-binfmt-static"

/* One target's parts, as the handler finds them mapped. */
struct bundle {
	const char *target;		/* its name in ppctime_targets[] */
	unsigned long page_size;	/* the image's, checked at registration */
	int layout;			/* its data layout, likewise */
	const unsigned char *qemu;	/* QEMU's first byte, its address 0 */
	const unsigned char *loader, *image;
	const unsigned char *host_vdso;	/* its parameters' page below it */
	size_t loader_size, image_size;
};

/*
 * In the handler: the bundle it was made into.  0, or -1 if this is the
 * handler as built (run by hand, not from a bundle).
 */
int bundle_self(struct bundle *b);

/*
 * ppctime-run --binfmt-register: the bundle of handler (BUNDLE_HANDLER),
 * qemu, loader, image (already checked: its page size page_size, its data
 * layout layout) and host_vdso for target, as a sealed memfd, open.
 * Returns its descriptor, or -1 with a message in err.
 */
int bundle_make(const char *handler, const char *qemu, const char *loader,
		const char *image, const char *host_vdso, const char *target,
		unsigned long page_size, int layout, char *err, size_t errlen);

#endif /* PPCTIME_BUNDLE_H */
