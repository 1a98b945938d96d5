/*
 * refsim.c - the reference simulator (refsim.h): the switch model's rules
 * written down as plainly as possible, to be the oracle the engine
 * (model.c, with its calendar, merged arrival stream, batching and
 * prefetching) is held against by test_refsim.
 *
 * How it runs: every arrival is pushed into one binary heap at the start;
 * a transmission pushes its end, PFC its senders' releases.  The heap pops
 * by (time, kind, port, sequence): at the same ns departures (kind 0) run
 * before arrivals (kind 1), arrivals by their tie key (model.h: a hash of
 * the 65536-ns period and the source index, here the ingress port: the test adds one
 * source per ingress port, in port order), then ingress port, then in the
 * order of their port's list, and PFC releases (kind 2) last, in the
 * order they were scheduled.
 * Occupancy is counted per object (queue, PG, device); a pool's shared
 * use is recounted from its objects whenever it is needed, as the sum of
 * max(0, cells - min) over the PGs (queues) drawing from it.
 *
 * Rules covered (model.h):
 *  - cells: a packet takes ceil(len / cell_bytes) cells;
 *  - forwarding drops (fwd_drop: cause by reason code, no buffer);
 *  - ingress admission: device full (cells + c > total_cells) -> ingress
 *    drop; PG beyond its minimum: shared use after (cells + c - min) within
 *    the PG's static limit or alpha * free cells of its ingress pool
 *    (truncated to an integer, as the engine's dyn_limit), and the pool's
 *    shared use plus the growth within the pool;
 *  - egress admission per copy, in the engine's order: queue packet limit
 *    (limit_pkts, the packet in transmission counted), WRED (a draw from
 *    the model's own generator, rng.h, seeded with cfg->seed, taken only
 *    when the depth is in [min, max), compared with max_prob * (depth -
 *    min) / (max - min) evaluated in that order; the depth its average
 *    with gain > 0, avg += (depth - avg) 2^-gain at every copy offered,
 *    before the packet limit's test; a hit ECN-capable copy, ecn on, is
 *    marked CE instead of dropped, CE left as it is), queue beyond its
 *    minimum: static or dynamic limit against its egress pool, and the
 *    pool's room; the first that fails names the cause; a dropped
 *    unicast packet charges nothing; a packet of a lossless PG is never
 *    dropped there (the checks run, WRED's draw included, and are
 *    ignored; its marking stays);
 *  - multicast: the copies in group order, never to the ingress port, to
 *    the multicast queue tc_to_mcq[tc] (the unicast one without multicast
 *    queues); the body is charged at ingress (PG, device) once, when its
 *    first copy is admitted, and released when its last copy departs;
 *  - scheduling: strict priority first (higher queue index first, unicast
 *    before multicast of the same index), then DWRR over the DWRR queues
 *    (unicast in index order, then multicast): a pointer goes round them;
 *    a queue found empty loses its deficit; a backlogged queue gets its
 *    quantum (weight * dwrr_quantum) once per visit and sends while its
 *    head fits its deficit (the head's frame bytes, and the port's
 *    overhead_bytes with dwrr_wire), however many rounds that takes;
 *  - serialization: (len + overhead_bytes) * femtoseconds per byte
 *    (8e15 / speed, rounded), kept to the femtosecond on a port sending
 *    back to back, the departure on the whole ns below; a port that goes
 *    idle keeps the fraction: a transmission starting at the ns the last
 *    one ended begins after it (the line is busy until then), one
 *    starting later at its own ns;
 *  - PFC of lossless PGs: a packet its PG does not take (but the device
 *    does) goes into the PG's headroom if it fits there; XOFF when a
 *    charge takes the PG's shared use to xoff_cells (or, xoff_cells 0,
 *    puts anything in its headroom); the sender stops pfc_delay_ns later:
 *    packets it offers from then on are held, in order, behind any held
 *    before; XON when a release leaves the headroom empty and the shared
 *    use at most xon_cells; the sender restarts pfc_delay_ns later (not
 *    before it stopped), releasing its held packets one serialization
 *    time of the next (on its own line, whole ns up) apart; a held packet
 *    arrives (t_arr) when released;
 *  - trace records (struct model_trace) with the depth met at enqueue or
 *    at the drop, the copy's ECN field and the non-tagged latency: a queue flags the
 *    first copy admitted while it has no flagged copy; the flagged copy's
 *    departure measures departure - its enqueue time.
 *
 *  - ingress arbitration with accelerated memory and flow-based
 *    admission (cfg->iarb, cfg->fb), for unicast packets past forwarding
 *    and before ingress admission: the arbiter first (PB full: ingress
 *    drop; else the packet's arrival time is taken back by its SOP
 *    latency), then the flow-based admission (a drop by a region's bound
 *    or state: ingress limit, by its WRED: wred); a packet it admitted is
 *    released when it departs or when the switch's own admission drops
 *    it.  The arbiter's inputs: ingress PFC is the packet's PG's XOFF and
 *    any PG of its port's; egress PFC none (no downstream PFC here);
 *    egress over-utilization: the device's cells at or above egr_over_pc
 *    of the buffer.  The mechanisms' own rules are those of their
 *    modules (model_iarb.c, model_flowbuf.c, unit-tested against the
 *    source documents' numbers), run here beside the engine's hooks: what
 *    this checks is where and when the engine calls them;
 *
 * Not covered: downstream PFC (model_set_egress_pause), sampling (its draws share the WRED
 * generator: the test keeps it off), the CPU port as a destination, events and telemetry reads
 * (peaks, delays, counters: test_golden holds those), packets the engine refuses as invalid.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "agent/model/model_flowbuf.h"
#include "agent/model/model_iarb.h"
#include "agent/model/rng.h"
#include "agent/model/tests/refsim.h"

#define NSLOTS 16 /* a port's queues: unicast q at q, multicast q at 8 + q */
#define FS_NS  1000000ULL

struct body {
	const struct refsim_pkt *p;
	uint64_t t_arr;
	uint32_t cells;
	unsigned pg;
	int mc;
	int hdrm;      /* charged to its PG's headroom */
	unsigned refs; /* copies in queues */
	int fbc;       /* counted by the flow-based admission, in region */
	uint16_t region;
};

/* A packet held at its paused sender (PFC), in a PG's FIFO. */
struct held {
	const struct refsim_pkt *p;
	struct held *next;
};

/* A PG's PFC state (lossless PGs only). */
struct pgstate {
	uint32_t hdrm_cells;
	int xoff;			 /* XOFF sent, no XON since */
	uint64_t pause_start, pause_end; /* the sender stops in [start, end) */
	struct held *hold, *hold_tail;
	int rel_armed; /* a release event is pending */
};

struct copy {
	struct body *b;
	uint64_t id; /* the queue's enqueue count at its enqueue */
	uint32_t depth_enq;
	uint8_t ecn; /* its ECN field: the packet's, or CE once marked */
};

struct queue {
	const struct model_queue_config *c; /* NULL: no such queue */
	struct copy *v;			    /* FIFO: v[head .. n-1] */
	size_t head, n, cap;
	uint32_t cells;
	uint64_t bytes;
	uint64_t enq_cnt;
	uint64_t nt_id, nt_t; /* non-tagged latency: the flagged copy (0: none) */
	int64_t deficit;
	double wred_avg; /* WRED's average depth */
};

struct port {
	const struct model_port_config *c;
	uint64_t fs_per_byte;
	struct queue q[NSLOTS];
	uint32_t pg_cells[MODEL_NUM_PG];
	struct pgstate pfc[MODEL_NUM_PG];
	int busy;
	unsigned slot;	 /* in transmission */
	uint64_t frac;	 /* fs beyond the last departure's ns */
	uint64_t idle_t; /* the ns the port went idle (its line free frac later) */
	unsigned dw[NSLOTS], ndw, rr;
	int turn; /* the queue at rr has had its quantum this visit */
};

struct ev {
	uint64_t t;
	unsigned kind; /* 0 departure, 1 arrival, 2 PFC release */
	unsigned port; /* departure, arrival: the port; release: 0 */
	size_t seq;    /* arrival: index in its port's list; release: the
			  insertion number */
	unsigned pg;   /* release: port * MODEL_NUM_PG + PG */
};

struct sim {
	const struct model_config *cfg;
	struct port *ports;
	uint32_t dev_cells;
	uint64_t now;
	struct model_rng rng;
	struct ev *heap;
	size_t nheap, capheap;
	size_t nins; /* releases scheduled so far */
	model_trace_fn fn;
	void *arg;
	struct model_iarb *ia; /* cfg->iarb, NULL: off */
	struct model_fb *fb;   /* cfg->fb, NULL: off */
};

/* ---------------------------------------------------------------- heap */

/* model.h's tie key, written out: the top 16 bits of the splitmix64
 * finalizer of (t >> 16) + (source + 1) * 0x9E3779B97F4A7C15. */
static unsigned tie_key(uint64_t t, unsigned src)
{
	uint64_t z = t / 65536 + ((uint64_t)src + 1) * 0x9E3779B97F4A7C15ULL;
	z ^= z >> 30;
	z *= 0xBF58476D1CE4E5B9ULL;
	z ^= z >> 27;
	z *= 0x94D049BB133111EBULL;
	z ^= z >> 31;
	return (unsigned)(z >> 48);
}

static int ev_less(const struct ev *a, const struct ev *b)
{
	if (a->t != b->t)
		return a->t < b->t;
	if (a->kind != b->kind)
		return a->kind < b->kind;
	if (a->kind == 1 && a->port != b->port) {
		unsigned ka = tie_key(a->t, a->port), kb = tie_key(b->t, b->port);
		if (ka != kb)
			return ka < kb;
	}
	if (a->port != b->port)
		return a->port < b->port;
	return a->seq < b->seq;
}

static int push(struct sim *s, struct ev e)
{
	if (s->nheap == s->capheap) {
		size_t cap = s->capheap ? 2 * s->capheap : 64;
		struct ev *h = realloc(s->heap, cap * sizeof(*h));
		if (h == NULL)
			return -1;
		s->heap = h;
		s->capheap = cap;
	}
	size_t i = s->nheap++;
	s->heap[i] = e;
	while (i > 0 && ev_less(&s->heap[i], &s->heap[(i - 1) / 2])) {
		struct ev t = s->heap[i];
		s->heap[i] = s->heap[(i - 1) / 2];
		s->heap[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
	return 0;
}

static struct ev pop(struct sim *s)
{
	struct ev top = s->heap[0];
	s->heap[0] = s->heap[--s->nheap];
	size_t i = 0;
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < s->nheap && ev_less(&s->heap[l], &s->heap[m]))
			m = l;
		if (r < s->nheap && ev_less(&s->heap[r], &s->heap[m]))
			m = r;
		if (m == i)
			break;
		struct ev t = s->heap[i];
		s->heap[i] = s->heap[m];
		s->heap[m] = t;
		i = m;
	}
	return top;
}

/* ---------------------------------------------------------------- limits */

static uint32_t shared_of(uint32_t cells, uint32_t min)
{
	return cells > min ? cells - min : 0;
}

/* Shared use of ingress pool i: the PGs' use above their minimums. */
static uint32_t ing_pool_use(const struct sim *s, unsigned i)
{
	uint32_t u = 0;
	for (unsigned p = 0; p < s->cfg->nports; p++)
		for (unsigned g = 0; g < MODEL_NUM_PG; g++)
			if (s->ports[p].c->pg[g].pool == i)
				u += shared_of(s->ports[p].pg_cells[g],
					       s->ports[p].c->pg[g].min_cells);
	return u;
}

/* Shared use of egress pool j: the queues' use above their minimums. */
static uint32_t egr_pool_use(const struct sim *s, unsigned j)
{
	uint32_t u = 0;
	for (unsigned p = 0; p < s->cfg->nports; p++)
		for (unsigned k = 0; k < NSLOTS; k++) {
			const struct queue *q = &s->ports[p].q[k];
			if (q->c != NULL && q->c->pool == j)
				u += shared_of(q->cells, q->c->min_cells);
		}
	return u;
}

/* The shared limit in cells: static, or alpha x the pool's free cells. */
static uint32_t limit_of(const struct model_limit *l, uint32_t pool, uint32_t used)
{
	if (l->mode == MODEL_LIMIT_STATIC)
		return l->cells;
	double x = l->alpha * (double)(pool > used ? pool - used : 0);
	return x >= 4294967295.0 ? UINT32_MAX : (uint32_t)x;
}

/* Does an object at `cells` (minimum min, limit l, in a pool of
 * pool_cells with `used` in shared use) take c more cells? */
static int fits(uint32_t cells, uint32_t c, uint32_t min, const struct model_limit *l,
		uint32_t pool_cells, uint32_t used)
{
	if (cells + c <= min)
		return 1;
	uint32_t after = cells + c - min;
	uint32_t growth = after - shared_of(cells, min);
	return after <= limit_of(l, pool_cells, used) && (uint64_t)used + growth <= pool_cells;
}

/* ---------------------------------------------------------------- trace */

static unsigned fwd_cause(unsigned code)
{
	if (code == MODEL_REASON_TTL_EXCEEDED)
		return MODEL_DROP_TTL;
	if (code == MODEL_REASON_ACL)
		return MODEL_DROP_ACL;
	if (code == MODEL_REASON_BLACKHOLE_ROUTE)
		return MODEL_DROP_BLACKHOLE;
	return MODEL_DROP_FWD_OTHER;
}

static void report(struct sim *s, const struct body *b, int departed, unsigned cause,
		   unsigned queue, int mc, unsigned out_port, uint32_t depth, int64_t nt,
		   unsigned ecn)
{
	struct model_trace tr;
	memset(&tr, 0, sizeof(tr));
	tr.ecn = (uint8_t)ecn;
	tr.departed = (uint8_t)departed;
	tr.cause = (uint8_t)cause;
	tr.queue = (uint8_t)queue;
	tr.mc = (uint8_t)mc;
	tr.in_port = b->p->in_port;
	tr.out_port = (uint16_t)out_port;
	tr.len = b->p->len;
	tr.flow_id = b->p->flow_id;
	tr.t_arr_ns = b->t_arr;
	tr.t_ns = s->now;
	tr.depth_bytes = depth;
	tr.nt_latency_ns = nt;
	s->fn(s->arg, &tr);
}

/* A packet the flow-based admission counted leaves the switch. */
static void fb_release(struct sim *s, struct body *b)
{
	if (b->fbc)
		model_fb_release(s->fb, b->region, b->p->in_port, b->p->tc, b->p->out_port,
				 b->p->tc, b->p->len, s->now);
	b->fbc = 0;
}

/* ---------------------------------------------------------------- PFC */

static int schedule_release(struct sim *s, uint64_t t, unsigned idx)
{
	struct ev e = {t, 2, 0, s->nins++, idx};
	return push(s, e);
}

/* Packet b is admitted: charge its PG (or its headroom) and the device;
 * a lossless PG without XOFF out sends XOFF if its shared use reached
 * xoff_cells (or, with xoff_cells 0, if its headroom holds anything): its
 * sender stops pfc_delay_ns later, until an XON. */
static void charge(struct sim *s, struct body *b)
{
	struct port *P = &s->ports[b->p->in_port];
	const struct model_pg_config *gc = &P->c->pg[b->pg];
	struct pgstate *st = &P->pfc[b->pg];
	if (b->hdrm)
		st->hdrm_cells += b->cells;
	else
		P->pg_cells[b->pg] += b->cells;
	s->dev_cells += b->cells;
	if (!gc->lossless || st->xoff)
		return;
	uint32_t shared = shared_of(P->pg_cells[b->pg], gc->min_cells);
	if ((gc->xoff_cells > 0 && shared >= gc->xoff_cells) ||
	    (gc->xoff_cells == 0 && st->hdrm_cells > 0)) {
		st->xoff = 1;
		st->pause_start = s->now + P->c->pfc_delay_ns;
		st->pause_end = UINT64_MAX;
	}
}

/* The last copy of b departed: give back its ingress charge; a PG with
 * XOFF out whose headroom is empty and whose shared use is at most
 * xon_cells sends XON: its sender restarts pfc_delay_ns later (not
 * before it stopped), with its held packets.  0 or -1 (memory). */
static int release(struct sim *s, struct body *b)
{
	unsigned port = b->p->in_port, pg = b->pg;
	struct port *P = &s->ports[port];
	struct pgstate *st = &P->pfc[pg];
	if (b->hdrm)
		st->hdrm_cells -= b->cells;
	else
		P->pg_cells[pg] -= b->cells;
	s->dev_cells -= b->cells;
	free(b);
	if (!st->xoff || st->hdrm_cells != 0 ||
	    shared_of(P->pg_cells[pg], P->c->pg[pg].min_cells) > P->c->pg[pg].xon_cells)
		return 0;
	st->xoff = 0;
	st->pause_end = s->now + P->c->pfc_delay_ns;
	if (st->pause_end < st->pause_start)
		st->pause_end = st->pause_start;
	if (st->hold != NULL && !st->rel_armed) {
		st->rel_armed = 1;
		return schedule_release(s, st->pause_end, port * MODEL_NUM_PG + pg);
	}
	return 0;
}

/* ---------------------------------------------------------------- egress */

static int q_nonempty(const struct queue *q)
{
	return q->c != NULL && q->head < q->n;
}

/* The strict-priority slot port P sends from next; else -2 if a DWRR
 * queue is backlogged (pick_dwrr decides), else -1. */
static int pick(const struct port *P)
{
	for (int k = MODEL_MAX_QUEUES - 1; k >= 0; k--) {
		if (q_nonempty(&P->q[k]) && P->q[k].c->sched == MODEL_SCHED_SP)
			return k;
		if (q_nonempty(&P->q[8 + k]) && P->q[8 + k].c->sched == MODEL_SCHED_SP)
			return 8 + k;
	}
	for (unsigned i = 0; i < P->ndw; i++)
		if (q_nonempty(&P->q[P->dw[i]]))
			return -2;
	return -1;
}

static uint32_t quantum_of(const struct sim *s, const struct queue *q)
{
	uint32_t unit = s->cfg->dwrr_quantum ? s->cfg->dwrr_quantum : 2048;
	return (q->c->weight ? q->c->weight : 1) * unit;
}

/* DWRR among P's DWRR queues (some of which are backlogged). */
static int pick_dwrr(const struct sim *s, struct port *P)
{
	for (;;) {
		unsigned k = P->dw[P->rr];
		struct queue *q = &P->q[k];
		if (!q_nonempty(q)) {
			q->deficit = 0;
			P->rr = (P->rr + 1) % P->ndw;
			P->turn = 0;
			continue;
		}
		if (!P->turn) {
			q->deficit += quantum_of(s, q);
			P->turn = 1;
		}
		uint32_t len = q->v[q->head].b->p->len;
		if (s->cfg->dwrr_wire)
			len += P->c->overhead_bytes;
		if ((int64_t)len <= q->deficit) {
			q->deficit -= len;
			return (int)k;
		}
		P->rr = (P->rr + 1) % P->ndw;
		P->turn = 0;
	}
}

static int start_tx(struct sim *s, unsigned port, int back_to_back)
{
	struct port *P = &s->ports[port];
	int k = pick(P);
	if (k == -2)
		k = pick_dwrr(s, P);
	if (k < 0) {
		P->busy = 0;
		P->idle_t = s->now; /* frac kept: the line is free at idle_t + frac */
		return 0;
	}
	const struct queue *q = &P->q[k];
	uint64_t fs = (uint64_t)(q->v[q->head].b->p->len + P->c->overhead_bytes) * P->fs_per_byte;
	if (back_to_back || s->now == P->idle_t)
		fs += P->frac;
	P->busy = 1;
	P->slot = (unsigned)k;
	P->frac = fs % FS_NS;
	struct ev e = {s->now + fs / FS_NS, 0, port, 0, 0};
	return push(s, e);
}

/* Egress admission of a copy of b to slot k of port `port`: 1 admitted,
 * 0 dropped (reported), -1 memory. */
static int enqueue(struct sim *s, struct body *b, unsigned port, unsigned k)
{
	struct queue *q = &s->ports[port].q[k];
	const struct model_queue_config *c = q->c;
	uint32_t depth = q->bytes > UINT32_MAX ? UINT32_MAX : (uint32_t)q->bytes;
	unsigned cause = MODEL_DROP_NCAUSES, ecn = b->p->ecn;
	int mark = 0;
	/* WRED's average moves with every copy offered (weight 2^-gain;
	 * gain 0: the depth) */
	if (c->wred.enabled)
		q->wred_avg = c->wred.gain == 0 ? (double)q->bytes
						: q->wred_avg + ((double)q->bytes - q->wred_avg) *
								    ldexp(1.0, -(int)c->wred.gain);
	double avg = q->wred_avg;
	if (c->limit_pkts != 0 && q->n - q->head >= c->limit_pkts) {
		cause = MODEL_DROP_EGR_LIMIT;
	} else if (c->wred.enabled && avg >= c->wred.min_bytes &&
		   (avg >= c->wred.max_bytes ||
		    model_rng_unit(&s->rng) <
			c->wred.max_prob * (avg - c->wred.min_bytes) /
			    (double)(c->wred.max_bytes - c->wred.min_bytes))) {
		/* hit: ECN-capable copies are marked CE instead (CE stays) */
		if (c->wred.ecn && ecn != MODEL_ECN_NOT_ECT)
			mark = ecn != MODEL_ECN_CE;
		else
			cause = MODEL_DROP_WRED;
	}
	if (cause == MODEL_DROP_NCAUSES &&
	    !fits(q->cells, b->cells, c->min_cells, &c->shared, s->cfg->egr_pool_cells[c->pool],
		  egr_pool_use(s, c->pool)))
		cause = MODEL_DROP_EGR_LIMIT;
	const struct model_port_config *ic = s->ports[b->p->in_port].c;
	if (cause != MODEL_DROP_NCAUSES && !ic->pg[b->pg].lossless) {
		report(s, b, 0, cause, k & 7, b->mc, port, depth, -1, b->p->ecn);
		return 0;
	}
	if (q->n == q->cap) {
		size_t cap = q->cap ? 2 * q->cap : 16;
		struct copy *v = realloc(q->v, cap * sizeof(*v));
		if (v == NULL)
			return -1;
		q->v = v;
		q->cap = cap;
	}
	q->enq_cnt++;
	q->v[q->n++] = (struct copy){b, q->enq_cnt, depth, mark ? MODEL_ECN_CE : ecn};
	q->cells += b->cells;
	q->bytes += b->p->len;
	if (q->nt_id == 0) {
		q->nt_id = q->enq_cnt;
		q->nt_t = s->now;
	}
	b->refs++;
	return 1;
}

static int depart(struct sim *s, unsigned port)
{
	struct port *P = &s->ports[port];
	unsigned k = P->slot;
	struct queue *q = &P->q[k];
	struct copy cp = q->v[q->head++];
	struct body *b = cp.b;
	q->cells -= b->cells;
	q->bytes -= b->p->len;
	if (q->head == q->n) /* empty: reuse the array from its start */
		q->head = q->n = 0;
	int64_t nt = -1;
	if (cp.id == q->nt_id) {
		nt = (int64_t)(s->now - q->nt_t);
		q->nt_id = 0;
	}
	report(s, b, 1, 0, k & 7, k >= 8, port, cp.depth_enq, nt, cp.ecn);
	if (--b->refs == 0) {
		fb_release(s, b);
		return release(s, b);
	}
	return 0;
}

/* ---------------------------------------------------------------- arrival */

/* Packet p arrives now: 0, or -1 (memory). */
static int arrive(struct sim *s, const struct refsim_pkt *p)
{
	const struct model_config *cfg = s->cfg;
	struct body *b = calloc(1, sizeof(*b));
	if (b == NULL)
		return -1;
	struct port *P = &s->ports[p->in_port];
	b->p = p;
	b->t_arr = s->now;
	b->cells = (p->len + cfg->cell_bytes - 1) / cfg->cell_bytes;
	b->pg = P->c->tc_to_pg[p->tc];
	b->mc = p->mc_group != 0;
	if (p->fwd_drop != 0) {
		unsigned op = b->mc || p->out_port >= cfg->nports ? MODEL_PORT_NONE : p->out_port;
		report(s, b, 0, fwd_cause(p->fwd_drop), MODEL_QUEUE_NONE, b->mc, op, 0, -1, p->ecn);
		free(b);
		return 0;
	}
	unsigned ext_cause = 0; /* 1 + the cause of a drop by a mechanism */
	if (!b->mc && s->ia != NULL) {
		struct model_iarb_in in = {0};
		in.pfc_ing = (uint8_t)P->pfc[b->pg].xoff;
		for (unsigned g = 0; g < MODEL_NUM_PG; g++)
			in.pfc_ing_res |= (uint8_t)P->pfc[g].xoff;
		in.egr_over = (uint64_t)s->dev_cells * 10000 >=
			      (uint64_t)cfg->total_cells * model_iarb_config(s->ia)->egr_over_pc;
		struct model_iarb_res r =
		    model_iarb_enqueue(s->ia, p->in_port, p->len, &in, s->now);
		if (r.dropped)
			ext_cause = 1 + MODEL_DROP_ING_LIMIT;
		else /* taken back by the SOP latency (not below 0) */
			b->t_arr = s->now >= r.ready - s->now ? s->now - (r.ready - s->now) : 0;
	}
	if (!b->mc && s->fb != NULL && ext_cause == 0) {
		struct model_fb_key k;
		memset(&k, 0, sizeof(k));
		k.src_ip = p->flow_id; /* no headers here */
		b->region = model_fb_classify(s->fb, &k);
		struct model_fb_res r = model_fb_admit(s->fb, b->region, p->in_port, p->tc,
						       p->out_port, p->tc, p->len, s->now);
		if (r.drop)
			ext_cause = 1 + (r.drop == MODEL_FB_DROP_WRED ? MODEL_DROP_WRED
								      : MODEL_DROP_ING_LIMIT);
		else
			b->fbc = 1;
	}
	if (ext_cause != 0) {
		unsigned k = s->ports[p->out_port].c->tc_to_ucq[p->tc];
		const struct queue *q = &s->ports[p->out_port].q[k];
		report(s, b, 0, ext_cause - 1, k, 0, p->out_port,
		       q->bytes > UINT32_MAX ? UINT32_MAX : (uint32_t)q->bytes, -1, p->ecn);
		free(b);
		return 0;
	}
	const struct model_pg_config *g = &P->c->pg[b->pg];
	int dev_ok = (uint64_t)s->dev_cells + b->cells <= cfg->total_cells;
	int ok = dev_ok && fits(P->pg_cells[b->pg], b->cells, g->min_cells, &g->shared,
				cfg->ing_pool_cells[g->pool], ing_pool_use(s, g->pool));
	if (!ok && dev_ok && g->lossless &&
	    P->pfc[b->pg].hdrm_cells + b->cells <= g->headroom_cells) {
		b->hdrm = 1; /* into the headroom */
		ok = 1;
	}
	if (!ok) {
		fb_release(s, b);
		if (b->mc) {
			report(s, b, 0, MODEL_DROP_ING_LIMIT, MODEL_QUEUE_NONE, 1, MODEL_PORT_NONE,
			       0, -1, p->ecn);
		} else {
			unsigned k = s->ports[p->out_port].c->tc_to_ucq[p->tc];
			const struct queue *q = &s->ports[p->out_port].q[k];
			report(s, b, 0, MODEL_DROP_ING_LIMIT, k, 0, p->out_port,
			       q->bytes > UINT32_MAX ? UINT32_MAX : (uint32_t)q->bytes, -1, p->ecn);
		}
		free(b);
		return 0;
	}
	int charged = 0;
	if (b->mc) {
		const struct model_mc_group *mg = &cfg->mc_groups[p->mc_group - 1];
		for (unsigned i = 0; i < mg->nports; i++) {
			unsigned e = mg->ports[i];
			if (e == p->in_port)
				continue;
			const struct model_port_config *ec = s->ports[e].c;
			unsigned k =
			    ec->n_mcq > 0 ? 8u + ec->tc_to_mcq[p->tc] : ec->tc_to_ucq[p->tc];
			int r = enqueue(s, b, e, k);
			if (r < 0)
				return -1;
			if (r == 0)
				continue;
			if (!charged) {
				charge(s, b);
				charged = 1;
			}
			if (!s->ports[e].busy && start_tx(s, e, 0) < 0)
				return -1;
		}
	} else {
		int r = enqueue(s, b, p->out_port, s->ports[p->out_port].c->tc_to_ucq[p->tc]);
		if (r < 0)
			return -1;
		if (r == 1) {
			charge(s, b);
			charged = 1;
			if (!s->ports[p->out_port].busy && start_tx(s, p->out_port, 0) < 0)
				return -1;
		}
	}
	if (!charged) {
		fb_release(s, b);
		free(b);
	}
	return 0;
}

/* Its sender offers packet p now: held while its PG's sender is paused
 * (or holds earlier packets), else it arrives.  0 or -1 (memory). */
static int offer(struct sim *s, const struct refsim_pkt *p)
{
	struct port *P = &s->ports[p->in_port];
	unsigned pg = P->c->tc_to_pg[p->tc];
	struct pgstate *st = &P->pfc[pg];
	if (st->hold == NULL && !(s->now >= st->pause_start && s->now < st->pause_end))
		return arrive(s, p);
	struct held *h = calloc(1, sizeof(*h));
	if (h == NULL)
		return -1;
	h->p = p;
	if (st->hold_tail != NULL)
		st->hold_tail->next = h;
	else
		st->hold = h;
	st->hold_tail = h;
	if (!st->rel_armed && st->pause_end != UINT64_MAX && s->now >= st->pause_start) {
		/* XON already sent: the sender restarts at pause_end */
		st->rel_armed = 1;
		return schedule_release(s, st->pause_end > s->now ? st->pause_end : s->now,
					p->in_port * MODEL_NUM_PG + pg);
	}
	return 0;
}

/* The release event of PG idx (port * 8 + PG): while the pause lasts,
 * wait for its end (or the XON); else the first held packet arrives, and
 * the next follows one serialization time (on the sender's line, whole
 * ns up) later.  0 or -1 (memory). */
static int release_held(struct sim *s, unsigned idx)
{
	struct port *P = &s->ports[idx / MODEL_NUM_PG];
	struct pgstate *st = &P->pfc[idx % MODEL_NUM_PG];
	st->rel_armed = 0;
	if (st->hold == NULL)
		return 0;
	if (s->now >= st->pause_start && s->now < st->pause_end) {
		if (st->pause_end == UINT64_MAX)
			return 0; /* the XON schedules it */
		st->rel_armed = 1;
		return schedule_release(s, st->pause_end, idx);
	}
	struct held *h = st->hold;
	st->hold = h->next;
	if (st->hold == NULL)
		st->hold_tail = NULL;
	int rc = arrive(s, h->p);
	free(h);
	if (rc < 0 || st->hold == NULL)
		return rc;
	uint64_t fs = (uint64_t)(st->hold->p->len + P->c->overhead_bytes) * P->fs_per_byte;
	st->rel_armed = 1;
	return schedule_release(s, s->now + (fs + FS_NS - 1) / FS_NS, idx);
}

/* ---------------------------------------------------------------- run */

int refsim_run(const struct model_config *cfg, const struct refsim_pkt *const *pk,
	       const size_t *npk, model_trace_fn fn, void *arg)
{
	struct sim s;
	int rc = -1;

	memset(&s, 0, sizeof(s));
	s.cfg = cfg;
	s.fn = fn;
	s.arg = arg;
	model_rng_seed(&s.rng, cfg->seed);
	if (cfg->iarb != NULL) {
		struct model_iarb_config c = *cfg->iarb;
		c.n_ports = cfg->nports + 1;
		if ((s.ia = model_iarb_new(&c, NULL)) == NULL)
			return -1;
	}
	if (cfg->fb != NULL) {
		struct model_fb_config *c = malloc(sizeof(*c));
		if (c == NULL)
			goto out;
		*c = *cfg->fb;
		c->n_ports = cfg->nports + 1;
		s.fb = model_fb_new(c, NULL);
		free(c);
		if (s.fb == NULL)
			goto out;
	}
	s.ports = calloc(cfg->nports, sizeof(*s.ports));
	if (s.ports == NULL)
		goto out;
	for (unsigned p = 0; p < cfg->nports; p++) {
		struct port *P = &s.ports[p];
		const struct model_port_config *c = &cfg->ports[p];
		P->c = c;
		P->fs_per_byte = (uint64_t)(8.0e15 / (double)c->speed_bps + 0.5);
		for (unsigned g = 0; g < MODEL_NUM_PG; g++)
			P->pfc[g].pause_start = UINT64_MAX;
		for (unsigned k = 0; k < c->n_ucq; k++)
			P->q[k].c = &c->ucq[k];
		for (unsigned k = 0; k < c->n_mcq; k++)
			P->q[8 + k].c = &c->mcq[k];
		for (unsigned k = 0; k < NSLOTS; k++)
			if (P->q[k].c != NULL && P->q[k].c->sched == MODEL_SCHED_DWRR)
				P->dw[P->ndw++] = k;
		for (size_t i = 0; i < npk[p]; i++) {
			struct ev e = {pk[p][i].t_ns, 1, p, i, 0};
			if (push(&s, e) < 0)
				goto out;
		}
	}
	while (s.nheap > 0) {
		struct ev e = pop(&s);
		s.now = e.t;
		if (e.kind == 0) {
			if (depart(&s, e.port) < 0 || start_tx(&s, e.port, 1) < 0)
				goto out;
		} else if (e.kind == 1) {
			if (offer(&s, &pk[e.port][e.seq]) < 0)
				goto out;
		} else if (release_held(&s, e.pg) < 0) {
			goto out;
		}
	}
	rc = 0;
out:
	model_iarb_free(s.ia);
	model_fb_free(s.fb);
	for (unsigned p = 0; s.ports != NULL && p < cfg->nports; p++) {
		for (unsigned k = 0; k < NSLOTS; k++)
			free(s.ports[p].q[k].v);
		for (unsigned g = 0; g < MODEL_NUM_PG; g++)
			for (struct held *h = s.ports[p].pfc[g].hold, *n; h != NULL; h = n) {
				n = h->next;
				free(h);
			}
	}
	free(s.ports);
	free(s.heap);
	return rc;
}
