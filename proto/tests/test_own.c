/*
 * test_own.c - unit tests of bsflowd's own sFlow structures (sflow_own.c):
 * each record's encoding against hand-written big-endian words from the
 * XDR in sflow_own.h, decoding of the same bytes back to the values,
 * truncated bodies, wrong counts and left-over bytes as errors, and one
 * record through the whole datagram decoder.
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

START_TEST(unknown_and_reserved)
{
	struct vec v;
	struct sflow_own_record o;
	struct sflow_own_sample os;
	struct sflow_r r;

	rec_head(&v, 7, 4);
	vw(&v, 0);
	ck_assert_int_eq(dec(&v, 4, CTRS, &o), 1); /* sampler stats: reserved */
	v.b[3] = 0xFF;				   /* format 0xFFF */
	ck_assert_int_eq(dec(&v, 4, CTRS, &o), 1);
	ck_assert_ptr_null(sflow_own_record_name(7, CTRS));
	ck_assert_ptr_null(sflow_own_record_name(0, CTRS));
	sflow_r_init(&r, v.b + 8, 4, 0);
	ck_assert_int_eq(sflow_own_decode_sample(SFLOW_OWN_SMP_EVENT, &r, &os), 1);
	ck_assert_ptr_null(sflow_own_sample_name(SFLOW_OWN_SMP_EVENT));
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
	tcase_add_test(tc, unknown_and_reserved);
	tcase_add_test(tc, encoder_full);
	tcase_add_test(tc, u32_conversion);
	tcase_add_test(tc, through_decoder);
	suite_add_tcase(s, tc);
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
