/*
 * model_ext.c - the engine's hooks for its optional admission-path
 * mechanisms: ingress arbitration with accelerated memory (model_iarb.c)
 * and flow-based shared-buffer admission (model_flowbuf.c).  Both are
 * off unless the configuration names them (model_config iarb, fb); the
 * engine then sets m->ext_on and calls model_ext_arrive for every
 * unicast arrival that passed forwarding, and model_ext_release when a
 * packet the flow-based admission counted (MP_EXT) departs or is dropped
 * by the engine's own admission after it; the drop event of a packet
 * the flow-based admission dropped names its region
 * (model_ext_drop_note).
 *
 * The arbiter's SOP latency (47 or 87 clocks by default, never less than
 * its port's previous packet's) is added to the packet's transit time:
 * its arrival time is taken back by it (t_arr = arrival - latency), so
 * every delay figure (sojourn, 0:1039 transit, histograms, markers)
 * includes it; the packet enters its queue at its arrival (the queues
 * are not shifted by the pipeline's <= 87 clocks).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "agent/model/model_engine.h"
#include "agent/model/model_flowbuf.h"
#include "agent/model/model_iarb.h"
#include "agent/model/model_int.h"

int model_ext_setup(struct model *m, const struct model_config *cfg, struct model_err *err)
{
	m->cfg.iarb = NULL;
	m->cfg.fb = NULL;
	if (cfg->iarb != NULL) {
		struct model_iarb_config c = *cfg->iarb;
		c.n_ports = m->np; /* every port, the CPU port's too */
		m->iarb = model_iarb_new(&c, err);
		if (m->iarb == NULL)
			return -1;
		m->cfg.iarb = model_iarb_config(m->iarb);
	}
	if (cfg->fb != NULL) {
		struct model_fb_config *c = malloc(sizeof(*c));
		if (c == NULL)
			return -1;
		*c = *cfg->fb;
		c->n_ports = m->np;
		m->fb = model_fb_new(c, err);
		free(c);
		if (m->fb == NULL)
			return -1;
		m->cfg.fb = model_fb_config(m->fb);
	}
	m->ext_on = m->iarb != NULL || m->fb != NULL;
	return 0;
}

void model_ext_free(struct model *m)
{
	model_iarb_free(m->iarb);
	model_fb_free(m->fb);
	m->iarb = NULL;
	m->fb = NULL;
}

struct model_iarb *model_iarb_of(struct model *m)
{
	return m->iarb;
}

struct model_fb *model_fb_of(struct model *m)
{
	return m->fb;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The classifier's fields from a packet's header (Ethernet, one VLAN tag,
 * IPv4 or IPv6 (the addresses' last 32 bits), TCP or UDP ports); without
 * an IP header, the flow id stands for the source address. */
static void fb_key(const struct model *m, const struct mpkt *b, struct model_fb_key *k)
{
	memset(k, 0, sizeof(*k));
	const uint8_t *h = b->hdr != NULL ? b->hdr : model_src_header(m, b);
	uint32_t n = h != NULL ? b->hdr_len : 0, off = 12;
	k->dscp = (uint8_t)model_tos_dscp(b->tos);
	if (n < 14) {
		k->src_ip = b->flow_id;
		return;
	}
	uint16_t et = (uint16_t)(h[off] << 8 | h[off + 1]);
	if (et == 0x8100 && n >= 18) {
		k->vlan = (uint16_t)((h[14] << 8 | h[15]) & 0x0fff);
		off += 4;
		et = (uint16_t)(h[off] << 8 | h[off + 1]);
	}
	off += 2;
	unsigned l4 = 0;
	if (et == 0x0800 && n >= off + 20 && (h[off] >> 4) == 4 && (h[off] & 0x0f) >= 5) {
		const uint8_t *ip = h + off;
		k->dscp = ip[1] >> 2;
		k->proto = ip[9];
		k->src_ip = be32(ip + 12);
		k->dst_ip = be32(ip + 16);
		l4 = off + (ip[0] & 0x0fu) * 4u;
	} else if (et == 0x86dd && n >= off + 40 && (h[off] >> 4) == 6) {
		const uint8_t *ip = h + off;
		k->dscp = (uint8_t)(((ip[0] & 0x0f) << 2) | (ip[1] >> 6));
		k->proto = ip[6];
		k->src_ip = be32(ip + 20);
		k->dst_ip = be32(ip + 36);
		l4 = off + 40;
	} else {
		k->src_ip = b->flow_id;
		return;
	}
	if ((k->proto == 6 || k->proto == 17) && n >= l4 + 4) {
		k->src_port = (uint16_t)(h[l4] << 8 | h[l4 + 1]);
		k->dst_port = (uint16_t)(h[l4 + 2] << 8 | h[l4 + 3]);
	}
}

/* The flow-based admission's view of a packet: its region and its
 * (ingress port, priority), (egress port, priority); the priority is its
 * traffic class on both sides. */
static uint16_t fb_region(const struct model *m, const struct mpkt *b)
{
	struct model_fb_key k;
	fb_key(m, b, &k);
	return model_fb_classify(m->fb, &k);
}

unsigned model_ext_arrive(struct model *m, struct mport *P, struct mpg *g, struct mpkt *b)
{
	uint64_t now = m->now;
	if (m->iarb != NULL) {
		const struct mport *E = &m->ports[b->out_port];
		unsigned slot = E->tc_ucq[b->tc];
		struct model_iarb_in in = {0};
		in.pfc_ing = g->xoff_state;
		for (unsigned i = 0; i < MODEL_NUM_PG; i++)
			in.pfc_ing_res |= P->pg[i].xoff_state;
		in.pfc_egr = !(E->unpaused & (1u << slot));
		in.pfc_egr_res = E->unpaused != 0xffffu;
		uint64_t used = occ_cells(m, m->dev_uc.cb) + occ_cells(m, m->dev_mc.cb);
		in.egr_over = used * 10000 >= (uint64_t)m->cfg.total_cells *
						  model_iarb_config(m->iarb)->egr_over_pc;
		struct model_iarb_res r =
		    model_iarb_enqueue(m->iarb, (uint32_t)(P - m->ports), b->len, &in, now);
		if (r.dropped)
			return 1 + MODEL_DROP_ING_LIMIT;
		uint64_t lat = r.ready - now;
		b->t_arr = now >= lat ? now - lat : 0;
	}
	if (m->fb != NULL) {
		uint16_t reg = fb_region(m, b);
		struct model_fb_res r =
		    model_fb_admit(m->fb, reg, b->in_port, b->tc, b->out_port, b->tc, b->len, now);
		if (r.drop) {
			/* for its drop event (model_ext_drop_note) */
			m->fb_last.fb_drop = r.drop;
			m->fb_last.region = reg;
			memcpy(m->fb_last.pc, r.pc, sizeof(r.pc));
			m->fb_last.count = model_fb_count(m->fb, reg);
			m->fb_last.bound = model_fb_bound(m->fb);
			return 1 + (r.drop == MODEL_FB_DROP_WRED ? MODEL_DROP_WRED
								 : MODEL_DROP_ING_LIMIT);
		}
		b->flags |= MP_EXT;
	}
	return 0;
}

void model_ext_drop_note(struct model *m, struct model_event *e)
{
	if (!m->fb_last.fb_drop)
		return;
	if (e != NULL) {
		e->fb_drop = m->fb_last.fb_drop;
		e->fb_region = m->fb_last.region;
		memcpy(e->fb_pc, m->fb_last.pc, sizeof(e->fb_pc));
		e->fb_count = m->fb_last.count;
		e->fb_bound = m->fb_last.bound;
	}
	m->fb_last.fb_drop = 0;
}

void model_ext_release(struct model *m, struct mpkt *b)
{
	if (!(b->flags & MP_EXT) || m->fb == NULL)
		return;
	b->flags &= (uint8_t)~MP_EXT;
	model_fb_release(m->fb, fb_region(m, b), b->in_port, b->tc, b->out_port, b->tc, b->len,
			 m->now);
}
