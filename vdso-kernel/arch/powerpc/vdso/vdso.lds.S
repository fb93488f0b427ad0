/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The vDSO image: one read-only, executable PT_LOAD at 0 holding headers,
 * dynamic symbols, notes and text, with the data page VDSO_NR_PAGES pages
 * below it.  Preprocessed with the target's compiler flags.
 */
#include <vdso/datapage.h>

#ifdef __powerpc64__
#ifdef __LITTLE_ENDIAN__
OUTPUT_FORMAT("elf64-powerpcle")
#else
OUTPUT_FORMAT("elf64-powerpc")
#endif
OUTPUT_ARCH(powerpc:common64)
#else
OUTPUT_FORMAT("elf32-powerpc")
OUTPUT_ARCH(powerpc:common)
#endif

SECTIONS
{
	PROVIDE(VDSO_DATA_SYMBOL = . - VDSO_NR_PAGES * PAGE_SIZE);
	. = SIZEOF_HEADERS;

	.hash		: { *(.hash) }			:text
	.gnu.hash	: { *(.gnu.hash) }
	.dynsym		: { *(.dynsym) }
	.dynstr		: { *(.dynstr) }
	.gnu.version	: { *(.gnu.version) }
	.gnu.version_d	: { *(.gnu.version_d) }
	.gnu.version_r	: { *(.gnu.version_r) }

	.note		: { *(.note.*) }		:text	:note

	. = ALIGN(16);
	.text		: { *(.text .text.*) }		:text
	.rodata		: { *(.rodata .rodata.*) }

	.dynamic	: { *(.dynamic) }		:text	:dynamic
	.eh_frame_hdr	: { *(.eh_frame_hdr) }		:text	:eh_frame_hdr
	.eh_frame	: { KEEP (*(.eh_frame)) }	:text

	/* The linker's GOT header only: the code has no GOT entries. */
	.got		: { *(.got .toc) }
	/* Anything here would make the image need relocating. */
	.rela.dyn	: { *(.rela.dyn .rela.*) }
	.rel.dyn	: { *(.rel.dyn .rel.*) }
	.plt		: { *(.plt .glink) }

	/DISCARD/	: {
		*(.note.GNU-stack)
		*(.branch_lt)
		*(.data .data.* .sdata*)
		*(.bss .sbss .dynbss .dynsbss)
		*(.opd)
	}
}

PHDRS
{
	text		PT_LOAD FILEHDR PHDRS FLAGS(5);	/* PF_R | PF_X */
	dynamic		PT_DYNAMIC FLAGS(4);		/* PF_R */
	note		PT_NOTE FLAGS(4);
	eh_frame_hdr	0x6474e550;			/* PT_GNU_EH_FRAME */
}

VERSION
{
	LINUX_2.6.15 {
	global:
#include "vdso_entries.lds.h"
	local: *;
	};
}
