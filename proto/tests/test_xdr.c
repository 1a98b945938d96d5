/*
 * test_xdr.c - the bounds-checked XDR writer and reader (proto/xdr.c):
 * big-endian bytes and padding written by hand, the sticky FULL error,
 * all-or-nothing items, canary bytes after the writer's capacity, length
 * back-patching, and the reader's bounds checks, sticky errors and error
 * offsets.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "proto/xdr.h"
#include "proto/tests/testutil.h"

START_TEST(w_scalars)
{
	static const uint8_t want[] = {
	    0x12, 0x34, 0x56, 0x78,			    /* u32 */
	    0xFF, 0xFF, 0xFF, 0xFF,			    /* i32 -1 */
	    0x80, 0x00, 0x00, 0x00,			    /* i32 INT32_MIN */
	    0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF, /* u64 */
	    0x00, 0x00, 0x27, 0x10,			    /* i32 10000 */
	};
	uint8_t buf[64];
	struct sflow_w w;

	sflow_w_init(&w, buf, sizeof buf);
	sflow_w_u32(&w, 0x12345678u);
	sflow_w_i32(&w, -1);
	sflow_w_i32(&w, INT32_MIN);
	sflow_w_u64(&w, 0x0123456789ABCDEFull);
	sflow_w_i32(&w, 10000);
	ck_assert_int_eq(w.err, SFLOW_OK);
	ck_assert_bytes(buf, w.len, want, sizeof want);
}
END_TEST

START_TEST(w_padding)
{
	/* fixed opaque of n bytes: n, then zero padding to a multiple of 4 */
	static const uint8_t want_fixed[] = {
	    0x61, 0x00, 0x00, 0x00, /* "a" */
	    0x61, 0x62, 0x00, 0x00, /* "ab" */
	    0x61, 0x62, 0x63, 0x00, /* "abc" */
	    0x61, 0x62, 0x63, 0x64, /* "abcd" */
	    0x61, 0x62, 0x63, 0x64, /* "abcde" */
	    0x65, 0x00, 0x00, 0x00, /* ... "e" */
	};
	static const uint8_t want_opaque[] = {
	    0x00, 0x00, 0x00, 0x00, /* "" */
	    0x00, 0x00, 0x00, 0x03, /* "xyz" */
	    0x78, 0x79, 0x7A, 0x00, /* ... "xyz", padding */
	    0x00, 0x00, 0x00, 0x04, /* "wxyz" */
	    0x77, 0x78, 0x79, 0x7A, /* ... "wxyz" */
	};
	uint8_t buf[64];
	struct sflow_w w;

	memset(buf, 0xEE, sizeof buf);
	sflow_w_init(&w, buf, sizeof buf);
	sflow_w_fixed(&w, "", 0);
	sflow_w_fixed(&w, "a", 1);
	sflow_w_fixed(&w, "ab", 2);
	sflow_w_fixed(&w, "abc", 3);
	sflow_w_fixed(&w, "abcd", 4);
	sflow_w_fixed(&w, "abcde", 5);
	ck_assert_int_eq(w.err, SFLOW_OK);
	ck_assert_bytes(buf, w.len, want_fixed, sizeof want_fixed);

	memset(buf, 0xEE, sizeof buf);
	sflow_w_init(&w, buf, sizeof buf);
	sflow_w_opaque(&w, NULL, 0);
	sflow_w_opaque(&w, "xyz", 3);
	sflow_w_opaque(&w, "wxyz", 4);
	ck_assert_int_eq(w.err, SFLOW_OK);
	ck_assert_bytes(buf, w.len, want_opaque, sizeof want_opaque);
}
END_TEST

START_TEST(w_full_sticky)
{
	uint8_t buf[8];
	struct sflow_w w;

	sflow_w_init(&w, buf, 6);
	sflow_w_u32(&w, 1);
	ck_assert_int_eq(w.err, SFLOW_OK);
	sflow_w_u32(&w, 2); /* needs 4, 2 left */
	ck_assert_int_eq(w.err, SFLOW_ERR_FULL);
	ck_assert_uint_eq(w.len, 4);
	sflow_w_fixed(&w, "x", 1); /* would fit in 2 bytes? no: 4 with padding */
	sflow_w_u32(&w, 3);
	ck_assert_int_eq(w.err, SFLOW_ERR_FULL);
	ck_assert_uint_eq(w.len, 4);

	/* sticky even for an item that would fit */
	sflow_w_init(&w, buf, 8);
	sflow_w_u64(&w, 1);
	sflow_w_u32(&w, 1);
	ck_assert_int_eq(w.err, SFLOW_ERR_FULL);
	ck_assert_uint_eq(w.len, 8);

	/* zero capacity */
	sflow_w_init(&w, buf, 0);
	sflow_w_fixed(&w, "", 0);
	ck_assert_int_eq(w.err, SFLOW_OK);
	sflow_w_u32(&w, 1);
	ck_assert_int_eq(w.err, SFLOW_ERR_FULL);
	ck_assert_uint_eq(w.len, 0);
}
END_TEST

START_TEST(w_opaque_all_or_nothing)
{
	uint8_t buf[16];
	struct sflow_w w;

	/* 5 bytes need 4 + 8 = 12; with 11 the length must not be written */
	memset(buf, 0xEE, sizeof buf);
	sflow_w_init(&w, buf, 11);
	sflow_w_opaque(&w, "hello", 5);
	ck_assert_int_eq(w.err, SFLOW_ERR_FULL);
	ck_assert_uint_eq(w.len, 0);
	ck_assert_uint_eq(buf[0], 0xEE);

	sflow_w_init(&w, buf, 12);
	sflow_w_opaque(&w, "hello", 5);
	ck_assert_int_eq(w.err, SFLOW_OK);
	ck_assert_uint_eq(w.len, 12);
}
END_TEST

/* Canary: for every capacity, a mix of writes never touches buf[cap..]. */
START_TEST(w_canary)
{
	uint8_t buf[96];
	size_t cap, i;

	for (cap = 0; cap <= 64; cap++) {
		struct sflow_w w;
		size_t m;

		memset(buf, 0xA5, sizeof buf);
		sflow_w_init(&w, buf, cap);
		m = sflow_w_open(&w);
		sflow_w_u32(&w, 0x01020304u);
		sflow_w_u64(&w, 0x0506070809101112ull);
		sflow_w_opaque(&w, "abcdefg", 7);
		sflow_w_fixed(&w, "xy", 2);
		sflow_w_i32(&w, -2);
		sflow_w_opaque(&w, "0123456789", 10);
		sflow_w_u32(&w, 0xFFFFFFFFu);
		sflow_w_close(&w, m);
		ck_assert_uint_le(w.len, cap);
		ck_assert_uint_eq(w.len % 4, 0);
		for (i = cap; i < sizeof buf; i++)
			ck_assert_msg(buf[i] == 0xA5, "cap %zu: byte %zu overwritten", cap, i);
		/* 4+4+8+12+4+4+16+4 = 56 bytes in all */
		if (cap >= 56) {
			ck_assert_int_eq(w.err, SFLOW_OK);
			ck_assert_uint_eq(w.len, 56);
			ck_assert_uint_eq(tu_get32(buf), 52);
		} else {
			ck_assert_int_eq(w.err, SFLOW_ERR_FULL);
		}
	}
}
END_TEST

START_TEST(w_open_close_patch)
{
	static const uint8_t want[] = {
	    0x00, 0x00, 0x00, 0x14,			    /* outer length 20 */
	    0x00, 0x00, 0x00, 0x02,			    /* count patched to 2 */
	    0x00, 0x00, 0x00, 0x08,			    /* inner length 8 */
	    0x00, 0x00, 0x00, 0x0A, 0x00, 0x00, 0x00, 0x0B, /* 10, 11 */
	    0x00, 0x00, 0x00, 0x00,			    /* empty body: length 0 */
	};
	uint8_t buf[64];
	struct sflow_w w;
	size_t outer, count, inner, empty;

	sflow_w_init(&w, buf, sizeof buf);
	outer = sflow_w_open(&w);
	count = sflow_w_open(&w);
	inner = sflow_w_open(&w);
	sflow_w_u32(&w, 10);
	sflow_w_u32(&w, 11);
	sflow_w_close(&w, inner);
	empty = sflow_w_open(&w);
	sflow_w_close(&w, empty);
	sflow_w_patch(&w, count, 2);
	sflow_w_close(&w, outer);
	ck_assert_uint_eq(outer, 0);
	ck_assert_uint_eq(count, 4);
	ck_assert_int_eq(w.err, SFLOW_OK);
	ck_assert_bytes(buf, w.len, want, sizeof want);

	/* patching beyond what was written is refused */
	sflow_w_patch(&w, w.len - 3, 1);
	ck_assert_int_eq(w.err, SFLOW_ERR_INVALID);
	sflow_w_init(&w, buf, sizeof buf);
	sflow_w_close(&w, 0);
	ck_assert_int_eq(w.err, SFLOW_ERR_INVALID);
}
END_TEST

START_TEST(r_scalars)
{
	static const uint8_t in[] = {0x12, 0x34, 0x56, 0x78, 0xFF, 0xFF, 0xFF, 0xFE,
				     0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF};
	struct sflow_r r;
	uint32_t u;
	int32_t i;
	uint64_t q;

	sflow_r_init(&r, in, sizeof in, 100);
	ck_assert_uint_eq(sflow_r_remaining(&r), 16);
	ck_assert_int_eq(sflow_r_u32(&r, &u, "a"), SFLOW_OK);
	ck_assert_uint_eq(u, 0x12345678u);
	ck_assert_int_eq(sflow_r_i32(&r, &i, "b"), SFLOW_OK);
	ck_assert_int_eq(i, -2);
	ck_assert_int_eq(sflow_r_u64(&r, &q, "c"), SFLOW_OK);
	ck_assert_uint_eq(q, 0x0123456789ABCDEFull);
	ck_assert_uint_eq(sflow_r_remaining(&r), 0);

	/* the next read fails at datagram offset base + 16, names the field,
	 * and the error sticks */
	u = 7;
	ck_assert_int_eq(sflow_r_u32(&r, &u, "next"), SFLOW_ERR_TRUNC);
	ck_assert_uint_eq(u, 0);
	ck_assert_uint_eq(r.err_offset, 116);
	ck_assert_str_eq(r.err_why, "next");
	ck_assert_int_eq(sflow_r_skip(&r, 0, "other"), SFLOW_ERR_TRUNC);
	ck_assert_str_eq(r.err_why, "next");
}
END_TEST

START_TEST(r_partial_field)
{
	static const uint8_t in[] = {1, 2, 3, 4, 5, 6, 7};
	struct sflow_r r;
	uint32_t u;
	uint64_t q;
	int32_t i;

	sflow_r_init(&r, in, sizeof in, 0);
	ck_assert_int_eq(sflow_r_u64(&r, &q, "hyper"), SFLOW_ERR_TRUNC);
	ck_assert_uint_eq(r.err_offset, 0);
	ck_assert_uint_eq(q, 0);

	sflow_r_init(&r, in, sizeof in, 0);
	ck_assert_int_eq(sflow_r_u32(&r, &u, "a"), SFLOW_OK);
	ck_assert_int_eq(sflow_r_i32(&r, &i, "b"), SFLOW_ERR_TRUNC);
	ck_assert_int_eq(i, 0);
	ck_assert_uint_eq(r.err_offset, 4);
	/* a sticky error: even a read that would fit fails */
	ck_assert_int_eq(sflow_r_skip(&r, 1, "c"), SFLOW_ERR_TRUNC);

	/* empty and NULL input */
	sflow_r_init(&r, NULL, 10, 0);
	ck_assert_uint_eq(sflow_r_remaining(&r), 0);
	ck_assert_int_eq(sflow_r_u32(&r, &u, "x"), SFLOW_ERR_TRUNC);
}
END_TEST

START_TEST(r_opaque)
{
	static const uint8_t in[] = {
	    0x00, 0x00, 0x00, 0x03, 0x61, 0x62, 0x63, 0x00, /* "abc" */
	    0x00, 0x00, 0x00, 0x00,			    /* "" */
	    0x00, 0x00, 0x00, 0x05, 0x68, 0x65, 0x6C, 0x6C, /* "hello" */
	    0x6F, 0x00, 0x00, 0x00,			    /* ... "o", padding */
	};
	struct sflow_r r;
	const uint8_t *p;
	uint32_t n;

	sflow_r_init(&r, in, sizeof in, 0);
	ck_assert_int_eq(sflow_r_opaque(&r, &p, &n, 255, "s"), SFLOW_OK);
	ck_assert_uint_eq(n, 3);
	ck_assert_ptr_eq(p, in + 4);
	ck_assert_uint_eq(r.pos, 8);
	ck_assert_int_eq(sflow_r_opaque(&r, &p, &n, 255, "s"), SFLOW_OK);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(sflow_r_opaque(&r, &p, &n, 255, "s"), SFLOW_OK);
	ck_assert_uint_eq(n, 5);
	ck_assert_int_eq(memcmp(p, "hello", 5), 0);
	ck_assert_uint_eq(sflow_r_remaining(&r), 0);

	/* over the declared maximum: a format error at the length field */
	sflow_r_init(&r, in, sizeof in, 40);
	ck_assert_int_eq(sflow_r_opaque(&r, &p, &n, 2, "name"), SFLOW_ERR_FORMAT);
	ck_assert_uint_eq(r.err_offset, 40);
	ck_assert_str_eq(r.err_why, "name");
	ck_assert_ptr_null(p);

	/* the padding is missing: truncated */
	sflow_r_init(&r, in, 7, 0);
	ck_assert_int_eq(sflow_r_opaque(&r, &p, &n, 255, "s"), SFLOW_ERR_TRUNC);
	ck_assert_uint_eq(n, 0);

	/* a huge length does not wrap around */
	{
		static const uint8_t huge[] = {0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0};

		sflow_r_init(&r, huge, sizeof huge, 0);
		ck_assert_int_eq(sflow_r_opaque(&r, &p, &n, 0xFFFFFFFFu, "s"), SFLOW_ERR_TRUNC);
	}
}
END_TEST

START_TEST(r_sub_skip_fail)
{
	static const uint8_t in[] = {0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4};
	struct sflow_r r, sub;
	uint32_t u;

	sflow_r_init(&r, in, sizeof in, 1000);
	ck_assert_int_eq(sflow_r_skip(&r, 4, "skip"), SFLOW_OK);
	ck_assert_int_eq(sflow_r_sub(&r, &sub, 8, "body"), SFLOW_OK);
	ck_assert_uint_eq(r.pos, 12);
	ck_assert_uint_eq(sub.base, 1004);
	ck_assert_uint_eq(sflow_r_remaining(&sub), 8);
	ck_assert_int_eq(sflow_r_u32(&sub, &u, "x"), SFLOW_OK);
	ck_assert_uint_eq(u, 2);
	ck_assert_int_eq(sflow_r_u32(&sub, &u, "x"), SFLOW_OK);
	ck_assert_uint_eq(u, 3);
	/* the sub-reader ends where its body ends, not where the input does */
	ck_assert_int_eq(sflow_r_u32(&sub, &u, "past"), SFLOW_ERR_TRUNC);
	ck_assert_uint_eq(sub.err_offset, 1012);
	ck_assert_int_eq(r.err, SFLOW_OK);
	ck_assert_int_eq(sflow_r_u32(&r, &u, "y"), SFLOW_OK);
	ck_assert_uint_eq(u, 4);

	/* a sub body longer than what remains */
	sflow_r_init(&r, in, sizeof in, 0);
	ck_assert_int_eq(sflow_r_sub(&r, &sub, 17, "body"), SFLOW_ERR_TRUNC);
	ck_assert_int_eq(sub.err, SFLOW_ERR_TRUNC);
	ck_assert_uint_eq(sflow_r_remaining(&sub), 0);

	sflow_r_init(&r, in, sizeof in, 0);
	ck_assert_int_eq(sflow_r_skip(&r, 17, "skip"), SFLOW_ERR_TRUNC);

	/* explicit failure records the current position */
	sflow_r_init(&r, in, sizeof in, 20);
	sflow_r_skip(&r, 8, "skip");
	ck_assert_int_eq(sflow_r_fail(&r, SFLOW_ERR_FORMAT, "bad count"), SFLOW_ERR_FORMAT);
	ck_assert_uint_eq(r.err_offset, 28);
	ck_assert_str_eq(r.err_why, "bad count");
	/* the first error wins */
	ck_assert_int_eq(sflow_r_fail(&r, SFLOW_ERR_TRUNC, "later"), SFLOW_ERR_FORMAT);
	ck_assert_str_eq(r.err_why, "bad count");
}
END_TEST

START_TEST(saturation)
{
	ck_assert_uint_eq(sflow_sat32(0), 0);
	ck_assert_uint_eq(sflow_sat32(12345), 12345);
	ck_assert_uint_eq(sflow_sat32(0xFFFFFFFEull), 0xFFFFFFFEu);
	ck_assert_uint_eq(sflow_sat32(0xFFFFFFFFull), 0xFFFFFFFFu);
	ck_assert_uint_eq(sflow_sat32(0x100000000ull), 0xFFFFFFFFu);
	ck_assert_uint_eq(sflow_sat32(UINT64_MAX), 0xFFFFFFFFu);
}
END_TEST

START_TEST(strerror_all)
{
	static const int codes[] = {SFLOW_OK,	      SFLOW_ERR_FULL,	SFLOW_ERR_TRUNC,
				    SFLOW_ERR_FORMAT, SFLOW_ERR_TOOBIG, SFLOW_ERR_INVALID,
				    SFLOW_ERR_NOMEM};
	size_t i, j;

	for (i = 0; i < sizeof codes / sizeof codes[0]; i++) {
		ck_assert_ptr_nonnull(sflow_strerror(codes[i]));
		ck_assert_str_ne(sflow_strerror(codes[i]), "unknown error");
		for (j = 0; j < i; j++)
			ck_assert_str_ne(sflow_strerror(codes[i]), sflow_strerror(codes[j]));
	}
	ck_assert_str_eq(sflow_strerror(-99), "unknown error");
	ck_assert_str_eq(sflow_strerror(SFLOW_ERR_FULL), "buffer full");
}
END_TEST

static Suite *xdr_suite(void)
{
	Suite *s = suite_create("xdr");
	TCase *tc = tcase_create("writer");

	tcase_add_test(tc, w_scalars);
	tcase_add_test(tc, w_padding);
	tcase_add_test(tc, w_full_sticky);
	tcase_add_test(tc, w_opaque_all_or_nothing);
	tcase_add_test(tc, w_canary);
	tcase_add_test(tc, w_open_close_patch);
	suite_add_tcase(s, tc);
	tc = tcase_create("reader");
	tcase_add_test(tc, r_scalars);
	tcase_add_test(tc, r_partial_field);
	tcase_add_test(tc, r_opaque);
	tcase_add_test(tc, r_sub_skip_fail);
	suite_add_tcase(s, tc);
	tc = tcase_create("misc");
	tcase_add_test(tc, saturation);
	tcase_add_test(tc, strerror_all);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(xdr_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
