/*
 * sim.c - bsflow-sim: run the model section of a bsflowd config file on
 * virtual time, as fast as possible, and print what the switch saw.
 *
 *   bsflow-sim -f FILE [--duration S] [--seed N] [--json]
 *
 * Prints per-port counters and buffer peaks, per-queue drops, peaks,
 * time-average occupancy, BST percentages and queue delay (mean,
 * percentiles and maximum of every packet, and the two estimates a switch
 * can make: packets timed one at a time, the age kept by markers),
 * priority groups (peaks, headroom, PFC XOFF time, packets held at paused
 * senders, drops), drops by class and by cause, the service pools, totals,
 * and the number of simulated packets per wall-clock second; with --sflow
 * the datagrams bsflowd would send (sim_sflow.h).  See bsflow-sim(1).
 * The figures are read once, after the run, into a struct report; the text
 * and JSON printers only format it.
 * Exit codes: 0 success, 1 a bad config file, scenario or capture (or the
 * model failed), 2 bad command-line usage.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "agent/model/model.h"
#include "agent/model/scenario.h"
#include "agent/model/sim_ext.h"
#include "agent/model/sim_series.h"
#include "agent/model/sim_sflow.h"
#include "agent/model/sim_stats.h"

/* The read window of the end-of-run report (the export of --sflow reads
 * window 0, the series SIM_SERIES_WINDOW). */
#define SIM_REPORT_WINDOW SIM_EXT_WINDOW

#define EXIT_CONFIG 1
#define EXIT_USAGE  2

static void usage(FILE *f)
{
	fprintf(f,
		"usage: bsflow-sim -f FILE [--duration SECONDS] [--seed N] [--json]\n"
		"                  [--interval SECONDS [--series FILE] [--csv]]\n"
		"                  [--plot FILE.svg [--plot-queue PORT:QUEUE]...]\n"
		"                  [--sflow FILE.pcap] [--sflow-to HOST[:PORT] [--speed X|max]]\n"
		"                  [--epoch UNIX_SECONDS]\n");
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double pct(const struct model_occ *o)
{
	return o->alloc_cells ? 100.0 * o->peak_cells / o->alloc_cells : 0.0;
}

static uint64_t sum_causes(const uint64_t *c)
{
	uint64_t s = 0;

	for (unsigned i = 0; i < MODEL_DROP_NCAUSES; i++)
		s += c[i];
	return s;
}

static uint64_t sum_xoff(const struct model_if_counters *c)
{
	uint64_t s = 0;

	for (unsigned g = 0; g < MODEL_NUM_PG; g++)
		s += c->pfc_xoff[g];
	return s;
}

/* One port's figures. */
struct port_report {
	struct model_if_counters c;
	struct model_port_drops d;
	struct model_class_drops cd; /* by PG and class, at this ingress port */
	uint64_t rx_pkts, tx_pkts, pfc_xoff;
};

/* One queue's figures. */
struct queue_report {
	unsigned port, queue;
	int mc;
	struct model_delay d;
	const uint64_t *drops;	     /* by cause, in the port's report */
	const struct model_occ *occ; /* in the buffers */
	uint64_t drops_total;
	double mean_ns;	  /* true mean sojourn, 0 with no packets */
	double avg_bytes; /* time-average occupancy over the run */
	uint64_t p50, p99, p999;
	int starved; /* offered packets, sent none */
};

/* The mean of the packets timed one at a time (the non-tagged method), 0
 * with none: an estimate biased low (model.h struct model_delay
 * nt_sum_ns), printed next to the true mean to show by how much. */
static double timed_mean(const struct queue_report *w)
{
	return w->d.nt_count ? (double)w->d.nt_sum_ns / (double)w->d.nt_count : 0.0;
}

/* Everything printed, read once at the end of the run: the one walk over
 * ports and queues, shared by the text and JSON printers. */
struct report {
	const char *file;
	const struct model_scenario *sc;
	const struct model_config *cfg;
	struct model *m; /* for the optional mechanisms' report (sim_ext.c) */
	struct model_stats st;
	struct model_buffers *b;
	struct port_report *pr;	 /* cfg->nports */
	struct queue_report *qr; /* nqr active queues, by port, unicast first */
	unsigned nqr;
	double vt, wall, pps, dur_s;
	const struct sim_sflow_stats *sflow; /* NULL without --sflow */
	const char *sflow_pcap, *sflow_to;
};

static void report_free(struct report *r)
{
	free(r->qr);
	free(r->pr);
	model_buffers_free(r->b);
}

/* Reads queue q of port p (multicast if mc) into the next row of r->qr,
 * which is kept only if the queue carried, dropped or held a packet. */
static void read_queue(struct model *m, const struct sim_stats *ss, struct report *r, unsigned p,
		       unsigned q, int mc)
{
	struct queue_report *w = &r->qr[r->nqr];
	const struct port_report *pr = &r->pr[p];
	static const double qs[3] = {0.5, 0.99, 0.999};
	uint64_t pq[3];
	double area = 0;

	w->port = p;
	w->queue = q;
	w->mc = mc;
	model_read_delay(m, SIM_REPORT_WINDOW, p, q, mc, &w->d);
	model_read_occupancy(m, p, q, mc, &area);
	w->avg_bytes = r->dur_s > 0 ? area / (r->dur_s * 1e9) : 0;
	w->drops = mc ? pr->d.mcq[q] : pr->d.ucq[q];
	w->occ = mc ? &r->b->ports[p].mcq[q] : &r->b->ports[p].ucq[q];
	w->drops_total = sum_causes(w->drops);
	w->mean_ns =
	    w->d.n ? ((double)w->d.sum_ns + (double)w->d.sum_sub_fs / 1e6) / (double)w->d.n : 0.0;
	sim_stats_delays(ss, p, q, mc, 0, qs, pq, 3);
	w->p50 = pq[0];
	w->p99 = pq[1];
	w->p999 = pq[2];
	w->starved = w->d.n == 0 && (w->drops_total > 0 || w->occ->peak_cells > 0);
	if (w->d.n > 0 || w->drops_total > 0 || w->occ->peak_cells > 0)
		r->nqr++;
}

/* Reads the model's counters, drops, buffers and delays into r.  Returns 0,
 * or -1 out of memory (r is then still fit for report_free()). */
static int report_read(struct report *r, struct model *m, const struct sim_stats *ss,
		       const char *file, const struct model_scenario *sc, double wall, double dur_s)
{
	const struct model_config *cfg = model_config_of(m);
	unsigned p, q, nq = 0;

	memset(r, 0, sizeof(*r));
	r->file = file;
	r->m = m;
	r->sc = sc;
	r->cfg = cfg;
	r->dur_s = dur_s;
	for (p = 0; p < cfg->nports; p++)
		nq += cfg->ports[p].n_ucq + cfg->ports[p].n_mcq;
	r->b = model_buffers_new(m);
	r->pr = calloc(cfg->nports, sizeof(*r->pr));
	r->qr = calloc(nq ? nq : 1, sizeof(*r->qr));
	if (!r->b || !r->pr || !r->qr)
		return -1;
	model_read_buffers(m, SIM_REPORT_WINDOW, r->b);
	for (p = 0; p < cfg->nports; p++) {
		struct port_report *pr = &r->pr[p];
		const struct model_if_counters *c = &pr->c;
		model_read_counters(m, p, &pr->c);
		model_read_drops(m, p, &pr->d);
		sim_stats_drops(ss, p, 0, &pr->cd);
		pr->rx_pkts = c->in_ucast + c->in_mcast + c->in_bcast + c->in_discards;
		pr->tx_pkts = c->out_ucast + c->out_mcast + c->out_bcast;
		pr->pfc_xoff = sum_xoff(c);
		for (q = 0; q < cfg->ports[p].n_ucq; q++)
			read_queue(m, ss, r, p, q, 0);
		for (q = 0; q < cfg->ports[p].n_mcq; q++)
			read_queue(m, ss, r, p, q, 1);
	}
	model_get_stats(m, &r->st);
	r->vt = model_now(m) / 1e9;
	r->wall = wall;
	r->pps = wall > 0 ? r->st.arrived / wall : 0.0;
	return 0;
}

/* Did PG g of port p hold, drop, pause or hold back anything? */
static int pg_used(const struct report *r, unsigned p, unsigned g)
{
	const struct port_report *pr = &r->pr[p];
	const struct model_port_buffers *pb = &r->b->ports[p];

	return pb->pg[g].peak_cells || pb->pg_headroom[g].peak_cells || pr->c.pfc_xoff[g] ||
	       pr->c.pfc_held[g] || pr->cd.pg[g];
}

static void print_text(const struct report *r)
{
	const struct model_config *cfg = r->cfg;
	const struct model_buffers *b = r->b;
	const struct model_stats *st = &r->st;
	unsigned p, i, k, g;
	uint64_t cause_tot[MODEL_DROP_NCAUSES] = {0}, tc_tot[MODEL_NUM_TC] = {0};

	printf("bsflow-sim: %s: %u ports, %u cells of %u bytes (%.2f MB), seed %llu, %u traffic "
	       "sections, %u replays\n",
	       r->file, cfg->nports, cfg->total_cells, cfg->cell_bytes,
	       (double)cfg->total_cells * cfg->cell_bytes / 1048576.0,
	       (unsigned long long)cfg->seed, r->sc->ntraffic, r->sc->nreplay);

	printf("\n== ports\n");
	printf("%-4s %-10s %6s %12s %14s %12s %14s %10s %10s %8s %8s %8s\n", "port", "name",
	       "speed", "rx_pkts", "rx_bytes", "tx_pkts", "tx_bytes", "in_disc", "out_disc",
	       "peak_in%", "peak_out%", "pfc_xoff");
	for (p = 0; p < cfg->nports; p++) {
		const struct port_report *pr = &r->pr[p];
		const struct model_port_buffers *pb = &b->ports[p];

		printf("%-4u %-10s %5.0fG %12llu %14llu %12llu %14llu %10llu %10llu %8.1f %8.1f "
		       "%8llu\n",
		       p, cfg->ports[p].name, cfg->ports[p].speed_bps / 1e9,
		       (unsigned long long)pr->rx_pkts, (unsigned long long)pr->c.in_octets,
		       (unsigned long long)pr->tx_pkts, (unsigned long long)pr->c.out_octets,
		       (unsigned long long)pr->c.in_discards,
		       (unsigned long long)pr->c.out_discards, pct(&pb->ing_uc), pct(&pb->egr_uc),
		       (unsigned long long)pr->pfc_xoff);
	}

	printf("\n== queues (queues with traffic; avg_bytes: time-average occupancy; delays in "
	       "microseconds,\n   arrival to departure of every packet that left: mean, "
	       "percentiles, max; timed_*: packets\n   timed one at a time, as a switch "
	       "counting enqueues and dequeues does, biased low;\n   age_max: the largest "
	       "age of a queued packet kept by markers)\n");
	printf("%-4s %-4s %12s %10s %12s %7s %12s %10s %10s %10s %10s %10s %10s %10s %8s %10s "
	       "%s\n",
	       "port", "q", "tx_pkts", "drops", "peak_bytes", "bst%", "avg_bytes", "mean", "p50",
	       "p99", "p999", "max", "timed_mean", "timed_max", "timed_n", "age_max", "note");
	for (i = 0; i < r->nqr; i++) {
		const struct queue_report *w = &r->qr[i];
		char qn[16];

		snprintf(qn, sizeof(qn), "%s%u", w->mc ? "mc" : "uc", w->queue);
		printf("%-4u %-4s %12llu %10llu %12llu %7.1f %12.1f %10.3f %10.3f %10.3f %10.3f "
		       "%10.3f %10.3f %10.3f %8llu %10.3f %s\n",
		       w->port, qn, (unsigned long long)w->d.n, (unsigned long long)w->drops_total,
		       (unsigned long long)w->occ->peak_bytes, pct(w->occ), w->avg_bytes,
		       w->mean_ns / 1e3, w->p50 / 1e3, w->p99 / 1e3, w->p999 / 1e3,
		       w->d.max_ns / 1e3, timed_mean(w) / 1e3, w->d.nt_max_ns / 1e3,
		       (unsigned long long)w->d.nt_count, w->d.mk_max_ns / 1e3,
		       w->starved ? "starved" : "-");
	}

	printf("\n== priority groups (used ones; xoff_s: time with PFC XOFF out; held: packets "
	       "the paused\n   sender held back, held_now: still held; drops: of packets of the "
	       "PG, at any stage)\n");
	printf("%-4s %-3s %12s %7s %12s %7s %8s %12s %10s %10s %10s\n", "port", "pg", "peak_bytes",
	       "bst%", "hdrm_bytes", "hdrm%", "xoff", "xoff_s", "held", "held_now", "drops");
	for (p = 0; p < cfg->nports; p++) {
		const struct port_report *pr = &r->pr[p];
		const struct model_port_buffers *pb = &b->ports[p];

		for (g = 0; g < MODEL_NUM_PG; g++) {
			if (!pg_used(r, p, g))
				continue;
			printf("%-4u %-3u %12llu %7.1f %12llu %7.1f %8llu %12.6f %10llu %10llu "
			       "%10llu\n",
			       p, g, (unsigned long long)pb->pg[g].peak_bytes, pct(&pb->pg[g]),
			       (unsigned long long)pb->pg_headroom[g].peak_bytes,
			       pct(&pb->pg_headroom[g]), (unsigned long long)pr->c.pfc_xoff[g],
			       (double)pr->c.pfc_xoff_ns[g] / 1e9,
			       (unsigned long long)pr->c.pfc_held[g],
			       (unsigned long long)pr->c.pfc_held_now[g],
			       (unsigned long long)pr->cd.pg[g]);
		}
	}

	printf("\n== drops by class (traffic class of the dropped packets, by ingress port)\n");
	printf("%-4s", "port");
	for (k = 0; k < MODEL_NUM_TC; k++)
		printf(" %10s%u", "tc", k);
	printf("\n");
	for (p = 0; p < cfg->nports; p++) {
		uint64_t any = 0;

		for (k = 0; k < MODEL_NUM_TC; k++) {
			any |= r->pr[p].cd.tc[k];
			tc_tot[k] += r->pr[p].cd.tc[k];
		}
		if (!any)
			continue;
		printf("%-4u", p);
		for (k = 0; k < MODEL_NUM_TC; k++)
			printf(" %11llu", (unsigned long long)r->pr[p].cd.tc[k]);
		printf("\n");
	}
	printf("%-4s", "all");
	for (k = 0; k < MODEL_NUM_TC; k++)
		printf(" %11llu", (unsigned long long)tc_tot[k]);
	printf("\n");

	printf("\n== drops by cause (ingress-side causes by ingress port, others by egress "
	       "port)\n");
	printf("%-4s", "port");
	for (k = 0; k < MODEL_DROP_NCAUSES; k++)
		printf(" %16s", model_drop_cause_name((enum model_drop_cause)k));
	printf("\n");
	for (p = 0; p < cfg->nports; p++) {
		uint64_t row[MODEL_DROP_NCAUSES];

		for (k = 0; k < MODEL_DROP_NCAUSES; k++) {
			row[k] = r->pr[p].d.in[k] + r->pr[p].d.out[k];
			cause_tot[k] += row[k];
		}
		if (!sum_causes(row))
			continue;
		printf("%-4u", p);
		for (k = 0; k < MODEL_DROP_NCAUSES; k++)
			printf(" %16llu", (unsigned long long)row[k]);
		printf("\n");
	}
	printf("%-4s", "all");
	for (k = 0; k < MODEL_DROP_NCAUSES; k++)
		printf(" %16llu", (unsigned long long)cause_tot[k]);
	printf("\n");

	printf("\n== buffer\n");
	printf("device: peak %u cells (%.1f%% of %u), now %u cells\n", b->dev_uc.peak_cells,
	       pct(&b->dev_uc), b->dev_uc.alloc_cells, b->dev_uc.cur_cells);
	for (k = 0; k < cfg->n_ing_pools; k++)
		printf("ingress pool %u: peak %u cells (%.1f%% of %u), now %u cells\n", k,
		       b->ing_pool[k].peak_cells, pct(&b->ing_pool[k]), b->ing_pool[k].alloc_cells,
		       b->ing_pool[k].cur_cells);
	for (k = 0; k < cfg->n_egr_pools; k++)
		printf("egress pool %u: peak %u cells (%.1f%% of %u), now %u cells\n", k,
		       b->egr_pool[k].peak_cells, pct(&b->egr_pool[k]), b->egr_pool[k].alloc_cells,
		       b->egr_pool[k].cur_cells);

	model_sim_ext_text(r->m);

	if (r->sflow) {
		printf("\n== sFlow\n");
		printf("%llu datagrams, %llu bytes", (unsigned long long)r->sflow->datagrams,
		       (unsigned long long)r->sflow->bytes);
		if (r->sflow_pcap)
			printf(", written to %s (to %s)", r->sflow_pcap, r->sflow->dest);
		if (r->sflow_to)
			printf(", sent to %s (%llu send errors)", r->sflow_to,
			       (unsigned long long)r->sflow->send_errors);
		printf("\n");
	}

	printf("\n== totals\n");
	printf("arrived %llu, forwarding drops %llu, ingress drops %llu, admitted %llu\n",
	       (unsigned long long)st->arrived, (unsigned long long)st->fwd_dropped,
	       (unsigned long long)st->ing_dropped, (unsigned long long)st->admitted);
	printf("copies %llu: departed %llu, dropped %llu, still buffered %llu; held at paused "
	       "senders %llu\n",
	       (unsigned long long)st->copies, (unsigned long long)st->copies_departed,
	       (unsigned long long)st->copies_dropped, (unsigned long long)st->copies_buffered,
	       (unsigned long long)st->held);
	if (st->bad_pkts)
		printf("rejected source packets %llu\n", (unsigned long long)st->bad_pkts);
	if (st->ecn_marked)
		printf("ECN: %llu copies marked CE by WRED\n", (unsigned long long)st->ecn_marked);
	printf("virtual time %.6f s, wall time %.3f s, simulated packets per wall-clock second "
	       "%.0f\n",
	       r->vt, r->wall, r->pps);
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void json_occ(const char *key, const struct model_occ *o)
{
	if (key)
		printf("\"%s\":", key);
	printf("{\"peak_cells\":%u,\"peak_bytes\":%llu,\"alloc_cells\":%u,\"bst_pct\":%.3f,"
	       "\"peak_t_ns\":%llu,\"cur_cells\":%u}",
	       o->peak_cells, (unsigned long long)o->peak_bytes, o->alloc_cells, pct(o),
	       (unsigned long long)o->peak_t_ns, o->cur_cells);
}

static void json_causes(const char *key, const uint64_t *c)
{
	printf("\"%s\":{", key);
	for (unsigned k = 0; k < MODEL_DROP_NCAUSES; k++)
		printf("%s\"%s\":%llu", k ? "," : "",
		       model_drop_cause_name((enum model_drop_cause)k), (unsigned long long)c[k]);
	printf("}");
}

static void json_u64s(const char *key, const uint64_t *v, unsigned n)
{
	printf("\"%s\":[", key);
	for (unsigned i = 0; i < n; i++)
		printf("%s%llu", i ? "," : "", (unsigned long long)v[i]);
	printf("]");
}

static void json_port_pgs(const struct report *r, unsigned p)
{
	const struct port_report *pr = &r->pr[p];
	const struct model_port_buffers *pb = &r->b->ports[p];

	printf("\"pgs\":[");
	for (unsigned g = 0; g < MODEL_NUM_PG; g++) {
		printf("%s{\"pg\":%u,", g ? "," : "", g);
		json_occ("occupancy", &pb->pg[g]);
		printf(",");
		json_occ("headroom", &pb->pg_headroom[g]);
		printf(",\"pfc_xoff\":%llu,\"pfc_xoff_s\":%.9f,\"held\":%llu,\"held_now\":%llu,"
		       "\"drops\":%llu}",
		       (unsigned long long)pr->c.pfc_xoff[g], (double)pr->c.pfc_xoff_ns[g] / 1e9,
		       (unsigned long long)pr->c.pfc_held[g],
		       (unsigned long long)pr->c.pfc_held_now[g], (unsigned long long)pr->cd.pg[g]);
	}
	printf("],");
	json_u64s("drops_by_class", pr->cd.tc, MODEL_NUM_TC);
}

static void print_json(const struct report *r)
{
	const struct model_config *cfg = r->cfg;
	const struct model_buffers *b = r->b;
	const struct model_stats *st = &r->st;
	unsigned p, i;

	printf("{\"file\":");
	json_str(r->file);
	printf(",\"seed\":%llu,\"ports_count\":%u,\"cell_bytes\":%u,\"total_cells\":%u,"
	       "\"traffic_sections\":%u,\"replays\":%u,\"virtual_s\":%.9f,\"duration_s\":%.9f,"
	       "\"wall_s\":%.6f,\"packets_per_wall_s\":%.1f,",
	       (unsigned long long)cfg->seed, cfg->nports, cfg->cell_bytes, cfg->total_cells,
	       r->sc->ntraffic, r->sc->nreplay, r->vt, r->dur_s, r->wall, r->pps);
	printf("\"ports\":[");
	for (p = 0; p < cfg->nports; p++) {
		const struct port_report *pr = &r->pr[p];

		printf("%s{\"port\":%u,\"name\":", p ? "," : "", p);
		json_str(cfg->ports[p].name);
		printf(",\"speed_bps\":%llu,\"rx_pkts\":%llu,\"rx_bytes\":%llu,\"tx_pkts\":%llu,"
		       "\"tx_bytes\":%llu,\"in_discards\":%llu,\"out_discards\":%llu,"
		       "\"pfc_xoff\":%llu,",
		       (unsigned long long)cfg->ports[p].speed_bps, (unsigned long long)pr->rx_pkts,
		       (unsigned long long)pr->c.in_octets, (unsigned long long)pr->tx_pkts,
		       (unsigned long long)pr->c.out_octets, (unsigned long long)pr->c.in_discards,
		       (unsigned long long)pr->c.out_discards, (unsigned long long)pr->pfc_xoff);
		json_occ("ingress", &b->ports[p].ing_uc);
		printf(",");
		json_occ("egress", &b->ports[p].egr_uc);
		printf(",");
		json_causes("drops_in", pr->d.in);
		printf(",");
		json_causes("drops_out", pr->d.out);
		printf(",");
		json_port_pgs(r, p);
		printf("}");
	}
	printf("],\"queues\":[");
	for (i = 0; i < r->nqr; i++) {
		const struct queue_report *w = &r->qr[i];

		printf("%s{\"port\":%u,\"queue\":%u,\"multicast\":%s,\"tx_pkts\":%llu,"
		       "\"starved\":%s,\"avg_bytes\":%.1f,",
		       i ? "," : "", w->port, w->queue, w->mc ? "true" : "false",
		       (unsigned long long)w->d.n, w->starved ? "true" : "false", w->avg_bytes);
		json_occ("occupancy", w->occ);
		printf(",");
		json_causes("drops", w->drops);
		printf(",\"delay_ns\":{\"mean\":%.1f,\"p50\":%llu,\"p99\":%llu,\"p999\":%llu,"
		       "\"max\":%llu,\"timed_mean\":%.1f,\"timed_latest\":%llu,\"timed_max\":%llu,"
		       "\"timed_count\":%llu,\"age\":%llu,\"age_max\":%llu}}",
		       w->mean_ns, (unsigned long long)w->p50, (unsigned long long)w->p99,
		       (unsigned long long)w->p999, (unsigned long long)w->d.max_ns, timed_mean(w),
		       (unsigned long long)w->d.nt_latest_ns, (unsigned long long)w->d.nt_max_ns,
		       (unsigned long long)w->d.nt_count, (unsigned long long)w->d.mk_delay_ns,
		       (unsigned long long)w->d.mk_max_ns);
	}
	printf("],");
	json_occ("device", &b->dev_uc);
	printf(",\"pools\":{\"ingress\":[");
	for (i = 0; i < cfg->n_ing_pools; i++) {
		printf("%s", i ? "," : "");
		json_occ(NULL, &b->ing_pool[i]);
	}
	printf("],\"egress\":[");
	for (i = 0; i < cfg->n_egr_pools; i++) {
		printf("%s", i ? "," : "");
		json_occ(NULL, &b->egr_pool[i]);
	}
	printf("]},");
	model_sim_ext_json(r->m);
	if (r->sflow)
		printf("\"sflow\":{\"datagrams\":%llu,\"bytes\":%llu,\"send_errors\":%llu},",
		       (unsigned long long)r->sflow->datagrams, (unsigned long long)r->sflow->bytes,
		       (unsigned long long)r->sflow->send_errors);
	printf("\"totals\":{\"arrived\":%llu,\"fwd_dropped\":%llu,\"ing_dropped\":%llu,"
	       "\"admitted\":%llu,\"copies\":%llu,\"copies_departed\":%llu,"
	       "\"copies_dropped\":%llu,\"copies_buffered\":%llu,\"held_now\":%llu,"
	       "\"bad_pkts\":%llu}}\n",
	       (unsigned long long)st->arrived, (unsigned long long)st->fwd_dropped,
	       (unsigned long long)st->ing_dropped, (unsigned long long)st->admitted,
	       (unsigned long long)st->copies, (unsigned long long)st->copies_departed,
	       (unsigned long long)st->copies_dropped, (unsigned long long)st->copies_buffered,
	       (unsigned long long)st->held, (unsigned long long)st->bad_pkts);
}

/* The model and whatever runs with it, to t_ns: --sflow's daemon, or the
 * model alone. */
struct runner {
	struct model *m;
	struct sim_sflow *sf;
	int failed;
};

static int run_to(void *arg, uint64_t t_ns)
{
	struct runner *rn = arg;

	if (!rn->sf)
		return model_advance_to(rn->m, t_ns);
	if (sim_sflow_advance_to(rn->sf, t_ns) < 0) {
		fprintf(stderr, "bsflow-sim: --sflow: cannot write the capture\n");
		rn->failed = 1;
		return -1;
	}
	return 0;
}

/* The rest of the run to dur_ns: the model alone stops when it has
 * drained (model_run); bsflowd keeps polling an idle switch. */
static int run_rest(struct runner *rn, uint64_t dur_ns)
{
	if (!rn->sf) {
		model_run(rn->m, dur_ns);
		return 0;
	}
	return run_to(rn, dur_ns);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {{"file", required_argument, NULL, 'f'},
						 {"duration", required_argument, NULL, 'd'},
						 {"seed", required_argument, NULL, 's'},
						 {"json", no_argument, NULL, 'j'},
						 {"help", no_argument, NULL, 'h'},
						 /* --interval: the time series (sim_series.h) */
						 {"interval", required_argument, NULL, 'i'},
						 {"series", required_argument, NULL, 'S'},
						 {"csv", no_argument, NULL, 'C'},
						 /* --plot: the series drawn (sim_plot.h) */
						 {"plot", required_argument, NULL, 'P'},
						 {"plot-queue", required_argument, NULL, 'Q'},
						 /* --sflow: the datagrams (sim_sflow.h) */
						 {"sflow", required_argument, NULL, 'W'},
						 {"sflow-to", required_argument, NULL, 'T'},
						 {"speed", required_argument, NULL, 'X'},
						 {"epoch", required_argument, NULL, 'E'},
						 {NULL, 0, NULL, 0}};
	double interval = 0;
	const char *series = NULL;
	FILE *series_fp = NULL;
	int csv = 0;
	const char *plot_file = NULL, *plot_queues[SIM_PLOT_MAX_QUEUES + 1];
	unsigned nplot_queues = 0;
	struct sim_plot *plot = NULL;
	struct sim_sflow_opts sfo = {NULL, NULL, 1.0, 0};
	struct sim_sflow_stats sfst;
	struct sim_stats *ss = NULL;
	struct runner rn = {NULL, NULL, 0};
	int speed_set = 0, epoch_set = 0;
	struct model_scenario_opts so = {0, 0};
	struct model_scenario sc;
	struct report r;
	const char *file = NULL;
	double duration = -1, t0, wall;
	uint64_t dur_ns;
	struct model *m = NULL;
	int json = 0, ch, rc = 0;
	char err[768], *end;

	memset(&sfst, 0, sizeof sfst);
	while ((ch = getopt_long(argc, argv, "f:d:s:jh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'i':
			errno = 0;
			interval = strtod(optarg, &end);
			if (end == optarg || *end || errno || !(interval >= 1e-9) ||
			    interval > 1e6) {
				fprintf(stderr,
					"bsflow-sim: --interval: '%s' is not a number of seconds "
					"in [0.000000001, 1000000]\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'S':
			series = optarg;
			break;
		case 'C':
			csv = 1;
			break;
		case 'P':
			plot_file = optarg;
			break;
		case 'Q':
			if (nplot_queues > SIM_PLOT_MAX_QUEUES) {
				fprintf(stderr, "bsflow-sim: --plot-queue: at most %d queues\n",
					SIM_PLOT_MAX_QUEUES);
				return EXIT_USAGE;
			}
			plot_queues[nplot_queues++] = optarg;
			break;
		case 'W':
			sfo.pcap = optarg;
			break;
		case 'T':
			if (sim_sflow_check_to(optarg) < 0) {
				fprintf(stderr,
					"bsflow-sim: --sflow-to '%s': " SIM_SFLOW_TO_FORM "\n",
					optarg);
				return EXIT_USAGE;
			}
			sfo.to = optarg;
			break;
		case 'X':
			speed_set = 1;
			if (strcmp(optarg, "max") == 0) {
				sfo.speed = 0;
				break;
			}
			errno = 0;
			sfo.speed = strtod(optarg, &end);
			if (end == optarg || *end || errno || !(sfo.speed > 0) || sfo.speed > 1e9) {
				fprintf(stderr,
					"bsflow-sim: --speed: '%s' is neither 'max' nor a number "
					"of virtual seconds per second in (0, 1000000000]\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'E':
			errno = 0;
			sfo.epoch_ns = strtoull(optarg, &end, 10);
			if (end == optarg || *end || errno || optarg[0] == '-' ||
			    sfo.epoch_ns == 0 || sfo.epoch_ns > 17000000000ull) {
				fprintf(stderr,
					"bsflow-sim: --epoch: '%s' is not a Unix time in whole "
					"seconds in [1, 17000000000]\n",
					optarg);
				return EXIT_USAGE;
			}
			sfo.epoch_ns *= 1000000000ull;
			epoch_set = 1;
			break;
		case 'f':
			file = optarg;
			break;
		case 'd':
			errno = 0;
			duration = strtod(optarg, &end);
			if (end == optarg || *end || errno || !(duration > 0) || duration > 1e6) {
				fprintf(stderr,
					"bsflow-sim: --duration: '%s' is not a number of "
					"seconds "
					"in (0, 1000000]\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 's':
			errno = 0;
			so.seed = strtoull(optarg, &end, 10);
			if (end == optarg || *end || errno || optarg[0] == '-') {
				fprintf(stderr, "bsflow-sim: --seed: '%s' is not a number\n",
					optarg);
				return EXIT_USAGE;
			}
			so.set_seed = 1;
			break;
		case 'j':
			json = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "bsflow-sim: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!file) {
		fprintf(stderr, "bsflow-sim: no scenario file: give -f FILE\n");
		usage(stderr);
		return EXIT_USAGE;
	}
	if (speed_set && !sfo.to) {
		fprintf(stderr,
			"bsflow-sim: --speed paces --sflow-to: give --sflow-to HOST[:PORT]\n");
		return EXIT_USAGE;
	}
	if (epoch_set && !sfo.to && !sfo.pcap) {
		fprintf(stderr, "bsflow-sim: --epoch sets the time of --sflow and --sflow-to: give "
				"one\n");
		return EXIT_USAGE;
	}
	/* configuration errors as bsflowd prints them: FILE:LINE: ... */
	if (model_scenario_parse_file(file, &so, &sc, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		model_scenario_free(&sc);
		return EXIT_CONFIG;
	}
	if (sfo.pcap || sfo.to) {
		rn.sf = sim_sflow_new(file, &so, &sfo, err, sizeof(err));
		if (rn.sf)
			m = sim_sflow_model(rn.sf);
	} else {
		m = model_scenario_build(&sc, err, sizeof(err));
	}
	if (!m) {
		fprintf(stderr, "%s\n", err);
		model_scenario_free(&sc);
		return EXIT_CONFIG;
	}
	rn.m = m;
	dur_ns = duration > 0	      ? (uint64_t)llround(duration * 1e9)
		 : sc.duration_ns > 0 ? sc.duration_ns
				      : 1000000000ull;
	memset(&r, 0, sizeof(r));
	ss = sim_stats_new(m, interval > 0 || plot_file);
	if (!ss) {
		fprintf(stderr, "bsflow-sim: out of memory\n");
		rc = EXIT_CONFIG;
		goto out;
	}
	if (interval > 0 && series && strcmp(series, "-") != 0) {
		series_fp = fopen(series, "w");
		if (!series_fp) {
			fprintf(stderr, "bsflow-sim: --series %s: %s\n", series, strerror(errno));
			rc = EXIT_CONFIG;
			goto out;
		}
	}
	if (plot_file) {
		plot = sim_plot_new(plot_queues, nplot_queues, err, sizeof(err));
		if (!plot) {
			fprintf(stderr, "bsflow-sim: %s\n", err);
			rc = EXIT_USAGE;
			goto out;
		}
	}
	t0 = now_s();
	if (plot && interval <= 0) {
		/* the plot alone: 200 intervals, no series written */
		if (sim_series_run(m, ss, dur_ns, dur_ns / 200 ? dur_ns / 200 : 1, NULL, 0, plot,
				   run_to, &rn) < 0 ||
		    run_rest(&rn, dur_ns) < 0)
			rc = EXIT_CONFIG;
	} else if (interval > 0) {
		/* the series on stdout replaces the end-of-run report */
		if (sim_series_run(m, ss, dur_ns, (uint64_t)llround(interval * 1e9),
				   series_fp ? series_fp : stdout, csv, plot, run_to, &rn) < 0) {
			if (!rn.failed)
				fprintf(stderr, "bsflow-sim: cannot write the time series\n");
			rc = EXIT_CONFIG;
		}
		if (rc == 0 && run_rest(&rn, dur_ns) < 0)
			rc = EXIT_CONFIG;
		if (series_fp && fclose(series_fp) != 0)
			rc = EXIT_CONFIG;
	} else if (run_rest(&rn, dur_ns) < 0) {
		rc = EXIT_CONFIG;
	}
	wall = now_s() - t0;
	if (rn.sf && sim_sflow_finish(rn.sf, &sfst, err, sizeof err) < 0) {
		fprintf(stderr, "bsflow-sim: %s\n", err);
		rc = EXIT_CONFIG;
	}
	if (rn.sf && sfst.send_errors)
		fprintf(stderr, "bsflow-sim: --sflow-to %s: %llu of %llu datagrams not sent: %s\n",
			sfo.to, (unsigned long long)sfst.send_errors,
			(unsigned long long)sfst.datagrams, strerror(sfst.send_errno));
	if (sim_stats_failed(ss))
		fprintf(stderr, "bsflow-sim: out of memory for delay histograms: some queues' "
				"percentiles are missing\n");

	if (rc || (interval > 0 && !series_fp))
		goto plot_out;
	if (report_read(&r, m, ss, file, &sc, wall, (double)dur_ns / 1e9) < 0) {
		fprintf(stderr, "bsflow-sim: out of memory\n");
		rc = EXIT_CONFIG;
		goto out;
	}
	if (rn.sf) {
		r.sflow = &sfst;
		r.sflow_pcap = sfo.pcap;
		r.sflow_to = sfo.to;
	}
	if (json)
		print_json(&r);
	else
		print_text(&r);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "bsflow-sim: cannot write the output: %s\n", strerror(errno));
		rc = EXIT_CONFIG;
	}
plot_out:
	if (plot) {
		FILE *pf = fopen(plot_file, "w");

		if (!pf || sim_plot_write(plot, pf, file, (double)dur_ns / 1e9) < 0 ||
		    fclose(pf) != 0) {
			fprintf(stderr, "bsflow-sim: --plot %s: %s\n", plot_file, strerror(errno));
			rc = EXIT_CONFIG;
		}
	}
out:
	sim_plot_free(plot);
	report_free(&r);
	sim_stats_free(ss);
	if (rn.sf)
		sim_sflow_free(rn.sf); /* frees its model */
	else
		model_free(m);
	model_scenario_free(&sc);
	return rc;
}
