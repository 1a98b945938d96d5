/*
 * test_prometheus.c - unit tests of bsflow-collect's Prometheus metrics
 * (prometheus.c) on datagrams built by hand: BST hundredths of a percent
 * become ratios (5000 -> 0.5), a drop notification counts under its
 * reason name, sequence gaps count the missing datagrams (1 then 5: 3
 * missing), the series cap refuses and counts, stale series expire, and
 * OpenMetrics ends in "# EOF".
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "collector/prometheus.h"
#include "proto/sflow_own.h"
#include "proto/sflow_drops.h"

static char *render(struct collect_prom *p, int om, double now)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(collect_prom_render(p, f, om, now), 0);
	fclose(f);
	return buf;
}

/* A datagram from 10.0.0.1 with sequence seq: one counters sample of 0:3
 * with a 4413:2 record, and one 0:5 drop notification (no buffer space). */
static void datagram(struct sflow_datagram *d, struct sflow_sample *s, struct sflow_record *r,
		     uint32_t seq)
{
	memset(d, 0, sizeof *d);
	memset(s, 0, 2 * sizeof *s);
	memset(r, 0, sizeof *r);
	d->version = 5;
	d->agent.type = SFLOW_ADDR_IP4;
	d->agent.a[0] = 10;
	d->agent.a[3] = 1;
	d->sequence_number = seq;
	d->nsamples = 2;
	d->samples = s;
	s[0].kind = SFLOW_SMP_COUNTERS;
	s[0].h.counters.source_id_index = 3;
	s[0].nrecords = 1;
	s[0].records = r;
	r->kind = SFLOW_REC_BST_PORT;
	r->u.bst_port.ingress_uc_pc = 5000;
	r->u.bst_port.ingress_mc_pc = -1;
	r->u.bst_port.egress_uc_pc = 10000;
	r->u.bst_port.egress_mc_pc = 0;
	r->u.bst_port.n_uc = 1;
	r->u.bst_port.egress_queue_uc_pc[0] = 2500;
	s[1].kind = SFLOW_SMP_DISCARD;
	s[1].h.discard.source_id_index = 3;
	s[1].h.discard.reason = SFLOW_DROP_NO_BUFFER_SPACE;
}

START_TEST(test_values)
{
	struct collect_prom *p = collect_prom_new(SFLOW_ENT_OWN_DEFAULT, 300, 1000);
	struct sflow_datagram d;
	struct sflow_sample s[2];
	struct sflow_record r;
	char *out;

	datagram(&d, s, &r, 1);
	collect_prom_datagram(p, &d, 10);
	datagram(&d, s, &r, 5);
	collect_prom_datagram(p, &d, 11);
	out = render(p, 0, 12);
	ck_assert_ptr_nonnull(strstr(out, "bsflow_bst_port_peak_ratio{agent=\"10.0.0.1\","
					  "source=\"0:3\",direction=\"ingress\",cast=\"unicast\"} "
					  "0.5\n"));
	ck_assert_ptr_nonnull(strstr(out, "direction=\"egress\",cast=\"unicast\"} 1\n"));
	ck_assert_ptr_nonnull(strstr(out, "direction=\"egress\",cast=\"multicast\"} 0\n"));
	/* -1 is unknown: no series */
	ck_assert_ptr_null(strstr(out, "direction=\"ingress\",cast=\"multicast\""));
	ck_assert_ptr_nonnull(strstr(out, "bsflow_bst_queue_peak_ratio{agent=\"10.0.0.1\","
					  "source=\"0:3\",queue=\"0\",cast=\"unicast\"} 0.25\n"));
	ck_assert_ptr_nonnull(strstr(out, "bsflow_drop_notifications_total{agent=\"10.0.0.1\","
					  "source=\"0:3\",reason=\"no_buffer_space\"} 2\n"));
	ck_assert_ptr_nonnull(
	    strstr(out, "bsflow_datagram_sequence_gaps_total{agent=\"10.0.0.1\"} 3\n"));
	ck_assert_ptr_nonnull(strstr(out, "bsflow_datagrams_total{agent=\"10.0.0.1\"} 2\n"));
	ck_assert_ptr_nonnull(strstr(out, "# TYPE bsflow_datagrams_total counter\n"));
	ck_assert_ptr_null(strstr(out, "# EOF"));
	free(out);
	out = render(p, 1, 12);
	ck_assert_ptr_nonnull(strstr(out, "# TYPE bsflow_datagrams counter\n"));
	ck_assert_str_eq(out + strlen(out) - 6, "# EOF\n");
	free(out);
	collect_prom_free(p);
}
END_TEST

START_TEST(test_cap_and_expiry)
{
	struct collect_prom *p = collect_prom_new(SFLOW_ENT_OWN_DEFAULT, 60, 3);
	struct sflow_datagram d;
	struct sflow_sample s[2];
	struct sflow_record r;
	char *out;

	/* datagrams, gaps, then 4 BST port, 1 queue, 1 drop series: 3 fit */
	datagram(&d, s, &r, 1);
	collect_prom_datagram(p, &d, 100);
	ck_assert_uint_eq(collect_prom_series(p), 3);
	ck_assert_uint_eq(collect_prom_refused(p), 4);
	out = render(p, 0, 150);
	ck_assert_ptr_nonnull(strstr(out, "bsflow_exporter_series_refused_total 4\n"));
	free(out);
	/* 60 s without renewal: gone */
	out = render(p, 0, 161);
	ck_assert_ptr_null(strstr(out, "agent=\"10.0.0.1\""));
	ck_assert_ptr_nonnull(strstr(out, "bsflow_exporter_series 0\n"));
	free(out);
	collect_prom_free(p);
}
END_TEST

/* A sampler's name comes from the wire: whatever its bytes, the label is
 * valid text of the exposition format (UTF-8, \\ and \" escaped), so
 * that one agent's datagram cannot make every scrape fail.  E:7 with the
 * sampler "a\xffb\"\\" (bytes 61 ff 62 22 5c), seen 7: its label
 * value is a, U+00FF as UTF-8 (c3 bf), b, \" and \\. */
START_TEST(test_sampler_name_label)
{
	struct collect_prom *p = collect_prom_new(SFLOW_ENT_OWN_DEFAULT, 300, 1000);
	static const uint8_t name[5] = {0x61, 0xff, 0x62, 0x22, 0x5c};
	uint8_t el[4 + 8 + 100];
	struct sflow_datagram d;
	struct sflow_sample s;
	struct sflow_record r;
	char *out;

	memset(el, 0, sizeof el);
	el[3] = 5; /* name length */
	memcpy(el + 4, name, 5);
	el[12 + 7] = 7; /* seen */
	memset(&d, 0, sizeof d);
	memset(&s, 0, sizeof s);
	memset(&r, 0, sizeof r);
	d.version = 5;
	d.agent.type = SFLOW_ADDR_IP4;
	d.agent.a[0] = 10;
	d.agent.a[3] = 1;
	d.nsamples = 1;
	d.samples = &s;
	s.kind = SFLOW_SMP_COUNTERS;
	s.h.counters.source_id_type = 2;
	s.h.counters.source_id_index = 1;
	s.nrecords = 1;
	s.records = &r;
	r.kind = SFLOW_REC_OWN;
	r.tag = SFLOW_TAG(SFLOW_ENT_OWN_DEFAULT, SFLOW_OWN_SAMPLER_STATS);
	r.u.own.format = SFLOW_OWN_SAMPLER_STATS;
	r.u.own.u.samplers.n = 1;
	r.u.own.u.samplers.len = sizeof el;
	r.u.own.u.samplers.p = el;
	collect_prom_datagram(p, &d, 10);
	out = render(p, 0, 11);
	ck_assert_ptr_nonnull(strstr(out, "bsflow_sampler_events_seen_total{agent=\"10.0.0.1\","
					  "sampler=\"a\xc3\xbf"
					  "b\\\"\\\\\"} 7\n"));
	free(out);
	collect_prom_free(p);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("prometheus");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, test_values);
	tcase_add_test(tc, test_cap_and_expiry);
	tcase_add_test(tc, test_sampler_name_label);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
