/*
 * test_model_qev.c - the per-queue packet event stream of the switch model
 * (MODEL_EV_ENQUEUE / MODEL_EV_DEQUEUE, model_set_queue_events) and the
 * tail_id / copy_id fields of events, and queue events switched on and
 * off with the trace callback, each against values worked out by hand
 * from arrival times, serialization times and queue limits.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/model/model.h"
#include "agent/model/tests/tsrc.h"

#define G1  1000000000ULL
#define G10 10000000000ULL

/* One stream of count packets of len bytes, every gap ns from t0. */
static void stream(struct model *m, uint16_t in, uint16_t out, uint16_t group, uint8_t tc,
		   double len, double gap, double t0, uint64_t count, uint32_t flow)
{
	struct tsrc_spec sp = {0};
	sp.in_port = in;
	sp.out_port = out;
	sp.mc_group = group;
	sp.tc = tc;
	sp.len = len;
	sp.gap_ns = gap;
	sp.t0_ns = t0;
	sp.count = count;
	sp.flow_id = flow;
	tadd(m, &sp);
}

static size_t read_all(struct model *m, struct model_event *ev, size_t max)
{
	size_t n = 0, k;
	while (n < max && (k = model_events_read(m, ev + n, max - n)) > 0)
		n += k;
	return n;
}

/*
 * Port 0 (10G) sends 6 packets of 1000 B, one every 1000 ns from t = 1000,
 * to port 1 (1G, queue 0 limited to 5 packets, events on).  Each takes
 * (1000 + 20) * 8 / 1G = 8160 ns to send.  Enqueues at 1000..5000 with ids
 * 1..5 and depths 1000..5000; the 6th (t = 6000) meets 5 packets and is
 * dropped with tail_id 5 and depth 5000.  Departures at 1000 + k * 8160
 * (k = 1..5): ids 1..5, depths 4000, 3000, 2000, 1000, 0, delays
 * departure - arrival.  Port 1 also sends 3 packets to port 0, whose queue
 * (events not asked) admits nothing (shared limit 0): three drops with
 * tail_id 0 and no enqueue/dequeue event.
 */
START_TEST(test_qev_fifo)
{
	struct model_config cfg;
	ck_assert_int_eq(tcfg_simple(&cfg, 2, G10), 0);
	cfg.ports[1].speed_bps = G1;
	cfg.ports[1].ucq[0].limit_pkts = 5;
	cfg.ports[0].ucq[0].shared.cells = 0;
	struct model *m = tmodel(&cfg);
	model_config_release(&cfg);
	struct model_err err;
	ck_assert_int_eq(
	    model_set_queue_events(m, 1, 0, 0, MODEL_QEV_ENQUEUE | MODEL_QEV_DEQUEUE, &err), 0);
	stream(m, 0, 1, 0, 0, 1000, 1000, 1000, 6, 7);
	stream(m, 1, 0, 0, 0, 500, 10000, 1500, 3, 9);
	ck_assert_int_eq(model_run(m, MODEL_T_END), 0);

	struct model_event ev[64];
	size_t n = read_all(m, ev, 64);
	static const uint64_t enq_t[5] = {1000, 2000, 3000, 4000, 5000};
	static const uint64_t deq_t[5] = {9160, 17320, 25480, 33640, 41800};
	static const uint32_t deq_depth[5] = {4000, 3000, 2000, 1000, 0};
	unsigned ne = 0, nd = 0, ndrop1 = 0, ndrop0 = 0;
	for (size_t i = 0; i < n; i++) {
		const struct model_event *e = &ev[i];
		if (e->type == MODEL_EV_ENQUEUE) {
			ck_assert_uint_lt(ne, 5);
			ck_assert_uint_eq(e->out_port, 1);
			ck_assert_uint_eq(e->in_port, 0);
			ck_assert_uint_eq(e->queue, 0);
			ck_assert_uint_eq(e->mc, 0);
			ck_assert_uint_eq(e->pkt_id, ne + 1);
			ck_assert_uint_eq(e->t_ns, enq_t[ne]);
			ck_assert_uint_eq(e->depth_bytes, 1000 * (ne + 1));
			ck_assert_uint_eq(e->delay_ns, 0);
			ck_assert_uint_eq(e->len, 1000);
			ck_assert_uint_eq(e->flow_id, 7);
			ck_assert_uint_eq(e->copy_id, 0);
			ck_assert_uint_eq(e->tail_id, 0);
			ck_assert_uint_gt(e->hdr_len, 0);
			ck_assert_uint_eq(e->hdr[5], 1); /* tsrc: destination ..:01 */
			ne++;
		} else if (e->type == MODEL_EV_DEQUEUE) {
			ck_assert_uint_lt(nd, 5);
			ck_assert_uint_eq(e->out_port, 1);
			ck_assert_uint_eq(e->pkt_id, nd + 1);
			ck_assert_uint_eq(e->t_ns, deq_t[nd]);
			ck_assert_uint_eq(e->depth_bytes, deq_depth[nd]);
			ck_assert_uint_eq(e->delay_ns, deq_t[nd] - enq_t[nd]);
			ck_assert_uint_eq(e->len, 1000);
			ck_assert_uint_eq(e->copy_id, 0);
			nd++;
		} else if (e->type == MODEL_EV_DROP && e->out_port == 1) {
			ck_assert_uint_eq(e->t_ns, 6000);
			ck_assert_uint_eq(e->tail_id, 5);
			ck_assert_uint_eq(e->depth_bytes, 5000);
			ck_assert_uint_eq(e->pkt_id, 0);
			ck_assert_uint_eq(e->cause, MODEL_DROP_EGR_LIMIT);
			/* after the 5th enqueue, before the first departure */
			ck_assert_uint_eq(ne, 5);
			ck_assert_uint_eq(nd, 0);
			ndrop1++;
		} else if (e->type == MODEL_EV_DROP && e->out_port == 0) {
			ck_assert_uint_eq(e->tail_id, 0);
			ndrop0++;
		} else {
			ck_abort_msg("unexpected event type %u out_port %u", e->type, e->out_port);
		}
	}
	ck_assert_uint_eq(ne, 5);
	ck_assert_uint_eq(nd, 5);
	ck_assert_uint_eq(ndrop1, 1);
	ck_assert_uint_eq(ndrop0, 3);
	model_free(m);
}
END_TEST

/* Events turned off again, and bad arguments. */
START_TEST(test_qev_off_and_args)
{
	struct model_config cfg;
	ck_assert_int_eq(tcfg_simple(&cfg, 2, G10), 0);
	struct model *m = tmodel(&cfg);
	model_config_release(&cfg);
	struct model_err err;
	ck_assert_int_eq(model_set_queue_events(m, 1, 0, 0, MODEL_QEV_ENQUEUE, &err), 0);
	ck_assert_int_eq(model_set_queue_events(m, 1, 0, 0, 0, &err), 0);
	/* port 2 is the CPU port */
	ck_assert_int_eq(model_set_queue_events(m, 2, 0, 0, MODEL_QEV_DEQUEUE, &err), 0);
	ck_assert_int_eq(model_set_queue_events(m, 2, 0, 0, 0, &err), 0);
	err.msg[0] = 0;
	ck_assert_int_eq(model_set_queue_events(m, 3, 0, 0, 1, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "port"));
	err.msg[0] = 0;
	ck_assert_int_eq(model_set_queue_events(m, 1, 1, 0, 1, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "queue"));
	ck_assert_int_eq(model_set_queue_events(m, 1, 0, 1, 1, &err), -1); /* no mc queue */
	ck_assert_int_eq(model_set_queue_events(m, 1, 0, 0, 4, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "flags"));
	ck_assert_int_eq(model_set_queue_events(m, 1, 0, 0, 1, NULL), 0);
	ck_assert_int_eq(model_set_queue_events(m, 1, 0, 0, 0, NULL), 0);

	stream(m, 0, 1, 0, 0, 1000, 1000, 1000, 10, 0);
	ck_assert_int_eq(model_run(m, MODEL_T_END), 0);
	struct model_event ev[16];
	ck_assert_uint_eq(read_all(m, ev, 16), 0);
	struct model_stats st;
	model_get_stats(m, &st);
	ck_assert_uint_eq(st.copies_departed, 10);
	ck_assert_uint_eq(st.events, 0);
	model_free(m);
}
END_TEST

/*
 * Two multicast packets of 1000 B from port 0 (10G) at t = 100 and 1100 to
 * a group of ports 1, 2, 3: ports 1 and 2 take them in multicast queue 1
 * (events on), port 3 has no multicast queue and takes them in unicast
 * queue 0 (events on) whose shared limit 0 drops them.  Per packet: two
 * enqueues (id = packet number, depth 1000) and a drop (tail_id 0), then
 * two dequeues 816 ns later (depth 0); all three share a copy_id, not 0,
 * different for the two packets.
 */
START_TEST(test_qev_multicast)
{
	struct model_config cfg;
	ck_assert_int_eq(tcfg_simple(&cfg, 4, G10), 0);
	for (unsigned i = 1; i <= 2; i++) {
		cfg.ports[i].n_mcq = 2;
		cfg.ports[i].tc_to_mcq[5] = 1;
	}
	cfg.ports[3].ucq[0].shared.cells = 0;
	static const uint16_t group[3] = {1, 2, 3};
	ck_assert_int_eq(tcfg_mc_group(&cfg, 3, group), 0);
	struct model *m = tmodel(&cfg);
	model_config_release(&cfg);
	unsigned both = MODEL_QEV_ENQUEUE | MODEL_QEV_DEQUEUE;
	ck_assert_int_eq(model_set_queue_events(m, 1, 1, 1, both, NULL), 0);
	ck_assert_int_eq(model_set_queue_events(m, 2, 1, 1, both, NULL), 0);
	ck_assert_int_eq(model_set_queue_events(m, 3, 0, 0, both, NULL), 0);
	stream(m, 0, 0, 1, 5, 1000, 1000, 100, 2, 0);
	ck_assert_int_eq(model_run(m, MODEL_T_END), 0);
	struct model_event ev[32];
	size_t n = read_all(m, ev, 32);
	ck_assert_uint_eq(n, 10);
	uint64_t cid[2] = {0, 0};
	for (unsigned k = 0; k < 2; k++) {
		const struct model_event *e = &ev[5 * k];
		uint64_t t = 100 + 1000 * k;
		cid[k] = e[0].copy_id;
		ck_assert_uint_ne(cid[k], 0);
		for (unsigned j = 0; j < 2; j++) {
			ck_assert_uint_eq(e[j].type, MODEL_EV_ENQUEUE);
			ck_assert_uint_eq(e[j].out_port, 1 + j);
			ck_assert_uint_eq(e[j].queue, 1);
			ck_assert_uint_eq(e[j].mc, 1);
			ck_assert_uint_eq(e[j].pkt_id, k + 1);
			ck_assert_uint_eq(e[j].depth_bytes, 1000);
			ck_assert_uint_eq(e[j].t_ns, t);
			ck_assert_uint_eq(e[j].copy_id, cid[k]);
		}
		ck_assert_uint_eq(e[2].type, MODEL_EV_DROP);
		ck_assert_uint_eq(e[2].out_port, 3);
		ck_assert_uint_eq(e[2].queue, 0);
		ck_assert_uint_eq(e[2].tail_id, 0);
		ck_assert_uint_eq(e[2].copy_id, cid[k]);
		for (unsigned j = 3; j < 5; j++) {
			ck_assert_uint_eq(e[j].type, MODEL_EV_DEQUEUE);
			ck_assert_uint_eq(e[j].out_port, j - 2);
			ck_assert_uint_eq(e[j].mc, 1);
			ck_assert_uint_eq(e[j].pkt_id, k + 1);
			ck_assert_uint_eq(e[j].depth_bytes, 0);
			ck_assert_uint_eq(e[j].t_ns, t + 816);
			ck_assert_uint_eq(e[j].delay_ns, 816);
			ck_assert_uint_eq(e[j].copy_id, cid[k]);
		}
	}
	ck_assert_uint_ne(cid[0], cid[1]);
	model_free(m);
}
END_TEST

static void count_trace(void *arg, const struct model_trace *tr)
{
	uint64_t *t = arg;
	ck_assert(tr->departed);
	ck_assert_uint_lt(t[0], 7);
	t[1 + t[0]++] = tr->t_ns;
}

/*
 * Queue events and the trace callback set and cleared in any order, each
 * on its own: port 0 sends 6 packets of 1000 B to port 1 (both 10G, 816
 * ns each) every 2000 ns from 1000, so packet k departs at 1816 + 2000 k.
 * Trace on, then dequeue events on port 1 queue 0: both see packets 0
 * and 1 (run to 4500); queue events off: the trace alone sees packet 2
 * (to 6500); trace off, dequeue events on again: the events alone see
 * packets 3..5.
 */
START_TEST(test_qev_and_trace)
{
	struct model_config cfg;
	ck_assert_int_eq(tcfg_simple(&cfg, 2, G10), 0);
	struct model *m = tmodel(&cfg);
	model_config_release(&cfg);
	struct model_err err;
	uint64_t tr[8] = {0};
	model_set_trace(m, count_trace, tr);
	ck_assert_int_eq(model_set_queue_events(m, 1, 0, 0, MODEL_QEV_DEQUEUE, &err), 0);
	stream(m, 0, 1, 0, 0, 1000, 2000, 1000, 6, 3);
	ck_assert_int_eq(model_advance_to(m, 4500), 0);
	ck_assert_int_eq(model_set_queue_events(m, 1, 0, 0, 0, &err), 0);
	ck_assert_int_eq(model_advance_to(m, 6500), 0);
	model_set_trace(m, NULL, NULL);
	ck_assert_int_eq(model_set_queue_events(m, 1, 0, 0, MODEL_QEV_DEQUEUE, &err), 0);
	ck_assert_int_eq(model_run(m, MODEL_T_END), 0);

	ck_assert_uint_eq(tr[0], 3);
	for (unsigned k = 0; k < 3; k++)
		ck_assert_uint_eq(tr[1 + k], 1816 + 2000 * k);
	struct model_event ev[16];
	size_t n = read_all(m, ev, 16);
	ck_assert_uint_eq(n, 5);
	static const unsigned pk[5] = {0, 1, 3, 4, 5};
	for (size_t i = 0; i < n; i++) {
		ck_assert_int_eq(ev[i].type, MODEL_EV_DEQUEUE);
		ck_assert_uint_eq(ev[i].t_ns, 1816 + 2000 * pk[i]);
		ck_assert_uint_eq(ev[i].pkt_id, pk[i] + 1);
		ck_assert_uint_eq(ev[i].delay_ns, 816);
	}
	model_free(m);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("model_qev");
	TCase *tc = tcase_create("qev");
	tcase_add_test(tc, test_qev_fifo);
	tcase_add_test(tc, test_qev_off_and_args);
	tcase_add_test(tc, test_qev_multicast);
	tcase_add_test(tc, test_qev_and_trace);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
