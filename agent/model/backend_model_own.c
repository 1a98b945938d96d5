/*
 * backend_model_own.c - the model backend's own counter records
 * (backend.h read_own_records): the ingress arbiter's counters (E:8) for
 * a port or the whole device, a port's ECN marks per queue (E:13, when
 * WRED marks ECN on one of its queues), and the flow-based admission's
 * regions (E:9, the device only: the 16 fullest regions that carried
 * traffic), encoded with proto/sflow_own.c.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/model/backend_model_own.h"
#include "agent/model/model_flowbuf.h"
#include "agent/model/model_iarb.h"
#include "proto/sflow_encode.h"
#include "proto/sflow_own.h"

static uint32_t sat32(uint64_t v)
{
	return v > SFLOW_OWN_MAX32 ? SFLOW_OWN_MAX32 : (uint32_t)v;
}

static void lat3(const struct model_iarb_lat *l, uint32_t *mn, uint32_t *mean, uint32_t *mx)
{
	*mn = l->n ? sat32(l->min) : 0;
	*mean = l->n ? sat32(l->sum / l->n) : 0;
	*mx = sat32(l->max);
}

static void enc_iarb(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t ent,
		     struct model_iarb *ia, uint32_t port, unsigned window, uint64_t now)
{
	struct model_iarb_counters c;
	struct sflow_own_iarb a;
	model_iarb_read(ia, port, window, now, &c);
	memset(&a, 0, sizeof(a));
	a.accelerated = c.accel;
	a.not_accelerated = c.not_accel;
	a.dropped = c.dropped;
	for (unsigned k = 0; k < SFLOW_OWN_IARB_CAUSES && k < MODEL_IARB_NIN; k++)
		a.by_cause[k] = c.by_cause[k];
	a.transitions = c.transitions;
	a.congested_ns = c.congested_ns;
	a.congested = c.congested;
	a.am_cur = sat32(c.am_cur);
	a.am_peak = sat32(c.am_peak);
	a.am_cur_pc = (int32_t)c.am_cur_pc;
	a.am_peak_pc = (int32_t)c.am_peak_pc;
	lat3(&c.lat[MODEL_IARB_AM], &a.am_lat_min, &a.am_lat_mean, &a.am_lat_max);
	lat3(&c.lat[MODEL_IARB_PB], &a.pb_lat_min, &a.pb_lat_mean, &a.pb_lat_max);
	sflow_own_enc_iarb(w, s, ent, &a);
}

static int by_peak(const void *pa, const void *pb)
{
	const struct sflow_own_region *a = pa, *b = pb;
	if (a->peak_pc != b->peak_pc)
		return a->peak_pc > b->peak_pc ? -1 : 1;
	return a->region < b->region ? -1 : a->region > b->region;
}

static int enc_regions(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t ent,
		       struct model_fb *fb)
{
	const struct model_fb_config *c = model_fb_config(fb);
	struct sflow_own_region *v = calloc(c->n_counts, sizeof(*v));
	if (v == NULL)
		return -1;
	uint32_t n = 0;
	for (uint32_t i = 0; i < c->n_counts; i++) {
		struct model_fb_region g;
		model_fb_read(fb, (uint16_t)i, &g);
		if (g.admitted + g.dropped + g.peak == 0)
			continue;
		struct sflow_own_region *r = &v[n++];
		r->region = i;
		r->cur = sat32(g.cur);
		r->peak = sat32(g.peak);
		r->bound = sat32(g.bound);
		r->cur_pc = (int32_t)g.cur_pc;
		r->peak_pc = (int32_t)g.peak_pc;
		r->state = g.state;
		r->flags = g.stc ? 1u : 0u;
		r->admitted = g.admitted;
		r->dropped = g.dropped;
		r->mirrored = g.mirrored;
	}
	qsort(v, n, sizeof(*v), by_peak);
	sflow_own_enc_flow_regions(w, s, ent, c->unit == MODEL_FB_UNIT_PKTS, n, v,
				   n > SFLOW_OWN_REGIONS_MAX ? SFLOW_OWN_REGIONS_MAX : n);
	free(v);
	return 0;
}

/* E:13 for a port whose WRED marks ECN on any queue: its queues' CE marks. */
static void enc_ecn(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t ent,
		    const struct model *m, uint32_t port)
{
	const struct model_config *cfg = model_config_of(m);
	const struct model_port_config *pc = &cfg->ports[port];
	struct model_port_drops d;
	int on = 0;

	for (unsigned q = 0; q < pc->n_ucq; q++)
		on |= pc->ucq[q].wred.enabled && pc->ucq[q].wred.ecn;
	for (unsigned q = 0; q < pc->n_mcq; q++)
		on |= pc->mcq[q].wred.enabled && pc->mcq[q].wred.ecn;
	if (!on || model_read_drops(m, port, &d) < 0)
		return;
	sflow_own_enc_queue_ecn(w, s, ent, d.ecn_ucq, pc->n_ucq, d.ecn_mcq, pc->n_mcq);
}

int bsf_backend_model_own_records(struct model *m, uint32_t nports, unsigned window, uint32_t port,
				  uint32_t enterprise, struct bsf_own_records *out, char *err,
				  size_t errlen)
{
	struct model_iarb *ia = model_iarb_of(m);
	struct model_fb *fb = model_fb_of(m);
	struct sflow_w w;
	struct sflow_sample_enc s;

	out->nrec = 0;
	out->len = 0;
	if (port != BSF_PORT_DEVICE && port >= nports) {
		snprintf(err, errlen, "model: no port %u", port);
		return -1;
	}
	memset(&s, 0, sizeof(s));
	sflow_w_init(&w, out->buf, sizeof(out->buf));
	if (ia != NULL)
		enc_iarb(&w, &s, enterprise, ia,
			 port == BSF_PORT_DEVICE ? model_iarb_config(ia)->n_ports : port, window,
			 model_now(m));
	if (port != BSF_PORT_DEVICE)
		enc_ecn(&w, &s, enterprise, m, port);
	if (fb != NULL && port == BSF_PORT_DEVICE && enc_regions(&w, &s, enterprise, fb) < 0) {
		snprintf(err, errlen, "model: out of memory");
		return -1;
	}
	if (w.err) {
		snprintf(err, errlen, "model: own records do not fit in %zu bytes",
			 sizeof(out->buf));
		return -1;
	}
	out->nrec = s.nrecords;
	out->len = (uint32_t)w.len;
	return 0;
}
