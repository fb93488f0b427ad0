// SPDX-License-Identifier: GPL-2.0
/*
 * vdso-check's view of the code: the image's functions, from the .dbg
 * twin's symbol table, its instructions, from the target's objdump, and
 * what an instruction does, decoded from its Power ISA encoding.
 */
#include "vdso-check.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- Functions, from the .dbg symbol table. ---- */

static int compare_functions(const void *a, const void *b)
{
	const struct function *fa = a, *fb = b;

	return fa->start < fb->start ? -1 : fa->start > fb->start;
}

bool is_exported(const char *name)
{
	for (const char *const *e = exports; *e; e++)
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

void load_functions(const char *dbg_path)
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

int function_at(uint64_t addr)
{
	for (size_t i = 0; i < nfunctions; i++)
		if (addr >= functions[i].start && addr < functions[i].end)
			return i;
	return -1;
}

const struct function *function_named(const char *name)
{
	for (size_t i = 0; i < nfunctions; i++)
		if (!strcmp(functions[i].name, name))
			return &functions[i];
	return NULL;
}

/* A function some call could land on: its start or ELFv2 local entry. */
const struct function *function_entered_at(uint64_t addr)
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

void disassemble(const char *objdump, const char *dbg_path)
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

const struct insn *insn_at(uint64_t addr)
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
bool is_branch(uint32_t w)
{
	unsigned int xo = xl_opcode(w);

	return primary_opcode(w) == 18 || primary_opcode(w) == 16 ||
	       (primary_opcode(w) == 19 && (xo == 16 || xo == 528 || xo == 560));
}

bool sets_lr(uint32_t w)
{
	return is_branch(w) && (w & 1);
}

/* b and bc have an immediate target; the register forms have none. */
bool branch_target(const struct insn *in, uint64_t *dest)
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
bool is_bcl_always(uint32_t w)
{
	return primary_opcode(w) == 16 && (w & 1) && ((w >> 21) & 0x14) == 0x14;
}

/* bcl 20,31,.+4: the one form the link stack predictor ignores. */
bool is_get_pc(const struct insn *in)
{
	uint64_t dest;

	return is_bcl_always(in->word) && ((in->word >> 21) & 31) == 20 &&
	       ((in->word >> 16) & 31) == 31 && branch_target(in, &dest) &&
	       dest == in->addr + 4;
}

/* A branch that pushes a return address: everything LR-setting but the
 * get-the-PC idiom (bcl 20,31,.+4, or any bcl 20,31 within the function:
 * rule 1 judges its target). */
bool is_call(const struct insn *in)
{
	uint64_t dest;

	return sets_lr(in->word) && !is_get_pc(in) &&
	       !(is_bcl_always(in->word) && branch_target(in, &dest) &&
		 in->function >= 0 && function_at(dest) == in->function);
}

/* Does execution never continue at the next instruction? (b, and bclr,
 * bcctr, bctar with BO "always" and no link.) */
bool ends_flow(uint32_t w)
{
	if (!is_branch(w) || (w & 1))
		return false;
	return primary_opcode(w) == 18 || ((w >> 21) & 0x14) == 0x14;
}

bool is_mflr(uint32_t w)
{
	return (w & 0xfc1fffff) == 0x7c0802a6;	/* mfspr rD,8 */
}

bool is_syscall(uint32_t w)
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

uint32_t gpr_bit(int r)
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
uint32_t gprs_written(const struct insn *in)
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
bool is_r11_reload(const struct insn *in)
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
bool allocates_frame(const struct insn *in)
{
	struct operands o;

	split_operands(in->operands, &o);
	return (!strcmp(in->mnemonic, "stwu") || !strcmp(in->mnemonic, "stdu") ||
		!strcmp(in->mnemonic, "stwux") || !strcmp(in->mnemonic, "stdux")) &&
	       o.count >= 2 && gpr_of(o.text[0]) == 1 && memory_base(&o) == 1;
}

/* Does the instruction store relative to r1 at an offset >= 0 or one that
 * cannot be known (indexed forms, dcbz)? */
bool stores_at_or_above_r1(const struct insn *in)
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
