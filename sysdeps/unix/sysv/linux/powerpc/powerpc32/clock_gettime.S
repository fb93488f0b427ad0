/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clock_gettime.  Linux PowerPC 32-bit version.
   Copyright (C) 2026 Free Software Foundation, Inc.
   This file is part of the GNU C Library.

   The GNU C Library is free software; you can redistribute it and/or
   modify it under the terms of the GNU Lesser General Public
   License as published by the Free Software Foundation; either
   version 2.1 of the License, or (at your option) any later version.

   The GNU C Library is distributed in the hope that it will be useful,
   but WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
   Lesser General Public License for more details.

   You should have received a copy of the GNU Lesser General Public
   License along with the GNU C Library; if not, see
   <https://www.gnu.org/licenses/>.  */

/* __clock_gettime64 calls whatever __clock_gettime_vdso holds
   (clock_gettime-vdso.c: __kernel_clock_gettime64, else the fallback
   below), found PC-relative with no GOT pointer, so it needs neither a
   frame nor a NULL check; on return CR0[SO] set means r3 is an errno, as
   for a system call (PSEUDO_RET).  The vDSO builds its own frames and never writes at or
   above its caller's r1, so the return address waits in our caller's LR
   save word.  __clock_gettime (32-bit time_t) wraps it and gives EOVERFLOW
   past 2038.  */

#include <sysdep.h>
#include <shlib-compat.h>
#include <bits/errno.h>

#ifdef SHARED
# define VDSO_POINTER __clock_gettime_vdso
#else
/* Static programs bind the vDSO after their IRELATIVE relocations; GLRO
   is the pointer, and NULL without the vDSO entry.  */
# define VDSO_POINTER _dl_vdso_clock_gettime64
#endif

	.section ".text"
ENTRY (__clock_gettime64)
	mflr	r0
	bcl	20,31,1f
1:	mflr	r12
	stw	r0,4(r1)
	cfi_offset (lr, 4)
#ifdef SHARED
	addis	r12,r12,VDSO_POINTER-1b@ha
	lwz	r12,VDSO_POINTER-1b@l(r12)
#else
	addis	r11,r12,VDSO_POINTER-1b@ha
	lwz	r11,VDSO_POINTER-1b@l(r11)
	cmpwi	r11,0
	addis	r12,r12,__clock_gettime_fallback-1b@ha
	addi	r12,r12,__clock_gettime_fallback-1b@l
	beq-	2f
	mr	r12,r11
2:
#endif
	mtctr	r12
	bctrl
	lwz	r0,4(r1)
	mtlr	r0
	cfi_restore (lr)
	bnslr+
	TAIL_CALL_SYSCALL_ERROR
END (__clock_gettime64)
libc_hidden_def (__clock_gettime64)

/* Without __kernel_clock_gettime64: __clock_gettime64_slow (C, returns 0
   or an errno) in the vDSO's convention.  A code address, as GLRO's.
   Like the vDSO it writes nothing at or above its caller's r1: the LR save
   word there already holds __clock_gettime64's return address.  */
	.globl	__clock_gettime_fallback
	.hidden	__clock_gettime_fallback
	.type	__clock_gettime_fallback,@function
__clock_gettime_fallback:
	cfi_startproc
	mflr	r0
	stwu	r1,-32(r1)
	cfi_adjust_cfa_offset (32)
	stw	r0,20(r1)
	cfi_offset (lr, -12)
	bl	__clock_gettime64_slow@local
	lwz	r0,20(r1)
	addi	r1,r1,32
	cfi_adjust_cfa_offset (-32)
	mtlr	r0
	cfi_restore (lr)
	cmpwi	r3,0
	crclr	3
	beqlr+
	crset	3
	blr
	cfi_endproc
	.size	__clock_gettime_fallback,.-__clock_gettime_fallback

/* 32-bit time_t: __clock_gettime64 into a frame, EOVERFLOW when tv_sec
   does not fit.  struct __timespec64 (big-endian): tv_sec at 16..23,
   tv_nsec at 28.  */
ENTRY (__clock_gettime)
	mflr	r0
	stwu	r1,-32(r1)
	cfi_adjust_cfa_offset (32)
	stw	r0,36(r1)
	cfi_offset (lr, 4)
	stw	r4,8(r1)
	addi	r4,r1,16
	bl	__clock_gettime64@local
	lwz	r0,36(r1)
	cmpwi	r3,0
	mtlr	r0
	cfi_restore (lr)
	bne-	3f
	lwz	r5,16(r1)
	lwz	r6,20(r1)
	srawi	r7,r6,31
	cmpw	r5,r7
	bne-	4f
	lwz	r9,8(r1)
	lwz	r7,28(r1)
	stw	r6,0(r9)
	stw	r7,4(r9)
3:	addi	r1,r1,32
	cfi_adjust_cfa_offset (-32)
	blr
	cfi_adjust_cfa_offset (32)
4:	li	r3,EOVERFLOW
	addi	r1,r1,32
	cfi_adjust_cfa_offset (-32)
	TAIL_CALL_SYSCALL_ERROR
END (__clock_gettime)

libc_hidden_def (__clock_gettime)
versioned_symbol (libc, __clock_gettime, clock_gettime, GLIBC_2_17)
/* clock_gettime moved to libc in version 2.17;
   old binaries may expect the symbol version it had in librt.  */
#if SHLIB_COMPAT (libc, GLIBC_2_2, GLIBC_2_17)
strong_alias (__clock_gettime, __clock_gettime_2)
compat_symbol (libc, __clock_gettime_2, clock_gettime, GLIBC_2_2)
#endif
