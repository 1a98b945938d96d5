/*
 * test_own_drops.c - unit tests of the own counter records of drops
 * (sflow_own.c): E:10 queue_drops and E:11 drop_counters, each encoded
 * against hand-written big-endian words from the XDR in sflow_own.h and
 * decoded back; truncated bodies, counts larger than the record, strings
 * over their limits and left-over bytes are errors; the encoder refuses
 * a string without its NUL within the limit.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "proto/sflow_decode.h"
#include "proto/sflow_encode.h"
#include "proto/sflow_own.h"
#include "proto/tests/ownrec.h"

/* A string as XDR: its length, its bytes, zero padding to 4. */
static void vs(struct vec *v, const char *s)
{
	size_t n = strlen(s);

	vw(v, (uint32_t)n);
	memcpy(v->b + v->n, s, n);
	v->n += n;
	while (v->n % 4)
		v->b[v->n++] = 0;
}

START_TEST(queue_drops)
{
	/* 2 unicast queues: 5 packets of 0x100000000 + 7 bytes, unknown; 1
	 * multicast queue: 0 and 0 */
	struct sflow_own_qdrop uc[2] = {{5, 0x100000007ull}, {UINT64_MAX, UINT64_MAX}};
	struct sflow_own_qdrop mc[1] = {{0, 0}};
	struct vec want = {.n = 0};
	vw(&want, TAG(10));
	vw(&want, 4 + 2 * 16 + 4 + 16);
	vw(&want, 2);
	uint32_t q[] = {0, 5, 1, 7, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu};
	for (size_t i = 0; i < 8; i++)
		vw(&want, q[i]);
	vw(&want, 1);
	for (size_t i = 0; i < 4; i++)
		vw(&want, 0);

	uint8_t buf[512];
	struct sflow_w w;
	struct sflow_sample_enc s = {0};
	sflow_w_init(&w, buf, sizeof buf);
	sflow_own_enc_queue_drops(&w, &s, ENT, uc, 2, mc, 1);
	ck_assert_int_eq(w.err, SFLOW_OK);
	ck_assert_uint_eq(w.len, want.n);
	ck_assert_mem_eq(w.buf, want.b, want.n);

	struct sflow_own_record o;
	struct sflow_own_qdrop d;
	ck_assert_int_eq(dec(&want, want.n - 8, &o), SFLOW_OK);
	ck_assert_uint_eq(o.u.qdrops.uc.n, 2);
	ck_assert_uint_eq(o.u.qdrops.mc.n, 1);
	ck_assert_int_eq(sflow_own_qdrop_at(&o.u.qdrops.uc, 0, &d), 0);
	ck_assert_uint_eq(d.packets, 5);
	ck_assert_uint_eq(d.bytes, 0x100000007ull);
	ck_assert_int_eq(sflow_own_qdrop_at(&o.u.qdrops.uc, 1, &d), 0);
	ck_assert_uint_eq(d.packets, UINT64_MAX);
	ck_assert_int_eq(sflow_own_qdrop_at(&o.u.qdrops.mc, 0, &d), 0);
	ck_assert_uint_eq(d.bytes, 0);
	ck_assert_int_eq(sflow_own_qdrop_at(&o.u.qdrops.mc, 1, &d), -1);
	check_errors(&want);
	struct vec bad = want;
	bad.b[8 + 3] = 4; /* uc count 4: larger than the record */
	ck_assert_int_eq(dec(&bad, bad.n - 8, &o), SFLOW_ERR_FORMAT);
	ck_assert_str_eq(sflow_own_record_name(10, CTRS), "queue_drops");
}
END_TEST

START_TEST(drop_counters)
{
	struct sflow_own_drop_counter c[2];
	memset(c, 0, sizeof c);
	/* an ingress counter of one reason that maps to ttl_exceeded (257) */
	strcpy(c[0].name, "DEBUG_0");
	strcpy(c[0].alias, "RX_TTL");
	c[0].direction = SFLOW_OWN_DIR_INGRESS;
	c[0].reason = 257;
	c[0].packets = 0x200000003ull;
	strcpy(c[0].reasons, "TTL");
	/* an egress counter of two reasons, no alias, no single code */
	strcpy(c[1].name, "DEBUG_1");
	c[1].direction = SFLOW_OWN_DIR_EGRESS;
	c[1].reason = 0xffffffffu;
	c[1].packets = 9;
	strcpy(c[1].reasons, "L3_ANY,EGRESS_VLAN_FILTER");

	struct vec want = {.n = 0};
	vw(&want, TAG(11));
	vw(&want, 0); /* length, set below */
	vw(&want, 2);
	vs(&want, "DEBUG_0");
	vs(&want, "RX_TTL");
	vw(&want, 0);
	vw(&want, 257);
	vw(&want, 2);
	vw(&want, 3);
	vs(&want, "TTL");
	vs(&want, "DEBUG_1");
	vs(&want, "");
	vw(&want, 1);
	vw(&want, 0xffffffffu);
	vw(&want, 0);
	vw(&want, 9);
	vs(&want, "L3_ANY,EGRESS_VLAN_FILTER");
	/* 4 + (4+8 + 4+8 + 16 + 4+4) + (4+8 + 4 + 16 + 4+28) = 4 + 48 + 64 */
	ck_assert_uint_eq(want.n - 8, 116);
	want.b[7] = 116;

	uint8_t buf[512];
	struct sflow_w w;
	struct sflow_sample_enc s = {0};
	sflow_w_init(&w, buf, sizeof buf);
	sflow_own_enc_drop_counters(&w, &s, ENT, c, 2);
	ck_assert_int_eq(w.err, SFLOW_OK);
	ck_assert_uint_eq(w.len, want.n);
	ck_assert_mem_eq(w.buf, want.b, want.n);

	struct sflow_own_record o;
	struct sflow_own_drop_counter d;
	uint32_t pos = 0;
	ck_assert_int_eq(dec(&want, want.n - 8, &o), SFLOW_OK);
	ck_assert_uint_eq(o.u.dropctrs.n, 2);
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(sflow_own_drop_counter_next(&o.u.dropctrs, &pos, &d), 0);
		ck_assert_str_eq(d.name, c[i].name);
		ck_assert_str_eq(d.alias, c[i].alias);
		ck_assert_uint_eq(d.direction, c[i].direction);
		ck_assert_uint_eq(d.reason, c[i].reason);
		ck_assert_uint_eq(d.packets, c[i].packets);
		ck_assert_str_eq(d.reasons, c[i].reasons);
	}
	ck_assert_int_eq(sflow_own_drop_counter_next(&o.u.dropctrs, &pos, &d), -1);
	ck_assert_int_eq(sflow_own_drop_counter_at(&o.u.dropctrs, 1, &d), 0);
	ck_assert_str_eq(d.name, "DEBUG_1");
	ck_assert_int_eq(sflow_own_drop_counter_at(&o.u.dropctrs, 2, &d), -1);
	check_errors(&want);

	/* a name of 33 bytes on the wire: refused */
	struct vec bad = want;
	bad.b[8 + 4 + 3] = 33;
	ck_assert_int_eq(dec(&bad, bad.n - 8, &o), SFLOW_ERR_FORMAT);
	/* a count larger than the record */
	bad = want;
	bad.b[8 + 3] = 9;
	ck_assert_int_eq(dec(&bad, bad.n - 8, &o), SFLOW_ERR_FORMAT);
	ck_assert_str_eq(sflow_own_record_name(11, CTRS), "drop_counters");
	ck_assert_str_eq(sflow_own_direction_name(1), "egress");
	ck_assert_str_eq(sflow_own_direction_name(7), "unknown");

	/* reasons without a NUL within 129 bytes: refused, nothing written */
	memset(c[1].reasons, 'A', sizeof c[1].reasons);
	sflow_w_init(&w, buf, sizeof buf);
	struct sflow_sample_enc s2 = {0};
	sflow_own_enc_drop_counters(&w, &s2, ENT, c, 2);
	ck_assert_int_eq(w.err, SFLOW_ERR_INVALID);
	ck_assert_uint_eq(w.len, 0);
}
END_TEST

int main(void)
{
	Suite *su = suite_create("own_drops");
	TCase *tc = tcase_create("records");
	tcase_add_test(tc, queue_drops);
	tcase_add_test(tc, drop_counters);
	suite_add_tcase(su, tc);
	SRunner *sr = srunner_create(su);
	srunner_run_all(sr, CK_NORMAL);
	int nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? 0 : 1;
}
