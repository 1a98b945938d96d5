/*
 * sflow_own.h - bsflowd's own sFlow structures (enterprise configurable,
 * default SFLOW_ENT_OWN_DEFAULT = 32473).
 *
 * What the standard and Broadcom structures cannot carry (bytes and cells,
 * per-queue delay, service pools, priority groups, CPU queues, more than 8
 * queues, time of peak, sampler statistics, visibility events) travels in
 * the records and sample types defined here, always next to the standard
 * ones.  Every structure here is also in bsflowd-structures(7).
 *
 * Decoding contract with sflow_decode.c: for a record or sample whose
 * enterprise is the configured own enterprise, the decoder calls
 * sflow_own_decode_record() / sflow_own_decode_sample() with a reader over
 * exactly the body.  They validate the whole body (array counts against the
 * remaining bytes) and fill the value; variable-length arrays are not
 * copied: the value keeps a pointer to the validated elements and an
 * accessor decodes element i.  Return SFLOW_OK, 1 for a format not known
 * here (the decoder then keeps it as unknown), or an error on the reader.
 *
 * STATUS: placeholder until the daemon issue defines the records.
 */
#ifndef BSFLOWD_PROTO_SFLOW_OWN_H
#define BSFLOWD_PROTO_SFLOW_OWN_H

#include "proto/xdr.h"

struct sflow_own_record {
	uint32_t format;
};

struct sflow_own_sample {
	uint32_t format;
};

/* in_sample: the enclosing sample's tag (counters vs flow records share
 * format numbers). */
int sflow_own_decode_record(uint32_t format, uint32_t in_sample, struct sflow_r *r,
			    struct sflow_own_record *out);
/* Decodes the own sample's fixed fields; leaves the reader at the record
 * count. */
int sflow_own_decode_sample(uint32_t format, struct sflow_r *r, struct sflow_own_sample *out);
/* Name of an own record/sample format for printing, or NULL. */
const char *sflow_own_record_name(uint32_t format, uint32_t in_sample);
const char *sflow_own_sample_name(uint32_t format);

#endif
