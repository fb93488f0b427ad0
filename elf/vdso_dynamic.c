// SPDX-License-Identifier: GPL-2.0
/*
 * vdso_dynamic: the vDSO image's dynamic section and what it points at,
 * the hash tables, dynamic symbols and version definitions; reads of
 * symbols and versions, and lookups through either hash table.  See
 * vdso_image.h.  Every offset or count read from the file is checked
 * against what it points into (elf_file.h) before anything is read
 * through it.
 */
#include "vdso_image_internal.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "ppctime/fail.h"

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

/* What the dynamic section says, before the addresses are checked. */
struct dynamic_tags {
	uint64_t hash, gnu_hash, symtab, strtab, strsz, versym, verdef;
	uint64_t verdefnum, soname, syment;
	bool has_symtab, has_strtab, has_strsz, has_soname, has_syment,
	     has_verdefnum;
};

/* What a dynamic tag records: *seen is set when the tag is there (with
 * if_bits, only when its d_un has one of them set), *value takes its
 * d_un, the last one's if the tag repeats.  Tags with no rule are skipped. */
struct dynamic_tag_rule {
	int64_t tag;
	bool *seen;
	uint64_t *value;
	uint64_t if_bits;
};

static void record_tag(const struct dynamic_tag_rule *rule, uint64_t val)
{
	if (rule->seen && (!rule->if_bits || (val & rule->if_bits)))
		*rule->seen = true;
	if (rule->value)
		*rule->value = val;
}

static int read_dynamic(struct vdso_image *img, struct dynamic_tags *tags,
			char *err, size_t errlen)
{
	const struct elf_file *elf = &img->elf;
	size_t entsize = ELF_SIZEOF(elf, Dyn);
	const struct dynamic_tag_rule rules[] = {
		{ DT_HASH, .seen = &img->has_hash, .value = &tags->hash },
		{ DT_GNU_HASH, .seen = &img->has_gnu_hash, .value = &tags->gnu_hash },
		{ DT_SYMTAB, .seen = &tags->has_symtab, .value = &tags->symtab },
		{ DT_STRTAB, .seen = &tags->has_strtab, .value = &tags->strtab },
		{ DT_STRSZ, .seen = &tags->has_strsz, .value = &tags->strsz },
		{ DT_SYMENT, .seen = &tags->has_syment, .value = &tags->syment },
		{ DT_SONAME, .seen = &tags->has_soname, .value = &tags->soname },
		{ DT_VERSYM, .seen = &img->has_versym, .value = &tags->versym },
		{ DT_VERDEF, .seen = &img->has_verdef, .value = &tags->verdef },
		{ DT_VERDEFNUM, .seen = &tags->has_verdefnum, .value = &tags->verdefnum },
		{ DT_VERNEED, .seen = &img->has_verneed },
		{ DT_REL, .seen = &img->rel.present },
		{ DT_RELSZ, .value = &img->rel.size },
		{ DT_RELENT, .seen = &img->rel.has_entsize, .value = &img->rel.entsize },
		{ DT_RELA, .seen = &img->rela.present },
		{ DT_RELASZ, .value = &img->rela.size },
		{ DT_RELAENT, .seen = &img->rela.has_entsize, .value = &img->rela.entsize },
		{ DT_RELR, .seen = &img->relr.present },
		{ DT_RELRSZ, .value = &img->relr.size },
		{ DT_RELRENT, .seen = &img->relr.has_entsize, .value = &img->relr.entsize },
		{ DT_JMPREL, .seen = &img->jmprel.present },
		{ DT_PLTRELSZ, .value = &img->jmprel.size },
		{ DT_PLTREL, .seen = &img->has_pltrel, .value = &img->pltrel },
		{ DT_TEXTREL, .seen = &img->textrel },
		{ DT_FLAGS, .seen = &img->textrel, .if_bits = DF_TEXTREL },
		{ DT_PLTGOT, .seen = &img->pltgot },
	};

	for (uint64_t pos = 0; pos + entsize <= img->dynamic.filesz; pos += entsize) {
		const unsigned char *d = elf->buf + img->dynamic.offset + pos;
		int64_t tag = (int64_t)ELF_FIELD(elf, d, Dyn, d_tag);
		uint64_t val = ELF_FIELD(elf, d, Dyn, d_un);

		if (elf->elf_class == 32)	/* d_tag is a signed Elf32_Sword */
			tag = (int32_t)tag;
		if (tag == DT_NULL)
			return 0;
		for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
			if (rules[i].tag == tag)
				record_tag(&rules[i], val);
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

int vdso_dynamic_parse(struct vdso_image *img, char *err, size_t errlen)
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
