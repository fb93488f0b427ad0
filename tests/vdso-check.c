// SPDX-License-Identifier: GPL-2.0
/*
 * vdso-check: proves from the binaries that a ppctime vDSO image keeps the
 * rules below, each reported as one PASS:/FAIL: line (tests/README.md):
 *
 *  1. every always-taken bcl (bcl 20,31,T) has T = the next instruction:
 *     bcl+8 corrupted POWER8's link stack;
 *  2. the entries find the data page inline: each one that reads it (all
 *     but __kernel_getcpu) has its own "bcl 20,31,.+4; mflr", and every call
 *     an entry makes goes to a C function (__c_kernel_*);
 *  3. nothing calls a libgcc helper, nor anything but a function of the
 *     image itself;
 *  4. no dynamic relocations, no PLT, nothing writable;
 *  5. exactly the exported symbols, version node and soname of the ABI,
 *     with both DT_HASH and DT_GNU_HASH finding every symbol;
 *  6. ppc64: the C code writes neither r30 (Go before 1.16 relied on it)
 *     nor r2 (the entries do not save the TOC pointer);
 *  7. the C code is a leaf that leaves its caller's frame and r11 (the
 *     entry's return address) alone, except that a system call may save
 *     r11 on a frame of its own and must reload it right after sc.
 *
 * The ELF structure comes from elf/vdso_image; the instructions from
 * the target's objdump run on the .dbg twin (which keeps the full symbol
 * table that says where each function starts and ends), with branch
 * encodings decoded from the image itself.
 */
#include "vdso_image.h"

#include <elf.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "targets.h"
#include "test_harness.h"

#define EXIT_RULE_FAILED 1
#define EXIT_CANNOT_CHECK 2

/* At most this many offending instructions are listed per rule. */
#define MAX_DETAILS 8

struct target {
	const char *name;
	const char *triplet;
	int elf_class;
	bool big_endian;
	uint16_t machine;
	const char *soname;
	const char *const *exports;	/* NULL-terminated */
};

#define TIME_EXPORTS							\
	"__kernel_clock_gettime", "__kernel_clock_getres",		\
	"__kernel_gettimeofday", "__kernel_time", "__kernel_get_tbfreq", \
	"__kernel_getcpu"

static const char *const exports64[] = { TIME_EXPORTS, NULL };
static const char *const exports32[] = {
	TIME_EXPORTS, "__kernel_clock_gettime64", "__kernel_clock_getres_time64",
	NULL
};

/* ppc32 adds the 64-bit time_t entries. */
#define TARGET(n, tr, cls, be, img, so, ld, pg, qm) \
	{ n, tr, cls, be, PPCTIME_MACHINE(cls), so, \
	  (cls) == 64 ? exports64 : exports32 },
static const struct target targets[] = { PPCTIME_TARGETS(TARGET) };
#undef TARGET

/* The one entry that does not read the data page. */
#define NO_DATAPAGE_ENTRY "__kernel_getcpu"
#define C_PREFIX "__c_kernel_"

enum function_kind { FN_OTHER, FN_ENTRY, FN_C };

struct function {
	const char *name;
	uint64_t start, end;		/* [start, end) */
	uint64_t local_entry;		/* ELFv2: where local calls land */
	enum function_kind kind;
};

struct insn {
	uint64_t addr;
	uint32_t word;			/* from the image, host byte order */
	char mnemonic[24];
	char operands[80];		/* without objdump's "<symbol>" note */
	int function;			/* index into functions[], -1 if none */
};

/* What the rules look at. */
static const struct target *target;
static const char *label;
static struct vdso_image image, dbg;
static struct function *functions;
static size_t nfunctions;
static struct insn *insns;
static size_t ninsns;

static void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

static void die(const char *fmt, ...)
{
	va_list ap;

	/* A FAIL line too, so the test log says why nothing was checked. */
	printf("FAIL: %s: cannot check: ", label ? label : "vdso-check");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	exit(EXIT_CANNOT_CHECK);
}

static bool has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		die("out of memory");
	return p;
}

/* ---- One rule's verdict: a PASS/FAIL line and its first details. ---- */

struct verdict {
	int rule;
	const char *title;
	unsigned int violations;
	char details[MAX_DETAILS][200];
};

static void violation(struct verdict *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void violation(struct verdict *v, const char *fmt, ...)
{
	va_list ap;

	if (v->violations < MAX_DETAILS) {
		va_start(ap, fmt);
		vsnprintf(v->details[v->violations], sizeof(v->details[0]), fmt, ap);
		va_end(ap);
	}
	v->violations++;
}

static bool report_verdict(const struct verdict *v)
{
	if (!v->violations) {
		printf("PASS: %s rule %d: %s\n", label, v->rule, v->title);
		return true;
	}
	printf("FAIL: %s rule %d: %s: %u violation%s\n", label, v->rule,
	       v->title, v->violations, v->violations == 1 ? "" : "s");
	for (unsigned int i = 0; i < v->violations && i < MAX_DETAILS; i++)
		printf("    %s\n", v->details[i]);
	if (v->violations > MAX_DETAILS)
		printf("    ... and %u more\n", v->violations - MAX_DETAILS);
	return false;
}

/* "0x41c __kernel_clock_getres+0x8: mflr r0" for messages. */
static const char *where(const struct insn *in)
{
	static char buf[160];
	const struct function *f = in->function >= 0 ? &functions[in->function] : NULL;

	snprintf(buf, sizeof(buf), "%#" PRIx64 " %s+%#" PRIx64 ": %s %s",
		 in->addr, f ? f->name : "?", f ? in->addr - f->start : in->addr,
		 in->mnemonic, in->operands);
	return buf;
}

/* ---- Functions, from the .dbg symbol table. ---- */

static int compare_functions(const void *a, const void *b)
{
	const struct function *fa = a, *fb = b;

	return fa->start < fb->start ? -1 : fa->start > fb->start;
}

static bool is_exported(const char *name)
{
	for (const char *const *e = target->exports; *e; e++)
		if (!strcmp(*e, name))
			return true;
	return false;
}

/* Does the image's dynamic symbol table define name? */
static bool image_exports(const char *name)
{
	struct vdso_symbol sym;

	for (size_t i = 1; i < vdso_image_symbol_count(&image, VDSO_DYNSYM); i++)
		if (!vdso_image_symbol(&image, VDSO_DYNSYM, i, &sym, NULL, 0) &&
		    sym.shndx != SHN_UNDEF && sym.bind != STB_LOCAL &&
		    !strcmp(sym.name, name))
			return true;
	return false;
}

/* End of the executable section holding addr, 0 if none does. */
static uint64_t text_section_end(uint64_t addr)
{
	struct vdso_section sec;

	for (size_t i = 0; i < dbg.shnum; i++)
		if (!vdso_image_section(&dbg, i, &sec, NULL, 0) &&
		    (sec.flags & SHF_EXECINSTR) && addr >= sec.addr &&
		    addr - sec.addr < sec.size)
			return sec.addr + sec.size;
	return 0;
}

static void load_functions(const char *dbg_path)
{
	size_t n = vdso_image_symbol_count(&dbg, VDSO_SYMTAB);
	bool elfv1 = target->elf_class == 64 && target->big_endian;
	struct vdso_symbol sym;
	bool elfv1_code;
	char err[256];

	if (!n)
		die("%s: no symbol table (SHT_SYMTAB): not an unstripped .dbg image",
		    dbg_path);
	functions = xcalloc(n, sizeof(*functions));
	for (size_t i = 0; i < n; i++) {
		struct function *f = &functions[nfunctions];

		if (vdso_image_symbol(&dbg, VDSO_SYMTAB, i, &sym, err, sizeof(err)))
			die("%s: %s", dbg_path, err);
		/* Functions; exported entries even if asm left them untyped;
		 * on ELFv1 the code of a C function, which only ld's untyped
		 * dot symbol (".__c_kernel_time") marks, its own symbol being
		 * the descriptor. */
		elfv1_code = elfv1 && sym.name[0] == '.';
		if (sym.type != STT_FUNC &&
		    !(sym.type == STT_NOTYPE && (sym.bind == STB_GLOBAL || elfv1_code)))
			continue;
		if (sym.shndx == SHN_UNDEF || sym.shndx >= SHN_LORESERVE ||
		    !text_section_end(sym.value))
			continue;
		f->name = sym.name;
		f->start = sym.value;
		f->end = sym.size ? sym.value + sym.size : 0;
		f->local_entry = sym.value;
		if (target->elf_class == 64 && !target->big_endian)
			f->local_entry += PPC64_LOCAL_ENTRY_OFFSET(sym.other);
		if (has_prefix(sym.name + elfv1_code, C_PREFIX))
			f->kind = FN_C;
		else if (sym.bind != STB_LOCAL && image_exports(sym.name))
			f->kind = FN_ENTRY;
		nfunctions++;
	}
	qsort(functions, nfunctions, sizeof(*functions), compare_functions);
	/* Unsized symbols (asm without .size) run to the next one. */
	for (size_t i = 0; i < nfunctions; i++) {
		size_t next = i + 1;

		if (functions[i].end)
			continue;
		while (next < nfunctions && functions[next].start == functions[i].start)
			next++;
		functions[i].end = text_section_end(functions[i].start);
		if (next < nfunctions && functions[next].start < functions[i].end)
			functions[i].end = functions[next].start;
	}
}

static int function_at(uint64_t addr)
{
	for (size_t i = 0; i < nfunctions; i++)
		if (addr >= functions[i].start && addr < functions[i].end)
			return i;
	return -1;
}

static const struct function *function_named(const char *name)
{
	for (size_t i = 0; i < nfunctions; i++)
		if (!strcmp(functions[i].name, name))
			return &functions[i];
	return NULL;
}

/* A function some call could land on: its start or ELFv2 local entry. */
static const struct function *function_entered_at(uint64_t addr)
{
	for (size_t i = 0; i < nfunctions; i++)
		if (addr == functions[i].start || addr == functions[i].local_entry)
			return &functions[i];
	return NULL;
}

/* ---- Instructions, from objdump. ---- */

static bool in_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[4096];

	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	while (path && *path) {
		size_t n = strcspn(path, ":");

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, path, prog);
		if (n && access(buf, X_OK) == 0)
			return true;
		path += n + (path[n] == ':');
	}
	return false;
}

/* Appends s to p single-quoted for the shell; returns the new end. */
static char *append_quoted(char *p, const char *s)
{
	*p++ = '\'';
	for (; *s; s++)
		p = *s == '\'' ? stpcpy(p, "'\\''") : (*p = *s, p + 1);
	*p++ = '\'';
	*p = '\0';
	return p;
}

/* The objdump command line for popen's shell. */
static char *objdump_command(const char *objdump, const char *path)
{
	static const char options[] = " -d --no-show-raw-insn ";
	char *cmd = xcalloc(4 * (strlen(objdump) + strlen(path)) + sizeof(options) + 5, 1);

	append_quoted(stpcpy(append_quoted(cmd, objdump), options), path);
	return cmd;
}

/* " 404:\tbcl     20,4*cr7+so,408 <f+0x8>" -> an insn. */
static bool parse_insn_line(const char *line, struct insn *in)
{
	const char *p = line, *ops;
	char *end;
	size_t n;

	while (*p == ' ')
		p++;
	in->addr = strtoull(p, &end, 16);
	if (end == p || end[0] != ':' || end[1] != '\t')
		return false;
	p = end + 2;
	n = strcspn(p, " \t\n");
	if (!n || n >= sizeof(in->mnemonic))
		return false;
	memcpy(in->mnemonic, p, n);
	in->mnemonic[n] = '\0';
	ops = p + n + strspn(p + n, " \t");
	n = strcspn(ops, "<#\n");
	while (n && (ops[n - 1] == ' ' || ops[n - 1] == '\t'))
		n--;
	snprintf(in->operands, sizeof(in->operands), "%.*s", (int)n, ops);
	return true;
}

static void disassemble(const char *objdump, const char *dbg_path)
{
	char *cmd = objdump_command(objdump, dbg_path);
	char line[512];
	size_t cap = 0;
	FILE *pipe;
	int status;

	if (!in_path(objdump))
		die("%s not found: install the Debian package binutils-%s",
		    objdump, target->triplet);
	pipe = popen(cmd, "r");
	if (!pipe)
		die("cannot run %s", objdump);
	while (fgets(line, sizeof(line), pipe)) {
		struct insn in = { 0 };

		/* Skip what objdump could not decode (".long"): data. */
		if (!parse_insn_line(line, &in) || in.mnemonic[0] == '.')
			continue;
		if (vdso_image_read_u32(&dbg, in.addr, &in.word))
			die("objdump shows an instruction at %#" PRIx64
			    ", outside the loaded segment", in.addr);
		in.function = function_at(in.addr);
		if (ninsns == cap) {
			cap = cap ? 2 * cap : 1024;
			insns = realloc(insns, cap * sizeof(*insns));
			if (!insns)
				die("out of memory");
		}
		insns[ninsns++] = in;
	}
	status = pclose(pipe);
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status))
		die("%s failed on %s", cmd, dbg_path);
	if (!ninsns)
		die("%s shows no instructions in %s", objdump, dbg_path);
	free(cmd);
}

static const struct insn *insn_at(uint64_t addr)
{
	for (size_t i = 0; i < ninsns; i++)
		if (insns[i].addr == addr)
			return &insns[i];
	return NULL;
}

/* ---- Decoding (Power ISA encodings). ---- */

static unsigned int primary_opcode(uint32_t w)
{
	return w >> 26;
}

static unsigned int xl_opcode(uint32_t w)
{
	return (w >> 1) & 0x3ff;
}

/* b, bc, bclr, bcctr, bctar. */
static bool is_branch(uint32_t w)
{
	unsigned int xo = xl_opcode(w);

	return primary_opcode(w) == 18 || primary_opcode(w) == 16 ||
	       (primary_opcode(w) == 19 && (xo == 16 || xo == 528 || xo == 560));
}

static bool sets_lr(uint32_t w)
{
	return is_branch(w) && (w & 1);
}

/* b and bc have an immediate target; the register forms have none. */
static bool branch_target(const struct insn *in, uint64_t *dest)
{
	uint32_t w = in->word;
	int64_t disp;

	if (primary_opcode(w) == 18)
		disp = (int64_t)((int32_t)((w & 0x03fffffc) << 6) >> 6);
	else if (primary_opcode(w) == 16)
		disp = (int16_t)(w & 0xfffc);
	else
		return false;
	*dest = (w & 2) ? (uint64_t)disp : in->addr + disp;
	if (target->elf_class == 32)
		*dest &= 0xffffffff;
	return true;
}

/* bcl with BO "branch always" (20): the get-the-PC idiom's shape. */
static bool is_bcl_always(uint32_t w)
{
	return primary_opcode(w) == 16 && (w & 1) && ((w >> 21) & 0x14) == 0x14;
}

/* bcl 20,31,.+4: the one form the link stack predictor ignores. */
static bool is_get_pc(const struct insn *in)
{
	uint64_t dest;

	return is_bcl_always(in->word) && ((in->word >> 21) & 31) == 20 &&
	       ((in->word >> 16) & 31) == 31 && branch_target(in, &dest) &&
	       dest == in->addr + 4;
}

/* A branch that pushes a return address: everything LR-setting but the
 * get-the-PC idiom (bcl 20,31,.+4, or any bcl 20,31 within the function:
 * rule 1 judges its target). */
static bool is_call(const struct insn *in)
{
	uint64_t dest;

	return sets_lr(in->word) && !is_get_pc(in) &&
	       !(is_bcl_always(in->word) && branch_target(in, &dest) &&
		 in->function >= 0 && function_at(dest) == in->function);
}

/* Does execution never continue at the next instruction? (b, and bclr,
 * bcctr, bctar with BO "always" and no link.) */
static bool ends_flow(uint32_t w)
{
	if (!is_branch(w) || (w & 1))
		return false;
	return primary_opcode(w) == 18 || ((w >> 21) & 0x14) == 0x14;
}

static bool is_mflr(uint32_t w)
{
	return (w & 0xfc1fffff) == 0x7c0802a6;	/* mfspr rD,8 */
}

static bool is_syscall(uint32_t w)
{
	return primary_opcode(w) == 17;		/* sc, scv */
}

/* ---- Operands, as objdump prints them ("r11,32(r1)", "r3,r1,r9"). ---- */

#define MAX_OPERANDS 6

struct operands {
	int count;
	char text[MAX_OPERANDS][24];
};

static void split_operands(const char *ops, struct operands *o)
{
	o->count = 0;
	while (*ops && o->count < MAX_OPERANDS) {
		size_t n = strcspn(ops, ",");

		snprintf(o->text[o->count++], sizeof(o->text[0]), "%.*s", (int)n, ops);
		ops += n + (ops[n] == ',');
	}
}

/* "r11" -> 11; -1 if s names no GPR. */
static int gpr_of(const char *s)
{
	char *end;
	long r;

	if (s[0] != 'r' || s[1] < '0' || s[1] > '9')
		return -1;
	r = strtol(s + 1, &end, 10);
	return *end || r > 31 ? -1 : (int)r;
}

/* "-16(r1)" -> disp -16, base 1. */
static bool memory_operand(const char *s, long *disp, int *base)
{
	char *end;
	char reg[8];

	*disp = strtol(s, &end, 0);
	if (end == s || *end != '(' || sscanf(end, "(%7[^)])", reg) != 1)
		return false;
	*base = gpr_of(reg);
	return *base >= 0;
}

/* Base register of a load or store: "d(rA)" or the indexed form's rA. */
static int memory_base(const struct operands *o)
{
	long disp;
	int base;

	if (o->count < 2)
		return -1;
	return memory_operand(o->text[1], &disp, &base) ? base : gpr_of(o->text[1]);
}

static uint32_t gpr_bit(int r)
{
	return r >= 0 && r < 32 ? 1u << r : 0;
}

/* ori rX,rX,0 and or rX,rX,rX: GCC's group-ending nops and the SMT
 * priority hints (cpu_relax), which leave rX as it was. */
static bool is_hint_nop(uint32_t w)
{
	unsigned int rs = (w >> 21) & 31, ra = (w >> 16) & 31, rb = (w >> 11) & 31;

	return (primary_opcode(w) == 24 && rs == ra && !(w & 0xffff)) ||
	       (primary_opcode(w) == 31 && xl_opcode(w) == 444 && rs == ra && ra == rb);
}

/*
 * The GPRs an instruction writes, classified from objdump's mnemonic:
 *  - none: branches (decoded from the word), sc, hint nops, stores (st*), compares
 *    (cmp*, but cmpb writes rA), moves to special registers (mt*), traps,
 *    TLB and transactional-memory ops (t*), cache hints and barriers (dcb*,
 *    icb*, dst*, dss*, sync...: no GPR operand first);
 *  - update forms of loads and stores (...u, ...ux) write rA, loads also rT;
 *  - lmw writes rT..r31, lq/lqarx the pair rT,rT+1; load string (lsw*)
 *    counts as writing every GPR, its extent depending on NB or XER;
 *  - everything else writes its first operand if that is a GPR (rN).
 * What sc lets the kernel clobber is rule 7's concern, not this one's.
 */
static uint32_t gprs_written(const struct insn *in)
{
	const char *m = in->mnemonic;
	size_t len = strlen(m);
	bool update = (len > 1 && m[len - 1] == 'u') ||
		      (len > 2 && !strcmp(m + len - 2, "ux"));
	struct operands o;
	int rt;

	split_operands(in->operands, &o);
	rt = o.count ? gpr_of(o.text[0]) : -1;
	if (is_branch(in->word) || is_syscall(in->word) || is_hint_nop(in->word))
		return 0;
	if (has_prefix(m, "st"))
		return update ? gpr_bit(memory_base(&o)) : 0;
	if (!strcmp(m, "lmw"))
		return rt >= 0 ? ~0u << rt : 0;
	if (has_prefix(m, "lsw"))
		return ~0u;
	if (has_prefix(m, "lq"))
		return gpr_bit(rt) | gpr_bit(rt + 1);
	if (m[0] == 'l' && update)
		return gpr_bit(rt) | gpr_bit(memory_base(&o));
	if ((has_prefix(m, "cmp") && strcmp(m, "cmpb")) || has_prefix(m, "mt") ||
	    m[0] == 't' || has_prefix(m, "dcb") || has_prefix(m, "icb") ||
	    has_prefix(m, "dst") || has_prefix(m, "dss"))
		return 0;
	return gpr_bit(rt);
}

/* ld r11,N(r1) / lwz r11,N(r1): the syscall fallback reloading r11. */
static bool is_r11_reload(const struct insn *in)
{
	struct operands o;
	long disp;
	int base;

	split_operands(in->operands, &o);
	return (!strcmp(in->mnemonic, "ld") || !strcmp(in->mnemonic, "lwz")) &&
	       o.count == 2 && gpr_of(o.text[0]) == 11 &&
	       memory_operand(o.text[1], &disp, &base) && base == 1;
}

/* stwu/stdu r1,-N(r1) and the indexed forms: a new stack frame. */
static bool allocates_frame(const struct insn *in)
{
	struct operands o;

	split_operands(in->operands, &o);
	return (!strcmp(in->mnemonic, "stwu") || !strcmp(in->mnemonic, "stdu") ||
		!strcmp(in->mnemonic, "stwux") || !strcmp(in->mnemonic, "stdux")) &&
	       o.count >= 2 && gpr_of(o.text[0]) == 1 && memory_base(&o) == 1;
}

/* Does the instruction store relative to r1 at an offset >= 0 or one that
 * cannot be known (indexed forms, dcbz)? */
static bool stores_at_or_above_r1(const struct insn *in)
{
	bool zeroes = has_prefix(in->mnemonic, "dcbz");
	struct operands o;
	long disp;
	int base;

	if (!has_prefix(in->mnemonic, "st") && !zeroes)
		return false;
	split_operands(in->operands, &o);
	/* A store's first operand is its source; dcbz has none. */
	for (int i = zeroes ? 0 : 1; i < o.count; i++) {
		if (memory_operand(o.text[i], &disp, &base)) {
			if (base == 1 && disp >= 0)
				return true;
		} else if (gpr_of(o.text[i]) == 1) {
			return true;
		}
	}
	return false;
}

/* ---- The rules. ---- */

static bool rule_bcl_next(void)
{
	struct verdict v = { .rule = 1, .title = "every bcl 20,31 targets the next instruction" };
	uint64_t dest;

	for (size_t i = 0; i < ninsns; i++)
		if (is_bcl_always(insns[i].word) && branch_target(&insns[i], &dest) &&
		    dest != insns[i].addr + 4)
			violation(&v, "%s: targets .%+" PRId64 ", not .+4",
				  where(&insns[i]), (int64_t)(dest - insns[i].addr));
	return report_verdict(&v);
}

static bool rule_inline_datapage(void)
{
	struct verdict v = { .rule = 2, .title = "entries find the data page inline and call only C functions" };
	uint64_t dest;

	for (const char *const *e = target->exports; *e; e++) {
		const struct function *f = function_named(*e);
		bool inline_pc = false;

		if (!strcmp(*e, NO_DATAPAGE_ENTRY))
			continue;
		if (!f) {
			violation(&v, "no function %s in the .dbg symbol table", *e);
			continue;
		}
		for (size_t i = 0; i + 1 < ninsns && !inline_pc; i++)
			inline_pc = insns[i].addr >= f->start && insns[i].addr < f->end &&
				    is_get_pc(&insns[i]) &&
				    insns[i + 1].addr == insns[i].addr + 4 &&
				    is_mflr(insns[i + 1].word);
		if (!inline_pc)
			violation(&v, "%s has no inline bcl 20,31,.+4; mflr", *e);
	}
	for (size_t i = 0; i < ninsns; i++) {
		const struct insn *in = &insns[i];
		const struct function *callee;

		if (in->function < 0 || functions[in->function].kind != FN_ENTRY ||
		    !is_call(in))
			continue;
		callee = branch_target(in, &dest) ? function_entered_at(dest) : NULL;
		if (!callee || callee->kind != FN_C)
			violation(&v, "%s: calls %s, not a " C_PREFIX "* function",
				  where(in), callee ? callee->name : "an unknown address");
	}
	return report_verdict(&v);
}

/* libgcc's arithmetic helpers (__muldi3, __udivmoddi4, __lshrti3...) and
 * the out-of-line register save/restore routines GCC calls at -Os. */
static bool is_libgcc_helper(const char *name)
{
	static const char *const save_restore[] = {
		"_savegpr", "_restgpr", "_savefpr", "_restfpr", "_savevr", "_restvr",
	};
	static const char *const modes[] = { "qi", "hi", "si", "di", "ti", "sf", "df", "tf" };
	size_t len = strlen(name);

	for (size_t i = 0; i < sizeof(save_restore) / sizeof(save_restore[0]); i++)
		if (has_prefix(name, save_restore[i]))
			return true;
	/* __<operation, lowercase><mode><operand count> */
	if (len < 6 || !has_prefix(name, "__") || name[len - 1] < '2' ||
	    name[len - 1] > '5')
		return false;
	for (size_t i = 2; i < len - 3; i++)
		if (name[i] < 'a' || name[i] > 'z')
			return false;
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strncmp(name + len - 3, modes[i], 2))
			return true;
	return false;
}

static bool rule_no_foreign_calls(void)
{
	struct verdict v = { .rule = 3, .title = "no call to libgcc or outside the image's functions" };
	uint64_t dest;

	for (size_t i = 0; i < ninsns; i++) {
		const struct insn *in = &insns[i];
		int to;

		if (!is_branch(in->word))
			continue;
		if (!branch_target(in, &dest)) {
			if (is_call(in))
				violation(&v, "%s: indirect call, to nothing provably in the image",
					  where(in));
			continue;
		}
		to = function_at(dest);
		if (to >= 0 && is_libgcc_helper(functions[to].name))
			violation(&v, "%s: branches to the libgcc helper %s",
				  where(in), functions[to].name);
		else if (is_call(in) && !function_entered_at(dest))
			violation(&v, "%s: calls %#" PRIx64 ", which starts no function of the image",
				  where(in), dest);
	}
	return report_verdict(&v);
}

static bool rule_nothing_writable_or_relocated(void)
{
	struct verdict v = { .rule = 4, .title = "no dynamic relocations, PLT or writable sections and segments" };
	const struct { const char *tag; struct vdso_reloc_table table; } relocs[] = {
		{ "DT_REL", image.rel }, { "DT_RELA", image.rela },
		{ "DT_RELR", image.relr }, { "DT_JMPREL", image.jmprel },
	};
	static const char *const plt_sections[] = { ".plt", ".got.plt", ".iplt", ".glink" };
	struct vdso_section sec;
	char err[256];

	for (size_t i = 0; i < sizeof(relocs) / sizeof(relocs[0]); i++)
		if (relocs[i].table.present && relocs[i].table.size)
			violation(&v, "%s with %" PRIu64 " bytes of relocations",
				  relocs[i].tag, relocs[i].table.size);
	if (image.textrel)
		violation(&v, "DT_TEXTREL: text relocations");
	if (image.pltgot)
		violation(&v, "DT_PLTGOT: a PLT");
	if (image.load.flags & PF_W)
		violation(&v, "the PT_LOAD segment is writable");
	for (size_t i = 0; i < image.shnum; i++) {
		if (vdso_image_section(&image, i, &sec, err, sizeof(err)))
			die("%s", err);
		if (has_prefix(sec.name, ".rel") && sec.size)
			violation(&v, "relocation section %s (%" PRIu64 " bytes)",
				  sec.name, sec.size);
		for (size_t j = 0; j < sizeof(plt_sections) / sizeof(plt_sections[0]); j++)
			if (!strcmp(sec.name, plt_sections[j]) && sec.size)
				violation(&v, "PLT section %s (%" PRIu64 " bytes)",
					  sec.name, sec.size);
		if ((sec.flags & (SHF_ALLOC | SHF_WRITE)) == (SHF_ALLOC | SHF_WRITE))
			violation(&v, "section %s is writable (SHF_WRITE)", sec.name);
	}
	return report_verdict(&v);
}

static bool rule_abi_exports(void)
{
	struct verdict v = { .rule = 5, .title = "exports, version " VDSO_VERSION ", soname and hash tables as the ABI says" };
	struct vdso_symbol sym;
	struct vdso_verdef def;
	bool has_node = false;
	char err[256];

	if (!image.soname || strcmp(image.soname, target->soname))
		violation(&v, "soname %s, not %s", image.soname ? image.soname : "missing",
			  target->soname);
	if (!image.has_hash)
		violation(&v, "no DT_HASH");
	if (!image.has_gnu_hash)
		violation(&v, "no DT_GNU_HASH");
	for (size_t i = 0; i < image.verdef_count; i++) {
		if (vdso_image_verdef(&image, i, &def, err, sizeof(err)))
			die("%s", err);
		has_node |= !(def.flags & VER_FLG_BASE) && !strcmp(def.name, VDSO_VERSION);
	}
	if (!has_node)
		violation(&v, "no version definition " VDSO_VERSION);

	for (size_t i = 1; i < vdso_image_symbol_count(&image, VDSO_DYNSYM); i++) {
		if (vdso_image_symbol(&image, VDSO_DYNSYM, i, &sym, err, sizeof(err)))
			die("%s", err);
		if (sym.shndx == SHN_UNDEF)
			violation(&v, "imports %s", sym.name);
		else if (sym.bind == STB_LOCAL)
			continue;
		else if (sym.shndx == SHN_ABS && !strcmp(sym.name, VDSO_VERSION) &&
			 sym.version && !strcmp(sym.version, VDSO_VERSION))
			continue;	/* ld's symbol for the version node */
		else if (!is_exported(sym.name))
			violation(&v, "exports %s, which the ABI does not have", sym.name);
		else if (!sym.version || strcmp(sym.version, VDSO_VERSION))
			violation(&v, "%s is at version %s, not " VDSO_VERSION, sym.name,
				  sym.version ? sym.version : "none");
	}

	/* Both hash tables must find every symbol, at the same place. */
	for (const char *const *e = target->exports; *e; e++) {
		uint64_t gnu = 0, sysv = 0;

		if (image.has_gnu_hash &&
		    vdso_image_lookup_in(&image, VDSO_HASH_GNU, *e, VDSO_VERSION,
					 &gnu, err, sizeof(err)))
			violation(&v, "DT_GNU_HASH: %s", err);
		if (image.has_hash &&
		    vdso_image_lookup_in(&image, VDSO_HASH_SYSV, *e, VDSO_VERSION,
					 &sysv, err, sizeof(err)))
			violation(&v, "DT_HASH: %s", err);
		if (gnu && sysv && gnu != sysv)
			violation(&v, "%s is at %#" PRIx64 " by DT_GNU_HASH, %#" PRIx64
				  " by DT_HASH", *e, gnu, sysv);
	}
	return report_verdict(&v);
}

static size_t count_c_functions(void)
{
	size_t n = 0;

	for (size_t i = 0; i < nfunctions; i++)
		n += functions[i].kind == FN_C;
	return n;
}

static bool in_c_code(const struct insn *in)
{
	return in->function >= 0 && functions[in->function].kind == FN_C;
}

static bool rule_c_keeps_r30_r2(void)
{
	struct verdict v = { .rule = 6, .title = "C code writes neither r30 nor r2" };

	if (target->elf_class == 32) {
		v.title = "C code writes neither r30 nor r2 (a ppc64 rule: nothing to check on ppc32)";
		return report_verdict(&v);
	}
	if (!count_c_functions())
		violation(&v, "no " C_PREFIX "* function in the .dbg symbol table");
	for (size_t i = 0; i < ninsns; i++) {
		uint32_t written = gprs_written(&insns[i]);

		if (!in_c_code(&insns[i]))
			continue;
		if (written & gpr_bit(30))
			violation(&v, "%s: writes r30", where(&insns[i]));
		if (written & gpr_bit(2))
			violation(&v, "%s: writes r2", where(&insns[i]));
	}
	return report_verdict(&v);
}

/* Is the instruction at addr (in function fn) an sc / an r11 reload? */
static bool syscall_at(uint64_t addr, int fn)
{
	const struct insn *in = insn_at(addr);

	return in && in->function == fn && is_syscall(in->word);
}

static bool r11_reload_at(uint64_t addr, int fn)
{
	const struct insn *in = insn_at(addr);

	return in && in->function == fn && is_r11_reload(in);
}

enum frame_state { FRAME_UNSEEN, FRAME_OWN, FRAME_NONE };

/* Where paths disagree, assume no frame: stores then count against it. */
static enum frame_state merge_frame(enum frame_state a, enum frame_state b)
{
	return a == FRAME_UNSEEN ? b : b == FRAME_UNSEEN || a == b ? a : FRAME_NONE;
}

/*
 * frame[i]: does instruction i of a C function run with a frame of that
 * function's own?  Flows from the function's start (no frame) along
 * fall-through and branches; a frame lasts from stwu/stdu r1 to the next
 * write of r1 (addi r1,r1,N...).  Code no path reaches counts as frameless.
 */
static void frame_states(enum frame_state *frame)
{
	bool changed = true;
	uint64_t dest;

	for (size_t i = 0; i < ninsns; i++)
		frame[i] = in_c_code(&insns[i]) &&
			   (i == 0 || insns[i - 1].function != insns[i].function) ?
			   FRAME_NONE : FRAME_UNSEEN;
	while (changed) {
		changed = false;
		for (size_t i = 0; i < ninsns; i++) {
			const struct insn *in = &insns[i], *to;
			enum frame_state out = frame[i];
			size_t next[2], nnext = 0;

			if (!in_c_code(in) || frame[i] == FRAME_UNSEEN)
				continue;
			if (allocates_frame(in))
				out = FRAME_OWN;
			else if (gprs_written(in) & gpr_bit(1))
				out = FRAME_NONE;
			if (!ends_flow(in->word) && i + 1 < ninsns &&
			    insns[i + 1].function == in->function)
				next[nnext++] = i + 1;
			if (branch_target(in, &dest) && (to = insn_at(dest)) &&
			    to->function == in->function)
				next[nnext++] = to - insns;
			for (size_t j = 0; j < nnext; j++)
				if (merge_frame(frame[next[j]], out) != frame[next[j]]) {
					frame[next[j]] = merge_frame(frame[next[j]], out);
					changed = true;
				}
		}
	}
}

static bool rule_c_leaf(void)
{
	struct verdict v = { .rule = 7, .title = "C code is a leaf that keeps off its caller's frame and r11" };
	enum frame_state *frame = xcalloc(ninsns, sizeof(*frame));
	uint64_t dest;

	if (!count_c_functions())
		violation(&v, "no " C_PREFIX "* function in the .dbg symbol table");
	frame_states(frame);
	for (size_t i = 0; i < ninsns; i++) {
		const struct insn *in = &insns[i];
		int fn = in->function, to;

		if (!in_c_code(in))
			continue;
		if (sets_lr(in->word)) {
			violation(&v, "%s: sets the link register (a call)", where(in));
		} else if (is_branch(in->word) && branch_target(in, &dest)) {
			to = function_at(dest);
			if (to < 0 || functions[to].kind != FN_C)
				violation(&v, "%s: branches out of the C code", where(in));
		}
		if (is_mflr(in->word))
			violation(&v, "%s: reads the link register", where(in));
		if (frame[i] != FRAME_OWN && !allocates_frame(in) &&
		    stores_at_or_above_r1(in))
			violation(&v, "%s: stores into the caller's frame (no stwu/stdu r1 on the way)",
				  where(in));
		if ((gprs_written(in) & gpr_bit(11)) &&
		    !(is_r11_reload(in) && (syscall_at(in->addr - 4, fn) ||
					    syscall_at(in->addr - 8, fn))))
			violation(&v, "%s: writes r11, the entry's return address", where(in));
		if (is_syscall(in->word) && !r11_reload_at(in->addr + 4, fn) &&
		    !r11_reload_at(in->addr + 8, fn))
			violation(&v, "%s: the kernel may clobber r11 and no ld/lwz r11,N(r1) follows within 2 instructions",
				  where(in));
	}
	free(frame);
	return report_verdict(&v);
}

/* ---- Main. ---- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: vdso-check --target=TARGET [--objdump=PROG] [--label=TEXT] IMAGE.so IMAGE.so.dbg\n"
		"Checks a ppctime vDSO image against the rules of tests/vdso-check.c,\n"
		"printing a PASS: or FAIL: line per rule.  IMAGE.so.dbg is its unstripped twin.\n"
		"  --target   ppc32, ppc64 or ppc64le\n"
		"  --objdump  the target's objdump (default TRIPLET-objdump)\n"
		"  --label    names the image in the output (default TARGET/IMAGE.so's name)\n"
		"Exit status: 0 all rules pass, 1 some rule fails, 2 the image cannot be checked.\n");
}

static void load(struct vdso_image *img, const char *path)
{
	char err[256];

	if (vdso_image_load(img, path, err, sizeof(err)))
		die("%s", err);
	if (vdso_image_match(img, target->elf_class, target->big_endian,
			     target->machine, err, sizeof(err)))
		die("%s: %s, not a %s image", path, err, target->name);
}

static bool (*const rules[])(void) = {
	rule_bcl_next, rule_inline_datapage, rule_no_foreign_calls,
	rule_nothing_writable_or_relocated, rule_abi_exports, rule_c_keeps_r30_r2,
	rule_c_leaf,
};

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "target", required_argument, NULL, 't' },
		{ "objdump", required_argument, NULL, 'o' },
		{ "label", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *objdump = NULL, *image_path, *dbg_path;
	char default_objdump[64], default_label[256];
	size_t ehdr_size;
	bool ok = true;
	int c;

	while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (c) {
		case 't':
			for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++)
				if (!strcmp(optarg, targets[i].name))
					target = &targets[i];
			if (!target) {
				fprintf(stderr, "vdso-check: unknown target '%s': use ppc32, ppc64 or ppc64le\n",
					optarg);
				return EXIT_CANNOT_CHECK;
			}
			break;
		case 'o':
			objdump = optarg;
			break;
		case 'l':
			label = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return EXIT_CANNOT_CHECK;
		}
	}
	if (!target || argc - optind != 2) {
		usage(stderr);
		return EXIT_CANNOT_CHECK;
	}
	image_path = argv[optind];
	dbg_path = argv[optind + 1];
	if (!objdump) {
		snprintf(default_objdump, sizeof(default_objdump), "%s-objdump",
			 target->triplet);
		objdump = default_objdump;
	}
	if (!label) {
		const char *base = strrchr(image_path, '/');

		snprintf(default_label, sizeof(default_label), "%s/%s", target->name,
			 base ? base + 1 : image_path);
		label = default_label;
	}

	test_plan(TEST_ARRAY_SIZE(rules));
	load(&image, image_path);
	load(&dbg, dbg_path);
	/* Stripping changes only the ELF header's section fields. */
	ehdr_size = target->elf_class == 64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	if (image.load.filesz != dbg.load.filesz ||
	    memcmp(image.elf.buf + ehdr_size, dbg.elf.buf + ehdr_size,
		   image.load.filesz - ehdr_size))
		die("%s is not the twin of %s: their loaded segments differ",
		    dbg_path, image_path);
	load_functions(dbg_path);
	disassemble(objdump, dbg_path);

	for (size_t i = 0; i < TEST_ARRAY_SIZE(rules); i++)
		ok &= rules[i]();
	vdso_image_free(&image);
	vdso_image_free(&dbg);
	return ok ? 0 : EXIT_RULE_FAILED;
}
