/*
 * model_arrival.c - the switch model's arrivals: the sources' packets,
 * checked and clamped in time as they are taken from each source
 * (model_src_topup), merged a round at a time into the one arrival
 * stream that run_loop (model.c) takes from, in arrival order
 * (model_arr_merge), and the header bytes of a packet its source did not
 * give them with (model_src_header).
 */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "agent/model/model_engine.h"

/*
 * Arrivals.  A source's packets wait in its buffer (struct msrc) with
 * their times clamped to be non-decreasing: a packet earlier than the one
 * before it, or than the clock when the source was added, arrives at that
 * time (as if each packet were asked for when the one before it arrives).
 * The packets of all sources are merged, a round at a time, into one
 * stream in arrival order, time then source index (then a source's own
 * order): entries of a time and a pointer to the packet, which stays in
 * its source's buffer until offered.  run_loop takes from the stream; its
 * marker, after its last packet, says from what time on packets are
 * missing, and run_loop merges the next round when it reaches that time
 * (ports before arrivals at equal times, then the heap and the tick).
 *
 * A round takes an exact prefix of the arrival order: with H the earliest
 * time of a live source's last buffered packet and J the lowest index of
 * a source whose last buffered packet is at H, every packet before
 * (H, J) in (time, index) order is known (later ones of source J may
 * still be at H), so the round takes from source i its packets at times
 * < H, and those at H as well if i <= J (all of J's: it is then empty and
 * is topped up with a whole batch in the next round).  It sorts them by
 * counting (1-ns buckets, sources in index order: stable), or by radix
 * when they span more than ARR_NB ns.  Sources are topped up only at the
 * start of a round (the stream then holds none of their packets), each to
 * MSRC_BATCH packets when it has fewer than MSRC_LOW left, so a round
 * takes about MSRC_LOW packets or more from the fastest source and its
 * cost over the sources is spread over many packets.  The stream holds at
 * most MSRC_BATCH packets per source.  A source added (model_add_source)
 * undoes the round (model_arr_discard: the packets are still in the sources'
 * buffers), so that the next round, due at once, merges it in.  A round
 * merged at a stop (run_loop, before deciding what to return) or ahead of
 * time only calls into sources sooner, which changes nothing but when
 * stats.bad_pkts counts a bad packet (model.h: "when the engine takes
 * them from the source").
 */

/* Can the engine take packet p (model.h struct model_pkt)? */
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

/* The header bytes of a packet that came with hdr NULL, from its source's
 * header(); NULL if it has none.  Valid until the next call into the
 * source (the caller copies them at once). */
const uint8_t *model_src_header(const struct model *m, const struct mpkt *b)
{
	const struct model_source *src = &m->srcs[b->src].src;
	struct model_pkt p;
	if (b->hdr_len == 0 || src->header == NULL)
		return NULL;
	memset(&p, 0, sizeof(p));
	memcpy(&p.len, &b->len,
	       offsetof(struct model_pkt, hdr) + sizeof(p.hdr) - offsetof(struct model_pkt, len));
	p.t_ns = b->t_arr;
	p.cast = (uint8_t)((b->flags & MP_GCAST_M) >> MP_GCAST_S);
	return src->header(src->state, &p);
}

/* Top up source s's buffer (the stream holds none of its packets): the
 * packets left move to its start, then the source fills the rest (one
 * next_batch call, or next() until it is full), checked unless it is
 * trusted, bad ones left out and counted. */
__attribute__((noinline)) void model_src_topup(struct model *m, struct msrc *s)
{
	const struct model_source *src = &s->src;
	struct model_pkt *buf = s->buf;
	size_t rem = (size_t)(s->end - s->next);
	if (rem > 0 && s->next != buf)
		memmove(buf, s->next, rem * sizeof(*buf));
	s->next = buf;
	s->end = buf + rem;
	while (!s->ended && s->end < buf + MSRC_BATCH) {
		struct model_pkt *p0 = s->end;
		unsigned n, k, j = 0;
		if (s->batch != NULL)
			n = s->batch(s->state, p0, (unsigned)(buf + MSRC_BATCH - p0));
		else
			n = src->next(s->state, p0) == 1;
		if (n == 0) {
			s->ended = 1;
			break;
		}
		uint64_t last = s->last_t;
		if (s->trusted && src->ordered) {
			/* no checks, and times in order: only the first ones
			 * can be before the last (or the clock at its
			 * addition) */
			for (k = 0; k < n && p0[k].t_ns < last; k++)
				p0[k].t_ns = last;
			last = p0[n - 1].t_ns;
			j = n;
		} else if (s->trusted) {
			/* no checks: only the times */
			for (k = 0; k < n; k++) {
				if (p0[k].t_ns < last)
					p0[k].t_ns = last;
				last = p0[k].t_ns;
			}
			j = n;
		} else {
			for (k = 0; k < n; k++) {
				struct model_pkt *p = &p0[k];
				if (!pkt_valid(m, p)) {
					m->st.bad_pkts++;
					continue;
				}
				if (p->hdr == NULL && src->header == NULL)
					p->hdr_len = 0; /* no bytes */
				if (p->cast > MODEL_CAST_BROADCAST)
					p->cast = 0;
				if (p->cast == 0 && p->hdr == NULL && p->hdr_len >= 6) {
					/* the class from the bytes the source gives */
					const uint8_t *h = src->header(s->state, p);
					if (h != NULL)
						p->cast = model_cast_of_mac(h);
				}
				if (p->t_ns < last)
					p->t_ns = last;
				last = p->t_ns;
				if (j != k)
					p0[j] = *p;
				j++;
			}
		}
		s->last_t = last;
		s->end = p0 + j;
		if (s->batch != NULL && j > 0)
			break;
	}
}

/* Sort the round's n packets (keys k = time - first time, at most top)
 * by key, stably (source order for equal times), into the stream: radix
 * sort, for rounds the counting sort cannot span.  A pass of d bits costs
 * about n + 2^d steps: d is about log2(n) (a round of a light load, sparse
 * in time, has few packets), 4 to ARR_DIGIT, then evened out over the
 * passes that the keys' bits need with it. */
static void arr_radix(struct model *m, uint32_t n, uint64_t lo, uint64_t top)
{
	/* the keys go back and forth between arr_key and the stream */
	struct arr_ent *a = m->arr_key, *b = m->arr;
	uint32_t *cnt = m->arr_cnt;
	unsigned kbits = top != 0 ? 64u - (unsigned)__builtin_clzll(top) : 0;
	unsigned d = n > 1 ? 32u - (unsigned)__builtin_clz(n - 1) : 1;
	d = d < 4 ? 4 : d > ARR_DIGIT ? ARR_DIGIT : d;
	unsigned passes = (kbits + d - 1) / d;
	if (passes > 0)
		d = (kbits + passes - 1) / passes;
	const uint32_t nb = 1u << d;
	for (unsigned i = 0, sh = 0; i < passes; i++, sh += d) {
		memset(cnt, 0, nb * sizeof(*cnt));
		for (uint32_t x = 0; x < n; x++)
			cnt[(a[x].t >> sh) & (nb - 1)]++;
		for (uint32_t k = 0, sum = 0; k < nb; k++) {
			uint32_t c = cnt[k];
			cnt[k] = sum;
			sum += c;
		}
		for (uint32_t x = 0; x < n; x++)
			b[cnt[(a[x].t >> sh) & (nb - 1)]++] = a[x];
		struct arr_ent *t = a;
		a = b;
		b = t;
	}
	for (uint32_t x = 0; x < n; x++) {
		m->arr[x].t = a[x].t + lo;
		m->arr[x].p = a[x].p; /* (in place when a is arr) */
	}
}

/* Live source s (index i) has no packets in the stream: into the heap by
 * its first packet, or, empty, among those the next round tops up. */
static inline void sq_requeue(struct model *m, const struct msrc *s, uint32_t i)
{
	if (s->next < s->end)
		model_tk_push(m->sq, &m->nsq, s->next->t_ns, i);
	else
		m->spend[m->nspend++] = i;
}

/* The live empty sources wait for the next round's top-up, and the heap
 * of the others is left to be built (sq_stale) when a round uses it
 * (sq_build): after a round that visited the sources without the heap
 * (the next round mostly does without it too). */
static void sq_after_scan(struct model *m)
{
	m->nsq = m->nspend = 0;
	m->sq_stale = 1;
	for (uint32_t i = 0; i < m->nsrc; i++) {
		const struct msrc *s = &m->srcs[i];
		if (s->live && s->next == s->end)
			m->spend[m->nspend++] = i;
	}
}

/* The heap of the live sources with packets, by the time of their first
 * (in index order: as sq_requeue would push them). */
static void sq_build(struct model *m)
{
	m->nsq = 0;
	m->sq_stale = 0;
	for (uint32_t i = 0; i < m->nsrc; i++) {
		const struct msrc *s = &m->srcs[i];
		if (s->live && s->next < s->end)
			model_tk_push(m->sq, &m->nsq, s->next->t_ns, i);
	}
}

/* Put every live source back in the heap (or, empty, among those the
 * next round tops up): after the stream's packets went back to them. */
static void sq_rebuild(struct model *m)
{
	sq_after_scan(m);
	sq_build(m);
}

/* What a merge round found so far among the sources it visited (any:
 * one or more): the first time lo, the last time top, and the round's
 * end (H, J) over the ones not ended (open: there is one). */
struct sq_round {
	uint64_t H, lo, top;
	uint32_t J;
	int open, any;
};

/* The round visits source i (popped from the heap, or found by a pass
 * over the sources): topped up if it is low, marked as taking part, and
 * its times counted in r. */
static inline __attribute__((always_inline)) void sq_visit(struct model *m, struct sq_round *r,
							   uint32_t i)
{
	struct msrc *s = &m->srcs[i];
	if (s->end - s->next < MSRC_LOW && !s->ended)
		model_src_topup(m, s); /* keeps its first packet */
	m->spart[i / 64] |= 1ull << (i % 64);
	r->any = 1;
	if (s->next->t_ns < r->lo)
		r->lo = s->next->t_ns;
	uint64_t h = s->end[-1].t_ns;
	if (h > r->top)
		r->top = h;
	if (!s->ended) {
		r->open = 1;
		if (h < r->H || (h == r->H && i < r->J)) {
			r->H = h;
			r->J = i;
		}
	}
}

/* A round visits the waiting sources by popping the heap, which costs
 * some log2(sources) steps each, or, when rounds are large against the
 * number of sources (the last one took SQ_SCAN packets or more per
 * source, as when most of them take part in every round), in one pass
 * over the sources, after which the heap is rebuilt when a round next
 * uses it (sq_after_scan).  The
 * pass visits a source whose first packet is at or before H as known so
 * far (it only decreases), so maybe some that popping would not reach:
 * those take nothing, they are only topped up sooner. */
#define SQ_SCAN 8

/* Merge the next round into the stream (it has been taken to its
 * marker).  Only the sources whose first packet not in the stream is at
 * or before the round's end H are visited (from the heap, in time order,
 * or in one pass over all sources, see SQ_SCAN; any other has all its
 * packets after H, and its last buffered one after H too, so it changes
 * neither H nor J), then, in index order, the ones taking part (a bit
 * each). */
void model_arr_merge(struct model *m)
{
	struct sq_round r = {.H = UINT64_MAX, .lo = UINT64_MAX, .top = 0, .J = UINT32_MAX};
	uint32_t n = 0, nw = (m->nsrc + 63) / 64;
	/* the stream holds the last round's packets, then its marker */
	int heap = (uint64_t)(m->arr_next - m->arr) < SQ_SCAN * (uint64_t)m->nsrc;
	if (heap && m->sq_stale)
		sq_build(m); /* not built after the last round (the empty
			      * sources join it below, topped up) */
	/* the sources the last round left empty: topped up now (back in the
	 * heap, or, without it, when a round next uses it) */
	for (uint32_t k = 0; k < m->nspend; k++) {
		uint32_t i = m->spend[k];
		struct msrc *s = &m->srcs[i];
		if (!s->ended)
			model_src_topup(m, s);
		if (s->next == s->end)
			s->live = 0; /* ended and empty */
		else if (heap)
			model_tk_push(m->sq, &m->nsq, s->next->t_ns, i);
	}
	m->nspend = 0;
	if (heap) {
		while (m->nsq > 0 && m->sq[0].t <= r.H) {
			uint32_t i = m->sq[0].id;
			model_tk_pop(m->sq, &m->nsq);
			sq_visit(m, &r, i);
		}
	} else {
		/* (every live one has packets now: the empty ones ended) */
		m->nsq = 0; /* (built again when a round uses it) */
		for (uint32_t i = 0; i < m->nsrc; i++) {
			const struct msrc *s = &m->srcs[i];
			if (s->live && s->next < s->end && s->next->t_ns <= r.H)
				sq_visit(m, &r, i);
		}
	}
	uint64_t H = r.H, lo = r.lo, top = r.top;
	uint32_t J = r.J;
	int open = r.open, any = r.any;
	if (!any) {
		m->arr_next = m->arr;
		arr_mark(m, m->arr, 0, 1);
		return;
	}
	if (open)
		top = H;
	/* what each source gives: times up to lim (see above) */
	int dense = top - lo < ARR_NB;
	uint32_t *cnt = m->arr_cnt;
	/* the counter of time t is at cbase + t * 4 (one address step a
	 * packet: the address of cnt[t - lo], found without the subtraction);
	 * in integers, since cnt - lo may point outside the array, and turned
	 * back into a pointer only for t in lo..top (implementation-defined
	 * in C, a plain address on the targets GCC and Clang support) */
	uintptr_t cbase = (uintptr_t)cnt - (uintptr_t)lo * sizeof(*cnt);
#define ARR_CNT(t) ((uint32_t *)(cbase + (uintptr_t)(t) * sizeof(uint32_t)))
	if (dense)
		memset(cnt, 0, (size_t)(top - lo + 1) * sizeof(*cnt));
	for (uint32_t w = 0; w < nw; w++) {
		for (uint64_t bits = m->spart[w]; bits != 0; bits &= bits - 1) {
			uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(bits);
			struct msrc *s = &m->srcs[i];
			struct model_pkt *p = s->next, *e = s->end;
			uint64_t lim = i <= J ? H : H - 1;
			if (i > J && H == 0)
				e = p;
			if (dense) {
				for (; p < e && p->t_ns <= lim; p++) {
					p->src = i;
					(*ARR_CNT(p->t_ns))++;
				}
			} else {
				for (struct arr_ent *k = &m->arr_key[n]; p < e && p->t_ns <= lim;
				     p++, k++) {
					p->src = i;
					k->t = p->t_ns - lo;
					k->p = p;
				}
			}
			s->ntake = (uint32_t)(p - s->next);
			n += s->ntake;
		}
	}
	if (dense) {
		/* (unrolled: the loop's own steps cost as much as its work) */
#pragma GCC unroll 4
		for (uint32_t d = 0, sum = 0; d <= top - lo; d++) {
			uint32_t c = cnt[d];
			cnt[d] = sum;
			sum += c;
		}
		for (uint32_t w = 0; w < nw; w++) {
			for (uint64_t bits = m->spart[w]; bits != 0; bits &= bits - 1) {
				const struct msrc *s = &m->srcs[w * 64 + __builtin_ctzll(bits)];
				for (const struct model_pkt *p = s->next, *e = p + s->ntake; p < e;
				     p++) {
					struct arr_ent *d = &m->arr[(*ARR_CNT(p->t_ns))++];
					d->t = p->t_ns;
					d->p = p;
				}
			}
		}
	} else {
		arr_radix(m, n, lo, top - lo);
	}
#undef ARR_CNT
	/* the sources taken from go back to the heap, or, emptied, wait for
	 * the next round's top-up (the stream points into their buffers) */
	for (uint32_t w = 0; w < nw; w++) {
		for (uint64_t bits = m->spart[w]; bits != 0; bits &= bits - 1) {
			uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(bits);
			struct msrc *s = &m->srcs[i];
			s->next += s->ntake;
			if (heap)
				sq_requeue(m, s, i);
		}
		m->spart[w] = 0;
	}
	if (!heap)
		sq_after_scan(m);
	m->arr_next = m->arr;
	arr_mark(m, &m->arr[n], H, !open);
}

/* Undo the round merged last: the stream's packets not yet taken go back
 * to their sources (still in their buffers), and the next round is
 * merged at once. */
void model_arr_discard(struct model *m)
{
	for (const struct arr_ent *e = m->arr_next; e->p->src < ARR_MERGE; e++)
		m->srcs[e->p->src].next--;
	sq_rebuild(m);
	m->arr_next = m->arr;
	arr_mark(m, m->arr, m->now, 0);
}
