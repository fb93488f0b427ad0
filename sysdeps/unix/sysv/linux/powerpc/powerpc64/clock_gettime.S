/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clock_gettime.  Linux PowerPC 64-bit version.
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

/* One TOC-relative load of __clock_gettime_vdso, which always holds
   something callable (clock_gettime-vdso.c), and the system-call
   convention on return (CR0[SO] set: r3 is an errno), as in PSEUDO_RET;
   the generic clock_gettime.c loads the vDSO entry through the GOT from
   GLRO, tests it for NULL, tests CR0[SO] with mfcr and then sign-extends
   the result: 21 instructions around the vDSO call on ELFv2.  The vDSO
   builds its own frame (callers may have none), so the return address
   waits in our caller's LR save slot and we need no frame of our own.  */

#include <sysdep.h>
#include <shlib-compat.h>

#ifdef SHARED
# define VDSO_POINTER __clock_gettime_vdso
#else
/* Static programs bind the vDSO after their IRELATIVE relocations; GLRO
   is the pointer, and NULL without the vDSO entry.  */
# define VDSO_POINTER _dl_vdso_clock_gettime64
#endif

	.section ".text"
ENTRY (__clock_gettime)
	mflr	r0
	addis	r12,r2,VDSO_POINTER@toc@ha
	std	r0,FRAME_LR_SAVE(r1)
	cfi_offset (lr, FRAME_LR_SAVE)
	ld	r12,VDSO_POINTER@toc@l(r12)
#ifndef SHARED
	cmpdi	r12,0
	bne+	1f
	addis	r12,r2,__clock_gettime_fallback@toc@ha
	addi	r12,r12,__clock_gettime_fallback@toc@l
1:
#endif
	mtctr	r12
	bctrl
	ld	r0,FRAME_LR_SAVE(r1)
	mtlr	r0
	cfi_restore (lr)
	bnslr+
	TAIL_CALL_SYSCALL_ERROR
END (__clock_gettime)

/* No vDSO entry: the system call, whose convention is the vDSO's.  A code
   address (the pointer holds code addresses, as GLRO does), needing no
   TOC.  */
	.globl	__clock_gettime_fallback
	.hidden	__clock_gettime_fallback
	.type	__clock_gettime_fallback,@notype
__clock_gettime_fallback:
	li	r0,SYS_ify (clock_gettime)
	sc
	blr
	.size	__clock_gettime_fallback,.-__clock_gettime_fallback

libc_hidden_def (__clock_gettime)
versioned_symbol (libc, __clock_gettime, clock_gettime, GLIBC_2_17)
/* clock_gettime moved to libc in version 2.17;
   old binaries may expect the symbol version it had in librt.  */
#if SHLIB_COMPAT (libc, GLIBC_2_2, GLIBC_2_17)
strong_alias (__clock_gettime, __clock_gettime_2)
compat_symbol (libc, __clock_gettime_2, clock_gettime, GLIBC_2_2)
#endif
