// SPDX-License-Identifier: GPL-2.0
/*
 * vdso_image: load and parse a vDSO image, its ELF header, program
 * headers and section headers (the dynamic section: vdso_dynamic.c), and
 * read its sections, bytes and code ranges.  See vdso_image.h.  Every
 * offset or count read from the file is checked against what it points
 * into (elf_file.h) before anything is read through it.
 */
#include "vdso_image_internal.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ppctime/fail.h"

/* Large enough for any vDSO, small enough that a wrong path is caught. */
#define VDSO_IMAGE_MAX_SIZE (64u << 20)

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
	    vdso_dynamic_parse(img, err, errlen) ||
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
