/*
 * sim_stats.c - bsflow-sim's measurements from the model's per-packet
 * trace (sim_stats.h): log-linear delay histograms per queue and drops
 * by priority group and class per ingress port, over the run and over
 * the current interval.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "agent/model/sim_stats.h"

/* Queue slots per port: unicast 0..7, multicast 8..15. */
#define SLOTS (2 * MODEL_MAX_QUEUES)

struct sim_stats {
	struct model *m;
	unsigned np; /* ports, the CPU port included */
	int intervals, failed;
	struct sim_hist **run, **ivl; /* np * SLOTS, made when first needed */
	struct sim_class_drops *drops_run, *drops_ivl;
};

unsigned sim_hist_bucket(uint64_t v)
{
	if (v < 2 * SIM_HIST_SUB)
		return (unsigned)v;
	unsigned e = 63u - (unsigned)__builtin_clzll(v); /* 8 .. 63 */
	unsigned shift = e - 7u;
	return 2 * SIM_HIST_SUB + (e - 8u) * SIM_HIST_SUB + (unsigned)(v >> shift) - SIM_HIST_SUB;
}

uint64_t sim_hist_upper(unsigned b)
{
	if (b < 2 * SIM_HIST_SUB)
		return b;
	unsigned e = 8u + (b - 2 * SIM_HIST_SUB) / SIM_HIST_SUB;
	uint64_t sub = SIM_HIST_SUB + (b - 2 * SIM_HIST_SUB) % SIM_HIST_SUB;
	unsigned shift = e - 7u;
	if (sub + 1 == 2 * SIM_HIST_SUB && shift == 56)
		return UINT64_MAX;
	return ((sub + 1) << shift) - 1;
}

uint64_t sim_hist_quantile(const struct sim_hist *h, double q)
{
	uint64_t want, acc = 0;

	if (h == NULL || h->n == 0)
		return 0;
	want = (uint64_t)ceil(q * (double)h->n);
	if (want == 0)
		want = 1;
	for (unsigned b = h->lo; b <= h->hi; b++) {
		acc += h->c[b];
		if (acc >= want) {
			uint64_t u = sim_hist_upper(b);
			return u < h->max ? u : h->max;
		}
	}
	return h->max;
}

static void hist_clear(struct sim_hist *h)
{
	if (h->n)
		memset(&h->c[h->lo], 0, (size_t)(h->hi - h->lo + 1) * sizeof h->c[0]);
	h->n = h->max = 0;
	h->lo = SIM_HIST_NB;
	h->hi = 0;
}

static void hist_add(struct sim_hist *h, uint64_t v)
{
	unsigned b = sim_hist_bucket(v);

	h->c[b]++;
	h->n++;
	if (v > h->max)
		h->max = v;
	if (b < h->lo)
		h->lo = b;
	if (b > h->hi)
		h->hi = b;
}

/* The histogram of slot k, made when first needed (NULL out of memory). */
static struct sim_hist *hist_of(struct sim_stats *s, struct sim_hist **tab, size_t k)
{
	if (tab[k] == NULL) {
		tab[k] = malloc(sizeof *tab[k]);
		if (tab[k] == NULL) {
			s->failed = 1;
			return NULL;
		}
		memset(tab[k]->c, 0, sizeof tab[k]->c);
		tab[k]->n = tab[k]->max = 0;
		tab[k]->lo = SIM_HIST_NB;
		tab[k]->hi = 0;
	}
	return tab[k];
}

static void count_drop(struct sim_class_drops *d, const struct model_trace *tr)
{
	d->pg[tr->pg % MODEL_NUM_PG]++;
	d->tc[tr->tc % MODEL_NUM_TC]++;
}

static void on_trace(void *arg, const struct model_trace *tr)
{
	struct sim_stats *s = arg;
	size_t k;
	struct sim_hist *h;

	if (!tr->departed) {
		if (tr->in_port < s->np) {
			count_drop(&s->drops_run[tr->in_port], tr);
			if (s->intervals)
				count_drop(&s->drops_ivl[tr->in_port], tr);
		}
		return;
	}
	if (tr->out_port >= s->np || tr->queue >= MODEL_MAX_QUEUES)
		return;
	k = (size_t)tr->out_port * SLOTS + (tr->mc ? MODEL_MAX_QUEUES : 0) + tr->queue;
	h = hist_of(s, s->run, k);
	if (h)
		hist_add(h, tr->t_ns - tr->t_arr_ns);
	if (s->intervals && (h = hist_of(s, s->ivl, k)) != NULL)
		hist_add(h, tr->t_ns - tr->t_arr_ns);
}

struct sim_stats *sim_stats_new(struct model *m, int intervals)
{
	struct sim_stats *s = calloc(1, sizeof *s);

	if (!s)
		return NULL;
	s->m = m;
	s->np = model_config_of(m)->nports + 1;
	s->intervals = intervals;
	s->run = calloc((size_t)s->np * SLOTS, sizeof *s->run);
	s->drops_run = calloc(s->np, sizeof *s->drops_run);
	if (intervals) {
		s->ivl = calloc((size_t)s->np * SLOTS, sizeof *s->ivl);
		s->drops_ivl = calloc(s->np, sizeof *s->drops_ivl);
	}
	if (!s->run || !s->drops_run || (intervals && (!s->ivl || !s->drops_ivl))) {
		sim_stats_free(s);
		return NULL;
	}
	model_set_trace(m, on_trace, s);
	model_track_occupancy(m);
	return s;
}

void sim_stats_free(struct sim_stats *s)
{
	if (!s)
		return;
	if (s->m)
		model_set_trace(s->m, NULL, NULL);
	for (size_t k = 0; s->run && k < (size_t)s->np * SLOTS; k++)
		free(s->run[k]);
	for (size_t k = 0; s->ivl && k < (size_t)s->np * SLOTS; k++)
		free(s->ivl[k]);
	free(s->run);
	free(s->ivl);
	free(s->drops_run);
	free(s->drops_ivl);
	free(s);
}

const struct sim_hist *sim_stats_delay(const struct sim_stats *s, unsigned port, unsigned queue,
				       int mc, int interval)
{
	struct sim_hist **tab = interval ? s->ivl : s->run;

	if (!tab || port >= s->np || queue >= MODEL_MAX_QUEUES)
		return NULL;
	const struct sim_hist *h = tab[(size_t)port * SLOTS + (mc ? MODEL_MAX_QUEUES : 0) + queue];
	return h && h->n ? h : NULL;
}

const struct sim_class_drops *sim_stats_drops(const struct sim_stats *s, unsigned port,
					      int interval)
{
	const struct sim_class_drops *d = interval ? s->drops_ivl : s->drops_run;

	return d && port < s->np ? &d[port] : NULL;
}

void sim_stats_next_interval(struct sim_stats *s)
{
	if (!s->intervals)
		return;
	for (size_t k = 0; k < (size_t)s->np * SLOTS; k++)
		if (s->ivl[k])
			hist_clear(s->ivl[k]);
	memset(s->drops_ivl, 0, (size_t)s->np * sizeof *s->drops_ivl);
}

int sim_stats_failed(const struct sim_stats *s)
{
	return s->failed;
}
