/*
 * proto/tests/ownrec.h - what the unit tests of single own counter
 * records share (header-only, static inline, for Check tests): a byte
 * vector written word by word in big-endian (the hand-written expected
 * record: tag, length, body), its decoding as a counter record of the
 * default own enterprise, and the check that every truncation of the body
 * and one word too many are refused.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_PROTO_TESTS_OWNREC_H
#define BSFLOWD_PROTO_TESTS_OWNREC_H

#include <check.h>
#include <stdint.h>
#include <string.h>

#include "proto/sflow_decode.h"
#include "proto/sflow_own.h"

#define ENT 32473u
/* 32473 << 12 = 0x07ED9000 */
#define TAG(f) (0x07ED9000u | (f))
#define CTRS   SFLOW_SAMPLE_COUNTERS_EXP

struct vec {
	uint8_t b[2048];
	size_t n;
};

static inline void vw(struct vec *v, uint32_t x)
{
	v->b[v->n++] = (uint8_t)(x >> 24);
	v->b[v->n++] = (uint8_t)(x >> 16);
	v->b[v->n++] = (uint8_t)(x >> 8);
	v->b[v->n++] = (uint8_t)x;
}

/* The record in v (tag and length first), decoded from body_len bytes of
 * its body. */
static inline int dec(const struct vec *v, size_t body_len, struct sflow_own_record *out)
{
	struct sflow_r r;
	sflow_r_init(&r, v->b + 8, body_len, 8);
	return sflow_own_decode_record(SFLOW_TAG_FORMAT(TAG(v->b[3])), CTRS, &r, out);
}

/* Every truncation and one word too many: errors. */
static inline void check_errors(const struct vec *v)
{
	struct sflow_own_record o;
	for (size_t n = 0; n < v->n - 8; n += 4)
		ck_assert_int_lt(dec(v, n, &o), 0);
	struct vec t = *v;
	vw(&t, 0);
	ck_assert_int_lt(dec(&t, t.n - 8, &o), 0);
}

#endif
