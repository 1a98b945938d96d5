/*
 * test_confhint.c - unit tests of the unknown-key hints (confhint.h):
 * edit distances worked by hand (one insertion, one deletion, one
 * transposition, capped at 3) and the messages of a parse through
 * conf_lib_parse: a misspelt key is answered "did you mean", a key of
 * another section is pointed to it, a key far from all gets no hint.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "agent/confhint.h"
#include "agent/confval.h"

START_TEST(test_distance)
{
	ck_assert_uint_eq(conf_hint_distance("port", "port"), 0);
	ck_assert_uint_eq(conf_hint_distance("polling_intervall", "polling_interval"), 1);
	ck_assert_uint_eq(conf_hint_distance("adress", "address"), 1);
	ck_assert_uint_eq(conf_hint_distance("prot", "port"), 1);
	ck_assert_uint_eq(conf_hint_distance("addr", "address"), 3);
	ck_assert_uint_eq(conf_hint_distance("sorce", "source"), 1);
	ck_assert_uint_eq(conf_hint_distance("cap", "max"), 2);
	ck_assert_uint_eq(conf_hint_distance("kitten", "sitting"), 3);
	ck_assert_uint_eq(conf_hint_distance("", "ab"), 2);
}
END_TEST

static cfg_opt_t coll_opts[] = {CFG_STR("address", NULL, CFGF_NONE),
				CFG_INT("port", 6343, CFGF_NONE), CFG_END()};
static cfg_opt_t opts[] = {CFG_INT("polling_interval", 20, CFGF_NONE),
			   CFG_SEC("collector", coll_opts, CFGF_MULTI | CFGF_TITLE), CFG_END()};

static void parse(const char *text, const char *want)
{
	cfg_t *root = cfg_init(opts, CFGF_NONE);
	char err[512];

	ck_assert_int_eq(conf_lib_parse(root, "t.conf", text, err, sizeof err), -1);
	ck_assert_str_eq(err, want);
	cfg_free(root);
}

START_TEST(test_messages)
{
	parse("polling_intervall = 5\n",
	      "t.conf:1: polling_intervall: unknown key; allowed: the keys of bsflowd.conf(5); "
	      "did you mean polling_interval?");
	parse("collector c {\n  adress = \"x\"\n}\n",
	      "t.conf:2: collector \"c\": adress: unknown key; allowed: the keys of "
	      "bsflowd.conf(5); did you mean address?");
	parse("collector c {\n  polling_interval = 5\n}\n",
	      "t.conf:2: collector \"c\": polling_interval: unknown key; allowed: the keys of "
	      "bsflowd.conf(5); polling_interval belongs at the top level");
	parse("port = 5\n", "t.conf:1: port: unknown key; allowed: the keys of bsflowd.conf(5); "
			    "port belongs in a collector section");
	parse("zzz = 5\n", "t.conf:1: zzz: unknown key; allowed: the keys of bsflowd.conf(5)");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("confhint");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, test_distance);
	tcase_add_test(tc, test_messages);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
