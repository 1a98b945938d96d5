/*
 * test_table.c - unit test of bsflow-collect's per-port table (table.c):
 * datagrams are encoded with libsflow, decoded, fed to the table, and the
 * rows are checked against the figures put in (peak = the largest
 * percentage over 4413:2 and own records, wrap-safe discard deltas, drops
 * by reason, largest queue delay, visibility events by type), and the
 * rendered table is checked line by line and cell by cell against text
 * written out by hand.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collector/table.h"
#include "proto/sflow.h"
#include "proto/sflow_decode.h"
#include "proto/sflow_encode.h"
#include "proto/sflow_own.h"

#define ENT 32473u

static struct sflow_dgram_builder B;
static uint8_t S[2048];
static uint8_t DG[SFLOW_DGRAM_MAX];
static size_t DGLEN;

/* A datagram of agent 10.0.0.<last>, sub-agent sub. */
static void start_agent(uint8_t last, uint32_t sub)
{
	struct sflow_addr agent = {.type = SFLOW_ADDR_IP4, .a = {10, 0, 0, last}};
	ck_assert_int_eq(sflow_builder_init(&B, &agent, sub, SFLOW_DGRAM_MAX, 0), SFLOW_OK);
}

static void start(void)
{
	start_agent(1, 0);
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

/* The column names: SOURCE 6, NAME 9, PEAK% 6 (right), PEAK_AT 10,
 * IN_DISC 7 (right), OUT_DISC 8 (right), DROPS 5 (right), TOP_REASON 15,
 * DELAY_US 8 (right), Q 3, then EVENTS, one space between columns. */
#define HEADER                                                                                     \
	"SOURCE NAME       PEAK% PEAK_AT    IN_DISC OUT_DISC DROPS TOP_REASON      DELAY_US Q   "  \
	"EVENTS\n"

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

	/* rendering: the column names, the agent, the device, then the port
	 * (whose delay is still the first sample's: the second had none) */
	char out[4096];
	FILE *fp = fmemopen(out, sizeof out, "w");
	ck_assert_ptr_nonnull(fp);
	collect_table_render(t, fp, 0);
	fclose(fp);
	ck_assert_str_eq(out, HEADER "agent 10.0.0.1\n"
				     "2:1    -          50.00 device_uc        -        -     0 "
				     "-                      - -   -\n"
				     "0:3    swp1           - -               15       32     3 "
				     "no_buffer_space      7.0 uc1 -\n");
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
	char *dev = strstr(out, "\n2:1 "), *p5 = strstr(out, "\n0:5 "), *p7 = strstr(out, "\n0:7 ");
	ck_assert_ptr_nonnull(dev);
	ck_assert_ptr_nonnull(p5);
	ck_assert_ptr_nonnull(p7);
	ck_assert(dev < p5 && p5 < p7);
	collect_table_free(t);
}
END_TEST

/* An own visibility event sample (E:1 of enterprise ent) on data source
 * stype:sindex with one visibility_event record of this type; extra adds
 * the standard records bsflowd puts after it. */
static void vis_event(uint32_t seq, uint32_t ent, uint32_t stype, uint32_t sindex, uint32_t type,
		      int extra)
{
	struct sflow_w w;
	struct sflow_sample_enc s;
	struct sflow_own_event_sample h = {seq, stype, sindex, 0, 0, stype == 0 ? sindex : 0};
	struct sflow_own_vis_event ev;

	memset(&ev, 0, sizeof ev);
	ev.type = type;
	ev.own_id = ev.event_id = seq;
	ev.queue = 2;
	ev.depth = 300000;
	ev.delay = 150000;
	ev.peak_time_ns = UINT64_MAX;
	sflow_w_init(&w, S, sizeof S);
	sflow_own_enc_event_begin(&w, &s, ent, &h);
	sflow_own_enc_vis_event(&w, &s, ent, &ev);
	if (extra) {
		sflow_enc_egress_queue(&w, &s, 2);
		sflow_enc_transit(&w, &s, 150000);
	}
	sflow_enc_sample_end(&w, &s);
	add(&w);
}

/* The rendered table into out. */
static void render(const struct collect_table *t, char *out, size_t n)
{
	FILE *fp = fmemopen(out, n, "w");
	ck_assert_ptr_nonnull(fp);
	collect_table_render(t, fp, 0);
	ck_assert_int_eq(fclose(fp), 0);
}

/* The cells of the first line starting with "src " after the text at
 * from, joined by one space (no cell holds a space); "" when none. */
static const char *cells_after(const char *out, const char *from, const char *src)
{
	static char buf[256];
	const char *p = strstr(out, from);
	size_t n = strlen(src), k = 0;

	buf[0] = '\0';
	ck_assert_ptr_nonnull(p);
	for (;;) {
		if (strncmp(p, src, n) == 0 && p[n] == ' ')
			break;
		p = strchr(p, '\n');
		if (!p)
			return buf;
		p++;
	}
	for (; *p && *p != '\n'; p++) {
		if (*p == ' ' && (k == 0 || buf[k - 1] == ' '))
			continue;
		ck_assert_uint_lt(k, sizeof buf - 1);
		buf[k++] = *p;
	}
	buf[k] = '\0';
	return buf;
}

static const char *cells(const char *out, const char *src)
{
	return cells_after(out, "", src);
}

/* Visibility events count by type on the row of their sample's data
 * source; congestion counts episodes and marks an open one. */
START_TEST(events)
{
	struct collect_table *t = collect_table_new(ENT);
	struct collect_table_row r;
	char out[4096];
	ck_assert_ptr_nonnull(t);

	start();
	port_sample(1, 10, 20, 0); /* 0:3 "swp1", nothing else known */
	vis_event(1, ENT, 0, 3, SFLOW_OWN_VIS_CONGESTION_START, 0);
	vis_event(2, ENT, 0, 3, SFLOW_OWN_VIS_HIGH_DELAY, 1);
	vis_event(3, ENT, 0, 3, SFLOW_OWN_VIS_HIGH_DELAY, 0);
	vis_event(4, ENT, 0, 3, SFLOW_OWN_VIS_CONGESTION_START, 0); /* another queue */
	vis_event(5, ENT, 0, 3, SFLOW_OWN_VIS_FORENSICS, 1);
	vis_event(6, ENT, 0, 3, SFLOW_OWN_VIS_HIGH_DELAY, 0);
	vis_event(7, ENT, 0, 3, SFLOW_OWN_VIS_CONGESTION_END, 0);
	vis_event(1, ENT, 0, 5, SFLOW_OWN_VIS_CONGESTION_END, 0);	/* start not seen */
	vis_event(2, ENT, 0, 5, SFLOW_OWN_VIS_DROP, 0);			/* reserved: not counted */
	vis_event(3, ENT, 0, 5, 9, 0);					/* unknown type */
	vis_event(1, ENT, 2, 1, SFLOW_OWN_VIS_FORENSICS, 0);		/* the device's */
	vis_event(1, ENT + 1, 0, 7, SFLOW_OWN_VIS_CONGESTION_START, 0); /* not ours */
	feed(t, 1);

	ck_assert_uint_eq(collect_table_rows(t), 3);
	ck_assert_int_eq(collect_table_row(t, 0, &r), 0);
	ck_assert_uint_eq(r.source_index, 3);
	ck_assert_uint_eq(r.congestion, 2);
	ck_assert_uint_eq(r.congestion_open, 1);
	ck_assert_uint_eq(r.high_delay, 3);
	ck_assert_uint_eq(r.forensics, 1);

	/* 0:5 and the device 2:1 are checked in the rendering */
	render(t, out, sizeof out);
	ck_assert_str_eq(out, HEADER "agent 10.0.0.1\n"
				     "2:1    -              - -                -        -     0 "
				     "-                      - -   F1\n"
				     "0:3    swp1           - -                -        -     0 "
				     "-                      - -   C2* D3 F1\n"
				     "0:5    -              - -                -        -     0 "
				     "-                      - -   C1\n");

	/* the other queue's episode ends, a third starts; a second agent */
	start();
	vis_event(8, ENT, 0, 3, SFLOW_OWN_VIS_CONGESTION_END, 0);
	feed(t, 2);
	render(t, out, sizeof out);
	ck_assert_str_eq(cells(out, "0:3"), "0:3 swp1 - - - - 0 - - - C2 D3 F1");
	start();
	vis_event(9, ENT, 0, 3, SFLOW_OWN_VIS_CONGESTION_START, 0);
	feed(t, 3);
	start_agent(2, 1);
	vis_event(1, ENT, 0, 3, SFLOW_OWN_VIS_HIGH_DELAY, 0);
	feed(t, 1);
	render(t, out, sizeof out);
	ck_assert_str_eq(cells(out, "0:3"), "0:3 swp1 - - - - 0 - - - C3* D3 F1");
	ck_assert_str_eq(cells(out, "0:5"), "0:5 - - - - - 0 - - - C1");
	ck_assert_ptr_nonnull(strstr(out, "\nagent 10.0.0.2 sub-agent 1\n0:3    -  "));
	ck_assert_str_eq(cells_after(out, "agent 10.0.0.2", "0:3"), "0:3 - - - - - 0 - - - D1");
	collect_table_free(t);
}
END_TEST

/* n events of one type on 0:9, as hand-built decoded datagrams of at most
 * 1000 samples (all pointing to the same record). */
static void feed_events(struct collect_table *t, uint32_t type, uint64_t n)
{
	static struct sflow_sample smp[1000];
	struct sflow_record rec;
	struct sflow_datagram d;

	memset(&rec, 0, sizeof rec);
	rec.tag = SFLOW_TAG(ENT, SFLOW_OWN_VIS_EVENT);
	rec.kind = SFLOW_REC_OWN;
	rec.u.own.format = SFLOW_OWN_VIS_EVENT;
	rec.u.own.u.event.type = type;
	for (unsigned i = 0; i < 1000; i++) {
		memset(&smp[i], 0, sizeof smp[i]);
		smp[i].tag = SFLOW_TAG(ENT, SFLOW_OWN_SMP_EVENT);
		smp[i].kind = SFLOW_SMP_OWN;
		smp[i].h.own.format = SFLOW_OWN_SMP_EVENT;
		smp[i].h.own.u.event.source_id_type = 0;
		smp[i].h.own.u.event.source_id_index = 9;
		smp[i].nrecords = 1;
		smp[i].records = &rec;
	}
	memset(&d, 0, sizeof d);
	d.version = 5;
	d.agent.type = SFLOW_ADDR_IP4;
	d.agent.a[0] = 10;
	d.agent.a[3] = 1;
	d.samples = smp;
	while (n > 0) {
		d.nsamples = n < 1000 ? (uint32_t)n : 1000;
		ck_assert_int_eq(collect_table_add(t, &d), 0);
		n -= d.nsamples;
	}
}

/* From 10000 on, counts are shown in thousands, from 10000000 on in
 * millions, rounded down. */
START_TEST(event_counts)
{
	struct collect_table *t = collect_table_new(ENT);
	char out[1024];
	ck_assert_ptr_nonnull(t);

	feed_events(t, SFLOW_OWN_VIS_FORENSICS, 9999);
	feed_events(t, SFLOW_OWN_VIS_HIGH_DELAY, 12345);
	feed_events(t, SFLOW_OWN_VIS_CONGESTION_START, 10000);
	feed_events(t, SFLOW_OWN_VIS_CONGESTION_END, 9999);
	render(t, out, sizeof out);
	ck_assert_str_eq(cells(out, "0:9"), "0:9 - - - - - 0 - - - C10k* D12k F9999");

	feed_events(t, SFLOW_OWN_VIS_CONGESTION_END, 1);
	feed_events(t, SFLOW_OWN_VIS_HIGH_DELAY, 9999999 - 12345);
	render(t, out, sizeof out);
	ck_assert_str_eq(cells(out, "0:9"), "0:9 - - - - - 0 - - - C10k D9999k F9999");
	feed_events(t, SFLOW_OWN_VIS_HIGH_DELAY, 1);
	render(t, out, sizeof out);
	ck_assert_str_eq(cells(out, "0:9"), "0:9 - - - - - 0 - - - C10k D10M F9999");
	collect_table_free(t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("table");
	TCase *tc = tcase_create("table");
	tcase_add_test(tc, rows);
	tcase_add_test(tc, drops_by_port);
	tcase_add_test(tc, events);
	tcase_add_test(tc, event_counts);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
