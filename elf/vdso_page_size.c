// SPDX-License-Identifier: GPL-2.0
/*
 * vdso_page_size: the kernel page size a vDSO image was built for, from
 * where its code finds its data page.  See vdso_image.h.
 */
#include "vdso_image.h"

#include <stdlib.h>

#include "ppctime/fail.h"
#include "ppctime/vdso_layout.h"

/* Instructions the PC-relative address computations use. */
#define PPC_BCL_ALWAYS_MASK	0xffff0003u
#define PPC_BCL_ALWAYS		0x429f0001u	/* bcl 20,31,target */
#define PPC_SPR_MASK		0xfc1fffffu
#define PPC_MFLR		0x7c0802a6u
#define PPC_MTLR		0x7c0803a6u
#define PPC_OP_ADDI		14
#define PPC_OP_ADDIS		15
#define PPC_OP_LWZ		32
#define PPC_OP_LWA		58		/* DS-form, low bits 2 */
#define PPC_OP_X		31
#define PPC_XO_ADD		266
/* More than the longest computation, the helper's (mflr, addi, mtlr, lwa, add). */
#define MAX_ADDRESS_INSNS	16
/* The smallest page size there is. */
#define MIN_PAGE_SIZE		4096u

/* What a register is known to hold: an image-relative address, another
 * number, or nothing known. */
struct reg {
	enum { REG_UNKNOWN, REG_ADDRESS, REG_CONSTANT } kind;
	int64_t value;
};

/*
 * Follows the address computation started by the "bcl 20,31,target" at pc
 * as the entries and the data-page helpers do it (mflr; addis, addi; a
 * word of the image loaded and added), up to the first instruction that
 * is none of these or has unknown inputs.  Gives what the last register
 * written holds if that is an address.
 */
static bool pc_relative_address(const struct vdso_image *img, uint64_t pc,
				uint32_t bcl, int64_t *address)
{
	const struct elf_file *elf = &img->elf;
	struct reg r[32] = { 0 }, lr = { REG_ADDRESS, (int64_t)pc + 4 }, v;
	uint64_t at = pc + (int16_t)(bcl & 0xfffc);
	int last = -1;

	for (int n = 0; n < MAX_ADDRESS_INSNS; n++, at += 4) {
		unsigned int op, rt, ra, rb;
		uint32_t w, word;
		int16_t imm;

		if (vdso_image_read_u32(img, at, &w))
			break;
		op = w >> 26;
		rt = w >> 21 & 31;
		ra = w >> 16 & 31;
		rb = w >> 11 & 31;
		imm = (int16_t)w;
		if ((w & PPC_SPR_MASK) == PPC_MTLR) {
			lr = r[rt];
			continue;
		}
		if ((w & PPC_SPR_MASK) == PPC_MFLR) {
			v = lr;
		} else if (op == PPC_OP_ADDI || op == PPC_OP_ADDIS) {
			v = ra ? r[ra] : (struct reg){ REG_CONSTANT, 0 };
			v.value += op == PPC_OP_ADDI ? imm : (int64_t)imm * 65536;
		} else if (op == PPC_OP_LWZ || (op == PPC_OP_LWA && (w & 3) == 2)) {
			int64_t disp = op == PPC_OP_LWZ ? imm : (int16_t)(w & 0xfffc);

			if (!ra || r[ra].kind != REG_ADDRESS ||
			    vdso_image_read_u32(img, (uint64_t)(r[ra].value + disp), &word))
				break;
			v = (struct reg){ REG_CONSTANT, (op == PPC_OP_LWA || elf->elf_class == 32) ?
					  (int64_t)(int32_t)word : (int64_t)word };
		} else if (op == PPC_OP_X && (w >> 1 & 0x1ff) == PPC_XO_ADD) {
			if (r[ra].kind == REG_UNKNOWN || r[rb].kind == REG_UNKNOWN ||
			    (r[ra].kind == REG_ADDRESS && r[rb].kind == REG_ADDRESS))
				break;
			v = (struct reg){ r[ra].kind == REG_CONSTANT && r[rb].kind == REG_CONSTANT ?
					  REG_CONSTANT : REG_ADDRESS, r[ra].value + r[rb].value };
		} else {
			break;
		}
		if (v.kind == REG_UNKNOWN)
			break;
		if (elf->elf_class == 32)	/* 32-bit registers */
			v.value = (int32_t)v.value;
		r[rt] = v;
		last = rt;
	}
	if (last < 0 || r[last].kind != REG_ADDRESS)
		return false;
	*address = r[last].value;
	return true;
}

/* A data page computation: where, and how far below the image it lands. */
struct data_page_site {
	uint64_t pc, below;
};

/* The computation at pc, if there is one that lands below the image. */
static bool data_page_site(const struct vdso_image *img, uint64_t pc,
			   struct data_page_site *site)
{
	int64_t address;
	uint32_t w;

	if (vdso_image_read_u32(img, pc, &w) || (w & PPC_BCL_ALWAYS_MASK) != PPC_BCL_ALWAYS ||
	    !pc_relative_address(img, pc, w, &address) || address >= 0)
		return false;
	*site = (struct data_page_site){ pc, -(uint64_t)address };
	return true;
}

/*
 * Calls check(site, ctx) for each computation in the executable sections,
 * until one returns nonzero (returned).
 */
static int each_data_page_site(const struct vdso_image *img,
			       int (*check)(const struct data_page_site *, void *),
			       void *ctx, char *err, size_t errlen)
{
	struct data_page_site site;
	struct vdso_range *code;
	size_t ncode;
	int rc = 0;

	if (vdso_image_code(img, &code, &ncode, err, errlen))
		return -1;
	for (size_t i = 0; i < ncode && !rc; i++)
		for (uint64_t pc = (code[i].start + 3) & ~3ull; pc + 4 <= code[i].end && !rc;
		     pc += 4)
			if (data_page_site(img, pc, &site))
				rc = check(&site, ctx);
	free(code);
	return rc;
}

/* What the checks of the sites share. */
struct page_size_search {
	const struct vdso_layout *layout;
	struct data_page_site deepest;	/* the first page's, which every image reads */
	uint64_t page_size;
	char *err;
	size_t errlen;
};

static int find_deepest(const struct data_page_site *site, void *ctx)
{
	struct page_size_search *s = ctx;

	if (site->below > s->deepest.below)
		s->deepest = *site;
	return 0;
}

/* Each computation lands in a page the layout's code reads. */
static int check_site(const struct data_page_site *site, void *ctx)
{
	const struct page_size_search *s = ctx;
	unsigned int nr = s->layout->nr_pages;
	uint64_t from_top = (site->below + s->page_size - 1) / s->page_size;
	unsigned int page = from_top <= nr ? nr - from_top : nr;

	if (page < nr && s->layout->code_pages & 1u << page)
		return 0;
	return fail(s->err, s->errlen,
		    "the code at %#llx finds data %llu bytes below (%llu-byte pages), at %#llx "
		    "%llu: not in a page the %s layout's code reads",
		    (unsigned long long)s->deepest.pc, (unsigned long long)s->deepest.below,
		    (unsigned long long)s->page_size, (unsigned long long)site->pc,
		    (unsigned long long)site->below, vdso_layout_name(s->layout->id));
}

int vdso_image_page_size(const struct vdso_image *img, int layout, uint64_t *page_size,
			 char *err, size_t errlen)
{
	struct page_size_search s = { .layout = vdso_layout_find(layout), .err = err,
				      .errlen = errlen };
	uint64_t nr, below;

	if (!s.layout)
		return fail(err, errlen, "no data layout %d", layout);
	if (each_data_page_site(img, find_deepest, &s, err, errlen))
		return -1;
	if (!s.deepest.below)
		return fail(err, errlen,
			    "no code finds a data page below the image (bcl 20,31; mflr; adds): no page size");
	/* The first of nr pages: in (nr - 1, nr] pages below, for one page size. */
	nr = s.layout->nr_pages;
	below = s.deepest.below;
	s.page_size = MIN_PAGE_SIZE;
	while (nr * s.page_size < below)
		s.page_size *= 2;
	if ((nr - 1) * s.page_size >= below)
		return fail(err, errlen,
			    "the code at %#llx finds data %llu bytes below the image: not %llu pages of %u bytes or more",
			    (unsigned long long)s.deepest.pc, (unsigned long long)below,
			    (unsigned long long)nr, MIN_PAGE_SIZE);
	if (each_data_page_site(img, check_site, &s, err, errlen))
		return -1;
	*page_size = s.page_size;
	return 0;
}
