/*
 * test_vectors.c - every sFlow structure libsflow knows, checked both ways
 * against byte vectors written by hand from the specs (vectors.h):
 * encode(values) == bytes and decode(bytes) == values.  Whole datagrams
 * with an IPv4 agent (28-byte header) and an IPv6 agent (40-byte header),
 * the compact sample forms, and unknown tags kept and skipped.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "proto/sflow_decode.h"
#include "proto/sflow_encode.h"
#include "proto/tests/testutil.h"
#include "proto/tests/vectors.h"

/* ---- values matching the vectors */

static const struct sflow_if_counters if_values = {
    .ifIndex = 3,
    .ifType = 6,
    .ifSpeed = 10000000000ull,
    .ifDirection = 1,
    .ifStatus = 3,
    .ifInOctets = 0x0102030405060708ull,
    .ifInUcastPkts = 17,
    .ifInMulticastPkts = 18,
    .ifInBroadcastPkts = 19,
    .ifInDiscards = 20,
    .ifInErrors = 21,
    .ifInUnknownProtos = SFLOW_COUNTER32_UNKNOWN,
    .ifOutOctets = SFLOW_COUNTER64_UNKNOWN,
    .ifOutUcastPkts = 33,
    .ifOutMulticastPkts = 34,
    .ifOutBroadcastPkts = 35,
    .ifOutDiscards = 36,
    .ifOutErrors = 37,
    .ifPromiscuousMode = 0,
};

static const struct sflow_eth_counters eth_values = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};

static const struct sflow_bst_port bst_port_values = {
    .ingress_uc_pc = 5000,
    .ingress_mc_pc = -1,
    .egress_uc_pc = 10000,
    .egress_mc_pc = 0,
    .n_uc = 2,
    .egress_queue_uc_pc = {100, 2500},
    .n_mc = 1,
    .egress_queue_mc_pc = {1},
};

static const uint8_t bcast_mac[6] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};

static void check_if_counters(const struct sflow_if_counters *c)
{
	ck_assert_int_eq(memcmp(c, &if_values, sizeof *c), 0);
	ck_assert_uint_eq(c->ifSpeed, 10000000000ull);
	ck_assert_uint_eq(c->ifOutOctets, 0xFFFFFFFFFFFFFFFFull);
	ck_assert_uint_eq(c->ifPromiscuousMode, 0);
}

static void addr4(struct sflow_addr *a, uint8_t b0, uint8_t b1, uint8_t b2, uint8_t b3)
{
	memset(a, 0, sizeof *a);
	a->type = SFLOW_ADDR_IP4;
	a->a[0] = b0;
	a->a[1] = b1;
	a->a[2] = b2;
	a->a[3] = b3;
}

/* ---- single records */

START_TEST(if_counters_encode)
{
	uint8_t buf[256];
	struct sflow_w w;
	struct sflow_sample_enc s = {0};

	sflow_w_init(&w, buf, sizeof buf);
	sflow_enc_if_counters(&w, &s, &if_values);
	ck_assert_int_eq(w.err, SFLOW_OK);
	ck_assert_uint_eq(s.nrecords, 1);
	ck_assert_bytes(buf, w.len, vec_if_counters, sizeof vec_if_counters);
}
END_TEST

START_TEST(if_counters_decode)
{
	uint8_t buf[256];
	size_t n = tu_wrap_record(buf, sizeof buf, SFLOW_SAMPLE_COUNTERS_EXP, 3, vec_if_counters,
				  sizeof vec_if_counters);
	struct sflow_datagram d;
	struct sflow_decode_error err;

	ck_assert_int_eq(sflow_decode(buf, n, NULL, &d, &err), SFLOW_OK);
	ck_assert_uint_eq(d.nsamples, 1);
	ck_assert_uint_eq(d.samples[0].nrecords, 1);
	ck_assert_int_eq(d.samples[0].records[0].kind, SFLOW_REC_IF_COUNTERS);
	ck_assert_uint_eq(d.samples[0].records[0].tag, SFLOW_CTR_GENERIC);
	ck_assert_uint_eq(d.samples[0].records[0].length, 88);
	ck_assert_uint_eq(d.samples[0].records[0].offset, 52);
	check_if_counters(&d.samples[0].records[0].u.ifc);
	sflow_datagram_free(&d);
}
END_TEST

START_TEST(eth_counters_encode)
{
	uint8_t buf[128];
	struct sflow_w w;
	struct sflow_sample_enc s = {0};

	sflow_w_init(&w, buf, sizeof buf);
	sflow_enc_eth_counters(&w, &s, &eth_values);
	ck_assert_int_eq(w.err, SFLOW_OK);
	/* the record at offset 48 of D3, 8 + 52 bytes */
	ck_assert_bytes(buf, w.len, vec_d3 + 48, 60);
}
END_TEST

START_TEST(transit_and_depth_saturate)
{
	/* 0:1039 and 0:1040 carry 32 bits: larger values saturate, never wrap */
	static const uint8_t want[] = {
	    0x00, 0x00, 0x04, 0x0F, 0x00, 0x00, 0x00, 0x04, 0xFF, 0xFF, 0xFF, 0xFF, /* 2^32 + 5 */
	    0x00, 0x00, 0x04, 0x10, 0x00, 0x00, 0x00, 0x04, 0xFF, 0xFF, 0xFF, 0xFF, /* 2^64 - 1 */
	    0x00, 0x00, 0x04, 0x0F, 0x00, 0x00, 0x00, 0x04, 0xFF, 0xFF, 0xFF, 0xFE, /* 2^32 - 2 */
	};
	uint8_t buf[64];
	struct sflow_w w;
	struct sflow_sample_enc s = {0};

	sflow_w_init(&w, buf, sizeof buf);
	sflow_enc_transit(&w, &s, 0x100000005ull);
	sflow_enc_queue_depth(&w, &s, UINT64_MAX);
	sflow_enc_transit(&w, &s, 0xFFFFFFFEull);
	ck_assert_int_eq(w.err, SFLOW_OK);
	ck_assert_bytes(buf, w.len, want, sizeof want);
}
END_TEST

START_TEST(port_name_empty_and_limits)
{
	/* name<255>: "" is 4 bytes of length 0; 255 chars fit; 256 refused */
	static const uint8_t want[] = {0x00, 0x00, 0x03, 0xED, 0x00, 0x00,
				       0x00, 0x04, 0x00, 0x00, 0x00, 0x00};
	char name[300];
	uint8_t buf[512];
	struct sflow_w w;
	struct sflow_sample_enc s = {0};

	sflow_w_init(&w, buf, sizeof buf);
	sflow_enc_port_name(&w, &s, "");
	ck_assert_int_eq(w.err, SFLOW_OK);
	ck_assert_bytes(buf, w.len, want, sizeof want);

	memset(name, 'x', 255);
	name[255] = '\0';
	sflow_w_init(&w, buf, sizeof buf);
	sflow_enc_port_name(&w, &s, name);
	ck_assert_int_eq(w.err, SFLOW_OK);
	ck_assert_uint_eq(w.len, 8 + 4 + 256); /* 255 + 1 byte padding */
	ck_assert_uint_eq(tu_get32(buf + 4), 260);
	ck_assert_uint_eq(tu_get32(buf + 8), 255);
	ck_assert_uint_eq(buf[8 + 4 + 255], 0);

	name[255] = 'x';
	name[256] = '\0';
	sflow_w_init(&w, buf, sizeof buf);
	sflow_enc_port_name(&w, &s, name);
	ck_assert_int_eq(w.err, SFLOW_ERR_INVALID);
	ck_assert_uint_eq(w.len, 0);
}
END_TEST

START_TEST(bst_port_queue_limit)
{
	struct sflow_bst_port b = bst_port_values;
	uint8_t buf[256];
	struct sflow_w w;
	struct sflow_sample_enc s = {0};

	b.n_uc = 9;
	sflow_w_init(&w, buf, sizeof buf);
	sflow_enc_bst_port(&w, &s, &b);
	ck_assert_int_eq(w.err, SFLOW_ERR_INVALID);
	ck_assert_uint_eq(w.len, 0);

	/* 8 + 8 queues: 16 + 4 + 32 + 4 + 32 = 88 bytes of body */
	b.n_uc = 8;
	b.n_mc = 8;
	sflow_w_init(&w, buf, sizeof buf);
	sflow_enc_bst_port(&w, &s, &b);
	ck_assert_int_eq(w.err, SFLOW_OK);
	ck_assert_uint_eq(w.len, 8 + 88);
	ck_assert_uint_eq(tu_get32(buf + 4), 88);
}
END_TEST

/* ---- D1: IPv4 agent, counters + discard + flow samples */

static size_t encode_d1_sample(int which, uint8_t *buf, size_t cap)
{
	struct sflow_w w;
	struct sflow_sample_enc s;

	sflow_w_init(&w, buf, cap);
	if (which == 0) {
		struct sflow_counters_sample h = {42, 0, 5};

		sflow_enc_counters_begin(&w, &s, &h);
		sflow_enc_port_name(&w, &s, "swp10");
		sflow_enc_bst_port(&w, &s, &bst_port_values);
	} else if (which == 1) {
		struct sflow_discard_sample h = {7, 0, 5, 3, 5, 9, 259};
		struct sflow_sampled_header sh = {1, 1518, 4, 6, bcast_mac};

		sflow_enc_discard_begin(&w, &s, &h);
		sflow_enc_sampled_header(&w, &s, &sh);
		sflow_enc_egress_queue(&w, &s, 3);
		sflow_enc_function(&w, &s, "enqueue");
	} else {
		struct sflow_flow_sample h = {99, 0, 9, 1024, 65536, 0, 0, 5, 0, 9};
		struct sflow_ext_switch x = {10, 3, 20, 5};

		sflow_enc_flow_begin(&w, &s, &h);
		sflow_enc_ext_switch(&w, &s, &x);
		sflow_enc_transit(&w, &s, 12345);
		sflow_enc_queue_depth(&w, &s, 123456);
		sflow_enc_timestamp(&w, &s, VEC_D1_TIMESTAMP);
		sflow_enc_bst_egress_queue(&w, &s, 6);
	}
	sflow_enc_sample_end(&w, &s);
	ck_assert_int_eq(w.err, SFLOW_OK);
	ck_assert_uint_eq(s.start, 0);
	return w.len;
}

START_TEST(d1_encode)
{
	static struct sflow_dgram_builder b;
	struct sflow_addr agent;
	uint8_t buf[512];
	const uint8_t *out;
	size_t n;
	int i;

	addr4(&agent, 192, 0, 2, 1);
	ck_assert_int_eq(sflow_builder_init(&b, &agent, 7, 1400, 0), SFLOW_OK);
	ck_assert_uint_eq(b.hdr_len, 28);
	for (i = 0; i < 3; i++) {
		n = encode_d1_sample(i, buf, sizeof buf);
		ck_assert_int_eq(sflow_builder_add(&b, buf, n), SFLOW_OK);
	}
	out = sflow_builder_finish(&b, VEC_D1_SEQ, VEC_D1_UPTIME, &n);
	ck_assert_ptr_nonnull(out);
	/* D1 holds 0:4 (28, 88 bytes), 0:5 (116, 104), 0:3 (220, 128); the
	 * builder puts the standard 0:3 ahead of the 0:5 (sfacctd stops at
	 * the first sample type it does not know): D1's slices in that order */
	{
		uint8_t want[sizeof vec_d1];

		memcpy(want, vec_d1, 116);
		memcpy(want + 116, vec_d1 + 220, 128);
		memcpy(want + 244, vec_d1 + 116, 104);
		ck_assert_uint_eq(sizeof vec_d1, 348);
		ck_assert_bytes(out, n, want, sizeof want);
	}
}
END_TEST

START_TEST(d1_samples_encode_alone)
{
	/* each sample on its own equals its slice of D1 */
	static const size_t at[3] = {28, 116, 220}, len[3] = {88, 104, 128};
	uint8_t buf[512];
	int i;

	for (i = 0; i < 3; i++) {
		size_t n = encode_d1_sample(i, buf, sizeof buf);

		ck_assert_bytes(buf, n, vec_d1 + at[i], len[i]);
	}
}
END_TEST

START_TEST(d1_header_encode)
{
	struct sflow_addr agent;
	uint8_t buf[28];
	struct sflow_w w;

	addr4(&agent, 192, 0, 2, 1);
	sflow_w_init(&w, buf, sizeof buf);
	sflow_enc_dgram_header(&w, &agent, 7, VEC_D1_SEQ, VEC_D1_UPTIME, 3);
	ck_assert_int_eq(w.err, SFLOW_OK);
	ck_assert_bytes(buf, w.len, vec_d1, 28);
}
END_TEST

START_TEST(d1_decode)
{
	struct sflow_datagram d;
	struct sflow_decode_error err;
	const struct sflow_sample *s;
	const struct sflow_record *r;

	ck_assert_int_eq(sflow_decode(vec_d1, sizeof vec_d1, NULL, &d, &err), SFLOW_OK);
	ck_assert_uint_eq(d.version, 5);
	ck_assert_uint_eq(d.agent.type, SFLOW_ADDR_IP4);
	ck_assert_uint_eq(d.agent.a[0], 192);
	ck_assert_uint_eq(d.agent.a[1], 0);
	ck_assert_uint_eq(d.agent.a[2], 2);
	ck_assert_uint_eq(d.agent.a[3], 1);
	ck_assert_uint_eq(d.sub_agent_id, 7);
	ck_assert_uint_eq(d.sequence_number, 256);
	ck_assert_uint_eq(d.uptime_ms, 100000);
	ck_assert_uint_eq(d.nsamples, 3);
	ck_assert_uint_eq(d.length, 348);

	/* A: counters */
	s = &d.samples[0];
	ck_assert_uint_eq(s->tag, SFLOW_SAMPLE_COUNTERS_EXP);
	ck_assert_int_eq(s->kind, SFLOW_SMP_COUNTERS);
	ck_assert_int_eq(s->compact, 0);
	ck_assert_uint_eq(s->offset, 28);
	ck_assert_uint_eq(s->length, 80);
	ck_assert_ptr_eq(s->body, vec_d1 + 36);
	ck_assert_uint_eq(s->h.counters.sequence_number, 42);
	ck_assert_uint_eq(s->h.counters.source_id_type, 0);
	ck_assert_uint_eq(s->h.counters.source_id_index, 5);
	ck_assert_uint_eq(s->nrecords, 2);
	r = &s->records[0];
	ck_assert_int_eq(r->kind, SFLOW_REC_PORT_NAME);
	ck_assert_uint_eq(r->tag, SFLOW_CTR_PORT_NAME);
	ck_assert_uint_eq(r->offset, 52);
	ck_assert_uint_eq(r->length, 12);
	ck_assert_uint_eq(r->u.port_name.len, 5);
	ck_assert_str_eq(r->u.port_name.name, "swp10");
	r = &s->records[1];
	ck_assert_int_eq(r->kind, SFLOW_REC_BST_PORT);
	ck_assert_uint_eq(r->tag, SFLOW_CTR_BST_PORT);
	ck_assert_uint_eq(r->offset, 72);
	ck_assert_uint_eq(r->length, 36);
	ck_assert_int_eq(r->u.bst_port.ingress_uc_pc, 5000);
	ck_assert_int_eq(r->u.bst_port.ingress_mc_pc, -1);
	ck_assert_int_eq(r->u.bst_port.egress_uc_pc, 10000);
	ck_assert_int_eq(r->u.bst_port.egress_mc_pc, 0);
	ck_assert_uint_eq(r->u.bst_port.n_uc, 2);
	ck_assert_int_eq(r->u.bst_port.egress_queue_uc_pc[0], 100);
	ck_assert_int_eq(r->u.bst_port.egress_queue_uc_pc[1], 2500);
	ck_assert_uint_eq(r->u.bst_port.n_mc, 1);
	ck_assert_int_eq(r->u.bst_port.egress_queue_mc_pc[0], 1);

	/* B: discard */
	s = &d.samples[1];
	ck_assert_uint_eq(s->tag, SFLOW_SAMPLE_DISCARD);
	ck_assert_int_eq(s->kind, SFLOW_SMP_DISCARD);
	ck_assert_uint_eq(s->offset, 116);
	ck_assert_uint_eq(s->length, 96);
	ck_assert_uint_eq(s->h.discard.sequence_number, 7);
	ck_assert_uint_eq(s->h.discard.source_id_type, 0);
	ck_assert_uint_eq(s->h.discard.source_id_index, 5);
	ck_assert_uint_eq(s->h.discard.drops, 3);
	ck_assert_uint_eq(s->h.discard.input, 5);
	ck_assert_uint_eq(s->h.discard.output, 9);
	ck_assert_uint_eq(s->h.discard.reason, 259);
	ck_assert_uint_eq(s->nrecords, 3);
	r = &s->records[0];
	ck_assert_int_eq(r->kind, SFLOW_REC_SAMPLED_HEADER);
	ck_assert_uint_eq(r->offset, 156);
	ck_assert_uint_eq(r->length, 24);
	ck_assert_uint_eq(r->u.header.header_protocol, 1);
	ck_assert_uint_eq(r->u.header.frame_length, 1518);
	ck_assert_uint_eq(r->u.header.stripped, 4);
	ck_assert_uint_eq(r->u.header.header_length, 6);
	ck_assert_ptr_eq(r->u.header.header, vec_d1 + 180);
	ck_assert_int_eq(memcmp(r->u.header.header, bcast_mac, 6), 0);
	r = &s->records[1];
	ck_assert_int_eq(r->kind, SFLOW_REC_EGRESS_QUEUE);
	ck_assert_uint_eq(r->offset, 188);
	ck_assert_uint_eq(r->u.queue, 3);
	r = &s->records[2];
	ck_assert_int_eq(r->kind, SFLOW_REC_FUNCTION);
	ck_assert_uint_eq(r->offset, 200);
	ck_assert_uint_eq(r->u.function.len, 7);
	ck_assert_int_eq(memcmp(r->u.function.symbol, "enqueue", 7), 0);

	/* C: flow */
	s = &d.samples[2];
	ck_assert_uint_eq(s->tag, SFLOW_SAMPLE_FLOW_EXP);
	ck_assert_int_eq(s->kind, SFLOW_SMP_FLOW);
	ck_assert_int_eq(s->compact, 0);
	ck_assert_uint_eq(s->offset, 220);
	ck_assert_uint_eq(s->length, 120);
	ck_assert_uint_eq(s->h.flow.sequence_number, 99);
	ck_assert_uint_eq(s->h.flow.source_id_type, 0);
	ck_assert_uint_eq(s->h.flow.source_id_index, 9);
	ck_assert_uint_eq(s->h.flow.sampling_rate, 1024);
	ck_assert_uint_eq(s->h.flow.sample_pool, 65536);
	ck_assert_uint_eq(s->h.flow.drops, 0);
	ck_assert_uint_eq(s->h.flow.input_format, 0);
	ck_assert_uint_eq(s->h.flow.input_value, 5);
	ck_assert_uint_eq(s->h.flow.output_format, 0);
	ck_assert_uint_eq(s->h.flow.output_value, 9);
	ck_assert_uint_eq(s->nrecords, 5);
	r = &s->records[0];
	ck_assert_int_eq(r->kind, SFLOW_REC_EXT_SWITCH);
	ck_assert_uint_eq(r->offset, 272);
	ck_assert_uint_eq(r->u.ext_switch.src_vlan, 10);
	ck_assert_uint_eq(r->u.ext_switch.src_priority, 3);
	ck_assert_uint_eq(r->u.ext_switch.dst_vlan, 20);
	ck_assert_uint_eq(r->u.ext_switch.dst_priority, 5);
	r = &s->records[1];
	ck_assert_int_eq(r->kind, SFLOW_REC_TRANSIT);
	ck_assert_uint_eq(r->offset, 296);
	ck_assert_uint_eq(r->u.delay_ns, 12345);
	r = &s->records[2];
	ck_assert_int_eq(r->kind, SFLOW_REC_QUEUE_DEPTH);
	ck_assert_uint_eq(r->offset, 308);
	ck_assert_uint_eq(r->u.depth, 123456);
	r = &s->records[3];
	ck_assert_int_eq(r->kind, SFLOW_REC_TIMESTAMP);
	ck_assert_uint_eq(r->offset, 320);
	ck_assert_uint_eq(r->u.timestamp_ns, VEC_D1_TIMESTAMP);
	r = &s->records[4];
	/* flow record 4413:1 in a flow sample: the egress queue, not device buffers */
	ck_assert_uint_eq(r->tag, SFLOW_TAG(4413, 1));
	ck_assert_int_eq(r->kind, SFLOW_REC_BST_EGRESS_QUEUE);
	ck_assert_uint_eq(r->offset, 336);
	ck_assert_uint_eq(r->length, 4);
	ck_assert_uint_eq(r->u.queue, 6);

	sflow_datagram_free(&d);
	ck_assert_ptr_null(d.samples);
	ck_assert_uint_eq(d.nsamples, 0);
}
END_TEST

/* ---- D2: IPv6 agent */

static void addr_d2(struct sflow_addr *a)
{
	memset(a, 0, sizeof *a);
	a->type = SFLOW_ADDR_IP6;
	a->a[0] = 0x20;
	a->a[1] = 0x01;
	a->a[2] = 0x0D;
	a->a[3] = 0xB8;
	a->a[15] = 0x01;
}

START_TEST(d2_encode)
{
	static struct sflow_dgram_builder b;
	struct sflow_addr agent;
	struct sflow_counters_sample h = {1, SFLOW_DS_ENTITY, 1};
	struct sflow_bst_device dev = {8000, SFLOW_PCT_UNKNOWN};
	uint8_t buf[128];
	struct sflow_w w;
	struct sflow_sample_enc s;
	const uint8_t *out;
	size_t n;

	addr_d2(&agent);
	ck_assert_int_eq(sflow_builder_init(&b, &agent, 0, 1400, 0), SFLOW_OK);
	ck_assert_uint_eq(b.hdr_len, 40);
	sflow_w_init(&w, buf, sizeof buf);
	sflow_enc_counters_begin(&w, &s, &h);
	sflow_enc_bst_device(&w, &s, &dev);
	sflow_enc_sample_end(&w, &s);
	ck_assert_int_eq(w.err, SFLOW_OK);
	ck_assert_int_eq(sflow_builder_add(&b, buf, w.len), SFLOW_OK);
	out = sflow_builder_finish(&b, 1, 10, &n);
	ck_assert_bytes(out, n, vec_d2, sizeof vec_d2);
}
END_TEST

START_TEST(d2_decode)
{
	static const uint8_t ip6[16] = {0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
	struct sflow_datagram d;
	struct sflow_decode_error err;
	const struct sflow_sample *s;

	ck_assert_int_eq(sflow_decode(vec_d2, sizeof vec_d2, NULL, &d, &err), SFLOW_OK);
	ck_assert_uint_eq(d.agent.type, SFLOW_ADDR_IP6);
	ck_assert_int_eq(memcmp(d.agent.a, ip6, 16), 0);
	ck_assert_uint_eq(d.sub_agent_id, 0);
	ck_assert_uint_eq(d.sequence_number, 1);
	ck_assert_uint_eq(d.uptime_ms, 10);
	ck_assert_uint_eq(d.nsamples, 1);
	s = &d.samples[0];
	ck_assert_uint_eq(s->offset, 40);
	ck_assert_int_eq(s->kind, SFLOW_SMP_COUNTERS);
	ck_assert_uint_eq(s->h.counters.sequence_number, 1);
	ck_assert_uint_eq(s->h.counters.source_id_type, 2);
	ck_assert_uint_eq(s->h.counters.source_id_index, 1);
	ck_assert_uint_eq(s->nrecords, 1);
	/* counter record 4413:1 in a counters sample: device buffers */
	ck_assert_int_eq(s->records[0].kind, SFLOW_REC_BST_DEVICE);
	ck_assert_uint_eq(s->records[0].offset, 64);
	ck_assert_int_eq(s->records[0].u.bst_device.uc_pc, 8000);
	ck_assert_int_eq(s->records[0].u.bst_device.mc_pc, -1);
	sflow_datagram_free(&d);
}
END_TEST

/* ---- D3: compact forms widened */

START_TEST(d3_compact_decode)
{
	struct sflow_datagram d;
	struct sflow_decode_error err;
	const struct sflow_sample *s;

	ck_assert_int_eq(sflow_decode(vec_d3, sizeof vec_d3, NULL, &d, &err), SFLOW_OK);
	ck_assert_uint_eq(d.nsamples, 2);
	s = &d.samples[0];
	ck_assert_uint_eq(s->tag, SFLOW_SAMPLE_COUNTERS);
	ck_assert_int_eq(s->kind, SFLOW_SMP_COUNTERS);
	ck_assert_int_eq(s->compact, 1);
	ck_assert_uint_eq(s->h.counters.sequence_number, 11);
	ck_assert_uint_eq(s->h.counters.source_id_type, 2);
	ck_assert_uint_eq(s->h.counters.source_id_index, 1);
	ck_assert_uint_eq(s->nrecords, 1);
	ck_assert_int_eq(s->records[0].kind, SFLOW_REC_ETH_COUNTERS);
	ck_assert_uint_eq(s->records[0].offset, 48);
	ck_assert_int_eq(memcmp(&s->records[0].u.eth, &eth_values, sizeof eth_values), 0);
	ck_assert_uint_eq(s->records[0].u.eth.dot3StatsSymbolErrors, 13);

	s = &d.samples[1];
	ck_assert_uint_eq(s->tag, SFLOW_SAMPLE_FLOW);
	ck_assert_int_eq(s->kind, SFLOW_SMP_FLOW);
	ck_assert_int_eq(s->compact, 1);
	ck_assert_uint_eq(s->offset, 108);
	ck_assert_uint_eq(s->h.flow.sequence_number, 12);
	ck_assert_uint_eq(s->h.flow.source_id_type, 0);
	ck_assert_uint_eq(s->h.flow.source_id_index, 7);
	ck_assert_uint_eq(s->h.flow.sampling_rate, 256);
	ck_assert_uint_eq(s->h.flow.sample_pool, 4096);
	ck_assert_uint_eq(s->h.flow.drops, 1);
	ck_assert_uint_eq(s->h.flow.input_format, 1);
	ck_assert_uint_eq(s->h.flow.input_value, 259);
	ck_assert_uint_eq(s->h.flow.output_format, 2);
	ck_assert_uint_eq(s->h.flow.output_value, 2);
	ck_assert_uint_eq(s->nrecords, 1);
	ck_assert_int_eq(s->records[0].kind, SFLOW_REC_EGRESS_QUEUE);
	ck_assert_uint_eq(s->records[0].u.queue, 2);
	sflow_datagram_free(&d);
}
END_TEST

START_TEST(compact_widening_extremes)
{
	/* source_id 0xFFFFFFFF = type 255, index 0xFFFFFF; interface
	 * 0xFFFFFFFF = format 3, value 0x3FFFFFFF */
	static const uint8_t rec[] = {0x00, 0x00, 0x04, 0x0C, 0x00, 0x00,
				      0x00, 0x04, 0x00, 0x00, 0x00, 0x00};
	uint8_t buf[128];
	size_t n = tu_wrap_record(buf, sizeof buf, SFLOW_SAMPLE_FLOW, 7, rec, sizeof rec);
	struct sflow_datagram d;
	struct sflow_decode_error err;

	/* fields are 1..7: source_id = 2, input = 6, output = 7 */
	tu_put32(buf + 28 + 8 + 4, 0xFFFFFFFFu);
	tu_put32(buf + 28 + 8 + 20, 0xFFFFFFFFu);
	tu_put32(buf + 28 + 8 + 24, 0x3FFFFFFFu);
	ck_assert_int_eq(sflow_decode(buf, n, NULL, &d, &err), SFLOW_OK);
	ck_assert_uint_eq(d.samples[0].h.flow.source_id_type, 255);
	ck_assert_uint_eq(d.samples[0].h.flow.source_id_index, 0xFFFFFF);
	ck_assert_uint_eq(d.samples[0].h.flow.input_format, 3);
	ck_assert_uint_eq(d.samples[0].h.flow.input_value, 0x3FFFFFFF);
	ck_assert_uint_eq(d.samples[0].h.flow.output_format, 0);
	ck_assert_uint_eq(d.samples[0].h.flow.output_value, 0x3FFFFFFF);
	sflow_datagram_free(&d);
}
END_TEST

/* ---- D4: unknown tags kept raw */

START_TEST(d4_unknown_kept)
{
	struct sflow_datagram d;
	struct sflow_decode_error err;
	const struct sflow_sample *s;

	ck_assert_int_eq(sflow_decode(vec_d4, sizeof vec_d4, NULL, &d, &err), SFLOW_OK);
	ck_assert_uint_eq(d.nsamples, 2);
	s = &d.samples[0];
	ck_assert_uint_eq(s->tag, SFLOW_TAG(9, 1));
	ck_assert_int_eq(s->kind, SFLOW_SMP_UNKNOWN);
	ck_assert_uint_eq(s->length, 8);
	ck_assert_uint_eq(s->offset, 28);
	ck_assert_ptr_eq(s->body, vec_d4 + 36);
	ck_assert_uint_eq(s->nrecords, 0);
	ck_assert_ptr_null(s->records);
	s = &d.samples[1];
	ck_assert_int_eq(s->kind, SFLOW_SMP_COUNTERS);
	ck_assert_uint_eq(s->nrecords, 2);
	ck_assert_uint_eq(s->records[0].tag, SFLOW_TAG(0, 2000));
	ck_assert_int_eq(s->records[0].kind, SFLOW_REC_UNKNOWN);
	ck_assert_uint_eq(s->records[0].length, 4);
	ck_assert_uint_eq(s->records[0].offset, 68);
	ck_assert_ptr_eq(s->records[0].body, vec_d4 + 76);
	ck_assert_int_eq(s->records[1].kind, SFLOW_REC_BST_DEVICE);
	ck_assert_int_eq(s->records[1].u.bst_device.uc_pc, 0);
	ck_assert_int_eq(s->records[1].u.bst_device.mc_pc, 1);
	sflow_datagram_free(&d);
}
END_TEST

START_TEST(flow_tags_in_counter_sample_unknown)
{
	/* 0:1039 means nothing inside a counters sample: kept as unknown */
	static const uint8_t rec[] = {0x00, 0x00, 0x04, 0x0F, 0x00, 0x00,
				      0x00, 0x04, 0x00, 0x00, 0x00, 0x07};
	uint8_t buf[128];
	size_t n = tu_wrap_record(buf, sizeof buf, SFLOW_SAMPLE_COUNTERS_EXP, 3, rec, sizeof rec);
	struct sflow_datagram d;
	struct sflow_decode_error err;

	ck_assert_int_eq(sflow_decode(buf, n, NULL, &d, &err), SFLOW_OK);
	ck_assert_int_eq(d.samples[0].records[0].kind, SFLOW_REC_UNKNOWN);
	sflow_datagram_free(&d);

	/* and 0:1 in a discard sample is a sampled_header, not if_counters */
	n = tu_wrap_record(buf, sizeof buf, SFLOW_SAMPLE_DISCARD, 7, vec_d1 + 156, 32);
	ck_assert_int_eq(sflow_decode(buf, n, NULL, &d, &err), SFLOW_OK);
	ck_assert_int_eq(d.samples[0].records[0].kind, SFLOW_REC_SAMPLED_HEADER);
	ck_assert_uint_eq(d.samples[0].h.discard.reason, 7);
	sflow_datagram_free(&d);
}
END_TEST

START_TEST(own_enterprise_unknown_format_kept)
{
	/* a record of the own enterprise (32473) whose format sflow_own.c does
	 * not know (4095) is kept as unknown, not an error */
	static const uint8_t rec[] = {0x07, 0xED, 0x9F, 0xFF, /* 32473 << 12 | 4095 */
				      0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01};
	uint8_t buf[128];
	size_t n = tu_wrap_record(buf, sizeof buf, SFLOW_SAMPLE_COUNTERS_EXP, 3, rec, sizeof rec);
	struct sflow_datagram d;
	struct sflow_decode_error err;

	ck_assert_uint_eq(tu_get32(rec), SFLOW_TAG(32473, 4095));
	ck_assert_int_eq(sflow_decode(buf, n, NULL, &d, &err), SFLOW_OK);
	ck_assert_int_eq(d.samples[0].records[0].kind, SFLOW_REC_UNKNOWN);
	ck_assert_uint_eq(d.samples[0].records[0].length, 4);
	sflow_datagram_free(&d);
}
END_TEST

/* bsflowd's own records go through sflow_own.c (contract in sflow_own.h):
 * E:1 port_buffers, four 32-byte buffers, 128 bytes in all. */
static size_t own_port_buffers_dgram(uint8_t *buf, size_t cap, uint32_t body_len)
{
	uint8_t rec[8 + 132] = {0};
	unsigned i;

	tu_put32(rec, SFLOW_TAG(SFLOW_ENT_OWN_DEFAULT, 1));
	tu_put32(rec + 4, body_len);
	for (i = 0; i < 4; i++)
		tu_put32(rec + 8 + 32 * i + 20, 100 * i); /* peak_pc of buffer i */
	return tu_wrap_record(buf, cap, SFLOW_SAMPLE_COUNTERS_EXP, 3, rec, 8 + body_len);
}

START_TEST(own_records_through_sflow_own)
{
	uint8_t buf[256];
	size_t n = own_port_buffers_dgram(buf, sizeof buf, 128);
	struct sflow_decode_opts opts = {0};
	struct sflow_datagram d;
	struct sflow_decode_error err;

	/* default enterprise 32473: decoded by sflow_own.c */
	ck_assert_int_eq(sflow_decode(buf, n, NULL, &d, &err), SFLOW_OK);
	ck_assert_int_eq(d.samples[0].records[0].kind, SFLOW_REC_OWN);
	ck_assert_uint_eq(d.samples[0].records[0].u.own.format, 1);
	sflow_datagram_free(&d);

	/* another own enterprise configured: the same record is unknown */
	opts.own_enterprise = 9;
	ck_assert_int_eq(sflow_decode(buf, n, &opts, &d, &err), SFLOW_OK);
	ck_assert_int_eq(d.samples[0].records[0].kind, SFLOW_REC_UNKNOWN);
	ck_assert_uint_eq(d.samples[0].records[0].length, 128);
	sflow_datagram_free(&d);

	/* own_enterprise 0 means the default */
	opts.own_enterprise = 0;
	ck_assert_int_eq(sflow_decode(buf, n, &opts, &d, &err), SFLOW_OK);
	ck_assert_int_eq(d.samples[0].records[0].kind, SFLOW_REC_OWN);
	sflow_datagram_free(&d);

	/* a body sflow_own.c rejects is an error of the whole datagram, with
	 * an offset and a message naming the record */
	n = own_port_buffers_dgram(buf, sizeof buf, 124);
	ck_assert_int_eq(sflow_decode(buf, n, NULL, &d, &err), SFLOW_ERR_FORMAT);
	ck_assert_ptr_null(d.samples);
	ck_assert_msg(strncmp(err.msg, "offset ", 7) == 0, "%s", err.msg);
	ck_assert_msg(strstr(err.msg, "counter record 32473:1 (at offset 52, length 124)") != NULL,
		      "%s", err.msg);
	n = own_port_buffers_dgram(buf, sizeof buf, 132);
	ck_assert_int_eq(sflow_decode(buf, n, NULL, &d, &err), SFLOW_ERR_FORMAT);
}
END_TEST

START_TEST(own_sample_unknown_format_kept)
{
	/* an own sample type sflow_own.c does not decode is kept raw */
	static const uint8_t dg[] = {
	    0x00, 0x00, 0x00, 0x05, /* version */
	    0x00, 0x00, 0x00, 0x01, /* IPv4 */
	    0x7F, 0x00, 0x00, 0x01, /* 127.0.0.1 */
	    0x00, 0x00, 0x00, 0x00, /* sub_agent_id */
	    0x00, 0x00, 0x00, 0x01, /* sequence_number */
	    0x00, 0x00, 0x00, 0x01, /* uptime */
	    0x00, 0x00, 0x00, 0x01, /* 1 sample */
	    0x07, 0xED, 0x9F, 0xFF, /* tag 32473:4095 */
	    0x00, 0x00, 0x00, 0x04, /* length 4 */
	    0x00, 0x00, 0x00, 0x00, /* body */
	};
	struct sflow_datagram d;
	struct sflow_decode_error err;

	ck_assert_int_eq(sflow_decode(dg, sizeof dg, NULL, &d, &err), SFLOW_OK);
	ck_assert_int_eq(d.samples[0].kind, SFLOW_SMP_UNKNOWN);
	ck_assert_uint_eq(d.samples[0].length, 4);
	ck_assert_uint_eq(d.samples[0].nrecords, 0);
	sflow_datagram_free(&d);
}
END_TEST

static Suite *vectors_suite(void)
{
	Suite *s = suite_create("vectors");
	TCase *tc = tcase_create("records");

	tcase_add_test(tc, if_counters_encode);
	tcase_add_test(tc, if_counters_decode);
	tcase_add_test(tc, eth_counters_encode);
	tcase_add_test(tc, transit_and_depth_saturate);
	tcase_add_test(tc, port_name_empty_and_limits);
	tcase_add_test(tc, bst_port_queue_limit);
	suite_add_tcase(s, tc);

	tc = tcase_create("datagrams");
	tcase_add_test(tc, d1_encode);
	tcase_add_test(tc, d1_samples_encode_alone);
	tcase_add_test(tc, d1_header_encode);
	tcase_add_test(tc, d1_decode);
	tcase_add_test(tc, d2_encode);
	tcase_add_test(tc, d2_decode);
	tcase_add_test(tc, d3_compact_decode);
	tcase_add_test(tc, compact_widening_extremes);
	tcase_add_test(tc, d4_unknown_kept);
	tcase_add_test(tc, flow_tags_in_counter_sample_unknown);
	tcase_add_test(tc, own_enterprise_unknown_format_kept);
	tcase_add_test(tc, own_records_through_sflow_own);
	tcase_add_test(tc, own_sample_unknown_format_kept);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(vectors_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
