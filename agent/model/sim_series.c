/*
 * sim_series.c - bsflow-sim's --interval time series (sim_series.h):
 * per interval, differences of the model's cumulative counters (drops,
 * departures, delay histogram, XOFF transitions) against the previous
 * interval, and the buffer peaks of its own read window.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "agent/model/sim_series.h"

struct qprev {
	uint64_t drops[MODEL_DROP_NCAUSES];
	uint64_t n;
	uint64_t hist[MODEL_DELAY_HIST];
};

struct sim_series {
	FILE *out;
	int csv;
	struct sim_plot *plot;
	unsigned nports;
	struct model_buffers *b;
	struct qprev *prev; /* per port: MODEL_MAX_QUEUES uc then mc */
	uint64_t (*xoff)[MODEL_NUM_PG];
	struct model_port_drops d;
};

uint64_t sim_series_quantile(const uint64_t hist[MODEL_DELAY_HIST], double q)
{
	uint64_t n = 0, want, acc = 0;

	for (unsigned b = 0; b < MODEL_DELAY_HIST; b++)
		n += hist[b];
	if (n == 0)
		return 0;
	want = (uint64_t)ceil(q * (double)n);
	if (want == 0)
		want = 1;
	for (unsigned b = 0; b < MODEL_DELAY_HIST; b++) {
		acc += hist[b];
		if (acc >= want)
			return b == 0 ? 0 : (b >= 64 ? UINT64_MAX : (uint64_t)1 << b);
	}
	return UINT64_MAX;
}

struct sim_series *sim_series_new(struct model *m, FILE *out, int csv, struct sim_plot *plot)
{
	const struct model_config *cfg = model_config_of(m);
	struct sim_series *s = calloc(1, sizeof *s);

	if (!s)
		return NULL;
	s->out = out;
	s->csv = csv;
	s->plot = plot;
	s->nports = cfg->nports;
	s->b = model_buffers_new(m);
	s->prev = calloc((size_t)cfg->nports * 2 * MODEL_MAX_QUEUES, sizeof *s->prev);
	s->xoff = calloc(cfg->nports, sizeof *s->xoff);
	if (!s->b || !s->prev || !s->xoff) {
		sim_series_free(s);
		return NULL;
	}
	if (csv && out)
		fprintf(out, "time_s,port,queue,cast,bytes,peak_bytes,sent,drops,delay_p50_ns,"
			     "delay_p99_ns,delay_p999_ns,pfc_xoff\n");
	return s;
}

void sim_series_free(struct sim_series *s)
{
	if (!s)
		return;
	model_buffers_free(s->b);
	free(s->prev);
	free(s->xoff);
	free(s);
}

static void queue_row(struct sim_series *s, struct model *m, double t, unsigned p, unsigned q,
		      int mc)
{
	struct qprev *pv = &s->prev[((size_t)p * 2 + (unsigned)mc) * MODEL_MAX_QUEUES + q];
	const struct model_occ *o = mc ? &s->b->ports[p].mcq[q] : &s->b->ports[p].ucq[q];
	const uint64_t *dc = mc ? s->d.mcq[q] : s->d.ucq[q];
	uint64_t drops[MODEL_DROP_NCAUSES], hist[MODEL_DELAY_HIST], total = 0, sent;
	struct model_delay d;

	model_read_delay(m, SIM_SERIES_WINDOW, p, q, mc, &d);
	for (unsigned c = 0; c < MODEL_DROP_NCAUSES; c++) {
		drops[c] = dc[c] - pv->drops[c];
		total += drops[c];
	}
	for (unsigned b = 0; b < MODEL_DELAY_HIST; b++)
		hist[b] = d.hist[b] - pv->hist[b];
	sent = d.n - pv->n;
	memcpy(pv->drops, dc, sizeof pv->drops);
	memcpy(pv->hist, d.hist, sizeof pv->hist);
	pv->n = d.n;
	if (total == 0 && sent == 0 && o->cur_bytes == 0 && o->peak_bytes == 0)
		return;
	if (s->plot)
		sim_plot_add(s->plot, t, p, q, mc, o->cur_bytes, o->peak_bytes, total,
			     sim_series_quantile(hist, 0.99));
	if (!s->out)
		return;
	if (s->csv) {
		fprintf(s->out, "%.9f,%u,%u,%s,%llu,%llu,%llu,%llu,%llu,%llu,%llu,\n", t, p, q,
			mc ? "multicast" : "unicast", (unsigned long long)o->cur_bytes,
			(unsigned long long)o->peak_bytes, (unsigned long long)sent,
			(unsigned long long)total,
			(unsigned long long)sim_series_quantile(hist, 0.5),
			(unsigned long long)sim_series_quantile(hist, 0.99),
			(unsigned long long)sim_series_quantile(hist, 0.999));
		return;
	}
	fprintf(s->out,
		"{\"time_s\":%.9f,\"port\":%u,\"queue\":%u,\"cast\":\"%s\",\"bytes\":%llu,"
		"\"peak_bytes\":%llu,\"sent\":%llu,\"drops\":%llu,\"drops_by_cause\":{",
		t, p, q, mc ? "multicast" : "unicast", (unsigned long long)o->cur_bytes,
		(unsigned long long)o->peak_bytes, (unsigned long long)sent,
		(unsigned long long)total);
	for (unsigned c = 0, first = 1; c < MODEL_DROP_NCAUSES; c++)
		if (drops[c]) {
			fprintf(s->out, "%s\"%s\":%llu", first ? "" : ",",
				model_drop_cause_name((enum model_drop_cause)c),
				(unsigned long long)drops[c]);
			first = 0;
		}
	fprintf(s->out, "},\"delay_p50_ns\":%llu,\"delay_p99_ns\":%llu,\"delay_p999_ns\":%llu}\n",
		(unsigned long long)sim_series_quantile(hist, 0.5),
		(unsigned long long)sim_series_quantile(hist, 0.99),
		(unsigned long long)sim_series_quantile(hist, 0.999));
}

static void port_row(struct sim_series *s, double t, unsigned p, const uint64_t *xoff)
{
	uint64_t dx[MODEL_NUM_PG], any = 0;

	for (unsigned g = 0; g < MODEL_NUM_PG; g++) {
		dx[g] = xoff[g] - s->xoff[p][g];
		any |= dx[g];
		s->xoff[p][g] = xoff[g];
	}
	if (!any || !s->out)
		return;
	if (s->csv) {
		fprintf(s->out, "%.9f,%u,,,,,,,,,,", t, p);
		for (unsigned g = 0; g < MODEL_NUM_PG; g++)
			fprintf(s->out, "%s%llu", g ? ";" : "", (unsigned long long)dx[g]);
		fputc('\n', s->out);
		return;
	}
	fprintf(s->out, "{\"time_s\":%.9f,\"port\":%u,\"pfc_xoff\":[", t, p);
	for (unsigned g = 0; g < MODEL_NUM_PG; g++)
		fprintf(s->out, "%s%llu", g ? "," : "", (unsigned long long)dx[g]);
	fputs("]}\n", s->out);
}

int sim_series_sample(struct sim_series *s, struct model *m)
{
	const struct model_config *cfg = model_config_of(m);
	double t = (double)model_now(m) / 1e9;

	model_read_buffers(m, SIM_SERIES_WINDOW, s->b);
	for (unsigned p = 0; p < s->nports; p++) {
		struct model_if_counters c;

		model_read_drops(m, p, &s->d);
		for (unsigned q = 0; q < cfg->ports[p].n_ucq; q++)
			queue_row(s, m, t, p, q, 0);
		for (unsigned q = 0; q < cfg->ports[p].n_mcq; q++)
			queue_row(s, m, t, p, q, 1);
		model_read_counters(m, p, &c);
		port_row(s, t, p, c.pfc_xoff);
	}
	return s->out && ferror(s->out) ? -1 : 0;
}

int sim_series_run(struct model *m, uint64_t dur_ns, uint64_t interval_ns, FILE *out, int csv,
		   struct sim_plot *plot)
{
	struct sim_series *s = sim_series_new(m, out, csv, plot);
	int rc = 0;

	if (!s)
		return -1;
	for (uint64_t t = interval_ns; t <= dur_ns && rc == 0; t += interval_ns) {
		model_advance_to(m, t);
		rc = sim_series_sample(s, m);
		if (t > UINT64_MAX - interval_ns)
			break;
	}
	/* the rest of the run, as without --interval */
	model_run(m, dur_ns);
	sim_series_free(s);
	if (out && fflush(out) != 0)
		rc = -1;
	return rc;
}
