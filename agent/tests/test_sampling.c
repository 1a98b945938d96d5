/*
 * test_sampling.c - unit tests of the per-port sampling rate resolution
 * (agent/sampling.c): every level of the precedence, 0 = off stopping the
 * search, the speed-derived rates (one per Mb/s) and speed parsing.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <stdint.h>

#include "agent/sampling.h"

#define G 1000000000ull
#define M 1000000ull

START_TEST(test_derived)
{
	ck_assert_uint_eq(bsf_sampling_derived(10 * M), 10);
	ck_assert_uint_eq(bsf_sampling_derived(100 * M), 100);
	ck_assert_uint_eq(bsf_sampling_derived(1 * G), 1000);
	ck_assert_uint_eq(bsf_sampling_derived(10 * G), 10000);
	ck_assert_uint_eq(bsf_sampling_derived(25 * G), 25000);
	ck_assert_uint_eq(bsf_sampling_derived(40 * G), 40000);
	ck_assert_uint_eq(bsf_sampling_derived(100 * G), 100000);
	ck_assert_uint_eq(bsf_sampling_derived(400 * G), 400000);
	ck_assert_uint_eq(bsf_sampling_derived(800 * G), 800000);
	ck_assert_uint_eq(bsf_sampling_derived(2500 * M), 2500);
	ck_assert_uint_eq(bsf_sampling_derived(1000), 1);    /* 1 kb/s: at least 1 */
	ck_assert_uint_eq(bsf_sampling_derived(1499999), 1); /* rounds to nearest */
	ck_assert_uint_eq(bsf_sampling_derived(1500000), 2);
	ck_assert_uint_eq(bsf_sampling_derived(0), BSF_SAMPLING_FALLBACK);
	ck_assert_uint_eq(bsf_sampling_derived(UINT64_MAX), BSF_SAMPLING_MAX);
}
END_TEST

START_TEST(test_precedence)
{
	static const struct bsf_sampling_speed speeds[] = {{10 * G, 4096}, {1 * G, 0}};
	static const struct bsf_sampling_port ports[] = {{"eth1", 50}, {"eth2", 0}};
	struct bsf_sampling_conf c = {1, 777, speeds, 2, ports, 2};
	enum bsf_sampling_origin o;

	/* port wins over speed and default */
	ck_assert_uint_eq(bsf_sampling_resolve(&c, "eth1", 10 * G, &o), 50);
	ck_assert_int_eq(o, BSF_SAMPLING_FROM_PORT);
	/* a port's 0 turns it off, nothing below is looked at */
	ck_assert_uint_eq(bsf_sampling_resolve(&c, "eth2", 10 * G, &o), 0);
	ck_assert_int_eq(o, BSF_SAMPLING_FROM_PORT);
	/* speed next */
	ck_assert_uint_eq(bsf_sampling_resolve(&c, "eth3", 10 * G, &o), 4096);
	ck_assert_int_eq(o, BSF_SAMPLING_FROM_SPEED);
	ck_assert_uint_eq(bsf_sampling_resolve(&c, "eth3", 1 * G, &o), 0);
	ck_assert_int_eq(o, BSF_SAMPLING_FROM_SPEED);
	/* then the default */
	ck_assert_uint_eq(bsf_sampling_resolve(&c, "eth3", 25 * G, &o), 777);
	ck_assert_int_eq(o, BSF_SAMPLING_FROM_DEFAULT);
	ck_assert_uint_eq(bsf_sampling_resolve(&c, NULL, 0, &o), 777);
	/* no default: derived from the speed */
	c.have_default = 0;
	ck_assert_uint_eq(bsf_sampling_resolve(&c, "eth3", 25 * G, &o), 25000);
	ck_assert_int_eq(o, BSF_SAMPLING_FROM_DERIVED);
	ck_assert_uint_eq(bsf_sampling_resolve(&c, "eth3", 0, &o), BSF_SAMPLING_FALLBACK);
	/* no configuration at all */
	ck_assert_uint_eq(bsf_sampling_resolve(NULL, "x", 100 * G, NULL), 100000);
	ck_assert_str_eq(bsf_sampling_origin_name(BSF_SAMPLING_FROM_SPEED), "speed");
	ck_assert_str_eq(bsf_sampling_origin_name(BSF_SAMPLING_FROM_DERIVED), "derived");
}
END_TEST

START_TEST(test_parse_speed)
{
	uint64_t v = 0;

	ck_assert_int_eq(bsf_sampling_parse_speed("10G", &v), 0);
	ck_assert_uint_eq(v, 10 * G);
	ck_assert_int_eq(bsf_sampling_parse_speed("100M", &v), 0);
	ck_assert_uint_eq(v, 100 * M);
	ck_assert_int_eq(bsf_sampling_parse_speed("2500m", &v), 0);
	ck_assert_uint_eq(v, 2500 * M);
	ck_assert_int_eq(bsf_sampling_parse_speed("400g", &v), 0);
	ck_assert_uint_eq(v, 400 * G);
	ck_assert_int_eq(bsf_sampling_parse_speed("1T", &v), 0);
	ck_assert_uint_eq(v, 1000 * G);
	ck_assert_int_eq(bsf_sampling_parse_speed("10K", &v), 0);
	ck_assert_uint_eq(v, 10000);
	ck_assert_int_eq(bsf_sampling_parse_speed("1000000000", &v), 0);
	ck_assert_uint_eq(v, G);
	ck_assert_int_eq(bsf_sampling_parse_speed("2.5G", &v), 0);
	ck_assert_uint_eq(v, 2500 * M);
	ck_assert_int_eq(bsf_sampling_parse_speed("0.1M", &v), 0);
	ck_assert_uint_eq(v, 100000);
	ck_assert_int_eq(bsf_sampling_parse_speed("1.5", &v), -1); /* 1.5 b/s */
	ck_assert_int_eq(bsf_sampling_parse_speed("2.G", &v), -1);
	ck_assert_int_eq(bsf_sampling_parse_speed("", &v), -1);
	ck_assert_int_eq(bsf_sampling_parse_speed("G", &v), -1);
	ck_assert_int_eq(bsf_sampling_parse_speed("0G", &v), -1);
	ck_assert_int_eq(bsf_sampling_parse_speed("10GB", &v), -1);
	ck_assert_int_eq(bsf_sampling_parse_speed("10 G", &v), -1);
	ck_assert_int_eq(bsf_sampling_parse_speed("-1G", &v), -1);
	ck_assert_int_eq(bsf_sampling_parse_speed("99999999999999999999", &v), -1);
	ck_assert_int_eq(bsf_sampling_parse_speed("20000000000T", &v), -1);
	ck_assert_int_eq(bsf_sampling_parse_speed(NULL, &v), -1);
}
END_TEST

static Suite *sampling_suite(void)
{
	Suite *s = suite_create("sampling");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_derived);
	tcase_add_test(tc, test_precedence);
	tcase_add_test(tc, test_parse_speed);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(sampling_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
