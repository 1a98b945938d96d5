/*
 * test_own_sojourn.c - unit tests of the own counter record E:12
 * sojourn_histograms (sflow_own.c): encoded against a byte vector
 * written by hand from the XDR in sflow_own.h and decoded back, elements
 * read in order and by index; every truncation, a count larger than the
 * record, a bucket range past bucket 31 and left-over bytes are errors;
 * the encoder refuses a bad range and more than 16 queues, writing
 * nothing.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "proto/sflow_decode.h"
#include "proto/sflow_encode.h"
#include "proto/sflow_own.h"

#define ENT  32473u
#define CTRS SFLOW_SAMPLE_COUNTERS_EXP

/* Queue 0: 2 unmeasured, buckets 20..22 = 5, 65536, 7 (1..2 ms, 2..4 ms,
 * 4..8 ms); queue 3: nothing measured. */
static const uint8_t want[] = {
    0x07, 0xED, 0x90, 0x0C, /* tag 32473:12 (32473 << 12 = 0x07ED9000) */
    0x00, 0x00, 0x00, 0x30, /* length 48 */
    0x00, 0x00, 0x00, 0x02, /* 2 queues */
    0x00, 0x00, 0x00, 0x00, /* queue 0 */
    0x00, 0x00, 0x00, 0x02, /* unmeasured 2 */
    0x00, 0x00, 0x00, 0x14, /* first 20 */
    0x00, 0x00, 0x00, 0x03, /* 3 counts */
    0x00, 0x00, 0x00, 0x05, /* bucket 20 */
    0x00, 0x01, 0x00, 0x00, /* bucket 21 */
    0x00, 0x00, 0x00, 0x07, /* bucket 22 */
    0x00, 0x00, 0x00, 0x03, /* queue 3 */
    0x00, 0x00, 0x00, 0x00, /* unmeasured 0 */
    0x00, 0x00, 0x00, 0x00, /* first 0 */
    0x00, 0x00, 0x00, 0x00, /* no counts */
};

static int dec(const uint8_t *b, size_t body_len, struct sflow_own_record *out)
{
	struct sflow_r r;

	sflow_r_init(&r, b + 8, body_len, 8);
	return sflow_own_decode_record(SFLOW_OWN_SOJOURN_HISTS, CTRS, &r, out);
}

static void fill(struct sflow_own_sojourn h[2])
{
	memset(h, 0, 2 * sizeof *h);
	h[0].queue = 0;
	h[0].unmeasured = 2;
	h[0].first = 20;
	h[0].n = 3;
	h[0].counts[0] = 5;
	h[0].counts[1] = 65536;
	h[0].counts[2] = 7;
	h[1].queue = 3;
}

START_TEST(encode_decode)
{
	struct sflow_own_sojourn h[2], got;
	struct sflow_sample_enc s = {0};
	struct sflow_own_record o;
	struct sflow_w w;
	uint8_t buf[256];
	uint32_t pos = 0;

	fill(h);
	ck_assert_uint_eq(sflow_own_sojourn_size(&h[0]), 28);
	sflow_w_init(&w, buf, sizeof buf);
	sflow_own_enc_sojourns(&w, &s, ENT, h, 2);
	ck_assert_int_eq(w.err, SFLOW_OK);
	ck_assert_uint_eq(s.nrecords, 1);
	ck_assert_uint_eq(w.len, sizeof want);
	ck_assert_mem_eq(buf, want, sizeof want);

	ck_assert_int_eq(dec(want, sizeof want - 8, &o), SFLOW_OK);
	ck_assert_uint_eq(o.u.sojourns.n, 2);
	ck_assert_uint_eq(o.u.sojourns.len, 28 + 16);
	ck_assert_int_eq(sflow_own_sojourn_next(&o.u.sojourns, &pos, &got), 0);
	ck_assert_mem_eq(&got, &h[0], sizeof got);
	ck_assert_int_eq(sflow_own_sojourn_next(&o.u.sojourns, &pos, &got), 0);
	ck_assert_mem_eq(&got, &h[1], sizeof got);
	ck_assert_int_eq(sflow_own_sojourn_next(&o.u.sojourns, &pos, &got), -1);
	ck_assert_int_eq(sflow_own_sojourn_at(&o.u.sojourns, 1, &got), 0);
	ck_assert_uint_eq(got.queue, 3);
	ck_assert_int_eq(sflow_own_sojourn_at(&o.u.sojourns, 2, &got), -1);
	ck_assert_str_eq(sflow_own_record_name(SFLOW_OWN_SOJOURN_HISTS, CTRS),
			 "sojourn_histograms");
}
END_TEST

START_TEST(bad_bodies)
{
	struct sflow_own_record o;
	uint8_t b[sizeof want + 4];

	/* every truncation */
	for (size_t n = 0; n < sizeof want - 8; n += 4)
		ck_assert_int_lt(dec(want, n, &o), 0);
	/* left-over bytes */
	memcpy(b, want, sizeof want);
	memset(b + sizeof want, 0, 4);
	ck_assert_int_eq(dec(b, sizeof b - 8, &o), SFLOW_ERR_FORMAT);
	/* a count of 3: larger than the record */
	memcpy(b, want, sizeof want);
	b[11] = 3;
	ck_assert_int_eq(dec(b, sizeof want - 8, &o), SFLOW_ERR_FORMAT);
	/* first 30 with 3 counts: past bucket 31 */
	memcpy(b, want, sizeof want);
	b[23] = 30;
	ck_assert_int_eq(dec(b, sizeof want - 8, &o), SFLOW_ERR_FORMAT);
	/* first 32 with no counts */
	memcpy(b, want, sizeof want);
	b[51] = 32;
	ck_assert_int_eq(dec(b, sizeof want - 8, &o), SFLOW_ERR_FORMAT);
}
END_TEST

START_TEST(encoder_refuses)
{
	struct sflow_own_sojourn h[SFLOW_OWN_SOJOURN_MAX + 1];
	struct sflow_sample_enc s = {0};
	struct sflow_w w;
	uint8_t buf[4096];

	memset(h, 0, sizeof h);
	fill(h);
	h[0].first = 30; /* 3 counts from 30: past 31 */
	sflow_w_init(&w, buf, sizeof buf);
	sflow_own_enc_sojourns(&w, &s, ENT, h, 2);
	ck_assert_int_eq(w.err, SFLOW_ERR_INVALID);
	ck_assert_uint_eq(w.len, 0);
	memset(h, 0, sizeof h);
	sflow_w_init(&w, buf, sizeof buf);
	sflow_own_enc_sojourns(&w, &s, ENT, h, SFLOW_OWN_SOJOURN_MAX + 1);
	ck_assert_int_eq(w.err, SFLOW_ERR_INVALID);
	ck_assert_uint_eq(w.len, 0);
	sflow_w_init(&w, buf, sizeof buf);
	sflow_own_enc_sojourns(&w, &s, ENT, NULL, 1);
	ck_assert_int_eq(w.err, SFLOW_ERR_INVALID);
	/* 16 queues of 32 buckets: 4 + 16 x 144 bytes */
	for (unsigned i = 0; i < SFLOW_OWN_SOJOURN_MAX; i++)
		h[i].n = SFLOW_OWN_SOJOURN_BUCKETS;
	sflow_w_init(&w, buf, sizeof buf);
	sflow_own_enc_sojourns(&w, &s, ENT, h, SFLOW_OWN_SOJOURN_MAX);
	ck_assert_int_eq(w.err, SFLOW_OK);
	ck_assert_uint_eq(w.len, 8 + 4 + 16 * 144);
}
END_TEST

int main(void)
{
	Suite *su = suite_create("own_sojourn");
	TCase *tc = tcase_create("E:12");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, encode_decode);
	tcase_add_test(tc, bad_bodies);
	tcase_add_test(tc, encoder_refuses);
	suite_add_tcase(su, tc);
	sr = srunner_create(su);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? 0 : 1;
}
