/*
 * test_sim_hist.c - bsflow-sim's delay histogram (sim_stats.h): every
 * value lies in its bucket, no bucket is wider than 1/128 of its values
 * (exact below 256 ns), and nearest-rank quantiles of known sets come
 * back within that resolution and never above the largest value.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "agent/model/sim_stats.h"

static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

START_TEST(buckets)
{
	uint64_t s = 88172645463325252ull;

	for (uint64_t v = 0; v < 4096; v++) {
		unsigned b = sim_hist_bucket(v);
		ck_assert_uint_ge(sim_hist_upper(b), v);
		ck_assert(b == 0 || sim_hist_upper(b - 1) < v);
		if (v < 256)
			ck_assert_uint_eq(sim_hist_upper(b), v);
	}
	for (int i = 0; i < 100000; i++) {
		uint64_t v = next(&s) >> (next(&s) % 64);
		unsigned b = sim_hist_bucket(v);
		uint64_t lo = b ? sim_hist_upper(b - 1) + 1 : 0, hi = sim_hist_upper(b);

		ck_assert_uint_lt(b, SIM_HIST_NB);
		ck_assert(lo <= v && v <= hi);
		/* width <= lo / 128: the upper end at most 1/128 above any value */
		ck_assert((long double)(hi - lo) <= (long double)lo / 128);
	}
	ck_assert_uint_eq(sim_hist_upper(sim_hist_bucket(UINT64_MAX)), UINT64_MAX);
}
END_TEST

START_TEST(quantiles)
{
	struct sim_hist *h = calloc(1, sizeof *h);

	ck_assert_ptr_nonnull(h);
	h->lo = SIM_HIST_NB;
	ck_assert_uint_eq(sim_hist_quantile(h, 0.5), 0);
	/* 1..1000 us in 1 us steps: rank ceil(q n) is q n us */
	for (uint64_t v = 1000; v <= 1000000; v += 1000) {
		unsigned b = sim_hist_bucket(v);
		h->c[b]++;
		h->n++;
		h->max = v;
		if (b < h->lo)
			h->lo = b;
		if (b > h->hi)
			h->hi = b;
	}
	ck_assert_uint_ge(sim_hist_quantile(h, 0.5), 500000);
	ck_assert_uint_le(sim_hist_quantile(h, 0.5), 500000 + 500000 / 128);
	ck_assert_uint_ge(sim_hist_quantile(h, 0.99), 990000);
	ck_assert_uint_le(sim_hist_quantile(h, 0.99), 990000 + 990000 / 128);
	ck_assert_uint_ge(sim_hist_quantile(h, 0.999), 999000);
	ck_assert_uint_le(sim_hist_quantile(h, 0.999), 999000 + 999000 / 128);
	/* the last rank: its bucket reaches past 10^6, the max bounds it */
	ck_assert_uint_gt(sim_hist_upper(sim_hist_bucket(1000000)), 1000000);
	ck_assert_uint_eq(sim_hist_quantile(h, 1.0), 1000000);
	/* the first: 1000 ns, in a bucket 4 ns wide */
	ck_assert_uint_ge(sim_hist_quantile(h, 0.0001), 1000);
	ck_assert_uint_le(sim_hist_quantile(h, 0.0001), 1003);
	free(h);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sim_hist");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, buckets);
	tcase_add_test(tc, quantiles);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? 1 : 0;
}
