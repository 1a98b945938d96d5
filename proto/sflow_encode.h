/*
 * sflow_encode.h - encoders for sFlow samples and records, and the datagram
 * builder.
 *
 * A sample is encoded into a caller's buffer through a struct sflow_w:
 *
 *	struct sflow_w w; struct sflow_sample_enc s;
 *	sflow_w_init(&w, scratch, sizeof scratch);
 *	sflow_enc_counters_begin(&w, &s, &hdr);
 *	sflow_enc_if_counters(&w, &s, &ifc);
 *	sflow_enc_eth_counters(&w, &s, &eth);
 *	sflow_enc_sample_end(&w, &s);          (back-patches count and length)
 *	if (w.err) ... too big for scratch
 *
 * and then handed to the datagram builder, which copies it in whole or
 * answers SFLOW_ERR_FULL (flush first, then add again) or SFLOW_ERR_TOOBIG
 * (it could never fit: refused, never truncated).  No allocation, no I/O.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_PROTO_SFLOW_ENCODE_H
#define BSFLOWD_PROTO_SFLOW_ENCODE_H

#include "proto/sflow.h"

/* A sample being encoded: where its length and record count go. */
struct sflow_sample_enc {
	size_t start;	   /* offset of the sample's data_format */
	size_t len_mark;   /* sample body length placeholder */
	size_t count_mark; /* record count placeholder */
	uint32_t nrecords;
};

void sflow_enc_flow_begin(struct sflow_w *w, struct sflow_sample_enc *s,
			  const struct sflow_flow_sample *h); /* 0:3 */
void sflow_enc_counters_begin(struct sflow_w *w, struct sflow_sample_enc *s,
			      const struct sflow_counters_sample *h); /* 0:4 */
void sflow_enc_discard_begin(struct sflow_w *w, struct sflow_sample_enc *s,
			     const struct sflow_discard_sample *h); /* 0:5 */
/* A sample of any other tag (bsflowd's own sample types): data_format, the
 * caller writes its fixed fields with sflow_w_*, then records. */
void sflow_enc_sample_begin(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t tag);
/* Call after the own sample's fixed fields, before its first record. */
void sflow_enc_records_begin(struct sflow_w *w, struct sflow_sample_enc *s);
void sflow_enc_sample_end(struct sflow_w *w, struct sflow_sample_enc *s);

/* Generic record framing, for records without a dedicated encoder: */
size_t sflow_enc_record_begin(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t tag);
void sflow_enc_record_end(struct sflow_w *w, size_t mark);

/* Counter records (inside a counters sample) */
void sflow_enc_if_counters(struct sflow_w *w, struct sflow_sample_enc *s,
			   const struct sflow_if_counters *c);
void sflow_enc_eth_counters(struct sflow_w *w, struct sflow_sample_enc *s,
			    const struct sflow_eth_counters *c);
void sflow_enc_port_name(struct sflow_w *w, struct sflow_sample_enc *s, const char *name);
void sflow_enc_bst_device(struct sflow_w *w, struct sflow_sample_enc *s,
			  const struct sflow_bst_device *b);
/* n_uc, n_mc > 8 is an error (SFLOW_ERR_INVALID set in w->err). */
void sflow_enc_bst_port(struct sflow_w *w, struct sflow_sample_enc *s,
			const struct sflow_bst_port *b);

/* Flow records (inside a flow or discard sample) */
void sflow_enc_sampled_header(struct sflow_w *w, struct sflow_sample_enc *s,
			      const struct sflow_sampled_header *h);
void sflow_enc_ext_switch(struct sflow_w *w, struct sflow_sample_enc *s,
			  const struct sflow_ext_switch *x);
void sflow_enc_egress_queue(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t queue);
void sflow_enc_function(struct sflow_w *w, struct sflow_sample_enc *s, const char *symbol);
/* 0:1041 (group, trap) and 0:1042 (reason): NUL-terminated strings. */
void sflow_enc_hw_trap(struct sflow_w *w, struct sflow_sample_enc *s, const char *group,
		       const char *trap);
void sflow_enc_linux_reason(struct sflow_w *w, struct sflow_sample_enc *s, const char *reason);
void sflow_enc_transit(struct sflow_w *w, struct sflow_sample_enc *s, uint64_t delay_ns);
void sflow_enc_queue_depth(struct sflow_w *w, struct sflow_sample_enc *s, uint64_t depth_bytes);
void sflow_enc_timestamp(struct sflow_w *w, struct sflow_sample_enc *s, uint64_t ns_since_epoch);
void sflow_enc_bst_egress_queue(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t queue);

/* ---- datagram builder */

struct sflow_dgram_builder {
	struct sflow_addr agent;
	uint32_t sub_agent_id;
	size_t max_bytes;     /* SFLOW_DGRAM_MIN..SFLOW_DGRAM_MAX */
	uint32_t max_samples; /* 0 = no cap */
	size_t hdr_len;	      /* 28 (IPv4 agent) or 40 (IPv6) */
	size_t len;	      /* bytes used including the header */
	size_t std_end;	      /* end of the leading standard samples (0:1..0:4) */
	uint32_t nsamples;
	uint8_t buf[SFLOW_DGRAM_MAX];
};

/* Returns SFLOW_OK, or SFLOW_ERR_INVALID for a size out of range or an
 * agent address that is neither IPv4 nor IPv6. */
int sflow_builder_init(struct sflow_dgram_builder *b, const struct sflow_addr *agent,
		       uint32_t sub_agent_id, size_t max_bytes, uint32_t max_samples);
/* Add one encoded sample (data_format through its last record).
 * Standard samples (enterprise 0, formats 1-4: flow and counters, compact
 * and expanded) go ahead of every other sample in the datagram (0:5
 * discards, enterprise samples), each kind in the order added: collectors
 * such as pmacct's sfacctd stop reading a datagram at the first sample
 * type they do not know, so what they know comes first.
 * SFLOW_OK: copied.  SFLOW_ERR_FULL: it would not fit with what is pending,
 * or the sample cap is reached; flush and add again.  SFLOW_ERR_TOOBIG: it
 * can never fit (larger than max_bytes - header); refused. */
int sflow_builder_add(struct sflow_dgram_builder *b, const uint8_t *sample, size_t len);
/*
 * Or encode a sample straight into the datagram, without a scratch copy:
 * sflow_builder_open() points w at the space left in b (never more), the
 * sample is encoded through w, and sflow_builder_commit() takes it:
 * SFLOW_OK; SFLOW_ERR_FULL (it did not fit behind what is pending, or the
 * sample cap is reached: finish, open and encode it again); SFLOW_ERR_TOOBIG
 * (it did not fit an empty datagram); or w's own error.  A sample not
 * committed leaves b as it was (its bytes are overwritten by the next).
 * A standard sample goes ahead of the others, as with sflow_builder_add.
 */
void sflow_builder_open(struct sflow_dgram_builder *b, struct sflow_w *w);
int sflow_builder_commit(struct sflow_dgram_builder *b, const struct sflow_w *w);
static inline int sflow_builder_pending(const struct sflow_dgram_builder *b)
{
	return b->nsamples > 0;
}
/* Write the header with this sequence number and uptime (ms) and return the
 * finished datagram; the builder is then empty again.  *len is 0 (and the
 * return NULL) when nothing is pending.  The bytes live in b->buf: send them
 * before the next sflow_builder_add().  sflow_builder_add() also refuses
 * (SFLOW_ERR_INVALID) a sample whose framing is not exact: shorter than 8
 * bytes, not a multiple of 4, or a body length field other than len - 8. */
const uint8_t *sflow_builder_finish(struct sflow_dgram_builder *b, uint32_t sequence_number,
				    uint32_t uptime_ms, size_t *len);

/* Encode just the datagram header (for tests and tools). */
void sflow_enc_dgram_header(struct sflow_w *w, const struct sflow_addr *agent,
			    uint32_t sub_agent_id, uint32_t sequence_number, uint32_t uptime_ms,
			    uint32_t nsamples);

#endif
