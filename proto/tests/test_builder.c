/*
 * test_builder.c - the datagram builder (sflow_builder_*): argument checks,
 * the header written by hand for IPv4 and IPv6 agents, filling exactly to
 * the size limit and one byte over it (SFLOW_ERR_FULL, then flush and add
 * again), the sample cap, samples that can never fit (SFLOW_ERR_TOOBIG,
 * refused whole), samples with inexact framing (SFLOW_ERR_INVALID), and
 * the order of samples: standard ones (0:1..0:4) ahead of all others.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "proto/sflow_decode.h"
#include "proto/sflow_encode.h"
#include "proto/tests/testutil.h"

static struct sflow_dgram_builder b; /* 8 KiB: not on the stack */

static void agent4(struct sflow_addr *a)
{
	memset(a, 0, sizeof *a);
	a->type = SFLOW_ADDR_IP4;
	a->a[0] = 10;
	a->a[3] = 1;
}

static void agent6(struct sflow_addr *a)
{
	memset(a, 0, sizeof *a);
	a->type = SFLOW_ADDR_IP6;
	a->a[0] = 0xFE;
	a->a[1] = 0x80;
	a->a[15] = 0x02;
}

/* A sample of exactly len bytes (len >= 8, multiple of 4): an unknown
 * sample type 0:100 whose body is filler; `mark` is in every body byte. */
static void make_sample(uint8_t *buf, size_t len, uint8_t mark)
{
	tu_put32(buf, SFLOW_TAG(0, 100));
	tu_put32(buf + 4, (uint32_t)(len - 8));
	memset(buf + 8, mark, len - 8);
}

START_TEST(init_args)
{
	struct sflow_addr a;

	agent4(&a);
	ck_assert_int_eq(sflow_builder_init(&b, &a, 0, 199, 0), SFLOW_ERR_INVALID);
	ck_assert_int_eq(sflow_builder_init(&b, &a, 0, 8193, 0), SFLOW_ERR_INVALID);
	ck_assert_int_eq(sflow_builder_init(&b, &a, 0, 200, 0), SFLOW_OK);
	ck_assert_uint_eq(b.hdr_len, 28);
	ck_assert_uint_eq(b.len, 28);
	ck_assert_int_eq(sflow_builder_pending(&b), 0);
	ck_assert_int_eq(sflow_builder_init(&b, &a, 0, 8192, 0), SFLOW_OK);
	a.type = SFLOW_ADDR_UNKNOWN;
	ck_assert_int_eq(sflow_builder_init(&b, &a, 0, 1400, 0), SFLOW_ERR_INVALID);
	a.type = 3;
	ck_assert_int_eq(sflow_builder_init(&b, &a, 0, 1400, 0), SFLOW_ERR_INVALID);
	agent6(&a);
	ck_assert_int_eq(sflow_builder_init(&b, &a, 0, 1400, 0), SFLOW_OK);
	ck_assert_uint_eq(b.hdr_len, 40);
}
END_TEST

/* A 12-byte sample of type tag whose body is one word `mark`. */
static void tagged(uint8_t *buf, uint32_t tag, uint32_t mark)
{
	tu_put32(buf, tag);
	tu_put32(buf + 4, 4);
	tu_put32(buf + 8, mark);
}

START_TEST(standard_first)
{
	/* added: 0:5, 4413:1, 0:3, 0:100, 0:4, 0:1; sent: 0:3, 0:4, 0:1
	 * (the standard ones, as added), then 0:5, 4413:1, 0:100 (as added) */
	static const uint32_t tags[6] = {SFLOW_TAG(0, 5),   SFLOW_TAG(4413, 1), SFLOW_TAG(0, 3),
					 SFLOW_TAG(0, 100), SFLOW_TAG(0, 4),	SFLOW_TAG(0, 1)};
	static const unsigned order[6] = {2, 4, 5, 0, 1, 3};
	struct sflow_addr a;
	uint8_t s[12];
	const uint8_t *out;
	size_t n;

	agent4(&a);
	ck_assert_int_eq(sflow_builder_init(&b, &a, 0, 1400, 0), SFLOW_OK);
	for (unsigned i = 0; i < 6; i++) {
		tagged(s, tags[i], i);
		ck_assert_int_eq(sflow_builder_add(&b, s, sizeof s), SFLOW_OK);
	}
	out = sflow_builder_finish(&b, 1, 1, &n);
	ck_assert_uint_eq(n, 28 + 6 * 12);
	for (unsigned k = 0; k < 6; k++) {
		uint8_t want[12];

		tagged(want, tags[order[k]], order[k]);
		ck_assert_mem_eq(out + 28 + 12 * k, want, 12);
	}
	/* the next datagram starts afresh */
	tagged(s, SFLOW_TAG(0, 5), 7);
	ck_assert_int_eq(sflow_builder_add(&b, s, sizeof s), SFLOW_OK);
	tagged(s, SFLOW_TAG(0, 3), 8);
	ck_assert_int_eq(sflow_builder_add(&b, s, sizeof s), SFLOW_OK);
	out = sflow_builder_finish(&b, 2, 1, &n);
	ck_assert_uint_eq(n, 28 + 2 * 12);
	ck_assert_uint_eq(out[28 + 3], 3);
	ck_assert_uint_eq(out[28 + 12 + 3], 5);
}
END_TEST

START_TEST(finish_empty)
{
	struct sflow_addr a;
	size_t n = 99;

	agent4(&a);
	ck_assert_int_eq(sflow_builder_init(&b, &a, 0, 1400, 0), SFLOW_OK);
	ck_assert_ptr_null(sflow_builder_finish(&b, 1, 2, &n));
	ck_assert_uint_eq(n, 0);
}
END_TEST

START_TEST(header_ipv4)
{
	static const uint8_t want[] = {
	    0x00, 0x00, 0x00, 0x05, /* version */
	    0x00, 0x00, 0x00, 0x01, /* IPv4 */
	    0x0A, 0x00, 0x00, 0x01, /* 10.0.0.1 */
	    0x00, 0x00, 0x00, 0x03, /* sub_agent_id 3 */
	    0xFF, 0xFF, 0xFF, 0xFF, /* sequence_number 2^32 - 1 */
	    0x00, 0x00, 0x03, 0xE8, /* uptime 1000 */
	    0x00, 0x00, 0x00, 0x02, /* 2 samples */
	    0x00, 0x00, 0x00, 0x64, /* tag 0:100 */
	    0x00, 0x00, 0x00, 0x04, /* length 4 */
	    0x11, 0x11, 0x11, 0x11, /* body */
	    0x00, 0x00, 0x00, 0x64, /* tag 0:100 */
	    0x00, 0x00, 0x00, 0x00, /* length 0 */
	};
	struct sflow_addr a;
	uint8_t s1[12], s2[8];
	const uint8_t *out;
	size_t n;

	agent4(&a);
	ck_assert_int_eq(sflow_builder_init(&b, &a, 3, 1400, 0), SFLOW_OK);
	make_sample(s1, sizeof s1, 0x11);
	make_sample(s2, sizeof s2, 0x22);
	ck_assert_int_eq(sflow_builder_add(&b, s1, sizeof s1), SFLOW_OK);
	ck_assert_int_eq(sflow_builder_pending(&b), 1);
	ck_assert_int_eq(sflow_builder_add(&b, s2, sizeof s2), SFLOW_OK);
	out = sflow_builder_finish(&b, 0xFFFFFFFFu, 1000, &n);
	ck_assert_bytes(out, n, want, sizeof want);
	/* empty again */
	ck_assert_int_eq(sflow_builder_pending(&b), 0);
	ck_assert_uint_eq(b.len, 28);
	ck_assert_ptr_null(sflow_builder_finish(&b, 1, 1, &n));
}
END_TEST

START_TEST(header_ipv6)
{
	static const uint8_t want[] = {
	    0x00, 0x00, 0x00, 0x05,						    /* version */
	    0x00, 0x00, 0x00, 0x02,						    /* IPv6 */
	    0xFE, 0x80, 0x00, 0x00,						    /* fe80::2 */
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, /* ... */
	    0x00, 0x00, 0x00, 0x00, /* sub_agent_id 0 */
	    0x00, 0x00, 0x00, 0x2A, /* sequence_number 42 */
	    0x00, 0x00, 0x00, 0x00, /* uptime 0 */
	    0x00, 0x00, 0x00, 0x01, /* 1 sample */
	    0x00, 0x00, 0x00, 0x64, /* tag 0:100 */
	    0x00, 0x00, 0x00, 0x00, /* length 0 */
	};
	struct sflow_addr a;
	uint8_t s1[8];
	const uint8_t *out;
	size_t n;

	agent6(&a);
	ck_assert_int_eq(sflow_builder_init(&b, &a, 0, 200, 0), SFLOW_OK);
	make_sample(s1, sizeof s1, 0);
	ck_assert_int_eq(sflow_builder_add(&b, s1, sizeof s1), SFLOW_OK);
	out = sflow_builder_finish(&b, 42, 0, &n);
	ck_assert_bytes(out, n, want, sizeof want);
}
END_TEST

START_TEST(fill_exactly_to_limit)
{
	struct sflow_addr a;
	uint8_t s[256];
	const uint8_t *out;
	size_t n;
	struct sflow_datagram d;
	struct sflow_decode_error err;

	/* 200 bytes: header 28 + one sample of 172 */
	agent4(&a);
	ck_assert_int_eq(sflow_builder_init(&b, &a, 0, 200, 0), SFLOW_OK);
	make_sample(s, 172, 0x5A);
	ck_assert_int_eq(sflow_builder_add(&b, s, 172), SFLOW_OK);
	ck_assert_uint_eq(b.len, 200);
	/* nothing more fits, not even an empty sample */
	make_sample(s, 8, 0);
	ck_assert_int_eq(sflow_builder_add(&b, s, 8), SFLOW_ERR_FULL);
	out = sflow_builder_finish(&b, 1, 1, &n);
	ck_assert_uint_eq(n, 200);
	ck_assert_uint_eq(tu_get32(out + 24), 1);
	ck_assert_int_eq(sflow_decode(out, n, NULL, &d, &err), SFLOW_OK);
	ck_assert_uint_eq(d.nsamples, 1);
	ck_assert_uint_eq(d.samples[0].length, 164);
	sflow_datagram_free(&d);

	/* two samples filling it exactly: 28 + 100 + 72 = 200 */
	make_sample(s, 100, 1);
	ck_assert_int_eq(sflow_builder_add(&b, s, 100), SFLOW_OK);
	make_sample(s, 72, 2);
	ck_assert_int_eq(sflow_builder_add(&b, s, 72), SFLOW_OK);
	ck_assert_uint_eq(b.len, 200);
	out = sflow_builder_finish(&b, 2, 1, &n);
	ck_assert_uint_eq(n, 200);
}
END_TEST

START_TEST(one_byte_over)
{
	struct sflow_addr a;
	uint8_t s[256];
	size_t n;
	const uint8_t *out;

	/* 203 bytes: 28 + 96 pending leaves 79; a sample of 80 is one byte
	 * over: FULL, nothing copied; flush, then it goes in */
	agent4(&a);
	ck_assert_int_eq(sflow_builder_init(&b, &a, 0, 203, 0), SFLOW_OK);
	make_sample(s, 96, 1);
	ck_assert_int_eq(sflow_builder_add(&b, s, 96), SFLOW_OK);
	make_sample(s, 80, 2);
	ck_assert_int_eq(sflow_builder_add(&b, s, 80), SFLOW_ERR_FULL);
	ck_assert_uint_eq(b.len, 124);
	ck_assert_uint_eq(b.nsamples, 1);
	/* 76 still fits, with 3 bytes to spare */
	make_sample(s + 80, 76, 3);
	ck_assert_int_eq(sflow_builder_add(&b, s + 80, 76), SFLOW_OK);
	ck_assert_uint_eq(b.len, 200);
	out = sflow_builder_finish(&b, 1, 1, &n);
	ck_assert_uint_eq(n, 200);
	ck_assert_uint_eq(out[28 + 96 + 8], 3);
	ck_assert_int_eq(sflow_builder_add(&b, s, 80), SFLOW_OK);
	out = sflow_builder_finish(&b, 2, 1, &n);
	ck_assert_uint_eq(n, 108);
	ck_assert_uint_eq(out[28 + 8], 2);
}
END_TEST

START_TEST(sample_cap)
{
	struct sflow_addr a;
	uint8_t s[16];
	size_t n;
	const uint8_t *out;

	agent4(&a);
	ck_assert_int_eq(sflow_builder_init(&b, &a, 0, 1400, 2), SFLOW_OK);
	make_sample(s, 16, 0);
	ck_assert_int_eq(sflow_builder_add(&b, s, 16), SFLOW_OK);
	ck_assert_int_eq(sflow_builder_add(&b, s, 16), SFLOW_OK);
	ck_assert_int_eq(sflow_builder_add(&b, s, 16), SFLOW_ERR_FULL);
	out = sflow_builder_finish(&b, 1, 1, &n);
	ck_assert_uint_eq(n, 28 + 32);
	ck_assert_uint_eq(tu_get32(out + 24), 2);
	ck_assert_int_eq(sflow_builder_add(&b, s, 16), SFLOW_OK);
}
END_TEST

START_TEST(too_big)
{
	struct sflow_addr a;
	static uint8_t s[SFLOW_DGRAM_MAX + 8];
	size_t n;

	/* IPv4, 200: 172 is the most a sample can be */
	agent4(&a);
	ck_assert_int_eq(sflow_builder_init(&b, &a, 0, 200, 0), SFLOW_OK);
	make_sample(s, 176, 0);
	ck_assert_int_eq(sflow_builder_add(&b, s, 176), SFLOW_ERR_TOOBIG);
	ck_assert_int_eq(sflow_builder_pending(&b), 0);
	/* TOOBIG, not FULL, even with samples pending */
	make_sample(s, 8, 0);
	ck_assert_int_eq(sflow_builder_add(&b, s, 8), SFLOW_OK);
	make_sample(s, 176, 0);
	ck_assert_int_eq(sflow_builder_add(&b, s, 176), SFLOW_ERR_TOOBIG);
	ck_assert_uint_eq(b.len, 36);

	/* IPv6, 200: 160 is the most */
	agent6(&a);
	ck_assert_int_eq(sflow_builder_init(&b, &a, 0, 200, 0), SFLOW_OK);
	make_sample(s, 160, 0);
	ck_assert_int_eq(sflow_builder_add(&b, s, 160), SFLOW_OK);
	ck_assert_int_eq(sflow_builder_init(&b, &a, 0, 200, 0), SFLOW_OK);
	make_sample(s, 164, 0);
	ck_assert_int_eq(sflow_builder_add(&b, s, 164), SFLOW_ERR_TOOBIG);

	/* IPv4, 8192: 8164 fits, 8168 never does */
	agent4(&a);
	ck_assert_int_eq(sflow_builder_init(&b, &a, 0, SFLOW_DGRAM_MAX, 0), SFLOW_OK);
	make_sample(s, 8168, 0);
	ck_assert_int_eq(sflow_builder_add(&b, s, 8168), SFLOW_ERR_TOOBIG);
	make_sample(s, 8164, 0);
	ck_assert_int_eq(sflow_builder_add(&b, s, 8164), SFLOW_OK);
	ck_assert(sflow_builder_finish(&b, 1, 1, &n) != NULL);
	ck_assert_uint_eq(n, SFLOW_DGRAM_MAX);
}
END_TEST

START_TEST(bad_framing)
{
	struct sflow_addr a;
	uint8_t s[32];

	agent4(&a);
	ck_assert_int_eq(sflow_builder_init(&b, &a, 0, 1400, 0), SFLOW_OK);
	make_sample(s, 16, 0);
	ck_assert_int_eq(sflow_builder_add(&b, s, 12), SFLOW_ERR_INVALID); /* length says 8 */
	ck_assert_int_eq(sflow_builder_add(&b, s, 4), SFLOW_ERR_INVALID);
	ck_assert_int_eq(sflow_builder_add(&b, NULL, 16), SFLOW_ERR_INVALID);
	tu_put32(s + 4, 9);
	ck_assert_int_eq(sflow_builder_add(&b, s, 17), SFLOW_ERR_INVALID); /* not 4-aligned */
	ck_assert_int_eq(sflow_builder_pending(&b), 0);
}
END_TEST

START_TEST(encoder_full_then_flush)
{
	/* the intended loop: encode into scratch, add, on FULL finish and
	 * add again; every datagram decodes and no sample is lost */
	struct sflow_addr a;
	uint8_t scratch[512];
	uint32_t i, seen = 0, seq = 0;
	size_t n;
	const uint8_t *out;
	struct sflow_datagram d;
	struct sflow_decode_error err;

	agent4(&a);
	ck_assert_int_eq(sflow_builder_init(&b, &a, 0, 1400, 0), SFLOW_OK);
	for (i = 0; i < 100; i++) {
		struct sflow_w w;
		struct sflow_sample_enc s;
		struct sflow_counters_sample h = {i, 0, i + 1};
		struct sflow_if_counters ifc = {0};
		int e;

		sflow_w_init(&w, scratch, sizeof scratch);
		sflow_enc_counters_begin(&w, &s, &h);
		sflow_enc_if_counters(&w, &s, &ifc);
		sflow_enc_sample_end(&w, &s);
		ck_assert_int_eq(w.err, SFLOW_OK);
		ck_assert_uint_eq(w.len, 8 + 16 + 96);
		e = sflow_builder_add(&b, scratch, w.len);
		if (e == SFLOW_ERR_FULL) {
			out = sflow_builder_finish(&b, ++seq, 0, &n);
			ck_assert_uint_le(n, 1400);
			/* (1400 - 28) / 120 = 11 samples per datagram */
			ck_assert_uint_eq(n, 28 + 11 * 120);
			ck_assert_int_eq(sflow_decode(out, n, NULL, &d, &err), SFLOW_OK);
			seen += d.nsamples;
			sflow_datagram_free(&d);
			e = sflow_builder_add(&b, scratch, w.len);
		}
		ck_assert_int_eq(e, SFLOW_OK);
	}
	out = sflow_builder_finish(&b, ++seq, 0, &n);
	ck_assert_int_eq(sflow_decode(out, n, NULL, &d, &err), SFLOW_OK);
	seen += d.nsamples;
	sflow_datagram_free(&d);
	ck_assert_uint_eq(seen, 100);
	ck_assert_uint_eq(seq, 10); /* 9 full datagrams of 11, then 1 of 1 */
}
END_TEST

START_TEST(scratch_too_small)
{
	/* a sample larger than the caller's scratch buffer: w.err is FULL and
	 * nothing past the scratch is written */
	uint8_t scratch[64 + 8];
	struct sflow_w w;
	struct sflow_sample_enc s;
	struct sflow_counters_sample h = {1, 0, 1};
	struct sflow_if_counters ifc = {0};
	size_t i;

	memset(scratch, 0xA5, sizeof scratch);
	sflow_w_init(&w, scratch, 64);
	sflow_enc_counters_begin(&w, &s, &h);
	sflow_enc_if_counters(&w, &s, &ifc);
	sflow_enc_sample_end(&w, &s);
	ck_assert_int_eq(w.err, SFLOW_ERR_FULL);
	for (i = 64; i < sizeof scratch; i++)
		ck_assert_uint_eq(scratch[i], 0xA5);
}
END_TEST

/* The encoders never write past any capacity short of whole samples
 * (every_capacity_stays_inside), and encode straight into a datagram
 * (encode_in_place).
 *
 * Encode one counters sample of every fixed-size counter record, one flow
 * sample and one discard sample with variable and fixed flow records into
 * buf[cap]; returns the sflow_w status and leaves the length in *len. */
static int encode_all(uint8_t *buf, size_t cap, size_t *len)
{
	static const uint8_t hdr[5] = {1, 2, 3, 4, 5};
	struct sflow_w w;
	struct sflow_sample_enc s;
	struct sflow_counters_sample ch = {1, 0, 7};
	struct sflow_flow_sample fh = {2, 0, 7, 1000, 5000, 0, 0, 7, 0, 8};
	struct sflow_discard_sample dh = {3, 0, 7, 0, 7, 8, 263};
	struct sflow_if_counters ifc = {0};
	struct sflow_eth_counters eth = {0};
	struct sflow_bst_device bd = {10, 20};
	struct sflow_bst_port bp = {1, 2, 3, 4, 8, {0}, 8, {0}};
	struct sflow_sampled_header sh = {1, 64, 4, 5, hdr};
	struct sflow_ext_switch sw = {1, 2, 3, 4};

	sflow_w_init(&w, buf, cap);
	sflow_enc_counters_begin(&w, &s, &ch);
	sflow_enc_if_counters(&w, &s, &ifc);
	sflow_enc_eth_counters(&w, &s, &eth);
	sflow_enc_bst_device(&w, &s, &bd);
	sflow_enc_bst_port(&w, &s, &bp);
	sflow_enc_sample_end(&w, &s);
	sflow_enc_flow_begin(&w, &s, &fh);
	sflow_enc_sampled_header(&w, &s, &sh);
	sflow_enc_ext_switch(&w, &s, &sw);
	sflow_enc_egress_queue(&w, &s, 3);
	sflow_enc_timestamp(&w, &s, 42);
	sflow_enc_sample_end(&w, &s);
	sflow_enc_discard_begin(&w, &s, &dh);
	sflow_enc_sampled_header(&w, &s, &sh);
	sflow_enc_sample_end(&w, &s);
	*len = w.len;
	return w.err;
}

START_TEST(every_capacity_stays_inside)
{
	/* Sizes by hand from the formats: counters sample 8 + 12 + 4 = 24,
	 * generic 8 + 16*4 + 3*8 = 96, ethernet 8 + 13*4 = 60, BST device
	 * 8 + 8 = 16, BST port 8 + (4 + 1 + 8 + 1 + 8)*4 = 96: 292.  Flow
	 * sample 8 + 40 + 4 = 52, sampled header 8 + 16 + 5 + 3 = 32, switch
	 * 8 + 16 = 24, egress queue 12, timestamp 16: 136.  Discard sample
	 * 8 + 28 + 4 = 40 + 32: 72.  Total 500.  Every capacity below that
	 * fails with SFLOW_ERR_FULL and writes nothing past the capacity. */
	enum { TOTAL = 500 };
	static uint8_t buf[TOTAL + 16];
	size_t cap, len, i;

	for (cap = 0; cap <= TOTAL; cap++) {
		memset(buf, 0xA5, sizeof buf);
		if (cap < TOTAL) {
			ck_assert_int_eq(encode_all(buf, cap, &len), SFLOW_ERR_FULL);
			ck_assert_uint_le(len, cap);
		} else {
			ck_assert_int_eq(encode_all(buf, cap, &len), SFLOW_OK);
			ck_assert_uint_eq(len, TOTAL);
		}
		for (i = cap; i < sizeof buf; i++)
			ck_assert_uint_eq(buf[i], 0xA5);
	}
}
END_TEST

/* A counters sample with generic and ethernet records: 24 + 96 + 60 = 180
 * bytes (sizes from the formats), encoded through w. */
static void enc_port(struct sflow_w *w, uint32_t seq)
{
	struct sflow_sample_enc s;
	struct sflow_counters_sample h = {seq, 0, 3};
	struct sflow_if_counters ifc = {0};
	struct sflow_eth_counters eth = {0};

	sflow_enc_counters_begin(w, &s, &h);
	sflow_enc_if_counters(w, &s, &ifc);
	sflow_enc_eth_counters(w, &s, &eth);
	sflow_enc_sample_end(w, &s);
}

START_TEST(encode_in_place)
{
	/* 400-byte datagrams: header 28 + two samples of 180 = 388; the third
	 * does not fit (FULL, nothing past 400 written), then goes first in
	 * the next datagram */
	struct sflow_addr a;
	struct sflow_w w;
	const uint8_t *out;
	size_t n;
	struct sflow_datagram d;
	struct sflow_decode_error err;

	agent4(&a);
	ck_assert_int_eq(sflow_builder_init(&b, &a, 0, 400, 0), SFLOW_OK);
	memset(b.buf + 400, 0xA5, sizeof b.buf - 400);
	for (uint32_t i = 1; i <= 2; i++) {
		sflow_builder_open(&b, &w);
		enc_port(&w, i);
		ck_assert_int_eq(sflow_builder_commit(&b, &w), SFLOW_OK);
	}
	ck_assert_uint_eq(b.len, 388);
	sflow_builder_open(&b, &w);
	enc_port(&w, 3);
	ck_assert_int_eq(sflow_builder_commit(&b, &w), SFLOW_ERR_FULL);
	ck_assert_uint_eq(b.len, 388);
	ck_assert_uint_eq(b.buf[400], 0xA5);
	out = sflow_builder_finish(&b, 1, 1, &n);
	ck_assert_uint_eq(n, 388);
	ck_assert_int_eq(sflow_decode(out, n, NULL, &d, &err), SFLOW_OK);
	ck_assert_uint_eq(d.nsamples, 2);
	ck_assert_uint_eq(d.samples[1].length, 172);
	sflow_datagram_free(&d);
	sflow_builder_open(&b, &w);
	enc_port(&w, 3);
	ck_assert_int_eq(sflow_builder_commit(&b, &w), SFLOW_OK);
	ck_assert_uint_eq(b.len, 28 + 180);

	/* 200-byte datagrams: 28 + 180 = 208 can never fit */
	ck_assert_int_eq(sflow_builder_init(&b, &a, 0, 200, 0), SFLOW_OK);
	sflow_builder_open(&b, &w);
	enc_port(&w, 1);
	ck_assert_int_eq(sflow_builder_commit(&b, &w), SFLOW_ERR_TOOBIG);
	ck_assert_uint_eq(b.len, 28);

	/* ordering: a 0:5 added, then a counters sample committed in place:
	 * the 0:4 goes first, the 0:5 after it */
	ck_assert_int_eq(sflow_builder_init(&b, &a, 0, 1400, 0), SFLOW_OK);
	{
		uint8_t disc[12];

		tu_put32(disc, SFLOW_TAG(0, 5));
		tu_put32(disc + 4, 4);
		tu_put32(disc + 8, 0x55AA55AA);
		ck_assert_int_eq(sflow_builder_add(&b, disc, sizeof disc), SFLOW_OK);
		sflow_builder_open(&b, &w);
		enc_port(&w, 9);
		ck_assert_int_eq(sflow_builder_commit(&b, &w), SFLOW_OK);
		out = sflow_builder_finish(&b, 1, 1, &n);
		ck_assert_uint_eq(n, 28 + 180 + 12);
		ck_assert_uint_eq(tu_get32(out + 28), SFLOW_TAG(0, 4));
		ck_assert_uint_eq(tu_get32(out + 28 + 4), 172);
		ck_assert_uint_eq(tu_get32(out + 28 + 8), 9); /* its sequence */
		ck_assert_mem_eq(out + 28 + 180, disc, sizeof disc);
	}

	/* the sample cap */
	ck_assert_int_eq(sflow_builder_init(&b, &a, 0, 1400, 1), SFLOW_OK);
	sflow_builder_open(&b, &w);
	enc_port(&w, 1);
	ck_assert_int_eq(sflow_builder_commit(&b, &w), SFLOW_OK);
	sflow_builder_open(&b, &w);
	enc_port(&w, 2);
	ck_assert_int_eq(sflow_builder_commit(&b, &w), SFLOW_ERR_FULL);
	ck_assert_uint_eq(b.len, 28 + 180);
}
END_TEST

START_TEST(own_sample_framing)
{
	/* sflow_enc_sample_begin + fixed fields + records_begin + a generic
	 * record: bytes written by hand */
	static const uint8_t want[] = {
	    0x07, 0xED, 0x90, 0x01,			    /* tag 32473:1 */
	    0x00, 0x00, 0x00, 0x18,			    /* length 24 = 4 + 4 + 16 */
	    0x00, 0x00, 0x00, 0x2A,			    /* a fixed field: 42 */
	    0x00, 0x00, 0x00, 0x01,			    /* 1 record */
	    0x07, 0xED, 0x90, 0x09,			    /* tag 32473:9 */
	    0x00, 0x00, 0x00, 0x08,			    /* length 8 */
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07, /* hyper 7 */
	};
	uint8_t buf[64];
	struct sflow_w w;
	struct sflow_sample_enc s;
	size_t m;

	sflow_w_init(&w, buf, sizeof buf);
	sflow_enc_sample_begin(&w, &s, SFLOW_TAG(32473, 1));
	sflow_w_u32(&w, 42);
	sflow_enc_records_begin(&w, &s);
	m = sflow_enc_record_begin(&w, &s, SFLOW_TAG(32473, 9));
	sflow_w_u64(&w, 7);
	sflow_enc_record_end(&w, m);
	sflow_enc_sample_end(&w, &s);
	ck_assert_int_eq(w.err, SFLOW_OK);
	ck_assert_bytes(buf, w.len, want, sizeof want);

	/* without records_begin the sample is refused */
	sflow_w_init(&w, buf, sizeof buf);
	sflow_enc_sample_begin(&w, &s, SFLOW_TAG(32473, 1));
	sflow_enc_sample_end(&w, &s);
	ck_assert_int_eq(w.err, SFLOW_ERR_INVALID);
}
END_TEST

static Suite *builder_suite(void)
{
	Suite *s = suite_create("builder");
	TCase *tc = tcase_create("builder");

	tcase_add_test(tc, init_args);
	tcase_add_test(tc, finish_empty);
	tcase_add_test(tc, header_ipv4);
	tcase_add_test(tc, header_ipv6);
	tcase_add_test(tc, fill_exactly_to_limit);
	tcase_add_test(tc, one_byte_over);
	tcase_add_test(tc, sample_cap);
	tcase_add_test(tc, too_big);
	tcase_add_test(tc, bad_framing);
	tcase_add_test(tc, encoder_full_then_flush);
	tcase_add_test(tc, scratch_too_small);
	tcase_add_test(tc, every_capacity_stays_inside);
	tcase_add_test(tc, encode_in_place);
	tcase_add_test(tc, own_sample_framing);
	tcase_add_test(tc, standard_first);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(builder_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
