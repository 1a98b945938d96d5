/*
 * model_setup.c - building and freeing the switch model: model_new (its
 * ports, queues, PGs and buffer objects from the configuration, and the
 * arrays they live in), model_add_source, model_free.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/model/hugemem.h"
#include "agent/model/model_engine.h"

int model_add_source(struct model *m, const struct model_source *src)
{
	if (src == NULL || src->next == NULL)
		return -1;
	if (m->nsrc == m->src_cap) {
		uint32_t cap = m->src_cap ? 2 * m->src_cap : 8;
		/* the merge's heap, list and bits first (larger is harmless) */
		struct mtk *q = realloc(m->sq, cap * sizeof(*q));
		if (q != NULL)
			m->sq = q;
		uint32_t *sp = realloc(m->spend, cap * sizeof(*sp));
		if (sp != NULL)
			m->spend = sp;
		uint32_t *to = realloc(m->tie_ord, cap * sizeof(*to));
		if (to != NULL)
			m->tie_ord = to;
		uint64_t *bits = calloc((cap + 63) / 64, sizeof(*bits));
		if (q == NULL || sp == NULL || to == NULL || bits == NULL) {
			free(bits);
			return -1;
		}
		free(m->spart); /* all zero between rounds */
		m->spart = bits;
		/* cache-line aligned (struct msrc), in huge pages if large:
		 * no realloc */
		struct msrc *s = hugemem_alloc(cap * sizeof(*s));
		if (s == NULL)
			return -1;
		for (uint32_t k = 0; k < m->nsrc; k++) {
			/* the same packets, pointed at in the new place */
			s[k] = m->srcs[k];
			s[k].next = s[k].buf + (m->srcs[k].next - m->srcs[k].buf);
			s[k].end = s[k].buf + (m->srcs[k].end - m->srcs[k].buf);
		}
		for (struct arr_ent *e = m->arr_next; e->p->src < ARR_MERGE; e++)
			e->p = s[e->p->src].buf + (e->p - m->srcs[e->p->src].buf);
		hugemem_free(m->srcs, m->src_cap * sizeof(*s));
		m->srcs = s;
		m->src_cap = cap;
	}
	/* the stream holds at most MSRC_BATCH packets per source, then its
	 * marker, then an entry that run_loop reads but does not use (its
	 * packet is only prefetched): zero until a round writes it */
	uint32_t need = (m->nsrc + 1) * MSRC_BATCH + 2;
	if (need > m->arr_cap) {
		uint32_t cap = need + need / 4;
		size_t next = (size_t)(m->arr_next - m->arr);
		struct arr_ent *a = realloc(m->arr, cap * sizeof(*a));
		if (a == NULL)
			return -1;
		memset(a + m->arr_cap, 0, (cap - m->arr_cap) * sizeof(*a));
		m->arr = a;
		m->arr_next = a + next;
		struct arr_ent *k = realloc(m->arr_key, (size_t)(cap - 1) * sizeof(*k));
		if (k == NULL)
			return -1;
		m->arr_key = k;
		m->arr_cap = cap;
	}
	m->tie_e = UINT64_MAX; /* the tie order is for the sources before */
	unsigned i = m->nsrc++;
	struct msrc *s = &m->srcs[i];
	memset(s, 0, sizeof(*s));
	s->src = *src;
	s->batch = src->next_batch;
	s->state = src->state;
	s->trusted = src->ports != 0 && src->ports <= m->np && src->groups <= m->cfg.n_mc_groups;
	/* its first packet arrives now at the earliest */
	s->last_t = m->now;
	s->next = s->end = s->buf;
	model_src_topup(m, s);
	if (s->next == s->end)
		return 0; /* no packets: not live */
	s->live = 1;
	/* the stream's packets go back to their sources: the next round,
	 * merged before any packet arrives, takes the new one in */
	model_arr_discard(m);
	return 0;
}

static void setup_queue(struct mqueue *q, const struct model_queue_config *c, uint32_t quantum_unit)
{
	q->present = 1;
	q->tailp = &q->head;
	q->min_cells = c->min_cells;
	q->dyn = c->shared.mode == MODEL_LIMIT_DYNAMIC;
	q->alpha = c->shared.alpha;
	q->lim_cells = c->shared.cells;
	q->pool = c->pool;
	q->quantum = (c->weight ? c->weight : 1) * quantum_unit;
	q->limit_pkts = c->limit_pkts;
	q->chk =
	    (uint8_t)((c->wred.enabled ? QCHK_WRED : 0) | (c->limit_pkts != 0 ? QCHK_LIMIT : 0));
	q->wred_min = c->wred.min_bytes;
	q->wred_max = c->wred.max_bytes;
	q->wred_maxp = c->wred.max_prob;
}

static void sum_add(struct msum *s, uint32_t min, const struct model_limit *l, unsigned pool)
{
	s->fixed += min;
	if (l->mode == MODEL_LIMIT_DYNAMIC)
		s->alpha[pool] += l->alpha;
	else
		s->fixed += l->cells;
}

/* The next object's peak windows (m->win), against allocation alloc. */
static struct mpeak_c *init_win(struct model *m, uint32_t alloc)
{
	struct mpeak_c *c = &m->win[m->win_used++];
	c->run_alloc = alloc;
	for (unsigned w = 0; w < MODEL_NUM_WINDOWS; w++)
		c->w[w].alloc = alloc;
	return c;
}

static void init_peaks(struct model *m, struct mpeak *k, uint32_t alloc)
{
	k->c = init_win(m, alloc);
	k->run_top = m->occ_mask; /* run 0 */
}

static void init_pool(struct model *m, struct mpool *k, uint32_t alloc)
{
	k->c = init_win(m, alloc);
}

/* min_top of a minimum (struct mqueue) */
static uint64_t occ_top(const struct model *m, uint32_t cells)
{
	return ((uint64_t)cells << m->occ_shift) | m->occ_mask;
}
static void setup_port(struct model *m, struct mport *P, const struct model_port_config *c)
{
	P->fs_per_byte = (uint64_t)(8.0e15 / (double)c->speed_bps + 0.5);
	P->unpaused = 0xffff;
	P->overhead = c->overhead_bytes;
	P->dwrr_over = (uint16_t)(m->cfg.dwrr_wire ? c->overhead_bytes : 0);
	P->n_ucq = c->n_ucq;
	P->n_mcq = c->n_mcq;
	P->sampling_rate = c->sampling_rate;
	P->pfc_delay = c->pfc_delay_ns;
	memcpy(P->tc_pg, c->tc_to_pg, sizeof(P->tc_pg));
	memcpy(P->tc_ucq, c->tc_to_ucq, sizeof(P->tc_ucq));
	memcpy(P->tc_mcq, c->tc_to_mcq, sizeof(P->tc_mcq));
	for (unsigned tc = 0; tc < MODEL_NUM_TC; tc++) {
		struct mpf_tc *f = &m->pf_tc[(size_t)(P - m->ports) * MODEL_NUM_TC + tc];
		f->pg = (uint32_t)((const char *)&P->pg[P->tc_pg[tc]] - (const char *)m->ports);
		f->q = (uint32_t)((const char *)&P->q[P->tc_ucq[tc]] - (const char *)m->ports);
	}
	for (unsigned q = 0; q < c->n_ucq; q++) {
		setup_queue(&P->q[q], &c->ucq[q], m->cfg.dwrr_quantum);
		sum_add(&P->sum_uc, c->ucq[q].min_cells, &c->ucq[q].shared, c->ucq[q].pool);
	}
	for (unsigned q = 0; q < c->n_mcq; q++) {
		setup_queue(&P->q[MQ_MC + q], &c->mcq[q], m->cfg.dwrr_quantum);
		sum_add(&P->sum_mc, c->mcq[q].min_cells, &c->mcq[q].shared, c->mcq[q].pool);
	}
	/* strict priority: higher class first, unicast before multicast */
	for (int q = MODEL_MAX_QUEUES - 1; q >= 0; q--) {
		if (q < c->n_ucq && c->ucq[q].sched == MODEL_SCHED_SP)
			P->sp_mask |= (uint16_t)(1u << q);
		if (q < c->n_mcq && c->mcq[q].sched == MODEL_SCHED_SP)
			P->sp_mask |= (uint16_t)(1u << (MQ_MC + q));
	}
	P->sp_run = P->sp_mask & P->unpaused;
	for (unsigned q = 0; q < MODEL_MAX_QUEUES; q++) {
		if (q < c->n_ucq && c->ucq[q].sched == MODEL_SCHED_DWRR)
			P->dwrr_list[P->ndwrr++] = (uint8_t)q;
	}
	for (unsigned q = 0; q < MODEL_MAX_QUEUES; q++) {
		if (q < c->n_mcq && c->mcq[q].sched == MODEL_SCHED_DWRR)
			P->dwrr_list[P->ndwrr++] = (uint8_t)(MQ_MC + q);
	}
	for (unsigned g = 0; g < MODEL_NUM_PG; g++) {
		const struct model_pg_config *pc = &c->pg[g];
		struct mpg *G = &P->pg[g];
		G->min_cells = pc->min_cells;
		G->min_top = occ_top(m, pc->min_cells);
		G->dyn = pc->shared.mode == MODEL_LIMIT_DYNAMIC;
		G->alpha = pc->shared.alpha;
		G->lim_cells = pc->shared.cells;
		G->pool = pc->pool;
		G->lossless = pc->lossless;
		G->headroom = pc->lossless ? pc->headroom_cells : 0;
		G->xoff = pc->xoff_cells;
		G->xon = pc->xon_cells;
		G->pause_start = UINT64_MAX;
		G->pause_end = 0;
		sum_add(&P->sum_pg, pc->min_cells, &pc->shared, pc->pool);
		init_peaks(m, &G->pk, model_pg_alloc(m, G));
		init_peaks(m, &G->pk_hdrm, G->headroom);
	}
	for (unsigned s = 0; s < MQ_SLOTS; s++) {
		struct mqueue *q = &P->q[s];
		if (!q->present)
			continue;
		init_peaks(m, &q->pk, model_q_alloc(m, q));
		q->min_top = occ_top(m, q->min_cells);
	}
	P->qbase = m->nq;
	m->nq += P->n_ucq + P->n_mcq;
	for (unsigned s = 0; s < MQ_SLOTS; s++) {
		struct mqueue *q = &P->q[s];
		if (q->present) {
			struct mqcold *qc = &m->qcold[qindex(P, s)];
			const struct model_wred_config *w =
			    s < MQ_MC ? &c->ucq[s].wred : &c->mcq[s - MQ_MC].wred;
			q->hist = qc->hist;
			qc->wred_w = w->gain ? ldexp(1.0, -(int)w->gain) : 0;
			qc->wred_ecn = w->ecn;
		}
		q->bit = (uint16_t)(1u << s);
		q->egr = s >= MQ_MC ? &P->egr_mc : &P->egr_uc;
	}
	init_peaks(m, &P->ing_uc, model_sum_alloc(m, &P->sum_pg, 0));
	init_peaks(m, &P->ing_mc, model_sum_alloc(m, &P->sum_pg, 0));
	init_peaks(m, &P->egr_uc, model_sum_alloc(m, &P->sum_uc, 1));
	init_peaks(m, &P->egr_mc, model_sum_alloc(m, &P->sum_mc, 1));
	P->skip = draw_skip(m, P->sampling_rate);
}

/* The next array of n bytes at *off in block a (NULL: only count), from a
 * cache line. */
static void *carve(char *a, size_t *off, size_t n)
{
	void *p = a != NULL ? a + *off : NULL;
	*off += (n + MODEL_LINE - 1) & ~(size_t)(MODEL_LINE - 1);
	return p;
}

/* The arrays whose size model_new knows (the ports; the calendar's
 * leaves; the merge's counters; peaks, queues' cold data and delay
 * windows), carved from one zeroed block of m->arrays_bytes that starts
 * with the ports: in one huge page (hugemem.h) for a switch of 64 ports,
 * which every packet reaches into at several places.  The first pass
 * sizes the block.  0, or -1: out of memory. */
static int alloc_arrays(struct model *m, uint32_t nq)
{
	const size_t ncnt = ARR_NB > 1u << ARR_DIGIT ? ARR_NB : 1u << ARR_DIGIT;
	char *a = NULL;
	size_t off = 0;
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			m->arrays_bytes = off;
			a = hugemem_alloc(off);
			if (a == NULL)
				return -1;
			off = 0;
		}
		m->ports = carve(a, &off, m->np * sizeof(*m->ports));
		m->cal_next = carve(a, &off, m->np * sizeof(*m->cal_next));
		m->pf = carve(a, &off, (m->np + 1) * sizeof(*m->pf));
		m->pf_tc = carve(a, &off, m->np * MODEL_NUM_TC * sizeof(*m->pf_tc));
		m->far = carve(a, &off, m->np * sizeof(*m->far));
		m->arr_cnt = carve(a, &off, ncnt * sizeof(*m->arr_cnt));
		m->win = carve(a, &off, m->nwin * sizeof(*m->win));
		m->dwin = carve(a, &off, (size_t)nq * MODEL_NUM_WINDOWS * sizeof(*m->dwin));
		m->qcold = carve(a, &off, (size_t)nq * sizeof(*m->qcold));
	}
	return 0;
}

struct model *model_new(const struct model_config *cfg, struct model_err *err)
{
	if (model_config_check(cfg, err) < 0)
		return NULL;
	struct model *m = calloc(1, sizeof(*m));
	if (m == NULL)
		goto nomem;
	m->cfg = *cfg;
	m->cfg.ports = NULL;
	m->cfg.mc_groups = NULL;
	m->cfg.n_mc_groups = 0;
	m->cfg.iarb = NULL;
	m->cfg.fb = NULL;
	m->cfg.ports = malloc(cfg->nports * sizeof(*cfg->ports));
	if (m->cfg.ports == NULL)
		goto nomem;
	memcpy(m->cfg.ports, cfg->ports, cfg->nports * sizeof(*cfg->ports));
	if (cfg->n_mc_groups > 0) {
		m->cfg.mc_groups = malloc(cfg->n_mc_groups * sizeof(*cfg->mc_groups));
		if (m->cfg.mc_groups == NULL)
			goto nomem;
		memcpy(m->cfg.mc_groups, cfg->mc_groups,
		       cfg->n_mc_groups * sizeof(*cfg->mc_groups));
		m->cfg.n_mc_groups = cfg->n_mc_groups;
	}
	if (m->cfg.event_capacity == 0)
		m->cfg.event_capacity = 4096;
	if (m->cfg.dwrr_quantum == 0)
		m->cfg.dwrr_quantum = 2048;
	model_rng_seed(&m->rng, cfg->seed);
	/* occupancy counters (struct mpeak): the bytes below the cells, the
	 * cells up to a packet beyond the buffer above them (model_config_check
	 * refuses a buffer for which they do not fit) */
	uint64_t buf_bytes = (uint64_t)cfg->total_cells * cfg->cell_bytes;
	m->occ_shift = (uint8_t)(64 - __builtin_clzll(buf_bytes));
	m->occ_mask = (1ull << m->occ_shift) - 1;
	/* a power of two cell size: cells << occ_shift = (cells x
	 * cell_bytes) x cell_mult (cell_bytes <= the buffer's bytes, so
	 * occ_shift >= log2(cell_bytes)) */
	m->cell_up = cfg->cell_bytes - 1;
	if ((cfg->cell_bytes & (cfg->cell_bytes - 1)) == 0) {
		m->cell_cmask = ~(cfg->cell_bytes - 1);
		m->cell_mult = 1ull << (m->occ_shift - __builtin_ctz(cfg->cell_bytes));
	}
	m->total_top = occ_top(m, cfg->total_cells);
	m->np = cfg->nports + 1;
	/* per port: its queues, 8 PGs and their headroom, 4 port objects;
	 * device uc/mc and 2 x 4 pools; cold queue data for the queues that
	 * exist only */
	uint32_t nq = 0;
	for (unsigned i = 0; i < m->np; i++) {
		const struct model_port_config *pc = i < cfg->nports ? &cfg->ports[i] : &cfg->cpu;
		nq += pc->n_ucq + pc->n_mcq;
	}
	m->nwin = nq + m->np * (2 * MODEL_NUM_PG + 4) + 2 + 2 * MODEL_MAX_POOLS;
	if (alloc_arrays(m, nq) < 0)
		goto nomem;
	m->ring_cap = m->cfg.event_capacity;
	m->ring = malloc((size_t)m->ring_cap * sizeof(*m->ring));
	if (m->ring == NULL)
		goto nomem;
	m->far_t = UINT64_MAX;
	m->pk_t = UINT64_MAX; /* no port event */
	m->pk_leaf = CAL_NONE;
	m->heap_t = UINT64_MAX;
	m->tick_t = UINT64_MAX;
	m->tick_nq = m->np * MQ_SLOTS;
	m->tick_k = m->cfg.marker_tick_queues;
	if (m->tick_k == 0 || m->tick_k > m->tick_nq)
		m->tick_k = m->tick_nq;
	memset(m->cal_head, 0xff, sizeof(m->cal_head)); /* CAL_NONE */
	if (model_heap_reserve(m, m->np * MODEL_NUM_PG + 2) < 0)
		goto nomem;
	/* the arrival stream: its marker alone (no sources) */
	m->arr_cap = 1;
	m->arr = m->arr_next = malloc(sizeof(*m->arr));
	if (m->arr == NULL)
		goto nomem;
	m->arr_mark[0].src = ARR_MERGE;
	m->arr_mark[1].src = ARR_END;
	arr_mark(m, m->arr, 0, 1);
	for (unsigned i = 0; i < m->np; i++)
		setup_port(m, &m->ports[i], i < cfg->nports ? &cfg->ports[i] : &cfg->cpu);
	init_peaks(m, &m->dev_uc, cfg->total_cells);
	init_peaks(m, &m->dev_mc, cfg->total_cells);
	for (unsigned i = 0; i < MODEL_MAX_POOLS; i++) {
		init_pool(m, &m->ip_pk[i], cfg->ing_pool_cells[i]);
		init_pool(m, &m->ep_pk[i], cfg->egr_pool_cells[i]);
	}
	if (model_ext_setup(m, cfg, err) < 0) {
		model_free(m);
		return NULL;
	}
	return m;
nomem:
	if (err != NULL)
		snprintf(err->msg, sizeof(err->msg), "out of memory building the model");
	model_free(m);
	return NULL;
}

void model_free(struct model *m)
{
	if (m == NULL)
		return;
	for (unsigned i = 0; i < m->nsrc; i++)
		if (m->srcs[i].src.free != NULL)
			m->srcs[i].src.free(m->srcs[i].src.state);
	hugemem_free(m->srcs, m->src_cap * sizeof(*m->srcs));
	while (m->chunks != NULL) {
		struct mchunk *c = m->chunks;
		m->chunks = c->next;
		free(c);
	}
	free(m->heap);
	free(m->arr);
	free(m->arr_key);
	free(m->sq);
	free(m->spend);
	free(m->tie_ord);
	free(m->spart);
	free(m->ring);
	for (unsigned i = 0; m->qstat != NULL && i < m->nq; i++)
		free(m->qstat[i].c);
	free(m->qstat);
	free(m->cdrops);
	hugemem_free(m->ports, m->arrays_bytes); /* the block (alloc_arrays) */
	free(m->cfg.ports);
	free(m->cfg.mc_groups);
	model_ext_free(m);
	free(m);
}

const struct model_config *model_config_of(const struct model *m)
{
	return &m->cfg;
}
