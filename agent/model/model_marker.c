/*
 * model_marker.c - the marker-based queue delay tracker.
 *
 * Two timestamps per queue (marker and tail) and one stored delay: the
 * delay is max(now - marker_ts, delay of the last departed marker),
 * refreshed on dequeue and by a background tick.  See model.h for the
 * exact rules; the worked example is the unit test.  The rules themselves
 * are inline in model_int.h, for the engine.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <string.h>

#include "agent/model/model_int.h"

void model_marker_init(struct model_marker *mk)
{
	memset(mk, 0, sizeof(*mk));
}

void model_marker_enqueue(struct model_marker *mk, uint64_t id, uint64_t now)
{
	mk_enqueue(mk, id, now);
}

uint64_t model_marker_refresh(struct model_marker *mk, uint64_t now)
{
	return mk_refresh(mk, now);
}

void model_marker_dequeue(struct model_marker *mk, uint64_t id, uint64_t now, int queue_empty)
{
	mk_dequeue(mk, id, now, queue_empty);
}
