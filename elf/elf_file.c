// SPDX-License-Identifier: GPL-2.0
/*
 * elf_file: the bytes of an ELF file held in memory, read with bounds
 * checks.  See elf_file.h.
 */
#include "elf_file.h"

#include <string.h>

#include "ppctime/fail.h"

int elf_file_parse_header(struct elf_file *f, const void *buf, size_t len,
			  char *err, size_t errlen)
{
	const unsigned char *e = buf;
	bool host_big_endian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;

	memset(f, 0, sizeof(*f));
	f->buf = buf;
	f->len = len;
	if (len < EI_NIDENT || memcmp(e, ELFMAG, SELFMAG))
		return fail(err, errlen, "not an ELF file");
	switch (e[EI_CLASS]) {
	case ELFCLASS32:
		f->elf_class = 32;
		break;
	case ELFCLASS64:
		f->elf_class = 64;
		break;
	default:
		return fail(err, errlen, "unknown ELF class %u", e[EI_CLASS]);
	}
	if (e[EI_DATA] != ELFDATA2LSB && e[EI_DATA] != ELFDATA2MSB)
		return fail(err, errlen, "unknown ELF byte order %u", e[EI_DATA]);
	f->big_endian = e[EI_DATA] == ELFDATA2MSB;
	f->swap = f->big_endian != host_big_endian;
	if (e[EI_VERSION] != EV_CURRENT)
		return fail(err, errlen, "unknown ELF version %u", e[EI_VERSION]);
	if (len < ELF_SIZEOF(f, Ehdr))
		return fail(err, errlen,
			    "truncated: the ELF header needs %zu bytes, the file has %zu",
			    ELF_SIZEOF(f, Ehdr), len);

	f->type = ELF_FIELD(f, e, Ehdr, e_type);
	f->machine = ELF_FIELD(f, e, Ehdr, e_machine);
	f->flags = ELF_FIELD(f, e, Ehdr, e_flags);
	f->phoff = ELF_FIELD(f, e, Ehdr, e_phoff);
	f->phentsize = ELF_FIELD(f, e, Ehdr, e_phentsize);
	f->phnum = ELF_FIELD(f, e, Ehdr, e_phnum);
	return 0;
}

const unsigned char *elf_file_bytes(const struct elf_file *f, uint64_t offset,
				    uint64_t size)
{
	if (offset < f->buf_offset || !elf_fits(offset - f->buf_offset, size, f->len))
		return NULL;
	return f->buf + (offset - f->buf_offset);
}

int elf_file_program_header(const struct elf_file *f, size_t index,
			    struct elf_segment *seg)
{
	/* e_phentsize and e_phnum are 16-bit: only phoff can overflow. */
	uint64_t at = (uint64_t)index * f->phentsize;
	const unsigned char *ph;

	if (index >= f->phnum || f->phentsize < ELF_SIZEOF(f, Phdr) ||
	    f->phoff > UINT64_MAX - at)
		return -1;
	ph = elf_file_bytes(f, f->phoff + at, f->phentsize);
	if (!ph)
		return -1;
	seg->type = ELF_FIELD(f, ph, Phdr, p_type);
	seg->flags = ELF_FIELD(f, ph, Phdr, p_flags);
	seg->offset = ELF_FIELD(f, ph, Phdr, p_offset);
	seg->vaddr = ELF_FIELD(f, ph, Phdr, p_vaddr);
	seg->filesz = ELF_FIELD(f, ph, Phdr, p_filesz);
	seg->memsz = ELF_FIELD(f, ph, Phdr, p_memsz);
	return 0;
}

const unsigned char *elf_segment_bytes(const struct elf_file *f,
				       const struct elf_segment *seg,
				       uint64_t offset, uint64_t size)
{
	if (offset < seg->offset || !elf_fits(offset - seg->offset, size, seg->filesz))
		return NULL;
	return elf_file_bytes(f, offset, size);
}

int elf_segment_offset(const struct elf_segment *seg, uint64_t vaddr,
		       uint64_t size, uint64_t *offset)
{
	if (vaddr < seg->vaddr || !elf_fits(vaddr - seg->vaddr, size, seg->filesz))
		return -1;
	*offset = seg->offset + (vaddr - seg->vaddr);
	return 0;
}

const char *elf_file_string(const struct elf_file *f, const struct elf_strtab *tab,
			    uint64_t index)
{
	const unsigned char *strings = elf_file_bytes(f, tab->offset, tab->size);
	const char *s;

	if (!strings || index >= tab->size)
		return NULL;
	s = (const char *)strings + index;
	return memchr(s, '\0', tab->size - index) ? s : NULL;
}
