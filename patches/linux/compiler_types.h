/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The uapi headers include <linux/compiler_types.h>, a line headers_install
 * strips as it exports them.  The vDSO's time functions read them as they
 * are in the tree, so this empty header stands in for the kernel's.
 */
