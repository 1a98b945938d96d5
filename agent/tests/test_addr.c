/*
 * test_addr.c - the agent address: literal parsing, classification and the
 * documented `auto` preference order (global > private > link-local >
 * loopback; up before down; IPv4 before IPv6; lowest address).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <string.h>

#include "agent/addr.h"

static struct bsf_addr_cand cand(const char *s, int up)
{
	struct bsf_addr_cand c;

	memset(&c, 0, sizeof c);
	ck_assert_int_eq(bsf_addr_parse(s, &c.addr), 0);
	c.up = up;
	return c;
}

START_TEST(parse)
{
	struct sflow_addr a;
	char buf[64];

	ck_assert_int_eq(bsf_addr_parse("192.0.2.7", &a), 0);
	ck_assert_uint_eq(a.type, SFLOW_ADDR_IP4);
	ck_assert_uint_eq(a.a[0], 192);
	ck_assert_uint_eq(a.a[3], 7);
	ck_assert_int_eq(bsf_addr_parse("2001:db8::1", &a), 0);
	ck_assert_uint_eq(a.type, SFLOW_ADDR_IP6);
	ck_assert_uint_eq(a.a[0], 0x20);
	ck_assert_uint_eq(a.a[1], 0x01);
	ck_assert_uint_eq(a.a[15], 1);
	ck_assert_str_eq(sflow_addr_str(&a, buf, sizeof buf), "2001:db8::1");
	ck_assert_int_eq(bsf_addr_parse("auto", &a), -1);
	ck_assert_int_eq(bsf_addr_parse("300.1.1.1", &a), -1);
	ck_assert_int_eq(bsf_addr_parse("", &a), -1);
}
END_TEST

START_TEST(classify)
{
	static const struct {
		const char *s;
		enum bsf_addr_class c;
	} t[] = {
	    {"8.8.8.8", BSF_ADDR_GLOBAL},
	    {"192.0.2.1", BSF_ADDR_GLOBAL},
	    {"10.1.2.3", BSF_ADDR_PRIVATE},
	    {"172.16.0.1", BSF_ADDR_PRIVATE},
	    {"172.31.255.1", BSF_ADDR_PRIVATE},
	    {"172.32.0.1", BSF_ADDR_GLOBAL},
	    {"192.168.1.1", BSF_ADDR_PRIVATE},
	    {"100.64.0.1", BSF_ADDR_PRIVATE},
	    {"100.128.0.1", BSF_ADDR_GLOBAL},
	    {"169.254.3.4", BSF_ADDR_LINKLOCAL},
	    {"127.0.0.1", BSF_ADDR_LOOPBACK},
	    {"0.0.0.0", BSF_ADDR_UNUSABLE},
	    {"224.0.0.1", BSF_ADDR_UNUSABLE},
	    {"2001:db8::1", BSF_ADDR_GLOBAL},
	    {"fd00::1", BSF_ADDR_PRIVATE},
	    {"fc00::1", BSF_ADDR_PRIVATE},
	    {"fe80::1", BSF_ADDR_LINKLOCAL},
	    {"febf::1", BSF_ADDR_LINKLOCAL},
	    {"fec0::1", BSF_ADDR_GLOBAL},
	    {"::1", BSF_ADDR_LOOPBACK},
	    {"::", BSF_ADDR_UNUSABLE},
	    {"ff02::1", BSF_ADDR_UNUSABLE},
	    {"::ffff:10.0.0.1", BSF_ADDR_UNUSABLE},
	};

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct sflow_addr a;

		ck_assert_int_eq(bsf_addr_parse(t[i].s, &a), 0);
		ck_assert_msg(bsf_addr_classify(&a) == t[i].c, "%s: class %d, expected %d", t[i].s,
			      (int)bsf_addr_classify(&a), (int)t[i].c);
	}
}
END_TEST

START_TEST(choose_order)
{
	struct bsf_addr_cand c[8];

	/* global wins over everything, wherever it is in the list */
	c[0] = cand("127.0.0.1", 1);
	c[1] = cand("fe80::1", 1);
	c[2] = cand("10.0.0.1", 1);
	c[3] = cand("2001:db8::5", 1);
	ck_assert_int_eq(bsf_addr_choose(c, 4), 3);
	/* without it: private */
	ck_assert_int_eq(bsf_addr_choose(c, 3), 2);
	/* then link-local */
	ck_assert_int_eq(bsf_addr_choose(c, 2), 1);
	/* loopback only when nothing else */
	ck_assert_int_eq(bsf_addr_choose(c, 1), 0);
	/* nothing usable */
	c[0] = cand("0.0.0.0", 1);
	c[1] = cand("ff02::1", 1);
	ck_assert_int_eq(bsf_addr_choose(c, 2), -1);
	ck_assert_int_eq(bsf_addr_choose(c, 0), -1);
}
END_TEST

START_TEST(choose_ties)
{
	struct bsf_addr_cand c[4];

	/* same class: IPv4 before IPv6 */
	c[0] = cand("2001:db8::1", 1);
	c[1] = cand("198.51.100.9", 1);
	ck_assert_int_eq(bsf_addr_choose(c, 2), 1);
	/* up before down, even IPv6 before IPv4 */
	c[0] = cand("2001:db8::1", 1);
	c[1] = cand("198.51.100.9", 0);
	ck_assert_int_eq(bsf_addr_choose(c, 2), 0);
	/* a down global still beats an up private */
	c[0] = cand("10.0.0.1", 1);
	c[1] = cand("198.51.100.9", 0);
	ck_assert_int_eq(bsf_addr_choose(c, 2), 1);
	/* lowest address, whatever the order */
	c[0] = cand("198.51.100.9", 1);
	c[1] = cand("198.51.100.10", 1);
	c[2] = cand("198.51.100.2", 1);
	ck_assert_int_eq(bsf_addr_choose(c, 3), 2);
	c[0] = cand("10.9.0.1", 1);
	c[1] = cand("10.10.0.1", 1);
	ck_assert_int_eq(bsf_addr_choose(c, 2), 0);
}
END_TEST

START_TEST(auto_host)
{
	/* every host has at least loopback */
	struct sflow_addr a;
	char err[256];

	ck_assert_int_eq(bsf_addr_auto(&a, err, sizeof err), 0);
	ck_assert(bsf_addr_classify(&a) != BSF_ADDR_UNUSABLE);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("addr");
	TCase *tc = tcase_create("addr");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, parse);
	tcase_add_test(tc, classify);
	tcase_add_test(tc, choose_order);
	tcase_add_test(tc, choose_ties);
	tcase_add_test(tc, auto_host);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? 0 : 1;
}
