/*
 * vis_match.c - attribute match: the eligibility test of samplers and of
 * the monitor set (event type, egress and ingress port, queue, traffic
 * class, drop reason, IP protocol, L4 ports).  An empty set matches any
 * value.
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
	if (vis_set_has(s, v) && s->n > 0)
		return 0;
	if (s->n >= VIS_SET_MAX)
		return -1;
	s->v[s->n++] = v;
	return 0;
}

int vis_set_has(const struct vis_set *s, uint32_t v)
{
	for (uint32_t i = 0; i < s->n; i++)
		if (s->v[i] == v)
			return 1;
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
