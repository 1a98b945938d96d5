/*
 * test_sonic_parse.c - unit tests of the sonic backend's readers: counter
 * values, map and binding keys, profile references, the allocation of a
 * static and a dynamic profile (hand-computed), the maps built from
 * replies parsed by hiredis's own reader out of RESP text, the section's
 * checks and database_config.json.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <hiredis/hiredis.h>
#include <stdint.h>
#include <string.h>

#include "agent/sonic/sonic_conf.h"
#include "agent/sonic/sonic_maps.h"
#include "agent/sonic/sonic_parse.h"
#include "proto/sflow.h"

#define MIB (1024ull * 1024ull)

START_TEST(test_alloc)
{
	/* static: the threshold itself */
	ck_assert_uint_eq(sonic_alloc_bytes(MIB, 0, 0, SONIC_UNKNOWN), MIB);
	/* dynamic_th 1: alpha 2, 2/3 of 12 MiB = 8 MiB */
	ck_assert_uint_eq(sonic_alloc_bytes(SONIC_UNKNOWN, 1, 1, 12 * MIB), 8 * MIB);
	/* dynamic_th 0: alpha 1, half */
	ck_assert_uint_eq(sonic_alloc_bytes(SONIC_UNKNOWN, 1, 0, 12 * MIB), 6 * MIB);
	/* dynamic_th -1: alpha 1/2, 1/3 of 12 MiB = 4 MiB */
	ck_assert_uint_eq(sonic_alloc_bytes(SONIC_UNKNOWN, 1, -1, 12 * MIB), 4 * MIB);
	/* dynamic_th 3: alpha 8, 8/9 of 9 MiB = 8 MiB */
	ck_assert_uint_eq(sonic_alloc_bytes(SONIC_UNKNOWN, 1, 3, 9 * MIB), 8 * MIB);
	/* unknown: no threshold, no pool size, alpha out of range */
	ck_assert_uint_eq(sonic_alloc_bytes(SONIC_UNKNOWN, 0, 0, 12 * MIB), SONIC_UNKNOWN);
	ck_assert_uint_eq(sonic_alloc_bytes(SONIC_UNKNOWN, 1, 1, SONIC_UNKNOWN), SONIC_UNKNOWN);
	ck_assert_uint_eq(sonic_alloc_bytes(SONIC_UNKNOWN, 1, 21, 12 * MIB), SONIC_UNKNOWN);
	/* the percentage of the example: 262144 of 1 MiB */
	ck_assert_int_eq(sflow_percentage(262144, sonic_alloc_bytes(MIB, 0, 0, 0)), 2500);
	ck_assert_int_eq(sflow_percentage(3 * MIB, MIB), 10000); /* clamped */
	ck_assert_int_eq(sflow_percentage(262144, SONIC_UNKNOWN), -1);
}
END_TEST

START_TEST(test_numbers)
{
	uint64_t v;
	int k;

	ck_assert_int_eq(sonic_parse_u64("0", 1, &v), 0);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(sonic_parse_u64("18446744073709551614", 20, &v), 0);
	ck_assert_uint_eq(v, UINT64_MAX - 1);
	/* all ones means unknown: refused, as is anything past it */
	ck_assert_int_eq(sonic_parse_u64("18446744073709551615", 20, &v), -1);
	ck_assert_int_eq(sonic_parse_u64("18446744073709551616", 20, &v), -1);
	ck_assert_uint_eq(v, SONIC_UNKNOWN);
	ck_assert_int_eq(sonic_parse_u64("", 0, &v), -1);
	ck_assert_int_eq(sonic_parse_u64("12a", 3, &v), -1);
	ck_assert_int_eq(sonic_parse_u64("-1", 2, &v), -1);
	ck_assert_int_eq(sonic_parse_u64("n/a", 3, &v), -1);
	ck_assert_int_eq(sonic_parse_small_int("-4", &k), 0);
	ck_assert_int_eq(k, -4);
	ck_assert_int_eq(sonic_parse_small_int("1", &k), 0);
	ck_assert_int_eq(k, 1);
	ck_assert_int_eq(sonic_parse_small_int("65", &k), -1);
	ck_assert_int_eq(sonic_parse_small_int("-", &k), -1);
	ck_assert_int_eq(sonic_parse_small_int("1.5", &k), -1);
}
END_TEST

START_TEST(test_reply_u64)
{
	redisReply r;
	uint64_t v;

	memset(&r, 0, sizeof r);
	r.type = REDIS_REPLY_STRING;
	r.str = (char *)"42";
	r.len = 2;
	ck_assert_int_eq(sonic_reply_u64(&r, &v), 0);
	ck_assert_uint_eq(v, 42);
	r.str = (char *)"4x";
	ck_assert_int_eq(sonic_reply_u64(&r, &v), -1);
	ck_assert_uint_eq(v, SONIC_UNKNOWN);
	r.type = REDIS_REPLY_NIL;
	ck_assert_int_eq(sonic_reply_u64(&r, &v), 1);
	ck_assert_uint_eq(v, SONIC_UNKNOWN);
	r.type = REDIS_REPLY_INTEGER;
	r.integer = 7;
	ck_assert_int_eq(sonic_reply_u64(&r, &v), 0);
	ck_assert_uint_eq(v, 7);
	r.integer = -7;
	ck_assert_int_eq(sonic_reply_u64(&r, &v), -1);
	r.type = REDIS_REPLY_ARRAY;
	ck_assert_int_eq(sonic_reply_u64(&r, &v), -1);
	ck_assert_int_eq(sonic_reply_u64(NULL, &v), -1);
}
END_TEST

START_TEST(test_keys)
{
	char name[16], ports[64], ref[32];
	unsigned a, b;

	ck_assert_int_eq(sonic_parse_obj_key("Ethernet0:3", name, sizeof name, &a), 0);
	ck_assert_str_eq(name, "Ethernet0");
	ck_assert_uint_eq(a, 3);
	ck_assert_int_eq(sonic_parse_obj_key("Ethernet0", name, sizeof name, &a), -1);
	ck_assert_int_eq(sonic_parse_obj_key(":3", name, sizeof name, &a), -1);
	ck_assert_int_eq(sonic_parse_obj_key("Ethernet0:4096", name, sizeof name, &a), -1);
	ck_assert_int_eq(sonic_parse_obj_key("Ethernet0123456789:1", name, sizeof name, &a), -1);

	ck_assert_int_eq(
	    sonic_parse_binding("Ethernet0,Ethernet4|3-4", ports, sizeof ports, &a, &b), 0);
	ck_assert_str_eq(ports, "Ethernet0,Ethernet4");
	ck_assert_uint_eq(a, 3);
	ck_assert_uint_eq(b, 4);
	ck_assert_int_eq(sonic_parse_binding("Ethernet8|5", ports, sizeof ports, &a, &b), 0);
	ck_assert_uint_eq(a, 5);
	ck_assert_uint_eq(b, 5);
	ck_assert_int_eq(sonic_parse_binding("Ethernet8|4-3", ports, sizeof ports, &a, &b), -1);
	ck_assert_int_eq(sonic_parse_binding("Ethernet8|a-b", ports, sizeof ports, &a, &b), -1);
	ck_assert_int_eq(sonic_parse_binding("Ethernet8", ports, sizeof ports, &a, &b), -1);

	ck_assert(sonic_list_has("Ethernet0,Ethernet4", "Ethernet4"));
	ck_assert(sonic_list_has("Ethernet0,Ethernet4", "Ethernet0"));
	ck_assert(!sonic_list_has("Ethernet0,Ethernet4", "Ethernet"));
	ck_assert(!sonic_list_has("Ethernet40", "Ethernet4"));

	ck_assert_int_eq(sonic_parse_ref("[BUFFER_PROFILE|lossy]", ref, sizeof ref), 0);
	ck_assert_str_eq(ref, "lossy");
	ck_assert_int_eq(sonic_parse_ref("BUFFER_POOL|p1", ref, sizeof ref), 0);
	ck_assert_str_eq(ref, "p1");
	ck_assert_int_eq(sonic_parse_ref("plain", ref, sizeof ref), 0);
	ck_assert_str_eq(ref, "plain");
	ck_assert_int_eq(sonic_parse_ref("[]", ref, sizeof ref), -1);
	ck_assert_int_eq(sonic_parse_ref("[BUFFER_PROFILE|]", ref, sizeof ref), -1);
}
END_TEST

/* The reply hiredis's reader makes of RESP text (freed by the caller). */
static redisReply *resp(const char *text)
{
	redisReader *rd = redisReaderCreate();
	void *r = NULL;

	ck_assert_ptr_nonnull(rd);
	ck_assert_int_eq(redisReaderFeed(rd, text, strlen(text)), REDIS_OK);
	ck_assert_int_eq(redisReaderGetReply(rd, &r), REDIS_OK);
	ck_assert_ptr_nonnull(r);
	redisReaderFree(rd);
	return r;
}

/* RESP text of an array of the strings of v (NULL-terminated). */
static const char *arr(const char *const *v)
{
	static char buf[2048];
	size_t n = 0, k = 0;

	while (v[n])
		n++;
	k = (size_t)snprintf(buf, sizeof buf, "*%zu\r\n", n);
	for (size_t i = 0; i < n; i++)
		k +=
		    (size_t)snprintf(buf + k, sizeof buf - k, "$%zu\r\n%s\r\n", strlen(v[i]), v[i]);
	ck_assert_uint_lt(k, sizeof buf);
	return buf;
}

#define A(...) arr((const char *const[]){__VA_ARGS__, NULL})

static void set(struct sonic_tables *t, enum sonic_table tab, size_t i, const char *text)
{
	redisReply *r = resp(text);

	ck_assert_int_eq(sonic_tables_set_fields(t, tab, i, r), 0);
	freeReplyObject(r);
}

static void keys(struct sonic_tables *t, enum sonic_table tab, const char *text)
{
	redisReply *r = resp(text);

	ck_assert_int_eq(sonic_tables_add_keys(t, tab, r), 0);
	freeReplyObject(r);
}

START_TEST(test_dev_build)
{
	struct sonic_tables t;
	struct sonic_dev d;
	const struct sonic_port *p;

	memset(&t, 0, sizeof t);
	/* two front-panel ports (given out of order), one inband */
	keys(&t, SONIC_T_PORT, A("PORT|Ethernet4", "PORT|Ethernet0", "PORT|Ethernet-IB0"));
	set(&t, SONIC_T_PORT, 0, A("index", "2", "speed", "40000", "admin_status", "down"));
	set(&t, SONIC_T_PORT, 1, A("index", "1", "admin_status", "up"));
	set(&t, SONIC_T_PORT, 2, A("index", "99", "role", "Inb"));
	keys(&t, SONIC_T_POOL, A("BUFFER_POOL|egress_lossy"));
	set(&t, SONIC_T_POOL, 0, A("type", "egress", "size", "12582912"));
	keys(&t, SONIC_T_PROFILE, A("BUFFER_PROFILE|dy", "BUFFER_PROFILE|st"));
	set(&t, SONIC_T_PROFILE, 0, A("pool", "[BUFFER_POOL|egress_lossy]", "dynamic_th", "1"));
	set(&t, SONIC_T_PROFILE, 1, A("static_th", "1048576"));
	keys(&t, SONIC_T_QUEUE,
	     A("BUFFER_QUEUE|Ethernet0,Ethernet4|0", "BUFFER_QUEUE|Ethernet0|8"));
	set(&t, SONIC_T_QUEUE, 0, A("profile", "st"));
	set(&t, SONIC_T_QUEUE, 1, A("profile", "dy"));
	set(&t, SONIC_T_PORT_MAP, 0, A("Ethernet0", "oid:1", "Ethernet4", "oid:2"));
	/* queue 8 of Ethernet0 multicast, given before queue 0 */
	set(&t, SONIC_T_QUEUE_MAP, 0,
	    A("Ethernet0:8", "oid:q8", "Ethernet0:0", "oid:q0", "Ethernet4:0", "oid:r0"));
	set(&t, SONIC_T_QTYPE_MAP, 0, A("oid:q8", "SAI_QUEUE_TYPE_MULTICAST"));
	ck_assert_uint_eq(t.bad, 0);

	ck_assert_int_eq(sonic_dev_build(&d, &t, "Ethernet*", 0, NULL, NULL), 0);
	ck_assert_uint_eq(d.nports, 2);
	p = &d.ports[0];
	ck_assert_str_eq(p->name, "Ethernet0");
	ck_assert_uint_eq(p->ifindex, 1);
	ck_assert_str_eq(p->oid, "oid:1");
	ck_assert_uint_eq(p->admin_up, 1);
	ck_assert_uint_eq(p->speed_bps, SONIC_UNKNOWN);
	ck_assert_uint_eq(p->nuc, 1);
	ck_assert_uint_eq(p->nmc, 1);
	ck_assert_str_eq(p->uc[0].oid, "oid:q0");
	ck_assert_uint_eq(p->uc[0].alloc, MIB);
	ck_assert_str_eq(p->mc[0].oid, "oid:q8");
	ck_assert_uint_eq(p->mc[0].alloc, 8 * MIB);
	p = &d.ports[1];
	ck_assert_str_eq(p->name, "Ethernet4");
	ck_assert_uint_eq(p->ifindex, 2);
	ck_assert_uint_eq(p->speed_bps, 40000000000ull);
	ck_assert_uint_eq(p->admin_up, 0);
	ck_assert_uint_eq(p->uc[0].alloc, MIB);
	ck_assert_uint_eq(d.negr, 1);
	ck_assert_uint_eq(d.egr[0].size, 12 * MIB);
	sonic_dev_free(&d);

	/* with an offset of 10: ifIndex 11 and 12 */
	ck_assert_int_eq(sonic_dev_build(&d, &t, "Ethernet4", 10, NULL, NULL), 0);
	ck_assert_uint_eq(d.nports, 1);
	ck_assert_uint_eq(d.ports[0].ifindex, 12);
	sonic_dev_free(&d);
	sonic_tables_free(&t);
}
END_TEST

START_TEST(test_malformed_tables)
{
	struct sonic_tables t;
	struct sonic_dev d;
	redisReply *r;

	memset(&t, 0, sizeof t);
	/* a map that is not an array of pairs, keys of another table */
	r = resp(A("a", "b", "c"));
	ck_assert_int_eq(sonic_tables_set_fields(&t, SONIC_T_PORT_MAP, 0, r), -1);
	freeReplyObject(r);
	r = resp(A("VLAN|x100"));
	ck_assert_int_eq(sonic_tables_add_keys(&t, SONIC_T_PORT, r), 0);
	freeReplyObject(r);
	r = resp("$3\r\nabc\r\n");
	ck_assert_int_eq(sonic_tables_add_keys(&t, SONIC_T_PORT, r), -1);
	freeReplyObject(r);
	ck_assert_uint_eq(t.bad, 3);
	ck_assert_uint_eq(t.t[SONIC_T_PORT].n, 0);
	/* no maps at all: no ports, no crash */
	ck_assert_int_eq(sonic_dev_build(&d, &t, "*", 0, NULL, NULL), 0);
	ck_assert_uint_eq(d.nports, 0);
	sonic_dev_free(&d);
	sonic_tables_free(&t);
}
END_TEST

START_TEST(test_conf)
{
	struct sonic_conf c;
	char err[300];
	static const char json[] =
	    "{ \"INSTANCES\": { \"redis\": { \"hostname\": \"127.0.0.1\", \"port\": 6379,\n"
	    "  \"unix_socket_path\": \"/run/r.sock\" }, \"r2\": {\"hostname\": \"10.0.0.1\", "
	    "\"port\": 6380} },\n"
	    "  \"DATABASES\": { \"APPL_DB\": {\"id\": 0, \"separator\": \":\", \"instance\": "
	    "\"redis\"},\n"
	    "  \"COUNTERS_DB\": {\"id\": 2, \"separator\": \":\", \"instance\": \"r2\"},\n"
	    "  \"CONFIG_DB\": {\"id\": 4, \"separator\": \"|\", \"instance\": \"redis\"} },\n"
	    "  \"VERSION\": \"1.0\" }";

	ck_assert_int_eq(sonic_conf_parse(NULL, "f.conf", 1, &c, err, sizeof err), 0);
	ck_assert_int_eq(sonic_conf_apply_json(&c, json, err, sizeof err), 0);
	ck_assert_int_eq(c.config_db, 4);
	ck_assert_int_eq(c.appl_db, 0);
	ck_assert_int_eq(c.counters_db, 2);
	/* the instance of COUNTERS_DB: TCP */
	ck_assert_str_eq(c.host, "10.0.0.1");
	ck_assert_int_eq(c.port, 6380);
	ck_assert_str_eq(c.unix_path, "");
	ck_assert_uint_eq(c.poll_ns, 1000000000ull);

	/* the section wins over the json */
	ck_assert_int_eq(sonic_conf_parse("\n  redis = \"/x.sock\"\n  counters_db = 12\n"
					  "  poll_interval = 250ms\n",
					  "f.conf", 7, &c, err, sizeof err),
			 0);
	ck_assert_int_eq(sonic_conf_apply_json(&c, json, err, sizeof err), 0);
	ck_assert_str_eq(c.unix_path, "/x.sock");
	ck_assert_int_eq(c.counters_db, 12);
	ck_assert_int_eq(c.config_db, 4);
	ck_assert_uint_eq(c.poll_ns, 250000000ull);
	ck_assert_int_eq(
	    sonic_conf_parse("redis = \"localhost:6379\"", "f.conf", 3, &c, err, sizeof err), 0);
	ck_assert_str_eq(c.host, "localhost");
	ck_assert_int_eq(c.port, 6379);

	/* errors: FILE:LINE: sonic: key: problem, on the value's line */
	ck_assert_int_eq(
	    sonic_conf_parse("\n\n  counters_db = 16\n", "f.conf", 10, &c, err, sizeof err), -1);
	ck_assert_msg(strncmp(err, "f.conf:12: sonic: counters_db", 29) == 0, "%s", err);
	ck_assert_int_eq(
	    sonic_conf_parse("\n poll_interval = 1ms\n", "f.conf", 5, &c, err, sizeof err), -1);
	ck_assert_msg(strncmp(err, "f.conf:6: sonic: poll_interval", 30) == 0, "%s", err);
	ck_assert_int_eq(
	    sonic_conf_parse("redis = \"host:99999\"", "f.conf", 2, &c, err, sizeof err), -1);
	ck_assert_msg(strncmp(err, "f.conf:2: sonic: redis", 22) == 0, "%s", err);
	ck_assert_int_eq(sonic_conf_parse("bogus = 1", "f.conf", 2, &c, err, sizeof err), -1);

	/* a json without the databases */
	ck_assert_int_eq(sonic_conf_parse(NULL, "f.conf", 1, &c, err, sizeof err), 0);
	ck_assert_int_eq(sonic_conf_apply_json(&c, "{\"INSTANCES\": {}}", err, sizeof err), -1);
	ck_assert_int_eq(sonic_conf_apply_json(&c, "{\"DATABASES\": [", err, sizeof err), -1);
	ck_assert_int_eq(sonic_conf_apply_json(&c, "not json", err, sizeof err), -1);
}
END_TEST

static Suite *sonic_suite(void)
{
	Suite *s = suite_create("sonic_parse");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_alloc);
	tcase_add_test(tc, test_numbers);
	tcase_add_test(tc, test_reply_u64);
	tcase_add_test(tc, test_keys);
	tcase_add_test(tc, test_dev_build);
	tcase_add_test(tc, test_malformed_tables);
	tcase_add_test(tc, test_conf);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(sonic_suite());
	int nf;

	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? 0 : 1;
}
