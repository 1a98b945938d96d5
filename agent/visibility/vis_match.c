/*
 * vis_match.c - attribute match: the eligibility test of samplers and of
 * the monitor set (event type, egress and ingress port, queue, traffic
 * class, drop reason, IP protocol, L4 ports).  An empty set matches any
 * value; a set is kept as sorted, merged ranges (vis_sampler.h), so a
 * test is a binary search over at most VIS_SET_MAX ranges.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <string.h>

#include "agent/visibility/vis_sampler.h"

void vis_match_init(struct vis_match *m)
{
	memset(m, 0, sizeof(*m));
	m->proto = -1;
}

int vis_set_add(struct vis_set *s, uint32_t v)
{
	return vis_set_add_range(s, v, v);
}

int vis_set_add_range(struct vis_set *s, uint32_t lo, uint32_t hi)
{
	uint32_t i = 0, j, k;
	uint64_t n = 0;

	if (lo > hi)
		return -1;
	/* ranges [i, j) overlap or touch lo..hi and merge with it */
	while (i < s->nr && (uint64_t)s->r[i].hi + 1 < lo)
		i++;
	for (j = i; j < s->nr && s->r[j].lo <= (uint64_t)hi + 1; j++)
		;
	if (i == j && s->nr >= VIS_SET_MAX)
		return -1;
	if (i < j) {
		lo = s->r[i].lo < lo ? s->r[i].lo : lo;
		hi = s->r[j - 1].hi > hi ? s->r[j - 1].hi : hi;
	}
	memmove(&s->r[i + 1], &s->r[j], (s->nr - j) * sizeof(s->r[0]));
	s->nr = s->nr - (j - i) + 1;
	s->r[i].lo = lo;
	s->r[i].hi = hi;
	for (k = 0; k < s->nr; k++)
		n += (uint64_t)s->r[k].hi - s->r[k].lo + 1;
	s->n = n;
	return 0;
}

int vis_set_has(const struct vis_set *s, uint32_t v)
{
	uint32_t a = 0, b = s->nr;

	/* the last range starting at or below v is r[a - 1] */
	while (a < b) {
		uint32_t m = a + (b - a) / 2;
		if (s->r[m].lo <= v)
			a = m + 1;
		else
			b = m;
	}
	return a > 0 && v <= s->r[a - 1].hi;
}

int vis_set_meets(const struct vis_set *a, const struct vis_set *b)
{
	uint32_t i = 0, j = 0;

	while (i < a->nr && j < b->nr) {
		if (a->r[i].hi < b->r[j].lo)
			i++;
		else if (b->r[j].hi < a->r[i].lo)
			j++;
		else
			return 1;
	}
	return 0;
}

uint32_t vis_set_nth(const struct vis_set *s, uint64_t i)
{
	for (uint32_t k = 0; k < s->nr; k++) {
		uint64_t len = (uint64_t)s->r[k].hi - s->r[k].lo + 1;
		if (i < len)
			return (uint32_t)(s->r[k].lo + i);
		i -= len;
	}
	return 0;
}

static int in_set(const struct vis_set *s, uint32_t v)
{
	return s->n == 0 || vis_set_has(s, v);
}

static int match_common(const struct vis_match *m, uint32_t type, uint32_t port, uint32_t in_port,
			uint32_t queue, uint32_t tc, uint32_t reason, const struct vis_flow *f)
{
	if (type && m->events && !(m->events & (1u << type)))
		return 0;
	if (!in_set(&m->ports, port) || !in_set(&m->in_ports, in_port) ||
	    !in_set(&m->queues, queue) || !in_set(&m->tcs, tc))
		return 0;
	/* reasons only concern events that have one */
	if (m->reasons.n && (type == VIS_EV_DROP || type == VIS_EV_FORENSICS) &&
	    !vis_set_has(&m->reasons, reason))
		return 0;
	if (m->proto >= 0 && (f->af == 0 || f->proto != (uint32_t)m->proto))
		return 0;
	if (m->sports.n && (f->af == 0 || !vis_set_has(&m->sports, f->sport)))
		return 0;
	if (m->dports.n && (f->af == 0 || !vis_set_has(&m->dports, f->dport)))
		return 0;
	return 1;
}

int vis_match_event(const struct vis_match *m, const struct vis_event *ev)
{
	return match_common(m, ev->type, ev->port, ev->in_port, ev->queue, ev->tc, ev->reason,
			    &ev->flow);
}

int vis_match_pkt(const struct vis_match *m, const struct vis_pkt_event *pe, uint32_t type)
{
	return match_common(m, type, pe->port, pe->in_port, pe->queue, pe->tc, pe->reason,
			    &pe->flow);
}
