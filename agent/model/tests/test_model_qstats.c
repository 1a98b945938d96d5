/*
 * test_model_qstats.c - the model's queue statistics (model_track_queues,
 * model.h), each against a figure found another way:
 *  - the occupancy integral against the sum of the queue's occupancy
 *    read after every nanosecond of the run (the occupancy only changes
 *    at whole nanoseconds), with and without ingress arbitration (whose
 *    packets enter their queue after the arrival time their delay counts
 *    from), the statistics on from time 0 or from a moment the queue
 *    already holds packets;
 *  - the sojourn histogram against the delays of every departure seen by
 *    the per-packet trace: the same count, largest and nearest-rank
 *    quantiles within a bucket (1/128);
 *  - the drops by priority group and class against the trace's drops.
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

/* Two 10G ports send 60 back-to-back 1500-byte frames each to port 2
 * (class 0), and port 3 sends 20 of class 5 (PG 0): port 2 queue 0 holds
 * up to 64 KB, so it drops some of the burst. */
static const char *const scen_text =
    "ports = 4\nspeed = 10G\nbuffer = 4M\nunicast_queues = 8\nqueue_min = 0\n"
    "queue_limit = 64K\nsampling_rate = 0\n%s"
    "traffic burst {\n ports = {0, 1}\n destination = fixed\n to = 2\n rate = 100%%\n"
    " arrival = constant\n size = 1500\n packets = 60\n dscp = 0\n flows = 1\n}\n"
    "traffic other {\n ports = {3}\n destination = fixed\n to = 2\n rate = 100%%\n"
    " arrival = constant\n size = 1500\n packets = 20\n dscp = 40\n flows = 1\n}\n";

#define T_END	 200000u /* ns: every frame has left */
#define MAX_DEPS 4096

struct seen {
	uint64_t soj[MAX_DEPS];
	unsigned n;
	uint64_t t_from; /* departures before this are not counted */
	struct model_class_drops drops[4];
};

static void on_trace(void *arg, const struct model_trace *tr)
{
	struct seen *s = arg;

	if (!tr->departed) {
		if (tr->t_ns >= s->t_from && tr->in_port < 4) {
			s->drops[tr->in_port].pg[tr->pg]++;
			s->drops[tr->in_port].tc[tr->tc]++;
		}
		return;
	}
	if (tr->out_port == 2 && tr->queue == 0 && !tr->mc && tr->t_ns >= s->t_from &&
	    s->n < MAX_DEPS)
		s->soj[s->n++] = tr->t_ns - tr->t_arr_ns;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static struct model *build(int iarb, struct model_scenario *sc)
{
	char text[2048], err[512];
	struct model *m;

	snprintf(text, sizeof text, scen_text,
		 iarb ? "ingress_arbitration {\n oversubscription = 70%\n}\n" : "");
	ck_assert_msg(model_scenario_parse_section(text, "t", 1, NULL, sc, err, sizeof err) == 0,
		      "%s", err);
	m = model_scenario_build(sc, err, sizeof err);
	ck_assert_msg(m != NULL, "%s", err);
	return m;
}

/* iarb: ingress arbitration on; from: the time the statistics start. */
static void check_run(int iarb, uint64_t from)
{
	struct model_scenario sc;
	struct model *m = build(iarb, &sc);
	struct model_port_buffers pb;
	struct model_sojourns h;
	struct seen *s = calloc(1, sizeof *s);
	unsigned __int128 sum = 0;
	double area;
	uint64_t t;

	ck_assert_ptr_nonnull(s);
	model_advance_to(m, from);
	if (from > 0) {
		/* the statistics start while the queue holds packets */
		model_read_port_buffers(m, 3, 2, &pb);
		ck_assert_uint_gt(pb.ucq[0].cur_bytes, 0);
	}
	ck_assert_int_eq(model_track_queues(m), 0);
	s->t_from = from + 1; /* (events at `from` itself ran before) */
	model_set_trace(m, on_trace, s);
	/* the occupancy holds from one whole nanosecond to the next */
	for (t = from; t < T_END; t++) {
		model_read_port_buffers(m, 3, 2, &pb);
		sum += pb.ucq[0].cur_bytes;
		model_advance_to(m, t + 1);
	}
	ck_assert_int_eq(model_read_occupancy(m, 2, 0, 0, &area), 0);
	ck_assert_msg(area == (double)sum,
		      "iarb %d from %llu: integral %.0f, occupancy summed %.0f", iarb,
		      (unsigned long long)from, area, (double)sum);
	ck_assert(sum > 0);
	/* an idle queue: nothing */
	ck_assert_int_eq(model_read_occupancy(m, 1, 0, 0, &area), 0);
	ck_assert(area == 0);

	/* the delays, against the trace's */
	ck_assert_int_eq(model_read_sojourns(m, 2, 0, 0, &h), 0);
	ck_assert_ptr_nonnull(h.c);
	ck_assert_uint_gt(s->n, 50);
	ck_assert_uint_eq(h.n, s->n);
	qsort(s->soj, s->n, sizeof s->soj[0], cmp_u64);
	ck_assert_uint_eq(h.max, s->soj[s->n - 1]);
	for (double q = 0.05; q < 1.0; q += 0.05) {
		uint64_t exact = s->soj[(unsigned)ceil(q * s->n) - 1];
		uint64_t got = model_soj_quantile(&h, NULL, q);

		ck_assert_msg(exact <= got && got <= exact + exact / 128 && got <= h.max,
			      "q %.2f: %llu, exact %llu", q, (unsigned long long)got,
			      (unsigned long long)exact);
	}
	/* the drops of the trace, by PG and class */
	for (unsigned p = 0; p < 4; p++) {
		struct model_class_drops d;

		ck_assert_int_eq(model_read_class_drops(m, p, &d), 0);
		ck_assert_mem_eq(&d, &s->drops[p], sizeof d);
	}
	ck_assert_uint_gt(s->drops[0].tc[0] + s->drops[1].tc[0] + s->drops[3].tc[5], 0);
	/* a queue nothing left: no histogram */
	ck_assert_int_eq(model_read_sojourns(m, 1, 0, 0, &h), 0);
	ck_assert_ptr_null(h.c);
	ck_assert_uint_eq(model_soj_quantile(&h, NULL, 0.5), 0);
	model_free(m);
	model_scenario_free(&sc);
	free(s);
}

START_TEST(plain)
{
	check_run(0, 0);
}
END_TEST

START_TEST(plain_late)
{
	check_run(0, 30000);
}
END_TEST

START_TEST(arbitration)
{
	check_run(1, 0);
}
END_TEST

START_TEST(arbitration_late)
{
	check_run(1, 30000);
}
END_TEST

/* Off (not tracked), and bad queues. */
START_TEST(off)
{
	struct model_scenario sc;
	struct model *m = build(0, &sc);
	struct model_sojourns h;
	struct model_class_drops d;
	double area = 1;

	model_advance_to(m, T_END);
	ck_assert_int_eq(model_read_occupancy(m, 2, 0, 0, &area), 0);
	ck_assert(area == 0);
	ck_assert_int_eq(model_read_sojourns(m, 2, 0, 0, &h), 0);
	ck_assert_ptr_null(h.c);
	ck_assert_int_eq(model_read_class_drops(m, 2, &d), 0);
	ck_assert_int_eq(model_read_occupancy(m, 99, 0, 0, &area), -1);
	ck_assert_int_eq(model_read_sojourns(m, 2, 8, 0, &h), -1);
	ck_assert_int_eq(model_read_class_drops(m, 99, &d), -1);
	ck_assert_uint_eq(model_sojourns_missing(m), 0);
	model_free(m);
	model_scenario_free(&sc);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("model_qstats");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, plain);
	tcase_add_test(tc, plain_late);
	tcase_add_test(tc, arbitration);
	tcase_add_test(tc, arbitration_late);
	tcase_add_test(tc, off);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? 1 : 0;
}
