/*
 * sim.c - bsflow-sim: run the model section of a bsflowd config file on
 * virtual time, as fast as possible, and print what the switch saw.
 *
 *   bsflow-sim -f FILE [--duration S] [--seed N] [--json]
 *
 * Prints per-port counters and buffer peaks, per-queue drops, peaks, BST
 * percentages and queue delay (ground truth, the seed 004 non-tagged
 * method, the seed 000 marker method), drops by cause, totals, and the
 * number of simulated packets per wall-clock second.  See bsflow-sim(1).
 * Exit codes: 0 success, 1 a bad config file, scenario or capture (or the
 * model failed), 2 bad command-line usage.
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

#define EXIT_CONFIG 1
#define EXIT_USAGE  2

static const char *const cause_keys[MODEL_DROP_NCAUSES] = {
    "ingress_limit",   "egress_limit",	  "wred", "ttl_exceeded", "acl",
    "blackhole_route", "forwarding_other"};

static void usage(FILE *f)
{
	fprintf(f, "usage: bsflow-sim -f FILE [--duration SECONDS] [--seed N] [--json]\n");
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

/* Everything printed, read once at the end of the run. */
struct port_report {
	struct model_if_counters c;
	struct model_port_drops d;
	struct model_delay ud[MODEL_MAX_QUEUES], md[MODEL_MAX_QUEUES];
};

static int queue_active(const struct model_delay *d, const uint64_t *drops,
			const struct model_occ *o)
{
	return d->n > 0 || sum_causes(drops) > 0 || o->peak_cells > 0;
}

static void print_text(const char *file, const struct model_scenario *sc, struct model *m,
		       const struct model_buffers *b, const struct port_report *pr, double vt,
		       double wall)
{
	const struct model_config *cfg = model_config_of(m);
	struct model_stats st;
	unsigned p, q, k;
	uint64_t cause_tot[MODEL_DROP_NCAUSES] = {0};

	model_get_stats(m, &st);
	printf("bsflow-sim: %s: %u ports, %u cells of %u bytes (%.2f MB), seed %llu, %u traffic "
	       "sections, %u replays\n",
	       file, cfg->nports, cfg->total_cells, cfg->cell_bytes,
	       (double)cfg->total_cells * cfg->cell_bytes / 1048576.0,
	       (unsigned long long)cfg->seed, sc->ntraffic, sc->nreplay);

	printf("\n== ports\n");
	printf("%-4s %-10s %6s %12s %14s %12s %14s %10s %10s %8s %8s %8s\n", "port", "name",
	       "speed", "rx_pkts", "rx_bytes", "tx_pkts", "tx_bytes", "in_disc", "out_disc",
	       "peak_in%", "peak_out%", "pfc_xoff");
	for (p = 0; p < cfg->nports; p++) {
		const struct model_if_counters *c = &pr[p].c;
		const struct model_port_buffers *pb = &b->ports[p];

		printf("%-4u %-10s %5.0fG %12llu %14llu %12llu %14llu %10llu %10llu %8.1f %8.1f "
		       "%8llu\n",
		       p, cfg->ports[p].name, cfg->ports[p].speed_bps / 1e9,
		       (unsigned long long)(c->in_ucast + c->in_mcast + c->in_bcast),
		       (unsigned long long)c->in_octets,
		       (unsigned long long)(c->out_ucast + c->out_mcast + c->out_bcast),
		       (unsigned long long)c->out_octets, (unsigned long long)c->in_discards,
		       (unsigned long long)c->out_discards, pct(&pb->ing_uc), pct(&pb->egr_uc),
		       (unsigned long long)sum_xoff(c));
	}

	printf("\n== queues (queues with traffic; delays in microseconds)\n");
	printf("%-4s %-4s %12s %10s %12s %7s %10s %10s %10s %8s %10s\n", "port", "q", "tx_pkts",
	       "drops", "peak_bytes", "bst%", "true_mean", "true_max", "nt_max", "nt_count",
	       "marker_max");
	for (p = 0; p < cfg->nports; p++) {
		for (int mc = 0; mc < 2; mc++) {
			unsigned nq = mc ? cfg->ports[p].n_mcq : cfg->ports[p].n_ucq;

			for (q = 0; q < nq; q++) {
				const struct model_delay *d = mc ? &pr[p].md[q] : &pr[p].ud[q];
				const uint64_t *dr = mc ? pr[p].d.mcq[q] : pr[p].d.ucq[q];
				const struct model_occ *o =
				    mc ? &b->ports[p].mcq[q] : &b->ports[p].ucq[q];
				char qn[8];

				if (!queue_active(d, dr, o))
					continue;
				snprintf(qn, sizeof(qn), "%s%u", mc ? "mc" : "uc", q);
				printf("%-4u %-4s %12llu %10llu %12llu %7.1f %10.3f %10.3f %10.3f "
				       "%8llu %10.3f\n",
				       p, qn, (unsigned long long)d->n,
				       (unsigned long long)sum_causes(dr),
				       (unsigned long long)o->peak_bytes, pct(o),
				       d->n ? (double)d->sum_ns / d->n / 1e3 : 0.0, d->max_ns / 1e3,
				       d->nt_max_ns / 1e3, (unsigned long long)d->nt_count,
				       d->mk_max_ns / 1e3);
			}
		}
	}

	printf("\n== drops by cause (ingress-side causes by ingress port, others by egress "
	       "port)\n");
	printf("%-4s", "port");
	for (k = 0; k < MODEL_DROP_NCAUSES; k++)
		printf(" %16s", cause_keys[k]);
	printf("\n");
	for (p = 0; p < cfg->nports; p++) {
		uint64_t row[MODEL_DROP_NCAUSES];

		for (k = 0; k < MODEL_DROP_NCAUSES; k++) {
			row[k] = pr[p].d.in[k] + pr[p].d.out[k];
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

	printf("\n== totals\n");
	printf("arrived %llu, forwarding drops %llu, ingress drops %llu, admitted %llu\n",
	       (unsigned long long)st.arrived, (unsigned long long)st.fwd_dropped,
	       (unsigned long long)st.ing_dropped, (unsigned long long)st.admitted);
	printf("copies %llu: departed %llu, dropped %llu, still buffered %llu\n",
	       (unsigned long long)st.copies, (unsigned long long)st.copies_departed,
	       (unsigned long long)st.copies_dropped, (unsigned long long)st.copies_buffered);
	if (st.bad_pkts)
		printf("rejected source packets %llu\n", (unsigned long long)st.bad_pkts);
	printf("virtual time %.6f s, wall time %.3f s, simulated packets per wall-clock second "
	       "%.0f\n",
	       vt, wall, wall > 0 ? st.arrived / wall : 0.0);
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
		printf("%s\"%s\":%llu", k ? "," : "", cause_keys[k], (unsigned long long)c[k]);
	printf("}");
}

static void print_json(const char *file, const struct model_scenario *sc, struct model *m,
		       const struct model_buffers *b, const struct port_report *pr, double vt,
		       double wall)
{
	const struct model_config *cfg = model_config_of(m);
	struct model_stats st;
	unsigned p, q;
	int first = 1;

	model_get_stats(m, &st);
	printf("{\"file\":");
	json_str(file);
	printf(",\"seed\":%llu,\"ports_count\":%u,\"cell_bytes\":%u,\"total_cells\":%u,"
	       "\"traffic_sections\":%u,\"replays\":%u,\"virtual_s\":%.9f,\"wall_s\":%.6f,"
	       "\"packets_per_wall_s\":%.1f,",
	       (unsigned long long)cfg->seed, cfg->nports, cfg->cell_bytes, cfg->total_cells,
	       sc->ntraffic, sc->nreplay, vt, wall, wall > 0 ? st.arrived / wall : 0.0);
	printf("\"ports\":[");
	for (p = 0; p < cfg->nports; p++) {
		const struct model_if_counters *c = &pr[p].c;

		printf("%s{\"port\":%u,\"name\":", p ? "," : "", p);
		json_str(cfg->ports[p].name);
		printf(",\"speed_bps\":%llu,\"rx_pkts\":%llu,\"rx_bytes\":%llu,\"tx_pkts\":%llu,"
		       "\"tx_bytes\":%llu,\"in_discards\":%llu,\"out_discards\":%llu,"
		       "\"pfc_xoff\":%llu,",
		       (unsigned long long)cfg->ports[p].speed_bps,
		       (unsigned long long)(c->in_ucast + c->in_mcast + c->in_bcast),
		       (unsigned long long)c->in_octets,
		       (unsigned long long)(c->out_ucast + c->out_mcast + c->out_bcast),
		       (unsigned long long)c->out_octets, (unsigned long long)c->in_discards,
		       (unsigned long long)c->out_discards, (unsigned long long)sum_xoff(c));
		json_occ("ingress", &b->ports[p].ing_uc);
		printf(",");
		json_occ("egress", &b->ports[p].egr_uc);
		printf(",");
		json_causes("drops_in", pr[p].d.in);
		printf(",");
		json_causes("drops_out", pr[p].d.out);
		printf("}");
	}
	printf("],\"queues\":[");
	for (p = 0; p < cfg->nports; p++) {
		for (int mc = 0; mc < 2; mc++) {
			unsigned nq = mc ? cfg->ports[p].n_mcq : cfg->ports[p].n_ucq;

			for (q = 0; q < nq; q++) {
				const struct model_delay *d = mc ? &pr[p].md[q] : &pr[p].ud[q];
				const uint64_t *dr = mc ? pr[p].d.mcq[q] : pr[p].d.ucq[q];
				const struct model_occ *o =
				    mc ? &b->ports[p].mcq[q] : &b->ports[p].ucq[q];

				if (!queue_active(d, dr, o))
					continue;
				printf("%s{\"port\":%u,\"queue\":%u,\"multicast\":%s,\"tx_pkts\":%"
				       "llu,",
				       first ? "" : ",", p, q, mc ? "true" : "false",
				       (unsigned long long)d->n);
				first = 0;
				json_occ("occupancy", o);
				printf(",");
				json_causes("drops", dr);
				printf(",\"delay_ns\":{\"true_mean\":%.1f,\"true_max\":%llu,"
				       "\"nt_latest\":%llu,\"nt_max\":%llu,\"nt_count\":%llu,"
				       "\"marker\":%llu,\"marker_max\":%llu}}",
				       d->n ? (double)d->sum_ns / d->n : 0.0,
				       (unsigned long long)d->max_ns,
				       (unsigned long long)d->nt_latest_ns,
				       (unsigned long long)d->nt_max_ns,
				       (unsigned long long)d->nt_count,
				       (unsigned long long)d->mk_delay_ns,
				       (unsigned long long)d->mk_max_ns);
			}
		}
	}
	printf("],");
	json_occ("device", &b->dev_uc);
	printf(",\"totals\":{\"arrived\":%llu,\"fwd_dropped\":%llu,\"ing_dropped\":%llu,"
	       "\"admitted\":%llu,\"copies\":%llu,\"copies_departed\":%llu,"
	       "\"copies_dropped\":%llu,\"copies_buffered\":%llu,\"bad_pkts\":%llu}}\n",
	       (unsigned long long)st.arrived, (unsigned long long)st.fwd_dropped,
	       (unsigned long long)st.ing_dropped, (unsigned long long)st.admitted,
	       (unsigned long long)st.copies, (unsigned long long)st.copies_departed,
	       (unsigned long long)st.copies_dropped, (unsigned long long)st.copies_buffered,
	       (unsigned long long)st.bad_pkts);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"file", required_argument, NULL, 'f'}, {"duration", required_argument, NULL, 'd'},
	    {"seed", required_argument, NULL, 's'}, {"json", no_argument, NULL, 'j'},
	    {"help", no_argument, NULL, 'h'},	    {NULL, 0, NULL, 0}};
	struct model_scenario_opts so = {0, 0};
	struct model_scenario sc;
	struct model_buffers *b;
	struct port_report *pr;
	const char *file = NULL;
	double duration = -1, t0, wall;
	uint64_t dur_ns;
	struct model *m;
	int json = 0, ch, rc = 0;
	char err[512], *end;

	while ((ch = getopt_long(argc, argv, "f:d:s:jh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'f':
			file = optarg;
			break;
		case 'd':
			errno = 0;
			duration = strtod(optarg, &end);
			if (end == optarg || *end || errno || !(duration > 0) || duration > 1e6) {
				fprintf(stderr,
					"bsflow-sim: --duration: '%s' is not a number of seconds "
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
	t0 = now_s();
	model_run(m, dur_ns);
	wall = now_s() - t0;

	b = model_buffers_new(m);
	pr = calloc(sc.cfg.nports, sizeof(*pr));
	if (!b || !pr) {
		fprintf(stderr, "bsflow-sim: out of memory\n");
		rc = EXIT_CONFIG;
		goto out;
	}
	model_read_buffers(m, 0, b);
	for (unsigned p = 0; p < sc.cfg.nports; p++) {
		model_read_counters(m, p, &pr[p].c);
		model_read_drops(m, p, &pr[p].d);
		for (unsigned q = 0; q < sc.cfg.ports[p].n_ucq; q++)
			model_read_delay(m, 0, p, q, 0, &pr[p].ud[q]);
		for (unsigned q = 0; q < sc.cfg.ports[p].n_mcq; q++)
			model_read_delay(m, 0, p, q, 1, &pr[p].md[q]);
	}
	if (json)
		print_json(file, &sc, m, b, pr, model_now(m) / 1e9, wall);
	else
		print_text(file, &sc, m, b, pr, model_now(m) / 1e9, wall);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "bsflow-sim: cannot write the output: %s\n", strerror(errno));
		rc = EXIT_CONFIG;
	}
out:
	free(pr);
	model_buffers_free(b);
	model_free(m);
	model_scenario_free(&sc);
	return rc;
}
