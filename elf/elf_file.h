/* SPDX-License-Identifier: GPL-2.0 */
/*
 * elf_file: a bounds-checked reader of an ELF file's bytes held in memory,
 * of either class and byte order whatever the host's, without libelf.  It
 * trusts nothing in the file: an offset or count read from it is checked
 * against what it points into before anything is read through it, with
 * arithmetic that cannot overflow.  The bytes held are a whole file (a
 * vDSO image, vdso_image.h) or the part of one that was read (a program's
 * program headers, elf_program.h).
 */
#ifndef ELF_FILE_H
#define ELF_FILE_H

#include <elf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct elf_file {
	/* The bytes [buf_offset, buf_offset + len) of the file. */
	const unsigned char *buf;
	uint64_t buf_offset;
	size_t len;
	bool swap;			/* the file's byte order differs from the host's */

	/* The ELF header, its program header table as it says, unchecked:
	 * what a table must be differs between a vDSO and a program. */
	int elf_class;			/* 32 or 64 */
	bool big_endian;
	uint16_t type;			/* ET_EXEC, ET_DYN, ... */
	uint16_t machine;
	uint32_t flags;			/* e_flags: EF_PPC64_ABI on EM_PPC64 */
	uint64_t phoff;
	size_t phentsize, phnum;
};

/* A program header: a segment, where the file holds it and where it is
 * mapped. */
struct elf_segment {
	uint32_t type;			/* PT_* */
	uint32_t flags;			/* PF_R | PF_W | PF_X */
	uint64_t offset, vaddr, filesz, memsz;
};

/* A string table: file offset and size. */
struct elf_strtab {
	uint64_t offset;
	uint64_t size;
};

/* Is [offset, offset + size) inside [0, limit)? */
static inline bool elf_fits(uint64_t offset, uint64_t size, uint64_t limit)
{
	return offset <= limit && size <= limit - offset;
}

/* An unsigned field of 1, 2, 4 or 8 bytes at p, in the file's byte order. */
static inline uint64_t elf_get(const struct elf_file *f, const unsigned char *p,
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
		return f->swap ? __builtin_bswap16(u16) : u16;
	case 4:
		memcpy(&u32, p, 4);
		return f->swap ? __builtin_bswap32(u32) : u32;
	default:
		memcpy(&u64, p, 8);
		return f->swap ? __builtin_bswap64(u64) : u64;
	}
}

/* Field F of ELF structure Elf{32,64}_T at p, for the file's class. */
#define ELF_FIELD(f, p, T, F)						\
	((f)->elf_class == 64 ?						\
	 elf_get((f), (p) + offsetof(Elf64_##T, F), sizeof(((Elf64_##T *)0)->F)) : \
	 elf_get((f), (p) + offsetof(Elf32_##T, F), sizeof(((Elf32_##T *)0)->F)))
#define ELF_SIZEOF(f, T) \
	((f)->elf_class == 64 ? sizeof(Elf64_##T) : sizeof(Elf32_##T))

/*
 * Reads the ELF header at the start of the file's first len bytes, buf,
 * which f then holds: 0, or -1 with a message in err (if not NULL) unless
 * it is an ELF header of a known class, byte order and version, whole.
 */
int elf_file_parse_header(struct elf_file *f, const void *buf, size_t len,
			  char *err, size_t errlen);

/* The bytes [offset, offset + size) of the file if f holds them, or NULL. */
const unsigned char *elf_file_bytes(const struct elf_file *f, uint64_t offset,
				    uint64_t size);

/* Program header index (of e_phnum) if f holds all its e_phentsize bytes
 * and they are as many as a program header of its class has: 0, or -1. */
int elf_file_program_header(const struct elf_file *f, size_t index,
			    struct elf_segment *seg);

/* The bytes [offset, offset + size) of the file if they lie in the file
 * part of segment seg (and f holds them), or NULL. */
const unsigned char *elf_segment_bytes(const struct elf_file *f,
				       const struct elf_segment *seg,
				       uint64_t offset, uint64_t size);

/* The file offset of the size bytes at vaddr if they lie in the file part
 * of segment seg: 0, or -1. */
int elf_segment_offset(const struct elf_segment *seg, uint64_t vaddr,
		       uint64_t size, uint64_t *offset);

/* The NUL-terminated string index of a string table, NULL unless f holds
 * it whole. */
const char *elf_file_string(const struct elf_file *f, const struct elf_strtab *tab,
			    uint64_t index);

#endif /* ELF_FILE_H */
