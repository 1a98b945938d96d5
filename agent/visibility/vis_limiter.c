/*
 * vis_limiter.c - the counter-based re-occurrence limiter and the
 * recurrent-only filter (doc/glossary.md).  Counts per
 * key, where a key is (event type, port, queue), or (event type, flow)
 * when by_flow is set.  Counts restart at each period boundary (multiples
 * of period_ns of the event clock).  An open-addressing table that holds
 * the keys of the current period only: it is emptied (and shrunk when it
 * was mostly unused) at each period change, and emptied when it would
 * grow past VIS_LIMITER_MAX_SLOTS.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "agent/visibility/vis_sampler.h"

struct vis_limiter_slot {
	uint64_t key; /* 0 = free */
	uint32_t seen, passed;
};

#define LIM_MIN_SIZE 64

int vis_limiter_init(struct vis_limiter *l, uint32_t limit, uint32_t after, uint64_t period_ns,
		     int by_flow)
{
	l->limit = limit;
	l->after = after;
	l->period_ns = period_ns;
	l->by_flow = by_flow;
	l->size = LIM_MIN_SIZE;
	l->used = 0;
	l->epoch = 0;
	l->overflows = 0;
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
		k = vis_event_flow_hash(ev) ^ ((uint64_t)ev->type << 56);
	else
		k = ((uint64_t)ev->type << 56) ^ ((uint64_t)ev->port << 24) ^ ev->queue;
	vis_rng_seed(&r, k);
	k = vis_rng_next(&r);
	return k ? k : 1;
}

/* Forget every key: at a period boundary (all counts restart) or when the
 * table reached VIS_LIMITER_MAX_SLOTS.  A table that the last period
 * used less than an eighth of shrinks to a quarter of its size. */
static void clear(struct vis_limiter *l)
{
	size_t nsize = l->size;

	while (nsize > LIM_MIN_SIZE && l->used < nsize / 8)
		nsize /= 4;
	if (nsize < LIM_MIN_SIZE)
		nsize = LIM_MIN_SIZE;
	if (nsize != l->size) {
		struct vis_limiter_slot *nt = calloc(nsize, sizeof(*nt));
		if (nt) {
			free(l->tab);
			l->tab = nt;
			l->size = nsize;
			l->used = 0;
			return;
		}
	}
	memset(l->tab, 0, l->size * sizeof(*l->tab));
	l->used = 0;
}

static int grow(struct vis_limiter *l)
{
	size_t nsize = l->size * 2;
	struct vis_limiter_slot *nt;

	if (nsize > VIS_LIMITER_MAX_SLOTS) {
		l->overflows++;
		clear(l);
		return 0;
	}
	nt = calloc(nsize, sizeof(*nt));
	if (!nt)
		return -1;
	for (size_t j = 0; j < l->size; j++) {
		size_t i;
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
	return 0;
}

static struct vis_limiter_slot *find(struct vis_limiter *l, uint64_t key)
{
	size_t i = key & (l->size - 1);

	while (l->tab[i].key) {
		if (l->tab[i].key == key)
			return &l->tab[i];
		i = (i + 1) & (l->size - 1);
	}
	if ((l->used + 1) * 4 > l->size * 3) {
		if (grow(l) < 0)
			return NULL;
		i = key & (l->size - 1);
		while (l->tab[i].key)
			i = (i + 1) & (l->size - 1);
	}
	l->tab[i].key = key;
	l->used++;
	return &l->tab[i];
}

/* The key's counts in the current period (the table only holds keys seen
 * in this period: it is cleared when the period changes). */
static struct vis_limiter_slot *slot_now(struct vis_limiter *l, const struct vis_event *ev,
					 uint64_t now)
{
	uint64_t epoch = l->period_ns ? now / l->period_ns : 0;

	if (epoch != l->epoch) {
		l->epoch = epoch;
		clear(l);
	}
	return find(l, key_of(l, ev));
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
