/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bench.py calls the function with the argument of __ppc_get_timebase_freq-
   inputs; the function takes none.  The parenthesized name is the function
   itself, not this macro.  */
#define __ppc_get_timebase_freq(ignored) ((__ppc_get_timebase_freq) ())
