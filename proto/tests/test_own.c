/*
 * test_own.c - unit tests of bsflowd's own sFlow structures (sflow_own.c):
 * each record's encoding against hand-written big-endian words from the
 * XDR in sflow_own.h, decoding of the same bytes back to the values,
 * truncated bodies, wrong counts and left-over bytes as errors, and one
 * record through the whole datagram decoder.  The visibility event sample
 * E:1 (with its E:1 record and standard flow records), a 0:5 carrying
 * the drop's E:1 record, and the sampler
 * statistics E:7 (names of different lengths: padding) the same way, and
 * round trips of random values.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "proto/sflow_decode.h"
#include "proto/sflow_encode.h"
#include "proto/sflow_own.h"

#define ENT 32473u
/* 32473 << 12 = 0x07ED9000 */
#define TAG(f) (0x07ED9000u | (f))

/* A byte vector written as 32-bit big-endian words. */
struct vec {
	uint8_t b[2048];
	size_t n;
};

static void vw(struct vec *v, uint32_t x)
{
	v->b[v->n++] = (uint8_t)(x >> 24);
	v->b[v->n++] = (uint8_t)(x >> 16);
	v->b[v->n++] = (uint8_t)(x >> 8);
	v->b[v->n++] = (uint8_t)x;
}

static void vws(struct vec *v, const uint32_t *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		vw(v, w[i]);
}

/* Four buffers as words (cur_cells, cur_bytes, peak_cells, peak_bytes,
 * alloc_cells, peak_pc, peak_time hi, lo) and as values. */
static const uint32_t WA[8] = {1, 256, 2, 512, 4, 5000, 0x00000001, 0x00000002};
static const uint32_t WB[8] = {0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF,
			       0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF};
static const uint32_t WC[8] = {0x10, 0x800, 0x20, 0x1000, 0x40, 0x1388, 0x17A2B3C4, 0xD5E6F708};
static const uint32_t WD[8] = {0, 0, 0, 0, 0, 0, 0, 0};

static const struct sflow_own_buffer BA = {1, 256, 2, 512, 4, 5000, 0x0000000100000002ull};
static const struct sflow_own_buffer BB = {0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF,		 0xFFFFFFFF,
					   0xFFFFFFFF, -1,	   0xFFFFFFFFFFFFFFFFull};
static const struct sflow_own_buffer BC = {16, 2048, 32, 4096, 64, 5000, 0x17A2B3C4D5E6F708ull};
static const struct sflow_own_buffer BD = {0, 0, 0, 0, 0, 0, 0};

static void check_buf(const struct sflow_own_buffer *got, const struct sflow_own_buffer *want)
{
	ck_assert_uint_eq(got->cur_cells, want->cur_cells);
	ck_assert_uint_eq(got->cur_bytes, want->cur_bytes);
	ck_assert_uint_eq(got->peak_cells, want->peak_cells);
	ck_assert_uint_eq(got->peak_bytes, want->peak_bytes);
	ck_assert_uint_eq(got->alloc_cells, want->alloc_cells);
	ck_assert_int_eq(got->peak_pc, want->peak_pc);
	ck_assert_uint_eq(got->peak_time_ns, want->peak_time_ns);
}

/* Expected record = tag, body length, body. */
static void rec_head(struct vec *v, uint32_t fmt, uint32_t body_len)
{
	v->n = 0;
	vw(v, TAG(fmt));
	vw(v, body_len);
}

/* Compare what the encoder wrote with the expected bytes. */
static void check_enc(const struct sflow_w *w, const struct sflow_sample_enc *s,
		      const struct vec *want)
{
	ck_assert_int_eq(w->err, SFLOW_OK);
	ck_assert_uint_eq(s->nrecords, 1);
	ck_assert_uint_eq(w->len, want->n);
	ck_assert_mem_eq(w->buf, want->b, want->n);
}

/* Decode the body of an expected record (after tag and length), with
 * body_len bytes of it. */
static int dec(const struct vec *v, size_t body_len, uint32_t in_sample,
	       struct sflow_own_record *out)
{
	struct sflow_r r;
	uint32_t tag =
	    (uint32_t)v->b[0] << 24 | (uint32_t)v->b[1] << 16 | (uint32_t)v->b[2] << 8 | v->b[3];
	sflow_r_init(&r, v->b + 8, body_len, 8);
	return sflow_own_decode_record(SFLOW_TAG_FORMAT(tag), in_sample, &r, out);
}

#define CTRS SFLOW_SAMPLE_COUNTERS_EXP

/* Truncated bodies (every shorter multiple of 4) are errors. */
static void check_truncations(const struct vec *v)
{
	struct sflow_own_record o;
	size_t body = v->n - 8;
	for (size_t n = 0; n < body; n += 4)
		ck_assert_int_lt(dec(v, n, CTRS, &o), 0);
}

/* A body with 4 extra bytes is an error too (lengths are exact). */
static void check_trailing(const struct vec *v0)
{
	struct vec v = *v0;
	struct sflow_own_record o;
	vw(&v, 0);
	ck_assert_int_lt(dec(&v, v.n - 8, CTRS, &o), 0);
}

/* ---- E:1 */

static void vec_port(struct vec *v)
{
	rec_head(v, 1, 128);
	vws(v, WA, 8);
	vws(v, WB, 8);
	vws(v, WC, 8);
	vws(v, WD, 8);
}

START_TEST(port_buffers)
{
	struct vec want;
	uint8_t buf[256];
	struct sflow_w w;
	struct sflow_sample_enc s = {0};
	struct sflow_own_port_buffers pb = {BA, BB, BC, BD};
	struct sflow_own_record o;

	vec_port(&want);
	sflow_w_init(&w, buf, sizeof buf);
	sflow_own_enc_port_buffers(&w, &s, ENT, &pb);
	check_enc(&w, &s, &want);

	ck_assert_int_eq(dec(&want, 128, CTRS, &o), SFLOW_OK);
	ck_assert_uint_eq(o.format, SFLOW_OWN_PORT_BUFFERS);
	check_buf(&o.u.port.ingress_uc, &BA);
	check_buf(&o.u.port.ingress_mc, &BB);
	check_buf(&o.u.port.egress_uc, &BC);
	check_buf(&o.u.port.egress_mc, &BD);
	check_truncations(&want);
	check_trailing(&want);
	/* also known inside a compact counters sample; not inside a flow sample */
	ck_assert_int_eq(dec(&want, 128, SFLOW_SAMPLE_COUNTERS, &o), SFLOW_OK);
	ck_assert_int_eq(dec(&want, 128, SFLOW_SAMPLE_FLOW_EXP, &o), 1);
	ck_assert_str_eq(sflow_own_record_name(1, CTRS), "port_buffers");
	ck_assert_ptr_null(sflow_own_record_name(1, SFLOW_SAMPLE_FLOW_EXP));
}
END_TEST

/* ---- E:2 */

static void vec_queues(struct vec *v)
{
	rec_head(v, 2, 4 + 64 + 4 + 32);
	vw(v, 2);
	vws(v, WA, 8);
	vws(v, WC, 8);
	vw(v, 1);
	vws(v, WB, 8);
}

START_TEST(queue_buffers)
{
	struct vec want;
	uint8_t buf[256];
	struct sflow_w w;
	struct sflow_sample_enc s = {0};
	struct sflow_own_buffer uc[2] = {BA, BC}, mc[1] = {BB}, b;
	struct sflow_own_record o;

	vec_queues(&want);
	sflow_w_init(&w, buf, sizeof buf);
	sflow_own_enc_queue_buffers(&w, &s, ENT, uc, 2, mc, 1);
	check_enc(&w, &s, &want);

	ck_assert_int_eq(dec(&want, want.n - 8, CTRS, &o), SFLOW_OK);
	ck_assert_uint_eq(o.u.queues.uc.n, 2);
	ck_assert_uint_eq(o.u.queues.mc.n, 1);
	ck_assert_int_eq(sflow_own_buffer_at(&o.u.queues.uc, 0, &b), 0);
	check_buf(&b, &BA);
	ck_assert_int_eq(sflow_own_buffer_at(&o.u.queues.uc, 1, &b), 0);
	check_buf(&b, &BC);
	ck_assert_int_eq(sflow_own_buffer_at(&o.u.queues.mc, 0, &b), 0);
	check_buf(&b, &BB);
	ck_assert_int_eq(sflow_own_buffer_at(&o.u.queues.mc, 1, &b), -1);
	ck_assert_int_eq(sflow_own_buffer_at(&o.u.queues.uc, 2, &b), -1);
	check_truncations(&want);
	check_trailing(&want);

	/* uc count 3 (one more than there is): error; mc count 0 with the
	 * mc element still there: left-over bytes, error */
	struct vec bad = want;
	bad.b[8 + 3] = 3;
	ck_assert_int_eq(dec(&bad, bad.n - 8, CTRS, &o), SFLOW_ERR_FORMAT);
	bad = want;
	bad.b[8 + 4 + 64 + 3] = 0;
	ck_assert_int_eq(dec(&bad, bad.n - 8, CTRS, &o), SFLOW_ERR_FORMAT);
	/* a huge count must not overflow the size check */
	bad = want;
	bad.b[8] = 0xFF, bad.b[9] = 0xFF, bad.b[10] = 0xFF, bad.b[11] = 0xFF;
	ck_assert_int_eq(dec(&bad, bad.n - 8, CTRS, &o), SFLOW_ERR_FORMAT);
}
END_TEST

START_TEST(queue_buffers_empty)
{
	struct vec want;
	uint8_t buf[64];
	struct sflow_w w;
	struct sflow_sample_enc s = {0};
	struct sflow_own_record o;

	rec_head(&want, 2, 8);
	vw(&want, 0);
	vw(&want, 0);
	sflow_w_init(&w, buf, sizeof buf);
	sflow_own_enc_queue_buffers(&w, &s, ENT, NULL, 0, NULL, 0);
	check_enc(&w, &s, &want);
	ck_assert_int_eq(dec(&want, 8, CTRS, &o), SFLOW_OK);
	ck_assert_uint_eq(o.u.queues.uc.n, 0);
	ck_assert_uint_eq(o.u.queues.mc.n, 0);
	/* NULL array with a count is a caller error */
	sflow_w_init(&w, buf, sizeof buf);
	sflow_own_enc_queue_buffers(&w, &s, ENT, NULL, 1, NULL, 0);
	ck_assert_int_eq(w.err, SFLOW_ERR_INVALID);
}
END_TEST

/* ---- E:3 */

START_TEST(queue_delays)
{
	struct vec want;
	uint8_t buf[128];
	struct sflow_w w;
	struct sflow_sample_enc s = {0};
	struct sflow_own_qdelay uc[1] = {{1000, 5000, 7, 0xFFFFFFFF}};
	struct sflow_own_qdelay mc[2] = {{0, 0, 0, 12}, {0xFFFFFFFE, 0xFFFFFFFE, 1, 3}};
	struct sflow_own_qdelay d;
	struct sflow_own_record o;

	rec_head(&want, 3, 4 + 16 + 4 + 32);
	vw(&want, 1);
	vw(&want, 0x3E8), vw(&want, 0x1388), vw(&want, 7), vw(&want, 0xFFFFFFFF);
	vw(&want, 2);
	vw(&want, 0), vw(&want, 0), vw(&want, 0), vw(&want, 0xC);
	vw(&want, 0xFFFFFFFE), vw(&want, 0xFFFFFFFE), vw(&want, 1), vw(&want, 3);

	sflow_w_init(&w, buf, sizeof buf);
	sflow_own_enc_queue_delays(&w, &s, ENT, uc, 1, mc, 2);
	check_enc(&w, &s, &want);

	ck_assert_int_eq(dec(&want, want.n - 8, CTRS, &o), SFLOW_OK);
	ck_assert_uint_eq(o.format, SFLOW_OWN_QUEUE_DELAYS);
	ck_assert_uint_eq(o.u.delays.uc.n, 1);
	ck_assert_uint_eq(o.u.delays.mc.n, 2);
	ck_assert_int_eq(sflow_own_qdelay_at(&o.u.delays.uc, 0, &d), 0);
	ck_assert_uint_eq(d.latest_ns, 1000);
	ck_assert_uint_eq(d.max_ns, 5000);
	ck_assert_uint_eq(d.count, 7);
	ck_assert_uint_eq(d.marker_ns, 0xFFFFFFFF);
	ck_assert_int_eq(sflow_own_qdelay_at(&o.u.delays.mc, 1, &d), 0);
	ck_assert_uint_eq(d.latest_ns, 0xFFFFFFFE);
	ck_assert_uint_eq(d.count, 1);
	ck_assert_uint_eq(d.marker_ns, 3);
	ck_assert_int_eq(sflow_own_qdelay_at(&o.u.delays.mc, 2, &d), -1);
	check_truncations(&want);
	check_trailing(&want);
	struct vec bad = want;
	bad.b[8 + 3] = 2; /* uc count 2: eats the mc count, then runs out */
	ck_assert_int_lt(dec(&bad, bad.n - 8, CTRS, &o), 0);
	ck_assert_str_eq(sflow_own_record_name(3, CTRS), "queue_delays");
}
END_TEST

/* ---- E:4 */

START_TEST(pg_buffers)
{
	struct vec want;
	uint8_t buf[256];
	struct sflow_w w;
	struct sflow_sample_enc s = {0};
	struct sflow_own_pg pgs[2] = {{BA, BB}, {BC, BD}}, p;
	struct sflow_own_record o;

	rec_head(&want, 4, 4 + 128);
	vw(&want, 2);
	vws(&want, WA, 8), vws(&want, WB, 8), vws(&want, WC, 8), vws(&want, WD, 8);
	sflow_w_init(&w, buf, sizeof buf);
	sflow_own_enc_pg_buffers(&w, &s, ENT, pgs, 2);
	check_enc(&w, &s, &want);

	ck_assert_int_eq(dec(&want, want.n - 8, CTRS, &o), SFLOW_OK);
	ck_assert_uint_eq(o.u.pgs.pgs.n, 2);
	ck_assert_int_eq(sflow_own_pg_at(&o.u.pgs.pgs, 0, &p), 0);
	check_buf(&p.shared, &BA);
	check_buf(&p.headroom, &BB);
	ck_assert_int_eq(sflow_own_pg_at(&o.u.pgs.pgs, 1, &p), 0);
	check_buf(&p.shared, &BC);
	check_buf(&p.headroom, &BD);
	ck_assert_int_eq(sflow_own_pg_at(&o.u.pgs.pgs, 2, &p), -1);
	check_truncations(&want);
	check_trailing(&want);
	struct vec bad = want;
	bad.b[8 + 3] = 1; /* count 1 with 2 PGs' bytes: left over */
	ck_assert_int_eq(dec(&bad, bad.n - 8, CTRS, &o), SFLOW_ERR_FORMAT);
	ck_assert_str_eq(sflow_own_record_name(4, CTRS), "pg_buffers");
}
END_TEST

/* ---- E:5 */

START_TEST(device_pools)
{
	struct vec want;
	uint8_t buf[256];
	struct sflow_w w;
	struct sflow_sample_enc s = {0};
	struct sflow_own_buffer ing[1] = {BC}, egr[2] = {BA, BB}, b;
	struct sflow_own_record o;

	rec_head(&want, 5, 8 + 64 + 4 + 32 + 4 + 64);
	vw(&want, 256);
	vw(&want, 0x00020000);
	vws(&want, WA, 8), vws(&want, WB, 8);
	vw(&want, 1), vws(&want, WC, 8);
	vw(&want, 2), vws(&want, WA, 8), vws(&want, WB, 8);
	sflow_w_init(&w, buf, sizeof buf);
	sflow_own_enc_device_pools(&w, &s, ENT, 256, 131072, &BA, &BB, ing, 1, egr, 2);
	check_enc(&w, &s, &want);

	ck_assert_int_eq(dec(&want, want.n - 8, CTRS, &o), SFLOW_OK);
	ck_assert_uint_eq(o.format, SFLOW_OWN_DEVICE_POOLS);
	ck_assert_uint_eq(o.u.pools.cell_bytes, 256);
	ck_assert_uint_eq(o.u.pools.total_cells, 131072);
	check_buf(&o.u.pools.uc, &BA);
	check_buf(&o.u.pools.mc, &BB);
	ck_assert_uint_eq(o.u.pools.ingress.n, 1);
	ck_assert_uint_eq(o.u.pools.egress.n, 2);
	ck_assert_int_eq(sflow_own_buffer_at(&o.u.pools.ingress, 0, &b), 0);
	check_buf(&b, &BC);
	ck_assert_int_eq(sflow_own_buffer_at(&o.u.pools.egress, 1, &b), 0);
	check_buf(&b, &BB);
	check_truncations(&want);
	check_trailing(&want);
	struct vec bad = want;
	bad.b[8 + 8 + 64 + 3] = 2; /* ingress count 2 */
	ck_assert_int_lt(dec(&bad, bad.n - 8, CTRS, &o), 0);
	ck_assert_str_eq(sflow_own_record_name(5, CTRS), "device_pools");
}
END_TEST

/* ---- E:6 */

START_TEST(cpu_queues)
{
	struct vec want;
	uint8_t buf[256];
	struct sflow_w w;
	struct sflow_sample_enc s = {0};
	struct sflow_own_buffer q[3] = {BD, BC, BA}, b;
	struct sflow_own_record o;

	rec_head(&want, 6, 4 + 96);
	vw(&want, 3), vws(&want, WD, 8), vws(&want, WC, 8), vws(&want, WA, 8);
	sflow_w_init(&w, buf, sizeof buf);
	sflow_own_enc_cpu_queues(&w, &s, ENT, q, 3);
	check_enc(&w, &s, &want);

	ck_assert_int_eq(dec(&want, want.n - 8, CTRS, &o), SFLOW_OK);
	ck_assert_uint_eq(o.u.cpu.queues.n, 3);
	for (uint32_t i = 0; i < 3; i++) {
		ck_assert_int_eq(sflow_own_buffer_at(&o.u.cpu.queues, i, &b), 0);
		check_buf(&b, &q[i]);
	}
	check_truncations(&want);
	check_trailing(&want);
	struct vec bad = want;
	bad.b[8 + 3] = 4;
	ck_assert_int_eq(dec(&bad, bad.n - 8, CTRS, &o), SFLOW_ERR_FORMAT);
	ck_assert_str_eq(sflow_own_record_name(6, CTRS), "cpu_queues");
}
END_TEST

/* ---- others */

START_TEST(unknown_formats)
{
	struct vec v;
	struct sflow_own_record o;
	struct sflow_own_sample os;
	struct sflow_r r;

	rec_head(&v, 14, 4);
	vw(&v, 0);
	ck_assert_int_eq(dec(&v, 4, CTRS, &o), 1); /* E:14: reserved */
	v.b[3] = 0xFF;				   /* format 0xFFF */
	ck_assert_int_eq(dec(&v, 4, CTRS, &o), 1);
	ck_assert_ptr_null(sflow_own_record_name(14, CTRS));
	ck_assert_ptr_null(sflow_own_record_name(0, CTRS));
	sflow_r_init(&r, v.b + 8, 4, 0);
	ck_assert_int_eq(sflow_own_decode_sample(2, &r, &os), 1);
	ck_assert_ptr_null(sflow_own_sample_name(2));
	ck_assert_ptr_null(sflow_own_sample_name(0));
}
END_TEST

START_TEST(encoder_full)
{
	/* 100 bytes cannot hold E:1 (136): the writer fails and never writes
	 * past its capacity */
	uint8_t buf[160];
	struct sflow_w w;
	struct sflow_sample_enc s = {0};
	struct sflow_own_port_buffers pb = {BA, BB, BC, BD};

	memset(buf, 0xAA, sizeof buf);
	sflow_w_init(&w, buf, 100);
	sflow_own_enc_port_buffers(&w, &s, ENT, &pb);
	ck_assert_int_eq(w.err, SFLOW_ERR_FULL);
	for (size_t i = 100; i < sizeof buf; i++)
		ck_assert_uint_eq(buf[i], 0xAA);
}
END_TEST

START_TEST(u32_conversion)
{
	ck_assert_uint_eq(sflow_own_u32(UINT64_MAX), 0xFFFFFFFFu);
	ck_assert_uint_eq(sflow_own_u32(0xFFFFFFFFull), 0xFFFFFFFEu);
	ck_assert_uint_eq(sflow_own_u32(0x100000000ull), 0xFFFFFFFEu);
	ck_assert_uint_eq(sflow_own_u32(0xFFFFFFFEull), 0xFFFFFFFEu);
	ck_assert_uint_eq(sflow_own_u32(5), 5);
}
END_TEST

/* One own record inside a whole datagram, through sflow_decode(). */
START_TEST(through_decoder)
{
	struct vec rec, d;
	struct sflow_datagram dg;
	struct sflow_decode_error err;
	struct sflow_decode_opts opts = {.own_enterprise = ENT};

	vec_port(&rec);
	d.n = 0;
	vw(&d, 5), vw(&d, 1), vw(&d, 0x7F000001), vw(&d, 0), vw(&d, 9), vw(&d, 1000);
	vw(&d, 1);			 /* samples */
	vw(&d, 4), vw(&d, 12 + 4 + 136); /* 0:4, length */
	vw(&d, 1), vw(&d, 0), vw(&d, 3); /* seq, ifIndex 3 */
	vw(&d, 1);			 /* records */
	memcpy(d.b + d.n, rec.b, rec.n);
	d.n += rec.n;

	ck_assert_int_eq(sflow_decode(d.b, d.n, &opts, &dg, &err), SFLOW_OK);
	ck_assert_uint_eq(dg.nsamples, 1);
	ck_assert_uint_eq(dg.samples[0].nrecords, 1);
	const struct sflow_record *r = &dg.samples[0].records[0];
	ck_assert_int_eq(r->kind, SFLOW_REC_OWN);
	ck_assert_uint_eq(r->u.own.format, SFLOW_OWN_PORT_BUFFERS);
	check_buf(&r->u.own.u.port.egress_uc, &BC);
	sflow_datagram_free(&dg);

	/* the same under another enterprise: kept as unknown */
	opts.own_enterprise = 12345;
	ck_assert_int_eq(sflow_decode(d.b, d.n, &opts, &dg, &err), SFLOW_OK);
	ck_assert_int_eq(dg.samples[0].records[0].kind, SFLOW_REC_UNKNOWN);
	sflow_datagram_free(&dg);

	/* a bad own record body fails the datagram */
	opts.own_enterprise = ENT;
	d.n -= 4;	      /* drop the last word ... */
	d.b[8 * 4 + 3] -= 4;  /* ... from the sample length (word 8) */
	d.b[14 * 4 + 3] -= 4; /* ... and from the record length (word 14) */
	ck_assert_int_ne(sflow_decode(d.b, d.n, &opts, &dg, &err), SFLOW_OK);
}
END_TEST

/* ---- E:1 visibility event sample and its E:1 record */

#define EVS TAG(1) /* the enclosing sample's tag: own E:1 */

/* Truncated bodies and a trailing word are errors, for a record of any
 * enclosing sample. */
static void check_truncations_in(const struct vec *v, uint32_t in_sample)
{
	struct sflow_own_record o;
	struct vec t = *v;
	for (size_t n = 0; n < v->n - 8; n += 4)
		ck_assert_int_lt(dec(v, n, in_sample, &o), 0);
	vw(&t, 0);
	ck_assert_int_lt(dec(&t, t.n - 8, in_sample, &o), 0);
}

/* high_delay, multicast queue 4: the 18 words of the record body */
static const uint32_t W_EV_DELAY[18] = {
    2,		   /* type high_delay */
    8,		   /* flags: bit 3 multicast queue */
    2,		   /* level */
    3,		   /* severity */
    0x2A,	   /* tag 42 */
    0x00000012,	   /* event_id hi */
    0x3456789A,	   /*          lo */
    0x00000012,	   /* own_id hi */
    0x3456789A,	   /*        lo */
    4,		   /* queue */
    0,		   /* reason */
    0x00018000,	   /* depth 98304 */
    0x0003D090,	   /* delay 250000 ns */
    0,		   /* peak */
    0xFFFFFFFF,	   /* peak_time unknown */
    0xFFFFFFFF, 0, /* duration */
    0,
};
static const struct sflow_own_vis_event EV_DELAY = {
    .type = SFLOW_OWN_VIS_HIGH_DELAY,
    .flags = SFLOW_OWN_VIS_FLAG_MULTICAST,
    .level = 2,
    .severity = 3,
    .tag = 42,
    .event_id = 0x123456789Aull,
    .own_id = 0x123456789Aull,
    .queue = 4,
    .reason = 0,
    .depth = 98304,
    .delay = 250000,
    .peak = 0,
    .peak_time_ns = UINT64_MAX,
    .duration_ns = 0,
};

/* congestion_end of a whole port */
static const uint32_t W_EV_CEND[18] = {
    5,		   /* type congestion_end */
    4,		   /* flags: bit 2 port scope */
    0,		   /* level */
    0,		   /* severity */
    0,		   /* tag */
    0,		   /* event_id 9 */
    9,		   /* */
    0,		   /* own_id 9 */
    9,		   /* */
    0xFFFFFFFF,	   /* queue: port scope */
    0,		   /* reason */
    0xFFFFFFFE,	   /* depth saturated */
    0xFFFFFFFF,	   /* delay unknown */
    0x00200000,	   /* peak 2097152 */
    0x17A2B3C4,	   /* peak_time */
    0xD5E6F708, 0, /* duration 1500000 ns */
    0x0016E360,
};
static const struct sflow_own_vis_event EV_CEND = {
    .type = SFLOW_OWN_VIS_CONGESTION_END,
    .flags = SFLOW_OWN_VIS_FLAG_PORT_SCOPE,
    .event_id = 9,
    .own_id = 9,
    .queue = 0xFFFFFFFF,
    .depth = 0xFFFFFFFE,
    .delay = 0xFFFFFFFF,
    .peak = 2097152,
    .peak_time_ns = 0x17A2B3C4D5E6F708ull,
    .duration_ns = 1500000,
};

static void check_event(const struct sflow_own_vis_event *got,
			const struct sflow_own_vis_event *want)
{
	ck_assert_uint_eq(got->type, want->type);
	ck_assert_uint_eq(got->flags, want->flags);
	ck_assert_uint_eq(got->level, want->level);
	ck_assert_uint_eq(got->severity, want->severity);
	ck_assert_uint_eq(got->tag, want->tag);
	ck_assert_uint_eq(got->event_id, want->event_id);
	ck_assert_uint_eq(got->own_id, want->own_id);
	ck_assert_uint_eq(got->queue, want->queue);
	ck_assert_uint_eq(got->reason, want->reason);
	ck_assert_uint_eq(got->depth, want->depth);
	ck_assert_uint_eq(got->delay, want->delay);
	ck_assert_uint_eq(got->peak, want->peak);
	ck_assert_uint_eq(got->peak_time_ns, want->peak_time_ns);
	ck_assert_uint_eq(got->duration_ns, want->duration_ns);
}

/* The whole E:1 sample (8 + 160 bytes): seq 7, source 0:12, drops 3,
 * input 5, output 12, then the high-delay record, 0:1036 queue 4, 0:1039
 * 250000 ns, 0:1040 98304 bytes, 0:1043 0x17A2B3C4D5E6F708 ns. */
static void vec_event_sample(struct vec *v)
{
	v->n = 0;
	vw(v, TAG(1)), vw(v, 160); /* sample E:1; 24 + 4 + 80 + 12 + 12 + 12 + 16 */
	vw(v, 7), vw(v, 0), vw(v, 12), vw(v, 3), vw(v, 5), vw(v, 12);
	vw(v, 5);		  /* records */
	vw(v, TAG(1)), vw(v, 72); /* visibility_event */
	vws(v, W_EV_DELAY, 18);
	vw(v, 0x40C), vw(v, 4), vw(v, 4);			      /* 0:1036 queue 4 */
	vw(v, 0x40F), vw(v, 4), vw(v, 0x0003D090);		      /* 0:1039 */
	vw(v, 0x410), vw(v, 4), vw(v, 0x00018000);		      /* 0:1040 */
	vw(v, 0x413), vw(v, 8), vw(v, 0x17A2B3C4), vw(v, 0xD5E6F708); /* 0:1043 */
}

static const struct sflow_own_event_sample EV_HDR = {7, 0, 12, 3, 5, 12};

static void enc_event_sample(struct sflow_w *w, const struct sflow_own_event_sample *h,
			     const struct sflow_own_vis_event *ev)
{
	struct sflow_sample_enc s;
	sflow_own_enc_event_begin(w, &s, ENT, h);
	sflow_own_enc_vis_event(w, &s, ENT, ev);
	sflow_enc_egress_queue(w, &s, 4);
	sflow_enc_transit(w, &s, 250000);
	sflow_enc_queue_depth(w, &s, 98304);
	sflow_enc_timestamp(w, &s, 0x17A2B3C4D5E6F708ull);
	sflow_enc_sample_end(w, &s);
}

START_TEST(event_sample_encode)
{
	struct vec want;
	uint8_t buf[256];
	struct sflow_w w;

	vec_event_sample(&want);
	sflow_w_init(&w, buf, sizeof buf);
	enc_event_sample(&w, &EV_HDR, &EV_DELAY);
	ck_assert_int_eq(w.err, SFLOW_OK);
	ck_assert_uint_eq(w.len, 168);
	ck_assert_uint_eq(want.n, 168);
	ck_assert_mem_eq(buf, want.b, want.n);
	/* too small a buffer: sticky error, nothing past the end */
	memset(buf, 0xAA, sizeof buf);
	sflow_w_init(&w, buf, 100);
	enc_event_sample(&w, &EV_HDR, &EV_DELAY);
	ck_assert_int_eq(w.err, SFLOW_ERR_FULL);
	for (size_t i = 100; i < sizeof buf; i++)
		ck_assert_uint_eq(buf[i], 0xAA);
}
END_TEST

START_TEST(vis_event_record)
{
	struct vec want;
	uint8_t buf[128];
	struct sflow_w w;
	struct sflow_sample_enc s = {0};
	struct sflow_own_record o;

	rec_head(&want, 1, 72);
	vws(&want, W_EV_CEND, 18);
	sflow_w_init(&w, buf, sizeof buf);
	sflow_own_enc_vis_event(&w, &s, ENT, &EV_CEND);
	check_enc(&w, &s, &want);

	ck_assert_int_eq(dec(&want, 72, EVS, &o), SFLOW_OK);
	ck_assert_uint_eq(o.format, SFLOW_OWN_VIS_EVENT);
	check_event(&o.u.event, &EV_CEND);
	check_truncations_in(&want, EVS);
	/* the same bytes in a counters sample are E:1 port_buffers (too
	 * short: an error); in a flow or discard sample, or in an own sample
	 * of another format, not known */
	ck_assert_int_lt(dec(&want, 72, CTRS, &o), 0);
	ck_assert_int_eq(dec(&want, 72, SFLOW_SAMPLE_FLOW_EXP, &o), 1);
	ck_assert_int_eq(dec(&want, 72, SFLOW_SAMPLE_FLOW, &o), 1);
	ck_assert_int_eq(dec(&want, 72, TAG(2), &o), 1);
	/* in a 0:5 discarded_packet sample it is the visibility_event too */
	ck_assert_int_eq(dec(&want, 72, SFLOW_SAMPLE_DISCARD, &o), SFLOW_OK);
	check_event(&o.u.event, &EV_CEND);
	check_truncations_in(&want, SFLOW_SAMPLE_DISCARD);
	/* under another own enterprise number too */
	ck_assert_int_eq(dec(&want, 72, SFLOW_TAG(12345, 1), &o), SFLOW_OK);
	/* other own formats inside the event sample are not known */
	want.b[3] = 2;
	ck_assert_int_eq(dec(&want, 72, EVS, &o), 1);
	want.b[3] = 7;
	ck_assert_int_eq(dec(&want, 72, EVS, &o), 1);
	ck_assert_str_eq(sflow_own_record_name(1, EVS), "visibility_event");
	ck_assert_ptr_null(sflow_own_record_name(2, EVS));
	ck_assert_ptr_null(sflow_own_record_name(1, SFLOW_SAMPLE_FLOW_EXP));
	ck_assert_str_eq(sflow_own_record_name(1, SFLOW_SAMPLE_DISCARD), "visibility_event");
	ck_assert_str_eq(sflow_own_record_name(2, SFLOW_SAMPLE_DISCARD), "flow_region_drop");
	ck_assert_ptr_null(sflow_own_record_name(3, SFLOW_SAMPLE_DISCARD));
	ck_assert_str_eq(sflow_own_record_name(1, CTRS), "port_buffers");
	ck_assert_int_eq(sflow_own_event_context(EVS), 1);
	ck_assert_int_eq(sflow_own_event_context(SFLOW_SAMPLE_DISCARD), 1);
	ck_assert_int_eq(sflow_own_event_context(SFLOW_SAMPLE_FLOW_EXP), 0);
	ck_assert_int_eq(sflow_own_event_context(CTRS), 0);
	ck_assert_int_eq(sflow_own_event_context(SFLOW_TAG(4413, 1)), 0);
	ck_assert_str_eq(sflow_own_sample_name(SFLOW_OWN_SMP_EVENT), "visibility_event_sample");
	ck_assert_ptr_null(sflow_own_vis_type_name(0));
	ck_assert_str_eq(sflow_own_vis_type_name(1), "drop");
	ck_assert_str_eq(sflow_own_vis_type_name(2), "high_delay");
	ck_assert_str_eq(sflow_own_vis_type_name(3), "forensics");
	ck_assert_str_eq(sflow_own_vis_type_name(4), "congestion_start");
	ck_assert_str_eq(sflow_own_vis_type_name(5), "congestion_end");
	ck_assert_ptr_null(sflow_own_vis_type_name(6));
}
END_TEST

START_TEST(event_sample_header)
{
	struct vec v;
	struct sflow_own_sample os;
	struct sflow_r r;

	vec_event_sample(&v);
	sflow_r_init(&r, v.b + 8, 160, 8);
	ck_assert_int_eq(sflow_own_decode_sample(SFLOW_OWN_SMP_EVENT, &r, &os), SFLOW_OK);
	ck_assert_uint_eq(os.format, SFLOW_OWN_SMP_EVENT);
	ck_assert_uint_eq(os.u.event.sequence_number, 7);
	ck_assert_uint_eq(os.u.event.source_id_type, 0);
	ck_assert_uint_eq(os.u.event.source_id_index, 12);
	ck_assert_uint_eq(os.u.event.drops, 3);
	ck_assert_uint_eq(os.u.event.input, 5);
	ck_assert_uint_eq(os.u.event.output, 12);
	ck_assert_uint_eq(r.pos, 24); /* at the record count */
	for (size_t n = 0; n < 24; n += 4) {
		sflow_r_init(&r, v.b + 8, n, 8);
		ck_assert_int_eq(sflow_own_decode_sample(SFLOW_OWN_SMP_EVENT, &r, &os),
				 SFLOW_ERR_TRUNC);
	}
}
END_TEST

/* A datagram of hand-written words around one sample. */
static void dgram_around(struct vec *d, const struct vec *sample)
{
	d->n = 0;
	vw(d, 5), vw(d, 1), vw(d, 0xC0000201), vw(d, 0), vw(d, 44), vw(d, 1000);
	vw(d, 1); /* samples */
	memcpy(d->b + d->n, sample->b, sample->n);
	d->n += sample->n;
}

START_TEST(event_sample_through_decoder)
{
	struct vec smp, d;
	struct sflow_datagram dg;
	struct sflow_decode_error err;
	struct sflow_decode_opts opts = {.own_enterprise = ENT};

	vec_event_sample(&smp);
	dgram_around(&d, &smp);
	ck_assert_int_eq(sflow_decode(d.b, d.n, &opts, &dg, &err), SFLOW_OK);
	ck_assert_uint_eq(dg.nsamples, 1);
	const struct sflow_sample *s = &dg.samples[0];
	ck_assert_int_eq(s->kind, SFLOW_SMP_OWN);
	ck_assert_uint_eq(s->h.own.format, SFLOW_OWN_SMP_EVENT);
	ck_assert_uint_eq(s->h.own.u.event.sequence_number, 7);
	ck_assert_uint_eq(s->h.own.u.event.source_id_index, 12);
	ck_assert_uint_eq(s->h.own.u.event.drops, 3);
	ck_assert_uint_eq(s->nrecords, 5);
	ck_assert_int_eq(s->records[0].kind, SFLOW_REC_OWN);
	ck_assert_uint_eq(s->records[0].u.own.format, SFLOW_OWN_VIS_EVENT);
	check_event(&s->records[0].u.own.u.event, &EV_DELAY);
	ck_assert_int_eq(s->records[1].kind, SFLOW_REC_EGRESS_QUEUE);
	ck_assert_uint_eq(s->records[1].u.queue, 4);
	ck_assert_int_eq(s->records[2].kind, SFLOW_REC_TRANSIT);
	ck_assert_uint_eq(s->records[2].u.delay_ns, 250000);
	ck_assert_int_eq(s->records[3].kind, SFLOW_REC_QUEUE_DEPTH);
	ck_assert_uint_eq(s->records[3].u.depth, 98304);
	ck_assert_int_eq(s->records[4].kind, SFLOW_REC_TIMESTAMP);
	ck_assert_uint_eq(s->records[4].u.timestamp_ns, 0x17A2B3C4D5E6F708ull);
	sflow_datagram_free(&dg);

	/* another enterprise configured: the sample is kept as unknown */
	opts.own_enterprise = 12345;
	ck_assert_int_eq(sflow_decode(d.b, d.n, &opts, &dg, &err), SFLOW_OK);
	ck_assert_int_eq(dg.samples[0].kind, SFLOW_SMP_UNKNOWN);
	sflow_datagram_free(&dg);
	opts.own_enterprise = ENT;

	/* every truncation of the sample body (its length field following)
	 * is an error: the record count still says 5 */
	for (uint32_t k = 0; k < 160; k += 4) {
		struct vec t = smp;
		t.b[4] = 0, t.b[5] = 0, t.b[6] = (uint8_t)(k >> 8), t.b[7] = (uint8_t)k;
		t.n = 8 + k;
		dgram_around(&d, &t);
		ck_assert_msg(sflow_decode(d.b, d.n, &opts, &dg, &err) != SFLOW_OK,
			      "sample cut to %u bytes decoded", k);
	}
	/* a wrong E:1 record length (68 + the sample 4 shorter) */
	{
		struct vec t = smp;
		memmove(t.b + 36 + 4 + 68, t.b + 36 + 4 + 72, t.n - (36 + 4 + 72));
		t.n -= 4;
		t.b[7] = 156;
		t.b[36 + 7] = 68;
		dgram_around(&d, &t);
		ck_assert_int_ne(sflow_decode(d.b, d.n, &opts, &dg, &err), SFLOW_OK);
	}
	/* absurd record counts */
	{
		struct vec t = smp;
		t.b[32] = 0x7F, t.b[33] = 0xFF, t.b[34] = 0xFF, t.b[35] = 0xFF;
		dgram_around(&d, &t);
		ck_assert_int_eq(sflow_decode(d.b, d.n, &opts, &dg, &err), SFLOW_ERR_FORMAT);
		t.b[32] = 0, t.b[33] = 0, t.b[34] = 0, t.b[35] = 6;
		dgram_around(&d, &t);
		ck_assert_int_ne(sflow_decode(d.b, d.n, &opts, &dg, &err), SFLOW_OK);
		t.b[35] = 4; /* one record left over */
		dgram_around(&d, &t);
		ck_assert_int_eq(sflow_decode(d.b, d.n, &opts, &dg, &err), SFLOW_ERR_FORMAT);
	}
	/* the visibility_event record inside a 0:3 flow sample: not known */
	{
		struct vec f;
		f.n = 0;
		vw(&f, 3), vw(&f, 40 + 4 + 80);
		for (uint32_t i = 0; i < 10; i++)
			vw(&f, i == 3 ? 1 : 0); /* rate 1 */
		vw(&f, 1);
		vw(&f, TAG(1)), vw(&f, 72), vws(&f, W_EV_DELAY, 18);
		dgram_around(&d, &f);
		ck_assert_int_eq(sflow_decode(d.b, d.n, &opts, &dg, &err), SFLOW_OK);
		ck_assert_int_eq(dg.samples[0].records[0].kind, SFLOW_REC_UNKNOWN);
		sflow_datagram_free(&dg);
	}
}
END_TEST

/* ---- the drop's visibility_event record inside a 0:5 */

/* A drop on unicast queue 3: ids 2^33 + 1, reason 259, 65536 bytes. */
static const uint32_t W_EV_DROP[18] = {
    1,		   /* type drop */
    0,		   /* flags */
    0,		   /* level */
    0,		   /* severity */
    0,		   /* tag */
    2,		   /* event_id 0x2_00000001 */
    1,		   /* */
    2,		   /* own_id the same */
    1,		   /* */
    3,		   /* queue */
    259,	   /* reason no_buffer_space */
    0x00010000,	   /* depth 65536 */
    0,		   /* delay */
    0,		   /* peak */
    0xFFFFFFFF,	   /* peak_time unknown */
    0xFFFFFFFF, 0, /* duration */
    0,
};
static const struct sflow_own_vis_event EV_DROP = {
    .type = SFLOW_OWN_VIS_DROP,
    .event_id = 0x200000001ull,
    .own_id = 0x200000001ull,
    .queue = 3,
    .reason = 259,
    .depth = 65536,
    .peak_time_ns = UINT64_MAX,
};

/* 0:5 (8 + 140 bytes): seq 11, source 2:1, drops 4, input 3, output 7,
 * reason 259; records 0:1040 65536, 0:1043 0x17A2B3C4D5E6F708 ns, then
 * the own E:1 drop record. */
static void vec_discard_with_event(struct vec *v)
{
	v->n = 0;
	vw(v, 5), vw(v, 140); /* 28 + 4 + 12 + 16 + 80 */
	vw(v, 11), vw(v, 2), vw(v, 1), vw(v, 4), vw(v, 3), vw(v, 7), vw(v, 259);
	vw(v, 3);						      /* records */
	vw(v, 0x410), vw(v, 4), vw(v, 0x00010000);		      /* 0:1040 */
	vw(v, 0x413), vw(v, 8), vw(v, 0x17A2B3C4), vw(v, 0xD5E6F708); /* 0:1043 */
	vw(v, TAG(1)), vw(v, 72);				      /* visibility_event */
	vws(v, W_EV_DROP, 18);
}

START_TEST(discard_with_event)
{
	static const struct sflow_discard_sample h = {11, 2, 1, 4, 3, 7, 259};
	struct vec smp, d;
	uint8_t buf[256];
	struct sflow_w w;
	struct sflow_sample_enc s;
	struct sflow_datagram dg;
	struct sflow_decode_error err;
	struct sflow_decode_opts opts = {.own_enterprise = ENT};

	vec_discard_with_event(&smp);
	ck_assert_uint_eq(smp.n, 148);
	sflow_w_init(&w, buf, sizeof buf);
	sflow_enc_discard_begin(&w, &s, &h);
	sflow_enc_queue_depth(&w, &s, 65536);
	sflow_enc_timestamp(&w, &s, 0x17A2B3C4D5E6F708ull);
	sflow_own_enc_vis_event(&w, &s, ENT, &EV_DROP);
	sflow_enc_sample_end(&w, &s);
	ck_assert_int_eq(w.err, SFLOW_OK);
	ck_assert_uint_eq(w.len, smp.n);
	ck_assert_mem_eq(buf, smp.b, smp.n);

	dgram_around(&d, &smp);
	ck_assert_int_eq(sflow_decode(d.b, d.n, &opts, &dg, &err), SFLOW_OK);
	ck_assert_uint_eq(dg.nsamples, 1);
	{
		const struct sflow_sample *x = &dg.samples[0];
		ck_assert_int_eq(x->kind, SFLOW_SMP_DISCARD);
		ck_assert_uint_eq(x->h.discard.sequence_number, 11);
		ck_assert_uint_eq(x->h.discard.reason, 259);
		ck_assert_uint_eq(x->nrecords, 3);
		ck_assert_int_eq(x->records[0].kind, SFLOW_REC_QUEUE_DEPTH);
		ck_assert_int_eq(x->records[1].kind, SFLOW_REC_TIMESTAMP);
		ck_assert_int_eq(x->records[2].kind, SFLOW_REC_OWN);
		ck_assert_uint_eq(x->records[2].tag, TAG(1));
		ck_assert_uint_eq(x->records[2].u.own.format, SFLOW_OWN_VIS_EVENT);
		check_event(&x->records[2].u.own.u.event, &EV_DROP);
	}
	sflow_datagram_free(&dg);

	/* another enterprise configured: the record is kept as unknown */
	opts.own_enterprise = 12345;
	ck_assert_int_eq(sflow_decode(d.b, d.n, &opts, &dg, &err), SFLOW_OK);
	ck_assert_int_eq(dg.samples[0].kind, SFLOW_SMP_DISCARD);
	ck_assert_int_eq(dg.samples[0].records[2].kind, SFLOW_REC_UNKNOWN);
	sflow_datagram_free(&dg);
	opts.own_enterprise = ENT;

	/* the record 4 bytes short (68, the sample 136): an error */
	{
		struct vec t = smp;
		t.n -= 4;
		t.b[7] = 136;
		t.b[8 + 32 + 12 + 16 + 7] = 68;
		dgram_around(&d, &t);
		ck_assert_int_ne(sflow_decode(d.b, d.n, &opts, &dg, &err), SFLOW_OK);
	}
	/* another own format inside 0:5 (not E:2, flow_region_drop): kept
	 * as unknown */
	{
		struct vec t = smp;
		t.b[8 + 32 + 12 + 16 + 3] = 3;
		dgram_around(&d, &t);
		ck_assert_int_eq(sflow_decode(d.b, d.n, &opts, &dg, &err), SFLOW_OK);
		ck_assert_int_eq(dg.samples[0].records[2].kind, SFLOW_REC_UNKNOWN);
		sflow_datagram_free(&dg);
	}
}
END_TEST

/* ---- E:7 sampler_stats */

/* Two samplers: "agg" (3 bytes + 1 pad) and "port-hi-12" (10 + 2 pad). */
static void vec_samplers(struct vec *v)
{
	rec_head(v, 7, 228); /* 4 + (4 + 4 + 100) + (4 + 12 + 100) */
	vw(v, 2);
	vw(v, 3), vw(v, 0x61676700);	      /* "agg" */
	vw(v, 0), vw(v, 1000);		      /* seen */
	vw(v, 0), vw(v, 600);		      /* passed */
	vw(v, 0), vw(v, 10);		      /* not_eligible */
	vw(v, 0), vw(v, 20);		      /* duplicate */
	vw(v, 0), vw(v, 30);		      /* limiter */
	vw(v, 0), vw(v, 40);		      /* recurrent */
	vw(v, 0), vw(v, 200);		      /* no_ticket */
	vw(v, 0), vw(v, 50);		      /* probability */
	vw(v, 0), vw(v, 40);		      /* flow_filter */
	vw(v, 0), vw(v, 10);		      /* downstream */
	vw(v, 0xFFFFFFFF), vw(v, 0xFFFFFFFD); /* ticket_balance -3 */
	vw(v, 512);			      /* ticket_batch */
	vw(v, 0), vw(v, 7);		      /* consumed_all */
	vw(v, 10);			      /* "port-hi-12" */
	vw(v, 0x706F7274), vw(v, 0x2D68692D), vw(v, 0x31320000);
	vw(v, 1), vw(v, 0);	     /* seen 2^32 */
	vw(v, 0), vw(v, 0xFFFFFFFF); /* passed */
	for (int i = 0; i < 4; i++)
		vw(v, 0), vw(v, 0); /* not_eligible .. recurrent */
	vw(v, 0), vw(v, 1);	    /* no_ticket */
	for (int i = 0; i < 3; i++)
		vw(v, 0), vw(v, 0); /* probability .. downstream */
	vw(v, 0), vw(v, 64);	    /* ticket_balance */
	vw(v, 64);		    /* ticket_batch */
	vw(v, 0), vw(v, 0);	    /* consumed_all */
}

static const struct sflow_own_sampler_stat SS[2] = {
    {"agg", 1000, 600, 10, 20, 30, 40, 200, 50, 40, 10, -3, 512, 7},
    {"port-hi-12", 0x100000000ull, 0xFFFFFFFFull, 0, 0, 0, 0, 1, 0, 0, 0, 64, 64, 0},
};

static void check_sampler(const struct sflow_own_sampler_stat *got,
			  const struct sflow_own_sampler_stat *want)
{
	ck_assert_str_eq(got->name, want->name);
	ck_assert_uint_eq(got->seen, want->seen);
	ck_assert_uint_eq(got->passed, want->passed);
	ck_assert_uint_eq(got->not_eligible, want->not_eligible);
	ck_assert_uint_eq(got->duplicate, want->duplicate);
	ck_assert_uint_eq(got->limiter, want->limiter);
	ck_assert_uint_eq(got->recurrent, want->recurrent);
	ck_assert_uint_eq(got->no_ticket, want->no_ticket);
	ck_assert_uint_eq(got->probability, want->probability);
	ck_assert_uint_eq(got->flow_filter, want->flow_filter);
	ck_assert_uint_eq(got->downstream, want->downstream);
	ck_assert_int_eq(got->ticket_balance, want->ticket_balance);
	ck_assert_uint_eq(got->ticket_batch, want->ticket_batch);
	ck_assert_uint_eq(got->consumed_all, want->consumed_all);
}

START_TEST(sampler_stats)
{
	struct vec want;
	uint8_t buf[512];
	struct sflow_w w;
	struct sflow_sample_enc s = {0};
	struct sflow_own_record o;
	struct sflow_own_sampler_stat st;
	uint32_t pos = 0;

	vec_samplers(&want);
	ck_assert_uint_eq(want.n, 8 + 228);
	sflow_w_init(&w, buf, sizeof buf);
	sflow_own_enc_sampler_stats(&w, &s, ENT, SS, 2);
	check_enc(&w, &s, &want);

	ck_assert_int_eq(dec(&want, 228, CTRS, &o), SFLOW_OK);
	ck_assert_uint_eq(o.format, SFLOW_OWN_SAMPLER_STATS);
	ck_assert_uint_eq(o.u.samplers.n, 2);
	ck_assert_uint_eq(o.u.samplers.len, 224);
	ck_assert_int_eq(sflow_own_sampler_next(&o.u.samplers, &pos, &st), 0);
	check_sampler(&st, &SS[0]);
	ck_assert_uint_eq(pos, 108);
	ck_assert_int_eq(sflow_own_sampler_next(&o.u.samplers, &pos, &st), 0);
	check_sampler(&st, &SS[1]);
	ck_assert_uint_eq(pos, 224);
	ck_assert_int_eq(sflow_own_sampler_next(&o.u.samplers, &pos, &st), -1);
	ck_assert_int_eq(sflow_own_sampler_at(&o.u.samplers, 1, &st), 0);
	check_sampler(&st, &SS[1]);
	ck_assert_int_eq(sflow_own_sampler_at(&o.u.samplers, 0, &st), 0);
	check_sampler(&st, &SS[0]);
	ck_assert_int_eq(sflow_own_sampler_at(&o.u.samplers, 2, &st), -1);
	/* also in a compact counters sample; nowhere else */
	ck_assert_int_eq(dec(&want, 228, SFLOW_SAMPLE_COUNTERS, &o), SFLOW_OK);
	ck_assert_int_eq(dec(&want, 228, SFLOW_SAMPLE_FLOW_EXP, &o), 1);
	ck_assert_int_eq(dec(&want, 228, EVS, &o), 1);
	ck_assert_str_eq(sflow_own_record_name(7, CTRS), "sampler_stats");
	check_truncations(&want);
	check_trailing(&want);

	/* counts: 3 (one more than there is), 1 (one left over), absurd */
	struct vec bad = want;
	bad.b[8 + 3] = 3;
	ck_assert_int_eq(dec(&bad, 228, CTRS, &o), SFLOW_ERR_FORMAT);
	bad.b[8 + 3] = 1;
	ck_assert_int_eq(dec(&bad, 228, CTRS, &o), SFLOW_ERR_FORMAT);
	bad.b[8] = 0xFF, bad.b[9] = 0xFF, bad.b[10] = 0xFF, bad.b[11] = 0xFF;
	ck_assert_int_eq(dec(&bad, 228, CTRS, &o), SFLOW_ERR_FORMAT);
	bad = want;
	bad.b[8 + 2] = 0x40; /* 16386 samplers would need 1.7 MB */
	ck_assert_int_eq(dec(&bad, 228, CTRS, &o), SFLOW_ERR_FORMAT);
	/* name lengths: 33 (over the limit), absurd, 7 (misaligns the rest) */
	bad = want;
	bad.b[12 + 3] = 33;
	ck_assert_int_eq(dec(&bad, 228, CTRS, &o), SFLOW_ERR_FORMAT);
	bad.b[12] = 0xFF;
	ck_assert_int_eq(dec(&bad, 228, CTRS, &o), SFLOW_ERR_FORMAT);
	bad = want;
	bad.b[12 + 108 + 3] = 33; /* the second sampler's */
	ck_assert_int_eq(dec(&bad, 228, CTRS, &o), SFLOW_ERR_FORMAT);
	bad = want;
	bad.b[12 + 3] = 7;
	ck_assert_int_lt(dec(&bad, 228, CTRS, &o), 0);
	bad.b[12 + 3] = 0; /* shorter name: the element ends 4 bytes early */
	ck_assert_int_lt(dec(&bad, 228, CTRS, &o), 0);

	ck_assert(sflow_own_sampler_adds_up(&SS[0]));
	ck_assert(sflow_own_sampler_adds_up(&SS[1]));
}
END_TEST

START_TEST(sampler_stats_names)
{
	struct vec want;
	uint8_t buf[512];
	struct sflow_w w;
	struct sflow_sample_enc s = {0};
	struct sflow_own_record o;
	struct sflow_own_sampler_stat st[2], got;

	/* empty name, and 32 characters (no padding) */
	memset(st, 0, sizeof st);
	memcpy(st[1].name, "abcdefghijklmnopqrstuvwxyz012345", 33);
	st[1].seen = 5, st[1].downstream = 5;
	rec_head(&want, 7, 4 + 104 + 136);
	vw(&want, 2);
	vw(&want, 0);
	for (int i = 0; i < 25; i++)
		vw(&want, 0);
	vw(&want, 32);
	vw(&want, 0x61626364), vw(&want, 0x65666768), vw(&want, 0x696A6B6C), vw(&want, 0x6D6E6F70);
	vw(&want, 0x71727374), vw(&want, 0x75767778), vw(&want, 0x797A3031), vw(&want, 0x32333435);
	vw(&want, 0), vw(&want, 5); /* seen */
	for (int i = 0; i < 8; i++)
		vw(&want, 0), vw(&want, 0); /* passed .. flow_filter */
	vw(&want, 0), vw(&want, 5);	    /* downstream */
	for (int i = 0; i < 5; i++)
		vw(&want, 0);
	sflow_w_init(&w, buf, sizeof buf);
	sflow_own_enc_sampler_stats(&w, &s, ENT, st, 2);
	check_enc(&w, &s, &want);
	ck_assert_int_eq(dec(&want, want.n - 8, CTRS, &o), SFLOW_OK);
	ck_assert_int_eq(sflow_own_sampler_at(&o.u.samplers, 0, &got), 0);
	check_sampler(&got, &st[0]);
	ck_assert_int_eq(sflow_own_sampler_at(&o.u.samplers, 1, &got), 0);
	check_sampler(&got, &st[1]);
	check_truncations(&want);

	/* none: a count of 0 */
	rec_head(&want, 7, 4);
	vw(&want, 0);
	sflow_w_init(&w, buf, sizeof buf);
	s.nrecords = 0;
	sflow_own_enc_sampler_stats(&w, &s, ENT, NULL, 0);
	check_enc(&w, &s, &want);
	ck_assert_int_eq(dec(&want, 4, CTRS, &o), SFLOW_OK);
	ck_assert_uint_eq(o.u.samplers.n, 0);
	ck_assert_int_eq(sflow_own_sampler_at(&o.u.samplers, 0, &got), -1);

	/* a name of 33 characters, and NULL with a count: refused, nothing
	 * written */
	memset(st[0].name, 'x', sizeof st[0].name);
	sflow_w_init(&w, buf, sizeof buf);
	sflow_own_enc_sampler_stats(&w, &s, ENT, st, 2);
	ck_assert_int_eq(w.err, SFLOW_ERR_INVALID);
	ck_assert_uint_eq(w.len, 0);
	sflow_w_init(&w, buf, sizeof buf);
	sflow_own_enc_sampler_stats(&w, &s, ENT, NULL, 1);
	ck_assert_int_eq(w.err, SFLOW_ERR_INVALID);
}
END_TEST

START_TEST(sampler_adds_up)
{
	struct sflow_own_sampler_stat st = SS[0];
	uint64_t rej[SFLOW_OWN_SAMPLER_REJECTS];
	static const uint64_t want[8] = {10, 20, 30, 40, 200, 50, 40, 10};
	static const char *const names[8] = {"not_eligible", "duplicate", "limiter",
					     "recurrent",    "no_ticket", "probability",
					     "flow_filter",  "downstream"};

	sflow_own_sampler_rejects(&st, rej);
	for (uint32_t i = 0; i < 8; i++) {
		ck_assert_uint_eq(rej[i], want[i]);
		ck_assert_str_eq(sflow_own_sampler_reject_name(i), names[i]);
	}
	ck_assert_ptr_null(sflow_own_sampler_reject_name(8));

	st.seen = 999;
	ck_assert(!sflow_own_sampler_adds_up(&st));
	st.seen = 1001;
	ck_assert(!sflow_own_sampler_adds_up(&st));
	/* a sum that wraps around 2^64 to seen does not add up */
	memset(&st, 0, sizeof st);
	st.passed = UINT64_MAX;
	st.downstream = 2;
	st.seen = 1;
	ck_assert(!sflow_own_sampler_adds_up(&st));
	st.downstream = 0;
	st.seen = UINT64_MAX;
	ck_assert(sflow_own_sampler_adds_up(&st));
}
END_TEST

/* A counters sample 2:1 with E:7 through the datagram decoder. */
START_TEST(sampler_stats_through_decoder)
{
	struct vec rec, smp, d;
	struct sflow_datagram dg;
	struct sflow_decode_error err;
	struct sflow_decode_opts opts = {.own_enterprise = ENT};
	struct sflow_own_sampler_stat st;

	vec_samplers(&rec);
	smp.n = 0;
	vw(&smp, 4), vw(&smp, 16 + 236);
	vw(&smp, 9), vw(&smp, 2), vw(&smp, 1), vw(&smp, 1);
	memcpy(smp.b + smp.n, rec.b, rec.n);
	smp.n += rec.n;
	dgram_around(&d, &smp);
	ck_assert_int_eq(sflow_decode(d.b, d.n, &opts, &dg, &err), SFLOW_OK);
	const struct sflow_record *r = &dg.samples[0].records[0];
	ck_assert_int_eq(r->kind, SFLOW_REC_OWN);
	ck_assert_uint_eq(r->u.own.format, SFLOW_OWN_SAMPLER_STATS);
	ck_assert_int_eq(sflow_own_sampler_at(&r->u.own.u.samplers, 1, &st), 0);
	check_sampler(&st, &SS[1]);
	sflow_datagram_free(&dg);
	/* a bad name length fails the datagram, naming the record */
	d.b[28 + 8 + 16 + 8 + 4 + 3] = 40;
	ck_assert_int_eq(sflow_decode(d.b, d.n, &opts, &dg, &err), SFLOW_ERR_FORMAT);
	ck_assert_ptr_nonnull(strstr(err.msg, "sampler_stats"));
}
END_TEST

/* ---- round trips of random values */

static uint64_t rnd(uint64_t *x)
{
	/* splitmix64 */
	uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

START_TEST(round_trips)
{
	uint64_t x = 42;
	static uint8_t buf[8192];

	for (int iter = 0; iter < 200; iter++) {
		struct sflow_own_event_sample h;
		struct sflow_own_vis_event ev;
		struct sflow_own_sampler_stat st[8], got;
		uint32_t n = (uint32_t)(rnd(&x) % 9);
		struct sflow_w w;
		struct sflow_sample_enc s;
		struct sflow_datagram dg;
		struct sflow_decode_error err;
		uint8_t dgram[8192];
		size_t len;

		h = (struct sflow_own_event_sample){(uint32_t)rnd(&x), (uint32_t)rnd(&x) % 3,
						    (uint32_t)rnd(&x), (uint32_t)rnd(&x),
						    (uint32_t)rnd(&x), (uint32_t)rnd(&x)};
		ev = (struct sflow_own_vis_event){(uint32_t)rnd(&x), (uint32_t)rnd(&x),
						  (uint32_t)rnd(&x), (uint32_t)rnd(&x),
						  (uint32_t)rnd(&x), rnd(&x),
						  rnd(&x),	     (uint32_t)rnd(&x),
						  (uint32_t)rnd(&x), (uint32_t)rnd(&x),
						  (uint32_t)rnd(&x), (uint32_t)rnd(&x),
						  rnd(&x),	     rnd(&x)};
		for (uint32_t i = 0; i < n; i++) {
			size_t nl = rnd(&x) % 33;
			memset(st[i].name, 0, sizeof st[i].name);
			for (size_t k = 0; k < nl; k++)
				st[i].name[k] = (char)('a' + rnd(&x) % 26);
			st[i].passed = rnd(&x) >> 8;
			st[i].not_eligible = rnd(&x) >> 8;
			st[i].duplicate = rnd(&x) >> 8;
			st[i].limiter = rnd(&x) >> 8;
			st[i].recurrent = rnd(&x) >> 8;
			st[i].no_ticket = rnd(&x) >> 8;
			st[i].probability = rnd(&x) >> 8;
			st[i].flow_filter = rnd(&x) >> 8;
			st[i].downstream = rnd(&x) >> 8;
			st[i].seen = st[i].passed + st[i].not_eligible + st[i].duplicate +
				     st[i].limiter + st[i].recurrent + st[i].no_ticket +
				     st[i].probability + st[i].flow_filter + st[i].downstream;
			st[i].ticket_balance = (int64_t)rnd(&x);
			st[i].ticket_batch = (uint32_t)rnd(&x);
			st[i].consumed_all = rnd(&x);
		}

		/* datagram header by hand, then the two samples by the encoder */
		sflow_w_init(&w, buf, sizeof buf);
		enc_event_sample(&w, &h, &ev);
		struct sflow_counters_sample ch = {1, 2, 1};
		sflow_enc_counters_begin(&w, &s, &ch);
		sflow_own_enc_sampler_stats(&w, &s, ENT, st, n);
		sflow_enc_sample_end(&w, &s);
		ck_assert_int_eq(w.err, SFLOW_OK);
		static const uint8_t hdr[28] = {0, 0, 0, 5, 0, 0, 0, 1, 192, 0, 2, 1, 0, 0,
						0, 0, 0, 0, 0, 1, 0, 0, 0,   1, 0, 0, 0, 2};
		memcpy(dgram, hdr, 28);
		memcpy(dgram + 28, buf, w.len);
		len = 28 + w.len;

		ck_assert_int_eq(sflow_decode(dgram, len, NULL, &dg, &err), SFLOW_OK);
		ck_assert_uint_eq(dg.nsamples, 2);
		const struct sflow_own_event_sample *gh = &dg.samples[0].h.own.u.event;
		ck_assert_uint_eq(gh->sequence_number, h.sequence_number);
		ck_assert_uint_eq(gh->source_id_type, h.source_id_type);
		ck_assert_uint_eq(gh->source_id_index, h.source_id_index);
		ck_assert_uint_eq(gh->drops, h.drops);
		ck_assert_uint_eq(gh->input, h.input);
		ck_assert_uint_eq(gh->output, h.output);
		check_event(&dg.samples[0].records[0].u.own.u.event, &ev);
		const struct sflow_own_sampler_stats *a =
		    &dg.samples[1].records[0].u.own.u.samplers;
		ck_assert_uint_eq(a->n, n);
		uint32_t pos = 0;
		for (uint32_t i = 0; i < n; i++) {
			ck_assert_int_eq(sflow_own_sampler_next(a, &pos, &got), 0);
			check_sampler(&got, &st[i]);
			ck_assert(sflow_own_sampler_adds_up(&got));
		}
		ck_assert_int_eq(sflow_own_sampler_next(a, &pos, &got), -1);
		sflow_datagram_free(&dg);
	}
}
END_TEST

static Suite *own_suite(void)
{
	Suite *s = suite_create("sflow_own");
	TCase *tc = tcase_create("records");
	tcase_add_test(tc, port_buffers);
	tcase_add_test(tc, queue_buffers);
	tcase_add_test(tc, queue_buffers_empty);
	tcase_add_test(tc, queue_delays);
	tcase_add_test(tc, pg_buffers);
	tcase_add_test(tc, device_pools);
	tcase_add_test(tc, cpu_queues);
	tcase_add_test(tc, unknown_formats);
	tcase_add_test(tc, encoder_full);
	tcase_add_test(tc, u32_conversion);
	tcase_add_test(tc, through_decoder);
	suite_add_tcase(s, tc);
	TCase *tv = tcase_create("visibility");
	tcase_add_test(tv, event_sample_encode);
	tcase_add_test(tv, vis_event_record);
	tcase_add_test(tv, event_sample_header);
	tcase_add_test(tv, event_sample_through_decoder);
	tcase_add_test(tv, discard_with_event);
	tcase_add_test(tv, sampler_stats);
	tcase_add_test(tv, sampler_stats_names);
	tcase_add_test(tv, sampler_adds_up);
	tcase_add_test(tv, sampler_stats_through_decoder);
	tcase_add_test(tv, round_trips);
	suite_add_tcase(s, tv);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(own_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
