/*
 * vis_congestion.c - congestion thresholds with hysteresis (reported
 * like Arista LANZ): an episode starts when the depth
 * reaches the high threshold and ends when it falls to the low one; the
 * end reports the peak, the time of the peak and the duration.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <string.h>

#include "agent/visibility/vis_monitor.h"

int vis_congestion_init(struct vis_congestion_st *c, uint64_t high, uint64_t low)
{
	memset(c, 0, sizeof(*c));
	if (high && low > high)
		return -1;
	c->high = high;
	c->low = low;
	return 0;
}

int vis_congestion_update(struct vis_congestion_st *c, uint64_t depth, uint64_t t_ns,
			  uint64_t *duration_ns)
{
	if (c->high == 0)
		return VIS_CONG_NONE;
	if (!c->on) {
		if (depth < c->high)
			return VIS_CONG_NONE;
		c->on = 1;
		c->start_ns = t_ns;
		c->peak_bytes = depth;
		c->peak_ns = t_ns;
		c->starts++;
		return VIS_CONG_START;
	}
	if (depth > c->peak_bytes) {
		c->peak_bytes = depth;
		c->peak_ns = t_ns;
	}
	if (depth > c->low)
		return VIS_CONG_NONE;
	c->on = 0;
	c->ends++;
	*duration_ns = t_ns - c->start_ns;
	return VIS_CONG_END;
}
