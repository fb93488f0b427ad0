// SPDX-License-Identifier: GPL-2.0
/*
 * ppctime-loader: the part of exec a QEMU user-mode guest does not get.
 * Built as a static powerpc program per target; ppctime-run starts it as
 *
 *	qemu-ppcXX [-L SYSROOT] ppctime-loader DATA_FD PAGE_SIZE IMAGE_FD PROGRAM_FD
 *		PROGRAM [ARGS...]
 *
 * and it does inside the guest what Linux does at exec: maps the vDSO data
 * pages (DATA_FD, shared, read-only) with the image (IMAGE_FD) right above
 * them, maps PROGRAM (open as PROGRAM_FD, so no -L prefix applies to it, as
 * with plain QEMU) and its interpreter, builds PROGRAM's initial stack
 * from the one QEMU built for the loader, with AT_SYSINFO_EHDR added, and
 * jumps to the entry point in the register state the kernel would give.
 * Any failure: a message on stderr and exit status 127.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vdso/datapage.h"

extern const char __executable_start[];	/* from the linker */

#define LOADER_FAILED	127
/* argv[FIRST_ARG] is PROGRAM, its argv[0]. */
#define FIRST_ARG	5
#define MAX_PHNUM	256
/* The program's stack starts this far below the loader's live frames. */
#define STACK_GAP	(64 * 1024)

#if defined(__powerpc64__)
#define ELF_MACHINE	EM_PPC64
#else
#define ELF_MACHINE	EM_PPC
#endif
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ELF_BYTE_ORDER	ELFDATA2LSB
#else
#define ELF_BYTE_ORDER	ELFDATA2MSB
#endif

/* Errors go straight to stderr with write(): no stdio buffers, no malloc,
 * so the program's heap starts where QEMU put the break. */
static void __attribute__((noreturn, format(printf, 1, 2)))
fail(const char *fmt, ...)
{
	char msg[PATH_MAX + 256];
	int len = snprintf(msg, sizeof(msg), "ppctime-run: ");
	va_list ap;

	va_start(ap, fmt);
	len += vsnprintf(msg + len, sizeof(msg) - len, fmt, ap);
	va_end(ap);
	if (len > (int)sizeof(msg) - 2)
		len = sizeof(msg) - 2;
	msg[len++] = '\n';
	if (write(STDERR_FILENO, msg, len) < 0)
		_exit(LOADER_FAILED);
	_exit(LOADER_FAILED);
}

static unsigned long page_down(unsigned long addr, unsigned long page)
{
	return addr & ~(page - 1);
}

static unsigned long page_up(unsigned long addr, unsigned long page)
{
	return (addr + page - 1) & ~(page - 1);
}

static unsigned long parse_number(const char *arg, const char *what)
{
	char *end;
	unsigned long value;

	errno = 0;
	value = strtoul(arg, &end, 0);
	if (errno || end == arg || *end)
		fail("loader: bad %s '%s'", what, arg);
	return value;
}

static void read_at(int fd, void *buf, size_t len, off_t offset, const char *path)
{
	ssize_t got = pread(fd, buf, len, offset);

	if (got < 0)
		fail("cannot read %s: %s", path, strerror(errno));
	if ((size_t)got != len)
		fail("%s: truncated (%zu bytes at offset %lld are missing)",
		     path, len - (size_t)got, (long long)offset + got);
}

/* Reserve LEN bytes aligned to ALIGN anywhere the system likes. */
static unsigned long reserve_anywhere(unsigned long len, unsigned long align, const char *what)
{
	char *area = mmap(NULL, len + align, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned long start, aligned;

	if (area == MAP_FAILED)
		fail("no room for %s (%lu bytes): %s", what, len, strerror(errno));
	start = (unsigned long)area;
	aligned = page_up(start, align);
	if (aligned > start)
		munmap(area, aligned - start);
	if (start + align > aligned)
		munmap((void *)(aligned + len), start + align - aligned);
	return aligned;
}

/* Map the whole of [ADDR, ADDR + LEN) or fail: QEMU 7.2 takes
 * MAP_FIXED_NOREPLACE as a hint, so the address returned is compared. */
static void reserve_at(unsigned long addr, unsigned long len, const char *what)
{
	void *area = mmap((void *)addr, len, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	if (area == MAP_FAILED)
		fail("cannot map %s at %#lx-%#lx: %s", what, addr, addr + len,
		     strerror(errno));
	if ((unsigned long)area != addr) {
		munmap(area, len);
		fail("cannot map %s at %#lx-%#lx: the range is in use "
		     "(the loader starts at %p)", what, addr, addr + len,
		     (void *)__executable_start);
	}
}

static void map_fixed(unsigned long addr, unsigned long len, int prot, int flags,
		      int fd, off_t offset, const char *what)
{
	void *area = mmap((void *)addr, len, prot, flags | MAP_FIXED, fd, offset);

	if (area == MAP_FAILED)
		fail("cannot map %s at %#lx: %s", what, addr, strerror(errno));
}

static int segment_prot(const ElfW(Phdr) *ph)
{
	return (ph->p_flags & PF_R ? PROT_READ : 0) |
	       (ph->p_flags & PF_W ? PROT_WRITE : 0) |
	       (ph->p_flags & PF_X ? PROT_EXEC : 0);
}

/* An ELF object mapped into memory: what the auxiliary vector and the
 * jump need to know about it. */
struct loaded_object {
	unsigned long bias;	/* load address minus link address */
	unsigned long entry;	/* e_entry + bias */
	unsigned long phdr;	/* where the program headers are in memory */
	unsigned long phnum;
	bool elfv2;		/* e_flags says ABI version 2 */
	char interp[PATH_MAX];	/* PT_INTERP, or "" */
};

static void check_elf_header(const ElfW(Ehdr) *eh, const char *path)
{
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG))
		fail("%s: not an ELF file", path);
	if (eh->e_ident[EI_CLASS] != (sizeof(long) == 8 ? ELFCLASS64 : ELFCLASS32) ||
	    eh->e_ident[EI_DATA] != ELF_BYTE_ORDER || eh->e_machine != ELF_MACHINE)
		fail("%s: ELF class, byte order or machine differs from the loader's",
		     path);
	if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN)
		fail("%s: not an executable or shared object (e_type %u)", path,
		     eh->e_type);
	if (eh->e_phentsize != sizeof(ElfW(Phdr)) || eh->e_phnum == 0 ||
	    eh->e_phnum > MAX_PHNUM)
		fail("%s: bad program header table (%u entries of %u bytes)", path,
		     eh->e_phnum, eh->e_phentsize);
}

/* Map the PT_LOAD segments of PATH, open as FD, as the kernel's
 * load_elf_binary does: ET_EXEC at its link addresses, ET_DYN wherever the
 * system puts it.  Closes FD. */
static void load_object(int fd, const char *path, unsigned long page,
			struct loaded_object *obj)
{
	ElfW(Ehdr) eh;
	ElfW(Phdr) phdrs[MAX_PHNUM];
	unsigned long lo = ULONG_MAX, hi = 0, align = page;

	read_at(fd, &eh, sizeof(eh), 0, path);
	check_elf_header(&eh, path);
	read_at(fd, phdrs, eh.e_phnum * sizeof(phdrs[0]), eh.e_phoff, path);

	obj->interp[0] = '\0';
	obj->phdr = 0;
	for (int i = 0; i < eh.e_phnum; i++) {
		const ElfW(Phdr) *ph = &phdrs[i];

		if (ph->p_type == PT_INTERP) {
			if (ph->p_filesz < 2 || ph->p_filesz > sizeof(obj->interp))
				fail("%s: bad PT_INTERP", path);
			read_at(fd, obj->interp, ph->p_filesz, ph->p_offset, path);
			if (obj->interp[ph->p_filesz - 1] != '\0')
				fail("%s: PT_INTERP is not a string", path);
		}
		if (ph->p_type != PT_LOAD || ph->p_memsz == 0)
			continue;
		if ((ph->p_vaddr - ph->p_offset) % page || ph->p_filesz > ph->p_memsz)
			fail("%s: PT_LOAD at %#lx cannot be mapped with %lu-byte pages",
			     path, (unsigned long)ph->p_vaddr, page);
		if (ph->p_vaddr < lo)
			lo = ph->p_vaddr;
		if (ph->p_vaddr + ph->p_memsz > hi)
			hi = ph->p_vaddr + ph->p_memsz;
		if (ph->p_align > align)
			align = ph->p_align;
	}
	if (hi == 0)
		fail("%s: no loadable segment", path);
	lo = page_down(lo, page);
	hi = page_up(hi, page);
	if (eh.e_type == ET_EXEC) {
		reserve_at(lo, hi - lo, path);
		obj->bias = 0;
	} else {
		obj->bias = reserve_anywhere(hi - lo, align, path) - lo;
	}

	for (int i = 0; i < eh.e_phnum; i++) {
		const ElfW(Phdr) *ph = &phdrs[i];
		unsigned long start, file_end, mem_end;

		if (ph->p_type == PT_PHDR)
			obj->phdr = obj->bias + ph->p_vaddr;
		if (ph->p_type != PT_LOAD || ph->p_memsz == 0)
			continue;
		start = page_down(obj->bias + ph->p_vaddr, page);
		file_end = obj->bias + ph->p_vaddr + ph->p_filesz;
		mem_end = page_up(obj->bias + ph->p_vaddr + ph->p_memsz, page);
		if (ph->p_filesz)
			map_fixed(start, file_end - start, segment_prot(ph), MAP_PRIVATE,
				  fd, page_down(ph->p_offset, page), path);
		/* .bss: the rest of the last file page, then anonymous pages. */
		if (ph->p_memsz > ph->p_filesz && (ph->p_flags & PF_W) &&
		    page_up(file_end, page) > file_end)
			memset((void *)file_end, 0, page_up(file_end, page) - file_end);
		if (mem_end > page_up(file_end, page))
			map_fixed(page_up(file_end, page), mem_end - page_up(file_end, page),
				  segment_prot(ph), MAP_PRIVATE | MAP_ANONYMOUS, -1, 0, path);
		/* Without PT_PHDR the headers are wherever the file has them. */
		if (!obj->phdr && eh.e_phoff >= ph->p_offset &&
		    eh.e_phoff + eh.e_phnum * sizeof(ElfW(Phdr)) <= ph->p_offset + ph->p_filesz)
			obj->phdr = obj->bias + ph->p_vaddr + (eh.e_phoff - ph->p_offset);
	}
	if (!obj->phdr)
		fail("%s: its program headers are not in a loaded segment", path);
	obj->phnum = eh.e_phnum;
	obj->entry = obj->bias + eh.e_entry;
	obj->elfv2 = (eh.e_flags & EF_PPC64_ABI) == 2;
	close(fd);
}

/* [VDSO_NR_PAGES data pages][image], together at an address the system
 * picks, as the kernel's vdso setup maps them; returns the image address. */
static unsigned long map_vdso(int data_fd, unsigned long page, int image_fd)
{
	const char *image = "the vDSO image";
	unsigned long data_len = VDSO_NR_PAGES * page, image_len, base;
	struct stat st;

	if (fstat(image_fd, &st) < 0)
		fail("loader: vDSO image descriptor %d: %s", image_fd, strerror(errno));
	image_len = page_up(st.st_size, page);
	base = reserve_anywhere(data_len + image_len, page, image);
	map_fixed(base, data_len, PROT_READ, MAP_SHARED, data_fd, 0, "the vDSO data pages");
	map_fixed(base + data_len, image_len, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0, image);
	read_at(image_fd, (void *)(base + data_len), st.st_size, 0, image);
	if (mprotect((void *)(base + data_len), image_len, PROT_READ | PROT_EXEC) < 0)
		fail("cannot make the vDSO image executable: %s", strerror(errno));
	close(data_fd);
	close(image_fd);
	return base + data_len;
}

static int replaced_by_loader(unsigned long type)
{
	switch (type) {
	case AT_PHDR: case AT_PHENT: case AT_PHNUM: case AT_ENTRY:
	case AT_BASE: case AT_EXECFN: case AT_SYSINFO_EHDR:
		return 1;
	}
	return 0;
}

/*
 * Enter PROGRAM (or its interpreter) with SP pointing at argc and every
 * other register as Linux's start_thread() leaves it: zero, except on
 * ppc64 r12 = entry for ELFv2 and r2 = the TOC from the entry's descriptor
 * for ELFv1, PROGRAM's header saying which, as the kernel reads it.
 */
static void __attribute__((noreturn))
enter(unsigned long *sp, unsigned long entry, unsigned long bias, bool elfv2)
{
	register unsigned long new_sp asm("r14") = (unsigned long)sp;
	register unsigned long code asm("r15") = entry;
#ifdef __powerpc64__
	register unsigned long toc asm("r16") = 0;
	register unsigned long r12 asm("r17") = entry;

	/* ELFv1: ENTRY is a function descriptor; like the kernel, add the
	 * bias since nothing has relocated the descriptor yet. */
	if (!elfv2) {
		code = ((unsigned long *)entry)[0] + bias;
		toc = ((unsigned long *)entry)[1] + bias;
		r12 = 0;
	}
	asm volatile("mr 1,14\n\tmr 2,16\n\tmr 12,17\n\tmtctr 15\n\t"
		     ".irp r,0,3,4,5,6,7,8,9,10,11,13,14,15,16,17,18,19,20,"
		     "21,22,23,24,25,26,27,28,29,30,31\n\tli \\r,0\n\t.endr\n\t"
		     "mtlr 0\n\tbctr"
		     : : "r"(new_sp), "r"(code), "r"(toc), "r"(r12) : "memory");
#else
	(void)bias;
	(void)elfv2;
	asm volatile("mr 1,14\n\tmtctr 15\n\t"
		     ".irp r,0,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,"
		     "21,22,23,24,25,26,27,28,29,30,31\n\tli \\r,0\n\t.endr\n\t"
		     "mtlr 0\n\tbctr"
		     : : "r"(new_sp), "r"(code) : "memory");
#endif
	__builtin_unreachable();
}

int main(int argc, char **argv, char **envp)
{
	struct loaded_object program, interp;
	const struct loaded_object *entered = &program;
	unsigned long page = 0, data_page, vdso, words, *sp, *out;
	ElfW(auxv_t) *auxv;
	char **env_end;
	size_t nauxv;

	if (argc < FIRST_ARG + 1)
		fail("loader: usage: ppctime-loader DATA_FD PAGE_SIZE IMAGE_FD PROGRAM_FD "
		     "PROGRAM [ARGS...] (started by ppctime-run, not by hand)");
	for (env_end = envp; *env_end; env_end++)
		;
	auxv = (ElfW(auxv_t) *)(env_end + 1);
	for (nauxv = 0; auxv[nauxv].a_type != AT_NULL; nauxv++)
		if (auxv[nauxv].a_type == AT_PAGESZ)
			page = auxv[nauxv].a_un.a_val;
	if (!page || page & (page - 1))
		fail("loader: QEMU gave no usable AT_PAGESZ");

	/* The kernel's order: program, interpreter, vDSO. */
	load_object(parse_number(argv[4], "program descriptor"), argv[FIRST_ARG], page,
		    &program);
	if (program.interp[0]) {
		/* Through QEMU's -L prefix, as the kernel's open would be. */
		int fd = open(program.interp, O_RDONLY | O_CLOEXEC);

		if (fd < 0)
			fail("cannot open %s: %s", program.interp, strerror(errno));
		load_object(fd, program.interp, page, &interp);
		if (interp.interp[0])
			fail("%s: the interpreter %s has an interpreter itself",
			     argv[FIRST_ARG], program.interp);
		entered = &interp;
	}
	data_page = parse_number(argv[2], "page size");
	if (!data_page || data_page & (data_page - 1) || data_page < page)
		fail("loader: page size %lu is not a power of two >= %lu", data_page, page);
	vdso = map_vdso(parse_number(argv[1], "data descriptor"), data_page,
			parse_number(argv[3], "image descriptor"));

	/* argc, argv[FIRST_ARG..], NULL, envp, NULL, auxv (ours first), AT_NULL. */
	words = 1 + (argc - FIRST_ARG + 1) + (env_end - envp + 1) + 2 * (nauxv + 7 + 1);
	sp = (unsigned long *)(((unsigned long)__builtin_frame_address(0) - STACK_GAP -
				words * sizeof(long)) & ~15UL);
	out = sp;
	*out++ = argc - FIRST_ARG;
	for (int i = FIRST_ARG; i <= argc; i++)
		*out++ = (unsigned long)argv[i];
	for (char **e = envp; e <= env_end; e++)
		*out++ = (unsigned long)*e;
#define AUX(type, value) (out[0] = (type), out[1] = (value), out += 2)
	AUX(AT_SYSINFO_EHDR, vdso);
	AUX(AT_PHDR, program.phdr);
	AUX(AT_PHENT, sizeof(ElfW(Phdr)));
	AUX(AT_PHNUM, program.phnum);
	AUX(AT_BASE, program.interp[0] ? interp.bias : 0);
	AUX(AT_ENTRY, program.entry);
	AUX(AT_EXECFN, (unsigned long)argv[FIRST_ARG]);
	for (size_t i = 0; i < nauxv; i++)
		if (!replaced_by_loader(auxv[i].a_type))
			AUX(auxv[i].a_type, auxv[i].a_un.a_val);
	AUX(AT_NULL, 0);
#undef AUX
	enter(sp, entered->entry, entered->bias, program.elfv2);
}
