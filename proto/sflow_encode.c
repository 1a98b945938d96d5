/*
 * sflow_encode.c - sFlow v5 sample and record encoders and the datagram
 * builder (see sflow_encode.h).
 *
 * Samples and records are framed as data_format, then an opaque body.  A
 * record's size is known before it is written: its space is checked once
 * (sflow_w_reserve) and its tag, length and fields are written unchecked;
 * only variable bodies (strings, header bytes) go field by field.  A
 * sample's standard header is reserved the same way; its length and record
 * count are back-patched when it ends.  A sample that does not fit its
 * buffer leaves w->err set and is discarded by the caller as a whole.  The builder copies whole
 * encoded samples into one datagram behind a header written when the datagram is finished.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <string.h>

#include "proto/sflow_encode.h"

#define NO_MARK ((size_t)-1)

/* ---- samples */

static void sample_open(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t tag)
{
	s->start = w->len;
	s->count_mark = NO_MARK;
	s->nrecords = 0;
	sflow_w_u32(w, tag);
	s->len_mark = sflow_w_open(w);
}

/*
 * A standard sample's tag, length placeholder, nfields fixed fields and
 * record count placeholder in one checked reservation; returns where the
 * fields go, or NULL (w->err set).
 */
static uint8_t *sample_open_fixed(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t tag,
				  size_t nfields)
{
	uint8_t *p;

	s->start = w->len;
	s->count_mark = NO_MARK;
	s->nrecords = 0;
	p = sflow_w_reserve(w, 4 + 4 + 4 * nfields + 4);
	if (!p)
		return NULL;
	s->len_mark = s->start + 4;
	s->count_mark = s->start + 8 + 4 * nfields;
	p = sflow_put_u32(p, tag);
	return sflow_put_u32(p, 0); /* length: sflow_enc_sample_end */
}

void sflow_enc_records_begin(struct sflow_w *w, struct sflow_sample_enc *s)
{
	s->count_mark = sflow_w_open(w);
	s->nrecords = 0;
}

void sflow_enc_flow_begin(struct sflow_w *w, struct sflow_sample_enc *s,
			  const struct sflow_flow_sample *h)
{
	uint8_t *p = sample_open_fixed(w, s, SFLOW_SAMPLE_FLOW_EXP, 10);

	if (!p)
		return;
	p = sflow_put_u32(p, h->sequence_number);
	p = sflow_put_u32(p, h->source_id_type);
	p = sflow_put_u32(p, h->source_id_index);
	p = sflow_put_u32(p, h->sampling_rate);
	p = sflow_put_u32(p, h->sample_pool);
	p = sflow_put_u32(p, h->drops);
	p = sflow_put_u32(p, h->input_format);
	p = sflow_put_u32(p, h->input_value);
	p = sflow_put_u32(p, h->output_format);
	p = sflow_put_u32(p, h->output_value);
	sflow_put_u32(p, 0); /* record count: sflow_enc_sample_end */
}

void sflow_enc_counters_begin(struct sflow_w *w, struct sflow_sample_enc *s,
			      const struct sflow_counters_sample *h)
{
	uint8_t *p = sample_open_fixed(w, s, SFLOW_SAMPLE_COUNTERS_EXP, 3);

	if (!p)
		return;
	p = sflow_put_u32(p, h->sequence_number);
	p = sflow_put_u32(p, h->source_id_type);
	p = sflow_put_u32(p, h->source_id_index);
	sflow_put_u32(p, 0); /* record count: sflow_enc_sample_end */
}

void sflow_enc_discard_begin(struct sflow_w *w, struct sflow_sample_enc *s,
			     const struct sflow_discard_sample *h)
{
	uint8_t *p = sample_open_fixed(w, s, SFLOW_SAMPLE_DISCARD, 7);

	if (!p)
		return;
	p = sflow_put_u32(p, h->sequence_number);
	p = sflow_put_u32(p, h->source_id_type);
	p = sflow_put_u32(p, h->source_id_index);
	p = sflow_put_u32(p, h->drops);
	p = sflow_put_u32(p, h->input);
	p = sflow_put_u32(p, h->output);
	p = sflow_put_u32(p, h->reason);
	sflow_put_u32(p, 0); /* record count: sflow_enc_sample_end */
}

void sflow_enc_sample_begin(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t tag)
{
	sample_open(w, s, tag);
}

void sflow_enc_sample_end(struct sflow_w *w, struct sflow_sample_enc *s)
{
	if (w->err != SFLOW_OK)
		return;
	if (s->count_mark == NO_MARK) {
		/* an own sample whose caller never called records_begin */
		w->err = SFLOW_ERR_INVALID;
		return;
	}
	sflow_w_patch(w, s->count_mark, s->nrecords);
	sflow_w_close(w, s->len_mark);
}

/* ---- record framing */

size_t sflow_enc_record_begin(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t tag)
{
	sflow_w_u32(w, tag);
	s->nrecords++;
	return sflow_w_open(w);
}

void sflow_enc_record_end(struct sflow_w *w, size_t mark)
{
	sflow_w_close(w, mark);
}

/*
 * A record whose body is exactly body_len bytes: tag, length and room for
 * the body in one checked reservation.  Returns where the body goes (the
 * caller writes exactly body_len bytes), or NULL with w->err set.
 */
static uint8_t *record_fixed(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t tag,
			     uint32_t body_len)
{
	uint8_t *p = sflow_w_reserve(w, 8 + (size_t)body_len);

	if (!p)
		return NULL;
	s->nrecords++;
	p = sflow_put_u32(p, tag);
	return sflow_put_u32(p, body_len);
}

/* ---- counter records */

void sflow_enc_if_counters(struct sflow_w *w, struct sflow_sample_enc *s,
			   const struct sflow_if_counters *c)
{
	/* 16 unsigned ints and 3 unsigned hypers */
	uint8_t *p = record_fixed(w, s, SFLOW_CTR_GENERIC, 16 * 4 + 3 * 8);

	if (!p)
		return;
	p = sflow_put_u32(p, c->ifIndex);
	p = sflow_put_u32(p, c->ifType);
	p = sflow_put_u64(p, c->ifSpeed);
	p = sflow_put_u32(p, c->ifDirection);
	p = sflow_put_u32(p, c->ifStatus);
	p = sflow_put_u64(p, c->ifInOctets);
	p = sflow_put_u32(p, c->ifInUcastPkts);
	p = sflow_put_u32(p, c->ifInMulticastPkts);
	p = sflow_put_u32(p, c->ifInBroadcastPkts);
	p = sflow_put_u32(p, c->ifInDiscards);
	p = sflow_put_u32(p, c->ifInErrors);
	p = sflow_put_u32(p, c->ifInUnknownProtos);
	p = sflow_put_u64(p, c->ifOutOctets);
	p = sflow_put_u32(p, c->ifOutUcastPkts);
	p = sflow_put_u32(p, c->ifOutMulticastPkts);
	p = sflow_put_u32(p, c->ifOutBroadcastPkts);
	p = sflow_put_u32(p, c->ifOutDiscards);
	p = sflow_put_u32(p, c->ifOutErrors);
	sflow_put_u32(p, c->ifPromiscuousMode);
}

void sflow_enc_eth_counters(struct sflow_w *w, struct sflow_sample_enc *s,
			    const struct sflow_eth_counters *c)
{
	uint8_t *p = record_fixed(w, s, SFLOW_CTR_ETHERNET, 13 * 4);

	if (!p)
		return;
	p = sflow_put_u32(p, c->dot3StatsAlignmentErrors);
	p = sflow_put_u32(p, c->dot3StatsFCSErrors);
	p = sflow_put_u32(p, c->dot3StatsSingleCollisionFrames);
	p = sflow_put_u32(p, c->dot3StatsMultipleCollisionFrames);
	p = sflow_put_u32(p, c->dot3StatsSQETestErrors);
	p = sflow_put_u32(p, c->dot3StatsDeferredTransmissions);
	p = sflow_put_u32(p, c->dot3StatsLateCollisions);
	p = sflow_put_u32(p, c->dot3StatsExcessiveCollisions);
	p = sflow_put_u32(p, c->dot3StatsInternalMacTransmitErrors);
	p = sflow_put_u32(p, c->dot3StatsCarrierSenseErrors);
	p = sflow_put_u32(p, c->dot3StatsFrameTooLongs);
	p = sflow_put_u32(p, c->dot3StatsInternalMacReceiveErrors);
	sflow_put_u32(p, c->dot3StatsSymbolErrors);
}

/* Length of a C string, or limit + 1 if it is longer than limit. */
static size_t bounded_len(const char *p, size_t limit)
{
	size_t n = 0;

	while (n <= limit && p[n] != '\0')
		n++;
	return n;
}

void sflow_enc_port_name(struct sflow_w *w, struct sflow_sample_enc *s, const char *name)
{
	size_t n, m;

	if (w->err != SFLOW_OK)
		return;
	if (!name || (n = bounded_len(name, SFLOW_PORT_NAME_MAX)) > SFLOW_PORT_NAME_MAX) {
		w->err = SFLOW_ERR_INVALID; /* string name<255> */
		return;
	}
	m = sflow_enc_record_begin(w, s, SFLOW_CTR_PORT_NAME);
	sflow_w_opaque(w, name, (uint32_t)n);
	sflow_enc_record_end(w, m);
}

void sflow_enc_bst_device(struct sflow_w *w, struct sflow_sample_enc *s,
			  const struct sflow_bst_device *b)
{
	uint8_t *p = record_fixed(w, s, SFLOW_CTR_BST_DEVICE, 2 * 4);

	if (!p)
		return;
	p = sflow_put_i32(p, b->uc_pc);
	sflow_put_i32(p, b->mc_pc);
}

void sflow_enc_bst_port(struct sflow_w *w, struct sflow_sample_enc *s,
			const struct sflow_bst_port *b)
{
	uint8_t *p;
	uint32_t i;

	if (w->err != SFLOW_OK)
		return;
	if (b->n_uc > SFLOW_BST_MAX_QUEUES || b->n_mc > SFLOW_BST_MAX_QUEUES) {
		w->err = SFLOW_ERR_INVALID; /* percentage x<8> */
		return;
	}
	/* 4 percentages, then two counted arrays; the counts were just bounded */
	p = record_fixed(w, s, SFLOW_CTR_BST_PORT, (6 + b->n_uc + b->n_mc) * 4);
	if (!p)
		return;
	p = sflow_put_i32(p, b->ingress_uc_pc);
	p = sflow_put_i32(p, b->ingress_mc_pc);
	p = sflow_put_i32(p, b->egress_uc_pc);
	p = sflow_put_i32(p, b->egress_mc_pc);
	p = sflow_put_u32(p, b->n_uc);
	for (i = 0; i < b->n_uc; i++)
		p = sflow_put_i32(p, b->egress_queue_uc_pc[i]);
	p = sflow_put_u32(p, b->n_mc);
	for (i = 0; i < b->n_mc; i++)
		p = sflow_put_i32(p, b->egress_queue_mc_pc[i]);
}

/* ---- flow records */

void sflow_enc_sampled_header(struct sflow_w *w, struct sflow_sample_enc *s,
			      const struct sflow_sampled_header *h)
{
	uint8_t *p;
	uint32_t pad;

	if (w->err != SFLOW_OK)
		return;
	if (h->header_length > 0 && !h->header) {
		w->err = SFLOW_ERR_INVALID;
		return;
	}
	if (h->header_length > SFLOW_DGRAM_MAX) {
		w->err = SFLOW_ERR_FULL; /* could never fit any datagram */
		return;
	}
	/* protocol, frame length, stripped, then opaque header<> padded to 4 */
	pad = (4 - (h->header_length & 3)) & 3;
	p = record_fixed(w, s, SFLOW_FLOW_HEADER, 16 + h->header_length + pad);
	if (!p)
		return;
	p = sflow_put_u32(p, h->header_protocol);
	p = sflow_put_u32(p, h->frame_length);
	p = sflow_put_u32(p, h->stripped);
	p = sflow_put_u32(p, h->header_length);
	if (h->header_length)
		memcpy(p, h->header, h->header_length);
	memset(p + h->header_length, 0, pad);
}

void sflow_enc_ext_switch(struct sflow_w *w, struct sflow_sample_enc *s,
			  const struct sflow_ext_switch *x)
{
	uint8_t *p = record_fixed(w, s, SFLOW_FLOW_EXT_SWITCH, 4 * 4);

	if (!p)
		return;
	p = sflow_put_u32(p, x->src_vlan);
	p = sflow_put_u32(p, x->src_priority);
	p = sflow_put_u32(p, x->dst_vlan);
	sflow_put_u32(p, x->dst_priority);
}

/* A record whose body is one unsigned int. */
static void enc_u32_record(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t tag, uint32_t v)
{
	uint8_t *p = record_fixed(w, s, tag, 4);

	if (p)
		sflow_put_u32(p, v);
}

void sflow_enc_egress_queue(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t queue)
{
	enc_u32_record(w, s, SFLOW_FLOW_EGRESS_QUEUE, queue);
}

void sflow_enc_function(struct sflow_w *w, struct sflow_sample_enc *s, const char *symbol)
{
	size_t n, m;

	if (w->err != SFLOW_OK)
		return;
	if (!symbol || (n = bounded_len(symbol, SFLOW_DGRAM_MAX)) > SFLOW_DGRAM_MAX) {
		w->err = SFLOW_ERR_INVALID; /* could never fit a datagram */
		return;
	}
	m = sflow_enc_record_begin(w, s, SFLOW_FLOW_FUNCTION);
	sflow_w_opaque(w, symbol, (uint32_t)n);
	sflow_enc_record_end(w, m);
}

void sflow_enc_hw_trap(struct sflow_w *w, struct sflow_sample_enc *s, const char *group,
		       const char *trap)
{
	size_t n, k, m;

	if (w->err != SFLOW_OK)
		return;
	if (!group || !trap || (n = bounded_len(group, SFLOW_DGRAM_MAX)) > SFLOW_DGRAM_MAX ||
	    (k = bounded_len(trap, SFLOW_DGRAM_MAX)) > SFLOW_DGRAM_MAX) {
		w->err = SFLOW_ERR_INVALID;
		return;
	}
	m = sflow_enc_record_begin(w, s, SFLOW_FLOW_HW_TRAP);
	sflow_w_opaque(w, group, (uint32_t)n);
	sflow_w_opaque(w, trap, (uint32_t)k);
	sflow_enc_record_end(w, m);
}

void sflow_enc_linux_reason(struct sflow_w *w, struct sflow_sample_enc *s, const char *reason)
{
	size_t n, m;

	if (w->err != SFLOW_OK)
		return;
	if (!reason || (n = bounded_len(reason, SFLOW_DGRAM_MAX)) > SFLOW_DGRAM_MAX) {
		w->err = SFLOW_ERR_INVALID;
		return;
	}
	m = sflow_enc_record_begin(w, s, SFLOW_FLOW_LINUX_REASON);
	sflow_w_opaque(w, reason, (uint32_t)n);
	sflow_enc_record_end(w, m);
}

void sflow_enc_transit(struct sflow_w *w, struct sflow_sample_enc *s, uint64_t delay_ns)
{
	enc_u32_record(w, s, SFLOW_FLOW_TRANSIT, sflow_sat32(delay_ns));
}

void sflow_enc_queue_depth(struct sflow_w *w, struct sflow_sample_enc *s, uint64_t depth_bytes)
{
	enc_u32_record(w, s, SFLOW_FLOW_QUEUE_DEPTH, sflow_sat32(depth_bytes));
}

void sflow_enc_timestamp(struct sflow_w *w, struct sflow_sample_enc *s, uint64_t ns_since_epoch)
{
	uint8_t *p = record_fixed(w, s, SFLOW_FLOW_TIMESTAMP, 8);

	if (p)
		sflow_put_u64(p, ns_since_epoch);
}

void sflow_enc_bst_egress_queue(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t queue)
{
	enc_u32_record(w, s, SFLOW_FLOW_BST_EGRESS_QUEUE, queue);
}

/* ---- datagram */

static size_t addr_len(uint32_t type)
{
	switch (type) {
	case SFLOW_ADDR_UNKNOWN:
		return 0;
	case SFLOW_ADDR_IP4:
		return 4;
	case SFLOW_ADDR_IP6:
		return 16;
	default:
		return (size_t)-1;
	}
}

void sflow_enc_dgram_header(struct sflow_w *w, const struct sflow_addr *agent,
			    uint32_t sub_agent_id, uint32_t sequence_number, uint32_t uptime_ms,
			    uint32_t nsamples)
{
	size_t alen = addr_len(agent->type);

	if (w->err != SFLOW_OK)
		return;
	if (alen == (size_t)-1) {
		w->err = SFLOW_ERR_INVALID;
		return;
	}
	sflow_w_u32(w, SFLOW_VERSION);
	sflow_w_u32(w, agent->type);
	sflow_w_fixed(w, agent->a, alen);
	sflow_w_u32(w, sub_agent_id);
	sflow_w_u32(w, sequence_number);
	sflow_w_u32(w, uptime_ms);
	sflow_w_u32(w, nsamples);
}

int sflow_builder_init(struct sflow_dgram_builder *b, const struct sflow_addr *agent,
		       uint32_t sub_agent_id, size_t max_bytes, uint32_t max_samples)
{
	if (!b || !agent)
		return SFLOW_ERR_INVALID;
	if (agent->type != SFLOW_ADDR_IP4 && agent->type != SFLOW_ADDR_IP6)
		return SFLOW_ERR_INVALID;
	if (max_bytes < SFLOW_DGRAM_MIN || max_bytes > SFLOW_DGRAM_MAX)
		return SFLOW_ERR_INVALID;
	b->agent = *agent;
	if (agent->type == SFLOW_ADDR_IP4)
		memset(b->agent.a + 4, 0, sizeof b->agent.a - 4);
	b->sub_agent_id = sub_agent_id;
	b->max_bytes = max_bytes;
	b->max_samples = max_samples;
	/* version, address type, address, sub-agent, sequence, uptime, count */
	b->hdr_len = 4 + 4 + addr_len(agent->type) + 4 + 4 + 4 + 4;
	b->len = b->hdr_len;
	b->std_end = b->hdr_len;
	b->nsamples = 0;
	return SFLOW_OK;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

int sflow_builder_add(struct sflow_dgram_builder *b, const uint8_t *sample, size_t len)
{
	/* a whole sample: data_format, body length, body; lengths exact */
	if (!sample || len < 8 || (len & 3) != 0 || be32(sample + 4) != len - 8)
		return SFLOW_ERR_INVALID;
	if (len > b->max_bytes - b->hdr_len)
		return SFLOW_ERR_TOOBIG;
	if (b->max_samples && b->nsamples >= b->max_samples)
		return SFLOW_ERR_FULL;
	if (len > b->max_bytes - b->len)
		return SFLOW_ERR_FULL;
	if (be32(sample) >= 1 && be32(sample) <= 4) {
		/* standard: after the standard ones, before all others */
		memmove(b->buf + b->std_end + len, b->buf + b->std_end, b->len - b->std_end);
		memcpy(b->buf + b->std_end, sample, len);
		b->std_end += len;
	} else {
		memcpy(b->buf + b->len, sample, len);
	}
	b->len += len;
	b->nsamples++;
	return SFLOW_OK;
}

static void reverse(uint8_t *p, size_t n)
{
	for (size_t i = 0; n > 1 && i < n / 2; i++) {
		uint8_t t = p[i];

		p[i] = p[n - 1 - i];
		p[n - 1 - i] = t;
	}
}

/* p[0..a) p[a..a+n) -> p[a..a+n) p[0..a), in place. */
static void rotate(uint8_t *p, size_t a, size_t n)
{
	reverse(p, a);
	reverse(p + a, n);
	reverse(p, a + n);
}

void sflow_builder_open(struct sflow_dgram_builder *b, struct sflow_w *w)
{
	size_t room = b->len <= b->max_bytes ? b->max_bytes - b->len : 0;

	sflow_w_init(w, b->buf + b->len, room);
}

int sflow_builder_commit(struct sflow_dgram_builder *b, const struct sflow_w *w)
{
	/* w must be the writer sflow_builder_open() gave for this state of b */
	if (w->buf != b->buf + b->len || w->len > w->cap || w->cap > b->max_bytes - b->len)
		return SFLOW_ERR_INVALID;
	if (w->err == SFLOW_ERR_FULL)
		return b->nsamples ? SFLOW_ERR_FULL : SFLOW_ERR_TOOBIG;
	if (w->err != SFLOW_OK)
		return w->err;
	if (w->len < 8 || (w->len & 3) != 0 || be32(w->buf + 4) != w->len - 8)
		return SFLOW_ERR_INVALID;
	if (b->max_samples && b->nsamples >= b->max_samples)
		return SFLOW_ERR_FULL;
	if (be32(w->buf) >= 1 && be32(w->buf) <= 4) {
		/* standard: moved behind the standard ones, ahead of all others,
		 * as sflow_builder_add places it (a rotation in place) */
		if (b->std_end < b->len)
			rotate(b->buf + b->std_end, b->len - b->std_end, w->len);
		b->std_end += w->len;
	}
	b->len += w->len;
	b->nsamples++;
	return SFLOW_OK;
}

const uint8_t *sflow_builder_finish(struct sflow_dgram_builder *b, uint32_t sequence_number,
				    uint32_t uptime_ms, size_t *len)
{
	struct sflow_w w;

	*len = 0;
	if (b->nsamples == 0)
		return 0;
	sflow_w_init(&w, b->buf, b->hdr_len);
	sflow_enc_dgram_header(&w, &b->agent, b->sub_agent_id, sequence_number, uptime_ms,
			       b->nsamples);
	if (w.err != SFLOW_OK || w.len != b->hdr_len)
		return 0; /* cannot happen after a successful init */
	*len = b->len;
	b->len = b->hdr_len;
	b->std_end = b->hdr_len;
	b->nsamples = 0;
	return b->buf;
}
