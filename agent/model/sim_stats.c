/*
 * sim_stats.c - bsflow-sim's queue delays and class drops over the run
 * and over the current interval (sim_stats.h), from the model's queue
 * statistics: an interval's figures are the model's cumulative ones less
 * a copy taken when the interval began.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "agent/model/sim_stats.h"

/* Queue slots per port: unicast 0..7, multicast 8..15. */
#define SLOTS (2 * MODEL_MAX_QUEUES)

struct sim_stats {
	struct model *m;
	unsigned np; /* ports, the CPU port included */
	int intervals, failed;
	/* intervals: per slot, the histogram when the interval began (its
	 * counts a copy, made when first needed), and whether that copy could
	 * not be made */
	struct model_sojourns *base;
	uint8_t *lost;
	struct model_class_drops *drops_base; /* per port */
};

struct sim_stats *sim_stats_new(struct model *m, int intervals)
{
	struct sim_stats *s = calloc(1, sizeof *s);

	if (!s)
		return NULL;
	s->m = m;
	s->np = model_config_of(m)->nports + 1;
	s->intervals = intervals;
	if (intervals) {
		s->base = calloc((size_t)s->np * SLOTS, sizeof *s->base);
		s->lost = calloc((size_t)s->np * SLOTS, 1);
		s->drops_base = calloc(s->np, sizeof *s->drops_base);
	}
	if ((intervals && (!s->base || !s->lost || !s->drops_base)) || model_track_queues(m) < 0) {
		sim_stats_free(s);
		return NULL;
	}
	return s;
}

void sim_stats_free(struct sim_stats *s)
{
	if (!s)
		return;
	for (size_t k = 0; s->base && k < (size_t)s->np * SLOTS; k++)
		free((uint64_t *)s->base[k].c);
	free(s->base);
	free(s->lost);
	free(s->drops_base);
	free(s);
}

static size_t slot_of(unsigned port, unsigned queue, int mc)
{
	return (size_t)port * SLOTS + (mc ? MODEL_MAX_QUEUES : 0) + queue;
}

void sim_stats_delays(const struct sim_stats *s, unsigned port, unsigned queue, int mc,
		      int interval, const double *q, uint64_t *out, unsigned n)
{
	struct model_sojourns h;
	const struct model_sojourns *base = NULL;

	model_read_sojourns(s->m, port, queue, mc, &h);
	if (interval && s->intervals) {
		size_t k = slot_of(port, queue, mc);

		if (s->lost[k])
			h.c = NULL;
		base = &s->base[k];
	}
	for (unsigned i = 0; i < n; i++)
		out[i] = model_soj_quantile(&h, base, q[i]);
}

int sim_stats_drops(const struct sim_stats *s, unsigned port, int interval,
		    struct model_class_drops *d)
{
	if (port >= s->np || model_read_class_drops(s->m, port, d) < 0)
		return -1;
	if (interval && s->intervals) {
		for (unsigned g = 0; g < MODEL_NUM_PG; g++)
			d->pg[g] -= s->drops_base[port].pg[g];
		for (unsigned c = 0; c < MODEL_NUM_TC; c++)
			d->tc[c] -= s->drops_base[port].tc[c];
	}
	return 0;
}

/* base := h, its counts copied over the buckets h touched (made when
 * first needed).  -1 out of memory. */
static int copy_hist(struct model_sojourns *base, const struct model_sojourns *h)
{
	uint64_t *c = (uint64_t *)base->c;

	if (!c) {
		c = calloc(MODEL_SOJ_NB, sizeof *c);
		if (!c)
			return -1;
	}
	*base = *h;
	base->c = c;
	if (h->lo <= h->hi)
		memcpy(&c[h->lo], &h->c[h->lo], (size_t)(h->hi - h->lo + 1) * sizeof *c);
	return 0;
}

void sim_stats_next_interval(struct sim_stats *s)
{
	if (!s->intervals)
		return;
	for (unsigned p = 0; p < s->np; p++) {
		for (unsigned q = 0; q < SLOTS; q++) {
			int mc = q >= MODEL_MAX_QUEUES;
			unsigned qq = q % MODEL_MAX_QUEUES;
			size_t k = slot_of(p, qq, mc);
			struct model_sojourns h;

			/* (none for a queue that does not exist) */
			if (model_read_sojourns(s->m, p, qq, mc, &h) < 0 || !h.c)
				continue;
			s->lost[k] = copy_hist(&s->base[k], &h) < 0;
			if (s->lost[k])
				s->failed = 1;
		}
		model_read_class_drops(s->m, p, &s->drops_base[p]);
	}
	model_sojourns_restart(s->m);
}

int sim_stats_failed(const struct sim_stats *s)
{
	return s->failed || model_sojourns_missing(s->m) > 0;
}
