/*
 * model.c - the switch model engine's per-packet path: the calendar of
 * the ports' events, arrival, admission, queueing, scheduling,
 * transmission, drops and their events, and the run loop with its entry
 * points.  The engine's colder parts are files of their own (see
 * model_engine.h, which they share): the heaps (model_heap.c), the merge
 * of the sources into the arrival stream (model_arrival.c), the marker
 * tick (model_tick.c), building the model (model_setup.c), the drop
 * causes (model_drop.c); telemetry reads are in model_telem.c.
 *
 * Events: each entity has at most one pending event: a port (end of the
 * transmission in progress), a (port, PG) sender (release of packets
 * held by PFC), and the background marker-refresh tick; and arrivals.
 * The ports' events live in a calendar of 1-ns buckets, the PFC releases
 * in a 4-ary heap (model_heap.c); the tick is a counter with a time
 * (model_tick.c); the sources' packets are merged, a round at a time,
 * into one stream in arrival order (model_arrival.c).  Ties go by the
 * documented rule (model.h), so runs are deterministic.
 * Per packet the engine takes one arrival from the stream and inserts and
 * takes one calendar event, its departure; packet records come from a
 * free-list pool that grows in chunks and is never shrunk.  One loop (run_loop) serves
 * every entry point, with the dispatch inlined in it: the whole path of a
 * unicast packet (arrival, admission, enqueue, departure, the next
 * transmission) is inline there, and what is rarer (multicast, drops,
 * sampling, PFC, events, the trace, DWRR) is in functions of its own, so
 * that the common path stays short.
 *
 * Memory layout: what one packet touches is packed into few cache lines
 * (model_int.h says which): per port a line for its egress side and one
 * for its ingress side, each with the interface counters a packet moves
 * there; per PG one line; per queue three; a packet record is one line.
 * While an event runs, the lines of the next port event and of the next
 * arrival are prefetched (prefetch_port, prefetch_arrival).  A buffer
 * object's peak bookkeeping beyond cur/run and its per-window peaks
 * (struct mpeak_c), a queue's histogram and drop counters
 * (struct mqcold, for the queues that exist only) and its per-window delay
 * figures are in arrays of their own; a departure increments its queue's
 * histogram bucket there directly.  The arrays model_new sizes are one
 * block, and the sources' array another, in huge pages where the system
 * gives them (hugemem.h), so that a packet's lines are in a few pages.
 * Queue events (model_set_queue_events) and the trace cost a queue that
 * did not ask for them one test of a flag byte in a line the packet reads
 * anyway.
 *
 * Packet life: arrival (last bit in) -> forwarding drop? -> ingress
 * admission (device, PG min/shared/headroom, ingress pool) -> egress
 * admission per copy (length limit, WRED, queue min/shared, egress pool)
 * -> queue -> selected by the port scheduler -> departs when its last bit
 * has been sent, (len + overhead) * 8 / speed after transmission began.
 * The packet in transmission stays at the head of its queue and in the
 * buffer until it has departed.
 *
 * A change made for speed lands only with a measured gain of at least
 * 1 % in make bench-ab (this build against the one before it) and the
 * safety net green (agent/model/tests/README: test_golden and the
 * reference runs); the commit says both.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/model/model_engine.h"

#define FS_PER_NS  1000000ULL
#define CHUNK_RECS 1024

enum { EV_REL = 2 }; /* heap event ids: type, index */
#define EV_ID(type, idx) (((uint32_t)(type) << 28) | (uint32_t)(idx))
#define EV_IDX(id)	 ((id)&0x0fffffffu)

/* struct mqueue qev: set in every queue while a trace callback is set */
#define QEV_TRACE 0x80u
_Static_assert(((MODEL_QEV_ENQUEUE | MODEL_QEV_DEQUEUE) & QEV_TRACE) == 0, "QEV_TRACE bit");
_Static_assert(((MODEL_QEV_ENQUEUE | MODEL_QEV_DEQUEUE | QEV_TRACE) & (QEV_STATS | QEV_EARLY)) == 0,
	       "QEV_STATS, QEV_EARLY bits");

/* The compiler forgets how p was computed: it keeps p in a register
 * (or the stack) instead of recomputing it from its parts at each use,
 * which it does in the per-packet paths when registers are short. */
#define KEEP_REG(p) __asm__("" : "+r"(p))

/* ---------------------------------------------------------------- calendar (ports' events) */

/*
 * The ports' events (end of a transmission) live in a calendar: one
 * bucket per ns over a window of CAL_W ns starting at cbase (the time of
 * the last event taken from it; never after the clock, see cal_jump),
 * bucket t % CAL_W.  Port p is leaf p, with at most one event.  A bucket
 * is a list of leaves in increasing order (all at the same time), so equal
 * times go to the lower port, and a bitmap finds the next non-empty bucket
 * (cal_take clears a bucket's bit when it empties it), with a summary
 * word of its non-zero words, so that sparse
 * events (light loads) do not walk the empty words between them.
 * Events CAL_W ns or more ahead wait in a binary heap ("far") and move
 * into their bucket when the window reaches them.  The next event (pk_*)
 * is kept up to date: an insert before it replaces it, and a take asks
 * cal_scan only when it empties its bucket, so run_loop reads it
 * without a search, and arrivals cost the calendar nothing.  Inserting and
 * taking the next event cost a few instructions each, whatever the number
 * of leaves.  At equal times ports go before arrivals (run_loop); the
 * rare events (PFC releases) use the 4-ary heap (model_heap.c), the
 * marker tick its own time (model_tick.c); at equal times they go after ports and arrivals,
 * by insertion number.
 */

/* 1 << i: a load is cheaper than a shift by a variable count for the
 * two bits a calendar insert sets. */
#define BIT4(i)	 1ULL << (i), 1ULL << ((i) + 1), 1ULL << ((i) + 2), 1ULL << ((i) + 3)
#define BIT16(i) BIT4(i), BIT4((i) + 4), BIT4((i) + 8), BIT4((i) + 12)
static const uint64_t bit64[64] = {BIT16(0), BIT16(16), BIT16(32), BIT16(48)};
#undef BIT16
#undef BIT4

static inline void cal_link(struct model *m, uint64_t t, uint32_t leaf)
{
	uint32_t b = (uint32_t)(t & CAL_MASK);
	uint32_t h = m->cal_head[b];
	/* its bit, and its word's: set already if the bucket holds a leaf,
	 * set again without a test (under load a bucket is as often empty
	 * as not, a branch no predictor learns) */
	m->cal_bits[b >> 6] |= bit64[b & 63];
	m->cal_sum |= bit64[b >> 6];
	/* the link to change: the bucket's head, or (as likely under load)
	 * the next of a lower head (CAL_NONE, an empty bucket or a list's
	 * end, is above every leaf): a select, with masks (GCC makes a
	 * branch of the plain ternary); only a second lower leaf walks on */
	uintptr_t k = (uintptr_t)0 - (uintptr_t)(h < leaf);
	uint32_t *p = (uint32_t *)(((uintptr_t)&m->cal_next[h & (uint32_t)k] & k) |
				   ((uintptr_t)&m->cal_head[b] & ~k));
	if (__builtin_expect(*p < leaf, 0)) {
		do
			p = &m->cal_next[*p];
		while (*p < leaf);
	}
	m->cal_next[leaf] = *p;
	*p = leaf;
}

static void far_push(struct model *m, uint64_t t, uint32_t leaf)
{
	model_tk_push(m->far, &m->nfar, t, leaf);
	m->far_t = m->far[0].t;
}

static void far_pop(struct model *m)
{
	model_tk_pop(m->far, &m->nfar);
	m->far_t = m->nfar > 0 ? m->far[0].t : UINT64_MAX;
}

/* Move the far events that the window [cbase, cbase + CAL_W) now reaches
 * into their buckets. */
static void far_migrate(struct model *m)
{
	while (m->far_t - m->cbase < CAL_W) {
		struct mtk e = m->far[0];
		far_pop(m);
		cal_link(m, e.t, e.id);
	}
}

/* The next port event is a far one (pk_b CAL_FAR): run_loop takes the
 * careful path at its time (for cal_jump; stop_t may stay that low when
 * an insert replaces it: the careful path then sets it again). */
static __attribute__((noinline, cold)) void far_stop(struct model *m)
{
	stop_lower(m, m->pk_t);
}

/* Schedule leaf at t >= now (it has no event now). */
static inline __attribute__((always_inline)) void cal_insert(struct model *m, uint64_t t,
							     uint32_t leaf)
{
	if (__builtin_expect(t - m->cbase >= CAL_W, 0)) {
		far_push(m, t, leaf);
		/* the next event if the window is empty and it is the first
		 * far one */
		if (m->pk_leaf == CAL_NONE || (m->pk_b == CAL_FAR && t < m->pk_t)) {
			m->pk_t = t;
			m->pk_leaf = leaf;
			m->pk_b = CAL_FAR;
			far_stop(m);
		}
		return;
	}
	cal_link(m, t, leaf);
	/* the next event if before the one known (an empty calendar's
	 * time is UINT64_MAX); at equal times the lower leaf heads the
	 * bucket */
	if (t < m->pk_t || (t == m->pk_t && leaf < m->pk_leaf)) {
		m->pk_t = t;
		m->pk_leaf = leaf;
		m->pk_b = (uint32_t)(t & CAL_MASK);
	}
}

/* The calendar's next event (pk_*), its window's first bucket (time
 * cbase) being empty: its time and leaf, and in pk_b its bucket for
 * cal_take, or CAL_FAR when the window is empty and the event is the
 * first far one (for cal_jump; the window does not move here, since the
 * event may not be the next to run: an arrival or a stop may come first,
 * and events inserted then must not be before the window); none: pk_t
 * UINT64_MAX, pk_leaf CAL_NONE. */
static inline void cal_scan(struct model *m)
{
	uint32_t b0, w, b, lc;
	uint64_t bits;
	b0 = (uint32_t)(m->cbase & CAL_MASK);
	w = b0 >> 6;
	bits = m->cal_bits[w] & (~0ULL << (b0 & 63));
	while (bits == 0) {
		/* word w has nothing left at or after the scan: the next word
		 * with a bit after it, going round (back at word b0 >> 6, only
		 * its bits below b0 can be left: the latest times of the
		 * window), from the summary */
		if (m->cal_bits[w] == 0)
			m->cal_sum &= ~(1ULL << w);
		uint64_t s = m->cal_sum;
		if (__builtin_expect(s == 0, 0)) {
			/* the window is empty: the first far event, in bucket
			 * CAL_FAR (cal_jump makes it the next) */
			if (m->nfar == 0) {
				m->pk_t = UINT64_MAX;
				m->pk_leaf = CAL_NONE;
				m->pk_b = 0;
				return;
			}
			m->pk_b = CAL_FAR;
			m->pk_t = m->far_t;
			m->pk_leaf = m->far[0].id; /* (not the order's) */
			far_stop(m);
			return;
		}
		uint32_t r = (w + 1) & (CAL_W / 64 - 1);
		s = (s >> r) | (s << ((64 - r) & 63));
		w = (r + (uint32_t)__builtin_ctzll(s)) & (CAL_W / 64 - 1);
		bits = m->cal_bits[w];
	}
	/* a bucket's bit is set while it holds a leaf (cal_link, cal_take) */
	b = (w << 6) | (uint32_t)__builtin_ctzll(bits);
	lc = m->cal_head[b];
	m->pk_b = b;
	m->pk_t = m->cbase + ((b - b0) & CAL_MASK);
	m->pk_leaf = lc;
}

/* The calendar's next event (pk_*), as cal_scan finds it. */
static inline void cal_next_event(struct model *m)
{
	/* events are dense (several per ns under load): mostly the bucket
	 * of the window's start, time cbase, still holds one */
	uint32_t bc = (uint32_t)(m->cbase & CAL_MASK), lc = m->cal_head[bc];
	if (__builtin_expect(lc != CAL_NONE, 1)) {
		m->pk_b = bc;
		m->pk_t = m->cbase;
		m->pk_leaf = lc;
		return;
	}
	cal_scan(m);
}

/* The window is empty and its first event, far (cal_scan), is the next
 * event to run (nothing else comes before it): the window jumps to it. */
static __attribute__((noinline)) void cal_jump(struct model *m)
{
	m->cbase = m->far_t;
	far_migrate(m);
	cal_next_event(m);
}

/* Remove the next event (pk_*: time t, leaf, bucket b); the window
 * moves up to its time t, and the next event is found.  Whether the
 * bucket holds another leaf is as likely as not under load, so one path
 * serves both: the bucket's bit goes only if it is now empty (a select),
 * and the first bit at or after b in its word is b again (the next leaf,
 * at t) or a later bucket's; only a word with none left asks cal_scan. */
static inline void cal_take(struct model *m, uint64_t t, uint32_t leaf, uint32_t b)
{
	uint32_t nx = m->cal_next[leaf];
	uint64_t bit = bit64[b & 63];
	m->cal_head[b] = nx;
	uint64_t word = m->cal_bits[b >> 6] & ~(nx == CAL_NONE ? bit : 0);
	m->cal_bits[b >> 6] = word;
	/* the window moves (and may reach far events: none while cbase
	 * stays, see far_migrate) */
	m->cbase = t;
	if (__builtin_expect(m->far_t - t < CAL_W, 0)) {
		far_migrate(m);
		cal_next_event(m);
		return;
	}
	/* b's bit if it still holds a leaf, and those after it: times t ...
	 * within the window */
	uint64_t rest = word & (0 - bit);
	if (__builtin_expect(rest != 0, 1)) {
		uint32_t nb = (b & ~63u) | (uint32_t)__builtin_ctzll(rest);
		m->pk_b = nb;
		m->pk_t = t + (nb - b);
		m->pk_leaf = m->cal_head[nb];
	} else {
		cal_scan(m);
	}
}

/* --------------------------------------------------------- rare events (the heap: model_heap.c) */

/* Schedule heap event `id` at t >= now (each entity has at most one
 * event). */
static void schedule(struct model *m, uint64_t t, uint32_t id)
{
	/* The heap event being dispatched (still at the root until its
	 * handler returns) takes the root's place again: one sift-down
	 * instead of a pop and a push.  Events pushed during a dispatch are
	 * never before the root (t >= now, later insertion number). */
	if (m->in_dispatch && id == m->cur_id) {
		m->resched = 1;
		m->resched_t = t;
		return;
	}
	model_heap_push(m, t, id);
}

/* ---------------------------------------------------------------- pool */

/* The free list is empty: a new chunk of records (NULL: out of memory). */
static __attribute__((noinline)) struct mpkt *pkt_grow(struct model *m)
{
	struct mchunk *c = aligned_alloc(MODEL_LINE, sizeof(*c) + CHUNK_RECS * sizeof(struct mpkt));
	if (c == NULL)
		return NULL;
	c->next = m->chunks;
	m->chunks = c;
	for (unsigned i = 0; i < CHUNK_RECS - 1; i++)
		c->recs[i].next = &c->recs[i + 1];
	c->recs[CHUNK_RECS - 1].next = NULL;
	return &c->recs[0];
}

static inline struct mpkt *pkt_alloc(struct model *m)
{
	struct mpkt *p = m->free_list;
	if (__builtin_expect(p == NULL, 0)) {
		p = pkt_grow(m);
		if (p == NULL)
			return NULL;
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

/* Growth of an object's shared use (occupancy above min) when it takes
 * c more cells at occupancy cur.  At the bench's load most queues and
 * PGs stay within their minimum (no growth), the case tested first. */
static inline uint32_t shared_grow(uint32_t cur, uint32_t c, uint32_t min)
{
	if (__builtin_expect((uint64_t)cur + c <= min, 1))
		return 0;
	return cur >= min ? c : cur + c - min;
}

/* Shrink of its shared use when it gives back c of its cur cells. */
static inline uint32_t shared_shrink(uint32_t cur, uint32_t c, uint32_t min)
{
	if (__builtin_expect(cur <= min, 1))
		return 0;
	return cur - c >= min ? c : cur - min;
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
	    q->dyn ? dyn_limit(q->alpha, m->cfg.egr_pool_cells[q->pool], m->ep_pk[q->pool].cur)
		   : q->lim_cells;
	uint64_t a = (uint64_t)q->min_cells + lim;
	return a > UINT32_MAX ? UINT32_MAX : (uint32_t)a;
}

uint32_t model_pg_alloc(const struct model *m, const struct mpg *g)
{
	uint32_t lim =
	    g->dyn ? dyn_limit(g->alpha, m->cfg.ing_pool_cells[g->pool], m->ip_pk[g->pool].cur)
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
		uint32_t used = egress ? m->ep_pk[i].cur : m->ip_pk[i].cur;
		a += s->alpha[i] * (double)sat_sub(pool, used);
	}
	return a >= 4294967295.0 ? UINT32_MAX : (uint32_t)a;
}

/* ---------------------------------------------------------------- peaks */

/* An object takes a packet's charge inc (struct mpkt): is its cells
 * count now above its peak run? */
static inline int pk_add(struct mpeak *k, uint64_t inc)
{
	k->cb += inc;
	return k->cb > k->run_top;
}

static inline void pk_sub(struct mpeak *k, uint64_t inc)
{
	k->cb -= inc;
}

/* Its occupancy is its new peak run. */
static inline void pk_run(const struct model *m, struct mpeak *k, uint64_t now, uint32_t alloc)
{
	k->run_top = k->cb | m->occ_mask;
	mpeak_c_run(k->c, occ_bytes(m, k->cb), now, alloc);
}

/* A pool's shared use grows by d cells (its bytes are cells x
 * cell_bytes, set at a new peak and by the reads). */
static inline void pool_add(const struct model *m, struct mpool *k, uint32_t d, uint64_t now,
			    uint32_t alloc)
{
	k->cur += d;
	if (k->cur > k->run) {
		k->run = k->cur;
		mpeak_c_run(k->c, (uint64_t)k->cur * m->cfg.cell_bytes, now, alloc);
	}
}

/* The growth of an object's shared use (above its minimum) when it takes
 * a packet: cb its occupancy before, inc the packet's charge (c cells),
 * min_top its minimum as in struct mqueue.  cb + inc <= min_top: within
 * the minimum after it (the bytes never carry into the cells while the
 * cells are within the buffer; beyond it a carry only adds). */
static __attribute__((noinline)) uint32_t grow_beyond(const struct model *m, uint64_t cb,
						      uint64_t inc, const uint32_t *min)
{
	return shared_grow(occ_cells(m, cb), occ_cells(m, inc), *min);
}

static inline uint32_t grow_of(const struct model *m, uint64_t cb, uint64_t inc, uint64_t min_top,
			       const uint32_t *min)
{
	if (__builtin_expect(cb + inc <= min_top, 1))
		return 0;
	return grow_beyond(m, cb, inc, min);
}

/* The shrink of its shared use when it gives back a packet's charge. */
static __attribute__((noinline)) uint32_t shrink_beyond(const struct model *m, uint64_t cb,
							uint64_t inc, const uint32_t *min)
{
	return shared_shrink(occ_cells(m, cb), occ_cells(m, inc), *min);
}

static inline uint32_t shrink_of(const struct model *m, uint64_t cb, uint64_t min_top, uint64_t inc,
				 const uint32_t *min)
{
	if (__builtin_expect(cb <= min_top, 1))
		return 0;
	return shrink_beyond(m, cb, inc, min);
}

/* ------------------------------------------------------------- events (the ring) and the trace */

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

/* The IP header's ECN field in header bytes h (n of them: Ethernet, one
 * optional 802.1Q tag) becomes ecn, with the IPv4 checksum updated
 * (RFC 1624); nothing if there is no whole IP header. */
static void hdr_set_ecn(uint8_t *h, uint32_t n, unsigned ecn)
{
	uint32_t off = 12;
	if (n < 14)
		return;
	unsigned et = (unsigned)h[off] << 8 | h[off + 1];
	if (et == 0x8100 && n >= 18) {
		off += 4;
		et = (unsigned)h[off] << 8 | h[off + 1];
	}
	off += 2;
	if (et == 0x0800 && n >= off + 20 && (h[off] >> 4) == 4) {
		uint8_t *ip = h + off;
		unsigned old = (unsigned)ip[0] << 8 | ip[1];
		unsigned nw = (old & ~3u) | ecn;
		/* HC' = ~(~HC + ~m + m') */
		uint32_t sum =
		    (uint32_t)(~((unsigned)ip[10] << 8 | ip[11]) & 0xffff) + (~old & 0xffff) + nw;
		sum = (sum & 0xffff) + (sum >> 16);
		sum = (sum & 0xffff) + (sum >> 16);
		ip[1] = (uint8_t)nw;
		ip[10] = (uint8_t)(~sum >> 8);
		ip[11] = (uint8_t)~sum;
	} else if (et == 0x86dd && n >= off + 40 && (h[off] >> 4) == 6) {
		/* traffic class: the low nibble of byte 0, the high one of byte 1;
		 * ECN its two low bits, bits 5-4 of byte 1 */
		h[off + 1] = (uint8_t)((h[off + 1] & ~0x30u) | ecn << 4);
	}
}

/* The header bytes of event e from packet (body) b, whose copy's ECN
 * field is ecn (a copy WRED marked CE shows CE). */
static void ev_hdr(struct model *m, struct model_event *e, const struct mpkt *b, unsigned ecn)
{
	const uint8_t *h = b->hdr != NULL ? b->hdr : model_src_header(m, b);
	uint32_t n = b->hdr_len;
	if (n > m->cfg.event_hdr_bytes)
		n = m->cfg.event_hdr_bytes;
	if (h == NULL)
		n = 0;
	if (n > 0)
		memcpy(e->hdr, h, n);
	/* a source's zero payload (pkt.h), up to the frame's 4-byte FCS */
	if (n > 0 && m->srcs[b->src].src.zero_payload && n < m->cfg.event_hdr_bytes &&
	    n + 4 < b->len) {
		uint32_t end =
		    b->len - 4 < m->cfg.event_hdr_bytes ? b->len - 4 : m->cfg.event_hdr_bytes;
		memset(e->hdr + n, 0, end - n);
		n = end;
	}
	e->hdr_len = (uint16_t)n;
	e->ecn = (uint8_t)ecn;
	if (ecn == MODEL_ECN_CE)
		hdr_set_ecn(e->hdr, n, ecn);
}

/* The trace callback for packet (body) b: departed or dropped now. */
static void call_trace(struct model *m, const struct mpkt *b, int departed, unsigned cause,
		       unsigned queue, int mc, unsigned out_port, uint32_t depth, int64_t nt,
		       unsigned ecn)
{
	struct model_trace tr = {0};
	tr.ecn = (uint8_t)ecn;
	tr.departed = (uint8_t)departed;
	tr.cause = (uint8_t)cause;
	tr.queue = (uint8_t)queue;
	tr.mc = (uint8_t)mc;
	tr.in_port = b->in_port;
	tr.out_port = (uint16_t)out_port;
	tr.len = b->len;
	tr.flow_id = b->flow_id;
	tr.t_arr_ns = b->t_arr;
	tr.t_ns = m->now;
	tr.depth_bytes = depth;
	tr.nt_latency_ns = nt;
	tr.tc = b->tc;
	tr.pg = b->pg;
	m->trace(m->trace_arg, &tr);
}

/* Packet b, marked for sampling, is dropped (reason, out_port, slot and
 * depth as for its drop event): its sample event carries the reason, so
 * that every marked packet is reported (sFlow: output format 1,
 * discarded). */
static __attribute__((noinline, cold)) void sample_dropped(struct model *m, const struct mpkt *b,
							   unsigned reason, unsigned out_port,
							   unsigned slot, uint32_t depth)
{
	struct model_event *e = ev_slot(m);
	m->ports[b->in_port].ctr.samples_dropped++;
	if (e == NULL) {
		m->ports[b->in_port].ctr.samples_lost++;
		return;
	}
	e->type = MODEL_EV_SAMPLE;
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
	e->copy_id = (b->flags & MP_MC) ? m->mc_seq : 0;
	ev_hdr(m, e, b, model_tos_ecn(b->tos));
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
		if (slot != MODEL_QUEUE_NONE)
			e->tail_id = m->ports[out_port].q[slot].enq_cnt;
		e->copy_id = (b->flags & MP_MC) ? m->mc_seq : 0;
		ev_hdr(m, e, b, model_tos_ecn(b->tos));
	}
	/* a drop by the flow-based admission: its region (and the figures
	 * are taken, the ring full or not) */
	if (__builtin_expect(m->fb_last.fb_drop, 0))
		model_ext_drop_note(m, e);
	if ((b->flags & MP_SAMPLE) && !(b->flags & MP_MC && slot != MODEL_QUEUE_NONE))
		sample_dropped(m, b, reason, out_port, slot, depth);
	if (m->cdrops != NULL) { /* model_track_queues */
		m->cdrops[b->in_port].pg[b->pg & (MODEL_NUM_PG - 1)]++;
		m->cdrops[b->in_port].tc[b->tc & (MODEL_NUM_TC - 1)]++;
	}
	if (m->trace != NULL)
		call_trace(m, b, 0, cause, slot == MODEL_QUEUE_NONE ? MODEL_QUEUE_NONE : slot & 7,
			   (b->flags & MP_MC) != 0, out_port, depth, -1, model_tos_ecn(b->tos));
}

/* A queue's depth in bytes, as events and traces carry it. */
static inline uint32_t depth32(const struct model *m, const struct mqueue *q)
{
	uint64_t b = occ_bytes(m, q->pk.cb);
	return (uint32_t)(b > UINT32_MAX ? UINT32_MAX : b);
}

/* An event about copy cp (of body b) in slot s of port `port`: the
 * fields every per-copy event has; NULL if the ring is full. */
static struct model_event *ev_copy(struct model *m, unsigned type, const struct mpkt *b,
				   const struct mpkt *cp, unsigned port, unsigned s, uint64_t delay,
				   uint32_t depth)
{
	struct model_event *e = ev_slot(m);
	if (e == NULL)
		return NULL;
	e->type = (uint8_t)type;
	e->t_ns = m->now;
	e->in_port = b->in_port;
	e->out_port = (uint16_t)port;
	e->queue = (uint8_t)(s & 7);
	e->mc = s >= MQ_MC;
	e->tc = b->tc;
	e->pg = b->pg;
	e->delay_ns = delay;
	e->depth_bytes = depth;
	e->len = b->len;
	e->flow_id = b->flow_id;
	e->copy_id = cp != b ? cp->copy_id : 0;
	ev_hdr(m, e, b, model_tos_ecn(cp->tos));
	return e;
}

/* A per-queue packet event (MODEL_EV_ENQUEUE / _DEQUEUE); kept out of
 * the hot path. */
static __attribute__((noinline, cold)) void qev_note(struct model *m, unsigned type,
						     const struct mpkt *b, const struct mpkt *cp,
						     unsigned port, unsigned s, uint64_t id,
						     uint64_t delay)
{
	struct model_event *e =
	    ev_copy(m, type, b, cp, port, s, delay, depth32(m, &m->ports[port].q[s]));
	if (e != NULL)
		e->pkt_id = id;
}

/* model_track_queues: copy cp of body b enters slot s of `port` now,
 * after its arrival time (ingress arbitration): its head start, which
 * the departure's bytes x sojourn counts but the queue did not hold. */
static __attribute__((noinline, cold)) void
q_early(struct model *m, const struct mpkt *b, const struct mpkt *cp, unsigned port, unsigned s)
{
	qcold(m, port, s)->early +=
	    (unsigned __int128)(cp->inc & m->occ_mask) * (m->now - b->t_arr);
}

/* model_track_queues: a copy of `bytes` left slot s of `port` after soj
 * ns in it: its share of the occupancy integral, its sojourn's bucket. */
static __attribute__((noinline)) void q_departed(struct model *m, unsigned port, unsigned s,
						 uint64_t bytes, uint64_t soj)
{
	struct mqstat *st = &m->qstat[qindex(&m->ports[port], s)];
	uint64_t *c = st->c;
	st->dep += (unsigned __int128)bytes * soj;
	if (__builtin_expect(c == NULL, 0)) {
		if (st->c_failed)
			return;
		/* calloc: the pages of buckets never used are never touched */
		c = st->c = calloc(MODEL_SOJ_NB, sizeof(*c));
		if (c == NULL) {
			st->c_failed = 1;
			m->soj_missing++;
			return;
		}
	}
	unsigned k = model_soj_bucket(soj);
	c[k]++;
	st->n++;
	if (soj > st->max)
		st->max = soj;
	if (soj > st->max_w)
		st->max_w = soj;
	if (k < st->lo)
		st->lo = k;
	if (k > st->hi)
		st->hi = k;
}

/* An enqueue's rare notes: its head start, its queue event. */
static __attribute__((noinline, cold)) void
enq_notes(struct model *m, const struct mpkt *b, const struct mpkt *cp, unsigned port, unsigned s)
{
	const struct mqueue *q = &m->ports[port].q[s];
	if (q->qev & QEV_EARLY)
		q_early(m, b, cp, port, s);
	if (q->qev & MODEL_QEV_ENQUEUE)
		qev_note(m, MODEL_EV_ENQUEUE, b, cp, port, s, q->enq_cnt, 0);
}

/* ---------------------------------------------------------------- ingress admission, PFC */

/* Is shared use `after` within a limit: static (lim_cells) or dynamic,
 * alpha * the free cells of a pool of `pool` cells with `used` in use?
 * With alpha >= 1 anything up to the free cells is, without the
 * multiplication. */
static inline int lim_ok(uint8_t dyn, double alpha, uint32_t lim_cells, uint32_t after,
			 uint32_t pool, uint32_t used)
{
	if (!dyn)
		return after <= lim_cells;
	if (alpha >= 1.0 && after <= sat_sub(pool, used))
		return 1;
	return after <= dyn_limit(alpha, pool, used);
}

/* Would a PG take a packet's charge inc (its c cells, found only when
 * needed) in min + shared?  *grow gets the growth of its shared use
 * (for charge_ingress). */
static inline int pg_fits(const struct model *m, const struct mpg *g, uint64_t inc, uint32_t *grow)
{
	uint32_t d = grow_of(m, g->pk.cb, inc, g->min_top, &g->min_cells);
	*grow = d;
	if (d == 0)
		return 1;
	uint32_t pool = m->cfg.ing_pool_cells[g->pool], used = m->ip_pk[g->pool].cur;
	/* d > 0: the shared use after it is cur + c - min */
	return lim_ok(g->dyn, g->alpha, g->lim_cells,
		      occ_cells(m, g->pk.cb) + occ_cells(m, inc) - g->min_cells, pool, used) &&
	       (uint64_t)used + d <= pool;
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

/* A lossless PG without XOFF out took cells: send XOFF if it is now
 * above its XOFF threshold (or, with none, uses headroom). */
static __attribute__((noinline)) void xoff_test(struct model *m, struct mport *P, struct mpg *g,
						unsigned pg)
{
	uint32_t shared = sat_sub(occ_cells(m, g->pk.cb), g->min_cells);
	if ((g->xoff > 0 && shared >= g->xoff) ||
	    (g->xoff == 0 && occ_cells(m, g->pk_hdrm.cb) > 0)) {
		g->xoff_state = 1;
		g->pause_start = m->now + P->pfc_delay;
		g->pause_end = UINT64_MAX;
		P->ctr.pfc_xoff[pg]++;
		pfc_event(m, (unsigned)(P - m->ports), pg, 1);
	}
}

static inline __attribute__((always_inline)) void charge_ingress(struct model *m, struct mport *P,
								 struct mpg *g, struct mpkt *b,
								 uint32_t d, int mc, int hd)
{
	uint64_t inc = b->inc;
	uint64_t now = m->now;
	/* hd 0: not in the headroom (a constant where this is inlined) */
	if (hd != 0 && (b->flags & MP_HDRM)) { /* set by arrive: into the headroom */
		if (pk_add(&g->pk_hdrm, inc))
			pk_run(m, &g->pk_hdrm, now, g->headroom);
	} else {
		/* d: the growth of its shared use (pg_fits); its pool's use is
		 * still the one before this packet */
		if (pk_add(&g->pk, inc))
			pk_run(m, &g->pk, now,
			       g->min_cells +
				   (g->dyn ? dyn_limit(g->alpha, m->cfg.ing_pool_cells[g->pool],
						       m->ip_pk[g->pool].cur)
					   : g->lim_cells));
		if (d != 0)
			pool_add(m, &m->ip_pk[g->pool], d, now, m->cfg.ing_pool_cells[g->pool]);
	}
	/* mc: a constant where this is inlined, (b->flags & MP_MC) != 0 */
	struct mpeak *ip = mc ? &P->ing_mc : &P->ing_uc;
	if (pk_add(ip, inc))
		pk_run(m, ip, now, model_sum_alloc(m, &P->sum_pg, 0));
	struct mpeak *dp = mc ? &m->dev_mc : &m->dev_uc;
	if (pk_add(dp, inc))
		pk_run(m, dp, now, m->cfg.total_cells);
	m->st.pkts_buffered++;
	if (g->lossless && !g->xoff_state)
		xoff_test(m, P, g, b->pg);
}

/* A PG with XOFF out fell to its XON threshold: send XON; the sender
 * restarts (its held packets) after the PFC delay. */
static __attribute__((noinline)) void xon_send(struct model *m, struct mport *P, struct mpg *g,
					       unsigned pg)
{
	unsigned port = (unsigned)(P - m->ports);
	g->xoff_state = 0;
	/* (XOFF went out pfc_delay before the pause it started) */
	P->ctr.pfc_xoff_ns[pg] += m->now - (g->pause_start - P->pfc_delay);
	g->pause_end = m->now + P->pfc_delay;
	if (g->pause_end < g->pause_start)
		g->pause_end = g->pause_start;
	pfc_event(m, port, pg, 0);
	if (g->hold_head != NULL && !g->rel_armed) {
		g->rel_armed = 1;
		schedule(m, g->pause_end, EV_ID(EV_REL, port * MODEL_NUM_PG + pg));
	}
}

/* The last copy of body b departed: give back its ingress charge (mc:
 * a constant where this is inlined, (b->flags & MP_MC) != 0, or -1 for
 * a unicast packet without MP_HDRM). */
static inline __attribute__((always_inline)) void release_ingress(struct model *m, struct mpkt *b,
								  int mc)
{
	struct mport *P = &m->ports[b->in_port];
	struct mpg *g = &P->pg[b->pg];
	KEEP_REG(g);
	uint64_t inc = b->inc;
	/* mc < 0: a unicast packet known not to be in the headroom */
	if (mc >= 0 && (b->flags & MP_HDRM)) {
		pk_sub(&g->pk_hdrm, inc);
	} else {
		uint32_t d = shrink_of(m, g->pk.cb, g->min_top, inc, &g->min_cells);
		pk_sub(&g->pk, inc);
		if (d != 0)
			m->ip_pk[g->pool].cur -= d;
	}
	pk_sub(mc > 0 ? &P->ing_mc : &P->ing_uc, inc);
	pk_sub(mc > 0 ? &m->dev_mc : &m->dev_uc, inc);
	m->st.pkts_buffered--;
	if (g->xoff_state && g->pk_hdrm.cb == 0 &&
	    sat_sub(occ_cells(m, g->pk.cb), g->min_cells) <= g->xon)
		xon_send(m, P, g, b->pg);
}

/* ------------------------------------------- egress: admission, queues, scheduler, transmission */

static void start_tx(struct model *m, struct mport *P, unsigned port, int back_to_back);

/* What a DWRR queue's head costs its deficit: its frame bytes, or with
 * dwrr_wire also the port's preamble and gap (overhead_bytes). */
static inline int64_t dwrr_cost(const struct mport *P, const struct mpkt *h)
{
	return (int64_t)h->len + P->dwrr_over;
}

/* Rounds in which no ready DWRR queue can send (each would get its
 * quantum and still be short) are skipped at once: the round robin is
 * back at the queue it started from, and each ready queue has gained
 * one quantum per round.  k - 1 such rounds, k the fewest rounds any
 * ready queue needs, change nothing but the deficits (an empty queue's
 * is 0 already, a paused one keeps its own), so they are added in one
 * step; the next round serves the same queue as k rounds one by one
 * would.  Without it a frame needing many quanta (64-byte quanta and
 * jumbo frames: 250 rounds) would cost as many visits. */
static __attribute__((noinline)) void dwrr_skip_rounds(struct mport *P, uint16_t ready)
{
	int64_t k = INT64_MAX;
	for (unsigned i = 0; i < P->ndwrr; i++) {
		const struct mqueue *q = &P->q[P->dwrr_list[i]];
		if (!(ready & q->bit))
			continue;
		int64_t need = dwrr_cost(P, q->head) - q->deficit; /* > 0 */
		int64_t r = (need + q->quantum - 1) / q->quantum;
		if (r < k)
			k = r;
	}
	for (unsigned i = 0; i < P->ndwrr; i++) {
		struct mqueue *q = &P->q[P->dwrr_list[i]];
		if (ready & q->bit)
			q->deficit += (k - 1) * (int64_t)q->quantum;
	}
}

/* The DWRR group's pick of the ready slots (none strict priority). */
static int sched_pick_dwrr(struct mport *P, uint16_t ready)
{
	if (P->ndwrr == 0)
		return -1;
	/* DWRR: each visit to a backlogged queue adds its quantum once;
	 * idle counts the visits that began a queue's turn (its quantum
	 * added, or it was not ready) since a queue last sent: ndwrr of
	 * them are a whole round in which none could */
	unsigned idle = 0;
	for (;;) {
		unsigned s = P->dwrr_list[P->rr];
		struct mqueue *q = &P->q[s];
		if (!(ready & (1u << s))) {
			if (!(P->nonempty & (1u << s)))
				q->deficit = 0;
			P->rr = (uint8_t)((P->rr + 1) % P->ndwrr);
			P->rr_turn = 0;
			idle++;
			continue;
		}
		if (!P->rr_turn) {
			if (idle >= P->ndwrr) {
				dwrr_skip_rounds(P, ready);
				idle = 0;
			}
			q->deficit += q->quantum;
			P->rr_turn = 1;
			idle++;
		}
		int64_t cost = dwrr_cost(P, q->head);
		if (cost <= q->deficit) {
			q->deficit -= cost;
			return (int)s;
		}
		P->rr = (uint8_t)((P->rr + 1) % P->ndwrr);
		P->rr_turn = 0;
	}
}

/* Pick the next queue slot to serve, or -1. */
static inline int sched_pick(struct mport *P)
{
	uint16_t ready = P->nonempty & P->unpaused;
	if (ready == 0)
		return -1;
	/* strict priority: the highest class first, unicast q before
	 * multicast q, all SP queues before the DWRR group */
	uint16_t sp = P->nonempty & P->sp_run; /* ready & sp_mask */
	if (sp != 0) {
		if (sp < (1u << MQ_MC)) /* unicast queues only */
			return 31 - __builtin_clz(sp);
		unsigned uc = sp & 0xffu, mc = (unsigned)sp >> MQ_MC;
		unsigned top = 31u - (unsigned)__builtin_clz(uc | mc);
		return (uc >> top) & 1u ? (int)top : (int)(MQ_MC + top);
	}
	return sched_pick_dwrr(P, ready);
}

/* queue_checks' answer when WRED marks the copy CE instead of dropping
 * it (it has no drop cause then) */
#define QC_MARK 0x100u

/* A queue's packet limit and WRED, in this order (q->chk says which it
 * has), for a copy of ECN field ecn: the drop cause, or
 * MODEL_DROP_NCAUSES, or QC_MARK | MODEL_DROP_NCAUSES if WRED marks it
 * CE instead (model.h, struct model_wred_config).  WRED's average moves
 * at every copy offered, the packet limit's drops included. */
static __attribute__((noinline)) unsigned queue_checks(struct model *m, const struct mqueue *q,
						       struct mqcold *qc, unsigned ecn)
{
	double d = 0;
	if (q->chk & QCHK_WRED) {
		double qb = (double)occ_bytes(m, q->pk.cb);
		qc->wred_avg =
		    qc->wred_w == 0 ? qb : qc->wred_avg + (qb - qc->wred_avg) * qc->wred_w;
		d = qc->wred_avg;
	}
	if ((q->chk & QCHK_LIMIT) && q->enq_cnt - q->deq_cnt >= q->limit_pkts)
		return MODEL_DROP_EGR_LIMIT;
	if ((q->chk & QCHK_WRED) && d >= q->wred_min &&
	    (d >= q->wred_max || rng_unit(m) < q->wred_maxp * (d - q->wred_min) /
						   (double)(q->wred_max - q->wred_min))) {
		if (qc->wred_ecn && ecn != MODEL_ECN_NOT_ECT) /* (already CE: as it is) */
			return MODEL_DROP_NCAUSES | (ecn != MODEL_ECN_CE ? QC_MARK : 0);
		return MODEL_DROP_WRED;
	}
	return MODEL_DROP_NCAUSES;
}

/*
 * The marker of a queue (model_int.h mk_enqueue, mk_dequeue)
 * with what the queue itself knows (struct qmarker): its marker's tail is
 * always its last copy (id enq_cnt, enqueued at its body's arrival), it
 * has a tail and a marker exactly while it is not empty; and q->mk_max >=
 * q->mk.delay holds (every refresh folds it, a read sets both), so a
 * departure that leaves the delay as it was need not fold it.
 */
static inline void q_mk_enqueue(struct mqueue *q, uint64_t now)
{
	struct qmarker *mk = &q->mk;
	if (q->enq_cnt - q->deq_cnt == 1) { /* it was empty: no marker */
		mk->marker_id = q->enq_cnt;
		mk->marker_ts = now;
		mk->departed_delay = 0;
	}
}

/* Copy id departed from q (its head already taken off). */
static inline void q_mk_dequeue(struct mqueue *q, uint64_t id, uint64_t now)
{
	struct qmarker *mk = &q->mk;
	if (id == mk->marker_id) {
		if (q->head == NULL) {
			/* drained: the stored delay stays until the next
			 * refresh; departed_delay is set with the next marker */
			return;
		}
		const struct mpkt *tail =
		    (const struct mpkt *)(const void *)((char *)q->tailp -
							offsetof(struct mpkt, next));
		mk->departed_delay = mk->delay;
		mk->marker_id = q->enq_cnt;
		mk->marker_ts = mpkt_body(tail)->t_arr;
	}
	/* (the marker's time, an enqueue's or an arrival's, is not after
	 * now: the clock does not go back) */
	uint64_t d = now - mk->marker_ts;
	mk->delay = d > mk->departed_delay ? d : mk->departed_delay;
	if (mk->delay > q->mk_max)
		q->mk_max = mk->delay;
}

/* Egress admission drops a copy of body b headed for slot s of port
 * `port`, which had depth bytes. */
static __attribute__((noinline)) void copy_drop(struct model *m, const struct mpkt *b,
						unsigned port, unsigned s, unsigned cause,
						uint32_t depth)
{
	struct mport *P = &m->ports[port];
	m->st.copies_dropped++;
	qcold(m, port, s)->drops[cause]++;
	P->drop_out[cause]++;
	P->ctr.out_discards++;
	note_drop(m, b, cause, model_drop_reason(cause), port, s, depth);
}

/* WRED marks copy cp (in slot s of port `port`) CE. */
static __attribute__((noinline, cold)) void ecn_mark(struct model *m, struct mpkt *cp,
						     unsigned port, unsigned s)
{
	cp->tos |= MODEL_ECN_CE;
	qcold(m, port, s)->ecn_marked++;
	m->st.ecn_marked++;
}

static int enqueue_copy_chk(struct model *m, struct mpkt *b, unsigned port, unsigned s, int mc);

/* Admit one copy of body b to slot s of port `port`, or drop it; chk (a
 * constant where this is inlined): the queue has a packet limit or WRED
 * (q->chk), whose checks and ECN marking only enqueue_copy_chk's
 * instances carry, off the path of the queues without them. */
static inline __attribute__((always_inline)) int
enqueue_copy_k(struct model *m, struct mpkt *b, unsigned port, unsigned s, int mc, int chk)
{
	struct mport *P = &m->ports[port];
	struct mqueue *q = &P->q[s];
	KEEP_REG(q);
	if (!chk && __builtin_expect(q->chk, 0))
		return enqueue_copy_chk(m, b, port, s, mc);
	uint64_t inc = b->inc;
	uint64_t q_cb = q->pk.cb;
	uint32_t depth = depth32(m, q);
	if (!mc)
		b->depth_enq = depth; /* (the copy is b: stored at once, not kept
				       * in a register; unread if it is dropped) */
	unsigned cause = MODEL_DROP_NCAUSES;
	m->st.copies++;
	uint32_t d = grow_of(m, q_cb, inc, q->min_top, &q->min_cells);
	/* its pool's size and use (before this copy) are read where needed */
	unsigned mark = 0;
	if (chk) {
		cause = queue_checks(m, q, qcold(m, port, s), model_tos_ecn(b->tos));
		mark = cause & QC_MARK;
		cause &= ~QC_MARK;
	}
	if (cause == MODEL_DROP_NCAUSES && d != 0 &&
	    (!lim_ok(q->dyn, q->alpha, q->lim_cells,
		     occ_cells(m, q_cb) + occ_cells(m, inc) - q->min_cells,
		     m->cfg.egr_pool_cells[q->pool], m->ep_pk[q->pool].cur) ||
	     (uint64_t)m->ep_pk[q->pool].cur + d > m->cfg.egr_pool_cells[q->pool]))
		cause = MODEL_DROP_EGR_LIMIT;
	if (cause != MODEL_DROP_NCAUSES && !m->ports[b->in_port].pg[b->pg].lossless) {
		/* (a unicast packet's port and slot found again, not kept in
		 * registers) */
		copy_drop(m, b, mc ? port : b->out_port, mc ? s : (unsigned)(q - P->q), cause,
			  depth);
		return 0;
	}
	/* a copy from a lossless PG is never dropped at egress: ingress
	 * admission (its PG, headroom and PFC, the device) bounds it; its
	 * queue and egress pool may go beyond their limits (model.h) */
	struct mpkt *cp = b;
	if (mc) { /* a constant where this is inlined: (b->flags & MP_MC) != 0 */
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
		cp->inc = inc;
		cp->flags = b->flags & (uint8_t)~MP_SAMPLE;
		cp->copy_id = m->mc_seq;
		cp->out_port = (uint16_t)port; /* a unicast packet's is port */
		cp->tos = b->tos;
	}
	if (chk && __builtin_expect(mark, 0))
		ecn_mark(m, cp, port, s);
	if (mc)
		cp->depth_enq = depth;
	cp->next = NULL;
	if (mc)
		b->refs++;
	else
		b->refs = 1;
	/* charge */
	uint64_t now = m->now;
	if (pk_add(&q->pk, inc))
		pk_run(m, &q->pk, now,
		       q->min_cells + (q->dyn ? dyn_limit(q->alpha, m->cfg.egr_pool_cells[q->pool],
							  m->ep_pk[q->pool].cur)
					      : q->lim_cells));
	if (d != 0)
		pool_add(m, &m->ep_pk[q->pool], d, now, m->cfg.egr_pool_cells[q->pool]);
	if (mc && s >= MQ_MC) { /* unicast packets go to unicast queues */
		if (pk_add(&P->egr_mc, inc))
			pk_run(m, &P->egr_mc, now, model_sum_alloc(m, &P->sum_mc, 1));
	} else if (pk_add(&P->egr_uc, inc)) {
		pk_run(m, &P->egr_uc, now, model_sum_alloc(m, &P->sum_uc, 1));
	}
	*q->tailp = cp;
	q->tailp = &cp->next;
	P->nonempty |= q->bit;
	/* non-tagged latency: count only admitted packets */
	q->enq_cnt++;
	if (q->nt_start_cnt <= q->deq_cnt) { /* no packet is flagged */
		q->nt_start = now;
		q->nt_start_cnt = q->enq_cnt;
	}
	q_mk_enqueue(q, now);
	if (__builtin_expect(q->qev & (MODEL_QEV_ENQUEUE | QEV_EARLY), 0))
		enq_notes(m, b, cp, mc ? port : b->out_port, mc ? s : (unsigned)(q - P->q));
	arm_tick(m);
	return 1;
}

/* Admit one copy of body b to slot s of port `port`, or drop it (mc: a
 * constant where this is inlined, (b->flags & MP_MC) != 0). */
static inline __attribute__((always_inline)) int enqueue_copy(struct model *m, struct mpkt *b,
							      unsigned port, unsigned s, int mc)
{
	return enqueue_copy_k(m, b, port, s, mc, 0);
}

/* enqueue_copy_k for a queue with a packet limit or WRED. */
static __attribute__((noinline)) int enqueue_copy_chk(struct model *m, struct mpkt *b,
						      unsigned port, unsigned s, int mc)
{
	return mc ? enqueue_copy_k(m, b, port, s, 1, 1) : enqueue_copy_k(m, b, port, s, 0, 1);
}

/* Port P starts transmitting h, the head of its slot s: its end is
 * scheduled (back_to_back: right after the last one, with its fraction
 * of a ns; else the port was idle: at the ns its last transmission ended
 * the line is still busy for that fraction, so a start then begins after
 * it - without this, frames shorter than 1 ns on the wire (800G, < 80 B)
 * could leave faster than the line rate). */
static inline __attribute__((always_inline)) void tx_slot(struct model *m, struct mport *P,
							  unsigned port, unsigned s,
							  const struct mpkt *h, int back_to_back)
{
	uint64_t fs = (uint64_t)(h->len + P->overhead) * P->fs_per_byte;
	if (back_to_back) {
		fs += P->frac_fs; /* and busy is 1 already */
	} else {
		P->busy = 1;
		if (m->now == P->idle_ns)
			fs += P->frac_fs;
	}
	P->in_slot = (uint8_t)s;
	m->pf[port + 1] = (struct mpf){P, &P->q[s], h};
	P->frac_fs = (uint32_t)(fs % FS_PER_NS);
	cal_insert(m, m->now + fs / FS_PER_NS, port);
}

/* Start the next transmission on a port, or leave it idle: inline in the
 * per-packet paths (tx_done, a unicast arrival at an idle port), through
 * start_tx elsewhere. */
static inline __attribute__((always_inline)) void start_tx_inl(struct model *m, struct mport *P,
							       unsigned port, int back_to_back)
{
	int s = sched_pick(P);
	if (s < 0) {
		P->busy = 0;
		P->idle_ns = m->now; /* frac_fs kept: the line is busy that much longer */
		return;
	}
	tx_slot(m, P, port, (unsigned)s, P->q[s].head, back_to_back);
}

/* Unicast packet b, just queued at idle port P, starts the port's
 * transmission if its slot is a strict-priority one not paused: an idle
 * port has no other slot ready (each queuing at an idle port, and each
 * pause change, starts a transmission if one is ready), so the
 * scheduler's pick is that slot and b is its only packet.  Else
 * start_tx_inl decides. */
static inline __attribute__((always_inline)) void start_tx_first(struct model *m, struct mport *P,
								 unsigned port, struct mpkt *b)
{
	unsigned s = P->tc_ucq[b->tc];
	if (__builtin_expect(((unsigned)P->sp_run >> s) & 1u, 1))
		tx_slot(m, P, port, s, b, 0);
	else
		start_tx_inl(m, P, port, 0);
}

static void start_tx(struct model *m, struct mport *P, unsigned port, int back_to_back)
{
	start_tx_inl(m, P, port, back_to_back);
}

/* v's bit length, at most 63 (0 for 0): no branch. */
_Static_assert(MODEL_DELAY_HIST == 64, "log2_bucket: 64 buckets");
static inline unsigned log2_bucket(uint64_t v)
{
	uint64_t x = v < (1ull << 62) ? v : (1ull << 62);
	return 63u - (unsigned)__builtin_clzll(2 * x + 1);
}

/* A departure's class counter when not unicast (tx_done counts those in
 * the port's line 0). */
static void count_cast_out(struct model_if_counters *c, unsigned cast)
{
	if (cast == CAST_UC)
		c->out_ucast++;
	else if (cast == CAST_MC)
		c->out_mcast++;
	else
		c->out_bcast++;
}

/* An arrival's class counter: in_ucast, in_mcast and in_bcast follow each
 * other (CAST_* order), so cast picks one by its offset, no branch. */
_Static_assert(offsetof(struct model_if_counters, in_mcast) ==
		       offsetof(struct model_if_counters, in_ucast) + CAST_MC * sizeof(uint64_t) &&
		   offsetof(struct model_if_counters, in_bcast) ==
		       offsetof(struct model_if_counters, in_ucast) + CAST_BC * sizeof(uint64_t),
	       "model_if_counters: in_ucast, in_mcast, in_bcast in a row");
static inline void count_in(struct model_if_counters *c, unsigned cast)
{
	(*(uint64_t *)(void *)((char *)c + offsetof(struct model_if_counters, in_ucast) +
			       cast * sizeof(uint64_t)))++;
}

/* Packet b, counted by count_in, is discarded at ingress: IF-MIB's
 * ifIn*Pkts count delivered packets only (the discard is in in_discards). */
static inline void uncount_in(struct model_if_counters *c, const struct mpkt *b)
{
	(*(uint64_t *)(void *)((char *)c + offsetof(struct model_if_counters, in_ucast) +
			       ((b->flags & MP_CAST_M) >> MP_CAST_S) * sizeof(uint64_t)))--;
}

/* What a departure reports, when anything asks: its queue event, its
 * sample, its trace (in this order). */
static __attribute__((noinline, cold)) void tx_notes(struct model *m, struct mpkt *b,
						     const struct mpkt *cp, unsigned port,
						     unsigned s, uint64_t deq_cnt, uint64_t soj,
						     int64_t nt)
{
	if (m->ports[port].q[s].qev & MODEL_QEV_DEQUEUE)
		qev_note(m, MODEL_EV_DEQUEUE, b, cp, port, s, deq_cnt, soj);
	if (b->flags & MP_SAMPLE) {
		b->flags &= (uint8_t)~MP_SAMPLE;
		struct model_event *e =
		    ev_copy(m, MODEL_EV_SAMPLE, b, cp, port, s, soj, cp->depth_enq);
		if (e == NULL) {
			/* the ring is full: the sample is lost for its data source */
			m->ports[b->in_port].ctr.samples_lost++;
		} else if (b->mc_group) {
			const struct model_mc_group *mg = &m->cfg.mc_groups[b->mc_group - 1];
			for (unsigned k = 0; k < mg->nports; k++)
				e->n_out += mg->ports[k] != b->in_port;
		}
	}
	if (m->trace != NULL)
		call_trace(m, b, 1, 0, s & 7, s >= MQ_MC, port, cp->depth_enq, nt,
			   model_tos_ecn(cp->tos));
}

/* Copy cp of multicast packet b departed. */
static __attribute__((noinline)) void mc_copy_done(struct model *m, struct mpkt *b, struct mpkt *cp)
{
	pkt_free(m, cp);
	if (--b->refs == 0) {
		release_ingress(m, b, 1);
		pkt_free(m, b);
	}
}

/* The rest of a departure (tx_done) when anything in it is rare: its
 * class counter, its notes, and the release of a multicast copy or of a
 * packet.  Its slot, sojourn, copy count and non-tagged latency (nt, -1
 * if it measured none) are found again from the port and the queue. */
static __attribute__((noinline)) void tx_rare(struct model *m, struct mport *P, struct mpkt *b,
					      struct mpkt *cp, unsigned port)
{
	unsigned s = P->in_slot;
	const struct mqueue *q = &P->q[s];
	uint64_t deq_cnt = q->deq_cnt, soj = m->now - b->t_arr;
	int64_t nt = deq_cnt == q->nt_start_cnt ? (int64_t)q->nt_latest : -1;
	unsigned bf = b->flags;
	if ((bf & MP_CAST_M) == 0)
		P->out_ucast++; /* in line 0 (struct mport) */
	else
		count_cast_out(&P->ctr, (bf & MP_CAST_M) >> MP_CAST_S);
	if ((q->qev & (MODEL_QEV_DEQUEUE | QEV_TRACE)) | (bf & MP_SAMPLE))
		tx_notes(m, b, cp, port, s, deq_cnt, soj, nt);
	if (bf & MP_MC) {
		mc_copy_done(m, b, cp);
	} else {
		if (bf & MP_EXT)
			model_ext_release(m, b);
		release_ingress(m, b, 0);
		pkt_free(m, b);
	}
}

/* A departure's flags that tx_rare handles: a sample, a multicast copy
 * (or body), a class other than unicast, a packet in the headroom, one
 * the flow-based admission counted.  A
 * copy has its body's flags but MP_SAMPLE, and MP_MC. */
#define MP_TX_RARE (MP_SAMPLE | MP_MC | MP_CAST_M | MP_HDRM | MP_EXT)
_Static_assert(CAST_UC == 0, "tx_done: unicast tested as 0");

static void tx_done_any(struct model *m, unsigned port);

/* End of transmission on a port: the head of the slot in service
 * departs.  any 0 (a constant where this is inlined): mostly a unicast
 * packet without rare flags (MP_TX_RARE), else tx_done_any; any 1: any
 * copy. */
static inline __attribute__((always_inline)) void tx_done_t(struct model *m, unsigned port, int any)
{
	struct mport *P = &m->ports[port];
	unsigned s = P->in_slot;
	struct mqueue *q = &P->q[s];
	KEEP_REG(q);
	struct mpkt *cp = q->head;
	if (!any && __builtin_expect((cp->flags & MP_TX_RARE) != 0, 0)) {
		tx_done_any(m, port);
		return;
	}
	struct mpkt *b = any ? mpkt_body(cp) : cp;
	uint64_t now = m->now;
	uint64_t inc = cp->inc;

	q->head = cp->next;
	if (q->head == NULL) {
		q->tailp = &q->head;
		P->nonempty &= (uint16_t)~q->bit;
	}
	uint32_t d = shrink_of(m, q->pk.cb, q->min_top, inc, &q->min_cells);
	pk_sub(&q->pk, inc);
	if (d != 0)
		m->ep_pk[q->pool].cur -= d;
	/* (a packet without MP_MC is in a unicast queue: its port's egr_uc) */
	pk_sub(any ? q->egr : &P->egr_uc, inc);
	m->st.copies_departed++;

	/* delay: non-tagged latency, marker method, truth */
	uint64_t deq_cnt = ++q->deq_cnt;
	if (deq_cnt == q->nt_start_cnt) {
		uint64_t lat = now - q->nt_start;
		q->nt_latest = lat;
		if (lat > q->nt_max)
			q->nt_max = lat;
		q->nt_count++;
		q->nt_sum += lat;
	}
	q_mk_dequeue(q, deq_cnt, now);
	uint64_t soj = now - b->t_arr;
	q->sum += soj;
	q->sum_fs += P->frac_fs; /* the last bit left frac_fs after now */
	if (soj > q->max)
		q->max = soj;
	q->hist[log2_bucket(soj)]++;
	if (__builtin_expect(q->qev & QEV_STATS, 0))
		q_departed(m, port, s, inc & m->occ_mask, soj);

	P->out_octets += cp->len;
	/* queue event or trace, and (tested above unless any) the rare
	 * flags */
	if (__builtin_expect((q->qev & (MODEL_QEV_DEQUEUE | QEV_TRACE)) != 0, 0) ||
	    (any && (b->flags & MP_TX_RARE) != 0)) {
		tx_rare(m, P, b, cp, port);
	} else {
		P->out_ucast++; /* in line 0 (struct mport) */
		/* a unicast packet is its only copy */
		release_ingress(m, b, -1);
		pkt_free(m, b);
	}
	start_tx_inl(m, P, port, 1);
}

/* tx_done_t for any copy, out of line. */
static __attribute__((noinline)) void tx_done_any(struct model *m, unsigned port)
{
	tx_done_t(m, port, 1);
}

static inline __attribute__((always_inline)) void tx_done(struct model *m, unsigned port)
{
	tx_done_t(m, port, 0);
}

/* ------------------------------------------ arrival: forwarding, sampling, admission, PFC holds */

/* A packet's class when its source did not give it: from the header
 * (fill_from_src). */
static __attribute__((noinline)) unsigned classify_hdr(const struct mpkt *b)
{
	if (b->hdr != NULL && b->hdr_len >= 6) {
		const uint8_t *d = b->hdr;
		if ((d[0] & d[1] & d[2] & d[3] & d[4] & d[5]) == 0xff)
			return CAST_BC;
		return (d[0] & 1) ? CAST_MC : CAST_UC;
	}
	return b->mc_group ? CAST_MC : CAST_UC;
}

/* Sampling at ingress: the packet is one of the port's sample pool. */
static __attribute__((noinline)) void sample_pool(struct model *m, struct mport *P, struct mpkt *b)
{
	P->ctr.sample_pool++;
	if (--P->skip == 0) {
		b->flags |= MP_SAMPLE;
		P->ctr.samples_marked++;
		P->skip = draw_skip(m, P->sampling_rate);
	}
}

/* The forwarding pipeline drops packet b (fwd_drop). */
static __attribute__((noinline, cold)) void fwd_drop(struct model *m, struct mport *P,
						     struct mpkt *b)
{
	unsigned cause = model_drop_cause_of_fwd(b->fwd_drop);
	m->st.fwd_dropped++;
	P->drop_in[cause]++;
	P->ctr.in_discards++;
	uncount_in(&P->ctr, b);
	unsigned op = b->mc_group || b->out_port >= m->np ? MODEL_PORT_NONE : b->out_port;
	note_drop(m, b, cause, b->fwd_drop, op, MODEL_QUEUE_NONE, 0);
	pkt_free(m, b);
}

/* Ingress admission drops packet b. */
/* A packet dropped at ingress for cause (MODEL_DROP_ING_LIMIT, or
 * MODEL_DROP_WRED from the flow-based admission). */
static __attribute__((noinline)) void ing_drop_why(struct model *m, struct mport *P, struct mpkt *b,
						   unsigned cause)
{
	unsigned reason = model_drop_reason(cause);
	if (b->flags & MP_EXT)
		model_ext_release(m, b);
	m->st.ing_dropped++;
	P->drop_in[cause]++;
	P->ctr.in_discards++;
	uncount_in(&P->ctr, b);
	if (b->flags & MP_MC) {
		note_drop(m, b, cause, reason, MODEL_PORT_NONE, MODEL_QUEUE_NONE, 0);
	} else {
		/* reported for its unicast target */
		unsigned uport = b->out_port, uslot = m->ports[uport].tc_ucq[b->tc];
		struct mqueue *q = &m->ports[uport].q[uslot];
		qcold(m, uport, uslot)->drops[cause]++;
		note_drop(m, b, cause, reason, uport, uslot, depth32(m, q));
	}
	pkt_free(m, b);
}

static __attribute__((noinline)) void ing_drop(struct model *m, struct mport *P, struct mpkt *b)
{
	ing_drop_why(m, P, b, MODEL_DROP_ING_LIMIT);
}

/* The optional mechanisms' part of a unicast arrival (model_ext.c):
 * 1 if it dropped the packet. */
static __attribute__((noinline, cold)) int arrive_ext(struct model *m, struct mport *P,
						      struct mpg *g, struct mpkt *b)
{
	unsigned d = model_ext_arrive(m, P, g, b);
	if (d == 0)
		return 0;
	ing_drop_why(m, P, b, d - 1);
	return 1;
}

/* Egress admission of an admitted multicast packet, copy by copy; the
 * body is charged at ingress once the first copy is in. */
static __attribute__((noinline)) void arrive_mc(struct model *m, struct mport *P, struct mpg *g,
						struct mpkt *b, uint32_t pg_grow)
{
	int charged = 0;
	const struct model_mc_group *mg = &m->cfg.mc_groups[b->mc_group - 1];
	for (unsigned k = 0; k < mg->nports; k++) {
		unsigned port = mg->ports[k];
		if (port == b->in_port)
			continue; /* never back out of the ingress port */
		struct mport *E = &m->ports[port];
		unsigned s = E->n_mcq > 0 ? MQ_MC + E->tc_mcq[b->tc] : E->tc_ucq[b->tc];
		if (!enqueue_copy(m, b, port, s, 1))
			continue;
		if (!charged) {
			charge_ingress(m, P, g, b, pg_grow, 1, -1);
			charged = 1;
		}
		if (!E->busy)
			start_tx(m, E, port, 0);
	}
	if (!charged) {
		/* every copy dropped at egress; counted there */
		if (b->flags & MP_SAMPLE)
			sample_dropped(m, b, MODEL_REASON_UNKNOWN, MODEL_PORT_NONE,
				       MODEL_QUEUE_NONE, 0);
		pkt_free(m, b);
	}
}

/* An arrival admitted at ingress (arrive): into its queue, or copy by
 * copy into those of its group (mc; a constant where this is inlined, as
 * is hd: 0 not in the headroom, -1 test MP_HDRM). */
static inline __attribute__((always_inline)) void arrive_admitted(struct model *m, struct mpkt *b,
								  struct mport *P, struct mpg *g,
								  uint32_t pg_grow, int mc, int hd)
{
	if (mc) {
		b->refs = 0; /* a unicast packet's is set by enqueue_copy */
		arrive_mc(m, P, g, b, pg_grow);
		return;
	}
	unsigned uport = b->out_port;
	struct mport *E = &m->ports[uport];
	if (enqueue_copy(m, b, uport, E->tc_ucq[b->tc], 0)) {
		charge_ingress(m, P, g, b, pg_grow, 0, hd);
		if (!E->busy)
			start_tx_first(m, E, b->out_port, b); /* (uport, read again) */
	} else {
		if (__builtin_expect(b->flags & MP_EXT, 0))
			model_ext_release(m, b);
		pkt_free(m, b); /* dropped at egress; counted there */
	}
}

/* An arrival that the device (ok 0) or its PG (its min and shared use:
 * pg_grow the growth pg_fits found) does not take: into its PG's
 * headroom, or dropped. */
static __attribute__((noinline)) void arrive_over(struct model *m, struct mpkt *b, struct mport *P,
						  struct mpg *g, int ok, uint32_t pg_grow)
{
	if (ok && g->lossless &&
	    occ_cells(m, g->pk_hdrm.cb) + occ_cells(m, b->inc) <= g->headroom) {
		b->flags |= MP_HDRM; /* into the headroom (charge_ingress; copies
				      * made from b carry it too, unread there) */
		if (b->flags & MP_MC)
			arrive_admitted(m, b, P, g, pg_grow, 1, -1);
		else
			arrive_admitted(m, b, P, g, pg_grow, 0, -1);
		return;
	}
	ing_drop(m, P, b);
}

/* An arrival that the device takes and that takes its PG beyond its
 * minimum: admitted if its PG's shared use and its pool allow
 * (pg_fits), else arrive_over. */
static __attribute__((noinline)) void arrive_shared(struct model *m, struct mpkt *b,
						    struct mport *P, struct mpg *g)
{
	uint32_t pg_grow;
	if (!pg_fits(m, g, b->inc, &pg_grow))
		arrive_over(m, b, P, g, 1, pg_grow);
	else if (b->flags & MP_MC)
		arrive_admitted(m, b, P, g, pg_grow, 1, -1);
	else
		arrive_admitted(m, b, P, g, pg_grow, 0, 0);
}

/* A packet reaches the switch (last bit in) now; b is consumed.  P is
 * its ingress port, g its PG there; its flags hold MP_MC (mc: a constant
 * where this is inlined, (b->flags & MP_MC) != 0), the source's class
 * and its class, cast (fill_from_src).  The unicast path is here, the
 * rarer ones in the functions above. */
static inline __attribute__((always_inline)) void
arrive(struct model *m, struct mpkt *b, struct mport *P, struct mpg *g, unsigned cast, int mc)
{
	b->t_arr = m->now;
	/* its charge: cells << occ_shift | len, with a power of two cell
	 * size ((len + cell_bytes - 1) & ~(cell_bytes - 1)) x cell_mult */
	uint32_t len = b->len, up = len + m->cell_up;
	uint64_t inc = m->cell_cmask ? (uint64_t)(up & m->cell_cmask) * m->cell_mult | len
				     : (uint64_t)(up / m->cfg.cell_bytes) << m->occ_shift | len;
	b->inc = inc;
	if (mc)
		m->mc_seq++; /* its copy id */
	m->st.arrived++;
	P->ctr.in_octets += b->len;
	count_in(&P->ctr, cast);
	if (P->sampling_rate != 0)
		sample_pool(m, P, b);
	if (__builtin_expect(b->fwd_drop != 0, 0)) {
		fwd_drop(m, P, b);
		return;
	}
	if (__builtin_expect(m->ext_on, 0) && !mc && arrive_ext(m, P, g, b))
		return;
	/* ingress admission: the device's cells after it within
	 * total_cells (see struct mpeak), then its PG's, mostly within its
	 * minimum (no growth of its shared use: grow_of) */
	if (__builtin_expect(m->dev_uc.cb + m->dev_mc.cb + inc > m->total_top, 0)) {
		arrive_over(m, b, P, g, 0, 0);
		return;
	}
	if (__builtin_expect(g->pk.cb + inc > g->min_top, 0)) {
		arrive_shared(m, b, P, g);
		return;
	}
	arrive_admitted(m, b, P, g, 0, mc, 0);
}

/* arrive() for any packet, out of line. */
static __attribute__((noinline)) void arrive_any(struct model *m, struct mpkt *b, struct mport *P,
						 struct mpg *g, unsigned cast)
{
	if (b->flags & MP_MC)
		arrive(m, b, P, g, cast, 1);
	else
		arrive(m, b, P, g, cast, 0);
}

static unsigned fill_from_src(struct mpkt *b, const struct model_pkt *p)
{
	/* len .. hdr in one block (model_int.h checks the layouts match),
	 * src the source's index (model_arr_merge); model_src_topup has checked the
	 * packet and its hdr_len and cast; its flags: the source's class
	 * and its class, the answer (the source's, or from the header: for
	 * arrive, now or at a held packet's release), and MP_MC for a
	 * multicast packet (offer sets it) */
	memcpy(&b->len, &p->len,
	       offsetof(struct model_pkt, hdr) + sizeof(p->hdr) - offsetof(struct model_pkt, len));
	unsigned gc = p->cast & 3u, cast = gc - 1u; /* MODEL_CAST_* - 1 = CAST_* */
	/* the source's class and the class, by the source's */
	static const uint8_t gflags[4] = {0, 1 << MP_GCAST_S | CAST_UC << MP_CAST_S,
					  2 << MP_GCAST_S | CAST_MC << MP_CAST_S,
					  3 << MP_GCAST_S | CAST_BC << MP_CAST_S};
	unsigned f = gflags[gc];
	if (__builtin_expect(f == 0, 0)) { /* gc 0: the source does not say */
		cast = classify_hdr(b);
		f = cast << MP_CAST_S;
	}
	b->flags = (uint8_t)f;
	return cast;
}

/* Its sender (P, PG pgi: g) offers packet b now: through, or held by
 * PFC (mc: a constant where this is inlined, (b->flags & MP_MC) != 0). */
static inline __attribute__((always_inline)) void offer_pkt(struct model *m, struct mport *P,
							    struct mpg *g, unsigned pgi,
							    struct mpkt *b, unsigned cast, int mc)
{
	if (g->hold_head != NULL || (m->now >= g->pause_start && m->now < g->pause_end)) {
		b->next = NULL;
		if (g->hold_tail != NULL)
			g->hold_tail->next = b;
		else
			g->hold_head = b;
		g->hold_tail = b;
		m->st.held++;
		P->ctr.pfc_held[pgi]++;
		P->ctr.pfc_held_now[pgi]++;
		if (!g->rel_armed && g->pause_end != UINT64_MAX && m->now >= g->pause_start) {
			/* XON already sent: the sender restarts at pause_end */
			g->rel_armed = 1;
			schedule(m, g->pause_end > m->now ? g->pause_end : m->now,
				 EV_ID(EV_REL, (unsigned)(P - m->ports) * MODEL_NUM_PG + pgi));
		}
		return;
	}
	arrive(m, b, P, g, cast, mc);
}

/* offer_pkt for a multicast packet, out of line. */
static __attribute__((noinline)) void offer_mc(struct model *m, struct mport *P, struct mpg *g,
					       unsigned pgi, struct mpkt *b, unsigned cast)
{
	b->flags |= MP_MC;
	offer_pkt(m, P, g, pgi, b, cast, 1);
}

/* A sender offers the arrival stream's next packet p (p->src: its source)
 * now (offer_pkt). */
static void offer(struct model *m, const struct model_pkt *p)
{
	struct mport *P = &m->ports[p->in_port];
	unsigned pgi = P->tc_pg[p->tc];
	struct mpg *g = &P->pg[pgi];
	KEEP_REG(g);
	struct mpkt *b = pkt_alloc(m);
	if (b == NULL) {
		m->st.bad_pkts++;
		return;
	}
	b->pg = (uint8_t)pgi; /* (apart from the flags: GCC merges the two
			       * byte stores at a cost) */
	unsigned cast = fill_from_src(b, p);
	if (__builtin_expect(p->mc_group != 0, 0))
		offer_mc(m, P, g, pgi, b, cast);
	else
		offer_pkt(m, P, g, pgi, b, cast, 0);
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
	P->ctr.pfc_held_now[pgi]--;
	/* its class: in its flags since fill_from_src */
	arrive_any(m, b, P, g, (b->flags & MP_CAST_M) >> MP_CAST_S);
	if (g->hold_head != NULL) {
		/* the next one follows at the sender's line rate */
		struct mpkt *n = g->hold_head;
		uint64_t fs = (uint64_t)(n->len + P->overhead) * P->fs_per_byte;
		g->rel_armed = 1;
		schedule(m, m->now + (fs + FS_PER_NS - 1) / FS_PER_NS, EV_ID(EV_REL, idx));
	}
}

/* ---------------------------------------------------------------- run loop */

/*
 * Start loading the lines of an event while the ones before it run: each
 * event reaches its lines through a chain of loads (port -> queue ->
 * packet; source -> packet -> ports -> PG and queue), misses one after
 * another that here overlap with the work of the events before it.  A
 * port event prefetches the calendar's next one (prefetch_port: the
 * port's line 0, its queue in service, lines 0-2, and the packet at the
 * queue's head, from struct mpf), an arrival the stream's next one
 * (prefetch_arrival: its PG and its egress queue, lines 0 and 1, from
 * struct mpf_tc, and its egress port's line 0, which says whether the
 * port is idle) and the packet of the one after it, whose fields that
 * reads.  Both kinds' next events are run soon, whichever comes first,
 * so nothing decides which to prefetch: a test of which is next, as
 * likely one way as the other, would be a second branch that no
 * predictor learns besides run_loop's.  Only a guess (an event may
 * schedule one before them); nothing here changes any state.
 */
static inline __attribute__((always_inline)) void prefetch_port(const struct model *m,
								uint32_t leaf)
{
	const struct mpf *f = &m->pf[(uint32_t)(leaf + 1)]; /* (CAL_NONE: pf[0]) */
	const struct mqueue *q = f->q;
	__builtin_prefetch(f->P, 1);
	__builtin_prefetch(q, 1);
	__builtin_prefetch((const char *)q + MODEL_LINE, 1);
	__builtin_prefetch((const char *)q + 2 * MODEL_LINE, 1);
	__builtin_prefetch(f->h, 1);
}

static inline __attribute__((always_inline)) void prefetch_arrival(const struct model *m,
								   const struct arr_ent *a)
{
	/* (a marker's packet, arr_mark, is one of port 0's: harmless) */
	const struct model_pkt *p = a->p;
	const char *base = (const char *)m->ports;
	__builtin_prefetch(base + m->pf_tc[p->in_port * MODEL_NUM_TC + p->tc].pg, 1);
	if (p->out_port < m->np) { /* not for multicast */
		const char *q = base + m->pf_tc[p->out_port * MODEL_NUM_TC + p->tc].q;
		__builtin_prefetch(q, 1);
		__builtin_prefetch(q + MODEL_LINE, 1);
		__builtin_prefetch(&m->ports[p->out_port], 1);
	}
	/* (a + 1 is at most past the marker: in the array, see
	 * model_add_source) */
	__builtin_prefetch(a[1].p);
}

/* Run the heap event at the root (it stays there while it runs). */
static void dispatch_heap(struct model *m)
{
	uint32_t id = m->heap[0].id;
	m->now = m->heap[0].t;
	m->cur_id = id;
	m->resched = 0;
	m->in_dispatch = 1;
	release_held(m, EV_IDX(id)); /* the only kind */
	m->in_dispatch = 0;
	if (m->resched) {
		struct mheap_ent r = {m->resched_t, m->seq++, id};
		model_heap_sift_root(m, r);
	} else {
		model_heap_pop(m);
	}
}

/* Is anything other than the background tick pending? */
static int busy_work(const struct model *m)
{
	return m->arr_next->p->src != ARR_END || copies_buffered(&m->st) > 0 || m->st.held > 0;
}

enum { RUN_DONE = 0, RUN_AT_LIMIT = 1, RUN_MAX_EVENTS = 2 };
/* run_careful's other answers */
enum { RUN_NEXT = 3, RUN_RARE = 4, RUN_PORT = 5, RUN_ARR = 6 };

/* The careful path of run_loop (kept out of its registers): the next
 * per-packet event (a port's if is_port and there is one, at t) is not
 * before stop_t; left events are still allowed (0: none).  It answers a
 * RUN_* to return, or RUN_NEXT (merged: look again), RUN_RARE (ran rare
 * events, run_rare of them, look again), RUN_PORT or RUN_ARR (run the
 * port's event or the arrival). */
static __attribute__((noinline)) int run_careful(struct model *m, int is_port, uint64_t t,
						 uint64_t left)
{
	const struct arr_ent *a = m->arr_next;
	int no_left = left == 0;
	uint64_t t_lim = m->run_lim;
	int port = m->pk_leaf != CAL_NONE;
	int any = port || a->p->src != ARR_END;
	is_port &= port;
	if (!is_port && a->p->src == ARR_MERGE && t <= t_lim) {
		/* merge first: what follows decides the return */
		model_arr_merge(m);
		if (no_left)
			stop_all(m); /* (arr_mark set it) */
		return RUN_NEXT;
	}
	if (m->run_idle && !any && !busy_work(m))
		return RUN_DONE;
	/* the first rare event: the heap's root or the tick, by time then
	 * insertion number */
	int tk = m->tick_t != UINT64_MAX &&
		 (m->nheap == 0 || m->tick_t < m->heap[0].t ||
		  (m->tick_t == m->heap[0].t && m->tick_seq < m->heap[0].seq));
	if ((tk || m->nheap > 0) && (!any || (tk ? m->tick_t : m->heap[0].t) < t)) {
		if ((tk ? m->tick_t : m->heap[0].t) > t_lim)
			return RUN_AT_LIMIT;
		if (no_left)
			return RUN_MAX_EVENTS;
		if (tk) {
			m->run_rare = model_tick_run(m, any ? t : UINT64_MAX, t_lim, left);
		} else {
			dispatch_heap(m);
			m->run_rare = 1;
		}
		return RUN_RARE;
	}
	if (!any)
		return RUN_DONE;
	if (t > t_lim)
		return RUN_AT_LIMIT;
	if (no_left)
		return RUN_MAX_EVENTS;
	if (is_port && m->pk_b == CAL_FAR) {
		cal_jump(m); /* not an event */
		return RUN_NEXT;
	}
	/* (stop_t may be low for a far event no longer the next) */
	stop_update(m);
	return is_port ? RUN_PORT : RUN_ARR;
}

/* The event loop of the three entry points below, with dispatch inlined
 * once: run events with time <= t_lim, at most max_events of them; with
 * idle_stop, stop as soon as nothing but the background tick is left.
 * RUN_AT_LIMIT: the next event is after t_lim.  left counts the events
 * still allowed down; at 0, stop_t 0 sends every event to the careful
 * path (max_events is mostly UINT64_MAX: never reached); the events run
 * are added to the count in the stats on return (a callback during the
 * run sees the count before it). */
static int run_loop(struct model *m, uint64_t t_lim, uint64_t max_events, int idle_stop)
{
	m->run_lim = t_lim;
	m->run_idle = (uint8_t)idle_stop;
	stop_update(m);
	uint64_t left = max_events;
	m->run_max = max_events; /* the count in the stats grows on return */
	if (left == 0)
		stop_all(m);
	for (;;) {
		uint64_t tp = m->pk_t;
		/* the next arrival, or the stream's marker (merge at its time,
		 * or the end: UINT64_MAX); at equal times ports go first (no
		 * port event: tp UINT64_MAX, so t UINT64_MAX or before) */
		struct arr_ent *a = m->arr_next;
		int is_port;
		uint64_t t;
		if (tp <= a->t) {
			is_port = 1;
			t = tp;
		} else {
			is_port = 0;
			t = a->t;
		}
		/* the common case: the next per-packet event is due by t_lim
		 * and not after the first heap event (at equal times it goes
		 * first): before stop_t, the earlier of the two plus 1 (at
		 * most UINT64_MAX, t when nothing is left) */
		if (__builtin_expect(t >= m->stop_t, 0)) {
			int r = run_careful(m, is_port, t, left);
			if (r == RUN_NEXT)
				continue;
			if (r == RUN_RARE) {
				left -= m->run_rare; /* (at most left) */
				if (left == 0)
					stop_all(m);
				continue;
			}
			if (r < RUN_PORT) {
				m->st.n_events_processed += m->run_max - left;
				return r;
			}
			is_port = r == RUN_PORT;
		}
		if (is_port) {
			size_t leaf = m->pk_leaf; /* (an index: no copies to widen it) */
			uint32_t b = m->pk_b;	  /* (not CAL_FAR: far_stop) */
			cal_take(m, t, leaf, b);
			prefetch_port(m, m->pk_leaf);
			m->now = t;
			tx_done(m, leaf);
		} else {
			/* (not a marker: its time is not before stop_t) */
			m->arr_next = a + 1;
			prefetch_arrival(m, a + 1);
			m->now = t;
			offer(m, a->p);
		}
		if (__builtin_expect(--left == 0, 0))
			stop_all(m);
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

/* ---------------------------------------------------------------- state and control */

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
	P->unpaused = (uint16_t) ~(class_mask | ((uint16_t)class_mask << MQ_MC));
	P->sp_run = P->sp_mask & P->unpaused;
	if (!P->busy)
		start_tx(m, P, port, 0);
	return 0;
}

int model_set_queue_events(struct model *m, uint32_t port, unsigned queue, int mc, unsigned flags,
			   struct model_err *err)
{
	const char *bad = NULL;
	if (port >= m->np)
		bad = "port";
	else if (queue >= (mc ? m->ports[port].n_mcq : m->ports[port].n_ucq))
		bad = "queue";
	else if (flags & ~(MODEL_QEV_ENQUEUE | MODEL_QEV_DEQUEUE))
		bad = "flags";
	if (bad != NULL) {
		if (err != NULL)
			snprintf(err->msg, sizeof(err->msg),
				 "queue events: bad %s (port %u, %s queue %u, flags 0x%x)", bad,
				 port, mc ? "multicast" : "unicast", queue, flags);
		return -1;
	}
	struct mqueue *q = &m->ports[port].q[(mc ? MQ_MC : 0) + queue];
	q->qev = (uint8_t)(flags | (q->qev & (QEV_TRACE | QEV_STATS | QEV_EARLY)));
	return 0;
}

int model_track_queues(struct model *m)
{
	if (m->qstat != NULL)
		return 0;
	m->qstat = aligned_alloc(MODEL_LINE, (size_t)(m->nq ? m->nq : 1) * sizeof(*m->qstat));
	m->cdrops = calloc(m->np, sizeof(*m->cdrops));
	if (m->qstat == NULL || m->cdrops == NULL) {
		free(m->qstat);
		free(m->cdrops);
		m->qstat = NULL;
		m->cdrops = NULL;
		return -1;
	}
	memset(m->qstat, 0, (size_t)(m->nq ? m->nq : 1) * sizeof(*m->qstat));
	for (unsigned p = 0; p < m->np; p++)
		for (unsigned s = 0; s < MQ_SLOTS; s++) {
			struct mqueue *q = &m->ports[p].q[s];
			if (!q->present)
				continue;
			q->qev |= QEV_STATS | (m->iarb != NULL ? QEV_EARLY : 0);
			m->qstat[qindex(&m->ports[p], s)].lo = MODEL_SOJ_NB;
			/* copies already queued count from now on */
			struct mqcold *qc = qcold(m, p, s);
			qc->early = 0;
			for (const struct mpkt *cp = q->head; cp != NULL; cp = cp->next)
				qc->early += (unsigned __int128)(cp->inc & m->occ_mask) *
					     (m->now - mpkt_body(cp)->t_arr);
		}
	return 0;
}

void model_set_trace(struct model *m, model_trace_fn fn, void *arg)
{
	m->trace = fn;
	m->trace_arg = arg;
	/* a departure tests one byte for queue events and the trace */
	for (unsigned p = 0; p < m->np; p++)
		for (unsigned s = 0; s < MQ_SLOTS; s++) {
			struct mqueue *q = &m->ports[p].q[s];
			q->qev = (uint8_t)((q->qev & ~QEV_TRACE) | (fn != NULL ? QEV_TRACE : 0));
		}
}
