// SPDX-License-Identifier: GPL-2.0
/* Mapping and entering a static PIE (userland_exec.h). */
#define _GNU_SOURCE
#include "userland_exec.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_file.h"
#include "fail.h"

#ifndef __x86_64__
#error "userland_exec enters x86-64 programs only"
#endif

/* The main thread's stack, as a thread's default: QEMU's guest stack is
 * its own, sized from RLIMIT_STACK. */
#define STACK_SIZE	(8UL << 20)

/* What the kernel puts in every vector and the new program may look at. */
static const unsigned long kept[] = {
	AT_SYSINFO_EHDR, AT_MINSIGSTKSZ, AT_HWCAP, AT_HWCAP2, AT_PAGESZ, AT_CLKTCK,
	AT_UID, AT_EUID, AT_GID, AT_EGID, AT_SECURE, AT_RANDOM, AT_PLATFORM,
};

#define ALIGN_DOWN(x, a)	((x) & ~((uint64_t)(a) - 1))
#define ALIGN_UP(x, a)		ALIGN_DOWN((x) + (a) - 1, a)

int userland_check(const struct elf_file *f, const char *path, char *err, size_t errlen)
{
	uint64_t page = sysconf(_SC_PAGESIZE);
	struct elf_segment seg;
	Elf64_Phdr first;

	if (f->elf_class != 64 || f->swap || f->machine != EM_X86_64 || f->type != ET_DYN ||
	    f->phentsize != sizeof(Elf64_Phdr))
		return fail(err, errlen, "%s: not an x86-64 static PIE", path);
	for (size_t i = 0; i < f->phnum; i++) {
		if (elf_file_program_header(f, i, &seg) < 0 ||
		    (seg.type == PT_LOAD && (!elf_fits(seg.offset, seg.filesz, f->len) ||
					     seg.filesz > seg.memsz ||
					     seg.vaddr % page != seg.offset % page)))
			return fail(err, errlen, "%s: program header %zu out of the file", path, i);
		if (seg.type == PT_INTERP)
			return fail(err, errlen, "%s: dynamically linked, not a static PIE", path);
	}
	/* The program finds its headers where AT_PHDR says: mapped with it. */
	if (!f->phnum || (first = userland_phdr(f, 0)).p_type != PT_LOAD || first.p_offset ||
	    first.p_vaddr || f->phoff + f->phnum * sizeof(Elf64_Phdr) > first.p_filesz)
		return fail(err, errlen, "%s: its program headers are not in its first segment",
			    path);
	return 0;
}

/* One PT_LOAD of fd at base: the file's part, then the bss. */
static int map_segment(int fd, unsigned char *base, const Elf64_Phdr *ph, uint64_t page)
{
	int prot = (ph->p_flags & PF_R ? PROT_READ : 0) | (ph->p_flags & PF_W ? PROT_WRITE : 0) |
		   (ph->p_flags & PF_X ? PROT_EXEC : 0);
	uint64_t start = ALIGN_DOWN(ph->p_vaddr, page), file_end = ph->p_vaddr + ph->p_filesz;
	uint64_t file_pages = ALIGN_UP(file_end, page), end = ALIGN_UP(ph->p_vaddr + ph->p_memsz, page);
	bool partial = ph->p_memsz > ph->p_filesz && file_end % page;

	if (file_pages > start &&
	    mmap(base + start, file_pages - start, prot | (partial ? PROT_WRITE : 0),
		 MAP_PRIVATE | MAP_FIXED, fd, ALIGN_DOWN(ph->p_offset, page)) == MAP_FAILED)
		return -1;
	/* The rest of the file's last page belongs to the bss. */
	if (partial) {
		memset(base + file_end, 0, file_pages - file_end);
		if (!(prot & PROT_WRITE) && mprotect(base + start, file_pages - start, prot) < 0)
			return -1;
	}
	if (end > file_pages &&
	    mmap(base + file_pages, end - file_pages, prot,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
		return -1;
	return 0;
}

const unsigned char *userland_map(int fd, const char *path, size_t below, char *err,
				  size_t errlen)
{
	uint64_t page = sysconf(_SC_PAGESIZE), align = page, end = 0;
	unsigned char *file = MAP_FAILED, *reserved = MAP_FAILED, *base = NULL;
	struct elf_file f;
	struct stat st = { .st_size = 0 };
	char why[128];

	if (fstat(fd, &st) == 0 && (!S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof(Elf64_Ehdr))) {
		fail(err, errlen, "%s: not an x86-64 static PIE", path);
		return NULL;
	}
	if (st.st_size < (off_t)sizeof(Elf64_Ehdr) ||
	    (file = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) == MAP_FAILED) {
		fail(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	if (elf_file_parse_header(&f, file, st.st_size, why, sizeof(why)) < 0) {
		fail(err, errlen, "%s: %s", path, why);
		goto out;
	}
	if (userland_check(&f, path, err, errlen) < 0)
		goto out;
	for (size_t i = 0; i < f.phnum; i++) {
		Elf64_Phdr ph = userland_phdr(&f, i);

		if (ph.p_type != PT_LOAD)
			continue;
		end = ph.p_vaddr + ph.p_memsz > end ? ph.p_vaddr + ph.p_memsz : end;
		if (ph.p_align > align && !(ph.p_align & (ph.p_align - 1)) && ph.p_align <= (1 << 30))
			align = ph.p_align;
	}
	/* The whole span, at its greatest alignment, then each segment in it;
	 * the caller's zeros in front. */
	end = ALIGN_UP(end, page);
	reserved = mmap(NULL, below + end + align - page, PROT_NONE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (reserved == MAP_FAILED) {
		fail(err, errlen, "cannot map %s: %s", path, strerror(errno));
		goto out;
	}
	base = (unsigned char *)ALIGN_UP((uintptr_t)reserved + below, align);
	if (base - below > reserved)
		munmap(reserved, base - below - reserved);
	if (align > page)
		munmap(base + end, reserved + below + end + align - page - (base + end));
	if (below && mprotect(base - below, below, PROT_READ | PROT_WRITE) < 0) {
		fail(err, errlen, "cannot map %s: %s", path, strerror(errno));
		munmap(base - below, below + end);
		base = NULL;
	}
	for (size_t i = 0; i < f.phnum && base; i++) {
		Elf64_Phdr ph = userland_phdr(&f, i);

		if (ph.p_type == PT_LOAD && map_segment(fd, base, &ph, page) < 0) {
			fail(err, errlen, "cannot map %s: %s", path, strerror(errno));
			munmap(base - below, below + end);
			base = NULL;
		}
	}
out:
	munmap(file, st.st_size);
	return base;
}

/* exec's close-on-exec: poll() says in one call which descriptors are
 * open, so no /proc is needed (a chroot may have none). */
static void close_on_exec(void)
{
	struct rlimit lim;
	struct pollfd fds[1024];
	int max = getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < 65536 ?
		  (int)lim.rlim_cur : 65536;

	for (int base = 0; base < max; base += 1024) {
		int n = max - base < 1024 ? max - base : 1024;

		for (int i = 0; i < n; i++)
			fds[i] = (struct pollfd){ .fd = base + i };
		if (poll(fds, n, 0) < 0)
			return;
		for (int i = 0; i < n; i++)
			if (!(fds[i].revents & POLLNVAL) &&
			    fcntl(base + i, F_GETFD) & FD_CLOEXEC)
				close(base + i);
	}
}

/* exec's reset of caught signals (ignored ones stay ignored). */
static void default_signals(void)
{
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction sa;

		if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler != SIG_DFL &&
		    sa.sa_handler != SIG_IGN)
			signal(sig, SIG_DFL);
	}
}

int userland_exec(const unsigned char *image, char *const argv[], char *const envp[],
		  int execfd, const char *execfn, const void *vdso)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)image;
	Elf64_auxv_t auxv[10 + sizeof(kept) / sizeof(kept[0]) + 1];
	size_t argc = 0, envc = 0, naux = 0, words;
	uint64_t *sp;
	char *stack;

	auxv[naux++] = (Elf64_auxv_t){ AT_PHDR, { (uintptr_t)image + eh->e_phoff } };
	auxv[naux++] = (Elf64_auxv_t){ AT_PHENT, { sizeof(Elf64_Phdr) } };
	auxv[naux++] = (Elf64_auxv_t){ AT_PHNUM, { eh->e_phnum } };
	auxv[naux++] = (Elf64_auxv_t){ AT_BASE, { 0 } };
	/* Not ours: binfmt_misc's P flag there would tell QEMU (6.0 and
	 * later) that its argv holds PROGRAM's path twice. */
	auxv[naux++] = (Elf64_auxv_t){ AT_FLAGS, { 0 } };
	auxv[naux++] = (Elf64_auxv_t){ AT_ENTRY, { (uintptr_t)image + eh->e_entry } };
	auxv[naux++] = (Elf64_auxv_t){ AT_EXECFD, { execfd } };
	auxv[naux++] = (Elf64_auxv_t){ AT_EXECFN, { (uintptr_t)execfn } };
	if (vdso)
		auxv[naux++] = (Elf64_auxv_t){ AT_SYSINFO_EHDR, { (uintptr_t)vdso } };
	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		unsigned long v;

		if (vdso && kept[i] == AT_SYSINFO_EHDR)
			continue;
		errno = 0;
		v = getauxval(kept[i]);
		if (v || errno != ENOENT)
			auxv[naux++] = (Elf64_auxv_t){ kept[i], { v } };
	}
	auxv[naux++] = (Elf64_auxv_t){ AT_NULL, { 0 } };

	while (argv[argc])
		argc++;
	while (envp[envc])
		envc++;
	stack = mmap(NULL, STACK_SIZE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (stack == MAP_FAILED)
		return -1;
	/* argc, argv, NULL, envp, NULL, auxv: argc 16-byte aligned, as the
	 * x86-64 ABI has the kernel leave it. */
	words = 1 + argc + 1 + envc + 1 + 2 * naux;
	sp = (uint64_t *)(((uintptr_t)(stack + STACK_SIZE) - words * 8) & ~(uintptr_t)15);
	{
		uint64_t *p = sp;

		*p++ = argc;
		for (size_t i = 0; i <= argc; i++)
			*p++ = (uintptr_t)argv[i];
		for (size_t i = 0; i <= envc; i++)
			*p++ = (uintptr_t)envp[i];
		for (size_t i = 0; i < naux; i++) {
			*p++ = auxv[i].a_type;
			*p++ = auxv[i].a_un.a_val;
		}
	}

	close_on_exec();
	default_signals();
	prctl(PR_SET_DUMPABLE, 1);
	/* %rdx 0: no function for the program's exit to call (the ABI's
	 * atexit pointer); %rbp 0: the outermost frame. */
	__asm__ volatile("mov %0, %%rsp\n\t"
			 "xor %%edx, %%edx\n\t"
			 "xor %%ebp, %%ebp\n\t"
			 "jmp *%1"
			 : : "S"(sp), "a"((uintptr_t)image + eh->e_entry) : "memory");
	__builtin_unreachable();
}
