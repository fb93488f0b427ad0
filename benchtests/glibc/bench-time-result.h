/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Where time-inputs' "pointer" variant has time store its result.  */
static time_t bench_time_result;
