/*
 * test_traffic_rng.c - tests of the random variates the traffic generators
 * draw (agent/model/rng.h, rng.c) and of the generators' batch interface.
 *
 * The exponential sampler is checked against the closed form of Exp(1):
 * mean 1, variance 1, CDF 1 - exp(-x) (Kolmogorov-Smirnov), bin
 * probabilities (chi-square) and the tail mass exp(-r).  Each tolerance
 * follows from the sample size at a false-failure probability of about
 * 1e-6 for the fixed seed (explained next to each); the same for the
 * variant that takes 40 bits of a shared draw (model_rng_exp40).  The
 * ziggurat tables are recomputed here from their defining equations.  The
 * multi-field uniform draw is checked against 128-bit arithmetic and for
 * uniformity, its 16-bit form over all 2^16 inputs.
 *
 * `test_traffic_rng --table` prints the ziggurat tables in C (how the
 * tables in rng.c were made).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/model/rng.h"
#include "agent/model/traffic.h"

#define N MODEL_EXP_LAYERS

/* Ziggurat edges for exp(-x) with N layers of area v = (r + 1) exp(-r):
 * x[1] = r, x[i+1] = -ln(exp(-x[i]) + v / x[i]); returns the residual
 * exp(-x[N-1]) + v / x[N-1] - 1 (0 at the right r), *over when the
 * layers reach the top too early (r too small). */
static long double zig_edges(long double r, long double *x, int *over)
{
	long double v = (r + 1) * expl(-r), xi = r;

	*over = 0;
	x[1] = r;
	for (int i = 1; i < N - 1; i++) {
		long double y = expl(-xi) + v / xi;

		if (y >= 1) {
			*over = 1;
			return 0;
		}
		xi = -logl(y);
		x[i + 1] = xi;
	}
	return expl(-xi) + v / xi - 1;
}

/* All edges x[0..N], by bisection on r. */
static long double zig_compute(long double *x)
{
	long double lo = 5, hi = 10, r, v;
	int over;

	for (int it = 0; it < 200; it++) {
		long double res;

		r = (lo + hi) / 2;
		res = zig_edges(r, x, &over);
		if (over || res > 0)
			lo = r;
		else
			hi = r;
	}
	r = hi;
	zig_edges(r, x, &over);
	v = (r + 1) * expl(-r);
	x[0] = v / expl(-r);
	x[N] = 0;
	return r;
}

static void print_table(void)
{
	long double x[N + 1], r = zig_compute(x);

	printf("const double model_exp_r = %a;\n\n", (double)r);
	printf("const struct model_exp_layer model_exp_layer[MODEL_EXP_LAYERS] = {\n");
	for (int i = 0; i < N; i++)
		printf("\t{%lluu, %a},\n", (unsigned long long)ceill(x[i + 1] / x[i] * 0x1p53L),
		       (double)(x[i] * 0x1p-53L));
	printf("};\n\nconst double model_exp_f[MODEL_EXP_LAYERS + 1] = {\n");
	for (int i = 0; i <= N; i++)
		printf("\t%a,\n", (double)expl(-x[i]));
	printf("};\n");
}

START_TEST(test_exp_tables)
{
	long double x[N + 1], r = zig_compute(x);

	/* the published value for 256 layers is r = 7.69711747013104972 */
	ck_assert(fabsl(r - 7.69711747013104972L) < 1e-15L);
	ck_assert(fabs(model_exp_r - (double)r) <= 1e-15 * r);
	for (int i = 0; i < N; i++) {
		long double k = ceill(x[i + 1] / x[i] * 0x1p53L);

		ck_assert_msg(fabsl((long double)model_exp_layer[i].k - k) <= 1, "k[%d]", i);
		ck_assert_msg(fabsl(model_exp_layer[i].w - x[i] * 0x1p-53L) <=
				  1e-15L * x[i] * 0x1p-53L,
			      "w[%d]", i);
	}
	for (int i = 0; i <= N; i++)
		ck_assert_msg(fabsl(model_exp_f[i] - expl(-x[i])) <= 1e-15L, "f[%d]", i);
	/* every layer has the same area v */
	for (int i = 1; i < N; i++) {
		long double area = x[i] * (expl(-x[i + 1]) - expl(-x[i]));

		ck_assert_msg(fabsl(area / ((r + 1) * expl(-r)) - 1) < 1e-12L, "area %d", i);
	}
}
END_TEST

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Chi-square quantile for k degrees of freedom at the standard normal
 * quantile z (Wilson-Hilferty). */
static double chi2_quantile(double k, double z)
{
	double a = 2 / (9 * k), b = 1 - a + z * sqrt(a);

	return k * b * b * b;
}

/* n variates of model_rng_exp, or of model_rng_exp40 from a fresh draw
 * when exp40, against the closed form of Exp(1). */
static void check_exp(int exp40, unsigned seed)
{
	enum { n = 500000, bins = 200 };
	struct model_rng r;
	double *v = malloc(n * sizeof(*v)), s1 = 0, s2 = 0, m, var, dmax = 0, chi = 0;
	unsigned cnt[bins] = {0}, tail = 0;

	ck_assert_ptr_nonnull(v);
	model_rng_seed(&r, seed);
	for (unsigned i = 0; i < n; i++) {
		double e = exp40 ? model_rng_exp40(&r, model_rng_next(&r)) : model_rng_exp(&r);
		double q = 1 - exp(-e); /* CDF: uniform on [0, 1) if e is Exp(1) */
		unsigned b = (unsigned)(q * bins);

		ck_assert(e >= 0 && isfinite(e));
		v[i] = e;
		s1 += e;
		s2 += e * e;
		cnt[b < bins ? b : bins - 1]++;
		tail += e > model_exp_r;
	}
	m = s1 / n;
	var = s2 / n - m * m;
	/* mean: sd 1/sqrt(n) = 0.0014; 5 sd */
	ck_assert_msg(fabs(m - 1) < 5 / sqrt(n), "mean %.6f", m);
	/* variance: sd of the sample variance is sqrt((mu4 - 1) / n) with
	 * mu4 = 9 for Exp(1), 0.004; 5 sd */
	ck_assert_msg(fabs(var - 1) < 5 * sqrt(8.0 / n), "variance %.6f", var);
	/* tail beyond r: binomial with p = exp(-r) ~ 4.5e-4; 5 sd */
	{
		double p = exp(-model_exp_r), e = n * p;

		ck_assert_msg(fabs(tail - e) < 5 * sqrt(e * (1 - p)), "tail %u want %.1f", tail, e);
	}
	/* chi-square over 200 equally likely bins, 199 degrees of freedom,
	 * at z = 4.75 (p ~ 1e-6): about 309 */
	for (unsigned b = 0; b < bins; b++) {
		double e = (double)n / bins;

		chi += (cnt[b] - e) * (cnt[b] - e) / e;
	}
	ck_assert_msg(chi < chi2_quantile(bins - 1, 4.75), "chi-square %.1f", chi);
	/* Kolmogorov-Smirnov against 1 - exp(-x): P(D > d) <= 2 exp(-2 n d^2),
	 * so d = sqrt(ln(2 / 1e-6) / (2 n)) = 0.0038 */
	qsort(v, n, sizeof(*v), cmp_double);
	for (unsigned i = 0; i < n; i++) {
		double F = 1 - exp(-v[i]);
		double d1 = (i + 1.0) / n - F, d2 = F - (double)i / n;

		dmax = fmax(dmax, fmax(d1, d2));
	}
	ck_assert_msg(dmax < sqrt(log(2 / 1e-6) / (2.0 * n)), "KS D = %.5f", dmax);
	free(v);
}

START_TEST(test_exp_distribution)
{
	check_exp(0, 12345);
}
END_TEST

/* The variant that takes the first try from 40 bits of a given draw. */
START_TEST(test_exp40_distribution)
{
	check_exp(1, 4242);
}
END_TEST

/* The exponential's tail and wedges in isolation: conditional on
 * X > 1 the excess X - 1 is again Exp(1) (no memory), and most of those
 * samples come from the wedges and the tail path. */
START_TEST(test_exp_memoryless)
{
	enum { n = 1000000 };
	struct model_rng r;
	double s1 = 0, s2 = 0, m, var;
	unsigned k = 0, beyond3 = 0;

	model_rng_seed(&r, 777);
	for (unsigned i = 0; i < n; i++) {
		double e = model_rng_exp(&r);

		if (e > 1) {
			s1 += e - 1;
			s2 += (e - 1) * (e - 1);
			beyond3 += e > 3;
			k++;
		}
	}
	/* P(X > 1) = exp(-1): binomial, 5 sd */
	ck_assert(fabs(k - n * exp(-1)) < 5 * sqrt(n * exp(-1) * (1 - exp(-1))));
	m = s1 / k;
	var = s2 / k - m * m;
	ck_assert_msg(fabs(m - 1) < 5 / sqrt(k), "excess mean %.5f", m);
	ck_assert_msg(fabs(var - 1) < 5 * sqrt(8.0 / k), "excess variance %.5f", var);
	/* P(X > 3 | X > 1) = exp(-2) */
	ck_assert(fabs(beyond3 - k * exp(-2)) < 5 * sqrt(k * exp(-2) * (1 - exp(-2))));
}
END_TEST

START_TEST(test_split_digits)
{
	static const uint64_t ns[][3] = {{12, 63, 2}, {3, 1, 1}, {1, 1, 1},  {64, 1023, 1024},
					 {1, 7, 1},   {5, 5, 5}, {4, 8, 16}, {4294967296ull, 1, 1}};
	struct model_rng r;

	model_rng_seed(&r, 99);
	for (unsigned c = 0; c < sizeof(ns) / sizeof(ns[0]); c++) {
		struct model_rng_split s;
		unsigned __int128 R = (unsigned __int128)ns[c][0] * ns[c][1] * ns[c][2];

		model_rng_split_init(&s, ns[c][0], ns[c][1], ns[c][2]);
		/* rejection threshold: 2^64 mod R */
		ck_assert(s.reject == (uint64_t)(((unsigned __int128)1 << 64) % R));
		unsigned bad = 0;

		for (unsigned i = 0; i < 100000; i++) {
			uint64_t x = model_rng_next(&r);
			unsigned __int128 m = (unsigned __int128)x * R;
			uint64_t v = (uint64_t)(m >> 64), lo = (uint64_t)m;
			uint32_t d[3];
			int ok = model_rng_split_x(&s, x, d);

			/* the fields are the mixed-radix digits of
			 * floor(x R / 2^64) (counted, one assertion below) */
			bad += !(d[0] < ns[c][0] && d[1] < ns[c][1] && d[2] < ns[c][2]);
			bad += ((uint64_t)d[0] * ns[c][1] + d[1]) * ns[c][2] + d[2] != v;
			bad += ok != (lo >= s.reject);
		}
		ck_assert_msg(bad == 0, "setup %u: %u mismatches", c, bad);
	}
	/* R = 3: 2^64 = 1 (mod 3), so only x = 0 (low half 0) is rejected */
	{
		struct model_rng_split s;
		uint32_t d[3];

		model_rng_split_init(&s, 3, 1, 1);
		ck_assert_uint_eq(s.reject, 1);
		ck_assert_int_eq(model_rng_split_x(&s, 0, d), 0);
		ck_assert_int_eq(model_rng_split_x(&s, 1, d), 1);
		ck_assert_uint_eq(d[0], 0);
		ck_assert_int_eq(model_rng_split_x(&s, ~0ull, d), 1);
		ck_assert_uint_eq(d[0], 2);
	}
}
END_TEST

/* From 16 bits: the digits of floor(u R / 2^16), rejecting the u whose
 * low part is below 2^16 mod R; checked over every u for a few R, with
 * each value of [0, R) then taken by exactly floor(2^16 / R) of them. */
START_TEST(test_split16_exhaustive)
{
	static const uint64_t ns[][3] = {
	    {12, 63, 2}, {3, 1, 1}, {1, 1, 1}, {7, 5, 3}, {16, 16, 16}};

	for (unsigned c = 0; c < sizeof(ns) / sizeof(ns[0]); c++) {
		struct model_rng_split s;
		uint32_t R = (uint32_t)(ns[c][0] * ns[c][1] * ns[c][2]), rej, bad = 0;
		static unsigned hits[4096];

		model_rng_split_init(&s, ns[c][0], ns[c][1], ns[c][2]);
		rej = model_rng_split16_reject(&s);
		ck_assert_uint_eq(rej, 65536 % R);
		memset(hits, 0, sizeof(hits));
		for (uint32_t u = 0; u < 65536; u++) {
			uint32_t d[3], v = (u * R) >> 16, lo = (u * R) & 0xffff;
			int ok = model_rng_split16_x(&s, rej, u, d);

			bad += !(d[0] < ns[c][0] && d[1] < ns[c][1] && d[2] < ns[c][2]);
			bad += (d[0] * ns[c][1] + d[1]) * ns[c][2] + d[2] != v;
			bad += ok != (lo >= rej);
			if (ok)
				hits[v]++;
		}
		for (uint32_t v = 0; v < R; v++)
			bad += hits[v] != 65536 / R;
		ck_assert_msg(bad == 0, "R = %u: %u mismatches", R, bad);
	}
}
END_TEST

START_TEST(test_split_uniform)
{
	enum { n0 = 12, n1 = 63, n2 = 2, R = n0 * n1 * n2, per = 200 };
	static unsigned cnt[R];
	struct model_rng r;
	struct model_rng_split s;
	double chi = 0;
	unsigned n3[3] = {0, 0, 0};

	memset(cnt, 0, sizeof(cnt));
	model_rng_seed(&r, 2024);
	model_rng_split_init(&s, n0, n1, n2);
	for (unsigned i = 0; i < R * per; i++) {
		uint32_t d[3];

		model_rng_split(&r, &s, d);
		cnt[(d[0] * n1 + d[1]) * n2 + d[2]]++;
	}
	/* joint chi-square, R - 1 = 1511 degrees of freedom, z = 4.75 */
	for (unsigned i = 0; i < R; i++)
		chi += (cnt[i] - (double)per) * (cnt[i] - (double)per) / per;
	ck_assert_msg(chi < chi2_quantile(R - 1, 4.75), "chi-square %.1f", chi);

	/* model_rng_uniform(3): each value 1/3, 5 sd of a binomial */
	for (unsigned i = 0; i < 300000; i++)
		n3[model_rng_uniform(&r, 3)]++;
	for (unsigned i = 0; i < 3; i++)
		ck_assert(fabs(n3[i] - 100000.0) < 5 * sqrt(300000 * (1 / 3.0) * (2 / 3.0)));
}
END_TEST

/* Poisson gaps of a generator against the closed-form CDF 1 - exp(-g/m):
 * at 1 Mb/s the mean gap is 672 us (64-byte frames) or 2.99 ms (IMIX), so
 * the whole nanoseconds of the packet times change the CDF by under 2e-6.
 * The first setup has one field value (one draw per packet), the second
 * 12 x 63 x 100 (two draws per packet). */
START_TEST(test_gen_poisson_ks)
{
	enum { n = 200000 };
	double *g = malloc(n * sizeof(*g));

	ck_assert_ptr_nonnull(g);
	for (unsigned setup = 0; setup < 2; setup++) {
		struct model_gen_conf c;
		struct model_source s;
		struct model_pkt p;
		char err[200];
		double prev = 0, mean, dmax = 0, sum = 0;

		model_gen_defaults(&c);
		c.nports = 4;
		c.rate_bps = 1e6;
		c.arrival = MODEL_ARRIVAL_POISSON;
		c.seed = 5;
		mean = (64 + 20) * 8.0 / 1e6 * 1e9;
		if (setup == 1) {
			c.nports = 64;
			c.size = MODEL_SIZE_IMIX;
			c.dest = MODEL_DEST_UNIFORM;
			c.nflows = 100;
			mean = (4252.0 / 12 + 20) * 8.0 / 1e6 * 1e9;
		}
		ck_assert_int_eq(model_gen_new(&c, &s, err, sizeof(err)), 0);
		for (unsigned i = 0; i < n; i++) {
			ck_assert_int_eq(s.next(s.state, &p), 1);
			g[i] = (double)p.t_ns - prev;
			prev = (double)p.t_ns;
			sum += p.len;
		}
		s.free(s.state);
		if (setup == 1) {
			/* IMIX mean 4252/12, sd 418.2 per frame: the sd of the
			 * mean is 0.0026 of it; 5 sd */
			ck_assert(fabs(sum / n / (4252.0 / 12) - 1) < 0.0132);
		}
		qsort(g, n, sizeof(*g), cmp_double);
		for (unsigned i = 0; i < n; i++) {
			double F = 1 - exp(-g[i] / mean);

			dmax = fmax(dmax, fmax((i + 1.0) / n - F, F - (double)i / n));
		}
		/* KS bound at 1e-6 (as above) plus 2e-6 for the rounding */
		ck_assert_msg(dmax < sqrt(log(2 / 1e-6) / (2.0 * n)) + 2e-6,
			      "setup %u: KS D = %.5f", setup, dmax);
	}
	free(g);
}
END_TEST

static int same_pkt(const struct model_pkt *a, const struct model_pkt *b)
{
	return a->t_ns == b->t_ns && a->len == b->len && a->in_port == b->in_port &&
	       a->out_port == b->out_port && a->mc_group == b->mc_group && a->tc == b->tc &&
	       a->tos == b->tos && a->fwd_drop == b->fwd_drop && a->hdr_len == b->hdr_len &&
	       a->flow_id == b->flow_id && a->cast == b->cast &&
	       memcmp(a->hdr, b->hdr, a->hdr_len) == 0;
}

/* The batch interface hands out the same sequence as next(), also when
 * the two are mixed, and ends at the same packet; with lazy headers the
 * bytes model_gen_header finds are those next() gives. */
START_TEST(test_batch_same_sequence)
{
	static const enum model_arrival_kind arr[] = {MODEL_ARRIVAL_CONSTANT, MODEL_ARRIVAL_POISSON,
						      MODEL_ARRIVAL_ONOFF};
	struct model_pkt buf[40], q;

	for (unsigned a = 0; a < 3; a++) {
		struct model_gen_conf c;
		struct model_source s1, s2;
		char err[200];
		unsigned n1 = 0, n2 = 0, step = 0, lazy = 0;

		model_gen_defaults(&c);
		c.nports = 16;
		c.in_port = 3;
		c.rate_bps = 1e10;
		c.size = MODEL_SIZE_IMIX;
		c.arrival = arr[a];
		c.period_ns = 100000;
		c.duty = 0.3;
		c.dest = MODEL_DEST_HOTSPOT;
		c.dest_port = 9;
		c.hotspot = 0.3;
		c.nflows = 5;
		c.mc_fraction = 0.1;
		c.mc_group = 2;
		c.drop_fraction = 0.05;
		c.drop_reason = 257;
		c.max_packets = 1000;
		c.seed = 31 + a;
		ck_assert_int_eq(model_gen_new(&c, &s1, err, sizeof(err)), 0);
		ck_assert_int_eq(model_gen_new(&c, &s2, err, sizeof(err)), 0);
		for (;;) {
			unsigned want = 1 + (step * 7) % 40, got;

			if (step++ % 3 == 0) {
				if (!s2.next(s2.state, &q))
					break;
				buf[0] = q;
				got = 1;
			} else {
				got = model_gen_next_batch(s2.state, buf, want,
							   step % 2 ? MODEL_GEN_LAZY_HDR : 0);
				ck_assert_uint_le(got, want);
				if (got == 0)
					break;
			}
			for (unsigned i = 0; i < got; i++) {
				if (!buf[i].hdr) {
					/* lazy: the same bytes, found from the packet */
					buf[i].hdr = model_gen_header(s2.state, &buf[i]);
					ck_assert_ptr_nonnull(buf[i].hdr);
					lazy++;
				}
				ck_assert_int_eq(s1.next(s1.state, &q), 1);
				ck_assert_msg(same_pkt(&q, &buf[i]), "packet %u differs", n1);
				n1++;
			}
			n2 += got;
		}
		ck_assert_uint_eq(n1, 1000);
		ck_assert_uint_eq(n2, 1000);
		ck_assert_int_eq(s1.next(s1.state, &q), 0);
		ck_assert_uint_gt(lazy, 300);
		/* a packet no generator of this setup makes has no header */
		q.hdr = NULL;
		q.len = 65;
		ck_assert_ptr_null(model_gen_header(s1.state, &q));
		ck_assert_uint_eq(model_gen_next_batch(s2.state, buf, 5, 0), 0);
		s1.free(s1.state);
		s2.free(s2.state);
	}
}
END_TEST

static Suite *rng_suite(void)
{
	Suite *s = suite_create("traffic_rng");
	TCase *t = tcase_create("rng");

	tcase_set_timeout(t, 120);
	tcase_add_test(t, test_exp_tables);
	tcase_add_test(t, test_exp_distribution);
	tcase_add_test(t, test_exp40_distribution);
	tcase_add_test(t, test_exp_memoryless);
	tcase_add_test(t, test_split_digits);
	tcase_add_test(t, test_split16_exhaustive);
	tcase_add_test(t, test_split_uniform);
	tcase_add_test(t, test_gen_poisson_ks);
	tcase_add_test(t, test_batch_same_sequence);
	suite_add_tcase(s, t);
	return s;
}

int main(int argc, char **argv)
{
	SRunner *sr;
	int failed;

	if (argc > 1 && strcmp(argv[1], "--table") == 0) {
		print_table();
		return 0;
	}
	sr = srunner_create(rng_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
