/*
 * test_sonic_parse.c - unit tests of the sonic backend's readers: counter
 * values, map and binding keys (CONFIG_DB's and APPL_DB's), profile
 * references, the allocation of a static and a dynamic profile
 * (hand-computed), the maps built from replies parsed by hiredis's own
 * reader out of RESP text (APPL_DB over CONFIG_DB, the drop counters and
 * the sFlow codes of their reasons), the views built from them (whether
 * two describe the same device, values carried by port name), the
 * keyspace notification settings, the section's checks and
 * database_config.json.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <hiredis/hiredis.h>
#include <stdint.h>
#include <string.h>

#include "agent/sonic/sonic_conf.h"
#include "agent/sonic/sonic_drops.h"
#include "agent/sonic/sonic_maps.h"
#include "agent/sonic/sonic_notify.h"
#include "agent/sonic/sonic_parse.h"
#include "agent/sonic/sonic_view.h"
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
	ck_assert_int_eq(sonic_parse_ref("[BUFFER_PROFILE_TABLE:pg_lossless]", ref, sizeof ref), 0);
	ck_assert_str_eq(ref, "pg_lossless");
	ck_assert_int_eq(sonic_parse_ref("BUFFER_POOL_TABLE:ingress", ref, sizeof ref), 0);
	ck_assert_str_eq(ref, "ingress");
	/* APPL_DB's bindings: ':' before the range */
	ck_assert_int_eq(sonic_parse_binding("Ethernet0:3-4", ports, sizeof ports, &a, &b), 0);
	ck_assert_str_eq(ports, "Ethernet0");
	ck_assert_uint_eq(a, 3);
	ck_assert_uint_eq(b, 4);
	ck_assert_int_eq(sonic_parse_binding(":3", ports, sizeof ports, &a, &b), -1);
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
	ck_assert_int_eq(c.asic_db, -1); /* not in this json: the default, later */
	ck_assert_int_eq(c.notifications, 1);
	sonic_conf_defaults(&c);
	ck_assert_int_eq(c.asic_db, 1);
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
	ck_assert_int_eq(sonic_conf_parse("\n asic_db = 3\n keyspace_notifications = no\n",
					  "f.conf", 1, &c, err, sizeof err),
			 0);
	ck_assert_int_eq(c.asic_db, 3);
	ck_assert_int_eq(c.notifications, 0);
	ck_assert_int_eq(sonic_conf_parse("\n keyspace_notifications = maybe\n", "f.conf", 4, &c,
					  err, sizeof err),
			 -1);
	ck_assert_msg(strncmp(err, "f.conf:5: sonic: keyspace_notifications", 39) == 0, "%s", err);

	/* a json without the databases */
	ck_assert_int_eq(sonic_conf_parse(NULL, "f.conf", 1, &c, err, sizeof err), 0);
	ck_assert_int_eq(sonic_conf_apply_json(&c, "{\"INSTANCES\": {}}", err, sizeof err), -1);
	ck_assert_int_eq(sonic_conf_apply_json(&c, "{\"DATABASES\": [", err, sizeof err), -1);
	ck_assert_int_eq(sonic_conf_apply_json(&c, "not json", err, sizeof err), -1);
}
END_TEST

/* APPL_DB's rows win over CONFIG_DB's, object by object: a binding, a
 * profile, a pool; a reference in either form finds either table. */
START_TEST(test_appl_precedence)
{
	struct sonic_tables t;
	struct sonic_dev d;

	memset(&t, 0, sizeof t);
	keys(&t, SONIC_T_PORT, A("PORT|Ethernet0", "PORT|Ethernet4"));
	set(&t, SONIC_T_PORT, 0, A("index", "1"));
	set(&t, SONIC_T_PORT, 1, A("index", "2"));
	set(&t, SONIC_T_PG_MAP, 0, A("Ethernet0:3", "oid:g3", "Ethernet4:3", "oid:h3"));
	/* CONFIG_DB: a 12 MiB pool, a profile of alpha 2; Ethernet0's PG 3
	 * with no profile (the dynamic model's), Ethernet4's on it */
	keys(&t, SONIC_T_POOL, A("BUFFER_POOL|ing"));
	set(&t, SONIC_T_POOL, 0, A("type", "ingress", "size", "12582912"));
	keys(&t, SONIC_T_PROFILE, A("BUFFER_PROFILE|lossless"));
	set(&t, SONIC_T_PROFILE, 0, A("pool", "ing", "dynamic_th", "1", "xoff", "38816"));
	keys(&t, SONIC_T_PG, A("BUFFER_PG|Ethernet0|3-4", "BUFFER_PG|Ethernet4|3-4"));
	set(&t, SONIC_T_PG, 0, A("profile", "NULL"));
	set(&t, SONIC_T_PG, 1, A("profile", "lossless"));
	/* APPL_DB: the pool at 10 MiB, a profile of alpha 1 bound to
	 * Ethernet0's PG 3 */
	keys(&t, SONIC_T_APOOL, A("BUFFER_POOL_TABLE:ing"));
	set(&t, SONIC_T_APOOL, 0, A("type", "ingress", "size", "10485760"));
	keys(&t, SONIC_T_APROFILE, A("BUFFER_PROFILE_TABLE:dyn"));
	set(&t, SONIC_T_APROFILE, 0,
	    A("pool", "[BUFFER_POOL_TABLE:ing]", "dynamic_th", "0", "xoff", "40960"));
	keys(&t, SONIC_T_APG, A("BUFFER_PG_TABLE:Ethernet0:3-4"));
	set(&t, SONIC_T_APG, 0, A("profile", "dyn"));
	ck_assert_uint_eq(t.bad, 0);
	ck_assert_int_eq(sonic_dev_build(&d, &t, "Ethernet*", 0, NULL, NULL), 0);
	ck_assert_uint_eq(d.ning, 1);
	ck_assert_uint_eq(d.ing[0].size, 10 * MIB); /* APPL_DB's */
	/* Ethernet0: APPL_DB's binding and profile: 1/2 x 10 MiB */
	ck_assert_uint_eq(d.ports[0].pg[0].alloc, 5 * MIB);
	ck_assert_uint_eq(d.ports[0].pg[0].alloc2, 40960);
	/* Ethernet4: CONFIG_DB's binding and profile, APPL_DB's pool:
	 * 2/3 x 10 MiB rounded down */
	ck_assert_uint_eq(d.ports[1].pg[0].alloc, 6990506);
	ck_assert_uint_eq(d.ports[1].pg[0].alloc2, 38816);
	sonic_dev_free(&d);
	sonic_tables_free(&t);
}
END_TEST

/* SAI drop reasons to sFlow codes (proto/sflow_drops.c's table). */
START_TEST(test_drop_reasons)
{
	ck_assert_uint_eq(sonic_drop_reason_code("TTL"), 257);
	ck_assert_uint_eq(sonic_drop_reason_code("ACL_ANY"), 258);
	ck_assert_uint_eq(sonic_drop_reason_code("SMAC_EQUALS_DMAC"), 293);
	ck_assert_uint_eq(sonic_drop_reason_code("INGRESS_VLAN_FILTER"), 265);
	ck_assert_uint_eq(sonic_drop_reason_code("EGRESS_VLAN_FILTER"), 301);
	ck_assert_uint_eq(sonic_drop_reason_code("LPM4_MISS"), 0);
	ck_assert_uint_eq(sonic_drop_reason_code("FDB_UC_DISCARD"), UINT32_MAX);
	ck_assert_uint_eq(sonic_drop_reason_code(""), UINT32_MAX);
}
END_TEST

/* The drop counters: their fields from the stat maps, direction and
 * alias from DEBUG_COUNTER, reasons sorted, one code or none; the
 * switch's object id from ASIC_DB. */
START_TEST(test_drop_counters)
{
	struct sonic_tables t;
	struct sonic_dev d, d2;

	memset(&t, 0, sizeof t);
	set(&t, SONIC_T_DBG_PORT_MAP, 0,
	    A("DEBUG_1", "SAI_PORT_STAT_OUT_CONFIGURED_DROP_REASONS_0_DROPPED_PKTS", "DEBUG_0",
	      "SAI_PORT_STAT_IN_CONFIGURED_DROP_REASONS_0_DROPPED_PKTS", "NOCFG",
	      "SAI_PORT_STAT_IN_CONFIGURED_DROP_REASONS_1_DROPPED_PKTS"));
	set(&t, SONIC_T_DBG_SWITCH_MAP, 0,
	    A("DEBUG_2", "SAI_SWITCH_STAT_IN_CONFIGURED_DROP_REASONS_0_DROPPED_PKTS"));
	keys(&t, SONIC_T_DBG, A("DEBUG_COUNTER|DEBUG_0", "DEBUG_COUNTER|DEBUG_1"));
	set(&t, SONIC_T_DBG, 0, A("type", "PORT_INGRESS_DROPS", "alias", "RX_LEGIT"));
	set(&t, SONIC_T_DBG, 1, A("type", "PORT_EGRESS_DROPS"));
	keys(&t, SONIC_T_DBG_REASON,
	     A("DEBUG_COUNTER_DROP_REASON|DEBUG_1|L3_ANY",
	       "DEBUG_COUNTER_DROP_REASON|DEBUG_0|SMAC_EQUALS_DMAC",
	       "DEBUG_COUNTER_DROP_REASON|DEBUG_1|EGRESS_VLAN_FILTER",
	       "DEBUG_COUNTER_DROP_REASON|DEBUG_2|TTL"));
	keys(&t, SONIC_T_SWITCH, A("ASIC_STATE:SAI_OBJECT_TYPE_SWITCH:oid:0x21000000000000"));
	ck_assert_uint_eq(t.bad, 0);
	ck_assert_int_eq(sonic_dev_build(&d, &t, "Ethernet*", 0, NULL, NULL), 0);
	ck_assert_str_eq(d.switch_oid, "oid:0x21000000000000");
	ck_assert_uint_eq(d.dbg_port.n, 3);
	/* by name */
	ck_assert_str_eq(d.dbg_port.c[0].name, "DEBUG_0");
	ck_assert_str_eq(d.dbg_port.c[0].alias, "RX_LEGIT");
	ck_assert_uint_eq(d.dbg_port.c[0].direction, 0);
	ck_assert_uint_eq(d.dbg_port.c[0].code, 293);
	ck_assert_str_eq(d.dbg_port.c[0].reasons, "SMAC_EQUALS_DMAC");
	ck_assert_str_eq(d.dbg_port.c[0].stat,
			 "SAI_PORT_STAT_IN_CONFIGURED_DROP_REASONS_0_DROPPED_PKTS");
	/* two reasons of different codes: none */
	ck_assert_str_eq(d.dbg_port.c[1].name, "DEBUG_1");
	ck_assert_str_eq(d.dbg_port.c[1].alias, "");
	ck_assert_uint_eq(d.dbg_port.c[1].direction, 1);
	ck_assert_uint_eq(d.dbg_port.c[1].code, UINT32_MAX);
	ck_assert_str_eq(d.dbg_port.c[1].reasons, "EGRESS_VLAN_FILTER,L3_ANY");
	/* not in DEBUG_COUNTER: the field says ingress; no reasons */
	ck_assert_str_eq(d.dbg_port.c[2].name, "NOCFG");
	ck_assert_uint_eq(d.dbg_port.c[2].direction, 0);
	ck_assert_uint_eq(d.dbg_port.c[2].code, UINT32_MAX);
	ck_assert_str_eq(d.dbg_port.c[2].reasons, "");
	ck_assert_uint_eq(d.dbg_switch.n, 1);
	ck_assert_uint_eq(d.dbg_switch.c[0].code, 257);
	ck_assert_uint_eq(d.dbg_switch.c[0].direction, 0);
	/* the same counters again: same; one more: not */
	ck_assert_int_eq(sonic_dev_build(&d2, &t, "Ethernet*", 0, NULL, NULL), 0);
	ck_assert(sonic_dbgs_same(&d.dbg_port, &d2.dbg_port));
	ck_assert(!sonic_dbgs_same(&d.dbg_port, &d2.dbg_switch));
	sonic_dev_free(&d);
	sonic_dev_free(&d2);
	sonic_tables_free(&t);
}
END_TEST

/* A view: its description from the maps; another one of the same ports
 * is the same; one more port, or other queue counts, is not; values
 * carried by port name. */
START_TEST(test_views)
{
	struct sonic_tables t;
	struct sonic_dev d1, d2;
	struct sonic_view *a, *b, *c;

	memset(&t, 0, sizeof t);
	keys(&t, SONIC_T_PORT, A("PORT|Ethernet0", "PORT|Ethernet4"));
	set(&t, SONIC_T_PORT, 0, A("index", "1", "speed", "100000"));
	set(&t, SONIC_T_PORT, 1, A("index", "2", "speed", "100000"));
	set(&t, SONIC_T_PORT_MAP, 0, A("Ethernet0", "oid:1", "Ethernet4", "oid:2"));
	set(&t, SONIC_T_QUEUE_MAP, 0, A("Ethernet0:0", "oid:q0", "Ethernet4:0", "oid:r0"));
	ck_assert_int_eq(sonic_dev_build(&d1, &t, "Ethernet*", 0, NULL, NULL), 0);
	a = sonic_view_new(&d1, 0);
	b = sonic_view_new(&d1, 0);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ck_assert_uint_eq(a->desc.nports, 2);
	ck_assert_uint_eq(a->pdesc[1].ifindex, 2);
	ck_assert_uint_eq(a->pdesc[1].speed_bps, 100000000000ull);
	ck_assert_ptr_nonnull(a->rp[0].cmd_ctr);
	ck_assert(sonic_view_same(a, b));
	/* breakout: Ethernet4 gone, Ethernet2 (index 3) and a second queue
	 * of Ethernet0 come */
	sonic_tables_free(&t);
	memset(&t, 0, sizeof t);
	keys(&t, SONIC_T_PORT, A("PORT|Ethernet0", "PORT|Ethernet2"));
	set(&t, SONIC_T_PORT, 0, A("index", "1", "speed", "100000"));
	set(&t, SONIC_T_PORT, 1, A("index", "3", "speed", "50000"));
	set(&t, SONIC_T_QUEUE_MAP, 0, A("Ethernet0:0", "oid:q0", "Ethernet0:1", "oid:q1"));
	ck_assert_int_eq(sonic_dev_build(&d2, &t, "Ethernet*", 0, NULL, NULL), 0);
	c = sonic_view_new(&d2, 0);
	ck_assert_ptr_nonnull(c);
	ck_assert(!sonic_view_same(a, c));
	ck_assert_uint_eq(c->pdesc[0].n_uc_queues, 2);
	/* values of the port that stays carried, by name */
	a->rp[0].ctr[0] = 1234;
	a->rp[1].ctr[0] = 99;
	a->objs[a->rp[0].first_obj].w[0].peak[0] = 777;
	a->objs[a->rp[0].first_obj].drop[0] = 5;
	sonic_view_carry(c, a);
	ck_assert_uint_eq(c->rp[0].ctr[0], 1234);
	ck_assert_uint_eq(c->objs[c->rp[0].first_obj].w[0].peak[0], 777);
	ck_assert_uint_eq(c->objs[c->rp[0].first_obj].drop[0], 5);
	ck_assert_uint_eq(c->objs[c->rp[0].first_obj + 1].w[0].peak[0], SONIC_UNKNOWN);
	ck_assert_uint_eq(c->rp[1].ctr[0], SONIC_UNKNOWN); /* Ethernet2: new */
	/* remapped to the new maps: Ethernet4 gone, its commands too */
	ck_assert_int_eq(sonic_view_remap(a, &d2), 0);
	ck_assert_ptr_null(a->pmap[1]);
	ck_assert_ptr_null(a->rp[1].cmd_ctr);
	sonic_view_free(a);
	sonic_view_free(b);
	sonic_view_free(c);
	sonic_dev_free(&d1);
	sonic_dev_free(&d2);
	sonic_tables_free(&t);
}
END_TEST

/* notify-keyspace-events values that give the keyspace events of hashes. */
START_TEST(test_notify_flags)
{
	redisReply *r;
	char buf[32];

	ck_assert(sonic_notify_flags_ok("AKE"));
	ck_assert(sonic_notify_flags_ok("Kh"));
	ck_assert(sonic_notify_flags_ok("KA"));
	ck_assert(!sonic_notify_flags_ok(""));
	ck_assert(!sonic_notify_flags_ok("Eh"));
	ck_assert(!sonic_notify_flags_ok("K$"));
	r = resp(A("notify-keyspace-events", "AKE"));
	ck_assert_int_eq(sonic_notify_config_reply(r, buf, sizeof buf), 0);
	ck_assert_str_eq(buf, "AKE");
	freeReplyObject(r);
	r = resp(A("notify-keyspace-events"));
	ck_assert_int_eq(sonic_notify_config_reply(r, buf, sizeof buf), -1);
	freeReplyObject(r);
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
	tcase_add_test(tc, test_appl_precedence);
	tcase_add_test(tc, test_drop_reasons);
	tcase_add_test(tc, test_drop_counters);
	tcase_add_test(tc, test_views);
	tcase_add_test(tc, test_notify_flags);
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
