/*
 * vis_pipeline.c - building the visibility pipeline from a struct
 * vis_config (monitors with their per-queue settings, the samplers with
 * their members, the route of each event type) and running events
 * through it (see vis_pipeline.h).
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
	uint32_t nports;
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
	return p;
}

static void on_event(void *arg, const struct vis_event *ev)
{
	struct vis_pipeline *p = arg;
	struct vis_sampler *s;
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
		s = p->route[t];
		if (s && !vis_sampler_offer(s, ev, ev->t_ns, NULL)) {
			p->st.sampled_out[t]++;
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
