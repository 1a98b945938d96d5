/*
 * test_model_queueing.c - the switch model's queueing against closed
 * forms: M/M/1/K loss and mean sojourn, M/D/1 mean wait (Pollaczek-
 * Khinchine), and the dynamic-threshold steady state of N overloaded
 * queues sharing one pool.  Packet counts can be shrunk with
 * MODEL_TEST_SCALE (0 < f <= 1) for slow builds; the tolerances do not
 * change.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "agent/model/model.h"
#include "agent/model/tests/tsrc.h"

/* 8 Gb/s with no preamble/IFG: one byte takes exactly 1 ns, so a
 * packet's service time in ns is its length. */
#define G8 8000000000ULL

struct mm_count {
	uint64_t dep, drops;
	double sum_soj;
};

static void mm_trace(void *arg, const struct model_trace *tr)
{
	struct mm_count *c = arg;
	if (tr->departed) {
		c->dep++;
		c->sum_soj += (double)(tr->t_ns - tr->t_arr_ns);
	} else {
		c->drops++;
	}
}

static struct model *one_queue(uint32_t limit_pkts)
{
	struct model_config cfg;
	ck_assert_int_eq(tcfg_simple(&cfg, 2, G8), 0);
	cfg.ports[1].overhead_bytes = 0;
	cfg.ports[1].ucq[0].limit_pkts = limit_pkts;
	struct model *m = tmodel(&cfg);
	model_config_release(&cfg);
	return m;
}

/* d. M/M/1/K: Poisson arrivals, exponential lengths (so exponential
 * service), room for K packets in the system (the one in transmission
 * included).  rho = 0.9, K = 10:
 *   P_K = (1 - rho) rho^K / (1 - rho^(K+1))
 *   L   = rho / (1 - rho) - (K + 1) rho^(K+1) / (1 - rho^(K+1))
 *   T   = L / (lambda (1 - P_K))      (Little) */
START_TEST(test_mm1k)
{
	const double mean_len = 1000.0, rho = 0.9;
	const unsigned K = 10;
	uint64_t n = (uint64_t)(1000000 * tsrc_scale());
	struct model *m = one_queue(K);
	struct mm_count c = {0, 0, 0.0};
	model_set_trace(m, mm_trace, &c);
	struct tsrc_spec sp = {0};
	sp.in_port = 0;
	sp.out_port = 1;
	sp.gap_dist = TS_EXP;
	sp.gap_ns = mean_len / rho;
	sp.len_dist = TS_EXP;
	sp.len = mean_len;
	sp.count = n;
	sp.seed = 42;
	tadd(m, &sp);
	ck_assert_int_eq(model_run(m, MODEL_T_END), 0);
	ck_assert_uint_eq(c.dep + c.drops, n);
	double rk = pow(rho, K), rk1 = rk * rho;
	double pk = (1 - rho) * rk / (1 - rk1);
	double L = rho / (1 - rho) - (K + 1) * rk1 / (1 - rk1);
	double lambda = rho / mean_len;
	double T = L / (lambda * (1 - pk));
	double loss = (double)c.drops / (double)n;
	double soj = c.sum_soj / (double)c.dep;
	printf("M/M/1/K rho %.2f K %u: loss %.5f (formula %.5f, %+.2f%%), mean sojourn %.1f ns "
	       "(formula %.1f, %+.2f%%), %llu packets\n",
	       rho, K, loss, pk, 100 * (loss / pk - 1), soj, T, 100 * (soj / T - 1),
	       (unsigned long long)n);
	ck_assert_msg(fabs(loss / pk - 1) < 0.03, "loss %.5f vs %.5f", loss, pk);
	ck_assert_msg(fabs(soj / T - 1) < 0.03, "sojourn %.1f vs %.1f", soj, T);
	struct model_port_drops d;
	model_read_drops(m, 1, &d);
	ck_assert_uint_eq(d.ucq[0][MODEL_DROP_EGR_LIMIT], c.drops);
	model_free(m);
}
END_TEST

/* d. M/D/1: Poisson arrivals, all packets 1000 B (D = 1000 ns), rho = 0.7,
 * no limit.  Mean wait W = rho D / (2 (1 - rho)) (Pollaczek-Khinchine);
 * mean sojourn = W + D. */
START_TEST(test_md1)
{
	const double D = 1000.0, rho = 0.7;
	uint64_t n = (uint64_t)(1000000 * tsrc_scale());
	struct model *m = one_queue(0);
	struct mm_count c = {0, 0, 0.0};
	model_set_trace(m, mm_trace, &c);
	struct tsrc_spec sp = {0};
	sp.in_port = 0;
	sp.out_port = 1;
	sp.gap_dist = TS_EXP;
	sp.gap_ns = D / rho;
	sp.len_dist = TS_CONST;
	sp.len = D;
	sp.count = n;
	sp.seed = 7;
	tadd(m, &sp);
	ck_assert_int_eq(model_run(m, MODEL_T_END), 0);
	ck_assert_uint_eq(c.dep, n);
	ck_assert_uint_eq(c.drops, 0);
	double W = rho * D / (2 * (1 - rho));
	double w = c.sum_soj / (double)c.dep - D;
	printf("M/D/1 rho %.2f: mean wait %.1f ns (P-K %.1f, %+.2f%%), %llu packets\n", rho, w, W,
	       100 * (w / W - 1), (unsigned long long)n);
	ck_assert_msg(fabs(w / W - 1) < 0.03, "wait %.1f vs %.1f", w, W);
	/* the ground truth kept by the model agrees with the trace */
	struct model_delay d;
	model_read_delay(m, 0, 1, 0, 0, &d);
	ck_assert_uint_eq(d.n, n);
	ck_assert(fabs((double)d.sum_ns - c.sum_soj) < 0.5);
	model_free(m);
}
END_TEST

/* e. Dynamic threshold: N egress queues on one pool of B cells, each fed
 * at twice its line rate (two ingress ports at line rate, 1000 B = 4
 * cells), alpha each: they settle at q = alpha B / (1 + N alpha), within
 * one packet.  Checked on the peak after settling and on the occupancy. */
static void dyn_case(unsigned N, double alpha, uint32_t B)
{
	const uint64_t G10 = 10000000000ULL;
	struct model_config cfg;
	ck_assert_int_eq(tcfg_simple(&cfg, 3 * N, G10), 0);
	cfg.egr_pool_cells[0] = B;
	for (unsigned i = 0; i < N; i++) {
		struct model_queue_config *q = &cfg.ports[2 * N + i].ucq[0];
		q->shared.mode = MODEL_LIMIT_DYNAMIC;
		q->shared.alpha = alpha;
		q->min_cells = 0;
	}
	struct model *m = tmodel(&cfg);
	model_config_release(&cfg);
	const uint64_t npk = 20000;
	for (unsigned i = 0; i < 2 * N; i++) {
		struct tsrc_spec sp = {0};
		sp.in_port = (uint16_t)i;
		sp.out_port = (uint16_t)(2 * N + i / 2);
		sp.gap_ns = 816; /* line rate */
		sp.len = 1000;
		sp.count = npk;
		sp.t0_ns = 13 * i; /* not all in step */
		tadd(m, &sp);
	}
	/* settle for 2000 packet times, then watch 10000 */
	model_advance_to(m, 2000 * 816);
	struct model_buffers *b = model_buffers_new(m);
	model_read_buffers(m, 1, b);
	model_advance_to(m, 12000 * 816);
	model_read_buffers(m, 1, b);
	double q = alpha * B / (1 + N * alpha);
	for (unsigned i = 0; i < N; i++) {
		const struct model_occ *o = &b->ports[2 * N + i].ucq[0];
		printf("dynamic threshold N %u alpha %.2f B %u: queue %u peak %u cells, now %u "
		       "(formula %.1f), alloc at peak %u\n",
		       N, alpha, B, i, o->peak_cells, o->cur_cells, q, o->alloc_cells);
		ck_assert_msg(fabs(o->peak_cells - q) <= 4.0, "peak %u vs %.1f", o->peak_cells, q);
		ck_assert_msg(fabs(o->cur_cells - q) <= 4.0 + 4.0, "now %u vs %.1f", o->cur_cells,
			      q);
		ck_assert_uint_le(o->peak_cells, o->alloc_cells);
	}
	model_buffers_free(b);
	model_run(m, MODEL_T_END);
	model_free(m);
}

START_TEST(test_dynamic_threshold)
{
	dyn_case(4, 1.0, 2000);
	dyn_case(3, 2.0, 7000);
	dyn_case(2, 0.5, 4000);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("model_queueing");
	TCase *tc = tcase_create("queueing");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_mm1k);
	tcase_add_test(tc, test_md1);
	tcase_add_test(tc, test_dynamic_threshold);
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
