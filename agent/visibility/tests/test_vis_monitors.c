/*
 * test_vis_monitors.c - the visibility event monitors: queue forensics (a
 * queue of 5 and a drop give exactly 5 tagged departures with the drop's
 * event id, then none), congestion start / end with hysteresis per queue
 * and per port, the two-level high-delay profile (-1 disables a level),
 * drop visibility per cause, pre-event eligibility, what a gap in the
 * event stream makes the monitors forget, and which queues they watch.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <string.h>

#include "agent/visibility/vis_monitor.h"

#define MAXEV 64

struct sink {
	unsigned n;
	struct vis_event ev[MAXEV];
};

static void collect(void *arg, const struct vis_event *ev)
{
	struct sink *k = arg;

	ck_assert_uint_lt(k->n, MAXEV);
	k->ev[k->n++] = *ev;
}

static unsigned count_type(const struct sink *k, uint32_t type)
{
	unsigned n = 0;

	for (unsigned i = 0; i < k->n; i++)
		n += k->ev[i].type == type;
	return n;
}

static struct vis_monitors *mk(uint32_t nports, uint32_t nqueues, int forensics)
{
	struct vis_monitors_conf c;
	struct vis_monitors *m;
	char err[128];

	vis_monitors_conf_init(&c, nports, nqueues);
	c.forensics = forensics;
	m = vis_monitors_new(&c, err, sizeof err);
	ck_assert_msg(m != NULL, "%s", err);
	return m;
}

static void pkt(struct vis_pkt_event *pe, uint32_t type, uint64_t t, uint32_t port, uint32_t queue,
		uint64_t id, uint64_t depth)
{
	memset(pe, 0, sizeof(*pe));
	pe->type = type;
	pe->t_ns = t;
	pe->port = port;
	pe->queue = queue;
	pe->in_port = VIS_NONE;
	pe->pkt_id = id;
	pe->tail_id = VIS_ID_NONE;
	pe->depth_bytes = depth;
	pe->delay_ns = UINT64_MAX;
	pe->reason = 259;
}

static void feed(struct vis_monitors *m, struct sink *k, uint32_t type, uint64_t t, uint32_t port,
		 uint32_t queue, uint64_t id, uint64_t depth)
{
	struct vis_pkt_event pe;

	pkt(&pe, type, t, port, queue, id, depth);
	vis_monitors_feed(m, &pe, collect, k);
}

START_TEST(forensics_five)
{
	struct vis_monitors *m = mk(2, 4, 1);
	struct sink k = {0};
	uint64_t drop_id;
	unsigned tagged = 0;

	for (uint64_t id = 1; id <= 5; id++)
		feed(m, &k, VIS_PKT_ENQUEUE, id, 1, 3, id, id * 100);
	feed(m, &k, VIS_PKT_DROP, 10, 1, 3, 6, 500);
	ck_assert_uint_eq(k.n, 1);
	ck_assert_uint_eq(k.ev[0].type, VIS_EV_DROP);
	ck_assert_uint_eq(k.ev[0].reason, 259);
	drop_id = k.ev[0].event_id;
	ck_assert_uint_ne(drop_id, 0);
	/* two more arrive after the drop; then everything departs */
	feed(m, &k, VIS_PKT_ENQUEUE, 11, 1, 3, 7, 600);
	feed(m, &k, VIS_PKT_ENQUEUE, 12, 1, 3, 8, 700);
	for (uint64_t id = 1; id <= 8; id++)
		feed(m, &k, VIS_PKT_DEQUEUE, 20 + id, 1, 3, id, (8 - id) * 100);
	for (unsigned i = 1; i < k.n; i++) {
		ck_assert_uint_eq(k.ev[i].type, VIS_EV_FORENSICS);
		ck_assert_uint_eq(k.ev[i].event_id, drop_id);
		ck_assert_uint_ne(k.ev[i].own_id, drop_id);
		ck_assert_uint_eq(k.ev[i].pkt_id, i);
		ck_assert_uint_eq(k.ev[i].port, 1);
		ck_assert_uint_eq(k.ev[i].queue, 3);
		ck_assert_uint_eq(k.ev[i].reason, 259);
		ck_assert_uint_eq(!!(k.ev[i].flags & VIS_EVF_LAST), i == 5);
		tagged++;
	}
	ck_assert_uint_eq(tagged, 5);
	/* a drop on the now empty queue snapshots nothing */
	k.n = 0;
	feed(m, &k, VIS_PKT_DROP, 40, 1, 3, 9, 0);
	feed(m, &k, VIS_PKT_ENQUEUE, 41, 1, 3, 10, 100);
	feed(m, &k, VIS_PKT_DEQUEUE, 42, 1, 3, 10, 0);
	ck_assert_uint_eq(k.n, 1);
	ck_assert_uint_eq(count_type(&k, VIS_EV_FORENSICS), 0);
	/* forensics off on a queue: drops still reported, nothing tagged */
	vis_monitors_set_forensics(m, 0, 0, 0);
	k.n = 0;
	feed(m, &k, VIS_PKT_ENQUEUE, 50, 0, 0, 1, 100);
	feed(m, &k, VIS_PKT_DROP, 51, 0, 0, 2, 100);
	feed(m, &k, VIS_PKT_DEQUEUE, 52, 0, 0, 1, 0);
	ck_assert_uint_eq(k.n, 1);
	ck_assert_uint_eq(k.ev[0].type, VIS_EV_DROP);
	vis_monitors_free(m);
}
END_TEST

START_TEST(forensics_latest_drop_and_tail_id)
{
	struct vis_monitors *m = mk(1, 2, 1);
	struct sink k = {0};
	struct vis_pkt_event pe;
	uint64_t second;

	for (uint64_t id = 1; id <= 3; id++)
		feed(m, &k, VIS_PKT_ENQUEUE, id, 0, 0, id, 100);
	feed(m, &k, VIS_PKT_DROP, 4, 0, 0, 0, 300);
	feed(m, &k, VIS_PKT_ENQUEUE, 5, 0, 0, 4, 400);
	feed(m, &k, VIS_PKT_DROP, 6, 0, 0, 0, 400);
	ck_assert_uint_eq(k.n, 2);
	second = k.ev[1].event_id;
	k.n = 0;
	for (uint64_t id = 1; id <= 4; id++)
		feed(m, &k, VIS_PKT_DEQUEUE, 10 + id, 0, 0, id, 0);
	ck_assert_uint_eq(k.n, 4);
	for (unsigned i = 0; i < 4; i++)
		ck_assert_uint_eq(k.ev[i].event_id, second);

	/* a backend that reports the tail and no enqueues (queue 1) */
	k.n = 0;
	pkt(&pe, VIS_PKT_DROP, 20, 0, 1, 0, 300);
	pe.tail_id = 3;
	vis_monitors_feed(m, &pe, collect, &k);
	for (uint64_t id = 1; id <= 5; id++)
		feed(m, &k, VIS_PKT_DEQUEUE, 20 + id, 0, 1, id, 0);
	ck_assert_uint_eq(count_type(&k, VIS_EV_FORENSICS), 3);
	vis_monitors_free(m);
}
END_TEST

START_TEST(forensics_port_scope)
{
	struct vis_monitors_conf c;
	struct vis_monitors *m;
	struct sink k = {0};
	char err[128];
	uint64_t id;

	vis_monitors_conf_init(&c, 2, 2);
	c.forensics = 1;
	c.forensics_port_scope = 1;
	m = vis_monitors_new(&c, err, sizeof err);
	ck_assert_ptr_nonnull(m);
	feed(m, &k, VIS_PKT_ENQUEUE, 1, 0, 0, 1, 100);
	feed(m, &k, VIS_PKT_ENQUEUE, 2, 0, 0, 2, 200);
	for (id = 1; id <= 3; id++)
		feed(m, &k, VIS_PKT_ENQUEUE, 2 + id, 0, 1, id, id * 100);
	feed(m, &k, VIS_PKT_ENQUEUE, 6, 1, 0, 1, 100); /* another port */
	feed(m, &k, VIS_PKT_DROP, 7, 0, 0, 0, 200);
	id = k.ev[0].event_id;
	k.n = 0;
	for (uint64_t i = 1; i <= 3; i++) {
		feed(m, &k, VIS_PKT_DEQUEUE, 10 + i, 0, 0, i, 0);
		feed(m, &k, VIS_PKT_DEQUEUE, 10 + i, 0, 1, i, 0);
		feed(m, &k, VIS_PKT_DEQUEUE, 10 + i, 1, 0, i, 0);
	}
	ck_assert_uint_eq(k.n, 5);
	for (unsigned i = 0; i < k.n; i++) {
		ck_assert_uint_eq(k.ev[i].event_id, id);
		ck_assert_uint_eq(k.ev[i].port, 0);
	}
	vis_monitors_free(m);
}
END_TEST

START_TEST(congestion_hysteresis)
{
	struct vis_monitors *m = mk(1, 1, 0);
	struct sink k = {0};
	/* low 1000, high 5000: oscillating in between changes nothing */
	static const uint64_t depth[] = {0,    3000, 5000, 2000, 4000, 8000,
					 1500, 4999, 6000, 1000, 3000, 900};

	ck_assert_int_eq(vis_monitors_set_queue_congestion(m, 0, 0, 5000, 1000), 0);
	for (unsigned i = 0; i < sizeof depth / sizeof depth[0]; i++)
		feed(m, &k, VIS_PKT_ENQUEUE, 10 * i, 0, 0, i + 1, depth[i]);
	ck_assert_uint_eq(k.n, 2);
	ck_assert_uint_eq(k.ev[0].type, VIS_EV_CONGESTION_START);
	ck_assert_uint_eq(k.ev[0].t_ns, 20);
	ck_assert_uint_eq(k.ev[0].depth_bytes, 5000);
	ck_assert_uint_eq(k.ev[0].flags, VIS_EVF_SAMPLE_PORT);
	ck_assert_uint_eq(k.ev[0].queue, 0);
	ck_assert_uint_eq(k.ev[1].type, VIS_EV_CONGESTION_END);
	ck_assert_uint_eq(k.ev[1].t_ns, 90);
	ck_assert_uint_eq(k.ev[1].peak_bytes, 8000);
	ck_assert_uint_eq(k.ev[1].peak_t_ns, 50);
	ck_assert_uint_eq(k.ev[1].duration_ns, 70);
	ck_assert_uint_eq(k.ev[1].depth_bytes, 1000);
	ck_assert_uint_eq(k.ev[1].flags, 0);
	/* the end carries its start's id, with an id of its own */
	ck_assert_uint_eq(k.ev[0].event_id, k.ev[0].own_id);
	ck_assert_uint_eq(k.ev[1].event_id, k.ev[0].own_id);
	ck_assert_uint_ne(k.ev[1].own_id, k.ev[0].own_id);
	/* low > high is refused */
	ck_assert_int_eq(vis_monitors_set_queue_congestion(m, 0, 0, 100, 200), -1);
	vis_monitors_free(m);
}
END_TEST

START_TEST(congestion_port)
{
	struct vis_monitors *m = mk(2, 2, 0);
	struct sink k = {0};

	ck_assert_int_eq(vis_monitors_set_port_congestion(m, 1, 10000, 2000), 0);
	feed(m, &k, VIS_PKT_ENQUEUE, 1, 1, 0, 1, 6000);
	feed(m, &k, VIS_PKT_ENQUEUE, 2, 1, 1, 1, 5000);	 /* port 11000 */
	feed(m, &k, VIS_PKT_DEQUEUE, 3, 1, 0, 1, 0);	 /* port 5000 */
	feed(m, &k, VIS_PKT_DEQUEUE, 4, 1, 1, 1, 1000);	 /* port 1000 */
	feed(m, &k, VIS_PKT_ENQUEUE, 5, 0, 0, 1, 50000); /* port 0: no thresholds */
	ck_assert_uint_eq(k.n, 2);
	ck_assert_uint_eq(k.ev[0].type, VIS_EV_CONGESTION_START);
	ck_assert_uint_eq(k.ev[0].port, 1);
	ck_assert_uint_eq(k.ev[0].queue, VIS_NONE);
	ck_assert_uint_eq(k.ev[0].flags, VIS_EVF_SAMPLE_PORT | VIS_EVF_PORT_SCOPE);
	ck_assert_uint_eq(k.ev[0].depth_bytes, 11000);
	ck_assert_uint_eq(k.ev[1].type, VIS_EV_CONGESTION_END);
	ck_assert_uint_eq(k.ev[1].peak_bytes, 11000);
	ck_assert_uint_eq(k.ev[1].peak_t_ns, 2);
	ck_assert_uint_eq(k.ev[1].duration_ns, 2);
	vis_monitors_free(m);
}
END_TEST

static void deq_delay(struct vis_monitors *m, struct sink *k, uint64_t id, uint64_t delay)
{
	struct vis_pkt_event pe;

	pkt(&pe, VIS_PKT_DEQUEUE, id * 10, 0, 2, id, 0);
	pe.delay_ns = delay;
	vis_monitors_feed(m, &pe, collect, k);
}

START_TEST(high_delay_levels)
{
	struct vis_monitors *m = mk(1, 4, 0);
	struct sink k = {0};
	struct vis_delay_profile p = {
	    .n = 2,
	    .lv = {{.threshold_ns = 200, .tag = 10, .severity = 1},
		   {.threshold_ns = 300, .tag = 20, .severity = 2}},
	};

	ck_assert_int_eq(vis_monitors_set_delay_profile(m, VIS_NONE, 2, &p), 0);
	deq_delay(m, &k, 1, 150);
	ck_assert_uint_eq(k.n, 0);
	deq_delay(m, &k, 2, 250);
	ck_assert_uint_eq(k.n, 1);
	ck_assert_uint_eq(k.ev[0].type, VIS_EV_HIGH_DELAY);
	ck_assert_uint_eq(k.ev[0].level, 1);
	ck_assert_uint_eq(k.ev[0].tag, 10);
	ck_assert_uint_eq(k.ev[0].severity, 1);
	ck_assert_uint_eq(k.ev[0].delay_ns, 250);
	deq_delay(m, &k, 3, 350);
	ck_assert_uint_eq(k.n, 2);
	ck_assert_uint_eq(k.ev[1].level, 2);
	ck_assert_uint_eq(k.ev[1].tag, 20);
	ck_assert_uint_eq(k.ev[1].severity, 2);
	/* exactly at the threshold is not above it: the episode ends */
	deq_delay(m, &k, 4, 200);
	ck_assert_uint_eq(k.n, 3);
	ck_assert_uint_eq(k.ev[2].type, VIS_EV_DELAY_END);
	deq_delay(m, &k, 5, 100);
	ck_assert_uint_eq(k.n, 3);
	/* -1 disables the 300 ns level: 350 is level 1 */
	p.lv[1].threshold_ns = -1;
	vis_monitors_set_delay_profile(m, 0, 2, &p);
	deq_delay(m, &k, 6, 350);
	ck_assert_uint_eq(k.n, 4);
	ck_assert_uint_eq(k.ev[3].level, 1);
	ck_assert_uint_eq(k.ev[3].tag, 10);
	/* both disabled: nothing tagged */
	p.lv[0].threshold_ns = -1;
	vis_monitors_set_delay_profile(m, 0, 2, &p);
	deq_delay(m, &k, 7, 100000);
	ck_assert_uint_eq(k.n, 5);
	ck_assert_uint_eq(k.ev[4].type, VIS_EV_DELAY_END);
	deq_delay(m, &k, 8, 100000);
	ck_assert_uint_eq(k.n, 5);
	/* the pure function */
	p.lv[0].threshold_ns = 120;
	p.lv[1].threshold_ns = 150;
	ck_assert_uint_eq(vis_delay_level_of(&p, 120), 0);
	ck_assert_uint_eq(vis_delay_level_of(&p, 121), 1);
	ck_assert_uint_eq(vis_delay_level_of(&p, 151), 2);
	ck_assert_uint_eq(vis_delay_level_of(&p, UINT64_MAX), 0);
	vis_monitors_free(m);
}
END_TEST

START_TEST(drops_per_cause)
{
	struct vis_monitors_conf c;
	struct vis_monitors *m;
	struct vis_monitors_stats st;
	struct sink k = {0};
	struct vis_pkt_event pe;
	char err[128];

	vis_monitors_conf_init(&c, 1, 1);
	vis_set_add(&c.drop_reasons, 259);
	m = vis_monitors_new(&c, err, sizeof err);
	ck_assert_ptr_nonnull(m);
	pkt(&pe, VIS_PKT_DROP, 1, 0, 0, 1, 0);
	pe.reason = 259;
	vis_monitors_feed(m, &pe, collect, &k);
	pe.reason = 260;
	vis_monitors_feed(m, &pe, collect, &k);
	vis_monitors_feed(m, &pe, collect, &k);
	pe.reason = 1000;
	vis_monitors_feed(m, &pe, collect, &k);
	ck_assert_uint_eq(k.n, 1);
	ck_assert_uint_eq(k.ev[0].reason, 259);
	ck_assert_uint_eq(vis_monitors_drops(m)->by_reason[259], 1);
	ck_assert_uint_eq(vis_monitors_drops(m)->by_reason[260], 2);
	ck_assert_uint_eq(vis_monitors_drops(m)->other_reason, 1);
	ck_assert_uint_eq(vis_monitors_drops(m)->reported, 1);
	/* out of range events are counted and ignored */
	pkt(&pe, VIS_PKT_DROP, 1, 5, 0, 1, 0);
	vis_monitors_feed(m, &pe, collect, &k);
	vis_monitors_get_stats(m, &st);
	ck_assert_uint_eq(st.out_of_range, 1);
	ck_assert_uint_eq(st.pkt_events, 5);
	ck_assert_uint_eq(st.events[VIS_EV_DROP], 1);
	/* a drop with no egress queue (forwarding, ACL) is still reported */
	pkt(&pe, VIS_PKT_DROP, 2, VIS_NONE, VIS_NONE, 1, UINT64_MAX);
	pe.reason = 259;
	pe.stage = 1;
	vis_monitors_feed(m, &pe, collect, &k);
	pkt(&pe, VIS_PKT_DROP, 3, 0, VIS_NONE, 1, UINT64_MAX);
	pe.reason = 259;
	vis_monitors_feed(m, &pe, collect, &k);
	ck_assert_uint_eq(k.n, 3);
	ck_assert_uint_eq(k.ev[1].port, VIS_NONE);
	ck_assert_uint_eq(k.ev[1].queue, VIS_NONE);
	ck_assert_uint_eq(k.ev[1].stage, 1);
	ck_assert_uint_eq(k.ev[2].port, 0);
	ck_assert_uint_eq(vis_monitors_drops(m)->by_reason[259], 3);
	vis_monitors_free(m);
}
END_TEST

/* With only class 3 eligible, class 0 drops produce no records. */
START_TEST(pre_event_eligibility)
{
	struct vis_monitors_conf c;
	struct vis_monitors *m;
	struct sink k = {0};
	struct vis_pkt_event pe;
	char err[128];

	vis_monitors_conf_init(&c, 1, 1);
	c.has_eligibility = 1;
	vis_set_add(&c.eligibility.tcs, 3);
	m = vis_monitors_new(&c, err, sizeof err);
	ck_assert_ptr_nonnull(m);
	for (uint32_t i = 0; i < 10; i++) {
		pkt(&pe, VIS_PKT_DROP, i, 0, 0, i, 0);
		pe.tc = i % 2 ? 3 : 0;
		vis_monitors_feed(m, &pe, collect, &k);
	}
	ck_assert_uint_eq(k.n, 5);
	for (unsigned i = 0; i < k.n; i++)
		ck_assert_uint_eq(k.ev[i].tc, 3);
	/* event ids are unique and increasing */
	for (unsigned i = 1; i < k.n; i++)
		ck_assert_uint_gt(k.ev[i].event_id, k.ev[i - 1].event_id);
	vis_monitors_free(m);
}
END_TEST

START_TEST(header_and_flow)
{
	/* Ethernet + IPv4 + UDP 10.0.0.1:1234 -> 10.0.0.2:4791, VLAN 5 */
	static const uint8_t frame[] = {0x02, 0,    0,	  0,	0,    1,    0x02, 0, 0, 0,  0,	2,
					0x81, 0x00, 0x00, 0x05, 0x08, 0x00, 0x45, 0, 0, 28, 0,	0,
					0,    0,    64,	  17,	0,    0,    10,	  0, 0, 1,  10, 0,
					0,    2,    0x04, 0xd2, 0x12, 0xb7, 0,	  8, 0, 0};
	struct vis_flow f;
	struct vis_monitors *m = mk(1, 1, 0);
	struct sink k = {0};
	struct vis_pkt_event pe;

	ck_assert_int_eq(vis_flow_from_header(frame, sizeof frame, &f), 0);
	ck_assert_uint_eq(f.af, 4);
	ck_assert_uint_eq(f.proto, 17);
	ck_assert_uint_eq(f.sport, 1234);
	ck_assert_uint_eq(f.dport, 4791);
	ck_assert_uint_eq(f.vlan, 5);
	ck_assert_uint_eq(f.src[3], 1);
	ck_assert_uint_eq(f.dst[3], 2);
	ck_assert_int_eq(vis_flow_from_header(frame, 14, &f), -1);

	pkt(&pe, VIS_PKT_DROP, 1, 0, 0, 1, 0);
	pe.hdr = frame;
	pe.hdr_len = sizeof frame;
	pe.frame_len = 1500;
	vis_flow_from_header(frame, sizeof frame, &pe.flow);
	vis_monitors_feed(m, &pe, collect, &k);
	ck_assert_uint_eq(k.n, 1);
	ck_assert_uint_eq(k.ev[0].hdr_len, sizeof frame);
	ck_assert_int_eq(memcmp(k.ev[0].hdr, frame, sizeof frame), 0);
	ck_assert_uint_eq(k.ev[0].frame_len, 1500);
	/* the flow travels with the event, hashed when a sampler needs it */
	ck_assert_int_eq(memcmp(&k.ev[0].flow, &pe.flow, sizeof pe.flow), 0);
	ck_assert_uint_eq(vis_event_flow_hash(&k.ev[0]), vis_flow_hash(&pe.flow));
	ck_assert_uint_ne(vis_event_flow_hash(&k.ev[0]), 0);
	vis_monitors_free(m);
}
END_TEST

START_TEST(gap_forgets)
{
	struct vis_monitors *m = mk(1, 2, 1);
	struct vis_delay_profile dp = {.n = 1, .lv = {{100, 1, 1}}};
	struct vis_monitors_stats st;
	struct vis_pkt_event pe;
	struct sink k = {0};

	ck_assert_int_eq(vis_monitors_set_delay_profile(m, 0, 1, &dp), 0);
	/* a snapshot in progress: 4 queued, a drop, one tagged departure */
	for (uint64_t id = 1; id <= 4; id++)
		feed(m, &k, VIS_PKT_ENQUEUE, id, 0, 0, id, id * 100);
	feed(m, &k, VIS_PKT_DROP, 5, 0, 0, 0, 400);
	feed(m, &k, VIS_PKT_DEQUEUE, 6, 0, 0, 1, 300);
	ck_assert_uint_eq(count_type(&k, VIS_EV_FORENSICS), 1);
	/* queue 1 is tagging high delay */
	pkt(&pe, VIS_PKT_DEQUEUE, 7, 0, 1, 1, 0);
	pe.delay_ns = 200;
	vis_monitors_feed(m, &pe, collect, &k);
	ck_assert_uint_eq(count_type(&k, VIS_EV_HIGH_DELAY), 1);

	/* a gap: the snapshot ends without an event, the delay episode is
	 * forgotten (its end may have been lost) */
	vis_monitors_gap(m, VIS_NONE, VIS_NONE);
	vis_monitors_get_stats(m, &st);
	ck_assert_uint_eq(st.gaps, 1);
	ck_assert_uint_eq(st.forensics_aborted, 1);
	k.n = 0;
	pkt(&pe, VIS_PKT_DEQUEUE, 8, 0, 1, 2, 0);
	pe.delay_ns = 50;
	vis_monitors_feed(m, &pe, collect, &k);
	ck_assert_uint_eq(k.n, 0); /* no VIS_EV_DELAY_END */

	/* after the gap the packet count is a lower bound: 2 leaves, 5
	 * arrives, 3 leaves (count back to 0, yet 4 and 5 are queued); a
	 * drop must still snapshot them */
	feed(m, &k, VIS_PKT_DEQUEUE, 9, 0, 0, 2, 200);
	feed(m, &k, VIS_PKT_ENQUEUE, 10, 0, 0, 5, 300);
	feed(m, &k, VIS_PKT_DEQUEUE, 11, 0, 0, 3, 200);
	ck_assert_uint_eq(k.n, 0);
	feed(m, &k, VIS_PKT_DROP, 12, 0, 0, 0, 200);
	ck_assert_uint_eq(k.n, 1);
	feed(m, &k, VIS_PKT_DEQUEUE, 13, 0, 0, 4, 100);
	feed(m, &k, VIS_PKT_DEQUEUE, 14, 0, 0, 5, 0);
	ck_assert_uint_eq(count_type(&k, VIS_EV_FORENSICS), 2);
	ck_assert_uint_eq(k.ev[1].event_id, k.ev[0].own_id);
	ck_assert_uint_eq(k.ev[2].event_id, k.ev[0].own_id);
	ck_assert_uint_eq(k.ev[2].flags & VIS_EVF_LAST, VIS_EVF_LAST);
	/* the departure of 5 (the last enqueue seen) proved the queue empty:
	 * a drop now starts nothing */
	k.n = 0;
	feed(m, &k, VIS_PKT_DROP, 15, 0, 0, 0, 0);
	feed(m, &k, VIS_PKT_ENQUEUE, 16, 0, 0, 6, 100);
	feed(m, &k, VIS_PKT_DEQUEUE, 17, 0, 0, 6, 0);
	ck_assert_uint_eq(count_type(&k, VIS_EV_FORENSICS), 0);
	vis_monitors_free(m);
}
END_TEST

START_TEST(watches)
{
	struct vis_monitors *m = mk(2, 4, 0);
	struct vis_delay_profile dp = {.n = 2, .lv = {{-1, 1, 1}, {100, 2, 2}}};
	struct vis_delay_profile off = {.n = 1, .lv = {{-1, 1, 1}}};

	ck_assert_uint_eq(vis_monitors_watches(m, 0, 0), 0);
	vis_monitors_set_forensics(m, 0, 1, 1);
	vis_monitors_set_delay_profile(m, 1, 2, &dp);
	vis_monitors_set_delay_profile(m, 1, 3, &off); /* every level disabled */
	vis_monitors_set_queue_congestion(m, 0, 3, 1000, 10);
	vis_monitors_set_port_congestion(m, 1, 5000, 100);
	ck_assert_uint_eq(vis_monitors_watches(m, 0, 0), 0);
	ck_assert_uint_eq(vis_monitors_watches(m, 0, 1), VIS_WATCH_FORENSICS);
	ck_assert_uint_eq(vis_monitors_watches(m, 0, 3), VIS_WATCH_CONGESTION);
	ck_assert_uint_eq(vis_monitors_watches(m, 1, 0), VIS_WATCH_CONGESTION); /* the port's */
	ck_assert_uint_eq(vis_monitors_watches(m, 1, 2), VIS_WATCH_DELAY | VIS_WATCH_CONGESTION);
	ck_assert_uint_eq(vis_monitors_watches(m, 1, 3), VIS_WATCH_CONGESTION);
	ck_assert_uint_eq(vis_monitors_watches(m, 2, 0), 0); /* out of range */
	ck_assert_uint_eq(vis_monitors_watches(m, 0, 4), 0);
	vis_monitors_free(m);
}
END_TEST

/* A queue that holds packets 1..10 when monitoring starts: packets 11 and
 * 12 are enqueued, 1 and 2 leave, then a drop with tail 12 arrives.  The
 * queue holds 3..12, so a snapshot starts and tags those 10 departures
 * (the early departures must not make the queue look empty). */
START_TEST(forensics_preloaded_queue)
{
	struct vis_forensics_q q;
	struct vis_pkt_event pe;
	uint64_t id = 0;
	uint32_t reason = 0;
	int last = 0, tagged = 0, lasts = 0;

	vis_forensics_init(&q);
	q.enabled = 1;
	memset(&pe, 0, sizeof(pe));
	pe.tail_id = VIS_ID_NONE;
	pe.pkt_id = 11;
	vis_forensics_enqueue(&q, &pe);
	pe.pkt_id = 12;
	vis_forensics_enqueue(&q, &pe);
	pe.pkt_id = 1;
	ck_assert_int_eq(vis_forensics_dequeue(&q, &pe, &id, &reason, &last), 0);
	pe.pkt_id = 2;
	ck_assert_int_eq(vis_forensics_dequeue(&q, &pe, &id, &reason, &last), 0);
	pe.pkt_id = 0;
	pe.tail_id = 12;
	pe.reason = 259;
	ck_assert_int_eq(vis_forensics_drop(&q, &pe, 77), 1);
	for (uint64_t p = 3; p <= 12; p++) {
		pe.pkt_id = p;
		pe.tail_id = VIS_ID_NONE;
		if (vis_forensics_dequeue(&q, &pe, &id, &reason, &last)) {
			tagged++;
			ck_assert_uint_eq(id, 77);
			ck_assert_uint_eq(reason, 259);
		}
		lasts += last;
	}
	ck_assert_int_eq(tagged, 10);
	ck_assert_int_eq(lasts, 1);
	ck_assert_uint_eq(q.snapshots, 1);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("vis_monitors");
	TCase *tc = tcase_create("monitors");

	tcase_add_test(tc, forensics_five);
	tcase_add_test(tc, forensics_latest_drop_and_tail_id);
	tcase_add_test(tc, forensics_port_scope);
	tcase_add_test(tc, congestion_hysteresis);
	tcase_add_test(tc, congestion_port);
	tcase_add_test(tc, high_delay_levels);
	tcase_add_test(tc, drops_per_cause);
	tcase_add_test(tc, pre_event_eligibility);
	tcase_add_test(tc, header_and_flow);
	tcase_add_test(tc, gap_forgets);
	tcase_add_test(tc, watches);
	tcase_add_test(tc, forensics_preloaded_queue);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
