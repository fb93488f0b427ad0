/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel version note every Linux vDSO carries (C libraries read the
 * running kernel's version from it): the first Linux release of the data
 * layout this image is built for.  Beside it ppctime's own note, which
 * names that layout for the programs that map the image (ppctime-run), so
 * that they give it the data pages it reads (<vdso/datapage.h>).
 */
#include <vdso/datapage.h>

/* A note of name, type and one 4-byte word of desc. */
.macro word_note name, type, word
	.balign 4
	.long	2f - 1f		/* name size */
	.long	4f - 3f		/* desc size */
	.long	\type
1:	.asciz	"\name"
2:	.balign 4
3:	.long	\word
4:	.balign 4
.endm

	.section .note.Linux, "a", @note
	word_note Linux, 0, VDSO_LAYOUT_LINUX

	.section .note.ppctime, "a", @note
	word_note VDSO_LAYOUT_NOTE_NAME, VDSO_LAYOUT_NOTE_TYPE, VDSO_LAYOUT

	.section .note.GNU-stack, "", @progbits
