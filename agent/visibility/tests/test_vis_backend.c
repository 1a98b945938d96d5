/*
 * test_vis_backend.c - converting backend events (struct bsf_event) into
 * visibility packet events (vis_backend.c): each event type, with and
 * without the queue stream flag, the queue numbering (multicast queue q
 * is BSF_MAX_QUEUES + q), tail ids, delays, multicast copy ids (the
 * backend's, or a header hash), the flow fields of the header bytes; and
 * a converted stream driving queue forensics in the monitors, which a
 * stream without the flag (a sampled subset) must not.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <string.h>

#include "agent/visibility/vis_backend.h"
#include "agent/visibility/vis_monitor.h"

/* An IPv4 UDP frame's first 42 bytes: 10.0.0.1:1000 -> 10.0.0.2:2000
 * (protocol 17 at offset 23, addresses at 26 and 30, ports at 34, 36). */
static const uint8_t udp_hdr[42] = {
    0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x08, 0x00,
    0x45, 0x00, 0x00, 0x1c, 0x00, 0x00, 0x00, 0x00, 0x40, 0x11, 0x00, 0x00, 10,	  0,
    0,	  1,	10,   0,    0,	  2,	0x03, 0xe8, 0x07, 0xd0, 0x00, 0x08, 0x00, 0x00};

static void bsf(struct bsf_event *e, uint32_t type, uint32_t flags)
{
	memset(e, 0, sizeof *e);
	e->type = type;
	e->flags = flags;
	e->t_ns = 1000;
	e->in_port = 2;
	e->out_port = 1;
	e->queue = 3;
	e->frame_len = 1004;
	e->depth_bytes = 5000;
	e->tc = 3;
	e->hdr_len = sizeof udp_hdr;
	memcpy(e->hdr, udp_hdr, sizeof udp_hdr);
}

START_TEST(enqueue_dequeue)
{
	struct bsf_event e;
	struct vis_pkt_event pe;

	bsf(&e, BSF_EV_ENQUEUE, BSF_EVF_QUEUE_STREAM);
	e.pkt_id = 7;
	ck_assert_int_eq(vis_pkt_from_bsf(&e, &pe), 0);
	ck_assert_uint_eq(pe.type, VIS_PKT_ENQUEUE);
	ck_assert_uint_eq(pe.flags, 0);
	ck_assert_uint_eq(pe.t_ns, 1000);
	ck_assert_uint_eq(pe.port, 1);
	ck_assert_uint_eq(pe.queue, 3);
	ck_assert_uint_eq(pe.in_port, 2);
	ck_assert_uint_eq(pe.pkt_id, 7);
	ck_assert_uint_eq(pe.tail_id, VIS_ID_NONE);
	ck_assert_uint_eq(pe.depth_bytes, 5000);
	ck_assert_uint_eq(pe.delay_ns, UINT64_MAX);
	ck_assert_uint_eq(pe.tc, 3);
	ck_assert_uint_eq(pe.frame_len, 1004);
	ck_assert_uint_eq(pe.mc_id, 0);
	ck_assert_ptr_eq(pe.hdr, e.hdr);
	ck_assert_uint_eq(pe.hdr_len, 42);
	/* the flow from the header bytes */
	ck_assert_uint_eq(pe.flow.af, 4);
	ck_assert_uint_eq(pe.flow.proto, 17);
	ck_assert_uint_eq(pe.flow.sport, 1000);
	ck_assert_uint_eq(pe.flow.dport, 2000);
	ck_assert_uint_eq(pe.flow.src[0], 10);
	ck_assert_uint_eq(pe.flow.dst[3], 2);
	/* hashed when needed: the hash of this flow */
	ck_assert_uint_eq(pe.flow_hash, 0);
	ck_assert_uint_eq(vis_pkt_flow_hash(&pe), vis_flow_hash(&pe.flow));
	ck_assert_uint_ne(vis_pkt_flow_hash(&pe), 0);

	bsf(&e, BSF_EV_DEQUEUE, BSF_EVF_QUEUE_STREAM);
	e.pkt_id = 7;
	e.transit_ns = 12345;
	e.depth_bytes = 3996;
	ck_assert_int_eq(vis_pkt_from_bsf(&e, &pe), 0);
	ck_assert_uint_eq(pe.type, VIS_PKT_DEQUEUE);
	ck_assert_uint_eq(pe.flags, 0);
	ck_assert_uint_eq(pe.pkt_id, 7);
	ck_assert_uint_eq(pe.delay_ns, 12345);
	ck_assert_uint_eq(pe.depth_bytes, 3996);
}
END_TEST

START_TEST(drops)
{
	struct bsf_event e;
	struct vis_pkt_event pe;

	/* a streamed queue's drop carries its tail */
	bsf(&e, BSF_EV_DROP, BSF_EVF_QUEUE_STREAM);
	e.reason = 259;
	e.stage = BSF_STAGE_EGRESS_ADMISSION;
	e.tail_id = 41;
	ck_assert_int_eq(vis_pkt_from_bsf(&e, &pe), 0);
	ck_assert_uint_eq(pe.type, VIS_PKT_DROP);
	ck_assert_uint_eq(pe.flags, 0);
	ck_assert_uint_eq(pe.tail_id, 41);
	ck_assert_uint_eq(pe.pkt_id, VIS_ID_NONE);
	ck_assert_uint_eq(pe.reason, 259);
	ck_assert_uint_eq(pe.stage, BSF_STAGE_EGRESS_ADMISSION);
	ck_assert_uint_eq(pe.delay_ns, UINT64_MAX);
	/* tail 0 (nothing ever admitted) and unknown: the monitor's own view */
	e.tail_id = 0;
	ck_assert_int_eq(vis_pkt_from_bsf(&e, &pe), 0);
	ck_assert_uint_eq(pe.tail_id, VIS_ID_NONE);
	e.tail_id = BSF_UNKNOWN;
	ck_assert_int_eq(vis_pkt_from_bsf(&e, &pe), 0);
	ck_assert_uint_eq(pe.tail_id, VIS_ID_NONE);
	ck_assert_uint_eq(pe.flags, 0);
	/* not streamed: partial, no ids even if the backend sent a tail */
	bsf(&e, BSF_EV_DROP, 0);
	e.tail_id = 41;
	ck_assert_int_eq(vis_pkt_from_bsf(&e, &pe), 0);
	ck_assert_uint_eq(pe.flags, VIS_PKTF_PARTIAL);
	ck_assert_uint_eq(pe.tail_id, VIS_ID_NONE);
	ck_assert_uint_eq(pe.pkt_id, VIS_ID_NONE);
	/* a drop with no queue is nobody's stream */
	bsf(&e, BSF_EV_DROP, BSF_EVF_QUEUE_STREAM);
	e.queue = UINT32_MAX;
	e.out_port = UINT32_MAX;
	e.tail_id = BSF_UNKNOWN;
	ck_assert_int_eq(vis_pkt_from_bsf(&e, &pe), 0);
	ck_assert_uint_eq(pe.flags, VIS_PKTF_PARTIAL);
	ck_assert_uint_eq(pe.port, VIS_NONE);
	ck_assert_uint_eq(pe.queue, VIS_NONE);
}
END_TEST

START_TEST(samples)
{
	struct bsf_event e;
	struct vis_pkt_event pe;

	/* always a partial departure, whatever the flag says */
	bsf(&e, BSF_EV_SAMPLE, BSF_EVF_QUEUE_STREAM);
	e.transit_ns = 777;
	e.pkt_id = 5;
	ck_assert_int_eq(vis_pkt_from_bsf(&e, &pe), 0);
	ck_assert_uint_eq(pe.type, VIS_PKT_DEQUEUE);
	ck_assert_uint_eq(pe.flags, VIS_PKTF_PARTIAL);
	ck_assert_uint_eq(pe.pkt_id, VIS_ID_NONE);
	ck_assert_uint_eq(pe.delay_ns, 777);
	ck_assert_uint_eq(pe.depth_bytes, 5000);
	/* unknown types are refused */
	bsf(&e, 5, 0);
	ck_assert_int_eq(vis_pkt_from_bsf(&e, &pe), -1);
	bsf(&e, 0, 0);
	ck_assert_int_eq(vis_pkt_from_bsf(&e, &pe), -1);
}
END_TEST

START_TEST(queue_numbers)
{
	struct bsf_event e;
	struct vis_pkt_event pe;

	ck_assert_uint_eq(VIS_BSF_NQUEUES, 32);
	ck_assert_uint_eq(vis_bsf_queue(0, 0), 0);
	ck_assert_uint_eq(vis_bsf_queue(15, 0), 15);
	ck_assert_uint_eq(vis_bsf_queue(0, 1), 16);
	ck_assert_uint_eq(vis_bsf_queue(15, 1), 31);
	ck_assert_uint_eq(vis_bsf_queue(16, 0), VIS_NONE);
	ck_assert_uint_eq(vis_bsf_queue(UINT32_MAX, 1), VIS_NONE);
	bsf(&e, BSF_EV_ENQUEUE, BSF_EVF_QUEUE_STREAM);
	e.multicast = 1;
	e.queue = 2;
	e.copy_id = 99;
	ck_assert_int_eq(vis_pkt_from_bsf(&e, &pe), 0);
	ck_assert_uint_eq(pe.queue, 18);
	ck_assert_uint_eq(pe.mc_id, 99);
}
END_TEST

START_TEST(copy_ids)
{
	struct bsf_event a, b;
	struct vis_pkt_event pa, pb;

	/* the backend's id, unicast or not */
	bsf(&a, BSF_EV_DROP, 0);
	a.copy_id = 12;
	ck_assert_int_eq(vis_pkt_from_bsf(&a, &pa), 0);
	ck_assert_uint_eq(pa.mc_id, 12);
	/* none: multicast copies with equal bytes and length share a hash,
	 * a different packet has another; unicast has none */
	bsf(&a, BSF_EV_DROP, 0);
	a.multicast = 1;
	b = a;
	b.out_port = 0;
	b.queue = 1;
	ck_assert_int_eq(vis_pkt_from_bsf(&a, &pa), 0);
	ck_assert_int_eq(vis_pkt_from_bsf(&b, &pb), 0);
	ck_assert_uint_ne(pa.mc_id, 0);
	ck_assert_uint_eq(pa.mc_id, pb.mc_id);
	b.hdr[37] ^= 1; /* another destination port */
	ck_assert_int_eq(vis_pkt_from_bsf(&b, &pb), 0);
	ck_assert_uint_ne(pb.mc_id, 0);
	ck_assert_uint_ne(pa.mc_id, pb.mc_id);
	b = a;
	b.frame_len = 1005;
	ck_assert_int_eq(vis_pkt_from_bsf(&b, &pb), 0);
	ck_assert_uint_ne(pa.mc_id, pb.mc_id);
	a.multicast = 0;
	ck_assert_int_eq(vis_pkt_from_bsf(&a, &pa), 0);
	ck_assert_uint_eq(pa.mc_id, 0);
}
END_TEST

struct sink {
	unsigned n, forensics, last;
	uint64_t drop_id;
};

static void collect(void *arg, const struct vis_event *ev)
{
	struct sink *k = arg;

	k->n++;
	if (ev->type == VIS_EV_DROP)
		k->drop_id = ev->event_id;
	if (ev->type == VIS_EV_FORENSICS) {
		ck_assert_uint_eq(ev->event_id, k->drop_id);
		ck_assert_uint_eq(ev->queue, 18);
		ck_assert_uint_eq(ev->pkt_id, k->forensics + 1);
		k->forensics++;
		k->last += (ev->flags & VIS_EVF_LAST) != 0;
	}
}

/* Three packets in multicast queue 2 of port 1, a drop, three departures:
 * converted from a stream, three tagged departures (the last one marked);
 * the same events without the flag, only the drop. */
static void forensics_run(uint32_t flags, struct sink *k)
{
	struct vis_monitors_conf c;
	struct vis_monitors *m;
	struct bsf_event e;
	struct vis_pkt_event pe;
	char err[128];

	vis_monitors_conf_init(&c, 2, VIS_BSF_NQUEUES);
	c.forensics = 1;
	m = vis_monitors_new(&c, err, sizeof err);
	ck_assert_msg(m != NULL, "%s", err);
	memset(k, 0, sizeof *k);
	for (uint64_t id = 1; id <= 3; id++) {
		bsf(&e, BSF_EV_ENQUEUE, flags);
		e.multicast = 1;
		e.queue = 2;
		e.pkt_id = id;
		e.depth_bytes = id * 1004;
		e.t_ns = id;
		ck_assert_int_eq(vis_pkt_from_bsf(&e, &pe), 0);
		vis_monitors_feed(m, &pe, collect, k);
	}
	bsf(&e, BSF_EV_DROP, flags);
	e.multicast = 1;
	e.queue = 2;
	e.reason = 259;
	e.tail_id = 3;
	e.depth_bytes = 3 * 1004;
	e.t_ns = 10;
	ck_assert_int_eq(vis_pkt_from_bsf(&e, &pe), 0);
	vis_monitors_feed(m, &pe, collect, k);
	for (uint64_t id = 1; id <= 3; id++) {
		bsf(&e, BSF_EV_DEQUEUE, flags);
		e.multicast = 1;
		e.queue = 2;
		e.pkt_id = id;
		e.depth_bytes = (3 - id) * 1004;
		e.transit_ns = 100;
		e.t_ns = 20 + id;
		ck_assert_int_eq(vis_pkt_from_bsf(&e, &pe), 0);
		vis_monitors_feed(m, &pe, collect, k);
	}
	vis_monitors_free(m);
}

START_TEST(drives_forensics)
{
	struct sink k;

	forensics_run(BSF_EVF_QUEUE_STREAM, &k);
	ck_assert_uint_eq(k.forensics, 3);
	ck_assert_uint_eq(k.last, 1);
	ck_assert_uint_eq(k.n, 4); /* the drop and three departures */
	forensics_run(0, &k);
	ck_assert_uint_eq(k.forensics, 0);
	ck_assert_uint_eq(k.n, 1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("vis_backend");
	TCase *tc = tcase_create("convert");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, enqueue_dequeue);
	tcase_add_test(tc, drops);
	tcase_add_test(tc, samples);
	tcase_add_test(tc, queue_numbers);
	tcase_add_test(tc, copy_ids);
	tcase_add_test(tc, drives_forensics);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? 0 : 1;
}
