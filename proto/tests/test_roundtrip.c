/*
 * test_roundtrip.c - seeded random encode -> builder -> decode round trips.
 * Random samples of every kind (counters, flow, discard) with random
 * subsets of every record, random values (including the extremes), random
 * agents (IPv4/IPv6) and datagram sizes; every finished datagram must
 * decode to exactly the values encoded, by sflow_decode() and by a decoder
 * kept for the whole run (sflow_decode_with()).  The seed is fixed, so a failure
 * is reproducible; BSF_SEED in the environment overrides it.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto/sflow_decode.h"
#include "proto/sflow_encode.h"

#define MAX_RECS    8
#define MAX_PENDING 64

struct exp_rec {
	uint32_t tag;
	enum sflow_rec_kind kind;
	struct sflow_if_counters ifc;
	struct sflow_eth_counters eth;
	char name[SFLOW_PORT_NAME_MAX + 1];
	struct sflow_bst_device dev;
	struct sflow_bst_port port;
	struct sflow_sampled_header hdr;
	uint8_t hdr_bytes[160];
	struct sflow_ext_switch sw;
	uint32_t u32;	 /* queue, transit, depth: the value on the wire */
	uint64_t u64_in; /* transit/depth before saturation; timestamp */
};

struct exp_sample {
	uint32_t tag;
	struct sflow_flow_sample flow;
	struct sflow_counters_sample ctr;
	struct sflow_discard_sample disc;
	uint32_t n;
	struct exp_rec recs[MAX_RECS];
};

static uint64_t rng_state;

static uint64_t rnd(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1Dull;
}

static uint32_t rnd32(void)
{
	/* favour the edges: 0, all ones, small, large */
	switch (rnd() % 8) {
	case 0:
		return 0;
	case 1:
		return 0xFFFFFFFFu;
	case 2:
		return (uint32_t)(rnd() % 16);
	default:
		return (uint32_t)(rnd() >> 32);
	}
}

static uint64_t rnd64(void)
{
	switch (rnd() % 6) {
	case 0:
		return 0;
	case 1:
		return UINT64_MAX;
	case 2:
		return 0xFFFFFFFFull + (rnd() % 3); /* around the 32-bit limit */
	default:
		return rnd();
	}
}

static uint32_t below(uint32_t n)
{
	return (uint32_t)(rnd() % n);
}

static int32_t rnd_pct(void)
{
	return below(10) == 0 ? -1 : (int32_t)below(10001);
}

/* Fill a struct made only of uint32_t fields. */
static void fill_u32s(void *p, size_t size)
{
	uint32_t t[16];
	size_t i;

	ck_assert_uint_le(size, sizeof t);
	for (i = 0; i < size / 4; i++)
		t[i] = rnd32();
	memcpy(p, t, size);
}

static void rnd_string(char *s, size_t max)
{
	size_t n = below((uint32_t)max + 1), i;

	for (i = 0; i < n; i++)
		s[i] = (char)(' ' + below(95));
	s[n] = '\0';
}

static void gen_counter_rec(struct exp_rec *r)
{
	uint32_t i;

	memset(r, 0, sizeof *r);
	switch (below(5)) {
	case 0:
		r->tag = SFLOW_CTR_GENERIC;
		r->kind = SFLOW_REC_IF_COUNTERS;
		r->ifc.ifIndex = rnd32();
		r->ifc.ifType = rnd32();
		r->ifc.ifSpeed = rnd64();
		r->ifc.ifDirection = rnd32();
		r->ifc.ifStatus = rnd32();
		r->ifc.ifInOctets = rnd64();
		r->ifc.ifInUcastPkts = rnd32();
		r->ifc.ifInMulticastPkts = rnd32();
		r->ifc.ifInBroadcastPkts = rnd32();
		r->ifc.ifInDiscards = rnd32();
		r->ifc.ifInErrors = rnd32();
		r->ifc.ifInUnknownProtos = rnd32();
		r->ifc.ifOutOctets = rnd64();
		r->ifc.ifOutUcastPkts = rnd32();
		r->ifc.ifOutMulticastPkts = rnd32();
		r->ifc.ifOutBroadcastPkts = rnd32();
		r->ifc.ifOutDiscards = rnd32();
		r->ifc.ifOutErrors = rnd32();
		r->ifc.ifPromiscuousMode = rnd32();
		break;
	case 1:
		r->tag = SFLOW_CTR_ETHERNET;
		r->kind = SFLOW_REC_ETH_COUNTERS;
		fill_u32s(&r->eth, sizeof r->eth);
		break;
	case 2:
		r->tag = SFLOW_CTR_PORT_NAME;
		r->kind = SFLOW_REC_PORT_NAME;
		rnd_string(r->name, below(4) == 0 ? SFLOW_PORT_NAME_MAX : 20);
		break;
	case 3:
		r->tag = SFLOW_CTR_BST_DEVICE;
		r->kind = SFLOW_REC_BST_DEVICE;
		r->dev.uc_pc = rnd_pct();
		r->dev.mc_pc = rnd_pct();
		break;
	default:
		r->tag = SFLOW_CTR_BST_PORT;
		r->kind = SFLOW_REC_BST_PORT;
		r->port.ingress_uc_pc = rnd_pct();
		r->port.ingress_mc_pc = rnd_pct();
		r->port.egress_uc_pc = rnd_pct();
		r->port.egress_mc_pc = rnd_pct();
		r->port.n_uc = below(9);
		r->port.n_mc = below(9);
		for (i = 0; i < r->port.n_uc; i++)
			r->port.egress_queue_uc_pc[i] = rnd_pct();
		for (i = 0; i < r->port.n_mc; i++)
			r->port.egress_queue_mc_pc[i] = rnd_pct();
		break;
	}
}

static void gen_flow_rec(struct exp_rec *r)
{
	uint32_t i;

	memset(r, 0, sizeof *r);
	switch (below(8)) {
	case 0:
		r->tag = SFLOW_FLOW_HEADER;
		r->kind = SFLOW_REC_SAMPLED_HEADER;
		r->hdr.header_protocol = rnd32();
		r->hdr.frame_length = rnd32();
		r->hdr.stripped = rnd32();
		r->hdr.header_length = below(sizeof r->hdr_bytes + 1);
		for (i = 0; i < r->hdr.header_length; i++)
			r->hdr_bytes[i] = (uint8_t)rnd();
		r->hdr.header = r->hdr_bytes;
		break;
	case 1:
		r->tag = SFLOW_FLOW_EXT_SWITCH;
		r->kind = SFLOW_REC_EXT_SWITCH;
		fill_u32s(&r->sw, sizeof r->sw);
		break;
	case 2:
		r->tag = SFLOW_FLOW_EGRESS_QUEUE;
		r->kind = SFLOW_REC_EGRESS_QUEUE;
		r->u32 = rnd32();
		break;
	case 3:
		r->tag = SFLOW_FLOW_FUNCTION;
		r->kind = SFLOW_REC_FUNCTION;
		rnd_string(r->name, 40);
		break;
	case 4:
		r->tag = SFLOW_FLOW_TRANSIT;
		r->kind = SFLOW_REC_TRANSIT;
		r->u64_in = rnd64();
		r->u32 = r->u64_in > 0xFFFFFFFFull ? 0xFFFFFFFFu : (uint32_t)r->u64_in;
		break;
	case 5:
		r->tag = SFLOW_FLOW_QUEUE_DEPTH;
		r->kind = SFLOW_REC_QUEUE_DEPTH;
		r->u64_in = rnd64();
		r->u32 = r->u64_in > 0xFFFFFFFFull ? 0xFFFFFFFFu : (uint32_t)r->u64_in;
		break;
	case 6:
		r->tag = SFLOW_FLOW_TIMESTAMP;
		r->kind = SFLOW_REC_TIMESTAMP;
		r->u64_in = rnd64();
		break;
	default:
		r->tag = SFLOW_FLOW_BST_EGRESS_QUEUE;
		r->kind = SFLOW_REC_BST_EGRESS_QUEUE;
		r->u32 = rnd32();
		break;
	}
}

static void gen_sample(struct exp_sample *s)
{
	uint32_t i;

	memset(s, 0, sizeof *s);
	s->n = below(MAX_RECS + 1);
	switch (below(3)) {
	case 0:
		s->tag = SFLOW_SAMPLE_COUNTERS_EXP;
		fill_u32s(&s->ctr, sizeof s->ctr);
		for (i = 0; i < s->n; i++)
			gen_counter_rec(&s->recs[i]);
		break;
	case 1:
		s->tag = SFLOW_SAMPLE_FLOW_EXP;
		fill_u32s(&s->flow, sizeof s->flow);
		for (i = 0; i < s->n; i++)
			gen_flow_rec(&s->recs[i]);
		break;
	default:
		s->tag = SFLOW_SAMPLE_DISCARD;
		fill_u32s(&s->disc, sizeof s->disc);
		for (i = 0; i < s->n; i++)
			gen_flow_rec(&s->recs[i]);
		break;
	}
}

static size_t encode_sample(const struct exp_sample *x, uint8_t *buf, size_t cap)
{
	struct sflow_w w;
	struct sflow_sample_enc s;
	uint32_t i;

	sflow_w_init(&w, buf, cap);
	if (x->tag == SFLOW_SAMPLE_COUNTERS_EXP)
		sflow_enc_counters_begin(&w, &s, &x->ctr);
	else if (x->tag == SFLOW_SAMPLE_FLOW_EXP)
		sflow_enc_flow_begin(&w, &s, &x->flow);
	else
		sflow_enc_discard_begin(&w, &s, &x->disc);
	for (i = 0; i < x->n; i++) {
		const struct exp_rec *r = &x->recs[i];

		switch (r->kind) {
		case SFLOW_REC_IF_COUNTERS:
			sflow_enc_if_counters(&w, &s, &r->ifc);
			break;
		case SFLOW_REC_ETH_COUNTERS:
			sflow_enc_eth_counters(&w, &s, &r->eth);
			break;
		case SFLOW_REC_PORT_NAME:
			sflow_enc_port_name(&w, &s, r->name);
			break;
		case SFLOW_REC_BST_DEVICE:
			sflow_enc_bst_device(&w, &s, &r->dev);
			break;
		case SFLOW_REC_BST_PORT:
			sflow_enc_bst_port(&w, &s, &r->port);
			break;
		case SFLOW_REC_SAMPLED_HEADER:
			sflow_enc_sampled_header(&w, &s, &r->hdr);
			break;
		case SFLOW_REC_EXT_SWITCH:
			sflow_enc_ext_switch(&w, &s, &r->sw);
			break;
		case SFLOW_REC_EGRESS_QUEUE:
			sflow_enc_egress_queue(&w, &s, r->u32);
			break;
		case SFLOW_REC_FUNCTION:
			sflow_enc_function(&w, &s, r->name);
			break;
		case SFLOW_REC_TRANSIT:
			sflow_enc_transit(&w, &s, r->u64_in);
			break;
		case SFLOW_REC_QUEUE_DEPTH:
			sflow_enc_queue_depth(&w, &s, r->u64_in);
			break;
		case SFLOW_REC_TIMESTAMP:
			sflow_enc_timestamp(&w, &s, r->u64_in);
			break;
		case SFLOW_REC_BST_EGRESS_QUEUE:
			sflow_enc_bst_egress_queue(&w, &s, r->u32);
			break;
		default:
			ck_abort_msg("bad kind");
		}
	}
	sflow_enc_sample_end(&w, &s);
	ck_assert_int_eq(w.err, SFLOW_OK);
	return w.len;
}

static void check_record(const struct exp_rec *x, const struct sflow_record *r)
{
	uint32_t i;

	ck_assert_uint_eq(r->tag, x->tag);
	ck_assert_int_eq(r->kind, x->kind);
	switch (x->kind) {
	case SFLOW_REC_IF_COUNTERS:
		ck_assert_int_eq(memcmp(&r->u.ifc, &x->ifc, sizeof x->ifc), 0);
		ck_assert_uint_eq(r->length, 88);
		break;
	case SFLOW_REC_ETH_COUNTERS:
		ck_assert_int_eq(memcmp(&r->u.eth, &x->eth, sizeof x->eth), 0);
		ck_assert_uint_eq(r->length, 52);
		break;
	case SFLOW_REC_PORT_NAME:
		ck_assert_uint_eq(r->u.port_name.len, strlen(x->name));
		ck_assert_str_eq(r->u.port_name.name, x->name);
		ck_assert_uint_eq(r->length, 4 + ((strlen(x->name) + 3) & ~(size_t)3));
		break;
	case SFLOW_REC_BST_DEVICE:
		ck_assert_int_eq(r->u.bst_device.uc_pc, x->dev.uc_pc);
		ck_assert_int_eq(r->u.bst_device.mc_pc, x->dev.mc_pc);
		break;
	case SFLOW_REC_BST_PORT:
		ck_assert_int_eq(r->u.bst_port.ingress_uc_pc, x->port.ingress_uc_pc);
		ck_assert_int_eq(r->u.bst_port.ingress_mc_pc, x->port.ingress_mc_pc);
		ck_assert_int_eq(r->u.bst_port.egress_uc_pc, x->port.egress_uc_pc);
		ck_assert_int_eq(r->u.bst_port.egress_mc_pc, x->port.egress_mc_pc);
		ck_assert_uint_eq(r->u.bst_port.n_uc, x->port.n_uc);
		ck_assert_uint_eq(r->u.bst_port.n_mc, x->port.n_mc);
		for (i = 0; i < x->port.n_uc; i++)
			ck_assert_int_eq(r->u.bst_port.egress_queue_uc_pc[i],
					 x->port.egress_queue_uc_pc[i]);
		for (i = 0; i < x->port.n_mc; i++)
			ck_assert_int_eq(r->u.bst_port.egress_queue_mc_pc[i],
					 x->port.egress_queue_mc_pc[i]);
		ck_assert_uint_eq(r->length, 24 + 4 * (x->port.n_uc + x->port.n_mc));
		break;
	case SFLOW_REC_SAMPLED_HEADER:
		ck_assert_uint_eq(r->u.header.header_protocol, x->hdr.header_protocol);
		ck_assert_uint_eq(r->u.header.frame_length, x->hdr.frame_length);
		ck_assert_uint_eq(r->u.header.stripped, x->hdr.stripped);
		ck_assert_uint_eq(r->u.header.header_length, x->hdr.header_length);
		if (x->hdr.header_length)
			ck_assert_int_eq(
			    memcmp(r->u.header.header, x->hdr_bytes, x->hdr.header_length), 0);
		break;
	case SFLOW_REC_EXT_SWITCH:
		ck_assert_int_eq(memcmp(&r->u.ext_switch, &x->sw, sizeof x->sw), 0);
		break;
	case SFLOW_REC_EGRESS_QUEUE:
	case SFLOW_REC_BST_EGRESS_QUEUE:
		ck_assert_uint_eq(r->u.queue, x->u32);
		break;
	case SFLOW_REC_FUNCTION:
		ck_assert_uint_eq(r->u.function.len, strlen(x->name));
		if (r->u.function.len)
			ck_assert_int_eq(memcmp(r->u.function.symbol, x->name, r->u.function.len),
					 0);
		break;
	case SFLOW_REC_TRANSIT:
		ck_assert_uint_eq(r->u.delay_ns, x->u32);
		break;
	case SFLOW_REC_QUEUE_DEPTH:
		ck_assert_uint_eq(r->u.depth, x->u32);
		break;
	case SFLOW_REC_TIMESTAMP:
		ck_assert_uint_eq(r->u.timestamp_ns, x->u64_in);
		break;
	default:
		ck_abort_msg("bad kind");
	}
}

static void check_sample(const struct exp_sample *x, const struct sflow_sample *s)
{
	uint32_t i;

	ck_assert_uint_eq(s->tag, x->tag);
	ck_assert_int_eq(s->compact, 0);
	if (x->tag == SFLOW_SAMPLE_COUNTERS_EXP) {
		ck_assert_int_eq(s->kind, SFLOW_SMP_COUNTERS);
		ck_assert_int_eq(memcmp(&s->h.counters, &x->ctr, sizeof x->ctr), 0);
	} else if (x->tag == SFLOW_SAMPLE_FLOW_EXP) {
		ck_assert_int_eq(s->kind, SFLOW_SMP_FLOW);
		ck_assert_int_eq(memcmp(&s->h.flow, &x->flow, sizeof x->flow), 0);
	} else {
		ck_assert_int_eq(s->kind, SFLOW_SMP_DISCARD);
		ck_assert_int_eq(memcmp(&s->h.discard, &x->disc, sizeof x->disc), 0);
	}
	ck_assert_uint_eq(s->nrecords, x->n);
	for (i = 0; i < x->n; i++)
		check_record(&x->recs[i], &s->records[i]);
}

struct run {
	struct sflow_dgram_builder b;
	struct sflow_addr agent;
	uint32_t sub_agent, seq;
	struct exp_sample pending[MAX_PENDING];
	uint32_t npending;
	uint32_t datagrams, samples;
	struct sflow_decoder dec;
};

/* A decoded datagram against what was added to it. */
static void check_datagram(struct run *run, const struct sflow_datagram *d, size_t n,
			   uint32_t uptime)
{
	uint32_t i;

	ck_assert_uint_eq(d->length, n);
	ck_assert_uint_eq(d->agent.type, run->agent.type);
	ck_assert_int_eq(
	    memcmp(d->agent.a, run->agent.a, run->agent.type == SFLOW_ADDR_IP4 ? 4 : 16), 0);
	ck_assert_uint_eq(d->sub_agent_id, run->sub_agent);
	ck_assert_uint_eq(d->sequence_number, run->seq);
	ck_assert_uint_eq(d->uptime_ms, uptime);
	ck_assert_uint_eq(d->nsamples, run->npending);
	/* the builder sends the standard flow and counters samples (0:3,
	 * 0:4) first, then the others (0:5), each in the order added */
	{
		uint32_t k = 0;

		for (int pass = 0; pass < 2; pass++)
			for (i = 0; i < run->npending; i++) {
				int std = run->pending[i].tag != SFLOW_SAMPLE_DISCARD;

				if (std == (pass == 0))
					check_sample(&run->pending[i], &d->samples[k++]);
			}
		ck_assert_uint_eq(k, run->npending);
	}
}

static void flush(struct run *run)
{
	struct sflow_datagram d;
	struct sflow_decode_error err;
	const uint8_t *out;
	uint32_t uptime = rnd32();
	size_t n;

	out = sflow_builder_finish(&run->b, ++run->seq, uptime, &n);
	if (run->npending == 0) {
		ck_assert_ptr_null(out);
		return;
	}
	ck_assert_ptr_nonnull(out);
	ck_assert_uint_le(n, run->b.max_bytes);
	ck_assert_msg(sflow_decode(out, n, NULL, &d, &err) == SFLOW_OK, "decode: %s", err.msg);
	check_datagram(run, &d, n, uptime);
	sflow_datagram_free(&d);
	/* the same with a decoder kept for the whole run: its arrays reused
	 * from datagrams of other sizes and contents, with the same result */
	ck_assert_msg(sflow_decode_with(&run->dec, out, n, NULL, &d, &err) == SFLOW_OK,
		      "decode_with: %s", err.msg);
	ck_assert_int_eq(d.borrowed, 1);
	check_datagram(run, &d, n, uptime);
	sflow_datagram_free(&d);
	run->datagrams++;
	run->samples += run->npending;
	run->npending = 0;
}

START_TEST(random_round_trips)
{
	static struct run run;
	static uint8_t scratch[SFLOW_DGRAM_MAX];
	const char *env = getenv("BSF_SEED");
	uint64_t seed = env ? strtoull(env, NULL, 0) : 0x5EED0001ull;
	int config, i;

	rng_state = seed ? seed : 1;
	memset(&run, 0, sizeof run);
	for (config = 0; config < 20; config++) {
		size_t max = config % 4 == 0
				 ? SFLOW_DGRAM_MIN
				 : SFLOW_DGRAM_MIN + below(SFLOW_DGRAM_MAX - SFLOW_DGRAM_MIN + 1);
		uint32_t cap = below(3) == 0 ? 1 + below(10) : 0;

		memset(&run.agent, 0, sizeof run.agent);
		run.agent.type = below(2) ? SFLOW_ADDR_IP4 : SFLOW_ADDR_IP6;
		for (i = 0; i < 16; i++)
			run.agent.a[i] =
			    run.agent.type == SFLOW_ADDR_IP4 && i >= 4 ? 0 : (uint8_t)rnd();
		run.sub_agent = rnd32();
		ck_assert_int_eq(sflow_builder_init(&run.b, &run.agent, run.sub_agent, max, cap),
				 SFLOW_OK);
		for (i = 0; i < 150; i++) {
			struct exp_sample *x = &run.pending[run.npending];
			size_t n;
			int e;

			gen_sample(x);
			n = encode_sample(x, scratch, sizeof scratch);
			e = sflow_builder_add(&run.b, scratch, n);
			if (e == SFLOW_ERR_TOOBIG) {
				ck_assert_uint_gt(n, max - run.b.hdr_len);
				continue;
			}
			if (e == SFLOW_ERR_FULL) {
				ck_assert(n > max - run.b.len || (cap && run.npending == cap));
				flush(&run);
				x = &run.pending[0];
				gen_sample(x); /* a fresh sample into slot 0 */
				n = encode_sample(x, scratch, sizeof scratch);
				e = sflow_builder_add(&run.b, scratch, n);
				if (e == SFLOW_ERR_TOOBIG)
					continue;
			}
			ck_assert_int_eq(e, SFLOW_OK);
			run.npending++;
			ck_assert_uint_lt(run.npending, MAX_PENDING);
		}
		flush(&run);
	}
	sflow_decoder_fini(&run.dec);
	/* the run must actually have exercised something */
	ck_assert_uint_gt(run.datagrams, 50);
	ck_assert_uint_gt(run.samples, 1000);
}
END_TEST

static Suite *roundtrip_suite(void)
{
	Suite *s = suite_create("roundtrip");
	TCase *tc = tcase_create("random");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, random_round_trips);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(roundtrip_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
