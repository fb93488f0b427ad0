/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Where gettimeofday-inputs' "tv-tz" variant has the time zone written.  */
static struct timezone bench_timezone;
