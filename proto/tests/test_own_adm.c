/*
 * test_own_adm.c - unit tests of the own counter records of the switch
 * model's admission-path mechanisms (sflow_own.c): E:8
 * ingress_arbitration, E:9 flow_regions, E:13 queue_ecn and the 0:5's
 * flow record E:2 flow_region_drop, each encoded against
 * hand-written big-endian words from the XDR in sflow_own.h and decoded
 * back; truncated bodies, a count larger than the record and left-over
 * bytes are errors; E:9 refuses more than 16 regions.
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

START_TEST(ingress_arbitration)
{
	/* accelerated 5, not 0x100000002, dropped 3, causes 1..7, transitions
	 * 9, congested_ns 0x1234567890, congested 1, AM 128 B now, 8192
	 * peak, 156 (1.56 %), 10000, latencies 47/47/47, 87/95/130 */
	struct sflow_own_iarb a = {5,	  0x100000002ull,
				   3,	  {1, 2, 3, 4, 5, 6, 7},
				   9,	  0x1234567890ull,
				   1,	  128,
				   8192,  156,
				   10000, 47,
				   47,	  47,
				   87,	  95,
				   130};
	struct vec want = {.n = 0};
	vw(&want, TAG(8));
	vw(&want, 140);
	uint32_t words[] = {0, 5,   1,	  2,   0,     3,  0,  1,  0,  2,  0,	3,
			    0, 4,   0,	  5,   0,     6,  0,  7,  0,  9,  0x12, 0x34567890,
			    1, 128, 8192, 156, 10000, 47, 47, 47, 87, 95, 130};
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		vw(&want, words[i]);
	ck_assert_uint_eq(want.n, 8 + 140);

	uint8_t buf[512];
	struct sflow_w w;
	struct sflow_sample_enc s = {0};
	sflow_w_init(&w, buf, sizeof buf);
	sflow_own_enc_iarb(&w, &s, ENT, &a);
	ck_assert_int_eq(w.err, SFLOW_OK);
	ck_assert_uint_eq(w.len, want.n);
	ck_assert_mem_eq(w.buf, want.b, want.n);

	struct sflow_own_record o;
	ck_assert_int_eq(dec(&want, want.n - 8, &o), SFLOW_OK);
	const struct sflow_own_iarb *d = &o.u.iarb;
	ck_assert_uint_eq(d->accelerated, 5);
	ck_assert_uint_eq(d->not_accelerated, 0x100000002ull);
	ck_assert_uint_eq(d->dropped, 3);
	for (unsigned i = 0; i < SFLOW_OWN_IARB_CAUSES; i++)
		ck_assert_uint_eq(d->by_cause[i], i + 1);
	ck_assert_uint_eq(d->transitions, 9);
	ck_assert_uint_eq(d->congested_ns, 0x1234567890ull);
	ck_assert_uint_eq(d->congested, 1);
	ck_assert_uint_eq(d->am_cur, 128);
	ck_assert_uint_eq(d->am_peak, 8192);
	ck_assert_int_eq(d->am_cur_pc, 156);
	ck_assert_int_eq(d->am_peak_pc, 10000);
	ck_assert_uint_eq(d->am_lat_min, 47);
	ck_assert_uint_eq(d->am_lat_mean, 47);
	ck_assert_uint_eq(d->am_lat_max, 47);
	ck_assert_uint_eq(d->pb_lat_min, 87);
	ck_assert_uint_eq(d->pb_lat_mean, 95);
	ck_assert_uint_eq(d->pb_lat_max, 130);
	check_errors(&want);
	ck_assert_str_eq(sflow_own_record_name(8, CTRS), "ingress_arbitration");
	ck_assert_str_eq(sflow_own_iarb_cause_name(0), "am_fill");
	ck_assert_str_eq(sflow_own_iarb_cause_name(5), "oversubscription");
	ck_assert_ptr_null(sflow_own_iarb_cause_name(7));
}
END_TEST

START_TEST(flow_regions)
{
	/* two regions of 3 in use: the hog held at 2 MiB of a 2 MiB bound
	 * (10000), one at 1.5 MiB (7500) */
	struct sflow_own_region g[2] = {
	    {0, 2097152, 2097152, 2097152, 10000, 10000, 1, 0, 100, 40, 0},
	    {3, 1572864, 1600000, 2097152, 7500, 7629, 0, 1, 0x100000000ull, 0, 7}};
	struct vec want = {.n = 0};
	vw(&want, TAG(9));
	vw(&want, 12 + 2 * 56);
	vw(&want, 0);
	vw(&want, 3);
	vw(&want, 2);
	uint32_t w0[] = {0, 2097152, 2097152, 2097152, 10000, 10000, 1, 0, 0, 100, 0, 40, 0, 0};
	uint32_t w1[] = {3, 1572864, 1600000, 2097152, 7500, 7629, 0, 1, 1, 0, 0, 0, 0, 7};
	for (size_t i = 0; i < 14; i++)
		vw(&want, w0[i]);
	for (size_t i = 0; i < 14; i++)
		vw(&want, w1[i]);

	uint8_t buf[512];
	struct sflow_w w;
	struct sflow_sample_enc s = {0};
	sflow_w_init(&w, buf, sizeof buf);
	sflow_own_enc_flow_regions(&w, &s, ENT, 0, 3, g, 2);
	ck_assert_int_eq(w.err, SFLOW_OK);
	ck_assert_uint_eq(w.len, want.n);
	ck_assert_mem_eq(w.buf, want.b, want.n);

	struct sflow_own_record o;
	ck_assert_int_eq(dec(&want, want.n - 8, &o), SFLOW_OK);
	ck_assert_uint_eq(o.u.regions.unit, 0);
	ck_assert_uint_eq(o.u.regions.total, 3);
	ck_assert_uint_eq(o.u.regions.regions.n, 2);
	struct sflow_own_region r;
	for (uint32_t i = 0; i < 2; i++) {
		ck_assert_int_eq(sflow_own_region_at(&o.u.regions.regions, i, &r), 0);
		ck_assert_mem_eq(&r, &g[i], sizeof(r));
	}
	ck_assert_int_eq(sflow_own_region_at(&o.u.regions.regions, 2, &r), -1);
	check_errors(&want);
	struct vec bad = want;
	bad.b[8 + 8 + 3] = 3; /* count 3: larger than the record */
	ck_assert_int_eq(dec(&bad, bad.n - 8, &o), SFLOW_ERR_FORMAT);
	ck_assert_str_eq(sflow_own_record_name(9, CTRS), "flow_regions");

	/* more than 16: refused, nothing written */
	struct sflow_own_region many[17];
	memset(many, 0, sizeof(many));
	sflow_w_init(&w, buf, sizeof buf);
	struct sflow_sample_enc s2 = {0};
	sflow_own_enc_flow_regions(&w, &s2, ENT, 0, 17, many, 17);
	ck_assert_int_eq(w.err, SFLOW_ERR_INVALID);
	ck_assert_uint_eq(w.len, 0);
}
END_TEST

START_TEST(queue_ecn)
{
	/* CE marks: unicast queues 0..2 (5, 0x100000001, 0), multicast 0 (9) */
	static const uint64_t uc[3] = {5, 0x100000001ull, 0}, mc[1] = {9};
	struct vec want = {.n = 0};
	vw(&want, TAG(13));
	vw(&want, 4 + 24 + 4 + 8);
	uint32_t words[] = {3, 0, 5, 1, 1, 0, 0, 1, 0, 9};
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		vw(&want, words[i]);

	uint8_t buf[256];
	struct sflow_w w;
	struct sflow_sample_enc s = {0};
	sflow_w_init(&w, buf, sizeof buf);
	sflow_own_enc_queue_ecn(&w, &s, ENT, uc, 3, mc, 1);
	ck_assert_int_eq(w.err, SFLOW_OK);
	ck_assert_uint_eq(w.len, want.n);
	ck_assert_mem_eq(w.buf, want.b, want.n);

	struct sflow_own_record o;
	uint64_t v;
	ck_assert_int_eq(dec(&want, want.n - 8, &o), SFLOW_OK);
	ck_assert_uint_eq(o.u.ecn.uc.n, 3);
	ck_assert_uint_eq(o.u.ecn.mc.n, 1);
	for (uint32_t i = 0; i < 3; i++) {
		ck_assert_int_eq(sflow_own_u64_at(&o.u.ecn.uc, i, &v), 0);
		ck_assert_uint_eq(v, uc[i]);
	}
	ck_assert_int_eq(sflow_own_u64_at(&o.u.ecn.mc, 0, &v), 0);
	ck_assert_uint_eq(v, 9);
	ck_assert_int_eq(sflow_own_u64_at(&o.u.ecn.mc, 1, &v), -1);
	check_errors(&want);
	struct vec bad = want;
	bad.b[8 + 3] = 4; /* 4 unicast queues: larger than the record */
	ck_assert_int_eq(dec(&bad, bad.n - 8, &o), SFLOW_ERR_FORMAT);
	ck_assert_str_eq(sflow_own_record_name(13, CTRS), "queue_ecn");
}
END_TEST

/* The flow record E:2 flow_region_drop, known inside a 0:5 only (in a
 * counters sample E:2 is queue_buffers; an own event sample E:1 does not
 * carry it). */
START_TEST(region_drop)
{
	struct sflow_own_region_drop d = {3, 2, 1, 12500, 28, 9000, 2621440, 2097152};
	struct vec want = {.n = 0};
	vw(&want, TAG(2));
	vw(&want, 32);
	uint32_t words[] = {3, 2, 1, 12500, 28, 9000, 2621440, 2097152};
	for (size_t i = 0; i < 8; i++)
		vw(&want, words[i]);

	uint8_t buf[128];
	struct sflow_w w;
	struct sflow_sample_enc s = {0};
	sflow_w_init(&w, buf, sizeof buf);
	sflow_own_enc_region_drop(&w, &s, ENT, &d);
	ck_assert_int_eq(w.err, SFLOW_OK);
	ck_assert_uint_eq(w.len, want.n);
	ck_assert_mem_eq(w.buf, want.b, want.n);

	struct sflow_own_record o;
	struct sflow_r r;
	sflow_r_init(&r, want.b + 8, 32, 8);
	ck_assert_int_eq(sflow_own_decode_record(2, SFLOW_SAMPLE_DISCARD, &r, &o), SFLOW_OK);
	ck_assert_mem_eq(&o.u.region_drop, &d, sizeof(d));
	for (size_t n = 0; n < 32; n += 4) {
		sflow_r_init(&r, want.b + 8, n, 8);
		ck_assert_int_lt(sflow_own_decode_record(2, SFLOW_SAMPLE_DISCARD, &r, &o), 0);
	}
	sflow_r_init(&r, want.b + 8, 32, 8);
	ck_assert_int_eq(sflow_own_decode_record(2, TAG(1), &r, &o), 1);
	ck_assert_str_eq(sflow_own_record_name(2, CTRS), "queue_buffers");
	ck_assert_str_eq(sflow_own_record_name(2, SFLOW_SAMPLE_DISCARD), "flow_region_drop");
	ck_assert_ptr_null(sflow_own_record_name(2, TAG(1)));
	ck_assert_str_eq(sflow_own_region_cause_name(2), "wred");
	ck_assert_str_eq(sflow_own_region_cause_name(3), "short_time_change");
	ck_assert_ptr_null(sflow_own_region_cause_name(4));
}
END_TEST

int main(void)
{
	Suite *su = suite_create("own_adm");
	TCase *tc = tcase_create("records");
	tcase_add_test(tc, ingress_arbitration);
	tcase_add_test(tc, flow_regions);
	tcase_add_test(tc, queue_ecn);
	tcase_add_test(tc, region_drop);
	suite_add_tcase(su, tc);
	SRunner *sr = srunner_create(su);
	srunner_run_all(sr, CK_NORMAL);
	int nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? 0 : 1;
}
