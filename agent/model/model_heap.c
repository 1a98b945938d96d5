/*
 * model_heap.c - the switch model's heaps: the 4-ary heap of the rare
 * events (PFC releases; struct model heap) by time then insertion number,
 * and a binary heap by time (struct mtk) for the calendar's far events
 * and the merge's waiting sources.  Neither is on the per-packet path.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdlib.h>

#include "agent/model/model_engine.h"

/* Heap events are ordered by (time, insertion number). */
static inline int ent_less(const struct mheap_ent *a, const struct mheap_ent *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

/* A 4-ary heap: children of i are 4i+1 .. 4i+4 (fewer levels than a
 * binary heap; the four children share a cache line or two). */
void model_heap_push(struct model *m, uint64_t t, uint32_t id)
{
	struct mheap_ent e = {t, m->seq++, id};
	uint32_t i = m->nheap++;
	struct mheap_ent *h = m->heap;
	while (i > 0) {
		uint32_t p = (i - 1) / 4;
		if (!ent_less(&e, &h[p]))
			break;
		h[i] = h[p];
		i = p;
	}
	h[i] = e;
	heap_root_moved(m, h[0].t);
}

/* Put e at the root's place and restore the heap order. */
void model_heap_sift_root(struct model *m, struct mheap_ent e)
{
	struct mheap_ent *h = m->heap;
	uint32_t n = m->nheap, i = 0;
	for (;;) {
		uint32_t c = 4 * i + 1;
		if (c >= n)
			break;
		uint32_t best = c;
		uint32_t end = c + 4 < n ? c + 4 : n;
		for (uint32_t k = c + 1; k < end; k++)
			best = ent_less(&h[k], &h[best]) ? k : best;
		if (!ent_less(&h[best], &e))
			break;
		h[i] = h[best];
		i = best;
	}
	h[i] = e;
	heap_root_moved(m, h[0].t);
}

void model_heap_pop(struct model *m)
{
	m->nheap--;
	if (m->nheap > 0)
		model_heap_sift_root(m, m->heap[m->nheap]);
	else
		heap_root_moved(m, UINT64_MAX);
}

/* Room for need events: 0, or -1 (out of memory). */
int model_heap_reserve(struct model *m, uint32_t need)
{
	if (need <= m->heap_cap)
		return 0;
	uint32_t cap = m->heap_cap ? m->heap_cap : 64;
	while (cap < need)
		cap *= 2;
	struct mheap_ent *h = realloc(m->heap, cap * sizeof(*h));
	if (h == NULL)
		return -1;
	m->heap = h;
	m->heap_cap = cap;
	return 0;
}

/* A binary min-heap of n entries by time (ties in any order): push, and
 * pop the first. */
void model_tk_push(struct mtk *h, uint32_t *n, uint64_t t, uint32_t id)
{
	uint32_t i = (*n)++;
	while (i > 0) {
		uint32_t p = (i - 1) / 2;
		if (h[p].t <= t)
			break;
		h[i] = h[p];
		i = p;
	}
	h[i].t = t;
	h[i].id = id;
}

void model_tk_pop(struct mtk *h, uint32_t *np)
{
	struct mtk e = h[--*np];
	uint32_t n = *np, i = 0;
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && h[c + 1].t < h[c].t)
			c++;
		if (e.t <= h[c].t)
			break;
		h[i] = h[c];
		i = c;
	}
	if (n > 0)
		h[i] = e;
}
