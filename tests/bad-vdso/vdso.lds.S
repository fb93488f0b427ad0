/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Linker script of the vdso-check fixtures, shaped like the kernel's
 * vdso32.lds/vdso64.lds: one read-only, executable PT_LOAD at 0 holding the
 * headers, PT_DYNAMIC inside it, and the symbols at one version node: the
 * real image's entries, from its own list (-I$(srcdir), tests/vdso-check.mk).
 */
#ifdef FIXTURE_bad_version
#define VDSO_VERSION_NODE LINUX_2.6.16
#else
#define VDSO_VERSION_NODE LINUX_2.6.15
#endif

PHDRS
{
	text PT_LOAD FILEHDR PHDRS FLAGS(5);	/* PF_R | PF_X */
	dynamic PT_DYNAMIC FLAGS(4);		/* PF_R */
}

SECTIONS
{
	. = SIZEOF_HEADERS;
	.hash		: { *(.hash) }			:text
	.gnu.hash	: { *(.gnu.hash) }
	.dynsym		: { *(.dynsym) }
	.dynstr		: { *(.dynstr) }
	.gnu.version	: { *(.gnu.version) }
	.gnu.version_d	: { *(.gnu.version_d) }
	.gnu.version_r	: { *(.gnu.version_r) }
	.dynamic	: { *(.dynamic) }		:text :dynamic
	/* Never empty, so it takes later sections back to :text alone. */
	.text		: { *(.text) }			:text
	.rodata		: { *(.rodata .rodata.*) }
	/DISCARD/	: { *(.note.GNU-stack) }
}

VERSION
{
	VDSO_VERSION_NODE {
	global:
#include "vdso-kernel/arch/powerpc/vdso/vdso_entries.lds.h"
#ifdef FIXTURE_extra_symbol
		__kernel_sync_dicache;
#endif
	local: *;
	};
}
