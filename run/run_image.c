// SPDX-License-Identifier: GPL-2.0
/*
 * The vDSO image check (run.h): an image a program of the target can run
 * with, or a refusal that says why.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "elf/vdso_image.h"
#include "run.h"

/*
 * Why the image at path, which vdso_image_load() refused (err), is no
 * image for t: its class or byte order if either is wrong (every later
 * field is then misread, and err would be about one of those), else err.
 */
static int refuse_unloaded(const char *path, const struct ppctime_target *t, const char *err,
			   struct run_error *e)
{
	unsigned char ident[EI_NIDENT];
	int fd = open_regular(path, LAUNCH_EXIT_ERROR, e);
	bool elf = fd >= 0 && pread(fd, ident, sizeof(ident), 0) == sizeof(ident) &&
		   !memcmp(ident, ELFMAG, SELFMAG);

	if (fd >= 0)
		close(fd);
	if (elf && ident[EI_CLASS] != (t->elf_class == 64 ? ELFCLASS64 : ELFCLASS32))
		return refuse(e, "refusing vDSO image %s: wrong ELF class (EI_CLASS %u): the %s "
			      "program needs a %d-bit image", path, ident[EI_CLASS], t->name,
			      t->elf_class);
	if (elf && ident[EI_DATA] != (t->big_endian ? ELFDATA2MSB : ELFDATA2LSB))
		return refuse(e, "refusing vDSO image %s: wrong byte order (EI_DATA %u): the %s "
			      "program needs a %s-endian image", path, ident[EI_DATA], t->name,
			      t->big_endian ? "big" : "little");
	return refuse(e, "refusing vDSO image %s: %s", path, err);
}

/*
 * Loads the image at path into img if a t program can run with it, with
 * data pages of *page_size bytes (0: the size it was built for, put
 * there) in the layout its notes say (*layout).
 */
int check_image(const char *path, const struct ppctime_target *t, unsigned long *page_size,
		struct vdso_image *img, int *layout, struct run_error *e)
{
	char err[512];
	uint64_t entry, built_for;

	if (vdso_image_load(img, path, err, sizeof(err)) < 0)
		return refuse_unloaded(path, t, err, e);
	if (vdso_image_match(img, t->elf_class, t->big_endian, t->machine, err, sizeof(err)) < 0)
		refuse(e, "refusing vDSO image %s: %s (the program is %s)", path, err, t->name);
	else if (vdso_image_lookup(img, "__kernel_clock_gettime", VDSO_VERSION, &entry,
				   err, sizeof(err)) < 0)
		refuse(e, "refusing vDSO image %s: no __kernel_clock_gettime@%s: %s",
		       path, VDSO_VERSION, err);
	else if (vdso_image_check_guest(img, err, sizeof(err)) < 0 ||
		 vdso_image_layout(img, layout, err, sizeof(err)) < 0 ||
		 vdso_image_page_size(img, *layout, &built_for, err, sizeof(err)) < 0)
		refuse(e, "refusing vDSO image %s: %s", path, err);
	else if (*page_size && *page_size != built_for)
		refuse(e, "refusing vDSO image %s: it finds its data page with %" PRIu64
		       "-byte pages, not the --page-size=%lu asked for", path, built_for,
		       *page_size);
	else {
		*page_size = built_for;
		return 0;
	}
	vdso_image_free(img);
	return -1;
}

