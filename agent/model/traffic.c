/*
 * traffic.c - scenario traffic generators and the time-ordered merge of
 * sources (see traffic.h for the conventions).
 *
 * Each generator draws, per packet, a size, a gap, a destination, a flow
 * and the multicast / forwarding-drop marks from its own xoshiro256**
 * stream (seeded through splitmix64), so a scenario is deterministic for a
 * given seed.  The header bytes of a packet depend on (flow, destination,
 * size, TTL variant); they are built the first time that combination
 * occurs and kept until the source is freed, as pkt.h requires.
 */
#include "config.h"

#include "agent/model/traffic.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/model/headers.h"
#include "agent/model/rng.h"

/* ---- header cache: (destination, flow, size, variant) -> bytes ----
 *
 * A generator has few destinations, flows and sizes, so the cache is
 * dense: one block of header bytes per destination slot (ports, then one
 * slot for its multicast group), allocated when the destination is first
 * used and indexed by (flow, size index, TTL variant), plus a bitmap of
 * the headers built so far.  Looking a header up touches only the bitmap
 * and the block pointer, not the header bytes (which the engine reads
 * only when it reports the packet).
 */

struct hcache {
	uint8_t **rows;	 /* [dest slot] -> rowlen headers of hdr_len bytes */
	uint64_t *built; /* bit (slot * rowlen + idx) */
	uint32_t nslots, rowlen, nsizes, nvariants;
	size_t bytes; /* allocated by the cache, for model_gen_memory */
};

static void hcache_free(struct hcache *h)
{
	for (uint32_t i = 0; h->rows && i < h->nslots; i++)
		free(h->rows[i]);
	free(h->rows);
	free(h->built);
}

/* ---- generators ---- */

struct gen {
	struct model_gen_conf c;
	struct model_rng rng;
	double t;	    /* time of the last arrival, ns (fractional) */
	double ns_per_bit;  /* 1e9 / rate */
	double mean_gap_ns; /* Poisson mean gap */
	double on_start;    /* on/off: current on part [on_start, on_end] */
	double on_end;
	uint64_t count;
	uint32_t upoints; /* uniform sizes: how many */
	uint16_t hdr_len; /* header bytes of every packet */
	uint8_t tc;	  /* traffic class of every packet */
	struct hcache hc;
	char name[48];
};

static uint32_t uniform_points(const struct model_gen_conf *c)
{
	uint32_t n = c->size_hi - c->size_lo + 1;

	return n < MODEL_GEN_UNIFORM_SIZES ? n : MODEL_GEN_UNIFORM_SIZES;
}

/* Size i of k evenly spaced sizes over size_lo..size_hi. */
static uint32_t uniform_size(const struct model_gen_conf *c, uint32_t i, uint32_t k)
{
	if (k < 2)
		return c->size_lo;
	return c->size_lo + (uint32_t)((uint64_t)i * (c->size_hi - c->size_lo) / (k - 1));
}

uint32_t model_gen_flow_ids(const struct model_gen_conf *c)
{
	return (uint32_t)(c->nports + c->mc_group) * c->nflows;
}

void model_gen_defaults(struct model_gen_conf *c)
{
	memset(c, 0, sizeof(*c));
	c->nports = 1;
	c->rate_bps = 1e9;
	c->size = MODEL_SIZE_FIXED;
	c->size_lo = c->size_hi = 64;
	c->arrival = MODEL_ARRIVAL_CONSTANT;
	c->duty = 1.0;
	c->dest = MODEL_DEST_FIXED;
	c->nflows = 1;
	c->ip_version = 4;
	c->l4 = MODEL_IPPROTO_UDP;
	c->vlan = -1;
	c->dport = 5001;
	c->drop_reason = 258;
}

uint8_t model_traffic_tc(int vlan, uint8_t pcp, uint8_t dscp)
{
	return vlan >= 0 ? (uint8_t)(pcp & 7) : (uint8_t)((dscp & 63) >> 3);
}

double model_gen_mean_size(const struct model_gen_conf *c)
{
	switch (c->size) {
	case MODEL_SIZE_UNIFORM: {
		uint32_t k = uniform_points(c), i;
		double s = 0;

		for (i = 0; i < k; i++)
			s += uniform_size(c, i, k);
		return s / k;
	}
	case MODEL_SIZE_IMIX:
		return (7.0 * MODEL_IMIX_SMALL + 4.0 * MODEL_IMIX_MEDIUM + MODEL_IMIX_LARGE) / 12.0;
	case MODEL_SIZE_FIXED:
	default:
		return c->size_lo;
	}
}

static uint32_t gen_min_size(const struct model_gen_conf *c)
{
	return c->size == MODEL_SIZE_IMIX ? MODEL_IMIX_SMALL : c->size_lo;
}

static uint32_t gen_max_size(const struct model_gen_conf *c)
{
	switch (c->size) {
	case MODEL_SIZE_UNIFORM:
		return c->size_hi;
	case MODEL_SIZE_IMIX:
		return MODEL_IMIX_LARGE;
	case MODEL_SIZE_FIXED:
	default:
		return c->size_lo;
	}
}

static void spec_base(const struct model_gen_conf *c, struct model_hdr_spec *s)
{
	memset(s, 0, sizeof(*s));
	s->vlan = c->vlan;
	s->pcp = c->pcp;
	s->ip_version = c->ip_version;
	s->l4 = c->l4;
	s->dscp = c->dscp;
	s->ttl = 64;
}

int model_gen_check(const struct model_gen_conf *c, char *err, size_t errlen)
{
	struct model_hdr_spec s;
	uint32_t lo = gen_min_size(c), hi = gen_max_size(c);

	spec_base(c, &s);
	if (c->nports < 1 || c->in_port >= c->nports) {
		snprintf(err, errlen, "ingress port %u is not below the port count %u", c->in_port,
			 c->nports);
		return -1;
	}
	if (!(c->rate_bps > 0) || !isfinite(c->rate_bps)) {
		snprintf(err, errlen, "rate must be above 0 bits/s");
		return -1;
	}
	if (c->ip_version != 4 && c->ip_version != 6) {
		snprintf(err, errlen, "IP version must be 4 or 6");
		return -1;
	}
	if (c->l4 != MODEL_IPPROTO_UDP && c->l4 != MODEL_IPPROTO_TCP) {
		snprintf(err, errlen, "protocol must be udp or tcp");
		return -1;
	}
	if (c->vlan > 4095 || c->pcp > 7 || c->dscp > 63) {
		snprintf(err, errlen, "vlan must be 0..4095, pcp 0..7, dscp 0..63");
		return -1;
	}
	if (c->size == MODEL_SIZE_UNIFORM && c->size_lo > c->size_hi) {
		snprintf(err, errlen, "size range %u-%u is empty", c->size_lo, c->size_hi);
		return -1;
	}
	if (lo < model_hdr_min_frame(&s) || hi > MODEL_FRAME_MAX) {
		snprintf(err, errlen,
			 "packet sizes %u..%u bytes do not fit: these headers need frames of "
			 "%u..%u bytes (FCS included)",
			 lo, hi, model_hdr_min_frame(&s), MODEL_FRAME_MAX);
		return -1;
	}
	if (c->arrival == MODEL_ARRIVAL_ONOFF) {
		double on_ns = c->duty * (double)c->period_ns;

		if (!(c->duty > 0 && c->duty <= 1) || c->period_ns == 0) {
			snprintf(err, errlen,
				 "on/off needs a period above 0 and a duty cycle in (0, 1]");
			return -1;
		}
		if (on_ns < (hi + MODEL_ETH_OVERHEAD) * 8.0 * 1e9 / c->rate_bps) {
			snprintf(err, errlen,
				 "the on part of the period (%.0f ns) is shorter than one %u-byte "
				 "packet at this rate",
				 on_ns, hi);
			return -1;
		}
	}
	if ((c->dest == MODEL_DEST_FIXED || c->dest == MODEL_DEST_HOTSPOT ||
	     c->dest == MODEL_DEST_PERMUTATION || c->dest == MODEL_DEST_INCAST) &&
	    c->dest_port >= c->nports) {
		snprintf(err, errlen, "destination port %u is not below the port count %u",
			 c->dest_port, c->nports);
		return -1;
	}
	if (!(c->hotspot >= 0 && c->hotspot <= 1) ||
	    !(c->mc_fraction >= 0 && c->mc_fraction <= 1) ||
	    !(c->drop_fraction >= 0 && c->drop_fraction <= 1)) {
		snprintf(err, errlen, "fractions must be in 0..1");
		return -1;
	}
	if (c->mc_fraction > 0 && c->mc_group == 0) {
		snprintf(err, errlen, "a multicast fraction needs a multicast group (1 or more)");
		return -1;
	}
	if (c->drop_fraction > 0 && c->drop_reason == 0) {
		snprintf(err, errlen, "a drop fraction needs a drop reason code");
		return -1;
	}
	if (c->nflows < 1 || c->nflows > MODEL_GEN_MAX_FLOWS) {
		snprintf(err, errlen, "flows must be 1..%u", MODEL_GEN_MAX_FLOWS);
		return -1;
	}
	return 0;
}

/* Address bytes of host h in port p's subnet, or of multicast group g. */
static void addr_host(uint8_t ipver, unsigned p, unsigned h, uint8_t *ip)
{
	memset(ip, 0, 16);
	if (ipver == 6) {
		ip[0] = 0xfd;
		ip[3] = 0xb5;
		ip[6] = (uint8_t)(p >> 8);
		ip[7] = (uint8_t)p;
		ip[14] = (uint8_t)(h >> 8);
		ip[15] = (uint8_t)h;
	} else {
		ip[0] = 10;
		ip[1] = (uint8_t)(p >> 8);
		ip[2] = (uint8_t)p;
		ip[3] = (uint8_t)h;
	}
}

static void mac_host(unsigned p, unsigned h, uint8_t *mac)
{
	mac[0] = 0x02;
	mac[1] = 0;
	mac[2] = 0;
	mac[3] = (uint8_t)(p >> 8);
	mac[4] = (uint8_t)p;
	mac[5] = (uint8_t)h;
}

static void addr_group(uint8_t ipver, unsigned g, uint8_t *ip, uint8_t *mac)
{
	memset(ip, 0, 16);
	if (ipver == 6) {
		ip[0] = 0xff;
		ip[1] = 0x0e;
		ip[13] = 0xb5;
		ip[14] = (uint8_t)(g >> 8);
		ip[15] = (uint8_t)g;
		mac[0] = mac[1] = 0x33;
		memcpy(mac + 2, ip + 12, 4);
	} else {
		ip[0] = 239;
		ip[1] = 181;
		ip[2] = (uint8_t)(g >> 8);
		ip[3] = (uint8_t)g;
		mac[0] = 0x01;
		mac[1] = 0x00;
		mac[2] = 0x5e;
		mac[3] = ip[1] & 0x7f;
		mac[4] = ip[2];
		mac[5] = ip[3];
	}
}

/* Header bytes of a packet of the given size (size index si) to dest
 * (a port, or the multicast group when mc) on flow. */
static const uint8_t *gen_header(struct gen *g, uint32_t flow, unsigned dest, int mc, int ttl1,
				 uint32_t size, uint32_t si)
{
	struct hcache *h = &g->hc;
	uint32_t slot = mc ? g->c.nports : dest;
	uint32_t idx = (flow * h->nsizes + si) * h->nvariants + (uint32_t)ttl1;
	uint64_t bit = (uint64_t)slot * h->rowlen + idx;
	struct model_hdr_spec s;
	unsigned host = 1 + flow % 250;
	uint8_t *buf;

	if (h->built[bit >> 6] >> (bit & 63) & 1)
		return h->rows[slot] + (size_t)idx * g->hdr_len;
	if (!h->rows[slot]) {
		h->rows[slot] = malloc((size_t)h->rowlen * g->hdr_len);
		if (!h->rows[slot])
			return NULL;
		h->bytes += (size_t)h->rowlen * g->hdr_len;
	}
	spec_base(&g->c, &s);
	mac_host(g->c.in_port, host, s.src_mac);
	addr_host(s.ip_version, g->c.in_port, host, s.src_ip);
	if (mc) {
		addr_group(s.ip_version, dest, s.dst_ip, s.dst_mac);
	} else {
		mac_host(dest, host, s.dst_mac);
		addr_host(s.ip_version, dest, host, s.dst_ip);
	}
	if (ttl1)
		s.ttl = 1;
	s.sport = (uint16_t)(49152 + (slot * g->c.nflows + flow) % 16384);
	s.dport = g->c.dport;
	s.ip_id = (uint16_t)flow;
	s.tcp_seq = flow * 1000003u;
	buf = h->rows[slot] + (size_t)idx * g->hdr_len;
	model_hdr_build(&s, size, buf);
	h->built[bit >> 6] |= 1ull << (bit & 63);
	return buf;
}

/* Draw a packet size; *si is its index among the distribution's sizes. */
static uint32_t gen_size(struct gen *g, uint32_t *si)
{
	const struct model_gen_conf *c = &g->c;

	switch (c->size) {
	case MODEL_SIZE_UNIFORM:
		*si = model_rng_below(&g->rng, g->upoints);
		return uniform_size(c, *si, g->upoints);
	case MODEL_SIZE_IMIX: {
		uint32_t k = model_rng_below(&g->rng, 12);

		*si = k < 7 ? 0 : k < 11 ? 1 : 2;
		return *si == 0	  ? MODEL_IMIX_SMALL
		       : *si == 1 ? MODEL_IMIX_MEDIUM
				  : MODEL_IMIX_LARGE;
	}
	case MODEL_SIZE_FIXED:
	default:
		*si = 0;
		return c->size_lo;
	}
}

static unsigned gen_uniform_dest(struct gen *g)
{
	unsigned n = g->c.nports, d;

	if (n < 2)
		return 0;
	d = model_rng_below(&g->rng, n - 1);
	return d >= g->c.in_port ? d + 1 : d;
}

static unsigned gen_dest(struct gen *g)
{
	switch (g->c.dest) {
	case MODEL_DEST_UNIFORM:
		return gen_uniform_dest(g);
	case MODEL_DEST_HOTSPOT:
		if (model_rng_unit(&g->rng) < g->c.hotspot)
			return g->c.dest_port;
		return gen_uniform_dest(g);
	case MODEL_DEST_FIXED:
	case MODEL_DEST_PERMUTATION:
	case MODEL_DEST_INCAST:
	default:
		return g->c.dest_port;
	}
}

static int gen_next(void *state, struct model_pkt *p)
{
	struct gen *g = state;
	const struct model_gen_conf *c = &g->c;
	uint32_t size, flow, si;
	double wire_ns, t;
	unsigned dest;
	int mc = 0, ttl1 = 0;

	if (c->max_packets && g->count >= c->max_packets)
		return 0;
	size = gen_size(g, &si);
	wire_ns = (size + MODEL_ETH_OVERHEAD) * 8.0 * g->ns_per_bit;
	switch (c->arrival) {
	case MODEL_ARRIVAL_POISSON:
		t = g->t -
		    log(1.0 - model_rng_unit(&g->rng)) * g->mean_gap_ns; /* 1 - u in (0, 1] */
		break;
	case MODEL_ARRIVAL_ONOFF:
		t = g->t + wire_ns;
		if (t > g->on_end) {
			/* next on part: the one containing or following g->t */
			double per = (double)c->period_ns;
			double k = floor((g->t - g->on_start) / per) + 1;

			g->on_start += k * per;
			g->on_end = g->on_start + c->duty * per;
			t = g->on_start + wire_ns;
		}
		break;
	case MODEL_ARRIVAL_CONSTANT:
	default:
		t = g->t + wire_ns;
		break;
	}
	if (c->stop_ns && t >= (double)c->stop_ns)
		return 0;
	g->t = t;
	g->count++;

	dest = gen_dest(g);
	if (c->mc_fraction > 0 && model_rng_unit(&g->rng) < c->mc_fraction) {
		mc = 1;
		dest = c->mc_group;
	}
	flow = c->nflows > 1 ? model_rng_below(&g->rng, c->nflows) : 0;
	p->fwd_drop = 0;
	if (c->drop_fraction > 0 && model_rng_unit(&g->rng) < c->drop_fraction) {
		p->fwd_drop = c->drop_reason;
		ttl1 = c->drop_reason == 257; /* ttl_exceeded: show TTL 1 */
	}
	p->hdr = gen_header(g, flow, dest, mc, ttl1, size, si);
	p->hdr_len = g->hdr_len;
	if (!p->hdr)
		return 0; /* out of memory: end the source */
	p->t_ns = (uint64_t)t;
	p->len = size;
	p->in_port = c->in_port;
	p->out_port = mc ? c->in_port : (uint16_t)dest;
	p->mc_group = mc ? c->mc_group : 0;
	/* the destination MAC's class, known here (so the engine need not
	 * read the header): a group MAC for multicast, a host MAC else */
	p->cast = mc ? MODEL_CAST_MULTICAST : MODEL_CAST_UNICAST;
	p->tc = g->tc;
	p->dscp = c->dscp;
	p->flow_id = c->flow_base + ((mc ? c->nports + dest - 1u : dest) * c->nflows + flow);
	return 1;
}

static void gen_free(void *state)
{
	struct gen *g = state;

	hcache_free(&g->hc);
	free(g);
}

int model_gen_new(const struct model_gen_conf *c, struct model_source *out, char *err,
		  size_t errlen)
{
	struct gen *g;

	if (model_gen_check(c, err, errlen) < 0)
		return -1;
	g = calloc(1, sizeof(*g));
	if (!g) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	g->c = *c;
	model_rng_seed(&g->rng,
		       c->seed ^ ((uint64_t)c->in_port << 48) ^ ((uint64_t)c->flow_base << 16));
	g->upoints = c->size == MODEL_SIZE_UNIFORM ? uniform_points(c) : 1;
	g->tc = model_traffic_tc(c->vlan, c->pcp, c->dscp);
	{
		struct model_hdr_spec s;

		spec_base(c, &s);
		g->hdr_len = (uint16_t)model_hdr_size(&s);
	}
	g->hc.nslots = (uint32_t)c->nports + 1;
	g->hc.nsizes = c->size == MODEL_SIZE_IMIX ? 3 : g->upoints;
	g->hc.nvariants = c->drop_fraction > 0 && c->drop_reason == 257 ? 2 : 1;
	g->hc.rowlen = c->nflows * g->hc.nsizes * g->hc.nvariants;
	{
		size_t words = ((size_t)g->hc.nslots * g->hc.rowlen + 63) / 64;

		g->hc.rows = calloc(g->hc.nslots, sizeof(*g->hc.rows));
		g->hc.built = calloc(words, sizeof(*g->hc.built));
		if (!g->hc.rows || !g->hc.built) {
			hcache_free(&g->hc);
			free(g);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		g->hc.bytes = g->hc.nslots * sizeof(*g->hc.rows) + words * sizeof(*g->hc.built);
	}
	g->ns_per_bit = 1e9 / c->rate_bps;
	g->mean_gap_ns = (model_gen_mean_size(c) + MODEL_ETH_OVERHEAD) * 8.0 * g->ns_per_bit;
	g->t = (double)c->start_ns;
	if (c->arrival == MODEL_ARRIVAL_ONOFF) {
		g->t += (double)c->phase_ns;
		g->on_start = g->t;
		g->on_end = g->t + c->duty * (double)c->period_ns;
	}
	snprintf(g->name, sizeof(g->name), "generator port %u", c->in_port);
	out->next = gen_next;
	out->free = gen_free;
	out->state = g;
	out->name = g->name;
	return 0;
}

size_t model_gen_memory(const struct model_source *s)
{
	const struct gen *g = s->state;

	return sizeof(*g) + g->hc.bytes;
}

void model_traffic_permutation(unsigned n, uint64_t seed, uint16_t *perm)
{
	struct model_rng r;
	unsigned i;

	model_rng_seed(&r, seed ^ 0x7065726d75746174ull);
	if (n == 0)
		return;
	if (n == 1) {
		perm[0] = 0;
		return;
	}
	/* Sattolo's algorithm: a uniformly random cyclic permutation, which
	 * has no fixed point. */
	for (i = 0; i < n; i++)
		perm[i] = (uint16_t)i;
	for (i = n - 1; i > 0; i--) {
		unsigned j = model_rng_below(&r, i);
		uint16_t t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
}

/* ---- merge: a binary min-heap of sources keyed by (next time, index) ---- */

struct merge_ent {
	struct model_pkt pkt;
	unsigned idx;
};

struct merge {
	struct model_source *src;
	unsigned nsrc;
	struct merge_ent *heap;
	unsigned n;
};

static int ent_less(const struct merge_ent *a, const struct merge_ent *b)
{
	return a->pkt.t_ns < b->pkt.t_ns || (a->pkt.t_ns == b->pkt.t_ns && a->idx < b->idx);
}

static void sift_down(struct merge *m, unsigned i)
{
	struct merge_ent e = m->heap[i];

	for (;;) {
		unsigned l = 2 * i + 1, s;

		if (l >= m->n)
			break;
		s = (l + 1 < m->n && ent_less(&m->heap[l + 1], &m->heap[l])) ? l + 1 : l;
		if (!ent_less(&m->heap[s], &e))
			break;
		m->heap[i] = m->heap[s];
		i = s;
	}
	m->heap[i] = e;
}

static int merge_next(void *state, struct model_pkt *p)
{
	struct merge *m = state;
	struct merge_ent *top;

	if (m->n == 0)
		return 0;
	top = &m->heap[0];
	*p = top->pkt;
	if (!m->src[top->idx].next(m->src[top->idx].state, &top->pkt))
		*top = m->heap[--m->n];
	if (m->n > 1)
		sift_down(m, 0);
	return 1;
}

static void merge_free(void *state)
{
	struct merge *m = state;

	for (unsigned i = 0; i < m->nsrc; i++)
		if (m->src[i].free)
			m->src[i].free(m->src[i].state);
	free(m->src);
	free(m->heap);
	free(m);
}

int model_merge_new(const struct model_source *srcs, unsigned n, struct model_source *out)
{
	struct merge *m = calloc(1, sizeof(*m));
	unsigned i;

	if (m) {
		m->src = calloc(n ? n : 1, sizeof(*m->src));
		m->heap = calloc(n ? n : 1, sizeof(*m->heap));
	}
	if (!m || !m->src || !m->heap) {
		for (i = 0; i < n; i++)
			if (srcs[i].free)
				srcs[i].free(srcs[i].state);
		if (m) {
			free(m->src);
			free(m->heap);
			free(m);
		}
		return -1;
	}
	memcpy(m->src, srcs, n * sizeof(*srcs));
	m->nsrc = n;
	for (i = 0; i < n; i++) {
		struct merge_ent *e = &m->heap[m->n];

		if (m->src[i].next(m->src[i].state, &e->pkt)) {
			e->idx = i;
			m->n++;
		}
	}
	for (i = m->n / 2; i-- > 0;)
		sift_down(m, i);
	out->next = merge_next;
	out->free = merge_free;
	out->state = m;
	out->name = "merged sources";
	return 0;
}
