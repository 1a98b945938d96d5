/*
 * testutil.h - small helpers for the proto/ unit tests: a byte-exact
 * comparison that names the first differing offset, and big-endian
 * writers used to build test inputs independently of the encoder.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_PROTO_TESTS_TESTUTIL_H
#define BSFLOWD_PROTO_TESTS_TESTUTIL_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Fails the test at the first byte that differs, or on a length mismatch. */
#define ck_assert_bytes(got, glen, want, wlen)                                                     \
	do {                                                                                       \
		const uint8_t *g_ = (const uint8_t *)(got);                                        \
		const uint8_t *w_ = (const uint8_t *)(want);                                       \
		size_t gl_ = (glen), wl_ = (wlen), i_;                                             \
		for (i_ = 0; i_ < gl_ && i_ < wl_; i_++)                                           \
			ck_assert_msg(g_[i_] == w_[i_], "byte %zu: got 0x%02x, want 0x%02x", i_,   \
				      g_[i_], w_[i_]);                                             \
		ck_assert_msg(gl_ == wl_, "length: got %zu, want %zu", gl_, wl_);                  \
	} while (0)

static inline void tu_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline uint32_t tu_get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/*
 * Wrap record bytes (tag, length, body) into a whole datagram by hand:
 * IPv4 header (28 bytes, agent 192.0.2.1, 1 sample), then one expanded
 * sample of the given tag with `fixed` words of header fields (3 for a
 * counters sample, 10 for a flow sample, 7 for a discard sample), all set
 * to their index + 1, then a record count of 1 and the record.  The first
 * record starts at offset 28 + 8 + 4 * fixed + 4.  Returns the length.
 */
static inline size_t tu_wrap_record(uint8_t *out, size_t cap, uint32_t sample_tag, unsigned fixed,
				    const uint8_t *rec, size_t rec_len)
{
	static const uint8_t hdr[28] = {0, 0, 0, 5, 0, 0, 0, 1, 192, 0, 2, 1, 0, 0,
					0, 0, 0, 0, 0, 1, 0, 0, 0,   1, 0, 0, 0, 1};
	size_t n = 0;
	unsigned i;

	ck_assert_uint_le(28 + 8 + 4 * fixed + 4 + rec_len, cap);
	memcpy(out, hdr, 28);
	n = 28;
	tu_put32(out + n, sample_tag);
	tu_put32(out + n + 4, (uint32_t)(4 * fixed + 4 + rec_len));
	n += 8;
	for (i = 0; i < fixed; i++, n += 4)
		tu_put32(out + n, i + 1);
	tu_put32(out + n, 1);
	n += 4;
	memcpy(out + n, rec, rec_len);
	return n + rec_len;
}

#endif
