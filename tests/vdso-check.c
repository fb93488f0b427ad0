// SPDX-License-Identifier: GPL-2.0
/*
 * vdso-check: proves from the binaries that a ppctime vDSO image keeps the
 * rules below, each reported as one TAP result (tests/README.md):
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
#include "vdso-check.h"

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

#include "test_harness.h"

#define EXIT_RULE_FAILED 1
#define EXIT_CANNOT_CHECK 2

/* At most this many offending instructions are listed per rule. */
#define MAX_DETAILS 8

#define TIME_EXPORTS							\
	"__kernel_clock_gettime", "__kernel_clock_getres",		\
	"__kernel_gettimeofday", "__kernel_time", "__kernel_get_tbfreq", \
	"__kernel_getcpu"

static const char *const exports64[] = { TIME_EXPORTS, NULL };
static const char *const exports32[] = {
	TIME_EXPORTS, "__kernel_clock_gettime64", "__kernel_clock_getres_time64",
	NULL
};

/* The one entry that does not read the data page. */
#define NO_DATAPAGE_ENTRY "__kernel_getcpu"

/* What the rules look at (vdso-check.h). */
const struct ppctime_target *target;
const char *const *exports;
static const char *label;
struct vdso_image image, dbg;
struct function *functions;
size_t nfunctions;
struct insn *insns;
size_t ninsns;

void die(const char *fmt, ...)
{
	va_list ap;

	/* Said in the TAP stream too, so the test log says why nothing was checked. */
	printf("Bail out! %s: cannot check: ", label ? label : "vdso-check");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	exit(EXIT_CANNOT_CHECK);
}

bool has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

void *xcalloc(size_t n, size_t size)
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
	char why[40];

	if (!v->violations) {
		report(true, "%s rule %d: %s", label, v->rule, v->title);
		return true;
	}
	for (unsigned int i = 0; i < v->violations && i < MAX_DETAILS; i++)
		printf("# %s\n", v->details[i]);
	if (v->violations > MAX_DETAILS)
		printf("# ... and %u more\n", v->violations - MAX_DETAILS);
	snprintf(why, sizeof(why), "%u violation%s", v->violations,
		 v->violations == 1 ? "" : "s");
	test_fail(why, "%s rule %d: %s", label, v->rule, v->title);
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
	uint64_t dest, value;
	char err[256];

	for (const char *const *e = exports; *e; e++) {
		const struct function *f = function_named(*e);
		bool inline_pc = false;

		/* Each of them the image exports; whether it exports all is
		 * rule 5's (ppc32 Linux 7.3 without COMPAT_32BIT_TIME has no
		 * 32-bit time_t entries). */
		if (!strcmp(*e, NO_DATAPAGE_ENTRY) ||
		    vdso_image_lookup(&image, *e, NULL, &value, err, sizeof(err)))
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
	for (const char *const *e = exports; *e; e++) {
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

/*
 * --kernel-c: the C functions of a kernel's image that are the kernel's
 * own, not the time code's (Linux 7.3's __c_kernel_getrandom, built with
 * a frame); rules 6 and 7 leave them out.
 */
static const char *kernel_c;

static bool is_kernel_c(const char *name)
{
	const char *p = kernel_c;
	size_t n;

	name += *name == '.';	/* an ELFv1 code symbol */
	n = strlen(name);
	while (p && *p) {
		size_t len = strcspn(p, ",");

		if (len == n && !strncmp(p, name, n))
			return true;
		p += len + (p[len] == ',');
	}
	return false;
}

static bool in_c_code(const struct insn *in)
{
	return in->function >= 0 && functions[in->function].kind == FN_C &&
	       !is_kernel_c(functions[in->function].name);
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
		"usage: vdso-check --target=TARGET [--objdump=PROG] [--label=TEXT] [--kernel-c=NAMES]\n"
		"                  IMAGE.so IMAGE.so.dbg\n"
		"Checks a ppctime vDSO image against the rules of tests/vdso-check.c,\n"
		"printing a TAP result per rule.  IMAGE.so.dbg is its unstripped twin.\n"
		"  --target   ppc32, ppc64 or ppc64le\n"
		"  --objdump  the target's objdump (default TRIPLET-objdump)\n"
		"  --label    names the image in the output (default TARGET/IMAGE.so's name)\n"
		"  --kernel-c a kernel image's own C functions, comma-separated, which rules\n"
		"             6 and 7 (about the time code's C) leave out\n"
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
		{ "kernel-c", required_argument, NULL, 'k' },
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
			target = ppctime_target_named(optarg);
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
		case 'k':
			kernel_c = optarg;
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
	/* ppc32 adds the 64-bit time_t entries. */
	exports = target->elf_class == 64 ? exports64 : exports32;
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
