/*
 * test_flowsample.c - unit tests of the 0:3 flow sample builder
 * (agent/flowsample.c): sizes and leading bytes computed by hand from the
 * XDR layout, every field read back through the datagram builder and
 * sflow_decode(), saturation of transit and depth, multicast output,
 * VLAN parsing, header truncation, and per-port sequence numbers.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <string.h>

#include "agent/flowsample.h"
#include "proto/sflow_decode.h"
#include "proto/sflow_encode.h"

/* A 60-byte header: Ethernet with an 802.1Q tag (VLAN 100, PCP 5) then
 * IPv4/UDP; only the tag matters here, the rest is a recognisable
 * pattern. */
static void make_event(struct bsf_event *ev, int tagged)
{
	memset(ev, 0, sizeof *ev);
	ev->type = BSF_EV_SAMPLE;
	ev->in_port = 1;
	ev->out_port = 2;
	ev->queue = 3;
	ev->multicast = 0;
	ev->frame_len = 1024;
	ev->t_ns = 1700000000123456789ull;
	ev->depth_bytes = 65536;
	ev->transit_ns = 534500;
	ev->hdr_len = 60;
	for (int i = 0; i < 60; i++)
		ev->hdr[i] = (uint8_t)(0x40 + i);
	if (tagged) {
		ev->hdr[12] = 0x81;
		ev->hdr[13] = 0x00;
		ev->hdr[14] = (uint8_t)((5 << 5) | (100 >> 8)); /* PCP 5, VID 100 */
		ev->hdr[15] = 100 & 0xff;
	} else {
		ev->hdr[12] = 0x08;
		ev->hdr[13] = 0x00;
	}
}

static void make_params(struct bsf_flowsample_params *p)
{
	memset(p, 0, sizeof *p);
	p->seq = 7;
	p->source_ifindex = 2;
	p->sampling_rate = 100;
	p->sample_pool = 4242;
	p->drops = 3;
	p->in_ifindex = 2;
	p->out_ifindex = 3;
	p->header_bytes = 128;
}

static uint32_t be32(const uint8_t *b)
{
	return ((uint32_t)b[0] << 24) | ((uint32_t)b[1] << 16) | ((uint32_t)b[2] << 8) | b[3];
}

/* Wrap one sample in a datagram and decode it. */
static void decode_one(const uint8_t *smp, size_t len, struct sflow_datagram *d)
{
	struct sflow_dgram_builder b;
	struct sflow_addr a = {SFLOW_ADDR_IP4, {127, 0, 0, 1}};
	struct sflow_decode_error err;
	const uint8_t *dg;
	size_t dlen;

	ck_assert_int_eq(sflow_builder_init(&b, &a, 0, SFLOW_DGRAM_MAX, 0), SFLOW_OK);
	ck_assert_int_eq(sflow_builder_add(&b, smp, len), SFLOW_OK);
	dg = sflow_builder_finish(&b, 1, 1000, &dlen);
	ck_assert_ptr_nonnull(dg);
	/* the decoder points into the input: keep a copy alive */
	static uint8_t keep[SFLOW_DGRAM_MAX];
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

START_TEST(test_layout_by_hand)
{
	struct bsf_event ev;
	struct bsf_flowsample_params p;
	uint8_t buf[BSF_FLOW_SCRATCH];
	size_t len = 0;

	make_event(&ev, 1);
	make_params(&p);
	ck_assert_int_eq(bsf_flowsample_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);
	/* 8 (tag, length) + 40 (ten fields) + 4 (record count)
	 * + 0:1 8 + 16 + 60   + 0:1001 8 + 16   + 0:1036 12 + 4413:1 12
	 * + 0:1040 12 + 0:1039 12 + 0:1043 16 = 224 */
	ck_assert_uint_eq(len, 224);
	ck_assert_uint_eq(len - 60, BSF_FLOW_OVERHEAD);
	ck_assert_uint_eq(be32(buf + 0), 3);		      /* 0:3 */
	ck_assert_uint_eq(be32(buf + 4), 216);		      /* body */
	ck_assert_uint_eq(be32(buf + 8), 7);		      /* sequence */
	ck_assert_uint_eq(be32(buf + 12), 0);		      /* source type ifIndex */
	ck_assert_uint_eq(be32(buf + 16), 2);		      /* source index */
	ck_assert_uint_eq(be32(buf + 20), 100);		      /* rate */
	ck_assert_uint_eq(be32(buf + 24), 4242);	      /* pool */
	ck_assert_uint_eq(be32(buf + 28), 3);		      /* drops */
	ck_assert_uint_eq(be32(buf + 32), 0);		      /* input format */
	ck_assert_uint_eq(be32(buf + 36), 2);		      /* input */
	ck_assert_uint_eq(be32(buf + 40), 0);		      /* output format */
	ck_assert_uint_eq(be32(buf + 44), 3);		      /* output */
	ck_assert_uint_eq(be32(buf + 48), 7);		      /* records */
	ck_assert_uint_eq(be32(buf + 52), 1);		      /* 0:1 */
	ck_assert_uint_eq(be32(buf + 56), 76);		      /* 16 + 60 */
	ck_assert_uint_eq(be32(buf + 60), 1);		      /* Ethernet */
	ck_assert_uint_eq(be32(buf + 64), 1024);	      /* frame length */
	ck_assert_uint_eq(be32(buf + 68), 4);		      /* stripped */
	ck_assert_uint_eq(be32(buf + 72), 60);		      /* header length */
	ck_assert_uint_eq(buf[76], 0x40);		      /* first header byte */
	ck_assert_uint_eq(be32(buf + 136), 1001);	      /* 0:1001 at 52 + 84 */
	ck_assert_uint_eq(be32(buf + 160), 1036);	      /* 0:1036 at 136 + 24 */
	ck_assert_uint_eq(be32(buf + 168), 3);		      /* queue */
	ck_assert_uint_eq(be32(buf + 172), 4413u << 12 | 1u); /* 4413:1 */
	ck_assert_uint_eq(be32(buf + 184), 1040);	      /* 0:1040 */
	ck_assert_uint_eq(be32(buf + 192), 65536);	      /* depth */
	ck_assert_uint_eq(be32(buf + 196), 1039);	      /* 0:1039 */
	ck_assert_uint_eq(be32(buf + 204), 534500);	      /* transit */
	ck_assert_uint_eq(be32(buf + 208), 1043);	      /* 0:1043 */
	ck_assert_uint_eq(be32(buf + 212), 8);		      /* hyper */
	/* 1700000000123456789 = 0x17979CFE_3D85CD15 */
	ck_assert_uint_eq(be32(buf + 216), 0x17979CFEu);
	ck_assert_uint_eq(be32(buf + 220), 0x3D85CD15u);
}
END_TEST

START_TEST(test_decoded_fields)
{
	struct bsf_event ev;
	struct bsf_flowsample_params p;
	uint8_t buf[BSF_FLOW_SCRATCH];
	size_t len = 0;
	struct sflow_datagram d;
	const struct sflow_sample *s;
	const struct sflow_record *r;

	make_event(&ev, 1);
	make_params(&p);
	ck_assert_int_eq(bsf_flowsample_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);
	decode_one(buf, len, &d);
	s = &d.samples[0];
	ck_assert_int_eq(s->kind, SFLOW_SMP_FLOW);
	ck_assert_uint_eq(s->tag, SFLOW_SAMPLE_FLOW_EXP);
	ck_assert_uint_eq(s->h.flow.sequence_number, 7);
	ck_assert_uint_eq(s->h.flow.sampling_rate, 100);
	ck_assert_uint_eq(s->h.flow.output_value, 3);
	ck_assert_uint_eq(s->nrecords, 7);
	r = find(s, SFLOW_FLOW_HEADER);
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->u.header.header_length, 60);
	ck_assert_int_eq(memcmp(r->u.header.header, ev.hdr, 60), 0);
	r = find(s, SFLOW_FLOW_EXT_SWITCH);
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->u.ext_switch.src_vlan, 100);
	ck_assert_uint_eq(r->u.ext_switch.src_priority, 5);
	ck_assert_uint_eq(r->u.ext_switch.dst_vlan, 100);
	ck_assert_uint_eq(r->u.ext_switch.dst_priority, 5);
	r = find(s, SFLOW_FLOW_EGRESS_QUEUE);
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->u.queue, 3);
	r = find(s, SFLOW_FLOW_BST_EGRESS_QUEUE);
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->u.queue, 3);
	r = find(s, SFLOW_FLOW_QUEUE_DEPTH);
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->u.depth, 65536);
	r = find(s, SFLOW_FLOW_TRANSIT);
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->u.delay_ns, 534500);
	r = find(s, SFLOW_FLOW_TIMESTAMP);
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->u.timestamp_ns, 1700000000123456789ull);
	sflow_datagram_free(&d);
}
END_TEST

START_TEST(test_saturation)
{
	struct bsf_event ev;
	struct bsf_flowsample_params p;
	uint8_t buf[BSF_FLOW_SCRATCH];
	size_t len = 0;
	struct sflow_datagram d;

	make_event(&ev, 0);
	make_params(&p);
	ev.transit_ns = 5000000000ull; /* 5 s > 2^32 - 1 ns */
	ev.depth_bytes = 1ull << 33;   /* 8 GiB */
	ck_assert_int_eq(bsf_flowsample_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);
	decode_one(buf, len, &d);
	ck_assert_uint_eq(find(&d.samples[0], SFLOW_FLOW_TRANSIT)->u.delay_ns, 0xFFFFFFFFu);
	ck_assert_uint_eq(find(&d.samples[0], SFLOW_FLOW_QUEUE_DEPTH)->u.depth, 0xFFFFFFFFu);
	/* untagged: VLAN 0, priority 0 */
	ck_assert_uint_eq(find(&d.samples[0], SFLOW_FLOW_EXT_SWITCH)->u.ext_switch.src_vlan, 0);
	ck_assert_uint_eq(find(&d.samples[0], SFLOW_FLOW_EXT_SWITCH)->u.ext_switch.src_priority, 0);
	sflow_datagram_free(&d);
	/* exactly 2^32 - 1 passes unchanged */
	ev.transit_ns = 0xFFFFFFFFull;
	ev.depth_bytes = 0xFFFFFFFEull;
	ck_assert_int_eq(bsf_flowsample_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);
	decode_one(buf, len, &d);
	ck_assert_uint_eq(find(&d.samples[0], SFLOW_FLOW_TRANSIT)->u.delay_ns, 0xFFFFFFFFu);
	ck_assert_uint_eq(find(&d.samples[0], SFLOW_FLOW_QUEUE_DEPTH)->u.depth, 0xFFFFFFFEu);
	sflow_datagram_free(&d);
}
END_TEST

START_TEST(test_multicast)
{
	struct bsf_event ev;
	struct bsf_flowsample_params p;
	uint8_t buf[BSF_FLOW_SCRATCH];
	size_t len = 0;
	struct sflow_datagram d;
	const struct sflow_sample *s;

	make_event(&ev, 0);
	make_params(&p);
	ev.multicast = 1;
	ck_assert_int_eq(bsf_flowsample_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);
	/* no 0:1036, 4413:1 and 0:1040 (its depth needs 0:1036): 224 - 36 */
	ck_assert_uint_eq(len, 188);
	decode_one(buf, len, &d);
	s = &d.samples[0];
	ck_assert_uint_eq(s->h.flow.output_format, 2);
	ck_assert_uint_eq(s->h.flow.output_value, 0); /* number of outputs unknown */
	ck_assert_uint_eq(s->nrecords, 4);
	ck_assert_ptr_null(find(s, SFLOW_FLOW_EGRESS_QUEUE));
	ck_assert_ptr_null(find(s, SFLOW_FLOW_QUEUE_DEPTH));
	ck_assert_ptr_nonnull(find(s, SFLOW_FLOW_TRANSIT));
	sflow_datagram_free(&d);
	/* known: 3 outputs */
	ev.multicast = 3;
	ck_assert_int_eq(bsf_flowsample_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);
	decode_one(buf, len, &d);
	ck_assert_uint_eq(d.samples[0].h.flow.output_format, 2);
	ck_assert_uint_eq(d.samples[0].h.flow.output_value, 3);
	sflow_datagram_free(&d);
	/* unicast with its output port unknown: no queue, no depth */
	ev.multicast = 0;
	p.out_ifindex = 0;
	ck_assert_int_eq(bsf_flowsample_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);
	ck_assert_uint_eq(len, 188);
	decode_one(buf, len, &d);
	ck_assert_ptr_null(find(&d.samples[0], SFLOW_FLOW_QUEUE_DEPTH));
	sflow_datagram_free(&d);
}
END_TEST

/* A packet dropped after it was sampled: output format 1 (discarded)
 * with the drop's reason, no transit; the queue records when known. */
START_TEST(test_dropped)
{
	struct bsf_event ev;
	struct bsf_flowsample_params p;
	uint8_t buf[BSF_FLOW_SCRATCH];
	size_t len = 0;
	struct sflow_datagram d;
	const struct sflow_sample *s;

	make_event(&ev, 0);
	make_params(&p);
	ev.reason = 259; /* no_buffer_space */
	ev.transit_ns = 0;
	ck_assert_int_eq(bsf_flowsample_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);
	/* 224 less 0:1039 (12) */
	ck_assert_uint_eq(len, 212);
	ck_assert_uint_eq(be32(buf + 40), 1);	/* output format: discarded */
	ck_assert_uint_eq(be32(buf + 44), 259); /* the reason */
	decode_one(buf, len, &d);
	s = &d.samples[0];
	ck_assert_uint_eq(s->h.flow.output_format, 1);
	ck_assert_uint_eq(s->h.flow.output_value, 259);
	ck_assert_ptr_null(find(s, SFLOW_FLOW_TRANSIT));
	ck_assert_ptr_nonnull(find(s, SFLOW_FLOW_EGRESS_QUEUE));
	ck_assert_ptr_nonnull(find(s, SFLOW_FLOW_QUEUE_DEPTH));
	sflow_datagram_free(&d);
	/* a forwarding drop (ACL) of a multicast packet: no queue */
	ev.reason = 258;
	ev.multicast = 1;
	ev.queue = UINT32_MAX;
	ck_assert_int_eq(bsf_flowsample_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);
	decode_one(buf, len, &d);
	s = &d.samples[0];
	ck_assert_uint_eq(s->h.flow.output_format, 1);
	ck_assert_uint_eq(s->h.flow.output_value, 258);
	ck_assert_uint_eq(s->nrecords, 3); /* 0:1, 0:1001, 0:1043 */
	sflow_datagram_free(&d);
}
END_TEST

START_TEST(test_header_limits)
{
	struct bsf_event ev;
	struct bsf_flowsample_params p;
	uint8_t buf[BSF_FLOW_SCRATCH];
	size_t len = 0;
	struct sflow_datagram d;
	const struct sflow_record *r;

	make_event(&ev, 0);
	make_params(&p);
	/* header_bytes 32 < 60 available */
	p.header_bytes = 32;
	ck_assert_int_eq(bsf_flowsample_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);
	ck_assert_uint_eq(len, 224 - 28);
	decode_one(buf, len, &d);
	r = find(&d.samples[0], SFLOW_FLOW_HEADER);
	ck_assert_uint_eq(r->u.header.header_length, 32);
	ck_assert_uint_eq(r->u.header.frame_length, 1024);
	ck_assert_uint_eq(r->u.header.stripped, 4);
	sflow_datagram_free(&d);
	/* a 64-byte frame: never into its FCS, 60 bytes at most */
	p.header_bytes = 128;
	ev.frame_len = 64;
	ev.hdr_len = 64;
	ck_assert_int_eq(bsf_flowsample_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);
	decode_one(buf, len, &d);
	r = find(&d.samples[0], SFLOW_FLOW_HEADER);
	ck_assert_uint_eq(r->u.header.header_length, 60);
	sflow_datagram_free(&d);
	/* odd length 41: padded to 44 */
	ev.frame_len = 1500;
	ev.hdr_len = 41;
	ck_assert_int_eq(bsf_flowsample_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_OK);
	ck_assert_uint_eq(len, 224 - 60 + 44);
	/* bad arguments */
	p.header_bytes = 13;
	ck_assert_int_eq(bsf_flowsample_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_ERR_INVALID);
	p.header_bytes = 129;
	ck_assert_int_eq(bsf_flowsample_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_ERR_INVALID);
	p.header_bytes = 128;
	ev.type = BSF_EV_DROP;
	ck_assert_int_eq(bsf_flowsample_encode(&p, &ev, buf, sizeof buf, &len), SFLOW_ERR_INVALID);
	ev.type = BSF_EV_SAMPLE;
	ck_assert_int_eq(bsf_flowsample_encode(&p, &ev, buf, 100, &len), SFLOW_ERR_FULL);
}
END_TEST

START_TEST(test_vlan)
{
	uint8_t h[18] = {0};
	uint32_t vid = 99, pcp = 99;

	h[12] = 0x88;
	h[13] = 0xa8;
	h[14] = 0xef; /* PCP 7, DEI 0, VID 0xfff */
	h[15] = 0xff;
	ck_assert_int_eq(bsf_flowsample_vlan(h, 18, &vid, &pcp), 1);
	ck_assert_uint_eq(vid, 4095);
	ck_assert_uint_eq(pcp, 7);
	ck_assert_int_eq(bsf_flowsample_vlan(h, 15, &vid, &pcp), 0);
	h[12] = 0x86;
	h[13] = 0xdd;
	ck_assert_int_eq(bsf_flowsample_vlan(h, 18, &vid, &pcp), 0);
}
END_TEST

START_TEST(test_state_sequences)
{
	struct bsf_flows f;
	struct bsf_port_desc pd[3];
	struct bsf_device_desc dev;
	struct bsf_event ev;
	uint8_t buf[BSF_FLOW_SCRATCH];
	size_t len;
	struct sflow_datagram d;

	memset(pd, 0, sizeof pd);
	memset(&dev, 0, sizeof dev);
	for (int i = 0; i < 3; i++) {
		pd[i].ifindex = (uint32_t)(10 + i);
		pd[i].sampling_rate = 100;
	}
	dev.nports = 3;
	dev.ports = pd;
	bsf_flows_init(&f);
	ck_assert_uint_eq(f.header_bytes, 128);
	ck_assert_int_eq(bsf_flows_set_device(&f, &dev), 0);
	bsf_flows_set_rate(&f, 2, 500);
	make_event(&ev, 0);
	/* three samples from port 1, two from port 2 */
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(
		    bsf_flows_build(&f, &ev, 100u * (unsigned)(i + 1), buf, sizeof buf, &len),
		    SFLOW_OK);
	ev.in_port = 2;
	ev.out_port = 0;
	bsf_flows_lost(&f, 2, 4);
	ck_assert_int_eq(bsf_flows_build(&f, &ev, 7, buf, sizeof buf, &len), SFLOW_OK);
	ck_assert_int_eq(bsf_flows_build(&f, &ev, 8, buf, sizeof buf, &len), SFLOW_OK);
	decode_one(buf, len, &d);
	ck_assert_uint_eq(d.samples[0].h.flow.sequence_number, 2);
	ck_assert_uint_eq(d.samples[0].h.flow.source_id_index, 12);
	ck_assert_uint_eq(d.samples[0].h.flow.input_value, 12);
	ck_assert_uint_eq(d.samples[0].h.flow.output_value, 10);
	ck_assert_uint_eq(d.samples[0].h.flow.sampling_rate, 500);
	ck_assert_uint_eq(d.samples[0].h.flow.sample_pool, 8);
	ck_assert_uint_eq(d.samples[0].h.flow.drops, 4);
	sflow_datagram_free(&d);
	ck_assert_uint_eq(f.ports[1].next_seq, 4);
	ck_assert_uint_eq(f.ports[0].next_seq, 1);
	/* unknown input port */
	ev.in_port = UINT32_MAX;
	ck_assert_int_eq(bsf_flows_build(&f, &ev, 8, buf, sizeof buf, &len), SFLOW_ERR_INVALID);
	ck_assert_uint_eq(f.no_source, 1);
	/* a new description keeps sequence numbers by ifIndex: port 12 moves
	 * to index 0, 10 goes away, 20 is new */
	pd[0].ifindex = 12;
	pd[1].ifindex = 11;
	pd[2].ifindex = 20;
	ck_assert_int_eq(bsf_flows_set_device(&f, &dev), 0);
	ck_assert_uint_eq(f.ports[0].next_seq, 3);
	ck_assert_uint_eq(f.ports[0].drops, 4);
	ck_assert_uint_eq(f.ports[1].next_seq, 4);
	ck_assert_uint_eq(f.ports[2].next_seq, 1);
	ck_assert_uint_eq(f.ports[0].rate, 100); /* rates come from the description */
	bsf_flows_fini(&f);
}
END_TEST

/* A sample too big for the room a datagram leaves: fewer header bytes
 * first, then the 0:1 record alone; the same sequence numbers. */
START_TEST(test_state_fit)
{
	struct bsf_flows f;
	struct bsf_port_desc pd[3];
	struct bsf_device_desc dev;
	struct bsf_event ev;
	uint8_t buf[BSF_FLOW_SCRATCH];
	size_t len;
	struct sflow_datagram d;
	const struct sflow_record *r;

	memset(pd, 0, sizeof pd);
	memset(&dev, 0, sizeof dev);
	for (int i = 0; i < 3; i++)
		pd[i].ifindex = (uint32_t)(10 + i);
	dev.nports = 3;
	dev.ports = pd;
	bsf_flows_init(&f);
	ck_assert_int_eq(bsf_flows_set_device(&f, &dev), 0);
	make_event(&ev, 0);
	/* room 200: 164 bytes of records leave 36 of the 60 header bytes */
	ck_assert_int_eq(bsf_flows_build(&f, &ev, 1, buf, 200, &len), SFLOW_OK);
	ck_assert_uint_eq(len, 200);
	ck_assert_uint_eq(f.cut, 1);
	decode_one(buf, len, &d);
	ck_assert_uint_eq(d.samples[0].h.flow.sequence_number, 1);
	ck_assert_uint_eq(d.samples[0].nrecords, 7);
	r = find(&d.samples[0], SFLOW_FLOW_HEADER);
	ck_assert_uint_eq(r->u.header.header_length, 36);
	sflow_datagram_free(&d);
	/* room 172 (datagram_bytes 200, IPv4 agent): not even 14 header bytes
	 * fit beside the records, so 0:1 alone: 76 + 96 header bytes, of
	 * which the event has 60 */
	ck_assert_int_eq(bsf_flows_build(&f, &ev, 2, buf, 172, &len), SFLOW_OK);
	ck_assert_uint_eq(len, 76 + 60);
	ck_assert_uint_eq(f.cut, 2);
	decode_one(buf, len, &d);
	ck_assert_uint_eq(d.samples[0].h.flow.sequence_number, 2);
	ck_assert_uint_eq(d.samples[0].nrecords, 1);
	r = find(&d.samples[0], SFLOW_FLOW_HEADER);
	ck_assert_uint_eq(r->u.header.header_length, 60);
	sflow_datagram_free(&d);
	/* room 88: 12 header bytes would be below the minimum: nothing */
	ck_assert_int_eq(bsf_flows_build(&f, &ev, 3, buf, 88, &len), SFLOW_ERR_FULL);
	ck_assert_uint_eq(f.ports[1].next_seq, 3);
	/* a sample that fits is not cut */
	ck_assert_int_eq(bsf_flows_build(&f, &ev, 3, buf, sizeof buf, &len), SFLOW_OK);
	ck_assert_uint_eq(len, 224);
	ck_assert_uint_eq(f.cut, 2);
	bsf_flows_fini(&f);
}
END_TEST

/* drops = the backend's count (sample_drops) + the agent's own losses;
 * a new backend's count starts again from 0, the old one's is kept. */
static uint32_t drops_of(struct bsf_flows *f, const struct bsf_event *ev)
{
	uint8_t buf[BSF_FLOW_SCRATCH];
	size_t len;
	struct sflow_datagram d;
	uint32_t r;

	ck_assert_int_eq(bsf_flows_build(f, ev, 1, buf, sizeof buf, &len), SFLOW_OK);
	decode_one(buf, len, &d);
	r = d.samples[0].h.flow.drops;
	sflow_datagram_free(&d);
	return r;
}

START_TEST(test_state_backend_drops)
{
	struct bsf_flows f;
	struct bsf_port_desc pd[2];
	struct bsf_device_desc dev;
	struct bsf_event ev;

	memset(pd, 0, sizeof pd);
	memset(&dev, 0, sizeof dev);
	pd[0].ifindex = 5;
	pd[1].ifindex = 6;
	dev.nports = 2;
	dev.ports = pd;
	bsf_flows_init(&f);
	ck_assert_int_eq(bsf_flows_set_device(&f, &dev), 0);
	make_event(&ev, 0);
	ev.in_port = 1;
	ck_assert_uint_eq(drops_of(&f, &ev), 0);
	bsf_flows_backend_lost(&f, 1, 10); /* cumulative: set, not added */
	bsf_flows_backend_lost(&f, 1, 12);
	bsf_flows_backend_lost(&f, 0, 100);  /* another port's count */
	bsf_flows_backend_lost(&f, 2, 1000); /* no such port: ignored */
	ck_assert_uint_eq(drops_of(&f, &ev), 12);
	bsf_flows_lost(&f, 1, 3); /* the agent's own */
	ck_assert_uint_eq(drops_of(&f, &ev), 15);
	/* the backend is replaced: its 20 stay, the new one starts at 0 */
	bsf_flows_backend_lost(&f, 1, 20);
	ck_assert_int_eq(bsf_flows_set_device(&f, &dev), 0);
	ck_assert_uint_eq(f.ports[1].drops, 23);
	ck_assert_uint_eq(f.ports[1].backend_drops, 0);
	ck_assert_uint_eq(drops_of(&f, &ev), 23);
	bsf_flows_backend_lost(&f, 1, 2);
	ck_assert_uint_eq(drops_of(&f, &ev), 25);
	ev.in_port = 0;
	ck_assert_uint_eq(drops_of(&f, &ev), 100);
	bsf_flows_fini(&f);
}
END_TEST

static Suite *flowsample_suite(void)
{
	Suite *s = suite_create("flowsample");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_layout_by_hand);
	tcase_add_test(tc, test_decoded_fields);
	tcase_add_test(tc, test_saturation);
	tcase_add_test(tc, test_multicast);
	tcase_add_test(tc, test_header_limits);
	tcase_add_test(tc, test_vlan);
	tcase_add_test(tc, test_state_sequences);
	tcase_add_test(tc, test_state_backend_drops);
	tcase_add_test(tc, test_state_fit);
	tcase_add_test(tc, test_dropped);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(flowsample_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
