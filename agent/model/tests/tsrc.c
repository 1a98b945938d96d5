/*
 * tsrc.c - test-only traffic sources (see tsrc.h).  Independent of the
 * traffic helper's generators on purpose: the fidelity tests check the
 * engine against closed forms with inputs they fully control.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "agent/model/tests/tsrc.h"

struct tsrc {
	struct tsrc_spec sp;
	double t;
	uint64_t n;
	uint64_t rng;
	uint8_t hdr[64];
};

double tsrc_unit(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

static double draw(uint64_t *st, int dist, double mean)
{
	if (dist == TS_CONST)
		return mean;
	return -mean * log(1.0 - tsrc_unit(st));
}

static int tsrc_next(void *state, struct model_pkt *p)
{
	struct tsrc *s = state;
	if (s->n >= s->sp.count)
		return 0;
	if (s->n > 0)
		s->t += draw(&s->rng, s->sp.gap_dist, s->sp.gap_ns);
	s->n++;
	double len = draw(&s->rng, s->sp.len_dist, s->sp.len);
	long l = lround(len);
	if (l < 1)
		l = 1;
	if (l > 16383)
		l = 16383;
	p->t_ns = (uint64_t)llround(s->t);
	p->len = (uint32_t)l;
	p->in_port = s->sp.in_port;
	p->out_port = s->sp.out_port;
	p->mc_group = s->sp.mc_group;
	p->tc = s->sp.tc;
	p->tos = 0;
	p->fwd_drop = (s->sp.fwd_every && s->n % s->sp.fwd_every == 0) ? s->sp.fwd_drop : 0;
	p->flow_id = s->sp.flow_id;
	p->hdr = s->hdr;
	p->hdr_len = sizeof(s->hdr);
	return 1;
}

static void tsrc_free(void *state)
{
	free(state);
}

struct model_source tsrc_new(const struct tsrc_spec *sp)
{
	struct tsrc *s = calloc(1, sizeof(*s));
	struct model_source src = {
	    .next = tsrc_next, .free = tsrc_free, .state = s, .name = "test"};
	if (s == NULL)
		abort();
	s->sp = *sp;
	s->t = sp->t0_ns;
	s->rng = sp->seed * 0x2545f4914f6cdd1dULL + 7;
	/* an Ethernet header: unicast destination 02:00:00:00:00:xx */
	s->hdr[0] = 0x02;
	s->hdr[5] = (uint8_t)sp->out_port;
	s->hdr[6] = 0x02;
	s->hdr[11] = (uint8_t)sp->in_port;
	s->hdr[12] = 0x08;
	if (sp->mc_group != 0)
		s->hdr[0] = 0x01; /* group address */
	return src;
}

double tsrc_ser_ns(uint32_t len, uint64_t bps)
{
	return (double)(len + 20) * 8.0 * 1e9 / (double)bps;
}

double tsrc_scale(void)
{
	const char *e = getenv("MODEL_TEST_SCALE");
	double f = e ? atof(e) : 1.0;
	return f > 0.0 && f <= 1.0 ? f : 1.0;
}

int tcfg_simple(struct model_config *cfg, unsigned nports, uint64_t bps)
{
	if (model_config_init(cfg, nports, bps) < 0)
		return -1;
	cfg->total_cells = 4u << 20;
	cfg->ing_pool_cells[0] = 1u << 20;
	cfg->egr_pool_cells[0] = 1u << 20;
	for (unsigned i = 0; i <= nports; i++) {
		struct model_port_config *p = i < nports ? &cfg->ports[i] : &cfg->cpu;
		p->n_ucq = 1;
		p->n_mcq = 0;
		for (unsigned t = 0; t < MODEL_NUM_TC; t++) {
			p->tc_to_ucq[t] = 0;
			p->tc_to_mcq[t] = 0;
		}
		for (unsigned g = 0; g < MODEL_NUM_PG; g++) {
			p->pg[g].min_cells = 0;
			p->pg[g].shared.mode = MODEL_LIMIT_STATIC;
			p->pg[g].shared.cells = 1u << 20;
		}
		for (unsigned q = 0; q < MODEL_MAX_QUEUES; q++) {
			struct model_queue_config *qc = &p->ucq[q];
			qc->min_cells = 0;
			qc->shared.mode = MODEL_LIMIT_STATIC;
			qc->shared.cells = 1u << 20;
			p->mcq[q] = *qc;
		}
	}
	return 0;
}

struct model *tmodel(const struct model_config *cfg)
{
	struct model_err err;
	struct model *m = model_new(cfg, &err);
	if (m == NULL) {
		fprintf(stderr, "model_new: %s\n", err.msg);
		abort();
	}
	return m;
}

void tadd(struct model *m, const struct tsrc_spec *sp)
{
	struct model_source s = tsrc_new(sp);
	if (model_add_source(m, &s) < 0)
		abort();
}

int tcfg_mc_group(struct model_config *cfg, unsigned n, const uint16_t *ports)
{
	cfg->mc_groups = calloc(1, sizeof(*cfg->mc_groups));
	if (cfg->mc_groups == NULL || n > 64)
		return -1;
	cfg->n_mc_groups = 1;
	cfg->mc_groups[0].nports = (uint16_t)n;
	for (unsigned i = 0; i < n; i++)
		cfg->mc_groups[0].ports[i] = ports[i];
	return 0;
}
