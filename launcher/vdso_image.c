// SPDX-License-Identifier: GPL-2.0
/*
 * vdso_image: a self-contained, bounds-checked reader of vDSO images.  See
 * vdso_image.h.  The rule throughout: an offset or count read from the file
 * is checked against what it points into before anything is read through
 * it, with arithmetic that cannot overflow.
 */
#include "vdso_image.h"

#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fail.h"

/* Large enough for any vDSO, small enough that a wrong path is caught. */
#define VDSO_IMAGE_MAX_SIZE (64u << 20)

/* A versym entry: the version definition's index, and "hidden". */
#define VERSYM_INDEX 0x7fff
#define VERSYM_HIDDEN 0x8000

/* Is [offset, offset + size) inside [0, limit)? */
static bool fits(uint64_t offset, uint64_t size, uint64_t limit)
{
	return offset <= limit && size <= limit - offset;
}

/* An unsigned field of 1, 2, 4 or 8 bytes in the image's byte order. */
static uint64_t get(const struct vdso_image *img, const unsigned char *p,
		    size_t size)
{
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;

	switch (size) {
	case 1:
		memcpy(&u8, p, 1);
		return u8;
	case 2:
		memcpy(&u16, p, 2);
		return img->swap ? __builtin_bswap16(u16) : u16;
	case 4:
		memcpy(&u32, p, 4);
		return img->swap ? __builtin_bswap32(u32) : u32;
	default:
		memcpy(&u64, p, 8);
		return img->swap ? __builtin_bswap64(u64) : u64;
	}
}

/* Field F of ELF structure Elf{32,64}_T at p, for the image's class. */
#define FIELD(img, p, T, F)						\
	((img)->elf_class == 64 ?					\
	 get((img), (p) + offsetof(Elf64_##T, F), sizeof(((Elf64_##T *)0)->F)) : \
	 get((img), (p) + offsetof(Elf32_##T, F), sizeof(((Elf32_##T *)0)->F)))
#define SIZEOF(img, T) \
	((img)->elf_class == 64 ? sizeof(Elf64_##T) : sizeof(Elf32_##T))

/* The bytes [offset, offset + size) if they lie in the file. */
static const unsigned char *in_file(const struct vdso_image *img,
				    uint64_t offset, uint64_t size)
{
	return fits(offset, size, img->len) ? img->buf + offset : NULL;
}

/* The bytes [offset, offset + size) if they lie in the loaded segment:
 * what the dynamic section points at must be there at run time. */
static const unsigned char *in_segment(const struct vdso_image *img,
				       uint64_t offset, uint64_t size)
{
	if (offset < img->load.offset ||
	    !fits(offset - img->load.offset, size, img->load.filesz))
		return NULL;
	return img->buf + offset;
}

/* NUL-terminated string index of a string table, NULL if it is not. */
static const char *string_at(const struct vdso_image *img,
			     const struct vdso_strtab *tab, uint64_t index)
{
	const char *s;

	if (index >= tab->size)
		return NULL;
	s = (const char *)img->buf + tab->offset + index;
	return memchr(s, '\0', tab->size - index) ? s : NULL;
}

/* Translates a vaddr from the dynamic section to a file offset of size
 * bytes inside the loaded segment. */
static int vaddr_to_offset(const struct vdso_image *img, uint64_t vaddr,
			   uint64_t size, uint64_t *offset)
{
	if (vaddr < img->load.vaddr ||
	    !fits(vaddr - img->load.vaddr, size, img->load.filesz))
		return -1;
	*offset = img->load.offset + (vaddr - img->load.vaddr);
	return 0;
}

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

static int parse_header(struct vdso_image *img, char *err, size_t errlen)
{
	const unsigned char *e = img->buf;
	bool host_big_endian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;

	if (img->len < EI_NIDENT || memcmp(e, ELFMAG, SELFMAG))
		return fail(err, errlen, "not an ELF file");
	switch (e[EI_CLASS]) {
	case ELFCLASS32:
		img->elf_class = 32;
		break;
	case ELFCLASS64:
		img->elf_class = 64;
		break;
	default:
		return fail(err, errlen, "unknown ELF class %u", e[EI_CLASS]);
	}
	if (e[EI_DATA] != ELFDATA2LSB && e[EI_DATA] != ELFDATA2MSB)
		return fail(err, errlen, "unknown ELF byte order %u", e[EI_DATA]);
	img->big_endian = e[EI_DATA] == ELFDATA2MSB;
	img->swap = img->big_endian != host_big_endian;
	if (e[EI_VERSION] != EV_CURRENT)
		return fail(err, errlen, "unknown ELF version %u", e[EI_VERSION]);
	if (img->len < SIZEOF(img, Ehdr))
		return fail(err, errlen,
			    "truncated: the ELF header needs %zu bytes, the file has %zu",
			    SIZEOF(img, Ehdr), img->len);

	img->type = FIELD(img, e, Ehdr, e_type);
	img->machine = FIELD(img, e, Ehdr, e_machine);
	img->flags = FIELD(img, e, Ehdr, e_flags);
	if (img->type != ET_DYN)
		return fail(err, errlen,
			    "ELF type %u, but a vDSO is a shared object (ET_DYN)",
			    img->type);
	return 0;
}

static int parse_program_headers(struct vdso_image *img, char *err, size_t errlen)
{
	const unsigned char *e = img->buf;
	uint64_t phoff = FIELD(img, e, Ehdr, e_phoff);
	uint64_t phentsize = FIELD(img, e, Ehdr, e_phentsize);
	uint64_t phnum = FIELD(img, e, Ehdr, e_phnum);
	unsigned int nload = 0;
	bool has_dynamic = false;

	if (phnum == 0 || phnum == PN_XNUM)
		return fail(err, errlen, "%s program headers",
			    phnum ? "too many (PN_XNUM)" : "no");
	if (phentsize != SIZEOF(img, Phdr))
		return fail(err, errlen,
			    "program header entries of %llu bytes, ELF class %d has %zu",
			    (unsigned long long)phentsize, img->elf_class,
			    SIZEOF(img, Phdr));
	if (!in_file(img, phoff, phnum * phentsize))
		return fail(err, errlen,
			    "truncated: program headers end at %llu beyond file size %zu",
			    (unsigned long long)(phoff + phnum * phentsize), img->len);
	img->phoff = phoff;
	img->phnum = phnum;

	for (uint64_t i = 0; i < phnum; i++) {
		const unsigned char *ph = e + phoff + i * phentsize;
		uint32_t type = FIELD(img, ph, Phdr, p_type);
		uint64_t offset = FIELD(img, ph, Phdr, p_offset);
		uint64_t filesz = FIELD(img, ph, Phdr, p_filesz);
		uint64_t memsz = FIELD(img, ph, Phdr, p_memsz);

		img->has_tls |= type == PT_TLS;
		if (type != PT_LOAD && type != PT_DYNAMIC)
			continue;
		if (!in_file(img, offset, filesz))
			return fail(err, errlen,
				    "segment %llu lies outside the file (offset %llu, size %llu, file size %zu)",
				    (unsigned long long)i, (unsigned long long)offset,
				    (unsigned long long)filesz, img->len);
		if (type == PT_DYNAMIC) {
			img->dynamic.vaddr = FIELD(img, ph, Phdr, p_vaddr);
			img->dynamic.offset = offset;
			img->dynamic.filesz = filesz;
			has_dynamic = true;
			continue;
		}
		if (++nload > 1)
			return fail(err, errlen,
				    "more than one PT_LOAD segment: a vDSO has exactly one");
		img->load.vaddr = FIELD(img, ph, Phdr, p_vaddr);
		img->load.offset = offset;
		img->load.filesz = filesz;
		img->load.memsz = memsz;
		img->load.flags = FIELD(img, ph, Phdr, p_flags);
		if (img->load.vaddr != 0 || offset != 0)
			return fail(err, errlen,
				    "PT_LOAD maps file offset %llu at vaddr %#llx: a vDSO maps the whole file from offset 0 at vaddr 0",
				    (unsigned long long)offset,
				    (unsigned long long)img->load.vaddr);
		if (memsz < filesz)
			return fail(err, errlen,
				    "PT_LOAD memory size %llu is smaller than its file size %llu",
				    (unsigned long long)memsz,
				    (unsigned long long)filesz);
	}
	if (!nload)
		return fail(err, errlen, "no PT_LOAD segment");
	if (!has_dynamic)
		return fail(err, errlen, "no PT_DYNAMIC");
	if (!in_segment(img, img->dynamic.offset, img->dynamic.filesz))
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
	size_t entsize = SIZEOF(img, Dyn);

	for (uint64_t pos = 0; pos + entsize <= img->dynamic.filesz; pos += entsize) {
		const unsigned char *d = img->buf + img->dynamic.offset + pos;
		int64_t tag = (int64_t)FIELD(img, d, Dyn, d_tag);
		uint64_t val = FIELD(img, d, Dyn, d_un);

		if (img->elf_class == 32)	/* d_tag is a signed Elf32_Sword */
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
	const unsigned char *h = in_segment(img, img->gnu_hash_offset, 16);
	uint32_t nbuckets, symoffset, bloom_size, last = 0;
	uint64_t buckets, chains;

	if (!h)
		return fail(err, errlen, "DT_GNU_HASH header lies outside the segment");
	nbuckets = get(img, h, 4);
	symoffset = get(img, h + 4, 4);
	bloom_size = get(img, h + 8, 4);
	if (!nbuckets)
		return fail(err, errlen, "DT_GNU_HASH has no buckets");
	if (!bloom_size || (bloom_size & (bloom_size - 1)))
		return fail(err, errlen,
			    "DT_GNU_HASH bloom filter size %u is not a power of two",
			    bloom_size);
	buckets = img->gnu_hash_offset + 16 + (uint64_t)bloom_size * (img->elf_class / 8);
	chains = buckets + 4ull * nbuckets;
	if (!in_segment(img, buckets, 4ull * nbuckets))
		return fail(err, errlen, "DT_GNU_HASH buckets lie outside the segment");
	for (uint32_t b = 0; b < nbuckets; b++) {
		uint32_t first = get(img, img->buf + buckets + 4ull * b, 4);

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
		const unsigned char *c = in_segment(img, chains + 4 * (i - symoffset), 4);

		if (!c)
			return fail(err, errlen,
				    "DT_GNU_HASH chain from symbol %u runs past the segment",
				    last);
		if (get(img, c, 4) & 1) {
			*count = i + 1;
			return 0;
		}
	}
}

static int parse_hash_tables(struct vdso_image *img, char *err, size_t errlen)
{
	size_t count = 0;

	if (!img->has_hash && !img->has_gnu_hash)
		return fail(err, errlen,
			    "neither DT_HASH nor DT_GNU_HASH: no symbol can be looked up");
	if (img->has_gnu_hash &&
	    gnu_hash_symbol_count(img, &count, err, errlen))
		return -1;
	if (img->has_hash) {
		const unsigned char *h = in_segment(img, img->hash_offset, 8);
		uint32_t nbucket, nchain;

		if (!h)
			return fail(err, errlen, "DT_HASH header lies outside the segment");
		nbucket = get(img, h, 4);
		nchain = get(img, h + 4, 4);
		if (!nbucket)
			return fail(err, errlen, "DT_HASH has no buckets");
		if (!in_segment(img, img->hash_offset + 8,
				4ull * nbucket + 4ull * nchain))
			return fail(err, errlen,
				    "DT_HASH (%u buckets, %u chains) runs past the segment",
				    nbucket, nchain);
		count = nchain;	/* DT_HASH counts every symbol: it wins */
	}
	img->dynsym.count = count;
	if (!in_segment(img, img->dynsym.offset,
			(uint64_t)count * SIZEOF(img, Sym)))
		return fail(err, errlen,
			    "the dynamic symbol table (%zu symbols) runs past the segment",
			    count);
	if (img->has_versym && !in_segment(img, img->versym_offset, 2ull * count))
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
	const unsigned char *vd = in_segment(img, off, sizeof(Elf64_Verdef));
	const unsigned char *aux;
	uint32_t hash;

	if (!vd)
		return fail(err, errlen,
			    "version definition at offset %llu lies outside the segment",
			    (unsigned long long)off);
	if (FIELD(img, vd, Verdef, vd_version) != VER_DEF_CURRENT)
		return fail(err, errlen,
			    "version definition at offset %llu has revision %llu, not %d",
			    (unsigned long long)off,
			    (unsigned long long)FIELD(img, vd, Verdef, vd_version),
			    VER_DEF_CURRENT);
	if (!FIELD(img, vd, Verdef, vd_cnt))
		return fail(err, errlen,
			    "version definition at offset %llu has no name",
			    (unsigned long long)off);
	aux = in_segment(img, off + FIELD(img, vd, Verdef, vd_aux),
			 sizeof(Elf64_Verdaux));
	if (!aux)
		return fail(err, errlen,
			    "version definition at offset %llu: its name entry lies outside the segment",
			    (unsigned long long)off);
	def->name = string_at(img, &img->dynsym.strings,
			      FIELD(img, aux, Verdaux, vda_name));
	if (!def->name)
		return fail(err, errlen,
			    "version definition at offset %llu: its name is not in the string table",
			    (unsigned long long)off);
	def->index = FIELD(img, vd, Verdef, vd_ndx);
	def->flags = FIELD(img, vd, Verdef, vd_flags);
	hash = FIELD(img, vd, Verdef, vd_hash);
	if (hash != elf_hash(def->name))
		return fail(err, errlen,
			    "version definition %s has hash %#x, expected %#x (glibc would not find it)",
			    def->name, hash, elf_hash(def->name));
	*next = FIELD(img, vd, Verdef, vd_next);
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
		if (def.index <= VERSYM_INDEX && def.index > max_index)
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
	struct dynamic_tags tags = { 0 };

	if (read_dynamic(img, &tags, err, errlen))
		return -1;
	if (!tags.has_symtab)
		return fail(err, errlen, "no DT_SYMTAB");
	if (!tags.has_strtab || !tags.has_strsz)
		return fail(err, errlen, "no DT_STRTAB or DT_STRSZ");
	if (tags.has_syment && tags.syment != SIZEOF(img, Sym))
		return fail(err, errlen,
			    "DT_SYMENT is %llu, ELF class %d symbols are %zu bytes",
			    (unsigned long long)tags.syment, img->elf_class,
			    SIZEOF(img, Sym));
	img->dynsym.strings.size = tags.strsz;
	if (vaddr_to_offset(img, tags.strtab, tags.strsz, &img->dynsym.strings.offset))
		return fail(err, errlen,
			    "DT_STRTAB %#llx with DT_STRSZ %llu lies outside the segment",
			    (unsigned long long)tags.strtab,
			    (unsigned long long)tags.strsz);
	if (tags.has_soname) {
		img->soname = string_at(img, &img->dynsym.strings, tags.soname);
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
		    vaddr_to_offset(img, starts[i].vaddr, 0, starts[i].offset))
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
	const unsigned char *e = img->buf;
	uint64_t shentsize = FIELD(img, e, Ehdr, e_shentsize);
	uint64_t shstrndx = FIELD(img, e, Ehdr, e_shstrndx);

	img->shoff = FIELD(img, e, Ehdr, e_shoff);
	img->shnum = FIELD(img, e, Ehdr, e_shnum);
	if (!img->shoff) {
		img->shnum = 0;
		return 0;
	}
	if (!img->shnum)
		return fail(err, errlen,
			    "extended section numbering (e_shnum 0) is not supported");
	if (shentsize != SIZEOF(img, Shdr))
		return fail(err, errlen,
			    "section header entries of %llu bytes, ELF class %d has %zu",
			    (unsigned long long)shentsize, img->elf_class,
			    SIZEOF(img, Shdr));
	if (!in_file(img, img->shoff, img->shnum * shentsize))
		return fail(err, errlen,
			    "truncated: section headers end at %llu beyond file size %zu",
			    (unsigned long long)(img->shoff + img->shnum * shentsize),
			    img->len);
	if (shstrndx >= img->shnum)
		return fail(err, errlen,
			    "section name table index %llu is not below the %zu sections",
			    (unsigned long long)shstrndx, img->shnum);

	/* Every section's data (NOBITS has none) must lie in the file. */
	for (size_t i = 0; i < img->shnum; i++) {
		const unsigned char *sh = e + img->shoff + i * shentsize;
		uint32_t type = FIELD(img, sh, Shdr, sh_type);
		uint64_t offset = FIELD(img, sh, Shdr, sh_offset);
		uint64_t size = FIELD(img, sh, Shdr, sh_size);

		if (type != SHT_NOBITS && !in_file(img, offset, size))
			return fail(err, errlen,
				    "section %zu lies outside the file (offset %llu, size %llu, file size %zu)",
				    i, (unsigned long long)offset,
				    (unsigned long long)size, img->len);
		if (i == shstrndx) {
			img->section_names.offset = offset;
			img->section_names.size = type == SHT_NOBITS ? 0 : size;
		}
	}

	/* The first SHT_SYMTAB, if any, with its string table. */
	for (size_t i = 0; i < img->shnum; i++) {
		const unsigned char *sh = e + img->shoff + i * shentsize;
		uint64_t link = FIELD(img, sh, Shdr, sh_link);
		const unsigned char *strsh;

		if (FIELD(img, sh, Shdr, sh_type) != SHT_SYMTAB)
			continue;
		if (FIELD(img, sh, Shdr, sh_entsize) != SIZEOF(img, Sym) ||
		    link >= img->shnum)
			return fail(err, errlen,
				    "symbol table section %zu has a bad entry size or string table link",
				    i);
		strsh = e + img->shoff + link * shentsize;
		if (FIELD(img, strsh, Shdr, sh_type) != SHT_STRTAB)
			return fail(err, errlen,
				    "symbol table section %zu links to a section that is no string table",
				    i);
		img->symtab.offset = FIELD(img, sh, Shdr, sh_offset);
		img->symtab.count = FIELD(img, sh, Shdr, sh_size) / SIZEOF(img, Sym);
		img->symtab.strings.offset = FIELD(img, strsh, Shdr, sh_offset);
		img->symtab.strings.size = FIELD(img, strsh, Shdr, sh_size);
		break;
	}
	return 0;
}

int vdso_image_parse(struct vdso_image *img, const void *buf, size_t len,
		     char *err, size_t errlen)
{
	memset(img, 0, sizeof(*img));
	img->buf = buf;
	img->len = len;
	if (parse_header(img, err, errlen) ||
	    parse_program_headers(img, err, errlen) ||
	    parse_dynamic(img, err, errlen) ||
	    parse_sections(img, err, errlen)) {
		vdso_image_free(img);	/* the version index, if made */
		return -1;
	}
	return 0;
}

int vdso_image_load(struct vdso_image *img, const char *path,
		    char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL, *bigger;
	size_t len = 0, cap = 0, got;

	memset(img, 0, sizeof(*img));
	if (!f)
		return fail(err, errlen, "%s: %s", path, strerror(errno));
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
	unsigned int abi = img->flags & EF_PPC64_ABI;
	unsigned int want_abi = big_endian ? 1 : 2;

	if (img->elf_class != elf_class)
		return fail(err, errlen, "ELF class %d but ELFCLASS%d expected",
			    img->elf_class, elf_class);
	if (img->big_endian != big_endian)
		return fail(err, errlen, "%s but %s expected",
			    byte_order_name(img->big_endian),
			    byte_order_name(big_endian));
	if (img->machine != machine)
		return fail(err, errlen, "e_machine %u (%s) but %u (%s) expected",
			    img->machine, machine_name(img->machine), machine,
			    machine_name(machine));
	if (machine == EM_PPC64 && abi && abi != want_abi)
		return fail(err, errlen, "ELFv%u (e_flags %#x) but ELFv%u expected",
			    abi, img->flags, want_abi);
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
	const struct vdso_symtab *tab = kind == VDSO_DYNSYM ? &img->dynsym : &img->symtab;
	const unsigned char *s;
	unsigned char info;

	memset(sym, 0, sizeof(*sym));
	if (index >= tab->count)
		return fail(err, errlen, "no symbol %zu (the table has %zu)",
			    index, tab->count);
	s = img->buf + tab->offset + index * SIZEOF(img, Sym);
	sym->name = string_at(img, &tab->strings, FIELD(img, s, Sym, st_name));
	if (!sym->name)
		return fail(err, errlen, "symbol %zu: its name is not in the string table",
			    index);
	sym->value = FIELD(img, s, Sym, st_value);
	sym->size = FIELD(img, s, Sym, st_size);
	info = FIELD(img, s, Sym, st_info);
	sym->type = ELF64_ST_TYPE(info);
	sym->bind = ELF64_ST_BIND(info);
	sym->other = FIELD(img, s, Sym, st_other);
	sym->shndx = FIELD(img, s, Sym, st_shndx);

	if (kind == VDSO_DYNSYM && img->has_versym) {
		uint16_t versym = get(img, img->buf + img->versym_offset + 2 * index, 2);
		uint16_t ver = versym & VERSYM_INDEX;

		sym->version_hidden = versym & VERSYM_HIDDEN;
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
	const unsigned char *h = img->buf + img->gnu_hash_offset;
	uint32_t nbuckets = get(img, h, 4), symoffset = get(img, h + 4, 4);
	uint32_t bloom_size = get(img, h + 8, 4), bloom_shift = get(img, h + 12, 4);
	unsigned int word_bits = img->elf_class;
	uint32_t hash = gnu_hash(name);
	uint64_t bloom = img->gnu_hash_offset + 16;
	uint64_t buckets = bloom + (uint64_t)bloom_size * (word_bits / 8);
	uint64_t chains = buckets + 4ull * nbuckets;
	uint64_t word, mask;
	uint32_t first;
	bool match;

	*index = 0;
	/* The bloom filter as glibc reads it: a miss there is a miss. */
	word = get(img, img->buf + bloom +
		   (hash / word_bits & (bloom_size - 1)) * (word_bits / 8),
		   word_bits / 8);
	mask = (1ull << (hash % word_bits)) |
	       (1ull << ((hash >> (bloom_shift % 32)) % word_bits));
	if ((word & mask) != mask)
		return 0;
	first = get(img, img->buf + buckets + 4ull * (hash % nbuckets), 4);
	if (!first)
		return 0;
	/* parse_hash_tables() checked every chain up to the symbol count. */
	for (uint64_t i = first; i < img->dynsym.count; i++) {
		const unsigned char *c = in_segment(img, chains + 4 * (i - symoffset), 4);
		uint32_t chain_hash;

		if (!c)
			break;
		chain_hash = get(img, c, 4);
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
	const unsigned char *h = img->buf + img->hash_offset;
	uint32_t nbucket = get(img, h, 4), nchain = get(img, h + 4, 4);
	const unsigned char *buckets = h + 8, *chains = buckets + 4ull * nbucket;
	uint32_t i = get(img, buckets + 4ull * (elf_hash(name) % nbucket), 4);
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
		i = get(img, chains + 4ull * i, 4);
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
	const unsigned char *sh;

	memset(sec, 0, sizeof(*sec));
	if (index >= img->shnum)
		return fail(err, errlen, "no section %zu (there are %zu)",
			    index, img->shnum);
	sh = img->buf + img->shoff + index * SIZEOF(img, Shdr);
	sec->name = string_at(img, &img->section_names, FIELD(img, sh, Shdr, sh_name));
	if (!sec->name)
		return fail(err, errlen, "section %zu: its name is not in the section name table",
			    index);
	sec->type = FIELD(img, sh, Shdr, sh_type);
	sec->flags = FIELD(img, sh, Shdr, sh_flags);
	sec->addr = FIELD(img, sh, Shdr, sh_addr);
	sec->offset = FIELD(img, sh, Shdr, sh_offset);
	sec->size = FIELD(img, sh, Shdr, sh_size);
	return 0;
}

int vdso_image_read_u32(const struct vdso_image *img, uint64_t vaddr,
			uint32_t *word)
{
	uint64_t offset;

	if (vaddr_to_offset(img, vaddr, 4, &offset))
		return -1;
	*word = get(img, img->buf + offset, 4);
	return 0;
}

/* Program headers as the guest reads them: from the mapped image, taking
 * PT_DYNAMIC's p_vaddr (glibc's setup_vdso). */
static int check_segments(const struct vdso_image *img, char *err, size_t errlen)
{
	if (!fits(img->phoff, img->phnum * SIZEOF(img, Phdr), img->load.filesz))
		return fail(err, errlen,
			    "program headers at offset %llu lie outside the PT_LOAD: the guest reads them there",
			    (unsigned long long)img->phoff);
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
	static const char name[] = "Linux";

	for (size_t i = 0; i < img->phnum; i++) {
		const unsigned char *ph = img->buf + img->phoff + i * SIZEOF(img, Phdr);
		uint64_t offset = FIELD(img, ph, Phdr, p_offset);
		uint64_t filesz = FIELD(img, ph, Phdr, p_filesz);
		const unsigned char *note = in_segment(img, offset, filesz);

		if (FIELD(img, ph, Phdr, p_type) != PT_NOTE || !note)
			continue;
		/* Each note: namesz, descsz, type, then name and desc, 4-aligned. */
		for (uint64_t at = 0; fits(at, 12, filesz);) {
			uint64_t namesz = get(img, note + at, 4);
			uint64_t descsz = get(img, note + at + 4, 4);
			uint64_t name_at = at + 12;
			uint64_t desc_at = name_at + ((namesz + 3) & ~3ull);

			if (!fits(desc_at, (descsz + 3) & ~3ull, filesz))
				break;
			if (namesz == sizeof(name) && descsz == 4 &&
			    !memcmp(note + name_at, name, sizeof(name)))
				return 0;
			at = desc_at + ((descsz + 3) & ~3ull);
		}
	}
	return fail(err, errlen,
		    "no Linux version note in a PT_NOTE segment (stripped of its .note section?)");
}

/* glibc's ld.so asserts the entry sizes (a missing one is a NULL
 * dereference there), and nothing applies relocations to a vDSO. */
static int check_relocations(const struct vdso_image *img, char *err, size_t errlen)
{
	const struct {
		const struct vdso_reloc_table *table;
		const char *tag, *size_tag, *entsize_tag;
		size_t entsize;
	} tables[] = {
		{ &img->rela, "DT_RELA", "DT_RELASZ", "DT_RELAENT", SIZEOF(img, Rela) },
		{ &img->rel, "DT_REL", "DT_RELSZ", "DT_RELENT", SIZEOF(img, Rel) },
		{ &img->relr, "DT_RELR", "DT_RELRSZ", "DT_RELRENT", img->elf_class / 8 },
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
	size_t gnu_count;

	if (!img->has_hash || !img->has_gnu_hash)
		return 0;
	if (gnu_hash_symbol_count(img, &gnu_count, err, errlen))
		return -1;
	if (gnu_count != img->dynsym.count)
		return fail(err, errlen,
			    "DT_HASH covers %zu symbols, DT_GNU_HASH %zu: their readers see different ones",
			    img->dynsym.count, gnu_count);
	return 0;
}

/* glibc's ld.so keeps one version per index (the last non-base one),
 * lookups here take the first with that index: they must be the same. */
static int check_versions(const struct vdso_image *img, char *err, size_t errlen)
{
	unsigned char seen[(VERSYM_INDEX + 1) / 8] = { 0 };
	struct vdso_verdef def;

	if (img->has_verneed)
		return fail(err, errlen,
			    "DT_VERNEED: a vDSO needs no other object (glibc's ld.so asserts it is loaded)");
	for (size_t i = 0; i < img->verdef_count; i++) {
		unsigned int index;

		if (vdso_image_verdef(img, i, &def, err, errlen))
			return -1;
		index = def.index & VERSYM_INDEX;
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

/* An address range [start, end): a function or a section. */
struct range {
	uint64_t start, end;
	const char *name;
};

static int compare_ranges(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

/* The executable sections, sorted and disjoint: where calls may land.
 * The caller frees *code. */
static int code_sections(const struct vdso_image *img, struct range **code,
			 size_t *count, char *err, size_t errlen)
{
	const uint64_t exec = SHF_ALLOC | SHF_EXECINSTR;
	struct vdso_section sec;
	struct range *r;
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
		if (sec.addr != sec.offset || !fits(sec.offset, sec.size, img->load.filesz)) {
			fail(err, errlen,
			     "executable section %s (address %#llx, offset %#llx) is not mapped from the file",
			     sec.name, (unsigned long long)sec.addr,
			     (unsigned long long)sec.offset);
			goto refuse;
		}
		r[n++] = (struct range){ sec.addr, sec.addr + sec.size, sec.name };
	}
	if (!n) {
		fail(err, errlen, "no executable section (SHF_EXECINSTR)");
		goto refuse;
	}
	qsort(r, n, sizeof(*r), compare_ranges);
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

/* One exported symbol: the version node is fine as it is, a function is
 * added to funcs. */
static int check_export(const struct vdso_image *img, const struct vdso_symbol *sym,
			struct range *funcs, size_t *nfuncs, char *err, size_t errlen)
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
	if (!fits(sym->value, sym->size, img->load.filesz))
		return fail(err, errlen,
			    "function %s (%#llx, %llu bytes) lies outside the PT_LOAD segment",
			    sym->name, (unsigned long long)sym->value,
			    (unsigned long long)sym->size);
	funcs[(*nfuncs)++] = (struct range){ sym->value, sym->value + sym->size, sym->name };
	return 0;
}

/* Every dynamic symbol readable; the exported functions in the code, one
 * after the other: an entry inside another one would run its tail. */
static int check_exports(const struct vdso_image *img, char *err, size_t errlen)
{
	struct range *code, *funcs;
	size_t ncode, nfuncs = 0, c = 0;
	struct vdso_symbol sym;
	int rc = -1;

	if (code_sections(img, &code, &ncode, err, errlen))
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
	qsort(funcs, nfuncs, sizeof(*funcs), compare_ranges);
	for (size_t i = 0; i < nfuncs; i++) {
		const struct range *f = &funcs[i];

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
/* The smallest page size: the data page lies beyond this below the image. */
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
			v = (struct reg){ REG_CONSTANT, (op == PPC_OP_LWA || img->elf_class == 32) ?
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
		if (img->elf_class == 32)	/* 32-bit registers */
			v.value = (int32_t)v.value;
		r[rt] = v;
		last = rt;
	}
	if (last < 0 || r[last].kind != REG_ADDRESS)
		return false;
	*address = r[last].value;
	return true;
}

/* A data page computation: where, how far below the image it lands, and
 * the page size that says. */
struct data_page_site {
	uint64_t pc, below, page_size;
};

/* Takes the computation at pc, if there is one, as *first or checks it
 * agrees with *first. */
static int add_data_page_site(const struct vdso_image *img, uint64_t pc,
			      struct data_page_site *first, char *err, size_t errlen)
{
	struct data_page_site site = { .pc = pc };
	int64_t address;
	uint32_t w;

	if (vdso_image_read_u32(img, pc, &w) || (w & PPC_BCL_ALWAYS_MASK) != PPC_BCL_ALWAYS ||
	    !pc_relative_address(img, pc, w, &address) || address >= 0)
		return 0;
	site.below = -(uint64_t)address;
	/* In [-2 * page, -page): below is in (page, 2 * page]. */
	if (site.below <= MIN_PAGE_SIZE)
		return fail(err, errlen,
			    "the code at %#llx finds data %llu bytes below the image: not 2 pages of %u bytes",
			    (unsigned long long)pc, (unsigned long long)site.below, MIN_PAGE_SIZE);
	site.page_size = 1ull << (63 - __builtin_clzll(site.below - 1));
	if (!first->page_size)
		*first = site;
	else if (site.page_size != first->page_size)
		return fail(err, errlen,
			    "the code at %#llx finds data %llu bytes below (%llu-byte pages), at %#llx %llu (%llu-byte pages)",
			    (unsigned long long)first->pc, (unsigned long long)first->below,
			    (unsigned long long)first->page_size, (unsigned long long)pc,
			    (unsigned long long)site.below, (unsigned long long)site.page_size);
	return 0;
}

int vdso_image_page_size(const struct vdso_image *img, uint64_t *page_size,
			 char *err, size_t errlen)
{
	struct data_page_site first = { 0 };
	struct range *code;
	size_t ncode;
	int rc = 0;

	if (code_sections(img, &code, &ncode, err, errlen))
		return -1;
	for (size_t i = 0; i < ncode && !rc; i++)
		for (uint64_t pc = (code[i].start + 3) & ~3ull; pc + 4 <= code[i].end && !rc;
		     pc += 4)
			rc = add_data_page_site(img, pc, &first, err, errlen);
	free(code);
	if (rc)
		return -1;
	if (!first.page_size)
		return fail(err, errlen,
			    "no code finds a data page below the image (bcl 20,31; mflr; adds): no page size");
	*page_size = first.page_size;
	return 0;
}
