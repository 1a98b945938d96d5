/*
 * vis_limiter.c - the counter-based re-occurrence limiter and the
 * recurrent-only filter (seed 000 section 3, items 5 and 6).  Counts per
 * key, where a key is (event type, port, queue), or (event type, flow)
 * when by_flow is set.  Counts restart at each period boundary (multiples
 * of period_ns of the event clock).  An open-addressing table that grows.
 */
#include "config.h"

#include <stdlib.h>

#include "agent/visibility/vis_sampler.h"

struct vis_limiter_slot {
	uint64_t key; /* 0 = free */
	uint64_t epoch;
	uint32_t seen, passed;
};

int vis_limiter_init(struct vis_limiter *l, uint32_t limit, uint32_t after, uint64_t period_ns,
		     int by_flow)
{
	l->limit = limit;
	l->after = after;
	l->period_ns = period_ns;
	l->by_flow = by_flow;
	l->size = 64;
	l->used = 0;
	l->tab = calloc(l->size, sizeof(*l->tab));
	return l->tab ? 0 : -1;
}

void vis_limiter_release(struct vis_limiter *l)
{
	free(l->tab);
	l->tab = NULL;
}

static uint64_t key_of(const struct vis_limiter *l, const struct vis_event *ev)
{
	struct vis_rng r;
	uint64_t k;

	if (l->by_flow)
		k = ev->flow_hash ^ ((uint64_t)ev->type << 56);
	else
		k = ((uint64_t)ev->type << 56) ^ ((uint64_t)ev->port << 24) ^ ev->queue;
	vis_rng_seed(&r, k);
	k = vis_rng_next(&r);
	return k ? k : 1;
}

static struct vis_limiter_slot *find(struct vis_limiter *l, uint64_t key, int create)
{
	size_t i;

	if (create && (l->used + 1) * 4 > l->size * 3) {
		size_t nsize = l->size * 2;
		struct vis_limiter_slot *nt = calloc(nsize, sizeof(*nt));
		if (!nt)
			return NULL;
		for (size_t j = 0; j < l->size; j++) {
			if (!l->tab[j].key)
				continue;
			i = l->tab[j].key & (nsize - 1);
			while (nt[i].key)
				i = (i + 1) & (nsize - 1);
			nt[i] = l->tab[j];
		}
		free(l->tab);
		l->tab = nt;
		l->size = nsize;
	}
	i = key & (l->size - 1);
	while (l->tab[i].key) {
		if (l->tab[i].key == key)
			return &l->tab[i];
		i = (i + 1) & (l->size - 1);
	}
	if (!create)
		return NULL;
	l->tab[i].key = key;
	l->used++;
	return &l->tab[i];
}

static struct vis_limiter_slot *slot_now(struct vis_limiter *l, const struct vis_event *ev,
					 uint64_t now)
{
	struct vis_limiter_slot *s = find(l, key_of(l, ev), 1);
	uint64_t epoch = l->period_ns ? now / l->period_ns : 0;

	if (s && s->epoch != epoch) {
		s->epoch = epoch;
		s->seen = 0;
		s->passed = 0;
	}
	return s;
}

int vis_limiter_check(struct vis_limiter *l, const struct vis_event *ev, uint64_t now)
{
	struct vis_limiter_slot *s = slot_now(l, ev, now);

	if (!s) /* no memory: do not limit */
		return VIS_PASS;
	if (s->seen < UINT32_MAX)
		s->seen++;
	if (l->after && s->seen <= l->after)
		return VIS_REJ_RECURRENT;
	if (l->limit && s->passed >= l->limit)
		return VIS_REJ_LIMITER;
	return VIS_PASS;
}

void vis_limiter_commit(struct vis_limiter *l, const struct vis_event *ev, uint64_t now)
{
	struct vis_limiter_slot *s = slot_now(l, ev, now);

	if (s && s->passed < UINT32_MAX)
		s->passed++;
}
