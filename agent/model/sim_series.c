/*
 * sim_series.c - bsflow-sim's --interval time series (sim_series.h):
 * per interval, differences of the model's cumulative counters (drops,
 * departures, occupancy integral, XOFF transitions and time, packets held)
 * against the previous interval, the buffer peaks of its own read window,
 * and the interval's delay histograms and class drops (sim_stats.h).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "agent/model/sim_series.h"

struct qprev {
	uint64_t drops[MODEL_DROP_NCAUSES];
	uint64_t n;
	double area; /* occupancy integral, byte ns */
};

struct pprev {
	uint64_t xoff[MODEL_NUM_PG], xoff_ns[MODEL_NUM_PG], held[MODEL_NUM_PG];
};

struct sim_series {
	FILE *out;
	int csv;
	struct sim_plot *plot;
	struct sim_stats *st;
	unsigned nports;
	double t_prev; /* the previous interval's end, s */
	struct model_buffers *b;
	struct qprev *prev; /* per port: MODEL_MAX_QUEUES uc then mc */
	struct pprev *pp;
	struct model_port_drops d;
};

struct sim_series *sim_series_new(struct model *m, struct sim_stats *st, FILE *out, int csv,
				  struct sim_plot *plot)
{
	const struct model_config *cfg = model_config_of(m);
	struct sim_series *s = calloc(1, sizeof *s);

	if (!s)
		return NULL;
	s->out = out;
	s->csv = csv;
	s->plot = plot;
	s->st = st;
	s->nports = cfg->nports;
	s->t_prev = (double)model_now(m) / 1e9;
	s->b = model_buffers_new(m);
	s->prev = calloc((size_t)cfg->nports * 2 * MODEL_MAX_QUEUES, sizeof *s->prev);
	s->pp = calloc(cfg->nports, sizeof *s->pp);
	if (!s->b || !s->prev || !s->pp) {
		sim_series_free(s);
		return NULL;
	}
	if (csv && out)
		fprintf(out, "time_s,port,queue,cast,bytes,peak_bytes,avg_bytes,sent,drops,"
			     "delay_p50_ns,delay_p99_ns,delay_p999_ns,pfc_xoff,pfc_xoff_s,"
			     "pfc_xoff_now,pg_peak_bytes,headroom_peak_bytes,held,held_now,"
			     "drops_by_pg,drops_by_class\n");
	return s;
}

void sim_series_free(struct sim_series *s)
{
	if (!s)
		return;
	model_buffers_free(s->b);
	free(s->prev);
	free(s->pp);
	free(s);
}

static void queue_row(struct sim_series *s, struct model *m, double t, unsigned p, unsigned q,
		      int mc)
{
	struct qprev *pv = &s->prev[((size_t)p * 2 + (unsigned)mc) * MODEL_MAX_QUEUES + q];
	const struct model_occ *o = mc ? &s->b->ports[p].mcq[q] : &s->b->ports[p].ucq[q];
	const uint64_t *dc = mc ? s->d.mcq[q] : s->d.ucq[q];
	const struct sim_hist *h = sim_stats_delay(s->st, p, q, mc, 1);
	uint64_t drops[MODEL_DROP_NCAUSES], total = 0, sent, p50, p99, p999;
	struct model_delay d;
	double area = 0, avg;

	model_read_delay(m, SIM_SERIES_WINDOW, p, q, mc, &d);
	model_read_occupancy(m, p, q, mc, &area);
	for (unsigned c = 0; c < MODEL_DROP_NCAUSES; c++) {
		drops[c] = dc[c] - pv->drops[c];
		total += drops[c];
	}
	sent = d.n - pv->n;
	avg = t > s->t_prev ? (area - pv->area) / ((t - s->t_prev) * 1e9) : 0;
	memcpy(pv->drops, dc, sizeof pv->drops);
	pv->n = d.n;
	pv->area = area;
	if (total == 0 && sent == 0 && o->cur_bytes == 0 && o->peak_bytes == 0)
		return;
	p50 = sim_hist_quantile(h, 0.5);
	p99 = sim_hist_quantile(h, 0.99);
	p999 = sim_hist_quantile(h, 0.999);
	if (s->plot)
		sim_plot_add(s->plot, t, p, q, mc, o->cur_bytes, o->peak_bytes, total, p99);
	if (!s->out)
		return;
	if (s->csv) {
		fprintf(s->out, "%.9f,%u,%u,%s,%llu,%llu,%.1f,%llu,%llu,%llu,%llu,%llu,,,,,,,,,\n",
			t, p, q, mc ? "multicast" : "unicast", (unsigned long long)o->cur_bytes,
			(unsigned long long)o->peak_bytes, avg, (unsigned long long)sent,
			(unsigned long long)total, (unsigned long long)p50, (unsigned long long)p99,
			(unsigned long long)p999);
		return;
	}
	fprintf(s->out,
		"{\"time_s\":%.9f,\"port\":%u,\"queue\":%u,\"cast\":\"%s\",\"bytes\":%llu,"
		"\"peak_bytes\":%llu,\"avg_bytes\":%.1f,\"sent\":%llu,\"drops\":%llu,"
		"\"drops_by_cause\":{",
		t, p, q, mc ? "multicast" : "unicast", (unsigned long long)o->cur_bytes,
		(unsigned long long)o->peak_bytes, avg, (unsigned long long)sent,
		(unsigned long long)total);
	for (unsigned c = 0, first = 1; c < MODEL_DROP_NCAUSES; c++)
		if (drops[c]) {
			fprintf(s->out, "%s\"%s\":%llu", first ? "" : ",",
				model_drop_cause_name((enum model_drop_cause)c),
				(unsigned long long)drops[c]);
			first = 0;
		}
	fprintf(s->out, "},\"delay_p50_ns\":%llu,\"delay_p99_ns\":%llu,\"delay_p999_ns\":%llu}\n",
		(unsigned long long)p50, (unsigned long long)p99, (unsigned long long)p999);
}

/* One per-PG list of a port row: JSON ("key":[a,b,...]) or CSV (a;b;...). */
static void pg_list(const struct sim_series *s, const char *key, const uint64_t *v)
{
	if (s->csv) {
		for (unsigned g = 0; g < MODEL_NUM_PG; g++)
			fprintf(s->out, "%s%llu", g ? ";" : ",", (unsigned long long)v[g]);
		return;
	}
	fprintf(s->out, ",\"%s\":[", key);
	for (unsigned g = 0; g < MODEL_NUM_PG; g++)
		fprintf(s->out, "%s%llu", g ? "," : "", (unsigned long long)v[g]);
	fputc(']', s->out);
}

static void port_row(struct sim_series *s, struct model *m, double t, unsigned p)
{
	struct pprev *pv = &s->pp[p];
	const struct model_port_buffers *pb = &s->b->ports[p];
	const struct sim_class_drops *cd = sim_stats_drops(s->st, p, 1);
	struct model_if_counters c;
	uint64_t xoff[MODEL_NUM_PG], held[MODEL_NUM_PG], pgpk[MODEL_NUM_PG], hdpk[MODEL_NUM_PG];
	uint64_t on[MODEL_NUM_PG];
	uint64_t any = 0;
	double xs[MODEL_NUM_PG];

	model_read_counters(m, p, &c);
	for (unsigned g = 0; g < MODEL_NUM_PG; g++) {
		xoff[g] = c.pfc_xoff[g] - pv->xoff[g];
		xs[g] = (double)(c.pfc_xoff_ns[g] - pv->xoff_ns[g]) / 1e9;
		held[g] = c.pfc_held[g] - pv->held[g];
		on[g] = pb->pfc_paused >> g & 1u;
		pgpk[g] = pb->pg[g].peak_bytes;
		hdpk[g] = pb->pg_headroom[g].peak_bytes;
		any |= xoff[g] | (c.pfc_xoff_ns[g] - pv->xoff_ns[g]) | held[g] | c.pfc_held_now[g] |
		       pgpk[g] | hdpk[g] | cd->pg[g] | cd->tc[g] | on[g];
		pv->xoff[g] = c.pfc_xoff[g];
		pv->xoff_ns[g] = c.pfc_xoff_ns[g];
		pv->held[g] = c.pfc_held[g];
	}
	if (!any || !s->out)
		return;
	if (s->csv)
		fprintf(s->out, "%.9f,%u,,,,,,,,,,", t, p);
	else
		fprintf(s->out, "{\"time_s\":%.9f,\"port\":%u", t, p);
	pg_list(s, "pfc_xoff", xoff);
	if (s->csv) {
		for (unsigned g = 0; g < MODEL_NUM_PG; g++)
			fprintf(s->out, "%s%.9f", g ? ";" : ",", xs[g]);
	} else {
		fputs(",\"pfc_xoff_s\":[", s->out);
		for (unsigned g = 0; g < MODEL_NUM_PG; g++)
			fprintf(s->out, "%s%.9f", g ? "," : "", xs[g]);
		fputc(']', s->out);
	}
	pg_list(s, "pfc_xoff_now", on);
	pg_list(s, "pg_peak_bytes", pgpk);
	pg_list(s, "headroom_peak_bytes", hdpk);
	pg_list(s, "held", held);
	pg_list(s, "held_now", c.pfc_held_now);
	pg_list(s, "drops_by_pg", cd->pg);
	pg_list(s, "drops_by_class", cd->tc);
	fputs(s->csv ? "\n" : "}\n", s->out);
}

int sim_series_sample(struct sim_series *s, struct model *m)
{
	const struct model_config *cfg = model_config_of(m);
	double t = (double)model_now(m) / 1e9;

	model_read_buffers(m, SIM_SERIES_WINDOW, s->b);
	for (unsigned p = 0; p < s->nports; p++) {
		model_read_drops(m, p, &s->d);
		for (unsigned q = 0; q < cfg->ports[p].n_ucq; q++)
			queue_row(s, m, t, p, q, 0);
		for (unsigned q = 0; q < cfg->ports[p].n_mcq; q++)
			queue_row(s, m, t, p, q, 1);
		port_row(s, m, t, p);
	}
	s->t_prev = t;
	sim_stats_next_interval(s->st);
	return s->out && ferror(s->out) ? -1 : 0;
}

static int advance_model(void *arg, uint64_t t_ns)
{
	return model_advance_to(arg, t_ns);
}

int sim_series_run(struct model *m, struct sim_stats *st, uint64_t dur_ns, uint64_t interval_ns,
		   FILE *out, int csv, struct sim_plot *plot, sim_advance_fn adv, void *arg)
{
	struct sim_series *s = sim_series_new(m, st, out, csv, plot);
	int rc = 0;

	if (!s)
		return -1;
	if (!adv) {
		adv = advance_model;
		arg = m;
	}
	for (uint64_t t = interval_ns; t <= dur_ns && rc == 0; t += interval_ns) {
		if (adv(arg, t) < 0)
			rc = -1;
		else
			rc = sim_series_sample(s, m);
		if (t > UINT64_MAX - interval_ns)
			break;
	}
	sim_series_free(s);
	if (out && fflush(out) != 0)
		rc = -1;
	return rc;
}
