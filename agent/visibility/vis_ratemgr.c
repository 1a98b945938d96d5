/*
 * vis_ratemgr.c - the sampling rate manager of a sampler hierarchy (the
 * 8 x 256 -> 512 example of doc/glossary.md): at the end of each period of
 * the aggregate it reads which ticket boxes ran out and moves the
 * children's batch between fixed levels (64, 128, 256, 384, 512 by
 * default), so that a few hot children cannot take all of the aggregate's
 * tickets and starve the others.  Policy: see vis.h.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <string.h>

#include "agent/visibility/vis_sampler.h"

static const uint32_t default_levels[] = {64, 128, 256, 384, 512};

void vis_ratemgr_init(struct vis_ratemgr *rm, const uint32_t *levels, uint32_t n, uint32_t policy)
{
	memset(rm, 0, sizeof(*rm));
	if (!levels || n == 0) {
		levels = default_levels;
		n = sizeof(default_levels) / sizeof(default_levels[0]);
	}
	if (n > VIS_RATE_LEVELS_MAX)
		n = VIS_RATE_LEVELS_MAX;
	memcpy(rm->levels, levels, n * sizeof(*levels));
	rm->n_levels = n;
	rm->policy = policy;
}

uint32_t vis_ratemgr_level_of(const struct vis_ratemgr *rm, uint32_t batch)
{
	uint32_t best = 0;
	uint64_t bestd = UINT64_MAX;

	for (uint32_t i = 0; i < rm->n_levels; i++) {
		uint64_t d = batch > rm->levels[i] ? batch - rm->levels[i] : rm->levels[i] - batch;
		if (d < bestd) {
			bestd = d;
			best = i;
		}
	}
	return best;
}

/* Did the box run out in the period that started at start? */
static int ran_out(const struct vis_ticket *t, uint64_t start)
{
	return t->started && t->cur_start_ns == start && t->consumed_all;
}

static void set_level(struct vis_ticket *t, uint32_t batch)
{
	t->batch = batch;
	t->cap = batch;
}

void vis_ratemgr_run(struct vis_ratemgr *rm, const struct vis_ticket *agg,
		     struct vis_ticket *const *children, size_t n)
{
	uint64_t start = agg->cur_start_ns;
	int agg_out = ran_out(agg, start);
	int64_t leftover = agg->balance > 0 ? agg->balance : 0;

	rm->runs++;
	for (size_t i = 0; i < n; i++) {
		struct vis_ticket *c = children[i];
		uint32_t lv;
		int out;

		if (!c)
			continue;
		lv = vis_ratemgr_level_of(rm, c->batch);
		out = ran_out(c, start);
		if (agg_out) {
			if (out && lv > 0) {
				set_level(c, rm->levels[lv - 1]);
				rm->steps_down++;
			}
			continue;
		}
		if (lv + 1 >= rm->n_levels)
			continue;
		if (rm->policy == VIS_RATE_STEP) {
			set_level(c, rm->levels[lv + 1]);
			rm->steps_up++;
		} else if (out) {
			int64_t inc = (int64_t)rm->levels[lv + 1] - (int64_t)c->batch;
			if (inc <= leftover) {
				leftover -= inc;
				set_level(c, rm->levels[lv + 1]);
				rm->steps_up++;
			}
		}
	}
}
