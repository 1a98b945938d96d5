/*
 * sim_ext.c - bsflow-sim's report of the optional admission-path
 * mechanisms (text and JSON): the ingress arbiter's counters (packets
 * accelerated or not, by cause; AM occupancy; congestion transitions and
 * time; SOP latency per mode) and the flow-based admission's regions
 * (occupancy, bound, state, admitted, dropped, mirrored, short-time
 * changes).  Nothing is printed for a mechanism that is off.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdio.h>

#include "agent/model/model_flowbuf.h"
#include "agent/model/model_iarb.h"
#include "agent/model/sim_ext.h"

static const char *const in_names[MODEL_IARB_NIN] = {"am_fill",
						     "pfc_ingress",
						     "pfc_egress",
						     "pfc_ingress_resources",
						     "pfc_egress_resources",
						     "oversubscription",
						     "egress_over"};

static double lat_mean(const struct model_iarb_lat *l)
{
	return l->n ? (double)l->sum / (double)l->n : 0.0;
}

static uint64_t lat_min(const struct model_iarb_lat *l)
{
	return l->n ? l->min : 0;
}

static int region_used(const struct model_fb_region *g)
{
	return g->admitted + g->dropped + g->peak != 0;
}

void model_sim_ext_text(struct model *m)
{
	struct model_iarb *ia = model_iarb_of(m);
	struct model_fb *fb = model_fb_of(m);
	uint64_t now = model_now(m);
	if (ia != NULL) {
		const struct model_iarb_config *c = model_iarb_config(ia);
		struct model_iarb_counters t;
		model_iarb_read(ia, c->n_ports, SIM_EXT_WINDOW, now, &t);
		printf(
		    "\n== ingress arbitration (accelerated memory %llu B, packet buffer %llu B)\n",
		    (unsigned long long)c->am_bytes, (unsigned long long)c->pb_bytes);
		printf("SOPs accelerated %llu, not %llu, dropped (PB full) %llu\n",
		       (unsigned long long)t.accel, (unsigned long long)t.not_accel,
		       (unsigned long long)t.dropped);
		printf("not accelerated by cause:");
		for (unsigned k = 0; k < MODEL_IARB_NIN; k++)
			printf(" %s %llu", in_names[k], (unsigned long long)t.by_cause[k]);
		printf("\ncongestion: %llu transitions, %.6f s congested; AM peak %llu B "
		       "(%.2f%%); PFC assertions %llu\n",
		       (unsigned long long)t.transitions, (double)t.congested_ns / 1e9,
		       (unsigned long long)t.am_peak, t.am_peak_pc / 100.0,
		       (unsigned long long)t.pfc_on);
		printf(
		    "SOP latency ns (min/mean/max): AM %llu/%.1f/%llu, PB %llu/%.1f/%llu\n",
		    (unsigned long long)lat_min(&t.lat[MODEL_IARB_AM]),
		    lat_mean(&t.lat[MODEL_IARB_AM]), (unsigned long long)t.lat[MODEL_IARB_AM].max,
		    (unsigned long long)lat_min(&t.lat[MODEL_IARB_PB]),
		    lat_mean(&t.lat[MODEL_IARB_PB]), (unsigned long long)t.lat[MODEL_IARB_PB].max);
	}
	if (fb != NULL) {
		const struct model_fb_config *c = model_fb_config(fb);
		printf("\n== flow-based admission (%s, pool %llu %s)\n",
		       c->flow_on ? "flow regions on" : "flow regions off",
		       (unsigned long long)c->pool,
		       c->unit == MODEL_FB_UNIT_PKTS ? "packets" : "bytes");
		printf("%-6s %12s %12s %8s %10s %12s %10s %10s %10s %6s\n", "region", "cur", "peak",
		       "peak_pct", "state", "admitted", "dropped", "wred", "mirrored", "stc");
		for (uint32_t i = 0; i < c->n_counts; i++) {
			struct model_fb_region g;
			model_fb_read(fb, (uint16_t)i, &g);
			if (!region_used(&g))
				continue;
			printf("%-6u %12llu %12llu %8.2f %10u %12llu %10llu %10llu %10llu %6llu\n",
			       i, (unsigned long long)g.cur, (unsigned long long)g.peak,
			       g.peak_pc / 100.0, g.state, (unsigned long long)g.admitted,
			       (unsigned long long)g.dropped, (unsigned long long)g.dropped_wred,
			       (unsigned long long)g.mirrored, (unsigned long long)g.stc_events);
		}
	}
}

void model_sim_ext_json(struct model *m)
{
	struct model_iarb *ia = model_iarb_of(m);
	struct model_fb *fb = model_fb_of(m);
	uint64_t now = model_now(m);
	if (ia != NULL) {
		const struct model_iarb_config *c = model_iarb_config(ia);
		struct model_iarb_counters t;
		model_iarb_read(ia, c->n_ports, SIM_EXT_WINDOW, now, &t);
		printf("\"ingress_arbitration\":{\"accelerated\":%llu,\"not_accelerated\":%llu,"
		       "\"dropped\":%llu,\"by_cause\":{",
		       (unsigned long long)t.accel, (unsigned long long)t.not_accel,
		       (unsigned long long)t.dropped);
		for (unsigned k = 0; k < MODEL_IARB_NIN; k++)
			printf("%s\"%s\":%llu", k ? "," : "", in_names[k],
			       (unsigned long long)t.by_cause[k]);
		printf("},\"transitions\":%llu,\"congested_ns\":%llu,\"am_peak_bytes\":%llu,"
		       "\"am_peak_pc\":%u,\"pfc_on\":%llu,",
		       (unsigned long long)t.transitions, (unsigned long long)t.congested_ns,
		       (unsigned long long)t.am_peak, t.am_peak_pc, (unsigned long long)t.pfc_on);
		for (int k = 0; k < 2; k++) {
			const struct model_iarb_lat *l =
			    &t.lat[k == 0 ? MODEL_IARB_AM : MODEL_IARB_PB];
			printf("\"sop_latency_%s_ns\":{\"min\":%llu,\"mean\":%.1f,\"max\":%llu}%s",
			       k == 0 ? "am" : "pb", (unsigned long long)lat_min(l), lat_mean(l),
			       (unsigned long long)l->max, k == 0 ? "," : "");
		}
		printf("},");
	}
	if (fb != NULL) {
		const struct model_fb_config *c = model_fb_config(fb);
		printf("\"flow_admission\":{\"flow_regions\":%s,\"regions\":[",
		       c->flow_on ? "true" : "false");
		int first = 1;
		for (uint32_t i = 0; i < c->n_counts; i++) {
			struct model_fb_region g;
			model_fb_read(fb, (uint16_t)i, &g);
			if (!region_used(&g))
				continue;
			printf("%s{\"region\":%u,\"cur\":%llu,\"peak\":%llu,\"peak_pc\":%u,"
			       "\"state\":%u,\"admitted\":%llu,\"dropped\":%llu,\"wred\":%llu,"
			       "\"mirrored\":%llu,\"stc_events\":%llu}",
			       first ? "" : ",", i, (unsigned long long)g.cur,
			       (unsigned long long)g.peak, g.peak_pc, g.state,
			       (unsigned long long)g.admitted, (unsigned long long)g.dropped,
			       (unsigned long long)g.dropped_wred, (unsigned long long)g.mirrored,
			       (unsigned long long)g.stc_events);
			first = 0;
		}
		printf("]},");
	}
}
