// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Marks out single calls of the time functions for an exact count of the
 * instructions they execute, read from QEMU's per-instruction exec trace
 * by benchtests/insn-count.  Each call runs between insn_begin() and
 * insn_end(); this program prints the address ranges to count in and the
 * cases in order:
 *
 *   range vdso START END        the vDSO's text
 *   range libc START END        the C library's text
 *   mark begin ADDR / mark end ADDR
 *   text WORD...                the vDSO's words from START, each read as
 *                               the CPU fetches it (insn-count's streams)
 *   case ENTRY CLOCK REPEATS    one line per case, in call order
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "vdso_call.h"

#define REPEATS 3

/* Both stay calls with distinct addresses: the trace is cut at them. */
__attribute__((noinline)) void insn_begin(void)
{
	__asm__ __volatile__("" ::: "memory");
}

__attribute__((noinline)) void insn_end(void)
{
	__asm__ __volatile__("nop" ::: "memory");
}

/* Where a function's code is: ELFv1 symbols name descriptors. */
static uintptr_t code_address(void (*fn)(void))
{
#if defined(__powerpc64__) && _CALL_ELF != 2
	return *(const uintptr_t *)fn;
#else
	return (uintptr_t)fn;
#endif
}

struct text_range {
	const char *name_part;
	uintptr_t start, end;
};

static int find_text(struct dl_phdr_info *info, size_t size, void *data)
{
	struct text_range *r = data;

	(void)size;
	if (!strstr(info->dlpi_name, r->name_part))
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
			r->start = info->dlpi_addr + ph->p_vaddr;
			r->end = r->start + ph->p_memsz;
			return 1;
		}
	}
	return 0;
}

static void print_range(const char *label, const char *name_part)
{
	struct text_range r = { name_part, 0, 0 };

	dl_iterate_phdr(find_text, &r);
	printf("range %s %#lx %#lx\n", label, (unsigned long)r.start,
	       (unsigned long)r.end);
}

static const struct { const char *name; int id; } clocks[] = {
	{ "REALTIME", CLOCK_REALTIME },
	{ "MONOTONIC", CLOCK_MONOTONIC },
	{ "MONOTONIC_COARSE", CLOCK_MONOTONIC_COARSE },
	{ "MONOTONIC_RAW", CLOCK_MONOTONIC_RAW },
	{ "BOOTTIME", CLOCK_BOOTTIME },
	{ "PROCESS_CPUTIME", CLOCK_PROCESS_CPUTIME_ID },
};

struct case_call {
	const char *entry;	/* what the case is labelled */
	const char *clock;
	void (*call)(void *fn, int clk);
	void *fn;		/* a vDSO entry, for direct calls */
	int clk;
	bool direct;
};

/* A timespec of either time_t fits in buf. */
static void call_vdso_2(void *fn, int clk)
{
	long long buf[2];

	vdso_call(fn, clk, (long)buf);
}

static void call_vdso_gettimeofday(void *fn, int clk)
{
	struct timeval tv;

	(void)clk;
	vdso_call(fn, (long)&tv, 0);
}

static void call_vdso_time(void *fn, int clk)
{
	(void)clk;
	vdso_call(fn, 0, 0);
}

static void call_clock_gettime(void *fn, int clk)
{
	struct timespec ts;

	(void)fn;
	clock_gettime(clk, &ts);
}

static void call_clock_getres(void *fn, int clk)
{
	struct timespec ts;

	(void)fn;
	clock_getres(clk, &ts);
}

static void call_gettimeofday(void *fn, int clk)
{
	struct timeval tv;

	(void)fn, (void)clk;
	gettimeofday(&tv, NULL);
}

static void call_time(void *fn, int clk)
{
	(void)fn, (void)clk;
	time(NULL);
}

static void run(const struct case_call *c)
{
	if (c->direct && !c->fn)
		return;		/* the image lacks this entry */
	printf("case %s %s %d\n", c->entry, c->clock, REPEATS);
	fflush(stdout);
	for (int i = 0; i < REPEATS; i++) {
		insn_begin();
		c->call(c->fn, c->clk);
		insn_end();
	}
}

int main(void)
{
	void *vdso = vdso_open();
	const ElfW(Ehdr) *eh = (const void *)getauxval(AT_SYSINFO_EHDR);
	const ElfW(Phdr) *ph = (const void *)((const char *)eh + eh->e_phoff);
	uintptr_t vdso_end = (uintptr_t)eh;
#ifdef __powerpc64__
	const char *gettime = "__kernel_clock_gettime";
#else
	const char *gettime = "__kernel_clock_gettime64";
#endif

	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD)
			vdso_end = (uintptr_t)eh + ph[i].p_vaddr + ph[i].p_memsz;
	printf("range vdso %#lx %#lx\n", (unsigned long)eh, (unsigned long)vdso_end);
	/* The trace has addresses only: what was executed is read here. */
	fputs("text", stdout);
	for (const uint32_t *w = (const void *)eh; (uintptr_t)w < vdso_end; w++)
		printf(" %08x", (unsigned)*w);
	putchar('\n');
	print_range("libc", "libc.so");
	printf("mark begin %#lx\nmark end %#lx\n",
	       (unsigned long)code_address(insn_begin),
	       (unsigned long)code_address(insn_end));

	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		struct case_call v = { gettime, clocks[i].name, call_vdso_2,
				       vdso_entry(vdso, gettime), clocks[i].id, true };
		struct case_call g = { "clock_gettime", clocks[i].name,
				       call_clock_gettime, NULL, clocks[i].id, false };

		run(&v);
		run(&g);
	}
#ifndef __powerpc64__
	{
		struct case_call v32 = { "__kernel_clock_gettime", "MONOTONIC",
					 call_vdso_2,
					 vdso_entry(vdso, "__kernel_clock_gettime"),
					 CLOCK_MONOTONIC, true };

		run(&v32);
	}
#endif
	{
		const struct case_call rest[] = {
			{ "__kernel_gettimeofday", "-", call_vdso_gettimeofday,
			  vdso_entry(vdso, "__kernel_gettimeofday"), 0, true },
			{ "gettimeofday", "-", call_gettimeofday, NULL, 0, false },
			{ "__kernel_time", "-", call_vdso_time,
			  vdso_entry(vdso, "__kernel_time"), 0, true },
			{ "time", "-", call_time, NULL, 0, false },
			{ "__kernel_clock_getres", "MONOTONIC", call_vdso_2,
			  vdso_entry(vdso, "__kernel_clock_getres"),
			  CLOCK_MONOTONIC, true },
			{ "clock_getres", "MONOTONIC", call_clock_getres, NULL,
			  CLOCK_MONOTONIC, false },
		};

		for (size_t i = 0; i < sizeof(rest) / sizeof(rest[0]); i++)
			run(&rest[i]);
	}
	return 0;
}
