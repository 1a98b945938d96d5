/*
 * test_discard.c - unit tests of dropped-packet notifications
 * (agent/discard.c): the 0:5 layout computed by hand (with and without the
 * drop's own visibility_event record) and read back with
 * sflow_decode(), and the rate limit and circuit breaker driven by a
 * virtual clock with expectations worked out from the rules in discard.h.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "agent/discard.h"
#include "proto/sflow_decode.h"
#include "proto/sflow_encode.h"
#include "proto/sflow_own.h"

#define MS 1000000ull
#define S  1000000000ull

static uint32_t be32(const uint8_t *b)
{
	return ((uint32_t)b[0] << 24) | ((uint32_t)b[1] << 16) | ((uint32_t)b[2] << 8) | b[3];
}

static void make_drop(struct bsf_event *ev, uint32_t stage, uint32_t reason, uint32_t queue)
{
	memset(ev, 0, sizeof *ev);
	ev->type = BSF_EV_DROP;
	ev->reason = reason;
	ev->stage = stage;
	ev->in_port = 1;
	ev->out_port = queue == UINT32_MAX ? UINT32_MAX : 0;
	ev->queue = queue;
	ev->frame_len = 1024;
	ev->t_ns = 5 * S + 250 * MS;
	ev->depth_bytes = 65536;
	ev->hdr_len = 60;
	for (int i = 0; i < 60; i++)
		ev->hdr[i] = (uint8_t)i;
}

static void make_params(struct bsf_discard_params *p, uint32_t out_ifindex)
{
	memset(p, 0, sizeof *p);
	p->seq = 9;
	p->source_type = SFLOW_DS_ENTITY;
	p->source_index = 1;
	p->drops = 77;
	p->in_ifindex = 2;
	p->out_ifindex = out_ifindex;
	p->header_bytes = 128;
}

static void decode_one(const uint8_t *smp, size_t len, struct sflow_datagram *d)
{
	static uint8_t keep[SFLOW_DGRAM_MAX];
	struct sflow_dgram_builder b;
	struct sflow_addr a = {SFLOW_ADDR_IP4, {127, 0, 0, 1}};
	struct sflow_decode_error err;
	const uint8_t *dg;
	size_t dlen;

	ck_assert_int_eq(sflow_builder_init(&b, &a, 0, SFLOW_DGRAM_MAX, 0), SFLOW_OK);
	ck_assert_int_eq(sflow_builder_add(&b, smp, len), SFLOW_OK);
	dg = sflow_builder_finish(&b, 1, 1000, &dlen);
	memcpy(keep, dg, dlen);
	ck_assert_int_eq(sflow_decode(keep, dlen, NULL, d, &err), SFLOW_OK);
	ck_assert_uint_eq(d->nsamples, 1);
}

static const struct sflow_record *find(const struct sflow_sample *s, uint32_t tag)
{
	for (uint32_t i = 0; i < s->nrecords; i++)
		if (s->records[i].tag == tag)
			return &s->records[i];
	return NULL;
}

START_TEST(test_symbols)
{
	ck_assert_str_eq(bsf_discard_stage_symbol(BSF_STAGE_FORWARDING), "forwarding");
	ck_assert_str_eq(bsf_discard_stage_symbol(BSF_STAGE_INGRESS_ADMISSION),
			 "ingress_admission");
	ck_assert_str_eq(bsf_discard_stage_symbol(BSF_STAGE_EGRESS_ADMISSION), "egress_admission");
	ck_assert_str_eq(bsf_discard_stage_symbol(BSF_STAGE_WRED), "wred");
	ck_assert_ptr_null(bsf_discard_stage_symbol(BSF_STAGE_UNKNOWN));
	ck_assert_ptr_null(bsf_discard_stage_symbol(99));
}
END_TEST

START_TEST(test_layout_egress)
{
	struct bsf_event ev;
	struct bsf_discard_params p;
	uint8_t buf[BSF_DISCARD_SCRATCH];
	size_t len = 0;
	struct sflow_datagram d;
	const struct sflow_sample *s;
	const struct sflow_record *r;

	make_drop(&ev, BSF_STAGE_EGRESS_ADMISSION, 259, 3);
	make_params(&p, 1);
	ck_assert_int_eq(bsf_discard_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);
	/* 8 + 28 (seven fields) + 4 (count) + 0:1 (8 + 16 + 60) + 0:1036 12
	 * + 0:1040 12 + 0:1043 16 + 0:1038 (8 + 4 + 16 "egress_admission")
	 * = 192 */
	ck_assert_uint_eq(len, 192);
	ck_assert_uint_eq(be32(buf + 0), 5);
	ck_assert_uint_eq(be32(buf + 4), 184);
	ck_assert_uint_eq(be32(buf + 8), 9);	  /* sequence */
	ck_assert_uint_eq(be32(buf + 12), 2);	  /* source type entity */
	ck_assert_uint_eq(be32(buf + 16), 1);	  /* index */
	ck_assert_uint_eq(be32(buf + 20), 77);	  /* drops */
	ck_assert_uint_eq(be32(buf + 24), 2);	  /* input */
	ck_assert_uint_eq(be32(buf + 28), 1);	  /* output */
	ck_assert_uint_eq(be32(buf + 32), 259);	  /* reason */
	ck_assert_uint_eq(be32(buf + 36), 5);	  /* records */
	ck_assert_uint_eq(be32(buf + 40), 1);	  /* 0:1 */
	ck_assert_uint_eq(be32(buf + 124), 1036); /* 40 + 84 */
	ck_assert_uint_eq(be32(buf + 132), 3);
	ck_assert_uint_eq(be32(buf + 136), 1040);
	ck_assert_uint_eq(be32(buf + 144), 65536);
	ck_assert_uint_eq(be32(buf + 148), 1043);
	/* 5.25 s = 5250000000 = 0x1_38ECA480 */
	ck_assert_uint_eq(be32(buf + 156), 1);
	ck_assert_uint_eq(be32(buf + 160), 0x38ECA480u);
	ck_assert_uint_eq(be32(buf + 164), 1038);
	ck_assert_uint_eq(be32(buf + 168), 20);
	ck_assert_uint_eq(be32(buf + 172), 16);
	ck_assert_int_eq(memcmp(buf + 176, "egress_admission", 16), 0);
	ck_assert_uint_le(len - 60, BSF_DISCARD_OVERHEAD - 8 - 72); /* no own record here */
	/* an ingress drop ("ingress_admission", 17 bytes padded to 20): no
	 * output (sFlow drops: set only for a drop on egress), so no egress
	 * queue and no depth either: 192 + 4 - 24 = 172 */
	ev.stage = BSF_STAGE_INGRESS_ADMISSION;
	ck_assert_int_eq(bsf_discard_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);
	ck_assert_uint_eq(len, 172);
	ck_assert_uint_eq(be32(buf + 28), 0); /* output */
	ck_assert_uint_eq(be32(buf + 36), 3); /* 0:1, 0:1043, 0:1038 */
	/* no own record here; 44 more for the longest function name, 220
	 * for the longest trap and reason names, 24 for the queue records */
	ck_assert_uint_le(len - 60, BSF_DISCARD_OVERHEAD - 8 - 72 - 44 - 220);
	/* WRED is on egress: the output and the queue */
	ev.stage = BSF_STAGE_WRED;
	ck_assert_int_eq(bsf_discard_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);
	ck_assert_uint_eq(be32(buf + 28), 1);
	ck_assert_uint_eq(be32(buf + 124), 1036);
	ev.stage = BSF_STAGE_EGRESS_ADMISSION;
	ck_assert_int_eq(bsf_discard_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);

	decode_one(buf, len, &d);
	s = &d.samples[0];
	ck_assert_int_eq(s->kind, SFLOW_SMP_DISCARD);
	ck_assert_uint_eq(s->h.discard.reason, 259);
	ck_assert_uint_eq(s->h.discard.drops, 77);
	r = find(s, SFLOW_FLOW_FUNCTION);
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->u.function.len, 16);
	ck_assert_int_eq(memcmp(r->u.function.symbol, "egress_admission", 16), 0);
	r = find(s, SFLOW_FLOW_HEADER);
	ck_assert_uint_eq(r->u.header.header_length, 60);
	ck_assert_uint_eq(r->u.header.stripped, 4);
	ck_assert_uint_eq(r->u.header.frame_length, 1024);
	sflow_datagram_free(&d);

	/* a drop on a multicast queue: no 0:1036 (it numbers unicast
	 * queues), so no depth either (both or neither): 192 - 24 = 168,
	 * 3 records */
	ev.multicast = 1;
	ck_assert_int_eq(bsf_discard_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);
	ck_assert_uint_eq(len, 168);
	ck_assert_uint_eq(be32(buf + 36), 3);
	ck_assert_uint_eq(be32(buf + 124), 1043);
}
END_TEST

START_TEST(test_layout_forwarding)
{
	struct bsf_event ev;
	struct bsf_discard_params p;
	uint8_t buf[BSF_DISCARD_SCRATCH];
	size_t len = 0;
	struct sflow_datagram d;

	/* a forwarding drop: no queue, so no 0:1036 and no 0:1040 */
	make_drop(&ev, BSF_STAGE_FORWARDING, 257, UINT32_MAX);
	make_params(&p, 0);
	ck_assert_int_eq(bsf_discard_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);
	/* 40 + 84 + 16 + (8 + 4 + 12 "forwarding" padded) = 164 */
	ck_assert_uint_eq(len, 164);
	decode_one(buf, len, &d);
	ck_assert_uint_eq(d.samples[0].h.discard.reason, 257);
	ck_assert_uint_eq(d.samples[0].h.discard.output, 0);
	ck_assert_uint_eq(d.samples[0].nrecords, 3);
	ck_assert_ptr_null(find(&d.samples[0], SFLOW_FLOW_EGRESS_QUEUE));
	sflow_datagram_free(&d);
	/* unknown stage: no 0:1038 */
	ev.stage = BSF_STAGE_UNKNOWN;
	ck_assert_int_eq(bsf_discard_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);
	ck_assert_uint_eq(len, 164 - 24);
	/* queue known but output port not: neither 0:1036 nor 0:1040 */
	ev.queue = 2;
	ck_assert_int_eq(bsf_discard_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);
	ck_assert_uint_eq(len, 164 - 24);
	/* a forwarding drop whose output port the backend knows: output 0
	 * all the same (not an egress drop) */
	ev.stage = BSF_STAGE_FORWARDING;
	make_params(&p, 7);
	ck_assert_int_eq(bsf_discard_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);
	ck_assert_uint_eq(be32(buf + 28), 0);
	ck_assert_uint_eq(len, 164);
	/* wrong type */
	ev.type = BSF_EV_SAMPLE;
	ck_assert_int_eq(bsf_discard_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_ERR_INVALID);
}
END_TEST

/* A backend that names the dropping function: 0:1038 carries it instead
 * of the stage's symbol; the log line names reason, function and trap. */
START_TEST(test_function)
{
	static const char fn[] = "__dev_queue_xmit+0xd01/0xf30"; /* 28 bytes */
	struct bsf_event ev;
	struct bsf_discard_params p;
	uint8_t buf[BSF_DISCARD_SCRATCH];
	size_t len = 0;
	struct sflow_datagram d;
	const struct sflow_record *r;
	char line[300];

	make_drop(&ev, BSF_STAGE_FORWARDING, 257, UINT32_MAX);
	snprintf(ev.function, sizeof ev.function, "%s", fn);
	make_params(&p, 0);
	ck_assert_int_eq(bsf_discard_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);
	/* 40 + 84 + 16 + (8 + 4 + 28) = 180 ("forwarding" gave 164) */
	ck_assert_uint_eq(len, 180);
	ck_assert_uint_eq(be32(buf + 140), 1038);
	ck_assert_uint_eq(be32(buf + 144), 32);
	ck_assert_uint_eq(be32(buf + 148), 28);
	ck_assert_int_eq(memcmp(buf + 152, fn, 28), 0);
	decode_one(buf, len, &d);
	r = find(&d.samples[0], SFLOW_FLOW_FUNCTION);
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->u.function.len, 28);
	ck_assert_int_eq(memcmp(r->u.function.symbol, fn, 28), 0);
	sflow_datagram_free(&d);
	/* even with no stage */
	ev.stage = BSF_STAGE_UNKNOWN;
	ck_assert_int_eq(bsf_discard_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);
	ck_assert_uint_eq(len, 180);

	bsf_discard_describe(&ev, line, sizeof line);
	ck_assert_str_eq(line, "reason 257 at __dev_queue_xmit+0xd01/0xf30");

	/* 0:1041 and 0:1042 after 0:1038, each when its names are given:
	 * 180 + 0:1041 (8 + 4 + 12 "buffer_drops" + 4 + 12 "tail_drop" padded)
	 * = 220, + 0:1042 (8 + 4 + 12 "QDISC_DROP" padded) = 244 */
	snprintf(ev.trap_group, sizeof ev.trap_group, "buffer_drops");
	snprintf(ev.trap_name, sizeof ev.trap_name, "tail_drop");
	ck_assert_int_eq(bsf_discard_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);
	ck_assert_uint_eq(len, 220);
	ck_assert_uint_eq(be32(buf + 180), 1041);
	ck_assert_uint_eq(be32(buf + 184), 32);
	ck_assert_uint_eq(be32(buf + 188), 12);
	ck_assert_int_eq(memcmp(buf + 192, "buffer_drops", 12), 0);
	ck_assert_uint_eq(be32(buf + 204), 9);
	ck_assert_int_eq(memcmp(buf + 208, "tail_drop\0\0\0", 12), 0);
	snprintf(ev.reason_name, sizeof ev.reason_name, "QDISC_DROP");
	ck_assert_int_eq(bsf_discard_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);
	ck_assert_uint_eq(len, 244);
	ck_assert_uint_eq(be32(buf + 220), 1042);
	ck_assert_uint_eq(be32(buf + 224), 16);
	ck_assert_uint_eq(be32(buf + 228), 10);
	ck_assert_int_eq(memcmp(buf + 232, "QDISC_DROP\0\0", 12), 0);
	decode_one(buf, len, &d);
	r = find(&d.samples[0], SFLOW_FLOW_HW_TRAP);
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(r->kind, SFLOW_REC_HW_TRAP);
	ck_assert_uint_eq(r->u.hw_trap.group_len, 12);
	ck_assert_int_eq(memcmp(r->u.hw_trap.group, "buffer_drops", 12), 0);
	ck_assert_uint_eq(r->u.hw_trap.trap_len, 9);
	ck_assert_int_eq(memcmp(r->u.hw_trap.trap, "tail_drop", 9), 0);
	r = find(&d.samples[0], SFLOW_FLOW_LINUX_REASON);
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(r->kind, SFLOW_REC_LINUX_REASON);
	ck_assert_uint_eq(r->u.linux_reason.len, 10);
	ck_assert_int_eq(memcmp(r->u.linux_reason.symbol, "QDISC_DROP", 10), 0);
	sflow_datagram_free(&d);
	/* a trap name without its group: an empty group */
	ev.trap_group[0] = '\0';
	ev.reason_name[0] = '\0';
	ck_assert_int_eq(bsf_discard_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);
	ck_assert_uint_eq(len, 220 - 12);
	ck_assert_uint_eq(be32(buf + 188), 0);
	ck_assert_uint_eq(be32(buf + 192), 9);
	ev.trap_name[0] = '\0';
	snprintf(ev.reason_name, sizeof ev.reason_name, "QDISC_DROP");
	snprintf(ev.trap_name, sizeof ev.trap_name, "ingress_vlan_filter");
	bsf_discard_describe(&ev, line, sizeof line);
	ck_assert_str_eq(line, "reason 257 (QDISC_DROP) at __dev_queue_xmit+0xd01/0xf30, trap "
			       "-/ingress_vlan_filter");
	ev.function[0] = '\0';
	ev.stage = BSF_STAGE_WRED;
	bsf_discard_describe(&ev, line, sizeof line);
	ck_assert_str_eq(line, "reason 257 (QDISC_DROP) at wred, trap -/ingress_vlan_filter");
}
END_TEST

START_TEST(test_layout_vis_record)
{
	struct bsf_event ev;
	struct bsf_discard_params p;
	struct sflow_own_vis_event rec;
	uint8_t buf[BSF_DISCARD_SCRATCH];
	size_t len = 0;
	/* the record words: type 1, flags 0 (unicast queue), level, severity,
	 * tag 0, event_id = own_id = 2^32 + 5, queue 3, reason 259, depth
	 * 65536, delay 0, peak 0, peak_time all ones, duration 0 */
	static const uint32_t want[20] = {
	    0x07ED9001u, 72,			   /* tag E:1, length */
	    1,		 0,	      0,     0, 0, /* type drop, flags, level, severity, tag */
	    1,		 5,			   /* event_id */
	    1,		 5,			   /* own_id */
	    3,		 259,	      65536,	   /* queue, reason, depth */
	    0,		 0,			   /* delay, peak */
	    0xFFFFFFFFu, 0xFFFFFFFFu,		   /* peak_time */
	    0,		 0,			   /* duration */
	};

	make_drop(&ev, BSF_STAGE_EGRESS_ADMISSION, 259, 3);
	make_params(&p, 1);
	memset(&rec, 0, sizeof rec);
	rec.type = SFLOW_OWN_VIS_DROP;
	rec.event_id = rec.own_id = 0x100000005ull;
	rec.queue = 3;
	rec.reason = 259;
	rec.depth = 65536;
	rec.peak_time_ns = UINT64_MAX;
	p.vis = &rec;
	p.enterprise = 32473;
	ck_assert_int_eq(bsf_discard_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);
	/* test_layout_egress's 192 bytes + the record 8 + 72, last */
	ck_assert_uint_eq(len, 272);
	ck_assert_uint_eq(be32(buf + 4), 264);
	ck_assert_uint_eq(be32(buf + 36), 6); /* records */
	ck_assert_uint_eq(be32(buf + 164), 1038);
	for (uint32_t i = 0; i < 20; i++)
		ck_assert_uint_eq(be32(buf + 192 + 4 * i), want[i]);
	/* the longest notifications fit the overhead; the longest of all is
	 * an egress drop (its queue records) with a function, a trap group
	 * and name and a reason name of 63 bytes each, and the record (an
	 * ingress drop has no queue records) */
	ck_assert_uint_le(len - 60, BSF_DISCARD_OVERHEAD);
	ev.stage = BSF_STAGE_INGRESS_ADMISSION;
	ck_assert_int_eq(bsf_discard_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);
	ck_assert_uint_le(len - 60, BSF_DISCARD_OVERHEAD - 44 - 220);
	ev.stage = BSF_STAGE_EGRESS_ADMISSION;
	memset(ev.function, 'f', BSF_NAME_MAX - 1);
	memset(ev.trap_group, 'g', BSF_NAME_MAX - 1);
	memset(ev.trap_name, 't', BSF_NAME_MAX - 1);
	memset(ev.reason_name, 'r', BSF_NAME_MAX - 1);
	ev.function[BSF_NAME_MAX - 1] = ev.trap_group[BSF_NAME_MAX - 1] = '\0';
	ev.trap_name[BSF_NAME_MAX - 1] = ev.reason_name[BSF_NAME_MAX - 1] = '\0';
	ev.flags = BSF_EVF_FLOW_REGION; /* and a flow region's record */
	p.region = 1;
	ck_assert_int_eq(bsf_discard_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);
	ck_assert_uint_eq(len - 60, BSF_DISCARD_OVERHEAD);
	/* and with 128 header bytes, in the scratch buffer */
	ev.hdr_len = BSF_HDR_MAX;
	ck_assert_int_eq(bsf_discard_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);
	ck_assert_uint_le(len, BSF_DISCARD_SCRATCH);
	ev.hdr_len = 60;
	ev.function[0] = ev.trap_group[0] = ev.trap_name[0] = ev.reason_name[0] = '\0';
	ev.stage = BSF_STAGE_INGRESS_ADMISSION;
	ev.flags = 0;
	/* a standard enterprise for the own record is refused */
	p.enterprise = 0;
	ck_assert_int_eq(bsf_discard_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_ERR_INVALID);
	p.enterprise = 4413;
	ck_assert_int_eq(bsf_discard_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_ERR_INVALID);
	/* without a record the enterprise does not matter */
	p.vis = NULL;
	ck_assert_int_eq(bsf_discard_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);
	ck_assert_uint_eq(len, 172); /* as in test_layout_egress */
}
END_TEST

/* A drop by a flow region: the flow_region_drop record E:2 after the
 * standard records (and after the visibility_event record when there
 * is one), by hand from the XDR in sflow_own.h: the flow-based
 * admission's worked example, region 7's count 2.5 MiB over its bound
 * of 2 MiB (12500 hundredths of a percent), its (ingress port,
 * priority) state 0.28 %, its (egress port, priority) 90 %. */
START_TEST(test_layout_region_record)
{
	struct bsf_event ev;
	struct bsf_discard_params p;
	struct sflow_own_vis_event rec;
	struct sflow_datagram d;
	uint8_t buf[BSF_DISCARD_SCRATCH];
	size_t len = 0;
	static const uint32_t want[10] = {
	    0x07ED9002u, 32,			     /* tag E:2, length */
	    7,		 1,  0,			     /* region, cause bound, unit bytes */
	    12500,	 28, 9000, 2621440, 2097152, /* count, bound */
	};

	make_drop(&ev, BSF_STAGE_INGRESS_ADMISSION, 259, 3);
	make_params(&p, 1);
	ev.flags = BSF_EVF_FLOW_REGION;
	ev.region = 7;
	ev.region_cause = 1;
	ev.region_unit = 0;
	ev.region_pc = 12500;
	ev.region_ingress_pc = 28;
	ev.region_egress_pc = 9000;
	ev.region_count = 2621440;
	ev.region_bound = 2097152;
	p.region = 1;
	p.enterprise = 32473;
	ck_assert_int_eq(bsf_discard_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);
	/* an ingress drop: test_layout_vis_record's 172 bytes less its queue
	 * records' 20 (0:1036 and 0:1040 need an output) ... */
	size_t base = len - 40;
	for (uint32_t i = 0; i < 10; i++)
		ck_assert_uint_eq(be32(buf + base + 4 * i), want[i]);
	decode_one(buf, len, &d);
	const struct sflow_record *r = find(&d.samples[0], 0x07ED9002u);
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(r->kind, SFLOW_REC_OWN);
	ck_assert_str_eq(sflow_own_record_name(SFLOW_OWN_REGION_DROP, SFLOW_SAMPLE_DISCARD),
			 "flow_region_drop");
	const struct sflow_own_region_drop *rd = &r->u.own.u.region_drop;
	ck_assert_uint_eq(rd->region, 7);
	ck_assert_uint_eq(rd->cause, SFLOW_OWN_REGION_BOUND);
	ck_assert_uint_eq(rd->region_pc, 12500);
	ck_assert_uint_eq(rd->ingress_pc, 28);
	ck_assert_uint_eq(rd->egress_pc, 9000);
	ck_assert_uint_eq(rd->count, 2621440);
	ck_assert_uint_eq(rd->bound, 2097152);
	ck_assert_str_eq(sflow_own_region_cause_name(rd->cause), "bound");
	sflow_datagram_free(&d);
	/* after the visibility_event record, last */
	memset(&rec, 0, sizeof rec);
	rec.type = SFLOW_OWN_VIS_DROP;
	rec.peak_time_ns = UINT64_MAX;
	p.vis = &rec;
	size_t with_vis = 0;
	ck_assert_int_eq(bsf_discard_encode(&p, &ev, buf, sizeof buf, &with_vis), SFLOW_OK);
	ck_assert_uint_eq(with_vis, len + 80);
	ck_assert_uint_eq(be32(buf + with_vis - 120), 0x07ED9001u);
	for (uint32_t i = 0; i < 10; i++)
		ck_assert_uint_eq(be32(buf + with_vis - 40 + 4 * i), want[i]);
	/* a count past 32 bits saturates; without p.region, without the flag
	 * or with a standard enterprise the record is left out */
	ev.region_count = 1ull << 40;
	ck_assert_int_eq(bsf_discard_encode(&p, &ev, buf, sizeof buf, &with_vis), SFLOW_OK);
	ck_assert_uint_eq(be32(buf + with_vis - 8), 0xFFFFFFFEu);
	p.vis = NULL;
	p.region = 0;
	size_t none = 0;
	ck_assert_int_eq(bsf_discard_encode(&p, &ev, buf, sizeof buf, &none), SFLOW_OK);
	ck_assert_uint_eq(none, len - 40);
	p.region = 1;
	ev.flags = 0;
	ck_assert_int_eq(bsf_discard_encode(&p, &ev, buf, sizeof buf, &none), SFLOW_OK);
	ck_assert_uint_eq(none, len - 40);
	ev.flags = BSF_EVF_FLOW_REGION;
	p.enterprise = 4413;
	ck_assert_int_eq(bsf_discard_encode(&p, &ev, buf, sizeof buf, &none), SFLOW_OK);
	ck_assert_uint_eq(none, len - 40);
}
END_TEST

static struct bsf_discard_conf conf_of(uint32_t limit, uint32_t max, uint32_t trip, uint32_t cool)
{
	struct bsf_discard_conf c = {limit, max, trip, cool};
	return c;
}

START_TEST(test_defaults)
{
	struct bsf_discard_conf c;

	bsf_discard_conf_default(&c);
	ck_assert_uint_eq(c.limit, 100);
	ck_assert_uint_eq(c.max, 1000000);
	ck_assert_uint_eq(c.max_trip, 10);
	ck_assert_uint_eq(c.cooldown, 60);
}
END_TEST

/* limit 100: a step holds 10 notifications; a burst of 20 at one instant
 * sends 10; the next step sends 10 more. */
START_TEST(test_bucket_burst)
{
	struct bsf_discard_limiter l;
	struct bsf_discard_conf c = conf_of(100, 0, 1, 1);
	int sent = 0;

	bsf_discard_limiter_init(&l, &c);
	for (int i = 0; i < 20; i++)
		sent += bsf_discard_offer(&l, 3 * S, NULL) == BSF_DISCARD_SEND;
	ck_assert_int_eq(sent, 10);
	ck_assert_uint_eq(l.suppressed_rate, 10);
	/* 99 ms later: same 100 ms step (3.000 .. 3.099), nothing more */
	ck_assert_int_eq(bsf_discard_offer(&l, 3 * S + 99 * MS, NULL), BSF_DISCARD_RATE);
	/* next step: 10 more */
	sent = 0;
	for (int i = 0; i < 20; i++)
		sent += bsf_discard_offer(&l, 3 * S + 100 * MS, NULL) == BSF_DISCARD_SEND;
	ck_assert_int_eq(sent, 10);
	/* a long pause refills only up to the capacity (10) */
	sent = 0;
	for (int i = 0; i < 50; i++)
		sent += bsf_discard_offer(&l, 60 * S, NULL) == BSF_DISCARD_SEND;
	ck_assert_int_eq(sent, 10);
	ck_assert_uint_eq(l.offered, 91);
	ck_assert_uint_eq(l.sent, 30);
	ck_assert_uint_eq(bsf_discard_suppressed(&l), 61);
}
END_TEST

/* 1000 drops spread evenly over one second (one per ms): 100 sent. */
START_TEST(test_bucket_steady)
{
	struct bsf_discard_limiter l;
	struct bsf_discard_conf c = conf_of(100, 0, 1, 1);
	int sent = 0;

	bsf_discard_limiter_init(&l, &c);
	for (int i = 0; i < 1000; i++)
		sent += bsf_discard_offer(&l, 7 * S + (uint64_t)i * MS, NULL) == BSF_DISCARD_SEND;
	ck_assert_int_eq(sent, 100);
	ck_assert_uint_eq(l.sent + bsf_discard_suppressed(&l), 1000);
}
END_TEST

/* limit 5 (half a notification per step): one every other step, 5 a
 * second; limit 0: none. */
START_TEST(test_bucket_small_limits)
{
	struct bsf_discard_limiter l;
	struct bsf_discard_conf c = conf_of(5, 0, 1, 1);
	int sent = 0;

	bsf_discard_limiter_init(&l, &c);
	for (int i = 0; i < 10000; i++)
		sent += bsf_discard_offer(&l, (uint64_t)i * 100000ull, NULL) == BSF_DISCARD_SEND;
	ck_assert_int_eq(sent, 5); /* 10000 x 0.1 ms = one second */
	c = conf_of(0, 0, 1, 1);
	bsf_discard_limiter_init(&l, &c);
	for (int i = 0; i < 100; i++)
		ck_assert_int_eq(bsf_discard_offer(&l, (uint64_t)i * S, NULL), BSF_DISCARD_RATE);
}
END_TEST

/* Irregular load (a fixed pseudo-random pattern with bursts across second
 * boundaries): no whole second ever passes more than limit. */
START_TEST(test_bucket_never_over)
{
	static const uint32_t limits[] = {1, 7, 10, 33, 100, 250};
	uint32_t per_sec[40];

	for (size_t k = 0; k < sizeof limits / sizeof limits[0]; k++) {
		struct bsf_discard_limiter l;
		struct bsf_discard_conf c = conf_of(limits[k], 0, 1, 1);
		uint64_t t = 0, x = 12345;

		bsf_discard_limiter_init(&l, &c);
		memset(per_sec, 0, sizeof per_sec);
		while (t < 40 * S) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			/* mostly short gaps, sometimes a pause of up to 1.6 s */
			t += (x >> 60) == 0 ? (x >> 33) % (1600 * MS) : (x >> 33) % (3 * MS);
			if (t >= 40 * S)
				break;
			if (bsf_discard_offer(&l, t, NULL) == BSF_DISCARD_SEND)
				per_sec[t / S]++;
		}
		for (int s = 0; s < 40; s++)
			ck_assert_uint_le(per_sec[s], limits[k]);
		ck_assert_uint_eq(l.sent + bsf_discard_suppressed(&l), l.offered);
	}
}
END_TEST

/* Breaker: limit 100, max 50, max_trip 3, cooldown 10; 100 drops a second
 * (one every 10 ms from t = 0).  Seconds 0, 1 and 2 each go over 50 at
 * their 51st drop (t = x.50 s); the third trips at t = 2.50 s (drop #250):
 * drops 0..249 are sent (10 per 100 ms step, within the bucket), drops
 * 250..1249 (t < 12.50) are suppressed, drop 1250 resumes with fresh
 * counts; seconds 13 and 14 go over and 15 trips again at drop 1550. */
START_TEST(test_breaker_trip_and_recover)
{
	struct bsf_discard_limiter l;
	struct bsf_discard_conf c = conf_of(100, 50, 3, 10);
	unsigned tr;
	int tripped_at[2] = {-1, -1}, resumed_at = -1, ntrip = 0;

	bsf_discard_limiter_init(&l, &c);
	for (int i = 0; i <= 1550; i++) {
		enum bsf_discard_verdict v = bsf_discard_offer(&l, (uint64_t)i * 10 * MS, &tr);

		if (tr & BSF_DISCARD_TRIPPED)
			tripped_at[ntrip++] = i;
		if (tr & BSF_DISCARD_RESUMED)
			resumed_at = i;
		if (i < 250 || (i >= 1250 && i < 1550))
			ck_assert_int_eq(v, BSF_DISCARD_SEND);
		else
			ck_assert_int_eq(v, BSF_DISCARD_BREAKER);
	}
	ck_assert_int_eq(ntrip, 2);
	ck_assert_int_eq(tripped_at[0], 250);
	ck_assert_int_eq(tripped_at[1], 1550);
	ck_assert_int_eq(resumed_at, 1250);
	ck_assert_uint_eq(l.trips, 2);
	ck_assert_uint_eq(l.sent, 550);
	ck_assert_uint_eq(l.suppressed_breaker, 1001);
	ck_assert_uint_eq(l.suppressed_rate, 0);
	ck_assert_uint_eq(l.offered, 1551);
	/* a reload closes it at once */
	bsf_discard_limiter_configure(&l, &c);
	ck_assert_int_eq(bsf_discard_offer(&l, 15 * S + 600 * MS, &tr), BSF_DISCARD_SEND);
	ck_assert_uint_eq(tr, 0);
}
END_TEST

/* Seconds over max must be consecutive: over, quiet, over, over does not
 * trip with max_trip 3; a third consecutive one does. */
START_TEST(test_breaker_consecutive)
{
	struct bsf_discard_limiter l;
	struct bsf_discard_conf c = conf_of(1000, 5, 3, 60);
	static const int secs[] = {0, 2, 3};
	unsigned tr;

	bsf_discard_limiter_init(&l, &c);
	for (size_t k = 0; k < 3; k++)
		for (int i = 0; i < 6; i++) {
			ck_assert_int_eq(
			    bsf_discard_offer(&l, (uint64_t)secs[k] * S + (uint64_t)i * MS, &tr),
			    BSF_DISCARD_SEND);
			ck_assert_uint_eq(tr, 0);
		}
	ck_assert_uint_eq(l.trips, 0);
	/* second 4: the 6th drop is the third consecutive second over 5 */
	for (int i = 0; i < 5; i++)
		ck_assert_int_eq(bsf_discard_offer(&l, 4 * S + (uint64_t)i * MS, &tr),
				 BSF_DISCARD_SEND);
	ck_assert_int_eq(bsf_discard_offer(&l, 4 * S + 5 * MS, &tr), BSF_DISCARD_BREAKER);
	ck_assert_uint_eq(tr, BSF_DISCARD_TRIPPED);
	/* exactly max in a second never counts as over */
	c = conf_of(1000, 5, 1, 60);
	bsf_discard_limiter_init(&l, &c);
	for (int s = 0; s < 5; s++)
		for (int i = 0; i < 5; i++)
			ck_assert_int_eq(
			    bsf_discard_offer(&l, (uint64_t)s * S + (uint64_t)i * MS, NULL),
			    BSF_DISCARD_SEND);
	ck_assert_uint_eq(l.trips, 0);
	/* max 0: no breaker at all */
	c = conf_of(1000000, 0, 1, 60);
	bsf_discard_limiter_init(&l, &c);
	for (int i = 0; i < 100000; i++)
		bsf_discard_offer(&l, (uint64_t)i * 1000ull, NULL);
	ck_assert_uint_eq(l.trips, 0);
}
END_TEST

static Suite *discard_suite(void)
{
	Suite *s = suite_create("discard");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_symbols);
	tcase_add_test(tc, test_layout_egress);
	tcase_add_test(tc, test_layout_forwarding);
	tcase_add_test(tc, test_layout_vis_record);
	tcase_add_test(tc, test_layout_region_record);
	tcase_add_test(tc, test_function);
	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_bucket_burst);
	tcase_add_test(tc, test_bucket_steady);
	tcase_add_test(tc, test_bucket_small_limits);
	tcase_add_test(tc, test_bucket_never_over);
	tcase_add_test(tc, test_breaker_trip_and_recover);
	tcase_add_test(tc, test_breaker_consecutive);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(discard_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
