/*
 * vis_pipeline.c - building the visibility pipeline from a struct
 * vis_config (monitors with their per-queue settings, the samplers with
 * their members, the route of each event type) and running events
 * through it (see vis_pipeline.h).  Two rules sit here, above the
 * samplers: a congestion end follows the decision taken on its start,
 * and an event type without a route goes through an implicit ticket box
 * of default_rate events a second.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/visibility/vis_conf.h"
#include "agent/visibility/vis_pipeline.h"

struct vis_pipeline {
	struct vis_monitors *mon;
	size_t n;
	struct vis_sampler **s;	    /* all samplers, config order */
	struct vis_sampler **roots; /* those without a parent (notifications) */
	size_t n_roots;
	struct vis_sampler *route[VIS_EV_NTYPES];
	struct vis_pipeline_cbs cbs;
	struct vis_pipeline_stats st;
	uint32_t nports, nqueues;
	/* per queue (nqueues slots) and per port (one more) of each port: the
	 * decision on the open congestion episode's start, 0 none, else 1 +
	 * the reason (VIS_PASS = 0: passed) */
	uint8_t *cong;
	/* event types without a route: the implicit box (default_rate) */
	int has_dflt[VIS_EV_NTYPES];
	struct vis_ticket dflt[VIS_EV_NTYPES];
};

static int set_or_all(const struct vis_set *s, uint32_t v)
{
	return s->n == 0 || vis_set_has(s, v);
}

void vis_pipeline_free(struct vis_pipeline *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++)
		vis_sampler_free(p->s[i]);
	free(p->s);
	free(p->roots);
	free(p->cong);
	vis_monitors_free(p->mon);
	free(p);
}

struct vis_sampler *vis_pipeline_sampler_by_name(const struct vis_pipeline *p, const char *name)
{
	for (size_t i = 0; i < p->n; i++)
		if (strcmp(vis_sampler_name(p->s[i]), name) == 0)
			return p->s[i];
	return NULL;
}

static struct vis_pipeline *fail(struct vis_pipeline *p, char *err, size_t errlen, const char *what,
				 const char *name)
{
	snprintf(err, errlen, "visibility: %s%s%s", what, name ? " " : "", name ? name : "");
	vis_pipeline_free(p);
	return NULL;
}

static int build_monitors(struct vis_pipeline *p, const struct vis_config *vc, uint32_t nports,
			  uint32_t nqueues, char *err, size_t errlen)
{
	struct vis_monitors_conf mc;

	vis_monitors_conf_init(&mc, nports, nqueues);
	mc.drops = vc->drops;
	mc.drop_reasons = vc->drop_reasons;
	mc.forensics = 0;
	mc.forensics_port_scope = vc->forensics_port_scope;
	mc.has_eligibility = vc->has_eligibility;
	mc.eligibility = vc->eligibility;
	p->mon = vis_monitors_new(&mc, err, errlen);
	if (!p->mon)
		return -1;
	for (uint32_t port = 0; port < nports; port++) {
		for (uint32_t q = 0; q < nqueues; q++) {
			if (vc->forensics && set_or_all(&vc->forensics_ports, port) &&
			    set_or_all(&vc->forensics_queues, q))
				vis_monitors_set_forensics(p->mon, port, q, 1);
			/* later sections override earlier ones */
			for (size_t i = 0; i < vc->n_delay; i++) {
				const struct vis_conf_delay *d = &vc->delay[i];
				if (set_or_all(&d->ports, port) && set_or_all(&d->queues, q))
					vis_monitors_set_delay_profile(p->mon, port, q,
								       &d->profile);
			}
			for (size_t i = 0; i < vc->n_congestion; i++) {
				const struct vis_conf_congestion *g = &vc->congestion[i];
				if (g->port_scope || !set_or_all(&g->ports, port) ||
				    !set_or_all(&g->queues, q))
					continue;
				vis_monitors_set_queue_congestion(p->mon, port, q, g->high, g->low);
			}
		}
		for (size_t i = 0; i < vc->n_congestion; i++) {
			const struct vis_conf_congestion *g = &vc->congestion[i];
			if (g->port_scope && set_or_all(&g->ports, port))
				vis_monitors_set_port_congestion(p->mon, port, g->high, g->low);
		}
	}
	return 0;
}

struct vis_pipeline *vis_pipeline_new(const struct vis_config *vc, uint32_t nports,
				      uint32_t nqueues, const struct vis_pipeline_cbs *cbs,
				      char *err, size_t errlen)
{
	struct vis_pipeline *p = calloc(1, sizeof(*p));
	int *has_parent = NULL;

	if (!p)
		return fail(NULL, err, errlen, "out of memory", NULL);
	if (cbs)
		p->cbs = *cbs;
	p->nports = nports;
	p->nqueues = nqueues;
	if (build_monitors(p, vc, nports, nqueues, err, errlen) < 0) {
		vis_pipeline_free(p);
		return NULL;
	}
	if (vc->n_samplers) {
		p->s = calloc(vc->n_samplers, sizeof(*p->s));
		p->roots = calloc(vc->n_samplers, sizeof(*p->roots));
		has_parent = calloc(vc->n_samplers, sizeof(*has_parent));
		if (!p->s || !p->roots || !has_parent) {
			free(has_parent);
			return fail(p, err, errlen, "out of memory", NULL);
		}
	}
	for (size_t i = 0; i < vc->n_samplers; i++) {
		p->s[i] = vis_sampler_new(&vc->samplers[i].c, err, errlen);
		if (!p->s[i]) {
			free(has_parent);
			vis_pipeline_free(p);
			return NULL;
		}
		p->n++;
	}
	for (size_t i = 0; i < vc->n_samplers; i++) {
		for (uint32_t j = 0; j < vc->samplers[i].n_members; j++) {
			struct vis_sampler *m = NULL;
			for (size_t k = 0; k < p->n; k++) {
				if (strcmp(vis_sampler_name(p->s[k]), vc->samplers[i].members[j]) ==
				    0) {
					m = p->s[k];
					has_parent[k] = 1;
				}
			}
			if (!m || vis_sampler_add_member(p->s[i], m) < 0) {
				free(has_parent);
				return fail(p, err, errlen, "cannot add member",
					    vc->samplers[i].members[j]);
			}
		}
	}
	for (size_t i = 0; i < p->n; i++)
		if (!has_parent[i])
			p->roots[p->n_roots++] = p->s[i];
	free(has_parent);
	for (uint32_t t = 1; t < VIS_EV_NTYPES; t++) {
		const char *name = vc->route[t];
		if (t == VIS_EV_CONGESTION_END)
			name = vc->route[VIS_EV_CONGESTION_START];
		if (!name[0])
			continue;
		p->route[t] = vis_pipeline_sampler_by_name(p, name);
		if (!p->route[t])
			return fail(p, err, errlen, "no sampler named", name);
	}
	/* congestion ends share the start's box (they follow their start) */
	for (uint32_t t = VIS_EV_HIGH_DELAY; t <= VIS_EV_CONGESTION_START; t++) {
		if (p->route[t] || !vc->default_rate)
			continue;
		p->has_dflt[t] = 1;
		vis_ticket_init(&p->dflt[t], vc->default_rate, 1000000000ULL, vc->default_rate, 0,
				vc->seed ^ (0x64666c74ULL + t));
	}
	p->cong = calloc((size_t)nports * ((size_t)nqueues + 1), 1);
	if (!p->cong)
		return fail(p, err, errlen, "out of memory", NULL);
	return p;
}

/* The state slot of a congestion event's queue or port, NULL if out of
 * range. */
static uint8_t *cong_slot(struct vis_pipeline *p, const struct vis_event *ev)
{
	size_t q;

	if (ev->port >= p->nports)
		return NULL;
	if ((ev->flags & VIS_EVF_PORT_SCOPE) || ev->queue == VIS_NONE)
		q = p->nqueues;
	else if (ev->queue < p->nqueues)
		q = ev->queue;
	else
		return NULL;
	return &p->cong[(size_t)ev->port * (p->nqueues + 1) + q];
}

/* Does ev go on?  Its route's sampler, else the implicit box, else yes;
 * a congestion end whose start was decided here gets the same answer
 * (an end carries the peak and duration of a start that went out, and
 * without its start it means nothing). */
static int decide(struct vis_pipeline *p, const struct vis_event *ev, int *reason)
{
	uint32_t t = ev->type;
	uint32_t rt = t == VIS_EV_CONGESTION_END ? VIS_EV_CONGESTION_START : t;
	uint8_t *st = NULL;
	int pass = 1;

	*reason = VIS_PASS;
	if (t == VIS_EV_CONGESTION_START || t == VIS_EV_CONGESTION_END)
		st = cong_slot(p, ev);
	if (t == VIS_EV_CONGESTION_END && st && *st) {
		*reason = *st - 1;
		*st = 0;
		if (*reason != VIS_PASS)
			p->st.ends_of_rejected++;
		return *reason == VIS_PASS;
	}
	if (p->route[t]) {
		pass = vis_sampler_offer(p->route[t], ev, ev->t_ns, reason);
	} else if (p->has_dflt[rt]) {
		vis_ticket_advance(&p->dflt[rt], ev->t_ns);
		if (vis_ticket_available(&p->dflt[rt])) {
			vis_ticket_spend(&p->dflt[rt]);
		} else {
			pass = 0;
			*reason = VIS_REJ_NO_TICKET;
		}
	}
	if (t == VIS_EV_CONGESTION_START && st)
		*st = (uint8_t)(1 + (pass ? VIS_PASS : *reason));
	return pass;
}

static void on_event(void *arg, const struct vis_event *ev)
{
	struct vis_pipeline *p = arg;
	uint32_t t = ev->type;

	if (t >= VIS_EV_NTYPES)
		return;
	p->st.raised[t]++;
	if (ev->flags & VIS_EVF_SAMPLE_PORT) {
		p->st.port_samples++;
		if (p->cbs.port_sample)
			p->cbs.port_sample(p->cbs.arg, ev->port, ev->t_ns);
	}
	if (t != VIS_EV_DELAY_END) {
		int reason = VIS_PASS;

		if (!decide(p, ev, &reason)) {
			p->st.sampled_out[t]++;
			if (p->cbs.rejected)
				p->cbs.rejected(p->cbs.arg, ev, reason);
		} else {
			p->st.passed[t]++;
			if (p->cbs.event)
				p->cbs.event(p->cbs.arg, ev);
		}
	}
	/* end of a high-delay episode or of a forensics snapshot: after the
	 * event itself was sampled, reset the flow filters that ask for it */
	if (t == VIS_EV_DELAY_END || (t == VIS_EV_FORENSICS && (ev->flags & VIS_EVF_LAST)))
		for (size_t i = 0; i < p->n_roots; i++)
			vis_sampler_notify(p->roots[i], ev);
}

void vis_pipeline_feed(struct vis_pipeline *p, const struct vis_pkt_event *pe)
{
	vis_monitors_feed(p->mon, pe, on_event, p);
}

void vis_pipeline_depth(struct vis_pipeline *p, uint32_t port, uint32_t queue, uint64_t bytes,
			uint64_t t_ns)
{
	vis_monitors_depth(p->mon, port, queue, bytes, t_ns, on_event, p);
}

uint32_t vis_pipeline_watches(const struct vis_pipeline *p, uint32_t port, uint32_t queue)
{
	return vis_monitors_watches(p->mon, port, queue);
}

void vis_pipeline_gap(struct vis_pipeline *p, uint32_t port, uint32_t queue)
{
	vis_monitors_gap(p->mon, port, queue);
}

void vis_pipeline_get_stats(const struct vis_pipeline *p, struct vis_pipeline_stats *st)
{
	*st = p->st;
}

uint64_t vis_pipeline_drops_lost(const struct vis_pipeline *p)
{
	return p->st.sampled_out[VIS_EV_DROP];
}

size_t vis_pipeline_n_samplers(const struct vis_pipeline *p)
{
	return p->n;
}

struct vis_sampler *vis_pipeline_sampler(const struct vis_pipeline *p, size_t i)
{
	return i < p->n ? p->s[i] : NULL;
}

struct vis_monitors *vis_pipeline_monitors(const struct vis_pipeline *p)
{
	return p->mon;
}
