/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A static big-endian ppc64 ELFv2 program (.abiversion 2): entered as
 * Linux enters ELFv2 programs, r12 holds the entry address, so it says
 * "entry r12 ok" and exits 0; anything else says "entry r12 wrong", 1.
 */
	.abiversion 2
	.text
	.globl	_start
	.type	_start, @function
_start:
	mr	31,12
	bcl	20,31,1f
1:	mflr	30
	addi	29,30,_start-1b		/* where we really are */
	li	28,0			/* exit status */
	addi	4,30,ok-1b
	li	5,ok_end-ok
	cmpld	29,31
	beq	2f
	li	28,1
	addi	4,30,bad-1b
	li	5,bad_end-bad
2:	li	0,4			/* write */
	li	3,1
	sc
	li	0,1			/* exit */
	mr	3,28
	sc
	.size	_start, .-_start
ok:	.ascii	"entry r12 ok\n"
ok_end:
bad:	.ascii	"entry r12 wrong\n"
bad_end:
	.section .note.GNU-stack,"",@progbits
