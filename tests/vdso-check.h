/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What vdso-check's two files share: the image under check, its functions
 * and instructions (vdso-code.c reads and decodes them), and the rules'
 * way out (vdso-check.c).
 */
#ifndef VDSO_CHECK_H
#define VDSO_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "elf/vdso_image.h"
#include "ppctime/target_table.h"

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

/* What the rules look at (vdso-check.c sets them). */
extern const struct ppctime_target *target;
extern const char *const *exports;	/* what its ABI exports, NULL-terminated */
extern struct vdso_image image, dbg;
extern struct function *functions;
extern size_t nfunctions;
extern struct insn *insns;
extern size_t ninsns;

void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
bool has_prefix(const char *s, const char *prefix);
void *xcalloc(size_t n, size_t size);

/* vdso-code.c: the image's functions and instructions, and their decoding. */
bool is_exported(const char *name);
void load_functions(const char *dbg_path);
int function_at(uint64_t addr);
const struct function *function_named(const char *name);
const struct function *function_entered_at(uint64_t addr);
void disassemble(const char *objdump, const char *dbg_path);
const struct insn *insn_at(uint64_t addr);
bool is_branch(uint32_t w);
bool sets_lr(uint32_t w);
bool branch_target(const struct insn *in, uint64_t *dest);
bool is_bcl_always(uint32_t w);
bool is_get_pc(const struct insn *in);
bool is_call(const struct insn *in);
bool ends_flow(uint32_t w);
bool is_mflr(uint32_t w);
bool is_syscall(uint32_t w);
uint32_t gpr_bit(int r);
uint32_t gprs_written(const struct insn *in);
bool is_r11_reload(const struct insn *in);
bool allocates_frame(const struct insn *in);
bool stores_at_or_above_r1(const struct insn *in);

#endif /* VDSO_CHECK_H */
