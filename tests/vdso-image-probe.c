// SPDX-License-Identifier: GPL-2.0
/*
 * vdso-image-probe: the verdict of ppctime-run's image checks on a file,
 * for tests/vdso-image-test.sh.
 *
 *   vdso-image-probe TARGET IMAGE
 *
 * runs vdso_image_load, vdso_image_match for TARGET (ppc32, ppc64,
 * ppc64le), the lookup of __kernel_clock_gettime, vdso_image_check_guest,
 * vdso_image_layout and vdso_image_page_size, and prints "accepted: LAYOUT
 * layout, N-byte pages" (exit 0) or "refused by STEP: why" for the first
 * that fails (exit 1).
 */
#include "elf/vdso_image.h"

#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "ppctime/target_table.h"
#include "ppctime/vdso_layout.h"

int main(int argc, char **argv)
{
	const struct ppctime_target *t = argc == 3 ? ppctime_target_named(argv[1]) : NULL;
	const char *step = NULL;
	uint64_t entry, page_size;
	struct vdso_image img;
	char err[512];
	int layout;

	if (!t) {
		fprintf(stderr, "usage: vdso-image-probe ppc32|ppc64|ppc64le IMAGE\n");
		return 2;
	}
	if (vdso_image_load(&img, argv[2], err, sizeof(err)))
		step = "load";
	else if (vdso_image_match(&img, t->elf_class, t->big_endian, t->machine, err,
				  sizeof(err)))
		step = "match";
	else if (vdso_image_lookup(&img, "__kernel_clock_gettime", VDSO_VERSION, &entry,
				   err, sizeof(err)))
		step = "lookup";
	else if (vdso_image_check_guest(&img, err, sizeof(err)))
		step = "check";
	else if (vdso_image_layout(&img, &layout, err, sizeof(err)))
		step = "layout";
	else if (vdso_image_page_size(&img, layout, &page_size, err, sizeof(err)))
		step = "page-size";
	vdso_image_free(&img);
	if (step) {
		printf("refused by %s: %s\n", step, err);
		return 1;
	}
	printf("accepted: %s layout, %llu-byte pages\n", vdso_layout_name(layout),
	       (unsigned long long)page_size);
	return 0;
}
