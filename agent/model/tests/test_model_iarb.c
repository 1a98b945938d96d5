/*
 * test_model_iarb.c - ingress arbitration with accelerated memory
 * against the source document's numbers: SOP latency 47 vs 87 clocks
 * (87 -> 47 is 46 % less), AM sized 64 ports x 128 B = 8192 B, the
 * boundary rule (a measure equal to its threshold is congested), every
 * input alone forcing the PB path, the oversubscription input at 69 % and
 * 71 % of the peak rate with a 70 % threshold, PFC on the PB usage
 * threshold, flow order kept while the mode flips packet by packet, and
 * the counters (AM + PB path = enqueued, AM peak reset by a read).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "agent/model/model_iarb.h"

static struct model_iarb *mk(struct model_iarb_config *c)
{
	struct model_err err;
	struct model_iarb *ia = model_iarb_new(c, &err);
	if (ia == NULL)
		fprintf(stderr, "%s\n", err.msg);
	ck_assert_ptr_nonnull(ia);
	return ia;
}

START_TEST(test_latency_47_87)
{
	struct model_iarb_config c;
	model_iarb_defaults(&c, 64);
	c.inputs = 0;
	struct model_iarb *ia = mk(&c);
	struct model_iarb_in in = {0};
	/* uncongested: through AM, 47 clocks at 1 GHz = 47 ns */
	struct model_iarb_res r = model_iarb_enqueue(ia, 0, 64, &in, 1000);
	ck_assert_int_eq(r.mode, MODEL_IARB_AM);
	ck_assert_uint_eq(r.lat_clk, 47);
	ck_assert_uint_eq(r.ready, 1047);
	model_iarb_free(ia);
	/* congested (ingress PFC): through PB, 87 ns */
	c.inputs = 1u << MODEL_IARB_IN_PFC_ING;
	ia = mk(&c);
	in.pfc_ing = 1;
	r = model_iarb_enqueue(ia, 0, 64, &in, 1000);
	ck_assert_int_eq(r.mode, MODEL_IARB_PB);
	ck_assert_uint_eq(r.ready, 1087);
	/* the speed-up: (87 - 47) / 87 = 45.98 % less, i.e. 46 % */
	unsigned pct = (unsigned)(((87 - 47) * 10000 + 87 / 2) / 87); /* hundredths */
	ck_assert_uint_eq(pct, 4598);
	ck_assert_uint_eq(model_iarb_clk_ns(ia, 87) - model_iarb_clk_ns(ia, 47), 40);
	model_iarb_free(ia);
	/* at 500 MHz a clock is 2 ns */
	c.clock_hz = 500000000ULL;
	ia = mk(&c);
	ck_assert_uint_eq(model_iarb_clk_ns(ia, 47), 94);
	model_iarb_free(ia);
}
END_TEST

START_TEST(test_am_sizing)
{
	struct model_iarb_config c;
	model_iarb_defaults(&c, 64);
	struct model_iarb *ia = mk(&c);
	ck_assert_uint_eq(model_iarb_config(ia)->am_bytes, 64 * 128);
	ck_assert_uint_eq(model_iarb_config(ia)->am_bytes, 8192);
	model_iarb_free(ia);
	model_iarb_defaults(&c, 32);
	ia = mk(&c);
	ck_assert_uint_eq(model_iarb_config(ia)->am_bytes, 4096);
	model_iarb_free(ia);
	/* an AM not smaller than the PB is refused */
	struct model_err err;
	model_iarb_defaults(&c, 4);
	c.am_bytes = 1 << 20;
	c.pb_bytes = 1 << 20;
	ck_assert_ptr_null(model_iarb_new(&c, &err));
}
END_TEST

/* Three SOPs in AM (384 bytes) at the same ns; the fourth meets a fill of
 * 384: with the threshold at 384 it is congested (equal counts as
 * congested), at 385 it is accelerated. */
START_TEST(test_boundary_equal_is_congested)
{
	for (int th = 384; th <= 385; th++) {
		struct model_iarb_config c;
		model_iarb_defaults(&c, 64);
		c.inputs = 1u << MODEL_IARB_IN_AM;
		c.am_thresh = (uint64_t)th;
		struct model_iarb *ia = mk(&c);
		for (int k = 0; k < 3; k++)
			ck_assert_int_eq(model_iarb_enqueue(ia, (uint32_t)k, 64, NULL, 0).mode,
					 MODEL_IARB_AM);
		struct model_iarb_res r = model_iarb_enqueue(ia, 3, 64, NULL, 0);
		if (th == 384) {
			ck_assert_int_eq(r.mode, MODEL_IARB_PB);
			ck_assert_uint_eq(r.causes, 1u << MODEL_IARB_IN_AM);
		} else {
			ck_assert_int_eq(r.mode, MODEL_IARB_AM);
		}
		model_iarb_free(ia);
	}
}
END_TEST

/* Per-port AM shares: port 3's share (128 B) is full, port 4's is not. */
START_TEST(test_am_per_port)
{
	struct model_iarb_config c;
	model_iarb_defaults(&c, 64);
	c.inputs = 1u << MODEL_IARB_IN_AM;
	c.am_per_port = 1;
	struct model_iarb *ia = mk(&c);
	ck_assert_int_eq(model_iarb_enqueue(ia, 3, 64, NULL, 0).mode, MODEL_IARB_AM);
	ck_assert_int_eq(model_iarb_enqueue(ia, 3, 64, NULL, 1).mode, MODEL_IARB_PB);
	ck_assert_int_eq(model_iarb_enqueue(ia, 4, 64, NULL, 1).mode, MODEL_IARB_AM);
	/* port 3's SOP leaves AM at 47: accelerated again */
	ck_assert_int_eq(model_iarb_enqueue(ia, 3, 64, NULL, 200).mode, MODEL_IARB_AM);
	model_iarb_free(ia);
}
END_TEST

/* Each input on its own forces the PB path. */
START_TEST(test_each_input_alone)
{
	for (int k = MODEL_IARB_IN_PFC_ING; k <= MODEL_IARB_IN_EGR_OVER; k++) {
		if (k == MODEL_IARB_IN_OVERSUB)
			continue;
		struct model_iarb_config c;
		model_iarb_defaults(&c, 8);
		c.peak_bps = 100000000000ULL;
		struct model_iarb *ia = mk(&c);
		struct model_iarb_in in = {0};
		ck_assert_int_eq(model_iarb_enqueue(ia, 0, 64, &in, 0).mode, MODEL_IARB_AM);
		in.pfc_ing = k == MODEL_IARB_IN_PFC_ING;
		in.pfc_egr = k == MODEL_IARB_IN_PFC_EGR;
		in.pfc_ing_res = k == MODEL_IARB_IN_PFC_ING_RES;
		in.pfc_egr_res = k == MODEL_IARB_IN_PFC_EGR_RES;
		in.egr_over = k == MODEL_IARB_IN_EGR_OVER;
		struct model_iarb_res r = model_iarb_enqueue(ia, 0, 64, &in, 1000);
		ck_assert_int_eq(r.mode, MODEL_IARB_PB);
		ck_assert_uint_eq(r.causes, 1u << k);
		struct model_iarb_counters ct;
		model_iarb_read(ia, 8, 0, 1000, &ct);
		ck_assert_uint_eq(ct.by_cause[k], 1);
		ck_assert_uint_eq(ct.transitions, 1);
		model_iarb_free(ia);
		/* switched off, the same input is ignored */
		c.inputs &= ~(1u << k);
		ia = mk(&c);
		ck_assert_int_eq(model_iarb_enqueue(ia, 0, 64, &in, 0).mode, MODEL_IARB_AM);
		model_iarb_free(ia);
	}
}
END_TEST

/* Constant traffic at pct % of a 100 Gb/s peak, one 200 ns packet
 * interval (len = pct x 100e9 x 200e-9 / 8 / 100 bytes): after the
 * first rate window, the fraction of SOPs accelerated. */
static double oversub_run(unsigned pct)
{
	struct model_iarb_config c;
	model_iarb_defaults(&c, 8);
	c.inputs = 1u << MODEL_IARB_IN_OVERSUB;
	c.peak_bps = 100000000000ULL;
	struct model_iarb *ia = mk(&c);
	uint32_t len = pct * 25; /* 100e9 x 200e-9 / 8 = 2500 bytes at 100 % */
	uint64_t n = 0, acc = 0;
	for (uint64_t t = 0; t < 1000000; t += 200) {
		struct model_iarb_res r = model_iarb_enqueue(ia, 0, len, NULL, t);
		if (t >= c.rate_win_ns) {
			n++;
			acc += r.mode == MODEL_IARB_AM;
		}
	}
	model_iarb_free(ia);
	return (double)acc / (double)n;
}

START_TEST(test_oversubscription_70)
{
	ck_assert(oversub_run(69) == 1.0); /* every SOP accelerated */
	ck_assert(oversub_run(71) == 0.0); /* none */
	ck_assert(oversub_run(70) == 0.0); /* equal: congested */
}
END_TEST

/* PFC asserted once PB usage passes its threshold, released when the
 * packets have left. */
START_TEST(test_pb_pfc)
{
	struct model_iarb_config c;
	model_iarb_defaults(&c, 8);
	c.inputs = 0;
	c.pb_pfc_bytes = 10000;
	struct model_iarb *ia = mk(&c);
	/* 1500 B: 12 units of 128 B = 1536 B, SOP unit in AM: 11 x 128 = 1408 */
	struct model_iarb_res r;
	for (int k = 0; k < 7; k++) { /* 7 x 1408 = 9856 <= 10000 */
		r = model_iarb_enqueue(ia, (uint32_t)k, 1500, NULL, 0);
		ck_assert_int_eq(r.pfc, 0);
	}
	r = model_iarb_enqueue(ia, 7, 1500, NULL, 0); /* 11264 > 10000 */
	ck_assert_int_eq(r.pfc, 1);
	r = model_iarb_enqueue(ia, 0, 64, NULL, 1000); /* all left at 47 */
	ck_assert_int_eq(r.pfc, 0);
	struct model_iarb_counters ct;
	model_iarb_read(ia, 8, 0, 1000, &ct);
	ck_assert_uint_eq(ct.pfc_on, 1);
	model_iarb_free(ia);
}
END_TEST

/* The mode flips packet by packet (egress PFC at random); 4 flows on 4
 * ports, packets 10 ns apart: at egress (by ready time, ties by arrival)
 * each flow's sequence numbers rise. */
START_TEST(test_order_kept)
{
	struct model_iarb_config c;
	model_iarb_defaults(&c, 4);
	c.inputs = 1u << MODEL_IARB_IN_PFC_EGR;
	struct model_iarb *ia = mk(&c);
	enum { N = 20000 };
	static uint64_t ready[N];
	static uint32_t flow[N], seq[N];
	uint32_t next_seq[4] = {0};
	unsigned modes[2] = {0, 0}, held = 0;
	uint64_t s = 12345;
	for (uint32_t i = 0; i < N; i++) {
		s = s * 6364136223846793005ULL + 1442695040888963407ULL;
		struct model_iarb_in in = {0};
		in.pfc_egr = (uint8_t)(s >> 63);
		flow[i] = (uint32_t)(s >> 40) & 3;
		seq[i] = next_seq[flow[i]]++;
		struct model_iarb_res r = model_iarb_enqueue(
		    ia, flow[i], 64 + (uint32_t)(s >> 50) % 1400, &in, (uint64_t)i * 10);
		ready[i] = r.ready;
		modes[r.mode]++;
		if (r.mode == MODEL_IARB_AM && r.ready - (uint64_t)i * 10 > 47)
			held++;
	}
	ck_assert_uint_gt(modes[0], N / 4);
	ck_assert_uint_gt(modes[1], N / 4);
	ck_assert_uint_gt(held, 0); /* AM packets waited behind PB ones */
	/* egress: the earliest ready first; check per flow */
	uint64_t last_ready[4] = {0};
	int64_t last_seq[4] = {-1, -1, -1, -1};
	for (uint32_t i = 0; i < N; i++) {
		uint32_t f = flow[i];
		ck_assert_uint_ge(ready[i], last_ready[f]);
		ck_assert_int_eq((int64_t)seq[i], last_seq[f] + 1);
		last_ready[f] = ready[i];
		last_seq[f] = seq[i];
	}
	struct model_iarb_counters ct;
	model_iarb_read(ia, 4, 0, N * 10, &ct);
	ck_assert_uint_eq(ct.accel + ct.not_accel, N);
	ck_assert_uint_eq(ct.accel, modes[MODEL_IARB_AM]);
	ck_assert_uint_eq(ct.lat[MODEL_IARB_AM].min, 47);
	ck_assert_uint_eq(ct.lat[MODEL_IARB_PB].min, 87);
	ck_assert_uint_gt(ct.transitions, 100);
	model_iarb_free(ia);
}
END_TEST

/* AM peak in hundredths of % of the AM, reset by a read of its window. */
START_TEST(test_am_peak_windows)
{
	struct model_iarb_config c;
	model_iarb_defaults(&c, 64);
	c.inputs = 1u << MODEL_IARB_IN_AM;
	struct model_iarb *ia = mk(&c);
	for (uint32_t k = 0; k < 16; k++)
		model_iarb_enqueue(ia, k, 64, NULL, 0);
	model_iarb_advance(ia, 1000);
	struct model_iarb_counters ct;
	model_iarb_read(ia, 64, 1, 1000, &ct);
	ck_assert_uint_eq(ct.am_peak, 16 * 128);
	ck_assert_uint_eq(ct.am_peak_pc, 2500); /* 2048 / 8192 */
	ck_assert_uint_eq(ct.am_cur, 0);
	model_iarb_read(ia, 64, 1, 1000, &ct);
	ck_assert_uint_eq(ct.am_peak, 0);
	model_iarb_read(ia, 64, 2, 1000, &ct); /* window 2 not read yet */
	ck_assert_uint_eq(ct.am_peak, 16 * 128);
	model_iarb_free(ia);
}
END_TEST

/* Hysteresis (ours, off by default): once congested at the AM threshold
 * (4 SOPs), the arbiter stays congested until the fill is below
 * hyst_pc (here 50 %) of it. */
START_TEST(test_hysteresis)
{
	struct model_iarb_config c;
	model_iarb_defaults(&c, 64);
	c.inputs = 1u << MODEL_IARB_IN_AM;
	c.am_thresh = 4 * 128;
	c.hysteresis = 1;
	c.hyst_pc = 5000; /* release below 256 B */
	struct model_iarb *ia = mk(&c);
	for (uint32_t k = 0; k < 4; k++)
		ck_assert_int_eq(model_iarb_enqueue(ia, k, 64, NULL, 0).mode, MODEL_IARB_AM);
	ck_assert_int_eq(model_iarb_enqueue(ia, 4, 64, NULL, 0).mode, MODEL_IARB_PB);
	model_iarb_free(ia);
	c.hysteresis = 0;
	ia = mk(&c);
	for (uint32_t k = 0; k < 4; k++)
		model_iarb_enqueue(ia, k, 64, NULL, (uint64_t)k * 10);
	/* at 47 the first SOP left: 384 < 512, accelerated without hysteresis */
	ck_assert_int_eq(model_iarb_enqueue(ia, 5, 64, NULL, 47).mode, MODEL_IARB_AM);
	model_iarb_free(ia);
	c.hysteresis = 1;
	ia = mk(&c);
	for (uint32_t k = 0; k < 4; k++)
		model_iarb_enqueue(ia, k, 64, NULL, (uint64_t)k * 10);
	ck_assert_int_eq(model_iarb_enqueue(ia, 4, 64, NULL, 31).mode, MODEL_IARB_PB);
	/* at 47 the first SOP left: 384 >= 256, still PB */
	ck_assert_int_eq(model_iarb_enqueue(ia, 5, 64, NULL, 47).mode, MODEL_IARB_PB);
	/* at 66 two left (at 47, 57): 256 >= 256 still; at 68 three: 128 */
	ck_assert_int_eq(model_iarb_enqueue(ia, 6, 64, NULL, 66).mode, MODEL_IARB_PB);
	ck_assert_int_eq(model_iarb_enqueue(ia, 7, 64, NULL, 68).mode, MODEL_IARB_AM);
	model_iarb_free(ia);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("model_iarb");
	TCase *tc = tcase_create("iarb");
	tcase_add_test(tc, test_latency_47_87);
	tcase_add_test(tc, test_am_sizing);
	tcase_add_test(tc, test_boundary_equal_is_congested);
	tcase_add_test(tc, test_am_per_port);
	tcase_add_test(tc, test_each_input_alone);
	tcase_add_test(tc, test_oversubscription_70);
	tcase_add_test(tc, test_pb_pfc);
	tcase_add_test(tc, test_order_kept);
	tcase_add_test(tc, test_am_peak_windows);
	tcase_add_test(tc, test_hysteresis);
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
