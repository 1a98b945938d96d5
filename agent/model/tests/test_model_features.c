/*
 * test_model_features.c - the switch model's mechanisms one by one, each
 * against a hand-computed value: DWRR shares and strict priority,
 * multicast replication and its accounting, forwarding drop reasons,
 * downstream PFC on an egress port, 1-in-N sampling records, event ring
 * overflow, the CPU port, independent delay read windows, per-port
 * buffer reads that close only the object read, samples lost to a full
 * event ring.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/model/model.h"
#include "agent/model/tests/tsrc.h"

#define G10 10000000000ULL

struct bytes_by_q {
	uint64_t bytes[2][MODEL_MAX_QUEUES];
	uint64_t pkts[2][MODEL_MAX_QUEUES];
	uint64_t until; /* count departures up to this time */
};

static void q_trace(void *arg, const struct model_trace *tr)
{
	struct bytes_by_q *c = arg;
	if (!tr->departed || tr->t_ns > c->until)
		return;
	c->bytes[tr->mc][tr->queue] += tr->len;
	c->pkts[tr->mc][tr->queue]++;
}

/* Port 2 with 4 queues: q3 SP, q0..q2 DWRR weights 1, 2, 5.  Ports 0 and 1
 * keep q0..q2 backlogged (each class at line rate) and q3 at 20 %: q3
 * gets its 20 %, the other 80 % split 1:2:5 by bytes. */
START_TEST(test_dwrr_sp)
{
	struct model_config cfg;
	ck_assert_int_eq(tcfg_simple(&cfg, 3, G10), 0);
	struct model_port_config *p = &cfg.ports[2];
	p->n_ucq = 4;
	for (unsigned t = 0; t < 4; t++)
		p->tc_to_ucq[t] = (uint8_t)t;
	static const uint32_t w[3] = {1, 2, 5};
	for (unsigned q = 0; q < 3; q++) {
		p->ucq[q].sched = MODEL_SCHED_DWRR;
		p->ucq[q].weight = w[q];
		p->ucq[q].shared.cells = 2000;
	}
	struct model *m = tmodel(&cfg);
	model_config_release(&cfg);
	struct bytes_by_q c = {0};
	c.until = 20000000; /* 20 ms, all queues backlogged till then */
	model_set_trace(m, q_trace, &c);
	for (unsigned t = 0; t < 4; t++) {
		struct tsrc_spec sp = {0};
		sp.in_port = (uint16_t)(t & 1);
		sp.out_port = 2;
		sp.tc = (uint8_t)t;
		sp.len = t == 1 ? 300 : 1000;
		sp.gap_ns =
		    t == 3 ? tsrc_ser_ns(1000, G10) / 0.2 : tsrc_ser_ns((uint32_t)sp.len, G10);
		sp.count = (uint64_t)(30000000 / sp.gap_ns);
		tadd(m, &sp);
	}
	ck_assert_int_eq(model_run(m, MODEL_T_END), 0);
	/* wire time shares (bytes + 20 per packet) */
	double wire[4], total = 0;
	for (unsigned q = 0; q < 4; q++) {
		wire[q] = (double)c.bytes[0][q] + 20.0 * (double)c.pkts[0][q];
		total += wire[q];
	}
	printf("DWRR/SP: shares q3 %.4f (0.2), q0 %.4f q1 %.4f q2 %.4f (0.1 0.2 0.5 of 0.8 "
	       "by bytes)\n",
	       wire[3] / total, wire[0] / total, wire[1] / total, wire[2] / total);
	ck_assert(fabs(wire[3] / total - 0.2) < 0.005);
	double b = (double)(c.bytes[0][0] + c.bytes[0][1] + c.bytes[0][2]);
	for (unsigned q = 0; q < 3; q++)
		ck_assert_msg(fabs(c.bytes[0][q] / b - w[q] / 8.0) < 0.01, "q%u byte share %.4f", q,
			      c.bytes[0][q] / b);
	model_free(m);
}
END_TEST

/* DWRR with the smallest quantum (64 bytes) and jumbo frames on port 2:
 * queues q0 and q1 (weights w0, w1, frames of len0, len1 bytes) both
 * backlogged for 20 ms.  Counting frame bytes (dwrr_wire 0), the queues'
 * bytes split w0:w1; counting wire bytes (dwrr_wire 1: + 20 per frame),
 * their line time does.  Returns q0's share of bytes and of line time. */
static void dwrr_run(int wire, const uint32_t w[2], const uint32_t len[2], double *byte_share,
		     double *wire_share)
{
	struct model_config cfg;
	ck_assert_int_eq(tcfg_simple(&cfg, 3, G10), 0);
	cfg.dwrr_quantum = 64;
	cfg.dwrr_wire = (uint8_t)wire;
	struct model_port_config *p = &cfg.ports[2];
	p->n_ucq = 2;
	for (unsigned t = 0; t < 2; t++) {
		p->tc_to_ucq[t] = (uint8_t)t;
		p->ucq[t].sched = MODEL_SCHED_DWRR;
		p->ucq[t].weight = w[t];
	}
	struct model *m = tmodel(&cfg);
	model_config_release(&cfg);
	struct bytes_by_q c = {0};
	c.until = 20000000;
	model_set_trace(m, q_trace, &c);
	for (unsigned t = 0; t < 2; t++) {
		struct tsrc_spec sp = {0};
		sp.in_port = (uint16_t)t;
		sp.out_port = 2;
		sp.tc = (uint8_t)t;
		sp.len = len[t];
		sp.gap_ns = tsrc_ser_ns(len[t], G10);
		sp.count = (uint64_t)(25000000 / sp.gap_ns);
		tadd(m, &sp);
	}
	ck_assert_int_eq(model_run(m, MODEL_T_END), 0);
	double b0 = (double)c.bytes[0][0], b1 = (double)c.bytes[0][1];
	double w0 = b0 + 20.0 * (double)c.pkts[0][0], w1 = b1 + 20.0 * (double)c.pkts[0][1];
	*byte_share = b0 / (b0 + b1);
	*wire_share = w0 / (w0 + w1);
	model_free(m);
}

/* Weights 1:1, frames of 9000 and 7000 bytes: every head needs 141 or
 * 110 rounds of its 64-byte quantum, so whole rounds pass without a
 * frame sent (the scheduler skips them at once).  Before the skip it
 * gave up after 64 x 2 + 64 visits (96 rounds) and served q0 out of
 * turn: q0 took more than its half.  Then weights 3:1 with 64- and
 * 9000-byte frames: frame bytes give q0 3/4 of the bytes but more of
 * the line (84/64 against 9020/9000 per byte), wire bytes 3/4 of the
 * line. */
START_TEST(test_dwrr_wire)
{
	static const uint32_t w1[2] = {1, 1}, len1[2] = {9000, 7000};
	static const uint32_t w2[2] = {3, 1}, len2[2] = {64, 9000};
	double bs, ws;
	dwrr_run(0, w1, len1, &bs, &ws);
	printf("DWRR quantum 64, 9000 B vs 7000 B frames, weights 1:1, frame bytes: q0 byte "
	       "share %.4f (0.5)\n",
	       bs);
	ck_assert(fabs(bs - 0.5) < 0.005);
	dwrr_run(1, w1, len1, &bs, &ws);
	printf("  wire bytes: q0 line share %.4f (0.5)\n", ws);
	ck_assert(fabs(ws - 0.5) < 0.005);
	dwrr_run(0, w2, len2, &bs, &ws);
	double want = 0.75 * 84 / 64 / (0.75 * 84 / 64 + 0.25 * 9020 / 9000);
	printf("DWRR quantum 64, 64 B vs 9000 B frames, weights 3:1, frame bytes: q0 byte share "
	       "%.4f (0.75), line share %.4f (%.4f)\n",
	       bs, ws, want);
	ck_assert(fabs(bs - 0.75) < 0.005);
	ck_assert(fabs(ws - want) < 0.005);
	dwrr_run(1, w2, len2, &bs, &ws);
	printf("  wire bytes: q0 line share %.4f (0.75)\n", ws);
	ck_assert(fabs(ws - 0.75) < 0.005);
}
END_TEST

/* One multicast packet of 1000 B (4 cells) from port 0 to a group of
 * ports 1, 2, 3 and 0 (port 3 without multicast queues; none back to 0): stored once (device mc 4
 * cells, ingress mc 4 cells), charged to each queue holding a copy (4 cells each), 3 departures;
 * drained, everything back to 0. */
START_TEST(test_multicast)
{
	struct model_config cfg;
	ck_assert_int_eq(tcfg_simple(&cfg, 4, G10), 0);
	for (unsigned i = 1; i <= 2; i++) {
		cfg.ports[i].n_mcq = 2;
		cfg.ports[i].tc_to_mcq[5] = 1;
	}
	static const uint16_t group[4] = {1, 2, 3, 0}; /* 0: the ingress port, no copy */
	ck_assert_int_eq(tcfg_mc_group(&cfg, 4, group), 0);
	cfg.ports[0].sampling_rate = 1;
	struct model *m = tmodel(&cfg);
	model_config_release(&cfg);
	struct bytes_by_q c = {0};
	c.until = MODEL_T_END;
	model_set_trace(m, q_trace, &c);
	struct tsrc_spec sp = {0};
	sp.in_port = 0;
	sp.mc_group = 1;
	sp.tc = 5;
	sp.len = 1000;
	sp.count = 1;
	sp.t0_ns = 100;
	tadd(m, &sp);
	model_advance_to(m, 100);
	struct model_buffers *b = model_buffers_new(m);
	model_read_buffers(m, 0, b);
	ck_assert_uint_eq(b->dev_mc.cur_cells, 4);
	ck_assert_uint_eq(b->dev_uc.cur_cells, 0);
	ck_assert_uint_eq(b->ports[0].ing_mc.cur_cells, 4);
	ck_assert_uint_eq(b->ports[0].pg[5].cur_cells, 4);
	ck_assert_uint_eq(b->ports[1].mcq[1].cur_cells, 4);
	ck_assert_uint_eq(b->ports[2].mcq[1].cur_cells, 4);
	ck_assert_uint_eq(b->ports[1].egr_mc.cur_cells, 4);
	ck_assert_uint_eq(b->ports[3].ucq[0].cur_cells, 4); /* no mc queue */
	ck_assert_uint_eq(b->egr_pool[0].cur_cells, 12);
	ck_assert_uint_eq(b->ing_pool[0].cur_cells, 4);
	model_run(m, MODEL_T_END);
	ck_assert_uint_eq(c.pkts[1][1], 2);
	ck_assert_uint_eq(c.pkts[0][0], 1);
	model_read_buffers(m, 1, b);
	ck_assert_uint_eq(b->dev_mc.peak_cells, 4);
	ck_assert_uint_eq(b->dev_mc.cur_cells, 0);
	ck_assert_uint_eq(b->egr_pool[0].peak_cells, 12);
	ck_assert_uint_eq(b->egr_pool[0].cur_cells, 0);
	model_buffers_free(b);
	struct model_if_counters ic;
	model_read_counters(m, 0, &ic);
	ck_assert_uint_eq(ic.in_mcast, 1);
	ck_assert_uint_eq(ic.sample_pool, 1);
	ck_assert_uint_eq(ic.samples_marked, 1);
	model_read_counters(m, 2, &ic);
	ck_assert_uint_eq(ic.out_mcast, 1);
	ck_assert_uint_eq(ic.out_octets, 1000);
	/* one sample record for the packet, not one per copy */
	struct model_event ev[8];
	ck_assert_uint_eq(model_events_read(m, ev, 8), 1);
	ck_assert_int_eq(ev[0].type, MODEL_EV_SAMPLE);
	ck_assert_uint_eq(ev[0].delay_ns, 816);
	ck_assert_int_eq(ev[0].mc, 1);
	struct model_stats st;
	model_get_stats(m, &st);
	ck_assert_uint_eq(st.copies, 3);
	ck_assert_uint_eq(st.copies_departed, 3);
	struct model_err err;
	ck_assert_msg(model_audit(m, &err) == 0, "%s", err.msg);
	model_free(m);
}
END_TEST

/* Forwarding drops keep their reason code; every 4th packet of each flow. */
START_TEST(test_fwd_drops)
{
	struct model_config cfg;
	ck_assert_int_eq(tcfg_simple(&cfg, 2, G10), 0);
	struct model *m = tmodel(&cfg);
	model_config_release(&cfg);
	static const uint16_t codes[4] = {257, 258, 269, 270};
	for (unsigned i = 0; i < 4; i++) {
		struct tsrc_spec sp = {0};
		sp.in_port = 0;
		sp.out_port = 1;
		sp.gap_ns = 10000;
		sp.t0_ns = 1000 * i;
		sp.len = 200;
		sp.count = 40;
		sp.fwd_every = 4;
		sp.fwd_drop = codes[i];
		sp.flow_id = i;
		tadd(m, &sp);
	}
	model_run(m, MODEL_T_END);
	struct model_port_drops d;
	model_read_drops(m, 0, &d);
	ck_assert_uint_eq(d.in[MODEL_DROP_TTL], 10);
	ck_assert_uint_eq(d.in[MODEL_DROP_ACL], 10);
	ck_assert_uint_eq(d.in[MODEL_DROP_BLACKHOLE], 10);
	ck_assert_uint_eq(d.in[MODEL_DROP_FWD_OTHER], 10);
	struct model_event ev[64];
	size_t n = model_events_read(m, ev, 64);
	ck_assert_uint_eq(n, 40);
	for (size_t i = 0; i < n; i++) {
		ck_assert_int_eq(ev[i].type, MODEL_EV_DROP);
		ck_assert_uint_eq(ev[i].reason, codes[ev[i].flow_id]);
		ck_assert_uint_eq(ev[i].hdr_len, 64);
		ck_assert_int_eq(ev[i].in_port, 0);
		ck_assert_int_eq(ev[i].out_port, 1);
	}
	struct model_if_counters ic;
	model_read_counters(m, 0, &ic);
	ck_assert_uint_eq(ic.in_discards, 40);
	/* IF-MIB: ifInUcastPkts counts the 120 delivered, not the 40 discarded */
	ck_assert_uint_eq(ic.in_ucast, 120);
	model_read_counters(m, 1, &ic);
	ck_assert_uint_eq(ic.out_ucast, 120);
	ck_assert_uint_eq(model_drop_reason(MODEL_DROP_ING_LIMIT), 259);
	ck_assert_uint_eq(model_drop_reason(MODEL_DROP_EGR_LIMIT), 259);
	ck_assert_uint_eq(model_drop_reason(MODEL_DROP_WRED), 260);
	model_free(m);
}
END_TEST

/* The drop-cause table (model_drop.c) against the sFlow reason codes
 * (sflow_drops.txt: 257 ttl_exceeded, 258 acl, 259 no_buffer_space,
 * 260 red, 269 blackhole_route). */
START_TEST(test_drop_causes)
{
	uint16_t code = 0;
	ck_assert_uint_eq(model_drop_reason(MODEL_DROP_TTL), 257);
	ck_assert_uint_eq(model_drop_reason(MODEL_DROP_ACL), 258);
	ck_assert_uint_eq(model_drop_reason(MODEL_DROP_BLACKHOLE), 269);
	ck_assert_uint_eq(model_drop_reason(MODEL_DROP_FWD_OTHER), 256);
	ck_assert_uint_eq(model_drop_reason(MODEL_DROP_NCAUSES), 256);
	ck_assert_str_eq(model_drop_cause_name(MODEL_DROP_BLACKHOLE), "blackhole_route");
	ck_assert_str_eq(model_drop_cause_name(MODEL_DROP_TTL), "ttl_exceeded");
	ck_assert_str_eq(model_drop_cause_name(MODEL_DROP_FWD_OTHER), "forwarding_other");
	ck_assert_str_eq(model_drop_cause_name(MODEL_DROP_NCAUSES), "?");
	ck_assert_int_eq(model_drop_cause_of_fwd(257), MODEL_DROP_TTL);
	ck_assert_int_eq(model_drop_cause_of_fwd(258), MODEL_DROP_ACL);
	ck_assert_int_eq(model_drop_cause_of_fwd(269), MODEL_DROP_BLACKHOLE);
	/* a forwarding drop with an admission or WRED code is not one */
	ck_assert_int_eq(model_drop_cause_of_fwd(259), MODEL_DROP_FWD_OTHER);
	ck_assert_int_eq(model_drop_cause_of_fwd(260), MODEL_DROP_FWD_OTHER);
	ck_assert_int_eq(model_drop_cause_of_fwd(300), MODEL_DROP_FWD_OTHER);
	ck_assert_int_eq(model_drop_fwd_code("Blackhole_Route", &code), 0);
	ck_assert_uint_eq(code, 269);
	ck_assert_int_eq(model_drop_fwd_code("acl", &code), 0);
	ck_assert_uint_eq(code, 258);
	ck_assert_int_eq(model_drop_fwd_code("blackhole", &code), -1);
	ck_assert_int_eq(model_drop_fwd_code("wred", &code), -1);
	ck_assert_int_eq(model_drop_fwd_code("egress_limit", &code), -1);
}
END_TEST

/* Downstream PFC on the egress port: nothing leaves while paused; the
 * queue resumes at line rate when cleared. */
START_TEST(test_egress_pause)
{
	struct model_config cfg;
	ck_assert_int_eq(tcfg_simple(&cfg, 2, G10), 0);
	struct model *m = tmodel(&cfg);
	model_config_release(&cfg);
	struct bytes_by_q c = {0};
	c.until = MODEL_T_END;
	model_set_trace(m, q_trace, &c);
	model_set_egress_pause(m, 1, 0x01);
	struct tsrc_spec sp = {0};
	sp.in_port = 0;
	sp.out_port = 1;
	sp.gap_ns = 1000;
	sp.len = 1000;
	sp.count = 10;
	tadd(m, &sp);
	model_advance_to(m, 50000);
	ck_assert_uint_eq(c.pkts[0][0], 0);
	struct model_delay d;
	model_set_egress_pause(m, 1, 0);
	model_run(m, MODEL_T_END);
	ck_assert_uint_eq(c.pkts[0][0], 10);
	ck_assert_uint_eq(model_now(m), 50000 + 10 * 816);
	model_read_delay(m, 0, 1, 0, 0, &d);
	/* the first packet (arrived at 0) left at 50816 */
	ck_assert_uint_eq(d.max_ns, 50816);
	model_free(m);
}
END_TEST

/* 1-in-100 sampling: marked = pool / 100 within 4 sigma; every sample
 * record carries delay = departure - arrival and the depth it met. */
struct samp {
	uint64_t dep;
};

START_TEST(test_sampling)
{
	struct model_config cfg;
	ck_assert_int_eq(tcfg_simple(&cfg, 2, G10), 0);
	cfg.ports[0].sampling_rate = 100;
	cfg.event_capacity = 8192;
	struct model *m = tmodel(&cfg);
	model_config_release(&cfg);
	struct tsrc_spec sp = {0};
	sp.in_port = 0;
	sp.out_port = 1;
	sp.gap_ns = 408; /* twice line rate for 1000 B: a queue builds */
	sp.len = 1000;
	sp.count = 200000;
	tadd(m, &sp);
	uint64_t nsamp = 0, bad = 0;
	struct model_event ev[256];
	while (!model_idle(m)) {
		model_advance_to(m, model_now(m) + 1000000);
		size_t n;
		while ((n = model_events_read(m, ev, 256)) > 0)
			for (size_t i = 0; i < n; i++) {
				if (ev[i].type != MODEL_EV_SAMPLE)
					continue;
				nsamp++;
				/* FIFO at line rate: a packet that met d bytes
				 * waits d / 1000 transmissions of 816 ns, then
				 * its own */
				if (ev[i].delay_ns < 816 ||
				    ev[i].delay_ns >
					(uint64_t)ev[i].depth_bytes / 1000 * 816 + 816 + 816)
					bad++;
			}
	}
	struct model_if_counters ic;
	model_read_counters(m, 0, &ic);
	ck_assert_uint_eq(ic.sample_pool, 200000);
	ck_assert_uint_eq(ic.samples_marked, nsamp + ic.samples_dropped);
	ck_assert_uint_eq(bad, 0);
	/* uniform skips in [1, 199]: mean 100, sd ~57.4; 2000 samples:
	 * sd of the count ~ 2000 * 0.574 / sqrt(2000) ~ 26 */
	ck_assert_msg(fabs((double)ic.samples_marked - 2000.0) < 4 * 26, "marked %llu",
		      (unsigned long long)ic.samples_marked);
	model_free(m);
}
END_TEST

/* The ring keeps the oldest events and counts the ones it had to drop;
 * the CPU port is a port like the others. */
START_TEST(test_ring_cpu)
{
	struct model_config cfg;
	ck_assert_int_eq(tcfg_simple(&cfg, 2, G10), 0);
	cfg.event_capacity = 10;
	cfg.event_hdr_bytes = 20;
	cfg.cpu.speed_bps = 1000000000ULL;
	struct model *m = tmodel(&cfg);
	model_config_release(&cfg);
	struct tsrc_spec sp = {0};
	sp.in_port = 0;
	sp.out_port = 2; /* the CPU port */
	sp.gap_ns = 1000;
	sp.len = 100;
	sp.count = 30;
	sp.fwd_every = 1;
	sp.fwd_drop = 258;
	tadd(m, &sp);
	sp.fwd_every = 0;
	sp.count = 5;
	sp.t0_ns = 100000;
	tadd(m, &sp);
	model_run(m, MODEL_T_END);
	struct model_stats st;
	model_get_stats(m, &st);
	ck_assert_uint_eq(st.events, 30);
	ck_assert_uint_eq(st.events_lost, 20);
	struct model_event ev[16];
	ck_assert_uint_eq(model_events_read(m, ev, 16), 10);
	ck_assert_uint_eq(ev[0].t_ns, 0);
	ck_assert_uint_eq(ev[9].t_ns, 9000);
	ck_assert_uint_eq(ev[0].hdr_len, 20);
	struct model_delay d;
	ck_assert_int_eq(model_read_delay(m, 0, 2, 0, 0, &d), 0);
	ck_assert_uint_eq(d.n, 5);
	ck_assert_uint_eq(d.max_ns, 960); /* 120 B at 1G */
	struct model_if_counters ic;
	ck_assert_int_eq(model_read_counters(m, 2, &ic), 0);
	ck_assert_uint_eq(ic.out_ucast, 5);
	ck_assert_int_eq(model_read_counters(m, 3, &ic), -1);
	model_free(m);
}
END_TEST

/* Bounded advance: the same result in slices of 3 events. */
START_TEST(test_bounded)
{
	struct model_config cfg;
	ck_assert_int_eq(tcfg_simple(&cfg, 2, G10), 0);
	cfg.marker_tick_ns = 0; /* no background events: count exactly */
	struct model *m = tmodel(&cfg);
	model_config_release(&cfg);
	struct tsrc_spec sp = {0};
	sp.in_port = 0;
	sp.out_port = 1;
	sp.gap_ns = 100;
	sp.len = 1000;
	sp.count = 10;
	tadd(m, &sp);
	unsigned calls = 0;
	while (model_advance_bounded(m, 1000000, 3) == 1) {
		calls++;
		ck_assert_uint_lt(model_now(m), 1000000);
	}
	/* 20 events (10 arrivals, 10 departures) in slices of 3 */
	ck_assert_uint_eq(calls, 6);
	ck_assert_uint_eq(model_now(m), 1000000);
	struct model_delay d;
	model_read_delay(m, 0, 1, 0, 0, &d);
	ck_assert_uint_eq(d.n, 10);
	/* the last packet arrived at 900 and left at 10 * 816 */
	ck_assert_uint_eq(d.max_ns, 10 * 816 - 900);
	model_free(m);
}
END_TEST

/* Events hours apart: the engine's time base moves and far events wait
 * apart, with no effect on timing (every sojourn exact). */
static int far_next(void *state, struct model_pkt *p)
{
	uint64_t *i = state;
	/* 2^39 ns (~9 min) steps, then one 2^42 ns (~73 min) gap, then 2^39 */
	static const uint64_t t[] = {0,
				     1ULL << 39,
				     2ULL << 39,
				     3ULL << 39,
				     (3ULL << 39) + (1ULL << 42),
				     (4ULL << 39) + (1ULL << 42),
				     (4ULL << 39) + (1ULL << 42) + 5000};
	if (*i >= sizeof(t) / sizeof(t[0]))
		return 0;
	memset(p, 0, sizeof(*p));
	p->t_ns = t[*i];
	p->len = 1000;
	p->in_port = 0;
	p->out_port = 1;
	p->flow_id = (uint32_t)*i;
	(*i)++;
	return 1;
}

START_TEST(test_far_future)
{
	struct model_config cfg;
	ck_assert_int_eq(tcfg_simple(&cfg, 2, G10), 0);
	struct model *m = tmodel(&cfg);
	model_config_release(&cfg);
	uint64_t *st = calloc(1, sizeof(*st));
	struct model_source s = {.next = far_next, .free = free, .state = st, .name = "far"};
	model_add_source(m, &s);
	/* a second source with the same times: two packets per time */
	uint64_t *st2 = calloc(1, sizeof(*st2));
	struct model_source s2 = {.next = far_next, .free = free, .state = st2, .name = "far2"};
	model_add_source(m, &s2);
	struct model_delay d;
	ck_assert_int_eq(model_run(m, MODEL_T_END), 0);
	model_read_delay(m, 0, 1, 0, 0, &d);
	ck_assert_uint_eq(d.n, 14);
	/* the two copies of each time: 816 and 2 * 816 */
	ck_assert_uint_eq(d.sum_ns, 7 * (816 + 2 * 816));
	ck_assert_uint_eq(d.max_ns, 2 * 816);
	ck_assert_uint_eq(model_now(m), (4ULL << 39) + (1ULL << 42) + 5000 + 2 * 816);
	model_free(m);
}
END_TEST

/* Delay read windows.  Port 0 -> port 1 at 10G, 1000-byte frames (816 ns
 * each on the wire): phase A one packet at 0 (non-tagged latency 816);
 * phase B three at 5000 and one at 6000, departing back to back at 5816,
 * 6632, 7448, 8264: measurements 816 (the first at 5000) and 2264 (the
 * one at 6000, started after the first departure).  Marker delay (no
 * background tick): the marker set at 5000 leaves at 5816, the marker
 * becomes the tail (5000): 816; at 6632: 1632; at 7448 the marker leaves,
 * its stored 1632 carries over (the new marker, 6000, is 1448 old); the
 * last departure empties the queue: max 1632, current 0. */
static int win_next(void *state, struct model_pkt *p)
{
	uint64_t *i = state;
	static const uint64_t t[] = {0, 5000, 5000, 5000, 6000};
	if (*i >= 5)
		return 0;
	memset(p, 0, sizeof(*p));
	p->t_ns = t[*i];
	p->len = 1000;
	p->in_port = 0;
	p->out_port = 1;
	(*i)++;
	return 1;
}

static void rd(struct model *m, unsigned w, struct model_delay *d)
{
	ck_assert_int_eq(model_read_delay(m, w, 1, 0, 0, d), 0);
}

START_TEST(test_delay_windows)
{
	struct model_config cfg;
	ck_assert_int_eq(tcfg_simple(&cfg, 2, G10), 0);
	cfg.marker_tick_ns = 0;
	struct model *m = tmodel(&cfg);
	model_config_release(&cfg);
	uint64_t *st = calloc(1, sizeof(*st));
	struct model_source s = {.next = win_next, .free = free, .state = st, .name = "list"};
	model_add_source(m, &s);
	struct model_delay d;
	ck_assert_int_eq(model_read_delay(m, MODEL_NUM_WINDOWS, 1, 0, 0, &d), -1);

	model_advance_to(m, 2000);
	rd(m, 0, &d);
	ck_assert_uint_eq(d.nt_latest_ns, 816);
	ck_assert_uint_eq(d.nt_max_ns, 816);
	ck_assert_uint_eq(d.nt_count, 1);
	ck_assert_uint_eq(d.nt_win_count, 1);
	rd(m, 3, &d); /* window 3 read once here, then at the end */
	ck_assert_uint_eq(d.nt_max_ns, 816);
	ck_assert_uint_eq(d.nt_win_count, 1);

	model_run(m, MODEL_T_END);
	ck_assert_uint_eq(model_now(m), 8264);
	/* window 1 never read: everything since the start */
	rd(m, 1, &d);
	ck_assert_uint_eq(d.nt_latest_ns, 2264);
	ck_assert_uint_eq(d.nt_max_ns, 2264);
	ck_assert_uint_eq(d.nt_count, 3);
	ck_assert_uint_eq(d.nt_win_count, 3);
	ck_assert_uint_eq(d.mk_delay_ns, 0);
	ck_assert_uint_eq(d.mk_max_ns, 1632);
	ck_assert_uint_eq(d.n, 5);
	ck_assert_uint_eq(d.max_ns, 2448); /* the third at 5000 leaves at 7448 */
	/* window 0: phase B only (window 1's read did not reset it) */
	rd(m, 0, &d);
	ck_assert_uint_eq(d.nt_max_ns, 2264);
	ck_assert_uint_eq(d.nt_win_count, 2);
	ck_assert_uint_eq(d.mk_max_ns, 1632);
	/* read again: nothing new */
	rd(m, 0, &d);
	ck_assert_uint_eq(d.nt_latest_ns, 2264);
	ck_assert_uint_eq(d.nt_max_ns, 0);
	ck_assert_uint_eq(d.nt_win_count, 0);
	ck_assert_uint_eq(d.nt_count, 3);
	ck_assert_uint_eq(d.mk_max_ns, 0);
	rd(m, 1, &d);
	ck_assert_uint_eq(d.nt_max_ns, 0);
	ck_assert_uint_eq(d.nt_win_count, 0);
	/* windows 2 (never read) and 3 (read after phase A) keep theirs */
	rd(m, 2, &d);
	ck_assert_uint_eq(d.nt_max_ns, 2264);
	ck_assert_uint_eq(d.nt_win_count, 3);
	ck_assert_uint_eq(d.mk_max_ns, 1632);
	rd(m, 3, &d);
	ck_assert_uint_eq(d.nt_max_ns, 2264);
	ck_assert_uint_eq(d.nt_win_count, 2);
	ck_assert_uint_eq(d.mk_max_ns, 1632);
	model_free(m);
}
END_TEST

/* Per-object buffer reads.  At t = 0, 10 packets of 1000 B (4 cells of
 * 256) arrive for port 0 (from port 2) and 5 for port 1 (from port 3);
 * nothing leaves before 816 ns, so the peaks are: queue / egress of port
 * 0: 40 cells, 10000 B; of port 1: 20 cells, 5000 B; ingress of port 2:
 * 40 cells; device unicast: 60 cells; all at t = 0.  Reading one object's
 * window restarts that object's window only. */
static uint32_t pq(struct model *m, unsigned w, unsigned port)
{
	struct model_port_buffers b;
	ck_assert_int_eq(model_read_port_buffers(m, w, port, &b), 0);
	ck_assert_uint_eq(b.ucq[0].peak_cells, b.egr_uc.peak_cells);
	return b.ucq[0].peak_cells;
}

static uint32_t dev(struct model *m, unsigned w)
{
	struct model_device_buffers d;
	ck_assert_int_eq(model_read_device_buffers(m, w, &d), 0);
	return d.dev_uc.peak_cells;
}

START_TEST(test_port_reads)
{
	struct model_config cfg;
	ck_assert_int_eq(tcfg_simple(&cfg, 4, G10), 0);
	struct model *m = tmodel(&cfg);
	model_config_release(&cfg);
	struct tsrc_spec sp = {0};
	sp.in_port = 2;
	sp.out_port = 0;
	sp.len = 1000;
	sp.count = 10; /* gap 0: all at t = 0 */
	tadd(m, &sp);
	sp.in_port = 3;
	sp.out_port = 1;
	sp.count = 5;
	tadd(m, &sp);
	model_run(m, MODEL_T_END);
	ck_assert_uint_eq(model_now(m), 8160); /* 10 x 816 ns */

	struct model_port_buffers b;
	struct model_device_buffers d;
	ck_assert_int_eq(model_read_port_buffers(m, MODEL_NUM_WINDOWS, 0, &b), -1);
	ck_assert_int_eq(model_read_port_buffers(m, 0, 5, &b), -1); /* CPU port is 4 */
	ck_assert_int_eq(model_read_device_buffers(m, MODEL_NUM_WINDOWS, &d), -1);

	/* port 0, window 0: its peak, then restarted (now empty) */
	ck_assert_int_eq(model_read_port_buffers(m, 0, 0, &b), 0);
	ck_assert_uint_eq(b.ucq[0].peak_cells, 40);
	ck_assert_uint_eq(b.ucq[0].peak_bytes, 10000);
	ck_assert_uint_eq(b.ucq[0].peak_t_ns, 0);
	ck_assert_uint_eq(b.ucq[0].cur_cells, 0);
	ck_assert_uint_eq(b.egr_uc.peak_cells, 40);
	ck_assert_uint_eq(b.ing_uc.peak_cells, 0); /* port 0 received nothing */
	ck_assert_uint_eq(pq(m, 0, 0), 0);
	/* port 1, window 1 then window 0: reading port 0's window 0 left port
	 * 1's intact, and reading window 1 does not reset window 0 */
	ck_assert_uint_eq(pq(m, 1, 1), 20);
	ck_assert_uint_eq(pq(m, 0, 1), 20);
	ck_assert_uint_eq(pq(m, 0, 1), 0);
	ck_assert_uint_eq(pq(m, 1, 1), 0);
	/* window 0 reads did not reset port 0's window 1 */
	ck_assert_uint_eq(pq(m, 1, 0), 40);
	/* the device and pools are apart from the ports */
	ck_assert_uint_eq(dev(m, 0), 60);
	ck_assert_uint_eq(dev(m, 0), 0);
	ck_assert_int_eq(model_read_device_buffers(m, 1, &d), 0);
	ck_assert_uint_eq(d.dev_uc.peak_cells, 60);
	ck_assert_uint_eq(d.dev_uc.peak_bytes, 15000);
	ck_assert_uint_eq(d.ing_pool[0].peak_cells, 60); /* no minimums: all shared */
	ck_assert_uint_eq(d.egr_pool[0].peak_cells, 60);
	ck_assert_uint_eq(d.ing_pool[1].alloc_cells, 0); /* one pool: rest zero */
	/* the ingress port, not read so far in window 0 */
	ck_assert_int_eq(model_read_port_buffers(m, 0, 2, &b), 0);
	ck_assert_uint_eq(b.ing_uc.peak_cells, 40);
	ck_assert_uint_eq(b.pg[0].peak_cells, 40);
	/* the whole-switch read is all of these at once: window 2, never read */
	struct model_buffers *all = model_buffers_new(m);
	ck_assert_ptr_nonnull(all);
	ck_assert_int_eq(model_read_buffers(m, 2, all), 0);
	ck_assert_uint_eq(all->nports, 5);
	ck_assert_uint_eq(all->dev_uc.peak_cells, 60);
	ck_assert_uint_eq(all->ports[0].ucq[0].peak_cells, 40);
	ck_assert_uint_eq(all->ports[1].ucq[0].peak_cells, 20);
	ck_assert_uint_eq(all->ports[3].ing_uc.peak_cells, 20);
	model_buffers_free(all);
	ck_assert_uint_eq(pq(m, 2, 0), 0);
	ck_assert_uint_eq(dev(m, 2), 0);
	/* window 3, never read, still has everything */
	ck_assert_uint_eq(pq(m, 3, 1), 20);
	ck_assert_uint_eq(dev(m, 3), 60);

	/* a new burst into port 1 only, at 1 ms: 3 packets */
	sp.in_port = 3;
	sp.out_port = 1;
	sp.count = 3;
	sp.t0_ns = 1000000;
	tadd(m, &sp);
	model_run(m, MODEL_T_END);
	ck_assert_int_eq(model_read_port_buffers(m, 0, 1, &b), 0);
	ck_assert_uint_eq(b.ucq[0].peak_cells, 12);
	ck_assert_uint_eq(b.ucq[0].peak_t_ns, 1000000);
	ck_assert_uint_eq(pq(m, 0, 0), 0);
	ck_assert_uint_eq(pq(m, 1, 1), 12);
	model_free(m);
}
END_TEST

/* Samples lost to a full event ring are counted per ingress port: every
 * packet is sampled (1-in-1), nothing is dropped, the ring has 8 slots and
 * is read slowly, so samples_lost = marked - sample events read, port by
 * port, and the losses are the ring's overflows. */
START_TEST(test_samples_lost)
{
	struct model_config cfg;
	ck_assert_int_eq(tcfg_simple(&cfg, 3, G10), 0);
	cfg.ports[0].sampling_rate = 1;
	cfg.ports[1].sampling_rate = 1;
	cfg.event_capacity = 8;
	struct model *m = tmodel(&cfg);
	model_config_release(&cfg);
	struct tsrc_spec sp = {0};
	sp.out_port = 2;
	sp.len = 1000;
	sp.gap_ns = 2000;
	sp.in_port = 0;
	sp.count = 300;
	tadd(m, &sp);
	sp.in_port = 1;
	sp.count = 200;
	sp.t0_ns = 1000;
	tadd(m, &sp);
	uint64_t read[3] = {0, 0, 0}, other = 0;
	struct model_event ev[3];
	while (!model_idle(m)) {
		model_advance_to(m, model_now(m) + 20000);
		size_t n = model_events_read(m, ev, 3);
		for (size_t i = 0; i < n; i++) {
			if (ev[i].type == MODEL_EV_SAMPLE && ev[i].in_port < 3)
				read[ev[i].in_port]++;
			else
				other++;
		}
	}
	size_t n;
	while ((n = model_events_read(m, ev, 3)) > 0)
		for (size_t i = 0; i < n; i++)
			read[ev[i].in_port]++;
	ck_assert_uint_eq(other, 0);
	struct model_if_counters c0, c1, c2;
	struct model_stats st;
	model_read_counters(m, 0, &c0);
	model_read_counters(m, 1, &c1);
	model_read_counters(m, 2, &c2);
	model_get_stats(m, &st);
	ck_assert_uint_eq(st.copies_dropped + st.ing_dropped, 0);
	ck_assert_uint_eq(c0.samples_marked, 300);
	ck_assert_uint_eq(c1.samples_marked, 200);
	ck_assert_uint_eq(c0.samples_dropped + c1.samples_dropped, 0);
	ck_assert_uint_eq(c0.samples_lost, 300 - read[0]);
	ck_assert_uint_eq(c1.samples_lost, 200 - read[1]);
	ck_assert_uint_eq(c2.samples_lost, 0);
	ck_assert_uint_eq(read[2], 0);
	/* 500 samples over ~600 us, 8 slots + 3 read per 20 us: most lost */
	ck_assert_uint_gt(c0.samples_lost, 100);
	ck_assert_uint_gt(c1.samples_lost, 50);
	ck_assert_uint_eq(c0.samples_lost + c1.samples_lost, st.events_lost);
	ck_assert_uint_eq(st.events, 500);
	model_free(m);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("model_features");
	TCase *tc = tcase_create("features");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_dwrr_sp);
	tcase_add_test(tc, test_dwrr_wire);
	tcase_add_test(tc, test_multicast);
	tcase_add_test(tc, test_fwd_drops);
	tcase_add_test(tc, test_drop_causes);
	tcase_add_test(tc, test_egress_pause);
	tcase_add_test(tc, test_sampling);
	tcase_add_test(tc, test_ring_cpu);
	tcase_add_test(tc, test_bounded);
	tcase_add_test(tc, test_far_future);
	tcase_add_test(tc, test_delay_windows);
	tcase_add_test(tc, test_port_reads);
	tcase_add_test(tc, test_samples_lost);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
