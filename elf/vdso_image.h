/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vdso_image: read a powerpc vDSO image (an ELF shared object) held in
 * memory, with elf_file's bounds checks.  Self-contained like the kernel
 * selftests' parse_vdso.c, but trusting nothing in the file: any input
 * gives either a parsed image or a message saying what is wrong.
 * vdso_image.c parses the image's headers and sections, vdso_dynamic.c
 * its dynamic section and looks symbols and versions up in it,
 * vdso_guest_rules.c checks what a guest relies on, vdso_notes.c reads
 * its notes and the data layout they say, vdso_page_size.c finds the page
 * size the image was built for.
 *
 * Addresses: the vDSO has one PT_LOAD at vaddr 0 and file offset 0, so a
 * symbol value is an offset from the image base (on ppc64 ELFv1 too: vDSO
 * symbols are code addresses, not function descriptors).
 */
#ifndef VDSO_IMAGE_H
#define VDSO_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "elf_file.h"

/* The vDSO ABI's one version node and the name glibc looks up with. */
#define VDSO_VERSION "LINUX_2.6.15"

/* A versym entry: the version definition's index, and "hidden". */
#define VDSO_VERSYM_INDEX 0x7fff
#define VDSO_VERSYM_HIDDEN 0x8000

/* A symbol table: file offset, number of entries and its strings. */
struct vdso_symtab {
	uint64_t offset;
	size_t count;
	struct elf_strtab strings;
};

/* A dynamic relocation table: present (its tag seen), its size and the
 * size of an entry (DT_RELAENT, DT_RELENT, DT_RELRENT; none for DT_JMPREL,
 * whose entry type is DT_PLTREL). */
struct vdso_reloc_table {
	bool present;
	uint64_t size;
	bool has_entsize;
	uint64_t entsize;
};

struct vdso_image {
	/* The whole image, from offset 0, and its ELF header: its program
	 * headers, at e_phoff, the guest reads mapped. */
	struct elf_file elf;

	/* The single PT_LOAD segment. */
	struct elf_segment load;
	/* The (last) PT_DYNAMIC: the guest reads it at vaddr, the checks at
	 * offset. */
	struct {
		uint64_t vaddr, offset, filesz;
	} dynamic;
	bool has_tls;			/* a PT_TLS segment */

	/* From the dynamic section.  All offsets are file offsets. */
	bool has_hash, has_gnu_hash, has_versym, has_verdef;
	uint64_t hash_offset;		/* DT_HASH */
	uint64_t gnu_hash_offset;	/* DT_GNU_HASH */
	uint64_t versym_offset;		/* DT_VERSYM */
	uint64_t verdef_offset;		/* DT_VERDEF */
	size_t verdef_count;		/* DT_VERDEFNUM, checked against the chain */
	const char *soname;		/* DT_SONAME, NULL if absent */
	struct vdso_symtab dynsym;	/* DT_SYMTAB, counted from the hash tables */
	size_t gnu_hash_count;		/* the symbols DT_GNU_HASH covers */
	struct vdso_reloc_table rel, rela, relr, jmprel; /* DT_REL... and sizes */
	bool has_pltrel;
	uint64_t pltrel;		/* DT_PLTREL: DT_REL or DT_RELA */
	bool textrel;			/* DT_TEXTREL or DF_TEXTREL */
	bool pltgot;			/* DT_PLTGOT */
	bool has_verneed;		/* DT_VERNEED */

	/* The Verdef chain, walked once: each one's file offset in chain
	 * order, and by vd_ndx (up to verdef_max_index, at most
	 * VDSO_VERSYM_INDEX, the indexes a versym entry can name) the first
	 * one's position + 1, 0 for none. */
	uint64_t *verdef_offsets;
	size_t *verdef_by_index;
	size_t verdef_max_index;

	/* Section headers (e_shnum may be 0) and the full symbol table that
	 * unstripped images (the .dbg twins) keep in SHT_SYMTAB. */
	uint64_t shoff;
	size_t shnum;
	struct elf_strtab section_names;
	struct vdso_symtab symtab;	/* count 0 if stripped */

	void *owned;			/* the copy vdso_image_load made */
};

enum vdso_symtab_kind {
	VDSO_DYNSYM,			/* the dynamic symbols (exports) */
	VDSO_SYMTAB,			/* SHT_SYMTAB: every symbol, if kept */
};

struct vdso_symbol {
	const char *name;
	/* VDSO_DYNSYM only: the version-definition name, NULL for the
	 * unversioned indexes 0 (local) and 1 (global). */
	const char *version;
	bool version_hidden;
	uint64_t value;
	uint64_t size;
	unsigned char type;		/* STT_* */
	unsigned char bind;		/* STB_* */
	unsigned char other;		/* st_other (ELFv2 local entry offset) */
	uint16_t shndx;
};

struct vdso_verdef {
	const char *name;		/* the first Verdaux name */
	uint16_t index;			/* vd_ndx, as versym entries name it */
	uint16_t flags;			/* VER_FLG_BASE marks the soname node */
};

struct vdso_section {
	const char *name;
	uint32_t type;			/* SHT_* */
	uint64_t flags;			/* SHF_* */
	uint64_t addr, offset, size;
};

enum vdso_hash_table {
	VDSO_HASH_PREFERRED,		/* DT_GNU_HASH if present, else DT_HASH */
	VDSO_HASH_GNU,
	VDSO_HASH_SYSV,
};

/*
 * All functions returning int give 0 on success and -1 with a message in
 * err (if err is not NULL) on failure.  Strings returned point into buf,
 * which must outlive img.  A parsed image holds memory: vdso_image_free()
 * releases it, after vdso_image_parse() as after vdso_image_load().
 */
int vdso_image_parse(struct vdso_image *img, const void *buf, size_t len,
		     char *err, size_t errlen);
/* Reads the file at path into memory and parses that copy. */
int vdso_image_load(struct vdso_image *img, const char *path,
		    char *err, size_t errlen);
void vdso_image_free(struct vdso_image *img);

/*
 * Is the image one a guest can use as the kernel's build makes them?
 * Parsing proves only that the reader can walk it; this checks what the
 * guest's C library and the calls into the image rely on:
 *  - the program headers lie in the PT_LOAD, there is no PT_TLS, and
 *    PT_DYNAMIC's p_vaddr is where the PT_LOAD maps its p_offset;
 *  - relocation tables have their entry sizes (DT_RELAENT, DT_RELENT,
 *    DT_RELRENT; DT_PLTREL is DT_RELA) and are empty: nothing relocates
 *    a vDSO; no DT_TEXTREL, no DT_VERNEED;
 *  - DT_HASH and DT_GNU_HASH cover the same symbols;
 *  - version definitions have distinct indexes, the base one index 1;
 *  - every dynamic symbol has its name and version; every exported one
 *    (defined, not local) is visible and either the linker's version-node
 *    symbol (SHN_ABS, value 0, named as its version) or an STT_FUNC
 *    aligned to 4, a nonzero multiple of 4 bytes long, inside an
 *    executable section that is loaded where it lies in the file, and
 *    overlapping no other exported function (so section headers are
 *    needed: the kernel's build and objcopy -S keep them).
 */
int vdso_image_check_guest(const struct vdso_image *img, char *err, size_t errlen);

/*
 * The data layout the image expects (VDSO_LAYOUT_*, <vdso/datapage.h>),
 * from its notes: ppctime's layout note where it has one (ppctime's
 * images); else, Linux's own image, the release its version note says:
 * before 6.12 Linux 6.1's layout, from 6.17 on the datastore's.  Fails
 * for a layout note naming a layout this reader does not know, a Linux
 * release between (6.12 to 6.16: layouts ppctime does not write), or an
 * image with neither note.
 */
int vdso_image_layout(const struct vdso_image *img, int *layout,
		      char *err, size_t errlen);

/*
 * The 4-byte desc, in host byte order, of the first note called name of
 * that type in a PT_NOTE segment: 0, or -1 if there is none.
 */
int vdso_image_note_word(const struct vdso_image *img, const char *name,
			 uint32_t type, uint32_t *word);

/*
 * The kernel page size the image was built for, read from its code: the
 * image finds its data pages, the layout's nr_pages of them
 * (ppctime/vdso_layout.h), below itself, so each "bcl 20,31; mflr" address
 * computation in its executable sections that lands below the image lands
 * in one of them, the deepest (the time data, which every image reads) in
 * the first: between nr_pages - 1 and nr_pages pages below, which gives
 * the page size.  Fails unless there is such a computation and every
 * other one lands in a page the layout's code reads (so an image whose
 * code expects another layout than its note says is caught here too).
 * PT_LOAD's p_align says nothing here: the linker sets 64 KiB on powerpc
 * whatever the kernel's pages.
 */
int vdso_image_page_size(const struct vdso_image *img, int layout, uint64_t *page_size,
			 char *err, size_t errlen);

/* Does the image suit a target?  On EM_PPC64 also checks the ELF ABI
 * version: big-endian ppctime targets are ELFv1, little-endian ELFv2 (0,
 * "unspecified", is accepted as glibc does). */
int vdso_image_match(const struct vdso_image *img, int elf_class,
		     bool big_endian, uint16_t machine, char *err, size_t errlen);

/* The value (offset from the image base) of the defined global function
 * name at version (NULL: any version), found through the hash tables. */
int vdso_image_lookup(const struct vdso_image *img, const char *name,
		      const char *version, uint64_t *value,
		      char *err, size_t errlen);
int vdso_image_lookup_in(const struct vdso_image *img,
			 enum vdso_hash_table table, const char *name,
			 const char *version, uint64_t *value,
			 char *err, size_t errlen);

/* Symbol index of a table: 0 <= index < vdso_image_symbol_count(). */
size_t vdso_image_symbol_count(const struct vdso_image *img,
			       enum vdso_symtab_kind kind);
int vdso_image_symbol(const struct vdso_image *img, enum vdso_symtab_kind kind,
		      size_t index, struct vdso_symbol *sym,
		      char *err, size_t errlen);

/* Version definition index: 0 <= index < img->verdef_count. */
int vdso_image_verdef(const struct vdso_image *img, size_t index,
		      struct vdso_verdef *def, char *err, size_t errlen);

/* Section header index: 0 <= index < img->shnum. */
int vdso_image_section(const struct vdso_image *img, size_t index,
		       struct vdso_section *sec, char *err, size_t errlen);

/* The bytes [offset, offset + size) of the file if they lie in the PT_LOAD
 * segment, or NULL: what the dynamic section points at must be there at
 * run time. */
const unsigned char *vdso_image_bytes(const struct vdso_image *img, uint64_t offset,
				      uint64_t size);

/* The 32-bit word (an instruction) at vaddr inside the loaded segment,
 * in host byte order. */
int vdso_image_read_u32(const struct vdso_image *img, uint64_t vaddr,
			uint32_t *word);

/* An address range [start, end) of the image: a function or a section. */
struct vdso_range {
	uint64_t start, end;
	const char *name;
};

/* Sorts ranges by start, then end. */
void vdso_sort_ranges(struct vdso_range *ranges, size_t count);

/* The executable sections, sorted and disjoint, each loaded where it lies
 * in the file: where calls may land.  The caller frees *code. */
int vdso_image_code(const struct vdso_image *img, struct vdso_range **code,
		    size_t *count, char *err, size_t errlen);

#endif /* VDSO_IMAGE_H */
