/*
 * test_refsim.c - the switch model engine against the reference simulator
 * (refsim.c) on randomized small switches: 2-6 ports of mixed speeds and
 * overheads, cell sizes, buffer and pool sizes, one or two ingress and
 * egress pools, PG and queue minimums, static limits and dynamic alphas,
 * queue packet limits, WRED, strict priority, DWRR and mixes of both with
 * random weights and quanta, multicast groups, forwarding drops, lossless
 * PGs with headroom and PFC (a third of the switches), ingress
 * arbitration with accelerated memory and flow-based admission (a
 * quarter of the switches each: small packet buffers, random regions,
 * factors, decision rules, flow WRED, short-time-change flags); and
 * random packet lists per ingress port (bursts with equal arrival times,
 * jumbo frames, hotspots), fed identically to both (the engine through one
 * source per ingress port, in port order, replaying the list).  Both must
 * report the same trace records (struct model_trace: fate, cause, queue,
 * port, depth, arrival and departure or drop time, non-tagged latency) for
 * every packet and copy, compared as sorted lists.
 *
 * TEST_REFSIM_N configurations (default 1000) are run from seed
 * TEST_REFSIM_SEED (default 1): configuration i uses seed + i.  A failure
 * prints the seed, the configuration and the first differing record;
 * TEST_REFSIM_SEED=<seed> TEST_REFSIM_N=1 reruns it alone.
 *
 * DWRR with the smallest quantum model_config_check allows (64 bytes)
 * meets jumbo frames here (a head needing up to 141 rounds): the engine
 * skips the rounds in which no queue can send (model.c dwrr_skip_rounds)
 * where the reference goes round them one by one.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/model/model.h"
#include "agent/model/model_flowbuf.h"
#include "agent/model/model_iarb.h"
#include "agent/model/tests/refsim.h"

/* ---------------------------------------------------------------- random */

static uint64_t rnd_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* uniform in 0..n-1 (n small: the modulo bias does not matter here) */
static uint32_t u(uint64_t *s, uint32_t n)
{
	return (uint32_t)(rnd_next(s) % n);
}

/* ---------------------------------------------------------------- config */

static void rand_limit(uint64_t *r, struct model_limit *l)
{
	static const double alphas[] = {1.0 / 64, 1.0 / 8, 0.25, 0.5, 1, 2, 4, 8};
	if (u(r, 3) == 0) {
		l->mode = MODEL_LIMIT_STATIC;
		l->cells = u(r, 600);
	} else {
		l->mode = MODEL_LIMIT_DYNAMIC;
		l->alpha = alphas[u(r, 8)];
	}
}

/* A random switch for seed; 0 or -1. */
static int rand_config(uint64_t *r, struct model_config *cfg)
{
	static const uint64_t speeds[] = {1000000000ULL,  10000000000ULL,  25000000000ULL,
					  40000000000ULL, 100000000000ULL, 400000000000ULL};
	static const uint32_t cells[] = {64, 80, 128, 208, 256};
	static const uint32_t quanta[] = {64, 256, 1024, 1500, 2048};
	unsigned np = 2 + u(r, 5);
	int pfc = u(r, 3) == 0; /* lossless PGs in a third of them */

	if (model_config_init(cfg, np, 10000000000ULL) < 0)
		return -1;
	cfg->seed = rnd_next(r);
	cfg->cell_bytes = cells[u(r, 5)];
	cfg->n_ing_pools = (uint8_t)(1 + u(r, 2));
	cfg->n_egr_pools = (uint8_t)(1 + u(r, 2));
	for (unsigned i = 0; i < MODEL_MAX_POOLS; i++) {
		cfg->ing_pool_cells[i] = 20 + u(r, 2000);
		cfg->egr_pool_cells[i] = 20 + u(r, 2000);
	}
	cfg->dwrr_quantum = quanta[u(r, 5)];
	cfg->dwrr_wire = (uint8_t)u(r, 2);
	for (unsigned p = 0; p < np; p++) {
		struct model_port_config *pc = &cfg->ports[p];
		unsigned sched_mode = u(r, 3); /* all SP, all DWRR, mixed */
		pc->speed_bps = speeds[u(r, 6)];
		pc->overhead_bytes = u(r, 3) == 0 ? u(r, 41) : 20;
		pc->n_ucq = (uint8_t)(1 + u(r, 4));
		pc->n_mcq = (uint8_t)u(r, 3);
		for (unsigned t = 0; t < MODEL_NUM_TC; t++) {
			pc->tc_to_pg[t] = (uint8_t)u(r, MODEL_NUM_PG);
			pc->tc_to_ucq[t] = (uint8_t)u(r, pc->n_ucq);
			pc->tc_to_mcq[t] = (uint8_t)(pc->n_mcq ? u(r, pc->n_mcq) : 0);
		}
		pc->pfc_delay_ns = u(r, 3000);
		for (unsigned g = 0; g < MODEL_NUM_PG; g++) {
			struct model_pg_config *gc = &pc->pg[g];
			gc->min_cells = u(r, 3) == 0 ? u(r, 24) : 0;
			rand_limit(r, &gc->shared);
			gc->pool = (uint8_t)u(r, cfg->n_ing_pools);
			gc->lossless = pfc && u(r, 2) == 0;
			if (gc->lossless) {
				gc->headroom_cells = u(r, 200);
				gc->xoff_cells = u(r, 3) == 0 ? 0 : 1 + u(r, 300);
				gc->xon_cells = u(r, gc->xoff_cells ? gc->xoff_cells + 1 : 100);
			}
		}
		for (unsigned k = 0; k < 2 * MODEL_MAX_QUEUES; k++) {
			struct model_queue_config *qc =
			    k < MODEL_MAX_QUEUES ? &pc->ucq[k] : &pc->mcq[k - MODEL_MAX_QUEUES];
			qc->min_cells = u(r, 3) == 0 ? u(r, 16) : 0;
			rand_limit(r, &qc->shared);
			qc->pool = (uint8_t)u(r, cfg->n_egr_pools);
			qc->sched = (uint8_t)(sched_mode == 0	? MODEL_SCHED_SP
					      : sched_mode == 1 ? MODEL_SCHED_DWRR
								: u(r, 2));
			qc->weight = 1 + u(r, 8);
			qc->limit_pkts = u(r, 4) == 0 ? 2 + u(r, 40) : 0;
			qc->wred.enabled = u(r, 5) == 0;
			qc->wred.min_bytes = 500 + u(r, 20000);
			qc->wred.max_bytes = qc->wred.min_bytes + 1 + u(r, 40000);
			qc->wred.max_prob = u(r, 101) / 100.0;
			qc->wred.ecn = (uint8_t)u(r, 2);
			qc->wred.gain = (uint8_t)(u(r, 2) ? 0 : u(r, 16));
		}
	}
	/* the buffer: at least the pools and minimums of each side (model_new
	 * refuses less), the CPU port's included */
	uint64_t in_sum = 0, eg_sum = 0;
	for (unsigned i = 0; i < cfg->n_ing_pools; i++)
		in_sum += cfg->ing_pool_cells[i];
	for (unsigned i = 0; i < cfg->n_egr_pools; i++)
		eg_sum += cfg->egr_pool_cells[i];
	for (unsigned p = 0; p <= np; p++) {
		const struct model_port_config *pc = p < np ? &cfg->ports[p] : &cfg->cpu;
		for (unsigned g = 0; g < MODEL_NUM_PG; g++)
			in_sum += pc->pg[g].min_cells + pc->pg[g].headroom_cells;
		for (unsigned k = 0; k < pc->n_ucq; k++)
			eg_sum += pc->ucq[k].min_cells;
		for (unsigned k = 0; k < pc->n_mcq; k++)
			eg_sum += pc->mcq[k].min_cells;
	}
	cfg->total_cells = (uint32_t)(in_sum > eg_sum ? in_sum : eg_sum) + u(r, 300);
	/* ingress arbitration in a quarter of them: a small packet buffer
	 * (drops), the egress over-utilization input at 10..90 % of the
	 * buffer, AM per port or summed */
	if (u(r, 4) == 0) {
		struct model_iarb_config *ic = malloc(sizeof(*ic));
		if (ic == NULL)
			return -1;
		model_iarb_defaults(ic, np + 1);
		ic->pb_bytes = 8192 + u(r, 64) * 1024;
		ic->egr_over_pc = 1000 + u(r, 9) * 1000;
		ic->am_per_port = (uint8_t)u(r, 2);
		ic->sop_dup = (uint8_t)u(r, 2);
		ic->lat_am_clk = 1 + u(r, 100);
		ic->lat_pb_clk = ic->lat_am_clk + u(r, 100);
		cfg->iarb = ic;
	}
	/* flow-based admission in a quarter of them: 1..8 regions, a pool of
	 * the buffer's bytes, random factors and decision rule, flow WRED and
	 * the short-time-change flag at times */
	if (u(r, 4) == 0) {
		static const double alphas[] = {0.125, 0.25, 0.5, 1, 2};
		struct model_fb_config *fc = malloc(sizeof(*fc));
		if (fc == NULL)
			return -1;
		model_fb_defaults(fc, np + 1, (uint64_t)cfg->total_cells * cfg->cell_bytes);
		fc->n_counts = 1 + u(r, 8);
		fc->flow_bound.alpha = alphas[u(r, 5)];
		fc->occ_bound.alpha = alphas[u(r, 5)];
		fc->rule = (uint8_t)u(r, 3);
		fc->flow_on = u(r, 4) != 0;
		fc->unit = (uint8_t)(u(r, 4) == 0);
		if (u(r, 3) == 0) {
			fc->wred_min = 1000 + u(r, 4000);
			fc->wred_max = fc->wred_min + 1 + u(r, 20000);
			fc->wred_maxp = 0.5;
		}
		if (u(r, 3) == 0) {
			fc->stc_win_ns = 1000 + u(r, 10000);
			fc->stc_delta = 1000 + u(r, 10000);
			fc->stc_admit = (uint8_t)u(r, 2);
		}
		fc->seed = rnd_next(r) | 1;
		cfg->fb = fc;
	}
	unsigned ng = u(r, 3);
	if (ng > 0) {
		cfg->mc_groups = calloc(ng, sizeof(*cfg->mc_groups));
		if (cfg->mc_groups == NULL)
			return -1;
		cfg->n_mc_groups = ng;
		for (unsigned g = 0; g < ng; g++) {
			struct model_mc_group *mg = &cfg->mc_groups[g];
			for (unsigned p = 0; p < np; p++)
				if (u(r, 3) != 0)
					mg->ports[mg->nports++] = (uint16_t)p;
			if (mg->nports == 0)
				mg->ports[mg->nports++] = (uint16_t)u(r, np);
			for (unsigned i = mg->nports; i > 1; i--) { /* group order */
				unsigned j = u(r, i);
				uint16_t t = mg->ports[i - 1];
				mg->ports[i - 1] = mg->ports[j];
				mg->ports[j] = t;
			}
		}
	}
	return 0;
}

/* ---------------------------------------------------------------- traffic */

static uint32_t flow_seq;
/* reference records by fate: departed, then drops by cause */
static size_t fates[1 + MODEL_DROP_NCAUSES];
/* reference records of packets held by PFC (arrived after they were
 * offered) */
static size_t held;
/* departures the reference marked CE (CE on arrival included) */
static size_t ce;

/* Random packets of ingress port p; *n gets their count. */
static struct refsim_pkt *rand_pkts(uint64_t *r, const struct model_config *cfg, unsigned p,
				    size_t *n)
{
	static const uint64_t gaps[] = {0, 20, 100, 400, 2000};
	static const uint16_t reasons[] = {257, 258, 269, 300};
	size_t k = u(r, 4) == 0 ? 0 : 20 + u(r, 300);
	uint64_t gap = gaps[u(r, 5)], t = u(r, 3000);
	unsigned hot = u(r, cfg->nports);
	struct refsim_pkt *v = calloc(k ? k : 1, sizeof(*v));

	if (v == NULL)
		abort();
	for (size_t i = 0; i < k; i++) {
		struct refsim_pkt *x = &v[i];
		if (i > 0)
			t += u(r, 4) == 0 ? 0 : u(r, (uint32_t)(2 * gap + 1));
		x->t_ns = t;
		x->len = u(r, 5) == 0 ? 64 + u(r, 9000 - 63) : 64 + u(r, 1455);
		x->in_port = (uint16_t)p;
		x->out_port = (uint16_t)(u(r, 2) == 0 ? hot : u(r, cfg->nports));
		x->tc = (uint8_t)u(r, MODEL_NUM_TC);
		if (cfg->n_mc_groups > 0 && u(r, 5) == 0)
			x->mc_group = (uint16_t)(1 + u(r, cfg->n_mc_groups));
		if (u(r, 50) == 0)
			x->fwd_drop = reasons[u(r, 4)];
		x->flow_id = ++flow_seq;
		x->ecn = (uint8_t)u(r, 4);
	}
	*n = k;
	return v;
}

struct list_src {
	const struct refsim_pkt *v;
	size_t n, i;
};

static int list_next(void *state, struct model_pkt *p)
{
	struct list_src *s = state;
	if (s->i >= s->n)
		return 0;
	const struct refsim_pkt *x = &s->v[s->i++];
	memset(p, 0, sizeof(*p));
	p->t_ns = x->t_ns;
	p->len = x->len;
	p->in_port = x->in_port;
	p->out_port = x->out_port;
	p->mc_group = x->mc_group;
	p->tc = x->tc;
	p->fwd_drop = x->fwd_drop;
	p->flow_id = x->flow_id;
	p->tos = x->ecn;
	p->cast = x->mc_group ? MODEL_CAST_MULTICAST : MODEL_CAST_UNICAST;
	return 1;
}

static void list_free(void *state)
{
	free(state);
}

/* ---------------------------------------------------------------- traces */

struct recs {
	struct model_trace *v;
	size_t n, cap;
};

static void collect(void *arg, const struct model_trace *t)
{
	struct recs *r = arg;
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 256;
		r->v = realloc(r->v, r->cap * sizeof(*r->v));
		if (r->v == NULL)
			abort();
	}
	r->v[r->n++] = *t;
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int rec_cmp(const void *pa, const void *pb)
{
	const struct model_trace *a = pa, *b = pb;
	int c;
	if ((c = cmp_u64(a->flow_id, b->flow_id)) || (c = cmp_u64(a->out_port, b->out_port)) ||
	    (c = cmp_u64(a->t_ns, b->t_ns)) || (c = cmp_u64(a->departed, b->departed)) ||
	    (c = cmp_u64(a->cause, b->cause)) || (c = cmp_u64(a->queue, b->queue)) ||
	    (c = cmp_u64(a->mc, b->mc)) || (c = cmp_u64(a->in_port, b->in_port)) ||
	    (c = cmp_u64(a->len, b->len)) || (c = cmp_u64(a->t_arr_ns, b->t_arr_ns)) ||
	    (c = cmp_u64(a->depth_bytes, b->depth_bytes)) ||
	    (c = cmp_u64((uint64_t)a->nt_latency_ns, (uint64_t)b->nt_latency_ns)) ||
	    (c = cmp_u64(a->ecn, b->ecn)))
		return c;
	return 0;
}

static void print_rec(const char *who, const struct model_trace *t)
{
	printf("  %s: flow %" PRIu32 " in %u out %u %s cause %u queue %u mc %u len %" PRIu32
	       " t_arr %" PRIu64 " t %" PRIu64 " depth %" PRIu32 " nt %" PRId64 " ecn %u\n",
	       who, t->flow_id, t->in_port, t->out_port, t->departed ? "departed" : "dropped",
	       t->cause, t->queue, t->mc, t->len, t->t_arr_ns, t->t_ns, t->depth_bytes,
	       t->nt_latency_ns, t->ecn);
}

static void print_config(const struct model_config *cfg)
{
	printf("  cell %u total %u pools in %u/%u/%u eg %u/%u/%u quantum %u seed %" PRIu64 "\n",
	       cfg->cell_bytes, cfg->total_cells, cfg->n_ing_pools, cfg->ing_pool_cells[0],
	       cfg->ing_pool_cells[1], cfg->n_egr_pools, cfg->egr_pool_cells[0],
	       cfg->egr_pool_cells[1], cfg->dwrr_quantum, cfg->seed);
	for (unsigned p = 0; p < cfg->nports; p++) {
		const struct model_port_config *pc = &cfg->ports[p];
		printf("  port %u: %" PRIu64 " bit/s overhead %u ucq %u mcq %u\n", p, pc->speed_bps,
		       pc->overhead_bytes, pc->n_ucq, pc->n_mcq);
	}
}

/* ---------------------------------------------------------------- one run */

/* Run configuration `seed` on both; 0 same, 1 different, -1 error.
 * *npk_total, *nrec get the packets and records. */
static int run_one(uint64_t seed, size_t *npk_total, size_t *nrec)
{
	uint64_t r = seed * 0x2545f4914f6cdd1dULL + 1;
	struct model_config cfg;
	struct refsim_pkt *pk[MODEL_MAX_PORTS];
	size_t npk[MODEL_MAX_PORTS];
	struct recs eng = {0}, ref = {0};
	struct model_err err;
	int rc = -1;

	if (rand_config(&r, &cfg) < 0)
		return -1;
	*npk_total = 0;
	uint32_t flow0 = flow_seq + 1;
	for (unsigned p = 0; p < cfg.nports; p++) {
		pk[p] = rand_pkts(&r, &cfg, p, &npk[p]);
		*npk_total += npk[p];
	}
	struct model *m = model_new(&cfg, &err);
	if (m == NULL) {
		printf("FAIL: seed %" PRIu64 ": model_new: %s\n", seed, err.msg);
		goto out;
	}
	for (unsigned p = 0; p < cfg.nports; p++) {
		struct list_src *ls = calloc(1, sizeof(*ls));
		if (ls == NULL)
			abort();
		ls->v = pk[p];
		ls->n = npk[p];
		struct model_source src = {
		    .next = list_next, .free = list_free, .state = ls, .name = "list"};
		if (model_add_source(m, &src) < 0)
			abort();
	}
	model_set_trace(m, collect, &eng);
	model_run(m, MODEL_T_END);
	if (!model_idle(m))
		printf("FAIL: seed %" PRIu64 ": the engine did not drain\n", seed);
	model_free(m);
	if (refsim_run(&cfg, (const struct refsim_pkt *const *)pk, npk, collect, &ref) < 0) {
		printf("FAIL: seed %" PRIu64 ": refsim_run: out of memory\n", seed);
		goto out;
	}
	if (eng.n > 0)
		qsort(eng.v, eng.n, sizeof(*eng.v), rec_cmp);
	if (ref.n > 0)
		qsort(ref.v, ref.n, sizeof(*ref.v), rec_cmp);
	*nrec = ref.n;
	for (size_t i = 0; i < ref.n; i++) {
		const struct model_trace *t = &ref.v[i];
		fates[t->departed ? 0 : 1 + t->cause]++;
		ce += t->departed && t->ecn == MODEL_ECN_CE;
		/* flow ids are given in port order, one per packet */
		uint32_t f = t->flow_id - flow0;
		for (unsigned p = 0; p < cfg.nports; p++) {
			if (f < npk[p]) {
				held += t->t_arr_ns != pk[p][f].t_ns;
				break;
			}
			f -= (uint32_t)npk[p];
		}
	}
	rc = 0;
	for (size_t i = 0; i < eng.n || i < ref.n; i++) {
		if (i < eng.n && i < ref.n && rec_cmp(&eng.v[i], &ref.v[i]) == 0)
			continue;
		printf("FAIL: seed %" PRIu64 " (TEST_REFSIM_SEED=%" PRIu64
		       " TEST_REFSIM_N=1): record %zu of %zu (engine) / %zu (reference) "
		       "differs\n",
		       seed, seed, i, eng.n, ref.n);
		if (i < eng.n)
			print_rec("engine   ", &eng.v[i]);
		if (i < ref.n)
			print_rec("reference", &ref.v[i]);
		print_config(&cfg);
		rc = 1;
		break;
	}
out:
	free(eng.v);
	free(ref.v);
	for (unsigned p = 0; p < cfg.nports; p++)
		free(pk[p]);
	model_config_release(&cfg);
	return rc;
}

int main(void)
{
	const char *es = getenv("TEST_REFSIM_SEED"), *en = getenv("TEST_REFSIM_N");
	uint64_t seed = es && *es ? strtoull(es, NULL, 0) : 1;
	unsigned n = en && *en ? (unsigned)strtoul(en, NULL, 0) : 1000;
	size_t pk_sum = 0, rec_sum = 0;
	unsigned bad = 0;

	for (unsigned i = 0; i < n; i++) {
		size_t npk = 0, nrec = 0;
		if (run_one(seed + i, &npk, &nrec) != 0)
			bad++;
		pk_sum += npk;
		rec_sum += nrec;
	}
	printf("%u configurations from seed %" PRIu64 ": %zu packets, %zu trace records, %u "
	       "differ\n",
	       n, seed, pk_sum, rec_sum, bad);
	printf("reference fates: %zu held by PFC, %zu departed (%zu CE)", held, fates[0], ce);
	for (unsigned c = 0; c < MODEL_DROP_NCAUSES; c++)
		printf(", %zu %s", fates[1 + c], model_drop_cause_name(c));
	printf("\n");
	return bad ? 1 : 0;
}
