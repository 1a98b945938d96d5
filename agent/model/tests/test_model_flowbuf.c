/*
 * test_model_flowbuf.c - flow-based shared-buffer admission against the
 * source document's accounting and numbers: the dynamic threshold
 * B = 16 MiB, used = 12 MiB, alpha 0.5 / 1 / 2 -> T = 2 / 4 / 8 MiB; a
 * flow count of 2.5 MiB over T = 2 MiB dropped under "all admit" and
 * admitted under "majority" when both occupancy states admit; a dropped
 * packet consumes nothing; consumption and release on the three counts;
 * the three configurations of one flow per count, several flows on one
 * count, several counts in one state; state encodings; refresh lag;
 * flow-based WRED, mirroring and the short-time-change flag; and the
 * point of the mechanism: a hog flow held to its bound while the
 * well-behaved flows sharing its port and priority stop losing packets.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/model/model_flowbuf.h"

#define MiB (1024ULL * 1024ULL)

static struct model_fb *mk(const struct model_fb_config *c)
{
	struct model_err err;
	struct model_fb *fb = model_fb_new(c, &err);
	if (fb == NULL)
		fprintf(stderr, "%s\n", err.msg);
	ck_assert_ptr_nonnull(fb);
	return fb;
}

START_TEST(test_dt_closed_form)
{
	ck_assert_uint_eq(model_fb_dt(0.5, 16 * MiB, 12 * MiB), 2 * MiB);
	ck_assert_uint_eq(model_fb_dt(1.0, 16 * MiB, 12 * MiB), 4 * MiB);
	ck_assert_uint_eq(model_fb_dt(2.0, 16 * MiB, 12 * MiB), 8 * MiB);
	ck_assert_uint_eq(model_fb_dt(1.0, 16 * MiB, 16 * MiB), 0);
}
END_TEST

/* Region 0 at 2.5 MiB (5 packets of 0.5 MiB, port 0 -> 1), 19 other
 * regions at 0.5 MiB each (port 2 -> 3): used 12 MiB of 16, T = 2 MiB. */
static struct model_fb *fill_12(uint8_t rule)
{
	struct model_fb_config c;
	model_fb_defaults(&c, 4, 16 * MiB);
	c.n_counts = 20;
	c.flow_bound.alpha = 0.5;
	c.occ_bound.stat = 64 * MiB; /* the occupancy states admit */
	c.rule = rule;
	struct model_fb *fb = mk(&c);
	for (int k = 0; k < 5; k++)
		ck_assert_int_eq(model_fb_admit(fb, 0, 0, 0, 1, 0, MiB / 2, 0).drop, 0);
	for (uint16_t r = 1; r < 20; r++)
		ck_assert_int_eq(model_fb_admit(fb, r, 2, 0, 3, 0, MiB / 2, 0).drop, 0);
	ck_assert_uint_eq(model_fb_used(fb), 12 * MiB);
	ck_assert_uint_eq(model_fb_count(fb, 0), 5 * MiB / 2);
	return fb;
}

START_TEST(test_all_vs_majority)
{
	struct model_fb *fb = fill_12(MODEL_FB_RULE_ALL);
	struct model_fb_res r = model_fb_admit(fb, 0, 0, 0, 1, 0, 1500, 1);
	ck_assert_int_eq(r.drop, MODEL_FB_DROP_DT);
	ck_assert_uint_eq(r.pc[0], 12500); /* 2.5 / 2 */
	ck_assert_uint_lt(r.pc[1], 10000);
	ck_assert_uint_lt(r.pc[2], 10000);
	/* a dropped packet consumes nothing */
	ck_assert_uint_eq(model_fb_count(fb, 0), 5 * MiB / 2);
	ck_assert_uint_eq(model_fb_occ(fb, 0, 0, 0), 5 * MiB / 2);
	ck_assert_uint_eq(model_fb_occ(fb, 1, 1, 0), 5 * MiB / 2);
	ck_assert_uint_eq(model_fb_used(fb), 12 * MiB);
	model_fb_free(fb);
	fb = fill_12(MODEL_FB_RULE_MAJORITY);
	r = model_fb_admit(fb, 0, 0, 0, 1, 0, 1500, 1);
	ck_assert_int_eq(r.drop, 0);
	ck_assert_uint_eq(model_fb_count(fb, 0), 5 * MiB / 2 + 1500);
	model_fb_free(fb);
}
END_TEST

START_TEST(test_accounting)
{
	struct model_fb_config c;
	model_fb_defaults(&c, 4, 16 * MiB);
	struct model_fb *fb = mk(&c);
	struct model_fb_res r = model_fb_admit(fb, 7, 1, 3, 2, 5, 1500, 0);
	ck_assert_int_eq(r.drop, 0);
	ck_assert_uint_eq(model_fb_count(fb, 7), 1500);
	ck_assert_uint_eq(model_fb_occ(fb, 0, 1, 3), 1500);
	ck_assert_uint_eq(model_fb_occ(fb, 1, 2, 5), 1500);
	ck_assert_uint_eq(model_fb_occ(fb, 1, 2, 4), 0);
	model_fb_release(fb, 7, 1, 3, 2, 5, 1500, 10);
	ck_assert_uint_eq(model_fb_count(fb, 7), 0);
	ck_assert_uint_eq(model_fb_occ(fb, 0, 1, 3), 0);
	ck_assert_uint_eq(model_fb_occ(fb, 1, 2, 5), 0);
	ck_assert_uint_eq(model_fb_used(fb), 0);
	model_fb_free(fb);
	/* packet units: a 9000 B packet counts 1 */
	c.unit = MODEL_FB_UNIT_PKTS;
	fb = mk(&c);
	model_fb_admit(fb, 0, 0, 0, 1, 0, 9000, 0);
	ck_assert_uint_eq(model_fb_count(fb, 0), 1);
	model_fb_free(fb);
}
END_TEST

START_TEST(test_encodings)
{
	struct model_fb_config c;
	model_fb_defaults(&c, 2, 16 * MiB);
	c.encoding = MODEL_FB_STATE_PERCENT;
	struct model_fb *fb = mk(&c);
	ck_assert_uint_eq(model_fb_encode(fb, 7500), 7500); /* 1.5 MiB of 2 MiB */
	model_fb_free(fb);
	c.encoding = MODEL_FB_STATE_BINARY;
	fb = mk(&c);
	ck_assert_uint_eq(model_fb_encode(fb, 7500), 0);
	ck_assert_uint_eq(model_fb_encode(fb, 9999), 0);
	ck_assert_uint_eq(model_fb_encode(fb, 10000), 1);
	model_fb_free(fb);
	c.encoding = MODEL_FB_STATE_LEVELS; /* 4 levels: 3 is drop */
	fb = mk(&c);
	ck_assert_uint_eq(model_fb_encode(fb, 7500), 2);
	ck_assert_uint_eq(model_fb_encode(fb, 3333), 0);
	ck_assert_uint_eq(model_fb_encode(fb, 3334), 1);
	ck_assert_uint_eq(model_fb_encode(fb, 10000), 3);
	model_fb_free(fb);
	/* read back as a region's state: 1.5 MiB with T 2 MiB -> 7500 */
	c.encoding = MODEL_FB_STATE_PERCENT;
	c.n_counts = 2;
	c.flow_bound.stat = 2 * MiB;
	fb = mk(&c);
	for (int k = 0; k < 3; k++)
		model_fb_admit(fb, 0, 0, 0, 1, 0, MiB / 2, 0);
	struct model_fb_region rg;
	model_fb_read(fb, 0, &rg);
	ck_assert_uint_eq(rg.state, 7500);
	ck_assert_uint_eq(rg.cur_pc, 7500);
	ck_assert_uint_eq(rg.admitted, 3);
	model_fb_free(fb);
}
END_TEST

/* One flow per count; two flows aggregated on one count; two counts
 * combined in one state; classified by match rules. */
START_TEST(test_three_configurations)
{
	struct model_fb_config c;
	model_fb_defaults(&c, 4, 16 * MiB);
	c.classify = MODEL_FB_CLASS_RULES;
	c.n_counts = 5;
	c.n_states = 4;
	/* FL1 -> count 0 -> state 0; FL2, FL3 -> count 1 -> state 1;
	 * FL4 -> count 2, FL5 -> count 3, both -> state 2 (sum); FL6 ->
	 * count 4 -> state 3 */
	uint16_t cs[5] = {0, 1, 2, 2, 3};
	memcpy(c.count_state, cs, sizeof(cs));
	uint16_t fl_count[7] = {0, 0, 1, 1, 2, 3, 4};
	for (unsigned f = 1; f <= 6; f++) {
		struct model_fb_rule *r = &c.rules[c.n_rules++];
		r->match = MODEL_FB_M_DST | MODEL_FB_M_DPORT;
		r->key.dst_ip = 0x0a000000u + f;
		r->dst_len = 32;
		r->key.dst_port = (uint16_t)(1000 + f);
		r->count = fl_count[f];
	}
	c.flow_bound.stat = 3000;
	c.occ_bound.stat = 16 * MiB;
	struct model_fb *fb = mk(&c);
	struct model_fb_key k[7];
	for (unsigned f = 1; f <= 6; f++) {
		memset(&k[f], 0, sizeof(k[f]));
		k[f].dst_ip = 0x0a000000u + f;
		k[f].dst_port = (uint16_t)(1000 + f);
		k[f].src_port = (uint16_t)(f * 77); /* not matched */
		ck_assert_uint_eq(model_fb_classify(fb, &k[f]), fl_count[f]);
	}
	/* one flow, one count: 2 x 1500 then drop */
	ck_assert_int_eq(model_fb_admit(fb, 0, 0, 0, 1, 0, 1500, 0).drop, 0);
	ck_assert_int_eq(model_fb_admit(fb, 0, 0, 0, 1, 0, 1500, 0).drop, 0);
	ck_assert_int_eq(model_fb_admit(fb, 0, 0, 0, 1, 0, 1500, 0).drop, MODEL_FB_DROP_DT);
	/* aggregated: FL2 and FL3 fill count 1; both then dropped */
	uint16_t c2 = model_fb_classify(fb, &k[2]), c3 = model_fb_classify(fb, &k[3]);
	ck_assert_int_eq(model_fb_admit(fb, c2, 0, 0, 1, 0, 1500, 0).drop, 0);
	ck_assert_int_eq(model_fb_admit(fb, c3, 2, 0, 1, 0, 1500, 0).drop, 0);
	ck_assert_int_ne(model_fb_admit(fb, c2, 0, 0, 1, 0, 100, 0).drop, 0);
	ck_assert_int_ne(model_fb_admit(fb, c3, 2, 0, 1, 0, 100, 0).drop, 0);
	ck_assert_uint_eq(model_fb_count(fb, 1), 3000);
	/* combined state: FL4 1500 + FL5 1500 = 3000: FL4 refused though its
	 * own count is 1500; FL6 (own state) unaffected */
	ck_assert_int_eq(model_fb_admit(fb, 2, 0, 0, 1, 0, 1500, 0).drop, 0);
	ck_assert_int_eq(model_fb_admit(fb, 2, 0, 0, 1, 0, 1, 0).drop, 0);
	model_fb_release(fb, 2, 0, 0, 1, 0, 1, 0);
	ck_assert_int_eq(model_fb_admit(fb, 3, 0, 0, 1, 0, 1500, 0).drop, 0);
	ck_assert_int_eq(model_fb_admit(fb, 2, 0, 0, 1, 0, 1, 0).drop, MODEL_FB_DROP_DT);
	ck_assert_uint_eq(model_fb_count(fb, 2), 1500);
	ck_assert_int_eq(model_fb_admit(fb, 4, 0, 0, 1, 0, 1500, 0).drop, 0);
	/* a flow on two ingress ports: one count */
	ck_assert_uint_eq(model_fb_count(fb, 1), 3000);
	model_fb_free(fb);
	/* the hash: same 5-tuple, same region */
	model_fb_defaults(&c, 4, 16 * MiB);
	fb = mk(&c);
	struct model_fb_key a = {0x0a000001u, 0x0a000002u, 1234, 80, 6, 0, 0, 0}, b = a;
	b.dscp = 46; /* not hashed */
	ck_assert_uint_eq(model_fb_classify(fb, &a), model_fb_classify(fb, &b));
	model_fb_free(fb);
}
END_TEST

/* States from earlier packets, refreshed every 1000 ns: at a static bound
 * of 3000 B, the live state drops the 4th 1000 B packet; with the lag,
 * the state of t = 0 (empty) admits every packet until t = 1000. */
START_TEST(test_refresh_lag)
{
	struct model_fb_config c;
	model_fb_defaults(&c, 2, 16 * MiB);
	c.flow_bound.stat = 3000;
	struct model_fb *fb = mk(&c);
	for (int k = 0; k < 3; k++)
		ck_assert_int_eq(model_fb_admit(fb, 0, 0, 0, 1, 0, 1000, (uint64_t)k).drop, 0);
	ck_assert_int_ne(model_fb_admit(fb, 0, 0, 0, 1, 0, 1000, 3).drop, 0);
	model_fb_free(fb);
	c.refresh_ns = 1000;
	fb = mk(&c);
	for (int k = 0; k < 6; k++)
		ck_assert_int_eq(model_fb_admit(fb, 0, 0, 0, 1, 0, 1000, (uint64_t)k * 100).drop,
				 0);
	ck_assert_int_ne(model_fb_admit(fb, 0, 0, 0, 1, 0, 1000, 1000).drop, 0);
	model_fb_free(fb);
}
END_TEST

/* WRED on the flow count: held midway between min and max with
 * max_p 0.2, about 10 % of 1e5 packets dropped. */
START_TEST(test_flow_wred)
{
	struct model_fb_config c;
	model_fb_defaults(&c, 2, 16 * MiB);
	c.wred_min = 1000;
	c.wred_max = 3000;
	c.wred_maxp = 0.2;
	struct model_fb *fb = mk(&c);
	ck_assert_int_eq(model_fb_admit(fb, 0, 0, 0, 1, 0, 2000, 0).drop, 0);
	unsigned drops = 0;
	for (int k = 0; k < 100000; k++) {
		struct model_fb_res r = model_fb_admit(fb, 0, 0, 0, 1, 0, 64, 1);
		if (r.drop) {
			ck_assert_int_eq(r.drop, MODEL_FB_DROP_WRED);
			drops++;
		} else {
			model_fb_release(fb, 0, 0, 0, 1, 0, 64, 1);
		}
	}
	/* binomial: sd = sqrt(1e5 x 0.1 x 0.9) = 95 */
	ck_assert_uint_gt(drops, 10000 - 500);
	ck_assert_uint_lt(drops, 10000 + 500);
	struct model_fb_region rg;
	model_fb_read(fb, 0, &rg);
	ck_assert_uint_eq(rg.dropped_wred, drops);
	model_fb_free(fb);
}
END_TEST

/* Mirroring: packets of a region admitted while its count is above
 * 2000 B (1000 B packets: from the 3rd on); with the congestion
 * criterion, only while the (PO,Tp) state is at 50 % or more. */
START_TEST(test_flow_mirror)
{
	struct model_fb_config c;
	model_fb_defaults(&c, 2, 16 * MiB);
	c.mirror_at = 2000;
	struct model_fb *fb = mk(&c);
	unsigned expect = 0, got = 0;
	for (int k = 1; k <= 10; k++) {
		got += model_fb_admit(fb, 0, 0, 0, 1, 0, 1000, 0).mirror;
		expect += 1000u * (unsigned)k > 2000;
	}
	ck_assert_uint_eq(got, expect);
	ck_assert_uint_eq(got, 8);
	model_fb_free(fb);
	c.mirror_cong = 1;
	c.occ_bound.stat = 10000; /* 50 %: 5000 B in (PO,Tp) */
	fb = mk(&c);
	got = 0;
	for (int k = 1; k <= 9; k++) /* pc seen before: (k - 1) x 1000 */
		got += model_fb_admit(fb, 0, 0, 0, 1, 0, 1000, 0).mirror;
	ck_assert_uint_eq(got, 4); /* k = 6..9 */
	model_fb_free(fb);
}
END_TEST

/* The short-time change: 5 x 1000 B within one 1000 ns window over a
 * delta of 4000 raises exactly one event; a ramp of 1000 B per window
 * none. */
START_TEST(test_short_time_change)
{
	struct model_fb_config c;
	model_fb_defaults(&c, 2, 16 * MiB);
	c.stc_win_ns = 1000;
	c.stc_delta = 4000;
	struct model_fb *fb = mk(&c);
	unsigned ev = 0;
	for (int k = 0; k < 8; k++)
		ev += model_fb_admit(fb, 0, 0, 0, 1, 0, 1000, (uint64_t)k * 10).stc_event;
	ck_assert_uint_eq(ev, 1);
	model_fb_free(fb);
	fb = mk(&c);
	ev = 0;
	for (int k = 0; k < 50; k++)
		ev += model_fb_admit(fb, 0, 0, 0, 1, 0, 1000, (uint64_t)k * 1000 + 1).stc_event;
	ck_assert_uint_eq(ev, 0);
	struct model_fb_region rg;
	model_fb_read(fb, 0, &rg);
	ck_assert_uint_eq(rg.stc_events, 0);
	model_fb_free(fb);
	/* feeding admission: refused while flagged */
	c.stc_admit = 1;
	fb = mk(&c);
	unsigned stc_drops = 0;
	for (int k = 0; k < 8; k++)
		stc_drops += model_fb_admit(fb, 0, 0, 0, 1, 0, 1000, (uint64_t)k * 10).drop ==
			     MODEL_FB_DROP_STC;
	ck_assert_uint_eq(stc_drops, 3); /* the 5th raised it: 6th..8th refused */
	model_fb_free(fb);
}
END_TEST

/*
 * The point of the mechanism.  One egress port at 10 Gb/s, one priority,
 * a 1 MiB pool with the (port, priority) bound alpha 1 (queue <= B/2).
 * A hog flow offers 10 Gb/s and four well-behaved flows 1 Gb/s each
 * (1500 B packets at uniformly jittered intervals), 14 Gb/s in all.  Off:
 * the queue sits at its bound and every flow loses packets (4/14 of the
 * offered load in all; the well-behaved flows, burstier relative to
 * their rate, about 40 % of theirs here).  On (flow bound alpha
 * 0.25, a region per flow): the hog is held at its bound, about
 * 0.25 B / (1 + 0.25 x 10/6) = 0.176 B, the queue at about 0.29 B, under
 * the port's bound, so the well-behaved flows lose nothing.
 */
struct hog_res {
	double small_loss, hog_loss;
	uint64_t hog_peak, bound_at_peak;
};

static struct hog_res hog_run(int flow_on)
{
	struct model_fb_config c;
	model_fb_defaults(&c, 8, MiB);
	c.flow_on = (uint8_t)flow_on;
	c.n_counts = 5;
	c.flow_bound.alpha = 0.25;
	c.occ_bound.alpha = 1.0;
	struct model_fb *fb = mk(&c);
	enum { QMAX = 4096 };
	static uint16_t q[QMAX]; /* FIFO of the regions queued (in port = region) */
	unsigned qh = 0, qn = 0;
	uint64_t next_arr[5], period[5] = {1200, 12000, 12000, 12000, 12000};
	uint64_t sent[5] = {0}, lost[5] = {0};
	for (int f = 0; f < 5; f++)
		next_arr[f] = (uint64_t)f * 97;
	uint64_t next_dep = UINT64_MAX, T = 20000000; /* 20 ms */
	uint64_t rs = 42;
	struct hog_res res = {0};
	for (;;) {
		uint64_t t = next_dep;
		int who = -1;
		for (int f = 0; f < 5; f++)
			if (next_arr[f] < t) {
				t = next_arr[f];
				who = f;
			}
		if (t >= T)
			break;
		if (who < 0) { /* a departure (first at equal times) */
			uint16_t r = q[qh];
			model_fb_release(fb, r, r, 0, 7, 0, 1500, t);
			qh = (qh + 1) % QMAX;
			qn--;
			next_dep = qn ? t + 1200 : UINT64_MAX;
			continue;
		}
		/* the next one after a uniform 0.5 .. 1.5 periods (no phase
		 * locking between the flows and the port) */
		rs = rs * 6364136223846793005ULL + 1442695040888963407ULL;
		next_arr[who] += period[who] / 2 + (rs >> 33) % period[who];
		sent[who]++;
		struct model_fb_res r =
		    model_fb_admit(fb, (uint16_t)who, (uint32_t)who, 0, 7, 0, 1500, t);
		if (r.drop) {
			lost[who]++;
			continue;
		}
		ck_assert_uint_lt(qn, QMAX);
		q[(qh + qn) % QMAX] = (uint16_t)who;
		if (qn++ == 0)
			next_dep = t + 1200;
		uint64_t hc = model_fb_count(fb, 0);
		if (hc > res.hog_peak) {
			res.hog_peak = hc;
			res.bound_at_peak = model_fb_dt(0.25, MiB, model_fb_used(fb));
		}
	}
	uint64_t ss = 0, sl = 0;
	for (int f = 1; f < 5; f++) {
		ss += sent[f];
		sl += lost[f];
	}
	res.small_loss = (double)sl / (double)ss;
	res.hog_loss = (double)lost[0] / (double)sent[0];
	model_fb_free(fb);
	return res;
}

START_TEST(test_hog_isolated)
{
	struct hog_res off = hog_run(0), on = hog_run(1);
	printf("flow-based admission off: well-behaved loss %.2f %%, hog loss %.2f %%\n",
	       100 * off.small_loss, 100 * off.hog_loss);
	printf("flow-based admission on:  well-behaved loss %.2f %%, hog loss %.2f %%, "
	       "hog peak %llu B (bound then %llu B)\n",
	       100 * on.small_loss, 100 * on.hog_loss, (unsigned long long)on.hog_peak,
	       (unsigned long long)on.bound_at_peak);
	ck_assert(off.small_loss > 0.20);
	ck_assert(on.small_loss < 0.001);
	ck_assert(on.small_loss < off.small_loss / 100);
	/* the hog held to its region's bound (one packet over at most) */
	ck_assert_uint_le(on.hog_peak, on.bound_at_peak + 1500);
	ck_assert_uint_lt(on.hog_peak, MiB / 4);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("model_flowbuf");
	TCase *tc = tcase_create("flowbuf");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_dt_closed_form);
	tcase_add_test(tc, test_all_vs_majority);
	tcase_add_test(tc, test_accounting);
	tcase_add_test(tc, test_encodings);
	tcase_add_test(tc, test_three_configurations);
	tcase_add_test(tc, test_refresh_lag);
	tcase_add_test(tc, test_flow_wred);
	tcase_add_test(tc, test_flow_mirror);
	tcase_add_test(tc, test_short_time_change);
	tcase_add_test(tc, test_hog_isolated);
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
