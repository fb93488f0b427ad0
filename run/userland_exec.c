// SPDX-License-Identifier: GPL-2.0
/* Mapping and entering a static PIE (userland_exec.h). */
#define _GNU_SOURCE
#include "userland_exec.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
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
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf/elf_file.h"
#include "ppctime/fail.h"

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

int userland_check(const struct elf_file *f, const char *path, bool fixed, char *err,
		   size_t errlen)
{
	uint64_t page = sysconf(_SC_PAGESIZE);
	struct elf_segment seg;
	Elf64_Phdr first;

	if (f->elf_class != 64 || f->swap || f->machine != EM_X86_64 ||
	    (f->type != ET_DYN && (f->type != ET_EXEC || !fixed)) ||
	    f->phentsize != sizeof(Elf64_Phdr))
		return fail(err, errlen, "%s: not an x86-64 static PIE%s", path,
			    fixed ? " nor a static program" : "");
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
	    (f->type == ET_DYN && first.p_vaddr) ||
	    f->phoff + f->phnum * sizeof(Elf64_Phdr) > first.p_filesz)
		return fail(err, errlen, "%s: its program headers are not in its first segment",
			    path);
	return 0;
}

/* One PT_LOAD of fd, bias added to its addresses: the file's part, then
 * the bss. */
static int map_segment(int fd, uintptr_t bias, const Elf64_Phdr *ph, uint64_t page)
{
	unsigned char *base = (unsigned char *)bias;
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

/*
 * A sealed memfd copy of fd, a regular file of size bytes (named path),
 * named as it, or -1 with why in err.  What is checked is then what is
 * mapped, and a program running from it is safe from its file's being
 * overwritten, which exec refuses (ETXTBSY) and which would otherwise
 * change, or with a truncation take away (SIGBUS), the pages mapped
 * MAP_PRIVATE: Linux lets no one but exec deny writes to a file.
 */
static int sealed_copy(int fd, const char *path, off_t size, char *err, size_t errlen)
{
	int copy = memfd_create(basename(path), MFD_CLOEXEC | MFD_ALLOW_SEALING);
	off_t done = 0;
	ssize_t n = 0;

	while (copy >= 0 && done < size && (n = sendfile(copy, fd, &done, size - done)) > 0)
		;
	if (copy >= 0 && done == size &&
	    fcntl(copy, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) == 0)
		return copy;
	if (copy >= 0 && n == 0)
		fail(err, errlen, "%s changed while it was read", path);
	else
		fail(err, errlen, "cannot copy %s: %s", path, strerror(errno));
	if (copy >= 0)
		close(copy);
	return -1;
}

/*
 * Whether a file may be changed in place while it runs, by us or another
 * user, where exec would refuse the writer: any but a file root alone may
 * write, run by another user (a system QEMU, which a package upgrade
 * replaces by a rename, never in place).  Those a launch maps as they
 * are, sharing their pages with every other launch: a copy would cost
 * each its own.
 */
static bool may_change(const struct stat *st)
{
	return !geteuid() || st->st_uid != 0 || st->st_mode & (S_IWGRP | S_IWOTH);
}

const unsigned char *userland_map(int fd, const char *path, size_t below, char *err,
				  size_t errlen)
{
	uint64_t page = sysconf(_SC_PAGESIZE), align = page, end = 0, start;
	unsigned char *file = MAP_FAILED, *reserved, *lo = NULL;
	uintptr_t bias;
	struct elf_file f;
	struct stat st = { .st_size = 0 };
	char why[128];

	if (fstat(fd, &st) == 0 && (!S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof(Elf64_Ehdr))) {
		fail(err, errlen, "%s: not an x86-64 static PIE", path);
		return NULL;
	}
	if (st.st_size < (off_t)sizeof(Elf64_Ehdr)) {
		fail(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	/* From here on fd is what is mapped: a copy no one can change, or
	 * the file itself, ours to close either way. */
	fd = may_change(&st) ? sealed_copy(fd, path, st.st_size, err, errlen)
			     : fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0) {
		if (!may_change(&st))
			fail(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	file = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (file == MAP_FAILED) {
		fail(err, errlen, "cannot read %s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	if (elf_file_parse_header(&f, file, st.st_size, why, sizeof(why)) < 0) {
		fail(err, errlen, "%s: %s", path, why);
		goto out;
	}
	/* Zeros below a program at fixed addresses could not be had. */
	if (userland_check(&f, path, !below, err, errlen) < 0)
		goto out;
	for (size_t i = 0; i < f.phnum; i++) {
		Elf64_Phdr ph = userland_phdr(&f, i);

		if (ph.p_type != PT_LOAD)
			continue;
		end = ph.p_vaddr + ph.p_memsz > end ? ph.p_vaddr + ph.p_memsz : end;
		if (ph.p_align > align && !(ph.p_align & (ph.p_align - 1)) && ph.p_align <= (1 << 30))
			align = ph.p_align;
	}
	/* The whole span, then each segment in it: a PIE's at its greatest
	 * alignment, the caller's zeros in front; another program's where it
	 * was linked to be, if nothing of this process lies there. */
	end = ALIGN_UP(end, page);
	start = userland_phdr(&f, 0).p_vaddr;
	if (f.type == ET_EXEC) {
		reserved = mmap((void *)start, end - start, PROT_NONE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE,
				-1, 0);
		if (reserved != MAP_FAILED && reserved != (void *)start) {
			munmap(reserved, end - start);
			errno = EEXIST;
		}
		if (reserved != (void *)start) {
			fail(err, errlen, "cannot map %s at %#" PRIx64 ", where it was linked to "
			     "run: %s", path, start, strerror(errno));
			goto out;
		}
		bias = 0;
	} else {
		reserved = mmap(NULL, below + end + align - page, PROT_NONE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (reserved == MAP_FAILED) {
			fail(err, errlen, "cannot map %s: %s", path, strerror(errno));
			goto out;
		}
		bias = ALIGN_UP((uintptr_t)reserved + below, align);
		if ((unsigned char *)bias - below > reserved)
			munmap(reserved, (unsigned char *)bias - below - reserved);
		if (align > page)
			munmap((unsigned char *)bias + end, reserved + below + end + align - page -
							    ((unsigned char *)bias + end));
	}
	lo = (unsigned char *)(bias + start) - below;
	if (below && mprotect(lo, below, PROT_READ | PROT_WRITE) < 0) {
		fail(err, errlen, "cannot map %s: %s", path, strerror(errno));
		munmap(lo, below + end - start);
		lo = NULL;
	}
	for (size_t i = 0; i < f.phnum && lo; i++) {
		Elf64_Phdr ph = userland_phdr(&f, i);

		if (ph.p_type == PT_LOAD && map_segment(fd, bias, &ph, page) < 0) {
			fail(err, errlen, "cannot map %s: %s", path, strerror(errno));
			munmap(lo, below + end - start);
			lo = NULL;
		}
	}
out:
	munmap(file, st.st_size);
	close(fd);
	return lo ? lo + below : NULL;
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
	/* Its first segment, at image, holds the headers (userland_check()). */
	const Elf64_Phdr *first = (const Elf64_Phdr *)(image + eh->e_phoff);
	uintptr_t entry = (uintptr_t)image - first->p_vaddr + eh->e_entry;
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
	auxv[naux++] = (Elf64_auxv_t){ AT_ENTRY, { entry } };
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
			 : : "S"(sp), "a"(entry) : "memory");
	__builtin_unreachable();
}
