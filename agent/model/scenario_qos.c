/*
 * scenario_qos.c - the model section's queueing and admission settings,
 * per switch, per port and per queue or priority group, and its wred
 * sections (see scenario_qos.h for the order they apply in).  Values are
 * checked here, where file and line are known; model_config_check
 * checks the result again.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/model/scenario_qos.h"

cfg_opt_t model_scen_queue_opts[] = {
    CONF_V("scheduler"), CONF_V("weight"),  CONF_V("alpha"), CONF_V("limit"),
    CONF_V("min"),	 CONF_V("packets"), CFG_END()};

cfg_opt_t model_scen_pg_opts[] = {CONF_V("lossless"), CONF_V("headroom"), CONF_V("xoff"),
				  CONF_V("xon"),      CONF_V("alpha"),	  CONF_V("min"),
				  CFG_END()};

static const char *const scheds[] = {"sp", "dwrr", NULL};

uint32_t model_scen_cells(uint64_t bytes, uint32_t cell)
{
	uint64_t c = (bytes + cell - 1) / cell;

	return c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
}

int model_scen_range_title(const char *t, long max, long *a, long *b)
{
	char *end;

	errno = 0;
	*a = strtol(t, &end, 10);
	*b = *a;
	if (end != t && *end == '-' && end[1] >= '0' && end[1] <= '9')
		*b = strtol(end + 1, &end, 10);
	return end == t || *end || errno || *a < 0 || *b < *a || *b > max ? -1 : 0;
}

/* ---- optional keys: each sets *have (and its value) when present ---- */

static int opt_size(struct conf_ctx *x, cfg_t *s, const char *key, uint64_t hi, uint64_t *out,
		    int *have)
{
	const struct conf_val *v = conf_get(s, key);

	if (!v)
		return 0;
	*have = 1;
	return conf_size(x, v, key, 0, hi, out);
}

static int opt_alpha(struct conf_ctx *x, cfg_t *s, const char *key, double *out, int *have)
{
	const struct conf_val *v = conf_get(s, key);

	if (!v)
		return 0;
	*have = 1;
	return conf_double(x, v, key, 0, 1024, 1, out);
}

static int opt_int(struct conf_ctx *x, cfg_t *s, const char *key, long long lo, long long hi,
		   long long *out, int *have)
{
	const struct conf_val *v = conf_get(s, key);

	if (!v)
		return 0;
	*have = 1;
	return conf_int(x, v, key, lo, hi, out);
}

static int opt_sched(struct conf_ctx *x, cfg_t *s, int *out, int *have)
{
	const struct conf_val *v = conf_get(s, "scheduler");

	if (!v)
		return 0;
	*have = 1;
	return conf_enum(x, v, "scheduler", scheds, out);
}

/* The thresholds of a lossless PG, headroom, xoff and xon, in bytes. */
static int opt_pfc(struct conf_ctx *x, cfg_t *s, uint64_t *hdrm, int *have_hdrm, uint64_t *xoff,
		   int *have_xoff, uint64_t *xon, int *have_xon)
{
	return opt_size(x, s, "headroom", 1ULL << 30, hdrm, have_hdrm) < 0 ||
		       opt_size(x, s, "xoff", 1ULL << 30, xoff, have_xoff) < 0 ||
		       opt_size(x, s, "xon", 1ULL << 30, xon, have_xon) < 0
		   ? -1
		   : 0;
}

/* ---- levels: the model section's keys, a port section's keys ---- */

/* The keys one level gives (have_*: the key is there). */
struct lvl {
	int have_alpha, have_pg_alpha, have_qlimit, have_qmin, have_pgmin, have_qpk, have_sched;
	int have_lossless, have_headroom, have_xoff, have_xon, have_pfcd;
	double alpha, pg_alpha;
	uint64_t qlimit, qmin, pgmin, headroom, xoff, xon, pfcd;
	long long qpk;
	int sched;
	unsigned nweights;
	uint32_t weights[MODEL_MAX_QUEUES];
	uint8_t lossless[MODEL_NUM_PG];
	const struct conf_val *xon_v; /* for the xon <= xoff message */
};

/* What a port has from the levels so far, for the PGs made lossless
 * later (a pg section, or a port's lossless list): the headroom and
 * thresholds in bytes. */
struct port_eff {
	uint64_t headroom, xoff, xon;
};

static int parse_lvl(struct conf_ctx *x, cfg_t *s, unsigned ucq, struct lvl *L)
{
	unsigned n, i;

	memset(L, 0, sizeof(*L));
	if (opt_alpha(x, s, "alpha", &L->alpha, &L->have_alpha) < 0 ||
	    opt_alpha(x, s, "pg_alpha", &L->pg_alpha, &L->have_pg_alpha) < 0 ||
	    opt_size(x, s, "queue_limit", 64ULL << 30, &L->qlimit, &L->have_qlimit) < 0 ||
	    opt_size(x, s, "queue_min", 1ULL << 30, &L->qmin, &L->have_qmin) < 0 ||
	    opt_size(x, s, "pg_min", 1ULL << 30, &L->pgmin, &L->have_pgmin) < 0 ||
	    opt_int(x, s, "queue_packets", 0, 100000000, &L->qpk, &L->have_qpk) < 0 ||
	    opt_sched(x, s, &L->sched, &L->have_sched) < 0)
		return -1;
	n = cfg_size(s, "weights");
	if (n > ucq)
		return conf_fail(x, cfg_getnptr(s, "weights", ucq), "weights",
				 "%u weights for %u unicast queues; allowed: at most one per queue",
				 n, ucq);
	for (i = 0; i < n; i++) {
		long long w;

		if (conf_int(x, cfg_getnptr(s, "weights", i), "weights", 1, 1024, &w) < 0)
			return -1;
		L->weights[i] = (uint32_t)w;
	}
	L->nweights = n;
	n = cfg_size(s, "lossless");
	L->have_lossless = n > 0;
	for (i = 0; i < n; i++) {
		long long pg;

		if (conf_int(x, cfg_getnptr(s, "lossless", i), "lossless", 0, MODEL_NUM_PG - 1,
			     &pg) < 0)
			return -1;
		L->lossless[pg] = 1;
	}
	if (opt_pfc(x, s, &L->headroom, &L->have_headroom, &L->xoff, &L->have_xoff, &L->xon,
		    &L->have_xon) < 0)
		return -1;
	L->xon_v = conf_get(s, "xon");
	if (conf_get(s, "pfc_delay")) {
		if (conf_time(x, conf_get(s, "pfc_delay"), "pfc_delay", 0, CONF_TIME_MAX,
			      &L->pfcd) < 0)
			return -1;
		L->have_pfcd = 1;
	}
	return 0;
}

/* A lossless PG's thresholds, xon above xoff refused where the value
 * was given (v, or the section's line). */
static int check_xon(struct conf_ctx *x, const struct conf_val *v, uint64_t xoff, uint64_t xon)
{
	if (xoff && xon > xoff)
		return conf_fail(x, v, "xon",
				 "%llu bytes, above xoff; allowed: 0..%llu bytes (xoff)",
				 (unsigned long long)xon, (unsigned long long)xoff);
	return 0;
}

/* PG g of port p lossless (with the port's headroom and thresholds so
 * far) or lossy. */
static void set_lossless(struct model_port_config *p, unsigned g, int on, const struct port_eff *e,
			 uint32_t cell)
{
	struct model_pg_config *pg = &p->pg[g];

	pg->lossless = (uint8_t)on;
	pg->headroom_cells = on ? model_scen_cells(e->headroom, cell) : 0;
	pg->xoff_cells = on ? model_scen_cells(e->xoff, cell) : 0;
	pg->xon_cells = on ? model_scen_cells(e->xon, cell) : 0;
}

/* Level L on port p (e: what the port has from the levels). */
static int apply_lvl(struct conf_ctx *x, const struct lvl *L, struct model_port_config *p,
		     struct port_eff *e, uint32_t cell)
{
	unsigned q, g;

	if (L->have_pfcd)
		p->pfc_delay_ns = L->pfcd;
	if (L->have_headroom)
		e->headroom = L->headroom;
	if (L->have_xoff)
		e->xoff = L->xoff;
	if (L->have_xon)
		e->xon = L->xon;
	if ((L->have_xoff || L->have_xon) && check_xon(x, L->xon_v, e->xoff, e->xon) < 0)
		return -1;
	for (g = 0; g < MODEL_NUM_PG; g++) {
		struct model_pg_config *pg = &p->pg[g];

		/* pg_alpha, else alpha, on the PGs' dynamic thresholds */
		if (L->have_pg_alpha || L->have_alpha)
			pg->shared.alpha = L->have_pg_alpha ? L->pg_alpha : L->alpha;
		if (L->have_pgmin)
			pg->min_cells = model_scen_cells(L->pgmin, cell);
		if (L->have_lossless)
			set_lossless(p, g, L->lossless[g], e, cell);
		else if (pg->lossless && (L->have_headroom || L->have_xoff || L->have_xon))
			set_lossless(p, g, 1, e, cell);
	}
	for (q = 0; q < 2 * MODEL_MAX_QUEUES; q++) {
		struct model_queue_config *qc =
		    q < MODEL_MAX_QUEUES ? &p->ucq[q] : &p->mcq[q - MODEL_MAX_QUEUES];

		if (L->have_alpha) {
			qc->shared.alpha = L->alpha;
			qc->shared.mode = MODEL_LIMIT_DYNAMIC;
		}
		if (L->have_qlimit) { /* at one level, a static limit wins */
			qc->shared.mode = MODEL_LIMIT_STATIC;
			qc->shared.cells = model_scen_cells(L->qlimit, cell);
		}
		if (L->have_qmin)
			qc->min_cells = model_scen_cells(L->qmin, cell);
		if (L->have_sched)
			qc->sched = (uint8_t)L->sched;
		if (q % MODEL_MAX_QUEUES < L->nweights)
			qc->weight = L->weights[q % MODEL_MAX_QUEUES];
		if (L->have_qpk)
			qc->limit_pkts = (uint32_t)L->qpk;
	}
	return 0;
}

/* ---- queue, mc_queue and pg sections ---- */

/* A queue section s (title: queues a..b of the kind mc) on port p. */
struct qsec {
	long a, b;
	int have_sched, have_weight, have_alpha, have_limit, have_min, have_pk;
	int sched;
	long long weight, pk;
	double alpha;
	uint64_t limit, min;
};

static int parse_qsec(struct conf_ctx *x, cfg_t *s, const char *kind, unsigned nq, struct qsec *Q)
{
	const struct conf_val *v;
	const char *t = cfg_title(s);

	memset(Q, 0, sizeof(*Q));
	if (nq == 0)
		return conf_fail(x, NULL, NULL,
				 "the ports have no %s queues; allowed: a %s section with "
				 "multicast_queues above 0",
				 kind, "mc_queue");
	if (model_scen_range_title(t, (long)nq - 1, &Q->a, &Q->b) < 0)
		return conf_fail(x, NULL, NULL,
				 "not a queue number or range; allowed: 0..%u, or A-B with A <= B "
				 "in it (the ports' %s queues)",
				 nq - 1, kind);
	if (opt_sched(x, s, &Q->sched, &Q->have_sched) < 0 ||
	    opt_int(x, s, "weight", 1, 1024, &Q->weight, &Q->have_weight) < 0 ||
	    opt_alpha(x, s, "alpha", &Q->alpha, &Q->have_alpha) < 0 ||
	    opt_size(x, s, "min", 1ULL << 30, &Q->min, &Q->have_min) < 0 ||
	    opt_int(x, s, "packets", 0, 100000000, &Q->pk, &Q->have_pk) < 0)
		return -1;
	if ((v = conf_get(s, "limit")) && Q->have_alpha)
		return conf_fail(
		    x, v, "limit",
		    "with alpha; allowed: one of alpha (a dynamic threshold) and limit "
		    "(a static one)");
	if (opt_size(x, s, "limit", 64ULL << 30, &Q->limit, &Q->have_limit) < 0)
		return -1;
	return 0;
}

static void apply_qsec(const struct qsec *Q, struct model_queue_config *qs, uint32_t cell)
{
	for (long k = Q->a; k <= Q->b; k++) {
		struct model_queue_config *qc = &qs[k];

		if (Q->have_sched)
			qc->sched = (uint8_t)Q->sched;
		if (Q->have_weight)
			qc->weight = (uint32_t)Q->weight;
		if (Q->have_alpha) {
			qc->shared.mode = MODEL_LIMIT_DYNAMIC;
			qc->shared.alpha = Q->alpha;
		}
		if (Q->have_limit) {
			qc->shared.mode = MODEL_LIMIT_STATIC;
			qc->shared.cells = model_scen_cells(Q->limit, cell);
		}
		if (Q->have_min)
			qc->min_cells = model_scen_cells(Q->min, cell);
		if (Q->have_pk)
			qc->limit_pkts = (uint32_t)Q->pk;
	}
}

/* A pg section (title: PGs a..b). */
struct gsec {
	long a, b;
	int have_lossless, lossless, have_headroom, have_xoff, have_xon, have_alpha, have_min;
	uint64_t headroom, xoff, xon, min;
	double alpha;
	const struct conf_val *xon_v;
};

static int parse_gsec(struct conf_ctx *x, cfg_t *s, struct gsec *G)
{
	const struct conf_val *v;

	memset(G, 0, sizeof(*G));
	if (model_scen_range_title(cfg_title(s), MODEL_NUM_PG - 1, &G->a, &G->b) < 0)
		return conf_fail(x, NULL, NULL,
				 "not a priority group number or range; allowed: 0..%u, or A-B "
				 "with A <= B in it",
				 MODEL_NUM_PG - 1);
	if ((v = conf_get(s, "lossless"))) {
		if (conf_bool(x, v, "lossless", &G->lossless) < 0)
			return -1;
		G->have_lossless = 1;
	}
	if (opt_pfc(x, s, &G->headroom, &G->have_headroom, &G->xoff, &G->have_xoff, &G->xon,
		    &G->have_xon) < 0 ||
	    opt_alpha(x, s, "alpha", &G->alpha, &G->have_alpha) < 0 ||
	    opt_size(x, s, "min", 1ULL << 30, &G->min, &G->have_min) < 0)
		return -1;
	G->xon_v = conf_get(s, "xon");
	return 0;
}

static int apply_gsec(struct conf_ctx *x, const struct gsec *G, struct model_port_config *p,
		      const struct port_eff *e, uint32_t cell)
{
	for (long g = G->a; g <= G->b; g++) {
		struct model_pg_config *pg = &p->pg[g];

		if (G->have_lossless)
			set_lossless(p, (unsigned)g, G->lossless, e, cell);
		if ((G->have_headroom || G->have_xoff || G->have_xon) && !pg->lossless)
			return conf_fail(
			    x, NULL, NULL,
			    "headroom, xoff or xon for priority group %ld of port %s, "
			    "which is not lossless; allowed: with lossless = yes (here "
			    "or in an earlier section)",
			    g, p->name);
		if (G->have_headroom)
			pg->headroom_cells = model_scen_cells(G->headroom, cell);
		if (G->have_xoff)
			pg->xoff_cells = model_scen_cells(G->xoff, cell);
		if (G->have_xon)
			pg->xon_cells = model_scen_cells(G->xon, cell);
		if (pg->xoff_cells && pg->xon_cells > pg->xoff_cells)
			return conf_fail(
			    x, G->xon_v, G->xon_v ? "xon" : NULL,
			    "priority group %ld of port %s: xon %u cells above xoff %u "
			    "cells; allowed: xon at most xoff",
			    g, p->name, pg->xon_cells, pg->xoff_cells);
		if (G->have_alpha) {
			pg->shared.mode = MODEL_LIMIT_DYNAMIC;
			pg->shared.alpha = G->alpha;
		}
		if (G->have_min)
			pg->min_cells = model_scen_cells(G->min, cell);
	}
	return 0;
}

/* The queue, mc_queue and pg sections of section s (a port section of
 * ports a..b, or the model section: every front-panel port), in this
 * order; where names the enclosing section in messages. */
static int apply_subsections(struct conf_ctx *x, cfg_t *s, const char *where,
			     struct model_config *cfg, struct port_eff *eff, long a, long b,
			     unsigned ucq, unsigned mcq)
{
	static const char *const kinds[2] = {"queue", "mc_queue"};
	unsigned i;

	for (int mc = 0; mc < 2; mc++) {
		for (i = 0; i < cfg_size(s, kinds[mc]); i++) {
			cfg_t *qs = cfg_getnsec(s, kinds[mc], i);
			struct qsec Q;

			conf_enter(x, where, kinds[mc], cfg_title(qs), conf_section_line(qs));
			if (parse_qsec(x, qs, mc ? "multicast" : "unicast", mc ? mcq : ucq, &Q) < 0)
				return -1;
			for (long p = a; p <= b; p++)
				apply_qsec(&Q, mc ? cfg->ports[p].mcq : cfg->ports[p].ucq,
					   cfg->cell_bytes);
		}
	}
	for (i = 0; i < cfg_size(s, "pg"); i++) {
		cfg_t *gs = cfg_getnsec(s, "pg", i);
		struct gsec G;

		conf_enter(x, where, "pg", cfg_title(gs), conf_section_line(gs));
		if (parse_gsec(x, gs, &G) < 0)
			return -1;
		for (long p = a; p <= b; p++)
			if (apply_gsec(x, &G, &cfg->ports[p], &eff[p], cfg->cell_bytes) < 0)
				return -1;
	}
	return 0;
}

/* ---- wred sections ---- */

/* A list of numbers and ranges "a-b" below n, each once (0 listed: all). */
static int parse_list(struct conf_ctx *x, cfg_t *sec, const char *key, unsigned n, uint8_t *in,
		      unsigned *count)
{
	*count = 0;
	memset(in, 0, n);
	for (unsigned i = 0; i < cfg_size(sec, key); i++) {
		const struct conf_val *v = cfg_getnptr(sec, key, i);
		long long a, b;

		if (conf_range(x, v, key, 0, (long long)n - 1, &a, &b) < 0)
			return -1;
		for (long long k = a; k <= b; k++) {
			if (in[k])
				return conf_fail(x, v, key,
						 "%lld listed twice; allowed: each one once", k);
			in[k] = 1;
			(*count)++;
		}
	}
	return 0;
}

static int build_wred(struct conf_ctx *x, cfg_t *sec, struct model_config *cfg, unsigned ucq)
{
	for (unsigned i = 0; i < cfg_size(sec, "wred"); i++) {
		cfg_t *ws = cfg_getnsec(sec, "wred", i);
		const struct conf_val *v;
		uint8_t *ports = NULL, queues[MODEL_MAX_QUEUES];
		unsigned np, nq;
		uint64_t mn = 0, mx = 0;
		double prob = 0.1;
		int ecn = 0;
		long long gain = 0;

		conf_enter(x, "model", "wred", NULL, conf_section_line(ws));
		if (!(v = conf_get(ws, "min")) ||
		    conf_size(x, v, "min", 0, 4294967295ULL, &mn) < 0 ||
		    !(v = conf_get(ws, "max")) ||
		    conf_size(x, v, "max", 0, 4294967295ULL, &mx) < 0) {
			if (!v)
				conf_fail(x, NULL, conf_get(ws, "min") ? "max" : "min",
					  "missing; allowed: a size in bytes");
			return -1;
		}
		if (mx <= mn)
			return conf_fail(x, v, "max",
					 "not above min; allowed: more than %llu bytes",
					 (unsigned long long)mn);
		if ((v = conf_get(ws, "probability")) &&
		    conf_frac(x, v, "probability", 0, 1, &prob) < 0)
			return -1;
		if (((v = conf_get(ws, "ecn")) && conf_bool(x, v, "ecn", &ecn) < 0) ||
		    conf_get_int(x, ws, "gain", 0, 15, &gain) < 0)
			return -1;
		ports = malloc(cfg->nports);
		if (!ports)
			return conf_fail(x, NULL, NULL, "out of memory");
		if (parse_list(x, ws, "ports", cfg->nports, ports, &np) < 0 ||
		    parse_list(x, ws, "queues", ucq, queues, &nq) < 0) {
			free(ports);
			return -1;
		}
		for (unsigned p = 0; p < cfg->nports; p++) {
			if (np && !ports[p])
				continue;
			for (unsigned k = 0; k < ucq; k++) {
				struct model_wred_config *w = &cfg->ports[p].ucq[k].wred;

				if (nq && !queues[k])
					continue;
				w->enabled = 1;
				w->ecn = (uint8_t)ecn;
				w->gain = (uint8_t)gain;
				w->min_bytes = (uint32_t)mn;
				w->max_bytes = (uint32_t)mx;
				w->max_prob = prob;
			}
		}
		free(ports);
	}
	return 0;
}

/* ---- the whole ---- */

int model_scen_qos_build(struct conf_ctx *x, cfg_t *sec, struct model_config *cfg, unsigned ucq,
			 unsigned mcq)
{
	static const char *const counts[] = {"frame", "wire", NULL};
	const struct conf_val *v;
	struct port_eff *eff;
	struct lvl L;
	unsigned i, p;
	long a, b;
	int rc = -1;

	for (p = 0; p < cfg->nports; p++) {
		struct model_port_config *pc = &cfg->ports[p];

		pc->n_ucq = (uint8_t)ucq;
		pc->n_mcq = (uint8_t)mcq;
		for (unsigned t = 0; t < MODEL_NUM_TC; t++) {
			pc->tc_to_ucq[t] = (uint8_t)(t * ucq / MODEL_NUM_TC);
			pc->tc_to_mcq[t] = mcq ? (uint8_t)(t * mcq / MODEL_NUM_TC) : 0;
		}
	}
	if (!sec)
		return 0;
	conf_enter(x, "model", NULL, NULL, 0);
	if ((v = conf_get(sec, "dwrr_quantum"))) {
		uint64_t qb;

		if (conf_size(x, v, "dwrr_quantum", 64, 1u << 20, &qb) < 0)
			return -1;
		cfg->dwrr_quantum = (uint32_t)qb;
	}
	if ((v = conf_get(sec, "dwrr_count"))) {
		int k;

		if (conf_enum(x, v, "dwrr_count", counts, &k) < 0)
			return -1;
		cfg->dwrr_wire = (uint8_t)k;
	}
	eff = calloc(cfg->nports, sizeof(*eff));
	if (!eff)
		return conf_fail(x, NULL, NULL, "out of memory");
	/* the model section's keys on every port */
	if (parse_lvl(x, sec, ucq, &L) < 0)
		goto out;
	for (p = 0; p < cfg->nports; p++)
		if (apply_lvl(x, &L, &cfg->ports[p], &eff[p], cfg->cell_bytes) < 0)
			goto out;
	/* each port section's keys on its ports (its title was checked
	 * with its speed and name) */
	for (i = 0; i < cfg_size(sec, "port"); i++) {
		cfg_t *ps = cfg_getnsec(sec, "port", i);

		conf_enter(x, "model", "port", cfg_title(ps), conf_section_line(ps));
		if (model_scen_range_title(cfg_title(ps), (long)cfg->nports - 1, &a, &b) < 0 ||
		    parse_lvl(x, ps, ucq, &L) < 0)
			goto out;
		for (long k = a; k <= b; k++)
			if (apply_lvl(x, &L, &cfg->ports[k], &eff[k], cfg->cell_bytes) < 0)
				goto out;
	}
	/* queue and pg sections: the model section's, then the ports' */
	if (apply_subsections(x, sec, "model", cfg, eff, 0, (long)cfg->nports - 1, ucq, mcq) < 0)
		goto out;
	for (i = 0; i < cfg_size(sec, "port"); i++) {
		cfg_t *ps = cfg_getnsec(sec, "port", i);
		char where[80];

		model_scen_range_title(cfg_title(ps), (long)cfg->nports - 1, &a, &b);
		snprintf(where, sizeof(where), "model: port \"%.20s\"", cfg_title(ps));
		if (apply_subsections(x, ps, where, cfg, eff, a, b, ucq, mcq) < 0)
			goto out;
	}
	rc = build_wred(x, sec, cfg, ucq);
out:
	free(eff);
	return rc;
}
