/*
 * test_model_ext.c - the engine with its optional admission-path
 * mechanisms on: the ingress arbiter's SOP latency in every packet's
 * transit time (one 1000 B packet at 10 Gb/s: 816 ns of transmission,
 * plus 47 ns through AM, or 87 ns through PB), the engine's results
 * unchanged with both off, and flow-based admission on the engine: a hog
 * flow and four well-behaved flows sharing an egress port and class,
 * the well-behaved flows' loss with the flow regions off and on.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "agent/model/model.h"
#include "agent/model/model_flowbuf.h"
#include "agent/model/model_iarb.h"
#include "agent/model/tests/tsrc.h"

#define G10 10000000000ULL

struct seen {
	uint64_t transit, dep[8], drop[8], drop_cause[8];
};

static void on_trace(void *arg, const struct model_trace *tr)
{
	struct seen *s = arg;
	unsigned f = tr->flow_id & 7;
	if (tr->departed) {
		s->transit = tr->t_ns - tr->t_arr_ns;
		s->dep[f]++;
	} else {
		s->drop[f]++;
		s->drop_cause[tr->cause & 7]++;
	}
}

/* One 1000 B packet port 0 -> 1; mode: -1 no arbiter, 0 through AM, 1
 * through PB (egress over-utilization at 0 %: always congested). */
static uint64_t one_packet(int mode)
{
	struct model_config cfg;
	ck_assert_int_eq(tcfg_simple(&cfg, 2, G10), 0);
	if (mode >= 0) {
		struct model_iarb_config *ic = malloc(sizeof(*ic));
		ck_assert_ptr_nonnull(ic);
		model_iarb_defaults(ic, 3);
		ic->egr_over_pc = mode == 1 ? 0 : 10000;
		cfg.iarb = ic;
	}
	struct model *m = tmodel(&cfg);
	model_config_release(&cfg);
	struct seen s = {0};
	model_set_trace(m, on_trace, &s);
	struct tsrc_spec sp = {.in_port = 0,
			       .out_port = 1,
			       .t0_ns = 100,
			       .gap_ns = 1,
			       .len = 1000,
			       .count = 1,
			       .seed = 1};
	tadd(m, &sp);
	model_run(m, 100000);
	ck_assert_uint_eq(s.dep[0], 1);
	if (mode >= 0) {
		struct model_iarb_counters c;
		model_iarb_read(model_iarb_of(m), 3, 0, 100000, &c);
		ck_assert_uint_eq(c.accel, mode == 0);
		ck_assert_uint_eq(c.not_accel, mode == 1);
	}
	model_free(m);
	return s.transit;
}

START_TEST(test_sop_latency_in_transit)
{
	/* (1000 + 20) x 8 / 10 = 816 ns on the wire */
	ck_assert_uint_eq(one_packet(-1), 816);
	ck_assert_uint_eq(one_packet(0), 816 + 47);
	ck_assert_uint_eq(one_packet(1), 816 + 87);
}
END_TEST

/* Hog: port 0 -> 2 at line rate (10 Gb/s, flow 0); four flows (1..4) of
 * 1 Gb/s each on average (exponential gaps) from port 1 -> 2, class 0;
 * a 1 MiB pool; flow regions by source (the flow id) with alpha 0.25, or
 * off (only the occupancy counts, alpha 1). */
static void hog_engine(int flow_on, double *small_loss, double *hog_loss)
{
	struct model_config cfg;
	ck_assert_int_eq(tcfg_simple(&cfg, 3, G10), 0);
	struct model_fb_config *fc = calloc(1, sizeof(*fc));
	ck_assert_ptr_nonnull(fc);
	model_fb_defaults(fc, 4, 1 << 20);
	fc->flow_on = (uint8_t)flow_on;
	fc->classify = MODEL_FB_CLASS_RULES;
	fc->n_counts = 5;
	fc->flow_bound.alpha = 0.25;
	for (unsigned f = 0; f < 5; f++) {
		struct model_fb_rule *r = &fc->rules[fc->n_rules++];
		r->match = MODEL_FB_M_SRC;
		r->key.src_ip = f; /* no headers: the flow id */
		r->src_len = 32;
		r->count = (uint16_t)f;
	}
	cfg.fb = fc;
	struct model *m = tmodel(&cfg);
	model_config_release(&cfg);
	struct seen s = {0};
	model_set_trace(m, on_trace, &s);
	double ser = tsrc_ser_ns(1500, G10);
	struct tsrc_spec hog = {.in_port = 0,
				.out_port = 2,
				.t0_ns = 0,
				.gap_ns = ser,
				.len = 1500,
				.count = 16000,
				.seed = 1,
				.flow_id = 0};
	tadd(m, &hog);
	for (unsigned f = 1; f <= 4; f++) {
		struct tsrc_spec sm = {.in_port = 1,
				       .out_port = 2,
				       .t0_ns = 10.0 * f,
				       .gap_dist = TS_EXP,
				       .gap_ns = 10 * ser,
				       .len = 1500,
				       .count = 1600,
				       .seed = 7 + f,
				       .flow_id = f};
		tadd(m, &sm);
	}
	model_run(m, MODEL_T_END);
	uint64_t sd = 0, sl = 0;
	for (unsigned f = 1; f <= 4; f++) {
		sd += s.dep[f];
		sl += s.drop[f];
	}
	*small_loss = (double)sl / (double)(sd + sl);
	*hog_loss = (double)s.drop[0] / (double)(s.dep[0] + s.drop[0]);
	ck_assert_uint_eq(model_fb_used(model_fb_of(m)), 0); /* all released */
	struct model_err err;
	ck_assert_msg(model_audit(m, &err) == 0, "%s", err.msg);
	model_free(m);
}

START_TEST(test_hog_on_engine)
{
	double off_s, off_h, on_s, on_h;
	hog_engine(0, &off_s, &off_h);
	hog_engine(1, &on_s, &on_h);
	printf("engine, flow regions off: well-behaved loss %.2f %%, hog %.2f %%\n", 100 * off_s,
	       100 * off_h);
	printf("engine, flow regions on:  well-behaved loss %.2f %%, hog %.2f %%\n", 100 * on_s,
	       100 * on_h);
	ck_assert(off_s > 0.10);
	ck_assert(on_s < 0.001);
	ck_assert(on_h > 0.25); /* the hog pays: about 4/10 of its packets */
}
END_TEST

/* The drop event of a packet the flow-based admission drops names its
 * region and what the decision saw.  Regions by flow id (flow 1 is
 * region 1), a static bound of 3000 bytes, occupancy bounds of 1 MiB,
 * every state binary and all must admit; port 2's egress paused, five
 * 1000-byte packets of flow 1 from port 0: three are admitted (region
 * count 3000), the fourth meets count 3000 = bound: its state 100.00 %
 * (10000), the (ingress port, priority) and (egress port, priority)
 * counts 3000 of 1 MiB: 3000 x 10000 / 1048576 = 28; dropped with
 * reason 259, region 1, count 3000, bound 3000.  The fifth the same.
 * Other drops (here the device full) name none. */
START_TEST(test_fb_drop_event)
{
	struct model_config cfg;
	ck_assert_int_eq(tcfg_simple(&cfg, 3, G10), 0);
	struct model_fb_config *fc = calloc(1, sizeof(*fc));
	ck_assert_ptr_nonnull(fc);
	model_fb_defaults(fc, 4, 1 << 20);
	fc->classify = MODEL_FB_CLASS_RULES;
	fc->n_counts = 4;
	fc->flow_bound.stat = 3000;
	fc->occ_bound.stat = 1 << 20;
	for (unsigned f = 0; f < 4; f++) {
		struct model_fb_rule *r = &fc->rules[fc->n_rules++];
		r->match = MODEL_FB_M_SRC;
		r->key.src_ip = f;
		r->src_len = 32;
		r->count = (uint16_t)f;
	}
	cfg.fb = fc;
	cfg.total_cells = 20; /* 5 packets of 1000 B (4 cells) */
	cfg.ing_pool_cells[0] = cfg.egr_pool_cells[0] = 20;
	struct model *m = tmodel(&cfg);
	model_config_release(&cfg);
	ck_assert_int_eq(model_set_egress_pause(m, 2, 1), 0);
	struct tsrc_spec sp = {.in_port = 0,
			       .out_port = 2,
			       .t0_ns = 100,
			       .gap_ns = 10,
			       .len = 1000,
			       .count = 5,
			       .flow_id = 1};
	tadd(m, &sp);
	model_advance_to(m, 10000);
	struct model_event ev[8];
	size_t n = model_events_read(m, ev, 8);
	ck_assert_uint_eq(n, 2);
	for (size_t i = 0; i < n; i++) {
		ck_assert_uint_eq(ev[i].type, MODEL_EV_DROP);
		ck_assert_uint_eq(ev[i].reason, MODEL_REASON_NO_BUFFER_SPACE);
		ck_assert_uint_eq(ev[i].fb_drop, MODEL_FB_DROP_DT);
		ck_assert_uint_eq(ev[i].fb_region, 1);
		ck_assert_uint_eq(ev[i].fb_pc[0], 10000);
		ck_assert_uint_eq(ev[i].fb_pc[1], 28);
		ck_assert_uint_eq(ev[i].fb_pc[2], 28);
		ck_assert_uint_eq(ev[i].fb_count, 3000);
		ck_assert_uint_eq(ev[i].fb_bound, 3000);
	}
	/* flow 2 (region 2, count 0): two packets fill the buffer (20
	 * cells), the rest, admitted by its region (count 2000), are the
	 * device's drops, without a region */
	struct tsrc_spec sp2 = {.in_port = 1,
				.out_port = 2,
				.t0_ns = 20000,
				.gap_ns = 10,
				.len = 1000,
				.count = 5,
				.flow_id = 2};
	tadd(m, &sp2);
	model_advance_to(m, 30000);
	n = model_events_read(m, ev, 8);
	ck_assert_uint_eq(n, 3);
	for (size_t i = 0; i < n; i++) {
		ck_assert_uint_eq(ev[i].type, MODEL_EV_DROP);
		ck_assert_uint_eq(ev[i].fb_drop, 0);
		ck_assert_uint_eq(ev[i].fb_region, 0);
	}
	model_set_egress_pause(m, 2, 0);
	ck_assert_int_eq(model_run(m, MODEL_T_END), 0);
	model_free(m);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("model_ext");
	TCase *tc = tcase_create("ext");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_sop_latency_in_transit);
	tcase_add_test(tc, test_hog_on_engine);
	tcase_add_test(tc, test_fb_drop_event);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	srunner_run_all(sr, CK_NORMAL);
	int nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
