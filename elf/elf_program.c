// SPDX-License-Identifier: GPL-2.0
/*
 * elf_program: a program's ELF header and interpreter, read piece by piece.
 * See elf_program.h.
 */
#include "elf_program.h"

#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "ppctime/fail.h"

/* Program headers read at a time: a program's few in one read. */
#define PHDR_CHUNK_ENTRIES 64

ssize_t elf_read_fd(void *fd, void *buf, size_t size, uint64_t offset)
{
	return pread(*(const int *)fd, buf, size, offset);
}

int elf_program_read_header(struct elf_file *f, unsigned char header[ELF_HEADER_MAX],
			    elf_read_fn *read_at, void *file, char *err, size_t errlen)
{
	ssize_t got = read_at(file, header, ELF_HEADER_MAX, 0);

	return elf_file_parse_header(f, header, got > 0 ? (size_t)got : 0, err, errlen);
}

/*
 * The path PT_INTERP segment seg names, into *interp: as the kernel's
 * exec reads it, a string of 2 bytes at least, so "" if it starts with a
 * NUL, a name no file has (exec's open of it fails with ENOENT).
 */
static int read_interpreter(const struct elf_segment *seg, elf_read_fn *read_at, void *file,
			    char **interp, char *err, size_t errlen)
{
	if (seg->filesz < 2 || seg->filesz >= PATH_MAX ||
	    !(*interp = calloc(1, seg->filesz + 1)))
		return fail(err, errlen, "bad program interpreter");
	if (read_at(file, *interp, seg->filesz, seg->offset) != (ssize_t)seg->filesz) {
		free(*interp);
		*interp = NULL;
		return fail(err, errlen, "truncated program interpreter");
	}
	return 0;
}

int elf_program_interpreter(const struct elf_file *f, elf_read_fn *read_at, void *file,
			    char **interp, char *err, size_t errlen)
{
	unsigned char chunk[PHDR_CHUNK_ENTRIES * sizeof(Elf64_Phdr)];
	struct elf_file table = *f;
	struct elf_segment seg;
	size_t per_chunk, n;
	ssize_t got;

	*interp = NULL;
	if (f->phentsize < ELF_SIZEOF(f, Phdr) || f->phentsize > sizeof(Elf64_Phdr))
		return fail(err, errlen, "bad program header size");
	per_chunk = sizeof(chunk) / f->phentsize;
	for (size_t first = 0; first < f->phnum; first += n) {
		n = f->phnum - first < per_chunk ? f->phnum - first : per_chunk;
		/* The bytes read from the first entry's offset on. */
		table.buf_offset = f->phoff + first * f->phentsize;
		got = read_at(file, chunk, n * f->phentsize, table.buf_offset);
		table.buf = chunk;
		table.len = got > 0 ? (size_t)got : 0;
		for (size_t i = first; i < first + n; i++) {
			if (elf_file_program_header(&table, i, &seg))
				return fail(err, errlen, "truncated program headers");
			if (seg.type == PT_INTERP)
				return read_interpreter(&seg, read_at, file, interp, err, errlen);
		}
	}
	return 0;
}
