/*
 * model_flowbuf.c - flow-based shared-buffer admission (see
 * model_flowbuf.h): classification into regions, the three kinds of
 * counts, admission states and decision rules, flow-based WRED,
 * mirroring and the short-time-change flag, and the region counters.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/model/model_flowbuf.h"

#define PC_FULL 10000u

struct fb_region {
	uint64_t cur, peak;
	uint64_t admitted, dropped, dropped_wred, mirrored, stc_events;
	/* short-time change: the window's start and the count then */
	uint64_t stc_t, stc_base;
	uint8_t stc, stc_seen;
};

struct model_fb {
	struct model_fb_config cfg;
	uint32_t n_states;
	struct fb_region *reg;
	uint32_t *st_pc; /* per state: its percentage at the last refresh */
	uint64_t *occ;	 /* ingress then egress: port * 8 + prio */
	uint64_t used;
	uint64_t refresh_t;
	uint8_t refreshed; /* st_pc valid */
	uint64_t rng;
};

void model_fb_defaults(struct model_fb_config *c, uint32_t n_ports, uint64_t pool)
{
	memset(c, 0, sizeof(*c));
	c->n_ports = n_ports;
	c->unit = MODEL_FB_UNIT_BYTES;
	c->flow_on = 1;
	c->classify = MODEL_FB_CLASS_HASH;
	c->encoding = MODEL_FB_STATE_BINARY;
	c->levels = 4;
	c->rule = MODEL_FB_RULE_ALL;
	c->combine = MODEL_FB_COMB_SUM;
	c->hash_fields = MODEL_FB_M_SRC | MODEL_FB_M_DST | MODEL_FB_M_SPORT | MODEL_FB_M_DPORT |
			 MODEL_FB_M_PROTO;
	c->pool = pool;
	c->n_counts = 64;
	c->flow_bound.alpha = 1.0;
	c->occ_bound.alpha = 1.0;
	c->mirror_cong_pc = 5000;
	c->seed = 1;
}

struct model_fb *model_fb_new(const struct model_fb_config *c, struct model_err *err)
{
	if (c->n_ports == 0 || c->n_ports > MODEL_FB_MAX_PORTS) {
		model_err_set(err, "flow-based admission: %u ports (1..%u)", c->n_ports,
			      MODEL_FB_MAX_PORTS);
		return NULL;
	}
	if (c->n_counts == 0 || c->n_counts > MODEL_FB_MAX_COUNTS) {
		model_err_set(err, "flow-based admission: %u flow regions (1..%u)", c->n_counts,
			      MODEL_FB_MAX_COUNTS);
		return NULL;
	}
	uint32_t ns = c->n_states ? c->n_states : c->n_counts;
	if (ns > c->n_counts) {
		model_err_set(err, "flow-based admission: %u states for %u regions", ns,
			      c->n_counts);
		return NULL;
	}
	if (c->n_states)
		for (uint32_t i = 0; i < c->n_counts; i++)
			if (c->count_state[i] >= ns) {
				model_err_set(
				    err, "flow-based admission: region %u feeds state %u of %u", i,
				    c->count_state[i], ns);
				return NULL;
			}
	if (c->n_rules > MODEL_FB_MAX_RULES) {
		model_err_set(err, "flow-based admission: %u rules (max %u)", c->n_rules,
			      MODEL_FB_MAX_RULES);
		return NULL;
	}
	for (uint32_t i = 0; i < c->n_rules; i++)
		if (c->rules[i].count >= c->n_counts || c->rules[i].src_len > 32 ||
		    c->rules[i].dst_len > 32) {
			model_err_set(err, "flow-based admission: rule %u names region %u of %u", i,
				      c->rules[i].count, c->n_counts);
			return NULL;
		}
	if (c->wred_max != 0 &&
	    (c->wred_min >= c->wred_max || c->wred_maxp < 0.0 || c->wred_maxp > 1.0)) {
		model_err_set(err,
			      "flow-based admission: WRED needs min < max and 0 <= max_p <= 1");
		return NULL;
	}
	if (c->encoding == MODEL_FB_STATE_LEVELS && c->levels < 2) {
		model_err_set(err, "flow-based admission: multi-level states need >= 2 levels");
		return NULL;
	}
	if (c->pool == 0) {
		model_err_set(err, "flow-based admission: the pool size must be > 0");
		return NULL;
	}
	struct model_fb *fb = calloc(1, sizeof(*fb));
	if (fb == NULL)
		goto oom;
	fb->cfg = *c;
	fb->n_states = ns;
	if (!c->n_states)
		for (uint32_t i = 0; i < c->n_counts; i++)
			fb->cfg.count_state[i] = (uint16_t)i;
	fb->reg = calloc(c->n_counts, sizeof(*fb->reg));
	fb->st_pc = calloc(ns, sizeof(*fb->st_pc));
	fb->occ = calloc((size_t)c->n_ports * MODEL_FB_NPRIO * 2, sizeof(*fb->occ));
	if (fb->reg == NULL || fb->st_pc == NULL || fb->occ == NULL) {
		model_fb_free(fb);
		goto oom;
	}
	fb->rng = c->seed ? c->seed : 1;
	return fb;
oom:
	model_err_set(err, "flow-based admission: out of memory");
	return NULL;
}

void model_fb_free(struct model_fb *fb)
{
	if (fb == NULL)
		return;
	free(fb->reg);
	free(fb->st_pc);
	free(fb->occ);
	free(fb);
}

const struct model_fb_config *model_fb_config(const struct model_fb *fb)
{
	return &fb->cfg;
}

uint64_t model_fb_dt(double alpha, uint64_t pool, uint64_t used)
{
	if (used >= pool)
		return 0;
	return (uint64_t)(alpha * (double)(pool - used));
}

static uint64_t bound_of(const struct model_fb *fb, const struct model_fb_bound *b)
{
	return b->stat ? b->stat : model_fb_dt(b->alpha, fb->cfg.pool, fb->used);
}

/* count / bound in hundredths of %: below PC_FULL exactly when count <
 * bound; a zero bound admits nothing. */
static uint32_t pc_of(uint64_t count, uint64_t bound)
{
	if (bound == 0)
		return count ? UINT32_MAX : PC_FULL;
	uint64_t p = count * PC_FULL / bound;
	return p > UINT32_MAX ? UINT32_MAX : (uint32_t)p;
}

uint32_t model_fb_encode(const struct model_fb *fb, uint32_t pc)
{
	switch (fb->cfg.encoding) {
	case MODEL_FB_STATE_BINARY:
		return pc >= PC_FULL; /* 1: drop */
	case MODEL_FB_STATE_LEVELS: {
		uint32_t L = fb->cfg.levels;
		uint64_t l = (uint64_t)pc * (L - 1) / PC_FULL;
		return l >= L - 1 ? L - 1 : (uint32_t)l; /* L - 1: drop */
	}
	default:
		return pc;
	}
}

/* The combined count of state s. */
static uint64_t state_count(const struct model_fb *fb, uint32_t s)
{
	uint64_t sum = 0, max = 0, n = 0;
	for (uint32_t i = 0; i < fb->cfg.n_counts; i++)
		if (fb->cfg.count_state[i] == s) {
			uint64_t v = fb->reg[i].cur;
			sum += v;
			if (v > max)
				max = v;
			n++;
		}
	switch (fb->cfg.combine) {
	case MODEL_FB_COMB_MAX:
		return max;
	case MODEL_FB_COMB_MEAN:
		return n ? sum / n : 0;
	default:
		return sum;
	}
}

static uint32_t state_pc_now(const struct model_fb *fb, uint32_t s)
{
	return pc_of(state_count(fb, s), bound_of(fb, &fb->cfg.flow_bound));
}

static void refresh(struct model_fb *fb, uint64_t now)
{
	for (uint32_t s = 0; s < fb->n_states; s++)
		fb->st_pc[s] = state_pc_now(fb, s);
	fb->refresh_t = now;
	fb->refreshed = 1;
}

/* The state of state s for a decision at now: live without a refresh
 * period, else as of the last refresh. */
static uint32_t state_pc(struct model_fb *fb, uint32_t s, uint64_t now)
{
	if (fb->cfg.refresh_ns == 0)
		return state_pc_now(fb, s);
	if (!fb->refreshed || now >= fb->refresh_t + fb->cfg.refresh_ns)
		refresh(fb, now);
	return fb->st_pc[s];
}

static uint64_t units(const struct model_fb *fb, uint32_t len)
{
	return fb->cfg.unit == MODEL_FB_UNIT_PKTS ? 1 : len;
}

static uint64_t *occ_at(const struct model_fb *fb, int egress, uint32_t port, unsigned prio)
{
	return &fb->occ[((size_t)egress * fb->cfg.n_ports + port) * MODEL_FB_NPRIO +
			(prio & (MODEL_FB_NPRIO - 1))];
}

/* The short-time-change window of region r at now. */
static int stc_step(struct model_fb *fb, struct fb_region *r, uint64_t now)
{
	uint64_t W = fb->cfg.stc_win_ns;
	if (W == 0)
		return 0;
	if (now >= r->stc_t + W) {
		r->stc_t = now - (now - r->stc_t) % W;
		r->stc_base = r->cur;
		r->stc = 0;
		r->stc_seen = 0;
	}
	uint64_t d = r->cur > r->stc_base ? r->cur - r->stc_base : r->stc_base - r->cur;
	if (d > fb->cfg.stc_delta && !r->stc_seen) {
		r->stc = 1;
		r->stc_seen = 1;
		r->stc_events++;
		return 1;
	}
	return 0;
}

static uint64_t rng_next(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

static uint32_t fnv(uint32_t h, uint32_t v, int nbytes)
{
	for (int i = 0; i < nbytes; i++) {
		h ^= (v >> (8 * i)) & 0xffu;
		h *= 16777619u;
	}
	return h;
}

static int pfx_match(uint32_t a, uint32_t b, uint8_t len)
{
	if (len == 0)
		return 1;
	uint32_t m = len >= 32 ? 0xffffffffu : ~(0xffffffffu >> len);
	return (a & m) == (b & m);
}

static int rule_match(const struct model_fb_rule *r, const struct model_fb_key *k)
{
	const struct model_fb_key *q = &r->key;
	if ((r->match & MODEL_FB_M_SRC) && !pfx_match(k->src_ip, q->src_ip, r->src_len))
		return 0;
	if ((r->match & MODEL_FB_M_DST) && !pfx_match(k->dst_ip, q->dst_ip, r->dst_len))
		return 0;
	if ((r->match & MODEL_FB_M_SPORT) && k->src_port != q->src_port)
		return 0;
	if ((r->match & MODEL_FB_M_DPORT) && k->dst_port != q->dst_port)
		return 0;
	if ((r->match & MODEL_FB_M_PROTO) && k->proto != q->proto)
		return 0;
	if ((r->match & MODEL_FB_M_DSCP) && k->dscp != q->dscp)
		return 0;
	if ((r->match & MODEL_FB_M_VLAN) && k->vlan != q->vlan)
		return 0;
	if ((r->match & MODEL_FB_M_BINDING) && k->binding != q->binding)
		return 0;
	return 1;
}

uint16_t model_fb_classify(const struct model_fb *fb, const struct model_fb_key *k)
{
	const struct model_fb_config *c = &fb->cfg;
	if (c->classify == MODEL_FB_CLASS_RULES)
		for (uint32_t i = 0; i < c->n_rules; i++)
			if (rule_match(&c->rules[i], k))
				return c->rules[i].count;
	uint32_t h = 2166136261u, f = c->hash_fields;
	if (f & MODEL_FB_M_SRC)
		h = fnv(h, k->src_ip, 4);
	if (f & MODEL_FB_M_DST)
		h = fnv(h, k->dst_ip, 4);
	if (f & MODEL_FB_M_SPORT)
		h = fnv(h, k->src_port, 2);
	if (f & MODEL_FB_M_DPORT)
		h = fnv(h, k->dst_port, 2);
	if (f & MODEL_FB_M_PROTO)
		h = fnv(h, k->proto, 1);
	if (f & MODEL_FB_M_DSCP)
		h = fnv(h, k->dscp, 1);
	if (f & MODEL_FB_M_VLAN)
		h = fnv(h, k->vlan, 2);
	if (f & MODEL_FB_M_BINDING)
		h = fnv(h, k->binding, 4);
	return (uint16_t)(h % c->n_counts);
}

struct model_fb_res model_fb_admit(struct model_fb *fb, uint16_t cnt, uint32_t in_port, unsigned rp,
				   uint32_t out_port, unsigned tp, uint32_t len, uint64_t now)
{
	const struct model_fb_config *c = &fb->cfg;
	struct model_fb_res res = {0};
	struct fb_region *r = &fb->reg[cnt];
	uint64_t u = units(fb, len);
	res.count = cnt;
	uint64_t *oi = occ_at(fb, 0, in_port, rp), *oo = occ_at(fb, 1, out_port, tp);
	uint64_t ob = bound_of(fb, &c->occ_bound);
	res.pc[1] = pc_of(*oi, ob);
	res.pc[2] = pc_of(*oo, ob);
	int a_in = res.pc[1] < PC_FULL, a_out = res.pc[2] < PC_FULL, ok;
	if (c->flow_on) {
		res.stc_event = (uint8_t)stc_step(fb, r, now);
		res.pc[0] = state_pc(fb, c->count_state[cnt], now);
		int a_fl = res.pc[0] < PC_FULL && !(c->stc_admit && r->stc);
		switch (c->rule) {
		case MODEL_FB_RULE_MAJORITY:
			ok = a_fl + a_in + a_out >= 2;
			break;
		case MODEL_FB_RULE_FUNC:
			ok = ((uint64_t)res.pc[0] + res.pc[1] + res.pc[2]) / 3 < PC_FULL &&
			     !(c->stc_admit && r->stc);
			break;
		default:
			ok = a_fl && a_in && a_out;
		}
		if (!ok)
			res.drop = !a_fl && c->stc_admit && r->stc && res.pc[0] < PC_FULL
				       ? MODEL_FB_DROP_STC
				       : MODEL_FB_DROP_DT;
		if (ok && c->wred_max != 0 && r->cur > c->wred_min) {
			double p = r->cur >= c->wred_max
				       ? 1.0
				       : c->wred_maxp * (double)(r->cur - c->wred_min) /
					     (double)(c->wred_max - c->wred_min);
			double x = (double)(rng_next(&fb->rng) >> 11) * (1.0 / 9007199254740992.0);
			if (x < p) {
				ok = 0;
				res.drop = MODEL_FB_DROP_WRED;
			}
		}
	} else {
		ok = a_in && a_out;
		if (!ok)
			res.drop = MODEL_FB_DROP_DT;
	}
	if (!ok) {
		r->dropped++;
		if (res.drop == MODEL_FB_DROP_WRED)
			r->dropped_wred++;
		return res; /* a dropped packet consumes nothing */
	}
	/* admitted: consumption on all three counts */
	r->cur += u;
	if (r->cur > r->peak)
		r->peak = r->cur;
	*oi += u;
	*oo += u;
	fb->used += u;
	r->admitted++;
	if (c->flow_on) {
		if (stc_step(fb, r, now))
			res.stc_event = 1;
		if ((c->mirror_at != 0 && r->cur > c->mirror_at &&
		     (!c->mirror_cong || res.pc[2] >= c->mirror_cong_pc)) ||
		    (c->stc_mirror && r->stc)) {
			res.mirror = 1;
			r->mirrored++;
		}
	}
	return res;
}

void model_fb_release(struct model_fb *fb, uint16_t cnt, uint32_t in_port, unsigned rp,
		      uint32_t out_port, unsigned tp, uint32_t len, uint64_t now)
{
	uint64_t u = units(fb, len);
	struct fb_region *r = &fb->reg[cnt];
	uint64_t *oi = occ_at(fb, 0, in_port, rp), *oo = occ_at(fb, 1, out_port, tp);
	r->cur -= u < r->cur ? u : r->cur;
	*oi -= u < *oi ? u : *oi;
	*oo -= u < *oo ? u : *oo;
	fb->used -= u < fb->used ? u : fb->used;
	if (fb->cfg.flow_on)
		stc_step(fb, r, now);
}

uint64_t model_fb_count(const struct model_fb *fb, uint16_t cnt)
{
	return fb->reg[cnt].cur;
}

uint64_t model_fb_occ(const struct model_fb *fb, int egress, uint32_t port, unsigned prio)
{
	return *occ_at(fb, egress != 0, port, prio);
}

uint64_t model_fb_used(const struct model_fb *fb)
{
	return fb->used;
}

uint64_t model_fb_bound(const struct model_fb *fb)
{
	return bound_of(fb, &fb->cfg.flow_bound);
}

void model_fb_read(struct model_fb *fb, uint16_t cnt, struct model_fb_region *out)
{
	struct fb_region *r = &fb->reg[cnt];
	memset(out, 0, sizeof(*out));
	out->cur = r->cur;
	out->peak = r->peak;
	out->bound = bound_of(fb, &fb->cfg.flow_bound);
	uint32_t cp = pc_of(r->cur, out->bound), pp = pc_of(r->peak, out->bound);
	out->cur_pc = cp > PC_FULL ? PC_FULL : cp;
	out->peak_pc = pp > PC_FULL ? PC_FULL : pp;
	out->admitted = r->admitted;
	out->dropped = r->dropped;
	out->dropped_wred = r->dropped_wred;
	out->mirrored = r->mirrored;
	out->stc_events = r->stc_events;
	out->stc = r->stc;
	out->state = model_fb_encode(fb, state_pc_now(fb, fb->cfg.count_state[cnt]));
	r->peak = r->cur;
}
