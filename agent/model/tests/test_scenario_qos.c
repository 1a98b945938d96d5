/*
 * test_scenario_qos.c - queueing and admission settings per port, per
 * queue and per priority group in the `model` section (scenario_qos.c),
 * from the config text to the engine: the order the levels apply in, a
 * lossless class configured per port under incast that is never dropped
 * at egress whatever its queue's alpha, the dynamic-threshold steady
 * state alpha_i B / (1 + sum alpha_j) of queues with alphas of their
 * own, and a per-queue scheduler with weights.
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
#include "agent/model/scenario.h"

static void parse_ok(const char *text, struct model_scenario *sc)
{
	char err[512];

	ck_assert_msg(model_scenario_parse_text(text, "qos.conf", NULL, sc, err, sizeof(err)) == 0,
		      "parse: %s", err);
}

static struct model *build_ok(const struct model_scenario *sc)
{
	char err[512];
	struct model *m = model_scenario_build(sc, err, sizeof(err));

	ck_assert_msg(m != NULL, "build: %s", err);
	return m;
}

/* The levels: model section keys, port section keys, the model section's
 * queue/pg sections, the port sections' (each in file order). */
START_TEST(test_levels)
{
	static const char text[] = "model {\n"
				   "  ports = 8\n"
				   "  unicast_queues = 4\n"
				   "  multicast_queues = 2\n"
				   "  alpha = 0.5\n"
				   "  headroom = 32K\n"
				   "  lossless = {3}\n"
				   "  scheduler = dwrr\n"
				   "  weights = {1, 2, 3, 4}\n"
				   "  dwrr_quantum = 512\n"
				   "  dwrr_count = wire\n"
				   "  queue 1 { alpha = 4 }\n"
				   "  port 2-3 {\n"
				   "    queue 1 { limit = 100K  packets = 50 }\n"
				   "    alpha = 2\n"
				   "    weights = {8}\n"
				   "    lossless = {5}\n"
				   "    xoff = 16K  xon = 8K\n"
				   "  }\n"
				   "  port 3 {\n"
				   "    headroom = 64K\n"
				   "    scheduler = sp\n"
				   "    queue 0-1 { scheduler = dwrr  weight = 7 }\n"
				   "    pg 3 { lossless = yes  xoff = 4K  xon = 1K }\n"
				   "    mc_queue 1 { min = 10K }\n"
				   "  }\n"
				   "  pg 6 { lossless = yes  alpha = 0.25 }\n"
				   "}\n";
	struct model_scenario sc;
	const struct model_port_config *p;

	parse_ok(text, &sc);
	ck_assert_uint_eq(sc.cfg.dwrr_quantum, 512);
	ck_assert_uint_eq(sc.cfg.dwrr_wire, 1);
	/* port 0: the model section's keys, queue 1's alpha 4 */
	p = &sc.cfg.ports[0];
	ck_assert(p->ucq[0].shared.mode == MODEL_LIMIT_DYNAMIC && p->ucq[0].shared.alpha == 0.5);
	ck_assert(p->ucq[1].shared.alpha == 4);
	ck_assert_uint_eq(p->ucq[3].weight, 4);
	ck_assert_uint_eq(p->ucq[0].sched, MODEL_SCHED_DWRR);
	ck_assert(p->pg[3].lossless && p->pg[3].headroom_cells == 128);
	ck_assert(p->pg[6].lossless && p->pg[6].headroom_cells == 128 &&
		  p->pg[6].shared.alpha == 0.25);
	ck_assert(!p->pg[5].lossless);
	/* port 2: its keys over the model section's, then the model
	 * section's queue 1 (alpha 4), then its own queue 1 (static) */
	p = &sc.cfg.ports[2];
	ck_assert(p->ucq[0].shared.alpha == 2);
	ck_assert_uint_eq(p->ucq[0].weight, 8);
	ck_assert_uint_eq(p->ucq[1].weight, 2);
	ck_assert_uint_eq(p->mcq[0].weight, 8);
	ck_assert(p->ucq[1].shared.mode == MODEL_LIMIT_STATIC && p->ucq[1].shared.cells == 400);
	ck_assert_uint_eq(p->ucq[1].limit_pkts, 50);
	ck_assert(!p->pg[3].lossless);
	ck_assert(p->pg[5].lossless && p->pg[5].headroom_cells == 128);
	ck_assert(p->pg[5].xoff_cells == 64 && p->pg[5].xon_cells == 32);
	ck_assert(p->pg[6].lossless); /* the model section's pg 6 comes after */
	/* port 3: both port sections, then its own queue and pg sections */
	p = &sc.cfg.ports[3];
	ck_assert_uint_eq(p->ucq[2].sched, MODEL_SCHED_SP);
	ck_assert(p->ucq[0].sched == MODEL_SCHED_DWRR && p->ucq[0].weight == 7);
	ck_assert(p->ucq[1].sched == MODEL_SCHED_DWRR && p->ucq[1].weight == 7);
	ck_assert(p->pg[5].lossless && p->pg[5].headroom_cells == 256);
	ck_assert(p->pg[3].lossless && p->pg[3].headroom_cells == 256);
	ck_assert(p->pg[3].xoff_cells == 16 && p->pg[3].xon_cells == 4);
	ck_assert_uint_eq(p->mcq[1].min_cells, 40);
	ck_assert_uint_eq(sc.cfg.ports[2].mcq[1].min_cells, 8);
	/* a port no section names */
	ck_assert(sc.cfg.ports[7].ucq[1].shared.alpha == 4 && !sc.cfg.ports[7].pg[5].lossless);
	struct model *m = build_ok(&sc);
	model_free(m);
	model_scenario_free(&sc);
}
END_TEST

/* Drops of a run by ingress port and cause (trace). */
struct drops_by_in {
	uint64_t drops[8][MODEL_DROP_NCAUSES];
	uint64_t departed[8];
};

static void drop_trace(void *arg, const struct model_trace *tr)
{
	struct drops_by_in *d = arg;

	if (tr->in_port >= 8)
		return;
	if (tr->departed)
		d->departed[tr->in_port]++;
	else
		d->drops[tr->in_port][tr->cause]++;
}

/*
 * A lossless class configured per port under 5:1 incast: ports 1-4 send
 * class 3 (DSCP 24) to port 0 at line rate, lossless on those ports only
 * (a port section, or a pg section inside one); port 5 sends class 3 too,
 * lossy there.  Port 0's queue 3 gets its own alpha, from 1/128 (an
 * egress limit far below what ingress holds back) to 8.  Whatever the
 * alpha, the lossless senders lose no packet (their class is exempt from
 * egress drops, and PFC with 64K of headroom holds them back: XOFF on
 * each); the lossy sender's packets are dropped.
 */
static void lossless_run(const char *alpha, int pg_form)
{
	char text[2048], err[512];
	struct model_scenario sc;
	struct drops_by_in d;

	snprintf(text, sizeof(text),
		 "model {\n"
		 "  ports = 6\n"
		 "  speed = 10G\n"
		 "  buffer = 1M\n"
		 "  %s\n"
		 "  port 0 { queue 3 { alpha = %s } }\n"
		 "  traffic in {\n"
		 "    ports = {1-5}  destination = incast  to = 0  rate = 100%%\n"
		 "    size = 1500  dscp = 24  stop = 2ms\n"
		 "  }\n"
		 "}\n",
		 pg_form ? "port 1-4 { pg 3 { lossless = yes  headroom = 64K } }"
			 : "port 1-4 { lossless = {3}  headroom = 64K }",
		 alpha);
	ck_assert_msg(model_scenario_parse_text(text, "qos.conf", NULL, &sc, err, sizeof(err)) == 0,
		      "%s", err);
	struct model *m = build_ok(&sc);
	memset(&d, 0, sizeof(d));
	model_set_trace(m, drop_trace, &d);
	ck_assert_int_eq(model_run(m, MODEL_T_END), 0);
	struct model_err me;
	ck_assert_msg(model_audit(m, &me) == 0, "audit: %s", me.msg);
	uint64_t lossy = 0;
	for (unsigned c = 0; c < MODEL_DROP_NCAUSES; c++)
		lossy += d.drops[5][c];
	printf("lossless per port, queue alpha %s (%s): lossy port 5 dropped %llu of %llu;", alpha,
	       pg_form ? "pg section" : "port keys", (unsigned long long)lossy,
	       (unsigned long long)(lossy + d.departed[5]));
	for (unsigned in = 1; in <= 4; in++) {
		struct model_if_counters c;

		ck_assert_int_eq(model_read_counters(m, in, &c), 0);
		printf(" port %u XOFF %llu", in, (unsigned long long)c.pfc_xoff[3]);
		for (unsigned k = 0; k < MODEL_DROP_NCAUSES; k++)
			ck_assert_msg(d.drops[in][k] == 0, "lossless port %u: %llu drops (%s)", in,
				      (unsigned long long)d.drops[in][k], model_drop_cause_name(k));
		ck_assert_uint_gt(c.pfc_xoff[3], 0);
		ck_assert_uint_gt(d.departed[in], 1000);
	}
	printf("\n");
	ck_assert_uint_gt(lossy, 100);
	model_free(m);
	model_scenario_free(&sc);
}

START_TEST(test_lossless_per_port)
{
	static const char *const alphas[] = {"0.0078125", "0.125", "1", "8"};

	for (unsigned i = 0; i < 4; i++)
		lossless_run(alphas[i], (int)(i & 1));
	lossless_run("0.0078125", 1);
	lossless_run("8", 0);
}
END_TEST

/*
 * Dynamic thresholds with alphas of the queues' own: queues 1 and 2 of
 * port 0 (alpha a1, a2 from queue sections; the model section's alpha
 * elsewhere), each fed at twice the line rate and served half of it
 * (DWRR, equal weights: both drain, as the steady state needs), no
 * minimums, the ingress side out of the way (pg_alpha 1024).  In steady state each
 * queue sits at its threshold, q_i = a_i (B - q_1 - q_2), so
 * q_i = a_i B / (1 + a_1 + a_2), B the egress pool: for a_1 = a_2 = a,
 * a B / (1 + 2a).  Checked within 2 packets (12 cells of 8128).
 */
static void dt_run(double a1, double a2)
{
	char text[2048];
	struct model_scenario sc;

	snprintf(text, sizeof(text),
		 "model {\n"
		 "  ports = 5\n"
		 "  speed = 10G\n"
		 "  buffer = 2M\n"
		 "  alpha = 0.125\n"
		 "  scheduler = dwrr\n"
		 "  pg_alpha = 1024\n"
		 "  queue_min = 0\n"
		 "  pg_min = 0\n"
		 "  queue 1 { alpha = %g }\n"
		 "  queue 2 { alpha = %g }\n"
		 "  traffic a { ports = {1-2}  destination = incast  to = 0  rate = 100%%\n"
		 "              size = 1500  dscp = 8  stop = 4ms }\n"
		 "  traffic b { ports = {3-4}  destination = incast  to = 0  rate = 100%%\n"
		 "              size = 1500  dscp = 16  stop = 4ms }\n"
		 "}\n",
		 a1, a2);
	parse_ok(text, &sc);
	struct model *m = build_ok(&sc);
	double B = model_config_of(m)->egr_pool_cells[0];
	ck_assert_int_eq(model_advance_to(m, 3500000), 0);
	struct model_port_buffers pb;
	ck_assert_int_eq(model_read_port_buffers(m, 0, 0, &pb), 0);
	double q1 = pb.ucq[1].cur_cells, q2 = pb.ucq[2].cur_cells;
	double w1 = a1 * B / (1 + a1 + a2), w2 = a2 * B / (1 + a1 + a2);
	printf("dynamic thresholds, B %.0f cells: queue 1 (alpha %g) %.0f cells (%.1f), queue 2 "
	       "(alpha %g) %.0f cells (%.1f)\n",
	       B, a1, q1, w1, a2, q2, w2);
	ck_assert(fabs(q1 - w1) <= 12);
	ck_assert(fabs(q2 - w2) <= 12);
	model_free(m);
	model_scenario_free(&sc);
}

START_TEST(test_queue_alpha)
{
	dt_run(1, 1);	 /* B / 3 each */
	dt_run(0.5, 2);	 /* B / 7, 4 B / 7 */
	dt_run(0.25, 4); /* ... and 16 B / 21 */
}
END_TEST

/* Bytes departed per queue of port 0 (trace). */
struct qbytes {
	uint64_t bytes[MODEL_MAX_QUEUES];
	uint64_t until;
};

static void qbytes_trace(void *arg, const struct model_trace *tr)
{
	struct qbytes *q = arg;

	if (tr->departed && tr->out_port == 0 && !tr->mc && tr->t_ns <= q->until)
		q->bytes[tr->queue] += tr->len;
}

/* A scheduler per queue: port 0's queues 0 and 1 DWRR weights 1 and 3
 * (its port section), queue 2 strict priority at 20 % of the line; the
 * other ports strict priority throughout.  Queue 2 gets its 20 %, queues
 * 0 and 1 the rest 1:3 by bytes. */
START_TEST(test_queue_sched)
{
	static const char text[] =
	    "model {\n"
	    "  ports = 4\n"
	    "  speed = 10G\n"
	    "  unicast_queues = 4\n"
	    "  port 0 {\n"
	    "    scheduler = dwrr\n"
	    "    queue 0 { weight = 1 }\n"
	    "    queue 1 { weight = 3 }\n"
	    "    queue 2 { scheduler = sp }\n"
	    "  }\n"
	    "  traffic q0 { ports = {1}  destination = fixed  to = 0  rate = 100%\n"
	    "               size = 1000  dscp = 0  stop = 3ms }\n"
	    "  traffic q1 { ports = {2}  destination = fixed  to = 0  rate = 100%\n"
	    "               size = 1000  dscp = 16  stop = 3ms }\n"
	    "  traffic q2 { ports = {3}  destination = fixed  to = 0  rate = 20%\n"
	    "               size = 1000  dscp = 32  stop = 3ms }\n"
	    "}\n";
	struct model_scenario sc;
	struct qbytes q = {{0}, 2000000};

	parse_ok(text, &sc);
	ck_assert_uint_eq(sc.cfg.ports[1].ucq[0].sched, MODEL_SCHED_SP);
	struct model *m = build_ok(&sc);
	model_set_trace(m, qbytes_trace, &q);
	ck_assert_int_eq(model_run(m, MODEL_T_END), 0);
	double tot = (double)(q.bytes[0] + q.bytes[1] + q.bytes[2]);
	double s0 = q.bytes[0] / tot, s1 = q.bytes[1] / tot, s2 = q.bytes[2] / tot;
	printf("per-queue scheduler: queue 2 (sp) %.4f (0.2), queue 0 %.4f (0.2), queue 1 %.4f "
	       "(0.6)\n",
	       s2, s0, s1);
	ck_assert(fabs(s2 - 0.2) < 0.005);
	ck_assert(fabs(s0 - 0.2) < 0.005);
	ck_assert(fabs(s1 - 0.6) < 0.005);
	model_free(m);
	model_scenario_free(&sc);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("scenario_qos");
	TCase *tc = tcase_create("qos");
	SRunner *sr;
	int nf;

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_levels);
	tcase_add_test(tc, test_lossless_per_port);
	tcase_add_test(tc, test_queue_alpha);
	tcase_add_test(tc, test_queue_sched);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? 0 : 1;
}
