/*
 * sflow_decode.c - decode one sFlow v5 datagram (see sflow_decode.h).
 *
 * Three levels, each bounded by the one above: the datagram (header, then
 * samples), each sample (a reader over exactly its declared length), each
 * record (a reader over exactly its declared length).  Every count is
 * checked against the bytes left before anything is allocated (an element
 * takes at least 8 bytes: data_format and length), every known structure
 * must fill its declared length exactly, and every error names the
 * datagram offset and what was wrong.  Unknown tags are kept raw and
 * skipped by length.  Records and samples of the configured own enterprise
 * are handed to sflow_own.c.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto/sflow_decode.h"

struct dec {
	const uint8_t *buf;
	size_t len;
	uint32_t own_ent;
	struct sflow_decode_error *err;
	struct sflow_decoder *dc; /* arrays kept from datagram to datagram, or NULL */
	size_t rec_used;	  /* dc: records handed out in this datagram */
};

/* n zeroed samples for d: allocated, or dc's (grown as needed). */
static struct sflow_sample *alloc_samples(struct dec *x, uint32_t n)
{
	struct sflow_decoder *dc = x->dc;

	if (!dc)
		return calloc(n, sizeof(struct sflow_sample));
	if (dc->samples_cap < n) {
		struct sflow_sample *ns = realloc(dc->samples, n * sizeof *ns);

		if (!ns)
			return NULL;
		dc->samples = ns;
		dc->samples_cap = n;
	}
	memset(dc->samples, 0, n * sizeof *dc->samples);
	return dc->samples;
}

/* n zeroed records for one sample: allocated, or the next n of dc's pool,
 * which dec_datagram sized for every record the datagram can hold (8 bytes
 * each at least), so the pointers handed out never move. */
static struct sflow_record *alloc_records(struct dec *x, uint32_t n)
{
	struct sflow_decoder *dc = x->dc;
	struct sflow_record *r;

	if (!dc)
		return calloc(n, sizeof(struct sflow_record));
	if (dc->records_cap - x->rec_used < n)
		return NULL; /* cannot happen: counts are checked against the bytes left */
	r = dc->records + x->rec_used;
	x->rec_used += n;
	memset(r, 0, n * sizeof *r);
	return r;
}

/* Which record set a sample holds: counter records or flow records. */
enum rec_ctx {
	CTX_COUNTERS,
	CTX_FLOW,
};

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 4, 5)))
#endif
static int
dfail(struct dec *x, int status, size_t offset, const char *fmt, ...)
{
	va_list ap;
	int n;

	x->err->status = status;
	x->err->offset = offset;
	n = snprintf(x->err->msg, sizeof x->err->msg, "offset %zu: ", offset);
	if (n < 0 || (size_t)n >= sizeof x->err->msg)
		return status;
	va_start(ap, fmt);
	vsnprintf(x->err->msg + n, sizeof x->err->msg - (size_t)n, fmt, ap);
	va_end(ap);
	return status;
}

static uint64_t padded(uint32_t n)
{
	return ((uint64_t)n + 3) & ~(uint64_t)3;
}

static const char *rec_word(enum rec_ctx ctx)
{
	return ctx == CTX_COUNTERS ? "counter record" : "flow record";
}

/* Tag text for messages; buf must hold 24 bytes. */
static const char *tagtxt(uint32_t tag, char *buf)
{
	snprintf(buf, 24, "%u:%u", SFLOW_TAG_ENTERPRISE(tag), SFLOW_TAG_FORMAT(tag));
	return buf;
}

/* ---- record bodies */

/* A fixed-size body: the declared length must be exactly `want`. */
static int want_len(struct dec *x, enum rec_ctx ctx, const struct sflow_record *rec, uint64_t want)
{
	char t[24];

	if (rec->length == want)
		return SFLOW_OK;
	return dfail(x, SFLOW_ERR_FORMAT, rec->offset, "%s %s length %u, expected %llu",
		     rec_word(ctx), tagtxt(rec->tag, t), rec->length, (unsigned long long)want);
}

/* A variable body must be at least `want` bytes to read its next part. */
static int want_min(struct dec *x, enum rec_ctx ctx, const struct sflow_record *rec, uint64_t want)
{
	char t[24];

	if (rec->length >= want)
		return SFLOW_OK;
	return dfail(x, SFLOW_ERR_FORMAT, rec->offset, "%s %s length %u, expected at least %llu",
		     rec_word(ctx), tagtxt(rec->tag, t), rec->length, (unsigned long long)want);
}

/* The declared limit of an array or string was exceeded. */
static int over_max(struct dec *x, enum rec_ctx ctx, const struct sflow_record *rec, size_t at,
		    const char *what, uint32_t n, uint32_t max)
{
	char t[24];

	return dfail(x, SFLOW_ERR_FORMAT, at, "%s %s %s %u exceeds %u", rec_word(ctx),
		     tagtxt(rec->tag, t), what, n, max);
}

static void read_if_counters(struct sflow_r *r, struct sflow_if_counters *c)
{
	sflow_r_u32(r, &c->ifIndex, "ifIndex");
	sflow_r_u32(r, &c->ifType, "ifType");
	sflow_r_u64(r, &c->ifSpeed, "ifSpeed");
	sflow_r_u32(r, &c->ifDirection, "ifDirection");
	sflow_r_u32(r, &c->ifStatus, "ifStatus");
	sflow_r_u64(r, &c->ifInOctets, "ifInOctets");
	sflow_r_u32(r, &c->ifInUcastPkts, "ifInUcastPkts");
	sflow_r_u32(r, &c->ifInMulticastPkts, "ifInMulticastPkts");
	sflow_r_u32(r, &c->ifInBroadcastPkts, "ifInBroadcastPkts");
	sflow_r_u32(r, &c->ifInDiscards, "ifInDiscards");
	sflow_r_u32(r, &c->ifInErrors, "ifInErrors");
	sflow_r_u32(r, &c->ifInUnknownProtos, "ifInUnknownProtos");
	sflow_r_u64(r, &c->ifOutOctets, "ifOutOctets");
	sflow_r_u32(r, &c->ifOutUcastPkts, "ifOutUcastPkts");
	sflow_r_u32(r, &c->ifOutMulticastPkts, "ifOutMulticastPkts");
	sflow_r_u32(r, &c->ifOutBroadcastPkts, "ifOutBroadcastPkts");
	sflow_r_u32(r, &c->ifOutDiscards, "ifOutDiscards");
	sflow_r_u32(r, &c->ifOutErrors, "ifOutErrors");
	sflow_r_u32(r, &c->ifPromiscuousMode, "ifPromiscuousMode");
}

static void read_eth_counters(struct sflow_r *r, struct sflow_eth_counters *c)
{
	sflow_r_u32(r, &c->dot3StatsAlignmentErrors, "dot3StatsAlignmentErrors");
	sflow_r_u32(r, &c->dot3StatsFCSErrors, "dot3StatsFCSErrors");
	sflow_r_u32(r, &c->dot3StatsSingleCollisionFrames, "dot3StatsSingleCollisionFrames");
	sflow_r_u32(r, &c->dot3StatsMultipleCollisionFrames, "dot3StatsMultipleCollisionFrames");
	sflow_r_u32(r, &c->dot3StatsSQETestErrors, "dot3StatsSQETestErrors");
	sflow_r_u32(r, &c->dot3StatsDeferredTransmissions, "dot3StatsDeferredTransmissions");
	sflow_r_u32(r, &c->dot3StatsLateCollisions, "dot3StatsLateCollisions");
	sflow_r_u32(r, &c->dot3StatsExcessiveCollisions, "dot3StatsExcessiveCollisions");
	sflow_r_u32(r, &c->dot3StatsInternalMacTransmitErrors,
		    "dot3StatsInternalMacTransmitErrors");
	sflow_r_u32(r, &c->dot3StatsCarrierSenseErrors, "dot3StatsCarrierSenseErrors");
	sflow_r_u32(r, &c->dot3StatsFrameTooLongs, "dot3StatsFrameTooLongs");
	sflow_r_u32(r, &c->dot3StatsInternalMacReceiveErrors, "dot3StatsInternalMacReceiveErrors");
	sflow_r_u32(r, &c->dot3StatsSymbolErrors, "dot3StatsSymbolErrors");
}

static int dec_port_name(struct dec *x, struct sflow_r *r, struct sflow_record *rec)
{
	struct sflow_port_name *pn = &rec->u.port_name;
	const uint8_t *p;
	uint32_t n;
	int e;

	if ((e = want_min(x, CTX_COUNTERS, rec, 4)) != SFLOW_OK)
		return e;
	sflow_r_u32(r, &n, "port name length");
	if (n > SFLOW_PORT_NAME_MAX)
		return over_max(x, CTX_COUNTERS, rec, rec->offset + 8, "name length", n,
				SFLOW_PORT_NAME_MAX);
	if ((e = want_len(x, CTX_COUNTERS, rec, 4 + padded(n))) != SFLOW_OK)
		return e;
	r->pos -= 4;
	sflow_r_opaque(r, &p, &n, SFLOW_PORT_NAME_MAX, "port name");
	pn->len = n;
	memcpy(pn->name, p, n);
	pn->name[n] = '\0';
	return SFLOW_OK;
}

static int dec_bst_port(struct dec *x, struct sflow_r *r, struct sflow_record *rec)
{
	struct sflow_bst_port *b = &rec->u.bst_port;
	uint32_t i;
	int e;

	if ((e = want_min(x, CTX_COUNTERS, rec, 16 + 4 + 4)) != SFLOW_OK)
		return e;
	sflow_r_i32(r, &b->ingress_uc_pc, "ingress_uc_pc");
	sflow_r_i32(r, &b->ingress_mc_pc, "ingress_mc_pc");
	sflow_r_i32(r, &b->egress_uc_pc, "egress_uc_pc");
	sflow_r_i32(r, &b->egress_mc_pc, "egress_mc_pc");
	sflow_r_u32(r, &b->n_uc, "egress_queue_uc_pc count");
	if (b->n_uc > SFLOW_BST_MAX_QUEUES)
		return over_max(x, CTX_COUNTERS, rec, rec->offset + 8 + 16,
				"egress_queue_uc_pc count", b->n_uc, SFLOW_BST_MAX_QUEUES);
	if ((e = want_min(x, CTX_COUNTERS, rec, 16 + 4 + 4 * (uint64_t)b->n_uc + 4)) != SFLOW_OK)
		return e;
	for (i = 0; i < b->n_uc; i++)
		sflow_r_i32(r, &b->egress_queue_uc_pc[i], "egress_queue_uc_pc");
	sflow_r_u32(r, &b->n_mc, "egress_queue_mc_pc count");
	if (b->n_mc > SFLOW_BST_MAX_QUEUES)
		return over_max(x, CTX_COUNTERS, rec, rec->offset + 8 + 20 + 4 * b->n_uc,
				"egress_queue_mc_pc count", b->n_mc, SFLOW_BST_MAX_QUEUES);
	if ((e = want_len(x, CTX_COUNTERS, rec,
			  16 + 4 + 4 * (uint64_t)b->n_uc + 4 + 4 * b->n_mc)) != SFLOW_OK)
		return e;
	for (i = 0; i < b->n_mc; i++)
		sflow_r_i32(r, &b->egress_queue_mc_pc[i], "egress_queue_mc_pc");
	return SFLOW_OK;
}

static int dec_sampled_header(struct dec *x, struct sflow_r *r, struct sflow_record *rec)
{
	struct sflow_sampled_header *h = &rec->u.header;
	int e;

	if ((e = want_min(x, CTX_FLOW, rec, 16)) != SFLOW_OK)
		return e;
	sflow_r_u32(r, &h->header_protocol, "header_protocol");
	sflow_r_u32(r, &h->frame_length, "frame_length");
	sflow_r_u32(r, &h->stripped, "stripped");
	sflow_r_u32(r, &h->header_length, "header length");
	if ((e = want_len(x, CTX_FLOW, rec, 16 + padded(h->header_length))) != SFLOW_OK)
		return e;
	r->pos -= 4;
	sflow_r_opaque(r, &h->header, &h->header_length, 0xFFFFFFFFu, "header");
	return SFLOW_OK;
}

static int dec_function(struct dec *x, struct sflow_r *r, struct sflow_record *rec)
{
	struct sflow_function *f = &rec->u.function;
	const uint8_t *p;
	int e;

	if ((e = want_min(x, CTX_FLOW, rec, 4)) != SFLOW_OK)
		return e;
	sflow_r_u32(r, &f->len, "symbol length");
	if ((e = want_len(x, CTX_FLOW, rec, 4 + padded(f->len))) != SFLOW_OK)
		return e;
	r->pos -= 4;
	sflow_r_opaque(r, &p, &f->len, 0xFFFFFFFFu, "symbol");
	f->symbol = (const char *)p;
	return SFLOW_OK;
}

/* 0:1041: two strings, each within the record. */
static int dec_hw_trap(struct dec *x, struct sflow_r *r, struct sflow_record *rec)
{
	struct sflow_hw_trap *t = &rec->u.hw_trap;
	const uint8_t *p;
	uint32_t glen;
	int e;

	if ((e = want_min(x, CTX_FLOW, rec, 8)) != SFLOW_OK)
		return e;
	sflow_r_u32(r, &glen, "trap group length");
	if ((e = want_min(x, CTX_FLOW, rec, 8 + padded(glen))) != SFLOW_OK)
		return e;
	r->pos -= 4;
	sflow_r_opaque(r, &p, &t->group_len, 0xFFFFFFFFu, "trap group");
	t->group = (const char *)p;
	sflow_r_u32(r, &t->trap_len, "trap name length");
	if ((e = want_len(x, CTX_FLOW, rec, 8 + padded(glen) + padded(t->trap_len))) != SFLOW_OK)
		return e;
	r->pos -= 4;
	sflow_r_opaque(r, &p, &t->trap_len, 0xFFFFFFFFu, "trap name");
	t->trap = (const char *)p;
	return SFLOW_OK;
}

static int dec_own_record(struct dec *x, struct sflow_r *r, enum rec_ctx ctx, uint32_t in_sample,
			  struct sflow_record *rec)
{
	char t[24];
	int e = sflow_own_decode_record(SFLOW_TAG_FORMAT(rec->tag), in_sample, r, &rec->u.own);

	if (e == SFLOW_OK) {
		rec->kind = SFLOW_REC_OWN;
		return SFLOW_OK;
	}
	if (e == 1) { /* a format sflow_own.c does not know: keep it raw */
		memset(&rec->u, 0, sizeof rec->u);
		rec->kind = SFLOW_REC_UNKNOWN;
		return SFLOW_OK;
	}
	if (r->err != SFLOW_OK)
		return dfail(x, r->err == SFLOW_ERR_TRUNC ? SFLOW_ERR_FORMAT : r->err,
			     r->err_offset, "%s %s (at offset %zu, length %u): %s%s", rec_word(ctx),
			     tagtxt(rec->tag, t), rec->offset, rec->length,
			     r->err == SFLOW_ERR_TRUNC ? "body ends inside " : "", r->err_why);
	return dfail(x, e < 0 ? e : SFLOW_ERR_FORMAT, rec->offset, "%s %s length %u: malformed",
		     rec_word(ctx), tagtxt(rec->tag, t), rec->length);
}

/* Decode a record body (a reader over exactly rec->length bytes). */
static int dec_record_body(struct dec *x, struct sflow_r *r, enum rec_ctx ctx, uint32_t in_sample,
			   struct sflow_record *rec)
{
	uint32_t ent = SFLOW_TAG_ENTERPRISE(rec->tag);
	int e = SFLOW_OK;

	rec->kind = SFLOW_REC_UNKNOWN;
	if (ent != SFLOW_ENT_STANDARD && ent != SFLOW_ENT_BROADCOM && ent == x->own_ent)
		return dec_own_record(x, r, ctx, in_sample, rec);

	if (ctx == CTX_COUNTERS) {
		switch (rec->tag) {
		case SFLOW_CTR_GENERIC:
			if ((e = want_len(x, ctx, rec, 88)) == SFLOW_OK) {
				read_if_counters(r, &rec->u.ifc);
				rec->kind = SFLOW_REC_IF_COUNTERS;
			}
			break;
		case SFLOW_CTR_ETHERNET:
			if ((e = want_len(x, ctx, rec, 52)) == SFLOW_OK) {
				read_eth_counters(r, &rec->u.eth);
				rec->kind = SFLOW_REC_ETH_COUNTERS;
			}
			break;
		case SFLOW_CTR_PORT_NAME:
			if ((e = dec_port_name(x, r, rec)) == SFLOW_OK)
				rec->kind = SFLOW_REC_PORT_NAME;
			break;
		case SFLOW_CTR_BST_DEVICE:
			if ((e = want_len(x, ctx, rec, 8)) == SFLOW_OK) {
				sflow_r_i32(r, &rec->u.bst_device.uc_pc, "uc_pc");
				sflow_r_i32(r, &rec->u.bst_device.mc_pc, "mc_pc");
				rec->kind = SFLOW_REC_BST_DEVICE;
			}
			break;
		case SFLOW_CTR_BST_PORT:
			if ((e = dec_bst_port(x, r, rec)) == SFLOW_OK)
				rec->kind = SFLOW_REC_BST_PORT;
			break;
		default:
			break;
		}
	} else {
		switch (rec->tag) {
		case SFLOW_FLOW_HEADER:
			if ((e = dec_sampled_header(x, r, rec)) == SFLOW_OK)
				rec->kind = SFLOW_REC_SAMPLED_HEADER;
			break;
		case SFLOW_FLOW_EXT_SWITCH:
			if ((e = want_len(x, ctx, rec, 16)) == SFLOW_OK) {
				sflow_r_u32(r, &rec->u.ext_switch.src_vlan, "src_vlan");
				sflow_r_u32(r, &rec->u.ext_switch.src_priority, "src_priority");
				sflow_r_u32(r, &rec->u.ext_switch.dst_vlan, "dst_vlan");
				sflow_r_u32(r, &rec->u.ext_switch.dst_priority, "dst_priority");
				rec->kind = SFLOW_REC_EXT_SWITCH;
			}
			break;
		case SFLOW_FLOW_EGRESS_QUEUE:
		case SFLOW_FLOW_BST_EGRESS_QUEUE:
			if ((e = want_len(x, ctx, rec, 4)) == SFLOW_OK) {
				sflow_r_u32(r, &rec->u.queue, "queue");
				rec->kind = rec->tag == SFLOW_FLOW_EGRESS_QUEUE
						? SFLOW_REC_EGRESS_QUEUE
						: SFLOW_REC_BST_EGRESS_QUEUE;
			}
			break;
		case SFLOW_FLOW_FUNCTION:
			if ((e = dec_function(x, r, rec)) == SFLOW_OK)
				rec->kind = SFLOW_REC_FUNCTION;
			break;
		case SFLOW_FLOW_HW_TRAP:
			if ((e = dec_hw_trap(x, r, rec)) == SFLOW_OK)
				rec->kind = SFLOW_REC_HW_TRAP;
			break;
		case SFLOW_FLOW_LINUX_REASON:
			/* one string, as 0:1038 (u.linux_reason shares
			 * u.function's storage and type) */
			if ((e = dec_function(x, r, rec)) == SFLOW_OK)
				rec->kind = SFLOW_REC_LINUX_REASON;
			break;
		case SFLOW_FLOW_TRANSIT:
			if ((e = want_len(x, ctx, rec, 4)) == SFLOW_OK) {
				sflow_r_u32(r, &rec->u.delay_ns, "delay");
				rec->kind = SFLOW_REC_TRANSIT;
			}
			break;
		case SFLOW_FLOW_QUEUE_DEPTH:
			if ((e = want_len(x, ctx, rec, 4)) == SFLOW_OK) {
				sflow_r_u32(r, &rec->u.depth, "depth");
				rec->kind = SFLOW_REC_QUEUE_DEPTH;
			}
			break;
		case SFLOW_FLOW_TIMESTAMP:
			if ((e = want_len(x, ctx, rec, 8)) == SFLOW_OK) {
				sflow_r_u64(r, &rec->u.timestamp_ns, "timestamp");
				rec->kind = SFLOW_REC_TIMESTAMP;
			}
			break;
		default:
			break;
		}
	}
	if (e == SFLOW_OK && r->err != SFLOW_OK) {
		/* cannot happen: every body length was checked before reading */
		char t[24];

		return dfail(x, SFLOW_ERR_FORMAT, r->err_offset, "%s %s: body ends inside %s",
			     rec_word(ctx), tagtxt(rec->tag, t), r->err_why);
	}
	return e;
}

/* ---- samples */

/* The sample's reader failed while reading its fixed fields or framing. */
static int sample_short(struct dec *x, const struct sflow_sample *s, const struct sflow_r *r)
{
	char t[24];

	return dfail(x, r->err == SFLOW_ERR_TRUNC ? SFLOW_ERR_FORMAT : r->err, r->err_offset,
		     "sample %s (at offset %zu) length %u ends inside %s", tagtxt(s->tag, t),
		     s->offset, s->length, r->err_why ? r->err_why : "its body");
}

static int dec_records(struct dec *x, struct sflow_r *r, enum rec_ctx ctx, struct sflow_sample *s)
{
	uint32_t n, i;
	size_t at = r->base + r->pos;
	char t[24], t2[24];

	if (sflow_r_u32(r, &n, "record count") != SFLOW_OK)
		return sample_short(x, s, r);
	if ((uint64_t)n * 8 > sflow_r_remaining(r))
		return dfail(x, SFLOW_ERR_FORMAT, at,
			     "sample %s record count %u needs at least %llu bytes, only %zu left",
			     tagtxt(s->tag, t), n, (unsigned long long)n * 8, sflow_r_remaining(r));
	if (n > 0) {
		s->records = alloc_records(x, n);
		if (!s->records)
			return dfail(x, SFLOW_ERR_NOMEM, at, "out of memory for %u records", n);
	}
	s->nrecords = n;
	for (i = 0; i < n; i++) {
		struct sflow_record *rec = &s->records[i];
		struct sflow_r body;
		int e;

		rec->offset = r->base + r->pos;
		if (sflow_r_u32(r, &rec->tag, "record data_format") != SFLOW_OK ||
		    sflow_r_u32(r, &rec->length, "record length") != SFLOW_OK)
			return sample_short(x, s, r);
		if (rec->length & 3)
			return dfail(x, SFLOW_ERR_FORMAT, rec->offset,
				     "%s %s length %u is not a multiple of 4", rec_word(ctx),
				     tagtxt(rec->tag, t), rec->length);
		if (rec->length > sflow_r_remaining(r))
			return dfail(x, SFLOW_ERR_FORMAT, rec->offset,
				     "%s %s length %u exceeds the %zu bytes left in sample %s",
				     rec_word(ctx), tagtxt(rec->tag, t), rec->length,
				     sflow_r_remaining(r), tagtxt(s->tag, t2));
		rec->body = r->buf + r->pos;
		sflow_r_sub(r, &body, rec->length, "record body");
		if ((e = dec_record_body(x, &body, ctx, s->tag, rec)) != SFLOW_OK)
			return e;
	}
	if (sflow_r_remaining(r) != 0)
		return dfail(
		    x, SFLOW_ERR_FORMAT, r->base + r->pos,
		    "sample %s (at offset %zu) length %u, but its %u records end %zu bytes "
		    "before its end",
		    tagtxt(s->tag, t), s->offset, s->length, n, sflow_r_remaining(r));
	return SFLOW_OK;
}

static int dec_own_sample(struct dec *x, struct sflow_r *r, struct sflow_sample *s)
{
	char t[24];
	int e = sflow_own_decode_sample(SFLOW_TAG_FORMAT(s->tag), r, &s->h.own);

	if (e == SFLOW_OK) {
		s->kind = SFLOW_SMP_OWN;
		return dec_records(x, r, CTX_FLOW, s);
	}
	if (e == 1) {
		memset(&s->h, 0, sizeof s->h);
		s->kind = SFLOW_SMP_UNKNOWN;
		return SFLOW_OK;
	}
	if (r->err != SFLOW_OK)
		return dfail(x, r->err == SFLOW_ERR_TRUNC ? SFLOW_ERR_FORMAT : r->err,
			     r->err_offset, "sample %s (at offset %zu, length %u): %s%s",
			     tagtxt(s->tag, t), s->offset, s->length,
			     r->err == SFLOW_ERR_TRUNC ? "body ends inside " : "", r->err_why);
	return dfail(x, e < 0 ? e : SFLOW_ERR_FORMAT, s->offset, "sample %s length %u: malformed",
		     tagtxt(s->tag, t), s->length);
}

/* Compact forms: source_id = type << 24 | index; interface = format in the
 * top 2 bits, value in the low 30. */
static void widen_source(uint32_t v, uint32_t *type, uint32_t *index)
{
	*type = v >> 24;
	*index = v & 0x00FFFFFFu;
}

static void widen_if(uint32_t v, uint32_t *format, uint32_t *value)
{
	*format = v >> 30;
	*value = v & 0x3FFFFFFFu;
}

static int dec_sample_body(struct dec *x, struct sflow_r *r, struct sflow_sample *s)
{
	uint32_t ent = SFLOW_TAG_ENTERPRISE(s->tag), v;

	switch (s->tag) {
	case SFLOW_SAMPLE_FLOW: {
		struct sflow_flow_sample *f = &s->h.flow;

		s->kind = SFLOW_SMP_FLOW;
		s->compact = 1;
		sflow_r_u32(r, &f->sequence_number, "sequence_number");
		sflow_r_u32(r, &v, "source_id");
		widen_source(v, &f->source_id_type, &f->source_id_index);
		sflow_r_u32(r, &f->sampling_rate, "sampling_rate");
		sflow_r_u32(r, &f->sample_pool, "sample_pool");
		sflow_r_u32(r, &f->drops, "drops");
		sflow_r_u32(r, &v, "input");
		widen_if(v, &f->input_format, &f->input_value);
		sflow_r_u32(r, &v, "output");
		widen_if(v, &f->output_format, &f->output_value);
		if (r->err != SFLOW_OK)
			return sample_short(x, s, r);
		return dec_records(x, r, CTX_FLOW, s);
	}
	case SFLOW_SAMPLE_COUNTERS: {
		struct sflow_counters_sample *c = &s->h.counters;

		s->kind = SFLOW_SMP_COUNTERS;
		s->compact = 1;
		sflow_r_u32(r, &c->sequence_number, "sequence_number");
		sflow_r_u32(r, &v, "source_id");
		widen_source(v, &c->source_id_type, &c->source_id_index);
		if (r->err != SFLOW_OK)
			return sample_short(x, s, r);
		return dec_records(x, r, CTX_COUNTERS, s);
	}
	case SFLOW_SAMPLE_FLOW_EXP: {
		struct sflow_flow_sample *f = &s->h.flow;

		s->kind = SFLOW_SMP_FLOW;
		sflow_r_u32(r, &f->sequence_number, "sequence_number");
		sflow_r_u32(r, &f->source_id_type, "source_id_type");
		sflow_r_u32(r, &f->source_id_index, "source_id_index");
		sflow_r_u32(r, &f->sampling_rate, "sampling_rate");
		sflow_r_u32(r, &f->sample_pool, "sample_pool");
		sflow_r_u32(r, &f->drops, "drops");
		sflow_r_u32(r, &f->input_format, "input format");
		sflow_r_u32(r, &f->input_value, "input value");
		sflow_r_u32(r, &f->output_format, "output format");
		sflow_r_u32(r, &f->output_value, "output value");
		if (r->err != SFLOW_OK)
			return sample_short(x, s, r);
		return dec_records(x, r, CTX_FLOW, s);
	}
	case SFLOW_SAMPLE_COUNTERS_EXP: {
		struct sflow_counters_sample *c = &s->h.counters;

		s->kind = SFLOW_SMP_COUNTERS;
		sflow_r_u32(r, &c->sequence_number, "sequence_number");
		sflow_r_u32(r, &c->source_id_type, "source_id_type");
		sflow_r_u32(r, &c->source_id_index, "source_id_index");
		if (r->err != SFLOW_OK)
			return sample_short(x, s, r);
		return dec_records(x, r, CTX_COUNTERS, s);
	}
	case SFLOW_SAMPLE_DISCARD: {
		struct sflow_discard_sample *d = &s->h.discard;

		s->kind = SFLOW_SMP_DISCARD;
		sflow_r_u32(r, &d->sequence_number, "sequence_number");
		sflow_r_u32(r, &d->source_id_type, "source_id_type");
		sflow_r_u32(r, &d->source_id_index, "source_id_index");
		sflow_r_u32(r, &d->drops, "drops");
		sflow_r_u32(r, &d->input, "input");
		sflow_r_u32(r, &d->output, "output");
		sflow_r_u32(r, &d->reason, "reason");
		if (r->err != SFLOW_OK)
			return sample_short(x, s, r);
		return dec_records(x, r, CTX_FLOW, s);
	}
	default:
		break;
	}
	if (ent != SFLOW_ENT_STANDARD && ent != SFLOW_ENT_BROADCOM && ent == x->own_ent)
		return dec_own_sample(x, r, s);
	s->kind = SFLOW_SMP_UNKNOWN; /* kept raw, skipped by its length */
	return SFLOW_OK;
}

/* ---- datagram */

static int header_short(struct dec *x, const struct sflow_r *r)
{
	return dfail(x, SFLOW_ERR_TRUNC, r->err_offset, "datagram ends inside %s", r->err_why);
}

static int dec_datagram(struct dec *x, struct sflow_datagram *d)
{
	struct sflow_r r;
	uint32_t n, i;
	size_t at;
	char t[24];

	sflow_r_init(&r, x->buf, x->len, 0);
	if (sflow_r_u32(&r, &d->version, "version") != SFLOW_OK)
		return header_short(x, &r);
	if (d->version != SFLOW_VERSION)
		return dfail(x, SFLOW_ERR_FORMAT, 0, "datagram version %u, expected %u", d->version,
			     SFLOW_VERSION);
	if (sflow_r_u32(&r, &d->agent.type, "agent address type") != SFLOW_OK)
		return header_short(x, &r);
	switch (d->agent.type) {
	case SFLOW_ADDR_UNKNOWN:
		break;
	case SFLOW_ADDR_IP4:
	case SFLOW_ADDR_IP6:
		at = d->agent.type == SFLOW_ADDR_IP4 ? 4 : 16;
		if (sflow_r_remaining(&r) < at) {
			sflow_r_fail(&r, SFLOW_ERR_TRUNC, "agent address");
			return header_short(x, &r);
		}
		memcpy(d->agent.a, r.buf + r.pos, at);
		sflow_r_skip(&r, at, "agent address");
		break;
	default:
		return dfail(x, SFLOW_ERR_FORMAT, 4,
			     "agent address type %u, expected 1 (IPv4) or 2 (IPv6)", d->agent.type);
	}
	if (sflow_r_u32(&r, &d->sub_agent_id, "sub_agent_id") != SFLOW_OK ||
	    sflow_r_u32(&r, &d->sequence_number, "sequence_number") != SFLOW_OK ||
	    sflow_r_u32(&r, &d->uptime_ms, "uptime") != SFLOW_OK)
		return header_short(x, &r);
	at = r.pos;
	if (sflow_r_u32(&r, &n, "sample count") != SFLOW_OK)
		return header_short(x, &r);
	if ((uint64_t)n * 8 > sflow_r_remaining(&r))
		return dfail(x, SFLOW_ERR_FORMAT, at,
			     "sample count %u needs at least %llu bytes, only %zu left", n,
			     (unsigned long long)n * 8, sflow_r_remaining(&r));
	if (n > 0) {
		d->samples = alloc_samples(x, n);
		if (!d->samples)
			return dfail(x, SFLOW_ERR_NOMEM, at, "out of memory for %u samples", n);
	}
	d->nsamples = n;
	for (i = 0; i < n; i++) {
		struct sflow_sample *s = &d->samples[i];
		struct sflow_r body;
		int e;

		s->offset = r.pos;
		if (sflow_r_u32(&r, &s->tag, "sample data_format") != SFLOW_OK ||
		    sflow_r_u32(&r, &s->length, "sample length") != SFLOW_OK)
			return header_short(x, &r);
		if (s->length & 3)
			return dfail(x, SFLOW_ERR_FORMAT, s->offset,
				     "sample %s length %u is not a multiple of 4",
				     tagtxt(s->tag, t), s->length);
		if (s->length > sflow_r_remaining(&r))
			return dfail(
			    x, SFLOW_ERR_TRUNC, s->offset,
			    "sample %s length %u exceeds the %zu bytes left in the datagram",
			    tagtxt(s->tag, t), s->length, sflow_r_remaining(&r));
		s->body = r.buf + r.pos;
		sflow_r_sub(&r, &body, s->length, "sample body");
		if ((e = dec_sample_body(x, &body, s)) != SFLOW_OK)
			return e;
	}
	if (sflow_r_remaining(&r) != 0)
		return dfail(x, SFLOW_ERR_FORMAT, r.pos, "%zu bytes after the last of %u samples",
			     sflow_r_remaining(&r), n);
	d->length = r.pos;
	return SFLOW_OK;
}

static int decode(struct sflow_decoder *dc, const uint8_t *buf, size_t len,
		  const struct sflow_decode_opts *opts, struct sflow_datagram *d,
		  struct sflow_decode_error *err)
{
	struct sflow_decode_error scratch;
	struct dec x;
	int e;

	if (!err)
		err = &scratch;
	memset(err, 0, sizeof *err);
	if (!d)
		return SFLOW_ERR_INVALID;
	memset(d, 0, sizeof *d);
	if (!buf && len > 0) {
		err->status = SFLOW_ERR_INVALID;
		snprintf(err->msg, sizeof err->msg, "no input");
		return SFLOW_ERR_INVALID;
	}
	x.buf = buf;
	x.len = len;
	x.own_ent = opts && opts->own_enterprise ? opts->own_enterprise : SFLOW_ENT_OWN_DEFAULT;
	x.err = err;
	x.dc = dc;
	x.rec_used = 0;
	if (dc) {
		size_t most = len / 8 + 1; /* records (and samples) the bytes can hold */

		d->borrowed = 1;
		if (dc->records_cap < most) {
			struct sflow_record *nr = realloc(dc->records, most * sizeof *nr);

			if (!nr) {
				err->status = SFLOW_ERR_NOMEM;
				snprintf(err->msg, sizeof err->msg, "out of memory for %zu records",
					 most);
				return SFLOW_ERR_NOMEM;
			}
			dc->records = nr;
			dc->records_cap = most;
		}
	}
	e = dec_datagram(&x, d);
	if (e != SFLOW_OK) {
		sflow_datagram_free(d);
		if (err->status == SFLOW_OK) { /* every failure path sets it; be safe */
			err->status = e;
			snprintf(err->msg, sizeof err->msg, "%s", sflow_strerror(e));
		}
	}
	return e;
}

int sflow_decode(const uint8_t *buf, size_t len, const struct sflow_decode_opts *opts,
		 struct sflow_datagram *d, struct sflow_decode_error *err)
{
	return decode(NULL, buf, len, opts, d, err);
}

int sflow_decode_with(struct sflow_decoder *dc, const uint8_t *buf, size_t len,
		      const struct sflow_decode_opts *opts, struct sflow_datagram *d,
		      struct sflow_decode_error *err)
{
	return decode(dc, buf, len, opts, d, err);
}

void sflow_decoder_fini(struct sflow_decoder *dc)
{
	if (!dc)
		return;
	free(dc->samples);
	free(dc->records);
	memset(dc, 0, sizeof *dc);
}

void sflow_datagram_free(struct sflow_datagram *d)
{
	uint32_t i;

	if (!d)
		return;
	if (d->samples && !d->borrowed) {
		for (i = 0; i < d->nsamples; i++)
			free(d->samples[i].records);
		free(d->samples);
	}
	memset(d, 0, sizeof *d);
}
