/*
 * test_decode_errors.c - malformed input to sflow_decode(): truncation at
 * every byte of valid multi-sample datagrams (each cut copied into a buffer
 * of exactly that size, so a sanitizer build catches any over-read), wrong
 * record and sample lengths, absurd counts, bad version and address type,
 * arrays and strings over their limits, left-over bytes; each an error
 * with an offset and a message, never a crash.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "proto/sflow_decode.h"
#include "proto/tests/testutil.h"
#include "proto/tests/vectors.h"

/* Decode a private copy of buf[0..len) that must fail; returns the status. */
static int decode_fails(const uint8_t *buf, size_t len, struct sflow_decode_error *err)
{
	uint8_t *copy = malloc(len ? len : 1);
	struct sflow_datagram d;
	int e;

	ck_assert_ptr_nonnull(copy);
	memcpy(copy, buf, len);
	e = sflow_decode(copy, len, NULL, &d, err);
	ck_assert_msg(e != SFLOW_OK, "length %zu decoded", len);
	ck_assert_int_eq(e, err->status);
	ck_assert(e == SFLOW_ERR_TRUNC || e == SFLOW_ERR_FORMAT);
	ck_assert_msg(strncmp(err->msg, "offset ", 7) == 0, "message: %s", err->msg);
	ck_assert_uint_le(err->offset, len);
	ck_assert_ptr_null(d.samples);
	ck_assert_uint_eq(d.nsamples, 0);
	sflow_datagram_free(&d); /* harmless on the emptied result */
	free(copy);
	return e;
}

static void truncate_all(const uint8_t *vec, size_t len)
{
	struct sflow_decode_error err;
	struct sflow_datagram d;
	size_t cut;

	for (cut = 0; cut < len; cut++)
		decode_fails(vec, cut, &err);
	ck_assert_int_eq(sflow_decode(vec, len, NULL, &d, &err), SFLOW_OK);
	sflow_datagram_free(&d);
}

START_TEST(truncate_every_byte)
{
	truncate_all(vec_d1, sizeof vec_d1);
	truncate_all(vec_d2, sizeof vec_d2);
	truncate_all(vec_d3, sizeof vec_d3);
	truncate_all(vec_d4, sizeof vec_d4);
}
END_TEST

START_TEST(truncation_messages)
{
	struct sflow_decode_error err;

	ck_assert_int_eq(decode_fails(vec_d1, 0, &err), SFLOW_ERR_TRUNC);
	ck_assert_str_eq(err.msg, "offset 0: datagram ends inside version");
	ck_assert_int_eq(decode_fails(vec_d1, 10, &err), SFLOW_ERR_TRUNC);
	ck_assert_str_eq(err.msg, "offset 8: datagram ends inside agent address");
	ck_assert_int_eq(decode_fails(vec_d2, 20, &err), SFLOW_ERR_TRUNC);
	ck_assert_str_eq(err.msg, "offset 8: datagram ends inside agent address");
	/* cut inside sample A: its length runs past the end */
	ck_assert_int_eq(decode_fails(vec_d1, 100, &err), SFLOW_ERR_TRUNC);
	ck_assert_uint_eq(err.offset, 28);
	ck_assert_str_eq(
	    err.msg, "offset 28: sample 0:4 length 80 exceeds the 64 bytes left in the datagram");
	/* cut between samples: the next sample's tag is missing */
	ck_assert_int_eq(decode_fails(vec_d1, 116, &err), SFLOW_ERR_TRUNC);
	ck_assert_str_eq(err.msg, "offset 116: datagram ends inside sample data_format");
}
END_TEST

START_TEST(wrong_fixed_record_length)
{
	/* if_counters declared 84 bytes long (its body really shortened so the
	 * sample length stays consistent) */
	uint8_t rec[sizeof vec_if_counters];
	uint8_t buf[256];
	size_t n;
	struct sflow_decode_error err;

	memcpy(rec, vec_if_counters, sizeof rec);
	tu_put32(rec + 4, 84);
	n = tu_wrap_record(buf, sizeof buf, SFLOW_SAMPLE_COUNTERS_EXP, 3, rec, 8 + 84);
	ck_assert_int_eq(decode_fails(buf, n, &err), SFLOW_ERR_FORMAT);
	ck_assert_uint_eq(err.offset, 52);
	ck_assert_str_eq(err.msg, "offset 52: counter record 0:1 length 84, expected 88");

	/* and 92 bytes long */
	memset(rec, 0, sizeof rec);
	memcpy(rec, vec_if_counters, sizeof vec_if_counters);
	{
		uint8_t big[8 + 92] = {0};

		memcpy(big, vec_if_counters, sizeof vec_if_counters);
		tu_put32(big + 4, 92);
		n = tu_wrap_record(buf, sizeof buf, SFLOW_SAMPLE_COUNTERS_EXP, 3, big, sizeof big);
		ck_assert_int_eq(decode_fails(buf, n, &err), SFLOW_ERR_FORMAT);
		ck_assert_str_eq(err.msg, "offset 52: counter record 0:1 length 92, expected 88");
	}
}
END_TEST

START_TEST(wrong_lengths_each_fixed_record)
{
	/* every fixed-size record, 4 bytes short: an error naming its tag */
	static const struct {
		uint32_t sample;
		unsigned fixed;
		uint32_t tag;
		uint32_t len;
		const char *msg;
	} cases[] = {
	    {SFLOW_SAMPLE_COUNTERS_EXP, 3, SFLOW_CTR_ETHERNET, 52,
	     "offset 52: counter record 0:2 length 48, expected 52"},
	    {SFLOW_SAMPLE_COUNTERS_EXP, 3, SFLOW_CTR_BST_DEVICE, 8,
	     "offset 52: counter record 4413:1 length 4, expected 8"},
	    {SFLOW_SAMPLE_FLOW_EXP, 10, SFLOW_FLOW_EXT_SWITCH, 16,
	     "offset 80: flow record 0:1001 length 12, expected 16"},
	    {SFLOW_SAMPLE_FLOW_EXP, 10, SFLOW_FLOW_EGRESS_QUEUE, 4,
	     "offset 80: flow record 0:1036 length 0, expected 4"},
	    {SFLOW_SAMPLE_DISCARD, 7, SFLOW_FLOW_TRANSIT, 4,
	     "offset 68: flow record 0:1039 length 0, expected 4"},
	    {SFLOW_SAMPLE_DISCARD, 7, SFLOW_FLOW_QUEUE_DEPTH, 4,
	     "offset 68: flow record 0:1040 length 0, expected 4"},
	    {SFLOW_SAMPLE_FLOW_EXP, 10, SFLOW_FLOW_TIMESTAMP, 8,
	     "offset 80: flow record 0:1043 length 4, expected 8"},
	    {SFLOW_SAMPLE_FLOW_EXP, 10, SFLOW_FLOW_BST_EGRESS_QUEUE, 4,
	     "offset 80: flow record 4413:1 length 0, expected 4"},
	    {SFLOW_SAMPLE_FLOW, 7, SFLOW_FLOW_EXT_SWITCH, 16,
	     "offset 68: flow record 0:1001 length 12, expected 16"},
	    {SFLOW_SAMPLE_COUNTERS, 2, SFLOW_CTR_GENERIC, 88,
	     "offset 48: counter record 0:1 length 84, expected 88"},
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint8_t rec[128] = {0}, buf[256];
		size_t n;
		struct sflow_decode_error err;

		tu_put32(rec, cases[i].tag);
		tu_put32(rec + 4, cases[i].len - 4);
		n = tu_wrap_record(buf, sizeof buf, cases[i].sample, cases[i].fixed, rec,
				   8 + cases[i].len - 4);
		ck_assert_int_eq(decode_fails(buf, n, &err), SFLOW_ERR_FORMAT);
		ck_assert_str_eq(err.msg, cases[i].msg);
	}
}
END_TEST

START_TEST(variable_record_lengths)
{
	uint8_t buf[512];
	uint8_t rec[128];
	size_t n;
	struct sflow_decode_error err;

	/* bst_port of D1 with 4 extra bytes declared and present */
	memset(rec, 0, sizeof rec);
	memcpy(rec, vec_d1 + 72, 44);
	tu_put32(rec + 4, 40);
	n = tu_wrap_record(buf, sizeof buf, SFLOW_SAMPLE_COUNTERS_EXP, 3, rec, 48);
	ck_assert_int_eq(decode_fails(buf, n, &err), SFLOW_ERR_FORMAT);
	ck_assert_str_eq(err.msg, "offset 52: counter record 4413:2 length 40, expected 36");

	/* bst_port with 9 unicast queues */
	memcpy(rec, vec_d1 + 72, 44);
	tu_put32(rec + 8 + 16, 9);
	n = tu_wrap_record(buf, sizeof buf, SFLOW_SAMPLE_COUNTERS_EXP, 3, rec, 44);
	ck_assert_int_eq(decode_fails(buf, n, &err), SFLOW_ERR_FORMAT);
	ck_assert_str_eq(err.msg, "offset 76: counter record 4413:2 egress_queue_uc_pc count 9 "
				  "exceeds 8");

	/* bst_port whose unicast count runs past its length */
	memcpy(rec, vec_d1 + 72, 44);
	tu_put32(rec + 8 + 16, 8);
	n = tu_wrap_record(buf, sizeof buf, SFLOW_SAMPLE_COUNTERS_EXP, 3, rec, 44);
	ck_assert_int_eq(decode_fails(buf, n, &err), SFLOW_ERR_FORMAT);
	ck_assert_str_eq(err.msg,
			 "offset 52: counter record 4413:2 length 36, expected at least 56");

	/* bst_port with 9 multicast queues */
	memcpy(rec, vec_d1 + 72, 44);
	tu_put32(rec + 8 + 16 + 4 + 8, 9);
	n = tu_wrap_record(buf, sizeof buf, SFLOW_SAMPLE_COUNTERS_EXP, 3, rec, 44);
	ck_assert_int_eq(decode_fails(buf, n, &err), SFLOW_ERR_FORMAT);
	ck_assert_str_eq(err.msg, "offset 88: counter record 4413:2 egress_queue_mc_pc count 9 "
				  "exceeds 8");

	/* port_name with 256 characters */
	memcpy(rec, vec_d1 + 52, 20);
	tu_put32(rec + 8, 256);
	n = tu_wrap_record(buf, sizeof buf, SFLOW_SAMPLE_COUNTERS_EXP, 3, rec, 20);
	ck_assert_int_eq(decode_fails(buf, n, &err), SFLOW_ERR_FORMAT);
	ck_assert_str_eq(err.msg, "offset 60: counter record 0:1005 name length 256 exceeds 255");

	/* port_name "swp10" declared 16 bytes long */
	memset(rec, 0, sizeof rec);
	memcpy(rec, vec_d1 + 52, 20);
	tu_put32(rec + 4, 16);
	n = tu_wrap_record(buf, sizeof buf, SFLOW_SAMPLE_COUNTERS_EXP, 3, rec, 24);
	ck_assert_int_eq(decode_fails(buf, n, &err), SFLOW_ERR_FORMAT);
	ck_assert_str_eq(err.msg, "offset 52: counter record 0:1005 length 16, expected 12");

	/* port_name with an empty body */
	tu_put32(rec, SFLOW_CTR_PORT_NAME);
	tu_put32(rec + 4, 0);
	n = tu_wrap_record(buf, sizeof buf, SFLOW_SAMPLE_COUNTERS_EXP, 3, rec, 8);
	ck_assert_int_eq(decode_fails(buf, n, &err), SFLOW_ERR_FORMAT);
	ck_assert_str_eq(err.msg, "offset 52: counter record 0:1005 length 0, expected at least 4");

	/* sampled_header whose header length says 7 (needs 16 + 8 = 24: OK)
	 * and 9 (needs 28) */
	memcpy(rec, vec_d1 + 156, 32);
	tu_put32(rec + 8 + 12, 7);
	n = tu_wrap_record(buf, sizeof buf, SFLOW_SAMPLE_FLOW_EXP, 10, rec, 32);
	{
		struct sflow_datagram d;

		ck_assert_int_eq(sflow_decode(buf, n, NULL, &d, &err), SFLOW_OK);
		ck_assert_uint_eq(d.samples[0].records[0].u.header.header_length, 7);
		sflow_datagram_free(&d);
	}
	tu_put32(rec + 8 + 12, 9);
	n = tu_wrap_record(buf, sizeof buf, SFLOW_SAMPLE_FLOW_EXP, 10, rec, 32);
	ck_assert_int_eq(decode_fails(buf, n, &err), SFLOW_ERR_FORMAT);
	ck_assert_str_eq(err.msg, "offset 80: flow record 0:1 length 24, expected 28");
	tu_put32(rec + 8 + 12, 0xFFFFFFFFu);
	n = tu_wrap_record(buf, sizeof buf, SFLOW_SAMPLE_FLOW_EXP, 10, rec, 32);
	ck_assert_int_eq(decode_fails(buf, n, &err), SFLOW_ERR_FORMAT);
	ck_assert_str_eq(err.msg, "offset 80: flow record 0:1 length 24, expected 4294967312");

	/* extended_function "enqueue" declared 8 long */
	memcpy(rec, vec_d1 + 200, 20);
	tu_put32(rec + 4, 8);
	n = tu_wrap_record(buf, sizeof buf, SFLOW_SAMPLE_DISCARD, 7, rec, 16);
	ck_assert_int_eq(decode_fails(buf, n, &err), SFLOW_ERR_FORMAT);
	ck_assert_str_eq(err.msg, "offset 68: flow record 0:1038 length 8, expected 12");

	/* extended_hw_trap: group "abcd", trap "tail_drop" (4 + 4, 4 + 12) */
	memset(rec, 0, sizeof rec);
	tu_put32(rec, SFLOW_FLOW_HW_TRAP);
	tu_put32(rec + 4, 24);
	tu_put32(rec + 8, 4);
	memcpy(rec + 12, "abcd", 4);
	tu_put32(rec + 16, 9);
	memcpy(rec + 20, "tail_drop", 9);
	n = tu_wrap_record(buf, sizeof buf, SFLOW_SAMPLE_DISCARD, 7, rec, 32);
	{
		struct sflow_datagram d;

		ck_assert_int_eq(sflow_decode(buf, n, NULL, &d, &err), SFLOW_OK);
		ck_assert_int_eq(d.samples[0].records[0].kind, SFLOW_REC_HW_TRAP);
		ck_assert_uint_eq(d.samples[0].records[0].u.hw_trap.trap_len, 9);
		sflow_datagram_free(&d);
	}
	/* ... declared 16 long: the trap runs past it */
	tu_put32(rec + 4, 16);
	n = tu_wrap_record(buf, sizeof buf, SFLOW_SAMPLE_DISCARD, 7, rec, 24);
	ck_assert_int_eq(decode_fails(buf, n, &err), SFLOW_ERR_FORMAT);
	ck_assert_str_eq(err.msg, "offset 68: flow record 0:1041 length 16, expected 24");
	/* ... a group of 100 bytes in 24 */
	tu_put32(rec + 4, 24);
	tu_put32(rec + 8, 100);
	n = tu_wrap_record(buf, sizeof buf, SFLOW_SAMPLE_DISCARD, 7, rec, 32);
	ck_assert_int_eq(decode_fails(buf, n, &err), SFLOW_ERR_FORMAT);
	ck_assert_str_eq(err.msg, "offset 68: flow record 0:1041 length 24, expected at least 108");
	/* extended_linux_reason "QDISC_DROP" declared 12 long */
	memset(rec, 0, sizeof rec);
	tu_put32(rec, SFLOW_FLOW_LINUX_REASON);
	tu_put32(rec + 4, 12);
	tu_put32(rec + 8, 10);
	memcpy(rec + 12, "QDISC_DROP", 10);
	n = tu_wrap_record(buf, sizeof buf, SFLOW_SAMPLE_DISCARD, 7, rec, 20);
	ck_assert_int_eq(decode_fails(buf, n, &err), SFLOW_ERR_FORMAT);
	ck_assert_str_eq(err.msg, "offset 68: flow record 0:1042 length 12, expected 16");
}
END_TEST

START_TEST(framing_errors)
{
	uint8_t buf[512];
	struct sflow_decode_error err;

	/* a sample length that is not a multiple of 4 */
	memcpy(buf, vec_d1, sizeof vec_d1);
	tu_put32(buf + 32, 81);
	ck_assert_int_eq(decode_fails(buf, sizeof vec_d1, &err), SFLOW_ERR_FORMAT);
	ck_assert_str_eq(err.msg, "offset 28: sample 0:4 length 81 is not a multiple of 4");

	/* a record length that is not a multiple of 4 */
	memcpy(buf, vec_d1, sizeof vec_d1);
	tu_put32(buf + 56, 13);
	ck_assert_int_eq(decode_fails(buf, sizeof vec_d1, &err), SFLOW_ERR_FORMAT);
	ck_assert_str_eq(err.msg, "offset 52: counter record 0:1005 length 13 is not a multiple "
				  "of 4");

	/* a record running past its sample */
	memcpy(buf, vec_d1, sizeof vec_d1);
	tu_put32(buf + 76, 40);
	ck_assert_int_eq(decode_fails(buf, sizeof vec_d1, &err), SFLOW_ERR_FORMAT);
	ck_assert_str_eq(err.msg, "offset 72: counter record 4413:2 length 40 exceeds the 36 "
				  "bytes left in sample 0:4");

	/* a sample longer than its records (record count 1 instead of 2) */
	memcpy(buf, vec_d1, sizeof vec_d1);
	tu_put32(buf + 48, 1);
	ck_assert_int_eq(decode_fails(buf, sizeof vec_d1, &err), SFLOW_ERR_FORMAT);
	ck_assert_str_eq(err.msg, "offset 72: sample 0:4 (at offset 28) length 80, but its 1 "
				  "records end 44 bytes before its end");

	/* a record count of 3 where only 2 records fit */
	memcpy(buf, vec_d1, sizeof vec_d1);
	tu_put32(buf + 48, 3);
	ck_assert_int_eq(decode_fails(buf, sizeof vec_d1, &err), SFLOW_ERR_FORMAT);
	ck_assert_str_eq(err.msg, "offset 116: sample 0:4 (at offset 28) length 80 ends inside "
				  "record data_format");

	/* bytes after the last sample */
	memcpy(buf, vec_d1, sizeof vec_d1);
	memset(buf + sizeof vec_d1, 0, 8);
	ck_assert_int_eq(decode_fails(buf, sizeof vec_d1 + 8, &err), SFLOW_ERR_FORMAT);
	ck_assert_str_eq(err.msg, "offset 348: 8 bytes after the last of 3 samples");

	/* a known sample too short for its own fixed fields */
	{
		static const uint8_t short_flow[] = {
		    0, 0, 0, 5, 0, 0, 0, 1, 1, 2, 3, 4, 0, 0,
		    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, /* 1 sample */
		    0, 0, 0, 3, 0, 0, 0, 8,		      /* 0:3, length 8 */
		    0, 0, 0, 1, 0, 0, 0, 0,
		};
		ck_assert_int_eq(decode_fails(short_flow, sizeof short_flow, &err),
				 SFLOW_ERR_FORMAT);
		ck_assert_str_eq(err.msg, "offset 44: sample 0:3 (at offset 28) length 8 ends "
					  "inside source_id_index");
	}
}
END_TEST

START_TEST(absurd_counts)
{
	uint8_t buf[512];
	struct sflow_decode_error err;

	/* 2^31 samples in a 348-byte datagram: refused before any allocation */
	memcpy(buf, vec_d1, sizeof vec_d1);
	tu_put32(buf + 24, 0x80000000u);
	ck_assert_int_eq(decode_fails(buf, sizeof vec_d1, &err), SFLOW_ERR_FORMAT);
	ck_assert_str_eq(err.msg, "offset 24: sample count 2147483648 needs at least 17179869184 "
				  "bytes, only 320 left");
	tu_put32(buf + 24, 0xFFFFFFFFu);
	ck_assert_int_eq(decode_fails(buf, sizeof vec_d1, &err), SFLOW_ERR_FORMAT);

	/* 41 samples of 8 bytes would need 328 > 320: refused; 3 is right */
	tu_put32(buf + 24, 41);
	ck_assert_int_eq(decode_fails(buf, sizeof vec_d1, &err), SFLOW_ERR_FORMAT);
	ck_assert_str_eq(err.msg, "offset 24: sample count 41 needs at least 328 bytes, only 320 "
				  "left");

	/* 9 records of at least 8 bytes cannot fit in sample A's 64 bytes */
	memcpy(buf, vec_d1, sizeof vec_d1);
	tu_put32(buf + 48, 9);
	ck_assert_int_eq(decode_fails(buf, sizeof vec_d1, &err), SFLOW_ERR_FORMAT);
	ck_assert_str_eq(err.msg, "offset 48: sample 0:4 record count 9 needs at least 72 bytes, "
				  "only 64 left");

	/* 2^32 - 1 records */
	memcpy(buf, vec_d1, sizeof vec_d1);
	tu_put32(buf + 48, 0xFFFFFFFFu);
	ck_assert_int_eq(decode_fails(buf, sizeof vec_d1, &err), SFLOW_ERR_FORMAT);
	ck_assert_str_eq(err.msg, "offset 48: sample 0:4 record count 4294967295 needs at least "
				  "34359738360 bytes, only 64 left");
}
END_TEST

START_TEST(bad_version_and_address)
{
	uint8_t buf[512];
	struct sflow_decode_error err;
	struct sflow_datagram d;

	memcpy(buf, vec_d1, sizeof vec_d1);
	tu_put32(buf, 4);
	ck_assert_int_eq(decode_fails(buf, sizeof vec_d1, &err), SFLOW_ERR_FORMAT);
	ck_assert_str_eq(err.msg, "offset 0: datagram version 4, expected 5");
	tu_put32(buf, 0x05000000u); /* little-endian 5 */
	ck_assert_int_eq(decode_fails(buf, sizeof vec_d1, &err), SFLOW_ERR_FORMAT);

	memcpy(buf, vec_d1, sizeof vec_d1);
	tu_put32(buf + 4, 3);
	ck_assert_int_eq(decode_fails(buf, sizeof vec_d1, &err), SFLOW_ERR_FORMAT);
	ck_assert_uint_eq(err.offset, 4);
	ck_assert_str_eq(err.msg, "offset 4: agent address type 3, expected 1 (IPv4) or 2 (IPv6)");

	/* an IPv4 datagram relabelled IPv6 no longer adds up */
	memcpy(buf, vec_d1, sizeof vec_d1);
	tu_put32(buf + 4, 2);
	decode_fails(buf, sizeof vec_d1, &err);

	/* address type 0 (unknown: no address bytes) is valid XDR */
	{
		static const uint8_t none[] = {0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 1,
					       0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 0};

		ck_assert_int_eq(sflow_decode(none, sizeof none, NULL, &d, &err), SFLOW_OK);
		ck_assert_uint_eq(d.agent.type, SFLOW_ADDR_UNKNOWN);
		ck_assert_uint_eq(d.sub_agent_id, 1);
		ck_assert_uint_eq(d.sequence_number, 2);
		ck_assert_uint_eq(d.uptime_ms, 3);
		ck_assert_uint_eq(d.nsamples, 0);
		ck_assert_ptr_null(d.samples);
		sflow_datagram_free(&d);
	}

	/* no input at all */
	ck_assert_int_eq(sflow_decode(NULL, 0, NULL, &d, &err), SFLOW_ERR_TRUNC);
	ck_assert_int_eq(sflow_decode(NULL, 4, NULL, &d, &err), SFLOW_ERR_INVALID);
	ck_assert_int_eq(sflow_decode(vec_d1, sizeof vec_d1, NULL, NULL, &err), SFLOW_ERR_INVALID);
	/* err may be NULL */
	ck_assert_int_eq(sflow_decode(vec_d1, 3, NULL, &d, NULL), SFLOW_ERR_TRUNC);
}
END_TEST

START_TEST(flip_every_byte)
{
	/* every single-byte change of D1 decodes or fails cleanly; a change
	 * inside a known length field never decodes */
	uint8_t *buf = malloc(sizeof vec_d1);
	size_t i;
	unsigned v;

	ck_assert_ptr_nonnull(buf);
	for (i = 0; i < sizeof vec_d1; i++) {
		for (v = 0; v < 256; v += 51) {
			struct sflow_datagram d;
			struct sflow_decode_error err;
			int e;

			memcpy(buf, vec_d1, sizeof vec_d1);
			buf[i] ^= (uint8_t)(v | 1);
			e = sflow_decode(buf, sizeof vec_d1, NULL, &d, &err);
			if (e == SFLOW_OK)
				sflow_datagram_free(&d);
			else
				ck_assert_msg(strncmp(err.msg, "offset ", 7) == 0, "%s", err.msg);
			/* lengths of sample A, its two records: always fatal */
			if ((i >= 32 && i < 36) || (i >= 56 && i < 60) || (i >= 76 && i < 80))
				ck_assert_int_ne(e, SFLOW_OK);
		}
	}
	free(buf);
}
END_TEST

static Suite *errors_suite(void)
{
	Suite *s = suite_create("decode_errors");
	TCase *tc = tcase_create("errors");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, truncate_every_byte);
	tcase_add_test(tc, truncation_messages);
	tcase_add_test(tc, wrong_fixed_record_length);
	tcase_add_test(tc, wrong_lengths_each_fixed_record);
	tcase_add_test(tc, variable_record_lengths);
	tcase_add_test(tc, framing_errors);
	tcase_add_test(tc, absurd_counts);
	tcase_add_test(tc, bad_version_and_address);
	tcase_add_test(tc, flip_every_byte);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(errors_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
