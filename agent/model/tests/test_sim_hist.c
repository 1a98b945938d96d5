/*
 * test_sim_hist.c - the delay histogram bsflow-sim reads (the model's
 * struct model_sojourns, model.h): every value lies in its bucket, no
 * bucket is wider than 1/128 of its values (exact below 256 ns), and
 * nearest-rank quantiles of known sets come back within that resolution
 * and never above the largest value, over all the values or over those
 * counted since an earlier copy (an interval of the time series).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "agent/model/model.h"

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
		unsigned b = model_soj_bucket(v);
		ck_assert_uint_ge(model_soj_upper(b), v);
		ck_assert(b == 0 || model_soj_upper(b - 1) < v);
		if (v < 256)
			ck_assert_uint_eq(model_soj_upper(b), v);
	}
	for (int i = 0; i < 100000; i++) {
		uint64_t v = next(&s) >> (next(&s) % 64);
		unsigned b = model_soj_bucket(v);
		uint64_t lo = b ? model_soj_upper(b - 1) + 1 : 0, hi = model_soj_upper(b);

		ck_assert_uint_lt(b, MODEL_SOJ_NB);
		ck_assert(lo <= v && v <= hi);
		/* width <= lo / 128: the upper end at most 1/128 above any value */
		ck_assert((long double)(hi - lo) <= (long double)lo / 128);
	}
	ck_assert_uint_eq(model_soj_upper(model_soj_bucket(UINT64_MAX)), UINT64_MAX);
}
END_TEST

/* A histogram with counts of its own. */
struct th {
	struct model_sojourns h;
	uint64_t c[MODEL_SOJ_NB];
};

static struct th *th_new(void)
{
	struct th *t = calloc(1, sizeof *t);

	ck_assert_ptr_nonnull(t);
	t->h.c = t->c;
	t->h.lo = MODEL_SOJ_NB;
	return t;
}

static void add(struct th *t, uint64_t v)
{
	unsigned b = model_soj_bucket(v);

	t->c[b]++;
	t->h.n++;
	if (v > t->h.max)
		t->h.max = v;
	if (v > t->h.max_w)
		t->h.max_w = v;
	if (b < t->h.lo)
		t->h.lo = b;
	if (b > t->h.hi)
		t->h.hi = b;
}

START_TEST(quantiles)
{
	struct th *t = th_new();
	const struct model_sojourns *h = &t->h;

	ck_assert_uint_eq(model_soj_quantile(h, NULL, 0.5), 0);
	/* 1..1000 us in 1 us steps: rank ceil(q n) is q n us */
	for (uint64_t v = 1000; v <= 1000000; v += 1000)
		add(t, v);
	ck_assert_uint_ge(model_soj_quantile(h, NULL, 0.5), 500000);
	ck_assert_uint_le(model_soj_quantile(h, NULL, 0.5), 500000 + 500000 / 128);
	ck_assert_uint_ge(model_soj_quantile(h, NULL, 0.99), 990000);
	ck_assert_uint_le(model_soj_quantile(h, NULL, 0.99), 990000 + 990000 / 128);
	ck_assert_uint_ge(model_soj_quantile(h, NULL, 0.999), 999000);
	ck_assert_uint_le(model_soj_quantile(h, NULL, 0.999), 999000 + 999000 / 128);
	/* the last rank: its bucket reaches past 10^6, the max bounds it */
	ck_assert_uint_gt(model_soj_upper(model_soj_bucket(1000000)), 1000000);
	ck_assert_uint_eq(model_soj_quantile(h, NULL, 1.0), 1000000);
	/* the first: 1000 ns, in a bucket 4 ns wide */
	ck_assert_uint_ge(model_soj_quantile(h, NULL, 0.0001), 1000);
	ck_assert_uint_le(model_soj_quantile(h, NULL, 0.0001), 1003);
	free(t);
}
END_TEST

/* An interval: the values counted since the histogram was read (base,
 * its counts copied), whose largest is max_w (restarted at that read). */
START_TEST(since_base)
{
	struct th *t = th_new(), *b = th_new();
	const struct model_sojourns *h = &t->h;
	struct model_sojourns none;

	/* nothing counted when the interval began */
	memset(&none, 0, sizeof none);
	add(t, 5000);
	ck_assert_uint_eq(model_soj_quantile(h, &none, 0.5), 5000);
	memset(t, 0, sizeof *t);
	t->h.c = t->c;
	t->h.lo = MODEL_SOJ_NB;
	/* 1000 values of 1 ms, then the interval starts */
	for (int i = 0; i < 1000; i++)
		add(t, 1000000);
	memcpy(b->c, t->c, sizeof b->c);
	b->h = t->h;
	b->h.c = b->c;
	t->h.max_w = 0;
	ck_assert_uint_eq(model_soj_quantile(h, &b->h, 0.5), 0);
	/* then 1..100 us: ranks of these alone, bounded by their max */
	for (uint64_t v = 1000; v <= 100000; v += 1000)
		add(t, v);
	ck_assert_uint_ge(model_soj_quantile(h, &b->h, 0.5), 50000);
	ck_assert_uint_le(model_soj_quantile(h, &b->h, 0.5), 50000 + 50000 / 128);
	ck_assert_uint_eq(model_soj_quantile(h, &b->h, 1.0), 100000);
	/* over everything: the 1 ms values above the median */
	ck_assert_uint_eq(model_soj_quantile(h, NULL, 0.5), 1000000);
	free(t);
	free(b);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("model_sojourns");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, buckets);
	tcase_add_test(tc, quantiles);
	tcase_add_test(tc, since_base);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? 1 : 0;
}
