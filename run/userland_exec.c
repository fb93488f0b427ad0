// SPDX-License-Identifier: GPL-2.0
/* Entering an already mapped static PIE (userland_exec.h). */
#define _GNU_SOURCE
#include "userland_exec.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

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
		  int execfd, const char *execfn)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)image;
	Elf64_auxv_t auxv[9 + sizeof(kept) / sizeof(kept[0]) + 1];
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
	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		unsigned long v;

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
