/*
 * traffic.c - scenario traffic generators and the time-ordered merge of
 * sources (see traffic.h for the conventions).
 *
 * Each generator draws, per packet, a size, a gap, a destination, a flow
 * and the multicast / forwarding-drop marks from its own xoshiro256**
 * stream (seeded through splitmix64), so a scenario is deterministic for a
 * given seed: size, destination and flow as exact uniform fields of one
 * draw (model_rng_split), a Poisson gap by the ziggurat (model_rng_exp),
 * without libm on the common path.  Packets are made in batches
 * (gen_fill) and handed out one at a time by next() from a small buffer,
 * or n at a time by model_gen_next_batch (the engine's next_batch): the
 * sequence is the same.  The header bytes of a packet depend on (flow,
 * destination, size, TTL variant); they are built the first time that
 * combination is asked for (by next(), or through model_gen_header, the
 * engine's header(), for a packet handed out without them) and kept until
 * the source is freed, as pkt.h requires, within a byte budget per
 * generator (see the header cache below).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include "agent/model/traffic.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/model/headers.h"
#include "agent/model/model.h"
#include "agent/model/rng.h"

/* ---- header cache: (destination, flow, size, variant) -> bytes ----
 *
 * One row per destination slot (ports, then one slot for the multicast
 * group), allocated when the destination is first used: rowlen headers of
 * hdr_len bytes indexed by (flow, size index, TTL variant), preceded by a
 * bitmap of the headers built so far (word w of it just below the row
 * pointer, at index -1 - w; word 0 is also kept next to the row pointer,
 * so small rows need no access to the row).  Looking a header up touches
 * only the slot's entry and maybe the bitmap, not the header bytes (which
 * the engine reads only when it reports the packet).  A slot with no row
 * points just past a bitmap of zeros (empty), so the lookup needs no NULL
 * test.
 *
 * Bounded: rows are allocated only while their bytes stay within the
 * generator's budget (model_gen_conf.hdr_budget).  A header, once built,
 * never moves or changes until the source is freed, because the engine
 * keeps packets' hdr pointers while they are buffered and reads them at
 * departure (samples, dequeue events) with no notice to the source when
 * it is done: no cached header is ever evicted or rewritten.  A packet to
 * a destination whose row did not fit comes with hdr NULL (hdr_len set,
 * as MODEL_GEN_LAZY_HDR packets do): its bytes are absent rather than
 * possibly wrong, and model_gen_header still builds them on request (into
 * a scratch buffer, which the engine copies at once).  So memory is the
 * budget plus the row pointers ((nports + 1) x 16 bytes), whatever the
 * traffic.
 */

struct hslot {
	uint8_t *row;  /* headers (the bitmap below), or empty: no row (yet) */
	uint64_t bits; /* word 0 of the bitmap (headers 0..63) */
};

struct hcache {
	struct hslot *rows; /* [dest slot] */
	uint8_t *empty;	    /* just past a bitmap of zeros (hoff bytes) */
	uint8_t *scratch;   /* hdr_len bytes: model_gen_header over the budget */
	uint32_t nslots, rowlen, nsizes, nvariants;
	uint32_t hoff;	   /* bytes of a row's bitmap */
	size_t rowbytes;   /* bitmap and headers of one row */
	size_t budget;	   /* most bytes of rows */
	size_t row_bytes;  /* bytes of rows allocated */
	size_t bytes;	   /* allocated by the cache, for model_gen_memory */
	uint64_t uncached; /* packets handed out with hdr NULL over the budget */
};

static void hcache_free(struct hcache *h)
{
	for (uint32_t i = 0; h->rows && i < h->nslots; i++)
		if (h->rows[i].row && h->rows[i].row != h->empty)
			free(h->rows[i].row - h->hoff);
	free(h->rows);
	if (h->empty)
		free(h->empty - h->hoff);
	free(h->scratch);
}

/* The default budget of a generator's header cache on a switch of nports
 * ports (see traffic.h). */
static size_t hdr_budget_default(unsigned nports)
{
	size_t b = MODEL_GEN_HDR_BUDGET_TOTAL / (nports ? nports : 1);

	return b < MODEL_GEN_HDR_BUDGET_MIN ? MODEL_GEN_HDR_BUDGET_MIN : b;
}

/* Header idx of a slot's row if built, else NULL. */
static inline const uint8_t *row_header(const struct hslot *e, uint32_t idx, unsigned hdr_len)
{
	const uint64_t *bits = (const uint64_t *)(const void *)e->row;
	uint64_t w = idx < 64 ? e->bits : bits[-1 - (ptrdiff_t)(idx >> 6)];

	if (w >> (idx & 63) & 1)
		return e->row + (size_t)idx * hdr_len;
	return NULL;
}

/* ---- generators ---- */

/*
 * Per packet a generator makes one draw for (size, destination, flow) as
 * three exact uniform fields (model_rng_split), one more for a Poisson
 * gap (model_rng_exp), and further draws only for the rarer features
 * (hotspot, multicast and drop fractions).  Everything that does not
 * change from packet to packet is computed in model_gen_new.
 */
#define GEN_BUF 16 /* packets made ahead for the one-at-a-time interface */

struct gen {
	/* read for every packet */
	unsigned buf_pos, buf_n; /* buf[buf_pos..buf_n-1] not yet handed out */
	/* gen_fill made for this generator's arrivals and draws, with header
	 * bytes (eager) or without (lazy) */
	unsigned (*fill_eager)(struct gen *g, struct model_pkt *p, unsigned n);
	unsigned (*fill_lazy)(struct gen *g, struct model_pkt *p, unsigned n);
	struct model_rng rng;
	struct model_rng_split split; /* fields: size entry, destination, flow */
	double t;		      /* time of the last arrival, ns (fractional) */
	double mean_gap_ns;	      /* Poisson mean gap */
	double link_ratio;	      /* link-limited Poisson: rate / link rate */
	double mean_idle_ns;	      /* link-limited Poisson: mean idle time */
	double exp_theta;	      /* exponential sizes: m' (MODEL_SIZE_EXP) */
	double ns_per_byte;	      /* wire time of a byte at the rate */
	uint32_t exp_lo, exp_k;	      /* exponential sizes: smallest, largest - smallest */
	double on_start;	      /* on/off: current on part [on_start, on_end] */
	double on_end;
	double stop; /* stop_ns, or infinity */
	uint64_t count;
	uint64_t max_packets; /* or UINT64_MAX */
	uint32_t dest_skip;   /* uniform destinations: skip this port (the ingress) */
	uint32_t dest_add;    /* destination = field + (field >= skip) + add */
	uint32_t flow_stride; /* header index = flow * flow_stride + hidx[size] + ttl1 */
	uint16_t *ecmp_port;  /* a destination set: each flow's output port; else NULL */
	uint32_t nflows;
	uint32_t flow_base;
	uint16_t in_port;
	uint16_t hdr_len;   /* header bytes of every packet */
	uint8_t tc;	    /* traffic class of every packet */
	uint8_t ended;	    /* the source ended: stop, max_packets or out of memory */
	uint8_t rare;	    /* hotspot, multicast or drop fraction, or a destination set */
	uint8_t split_draw; /* some field has more than one value */
	uint8_t one_draw;   /* Poisson with few field values: one draw per packet */
	uint32_t reject16;  /* for one_draw: model_rng_split16_reject */
	/* hotspot / multicast / drop: a draw's top 53 bits below these */
	uint64_t hot_below, mc_below, drop_below;
	struct hcache hc;
	/* size table entry e: frame length, index among the distinct sizes
	 * times the TTL variants, wire time at the rate */
	uint32_t nsz;
	uint16_t sz_len[MODEL_GEN_UNIFORM_SIZES];
	uint16_t sz_hidx[MODEL_GEN_UNIFORM_SIZES];
	uint16_t dsz[MODEL_GEN_UNIFORM_SIZES]; /* the distinct sizes, ascending */
	double sz_wire[MODEL_GEN_UNIFORM_SIZES];
	struct model_pkt tmpl; /* fields every packet shares (unicast, no drop) */
	struct model_pkt buf[GEN_BUF];
	/* the rest only at setup and on rare paths */
	struct model_gen_conf c;
	uint32_t upoints; /* uniform sizes: how many */
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

static void spec_base(const struct model_gen_conf *c, struct model_hdr_spec *s)
{
	memset(s, 0, sizeof(*s));
	s->vlan = c->vlan;
	s->pcp = c->pcp;
	s->ip_version = c->ip_version;
	s->l4 = c->l4;
	s->dscp = c->dscp;
	s->ecn = c->ecn;
	s->ttl = 64;
}

/* Exponential sizes: the smallest frame (size_lo, or what the headers
 * need), the largest, and q of the geometric part (its mean m =
 * size_mean - lo: q = m / (m + 1)). */
static uint32_t exp_lo(const struct model_gen_conf *c)
{
	struct model_hdr_spec s;

	if (c->size_lo)
		return c->size_lo;
	spec_base(c, &s);
	return model_hdr_min_frame(&s);
}

static uint32_t exp_hi(const struct model_gen_conf *c)
{
	return c->size_hi ? c->size_hi : MODEL_FRAME_MAX;
}

/* The first two moments of exponential sizes as drawn (the geometric
 * part conditioned on not exceeding hi - lo), summed over the pmf. */
static void exp_moments(const struct model_gen_conf *c, double *m1, double *m2)
{
	uint32_t lo = exp_lo(c), hi = exp_hi(c);
	double m = c->size_mean - lo, q = m / (m + 1), w = 1 - q, z = 0, s1 = 0, s2 = 0;

	for (uint32_t len = lo; len <= hi; len++, w *= q) {
		z += w;
		s1 += w * len;
		s2 += w * (double)len * len;
	}
	*m1 = s1 / z;
	*m2 = s2 / z;
}

double model_gen_size_moment2(const struct model_gen_conf *c)
{
	double m1, m2 = 0;

	switch (c->size) {
	case MODEL_SIZE_UNIFORM: {
		uint32_t k = uniform_points(c), i;

		for (i = 0; i < k; i++)
			m2 += (double)uniform_size(c, i, k) * uniform_size(c, i, k);
		return m2 / k;
	}
	case MODEL_SIZE_IMIX:
		return (7.0 * MODEL_IMIX_SMALL * MODEL_IMIX_SMALL +
			4.0 * MODEL_IMIX_MEDIUM * MODEL_IMIX_MEDIUM +
			(double)MODEL_IMIX_LARGE * MODEL_IMIX_LARGE) /
		       12.0;
	case MODEL_SIZE_EXP:
		exp_moments(c, &m1, &m2);
		return m2;
	case MODEL_SIZE_FIXED:
	default:
		return (double)c->size_lo * c->size_lo;
	}
}

double model_gen_mean_size(const struct model_gen_conf *c)
{
	double m1, m2;

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
	case MODEL_SIZE_EXP:
		exp_moments(c, &m1, &m2);
		return m1;
	case MODEL_SIZE_FIXED:
	default:
		return c->size_lo;
	}
}

static uint32_t gen_min_size(const struct model_gen_conf *c)
{
	return c->size == MODEL_SIZE_IMIX  ? MODEL_IMIX_SMALL
	       : c->size == MODEL_SIZE_EXP ? exp_lo(c)
					   : c->size_lo;
}

static uint32_t gen_max_size(const struct model_gen_conf *c)
{
	switch (c->size) {
	case MODEL_SIZE_UNIFORM:
		return c->size_hi;
	case MODEL_SIZE_EXP:
		return exp_hi(c);
	case MODEL_SIZE_IMIX:
		return MODEL_IMIX_LARGE;
	case MODEL_SIZE_FIXED:
	default:
		return c->size_lo;
	}
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
	if (c->arrival == MODEL_ARRIVAL_POISSON_LINK &&
	    !(c->link_bps >= c->rate_bps * (1 - 1e-9) && isfinite(c->link_bps))) {
		snprintf(err, errlen,
			 "link-limited Poisson arrivals need the link rate (%.6g bits/s) at or "
			 "above the rate (%.6g bits/s)",
			 c->link_bps, c->rate_bps);
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
	if (c->vlan > 4095 || c->pcp > 7 || c->dscp > 63 || c->ecn > 3) {
		snprintf(err, errlen, "vlan must be 0..4095, pcp 0..7, dscp 0..63, ecn 0..3");
		return -1;
	}
	if (c->size == MODEL_SIZE_EXP &&
	    !(c->size_mean > exp_lo(c) && c->size_mean < exp_hi(c) && exp_lo(c) <= exp_hi(c))) {
		snprintf(err, errlen,
			 "exponential sizes: the mean %.6g bytes must lie between the smallest "
			 "frame %u and the largest %u",
			 c->size_mean, exp_lo(c), exp_hi(c));
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
	if (c->n_to > MODEL_GEN_MAX_TO ||
	    (c->n_to >= 2 && c->dest != MODEL_DEST_FIXED && c->dest != MODEL_DEST_INCAST)) {
		snprintf(err, errlen,
			 "a set of %u destination ports needs destination fixed or incast and at "
			 "most %u ports",
			 c->n_to, MODEL_GEN_MAX_TO);
		return -1;
	}
	for (unsigned i = 0; c->n_to >= 2 && i < c->n_to; i++) {
		if (c->to[i] >= c->nports || (i == 0 && c->to[0] != c->dest_port)) {
			snprintf(err, errlen,
				 "destination set member %u (port %u) is not below the port count "
				 "%u, or the first is not dest_port",
				 i, c->to[i], c->nports);
			return -1;
		}
		for (unsigned j = 0; j < i; j++)
			if (c->to[j] == c->to[i]) {
				snprintf(err, errlen, "port %u is twice in the destination set",
					 c->to[i]);
				return -1;
			}
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

/* The headers of flow `flow` of generator c to dest (a port, or the
 * multicast group when mc), whose header cache slot is slot (the
 * destination port, or nports for the group). */
static void flow_spec(const struct model_gen_conf *c, uint32_t flow, unsigned dest, int mc,
		      uint32_t slot, struct model_hdr_spec *s)
{
	unsigned host = 1 + flow % 250;

	spec_base(c, s);
	mac_host(c->in_port, host, s->src_mac);
	addr_host(s->ip_version, c->in_port, host, s->src_ip);
	if (mc) {
		addr_group(s->ip_version, dest, s->dst_ip, s->dst_mac);
	} else {
		mac_host(dest, host, s->dst_mac);
		addr_host(s->ip_version, dest, host, s->dst_ip);
	}
	s->sport = (uint16_t)(49152 + (slot * c->nflows + flow) % 16384);
	s->dport = c->dport;
	s->ip_id = (uint16_t)flow;
	s->tcp_seq = flow * 1000003u;
}

unsigned model_gen_ecmp_member(uint8_t ip, const uint8_t *src, const uint8_t *dst, uint8_t proto,
			       uint16_t sport, uint16_t dport, unsigned n)
{
	uint8_t b[37];
	unsigned al = ip == 6 ? 16 : 4, k = 0;
	uint32_t h = 2166136261u;

	memcpy(b, src, al);
	memcpy(b + al, dst, al);
	k = 2 * al;
	b[k++] = proto;
	b[k++] = (uint8_t)(sport >> 8);
	b[k++] = (uint8_t)sport;
	b[k++] = (uint8_t)(dport >> 8);
	b[k++] = (uint8_t)dport;
	for (unsigned i = 0; i < k; i++) {
		h ^= b[i];
		h *= 16777619u;
	}
	/* MurmurHash3's 32-bit finalizer: FNV-1a alone leaves flows that
	 * differ only in their last bytes unevenly spread (chi-square 9.8
	 * on 3 degrees of freedom for 1024 flows over 4 ports) */
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return (unsigned)(((uint64_t)h * n) >> 32);
}

/* Results of gen_header_build besides a header. */
#define HDR_OVER_BUDGET 1 /* no row for the slot and none fits the budget */
#define HDR_NO_MEMORY	2 /* malloc failed */

/*
 * Build (first use) the header bytes of a packet of the given size to
 * dest (a port, or the multicast group when mc) on flow; slot and idx
 * locate it in the cache.  Allocates the slot's row if the budget allows;
 * if not, builds into scratch when scratch is set (for model_gen_header),
 * else returns NULL with *why set.
 */
static __attribute__((noinline)) const uint8_t *
gen_header_build(struct gen *g, uint32_t flow, unsigned dest, int mc, int ttl1, uint32_t size,
		 uint32_t slot, uint32_t idx, int scratch, int *why)
{
	struct hcache *h = &g->hc;
	struct model_hdr_spec s;
	struct hslot *e = &h->rows[slot];
	uint8_t *buf, *row = e->row != h->empty ? e->row : NULL;

	if (!row && h->row_bytes + h->rowbytes <= h->budget) {
		row = calloc(1, h->rowbytes);
		if (!row) {
			*why = HDR_NO_MEMORY;
			return NULL;
		}
		row += h->hoff;
		e->row = row;
		h->row_bytes += h->rowbytes;
		h->bytes += h->rowbytes;
	}
	if (row) {
		buf = row + (size_t)idx * g->hdr_len;
	} else if (scratch) {
		buf = h->scratch;
	} else {
		*why = HDR_OVER_BUDGET;
		return NULL;
	}
	flow_spec(&g->c, flow, dest, mc, slot, &s);
	if (ttl1)
		s.ttl = 1;
	model_hdr_build(&s, size, buf);
	if (row) {
		((uint64_t *)(void *)row)[-1 - (ptrdiff_t)(idx >> 6)] |= 1ull << (idx & 63);
		if (idx < 64)
			e->bits |= 1ull << idx;
	}
	return buf;
}

/* Header bytes of a packet of the given size (hidx: its index among the
 * distinct sizes times the TTL variants) to dest (a port, or the
 * multicast group when mc) on flow: from the cache, built on first use,
 * or over the budget built into the scratch buffer.  NULL when out of
 * memory. */
static const uint8_t *gen_header(struct gen *g, uint32_t flow, uint32_t dest, int mc, int ttl1,
				 uint32_t size, uint32_t hidx)
{
	uint32_t slot = mc ? g->c.nports : dest;
	uint32_t idx = flow * g->flow_stride + hidx + (uint32_t)ttl1;
	const uint8_t *hdr = row_header(&g->hc.rows[slot], idx, g->hdr_len);
	int why = 0;

	if (__builtin_expect(hdr != NULL, 1))
		return hdr;
	return gen_header_build(g, flow, dest, mc, ttl1, size, slot, idx, 1, &why);
}

/* A draw's top 53 bits compared with p * 2^53: true with probability p
 * (the same test as model_rng_unit(r) < p). */
static uint64_t prob_below(double p)
{
	return (uint64_t)(p * 0x1p53);
}

/* gen_fill's rare: no hotspot, multicast or drop fraction nor
 * destination set (GEN_NO_RARE), or test g->rare (GEN_RARE). */
#define GEN_NO_RARE 0
#define GEN_RARE    1

/*
 * Make up to n packets into p[0..n-1] and return how many (fewer when the
 * source ends).  arrival, lazy, rare, one_draw (Poisson: g->one_draw) and
 * stops are constants, so each combination gets its own copy of this loop
 * (GEN_FILL below) without the tests of the others, and the random state
 * stays in registers.  stops 0: the generator has no stop time and its
 * times stay finite (gen_never_stops), so no time is tested against it.
 */
static inline __attribute__((always_inline)) unsigned
gen_fill(struct gen *restrict g, struct model_pkt *restrict p, unsigned n,
	 enum model_arrival_kind arrival, int lazy, int rare, int one_draw, int stops, int xsize)
{
	struct model_rng rng = g->rng;
	double t = g->t;
	struct model_pkt *const p0 = p;
	const struct model_pkt *end;
	unsigned k;

	if (g->ended)
		return 0;
	if (n > g->max_packets - g->count) {
		n = (unsigned)(g->max_packets - g->count);
		if (n == 0)
			g->ended = 1;
	}
	for (end = p + n; p < end; p++) {
		uint32_t d[3] = {0, 0, 0}, dest, out, fid, len, hidx;
		double tn, wire;
		int mc = 0, ttl1 = 0;
		const uint8_t *hdr;

		if (xsize) {
			/* exponential sizes: the geometric part floor(m' E),
			 * redrawn above the largest; the fields (destination,
			 * flow) from their own draw */
			double xd;
			uint32_t x;

			if (g->split_draw)
				model_rng_split(&rng, &g->split, d);
			do
				xd = model_rng_exp(&rng) * g->exp_theta;
			while (xd >= g->exp_k + 1.0);
			x = (uint32_t)xd;
			len = g->exp_lo + x;
			hidx = x * g->hc.nvariants;
			wire = (len + MODEL_ETH_OVERHEAD) * g->ns_per_byte;
		}
		if (xsize) {
			if (arrival == MODEL_ARRIVAL_POISSON)
				tn = t + model_rng_exp(&rng) * g->mean_gap_ns;
			else if (arrival == MODEL_ARRIVAL_POISSON_LINK)
				tn = t + wire * g->link_ratio +
				     model_rng_exp(&rng) * g->mean_idle_ns;
			else
				tn = t + wire;
		} else if (arrival == MODEL_ARRIVAL_POISSON && one_draw) {
			/* fields from bits 8..23 and the gap from the rest of
			 * one draw */
			uint64_t x;

			do
				x = model_rng_next(&rng);
			while (!model_rng_split16_x(&g->split, g->reject16,
						    (uint32_t)(x >> 8) & 0xffff, d));
			tn = t + model_rng_exp40(&rng, x) * g->mean_gap_ns;
		} else if (arrival == MODEL_ARRIVAL_POISSON) {
			if (g->split_draw)
				model_rng_split(&rng, &g->split, d);
			tn = t + model_rng_exp(&rng) * g->mean_gap_ns;
		} else if (arrival == MODEL_ARRIVAL_POISSON_LINK) {
			/* the frame's wire time at the link's rate, then idle */
			if (g->split_draw)
				model_rng_split(&rng, &g->split, d);
			tn = t + g->sz_wire[d[0]] * g->link_ratio +
			     model_rng_exp(&rng) * g->mean_idle_ns;
		} else {
			if (g->split_draw)
				model_rng_split(&rng, &g->split, d);
			tn = t + g->sz_wire[d[0]];
		}
		if (!xsize) {
			len = g->sz_len[d[0]];
			hidx = g->sz_hidx[d[0]];
			wire = g->sz_wire[d[0]];
		}
		if (arrival == MODEL_ARRIVAL_ONOFF && tn > g->on_end) {
			/* next on part: the one containing or following t */
			double per = (double)g->c.period_ns;
			double q = floor((t - g->on_start) / per) + 1;

			g->on_start += q * per;
			g->on_end = g->on_start + g->c.duty * per;
			tn = g->on_start + wire;
		}
		if (stops && tn >= g->stop) {
			g->ended = 1;
			break;
		}

		dest = d[1] + (d[1] >= g->dest_skip) + g->dest_add;
		out = UINT32_MAX; /* the output port, if not dest */
		*p = g->tmpl;	  /* the fields every packet shares */
		if (rare == GEN_RARE && g->rare) {
			/* a destination set: the flow's member (not multicast,
			 * whose output is set below; never with a hotspot) */
			if (g->ecmp_port)
				out = g->ecmp_port[d[2]];
			if (g->hot_below && (model_rng_next(&rng) >> 11) < g->hot_below)
				dest = g->c.dest_port;
			if (g->mc_below && (model_rng_next(&rng) >> 11) < g->mc_below) {
				mc = 1;
				dest = g->c.mc_group;
			}
			if (g->drop_below && (model_rng_next(&rng) >> 11) < g->drop_below) {
				p->fwd_drop = g->c.drop_reason;
				ttl1 =
				    g->c.drop_reason == MODEL_REASON_TTL_EXCEEDED; /* show TTL 1 */
			}
		}
		/* header bytes: from the cache, built on first use (or later, by
		 * model_gen_header, when lazy) */
		if (lazy) {
			hdr = NULL;
		} else {
			/* gen_header, without the scratch: over the budget the
			 * packet goes without header bytes */
			uint32_t slot = mc ? g->c.nports : dest;
			uint32_t idx = d[2] * g->flow_stride + hidx + (uint32_t)ttl1;
			int why = 0;

			hdr = row_header(&g->hc.rows[slot], idx, g->hdr_len);
			if (__builtin_expect(hdr == NULL, 0)) {
				hdr = gen_header_build(g, d[2], dest, mc, ttl1, len, slot, idx, 0,
						       &why);
				if (why == HDR_NO_MEMORY) {
					g->ended = 1; /* out of memory: end the source */
					break;
				}
				if (why == HDR_OVER_BUDGET)
					g->hc.uncached++;
			}
		}
		t = tn;
		fid = mc ? g->c.nports + dest - 1u : dest;
		p->t_ns = (uint64_t)(int64_t)t;
		p->len = len;
		p->out_port = (uint16_t)(out != UINT32_MAX ? out : dest);
		p->flow_id = g->flow_base + fid * g->nflows + d[2];
		if (!lazy)
			p->hdr = hdr; /* (the template's is NULL) */
		if (mc) {
			/* the destination MAC's class, known here (so the engine
			 * need not read the header): a group MAC for multicast,
			 * a host MAC else (the template's) */
			p->out_port = g->in_port;
			p->mc_group = (uint16_t)dest;
			p->cast = MODEL_CAST_MULTICAST;
		}
	}
	k = (unsigned)(p - p0);
	g->rng = rng;
	g->t = t;
	g->count += k;
	return k;
}

/* The copies of gen_fill: NAME_e with header bytes, for every generator
 * of the arrival kind; NAME_l without, NAME_lr for generators with a
 * hotspot, multicast or drop fraction or a destination set. */
#define GEN_FILL(name, arrival, one_draw, xsize)                                                   \
	static unsigned name##_e(struct gen *g, struct model_pkt *p, unsigned n)                   \
	{                                                                                          \
		return gen_fill(g, p, n, arrival, 0, GEN_RARE, one_draw, 1, xsize);                \
	}                                                                                          \
	static unsigned name##_l(struct gen *g, struct model_pkt *p, unsigned n)                   \
	{                                                                                          \
		return gen_fill(g, p, n, arrival, 1, GEN_NO_RARE, one_draw, 1, xsize);             \
	}                                                                                          \
	static unsigned name##_lr(struct gen *g, struct model_pkt *p, unsigned n)                  \
	{                                                                                          \
		return gen_fill(g, p, n, arrival, 1, GEN_RARE, one_draw, 1, xsize);                \
	}
GEN_FILL(gen_fill_constant, MODEL_ARRIVAL_CONSTANT, 0, 0)
GEN_FILL(gen_fill_onoff, MODEL_ARRIVAL_ONOFF, 0, 0)
GEN_FILL(gen_fill_poisson, MODEL_ARRIVAL_POISSON, 0, 0)
GEN_FILL(gen_fill_poisson1, MODEL_ARRIVAL_POISSON, 1, 0)
GEN_FILL(gen_fill_plink, MODEL_ARRIVAL_POISSON_LINK, 0, 0)
/* exponential sizes */
GEN_FILL(gen_fill_constant_x, MODEL_ARRIVAL_CONSTANT, 0, 1)
GEN_FILL(gen_fill_onoff_x, MODEL_ARRIVAL_ONOFF, 0, 1)
GEN_FILL(gen_fill_poisson_x, MODEL_ARRIVAL_POISSON, 0, 1)
GEN_FILL(gen_fill_plink_x, MODEL_ARRIVAL_POISSON_LINK, 0, 1)
#undef GEN_FILL

/* The engine's copy for the common Poisson generator without a stop time
 * (gen_never_stops). */
static unsigned gen_fill_poisson1_ln(struct gen *g, struct model_pkt *p, unsigned n)
{
	return gen_fill(g, p, n, MODEL_ARRIVAL_POISSON, 1, GEN_NO_RARE, 1, 0, 0);
}

/* Has g no stop time, with gaps so far below the largest double that no
 * time before 2^63 ns (past which times do not convert to t_ns) can
 * become infinite?  Then no time reaches its stop (infinity) and the
 * test can go. */
static int gen_never_stops(const struct gen *g)
{
	return isinf(g->stop) && g->mean_gap_ns < 1e300;
}

/* Pick g's copies of gen_fill (g's draws set up). */
static void gen_pick_fill(struct gen *g)
{
	if (g->c.size == MODEL_SIZE_EXP) {
		switch (g->c.arrival) {
		case MODEL_ARRIVAL_POISSON:
			g->fill_eager = gen_fill_poisson_x_e;
			g->fill_lazy = g->rare ? gen_fill_poisson_x_lr : gen_fill_poisson_x_l;
			break;
		case MODEL_ARRIVAL_POISSON_LINK:
			g->fill_eager = gen_fill_plink_x_e;
			g->fill_lazy = g->rare ? gen_fill_plink_x_lr : gen_fill_plink_x_l;
			break;
		case MODEL_ARRIVAL_ONOFF:
			g->fill_eager = gen_fill_onoff_x_e;
			g->fill_lazy = g->rare ? gen_fill_onoff_x_lr : gen_fill_onoff_x_l;
			break;
		case MODEL_ARRIVAL_CONSTANT:
		default:
			g->fill_eager = gen_fill_constant_x_e;
			g->fill_lazy = g->rare ? gen_fill_constant_x_lr : gen_fill_constant_x_l;
			break;
		}
		return;
	}
	switch (g->c.arrival) {
	case MODEL_ARRIVAL_POISSON:
		if (g->one_draw) {
			g->fill_eager = gen_fill_poisson1_e;
			g->fill_lazy = g->rare		    ? gen_fill_poisson1_lr
				       : gen_never_stops(g) ? gen_fill_poisson1_ln
							    : gen_fill_poisson1_l;
		} else {
			g->fill_eager = gen_fill_poisson_e;
			g->fill_lazy = g->rare ? gen_fill_poisson_lr : gen_fill_poisson_l;
		}
		break;
	case MODEL_ARRIVAL_POISSON_LINK:
		g->fill_eager = gen_fill_plink_e;
		g->fill_lazy = g->rare ? gen_fill_plink_lr : gen_fill_plink_l;
		break;
	case MODEL_ARRIVAL_ONOFF:
		g->fill_eager = gen_fill_onoff_e;
		g->fill_lazy = g->rare ? gen_fill_onoff_lr : gen_fill_onoff_l;
		break;
	case MODEL_ARRIVAL_CONSTANT:
	default:
		g->fill_eager = gen_fill_constant_e;
		g->fill_lazy = g->rare ? gen_fill_constant_lr : gen_fill_constant_l;
		break;
	}
}

/* Batch: packets still in the buffer first, then freshly made ones. */
unsigned model_gen_next_batch(void *state, struct model_pkt *p, unsigned n, unsigned flags)
{
	struct gen *g = state;
	unsigned k = 0;

	while (k < n && g->buf_pos < g->buf_n)
		p[k++] = g->buf[g->buf_pos++];
	if (k < n)
		k += (flags & MODEL_GEN_LAZY_HDR) ? g->fill_lazy(g, p + k, n - k)
						  : g->fill_eager(g, p + k, n - k);
	return k;
}

/* The header of a packet this generator made, found again from the
 * packet's own fields: flow_id gives the destination slot and the flow,
 * len the size, fwd_drop the TTL variant. */
const uint8_t *model_gen_header(void *state, const struct model_pkt *p)
{
	struct gen *g = state;
	uint32_t fid = p->flow_id - g->flow_base, flow = fid % g->nflows, dslot = fid / g->nflows;
	uint32_t n = g->hc.nsizes, lo, dest;
	const uint16_t *d = g->dsz;
	int mc = p->mc_group != 0,
	    ttl1 = g->hc.nvariants > 1 && p->fwd_drop == MODEL_REASON_TTL_EXCEEDED;

	if (p->hdr)
		return p->hdr;
	if (g->c.size == MODEL_SIZE_EXP) {
		if (p->len < g->exp_lo || p->len - g->exp_lo > g->exp_k ||
		    (mc ? p->mc_group != dslot + 1u - g->c.nports : dslot >= g->c.nports))
			return NULL;
		return gen_header(g, flow, mc ? p->mc_group : dslot, mc, ttl1, p->len,
				  (p->len - g->exp_lo) * g->hc.nvariants);
	}
	/* the size's index among the distinct sizes (ascending): the last
	 * not above it, by halving with selects (the steps depend on n
	 * alone: no branch on the sizes, which no predictor learns) */
	while (n > 1) {
		uint32_t half = n / 2;

		d = d[half] <= p->len ? d + half : d;
		n -= half;
	}
	lo = (uint32_t)(d - g->dsz);
	if (*d != p->len || (mc ? p->mc_group != dslot + 1u - g->c.nports : dslot >= g->c.nports))
		return NULL; /* not a packet of this generator */
	dest = mc ? p->mc_group : dslot;
	return gen_header(g, flow, dest, mc, ttl1, p->len, lo * g->hc.nvariants);
}

/* One packet: from the buffer, refilled GEN_BUF packets at a time. */
static int gen_next(void *state, struct model_pkt *p)
{
	struct gen *g = state;

	if (__builtin_expect(g->buf_pos == g->buf_n, 0)) {
		g->buf_pos = 0;
		g->buf_n = g->fill_eager(g, g->buf, GEN_BUF);
		if (g->buf_n == 0)
			return 0;
	}
	*p = g->buf[g->buf_pos++];
	return 1;
}

/* The engine's interface: batches, with headers found when reported
 * (straight from gen_fill unless next() left packets in the buffer). */
static unsigned gen_next_batch(void *state, struct model_pkt *p, unsigned n)
{
	struct gen *g = state;

	if (g->buf_pos == g->buf_n)
		return g->fill_lazy(g, p, n);
	return model_gen_next_batch(state, p, n, MODEL_GEN_LAZY_HDR);
}

static void gen_free(void *state)
{
	struct gen *g = state;

	hcache_free(&g->hc);
	free(g->ecmp_port);
	free(g);
}

/* A destination set's flows: each one's output port, the member its
 * 5-tuple picks (model_gen_ecmp_member).  0, or -1 (memory). */
static int gen_setup_ecmp(struct gen *g)
{
	const struct model_gen_conf *c = &g->c;

	if (c->n_to < 2)
		return 0;
	g->ecmp_port = malloc(c->nflows * sizeof(*g->ecmp_port));
	if (!g->ecmp_port)
		return -1;
	for (uint32_t f = 0; f < c->nflows; f++) {
		struct model_hdr_spec s;

		flow_spec(c, f, c->to[0], 0, c->to[0], &s);
		g->ecmp_port[f] = c->to[model_gen_ecmp_member(s.ip_version, s.src_ip, s.dst_ip,
							      s.l4, s.sport, s.dport, c->n_to)];
	}
	return 0;
}

/* The per-packet constants of a generator (g->c and g->hc set). */
static void gen_setup_draws(struct gen *g)
{
	const struct model_gen_conf *c = &g->c;
	double ns_per_bit = 1e9 / c->rate_bps;
	uint32_t ndest = 1, i;

	/* size table: IMIX as 12 equally likely entries (7 x 64, 4 x 576,
	 * 1 x 1500), uniform as its evenly spaced sizes, fixed as one;
	 * exponential sizes are drawn apart (the table's one entry unused) */
	g->ns_per_byte = 8.0 * ns_per_bit;
	if (c->size == MODEL_SIZE_EXP) {
		g->exp_lo = exp_lo(c);
		g->exp_k = exp_hi(c) - g->exp_lo;
		g->exp_theta = 1.0 / log1p(1.0 / (c->size_mean - g->exp_lo));
		g->nsz = 1;
		g->sz_len[0] = (uint16_t)g->exp_lo;
	} else if (c->size == MODEL_SIZE_IMIX) {
		g->nsz = 12;
		for (i = 0; i < 12; i++) {
			uint32_t si = i < 7 ? 0 : i < 11 ? 1 : 2;

			g->sz_len[i] = si == 0	 ? MODEL_IMIX_SMALL
				       : si == 1 ? MODEL_IMIX_MEDIUM
						 : MODEL_IMIX_LARGE;
			g->sz_hidx[i] = (uint16_t)(si * g->hc.nvariants);
		}
	} else {
		g->nsz = g->upoints;
		for (i = 0; i < g->nsz; i++) {
			g->sz_len[i] = (uint16_t)uniform_size(c, i, g->nsz);
			g->sz_hidx[i] = (uint16_t)(i * g->hc.nvariants);
		}
	}
	for (i = 0; i < g->nsz; i++)
		g->dsz[g->sz_hidx[i] / g->hc.nvariants] = g->sz_len[i];
	for (i = 0; i < g->nsz; i++)
		g->sz_wire[i] = (g->sz_len[i] + MODEL_ETH_OVERHEAD) * 8.0 * ns_per_bit;
	g->mean_gap_ns = (model_gen_mean_size(c) + MODEL_ETH_OVERHEAD) * 8.0 * ns_per_bit;
	if (c->arrival == MODEL_ARRIVAL_POISSON_LINK) {
		/* mean gap = mean wire time at the link + mean idle */
		g->link_ratio = c->rate_bps / c->link_bps;
		g->mean_idle_ns = g->mean_gap_ns * (1.0 - g->link_ratio);
		if (g->mean_idle_ns < 0)
			g->mean_idle_ns = 0;
	}

	/* destination: uniform over the ports but the ingress one, or fixed */
	g->dest_skip = UINT32_MAX;
	g->dest_add = 0;
	if (c->dest == MODEL_DEST_UNIFORM || c->dest == MODEL_DEST_HOTSPOT) {
		if (c->nports >= 2) {
			ndest = c->nports - 1u;
			g->dest_skip = c->in_port;
		}
	} else {
		g->dest_add = c->dest_port;
	}
	model_rng_split_init(&g->split, g->nsz, ndest, c->nflows);
	g->split_draw = (uint64_t)g->nsz * ndest * c->nflows > 1;
	/* up to 4096 field values, 16 bits of a draw give them exactly with
	 * under 1/16 of the draws rejected */
	g->one_draw = c->arrival == MODEL_ARRIVAL_POISSON && c->size != MODEL_SIZE_EXP &&
		      (uint64_t)g->nsz * ndest * c->nflows <= 4096;
	g->reject16 = g->one_draw ? model_rng_split16_reject(&g->split) : 0;
	g->flow_stride = g->hc.nsizes * g->hc.nvariants;
	g->nflows = c->nflows;
	g->flow_base = c->flow_base;
	g->in_port = c->in_port;
	g->tmpl.in_port = c->in_port;
	g->tmpl.tc = g->tc;
	g->tmpl.tos = model_tos(c->dscp, c->ecn);
	g->tmpl.hdr_len = g->hdr_len;
	g->tmpl.cast = MODEL_CAST_UNICAST;
	g->hot_below = c->dest == MODEL_DEST_HOTSPOT ? prob_below(c->hotspot) : 0;
	g->mc_below = c->mc_fraction > 0 ? prob_below(c->mc_fraction) : 0;
	g->drop_below = c->drop_fraction > 0 ? prob_below(c->drop_fraction) : 0;
	/* (a destination set's flows take the rare path: their output) */
	g->rare = g->hot_below || g->mc_below || g->drop_below || c->n_to >= 2;
	g->stop = c->stop_ns ? (double)c->stop_ns : INFINITY;
	g->max_packets = c->max_packets ? c->max_packets : UINT64_MAX;
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
	g->hc.nsizes = c->size == MODEL_SIZE_IMIX  ? 3
		       : c->size == MODEL_SIZE_EXP ? exp_hi(c) - exp_lo(c) + 1
						   : g->upoints;
	g->hc.nvariants =
	    c->drop_fraction > 0 && c->drop_reason == MODEL_REASON_TTL_EXCEEDED ? 2 : 1;
	g->hc.rowlen = c->nflows * g->hc.nsizes * g->hc.nvariants;
	g->hc.hoff = (g->hc.rowlen + 63) / 64 * 8;
	g->hc.rowbytes = g->hc.hoff + (size_t)g->hc.rowlen * g->hdr_len;
	g->hc.budget = c->hdr_budget ? c->hdr_budget : hdr_budget_default(c->nports);
	g->hc.rows = calloc(g->hc.nslots, sizeof(*g->hc.rows));
	g->hc.empty = calloc(1, g->hc.hoff);
	if (g->hc.empty)
		g->hc.empty += g->hc.hoff;
	g->hc.scratch = malloc(g->hdr_len);
	if (!g->hc.rows || !g->hc.empty || !g->hc.scratch) {
		hcache_free(&g->hc);
		free(g);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (gen_setup_ecmp(g) < 0) {
		hcache_free(&g->hc);
		free(g);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (uint32_t i = 0; i < g->hc.nslots; i++)
		g->hc.rows[i].row = g->hc.empty;
	g->hc.bytes = g->hc.nslots * sizeof(*g->hc.rows) + g->hc.hoff + g->hdr_len;
	gen_setup_draws(g);
	g->t = (double)c->start_ns;
	if (c->arrival == MODEL_ARRIVAL_ONOFF) {
		g->t += (double)c->phase_ns;
		g->on_start = g->t;
		g->on_end = g->t + c->duty * (double)c->period_ns;
	}
	snprintf(g->name, sizeof(g->name), "generator port %u", c->in_port);
	gen_pick_fill(g);
	out->next = gen_next;
	out->free = gen_free;
	out->state = g;
	out->name = g->name;
	out->next_batch = gen_next_batch;
	out->header = model_gen_header;
	/* what model_gen_check guarantees of every packet (pkt.h) */
	out->ports = c->nports;
	out->groups = c->mc_fraction > 0 ? c->mc_group : 0;
	out->ordered = 1;      /* each arrival at or after the one before */
	out->zero_payload = 1; /* headers.h: the payload is zeros */
	return 0;
}

size_t model_gen_memory(const struct model_source *s)
{
	const struct gen *g = s->state;

	return sizeof(*g) + g->hc.bytes + (g->ecmp_port ? g->c.nflows * sizeof(*g->ecmp_port) : 0);
}

void model_gen_hdr_stats(const struct model_source *s, struct model_gen_hdr_stats *st)
{
	const struct gen *g = s->state;

	st->budget = g->hc.budget;
	st->cached_bytes = g->hc.row_bytes;
	st->uncached_pkts = g->hc.uncached;
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
	out->next_batch = NULL;
	out->header = NULL;
	out->ports = out->groups = 0;
	out->ordered = 0;
	return 0;
}
