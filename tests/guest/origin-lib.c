// SPDX-License-Identifier: GPL-2.0
/* tests/guest/origin-probe.c's library, found through $ORIGIN. */
const char *origin_lib(void)
{
	return "found";
}
