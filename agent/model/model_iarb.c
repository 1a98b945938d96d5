/*
 * model_iarb.c - ingress arbitration with accelerated memory (see
 * model_iarb.h): the per-packet decision (AM or PB), the in-order ready
 * times, AM and PB occupancy released when the SOP is read out, PFC on
 * the PB usage threshold, and the counters.
 *
 * Each ingress port keeps a FIFO of its packets in the arbiter, by ready
 * time; a packet's ready time is at least its predecessor's on the same
 * port, so no flow (a flow enters on one port) is ever reordered.  A
 * packet holds its AM unit (one SOP-sized unit, directly addressed) and
 * its PB units until its ready time.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/model/model_iarb.h"

struct iarb_ent {
	uint64_t ready;
	uint32_t am, pb; /* bytes held */
};

struct iarb_port {
	struct iarb_ent *ring;
	uint32_t cap, head, n;
	uint64_t last_ready;
	uint64_t am_peak_w[MODEL_NUM_WINDOWS];
	uint64_t since; /* congested since (when congested) */
	struct model_iarb_counters c;
};

struct model_iarb {
	struct model_iarb_config cfg;
	struct iarb_port *ports; /* n_ports + 1: the last is the arbiter's */
	uint64_t lat_ns[2];	 /* by mode */
	uint64_t am_scope;	 /* bytes: a port's share or the whole AM */
	uint64_t am_thresh;
	/* rate: bytes in the current and the previous window */
	uint64_t win_start, win_cur, win_prev;
	uint8_t pfc;
	uint8_t hyst_on; /* hysteresis: congested until all inputs release */
};

void model_iarb_defaults(struct model_iarb_config *c, uint32_t n_ports)
{
	memset(c, 0, sizeof(*c));
	c->n_ports = n_ports;
	c->sop_bytes = 128;
	c->unit_bytes = 128;
	c->pb_bytes = 5u << 20;
	/* the oversubscription input needs the peak rate: on with it */
	c->inputs = MODEL_IARB_IN_ALL & ~(1u << MODEL_IARB_IN_OVERSUB);
	c->oversub_pc = 7000;
	c->peak_bps = 0;
	c->rate_win_ns = 10000;
	c->hyst_pc = 8000;
	c->lat_am_clk = 47;
	c->lat_pb_clk = 87;
	c->clock_hz = 1000000000ULL;
	c->egr_over_pc = 9000;
}

uint64_t model_iarb_clk_ns(const struct model_iarb *ia, uint32_t clk)
{
	return ((uint64_t)clk * 1000000000ULL + ia->cfg.clock_hz - 1) / ia->cfg.clock_hz;
}

struct model_iarb *model_iarb_new(const struct model_iarb_config *c, struct model_err *err)
{
	if (c->n_ports == 0 || c->n_ports > MODEL_IARB_MAX_PORTS) {
		model_err_set(err, "ingress arbitration: %u ports (1..%u)", c->n_ports,
			      MODEL_IARB_MAX_PORTS);
		return NULL;
	}
	if (c->sop_bytes == 0 || c->unit_bytes == 0 || c->clock_hz == 0) {
		model_err_set(err,
			      "ingress arbitration: sop_bytes, unit_bytes and clock must be > 0");
		return NULL;
	}
	uint64_t am = c->am_bytes ? c->am_bytes : (uint64_t)c->sop_bytes * c->n_ports;
	if (am >= c->pb_bytes) {
		model_err_set(err,
			      "ingress arbitration: AM (%llu bytes) must be smaller than PB (%llu)",
			      (unsigned long long)am, (unsigned long long)c->pb_bytes);
		return NULL;
	}
	if (am < c->sop_bytes) {
		model_err_set(err, "ingress arbitration: AM (%llu bytes) holds no SOP of %u bytes",
			      (unsigned long long)am, c->sop_bytes);
		return NULL;
	}
	if ((c->inputs & (1u << MODEL_IARB_IN_OVERSUB)) && c->peak_bps == 0 && c->oversub_pc != 0) {
		model_err_set(
		    err, "ingress arbitration: the oversubscription input needs the peak rate");
		return NULL;
	}
	if (c->rate_win_ns == 0 || c->hyst_pc > 10000) {
		model_err_set(err,
			      "ingress arbitration: rate window must be > 0, hysteresis <= 10000");
		return NULL;
	}
	struct model_iarb *ia = calloc(1, sizeof(*ia));
	if (ia == NULL) {
		model_err_set(err, "ingress arbitration: out of memory");
		return NULL;
	}
	ia->cfg = *c;
	ia->cfg.am_bytes = am;
	ia->ports = calloc(c->n_ports + 1, sizeof(*ia->ports));
	if (ia->ports == NULL) {
		free(ia);
		model_err_set(err, "ingress arbitration: out of memory");
		return NULL;
	}
	ia->lat_ns[MODEL_IARB_AM] = model_iarb_clk_ns(ia, c->lat_am_clk);
	ia->lat_ns[MODEL_IARB_PB] = model_iarb_clk_ns(ia, c->lat_pb_clk);
	ia->am_scope = c->am_per_port ? am / c->n_ports : am;
	ia->am_thresh = c->am_thresh ? c->am_thresh : ia->am_scope;
	for (uint32_t i = 0; i <= c->n_ports; i++)
		for (int k = 0; k < 2; k++)
			ia->ports[i].c.lat[k].min = UINT64_MAX;
	return ia;
}

void model_iarb_free(struct model_iarb *ia)
{
	if (ia == NULL)
		return;
	for (uint32_t i = 0; i < ia->cfg.n_ports; i++)
		free(ia->ports[i].ring);
	free(ia->ports);
	free(ia);
}

const struct model_iarb_config *model_iarb_config(const struct model_iarb *ia)
{
	return &ia->cfg;
}

static uint32_t pc_of(uint64_t v, uint64_t of)
{
	if (of == 0)
		return 0;
	uint64_t p = v * 10000 / of;
	return p > 10000 ? 10000 : (uint32_t)p;
}

static void occ_add(struct iarb_port *p, int64_t am, int64_t pb)
{
	p->c.am_cur = (uint64_t)((int64_t)p->c.am_cur + am);
	p->c.pb_cur = (uint64_t)((int64_t)p->c.pb_cur + pb);
	if (am > 0)
		for (unsigned w = 0; w < MODEL_NUM_WINDOWS; w++)
			if (p->c.am_cur > p->am_peak_w[w])
				p->am_peak_w[w] = p->c.am_cur;
}

void model_iarb_advance(struct model_iarb *ia, uint64_t now)
{
	struct iarb_port *all = &ia->ports[ia->cfg.n_ports];
	for (uint32_t i = 0; i < ia->cfg.n_ports; i++) {
		struct iarb_port *p = &ia->ports[i];
		while (p->n > 0 && p->ring[p->head].ready <= now) {
			struct iarb_ent *e = &p->ring[p->head];
			occ_add(p, -(int64_t)e->am, -(int64_t)e->pb);
			occ_add(all, -(int64_t)e->am, -(int64_t)e->pb);
			p->head = (p->head + 1) % p->cap;
			p->n--;
		}
	}
	if (ia->pfc && all->c.pb_cur < ia->cfg.pb_pfc_bytes)
		ia->pfc = 0;
}

static int ring_push(struct iarb_port *p, const struct iarb_ent *e)
{
	if (p->n == p->cap) {
		uint32_t cap = p->cap ? p->cap * 2 : 64;
		struct iarb_ent *r = malloc(cap * sizeof(*r));
		if (r == NULL)
			return -1;
		for (uint32_t k = 0; k < p->n; k++)
			r[k] = p->ring[(p->head + k) % p->cap];
		free(p->ring);
		p->ring = r;
		p->cap = cap;
		p->head = 0;
	}
	p->ring[(p->head + p->n) % p->cap] = *e;
	p->n++;
	return 0;
}

/* The ingress rate the packet meets, as hundredths of % of the peak
 * rate: the bytes before it in the current window plus those of the
 * previous window, weighted by the part of it still inside a window
 * ending now (so the measure has one window of history to go by). */
static uint32_t rate_pc(struct model_iarb *ia, uint64_t now, uint32_t len)
{
	uint64_t W = ia->cfg.rate_win_ns;
	if (now >= ia->win_start + W) {
		uint64_t k = (now - ia->win_start) / W;
		ia->win_prev = k == 1 ? ia->win_cur : 0;
		ia->win_cur = 0;
		ia->win_start += k * W;
	}
	if (ia->cfg.peak_bps == 0) {
		ia->win_cur += len;
		return 0;
	}
	/* bytes x W, exact: cur x W + prev x (W - elapsed) */
	unsigned __int128 bw = (unsigned __int128)ia->win_cur * W +
			       (unsigned __int128)ia->win_prev * (W - (now - ia->win_start));
	unsigned __int128 pc =
	    bw * 8u * 1000000000u * 10000u / ((unsigned __int128)W * W * ia->cfg.peak_bps);
	ia->win_cur += len; /* after: the rate the packet meets */
	return pc > 1000000000u ? 1000000000u : (uint32_t)pc;
}

static void set_state(struct iarb_port *p, int congested, uint64_t now)
{
	if (congested == p->c.congested)
		return;
	p->c.transitions++;
	if (congested)
		p->since = now;
	else
		p->c.congested_ns += now - p->since;
	p->c.congested = (uint8_t)congested;
}

static void lat_note(struct model_iarb_lat *l, uint64_t ns)
{
	l->n++;
	l->sum += ns;
	if (ns < l->min)
		l->min = ns;
	if (ns > l->max)
		l->max = ns;
}

struct model_iarb_res model_iarb_enqueue(struct model_iarb *ia, uint32_t port, uint32_t len,
					 const struct model_iarb_in *in, uint64_t now)
{
	struct model_iarb_res r = {0};
	const struct model_iarb_config *c = &ia->cfg;
	model_iarb_advance(ia, now);
	struct iarb_port *p = &ia->ports[port], *all = &ia->ports[c->n_ports];
	uint32_t rpc = rate_pc(ia, now, len);

	/* the inputs: each measure against its threshold, strictly below
	 * accelerates; with hysteresis on and the arbiter congested, each
	 * numeric threshold is lowered to hyst_pc of itself */
	uint64_t am_fill = c->am_per_port ? p->c.am_cur : all->c.am_cur;
	uint64_t am_th = ia->am_thresh;
	uint64_t os_th = c->oversub_pc;
	if (c->hysteresis && ia->hyst_on) {
		am_th = am_th * c->hyst_pc / 10000;
		os_th = os_th * c->hyst_pc / 10000;
	}
	uint32_t causes = 0;
	if (am_fill >= am_th)
		causes |= 1u << MODEL_IARB_IN_AM;
	if (in != NULL) {
		if (in->pfc_ing)
			causes |= 1u << MODEL_IARB_IN_PFC_ING;
		if (in->pfc_egr)
			causes |= 1u << MODEL_IARB_IN_PFC_EGR;
		if (in->pfc_ing_res)
			causes |= 1u << MODEL_IARB_IN_PFC_ING_RES;
		if (in->pfc_egr_res)
			causes |= 1u << MODEL_IARB_IN_PFC_EGR_RES;
		if (in->egr_over)
			causes |= 1u << MODEL_IARB_IN_EGR_OVER;
	}
	if (c->peak_bps != 0 && rpc >= os_th)
		causes |= 1u << MODEL_IARB_IN_OVERSUB;
	causes &= c->inputs;
	/* the AM must have room for the SOP in any case */
	if (am_fill + c->sop_bytes > ia->am_scope)
		causes |= 1u << MODEL_IARB_IN_AM;
	int congested = causes != 0;
	ia->hyst_on = (uint8_t)congested;
	r.causes = causes;

	uint32_t units = (len + c->unit_bytes - 1) / c->unit_bytes;
	uint32_t sop_units = (c->sop_bytes + c->unit_bytes - 1) / c->unit_bytes;
	if (sop_units > units)
		sop_units = units;
	int mode = congested ? MODEL_IARB_PB : MODEL_IARB_AM;
	uint64_t pb_need =
	    (uint64_t)(mode == MODEL_IARB_AM && !c->sop_dup ? units - sop_units : units) *
	    c->unit_bytes;
	if (all->c.pb_cur + pb_need > c->pb_bytes) {
		r.dropped = 1;
		p->c.dropped++;
		all->c.dropped++;
		r.mode = (uint8_t)mode;
		r.pfc = ia->pfc;
		return r;
	}
	set_state(p, congested, now);
	set_state(all, congested, now);
	if (congested) {
		p->c.not_accel++;
		all->c.not_accel++;
		for (unsigned k = 0; k < MODEL_IARB_NIN; k++)
			if (causes & (1u << k)) {
				p->c.by_cause[k]++;
				all->c.by_cause[k]++;
			}
	} else {
		p->c.accel++;
		all->c.accel++;
	}
	/* the SOP's copies: the arbiter takes whichever is available
	 * earlier (the AM copy when there is one) */
	uint64_t lat = ia->lat_ns[mode];
	r.lat_clk = mode == MODEL_IARB_AM ? c->lat_am_clk : c->lat_pb_clk;
	uint64_t ready = now + lat;
	if (ready < p->last_ready)
		ready = p->last_ready; /* order within the port */
	p->last_ready = ready;
	r.ready = ready;
	r.mode = (uint8_t)mode;
	lat_note(&p->c.lat[mode], ready - now);
	lat_note(&all->c.lat[mode], ready - now);

	struct iarb_ent e = {ready, mode == MODEL_IARB_AM ? c->sop_bytes : 0, (uint32_t)pb_need};
	if (ring_push(p, &e) == 0) {
		occ_add(p, e.am, e.pb);
		occ_add(all, e.am, e.pb);
	}
	if (c->pb_pfc_bytes != 0 && !ia->pfc && all->c.pb_cur > c->pb_pfc_bytes) {
		ia->pfc = 1;
		all->c.pfc_on++;
	}
	r.pfc = ia->pfc;
	return r;
}

void model_iarb_read(struct model_iarb *ia, uint32_t port, unsigned w, uint64_t now,
		     struct model_iarb_counters *out)
{
	struct iarb_port *p = &ia->ports[port];
	/* a port's share of the AM, or the whole AM for the arbiter */
	uint64_t scope =
	    port < ia->cfg.n_ports ? ia->cfg.am_bytes / ia->cfg.n_ports : ia->cfg.am_bytes;
	*out = p->c;
	if (p->c.congested)
		out->congested_ns += now - p->since;
	if (w < MODEL_NUM_WINDOWS) {
		out->am_peak = p->am_peak_w[w];
		p->am_peak_w[w] = p->c.am_cur;
	}
	out->am_cur_pc = pc_of(out->am_cur, scope);
	out->am_peak_pc = pc_of(out->am_peak, scope);
}
