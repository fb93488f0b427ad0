// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for vdso_image: whatever the bytes, parsing either fails
 * with a message or gives an image every accessor and check can walk, all
 * without a crash, a sanitizer report, a leak or a quadratic walk (the
 * corpus has a large image; elf/fuzz.mk builds and runs it).  The
 * same bytes as a program ppctime-run is to run go through elf_program.
 */
#include "elf_program.h"
#include "vdso_image.h"

#include <elf.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <vdso/datapage.h>

/* The names the launcher and the checker look up, and a miss. */
static const char *const names[] = {
	"__kernel_clock_gettime", "__kernel_clock_getres", "__kernel_gettimeofday",
	"__kernel_time", "__kernel_get_tbfreq", "__kernel_getcpu",
	"__kernel_clock_gettime64", "__kernel_clock_getres_time64",
	VDSO_VERSION, "",
};

#define MAX_NAMES_LOOKED_UP 64

static const enum vdso_hash_table tables[] = {
	VDSO_HASH_PREFERRED, VDSO_HASH_GNU, VDSO_HASH_SYSV,
};

static void look_up(const struct vdso_image *img, const char *name)
{
	char err[256];
	uint64_t value;

	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++) {
		err[0] = '\0';
		if (vdso_image_lookup_in(img, tables[t], name, VDSO_VERSION, &value,
					 err, sizeof(err)) && !err[0])
			abort();	/* a failure must say why */
		vdso_image_lookup_in(img, tables[t], name, NULL, &value, NULL, 0);
	}
}

static void walk(const struct vdso_image *img)
{
	static const enum vdso_symtab_kind kinds[] = { VDSO_DYNSYM, VDSO_SYMTAB };
	struct vdso_symbol sym;
	struct vdso_verdef def;
	struct vdso_section sec;
	char err[256];
	uint32_t word;

	vdso_image_match(img, 32, true, EM_PPC, err, sizeof(err));
	vdso_image_match(img, 64, true, EM_PPC64, err, sizeof(err));
	vdso_image_match(img, 64, false, EM_PPC64, err, sizeof(err));
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		look_up(img, names[i]);
	for (size_t k = 0; k < 2; k++)
		for (size_t i = 0; i < vdso_image_symbol_count(img, kinds[k]); i++) {
			if (vdso_image_symbol(img, kinds[k], i, &sym, err, sizeof(err)))
				continue;
			/* Strings handed out must be terminated inside the image. */
			if (strlen(sym.name) + (sym.version ? strlen(sym.version) : 0) >
			    img->elf.len)
				abort();
			vdso_image_read_u32(img, sym.value, &word);
			/* Real names walk real chains; a few suffice. */
			if (kinds[k] == VDSO_DYNSYM && i < MAX_NAMES_LOOKED_UP)
				look_up(img, sym.name);
		}
	for (size_t i = 0; i < img->verdef_count; i++)
		vdso_image_verdef(img, i, &def, err, sizeof(err));
	for (size_t i = 0; i < img->shnum; i++)
		vdso_image_section(img, i, &sec, err, sizeof(err));
	vdso_image_read_u32(img, 0, &word);
	vdso_image_read_u32(img, img->load.filesz - 4, &word);
	vdso_image_read_u32(img, UINT64_MAX - 1, &word);
}

/* The checks ppctime-run makes before a guest runs the image. */
static void check(const struct vdso_image *img)
{
	static const int layouts[] = { VDSO_LAYOUT_6_1, VDSO_LAYOUT_DATASTORE };
	uint64_t page_size;
	char err[256];
	int layout;

	err[0] = '\0';
	if (vdso_image_check_guest(img, err, sizeof(err)) && !err[0])
		abort();
	err[0] = '\0';
	if (vdso_image_layout(img, &layout, err, sizeof(err)) ? !err[0] :
	    layout != VDSO_LAYOUT_6_1 && layout != VDSO_LAYOUT_DATASTORE)
		abort();	/* a refusal says why, a layout is one we know */
	/* The page size by either layout, whatever the notes say. */
	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		err[0] = '\0';
		if (vdso_image_page_size(img, layouts[i], &page_size, err, sizeof(err)) ?
		    !err[0] : page_size < 4096 || (page_size & (page_size - 1)))
			abort();	/* a refusal says why, a page size is one */
	}
}

/* The input as a file elf_program reads. */
struct input {
	const uint8_t *data;
	size_t size;
};

static ssize_t read_input(void *file, void *buf, size_t size, uint64_t offset)
{
	const struct input *in = file;
	size_t n;

	if (offset >= in->size)
		return 0;
	n = in->size - offset < size ? in->size - offset : size;
	memcpy(buf, in->data + offset, n);
	return n;
}

/* What ppctime-run reads of a program and of the host's. */
static void inspect_program(const uint8_t *data, size_t size)
{
	struct input in = { data, size };
	unsigned char header[ELF_HEADER_MAX];
	struct elf_file elf;
	char err[256] = "";
	char *interp;

	if (elf_program_read_header(&elf, header, read_input, &in, err, sizeof(err))) {
		if (!err[0])
			abort();	/* a refusal must say why */
		return;
	}
	if (elf_program_interpreter(&elf, read_input, &in, &interp, err, sizeof(err))) {
		if (!err[0] || interp)
			abort();	/* and leaves no interpreter */
		return;
	}
	if (interp && strlen(interp) >= PATH_MAX)
		abort();
	free(interp);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vdso_image img;
	char err[256] = "";

	inspect_program(data, size);
	if (vdso_image_parse(&img, data, size, err, sizeof(err))) {
		if (!err[0])
			abort();	/* a refusal must say why */
		return 0;
	}
	walk(&img);
	check(&img);
	vdso_image_free(&img);
	return 0;
}
