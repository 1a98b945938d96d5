/*
 * test_model_pfc_wred.c - the switch model's PFC and WRED against their
 * rules: a lossless class with headroom sized by the documented rule
 * loses nothing under 4:1 incast while a lossy class on the same ports
 * drops (and a headroom below the rule does lose); WRED drop fractions at
 * each held queue depth match the configured curve within 1 point.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "agent/model/model.h"
#include "agent/model/tests/tsrc.h"

#define G10 10000000000ULL

/*
 * Headroom rule (also in model.h): after a PG sends XOFF at t its sender
 * stops at t + d (d = pfc_delay_ns, cable + response).  What can still
 * arrive: the packet that crossed the threshold, the packets sent during
 * the round trip 2 d (counted conservatively), and one more MTU that was
 * already being sent:
 *   headroom_cells >= cells(MTU) * (2 + ceil(2 * d * R / (8 * (MTU + 20))))
 */
static uint32_t headroom_rule(uint32_t mtu, uint32_t cell, uint64_t d_ns, uint64_t bps)
{
	uint32_t cells_mtu = (mtu + cell - 1) / cell;
	double inflight = 2.0 * (double)d_ns * (double)bps / (8.0 * 1e9 * (mtu + 20));
	return cells_mtu * (2 + (uint32_t)ceil(inflight));
}

struct pfc_result {
	uint64_t lossless_drops, lossy_drops, lossless_dep, xoff;
	uint32_t hdrm_peak;
};

static struct pfc_result pfc_run(uint32_t headroom, uint64_t delay_ns)
{
	const unsigned nin = 4, out = 4;
	struct model_config cfg;
	ck_assert_int_eq(tcfg_simple(&cfg, 5, G10), 0);
	cfg.event_capacity = 64;
	for (unsigned i = 0; i < 5; i++) {
		struct model_port_config *p = &cfg.ports[i];
		p->n_ucq = 4;
		for (unsigned t = 0; t < 4; t++)
			p->tc_to_ucq[t] = (uint8_t)t;
		p->pfc_delay_ns = delay_ns;
		struct model_pg_config *g = &p->pg[3];
		g->lossless = 1;
		g->shared.mode = MODEL_LIMIT_STATIC;
		g->shared.cells = 60;
		g->headroom_cells = headroom;
		g->xoff_cells = 0; /* XOFF as the first packet goes to headroom */
		g->xon_cells = 30;
	}
	cfg.ports[out].ucq[0].shared.cells = 120; /* lossy queue: small */
	struct model *m = tmodel(&cfg);
	model_config_release(&cfg);
	const uint64_t n3 = 4000;
	for (unsigned i = 0; i < nin; i++) {
		/* per ingress link: 75 % lossless (tc 3) + 25 % lossy (tc 0),
		 * 1500 B; 4:1 onto port 4 */
		struct tsrc_spec sp = {0};
		sp.in_port = (uint16_t)i;
		sp.out_port = out;
		sp.tc = 3;
		sp.gap_ns = tsrc_ser_ns(1500, G10) / 0.75;
		sp.len = 1500;
		sp.count = n3;
		sp.t0_ns = 100 * i;
		tadd(m, &sp);
		sp.tc = 0;
		sp.gap_ns = tsrc_ser_ns(1500, G10) / 0.25;
		sp.count = n3 / 3;
		sp.t0_ns = 100 * i + 50;
		tadd(m, &sp);
	}
	struct pfc_result r = {0};
	struct model_buffers *b = model_buffers_new(m);
	while (!model_idle(m)) {
		model_advance_to(m, model_now(m) + 100000);
		model_read_buffers(m, 0, b);
		for (unsigned i = 0; i < nin; i++)
			if (b->ports[i].pg_headroom[3].peak_cells > r.hdrm_peak)
				r.hdrm_peak = b->ports[i].pg_headroom[3].peak_cells;
	}
	model_buffers_free(b);
	struct model_port_drops d;
	model_read_drops(m, out, &d);
	for (unsigned c = 0; c < MODEL_DROP_NCAUSES; c++) {
		r.lossless_drops += d.ucq[3][c];
		r.lossy_drops += d.ucq[0][c];
	}
	struct model_delay dl;
	model_read_delay(m, 0, out, 3, 0, &dl);
	r.lossless_dep = dl.n;
	for (unsigned i = 0; i < nin; i++) {
		struct model_if_counters c;
		model_read_counters(m, i, &c);
		r.xoff += c.pfc_xoff[3];
	}
	struct model_err err;
	ck_assert_msg(model_audit(m, &err) == 0, "audit: %s", err.msg);
	model_free(m);
	printf("PFC headroom %u cells, delay %llu ns: lossless drops %llu departed %llu, lossy "
	       "drops %llu, XOFF %llu, headroom peak %u cells\n",
	       headroom, (unsigned long long)delay_ns, (unsigned long long)r.lossless_drops,
	       (unsigned long long)r.lossless_dep, (unsigned long long)r.lossy_drops,
	       (unsigned long long)r.xoff, r.hdrm_peak);
	ck_assert_uint_eq(r.lossless_dep + r.lossless_drops, nin * n3);
	return r;
}

START_TEST(test_pfc_lossless)
{
	uint64_t d = 1000;
	uint32_t h = headroom_rule(1500, 256, d, G10);
	ck_assert_uint_eq(h, 24); /* 6 cells * (2 + ceil(2000 * 10 / 8 / 1520)) */
	struct pfc_result r = pfc_run(h, d);
	ck_assert_uint_eq(r.lossless_drops, 0);
	ck_assert_uint_gt(r.lossy_drops, 0);
	ck_assert_uint_gt(r.xoff, 10);
	ck_assert_uint_gt(r.hdrm_peak, 0);
	ck_assert_uint_le(r.hdrm_peak, h);
	/* a longer cable with the same headroom breaks the rule: loss */
	d = 10000;
	ck_assert_uint_gt(headroom_rule(1500, 256, d, G10), h);
	r = pfc_run(h, d);
	ck_assert_uint_gt(r.lossless_drops, 0);
	/* and the rule's headroom for it holds again */
	r = pfc_run(headroom_rule(1500, 256, d, G10), d);
	ck_assert_uint_eq(r.lossless_drops, 0);
}
END_TEST

/* h. WRED: 1000 B packets, Poisson at 1.3 x line rate into one queue with
 * WRED min 20000 B, max 60000 B, max probability 0.5.  For every queue
 * depth met by arrivals (multiples of 1000 B) with at least 20000 trials,
 * the dropped fraction is within 1 point of
 *   p(d) = 0.5 (d - 20000) / 40000 for 20000 <= d < 60000, 0 below. */
#define WBINS 128
struct wred_count {
	uint64_t trials[WBINS], drops[WBINS];
	uint64_t other_cause;
};

static void wred_trace(void *arg, const struct model_trace *tr)
{
	struct wred_count *c = arg;
	unsigned bin = tr->depth_bytes / 1000;
	if (bin >= WBINS)
		bin = WBINS - 1;
	c->trials[bin]++;
	if (!tr->departed) {
		c->drops[bin]++;
		if (tr->cause != MODEL_DROP_WRED)
			c->other_cause++;
	}
}

START_TEST(test_wred_curve)
{
	const double minb = 20000, maxb = 60000, maxp = 0.5;
	struct model_config cfg;
	ck_assert_int_eq(tcfg_simple(&cfg, 2, G10), 0);
	struct model_wred_config *w = &cfg.ports[1].ucq[0].wred;
	w->enabled = 1;
	w->min_bytes = (uint32_t)minb;
	w->max_bytes = (uint32_t)maxb;
	w->max_prob = maxp;
	cfg.event_capacity = 100;
	struct model *m = tmodel(&cfg);
	model_config_release(&cfg);
	struct wred_count *c = calloc(1, sizeof(*c));
	model_set_trace(m, wred_trace, c);
	struct tsrc_spec sp = {0};
	sp.in_port = 0;
	sp.out_port = 1;
	sp.gap_dist = TS_EXP;
	sp.gap_ns = 816 / 1.3;
	sp.len = 1000;
	sp.count = (uint64_t)(1000000 * tsrc_scale());
	sp.seed = 5;
	tadd(m, &sp);
	ck_assert_int_eq(model_run(m, MODEL_T_END), 0);
	ck_assert_uint_eq(c->other_cause, 0);
	unsigned checked = 0;
	double worst = 0;
	for (unsigned b = 0; b < WBINS - 1; b++) {
		if (c->trials[b] < 20000)
			continue;
		double d = b * 1000.0;
		double p = d < minb ? 0 : d >= maxb ? 1 : maxp * (d - minb) / (maxb - minb);
		double f = (double)c->drops[b] / (double)c->trials[b];
		if (fabs(f - p) > worst)
			worst = fabs(f - p);
		ck_assert_msg(fabs(f - p) < 0.01,
			      "depth %.0f: dropped %.4f, curve %.4f (%llu trials)", d, f, p,
			      (unsigned long long)c->trials[b]);
		checked++;
	}
	printf("WRED: %u depths with >= 20000 trials, worst |dropped - curve| = %.4f\n", checked,
	       worst);
	ck_assert_uint_ge(checked, 5);
	struct model_event ev[100];
	size_t n = model_events_read(m, ev, 100);
	ck_assert_uint_eq(n, 100);
	for (size_t i = 0; i < n; i++) {
		ck_assert_int_eq(ev[i].type, MODEL_EV_DROP);
		ck_assert_int_eq(ev[i].reason, MODEL_REASON_RED);
	}
	struct model_stats st;
	model_get_stats(m, &st);
	ck_assert_uint_eq(st.events_lost, st.events - 100);
	free(c);
	model_free(m);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("model_pfc_wred");
	TCase *tc = tcase_create("pfc_wred");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_pfc_lossless);
	tcase_add_test(tc, test_wred_curve);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
