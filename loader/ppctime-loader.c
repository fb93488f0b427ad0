// SPDX-License-Identifier: GPL-2.0
/*
 * ppctime-loader: the part of exec a QEMU user-mode guest does not get.
 * Built as a static powerpc program per target; ppctime-run has QEMU run
 * it in PROGRAM's place (ppctime/launch_protocol.h): QEMU was started as for
 * PROGRAM itself, with PROGRAM's argv, AT_EXECFN and /proc/self/exe, and
 * loaded this loader instead, which finds its arguments in LAUNCH_ENV,
 *
 *	PPCTIME_LAUNCH=DATA_FD,DATA_PAGES,PAGE_SIZE,IMAGE_FD,PROGRAM_FD
 *
 * and does inside the guest what Linux does at exec: maps the vDSO's
 * DATA_PAGES data pages (from DATA_FD, shared, read-only) with the image
 * (IMAGE_FD) right above them, maps PROGRAM (open as PROGRAM_FD, so no -L prefix applies to it, as
 * with plain QEMU) and its interpreter, builds PROGRAM's initial stack
 * from the one QEMU built, argv and AT_EXECFN untouched, LAUNCH_ENV left
 * out and AT_SYSINFO_EHDR added, and jumps to the entry point in the
 * register state the kernel would give.
 * Any failure: a message on stderr and a LAUNCH_EXIT_* status.
 *
 * Freestanding, with no C library: its own _start, system calls through
 * sc (both in the target's arch-*.h), its own message formatting,
 * no heap.  So the guest runs no start-up code but PROGRAM's, makes no
 * system call the job does not need, and PROGRAM's break is where QEMU
 * put it.
 */
#include <elf.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <asm/errno.h>
#include <asm/unistd.h>
#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/limits.h>
#include <linux/mman.h>

#include "ppctime/launch_protocol.h"

extern const char __executable_start[];	/* from the linker */

#define MAX_PHNUM	256
/* The program's stack starts this far below the loader's live frames. */
#define STACK_GAP	(64 * 1024)
#define STDERR_FD	2

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ELF_BYTE_ORDER	ELFDATA2LSB
#else
#define ELF_BYTE_ORDER	ELFDATA2MSB
#endif

void __attribute__((noreturn)) loader_main(unsigned long *sp);

/*
 * The target's own part, each in its header: ElfW(), ELF_CLASS and
 * ELF_MACHINE; the entry point _start, which QEMU, as Linux at exec,
 * enters with r1 pointing at argc, argv..., NULL, envp..., NULL, auxv, and
 * which calls loader_main(that r1) on an aligned minimal frame with a null
 * back chain; syscall6(); the system calls whose arguments differ by word
 * size, sys_pread() and sys_mmap(); and enter(SP, ENTRY, BIAS, ELFV2),
 * which enters PROGRAM (or its interpreter) at ENTRY with r1 = SP and the
 * other registers as Linux's start_thread() leaves them.
 */
#if defined(__powerpc64__)
#include "arch-ppc64.h"
#elif defined(__powerpc__)
#include "arch-ppc32.h"
#else
#error "ppctime-loader runs on powerpc only"
#endif

/* Whether a system call's RESULT is -errno.  Nothing else the loader gets
 * back lies within -4095..-1: addresses are page-aligned, counts small. */
static bool failed(long result)
{
	return (unsigned long)result >= -4095UL;
}

static long sys_open(const char *path, int flags)
{
	return syscall6(__NR_openat, AT_FDCWD, (long)path, flags, 0, 0, 0);
}

static void sys_close(int fd)
{
	syscall6(__NR_close, fd, 0, 0, 0, 0, 0);
}

static long sys_file_size(int fd)
{
	return syscall6(__NR_lseek, fd, 0, SEEK_END, 0, 0, 0);
}

static void sys_munmap(unsigned long addr, unsigned long len)
{
	syscall6(__NR_munmap, addr, len, 0, 0, 0, 0);
}

static long sys_mprotect(unsigned long addr, unsigned long len, int prot)
{
	return syscall6(__NR_mprotect, addr, len, prot, 0, 0, 0);
}

static void __attribute__((noreturn)) sys_exit(int status)
{
	syscall6(__NR_exit_group, status, 0, 0, 0, 0, 0);
	__builtin_unreachable();
}

/* strerror's words for what the loader's system calls can fail with. */
static const char *error_text(long error)
{
	static const struct {
		int number;
		const char *text;
	} texts[] = {
		{ EPERM, "Operation not permitted" },
		{ ENOENT, "No such file or directory" },
		{ EIO, "Input/output error" },
		{ EBADF, "Bad file descriptor" },
		{ ENOMEM, "Cannot allocate memory" },
		{ EACCES, "Permission denied" },
		{ EEXIST, "File exists" },
		{ ENODEV, "No such device" },
		{ ENOTDIR, "Not a directory" },
		{ EISDIR, "Is a directory" },
		{ EINVAL, "Invalid argument" },
		{ EMFILE, "Too many open files" },
		{ ESPIPE, "Illegal seek" },
		{ ENAMETOOLONG, "File name too long" },
		{ ELOOP, "Too many levels of symbolic links" },
	};

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		if (texts[i].number == error)
			return texts[i].text;
	return "Unknown error";
}

/* A message being put together, cut short at the end of buf. */
struct text {
	char buf[PATH_MAX + 256];
	size_t len;
};

static void put_char(struct text *t, char c)
{
	if (t->len < sizeof(t->buf))
		t->buf[t->len++] = c;
}

static void put_string(struct text *t, const char *s)
{
	while (*s)
		put_char(t, *s++);
}

static void put_number(struct text *t, unsigned long value, unsigned base)
{
	char digits[3 * sizeof(value)];
	int n = 0;

	do
		digits[n++] = "0123456789abcdef"[value % base];
	while (value /= base);
	while (n)
		put_char(t, digits[--n]);
}

/* The printf subset the messages use: %s, %d, %u and %x, the last two
 * with l, and %#x with 0x. */
static void put_format(struct text *t, const char *fmt, va_list ap)
{
	for (; *fmt; fmt++) {
		bool alternate = false, is_long = false;
		unsigned long value;
		long number;

		if (*fmt != '%') {
			put_char(t, *fmt);
			continue;
		}
		if (*++fmt == '#')
			alternate = true, fmt++;
		if (*fmt == 'l')
			is_long = true, fmt++;
		switch (*fmt) {
		case 's':
			put_string(t, va_arg(ap, const char *));
			break;
		case 'd':
			number = va_arg(ap, int);
			if (number < 0)
				put_char(t, '-');
			put_number(t, number < 0 ? 0UL - number : (unsigned long)number, 10);
			break;
		case 'u':
		case 'x':
			value = is_long ? va_arg(ap, unsigned long) : va_arg(ap, unsigned);
			if (alternate)
				put_string(t, "0x");
			put_number(t, value, *fmt == 'u' ? 10 : 16);
			break;
		default:
			put_char(t, *fmt);
			break;
		}
	}
}

/* Errors go straight to stderr, in one write. */
static void __attribute__((noreturn, format(printf, 2, 3)))
fail(int status, const char *fmt, ...)
{
	struct text msg;
	va_list ap;

	msg.len = 0;
	put_string(&msg, "ppctime-run: ");
	va_start(ap, fmt);
	put_format(&msg, fmt, ap);
	va_end(ap);
	if (msg.len == sizeof(msg.buf))
		msg.len--;
	msg.buf[msg.len++] = '\n';
	syscall6(__NR_write, STDERR_FD, (long)msg.buf, msg.len, 0, 0, 0);
	sys_exit(status);
}

static unsigned long page_down(unsigned long addr, unsigned long page)
{
	return addr & ~(page - 1);
}

static unsigned long page_up(unsigned long addr, unsigned long page)
{
	return (addr + page - 1) & ~(page - 1);
}

/* The fields of LAUNCH_ENV's value ARG, in decimal, into ARGS. */
static void parse_launch(const char *arg, unsigned long args[LAUNCH_NR_ARGS])
{
	static const char *const names[] = {
#define LAUNCH_ARG_WHAT(name, what) #name,
		LAUNCH_ARGS(LAUNCH_ARG_WHAT)
#undef LAUNCH_ARG_WHAT
	};
	const char *p = arg;

	for (int i = 0; i < LAUNCH_NR_ARGS; i++) {
		const char *start = p;

		args[i] = 0;
		for (; *p >= '0' && *p <= '9'; p++) {
			if (args[i] > (ULONG_MAX - (*p - '0')) / 10)
				break;
			args[i] = args[i] * 10 + (*p - '0');
		}
		if (p == start || *p != (i + 1 < LAUNCH_NR_ARGS ? ',' : '\0'))
			fail(LAUNCH_EXIT_ERROR, "loader: bad %s in " LAUNCH_ENV "='%s'",
			     names[i], arg);
		p++;
	}
}

/* Whether the environment string ENTRY is LAUNCH_ENV's; its value in *VALUE. */
static bool is_launch_env(const char *entry, const char **value)
{
	const char *name = LAUNCH_ENV "=";

	for (; *name; name++, entry++)
		if (*entry != *name)
			return false;
	*value = entry;
	return true;
}

/* Each helper below fails with STATUS, naming WHAT or PATH. */
static void read_at(int fd, void *buf, unsigned long len, unsigned long offset,
		    const char *path, int status)
{
	long got = sys_pread(fd, buf, len, offset);

	if (failed(got))
		fail(status, "cannot read %s: %s", path, error_text(-got));
	if ((unsigned long)got != len)
		fail(status, "%s: truncated (%lu bytes at offset %lu are missing)",
		     path, len - got, offset + got);
}

/* Reserve LEN bytes aligned to ALIGN anywhere the system likes. */
static unsigned long reserve_anywhere(unsigned long len, unsigned long align,
				      const char *what, int status)
{
	long area = sys_mmap(0, len + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned long start, aligned;

	if (failed(area))
		fail(status, "no room for %s (%lu bytes): %s", what, len, error_text(-area));
	start = area;
	aligned = page_up(start, align);
	if (aligned > start)
		sys_munmap(start, aligned - start);
	if (start + align > aligned)
		sys_munmap(aligned + len, start + align - aligned);
	return aligned;
}

/* Map the whole of [ADDR, ADDR + LEN) for PROGRAM or its interpreter, or
 * fail: QEMU 7.2 takes MAP_FIXED_NOREPLACE as a hint, so the address
 * returned is compared. */
static void reserve_at(unsigned long addr, unsigned long len, const char *path)
{
	long area = sys_mmap(addr, len, PROT_NONE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	if (failed(area))
		fail(LAUNCH_EXIT_CANNOT_EXECUTE, "cannot map %s at %#lx-%#lx: %s",
		     path, addr, addr + len, error_text(-area));
	if ((unsigned long)area != addr) {
		sys_munmap(area, len);
		fail(LAUNCH_EXIT_CANNOT_EXECUTE, "cannot map %s at %#lx-%#lx: the range "
		     "is in use (the loader starts at %#lx)", path, addr, addr + len,
		     (unsigned long)__executable_start);
	}
}

static void map_fixed(unsigned long addr, unsigned long len, int prot, int flags,
		      int fd, unsigned long offset, const char *what, int status)
{
	long area = sys_mmap(addr, len, prot, flags | MAP_FIXED, fd, offset);

	if (failed(area))
		fail(status, "cannot map %s at %#lx: %s", what, addr, error_text(-area));
}

/* The loader's memset, for the .bss tail of a file page. */
static void zero(unsigned long start, unsigned long end)
{
	for (char *p = (char *)start; p < (char *)end; p++)
		*p = 0;
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
	if (eh->e_ident[EI_MAG0] != ELFMAG0 || eh->e_ident[EI_MAG1] != ELFMAG1 ||
	    eh->e_ident[EI_MAG2] != ELFMAG2 || eh->e_ident[EI_MAG3] != ELFMAG3)
		fail(LAUNCH_EXIT_CANNOT_EXECUTE, "%s: not an ELF file", path);
	if (eh->e_ident[EI_CLASS] != ELF_CLASS ||
	    eh->e_ident[EI_DATA] != ELF_BYTE_ORDER || eh->e_machine != ELF_MACHINE)
		fail(LAUNCH_EXIT_CANNOT_EXECUTE,
		     "%s: ELF class, byte order or machine differs from the loader's", path);
	if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN)
		fail(LAUNCH_EXIT_CANNOT_EXECUTE,
		     "%s: not an executable or shared object (e_type %u)", path, eh->e_type);
	if (eh->e_phentsize != sizeof(ElfW(Phdr)) || eh->e_phnum == 0 ||
	    eh->e_phnum > MAX_PHNUM)
		fail(LAUNCH_EXIT_CANNOT_EXECUTE,
		     "%s: bad program header table (%u entries of %u bytes)", path,
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

	read_at(fd, &eh, sizeof(eh), 0, path, LAUNCH_EXIT_CANNOT_EXECUTE);
	check_elf_header(&eh, path);
	read_at(fd, phdrs, eh.e_phnum * sizeof(phdrs[0]), eh.e_phoff, path,
		LAUNCH_EXIT_CANNOT_EXECUTE);

	obj->interp[0] = '\0';
	obj->phdr = 0;
	for (int i = 0; i < eh.e_phnum; i++) {
		const ElfW(Phdr) *ph = &phdrs[i];

		if (ph->p_type == PT_INTERP) {
			if (ph->p_filesz < 2 || ph->p_filesz > sizeof(obj->interp))
				fail(LAUNCH_EXIT_CANNOT_EXECUTE, "%s: bad PT_INTERP", path);
			read_at(fd, obj->interp, ph->p_filesz, ph->p_offset, path,
				LAUNCH_EXIT_CANNOT_EXECUTE);
			if (obj->interp[ph->p_filesz - 1] != '\0')
				fail(LAUNCH_EXIT_CANNOT_EXECUTE, "%s: PT_INTERP is not a string", path);
			/* A name no file has: the kernel's open fails with ENOENT. */
			if (!obj->interp[0])
				fail(LAUNCH_EXIT_NOT_FOUND,
				     "%s has an empty ELF interpreter (PT_INTERP)", path);
		}
		if (ph->p_type != PT_LOAD || ph->p_memsz == 0)
			continue;
		if ((ph->p_vaddr - ph->p_offset) % page || ph->p_filesz > ph->p_memsz)
			fail(LAUNCH_EXIT_CANNOT_EXECUTE, "%s: PT_LOAD at %#lx cannot be mapped with "
			     "%lu-byte pages",
			     path, (unsigned long)ph->p_vaddr, page);
		if (ph->p_vaddr < lo)
			lo = ph->p_vaddr;
		if (ph->p_vaddr + ph->p_memsz > hi)
			hi = ph->p_vaddr + ph->p_memsz;
		if (ph->p_align > align)
			align = ph->p_align;
	}
	if (hi == 0)
		fail(LAUNCH_EXIT_CANNOT_EXECUTE, "%s: no loadable segment", path);
	lo = page_down(lo, page);
	hi = page_up(hi, page);
	if (eh.e_type == ET_EXEC) {
		reserve_at(lo, hi - lo, path);
		obj->bias = 0;
	} else {
		obj->bias = reserve_anywhere(hi - lo, align, path, LAUNCH_EXIT_CANNOT_EXECUTE) - lo;
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
				  fd, page_down(ph->p_offset, page), path, LAUNCH_EXIT_CANNOT_EXECUTE);
		/* .bss: the rest of the last file page, then anonymous pages. */
		if (ph->p_memsz > ph->p_filesz && (ph->p_flags & PF_W) &&
		    page_up(file_end, page) > file_end)
			zero(file_end, page_up(file_end, page));
		if (mem_end > page_up(file_end, page))
			map_fixed(page_up(file_end, page), mem_end - page_up(file_end, page),
				  segment_prot(ph), MAP_PRIVATE | MAP_ANONYMOUS, -1, 0, path,
				  LAUNCH_EXIT_CANNOT_EXECUTE);
		/* Without PT_PHDR the headers are wherever the file has them. */
		if (!obj->phdr && eh.e_phoff >= ph->p_offset &&
		    eh.e_phoff + eh.e_phnum * sizeof(ElfW(Phdr)) <= ph->p_offset + ph->p_filesz)
			obj->phdr = obj->bias + ph->p_vaddr + (eh.e_phoff - ph->p_offset);
	}
	if (!obj->phdr)
		fail(LAUNCH_EXIT_CANNOT_EXECUTE,
		     "%s: its program headers are not in a loaded segment", path);
	obj->phnum = eh.e_phnum;
	obj->entry = obj->bias + eh.e_entry;
	obj->elfv2 = (eh.e_flags & EF_PPC64_ABI) == 2;
	sys_close(fd);
}

/* [data_pages data pages][image], together at an address the system
 * picks, as the kernel's vdso setup maps them, each data page from its
 * place in the data file (ppctime/launch_protocol.h); returns the image
 * address. */
static unsigned long map_vdso(int data_fd, unsigned long data_pages, unsigned long page,
			      int image_fd)
{
	const char *image = "the vDSO image";
	unsigned long data_len = data_pages * page, image_len, base;
	long size = sys_file_size(image_fd), error;

	if (failed(size))
		fail(LAUNCH_EXIT_ERROR, "loader: vDSO image descriptor %d: %s", image_fd,
		     error_text(-size));
	image_len = page_up(size, page);
	base = reserve_anywhere(data_len + image_len, page, image, LAUNCH_EXIT_ERROR);
	for (unsigned long k = 0; k < data_pages; k++)
		map_fixed(base + k * page, page, PROT_READ, MAP_SHARED, data_fd,
			  k * LAUNCH_DATA_STRIDE, "the vDSO data pages", LAUNCH_EXIT_ERROR);
	map_fixed(base + data_len, image_len, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0, image, LAUNCH_EXIT_ERROR);
	read_at(image_fd, (void *)(base + data_len), size, 0, image, LAUNCH_EXIT_ERROR);
	error = sys_mprotect(base + data_len, image_len, PROT_READ | PROT_EXEC);
	if (failed(error))
		fail(LAUNCH_EXIT_ERROR, "cannot make the vDSO image executable: %s",
		     error_text(-error));
	sys_close(data_fd);
	sys_close(image_fd);
	return base + data_len;
}

static int replaced_by_loader(unsigned long type)
{
	switch (type) {
	case AT_PHDR: case AT_PHENT: case AT_PHNUM: case AT_ENTRY:
	case AT_BASE: case AT_SYSINFO_EHDR:
		return 1;
	}
	return 0;
}

/* From _start: SP is where QEMU left r1, at argc. */
void loader_main(unsigned long *sp)
{
	long argc = sp[0];
	char **argv = (char **)(sp + 1), **envp = argv + argc + 1, **env_end, **launch_env = NULL;
	const char *program_path = NULL, *launch = NULL;
	struct loaded_object program, interp;
	const struct loaded_object *entered = &program;
	unsigned long page = 0, data_page, vdso, words, *out, args[LAUNCH_NR_ARGS];
	ElfW(auxv_t) *auxv;
	size_t nauxv;

	for (env_end = envp; *env_end; env_end++)
		if (!launch_env && is_launch_env(*env_end, &launch))
			launch_env = env_end;
	if (!launch_env)
		fail(LAUNCH_EXIT_ERROR, "loader: no " LAUNCH_ENV " in the environment "
		     "(started by ppctime-run, not by hand: " LAUNCH_ENV "=%s)",
		     LAUNCH_FIELDS + 1);
	parse_launch(launch, args);
	auxv = (ElfW(auxv_t) *)(env_end + 1);
	for (nauxv = 0; auxv[nauxv].a_type != AT_NULL; nauxv++) {
		if (auxv[nauxv].a_type == AT_PAGESZ)
			page = auxv[nauxv].a_un.a_val;
		/* QEMU's exec_path: PROGRAM as ppctime-run was given it. */
		if (auxv[nauxv].a_type == AT_EXECFN)
			program_path = (const char *)auxv[nauxv].a_un.a_val;
	}
	if (!page || page & (page - 1))
		fail(LAUNCH_EXIT_ERROR, "loader: QEMU gave no usable AT_PAGESZ");
	if (!program_path)
		program_path = argc ? argv[0] : "PROGRAM";

	/* The kernel's order: program, interpreter, vDSO. */
	load_object(args[LAUNCH_ARG_PROGRAM_FD], program_path, page, &program);
	if (program.interp[0]) {
		/* Through QEMU's -L prefix, as the kernel's open would be.  A
		 * FIFO there fails the first read (ESPIPE) instead of hanging
		 * the open; a regular file's reads ignore O_NONBLOCK. */
		long fd = sys_open(program.interp, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

		if (failed(fd))
			fail(fd == -ENOENT ? LAUNCH_EXIT_NOT_FOUND : LAUNCH_EXIT_CANNOT_EXECUTE,
			     "cannot open %s: %s", program.interp, error_text(-fd));
		load_object(fd, program.interp, page, &interp);
		if (interp.interp[0])
			fail(LAUNCH_EXIT_CANNOT_EXECUTE,
			     "%s: the interpreter %s has an interpreter itself",
			     program_path, program.interp);
		entered = &interp;
	}
	data_page = args[LAUNCH_ARG_PAGE_SIZE];
	if (!data_page || data_page & (data_page - 1) || data_page < page ||
	    data_page > LAUNCH_DATA_STRIDE)
		fail(LAUNCH_EXIT_ERROR, "loader: page size %lu is not a power of two from %lu to %lu",
		     data_page, page, LAUNCH_DATA_STRIDE);
	if (!args[LAUNCH_ARG_DATA_PAGES] || args[LAUNCH_ARG_DATA_PAGES] > LAUNCH_MAX_DATA_PAGES)
		fail(LAUNCH_EXIT_ERROR, "loader: %lu data pages: not 1 to %d",
		     args[LAUNCH_ARG_DATA_PAGES], LAUNCH_MAX_DATA_PAGES);
	vdso = map_vdso(args[LAUNCH_ARG_DATA_FD], args[LAUNCH_ARG_DATA_PAGES], data_page,
			args[LAUNCH_ARG_IMAGE_FD]);

	/* argc, argv, NULL, envp but LAUNCH_ENV, NULL, auxv (ours first),
	 * AT_NULL. */
	words = 1 + (argc + 1) + (env_end - envp) + 2 * (nauxv + 6 + 1);
	sp = (unsigned long *)(((unsigned long)__builtin_frame_address(0) - STACK_GAP -
				words * sizeof(long)) & ~15UL);
	out = sp;
	*out++ = argc;
	for (long i = 0; i <= argc; i++)
		*out++ = (unsigned long)argv[i];
	for (char **e = envp; e <= env_end; e++)
		if (e != launch_env)
			*out++ = (unsigned long)*e;
#define AUX(type, value) (out[0] = (type), out[1] = (value), out += 2)
	AUX(AT_SYSINFO_EHDR, vdso);
	AUX(AT_PHDR, program.phdr);
	AUX(AT_PHENT, sizeof(ElfW(Phdr)));
	AUX(AT_PHNUM, program.phnum);
	AUX(AT_BASE, program.interp[0] ? interp.bias : 0);
	AUX(AT_ENTRY, program.entry);
	for (size_t i = 0; i < nauxv; i++)
		if (!replaced_by_loader(auxv[i].a_type))
			AUX(auxv[i].a_type, auxv[i].a_un.a_val);
	AUX(AT_NULL, 0);
#undef AUX
	enter(sp, entered->entry, entered->bias, program.elfv2);
}
