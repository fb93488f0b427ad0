// SPDX-License-Identifier: GPL-2.0
/*
 * vdso_image: parse a vDSO image and look up its symbols, versions and
 * sections.  See vdso_image.h.  Every offset or count read from the file
 * is checked against what it points into (elf_file.h) before anything is
 * read through it.
 */
#include "vdso_image.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fail.h"

/* Large enough for any vDSO, small enough that a wrong path is caught. */
#define VDSO_IMAGE_MAX_SIZE (64u << 20)

static uint32_t elf_hash(const char *name)
{
	uint32_t h = 0, g;

	for (const unsigned char *s = (const unsigned char *)name; *s; s++) {
		h = (h << 4) + *s;
		g = h & 0xf0000000;
		if (g)
			h ^= g >> 24;
		h &= ~g;
	}
	return h;
}

static uint32_t gnu_hash(const char *name)
{
	uint32_t h = 5381;

	for (const unsigned char *s = (const unsigned char *)name; *s; s++)
		h = h * 33 + *s;
	return h;
}

static int parse_header(struct vdso_image *img, const void *buf, size_t len,
			char *err, size_t errlen)
{
	if (elf_file_parse_header(&img->elf, buf, len, err, errlen))
		return -1;
	if (img->elf.type != ET_DYN)
		return fail(err, errlen,
			    "ELF type %u, but a vDSO is a shared object (ET_DYN)",
			    img->elf.type);
	return 0;
}

static int parse_program_headers(struct vdso_image *img, char *err, size_t errlen)
{
	const struct elf_file *elf = &img->elf;
	struct elf_segment seg;
	unsigned int nload = 0;
	bool has_dynamic = false;

	if (elf->phnum == 0 || elf->phnum == PN_XNUM)
		return fail(err, errlen, "%s program headers",
			    elf->phnum ? "too many (PN_XNUM)" : "no");
	if (elf->phentsize != ELF_SIZEOF(elf, Phdr))
		return fail(err, errlen,
			    "program header entries of %zu bytes, ELF class %d has %zu",
			    elf->phentsize, elf->elf_class, ELF_SIZEOF(elf, Phdr));
	if (!elf_file_bytes(elf, elf->phoff, elf->phnum * elf->phentsize))
		return fail(err, errlen,
			    "truncated: program headers end at %llu beyond file size %zu",
			    (unsigned long long)(elf->phoff + elf->phnum * elf->phentsize),
			    elf->len);

	for (size_t i = 0; i < elf->phnum; i++) {
		elf_file_program_header(elf, i, &seg);	/* in the file: checked above */
		img->has_tls |= seg.type == PT_TLS;
		if (seg.type != PT_LOAD && seg.type != PT_DYNAMIC)
			continue;
		if (!elf_file_bytes(elf, seg.offset, seg.filesz))
			return fail(err, errlen,
				    "segment %zu lies outside the file (offset %llu, size %llu, file size %zu)",
				    i, (unsigned long long)seg.offset,
				    (unsigned long long)seg.filesz, elf->len);
		if (seg.type == PT_DYNAMIC) {
			img->dynamic.vaddr = seg.vaddr;
			img->dynamic.offset = seg.offset;
			img->dynamic.filesz = seg.filesz;
			has_dynamic = true;
			continue;
		}
		if (++nload > 1)
			return fail(err, errlen,
				    "more than one PT_LOAD segment: a vDSO has exactly one");
		img->load = seg;
		if (seg.vaddr != 0 || seg.offset != 0)
			return fail(err, errlen,
				    "PT_LOAD maps file offset %llu at vaddr %#llx: a vDSO maps the whole file from offset 0 at vaddr 0",
				    (unsigned long long)seg.offset,
				    (unsigned long long)seg.vaddr);
		if (seg.memsz < seg.filesz)
			return fail(err, errlen,
				    "PT_LOAD memory size %llu is smaller than its file size %llu",
				    (unsigned long long)seg.memsz,
				    (unsigned long long)seg.filesz);
	}
	if (!nload)
		return fail(err, errlen, "no PT_LOAD segment");
	if (!has_dynamic)
		return fail(err, errlen, "no PT_DYNAMIC");
	if (!vdso_image_bytes(img, img->dynamic.offset, img->dynamic.filesz))
		return fail(err, errlen,
			    "PT_DYNAMIC (offset %llu, size %llu) lies outside the PT_LOAD segment",
			    (unsigned long long)img->dynamic.offset,
			    (unsigned long long)img->dynamic.filesz);
	return 0;
}

/* What the dynamic section says, before the addresses are checked. */
struct dynamic_tags {
	uint64_t hash, gnu_hash, symtab, strtab, strsz, versym, verdef;
	uint64_t verdefnum, soname, syment;
	bool has_symtab, has_strtab, has_strsz, has_soname, has_syment,
	     has_verdefnum;
};

static int read_dynamic(struct vdso_image *img, struct dynamic_tags *tags,
			char *err, size_t errlen)
{
	const struct elf_file *elf = &img->elf;
	size_t entsize = ELF_SIZEOF(elf, Dyn);

	for (uint64_t pos = 0; pos + entsize <= img->dynamic.filesz; pos += entsize) {
		const unsigned char *d = elf->buf + img->dynamic.offset + pos;
		int64_t tag = (int64_t)ELF_FIELD(elf, d, Dyn, d_tag);
		uint64_t val = ELF_FIELD(elf, d, Dyn, d_un);

		if (elf->elf_class == 32)	/* d_tag is a signed Elf32_Sword */
			tag = (int32_t)tag;
		switch (tag) {
		case DT_NULL:
			return 0;
		case DT_HASH:
			img->has_hash = true;
			tags->hash = val;
			break;
		case DT_GNU_HASH:
			img->has_gnu_hash = true;
			tags->gnu_hash = val;
			break;
		case DT_SYMTAB:
			tags->has_symtab = true;
			tags->symtab = val;
			break;
		case DT_STRTAB:
			tags->has_strtab = true;
			tags->strtab = val;
			break;
		case DT_STRSZ:
			tags->has_strsz = true;
			tags->strsz = val;
			break;
		case DT_SYMENT:
			tags->has_syment = true;
			tags->syment = val;
			break;
		case DT_SONAME:
			tags->has_soname = true;
			tags->soname = val;
			break;
		case DT_VERSYM:
			img->has_versym = true;
			tags->versym = val;
			break;
		case DT_VERDEF:
			img->has_verdef = true;
			tags->verdef = val;
			break;
		case DT_VERDEFNUM:
			tags->has_verdefnum = true;
			tags->verdefnum = val;
			break;
		case DT_VERNEED:
			img->has_verneed = true;
			break;
		case DT_REL:
			img->rel.present = true;
			break;
		case DT_RELSZ:
			img->rel.size = val;
			break;
		case DT_RELENT:
			img->rel.has_entsize = true;
			img->rel.entsize = val;
			break;
		case DT_RELA:
			img->rela.present = true;
			break;
		case DT_RELASZ:
			img->rela.size = val;
			break;
		case DT_RELAENT:
			img->rela.has_entsize = true;
			img->rela.entsize = val;
			break;
		case DT_RELR:
			img->relr.present = true;
			break;
		case DT_RELRSZ:
			img->relr.size = val;
			break;
		case DT_RELRENT:
			img->relr.has_entsize = true;
			img->relr.entsize = val;
			break;
		case DT_JMPREL:
			img->jmprel.present = true;
			break;
		case DT_PLTRELSZ:
			img->jmprel.size = val;
			break;
		case DT_PLTREL:
			img->has_pltrel = true;
			img->pltrel = val;
			break;
		case DT_TEXTREL:
			img->textrel = true;
			break;
		case DT_FLAGS:
			img->textrel |= (val & DF_TEXTREL) != 0;
			break;
		case DT_PLTGOT:
			img->pltgot = true;
			break;
		}
	}
	return fail(err, errlen, "the dynamic section has no DT_NULL terminator");
}

/* Number of symbols a GNU hash table covers: one past the last symbol of
 * the chain the highest bucket starts. */
static int gnu_hash_symbol_count(const struct vdso_image *img, size_t *count,
				 char *err, size_t errlen)
{
	const struct elf_file *elf = &img->elf;
	const unsigned char *h = vdso_image_bytes(img, img->gnu_hash_offset, 16);
	uint32_t nbuckets, symoffset, bloom_size, last = 0;
	uint64_t buckets, chains;

	if (!h)
		return fail(err, errlen, "DT_GNU_HASH header lies outside the segment");
	nbuckets = elf_get(elf, h, 4);
	symoffset = elf_get(elf, h + 4, 4);
	bloom_size = elf_get(elf, h + 8, 4);
	if (!nbuckets)
		return fail(err, errlen, "DT_GNU_HASH has no buckets");
	if (!bloom_size || (bloom_size & (bloom_size - 1)))
		return fail(err, errlen,
			    "DT_GNU_HASH bloom filter size %u is not a power of two",
			    bloom_size);
	buckets = img->gnu_hash_offset + 16 + (uint64_t)bloom_size * (elf->elf_class / 8);
	chains = buckets + 4ull * nbuckets;
	if (!vdso_image_bytes(img, buckets, 4ull * nbuckets))
		return fail(err, errlen, "DT_GNU_HASH buckets lie outside the segment");
	for (uint32_t b = 0; b < nbuckets; b++) {
		uint32_t first = elf_get(elf, elf->buf + buckets + 4ull * b, 4);

		if (first && first < symoffset)
			return fail(err, errlen,
				    "DT_GNU_HASH bucket %u starts at symbol %u, below the first hashed symbol %u",
				    b, first, symoffset);
		if (first > last)
			last = first;
	}
	if (!last) {
		*count = symoffset;
		return 0;
	}
	/* Chains end with a value whose low bit is set; the segment bound
	 * ends the walk on a table that never does. */
	for (uint64_t i = last;; i++) {
		const unsigned char *c = vdso_image_bytes(img, chains + 4 * (i - symoffset), 4);

		if (!c)
			return fail(err, errlen,
				    "DT_GNU_HASH chain from symbol %u runs past the segment",
				    last);
		if (elf_get(elf, c, 4) & 1) {
			*count = i + 1;
			return 0;
		}
	}
}

static int parse_hash_tables(struct vdso_image *img, char *err, size_t errlen)
{
	const struct elf_file *elf = &img->elf;
	size_t count = 0;

	if (!img->has_hash && !img->has_gnu_hash)
		return fail(err, errlen,
			    "neither DT_HASH nor DT_GNU_HASH: no symbol can be looked up");
	if (img->has_gnu_hash &&
	    gnu_hash_symbol_count(img, &img->gnu_hash_count, err, errlen))
		return -1;
	count = img->gnu_hash_count;
	if (img->has_hash) {
		const unsigned char *h = vdso_image_bytes(img, img->hash_offset, 8);
		uint32_t nbucket, nchain;

		if (!h)
			return fail(err, errlen, "DT_HASH header lies outside the segment");
		nbucket = elf_get(elf, h, 4);
		nchain = elf_get(elf, h + 4, 4);
		if (!nbucket)
			return fail(err, errlen, "DT_HASH has no buckets");
		if (!vdso_image_bytes(img, img->hash_offset + 8,
				      4ull * nbucket + 4ull * nchain))
			return fail(err, errlen,
				    "DT_HASH (%u buckets, %u chains) runs past the segment",
				    nbucket, nchain);
		count = nchain;	/* DT_HASH counts every symbol: it wins */
	}
	img->dynsym.count = count;
	if (!vdso_image_bytes(img, img->dynsym.offset,
			      (uint64_t)count * ELF_SIZEOF(elf, Sym)))
		return fail(err, errlen,
			    "the dynamic symbol table (%zu symbols) runs past the segment",
			    count);
	if (img->has_versym && !vdso_image_bytes(img, img->versym_offset, 2ull * count))
		return fail(err, errlen,
			    "the version table (DT_VERSYM, %zu entries) runs past the segment",
			    count);
	return 0;
}

/* The Verdef at file offset off and its first Verdaux name. */
static int read_verdef_at(const struct vdso_image *img, uint64_t off,
			  struct vdso_verdef *def, uint32_t *next,
			  char *err, size_t errlen)
{
	const struct elf_file *elf = &img->elf;
	const unsigned char *vd = vdso_image_bytes(img, off, sizeof(Elf64_Verdef));
	const unsigned char *aux;
	uint32_t hash;

	if (!vd)
		return fail(err, errlen,
			    "version definition at offset %llu lies outside the segment",
			    (unsigned long long)off);
	if (ELF_FIELD(elf, vd, Verdef, vd_version) != VER_DEF_CURRENT)
		return fail(err, errlen,
			    "version definition at offset %llu has revision %llu, not %d",
			    (unsigned long long)off,
			    (unsigned long long)ELF_FIELD(elf, vd, Verdef, vd_version),
			    VER_DEF_CURRENT);
	if (!ELF_FIELD(elf, vd, Verdef, vd_cnt))
		return fail(err, errlen,
			    "version definition at offset %llu has no name",
			    (unsigned long long)off);
	aux = vdso_image_bytes(img, off + ELF_FIELD(elf, vd, Verdef, vd_aux),
			       sizeof(Elf64_Verdaux));
	if (!aux)
		return fail(err, errlen,
			    "version definition at offset %llu: its name entry lies outside the segment",
			    (unsigned long long)off);
	def->name = elf_file_string(elf, &img->dynsym.strings,
				    ELF_FIELD(elf, aux, Verdaux, vda_name));
	if (!def->name)
		return fail(err, errlen,
			    "version definition at offset %llu: its name is not in the string table",
			    (unsigned long long)off);
	def->index = ELF_FIELD(elf, vd, Verdef, vd_ndx);
	def->flags = ELF_FIELD(elf, vd, Verdef, vd_flags);
	hash = ELF_FIELD(elf, vd, Verdef, vd_hash);
	if (hash != elf_hash(def->name))
		return fail(err, errlen,
			    "version definition %s has hash %#x, expected %#x (glibc would not find it)",
			    def->name, hash, elf_hash(def->name));
	*next = ELF_FIELD(elf, vd, Verdef, vd_next);
	return 0;
}

/* Walks the whole Verdef chain to check it, then once more to index it by
 * position and by vd_ndx, so no lookup walks it again: a chain can be
 * millions long. */
static int parse_verdefs(struct vdso_image *img, uint64_t verdefnum,
			 char *err, size_t errlen)
{
	uint64_t off = img->verdef_offset;
	struct vdso_verdef def;
	uint32_t next;
	size_t n = 0, max_index = 0;

	for (;;) {
		if (read_verdef_at(img, off, &def, &next, err, errlen))
			return -1;
		/* A chain longer than the segment could hold has a loop. */
		if (++n > img->load.filesz / sizeof(Elf64_Verdef))
			return fail(err, errlen, "the version definition chain loops");
		if (def.index <= VDSO_VERSYM_INDEX && def.index > max_index)
			max_index = def.index;
		if (!next)
			break;
		off += next;
	}
	if (n != verdefnum)
		return fail(err, errlen,
			    "DT_VERDEFNUM is %llu but the chain has %zu version definitions",
			    (unsigned long long)verdefnum, n);

	img->verdef_offsets = malloc(n * sizeof(*img->verdef_offsets));
	img->verdef_by_index = calloc(max_index + 1, sizeof(*img->verdef_by_index));
	if (!img->verdef_offsets || !img->verdef_by_index)
		return fail(err, errlen, "out of memory for %zu version definitions", n);
	off = img->verdef_offset;
	for (size_t i = 0; i < n; i++, off += next) {
		read_verdef_at(img, off, &def, &next, NULL, 0);	/* read above */
		img->verdef_offsets[i] = off;
		/* The first one of an index is the one lookups find. */
		if (def.index <= max_index && !img->verdef_by_index[def.index])
			img->verdef_by_index[def.index] = i + 1;
	}
	img->verdef_count = n;
	img->verdef_max_index = max_index;
	return 0;
}

static int parse_dynamic(struct vdso_image *img, char *err, size_t errlen)
{
	const struct elf_file *elf = &img->elf;
	struct dynamic_tags tags = { 0 };

	if (read_dynamic(img, &tags, err, errlen))
		return -1;
	if (!tags.has_symtab)
		return fail(err, errlen, "no DT_SYMTAB");
	if (!tags.has_strtab || !tags.has_strsz)
		return fail(err, errlen, "no DT_STRTAB or DT_STRSZ");
	if (tags.has_syment && tags.syment != ELF_SIZEOF(elf, Sym))
		return fail(err, errlen,
			    "DT_SYMENT is %llu, ELF class %d symbols are %zu bytes",
			    (unsigned long long)tags.syment, elf->elf_class,
			    ELF_SIZEOF(elf, Sym));
	img->dynsym.strings.size = tags.strsz;
	if (elf_segment_offset(&img->load, tags.strtab, tags.strsz,
			       &img->dynsym.strings.offset))
		return fail(err, errlen,
			    "DT_STRTAB %#llx with DT_STRSZ %llu lies outside the segment",
			    (unsigned long long)tags.strtab,
			    (unsigned long long)tags.strsz);
	if (tags.has_soname) {
		img->soname = elf_file_string(elf, &img->dynsym.strings, tags.soname);
		if (!img->soname)
			return fail(err, errlen, "DT_SONAME is not in the string table");
	}

	/* The tables' sizes come later; here only their starts are placed. */
	struct {
		bool present;
		uint64_t vaddr;
		uint64_t *offset;
		const char *tag;
	} starts[] = {
		{ true, tags.symtab, &img->dynsym.offset, "DT_SYMTAB" },
		{ img->has_hash, tags.hash, &img->hash_offset, "DT_HASH" },
		{ img->has_gnu_hash, tags.gnu_hash, &img->gnu_hash_offset, "DT_GNU_HASH" },
		{ img->has_versym, tags.versym, &img->versym_offset, "DT_VERSYM" },
		{ img->has_verdef, tags.verdef, &img->verdef_offset, "DT_VERDEF" },
	};
	for (size_t i = 0; i < sizeof(starts) / sizeof(starts[0]); i++)
		if (starts[i].present &&
		    elf_segment_offset(&img->load, starts[i].vaddr, 0, starts[i].offset))
			return fail(err, errlen, "%s %#llx lies outside the segment",
				    starts[i].tag,
				    (unsigned long long)starts[i].vaddr);

	if (parse_hash_tables(img, err, errlen))
		return -1;
	if (img->has_verdef != tags.has_verdefnum)
		return fail(err, errlen, "DT_VERDEF and DT_VERDEFNUM come in pairs");
	if (img->has_verdef && parse_verdefs(img, tags.verdefnum, err, errlen))
		return -1;
	return 0;
}

/* Section header table and, for the .dbg twins, SHT_SYMTAB.  Section data
 * need not be loaded, so these are checked against the file. */
static int parse_sections(struct vdso_image *img, char *err, size_t errlen)
{
	const struct elf_file *elf = &img->elf;
	const unsigned char *e = elf->buf;
	uint64_t shentsize = ELF_FIELD(elf, e, Ehdr, e_shentsize);
	uint64_t shstrndx = ELF_FIELD(elf, e, Ehdr, e_shstrndx);

	img->shoff = ELF_FIELD(elf, e, Ehdr, e_shoff);
	img->shnum = ELF_FIELD(elf, e, Ehdr, e_shnum);
	if (!img->shoff) {
		img->shnum = 0;
		return 0;
	}
	if (!img->shnum)
		return fail(err, errlen,
			    "extended section numbering (e_shnum 0) is not supported");
	if (shentsize != ELF_SIZEOF(elf, Shdr))
		return fail(err, errlen,
			    "section header entries of %llu bytes, ELF class %d has %zu",
			    (unsigned long long)shentsize, elf->elf_class,
			    ELF_SIZEOF(elf, Shdr));
	if (!elf_file_bytes(elf, img->shoff, img->shnum * shentsize))
		return fail(err, errlen,
			    "truncated: section headers end at %llu beyond file size %zu",
			    (unsigned long long)(img->shoff + img->shnum * shentsize),
			    elf->len);
	if (shstrndx >= img->shnum)
		return fail(err, errlen,
			    "section name table index %llu is not below the %zu sections",
			    (unsigned long long)shstrndx, img->shnum);

	/* Every section's data (NOBITS has none) must lie in the file. */
	for (size_t i = 0; i < img->shnum; i++) {
		const unsigned char *sh = e + img->shoff + i * shentsize;
		uint32_t type = ELF_FIELD(elf, sh, Shdr, sh_type);
		uint64_t offset = ELF_FIELD(elf, sh, Shdr, sh_offset);
		uint64_t size = ELF_FIELD(elf, sh, Shdr, sh_size);

		if (type != SHT_NOBITS && !elf_file_bytes(elf, offset, size))
			return fail(err, errlen,
				    "section %zu lies outside the file (offset %llu, size %llu, file size %zu)",
				    i, (unsigned long long)offset,
				    (unsigned long long)size, elf->len);
		if (i == shstrndx) {
			img->section_names.offset = offset;
			img->section_names.size = type == SHT_NOBITS ? 0 : size;
		}
	}

	/* The first SHT_SYMTAB, if any, with its string table. */
	for (size_t i = 0; i < img->shnum; i++) {
		const unsigned char *sh = e + img->shoff + i * shentsize;
		uint64_t link = ELF_FIELD(elf, sh, Shdr, sh_link);
		const unsigned char *strsh;

		if (ELF_FIELD(elf, sh, Shdr, sh_type) != SHT_SYMTAB)
			continue;
		if (ELF_FIELD(elf, sh, Shdr, sh_entsize) != ELF_SIZEOF(elf, Sym) ||
		    link >= img->shnum)
			return fail(err, errlen,
				    "symbol table section %zu has a bad entry size or string table link",
				    i);
		strsh = e + img->shoff + link * shentsize;
		if (ELF_FIELD(elf, strsh, Shdr, sh_type) != SHT_STRTAB)
			return fail(err, errlen,
				    "symbol table section %zu links to a section that is no string table",
				    i);
		img->symtab.offset = ELF_FIELD(elf, sh, Shdr, sh_offset);
		img->symtab.count = ELF_FIELD(elf, sh, Shdr, sh_size) / ELF_SIZEOF(elf, Sym);
		img->symtab.strings.offset = ELF_FIELD(elf, strsh, Shdr, sh_offset);
		img->symtab.strings.size = ELF_FIELD(elf, strsh, Shdr, sh_size);
		break;
	}
	return 0;
}

int vdso_image_parse(struct vdso_image *img, const void *buf, size_t len,
		     char *err, size_t errlen)
{
	memset(img, 0, sizeof(*img));
	if (parse_header(img, buf, len, err, errlen) ||
	    parse_program_headers(img, err, errlen) ||
	    parse_dynamic(img, err, errlen) ||
	    parse_sections(img, err, errlen)) {
		vdso_image_free(img);	/* the version index, if made */
		return -1;
	}
	return 0;
}

/*
 * The file at path, open to be read, or NULL with a message in err:
 * anything but a regular file is refused before it is waited for (a
 * FIFO), read (a device) or made our terminal.
 */
static FILE *open_image(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	struct stat st;
	const char *why;
	FILE *f;

	if (fd < 0 || fstat(fd, &st) < 0)
		why = strerror(errno);
	else if (!S_ISREG(st.st_mode))
		why = "not a regular file";
	else if (fcntl(fd, F_SETFL, 0) < 0 || !(f = fdopen(fd, "rb")))
		why = strerror(errno);
	else
		return f;
	fail(err, errlen, "%s: %s", path, why);
	if (fd >= 0)
		close(fd);
	return NULL;
}

int vdso_image_load(struct vdso_image *img, const char *path,
		    char *err, size_t errlen)
{
	unsigned char *buf = NULL, *bigger;
	size_t len = 0, cap = 0, got;
	FILE *f;

	memset(img, 0, sizeof(*img));
	f = open_image(path, err, errlen);
	if (!f)
		return -1;
	/* Grow past the limit by one byte at most, to tell "too large". */
	do {
		if (len == cap) {
			cap = cap ? 2 * cap : 64 * 1024;
			bigger = realloc(buf, cap);
			if (!bigger) {
				fclose(f);
				free(buf);
				return fail(err, errlen, "%s: out of memory", path);
			}
			buf = bigger;
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
	} while (got && len <= VDSO_IMAGE_MAX_SIZE);
	if (ferror(f) || len > VDSO_IMAGE_MAX_SIZE) {
		fclose(f);
		free(buf);
		return len > VDSO_IMAGE_MAX_SIZE ?
		       fail(err, errlen, "%s: larger than %u bytes: not a vDSO",
			    path, VDSO_IMAGE_MAX_SIZE) :
		       fail(err, errlen, "%s: read error", path);
	}
	fclose(f);
	if (vdso_image_parse(img, buf, len, err, errlen)) {
		free(buf);
		return -1;
	}
	img->owned = buf;
	return 0;
}

void vdso_image_free(struct vdso_image *img)
{
	free(img->owned);
	free(img->verdef_offsets);
	free(img->verdef_by_index);
	memset(img, 0, sizeof(*img));
}

static const char *machine_name(uint16_t machine)
{
	switch (machine) {
	case EM_PPC:
		return "EM_PPC";
	case EM_PPC64:
		return "EM_PPC64";
	default:
		return "not powerpc";
	}
}

static const char *byte_order_name(bool big_endian)
{
	return big_endian ? "big-endian" : "little-endian";
}

int vdso_image_match(const struct vdso_image *img, int elf_class,
		     bool big_endian, uint16_t machine, char *err, size_t errlen)
{
	const struct elf_file *elf = &img->elf;
	unsigned int abi = elf->flags & EF_PPC64_ABI;
	unsigned int want_abi = big_endian ? 1 : 2;

	if (elf->elf_class != elf_class)
		return fail(err, errlen, "ELF class %d but ELFCLASS%d expected",
			    elf->elf_class, elf_class);
	if (elf->big_endian != big_endian)
		return fail(err, errlen, "%s but %s expected",
			    byte_order_name(elf->big_endian),
			    byte_order_name(big_endian));
	if (elf->machine != machine)
		return fail(err, errlen, "e_machine %u (%s) but %u (%s) expected",
			    elf->machine, machine_name(elf->machine), machine,
			    machine_name(machine));
	if (machine == EM_PPC64 && abi && abi != want_abi)
		return fail(err, errlen, "ELFv%u (e_flags %#x) but ELFv%u expected",
			    abi, elf->flags, want_abi);
	return 0;
}

size_t vdso_image_symbol_count(const struct vdso_image *img,
			       enum vdso_symtab_kind kind)
{
	return kind == VDSO_DYNSYM ? img->dynsym.count : img->symtab.count;
}

int vdso_image_verdef(const struct vdso_image *img, size_t index,
		      struct vdso_verdef *def, char *err, size_t errlen)
{
	uint32_t next;

	if (index >= img->verdef_count)
		return fail(err, errlen, "no version definition %zu (there are %zu)",
			    index, img->verdef_count);
	return read_verdef_at(img, img->verdef_offsets[index], def, &next, err, errlen);
}

/* The name of the (first) version definition versym entries call index. */
static const char *version_name(const struct vdso_image *img, uint16_t index)
{
	struct vdso_verdef def;
	size_t position = index <= img->verdef_max_index ?
			  img->verdef_by_index[index] : 0;

	if (!position || vdso_image_verdef(img, position - 1, &def, NULL, 0))
		return NULL;
	return def.name;
}

int vdso_image_symbol(const struct vdso_image *img, enum vdso_symtab_kind kind,
		      size_t index, struct vdso_symbol *sym,
		      char *err, size_t errlen)
{
	const struct elf_file *elf = &img->elf;
	const struct vdso_symtab *tab = kind == VDSO_DYNSYM ? &img->dynsym : &img->symtab;
	const unsigned char *s;
	unsigned char info;

	memset(sym, 0, sizeof(*sym));
	if (index >= tab->count)
		return fail(err, errlen, "no symbol %zu (the table has %zu)",
			    index, tab->count);
	s = elf->buf + tab->offset + index * ELF_SIZEOF(elf, Sym);
	sym->name = elf_file_string(elf, &tab->strings, ELF_FIELD(elf, s, Sym, st_name));
	if (!sym->name)
		return fail(err, errlen, "symbol %zu: its name is not in the string table",
			    index);
	sym->value = ELF_FIELD(elf, s, Sym, st_value);
	sym->size = ELF_FIELD(elf, s, Sym, st_size);
	info = ELF_FIELD(elf, s, Sym, st_info);
	sym->type = ELF64_ST_TYPE(info);
	sym->bind = ELF64_ST_BIND(info);
	sym->other = ELF_FIELD(elf, s, Sym, st_other);
	sym->shndx = ELF_FIELD(elf, s, Sym, st_shndx);

	if (kind == VDSO_DYNSYM && img->has_versym) {
		uint16_t versym = elf_get(elf, elf->buf + img->versym_offset + 2 * index, 2);
		uint16_t ver = versym & VDSO_VERSYM_INDEX;

		sym->version_hidden = versym & VDSO_VERSYM_HIDDEN;
		if (ver > VER_NDX_GLOBAL) {
			sym->version = version_name(img, ver);
			if (!sym->version)
				return fail(err, errlen,
					    "symbol %s has version index %u, which no version definition has",
					    sym->name, ver);
		}
	}
	return 0;
}

/* Is dynamic symbol index the defined global function name@version? */
static int symbol_matches(const struct vdso_image *img, size_t index,
			  const char *name, const char *version, bool *match,
			  char *err, size_t errlen)
{
	struct vdso_symbol sym;

	if (vdso_image_symbol(img, VDSO_DYNSYM, index, &sym, err, errlen))
		return -1;
	*match = !strcmp(sym.name, name) && sym.shndx != SHN_UNDEF &&
		 (sym.bind == STB_GLOBAL || sym.bind == STB_WEAK) &&
		 (sym.type == STT_FUNC || sym.type == STT_NOTYPE) &&
		 (!version || (sym.version && !strcmp(sym.version, version)));
	return 0;
}

/* Finds name@version through DT_GNU_HASH; *index 0 if absent. */
static int gnu_hash_find(const struct vdso_image *img, const char *name,
			 const char *version, size_t *index,
			 char *err, size_t errlen)
{
	const struct elf_file *elf = &img->elf;
	const unsigned char *h = elf->buf + img->gnu_hash_offset;
	uint32_t nbuckets = elf_get(elf, h, 4), symoffset = elf_get(elf, h + 4, 4);
	uint32_t bloom_size = elf_get(elf, h + 8, 4), bloom_shift = elf_get(elf, h + 12, 4);
	unsigned int word_bits = elf->elf_class;
	uint32_t hash = gnu_hash(name);
	uint64_t bloom = img->gnu_hash_offset + 16;
	uint64_t buckets = bloom + (uint64_t)bloom_size * (word_bits / 8);
	uint64_t chains = buckets + 4ull * nbuckets;
	uint64_t word, mask;
	uint32_t first;
	bool match;

	*index = 0;
	/* The bloom filter as glibc reads it: a miss there is a miss. */
	word = elf_get(elf, elf->buf + bloom +
		   (hash / word_bits & (bloom_size - 1)) * (word_bits / 8),
		   word_bits / 8);
	mask = (1ull << (hash % word_bits)) |
	       (1ull << ((hash >> (bloom_shift % 32)) % word_bits));
	if ((word & mask) != mask)
		return 0;
	first = elf_get(elf, elf->buf + buckets + 4ull * (hash % nbuckets), 4);
	if (!first)
		return 0;
	/* parse_hash_tables() checked every chain up to the symbol count. */
	for (uint64_t i = first; i < img->dynsym.count; i++) {
		const unsigned char *c = vdso_image_bytes(img, chains + 4 * (i - symoffset), 4);
		uint32_t chain_hash;

		if (!c)
			break;
		chain_hash = elf_get(elf, c, 4);
		if ((chain_hash | 1) == (hash | 1)) {
			if (symbol_matches(img, i, name, version, &match, err, errlen))
				return -1;
			if (match) {
				*index = i;
				return 0;
			}
		}
		if (chain_hash & 1)
			return 0;
	}
	return fail(err, errlen,
		    "DT_GNU_HASH chain for %s runs past the %zu dynamic symbols",
		    name, img->dynsym.count);
}

/* Finds name@version through DT_HASH; *index 0 if absent. */
static int sysv_hash_find(const struct vdso_image *img, const char *name,
			  const char *version, size_t *index,
			  char *err, size_t errlen)
{
	const struct elf_file *elf = &img->elf;
	const unsigned char *h = elf->buf + img->hash_offset;
	uint32_t nbucket = elf_get(elf, h, 4), nchain = elf_get(elf, h + 4, 4);
	const unsigned char *buckets = h + 8, *chains = buckets + 4ull * nbucket;
	uint32_t i = elf_get(elf, buckets + 4ull * (elf_hash(name) % nbucket), 4);
	bool match;

	*index = 0;
	/* At most nchain steps: a longer walk is a loop. */
	for (uint32_t steps = 0; i != 0; steps++) {
		if (i >= nchain || steps >= nchain)
			return fail(err, errlen,
				    "DT_HASH chain for %s %s", name,
				    i >= nchain ? "leaves the table" : "loops");
		if (symbol_matches(img, i, name, version, &match, err, errlen))
			return -1;
		if (match) {
			*index = i;
			return 0;
		}
		i = elf_get(elf, chains + 4ull * i, 4);
	}
	return 0;
}

int vdso_image_lookup_in(const struct vdso_image *img,
			 enum vdso_hash_table table, const char *name,
			 const char *version, uint64_t *value,
			 char *err, size_t errlen)
{
	struct vdso_symbol sym;
	size_t index;
	int rc;

	if (table == VDSO_HASH_PREFERRED)
		table = img->has_gnu_hash ? VDSO_HASH_GNU : VDSO_HASH_SYSV;
	if (table == VDSO_HASH_GNU ? !img->has_gnu_hash : !img->has_hash)
		return fail(err, errlen, "no %s",
			    table == VDSO_HASH_GNU ? "DT_GNU_HASH" : "DT_HASH");
	if (version && !img->has_versym)
		return fail(err, errlen, "no version table (DT_VERSYM): no %s at version %s",
			    name, version);
	rc = table == VDSO_HASH_GNU ?
	     gnu_hash_find(img, name, version, &index, err, errlen) :
	     sysv_hash_find(img, name, version, &index, err, errlen);
	if (rc)
		return -1;
	if (!index)
		return version ?
		       fail(err, errlen, "no %s at version %s", name, version) :
		       fail(err, errlen, "no %s", name);
	if (vdso_image_symbol(img, VDSO_DYNSYM, index, &sym, err, errlen))
		return -1;
	if (sym.value < img->load.vaddr ||
	    sym.value - img->load.vaddr >= img->load.filesz)
		return fail(err, errlen, "%s at %#llx lies outside the loaded segment",
			    name, (unsigned long long)sym.value);
	*value = sym.value;
	return 0;
}

int vdso_image_lookup(const struct vdso_image *img, const char *name,
		      const char *version, uint64_t *value,
		      char *err, size_t errlen)
{
	return vdso_image_lookup_in(img, VDSO_HASH_PREFERRED, name, version,
				    value, err, errlen);
}

int vdso_image_section(const struct vdso_image *img, size_t index,
		       struct vdso_section *sec, char *err, size_t errlen)
{
	const struct elf_file *elf = &img->elf;
	const unsigned char *sh;

	memset(sec, 0, sizeof(*sec));
	if (index >= img->shnum)
		return fail(err, errlen, "no section %zu (there are %zu)",
			    index, img->shnum);
	sh = elf->buf + img->shoff + index * ELF_SIZEOF(elf, Shdr);
	sec->name = elf_file_string(elf, &img->section_names, ELF_FIELD(elf, sh, Shdr, sh_name));
	if (!sec->name)
		return fail(err, errlen, "section %zu: its name is not in the section name table",
			    index);
	sec->type = ELF_FIELD(elf, sh, Shdr, sh_type);
	sec->flags = ELF_FIELD(elf, sh, Shdr, sh_flags);
	sec->addr = ELF_FIELD(elf, sh, Shdr, sh_addr);
	sec->offset = ELF_FIELD(elf, sh, Shdr, sh_offset);
	sec->size = ELF_FIELD(elf, sh, Shdr, sh_size);
	return 0;
}

const unsigned char *vdso_image_bytes(const struct vdso_image *img, uint64_t offset,
				      uint64_t size)
{
	return elf_segment_bytes(&img->elf, &img->load, offset, size);
}

int vdso_image_read_u32(const struct vdso_image *img, uint64_t vaddr,
			uint32_t *word)
{
	const struct elf_file *elf = &img->elf;
	uint64_t offset;

	if (elf_segment_offset(&img->load, vaddr, 4, &offset))
		return -1;
	*word = elf_get(elf, elf->buf + offset, 4);
	return 0;
}


static int compare_ranges(const void *a, const void *b)
{
	const struct vdso_range *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

void vdso_sort_ranges(struct vdso_range *ranges, size_t count)
{
	qsort(ranges, count, sizeof(*ranges), compare_ranges);
}

int vdso_image_code(const struct vdso_image *img, struct vdso_range **code,
		    size_t *count, char *err, size_t errlen)
{
	const uint64_t exec = SHF_ALLOC | SHF_EXECINSTR;
	struct vdso_section sec;
	struct vdso_range *r;
	size_t n = 0;

	if (!img->shnum)
		return fail(err, errlen, "no section headers: nothing says where the code is");
	r = malloc(img->shnum * sizeof(*r));
	if (!r)
		return fail(err, errlen, "out of memory for %zu sections", img->shnum);
	for (size_t i = 0; i < img->shnum; i++) {
		if (vdso_image_section(img, i, &sec, err, errlen))
			goto refuse;
		if (sec.type != SHT_PROGBITS || (sec.flags & exec) != exec || !sec.size)
			continue;
		if (sec.addr != sec.offset || !elf_fits(sec.offset, sec.size, img->load.filesz)) {
			fail(err, errlen,
			     "executable section %s (address %#llx, offset %#llx) is not mapped from the file",
			     sec.name, (unsigned long long)sec.addr,
			     (unsigned long long)sec.offset);
			goto refuse;
		}
		r[n++] = (struct vdso_range){ sec.addr, sec.addr + sec.size, sec.name };
	}
	if (!n) {
		fail(err, errlen, "no executable section (SHF_EXECINSTR)");
		goto refuse;
	}
	vdso_sort_ranges(r, n);
	for (size_t i = 1; i < n; i++)
		if (r[i].start < r[i - 1].end) {
			fail(err, errlen, "executable sections %s and %s overlap",
			     r[i - 1].name, r[i].name);
			goto refuse;
		}
	*code = r;
	*count = n;
	return 0;
refuse:
	free(r);
	return -1;
}

