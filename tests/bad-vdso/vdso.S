/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A miniature vDSO shaped like ppctime's: entries that find the data page
 * inline and keep their return address in r11, calling "C" functions
 * (hand-written here, as the compiler would emit them).  Built as is it is
 * the control that passes every vdso-check rule; each FIXTURE_<name>
 * (listed in ./fixtures) breaks one thing.
 */
#ifdef __powerpc64__
#define PPC_LL		ld
#define PPC_STL		std
#define PPC_STLU	stdu
#else
#define PPC_LL		lwz
#define PPC_STL		stw
#define PPC_STLU	stwu
#endif

	.text

/* A function the image exports or calls. */
.macro FUNCTION name
	.type	\name,@function
\name:
.endm

.macro END name
	.size	\name,.-\name
.endm

/* An entry that reads the data page: its address, PC-relative and inline,
 * goes to the C function in r5; the return address waits in r11. */
.macro TIME_ENTRY name, cfunc
	.globl	\name
	FUNCTION \name
	mflr	11
	bcl	20,31,1f
1:	mflr	5
	addi	5,5,-(1b - \name)
	bl	\cfunc
	mtlr	11
	blr
	END	\name
.endm

/* A C function with nothing to say. */
.macro C_RETURN0 name
	FUNCTION \name
	li	3,0
	blr
	END	\name
.endm

#ifdef FIXTURE_datapage_call
	/* The pre-4.x shape: a helper every entry calls. */
	FUNCTION __get_datapage
	mflr	0
	bcl	20,31,1f
1:	mflr	3
	mtlr	0
	blr
	END	__get_datapage

	.globl	__kernel_clock_gettime
	FUNCTION __kernel_clock_gettime
	mflr	11
	bl	__get_datapage
	mr	5,3
	bl	__c_kernel_clock_gettime
	mtlr	11
	blr
	END	__kernel_clock_gettime
#else
	TIME_ENTRY __kernel_clock_gettime, __c_kernel_clock_gettime
#endif
	TIME_ENTRY __kernel_clock_getres, __c_kernel_clock_getres
	TIME_ENTRY __kernel_gettimeofday, __c_kernel_gettimeofday
	TIME_ENTRY __kernel_time, __c_kernel_time
	TIME_ENTRY __kernel_get_tbfreq, __c_kernel_get_tbfreq
#ifndef __powerpc64__
	TIME_ENTRY __kernel_clock_gettime64, __c_kernel_clock_gettime
	TIME_ENTRY __kernel_clock_getres_time64, __c_kernel_clock_getres
#endif

	/* No data page: the CPU number would come from an SPR. */
	.globl	__kernel_getcpu
	FUNCTION __kernel_getcpu
	li	3,0
	blr
	END	__kernel_getcpu

#ifdef FIXTURE_extra_symbol
	.globl	__kernel_sync_dicache
	FUNCTION __kernel_sync_dicache
	blr
	END	__kernel_sync_dicache
#endif

#ifdef FIXTURE_bcl8
	/* Unused, but bcl+8 anywhere is the bug. */
	FUNCTION __get_datapage_bcl8
	mflr	0
	bcl	20,31,1f
	.long	0
1:	mflr	3
	mtlr	0
	blr
	END	__get_datapage_bcl8
#endif

#ifdef FIXTURE_call_into_middle
	/* Unused helper with calls no image function starts at. */
	FUNCTION __vdso_helper
	bl	__c_kernel_time+4
	mtctr	3
	bctrl
	blr
	END	__vdso_helper
#endif

#ifdef FIXTURE_plt_call
	/* Unused helper calling a function from elsewhere: a PLT stub. */
	FUNCTION __vdso_helper
#ifdef __powerpc64__
	bl	vdso_external_function
	nop
#else
	bl	vdso_external_function@plt
#endif
	blr
	END	__vdso_helper
#endif

/* The syscall fallback: r11 saved on a scratch frame, restored from it
 * right after sc (which clobbers it). */
	FUNCTION __c_kernel_clock_gettime
	PPC_STLU 1,-64(1)
	PPC_STL	11,32(1)
	li	0,246
	sc
	PPC_LL	11,32(1)
	addi	1,1,64
	blr
	END	__c_kernel_clock_gettime

	FUNCTION __c_kernel_clock_getres
#ifdef FIXTURE_libgcc_call
	bl	__muldi3
#endif
#ifdef FIXTURE_c_writes_r30
	li	30,0
#endif
#ifdef FIXTURE_c_writes_r2
	addis	2,12,0
	addi	2,2,0
#endif
#ifdef FIXTURE_c_mflr
	mflr	0
#endif
#ifdef FIXTURE_c_call
	bl	__c_kernel_time
#endif
#ifdef FIXTURE_c_writes_r11
	li	11,0
#endif
#ifdef FIXTURE_c_caller_frame
	PPC_STL	3,16(1)
#endif
#ifdef FIXTURE_c_sc_no_restore
	li	0,247
	sc
#endif
	li	3,0
	blr
	END	__c_kernel_clock_getres

	C_RETURN0 __c_kernel_gettimeofday
	C_RETURN0 __c_kernel_time
	C_RETURN0 __c_kernel_get_tbfreq

#ifdef FIXTURE_libgcc_call
	/* As if linked in from libgcc.a. */
	FUNCTION __muldi3
	mullw	3,3,5
	blr
	END	__muldi3
#endif

#ifdef FIXTURE_writable_data
	.data
	.long	1
#endif

#ifdef FIXTURE_dynamic_reloc
	.section .rodata,"a"
	.balign	8
	.long	__kernel_time
#endif
