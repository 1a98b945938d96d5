/*
 * counters.c - build the port and device counters samples from a backend
 * (see counters.h for what goes in them and why).
 *
 * Each call first reads everything it needs from the backend into a
 * snapshot (one read per kind, so each peak window is closed exactly once),
 * then encodes from the snapshot; if the result does not fit, it encodes
 * again from the same snapshot with fewer own records.  Values the backend
 * cannot supply (no capability, or a failed read) are BSF_UNKNOWN in the
 * snapshot and become the wire's "unknown" (all ones, -1 percentages).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <stdio.h>
#include <string.h>

#include "agent/counters.h"
#include "proto/sflow_encode.h"
#include "proto/sflow_own.h"

#define IFTYPE_ETHERNET_CSMACD	6u
#define IFDIRECTION_FULL_DUPLEX 1u

struct port_snap {
	const struct bsf_port_desc *desc;
	uint32_t caps;
	unsigned n_uc, n_mc, n_pgs;
	struct bsf_if_counters ifc;
	struct bsf_eth_counters eth;
	struct bsf_port_buffers buf;
	struct bsf_port_delays delays;
	struct bsf_own_records ext; /* the backend's own records */
};

struct device_snap {
	const struct bsf_device_desc *dev;
	unsigned n_ing, n_egr, n_cpu;
	struct bsf_device_buffers buf;
	struct bsf_own_records ext; /* the backend's own records */
};

static void note_error(struct bsf_counters_out *out, const char *what, const char *msg)
{
	if (out->read_errors++ == 0)
		snprintf(out->err, sizeof out->err, "%s: %s", what, msg[0] ? msg : "failed");
}

/* The backend's own records for port (or BSF_PORT_DEVICE) into ext. */
static void read_ext(const struct bsf_counters_src *src, uint32_t port, struct bsf_own_records *ext,
		     struct bsf_counters_out *out)
{
	char err[160];

	ext->nrec = 0;
	ext->len = 0;
	if (!src->own_enterprise || !src->ops->read_own_records)
		return;
	err[0] = '\0';
	if (src->ops->read_own_records(src->st, src->window, port, src->own_enterprise, ext, err,
				       sizeof err) != 0 ||
	    ext->len > sizeof ext->buf) {
		ext->nrec = 0;
		ext->len = 0;
		note_error(out, "read_own_records", err);
	}
}

/* Append the backend's records (whole ones: a malformed rest is left
 * out). */
static void enc_ext(struct sflow_w *w, struct sflow_sample_enc *s, const struct bsf_own_records *e)
{
	uint32_t pos = 0;
	for (uint32_t i = 0; i < e->nrec && pos + 8 <= e->len; i++) {
		const uint8_t *p = e->buf + pos;
		uint32_t tag =
		    (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
		uint32_t n =
		    (uint32_t)p[4] << 24 | (uint32_t)p[5] << 16 | (uint32_t)p[6] << 8 | p[7];
		if (n % 4 != 0 || n > e->len - pos - 8)
			break;
		size_t m = sflow_enc_record_begin(w, s, tag);
		sflow_w_fixed(w, p + 8, n);
		sflow_enc_record_end(w, m);
		pos += 8 + n;
	}
}

static unsigned cap_count(unsigned n, unsigned max)
{
	return n > max ? max : n;
}

static int src_ok(const struct bsf_counters_src *src)
{
	return src && src->ops && src->dev;
}

/* 64-bit counter as an sFlow 32-bit counter: it wraps like the device's
 * would; unknown (all ones) stays all ones. */
static uint32_t ctr32(uint64_t v)
{
	return (uint32_t)v;
}

/* A backend buffer object as an own buffer structure. */
static void own_buffer(const struct bsf_buf *b, uint32_t caps, struct sflow_own_buffer *o)
{
	int bytes = (caps & BSF_CAP_BUFFER_BYTES) != 0;
	o->cur_cells = sflow_own_u32(b->cur_cells);
	o->cur_bytes = bytes ? sflow_own_u32(b->cur_bytes) : SFLOW_OWN_UNKNOWN32;
	o->peak_cells = sflow_own_u32(b->peak_cells);
	o->peak_bytes = bytes ? sflow_own_u32(b->peak_bytes) : SFLOW_OWN_UNKNOWN32;
	o->alloc_cells = sflow_own_u32(b->alloc_cells);
	o->peak_pc = sflow_percentage(b->peak_cells, b->alloc_cells);
	o->peak_time_ns = (caps & BSF_CAP_PEAK_TIME) ? b->peak_time_ns : SFLOW_OWN_UNKNOWN64;
}

static int32_t pct(const struct bsf_buf *b)
{
	return sflow_percentage(b->peak_cells, b->alloc_cells);
}

/* ---- port */

static void read_port(const struct bsf_counters_src *src, uint32_t port, struct port_snap *ps,
		      struct bsf_counters_out *out)
{
	const struct bsf_device_desc *dev = src->dev;
	char err[160];

	ps->desc = &dev->ports[port];
	ps->caps = dev->caps;
	ps->n_uc = cap_count(ps->desc->n_uc_queues, BSF_MAX_QUEUES);
	ps->n_mc = cap_count(ps->desc->n_mc_queues, BSF_MAX_QUEUES);
	ps->n_pgs = cap_count(ps->desc->n_pgs, BSF_MAX_PGS);
	memset(&ps->ifc, 0xff, sizeof ps->ifc);
	bsf_eth_counters_init(&ps->eth);
	memset(&ps->buf, 0xff, sizeof ps->buf);
	memset(&ps->delays, 0xff, sizeof ps->delays);

	if ((dev->caps & BSF_CAP_IF_COUNTERS) && src->ops->read_counters) {
		err[0] = '\0';
		if (src->ops->read_counters(src->st, port, &ps->ifc, err, sizeof err) != 0) {
			memset(&ps->ifc, 0xff, sizeof ps->ifc);
			note_error(out, "read_counters", err);
		}
	}
	if ((dev->caps & BSF_CAP_ETH_COUNTERS) && src->ops->read_eth_counters) {
		err[0] = '\0';
		if (src->ops->read_eth_counters(src->st, port, &ps->eth, err, sizeof err) != 0) {
			bsf_eth_counters_init(&ps->eth);
			note_error(out, "read_eth_counters", err);
		}
	}
	if ((dev->caps & BSF_CAP_BUFFERS) && src->ops->read_port_buffers) {
		err[0] = '\0';
		if (src->ops->read_port_buffers(src->st, src->window, port, &ps->buf, err,
						sizeof err) != 0) {
			memset(&ps->buf, 0xff, sizeof ps->buf);
			note_error(out, "read_port_buffers", err);
		} else if (src->port_buffers) {
			src->port_buffers(src->port_buffers_arg, port, &ps->buf);
		}
	}
	if ((dev->caps & (BSF_CAP_DELAY_NONTAGGED | BSF_CAP_DELAY_MARKER)) &&
	    src->ops->read_delays) {
		err[0] = '\0';
		if (src->ops->read_delays(src->st, src->window, port, &ps->delays, err,
					  sizeof err) != 0) {
			memset(&ps->delays, 0xff, sizeof ps->delays);
			note_error(out, "read_delays", err);
		}
	}
}

/* A dot3 counter on the wire: 32 bits (it wraps), all ones if unknown. */
static uint32_t dot3(uint64_t v)
{
	return v == BSF_UNKNOWN ? UINT32_MAX : (uint32_t)v;
}

/* 0:2 from the backend's Ethernet counters (all unknown if it has none). */
static void enc_eth(const struct bsf_eth_counters *c, struct sflow_eth_counters *e)
{
	e->dot3StatsAlignmentErrors = dot3(c->alignment_errors);
	e->dot3StatsFCSErrors = dot3(c->fcs_errors);
	e->dot3StatsSingleCollisionFrames = dot3(c->single_collision_frames);
	e->dot3StatsMultipleCollisionFrames = dot3(c->multiple_collision_frames);
	e->dot3StatsSQETestErrors = dot3(c->sqe_test_errors);
	e->dot3StatsDeferredTransmissions = dot3(c->deferred_transmissions);
	e->dot3StatsLateCollisions = dot3(c->late_collisions);
	e->dot3StatsExcessiveCollisions = dot3(c->excessive_collisions);
	e->dot3StatsInternalMacTransmitErrors = dot3(c->internal_mac_transmit_errors);
	e->dot3StatsCarrierSenseErrors = dot3(c->carrier_sense_errors);
	e->dot3StatsFrameTooLongs = dot3(c->frame_too_longs);
	e->dot3StatsInternalMacReceiveErrors = dot3(c->internal_mac_receive_errors);
	e->dot3StatsSymbolErrors = dot3(c->symbol_errors);
}

static void enc_generic(struct sflow_w *w, struct sflow_sample_enc *s, const struct port_snap *ps)
{
	const struct bsf_if_counters *c = &ps->ifc;
	struct sflow_if_counters g;
	int known = c->admin_up <= 1 && c->oper_up <= 1;
	int admin = known ? c->admin_up == 1 : ps->desc->oper_up != 0;
	int oper = known ? c->oper_up == 1 : ps->desc->oper_up != 0;

	memset(&g, 0, sizeof g);
	g.ifIndex = ps->desc->ifindex;
	g.ifType = IFTYPE_ETHERNET_CSMACD;
	g.ifSpeed = c->speed_bps != BSF_UNKNOWN ? c->speed_bps : ps->desc->speed_bps;
	g.ifDirection = IFDIRECTION_FULL_DUPLEX;
	g.ifStatus = (admin ? 1u : 0u) | (oper ? 2u : 0u);
	g.ifInOctets = c->in_octets;
	g.ifInUcastPkts = ctr32(c->in_ucast);
	g.ifInMulticastPkts = ctr32(c->in_mcast);
	g.ifInBroadcastPkts = ctr32(c->in_bcast);
	g.ifInDiscards = ctr32(c->in_discards);
	g.ifInErrors = ctr32(c->in_errors);
	g.ifInUnknownProtos = ctr32(c->in_unknown_protos);
	g.ifOutOctets = c->out_octets;
	g.ifOutUcastPkts = ctr32(c->out_ucast);
	g.ifOutMulticastPkts = ctr32(c->out_mcast);
	g.ifOutBroadcastPkts = ctr32(c->out_bcast);
	g.ifOutDiscards = ctr32(c->out_discards);
	g.ifOutErrors = ctr32(c->out_errors);
	g.ifPromiscuousMode = 0;
	sflow_enc_if_counters(w, s, &g);
}

static void enc_bst_port(struct sflow_w *w, struct sflow_sample_enc *s, const struct port_snap *ps)
{
	struct sflow_bst_port b;
	memset(&b, 0, sizeof b);
	b.ingress_uc_pc = pct(&ps->buf.ingress_uc);
	b.ingress_mc_pc = pct(&ps->buf.ingress_mc);
	b.egress_uc_pc = pct(&ps->buf.egress_uc);
	b.egress_mc_pc = pct(&ps->buf.egress_mc);
	b.n_uc = cap_count(ps->n_uc, SFLOW_BST_MAX_QUEUES);
	b.n_mc = cap_count(ps->n_mc, SFLOW_BST_MAX_QUEUES);
	for (unsigned i = 0; i < b.n_uc; i++)
		b.egress_queue_uc_pc[i] = pct(&ps->buf.uc[i]);
	for (unsigned i = 0; i < b.n_mc; i++)
		b.egress_queue_mc_pc[i] = pct(&ps->buf.mc[i]);
	sflow_enc_bst_port(w, s, &b);
}

static void own_qdelay(const struct bsf_queue_delay *d, uint32_t caps, struct sflow_own_qdelay *o)
{
	int nt = (caps & BSF_CAP_DELAY_NONTAGGED) != 0;
	o->latest_ns = nt ? sflow_own_u32(d->nontagged_latest_ns) : SFLOW_OWN_UNKNOWN32;
	o->max_ns = nt ? sflow_own_u32(d->nontagged_max_ns) : SFLOW_OWN_UNKNOWN32;
	o->count = nt ? sflow_own_u32(d->nontagged_count) : SFLOW_OWN_UNKNOWN32;
	o->marker_ns =
	    (caps & BSF_CAP_DELAY_MARKER) ? sflow_own_u32(d->marker_ns) : SFLOW_OWN_UNKNOWN32;
}

/* Which own records this port can have at all. */
static uint32_t port_own_wanted(const struct bsf_counters_src *src, const struct port_snap *ps)
{
	uint32_t m = 0;
	if (!src->own_enterprise)
		return 0;
	if (ps->caps & BSF_CAP_BUFFERS)
		m |= BSF_COUNTERS_OWN_PORT_BUFFERS | BSF_COUNTERS_OWN_QUEUE_BUFFERS;
	if (ps->caps & (BSF_CAP_DELAY_NONTAGGED | BSF_CAP_DELAY_MARKER))
		m |= BSF_COUNTERS_OWN_QUEUE_DELAYS;
	if ((ps->caps & BSF_CAP_PGS) && ps->n_pgs > 0)
		m |= BSF_COUNTERS_OWN_PG_BUFFERS;
	if (ps->ext.nrec > 0)
		m |= BSF_COUNTERS_OWN_BACKEND;
	return m & src->own_records;
}

static void enc_port(struct sflow_w *w, const struct bsf_counters_src *src, const void *snap,
		     uint32_t seq, uint32_t own, uint32_t *nrec)
{
	const struct port_snap *ps = snap;
	struct sflow_sample_enc s;
	struct sflow_counters_sample h = {
	    .sequence_number = seq,
	    .source_id_type = SFLOW_DS_IFINDEX,
	    .source_id_index = ps->desc->ifindex,
	};
	char name[BSF_NAME_MAX + 1];
	uint32_t ent = src->own_enterprise;

	memcpy(name, ps->desc->name, BSF_NAME_MAX);
	name[BSF_NAME_MAX] = '\0';

	sflow_enc_counters_begin(w, &s, &h);
	enc_generic(w, &s, ps);
	struct sflow_eth_counters eth;
	enc_eth(&ps->eth, &eth);
	sflow_enc_eth_counters(w, &s, &eth);
	sflow_enc_port_name(w, &s, name);
	enc_bst_port(w, &s, ps);

	if (own & BSF_COUNTERS_OWN_PORT_BUFFERS) {
		struct sflow_own_port_buffers pb;
		own_buffer(&ps->buf.ingress_uc, ps->caps, &pb.ingress_uc);
		own_buffer(&ps->buf.ingress_mc, ps->caps, &pb.ingress_mc);
		own_buffer(&ps->buf.egress_uc, ps->caps, &pb.egress_uc);
		own_buffer(&ps->buf.egress_mc, ps->caps, &pb.egress_mc);
		sflow_own_enc_port_buffers(w, &s, ent, &pb);
	}
	if (own & BSF_COUNTERS_OWN_QUEUE_BUFFERS) {
		struct sflow_own_buffer uc[BSF_MAX_QUEUES], mc[BSF_MAX_QUEUES];
		for (unsigned i = 0; i < ps->n_uc; i++)
			own_buffer(&ps->buf.uc[i], ps->caps, &uc[i]);
		for (unsigned i = 0; i < ps->n_mc; i++)
			own_buffer(&ps->buf.mc[i], ps->caps, &mc[i]);
		sflow_own_enc_queue_buffers(w, &s, ent, uc, ps->n_uc, mc, ps->n_mc);
	}
	if (own & BSF_COUNTERS_OWN_QUEUE_DELAYS) {
		struct sflow_own_qdelay uc[BSF_MAX_QUEUES], mc[BSF_MAX_QUEUES];
		for (unsigned i = 0; i < ps->n_uc; i++)
			own_qdelay(&ps->delays.uc[i], ps->caps, &uc[i]);
		for (unsigned i = 0; i < ps->n_mc; i++)
			own_qdelay(&ps->delays.mc[i], ps->caps, &mc[i]);
		sflow_own_enc_queue_delays(w, &s, ent, uc, ps->n_uc, mc, ps->n_mc);
	}
	if (own & BSF_COUNTERS_OWN_PG_BUFFERS) {
		struct sflow_own_pg pg[BSF_MAX_PGS];
		for (unsigned i = 0; i < ps->n_pgs; i++) {
			own_buffer(&ps->buf.pg_shared[i], ps->caps, &pg[i].shared);
			own_buffer(&ps->buf.pg_headroom[i], ps->caps, &pg[i].headroom);
		}
		sflow_own_enc_pg_buffers(w, &s, ent, pg, ps->n_pgs);
	}
	if (own & BSF_COUNTERS_OWN_BACKEND)
		enc_ext(w, &s, &ps->ext);
	*nrec = s.nrecords;
	sflow_enc_sample_end(w, &s);
}

/* Clear the highest set bit: the own record that goes first when short of
 * room (records are sent in format order, so the last one goes first). */
static uint32_t drop_last(uint32_t m)
{
	for (int b = 31; b >= 0; b--)
		if (m & (1u << b))
			return m & ~(1u << b);
	return m;
}

static void out_reset(struct bsf_counters_out *out)
{
	memset(out, 0, sizeof *out);
}

typedef void (*enc_fn)(struct sflow_w *w, const struct bsf_counters_src *src, const void *snap,
		       uint32_t seq, uint32_t own, uint32_t *nrec);

/* Encode a sample with the wanted own records, leaving out the last ones
 * while it does not fit in cap; the result (length, records, what was left
 * out) goes to out. */
static int encode_fitting(enc_fn enc, const struct bsf_counters_src *src, const void *snap,
			  uint32_t seq, uint32_t want, uint8_t *buf, size_t cap,
			  struct bsf_counters_out *out)
{
	struct sflow_w w;
	uint32_t own = want;

	for (;;) {
		sflow_w_init(&w, buf, cap);
		enc(&w, src, snap, seq, own, &out->nrecords);
		if (w.err != SFLOW_ERR_FULL || own == 0)
			break;
		own = drop_last(own);
	}
	out->omitted = want & ~own;
	if (w.err) {
		out->len = 0;
		out->nrecords = 0;
		return w.err;
	}
	out->len = w.len;
	return SFLOW_OK;
}

int bsf_counters_port(const struct bsf_counters_src *src, uint32_t port, uint32_t seq, uint8_t *buf,
		      size_t cap, struct bsf_counters_out *out)
{
	struct port_snap ps;

	out_reset(out);
	if (!src_ok(src) || port >= src->dev->nports || !src->dev->ports || !buf)
		return SFLOW_ERR_INVALID;
	read_port(src, port, &ps, out);
	read_ext(src, port, &ps.ext, out);
	return encode_fitting(enc_port, src, &ps, seq, port_own_wanted(src, &ps), buf, cap, out);
}

/* ---- device */

static void read_device(const struct bsf_counters_src *src, struct device_snap *ds,
			struct bsf_counters_out *out)
{
	const struct bsf_device_desc *dev = src->dev;
	char err[160];

	ds->dev = dev;
	ds->n_ing =
	    (dev->caps & BSF_CAP_POOLS) ? cap_count(dev->n_ingress_pools, BSF_MAX_POOLS) : 0;
	ds->n_egr = (dev->caps & BSF_CAP_POOLS) ? cap_count(dev->n_egress_pools, BSF_MAX_POOLS) : 0;
	ds->n_cpu =
	    (dev->caps & BSF_CAP_CPU_QUEUES) ? cap_count(dev->n_cpu_queues, BSF_MAX_QUEUES) : 0;
	memset(&ds->buf, 0xff, sizeof ds->buf);
	if ((dev->caps & (BSF_CAP_BUFFERS | BSF_CAP_POOLS | BSF_CAP_CPU_QUEUES)) &&
	    src->ops->read_device_buffers) {
		err[0] = '\0';
		if (src->ops->read_device_buffers(src->st, src->window, &ds->buf, err,
						  sizeof err) != 0) {
			memset(&ds->buf, 0xff, sizeof ds->buf);
			note_error(out, "read_device_buffers", err);
		}
	}
}

static uint32_t device_own_wanted(const struct bsf_counters_src *src, const struct device_snap *ds)
{
	uint32_t m = 0;
	if (!src->own_enterprise)
		return 0;
	if (ds->dev->caps & (BSF_CAP_BUFFERS | BSF_CAP_POOLS))
		m |= BSF_COUNTERS_OWN_DEVICE_POOLS;
	if (ds->n_cpu > 0)
		m |= BSF_COUNTERS_OWN_CPU_QUEUES;
	if (src->n_samplers > 0 && src->samplers)
		m |= BSF_COUNTERS_OWN_SAMPLER_STATS;
	if (ds->ext.nrec > 0)
		m |= BSF_COUNTERS_OWN_BACKEND;
	return m & src->own_records;
}

static void device_header(const struct bsf_counters_src *src, uint32_t seq,
			  struct sflow_counters_sample *h)
{
	memset(h, 0, sizeof *h);
	h->sequence_number = seq;
	h->source_id_type = SFLOW_DS_ENTITY;
	h->source_id_index = src->device_index ? src->device_index : 1;
}

static void enc_device(struct sflow_w *w, const struct bsf_counters_src *src, const void *snap,
		       uint32_t seq, uint32_t own, uint32_t *nrec)
{
	const struct device_snap *ds = snap;
	struct sflow_sample_enc s;
	struct sflow_counters_sample h;
	uint32_t caps = ds->dev->caps;
	uint32_t ent = src->own_enterprise;

	device_header(src, seq, &h);
	sflow_enc_counters_begin(w, &s, &h);
	struct sflow_bst_device bd = {.uc_pc = pct(&ds->buf.uc), .mc_pc = pct(&ds->buf.mc)};
	sflow_enc_bst_device(w, &s, &bd);

	if (own & BSF_COUNTERS_OWN_DEVICE_POOLS) {
		struct sflow_own_buffer uc, mc, ing[BSF_MAX_POOLS], egr[BSF_MAX_POOLS];
		own_buffer(&ds->buf.uc, caps, &uc);
		own_buffer(&ds->buf.mc, caps, &mc);
		for (unsigned i = 0; i < ds->n_ing; i++)
			own_buffer(&ds->buf.ingress_pool[i], caps, &ing[i]);
		for (unsigned i = 0; i < ds->n_egr; i++)
			own_buffer(&ds->buf.egress_pool[i], caps, &egr[i]);
		uint32_t cell = ds->dev->cell_bytes ? ds->dev->cell_bytes : SFLOW_OWN_UNKNOWN32;
		uint32_t total =
		    ds->dev->cell_bytes ? sflow_own_u32(ds->dev->total_cells) : SFLOW_OWN_UNKNOWN32;
		sflow_own_enc_device_pools(w, &s, ent, cell, total, &uc, &mc, ing, ds->n_ing, egr,
					   ds->n_egr);
	}
	if (own & BSF_COUNTERS_OWN_CPU_QUEUES) {
		struct sflow_own_buffer q[BSF_MAX_QUEUES];
		for (unsigned i = 0; i < ds->n_cpu; i++)
			own_buffer(&ds->buf.cpu[i], caps, &q[i]);
		sflow_own_enc_cpu_queues(w, &s, ent, q, ds->n_cpu);
	}
	if (own & BSF_COUNTERS_OWN_SAMPLER_STATS)
		sflow_own_enc_sampler_stats(w, &s, ent, src->samplers, src->n_samplers);
	if (own & BSF_COUNTERS_OWN_BACKEND)
		enc_ext(w, &s, &ds->ext);
	*nrec = s.nrecords;
	sflow_enc_sample_end(w, &s);
}

int bsf_counters_device(const struct bsf_counters_src *src, uint32_t seq, uint8_t *buf, size_t cap,
			struct bsf_counters_out *out)
{
	struct device_snap ds;

	out_reset(out);
	if (!src_ok(src) || !buf)
		return SFLOW_ERR_INVALID;
	read_device(src, &ds, out);
	read_ext(src, BSF_PORT_DEVICE, &ds.ext, out);
	return encode_fitting(enc_device, src, &ds, seq, device_own_wanted(src, &ds), buf, cap,
			      out);
}

int bsf_counters_device_samplers(const struct bsf_counters_src *src, uint32_t seq, uint32_t first,
				 uint8_t *buf, size_t cap, uint32_t *n,
				 struct bsf_counters_out *out)
{
	struct sflow_counters_sample h;
	struct sflow_sample_enc s;
	struct sflow_w w;
	uint32_t k;

	out_reset(out);
	*n = 0;
	if (!src || !buf || !src->samplers || !src->own_enterprise || first >= src->n_samplers)
		return SFLOW_ERR_INVALID;
	device_header(src, seq, &h);
	/* as many as fit: try all that are left, then one fewer each time */
	for (k = src->n_samplers - first; k > 0; k--) {
		sflow_w_init(&w, buf, cap);
		sflow_enc_counters_begin(&w, &s, &h);
		sflow_own_enc_sampler_stats(&w, &s, src->own_enterprise, src->samplers + first, k);
		sflow_enc_sample_end(&w, &s);
		if (w.err != SFLOW_ERR_FULL)
			break;
	}
	if (k == 0)
		return SFLOW_ERR_FULL;
	if (w.err)
		return w.err;
	out->len = w.len;
	out->nrecords = 1;
	*n = k;
	return SFLOW_OK;
}
