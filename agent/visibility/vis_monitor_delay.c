/*
 * vis_monitor_delay.c - high queue delay: a deadline
 * profile has several levels, each with its own threshold, tag and
 * severity; a departure is tagged with the highest enabled level whose
 * threshold its delay exceeds.  A negative threshold disables a level.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include "agent/visibility/vis_monitor.h"

uint32_t vis_delay_level_of(const struct vis_delay_profile *p, uint64_t delay_ns)
{
	uint32_t best = 0;
	int64_t best_thr = -1;

	if (!p || delay_ns == UINT64_MAX)
		return 0;
	for (uint32_t i = 0; i < p->n && i < VIS_DELAY_LEVELS; i++) {
		int64_t thr = p->lv[i].threshold_ns;
		if (thr < 0 || delay_ns <= (uint64_t)thr)
			continue;
		if (thr >= best_thr) {
			best_thr = thr;
			best = i + 1;
		}
	}
	return best;
}
