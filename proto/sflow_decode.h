/*
 * sflow_decode.h - decode one sFlow v5 datagram into a structured value.
 *
 * sflow_decode() checks every byte it reads; malformed input yields an
 * error with the datagram offset and a reason, never a read out of bounds.
 * Unknown sample and record tags are kept (tag, length, offset, raw body)
 * with known = 0 and skipped by their length.  Pointers in the result
 * (header bytes, raw bodies, symbols) point into the caller's input, which
 * must outlive the result.  The arrays of samples and records are
 * allocated; free them with sflow_datagram_free().
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_PROTO_SFLOW_DECODE_H
#define BSFLOWD_PROTO_SFLOW_DECODE_H

#include "proto/sflow.h"
#include "proto/sflow_own.h"

/* What a record's body decoded as. */
enum sflow_rec_kind {
	SFLOW_REC_UNKNOWN = 0, /* tag not known: body kept raw, skipped */
	SFLOW_REC_IF_COUNTERS,
	SFLOW_REC_ETH_COUNTERS,
	SFLOW_REC_PORT_NAME,
	SFLOW_REC_BST_DEVICE,
	SFLOW_REC_BST_PORT,
	SFLOW_REC_SAMPLED_HEADER,
	SFLOW_REC_EXT_SWITCH,
	SFLOW_REC_EGRESS_QUEUE,
	SFLOW_REC_FUNCTION,
	SFLOW_REC_TRANSIT,
	SFLOW_REC_QUEUE_DEPTH,
	SFLOW_REC_TIMESTAMP,
	SFLOW_REC_BST_EGRESS_QUEUE,
	SFLOW_REC_HW_TRAP,
	SFLOW_REC_LINUX_REASON,
	SFLOW_REC_OWN, /* one of bsflowd's own records: see u.own */
};

struct sflow_record {
	uint32_t tag;
	uint32_t length; /* body bytes */
	size_t offset;	 /* datagram offset of the tag */
	const uint8_t *body;
	enum sflow_rec_kind kind;
	union {
		struct sflow_if_counters ifc;
		struct sflow_eth_counters eth;
		struct sflow_port_name port_name;
		struct sflow_bst_device bst_device;
		struct sflow_bst_port bst_port;
		struct sflow_sampled_header header;
		struct sflow_ext_switch ext_switch;
		struct sflow_function function;
		struct sflow_hw_trap hw_trap;
		struct sflow_function linux_reason; /* 0:1042: its string */
		uint32_t queue;			    /* 0:1036 and 4413:1 flow */
		uint32_t delay_ns;		    /* 0:1039 */
		uint32_t depth;			    /* 0:1040 */
		uint64_t timestamp_ns;		    /* 0:1043 */
		struct sflow_own_record own;
	} u;
};

enum sflow_sample_kind {
	SFLOW_SMP_UNKNOWN = 0,
	SFLOW_SMP_FLOW,	    /* 0:1 or 0:3 */
	SFLOW_SMP_COUNTERS, /* 0:2 or 0:4 */
	SFLOW_SMP_DISCARD,  /* 0:5 */
	SFLOW_SMP_OWN,	    /* one of bsflowd's own sample types: see h.own */
};

struct sflow_sample {
	uint32_t tag;
	uint32_t length;
	size_t offset;
	const uint8_t *body;
	enum sflow_sample_kind kind;
	int compact; /* 0:1 or 0:2 (fields widened into the expanded form) */
	union {
		struct sflow_flow_sample flow;
		struct sflow_counters_sample counters;
		struct sflow_discard_sample discard;
		struct sflow_own_sample own;
	} h;
	uint32_t nrecords;
	struct sflow_record *records;
};

struct sflow_datagram {
	uint32_t version;
	struct sflow_addr agent;
	uint32_t sub_agent_id;
	uint32_t sequence_number;
	uint32_t uptime_ms;
	uint32_t nsamples;
	struct sflow_sample *samples;
	size_t length; /* bytes decoded */
	int borrowed;  /* the arrays are a decoder's (sflow_decode_with) */
};

struct sflow_decode_opts {
	uint32_t own_enterprise; /* bsflowd's own records; 0 = SFLOW_ENT_OWN_DEFAULT */
};

struct sflow_decode_error {
	int status;    /* SFLOW_ERR_TRUNC or SFLOW_ERR_FORMAT */
	size_t offset; /* byte offset in the datagram */
	char msg[160]; /* "offset 44: counter record 0:1 length 84, expected 88" */
};

/* Returns SFLOW_OK and fills *d, or an error (then *d holds nothing to free
 * and err says where and why).  opts may be NULL for the defaults.
 *
 * What is an error: input ending inside a field (SFLOW_ERR_TRUNC), a
 * version other than 5, an agent address type other than 0, 1 or 2, a
 * sample or record length that is not a multiple of 4 or runs past its
 * enclosing body, a count whose elements (8 bytes each at least) cannot fit
 * in what remains (checked before any allocation), a known structure whose
 * length differs from what its body needs, a string or array over its
 * declared limit, bytes left over after the last record of a known sample
 * or after the last sample (all SFLOW_ERR_FORMAT), or SFLOW_ERR_NOMEM.
 * Unknown sample and record tags are never an error.  Inside bsflowd's own
 * sample types, standard records are read as flow records. */
int sflow_decode(const uint8_t *buf, size_t len, const struct sflow_decode_opts *opts,
		 struct sflow_datagram *d, struct sflow_decode_error *err);
void sflow_datagram_free(struct sflow_datagram *d);

/*
 * The same, for a stream of datagrams, without an allocation each: the
 * samples and records of the datagram decoded go in arrays the decoder
 * keeps (grown when a datagram needs more) for the next one.  The result
 * is valid until the next sflow_decode_with() on dc or sflow_decoder_fini;
 * sflow_datagram_free() on it frees nothing (and may be called).  Start
 * from a zeroed struct sflow_decoder.
 */
struct sflow_decoder {
	struct sflow_sample *samples;
	size_t samples_cap;
	struct sflow_record *records;
	size_t records_cap;
};
int sflow_decode_with(struct sflow_decoder *dc, const uint8_t *buf, size_t len,
		      const struct sflow_decode_opts *opts, struct sflow_datagram *d,
		      struct sflow_decode_error *err);
void sflow_decoder_fini(struct sflow_decoder *dc);

/* Names for printing.  sflow_tag_str() writes "enterprise:format" text
 * ("0:4", "4413:2") into buf and returns buf (never NULL: "" if buf is NULL
 * or n is 0).  sflow_sample_name() and sflow_record_name() return the
 * spec's structure name ("counters_sample_expanded", "bst_port_buffers")
 * or NULL if not known; a record tag is read as a counter record inside
 * 0:2/0:4 samples and as a flow record anywhere else.  bsflowd's own
 * structures are named by sflow_own_record_name()/sflow_own_sample_name(). */
const char *sflow_tag_str(uint32_t tag, char *buf, size_t n);
const char *sflow_sample_name(uint32_t tag);
const char *sflow_record_name(uint32_t sample_tag, uint32_t tag);

#endif
