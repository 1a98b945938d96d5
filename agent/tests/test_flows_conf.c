/*
 * test_flows_conf.c - unit tests of the configuration keys of packet
 * sampling and drop notifications (agent/conf.c): header_bytes, the
 * sampling section (default, per speed, per port) and the drops section,
 * their defaults, their ranges with the line of the error, and that a
 * change of the sampling section makes a reload reopen the backend.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <string.h>

#include "agent/conf.h"

#define HEAD "collector c {\n  address = 127.0.0.1\n}\n"

static struct conf *load(const char *text, char *err, size_t errlen)
{
	return conf_load_text(text, "t.conf", err, errlen);
}

START_TEST(test_defaults)
{
	char err[512];
	struct conf *c = load(HEAD, err, sizeof err);

	ck_assert_msg(c != NULL, "%s", err);
	ck_assert_uint_eq(c->header_bytes, 128);
	ck_assert_int_eq(c->sampling_set, 0);
	ck_assert_uint_eq(c->drops.limit, 100);
	ck_assert_uint_eq(c->drops.max, 1000000);
	ck_assert_uint_eq(c->drops.max_trip, 10);
	ck_assert_uint_eq(c->drops.cooldown, 60);
	conf_free(c);
}
END_TEST

START_TEST(test_values)
{
	char err[512];
	struct conf *c =
	    load(HEAD "header_bytes = 64\n"
		      "sampling {\n"
		      "  default = 0\n"
		      "  10G = 4096\n"
		      "  2.5G = 250\n"
		      "  port \"eth1\" {\n"
		      "    rate = 50\n"
		      "  }\n"
		      "  port \"eth2\" {\n"
		      "    rate = 0\n"
		      "  }\n"
		      "}\n"
		      "drops {\n  limit = 7\n  max = 0\n  max_trip = 3\n  cooldown = 9\n}\n",
		 err, sizeof err);
	enum bsf_sampling_origin o;

	ck_assert_msg(c != NULL, "%s", err);
	ck_assert_uint_eq(c->header_bytes, 64);
	ck_assert_int_eq(c->sampling_set, 1);
	ck_assert_int_eq(c->sampling.have_default, 1);
	ck_assert_uint_eq(c->sampling.default_rate, 0);
	ck_assert_uint_eq(c->sampling.nspeeds, 2);
	ck_assert_uint_eq(c->sampling.nports, 2);
	ck_assert_uint_eq(bsf_sampling_resolve(&c->sampling, "eth1", 10000000000ull, &o), 50);
	ck_assert_uint_eq(bsf_sampling_resolve(&c->sampling, "eth2", 10000000000ull, &o), 0);
	ck_assert_int_eq(o, BSF_SAMPLING_FROM_PORT);
	ck_assert_uint_eq(bsf_sampling_resolve(&c->sampling, "eth3", 10000000000ull, &o), 4096);
	ck_assert_uint_eq(bsf_sampling_resolve(&c->sampling, "eth3", 2500000000ull, &o), 250);
	ck_assert_uint_eq(bsf_sampling_resolve(&c->sampling, "eth3", 1000000000ull, &o), 0);
	ck_assert_int_eq(o, BSF_SAMPLING_FROM_DEFAULT);
	ck_assert_uint_eq(c->drops.limit, 7);
	ck_assert_uint_eq(c->drops.max, 0);
	ck_assert_uint_eq(c->drops.max_trip, 3);
	ck_assert_uint_eq(c->drops.cooldown, 9);
	conf_free(c);
	/* an empty section: every port derived from its speed */
	c = load(HEAD "sampling {\n}\n", err, sizeof err);
	ck_assert_msg(c != NULL, "%s", err);
	ck_assert_int_eq(c->sampling_set, 1);
	ck_assert_uint_eq(bsf_sampling_resolve(&c->sampling, "x", 25000000000ull, &o), 25000);
	conf_free(c);
}
END_TEST

/* Each bad value is refused with FILE:LINE: naming the section and the key. */
START_TEST(test_errors)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
	    {HEAD "header_bytes = 13\n",
	     "t.conf:4: header_bytes = 13: out of range; allowed: 14..128"},
	    {HEAD "header_bytes = 129\n", "t.conf:4: header_bytes = 129: out of range"},
	    {HEAD "sampling {\n  default = -1\n}\n",
	     "t.conf:5: sampling: default = -1: out of range"},
	    {HEAD "sampling {\n  10G = 2147483648\n}\n",
	     "t.conf:5: sampling: 10G = 2147483648: out of range"},
	    {HEAD "sampling {\n  port \"a\" {\n    rate = -5\n  }\n}\n",
	     "t.conf:6: sampling: port \"a\": rate = -5: out of range; allowed: 0..2147483647"},
	    {HEAD "sampling {\n  port \"a\" {\n  }\n}\n",
	     "t.conf:6: sampling: port \"a\": rate: missing; allowed: 0..2147483647"},
	    {HEAD "sampling {\n  7G = 1\n}\n",
	     "t.conf:5: sampling: 7G: unknown key; allowed: the keys of bsflowd.conf(5)"},
	    {HEAD "drops {\n  limit = 1000001\n}\n",
	     "t.conf:5: drops: limit = 1000001: out of range"},
	    {HEAD "drops {\n  max_trip = 0\n}\n",
	     "t.conf:5: drops: max_trip = 0: out of range; allowed: 1..3600"},
	    {HEAD "drops {\n  cooldown = 0\n}\n", "t.conf:5: drops: cooldown = 0: out of range"},
	    {HEAD "drops {\n  max = -1\n}\n", "t.conf:5: drops: max = -1: out of range"},
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char err[512] = "";
		struct conf *c = load(cases[i].text, err, sizeof err);

		ck_assert_msg(c == NULL, "case %zu accepted", i);
		ck_assert_msg(strstr(err, cases[i].want) != NULL, "case %zu: \"%s\", wanted \"%s\"",
			      i, err, cases[i].want);
	}
}
END_TEST

START_TEST(test_reopen_on_sampling_change)
{
	char err[512];
	struct conf *a = load(HEAD "sampling {\n  default = 100\n}\n", err, sizeof err);
	struct conf *b = load(HEAD "sampling {\n  default = 200\n}\n", err, sizeof err);
	struct conf *b2 =
	    load(HEAD "drops {\n  limit = 5\n}\nsampling {\n  default = 200\n}\n", err, sizeof err);
	struct conf *n = load(HEAD, err, sizeof err);

	ck_assert(a && b && b2 && n);
	ck_assert_int_eq(conf_backend_same(a, b), 0);
	ck_assert_int_eq(conf_backend_same(a, n), 0);
	/* the drops section does not touch the backend */
	ck_assert_int_eq(conf_backend_same(b, b2), 1);
	conf_free(a);
	conf_free(b);
	conf_free(b2);
	conf_free(n);
}
END_TEST

static Suite *flows_conf_suite(void)
{
	Suite *s = suite_create("flows_conf");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_values);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_reopen_on_sampling_change);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(flows_conf_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
