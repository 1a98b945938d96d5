/*
 * model.c - the switch model engine: event loop, admission, scheduling.
 *
 * Events: each entity has at most one pending event: a port (end of the
 * transmission in progress), a source (its next packet's arrival), a
 * (port, PG) sender (release of packets held by PFC), and the background
 * marker-refresh tick.  The per-packet ones (ports, sources) live in a
 * tournament tree, the rare ones in a 4-ary heap (see below); ties go by
 * the documented rule (model.h), so runs are deterministic.  Per packet
 * the engine does about two tree path updates, for its arrival and its
 * departure; packet records come from a free-list pool that grows in
 * chunks and is never shrunk.  One loop (run_loop) serves every entry
 * point, with the dispatch inlined in it.
 *
 * Memory layout: a queue's hot fields (struct mqueue) are apart from its
 * cold histogram and drop counters (struct mqcold), and each buffer
 * object's per-window peaks and each queue's per-window delay figures are
 * in their own arrays, so the state one packet touches stays compact.
 *
 * Packet life: arrival (last bit in) -> forwarding drop? -> ingress
 * admission (device, PG min/shared/headroom, ingress pool) -> egress
 * admission per copy (length limit, WRED, queue min/shared, egress pool)
 * -> queue -> selected by the port scheduler -> departs when its last bit
 * has been sent, (len + overhead) * 8 / speed after transmission began.
 * The packet in transmission stays at the head of its queue and in the
 * buffer until it has departed.  Telemetry reads are in model_telem.c.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/model/model_int.h"

#define FS_PER_NS  1000000ULL
#define CHUNK_RECS 1024

enum { EV_SRC = 0, EV_TX = 1, EV_REL = 2, EV_TICK = 3 };
#define EV_ID(type, idx) (((uint32_t)(type) << 28) | (uint32_t)(idx))
#define EV_TYPE(id)	 ((id) >> 28)
#define EV_IDX(id)	 ((id)&0x0fffffffu)

/* ---------------------------------------------------------------- RNG */

static inline uint64_t rng_next(struct model *m)
{
	return model_rng_next(&m->rng);
}

static inline double rng_unit(struct model *m)
{
	return model_rng_unit(&m->rng);
}

/* uniform in [1, 2n - 1]: mean n */
static inline uint32_t draw_skip(struct model *m, uint32_t n)
{
	if (n <= 1)
		return 1;
	return 1 + (uint32_t)(rng_next(m) % (2ULL * n - 1));
}

/* ---------------------------------------------------------------- heap */

/* Heap events are ordered by (time, insertion number). */
static inline int ent_less(const struct mheap_ent *a, const struct mheap_ent *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

/* A 4-ary heap: children of i are 4i+1 .. 4i+4 (fewer levels than a
 * binary heap; the four children share a cache line or two). */
static void heap_push(struct model *m, uint64_t t, uint32_t id)
{
	struct mheap_ent e = {t, m->seq++, id};
	uint32_t i = m->nheap++;
	struct mheap_ent *h = m->heap;
	while (i > 0) {
		uint32_t p = (i - 1) / 4;
		if (!ent_less(&e, &h[p]))
			break;
		h[i] = h[p];
		i = p;
	}
	h[i] = e;
}

/* Put e at the root's place and restore the heap order. */
static void heap_sift_root(struct model *m, struct mheap_ent e)
{
	struct mheap_ent *h = m->heap;
	uint32_t n = m->nheap, i = 0;
	for (;;) {
		uint32_t c = 4 * i + 1;
		if (c >= n)
			break;
		uint32_t best = c;
		uint32_t end = c + 4 < n ? c + 4 : n;
		for (uint32_t k = c + 1; k < end; k++)
			best = ent_less(&h[k], &h[best]) ? k : best;
		if (!ent_less(&h[best], &e))
			break;
		h[i] = h[best];
		i = best;
	}
	h[i] = e;
}

static void heap_pop(struct model *m)
{
	m->nheap--;
	if (m->nheap > 0)
		heap_sift_root(m, m->heap[m->nheap]);
}

/*
 * The per-packet events (source arrivals, port transmissions) live in a
 * tournament tree with one leaf per port and per source: leaf p is port
 * p, leaf np + i source i.  A node holds the smallest key under it, a key
 * being ((time - tbase) << TLEAF_BITS) | leaf, so equal times go to the
 * lower leaf (ports before sources) and one 64-bit comparison per level
 * does it all; TKEY_NONE (all ones) is no event.  A change walks the
 * leaf's path to the root against each sibling: log2(leaves) steps.  The
 * time base moves up to the clock when keys would run out of bits (every
 * ~9 minutes of virtual time); an event further than TRANGE ahead goes to
 * the heap instead.  The rare events (PFC releases, the marker tick) use
 * the 4-ary heap above; at equal times the tree goes first.
 */
#define TLEAF_BITS 24
#define TLEAF_MASK ((1u << TLEAF_BITS) - 1)
#define TRANGE	   ((1ULL << (64 - TLEAF_BITS)) - 1)
#define TKEY_NONE  UINT64_MAX
#define TLEAF_NONE UINT32_MAX /* m->cur_leaf: no tree event in dispatch */

static inline void tree_set(struct model *m, uint32_t leaf, uint64_t key)
{
	uint64_t *w = m->tree;
	uint32_t j = leaf + m->tn;
	uint64_t old = w[j];
	w[j] = key;
	if (key < old) {
		/* an earlier key (a new event): each node on the path becomes
		 * min(node, key), and stays once it is below key */
		while (j > 1) {
			j >>= 1;
			if (w[j] <= key)
				break;
			w[j] = key;
		}
		return;
	}
	/* a later key (mostly the event just dispatched, the minimum all
	 * the way up): recompute the path from the siblings, one step per
	 * level, unrolled (the depth is fixed, so the jump is predicted) */
#define TSTEP                                                                                      \
	do {                                                                                       \
		uint64_t sk = w[j ^ 1];                                                            \
		key = sk < key ? sk : key;                                                         \
		j >>= 1;                                                                           \
		w[j] = key;                                                                        \
	} while (0)
	switch (m->tdepth) {
	case 24:
		TSTEP;
		__attribute__((fallthrough));
	case 23:
		TSTEP;
		__attribute__((fallthrough));
	case 22:
		TSTEP;
		__attribute__((fallthrough));
	case 21:
		TSTEP;
		__attribute__((fallthrough));
	case 20:
		TSTEP;
		__attribute__((fallthrough));
	case 19:
		TSTEP;
		__attribute__((fallthrough));
	case 18:
		TSTEP;
		__attribute__((fallthrough));
	case 17:
		TSTEP;
		__attribute__((fallthrough));
	case 16:
		TSTEP;
		__attribute__((fallthrough));
	case 15:
		TSTEP;
		__attribute__((fallthrough));
	case 14:
		TSTEP;
		__attribute__((fallthrough));
	case 13:
		TSTEP;
		__attribute__((fallthrough));
	case 12:
		TSTEP;
		__attribute__((fallthrough));
	case 11:
		TSTEP;
		__attribute__((fallthrough));
	case 10:
		TSTEP;
		__attribute__((fallthrough));
	case 9:
		TSTEP;
		__attribute__((fallthrough));
	case 8:
		TSTEP;
		__attribute__((fallthrough));
	case 7:
		TSTEP;
		__attribute__((fallthrough));
	case 6:
		TSTEP;
		__attribute__((fallthrough));
	case 5:
		TSTEP;
		__attribute__((fallthrough));
	case 4:
		TSTEP;
		__attribute__((fallthrough));
	case 3:
		TSTEP;
		__attribute__((fallthrough));
	case 2:
		TSTEP;
		__attribute__((fallthrough));
	case 1:
		TSTEP;
		break;
	default:
		break;
	}
#undef TSTEP
}

static void tree_rebuild(uint64_t *w, uint32_t tn)
{
	for (uint32_t j = tn - 1; j >= 1; j--)
		w[j] = w[2 * j] < w[2 * j + 1] ? w[2 * j] : w[2 * j + 1];
}

/* Move the time base up to the clock. */
static void tree_rebase(struct model *m)
{
	uint64_t d = m->now - m->tbase;
	for (uint32_t i = 0; i < m->tn; i++) {
		uint64_t k = m->tree[m->tn + i];
		if (k != TKEY_NONE)
			m->tree[m->tn + i] = ((((k >> TLEAF_BITS) - d)) << TLEAF_BITS) | i;
	}
	tree_rebuild(m->tree, m->tn);
	m->tbase = m->now;
}

/* (Re)build the tree for at least `leaves` leaves, keeping the keys. */
static int tree_resize(struct model *m, uint32_t leaves)
{
	if (leaves <= m->tn)
		return 0;
	if (leaves > TLEAF_MASK)
		return -1;
	uint32_t tn = m->tn ? m->tn : 16;
	while (tn < leaves)
		tn *= 2;
	uint64_t *w = malloc(2 * (size_t)tn * sizeof(*w));
	if (w == NULL)
		return -1;
	for (uint32_t i = 0; i < tn; i++) {
		uint64_t k = i < m->tn ? m->tree[m->tn + i] : TKEY_NONE;
		w[tn + i] = k == TKEY_NONE ? k : (k & ~(uint64_t)TLEAF_MASK) | i;
	}
	tree_rebuild(w, tn);
	free(m->tree);
	m->tree = w;
	m->tn = tn;
	m->tdepth = (uint8_t)__builtin_ctz(tn);
	return 0;
}

static inline uint32_t leaf_of(const struct model *m, uint32_t id)
{
	return EV_TYPE(id) == EV_TX ? EV_IDX(id) : m->np + EV_IDX(id);
}

/* Schedule entity `id` at t >= now (each entity has at most one event). */
static void schedule(struct model *m, uint64_t t, uint32_t id)
{
	unsigned type = EV_TYPE(id);
	int cur = m->in_dispatch && id == m->cur_id;
	if (type == EV_TX || type == EV_SRC) {
		if (t - m->tbase >= TRANGE && m->now - m->tbase >= TRANGE / 2)
			tree_rebase(m);
		if (t - m->tbase < TRANGE) {
			uint32_t leaf = leaf_of(m, id);
			tree_set(m, leaf, ((t - m->tbase) << TLEAF_BITS) | leaf);
			if (cur && m->cur_from_tree)
				m->tree_resched = 1;
			return;
		}
		/* too far ahead for the tree: the heap */
	}
	/* The heap event being dispatched (still at the root until its
	 * handler returns) takes the root's place again: one sift-down
	 * instead of a pop and a push.  Events pushed during a dispatch are
	 * never before the root (t >= now, later insertion number). */
	if (cur && !m->cur_from_tree) {
		m->resched = 1;
		m->resched_t = t;
		return;
	}
	heap_push(m, t, id);
}

/* schedule() for a port's transmission (leaf = port) or a source's next
 * arrival (leaf = np + index), the per-packet case: straight to the tree
 * when the time is in its range. */
static inline void schedule_leaf(struct model *m, uint64_t t, uint32_t leaf, uint32_t id)
{
	uint64_t d = t - m->tbase;
	if (d >= TRANGE) {
		schedule(m, t, id);
		return;
	}
	tree_set(m, leaf, (d << TLEAF_BITS) | leaf);
	if (leaf == m->cur_leaf)
		m->tree_resched = 1;
}

/* The next event's time and id; 0 if none. */
static inline int next_event(const struct model *m, uint64_t *t, uint32_t *id, int *from_tree)
{
	uint64_t k = m->tree[1];
	uint64_t tt = k == TKEY_NONE ? UINT64_MAX : (k >> TLEAF_BITS) + m->tbase;
	if (m->nheap > 0 && m->heap[0].t < tt) {
		*t = m->heap[0].t;
		*id = m->heap[0].id;
		*from_tree = 0;
		return 1;
	}
	if (k == TKEY_NONE)
		return 0;
	uint32_t leaf = (uint32_t)(k & TLEAF_MASK);
	*t = tt;
	*id = leaf < m->np ? EV_ID(EV_TX, leaf) : EV_ID(EV_SRC, leaf - m->np);
	*from_tree = 1;
	return 1;
}

/* ---------------------------------------------------------------- pool */

static struct mpkt *pkt_alloc(struct model *m)
{
	struct mpkt *p = m->free_list;
	if (p == NULL) {
		struct mchunk *c = malloc(sizeof(*c) + CHUNK_RECS * sizeof(struct mpkt));
		if (c == NULL)
			return NULL;
		c->next = m->chunks;
		m->chunks = c;
		for (unsigned i = 0; i < CHUNK_RECS - 1; i++)
			c->recs[i].next = &c->recs[i + 1];
		c->recs[CHUNK_RECS - 1].next = NULL;
		p = &c->recs[0];
	}
	m->free_list = p->next;
	return p;
}

static inline void pkt_free(struct model *m, struct mpkt *p)
{
	p->next = m->free_list;
	m->free_list = p;
}

/* ---------------------------------------------------------------- limits */

static inline uint32_t sat_sub(uint32_t a, uint32_t b)
{
	return a > b ? a - b : 0;
}

static inline uint32_t dyn_limit(double alpha, uint32_t pool, uint32_t used)
{
	uint32_t free_cells = sat_sub(pool, used);
	double l = alpha * (double)free_cells;
	return l >= 4294967295.0 ? UINT32_MAX : (uint32_t)l;
}

uint32_t model_q_alloc(const struct model *m, const struct mqueue *q)
{
	uint32_t lim =
	    q->dyn ? dyn_limit(q->alpha, m->cfg.egr_pool_cells[q->pool], m->ep_used[q->pool])
		   : q->lim_cells;
	uint64_t a = (uint64_t)q->min_cells + lim;
	return a > UINT32_MAX ? UINT32_MAX : (uint32_t)a;
}

uint32_t model_pg_alloc(const struct model *m, const struct mpg *g)
{
	uint32_t lim =
	    g->dyn ? dyn_limit(g->alpha, m->cfg.ing_pool_cells[g->pool], m->ip_used[g->pool])
		   : g->lim_cells;
	uint64_t a = (uint64_t)g->min_cells + lim;
	return a > UINT32_MAX ? UINT32_MAX : (uint32_t)a;
}

uint32_t model_sum_alloc(const struct model *m, const struct msum *s, int egress)
{
	double a = (double)s->fixed;
	unsigned np = egress ? m->cfg.n_egr_pools : m->cfg.n_ing_pools;
	for (unsigned i = 0; i < np; i++) {
		if (s->alpha[i] == 0.0)
			continue;
		uint32_t pool = egress ? m->cfg.egr_pool_cells[i] : m->cfg.ing_pool_cells[i];
		uint32_t used = egress ? m->ep_used[i] : m->ip_used[i];
		a += s->alpha[i] * (double)sat_sub(pool, used);
	}
	return a >= 4294967295.0 ? UINT32_MAX : (uint32_t)a;
}

/* ---------------------------------------------------------------- peaks */

static inline int pk_add(struct mpeak *k, uint32_t c, uint64_t b)
{
	k->cur += c;
	k->cur_b += b;
	return k->cur > k->run;
}

static inline void pk_sub(struct mpeak *k, uint32_t c, uint64_t b)
{
	k->cur -= c;
	k->cur_b -= b;
}

static inline void pk_run(struct mpeak *k, uint64_t now, uint32_t alloc)
{
	k->run = k->cur;
	k->run_b = k->cur_b;
	k->run_t = now;
	k->run_alloc = alloc;
}

/* ---------------------------------------------------------------- events */

static struct model_event *ev_slot(struct model *m)
{
	m->st.events++;
	if (m->ring_n == m->ring_cap) {
		m->st.events_lost++;
		return NULL;
	}
	uint32_t i = m->ring_head + m->ring_n;
	if (i >= m->ring_cap)
		i -= m->ring_cap;
	m->ring_n++;
	struct model_event *e = &m->ring[i];
	memset(e, 0, offsetof(struct model_event, hdr));
	return e;
}

static void ev_hdr(struct model *m, struct model_event *e, const struct mpkt *b)
{
	uint32_t n = b->hdr_len;
	if (n > m->cfg.event_hdr_bytes)
		n = m->cfg.event_hdr_bytes;
	if (b->hdr == NULL)
		n = 0;
	e->hdr_len = (uint16_t)n;
	if (n > 0)
		memcpy(e->hdr, b->hdr, n);
}

static unsigned cause_of_code(unsigned code)
{
	switch (code) {
	case MODEL_REASON_TTL_EXCEEDED:
		return MODEL_DROP_TTL;
	case MODEL_REASON_ACL:
		return MODEL_DROP_ACL;
	case MODEL_REASON_BLACKHOLE_ROUTE:
		return MODEL_DROP_BLACKHOLE;
	default:
		return MODEL_DROP_FWD_OTHER;
	}
}

unsigned model_drop_reason(enum model_drop_cause c)
{
	switch (c) {
	case MODEL_DROP_ING_LIMIT:
	case MODEL_DROP_EGR_LIMIT:
		return MODEL_REASON_NO_BUFFER_SPACE;
	case MODEL_DROP_WRED:
		return MODEL_REASON_RED;
	case MODEL_DROP_TTL:
		return MODEL_REASON_TTL_EXCEEDED;
	case MODEL_DROP_ACL:
		return MODEL_REASON_ACL;
	case MODEL_DROP_BLACKHOLE:
		return MODEL_REASON_BLACKHOLE_ROUTE;
	default:
		return 256; /* unknown */
	}
}

const char *model_drop_cause_name(enum model_drop_cause c)
{
	static const char *const names[MODEL_DROP_NCAUSES] = {
	    "ingress_limit", "egress_limit", "wred",	 "ttl_exceeded",
	    "acl",	     "blackhole",    "fwd_other"};
	return (unsigned)c < MODEL_DROP_NCAUSES ? names[c] : "?";
}

/* A packet (ingress side, slot = MODEL_QUEUE_NONE) or a copy (slot) dropped. */
static void note_drop(struct model *m, const struct mpkt *b, unsigned cause, unsigned reason,
		      unsigned out_port, unsigned slot, uint32_t depth)
{
	struct model_event *e = ev_slot(m);
	if (e != NULL) {
		e->type = MODEL_EV_DROP;
		e->cause = (uint8_t)cause;
		e->reason = (uint16_t)reason;
		e->t_ns = m->now;
		e->in_port = b->in_port;
		e->out_port = (uint16_t)out_port;
		e->queue = slot == MODEL_QUEUE_NONE ? MODEL_QUEUE_NONE : (uint8_t)(slot & 7);
		e->mc = (b->flags & MP_MC) != 0;
		e->tc = b->tc;
		e->pg = b->pg;
		e->depth_bytes = depth;
		e->len = b->len;
		e->flow_id = b->flow_id;
		ev_hdr(m, e, b);
	}
	if ((b->flags & MP_SAMPLE) && !(b->flags & MP_MC && slot != MODEL_QUEUE_NONE))
		m->ports[b->in_port].ctr.samples_dropped++;
	if (m->trace != NULL) {
		struct model_trace tr = {0};
		tr.departed = 0;
		tr.cause = (uint8_t)cause;
		tr.queue = slot == MODEL_QUEUE_NONE ? MODEL_QUEUE_NONE : (uint8_t)(slot & 7);
		tr.mc = (b->flags & MP_MC) != 0;
		tr.in_port = b->in_port;
		tr.out_port = (uint16_t)out_port;
		tr.len = b->len;
		tr.flow_id = b->flow_id;
		tr.t_arr_ns = b->t_arr;
		tr.t_ns = m->now;
		tr.depth_bytes = depth;
		tr.nt_latency_ns = -1;
		m->trace(m->trace_arg, &tr);
	}
}

/* ---------------------------------------------------------------- ingress */

/* Would a PG take c more cells in min + shared?  *lim gets the limit. */
static int pg_fits(const struct model *m, const struct mpg *g, uint32_t c, uint32_t *lim)
{
	uint32_t before = sat_sub(g->pk.cur, g->min_cells);
	uint32_t after = sat_sub(g->pk.cur + c, g->min_cells);
	uint32_t pool = m->cfg.ing_pool_cells[g->pool], used = m->ip_used[g->pool];
	*lim = g->dyn ? dyn_limit(g->alpha, pool, used) : g->lim_cells;
	if (after == before)
		return 1;
	return after <= *lim && (uint64_t)used + (after - before) <= pool;
}

static void pfc_event(struct model *m, unsigned port, unsigned pg, int on)
{
	struct model_event *e = ev_slot(m);
	if (e == NULL)
		return;
	e->type = MODEL_EV_PFC;
	e->t_ns = m->now;
	e->in_port = (uint16_t)port;
	e->out_port = MODEL_PORT_NONE;
	e->queue = MODEL_QUEUE_NONE;
	e->pg = (uint8_t)pg;
	e->pfc_on = (uint8_t)on;
}

static inline __attribute__((always_inline)) void
charge_ingress(struct model *m, struct mport *P, struct mpkt *b, int hdrm, uint32_t lim)
{
	struct mpg *g = &P->pg[b->pg];
	uint32_t c = b->cells;
	uint64_t now = m->now;
	if (hdrm) {
		b->flags |= MP_HDRM;
		if (pk_add(&g->pk_hdrm, c, b->len))
			pk_run(&g->pk_hdrm, now, g->headroom);
	} else {
		uint32_t before = sat_sub(g->pk.cur, g->min_cells);
		int peak = pk_add(&g->pk, c, b->len);
		uint32_t after = sat_sub(g->pk.cur, g->min_cells);
		if (peak)
			pk_run(&g->pk, now, g->min_cells + lim);
		if (after != before) {
			struct mpeak *pp = &m->ip_pk[g->pool];
			m->ip_used[g->pool] += after - before;
			if (pk_add(pp, after - before,
				   (uint64_t)(after - before) * m->cfg.cell_bytes))
				pk_run(pp, now, m->cfg.ing_pool_cells[g->pool]);
		}
	}
	struct mpeak *ip = (b->flags & MP_MC) ? &P->ing_mc : &P->ing_uc;
	if (pk_add(ip, c, b->len))
		pk_run(ip, now, model_sum_alloc(m, &P->sum_pg, 0));
	struct mpeak *dp = (b->flags & MP_MC) ? &m->dev_mc : &m->dev_uc;
	if (pk_add(dp, c, b->len))
		pk_run(dp, now, m->cfg.total_cells);
	m->cells_used += c;
	m->st.pkts_buffered++;
	/* PFC XOFF */
	if (g->lossless && !g->xoff_state) {
		uint32_t shared = sat_sub(g->pk.cur, g->min_cells);
		if ((g->xoff > 0 && shared >= g->xoff) || (g->xoff == 0 && g->pk_hdrm.cur > 0)) {
			g->xoff_state = 1;
			g->pause_start = now + P->pfc_delay;
			g->pause_end = UINT64_MAX;
			P->ctr.pfc_xoff[b->pg]++;
			pfc_event(m, (unsigned)(P - m->ports), b->pg, 1);
		}
	}
}

static void release_ingress(struct model *m, struct mpkt *b)
{
	struct mport *P = &m->ports[b->in_port];
	struct mpg *g = &P->pg[b->pg];
	uint32_t c = b->cells;
	if (b->flags & MP_HDRM) {
		pk_sub(&g->pk_hdrm, c, b->len);
	} else {
		uint32_t before = sat_sub(g->pk.cur, g->min_cells);
		pk_sub(&g->pk, c, b->len);
		uint32_t after = sat_sub(g->pk.cur, g->min_cells);
		if (after != before) {
			m->ip_used[g->pool] -= before - after;
			pk_sub(&m->ip_pk[g->pool], before - after,
			       (uint64_t)(before - after) * m->cfg.cell_bytes);
		}
	}
	pk_sub((b->flags & MP_MC) ? &P->ing_mc : &P->ing_uc, c, b->len);
	pk_sub((b->flags & MP_MC) ? &m->dev_mc : &m->dev_uc, c, b->len);
	m->cells_used -= c;
	m->st.pkts_buffered--;
	if (g->xoff_state && g->pk_hdrm.cur == 0 && sat_sub(g->pk.cur, g->min_cells) <= g->xon) {
		unsigned port = (unsigned)(P - m->ports);
		g->xoff_state = 0;
		g->pause_end = m->now + P->pfc_delay;
		if (g->pause_end < g->pause_start)
			g->pause_end = g->pause_start;
		pfc_event(m, port, b->pg, 0);
		if (g->hold_head != NULL && !g->rel_armed) {
			g->rel_armed = 1;
			schedule(m, g->pause_end, EV_ID(EV_REL, port * MODEL_NUM_PG + b->pg));
		}
	}
}

/* ---------------------------------------------------------------- egress */

static void start_tx(struct model *m, struct mport *P, unsigned port, int back_to_back);

/* Pick the next queue slot to serve, or -1. */
static int sched_pick(struct mport *P)
{
	uint16_t ready = P->nonempty & (uint16_t)~P->paused;
	if (ready == 0)
		return -1;
	/* strict priority: the highest class first, unicast q before
	 * multicast q, all SP queues before the DWRR group */
	uint16_t sp = ready & P->sp_mask;
	if (sp != 0) {
		unsigned uc = sp & 0xffu, mc = (unsigned)sp >> MQ_MC;
		unsigned top = 31u - (unsigned)__builtin_clz(uc | mc);
		return (uc >> top) & 1u ? (int)top : (int)(MQ_MC + top);
	}
	if (P->ndwrr == 0)
		return -1;
	/* DWRR: each visit to a backlogged queue adds its quantum once */
	for (unsigned guard = 0; guard < 64u * P->ndwrr + 64; guard++) {
		unsigned s = P->dwrr_list[P->rr];
		struct mqueue *q = &P->q[s];
		if (!(ready & (1u << s))) {
			if (!(P->nonempty & (1u << s)))
				q->deficit = 0;
			P->rr = (uint8_t)((P->rr + 1) % P->ndwrr);
			P->rr_turn = 0;
			continue;
		}
		if (!P->rr_turn) {
			q->deficit += q->quantum;
			P->rr_turn = 1;
		}
		if ((int64_t)q->head->len <= q->deficit) {
			q->deficit -= q->head->len;
			return (int)s;
		}
		P->rr = (uint8_t)((P->rr + 1) % P->ndwrr);
		P->rr_turn = 0;
	}
	/* not reached with quantum >= 64 bytes; serve the first ready queue */
	for (unsigned i = 0; i < P->ndwrr; i++)
		if (ready & (1u << P->dwrr_list[i]))
			return P->dwrr_list[i];
	return -1;
}

static void arm_tick(struct model *m)
{
	if (m->tick_armed || m->cfg.marker_tick_ns == 0)
		return;
	uint64_t T = m->cfg.marker_tick_ns;
	uint64_t t = (m->now / T + 1) * T;
	m->tick_armed = 1;
	schedule(m, t, EV_ID(EV_TICK, 0));
}

/* Admit one copy of body b to slot s of port `port`, or drop it. */
static inline __attribute__((always_inline)) int enqueue_copy(struct model *m, struct mpkt *b,
							      unsigned port, unsigned s)
{
	struct mport *P = &m->ports[port];
	struct mqueue *q = &P->q[s];
	uint32_t c = b->cells;
	uint32_t depth = (uint32_t)(q->pk.cur_b > UINT32_MAX ? UINT32_MAX : q->pk.cur_b);
	unsigned cause = MODEL_DROP_NCAUSES;
	m->st.copies++;
	uint32_t before = sat_sub(q->pk.cur, q->min_cells);
	uint32_t after = sat_sub(q->pk.cur + c, q->min_cells);
	uint32_t pool = m->cfg.egr_pool_cells[q->pool], used = m->ep_used[q->pool];
	uint32_t lim = q->dyn ? dyn_limit(q->alpha, pool, used) : q->lim_cells;
	if (q->limit_pkts != 0 && q->npkts >= q->limit_pkts)
		cause = MODEL_DROP_EGR_LIMIT;
	else if (q->wred && q->pk.cur_b >= q->wred_min &&
		 (q->pk.cur_b >= q->wred_max ||
		  rng_unit(m) < q->wred_maxp * (double)(q->pk.cur_b - q->wred_min) /
				    (double)(q->wred_max - q->wred_min)))
		cause = MODEL_DROP_WRED;
	else if (after != before && (after > lim || (uint64_t)used + (after - before) > pool))
		cause = MODEL_DROP_EGR_LIMIT;
	if (cause != MODEL_DROP_NCAUSES) {
		m->st.copies_dropped++;
		qcold(m, port, s)->drops[cause]++;
		P->drop_out[cause]++;
		P->ctr.out_discards++;
		note_drop(m, b, cause, model_drop_reason(cause), port, s, depth);
		return 0;
	}
	struct mpkt *cp = b;
	if (b->flags & MP_MC) {
		cp = pkt_alloc(m);
		if (cp == NULL) {
			/* out of memory: account as a buffer drop */
			m->st.copies_dropped++;
			qcold(m, port, s)->drops[MODEL_DROP_EGR_LIMIT]++;
			P->drop_out[MODEL_DROP_EGR_LIMIT]++;
			P->ctr.out_discards++;
			return 0;
		}
		cp->body = b;
		cp->len = b->len;
		cp->cells = c;
		cp->flags = b->flags & (uint8_t)~MP_SAMPLE;
	}
	cp->slot = (uint8_t)s;
	cp->out_port = (uint16_t)port;
	cp->depth_enq = depth;
	cp->next = NULL;
	b->refs++;
	/* charge */
	uint64_t now = m->now;
	q->npkts++;
	if (pk_add(&q->pk, c, b->len))
		pk_run(&q->pk, now, q->min_cells + lim);
	if (after != before) {
		m->ep_used[q->pool] += after - before;
		if (pk_add(&m->ep_pk[q->pool], after - before,
			   (uint64_t)(after - before) * m->cfg.cell_bytes))
			pk_run(&m->ep_pk[q->pool], now, pool);
	}
	if (s >= MQ_MC) {
		if (pk_add(&P->egr_mc, c, b->len))
			pk_run(&P->egr_mc, now, model_sum_alloc(m, &P->sum_mc, 1));
	} else if (pk_add(&P->egr_uc, c, b->len)) {
		pk_run(&P->egr_uc, now, model_sum_alloc(m, &P->sum_uc, 1));
	}
	if (q->tail != NULL)
		q->tail->next = cp;
	else
		q->head = cp;
	q->tail = cp;
	P->nonempty |= (uint16_t)(1u << s);
	m->st.copies_buffered++;
	/* seed 004: count only admitted packets */
	q->enq_cnt++;
	if (!q->nt_flag) {
		q->nt_flag = 1;
		q->nt_start = now;
		q->nt_start_cnt = q->enq_cnt;
	}
	mk_enqueue(&q->mk, q->enq_cnt, now);
	arm_tick(m);
	return 1;
}

static void start_tx(struct model *m, struct mport *P, unsigned port, int back_to_back)
{
	int s = sched_pick(P);
	if (s < 0) {
		P->busy = 0;
		P->frac_fs = 0;
		return;
	}
	struct mpkt *h = P->q[s].head;
	uint64_t fs = (uint64_t)(h->len + P->overhead) * P->fs_per_byte;
	if (back_to_back)
		fs += P->frac_fs;
	P->busy = 1;
	P->in_slot = (uint8_t)s;
	P->frac_fs = fs % FS_PER_NS;
	schedule_leaf(m, m->now + fs / FS_PER_NS, port, EV_ID(EV_TX, port));
}

static inline unsigned log2_bucket(uint64_t v)
{
	if (v == 0)
		return 0;
	unsigned b = 64u - (unsigned)__builtin_clzll(v);
	return b < MODEL_DELAY_HIST ? b : MODEL_DELAY_HIST - 1;
}

static void count_cast(struct model_if_counters *c, unsigned cast, int out)
{
	if (out) {
		if (cast == CAST_UC)
			c->out_ucast++;
		else if (cast == CAST_MC)
			c->out_mcast++;
		else
			c->out_bcast++;
	} else {
		if (cast == CAST_UC)
			c->in_ucast++;
		else if (cast == CAST_MC)
			c->in_mcast++;
		else
			c->in_bcast++;
	}
}

/* End of transmission on a port: the head of the slot in service departs. */
static void tx_done(struct model *m, unsigned port)
{
	struct mport *P = &m->ports[port];
	unsigned s = P->in_slot;
	struct mqueue *q = &P->q[s];
	struct mpkt *cp = q->head;
	struct mpkt *b = cp->body;
	uint64_t now = m->now;
	uint32_t c = cp->cells;

	q->head = cp->next;
	if (q->head == NULL) {
		q->tail = NULL;
		P->nonempty &= (uint16_t) ~(1u << s);
	}
	q->npkts--;
	uint32_t before = sat_sub(q->pk.cur, q->min_cells);
	pk_sub(&q->pk, c, cp->len);
	uint32_t after = sat_sub(q->pk.cur, q->min_cells);
	if (after != before) {
		m->ep_used[q->pool] -= before - after;
		pk_sub(&m->ep_pk[q->pool], before - after,
		       (uint64_t)(before - after) * m->cfg.cell_bytes);
	}
	pk_sub(s >= MQ_MC ? &P->egr_mc : &P->egr_uc, c, cp->len);
	m->st.copies_buffered--;
	m->st.copies_departed++;

	/* delay: seed 004, seed 000, truth */
	int64_t nt = -1;
	q->deq_cnt++;
	if (q->nt_flag && q->deq_cnt == q->nt_start_cnt) {
		uint64_t lat = now - q->nt_start;
		q->nt_flag = 0;
		q->nt_latest = lat;
		if (lat > q->nt_max)
			q->nt_max = lat;
		q->nt_count++;
		nt = (int64_t)lat;
	}
	mk_dequeue(&q->mk, q->deq_cnt, now, q->head == NULL);
	if (q->mk.delay > q->mk_max)
		q->mk_max = q->mk.delay;
	uint64_t soj = now - b->t_arr;
	q->n++;
	q->sum += soj;
	if (soj > q->max)
		q->max = soj;
	qcold(m, port, s)->hist[log2_bucket(soj)]++;

	P->ctr.out_octets += cp->len;
	count_cast(&P->ctr, (b->flags & MP_CAST_M) >> MP_CAST_S, 1);

	if (b->flags & MP_SAMPLE) {
		b->flags &= (uint8_t)~MP_SAMPLE;
		struct model_event *e = ev_slot(m);
		if (e != NULL) {
			e->type = MODEL_EV_SAMPLE;
			e->t_ns = now;
			e->in_port = b->in_port;
			e->out_port = (uint16_t)port;
			e->queue = (uint8_t)(s & 7);
			e->mc = s >= MQ_MC;
			e->tc = b->tc;
			e->pg = b->pg;
			e->delay_ns = soj;
			e->depth_bytes = cp->depth_enq;
			e->len = b->len;
			e->flow_id = b->flow_id;
			ev_hdr(m, e, b);
		} else {
			/* the ring is full: the sample is lost for its data source */
			m->ports[b->in_port].ctr.samples_lost++;
		}
	}
	if (m->trace != NULL) {
		struct model_trace tr = {0};
		tr.departed = 1;
		tr.queue = (uint8_t)(s & 7);
		tr.mc = s >= MQ_MC;
		tr.in_port = b->in_port;
		tr.out_port = (uint16_t)port;
		tr.len = b->len;
		tr.flow_id = b->flow_id;
		tr.t_arr_ns = b->t_arr;
		tr.t_ns = now;
		tr.depth_bytes = cp->depth_enq;
		tr.nt_latency_ns = nt;
		m->trace(m->trace_arg, &tr);
	}

	if (cp != b)
		pkt_free(m, cp);
	if (--b->refs == 0) {
		release_ingress(m, b);
		pkt_free(m, b);
	}
	start_tx(m, P, port, 1);
}

/* ---------------------------------------------------------------- arrival */

static int pkt_valid(const struct model *m, const struct model_pkt *p)
{
	if (p->in_port >= m->np || p->tc >= MODEL_NUM_TC || p->len < 1 || p->len > 65535)
		return 0;
	if (p->fwd_drop != 0)
		return 1;
	if (p->mc_group != 0)
		return p->mc_group <= m->cfg.n_mc_groups;
	return p->out_port < m->np;
}

static unsigned classify(const struct mpkt *b)
{
	if (b->cast != 0)
		return b->cast - 1u; /* MODEL_CAST_* - 1 = CAST_* */
	if (b->hdr != NULL && b->hdr_len >= 6) {
		const uint8_t *d = b->hdr;
		if ((d[0] & d[1] & d[2] & d[3] & d[4] & d[5]) == 0xff)
			return CAST_BC;
		return (d[0] & 1) ? CAST_MC : CAST_UC;
	}
	return b->mc_group ? CAST_MC : CAST_UC;
}

/* A packet reaches the switch (last bit in) now; b is consumed. */
static void arrive(struct model *m, struct mpkt *b)
{
	struct mport *P = &m->ports[b->in_port];
	b->t_arr = m->now;
	b->refs = 0;
	b->body = b;
	b->cells = m->cell_shift ? (b->len + m->cfg.cell_bytes - 1) >> m->cell_shift
				 : (b->len + m->cfg.cell_bytes - 1) / m->cfg.cell_bytes;
	b->flags = (uint8_t)((b->flags & MP_MC) | (classify(b) << MP_CAST_S));
	m->st.arrived++;
	P->ctr.in_octets += b->len;
	count_cast(&P->ctr, (b->flags & MP_CAST_M) >> MP_CAST_S, 0);
	if (P->sampling_rate != 0) {
		P->ctr.sample_pool++;
		if (--P->skip == 0) {
			b->flags |= MP_SAMPLE;
			P->ctr.samples_marked++;
			P->skip = draw_skip(m, P->sampling_rate);
		}
	}
	if (b->fwd_drop != 0) {
		unsigned cause = cause_of_code(b->fwd_drop);
		m->st.fwd_dropped++;
		P->drop_in[cause]++;
		P->ctr.in_discards++;
		unsigned op = b->mc_group || b->out_port >= m->np ? MODEL_PORT_NONE : b->out_port;
		note_drop(m, b, cause, b->fwd_drop, op, MODEL_QUEUE_NONE, 0);
		pkt_free(m, b);
		return;
	}
	/* ingress admission */
	struct mpg *g = &P->pg[b->pg];
	uint32_t lim = 0;
	int hdrm = 0, ok = m->cells_used + b->cells <= m->cfg.total_cells;
	if (ok && !pg_fits(m, g, b->cells, &lim)) {
		if (g->lossless && g->pk_hdrm.cur + b->cells <= g->headroom)
			hdrm = 1;
		else
			ok = 0;
	}
	/* the unicast target, for drop reports */
	unsigned uport = b->out_port, uslot = 0;
	if (!(b->flags & MP_MC)) {
		const struct mport *E = &m->ports[uport];
		uslot = E->tc_ucq[b->tc];
	}
	if (!ok) {
		m->st.ing_dropped++;
		P->drop_in[MODEL_DROP_ING_LIMIT]++;
		P->ctr.in_discards++;
		if (b->flags & MP_MC) {
			note_drop(m, b, MODEL_DROP_ING_LIMIT, MODEL_REASON_NO_BUFFER_SPACE,
				  MODEL_PORT_NONE, MODEL_QUEUE_NONE, 0);
		} else {
			struct mqueue *q = &m->ports[uport].q[uslot];
			qcold(m, uport, uslot)->drops[MODEL_DROP_ING_LIMIT]++;
			note_drop(m, b, MODEL_DROP_ING_LIMIT, MODEL_REASON_NO_BUFFER_SPACE, uport,
				  uslot,
				  (uint32_t)(q->pk.cur_b > UINT32_MAX ? UINT32_MAX : q->pk.cur_b));
		}
		pkt_free(m, b);
		return;
	}
	m->st.admitted++;
	/* egress admission, copy by copy; the body is charged at ingress
	 * once the first copy is in */
	int charged = 0;
	if (!(b->flags & MP_MC)) {
		if (enqueue_copy(m, b, uport, uslot)) {
			charge_ingress(m, P, b, hdrm, lim);
			charged = 1;
			if (!m->ports[uport].busy)
				start_tx(m, &m->ports[uport], uport, 0);
		}
	} else {
		const struct model_mc_group *mg = &m->cfg.mc_groups[b->mc_group - 1];
		for (unsigned k = 0; k < mg->nports; k++) {
			unsigned port = mg->ports[k];
			if (port == b->in_port)
				continue; /* never back out of the ingress port */
			struct mport *E = &m->ports[port];
			unsigned s = E->n_mcq > 0 ? MQ_MC + E->tc_mcq[b->tc] : E->tc_ucq[b->tc];
			if (!enqueue_copy(m, b, port, s))
				continue;
			if (!charged) {
				charge_ingress(m, P, b, hdrm, lim);
				charged = 1;
			}
			if (!E->busy)
				start_tx(m, E, port, 0);
		}
	}
	if (!charged) {
		/* every copy dropped at egress; counted there */
		if ((b->flags & (MP_SAMPLE | MP_MC)) == (MP_SAMPLE | MP_MC))
			P->ctr.samples_dropped++;
		pkt_free(m, b);
	}
}

static void fill_from_src(struct mpkt *b, const struct model_pkt *p)
{
	b->len = p->len;
	b->in_port = p->in_port;
	b->out_port = p->out_port;
	b->mc_group = p->mc_group;
	b->tc = p->tc;
	b->dscp = p->dscp;
	b->fwd_drop = p->fwd_drop;
	b->hdr = p->hdr;
	b->hdr_len = p->hdr != NULL ? p->hdr_len : 0;
	b->flow_id = p->flow_id;
	b->cast = p->cast <= MODEL_CAST_BROADCAST ? p->cast : 0;
	b->flags = p->mc_group ? MP_MC : 0;
}

/* A sender offers packet p now: through, or held by PFC. */
static void offer(struct model *m, const struct model_pkt *p)
{
	struct mport *P = &m->ports[p->in_port];
	unsigned pgi = P->tc_pg[p->tc];
	struct mpg *g = &P->pg[pgi];
	struct mpkt *b = pkt_alloc(m);
	if (b == NULL) {
		m->st.bad_pkts++;
		return;
	}
	fill_from_src(b, p);
	b->pg = (uint8_t)pgi;
	if (g->hold_head != NULL || (m->now >= g->pause_start && m->now < g->pause_end)) {
		b->next = NULL;
		if (g->hold_tail != NULL)
			g->hold_tail->next = b;
		else
			g->hold_head = b;
		g->hold_tail = b;
		m->st.held++;
		if (!g->rel_armed && g->pause_end != UINT64_MAX && m->now >= g->pause_start) {
			/* XON already sent: the sender restarts at pause_end */
			g->rel_armed = 1;
			schedule(m, g->pause_end > m->now ? g->pause_end : m->now,
				 EV_ID(EV_REL, (unsigned)(P - m->ports) * MODEL_NUM_PG + pgi));
		}
		return;
	}
	arrive(m, b);
}

static void release_held(struct model *m, unsigned idx)
{
	unsigned port = idx / MODEL_NUM_PG, pgi = idx % MODEL_NUM_PG;
	struct mport *P = &m->ports[port];
	struct mpg *g = &P->pg[pgi];
	g->rel_armed = 0;
	if (g->hold_head == NULL)
		return;
	if (m->now >= g->pause_start && m->now < g->pause_end) {
		if (g->pause_end != UINT64_MAX) {
			g->rel_armed = 1;
			schedule(m, g->pause_end, EV_ID(EV_REL, idx));
		}
		return; /* the XON re-arms */
	}
	struct mpkt *b = g->hold_head;
	g->hold_head = b->next;
	if (g->hold_head == NULL)
		g->hold_tail = NULL;
	m->st.held--;
	arrive(m, b);
	if (g->hold_head != NULL) {
		/* the next one follows at the sender's line rate */
		struct mpkt *n = g->hold_head;
		uint64_t fs = (uint64_t)(n->len + P->overhead) * P->fs_per_byte;
		g->rel_armed = 1;
		schedule(m, m->now + (fs + FS_PER_NS - 1) / FS_PER_NS, EV_ID(EV_REL, idx));
	}
}

static void src_fetch(struct model *m, unsigned i)
{
	struct msrc *s = &m->srcs[i];
	for (;;) {
		if (s->src.next(s->src.state, &s->next) != 1) {
			s->live = 0;
			m->src_live--;
			return;
		}
		if (pkt_valid(m, &s->next))
			break;
		m->st.bad_pkts++;
	}
	/* its header is read at arrival (destination class): start loading
	 * it now, many events ahead */
	if (s->next.hdr != NULL && s->next.cast == 0)
		__builtin_prefetch(s->next.hdr);
	uint64_t t = s->next.t_ns < m->now ? m->now : s->next.t_ns;
	schedule_leaf(m, t, m->np + i, EV_ID(EV_SRC, i));
}

static void tick(struct model *m)
{
	m->tick_armed = 0;
	uint32_t nq = m->np * MQ_SLOTS;
	uint32_t k = m->cfg.marker_tick_queues;
	if (k == 0 || k > nq)
		k = nq;
	for (uint32_t i = 0; i < k; i++) {
		uint32_t pos = m->tick_pos;
		m->tick_pos = pos + 1 == nq ? 0 : pos + 1;
		struct mqueue *q = &m->ports[pos / MQ_SLOTS].q[pos % MQ_SLOTS];
		if (!q->mk.has_marker)
			continue;
		uint64_t d = mk_refresh(&q->mk, m->now);
		if (d > q->mk_max)
			q->mk_max = d;
	}
	if (m->st.copies_buffered > 0)
		arm_tick(m);
}

static inline __attribute__((always_inline)) void dispatch(struct model *m, uint64_t t, uint32_t id,
							   int from_tree)
{
	m->now = t;
	m->cur_id = id;
	m->cur_from_tree = (uint8_t)from_tree;
	m->resched = 0;
	m->tree_resched = 0;
	m->in_dispatch = 1;
	m->cur_leaf = from_tree ? leaf_of(m, id) : TLEAF_NONE;
	m->st.n_events_processed++;
	unsigned idx = EV_IDX(id);
	switch (EV_TYPE(id)) {
	case EV_SRC:
		offer(m, &m->srcs[idx].next);
		src_fetch(m, idx);
		break;
	case EV_TX:
		tx_done(m, idx);
		break;
	case EV_REL:
		release_held(m, idx);
		break;
	default:
		tick(m);
		break;
	}
	m->in_dispatch = 0;
	if (from_tree) {
		if (!m->tree_resched)
			tree_set(m, m->cur_leaf, TKEY_NONE);
	} else if (m->resched) {
		struct mheap_ent r = {m->resched_t, m->seq++, id};
		heap_sift_root(m, r);
	} else {
		heap_pop(m);
	}
}

/* Is anything other than the background tick pending? */
static int busy_work(const struct model *m)
{
	return m->src_live > 0 || m->st.copies_buffered > 0 || m->st.held > 0;
}

enum { RUN_DONE = 0, RUN_AT_LIMIT = 1, RUN_MAX_EVENTS = 2 };

/* The event loop of the three entry points below, with dispatch inlined
 * once: run events with time <= t_lim, at most max_events of them; with
 * idle_stop, stop as soon as nothing but the background tick is left.
 * RUN_AT_LIMIT: the next event is after t_lim. */
static int run_loop(struct model *m, uint64_t t_lim, uint64_t max_events, int idle_stop)
{
	uint64_t t;
	uint32_t id;
	int ft;
	for (uint64_t n = 0;; n++) {
		if (idle_stop && !busy_work(m))
			return RUN_DONE;
		if (!next_event(m, &t, &id, &ft))
			return RUN_DONE;
		if (t > t_lim)
			return RUN_AT_LIMIT;
		if (n == max_events)
			return RUN_MAX_EVENTS;
		dispatch(m, t, id, ft);
	}
}

int model_advance_to(struct model *m, uint64_t t_ns)
{
	run_loop(m, t_ns, UINT64_MAX, 0);
	if (t_ns > m->now)
		m->now = t_ns;
	return 0;
}

int model_advance_bounded(struct model *m, uint64_t t_ns, uint64_t max_events)
{
	if (run_loop(m, t_ns, max_events, 0) == RUN_MAX_EVENTS)
		return 1;
	if (t_ns > m->now)
		m->now = t_ns;
	return 0;
}

int model_run(struct model *m, uint64_t t_end_ns)
{
	if (run_loop(m, t_end_ns, UINT64_MAX, 1) != RUN_AT_LIMIT)
		return 0;
	if (t_end_ns > m->now)
		m->now = t_end_ns;
	return 1;
}

uint64_t model_now(const struct model *m)
{
	return m->now;
}

int model_idle(const struct model *m)
{
	return !busy_work(m);
}

int model_set_egress_pause(struct model *m, unsigned port, uint8_t class_mask)
{
	if (port >= m->np)
		return -1;
	struct mport *P = &m->ports[port];
	P->paused = (uint16_t)(class_mask | ((uint16_t)class_mask << MQ_MC));
	if (!P->busy)
		start_tx(m, P, port, 0);
	return 0;
}

void model_set_trace(struct model *m, model_trace_fn fn, void *arg)
{
	m->trace = fn;
	m->trace_arg = arg;
}

/* ---------------------------------------------------------------- setup */

static int heap_reserve(struct model *m, uint32_t need)
{
	if (need <= m->heap_cap)
		return 0;
	uint32_t cap = m->heap_cap ? m->heap_cap : 64;
	while (cap < need)
		cap *= 2;
	struct mheap_ent *h = realloc(m->heap, cap * sizeof(*h));
	if (h == NULL)
		return -1;
	m->heap = h;
	m->heap_cap = cap;
	return 0;
}

int model_add_source(struct model *m, const struct model_source *src)
{
	if (src == NULL || src->next == NULL)
		return -1;
	if (m->nsrc == m->src_cap) {
		uint32_t cap = m->src_cap ? 2 * m->src_cap : 8;
		struct msrc *s = realloc(m->srcs, cap * sizeof(*s));
		if (s == NULL)
			return -1;
		m->srcs = s;
		m->src_cap = cap;
	}
	if (tree_resize(m, m->np + m->nsrc + 1) < 0)
		return -1;
	unsigned i = m->nsrc++;
	memset(&m->srcs[i], 0, sizeof(m->srcs[i]));
	m->srcs[i].src = *src;
	m->srcs[i].live = 1;
	m->src_live++;
	src_fetch(m, i);
	return 0;
}

static void setup_queue(struct mqueue *q, const struct model_queue_config *c, int mc,
			uint32_t quantum_unit)
{
	q->present = 1;
	q->is_mc = (uint8_t)mc;
	q->min_cells = c->min_cells;
	q->dyn = c->shared.mode == MODEL_LIMIT_DYNAMIC;
	q->alpha = c->shared.alpha;
	q->lim_cells = c->shared.cells;
	q->pool = c->pool;
	q->sched = c->sched;
	q->quantum = (c->weight ? c->weight : 1) * quantum_unit;
	q->limit_pkts = c->limit_pkts;
	q->wred = c->wred.enabled;
	q->wred_min = c->wred.min_bytes;
	q->wred_max = c->wred.max_bytes;
	q->wred_maxp = c->wred.max_prob;
	model_marker_init(&q->mk);
}

static void sum_add(struct msum *s, uint32_t min, const struct model_limit *l, unsigned pool)
{
	s->fixed += min;
	if (l->mode == MODEL_LIMIT_DYNAMIC)
		s->alpha[pool] += l->alpha;
	else
		s->fixed += l->cells;
}

static void init_peaks(struct model *m, struct mpeak *k, uint32_t alloc)
{
	k->w = &m->win[m->win_used];
	m->win_used += MODEL_NUM_WINDOWS;
	k->run_alloc = alloc;
	for (unsigned w = 0; w < MODEL_NUM_WINDOWS; w++)
		k->w[w].alloc = alloc;
}
static void setup_port(struct model *m, struct mport *P, const struct model_port_config *c)
{
	P->fs_per_byte = (uint64_t)(8.0e15 / (double)c->speed_bps + 0.5);
	P->overhead = c->overhead_bytes;
	P->n_ucq = c->n_ucq;
	P->n_mcq = c->n_mcq;
	P->sampling_rate = c->sampling_rate;
	P->pfc_delay = c->pfc_delay_ns;
	memcpy(P->tc_pg, c->tc_to_pg, sizeof(P->tc_pg));
	memcpy(P->tc_ucq, c->tc_to_ucq, sizeof(P->tc_ucq));
	memcpy(P->tc_mcq, c->tc_to_mcq, sizeof(P->tc_mcq));
	for (unsigned q = 0; q < c->n_ucq; q++) {
		setup_queue(&P->q[q], &c->ucq[q], 0, m->cfg.dwrr_quantum);
		sum_add(&P->sum_uc, c->ucq[q].min_cells, &c->ucq[q].shared, c->ucq[q].pool);
	}
	for (unsigned q = 0; q < c->n_mcq; q++) {
		setup_queue(&P->q[MQ_MC + q], &c->mcq[q], 1, m->cfg.dwrr_quantum);
		sum_add(&P->sum_mc, c->mcq[q].min_cells, &c->mcq[q].shared, c->mcq[q].pool);
	}
	/* strict priority: higher class first, unicast before multicast */
	for (int q = MODEL_MAX_QUEUES - 1; q >= 0; q--) {
		if (q < c->n_ucq && c->ucq[q].sched == MODEL_SCHED_SP)
			P->sp_mask |= (uint16_t)(1u << q);
		if (q < c->n_mcq && c->mcq[q].sched == MODEL_SCHED_SP)
			P->sp_mask |= (uint16_t)(1u << (MQ_MC + q));
	}
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
	for (unsigned s = 0; s < MQ_SLOTS; s++)
		init_peaks(m, &P->q[s].pk, P->q[s].present ? model_q_alloc(m, &P->q[s]) : 0);
	init_peaks(m, &P->ing_uc, model_sum_alloc(m, &P->sum_pg, 0));
	init_peaks(m, &P->ing_mc, model_sum_alloc(m, &P->sum_pg, 0));
	init_peaks(m, &P->egr_uc, model_sum_alloc(m, &P->sum_uc, 1));
	init_peaks(m, &P->egr_mc, model_sum_alloc(m, &P->sum_mc, 1));
	P->skip = draw_skip(m, P->sampling_rate);
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
	m->np = cfg->nports + 1;
	m->cur_leaf = TLEAF_NONE;
	if ((cfg->cell_bytes & (cfg->cell_bytes - 1)) == 0)
		m->cell_shift = (uint8_t)__builtin_ctz(cfg->cell_bytes);
	/* cache-line aligned: the hot parts of ports, PGs and queues start
	 * lines (struct attributes in model_int.h) */
	m->ports = aligned_alloc(MODEL_LINE, m->np * sizeof(*m->ports));
	if (m->ports != NULL)
		memset(m->ports, 0, m->np * sizeof(*m->ports));
	m->ring_cap = m->cfg.event_capacity;
	m->ring = malloc((size_t)m->ring_cap * sizeof(*m->ring));
	if (m->ports == NULL || m->ring == NULL)
		goto nomem;
	if (heap_reserve(m, m->np * MODEL_NUM_PG + 2) < 0 || tree_resize(m, m->np + 1) < 0)
		goto nomem;
	/* per port: 16 queues, 8 PGs and their headroom, 4 port objects;
	 * device uc/mc and 2 x 4 pools */
	m->nwin = (m->np * (MQ_SLOTS + 2 * MODEL_NUM_PG + 4) + 2 + 2 * MODEL_MAX_POOLS) *
		  MODEL_NUM_WINDOWS;
	m->win = calloc(m->nwin, sizeof(*m->win));
	m->dwin = calloc((size_t)m->np * MQ_SLOTS * MODEL_NUM_WINDOWS, sizeof(*m->dwin));
	m->qcold = calloc((size_t)m->np * MQ_SLOTS, sizeof(*m->qcold));
	if (m->win == NULL || m->dwin == NULL || m->qcold == NULL)
		goto nomem;
	for (unsigned i = 0; i < m->np; i++)
		setup_port(m, &m->ports[i], i < cfg->nports ? &cfg->ports[i] : &cfg->cpu);
	init_peaks(m, &m->dev_uc, cfg->total_cells);
	init_peaks(m, &m->dev_mc, cfg->total_cells);
	for (unsigned i = 0; i < MODEL_MAX_POOLS; i++) {
		init_peaks(m, &m->ip_pk[i], cfg->ing_pool_cells[i]);
		init_peaks(m, &m->ep_pk[i], cfg->egr_pool_cells[i]);
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
	free(m->srcs);
	while (m->chunks != NULL) {
		struct mchunk *c = m->chunks;
		m->chunks = c->next;
		free(c);
	}
	free(m->heap);
	free(m->tree);
	free(m->win);
	free(m->dwin);
	free(m->qcold);
	free(m->ring);
	free(m->ports);
	free(m->cfg.ports);
	free(m->cfg.mc_groups);
	free(m);
}

const struct model_config *model_config_of(const struct model *m)
{
	return &m->cfg;
}
