/*
 * sflow_encode.c - sFlow v5 sample and record encoders and the datagram
 * builder (see sflow_encode.h).
 *
 * Samples and records are framed as data_format, then an opaque body whose
 * length is back-patched when the body is complete; a sample's record count
 * is back-patched the same way.  Everything goes through struct sflow_w, so
 * a sample that does not fit its buffer leaves w->err set and is discarded
 * by the caller as a whole.  The builder copies whole encoded samples into
 * one datagram behind a header written when the datagram is finished.
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

void sflow_enc_records_begin(struct sflow_w *w, struct sflow_sample_enc *s)
{
	s->count_mark = sflow_w_open(w);
	s->nrecords = 0;
}

void sflow_enc_flow_begin(struct sflow_w *w, struct sflow_sample_enc *s,
			  const struct sflow_flow_sample *h)
{
	sample_open(w, s, SFLOW_SAMPLE_FLOW_EXP);
	sflow_w_u32(w, h->sequence_number);
	sflow_w_u32(w, h->source_id_type);
	sflow_w_u32(w, h->source_id_index);
	sflow_w_u32(w, h->sampling_rate);
	sflow_w_u32(w, h->sample_pool);
	sflow_w_u32(w, h->drops);
	sflow_w_u32(w, h->input_format);
	sflow_w_u32(w, h->input_value);
	sflow_w_u32(w, h->output_format);
	sflow_w_u32(w, h->output_value);
	sflow_enc_records_begin(w, s);
}

void sflow_enc_counters_begin(struct sflow_w *w, struct sflow_sample_enc *s,
			      const struct sflow_counters_sample *h)
{
	sample_open(w, s, SFLOW_SAMPLE_COUNTERS_EXP);
	sflow_w_u32(w, h->sequence_number);
	sflow_w_u32(w, h->source_id_type);
	sflow_w_u32(w, h->source_id_index);
	sflow_enc_records_begin(w, s);
}

void sflow_enc_discard_begin(struct sflow_w *w, struct sflow_sample_enc *s,
			     const struct sflow_discard_sample *h)
{
	sample_open(w, s, SFLOW_SAMPLE_DISCARD);
	sflow_w_u32(w, h->sequence_number);
	sflow_w_u32(w, h->source_id_type);
	sflow_w_u32(w, h->source_id_index);
	sflow_w_u32(w, h->drops);
	sflow_w_u32(w, h->input);
	sflow_w_u32(w, h->output);
	sflow_w_u32(w, h->reason);
	sflow_enc_records_begin(w, s);
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

/* ---- counter records */

void sflow_enc_if_counters(struct sflow_w *w, struct sflow_sample_enc *s,
			   const struct sflow_if_counters *c)
{
	size_t m = sflow_enc_record_begin(w, s, SFLOW_CTR_GENERIC);

	sflow_w_u32(w, c->ifIndex);
	sflow_w_u32(w, c->ifType);
	sflow_w_u64(w, c->ifSpeed);
	sflow_w_u32(w, c->ifDirection);
	sflow_w_u32(w, c->ifStatus);
	sflow_w_u64(w, c->ifInOctets);
	sflow_w_u32(w, c->ifInUcastPkts);
	sflow_w_u32(w, c->ifInMulticastPkts);
	sflow_w_u32(w, c->ifInBroadcastPkts);
	sflow_w_u32(w, c->ifInDiscards);
	sflow_w_u32(w, c->ifInErrors);
	sflow_w_u32(w, c->ifInUnknownProtos);
	sflow_w_u64(w, c->ifOutOctets);
	sflow_w_u32(w, c->ifOutUcastPkts);
	sflow_w_u32(w, c->ifOutMulticastPkts);
	sflow_w_u32(w, c->ifOutBroadcastPkts);
	sflow_w_u32(w, c->ifOutDiscards);
	sflow_w_u32(w, c->ifOutErrors);
	sflow_w_u32(w, c->ifPromiscuousMode);
	sflow_enc_record_end(w, m);
}

void sflow_enc_eth_counters(struct sflow_w *w, struct sflow_sample_enc *s,
			    const struct sflow_eth_counters *c)
{
	size_t m = sflow_enc_record_begin(w, s, SFLOW_CTR_ETHERNET);

	sflow_w_u32(w, c->dot3StatsAlignmentErrors);
	sflow_w_u32(w, c->dot3StatsFCSErrors);
	sflow_w_u32(w, c->dot3StatsSingleCollisionFrames);
	sflow_w_u32(w, c->dot3StatsMultipleCollisionFrames);
	sflow_w_u32(w, c->dot3StatsSQETestErrors);
	sflow_w_u32(w, c->dot3StatsDeferredTransmissions);
	sflow_w_u32(w, c->dot3StatsLateCollisions);
	sflow_w_u32(w, c->dot3StatsExcessiveCollisions);
	sflow_w_u32(w, c->dot3StatsInternalMacTransmitErrors);
	sflow_w_u32(w, c->dot3StatsCarrierSenseErrors);
	sflow_w_u32(w, c->dot3StatsFrameTooLongs);
	sflow_w_u32(w, c->dot3StatsInternalMacReceiveErrors);
	sflow_w_u32(w, c->dot3StatsSymbolErrors);
	sflow_enc_record_end(w, m);
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
	size_t m = sflow_enc_record_begin(w, s, SFLOW_CTR_BST_DEVICE);

	sflow_w_i32(w, b->uc_pc);
	sflow_w_i32(w, b->mc_pc);
	sflow_enc_record_end(w, m);
}

void sflow_enc_bst_port(struct sflow_w *w, struct sflow_sample_enc *s,
			const struct sflow_bst_port *b)
{
	size_t m;
	uint32_t i;

	if (w->err != SFLOW_OK)
		return;
	if (b->n_uc > SFLOW_BST_MAX_QUEUES || b->n_mc > SFLOW_BST_MAX_QUEUES) {
		w->err = SFLOW_ERR_INVALID; /* percentage x<8> */
		return;
	}
	m = sflow_enc_record_begin(w, s, SFLOW_CTR_BST_PORT);
	sflow_w_i32(w, b->ingress_uc_pc);
	sflow_w_i32(w, b->ingress_mc_pc);
	sflow_w_i32(w, b->egress_uc_pc);
	sflow_w_i32(w, b->egress_mc_pc);
	sflow_w_u32(w, b->n_uc);
	for (i = 0; i < b->n_uc; i++)
		sflow_w_i32(w, b->egress_queue_uc_pc[i]);
	sflow_w_u32(w, b->n_mc);
	for (i = 0; i < b->n_mc; i++)
		sflow_w_i32(w, b->egress_queue_mc_pc[i]);
	sflow_enc_record_end(w, m);
}

/* ---- flow records */

void sflow_enc_sampled_header(struct sflow_w *w, struct sflow_sample_enc *s,
			      const struct sflow_sampled_header *h)
{
	size_t m;

	if (w->err != SFLOW_OK)
		return;
	if (h->header_length > 0 && !h->header) {
		w->err = SFLOW_ERR_INVALID;
		return;
	}
	m = sflow_enc_record_begin(w, s, SFLOW_FLOW_HEADER);
	sflow_w_u32(w, h->header_protocol);
	sflow_w_u32(w, h->frame_length);
	sflow_w_u32(w, h->stripped);
	sflow_w_opaque(w, h->header, h->header_length);
	sflow_enc_record_end(w, m);
}

void sflow_enc_ext_switch(struct sflow_w *w, struct sflow_sample_enc *s,
			  const struct sflow_ext_switch *x)
{
	size_t m = sflow_enc_record_begin(w, s, SFLOW_FLOW_EXT_SWITCH);

	sflow_w_u32(w, x->src_vlan);
	sflow_w_u32(w, x->src_priority);
	sflow_w_u32(w, x->dst_vlan);
	sflow_w_u32(w, x->dst_priority);
	sflow_enc_record_end(w, m);
}

/* A record whose body is one unsigned int. */
static void enc_u32_record(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t tag, uint32_t v)
{
	size_t m = sflow_enc_record_begin(w, s, tag);

	sflow_w_u32(w, v);
	sflow_enc_record_end(w, m);
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
	size_t m = sflow_enc_record_begin(w, s, SFLOW_FLOW_TIMESTAMP);

	sflow_w_u64(w, ns_since_epoch);
	sflow_enc_record_end(w, m);
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
