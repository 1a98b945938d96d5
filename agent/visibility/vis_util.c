/*
 * vis_util.c - small helpers of the visibility library: names of event
 * types and rejection reasons, the seeded random generator, flow fields
 * from a packet header and the flow hash.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <string.h>

#include "agent/visibility/vis.h"

static const char *const ev_names[VIS_EV_NTYPES] = {
    [VIS_EV_DROP] = "drop",
    [VIS_EV_HIGH_DELAY] = "delay",
    [VIS_EV_FORENSICS] = "forensics",
    [VIS_EV_CONGESTION_START] = "congestion_start",
    [VIS_EV_CONGESTION_END] = "congestion_end",
    [VIS_EV_DELAY_END] = "delay_end",
};

static const char *const rej_names[VIS_REJ_N] = {
    [VIS_PASS] = "passed",
    [VIS_REJ_NOT_ELIGIBLE] = "not_eligible",
    [VIS_REJ_DUPLICATE] = "duplicate",
    [VIS_REJ_LIMITER] = "limiter",
    [VIS_REJ_RECURRENT] = "recurrent",
    [VIS_REJ_NO_TICKET] = "no_ticket",
    [VIS_REJ_PROBABILITY] = "probability",
    [VIS_REJ_FLOW_FILTER] = "flow_filter",
    [VIS_REJ_DOWNSTREAM] = "downstream",
};

const char *vis_event_type_name(uint32_t type)
{
	if (type < VIS_EV_NTYPES && ev_names[type])
		return ev_names[type];
	return "unknown";
}

const char *vis_reject_name(uint32_t reason)
{
	if (reason < VIS_REJ_N)
		return rej_names[reason];
	return "unknown";
}

uint32_t vis_event_mask_by_name(const char *name)
{
	if (strcmp(name, "drop") == 0)
		return 1u << VIS_EV_DROP;
	if (strcmp(name, "delay") == 0)
		return 1u << VIS_EV_HIGH_DELAY;
	if (strcmp(name, "forensics") == 0)
		return 1u << VIS_EV_FORENSICS;
	if (strcmp(name, "congestion") == 0)
		return (1u << VIS_EV_CONGESTION_START) | (1u << VIS_EV_CONGESTION_END);
	return 0;
}

/* splitmix64 (Steele, Lea, Flood 2014): one add, two multiply-xorshifts. */
void vis_rng_seed(struct vis_rng *r, uint64_t seed)
{
	r->s = seed;
}

uint64_t vis_rng_next(struct vis_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)((p[0] << 8) | p[1]);
}

int vis_flow_from_header(const uint8_t *hdr, size_t len, struct vis_flow *f)
{
	size_t off = 12;
	uint16_t et;
	uint8_t proto;
	size_t l4;

	memset(f, 0, sizeof(*f));
	if (!hdr || len < 14)
		return -1;
	et = rd16(hdr + 12);
	off = 14;
	while ((et == 0x8100 || et == 0x88a8) && len >= off + 4) {
		if (f->vlan == 0)
			f->vlan = rd16(hdr + off) & 0x0fff;
		et = rd16(hdr + off + 2);
		off += 4;
	}
	if (et == 0x0800) {
		size_t ihl;

		if (len < off + 20 || (hdr[off] >> 4) != 4)
			return -1;
		ihl = (size_t)(hdr[off] & 0x0f) * 4;
		f->af = 4;
		proto = hdr[off + 9];
		memcpy(f->src, hdr + off + 12, 4);
		memcpy(f->dst, hdr + off + 16, 4);
		/* only the first fragment has the ports */
		if ((rd16(hdr + off + 6) & 0x1fff) != 0)
			ihl = len; /* no L4 */
		l4 = off + ihl;
	} else if (et == 0x86dd) {
		if (len < off + 40 || (hdr[off] >> 4) != 6)
			return -1;
		f->af = 6;
		proto = hdr[off + 6];
		memcpy(f->src, hdr + off + 8, 16);
		memcpy(f->dst, hdr + off + 24, 16);
		l4 = off + 40;
	} else {
		return -1;
	}
	f->proto = proto;
	if ((proto == 6 || proto == 17 || proto == 132) && len >= l4 + 4) {
		f->sport = rd16(hdr + l4);
		f->dport = rd16(hdr + l4 + 2);
	}
	return 0;
}

/* FNV-1a over the fields, then a splitmix finaliser for the bit spread. */
static uint64_t mix(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

uint64_t vis_flow_hash(const struct vis_flow *f)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	struct vis_rng r;

	h = mix(h, &f->af, 1);
	h = mix(h, &f->proto, 1);
	h = mix(h, &f->sport, 2);
	h = mix(h, &f->dport, 2);
	h = mix(h, &f->vlan, 2);
	h = mix(h, f->src, 16);
	h = mix(h, f->dst, 16);
	vis_rng_seed(&r, h);
	h = vis_rng_next(&r);
	return h ? h : 1;
}

uint64_t vis_pkt_flow_hash(const struct vis_pkt_event *pe)
{
	return pe->flow_hash ? pe->flow_hash : vis_flow_hash(&pe->flow);
}

uint64_t vis_event_flow_hash(const struct vis_event *ev)
{
	return ev->flow_hash ? ev->flow_hash : vis_flow_hash(&ev->flow);
}
