/*
 * vis_dedup.c - the duplicate filter of an aggregate sampler: copies of one multicast or mirrored
 * packet that reach the aggregate through different queues pass once.  Keyed on (event type,
 * multicast copy id) over the last VIS_DEDUP_SLOTS passed copies.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <string.h>

#include "agent/visibility/vis_sampler.h"

void vis_dedup_init(struct vis_dedup *d, uint64_t window_ns)
{
	memset(d, 0, sizeof(*d));
	d->window_ns = window_ns;
}

int vis_dedup_is_dup(const struct vis_dedup *d, const struct vis_event *ev, uint64_t now)
{
	if (ev->mc_id == 0)
		return 0;
	for (uint32_t i = 0; i < VIS_DEDUP_SLOTS; i++) {
		if (d->slot[i].mc_id != ev->mc_id || d->slot[i].type != ev->type)
			continue;
		if (d->window_ns == 0 || now - d->slot[i].t_ns <= d->window_ns)
			return 1;
	}
	return 0;
}

void vis_dedup_record(struct vis_dedup *d, const struct vis_event *ev, uint64_t now)
{
	if (ev->mc_id == 0)
		return;
	d->slot[d->next].type = ev->type;
	d->slot[d->next].mc_id = ev->mc_id;
	d->slot[d->next].t_ns = now;
	d->next = (d->next + 1) % VIS_DEDUP_SLOTS;
}
