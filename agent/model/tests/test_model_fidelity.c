/*
 * test_model_fidelity.c - the fidelity gaps an independent queueing review found, each
 * against a physical bound or a closed form: a port never sends above
 * its line rate, whatever the frame's serialization time (10G .. 800G,
 * 64 B frames, shorter than 1 ns at 800G); the sojourn through an idle
 * port is its serialization time exactly (in the ground-truth sum); a
 * lossless class under incast is never dropped at egress, whatever its
 * egress queue's limits; perfectly synchronised senders into a full
 * queue share it equally; the non-tagged mean is biased low.
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

#define G1 1000000000ULL

static const uint64_t speeds[] = {10 * G1, 100 * G1, 400 * G1, 800 * G1};

/* Departures of one egress port: the first arrival and, per departure,
 * the bytes on the wire so far (frames + 20 B of preamble and gap). */
struct rate_check {
	uint64_t bps;
	uint64_t t0;	    /* earliest arrival (the line cannot start before) */
	uint64_t wire;	    /* bytes on the wire departed so far */
	uint64_t n, drops;  /* departures, drops */
	uint64_t violation; /* departures earlier than the line allows */
	uint64_t t_last;
};

static void rate_trace(void *arg, const struct model_trace *tr)
{
	struct rate_check *c = arg;
	if (!tr->departed) {
		c->drops++;
		return;
	}
	c->n++;
	c->wire += tr->len + 20;
	c->t_last = tr->t_ns;
	/* the departure's ns is the last bit's, rounded down: the line has
	 * sent c->wire bytes by t_ns + 1 at the latest, so
	 * wire * 8e9 / bps < t_ns + 1 - t0, in integers:
	 * wire * 8e9 < (t_ns + 1 - t0) * bps */
	unsigned __int128 need = (unsigned __int128)c->wire * 8000000000ULL;
	unsigned __int128 have = (unsigned __int128)(tr->t_ns + 1 - c->t0) * c->bps;
	if (need >= have)
		c->violation++;
}

/* Two senders at 100 % of the line rate into one port of the same speed,
 * 64 B frames (84 B on the wire: 67.2, 6.72, 1.68, 0.84 ns): the egress
 * port never sends above its line rate, so the last of the 2N frames
 * leaves no earlier than 2N frame times after the first arrival. */
START_TEST(test_line_rate)
{
	uint64_t bps = speeds[_i];
	const uint64_t n = 20000;
	struct model_config cfg;
	ck_assert_int_eq(tcfg_simple(&cfg, 3, bps), 0);
	struct model *m = tmodel(&cfg);
	model_config_release(&cfg);
	double ser = tsrc_ser_ns(64, bps);
	struct rate_check c = {bps, 1000, 0, 0, 0, 0, 0};
	model_set_trace(m, rate_trace, &c);
	for (unsigned k = 0; k < 2; k++) {
		struct tsrc_spec sp = {0};
		sp.in_port = (uint16_t)k;
		sp.out_port = 2;
		sp.t0_ns = 1000;
		sp.gap_ns = ser;
		sp.len = 64;
		sp.count = n;
		tadd(m, &sp);
	}
	ck_assert_int_eq(model_run(m, MODEL_T_END), 0);
	ck_assert_uint_eq(c.drops, 0);
	ck_assert_uint_eq(c.n, 2 * n);
	ck_assert_msg(c.violation == 0, "%llu G: %llu departures above the line rate",
		      (unsigned long long)(bps / G1), (unsigned long long)c.violation);
	/* and the port is busy all along: the last departure is within a
	 * frame (and the rounding) of 2N frame times */
	double want = 1000 + 2.0 * (double)n * ser;
	ck_assert_msg((double)c.t_last <= want + ser + 1 && (double)c.t_last >= want - 1,
		      "%llu G: last departure %llu, want %.1f", (unsigned long long)(bps / G1),
		      (unsigned long long)c.t_last, want);
	model_free(m);
}
END_TEST

/* Packets one at a time through an idle port: each sojourn is the
 * frame's serialization time, 84 B * 8 / rate = 67.2, 6.72, 1.68, 0.84
 * ns: the trace and the maximum give it rounded down, the ground-truth
 * sum exactly (sum_ns + sum_sub_fs / 1e6). */
static void idle_trace(void *arg, const struct model_trace *tr)
{
	uint64_t *soj = arg;
	if (tr->departed)
		*soj = tr->t_ns - tr->t_arr_ns;
}

START_TEST(test_idle_sojourn)
{
	uint64_t bps = speeds[_i];
	const uint64_t n = 1000;
	struct model_config cfg;
	ck_assert_int_eq(tcfg_simple(&cfg, 2, bps), 0);
	struct model *m = tmodel(&cfg);
	model_config_release(&cfg);
	uint64_t soj = UINT64_MAX;
	model_set_trace(m, idle_trace, &soj);
	struct tsrc_spec sp = {0};
	sp.in_port = 0;
	sp.out_port = 1;
	sp.t0_ns = 100;
	sp.gap_ns = 1000; /* > 67.2 ns: the port is idle at each arrival */
	sp.len = 64;
	sp.count = n;
	tadd(m, &sp);
	ck_assert_int_eq(model_run(m, MODEL_T_END), 0);
	/* 84 B on the wire: 672e9 / bps ns = 672e15 / bps fs, an integer at
	 * these speeds */
	uint64_t fs = 672000000000000000ULL / bps;
	ck_assert_uint_eq(soj, fs / 1000000);
	struct model_delay d;
	ck_assert_int_eq(model_read_delay(m, 0, 1, 0, 0, &d), 0);
	ck_assert_uint_eq(d.n, n);
	ck_assert_uint_eq(d.max_ns, fs / 1000000);
	ck_assert_msg(d.sum_ns * 1000000 + d.sum_sub_fs == n * fs,
		      "%llu G: sum %llu ns + %llu fs, want %llu x %llu fs",
		      (unsigned long long)(bps / G1), (unsigned long long)d.sum_ns,
		      (unsigned long long)d.sum_sub_fs, (unsigned long long)n,
		      (unsigned long long)fs);
	model_free(m);
}
END_TEST

/* A lossless class (PG 3, tc 3, headroom by the rule of
 * test_model_pfc_wred.c: 24 cells for 1500 B at 10G and 1 us) under 4:1
 * incast at 75 % of each ingress link, its egress queue with a dynamic
 * limit of alpha x the free cells of a 2000-cell egress pool (alpha
 * 1/128 .. 8: below the ingress thresholds or above them), a packet
 * limit and WRED: no copy is dropped at egress, every packet departs
 * (conservation), and the senders are paused (XOFF sent). */
static const double alphas[] = {1.0 / 128, 1.0 / 8, 1.0, 8.0};

START_TEST(test_lossless_no_egress_drop)
{
	const unsigned nin = 4, out = 4;
	const uint64_t n = 3000;
	struct model_config cfg;
	ck_assert_int_eq(tcfg_simple(&cfg, 5, 10 * G1), 0);
	cfg.egr_pool_cells[0] = 2000;
	for (unsigned i = 0; i < 5; i++) {
		struct model_port_config *p = &cfg.ports[i];
		p->n_ucq = 4;
		for (unsigned t = 0; t < 4; t++)
			p->tc_to_ucq[t] = (uint8_t)t;
		p->pfc_delay_ns = 1000;
		struct model_pg_config *g = &p->pg[3];
		g->lossless = 1;
		g->shared.mode = MODEL_LIMIT_STATIC;
		g->shared.cells = 60;
		g->headroom_cells = 24;
		g->xoff_cells = 0;
		g->xon_cells = 30;
		struct model_queue_config *q = &p->ucq[3];
		q->shared.mode = MODEL_LIMIT_DYNAMIC;
		q->shared.alpha = alphas[_i];
		q->limit_pkts = 4;
		q->wred.enabled = 1;
		q->wred.min_bytes = 3000;
		q->wred.max_bytes = 9000;
		q->wred.max_prob = 0.5;
	}
	struct model *m = tmodel(&cfg);
	model_config_release(&cfg);
	for (unsigned i = 0; i < nin; i++) {
		struct tsrc_spec sp = {0};
		sp.in_port = (uint16_t)i;
		sp.out_port = out;
		sp.tc = 3;
		sp.gap_ns = tsrc_ser_ns(1500, 10 * G1) / 0.75;
		sp.len = 1500;
		sp.count = n;
		sp.t0_ns = 100 * i;
		tadd(m, &sp);
	}
	ck_assert_int_eq(model_run(m, MODEL_T_END), 0);
	struct model_port_drops d;
	model_read_drops(m, out, &d);
	uint64_t drops = 0;
	for (unsigned c = 0; c < MODEL_DROP_NCAUSES; c++)
		drops += d.ucq[3][c];
	struct model_delay dl;
	model_read_delay(m, 0, out, 3, 0, &dl);
	uint64_t xoff = 0, ing = 0;
	for (unsigned i = 0; i < nin; i++) {
		struct model_if_counters c;
		model_read_counters(m, i, &c);
		xoff += c.pfc_xoff[3];
		ing += c.in_discards;
	}
	ck_assert_msg(drops == 0 && ing == 0 && dl.n == nin * n,
		      "alpha %g: %llu dropped at egress, %llu at ingress, %llu of %llu departed",
		      alphas[_i], (unsigned long long)drops, (unsigned long long)ing,
		      (unsigned long long)dl.n, (unsigned long long)(nin * n));
	ck_assert_uint_gt(xoff, 0);
	struct model_err err;
	ck_assert_msg(model_audit(m, &err) == 0, "audit: %s", err.msg);
	model_free(m);
}
END_TEST

/* Four senders in lockstep (same times: 1000 B at 10G line rate each)
 * into one port whose queue holds 40 cells: 3 in 4 packets are dropped,
 * and the ties are broken fairly, so each sender gets a quarter of the
 * departures.  The order of the sources is drawn afresh every 65536 ns
 * (model.h), and in each period the first in it takes nearly every free
 * place: 400000 x 816 ns is some 5000 periods, over which a share has a
 * standard deviation of sqrt(0.25 x 0.75 / 5000) = 0.006; allowed
 * 0.025. */
static void share_trace(void *arg, const struct model_trace *tr)
{
	uint64_t *dep = arg;
	if (tr->departed && tr->in_port < 4)
		dep[tr->in_port]++;
}

START_TEST(test_fair_ties)
{
	const unsigned nin = 4;
	const uint64_t n = 400000;
	struct model_config cfg;
	ck_assert_int_eq(tcfg_simple(&cfg, 5, 10 * G1), 0);
	cfg.ports[4].ucq[0].shared.cells = 40;
	struct model *m = tmodel(&cfg);
	model_config_release(&cfg);
	uint64_t dep[4] = {0};
	model_set_trace(m, share_trace, dep);
	for (unsigned i = 0; i < nin; i++) {
		struct tsrc_spec sp = {0};
		sp.in_port = (uint16_t)i;
		sp.out_port = 4;
		sp.t0_ns = 1000;
		sp.gap_ns = tsrc_ser_ns(1000, 10 * G1); /* 816 ns */
		sp.len = 1000;
		sp.count = n;
		tadd(m, &sp);
	}
	ck_assert_int_eq(model_run(m, MODEL_T_END), 0);
	uint64_t tot = dep[0] + dep[1] + dep[2] + dep[3];
	ck_assert_uint_ge(tot, n - 10); /* the port sends at line rate */
	for (unsigned i = 0; i < nin; i++) {
		double share = (double)dep[i] / (double)tot;
		ck_assert_msg(fabs(share - 0.25) < 0.025, "sender %u: share %.4f of %llu", i, share,
			      (unsigned long long)tot);
	}
	model_free(m);
}
END_TEST

/* M/D/1 at load 0.9 (Poisson arrivals of 1000 B at 10G: service 816 ns):
 * the true mean sojourn is Pollaczek-Khinchine's D (1 + rho / (2 (1 -
 * rho))) = 816 x 5.5 = 4488 ns (within 3 %), and the mean of the
 * non-tagged measurements (nt_sum_ns / nt_count) is well below it (at
 * most 0.8 of it: a queueing review measured 48 % low), as documented. */
START_TEST(test_nontagged_bias)
{
	struct model_config cfg;
	ck_assert_int_eq(tcfg_simple(&cfg, 2, 10 * G1), 0);
	struct model *m = tmodel(&cfg);
	model_config_release(&cfg);
	struct tsrc_spec sp = {0};
	sp.in_port = 0;
	sp.out_port = 1;
	sp.gap_dist = TS_EXP;
	sp.gap_ns = 816 / 0.9;
	sp.len = 1000;
	sp.count = (uint64_t)(400000 * tsrc_scale());
	sp.seed = 11;
	tadd(m, &sp);
	ck_assert_int_eq(model_run(m, MODEL_T_END), 0);
	struct model_delay d;
	ck_assert_int_eq(model_read_delay(m, 0, 1, 0, 0, &d), 0);
	double truth = ((double)d.sum_ns + (double)d.sum_sub_fs / 1e6) / (double)d.n;
	double nt = (double)d.nt_sum_ns / (double)d.nt_count;
	printf("M/D/1 rho 0.9: true mean %.1f ns (P-K 4488), non-tagged mean %.1f ns (%.0f %% "
	       "low), %llu measurements\n",
	       truth, nt, 100 * (1 - nt / truth), (unsigned long long)d.nt_count);
	ck_assert_msg(fabs(truth / 4488 - 1) < 0.03, "true mean %g", truth);
	ck_assert_msg(nt < 0.8 * truth && nt > 816, "non-tagged mean %g", nt);
	model_free(m);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("model_fidelity");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_line_rate, 0, 4);
	tcase_add_loop_test(tc, test_idle_sojourn, 0, 4);
	tcase_add_loop_test(tc, test_lossless_no_egress_drop, 0, 4);
	tcase_add_test(tc, test_fair_ties);
	tcase_add_test(tc, test_nontagged_bias);
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
