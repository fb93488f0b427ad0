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
#include "vdso_image.h"

#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "targets.h"
#include "vdso_layout.h"

static const struct {
	const char *name;
	int elf_class;
	bool big_endian;
	uint16_t machine;
} targets[] = {
#define TARGET(n, tr, cls, be, img, so, ld, pg, qm) \
	{ n, cls, be, PPCTIME_MACHINE(cls) },
	PPCTIME_TARGETS(TARGET)
#undef TARGET
};

int main(int argc, char **argv)
{
	const size_t ntargets = sizeof(targets) / sizeof(targets[0]);
	const char *step = NULL;
	uint64_t entry, page_size;
	struct vdso_image img;
	char err[512];
	int layout;
	size_t t;

	for (t = 0; argc == 3 && t < ntargets; t++)
		if (!strcmp(argv[1], targets[t].name))
			break;
	if (argc != 3 || t == ntargets) {
		fprintf(stderr, "usage: vdso-image-probe ppc32|ppc64|ppc64le IMAGE\n");
		return 2;
	}
	if (vdso_image_load(&img, argv[2], err, sizeof(err)))
		step = "load";
	else if (vdso_image_match(&img, targets[t].elf_class, targets[t].big_endian,
				  targets[t].machine, err, sizeof(err)))
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
