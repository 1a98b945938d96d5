/*
 * test_sample_pool.c - every packet marked for sampling is reported, so
 * that sample_pool / samples is the sampling rate on every port (issue
 * 18, item 2): the daemon's demo scenario (8 ports, 1-in-1000, incast
 * drops on ports 1-4, a congested 1G port 5 fed by ports 6 and 7 with
 * WRED, 1 % ACL drops on port 0) runs for 5 s of model time; its sample
 * events are counted per input port, those of dropped packets (reason
 * non-zero) included.  Checks, per port with a pool:
 *  - marked = sample events + samples lost to a full ring + the few
 *    marked packets still queued at the end;
 *  - samples within 5 standard deviations of the binomial pool / N,
 *    sd = sqrt(pool / N x (1 - 1 / N)) (the model's skips, uniform on
 *    1..2N-1, vary less than a binomial's, so the bound is generous);
 *    before the fix, the ports feeding congested ports lost a third of
 *    their samples to drops (tens of sd);
 *  - a dropped packet's sample has no transit time and a known reason.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "agent/model/model.h"
#include "agent/model/scenario.h"

#define RATE  1000.0
#define STEP  100000ull /* 100 us of model time between two reads */
#define T_END 5000000000ull

static struct model_event evbuf[4096];

START_TEST(test_demo_every_port)
{
	struct model_scenario sc;
	struct model *m;
	char err[256];
	uint64_t samples[64] = {0}, dropped[64] = {0};
	unsigned np;

	ck_assert_msg(
	    model_scenario_parse_text(model_demo_scenario, "demo", NULL, &sc, err, sizeof err) == 0,
	    "%s", err);
	sc.cfg.event_capacity = 1u << 16;
	m = model_scenario_build(&sc, err, sizeof err);
	ck_assert_msg(m != NULL, "%s", err);
	np = sc.cfg.nports;
	ck_assert_uint_le(np, 64);
	for (uint64_t t = STEP; t <= T_END; t += STEP) {
		size_t n;

		model_advance_to(m, t);
		while ((n = model_events_read(m, evbuf, 4096)) > 0)
			for (size_t i = 0; i < n; i++) {
				const struct model_event *e = &evbuf[i];

				if (e->type != MODEL_EV_SAMPLE)
					continue;
				ck_assert_uint_lt(e->in_port, np);
				samples[e->in_port]++;
				if (e->reason != 0) {
					dropped[e->in_port]++;
					ck_assert_uint_eq(e->delay_ns, 0);
				}
			}
	}
	for (unsigned p = 0; p < np; p++) {
		struct model_if_counters c;
		double mean, sd;

		ck_assert_int_eq(model_read_counters(m, p, &c), 0);
		/* marked packets still queued have no event yet: a few at most
		 * (the buffer holds some thousands of packets, 1 in 1000 marked) */
		ck_assert_uint_ge(c.samples_marked, samples[p] + c.samples_lost);
		ck_assert_uint_le(c.samples_marked, samples[p] + c.samples_lost + 10);
		if (c.sample_pool == 0)
			continue;
		mean = (double)c.sample_pool / RATE;
		sd = sqrt(mean * (1.0 - 1.0 / RATE));
		printf("port %u: pool %llu, samples %llu (%llu of dropped packets), pool / samples "
		       "%.1f, expected %.0f +- %.1f\n",
		       p, (unsigned long long)c.sample_pool, (unsigned long long)samples[p],
		       (unsigned long long)dropped[p],
		       samples[p] ? (double)c.sample_pool / (double)samples[p] : 0.0, mean, sd);
		fflush(stdout);
		ck_assert_msg(fabs((double)samples[p] - mean) <= 5.0 * sd + 1.0,
			      "port %u: %llu samples of a pool of %llu at 1-in-%.0f", p,
			      (unsigned long long)samples[p], (unsigned long long)c.sample_pool,
			      RATE);
	}
	/* the congested ports' sources did drop sampled packets */
	ck_assert_uint_gt(dropped[6] + dropped[7], 0);
	model_free(m);
	model_scenario_free(&sc);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sample_pool");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_demo_every_port);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
