/*
 * replay.c - pcap replay source for the switch model (see replay.h for the
 * port, time and class rules).
 *
 * model_replay_new reads every packet with libpcap (nanosecond timestamps),
 * decodes just enough of Ethernet / 802.1Q / IPv4 / IPv6 to apply the port
 * rules, and keeps one small record per packet plus its first
 * MODEL_HDR_MAX captured bytes in one growing array.  next() then walks
 * the array, once or in loops, rescaling time.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include "agent/model/replay.h"

#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/model/headers.h"
#include "agent/model/traffic.h"

struct rp_pkt {
	uint64_t rel_ns; /* time since the first packet, already scaled */
	uint64_t hdr_off;
	uint32_t len;
	uint32_t flow_id;
	uint16_t in_port, out_port, mc_group, hdr_len;
	uint8_t tc, tos, cast; /* tos: as in struct model_pkt */
};

struct replay {
	struct rp_pkt *pkts;
	size_t n, cap;
	uint8_t *bytes; /* header bytes of all packets */
	size_t nbytes, bytes_cap;
	uint64_t start_ns, loop_ns; /* loop_ns: time between loop starts */
	uint32_t loops, loop;	    /* loops 0 = forever */
	size_t i;		    /* next packet of the current loop */
	char name[64];
};

void model_replay_defaults(struct model_replay_conf *c)
{
	memset(c, 0, sizeof(*c));
	c->time_scale = 1.0;
	c->loops = 1;
}

uint32_t model_replay_hash(const void *data, size_t n)
{
	const uint8_t *p = data;
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 16777619u;
	}
	return h;
}

/* What the port rules need from a frame. */
struct rp_frame {
	const uint8_t *dst_mac, *src_mac;
	int vid; /* -1 untagged */
	uint8_t pcp;
	uint16_t ethertype;
	uint8_t ipver; /* 0 = not IP (or too short) */
	const uint8_t *src_ip, *dst_ip;
	uint8_t dscp, ecn, proto;
	uint16_t sport, dport;
};

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void parse_frame(const uint8_t *b, size_t n, struct rp_frame *f)
{
	size_t off = 12, l4 = 0;
	int tags = 0;

	memset(f, 0, sizeof(*f));
	f->vid = -1;
	if (n < 14)
		return;
	f->dst_mac = b;
	f->src_mac = b + 6;
	f->ethertype = get16(b + 12);
	while ((f->ethertype == 0x8100 || f->ethertype == 0x88a8) && tags < 2 && off + 6 <= n) {
		if (tags == 0) {
			f->vid = get16(b + off + 2) & 0xfff;
			f->pcp = b[off + 2] >> 5;
		}
		off += 4;
		f->ethertype = get16(b + off);
		tags++;
	}
	off += 2;
	if (f->ethertype == MODEL_ETHERTYPE_IPV4 && off + 20 <= n && (b[off] >> 4) == 4) {
		unsigned ihl = (b[off] & 15u) * 4;

		f->ipver = 4;
		f->dscp = b[off + 1] >> 2;
		f->ecn = b[off + 1] & 3;
		f->proto = b[off + 9];
		f->src_ip = b + off + 12;
		f->dst_ip = b + off + 16;
		if ((get16(b + off + 6) & 0x1fff) == 0 && ihl >= 20)
			l4 = off + ihl;
	} else if (f->ethertype == MODEL_ETHERTYPE_IPV6 && off + 40 <= n && (b[off] >> 4) == 6) {
		f->ipver = 6;
		f->dscp = (uint8_t)(((b[off] & 15) << 4 | b[off + 1] >> 4) >> 2);
		f->ecn = (b[off + 1] >> 4) & 3;
		f->proto = b[off + 6];
		f->src_ip = b + off + 8;
		f->dst_ip = b + off + 24;
		l4 = off + 40;
	}
	if (l4 && (f->proto == MODEL_IPPROTO_TCP || f->proto == MODEL_IPPROTO_UDP) && l4 + 4 <= n) {
		f->sport = get16(b + l4);
		f->dport = get16(b + l4 + 2);
	}
}

static int prefix_match(const struct model_replay_prefix *p, const uint8_t *ip)
{
	unsigned full = p->plen / 8, rest = p->plen % 8;

	if (memcmp(p->addr, ip, full) != 0)
		return 0;
	if (rest) {
		uint8_t mask = (uint8_t)(0xff << (8 - rest));

		if ((p->addr[full] & mask) != (ip[full] & mask))
			return 0;
	}
	return 1;
}

static uint16_t pick(const struct model_replay_conf *c, const uint16_t *list, unsigned n,
		     uint32_t h, unsigned *idx)
{
	*idx = list && n ? h % n : h % c->nports;
	return list && n ? list[*idx] : (uint16_t)*idx;
}

static void map_ports(const struct model_replay_conf *c, const struct rp_frame *f, struct rp_pkt *p)
{
	unsigned i, idx, n;
	int best = -1;
	uint16_t in;

	/* ingress */
	for (i = 0; f->vid >= 0 && i < c->n_vlan_map; i++) {
		if (c->vlan_map[i].vid == f->vid) {
			best = (int)i;
			break;
		}
	}
	if (best >= 0)
		in = c->vlan_map[best].port;
	else /* a runt without a source MAC takes the first candidate */
		in = pick(c, c->in_ports, c->n_in_ports,
			  f->src_mac ? model_replay_hash(f->src_mac, 6) : 0, &idx);
	p->in_port = in;

	/* multicast */
	p->mc_group = 0;
	if (c->mc_group && f->dst_mac && (f->dst_mac[0] & 1)) {
		p->mc_group = c->mc_group;
		p->out_port = in;
		return;
	}

	/* egress: explicit map (longest prefix) */
	best = -1;
	for (i = 0; f->ipver && i < c->n_egress_map; i++) {
		const struct model_replay_prefix *e = &c->egress_map[i];

		if (e->family == f->ipver && prefix_match(e, f->dst_ip) &&
		    (best < 0 || e->plen > c->egress_map[best].plen))
			best = (int)i;
	}
	if (best >= 0) {
		p->out_port = c->egress_map[best].port;
		return;
	}
	/* egress: hash */
	if (f->ipver)
		p->out_port = pick(c, c->out_ports, c->n_out_ports,
				   model_replay_hash(f->dst_ip, f->ipver == 6 ? 16 : 4), &idx);
	else if (f->dst_mac)
		p->out_port =
		    pick(c, c->out_ports, c->n_out_ports, model_replay_hash(f->dst_mac, 6), &idx);
	else
		p->out_port = pick(c, c->out_ports, c->n_out_ports, 0, &idx);
	n = c->out_ports && c->n_out_ports ? c->n_out_ports : c->nports;
	if (p->out_port == in && n > 1) {
		idx = (idx + 1) % n;
		p->out_port = c->out_ports && c->n_out_ports ? c->out_ports[idx] : (uint16_t)idx;
	}
}

static uint32_t flow_hash(const struct rp_frame *f)
{
	uint8_t k[40];
	size_t n = 0, a;

	if (f->ipver) {
		a = f->ipver == 6 ? 16 : 4;
		memcpy(k, f->src_ip, a);
		memcpy(k + a, f->dst_ip, a);
		n = 2 * a;
		k[n++] = f->proto;
		k[n++] = (uint8_t)(f->sport >> 8);
		k[n++] = (uint8_t)f->sport;
		k[n++] = (uint8_t)(f->dport >> 8);
		k[n++] = (uint8_t)f->dport;
	} else if (f->dst_mac) {
		memcpy(k, f->src_mac, 6);
		memcpy(k + 6, f->dst_mac, 6);
		k[12] = (uint8_t)(f->ethertype >> 8);
		k[13] = (uint8_t)f->ethertype;
		n = 14;
	}
	return model_replay_hash(k, n);
}

static void replay_free(void *state)
{
	struct replay *r = state;

	free(r->pkts);
	free(r->bytes);
	free(r);
}

/* The next packet into *p: 1, or 0 at the end. */
static inline int replay_take(struct replay *r, struct model_pkt *p)
{
	const struct rp_pkt *q;

	if (r->i == r->n) {
		if (r->loops && r->loop + 1 >= r->loops)
			return 0;
		r->loop++;
		r->i = 0;
	}
	q = &r->pkts[r->i++];
	p->t_ns = r->start_ns + (uint64_t)r->loop * r->loop_ns + q->rel_ns;
	p->len = q->len;
	p->in_port = q->in_port;
	p->out_port = q->out_port;
	p->mc_group = q->mc_group;
	p->tc = q->tc;
	p->tos = q->tos;
	p->fwd_drop = 0;
	p->hdr_len = q->hdr_len;
	p->flow_id = q->flow_id;
	p->hdr = r->bytes + q->hdr_off;
	p->cast = q->cast;
	return 1;
}

static int replay_next(void *state, struct model_pkt *p)
{
	return replay_take(state, p);
}

static unsigned replay_next_batch(void *state, struct model_pkt *p, unsigned n)
{
	unsigned k = 0;

	while (k < n && replay_take(state, &p[k]))
		k++;
	return k;
}

static int check_conf(const struct model_replay_conf *c, char *err, size_t errlen)
{
	unsigned i;

	if (!c->file || !*c->file) {
		snprintf(err, errlen, "replay: no capture file given");
		return -1;
	}
	if (c->nports < 1) {
		snprintf(err, errlen, "%s: the switch has no ports", c->file);
		return -1;
	}
	if (!(c->time_scale > 0)) {
		snprintf(err, errlen, "%s: time scale must be above 0", c->file);
		return -1;
	}
	for (i = 0; i < c->n_in_ports; i++)
		if (c->in_ports[i] >= c->nports)
			goto badport;
	for (i = 0; i < c->n_out_ports; i++)
		if (c->out_ports[i] >= c->nports)
			goto badport;
	for (i = 0; i < c->n_vlan_map; i++)
		if (c->vlan_map[i].port >= c->nports)
			goto badport;
	for (i = 0; i < c->n_egress_map; i++)
		if (c->egress_map[i].port >= c->nports)
			goto badport;
	return 0;
badport:
	snprintf(err, errlen, "%s: a port in the replay maps is not below the port count %u",
		 c->file, c->nports);
	return -1;
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * elem);
	if (!q)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

int model_replay_new(const struct model_replay_conf *c, struct model_source *out, char *err,
		     size_t errlen)
{
	char ebuf[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *ph;
	const u_char *data;
	struct replay *r;
	uint64_t first = 0, prev = 0;
	pcap_t *pc;
	int rc, dlt;

	if (check_conf(c, err, errlen) < 0)
		return -1;
	ebuf[0] = 0;
	pc = pcap_open_offline_with_tstamp_precision(c->file, PCAP_TSTAMP_PRECISION_NANO, ebuf);
	if (!pc) {
		/* libpcap's message usually names the file already; say it once */
		if (strstr(ebuf, c->file))
			snprintf(err, errlen, "cannot read capture: %s", ebuf);
		else
			snprintf(err, errlen, "%s: cannot read capture: %s", c->file, ebuf);
		return -1;
	}
	dlt = pcap_datalink(pc);
	if (dlt != DLT_EN10MB) {
		const char *dn = pcap_datalink_val_to_name(dlt);

		snprintf(err, errlen, "%s: link type %s (%d) is not Ethernet (EN10MB)", c->file,
			 dn ? dn : "unknown", dlt);
		pcap_close(pc);
		return -1;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		pcap_close(pc);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	while ((rc = pcap_next_ex(pc, &ph, &data)) == 1) {
		uint64_t ts = (uint64_t)ph->ts.tv_sec * 1000000000u + (uint64_t)ph->ts.tv_usec;
		uint32_t caplen = ph->caplen < MODEL_HDR_MAX ? ph->caplen : MODEL_HDR_MAX;
		struct rp_frame f;
		struct rp_pkt *p;
		uint64_t len;

		if (grow((void **)&r->pkts, &r->cap, r->n + 1, sizeof(*r->pkts)) < 0 ||
		    grow((void **)&r->bytes, &r->bytes_cap, r->nbytes + caplen, 1) < 0) {
			snprintf(err, errlen, "%s: out of memory after %zu packets", c->file, r->n);
			goto fail;
		}
		if (r->n == 0)
			first = prev = ts;
		if (ts < prev)
			ts = prev; /* time must not go back */
		prev = ts;
		p = &r->pkts[r->n++];
		p->rel_ns = (uint64_t)((double)(ts - first) / c->time_scale);
		p->hdr_off = r->nbytes;
		p->hdr_len = (uint16_t)caplen;
		memcpy(r->bytes + r->nbytes, data, caplen);
		r->nbytes += caplen;
		len = (uint64_t)ph->len + MODEL_ETH_FCS;
		if (len < MODEL_FRAME_MIN)
			len = MODEL_FRAME_MIN;
		if (len > MODEL_FRAME_MAX)
			len = MODEL_FRAME_MAX;
		p->len = (uint32_t)len;
		parse_frame(data, caplen, &f);
		map_ports(c, &f, p);
		p->tos = model_tos(f.dscp, f.ecn);
		p->tc = f.vid >= 0 ? f.pcp : f.ipver ? (uint8_t)(f.dscp >> 3) : 0;
		p->flow_id = c->flow_base + flow_hash(&f);
		/* the destination MAC's class, as the engine would read it */
		p->cast = caplen >= 6	? model_cast_of_mac(data)
			  : p->mc_group ? MODEL_CAST_MULTICAST
					: MODEL_CAST_UNICAST;
	}
	if (rc == PCAP_ERROR) {
		snprintf(err, errlen, "%s: bad capture after %zu packets: %s", c->file, r->n,
			 pcap_geterr(pc));
		goto fail;
	}
	if (r->n == 0) {
		snprintf(err, errlen, "%s: the capture holds no packets", c->file);
		goto fail;
	}
	pcap_close(pc);
	{
		uint64_t span = r->pkts[r->n - 1].rel_ns;
		uint64_t gap = r->n > 1 ? span / (r->n - 1) : 1000;

		r->loop_ns = span + (gap ? gap : 1);
	}
	r->start_ns = c->start_ns;
	r->loops = c->loops;
	snprintf(r->name, sizeof(r->name), "replay %s", c->file);
	out->next = replay_next;
	out->free = replay_free;
	out->state = r;
	out->name = r->name;
	out->next_batch = replay_next_batch;
	out->header = NULL;
	/* check_conf and the rules above bound every packet (pkt.h) */
	out->ports = c->nports;
	out->groups = c->mc_group;
	/* times never go back: within a pass (clamped as read) nor from one
	 * pass to the next (loop_ns is beyond the last packet) */
	out->ordered = 1;
	return 0;
fail:
	pcap_close(pc);
	replay_free(r);
	return -1;
}

uint64_t model_replay_count(const struct model_source *s)
{
	const struct replay *r = s->state;

	return r->n;
}
