/*
 * test_table.c - unit test of bsflow-collect's per-port table (table.c):
 * datagrams are encoded with libsflow, decoded, fed to the table, and the
 * rows are checked against the figures put in (peak = the largest
 * percentage over 4413:2 and own records, wrap-safe discard deltas, drops
 * by reason, largest queue delay).
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

#include "collector-test/table.h"
#include "proto/sflow_decode.h"
#include "proto/sflow_encode.h"
#include "proto/sflow_own.h"

#define ENT 32473u

static struct sflow_dgram_builder B;
static uint8_t S[2048];
static uint8_t DG[SFLOW_DGRAM_MAX];
static size_t DGLEN;

static void start(void)
{
	struct sflow_addr agent = {.type = SFLOW_ADDR_IP4, .a = {10, 0, 0, 1}};
	ck_assert_int_eq(sflow_builder_init(&B, &agent, 0, SFLOW_DGRAM_MAX, 0), SFLOW_OK);
}

static void add(struct sflow_w *w)
{
	ck_assert_int_eq(w->err, SFLOW_OK);
	ck_assert_int_eq(sflow_builder_add(&B, S, w->len), SFLOW_OK);
}

static void feed(struct collect_table *t, uint32_t seq)
{
	struct sflow_datagram d;
	struct sflow_decode_error err;
	struct sflow_decode_opts opts = {.own_enterprise = ENT};
	const uint8_t *p = sflow_builder_finish(&B, seq, 1000 * seq, &DGLEN);
	ck_assert_ptr_nonnull(p);
	memcpy(DG, p, DGLEN);
	ck_assert_int_eq(sflow_decode(DG, DGLEN, &opts, &d, &err), SFLOW_OK);
	ck_assert_int_eq(collect_table_add(t, &d), 0);
	sflow_datagram_free(&d);
}

static void port_sample(uint32_t seq, uint32_t in_disc, uint32_t out_disc, int with_own)
{
	struct sflow_w w;
	struct sflow_sample_enc s;
	struct sflow_counters_sample h = {seq, 0, 3};
	struct sflow_if_counters ifc;
	struct sflow_bst_port bp;

	memset(&ifc, 0, sizeof ifc);
	ifc.ifIndex = 3;
	ifc.ifInDiscards = in_disc;
	ifc.ifOutDiscards = out_disc;
	memset(&bp, 0, sizeof bp);
	bp.ingress_uc_pc = bp.ingress_mc_pc = bp.egress_mc_pc = -1;
	bp.egress_uc_pc = with_own ? 2000 : -1;
	bp.n_uc = with_own ? 2 : 0;
	bp.egress_queue_uc_pc[0] = 0;
	bp.egress_queue_uc_pc[1] = 7500;

	sflow_w_init(&w, S, sizeof S);
	sflow_enc_counters_begin(&w, &s, &h);
	sflow_enc_if_counters(&w, &s, &ifc);
	sflow_enc_port_name(&w, &s, "swp1");
	sflow_enc_bst_port(&w, &s, &bp);
	if (with_own) {
		struct sflow_own_buffer q[6];
		memset(q, 0, sizeof q);
		for (int i = 0; i < 6; i++)
			q[i].peak_pc = i == 5 ? 9000 : 100 * i;
		sflow_own_enc_queue_buffers(&w, &s, ENT, q, 6, NULL, 0);
		struct sflow_own_qdelay d[2] = {{100, 5000, 2, 0},
						{0xFFFFFFFF, 0xFFFFFFFF, 0, 7000}};
		sflow_own_enc_queue_delays(&w, &s, ENT, d, 2, NULL, 0);
	}
	sflow_enc_sample_end(&w, &s);
	add(&w);
}

static void discard_sample(uint32_t seq, uint32_t reason)
{
	struct sflow_w w;
	struct sflow_sample_enc s;
	struct sflow_discard_sample h = {seq, 0, 3, 0, 1, 3, reason};
	sflow_w_init(&w, S, sizeof S);
	sflow_enc_discard_begin(&w, &s, &h);
	sflow_enc_sample_end(&w, &s);
	add(&w);
}

START_TEST(rows)
{
	struct collect_table *t = collect_table_new(ENT);
	struct collect_table_row r;
	ck_assert_ptr_nonnull(t);

	start();
	port_sample(1, 10, 0xFFFFFFF0u, 1);
	feed(t, 1);
	ck_assert_uint_eq(collect_table_rows(t), 1);
	ck_assert_int_eq(collect_table_row(t, 0, &r), 0);
	ck_assert_uint_eq(r.source_type, 0);
	ck_assert_uint_eq(r.source_index, 3);
	ck_assert_str_eq(r.name, "swp1");
	ck_assert_int_eq(r.peak_pc, 9000); /* own queue 5 beats 4413:2's 7500 */
	ck_assert_str_eq(r.peak_obj, "uc5");
	ck_assert_uint_eq(r.in_discards_delta, UINT64_MAX); /* one sample: no delta */
	ck_assert_uint_eq(r.delay_max_ns, 7000);	    /* uc1's marker */
	ck_assert_str_eq(r.delay_queue, "uc1");
	ck_assert_uint_eq(r.drops, 0);

	start();
	port_sample(2, 25, 0x10, 0);
	discard_sample(1, 259);
	discard_sample(2, 260);
	discard_sample(3, 259);
	feed(t, 2);
	ck_assert_int_eq(collect_table_row(t, 0, &r), 0);
	ck_assert_uint_eq(r.in_discards_delta, 15);
	ck_assert_uint_eq(r.out_discards_delta, 32); /* 0xFFFFFFF0 -> 0x10 wraps */
	ck_assert_int_eq(r.peak_pc, -1);	     /* all unknown this time */
	ck_assert_uint_eq(r.drops, 3);
	ck_assert_uint_eq(r.top_reason, 259);
	ck_assert_uint_eq(r.top_reason_count, 2);
	ck_assert_uint_eq(r.counter_samples, 2);

	/* a device row */
	struct sflow_w w;
	struct sflow_sample_enc s;
	struct sflow_counters_sample h = {1, 2, 1};
	struct sflow_bst_device bd = {5000, -1};
	start();
	sflow_w_init(&w, S, sizeof S);
	sflow_enc_counters_begin(&w, &s, &h);
	sflow_enc_bst_device(&w, &s, &bd);
	sflow_enc_sample_end(&w, &s);
	add(&w);
	feed(t, 3);
	ck_assert_uint_eq(collect_table_rows(t), 2);
	ck_assert_int_eq(collect_table_row(t, 1, &r), 0);
	ck_assert_uint_eq(r.source_type, 2);
	ck_assert_int_eq(r.peak_pc, 5000);
	ck_assert_str_eq(r.peak_obj, "device_uc");
	ck_assert_int_eq(collect_table_row(t, 2, &r), -1);

	/* rendering */
	char out[4096];
	FILE *fp = fmemopen(out, sizeof out, "w");
	ck_assert_ptr_nonnull(fp);
	collect_table_render(t, fp, 0);
	fclose(fp);
	ck_assert_ptr_nonnull(strstr(out, "AGENT"));
	ck_assert_ptr_nonnull(strstr(out, "10.0.0.1"));
	ck_assert_ptr_nonnull(strstr(out, "no_buffer_space"));
	ck_assert_ptr_nonnull(strstr(out, "50.00"));
	ck_assert_ptr_null(strstr(out, "\033["));
	fp = fmemopen(out, sizeof out, "w");
	collect_table_render(t, fp, 1);
	fclose(fp);
	ck_assert_int_eq(strncmp(out, "\033[H\033[2J", 7), 0);
	collect_table_free(t);
}
END_TEST

/* A drop sent on the device source counts on the port it happened to:
 * the output port, else the input port; rows render device first, then
 * ports by ifIndex. */
static void device_discard(uint32_t seq, uint32_t in, uint32_t out, uint32_t reason)
{
	struct sflow_w w;
	struct sflow_sample_enc s;
	struct sflow_discard_sample h = {seq, 2, 1, 0, in, out, reason};
	sflow_w_init(&w, S, sizeof S);
	sflow_enc_discard_begin(&w, &s, &h);
	sflow_enc_sample_end(&w, &s);
	add(&w);
}

START_TEST(drops_by_port)
{
	struct collect_table *t = collect_table_new(ENT);
	struct collect_table_row r;
	ck_assert_ptr_nonnull(t);

	start();
	device_discard(1, 7, 5, 260); /* egress drop: port 5 */
	device_discard(2, 7, 0, 258); /* forwarding drop: no output, port 7 */
	device_discard(3, 0, 0, 256); /* nothing known: the device */
	device_discard(4, 2, 5, 260);
	feed(t, 1);
	ck_assert_uint_eq(collect_table_rows(t), 3);
	ck_assert_int_eq(collect_table_row(t, 0, &r), 0);
	ck_assert_uint_eq(r.source_type, 0);
	ck_assert_uint_eq(r.source_index, 5);
	ck_assert_uint_eq(r.drops, 2);
	ck_assert_uint_eq(r.top_reason, 260);
	ck_assert_int_eq(collect_table_row(t, 1, &r), 0);
	ck_assert_uint_eq(r.source_index, 7);
	ck_assert_uint_eq(r.drops, 1);
	ck_assert_uint_eq(r.top_reason, 258);
	ck_assert_int_eq(collect_table_row(t, 2, &r), 0);
	ck_assert_uint_eq(r.source_type, 2);
	ck_assert_uint_eq(r.drops, 1);

	char out[4096];
	FILE *fp = fmemopen(out, sizeof out, "w");
	ck_assert_ptr_nonnull(fp);
	collect_table_render(t, fp, 0);
	fclose(fp);
	char *dev = strstr(out, " 2:1 "), *p5 = strstr(out, " 0:5 "), *p7 = strstr(out, " 0:7 ");
	ck_assert_ptr_nonnull(dev);
	ck_assert_ptr_nonnull(p5);
	ck_assert_ptr_nonnull(p7);
	ck_assert(dev < p5 && p5 < p7);
	collect_table_free(t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("table");
	TCase *tc = tcase_create("table");
	tcase_add_test(tc, rows);
	tcase_add_test(tc, drops_by_port);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
