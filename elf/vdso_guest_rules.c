// SPDX-License-Identifier: GPL-2.0
/*
 * vdso_guest_rules: vdso_image_check_guest, what a guest's C library and
 * the calls into a vDSO image rely on beyond what parsing it proves.  See
 * vdso_image.h.
 */
#include "vdso_image.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "ppctime/fail.h"

/* Program headers as the guest reads them: from the mapped image, taking
 * PT_DYNAMIC's p_vaddr (glibc's setup_vdso). */
static int check_segments(const struct vdso_image *img, char *err, size_t errlen)
{
	const struct elf_file *elf = &img->elf;

	if (!elf_fits(elf->phoff, elf->phnum * ELF_SIZEOF(elf, Phdr), img->load.filesz))
		return fail(err, errlen,
			    "program headers at offset %llu lie outside the PT_LOAD: the guest reads them there",
			    (unsigned long long)elf->phoff);
	if (img->has_tls)
		return fail(err, errlen, "a PT_TLS segment: glibc's ld.so asserts a vDSO has none");
	if (img->dynamic.vaddr != img->dynamic.offset)
		return fail(err, errlen,
			    "PT_DYNAMIC p_vaddr %#llx is not its p_offset %#llx: the guest reads it at p_vaddr",
			    (unsigned long long)img->dynamic.vaddr,
			    (unsigned long long)img->dynamic.offset);
	return 0;
}

/*
 * Every Linux vDSO carries the kernel version note, found through PT_NOTE
 * as a C library finds it.  A host strip told to remove ".note" (dh_strip
 * is) removes it and leaves PT_NOTE empty: such an image is broken.
 */
static int check_version_note(const struct vdso_image *img, char *err, size_t errlen)
{
	uint32_t version;

	if (vdso_image_note_word(img, "Linux", 0, &version))
		return fail(err, errlen,
			    "no Linux version note in a PT_NOTE segment (stripped of its .note section?)");
	return 0;
}

/* glibc's ld.so asserts the entry sizes (a missing one is a NULL
 * dereference there), and nothing applies relocations to a vDSO. */
static int check_relocations(const struct vdso_image *img, char *err, size_t errlen)
{
	const struct elf_file *elf = &img->elf;
	const struct {
		const struct vdso_reloc_table *table;
		const char *tag, *size_tag, *entsize_tag;
		size_t entsize;
	} tables[] = {
		{ &img->rela, "DT_RELA", "DT_RELASZ", "DT_RELAENT", ELF_SIZEOF(elf, Rela) },
		{ &img->rel, "DT_REL", "DT_RELSZ", "DT_RELENT", ELF_SIZEOF(elf, Rel) },
		{ &img->relr, "DT_RELR", "DT_RELRSZ", "DT_RELRENT", elf->elf_class / 8 },
		{ &img->jmprel, "DT_JMPREL", "DT_PLTRELSZ", NULL, 0 },
	};

	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		const struct vdso_reloc_table *t = tables[i].table;

		if (!t->present)
			continue;
		if (tables[i].entsize_tag && !t->has_entsize)
			return fail(err, errlen, "%s without %s: glibc's ld.so crashes on that",
				    tables[i].tag, tables[i].entsize_tag);
		if (tables[i].entsize_tag && t->entsize != tables[i].entsize)
			return fail(err, errlen, "%s is %llu, not %zu: glibc's ld.so asserts it",
				    tables[i].entsize_tag, (unsigned long long)t->entsize,
				    tables[i].entsize);
		if (t->size)
			return fail(err, errlen,
				    "%s is %llu: relocations, but nothing relocates a vDSO",
				    tables[i].size_tag, (unsigned long long)t->size);
	}
	if (img->jmprel.present && !img->has_pltrel)
		return fail(err, errlen, "DT_JMPREL without DT_PLTREL");
	if (img->has_pltrel && img->pltrel != DT_RELA)
		return fail(err, errlen,
			    "DT_PLTREL is %llu, not DT_RELA (%d): glibc's ld.so asserts it",
			    (unsigned long long)img->pltrel, DT_RELA);
	if (img->textrel)
		return fail(err, errlen, "DT_TEXTREL: nothing relocates a vDSO");
	return 0;
}

/* glibc walks DT_GNU_HASH, other readers DT_HASH: both must cover the
 * symbols checked, no more and no less. */
static int check_hash_tables(const struct vdso_image *img, char *err, size_t errlen)
{
	if (img->has_hash && img->has_gnu_hash && img->gnu_hash_count != img->dynsym.count)
		return fail(err, errlen,
			    "DT_HASH covers %zu symbols, DT_GNU_HASH %zu: their readers see different ones",
			    img->dynsym.count, img->gnu_hash_count);
	return 0;
}

/* glibc's ld.so keeps one version per index (the last non-base one),
 * lookups here take the first with that index: they must be the same. */
static int check_versions(const struct vdso_image *img, char *err, size_t errlen)
{
	unsigned char seen[(VDSO_VERSYM_INDEX + 1) / 8] = { 0 };
	struct vdso_verdef def;

	if (img->has_verneed)
		return fail(err, errlen,
			    "DT_VERNEED: a vDSO needs no other object (glibc's ld.so asserts it is loaded)");
	for (size_t i = 0; i < img->verdef_count; i++) {
		unsigned int index;

		if (vdso_image_verdef(img, i, &def, err, errlen))
			return -1;
		index = def.index & VDSO_VERSYM_INDEX;
		if (seen[index / 8] & (1u << index % 8))
			return fail(err, errlen,
				    "version definition %zu (%s) repeats index %u: readers disagree on which is meant",
				    i, def.name, index);
		seen[index / 8] |= 1u << index % 8;
		if ((def.flags & VER_FLG_BASE) && def.index != VER_NDX_GLOBAL)
			return fail(err, errlen,
				    "base version definition %s has index %u, not %d: glibc would not version by it",
				    def.name, def.index, VER_NDX_GLOBAL);
	}
	return 0;
}

/* One exported symbol: the version node is fine as it is, a function is
 * added to funcs. */
static int check_export(const struct vdso_image *img, const struct vdso_symbol *sym,
			struct vdso_range *funcs, size_t *nfuncs, char *err, size_t errlen)
{
	unsigned int visibility = ELF64_ST_VISIBILITY(sym->other);

	if (visibility == STV_HIDDEN || visibility == STV_INTERNAL)
		return fail(err, errlen,
			    "exported symbol %s is hidden: glibc would not find it, lookups here do",
			    sym->name);
	if (sym->shndx == SHN_ABS) {
		if (sym->value || !sym->version || strcmp(sym->version, sym->name))
			return fail(err, errlen,
				    "absolute symbol %s = %#llx is no version node (0, named as its version)",
				    sym->name, (unsigned long long)sym->value);
		return 0;
	}
	if (sym->type != STT_FUNC)
		return fail(err, errlen,
			    "exported symbol %s is of type %u, not STT_FUNC: a vDSO exports functions",
			    sym->name, sym->type);
	if (sym->value % 4)
		return fail(err, errlen, "function %s at %#llx is not aligned to an instruction",
			    sym->name, (unsigned long long)sym->value);
	if (!sym->size || sym->size % 4)
		return fail(err, errlen,
			    "function %s is %llu bytes long: not a whole number of instructions",
			    sym->name, (unsigned long long)sym->size);
	if (!elf_fits(sym->value, sym->size, img->load.filesz))
		return fail(err, errlen,
			    "function %s (%#llx, %llu bytes) lies outside the PT_LOAD segment",
			    sym->name, (unsigned long long)sym->value,
			    (unsigned long long)sym->size);
	funcs[(*nfuncs)++] = (struct vdso_range){ sym->value, sym->value + sym->size, sym->name };
	return 0;
}

/* Every dynamic symbol readable; the exported functions in the code, one
 * after the other: an entry inside another one would run its tail. */
static int check_exports(const struct vdso_image *img, char *err, size_t errlen)
{
	struct vdso_range *code, *funcs;
	size_t ncode, nfuncs = 0, c = 0;
	struct vdso_symbol sym;
	int rc = -1;

	if (vdso_image_code(img, &code, &ncode, err, errlen))
		return -1;
	funcs = malloc(img->dynsym.count * sizeof(*funcs));
	if (!funcs && img->dynsym.count) {
		fail(err, errlen, "out of memory for %zu symbols", img->dynsym.count);
		goto out;
	}
	for (size_t i = 1; i < img->dynsym.count; i++) {
		if (vdso_image_symbol(img, VDSO_DYNSYM, i, &sym, err, errlen))
			goto out;
		if (sym.bind != STB_LOCAL && sym.shndx != SHN_UNDEF &&
		    check_export(img, &sym, funcs, &nfuncs, err, errlen))
			goto out;
	}
	vdso_sort_ranges(funcs, nfuncs);
	for (size_t i = 0; i < nfuncs; i++) {
		const struct vdso_range *f = &funcs[i];

		if (i && f->start < f[-1].end) {
			fail(err, errlen,
			     "functions %s (%#llx-%#llx) and %s (%#llx-%#llx) overlap: one runs the other",
			     f[-1].name, (unsigned long long)f[-1].start,
			     (unsigned long long)f[-1].end, f->name,
			     (unsigned long long)f->start, (unsigned long long)f->end);
			goto out;
		}
		while (c < ncode && code[c].end <= f->start)
			c++;
		if (c == ncode || f->start < code[c].start || f->end > code[c].end) {
			fail(err, errlen,
			     "function %s (%#llx-%#llx) lies outside the executable sections",
			     f->name, (unsigned long long)f->start, (unsigned long long)f->end);
			goto out;
		}
	}
	rc = 0;
out:
	free(code);
	free(funcs);
	return rc;
}

int vdso_image_check_guest(const struct vdso_image *img, char *err, size_t errlen)
{
	if (check_segments(img, err, errlen) ||
	    check_version_note(img, err, errlen) ||
	    check_relocations(img, err, errlen) ||
	    check_hash_tables(img, err, errlen) ||
	    check_versions(img, err, errlen) ||
	    check_exports(img, err, errlen))
		return -1;
	return 0;
}

