/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel version note every Linux vDSO carries (C libraries read the
 * running kernel's version from it): 6.1, the ABI this image keeps.
 */
	.section .note.Linux, "a", @note
	.balign 4
	.long	2f - 1f		/* name size */
	.long	4f - 3f		/* desc size */
	.long	0		/* type */
1:	.asciz	"Linux"
2:	.balign 4
3:	.long	0x060100	/* KERNEL_VERSION(6, 1, 0) */
4:	.balign 4

	.section .note.GNU-stack, "", @progbits
