/*
 * model_marker.c - the seed 000 marker-based queue delay tracker.
 *
 * Two timestamps per queue (marker and tail) and one stored delay: the
 * delay is max(now - marker_ts, delay of the last departed marker),
 * refreshed on dequeue and by a background tick.  See model.h for the
 * exact rules; the FIG 7 trace is the unit test.
 */
#include "config.h"

#include <string.h>

#include "agent/model/model.h"

void model_marker_init(struct model_marker *mk)
{
	memset(mk, 0, sizeof(*mk));
}

void model_marker_enqueue(struct model_marker *mk, uint64_t id, uint64_t now)
{
	mk->tail_id = id;
	mk->tail_ts = now;
	mk->has_tail = 1;
	if (!mk->has_marker) {
		mk->marker_id = id;
		mk->marker_ts = now;
		mk->has_marker = 1;
		mk->departed_delay = 0;
	}
}

uint64_t model_marker_refresh(struct model_marker *mk, uint64_t now)
{
	if (!mk->has_marker) {
		mk->delay = 0;
		return 0;
	}
	uint64_t d = now >= mk->marker_ts ? now - mk->marker_ts : 0;
	mk->delay = d > mk->departed_delay ? d : mk->departed_delay;
	return mk->delay;
}

void model_marker_dequeue(struct model_marker *mk, uint64_t id, uint64_t now, int queue_empty)
{
	if (queue_empty)
		mk->has_tail = 0;
	if (mk->has_marker && id == mk->marker_id) {
		if (queue_empty || !mk->has_tail) {
			/* drained: keep the stored delay until the next refresh */
			mk->has_marker = 0;
			mk->departed_delay = 0;
			return;
		}
		mk->departed_delay = mk->delay;
		mk->marker_id = mk->tail_id;
		mk->marker_ts = mk->tail_ts;
	}
	model_marker_refresh(mk, now);
}
