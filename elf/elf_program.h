/* SPDX-License-Identifier: GPL-2.0 */
/*
 * elf_program: what ppctime-run reads of a program before running it, and
 * of the host programs whose dynamic linker it compares: the ELF header
 * and the interpreter (PT_INTERP).  A program may be huge, so they are
 * read piece by piece, the header, the program headers up to PT_INTERP
 * and its path, through a read function, and each piece is read with
 * elf_file's bounds checks.
 */
#ifndef ELF_PROGRAM_H
#define ELF_PROGRAM_H

#include <sys/types.h>

#include "elf_file.h"

/* Reads up to size bytes at offset of file into buf, as pread() does:
 * the number read, fewer only at the end of the file, or -1. */
typedef ssize_t elf_read_fn(void *file, void *buf, size_t size, uint64_t offset);

/* An elf_read_fn on the descriptor *fd: pread(). */
ssize_t elf_read_fd(void *fd, void *buf, size_t size, uint64_t offset);

/* The largest ELF header, ELFCLASS64's. */
#define ELF_HEADER_MAX sizeof(Elf64_Ehdr)

/*
 * Reads the ELF header of file into header, which f then holds
 * (elf_file_parse_header): 0, or -1 with a message in err (if not NULL).
 */
int elf_program_read_header(struct elf_file *f, unsigned char header[ELF_HEADER_MAX],
			    elf_read_fn *read_at, void *file, char *err, size_t errlen);

/*
 * The interpreter of file, whose header f holds: *interp malloc'd, or NULL
 * for none.  0, or -1 with a message in err (if not NULL).  Program header
 * entries of e_phentsize bytes from a program header of the file's class
 * to one of ELFCLASS64 are read; the guest loader and QEMU, which take
 * only the exact size, refuse the others with their own message.
 */
int elf_program_interpreter(const struct elf_file *f, elf_read_fn *read_at, void *file,
			    char **interp, char *err, size_t errlen);

#endif /* ELF_PROGRAM_H */
