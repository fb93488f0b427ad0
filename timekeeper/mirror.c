// SPDX-License-Identifier: GPL-2.0
/*
 * Mirror mode (mirror.h): which layout of the host's [vvar] to trust,
 * checked against the system calls, and each update's copy of it.
 */
#include "mirror.h"

#include <inttypes.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "datapage_writer.h"
#include "host_clock_ns.h"
#include "host_vvar.h"
#include "ppctime/fail.h"
#include "ppctime/tsc.h"
#include "timekeeper_internal.h"

#define MIRROR_STALE_NS		16000000000ull
#define MIRROR_TOLERANCE_NS	1000
#define MIRROR_VALIDATION_ROUNDS 16

/*
 * What mirror mode publishes for a host snapshot: the same functions,
 * moved to the present if the host left them long unrefreshed (the ppc
 * vDSO's 64-bit delta * mult must not overflow), offset as asked, with
 * cycle_last in the past.
 */
static bool mirror_stale(const struct timekeeper *tk, const struct vclock *vc,
			 uint64_t now)
{
	return (int64_t)(now - vc->cycle_last) > (int64_t)ns_to_ticks(tk, MIRROR_STALE_NS);
}

static void mirror_build(const struct timekeeper *tk, struct vclock vc[CS_BASES],
			 bool with_offset)
{
	uint64_t now = tsc_ordered();

	for (int i = 0; i < CS_BASES; i++)
		if (mirror_stale(tk, &vc[i], now))
			vclock_rebase(&vc[i], i, now);
	if (with_offset)
		vclock_offset_realtime(&vc[0], &tk->options.realtime_offset);
	vclock_keep_in_past(vc, tk->margin, tk->margin_min);
}

static bool host_plausible(const struct timekeeper *tk, const struct vclock *vc,
			   char *why, size_t whylen)
{
	uint64_t now = tsc_ordered();

	for (int i = 0; i < CS_BASES; i++) {
		uint64_t hz;

		if (vc[i].clock_mode != VDSO_CLOCKMODE_ARCHTIMER)
			return !fail(why, whylen, "data[%d] holds no TSC time",
				     i);
		if (vc[i].shift < 1 || vc[i].shift > 32 || vc[i].mult == 0)
			return !fail(why, whylen, "data[%d] has mult %u shift %u",
				     i, vc[i].mult, vc[i].shift);
		hz = ((unsigned __int128)NSEC_PER_SEC << vc[i].shift) / vc[i].mult;
		if (hz < tk->tb_ticks_per_sec * 98 / 100 ||
		    hz > tk->tb_ticks_per_sec * 102 / 100)
			return !fail(why, whylen, "data[%d]'s mult %u shift %u means "
				     "%" PRIu64 " Hz, the TSC runs at %" PRIu64 " Hz",
				     i, vc[i].mult, vc[i].shift, hz,
				     tk->tb_ticks_per_sec);
		if (vc[i].cycle_last - now < ns_to_ticks(tk, 1000000))
			continue;	/* a hair ahead: another CPU's read */
		if (now - vc[i].cycle_last > ns_to_ticks(tk, 1000 * NSEC_PER_SEC))
			return !fail(why, whylen, "data[%d]'s cycle_last is no "
				     "recent TSC value", i);
	}
	return true;
}

static uint64_t syscall_clock_ns(clockid_t id)
{
	struct timespec ts;

	syscall(SYS_clock_gettime, id, &ts);
	return ts_ns(&ts);
}

/*
 * Compute every served clock from a fresh copy, as the guest would, between
 * two real system calls (not the host's vDSO: that reads the same page).
 */
static bool host_validate(const struct timekeeper *tk, char *why, size_t whylen)
{
	static const int clocks[] = {
		VDSO_CLOCK_REALTIME, VDSO_CLOCK_MONOTONIC, VDSO_CLOCK_BOOTTIME,
		VDSO_CLOCK_TAI, VDSO_CLOCK_REALTIME_COARSE,
		VDSO_CLOCK_MONOTONIC_COARSE, VDSO_CLOCK_MONOTONIC_RAW,
	};

	for (int round = 0; round < MIRROR_VALIDATION_ROUNDS; round++) {
		for (size_t c = 0; c < sizeof(clocks) / sizeof(*clocks); c++) {
			int clk = clocks[c];
			struct vclock vc[CS_BASES];
			uint32_t seq[CS_BASES];
			uint64_t before, after, ours;

			before = syscall_clock_ns(clk);
			host_vvar_read(tk->host_vvar, tk->host_layout, vc, seq);
			if (!host_plausible(tk, vc, why, whylen))
				return false;
			mirror_build(tk, vc, false);
			ours = vclock_read(&vc[clk == VDSO_CLOCK_MONOTONIC_RAW],
					   clk, tsc_ordered());
			after = syscall_clock_ns(clk);
			if (ours + MIRROR_TOLERANCE_NS < before ||
			    ours > after + MIRROR_TOLERANCE_NS)
				return !fail(why, whylen, "clock %d computed from "
					     "it is %" PRId64 " ns off the system "
					     "call's [%" PRIu64 ", %" PRIu64 "]",
					     clk, ours < before ? (int64_t)(ours - before)
					     : (int64_t)(ours - after), before, after);
		}
	}
	return true;
}

bool mirror_setup(struct timekeeper *tk, char *why, size_t whylen)
{
	char tried[sizeof(tk->steer_reason)] = "";
	size_t used = 0;

	tk->host_vvar = find_host_vvar();
	if (!tk->host_vvar)
		return !fail(why, whylen, "no [vvar] mapping in /proc/self/maps");
	for (size_t l = 0; l < host_layout_count; l++) {
		char layout_why[128];

		tk->host_layout = &host_layouts[l];
		if (host_validate(tk, layout_why, sizeof(layout_why)))
			return true;
		if (used < sizeof(tried))
			used += snprintf(tried + used, sizeof(tried) - used, "%s%s: %s",
					 l ? "; " : "", host_layouts[l].kernels,
					 layout_why);
	}
	tk->host_layout = NULL;
	return !fail(why, whylen, "no known layout fits the host's [vvar] (a "
		     "time namespace? another clocksource?): %s", tried);
}

void mirror_update(struct timekeeper *tk)
{
	struct vclock vc[CS_BASES];
	uint32_t seq[CS_BASES];
	uint64_t now = tsc_ordered();
	bool stale = false;

	host_vvar_read(tk->host_vvar, tk->host_layout, vc, seq);
	for (int i = 0; i < CS_BASES; i++)
		stale |= mirror_stale(tk, &vc[i], now);
	if (tk->updates && !stale && seq[0] == tk->host_seq[0] &&
	    seq[1] == tk->host_seq[1])
		return;	/* unchanged: don't make readers retry for nothing */
	tk->host_seq[0] = seq[0];
	tk->host_seq[1] = seq[1];
	if (vc[0].clock_mode != VDSO_CLOCKMODE_ARCHTIMER ||
	    vc[1].clock_mode != VDSO_CLOCKMODE_ARCHTIMER) {
		/*
		 * The host left the TSC (unstable, another clocksource): its
		 * own vDSO now makes system calls, and so will the guest's
		 * until it comes back.
		 */
		vc[0].clock_mode = vc[1].clock_mode = VDSO_CLOCKMODE_NONE;
		page_publish(tk, vc);
		return;
	}
	tk->host_mult = vc[0].mult;
	tk->host_shift = vc[0].shift;
	mirror_build(tk, vc, true);
	page_publish(tk, vc);
}
