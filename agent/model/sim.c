/*
 * sim.c - bsflow-sim: run the model section of a bsflowd config file on
 * virtual time, as fast as possible, and print what the switch saw.
 *
 *   bsflow-sim -f FILE [--duration S] [--seed N] [--json]
 *
 * Prints per-port counters and buffer peaks, per-queue drops, peaks, BST
 * percentages and queue delay (ground truth, the non-tagged
 * method, the marker method), drops by cause, totals, and the
 * number of simulated packets per wall-clock second.  See bsflow-sim(1).
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

#include "agent/model/sim_series.h"
#include "agent/model/model.h"
#include "agent/model/scenario.h"
#include "agent/model/sim_ext.h"

#define EXIT_CONFIG 1
#define EXIT_USAGE  2

static void usage(FILE *f)
{
	fprintf(f, "usage: bsflow-sim -f FILE [--duration SECONDS] [--seed N] [--json]\n"
		   "                  [--interval SECONDS [--series FILE] [--csv]]\n"
		   "                  [--plot FILE.svg [--plot-queue PORT:QUEUE]...]\n");
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
	double mean_ns; /* true mean sojourn, 0 with no packets */
};

/* The mean of the non-tagged measurements, 0 with none: an
 * estimate biased low (model.h struct model_delay nt_sum_ns), printed
 * next to the true mean to show by how much. */
static double nt_mean(const struct queue_report *w)
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
	double vt, wall, pps;
};

static void report_free(struct report *r)
{
	free(r->qr);
	free(r->pr);
	model_buffers_free(r->b);
}

/* Reads queue q of port p (multicast if mc) into the next row of r->qr,
 * which is kept only if the queue carried, dropped or held a packet. */
static void read_queue(struct model *m, struct report *r, unsigned p, unsigned q, int mc)
{
	struct queue_report *w = &r->qr[r->nqr];
	const struct port_report *pr = &r->pr[p];

	w->port = p;
	w->queue = q;
	w->mc = mc;
	model_read_delay(m, 0, p, q, mc, &w->d);
	w->drops = mc ? pr->d.mcq[q] : pr->d.ucq[q];
	w->occ = mc ? &r->b->ports[p].mcq[q] : &r->b->ports[p].ucq[q];
	w->drops_total = sum_causes(w->drops);
	w->mean_ns =
	    w->d.n ? ((double)w->d.sum_ns + (double)w->d.sum_sub_fs / 1e6) / (double)w->d.n : 0.0;
	if (w->d.n > 0 || w->drops_total > 0 || w->occ->peak_cells > 0)
		r->nqr++;
}

/* Reads the model's counters, drops, buffers and delays into r.  Returns 0,
 * or -1 out of memory (r is then still fit for report_free()). */
static int report_read(struct report *r, struct model *m, const char *file,
		       const struct model_scenario *sc, double wall)
{
	const struct model_config *cfg = model_config_of(m);
	unsigned p, q, nq = 0;

	memset(r, 0, sizeof(*r));
	r->file = file;
	r->m = m;
	r->sc = sc;
	r->cfg = cfg;
	for (p = 0; p < cfg->nports; p++)
		nq += cfg->ports[p].n_ucq + cfg->ports[p].n_mcq;
	r->b = model_buffers_new(m);
	r->pr = calloc(cfg->nports, sizeof(*r->pr));
	r->qr = calloc(nq ? nq : 1, sizeof(*r->qr));
	if (!r->b || !r->pr || !r->qr)
		return -1;
	model_read_buffers(m, 0, r->b);
	for (p = 0; p < cfg->nports; p++) {
		struct port_report *pr = &r->pr[p];
		const struct model_if_counters *c = &pr->c;

		model_read_counters(m, p, &pr->c);
		model_read_drops(m, p, &pr->d);
		pr->rx_pkts = c->in_ucast + c->in_mcast + c->in_bcast + c->in_discards;
		pr->tx_pkts = c->out_ucast + c->out_mcast + c->out_bcast;
		pr->pfc_xoff = sum_xoff(c);
		for (q = 0; q < cfg->ports[p].n_ucq; q++)
			read_queue(m, r, p, q, 0);
		for (q = 0; q < cfg->ports[p].n_mcq; q++)
			read_queue(m, r, p, q, 1);
	}
	model_get_stats(m, &r->st);
	r->vt = model_now(m) / 1e9;
	r->wall = wall;
	r->pps = wall > 0 ? r->st.arrived / wall : 0.0;
	return 0;
}

static void print_text(const struct report *r)
{
	const struct model_config *cfg = r->cfg;
	const struct model_buffers *b = r->b;
	const struct model_stats *st = &r->st;
	unsigned p, i, k;
	uint64_t cause_tot[MODEL_DROP_NCAUSES] = {0};

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

	printf("\n== queues (queues with traffic; delays in microseconds)\n");
	printf("%-4s %-4s %12s %10s %12s %7s %10s %10s %10s %10s %8s %10s\n", "port", "q",
	       "tx_pkts", "drops", "peak_bytes", "bst%", "true_mean", "nt_mean", "true_max",
	       "nt_max", "nt_count", "marker_max");
	for (i = 0; i < r->nqr; i++) {
		const struct queue_report *w = &r->qr[i];
		char qn[16];

		snprintf(qn, sizeof(qn), "%s%u", w->mc ? "mc" : "uc", w->queue);
		printf("%-4u %-4s %12llu %10llu %12llu %7.1f %10.3f %10.3f %10.3f %10.3f %8llu "
		       "%10.3f\n",
		       w->port, qn, (unsigned long long)w->d.n, (unsigned long long)w->drops_total,
		       (unsigned long long)w->occ->peak_bytes, pct(w->occ), w->mean_ns / 1e3,
		       nt_mean(w) / 1e3, w->d.max_ns / 1e3, w->d.nt_max_ns / 1e3,
		       (unsigned long long)w->d.nt_count, w->d.mk_max_ns / 1e3);
	}

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
	printf("ingress pool 0: peak %u cells (%.1f%%); egress pool 0: peak %u cells (%.1f%%)\n",
	       b->ing_pool[0].peak_cells, pct(&b->ing_pool[0]), b->egr_pool[0].peak_cells,
	       pct(&b->egr_pool[0]));

	model_sim_ext_text(r->m);

	printf("\n== totals\n");
	printf("arrived %llu, forwarding drops %llu, ingress drops %llu, admitted %llu\n",
	       (unsigned long long)st->arrived, (unsigned long long)st->fwd_dropped,
	       (unsigned long long)st->ing_dropped, (unsigned long long)st->admitted);
	printf("copies %llu: departed %llu, dropped %llu, still buffered %llu\n",
	       (unsigned long long)st->copies, (unsigned long long)st->copies_departed,
	       (unsigned long long)st->copies_dropped, (unsigned long long)st->copies_buffered);
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
	printf("\"%s\":{\"peak_cells\":%u,\"peak_bytes\":%llu,\"alloc_cells\":%u,\"bst_pct\":%.3f,"
	       "\"peak_t_ns\":%llu}",
	       key, o->peak_cells, (unsigned long long)o->peak_bytes, o->alloc_cells, pct(o),
	       (unsigned long long)o->peak_t_ns);
}

static void json_causes(const char *key, const uint64_t *c)
{
	printf("\"%s\":{", key);
	for (unsigned k = 0; k < MODEL_DROP_NCAUSES; k++)
		printf("%s\"%s\":%llu", k ? "," : "",
		       model_drop_cause_name((enum model_drop_cause)k), (unsigned long long)c[k]);
	printf("}");
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
	       "\"traffic_sections\":%u,\"replays\":%u,\"virtual_s\":%.9f,\"wall_s\":%.6f,"
	       "\"packets_per_wall_s\":%.1f,",
	       (unsigned long long)cfg->seed, cfg->nports, cfg->cell_bytes, cfg->total_cells,
	       r->sc->ntraffic, r->sc->nreplay, r->vt, r->wall, r->pps);
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
		printf("}");
	}
	printf("],\"queues\":[");
	for (i = 0; i < r->nqr; i++) {
		const struct queue_report *w = &r->qr[i];

		printf("%s{\"port\":%u,\"queue\":%u,\"multicast\":%s,\"tx_pkts\":%llu,",
		       i ? "," : "", w->port, w->queue, w->mc ? "true" : "false",
		       (unsigned long long)w->d.n);
		json_occ("occupancy", w->occ);
		printf(",");
		json_causes("drops", w->drops);
		printf(",\"delay_ns\":{\"true_mean\":%.1f,\"nt_mean\":%.1f,\"true_max\":%llu,"
		       "\"nt_latest\":%llu,\"nt_max\":%llu,\"nt_count\":%llu,\"marker\":%llu,"
		       "\"marker_max\":%llu}}",
		       w->mean_ns, nt_mean(w), (unsigned long long)w->d.max_ns,
		       (unsigned long long)w->d.nt_latest_ns, (unsigned long long)w->d.nt_max_ns,
		       (unsigned long long)w->d.nt_count, (unsigned long long)w->d.mk_delay_ns,
		       (unsigned long long)w->d.mk_max_ns);
	}
	printf("],");
	json_occ("device", &b->dev_uc);
	printf(",");
	model_sim_ext_json(r->m);
	printf("\"totals\":{\"arrived\":%llu,\"fwd_dropped\":%llu,\"ing_dropped\":%llu,"
	       "\"admitted\":%llu,\"copies\":%llu,\"copies_departed\":%llu,"
	       "\"copies_dropped\":%llu,\"copies_buffered\":%llu,\"bad_pkts\":%llu}}\n",
	       (unsigned long long)st->arrived, (unsigned long long)st->fwd_dropped,
	       (unsigned long long)st->ing_dropped, (unsigned long long)st->admitted,
	       (unsigned long long)st->copies, (unsigned long long)st->copies_departed,
	       (unsigned long long)st->copies_dropped, (unsigned long long)st->copies_buffered,
	       (unsigned long long)st->bad_pkts);
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
						 {NULL, 0, NULL, 0}};
	double interval = 0;
	const char *series = NULL;
	FILE *series_fp = NULL;
	int csv = 0;
	const char *plot_file = NULL, *plot_queues[SIM_PLOT_MAX_QUEUES + 1];
	unsigned nplot_queues = 0;
	struct sim_plot *plot = NULL;
	struct model_scenario_opts so = {0, 0};
	struct model_scenario sc;
	struct report r;
	const char *file = NULL;
	double duration = -1, t0, wall;
	uint64_t dur_ns;
	struct model *m;
	int json = 0, ch, rc = 0;
	char err[512], *end;

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
	if (model_scenario_parse_file(file, &so, &sc, err, sizeof(err)) < 0) {
		fprintf(stderr, "bsflow-sim: %s\n", err);
		model_scenario_free(&sc);
		return EXIT_CONFIG;
	}
	m = model_scenario_build(&sc, err, sizeof(err));
	if (!m) {
		fprintf(stderr, "bsflow-sim: %s\n", err);
		model_scenario_free(&sc);
		return EXIT_CONFIG;
	}
	dur_ns = duration > 0	      ? (uint64_t)llround(duration * 1e9)
		 : sc.duration_ns > 0 ? sc.duration_ns
				      : 1000000000ull;
	memset(&r, 0, sizeof(r));
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
		if (sim_series_run(m, dur_ns, dur_ns / 200 ? dur_ns / 200 : 1, NULL, 0, plot) < 0)
			rc = EXIT_CONFIG;
	} else if (interval > 0) {
		/* the series on stdout replaces the end-of-run report */
		if (sim_series_run(m, dur_ns, (uint64_t)llround(interval * 1e9),
				   series_fp ? series_fp : stdout, csv, plot) < 0) {
			fprintf(stderr, "bsflow-sim: cannot write the time series\n");
			rc = EXIT_CONFIG;
		}
		if (series_fp && fclose(series_fp) != 0)
			rc = EXIT_CONFIG;
		if (!series_fp)
			goto plot_out;
	} else {
		model_run(m, dur_ns);
	}
	wall = now_s() - t0;

	if (rc)
		goto plot_out;
	if (report_read(&r, m, file, &sc, wall) < 0) {
		fprintf(stderr, "bsflow-sim: out of memory\n");
		rc = EXIT_CONFIG;
		goto out;
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
	model_free(m);
	model_scenario_free(&sc);
	return rc;
}
