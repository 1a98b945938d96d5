/*
 * model_arrival.c - the switch model's arrivals: the sources' packets,
 * checked and clamped in time as they are taken from each source
 * (model_src_topup), merged a round at a time into the one arrival
 * stream that run_loop (model.c) takes from, in arrival order
 * (model_arr_merge), and the header bytes of a packet its source did not
 * give them with (model_src_header).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "agent/model/model_engine.h"

/*
 * Arrivals.  A source's packets wait in its buffer (struct msrc) with
 * their times clamped to be non-decreasing: a packet earlier than the one
 * before it, or than the clock when the source was added, arrives at that
 * time (as if each packet were asked for when the one before it arrives).
 * The packets of all sources are merged, a round at a time, into one
 * stream in arrival order, time then the tie key (model.h model_tie_key:
 * a fresh order of the sources for every 65536 ns), then source index
 * (then a source's own order): entries of a time and a pointer to the packet, which stays in
 * its source's buffer until offered.  run_loop takes from the stream; its
 * marker, after its last packet, says from what time on packets are
 * missing, and run_loop merges the next round when it reaches that time
 * (ports before arrivals at equal times, then the heap and the tick).
 *
 * A round takes an exact prefix of the arrival order: with H the earliest
 * time of a live source's last buffered packet, every packet before H is
 * known (more of that source may still come at H), so the round takes
 * from every source its packets at times < H, and leaves the ns H whole
 * to a later round, where its packets are ordered by their tie keys.
 * Only when there is no packet before H (a source with MSRC_LOW or more
 * packets left, all at H) does the round take packets at H: those of the
 * sources up to J in tie key order, J the first in that order of the
 * sources whose last buffered packet is at H (all of J's: it is then
 * empty and topped up with a whole batch in the next round); the ns is
 * split, but along the tie key order, so the order is the same.  It sorts them by
 * counting (1-ns buckets, filled a tie period at a time with the sources
 * in tie key order: arr_place), or by radix when they span more than
 * ARR_NB ns (sources in index order: stable), then each run of equal
 * times by tie key (arr_ties).  Sources are topped up only at the
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

/* arr_ties: order by tie key, then source, then place in the source's
 * buffer (a source's packets in its order). */
static inline int tie_cmp(const void *x, const void *y)
{
	const struct arr_ent *a = x, *b = y;
	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	if (a->p->src != b->p->src)
		return a->p->src < b->p->src ? -1 : 1;
	uintptr_t pa = (uintptr_t)a->p, pb = (uintptr_t)b->p;
	return pa < pb ? -1 : pa > pb;
}

/* The run a[0..len) of arrivals at one ns (len >= 2) into tie key order
 * (model.h), by way of key, its scratch (len entries). */
static __attribute__((noinline)) void arr_tie_run(struct arr_ent *a, uint32_t len,
						  struct arr_ent *key)
{
	uint64_t t = a[0].t;
	uint32_t src0 = a[0].p->src, k;
	for (k = 1; k < len && a[k].p->src == src0; k++)
		;
	if (k == len)
		return; /* one source: its own order already */
	for (k = 0; k < len; k++) {
		key[k].t = model_tie_key(t, a[k].p->src);
		key[k].p = a[k].p;
	}
	if (len <= 16) {
		/* insertion sort (stable: equal keys are one source's, in its
		 * order, or, all but never, two sources' by index) */
		for (k = 1; k < len; k++) {
			struct arr_ent x = key[k];
			uint32_t j = k;
			while (j > 0 && tie_cmp(&key[j - 1], &x) > 0) {
				key[j] = key[j - 1];
				j--;
			}
			key[j] = x;
		}
	} else {
		qsort(key, len, sizeof(*key), tie_cmp);
	}
	for (k = 0; k < len; k++)
		a[k].p = key[k].p; /* (the time is t for all) */
}

/* Order every run of equal times of the round's n sorted arrivals by tie
 * key. */
static void arr_ties(struct model *m, uint32_t n)
{
	struct arr_ent *a = m->arr;
	for (uint32_t x = 1; x < n; x++) {
		if (__builtin_expect(a[x].t != a[x - 1].t, 1))
			continue;
		uint32_t s0 = x - 1, e = x + 1;
		while (e < n && a[e].t == a[s0].t)
			e++;
		arr_tie_run(a + s0, e - s0, m->arr_key);
		x = e - 1;
	}
}

/* Is source i, at ns t, at or before (key k, source j) in tie key
 * order? */
static inline int tie_before(uint64_t t, uint32_t i, uint32_t k, uint32_t j)
{
	uint32_t ki = model_tie_key(t, i);
	return ki < k || (ki == k && i <= j);
}

/* A round with no packet before H: of the sources taking part whose last
 * buffered packet is at H (and may have more there), the first in tie key
 * order: its index, its key in *k. */
static uint32_t tie_last(const struct model *m, uint64_t H, uint32_t *k)
{
	uint32_t j = UINT32_MAX, nw = (m->nsrc + 63) / 64;
	for (uint32_t w = 0; w < nw; w++) {
		for (uint64_t bits = m->spart[w]; bits != 0; bits &= bits - 1) {
			uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(bits);
			const struct msrc *s = &m->srcs[i];
			if (s->ended || s->end[-1].t_ns != H)
				continue;
			if (j == UINT32_MAX || !tie_before(H, j, model_tie_key(H, i), i)) {
				j = i;
				*k = model_tie_key(H, i);
			}
		}
	}
	return j;
}

/* The order of the nl sources in list[] (index order) for tie period e:
 * by tie key, then index (insertion for few, else two counting passes
 * over the key's bytes, stable), into out[]; tmp: nl entries, cnt: 256
 * counters. */
static void tie_order(uint64_t e, const uint32_t *list, uint32_t nl, uint32_t *out, uint64_t *tmp,
		      uint64_t *key, uint32_t *cnt)
{
	uint64_t t = e << MODEL_TIE_SHIFT;
	if (nl <= 16) {
		for (uint32_t k = 0; k < nl; k++) {
			uint32_t i = list[k], j = k;
			uint64_t ki = model_tie_key(t, i);
			while (j > 0 && key[j - 1] > ki) {
				key[j] = key[j - 1];
				out[j] = out[j - 1];
				j--;
			}
			key[j] = ki;
			out[j] = i;
		}
		return;
	}
	for (uint32_t k = 0; k < nl; k++)
		key[k] = (uint64_t)model_tie_key(t, list[k]) << 32 | k; /* its place in list */
	const uint64_t *src = key;
	uint64_t *dst = tmp;
	for (unsigned sh = 32; sh <= 40; sh += 8) {
		memset(cnt, 0, 256 * sizeof(*cnt));
		for (uint32_t k = 0; k < nl; k++)
			cnt[(src[k] >> sh) & 255]++;
		for (uint32_t b = 0, sum = 0; b < 256; b++) {
			uint32_t c = cnt[b];
			cnt[b] = sum;
			sum += c;
		}
		for (uint32_t k = 0; k < nl; k++)
			dst[cnt[(src[k] >> sh) & 255]++] = src[k];
		src = dst;
		dst = dst == tmp ? key : tmp;
	}
	for (uint32_t k = 0; k < nl; k++)
		out[k] = list[(uint32_t)src[k]];
}

/* The dense round's placement: the packets the sources take (ntake from
 * next) into the stream at their buckets' places (ARR_CNT's counters at
 * cbase, the sums before each bucket), a tie period at a time, the
 * sources in tie key order within it, so that each bucket holds its ns's
 * packets in tie key order.  Scratch from arr_key (unused by a dense
 * round). */
static void arr_place(struct model *m, uintptr_t cbase, uint64_t lo, uint64_t top)
{
	uint32_t nw = (m->nsrc + 63) / 64, nl = 0, n = m->nsrc;
	/* (arr_key holds 16 bytes x (64 x (nsrc + 1) + 1) or more: room for
	 * these 28 x nsrc + 1024 bytes) */
	uint64_t *key = (uint64_t *)(void *)m->arr_key, *tmp = key + n;
	uint32_t *list = (uint32_t *)(void *)(tmp + n), *ord = list + n, *pos = ord + n,
		 *cnt = pos + n;
	for (uint32_t w = 0; w < nw; w++)
		for (uint64_t bits = m->spart[w]; bits != 0; bits &= bits - 1) {
			uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(bits);
			if (m->srcs[i].ntake > 0)
				list[nl++] = i;
		}
	uint64_t e = lo >> MODEL_TIE_SHIFT;
	if (e == top >> MODEL_TIE_SHIFT && (uint64_t)nl * 8 >= n) {
		/* one tie period, and most sources take part (the common
		 * case): the order of all sources for the period, kept */
		if (m->tie_e != e) {
			for (uint32_t k = 0; k < n; k++)
				ord[k] = k;
			tie_order(e, ord, n, m->tie_ord, tmp, key, cnt);
			m->tie_e = e;
		}
		for (uint32_t k = 0; k < n; k++) {
			uint32_t i = m->tie_ord[k];
			const struct msrc *s = &m->srcs[i];
			if (s->ntake == 0 || !(m->spart[i / 64] >> (i % 64) & 1))
				continue;
			for (const struct model_pkt *p = s->next, *end = p + s->ntake; p < end;
			     p++) {
				struct arr_ent *d = &m->arr[(*(
				    uint32_t *)(cbase + (uintptr_t)p->t_ns * sizeof(uint32_t)))++];
				d->t = p->t_ns;
				d->p = p;
			}
		}
		return;
	}
	for (uint32_t k = 0; k < nl; k++)
		pos[list[k]] = 0;
	while (nl > 0) {
		if (nl == 1)
			ord[0] = list[0];
		else
			tie_order(e, list, nl, ord, tmp, key, cnt);
		uint64_t en = UINT64_MAX, lim = ((e + 1) << MODEL_TIE_SHIFT) - 1;
		for (uint32_t k = 0; k < nl; k++) {
			uint32_t i = ord[k];
			const struct msrc *s = &m->srcs[i];
			const struct model_pkt *p = s->next + pos[i], *end = s->next + s->ntake;
			for (; p < end && p->t_ns <= lim; p++) {
				struct arr_ent *d = &m->arr[(*(
				    uint32_t *)(cbase + (uintptr_t)p->t_ns * sizeof(uint32_t)))++];
				d->t = p->t_ns;
				d->p = p;
			}
			pos[i] = (uint32_t)(p - s->next);
			if (p < end && (p->t_ns >> MODEL_TIE_SHIFT) < en)
				en = p->t_ns >> MODEL_TIE_SHIFT;
		}
		/* the sources with packets left, in index order */
		uint32_t k2 = 0;
		for (uint32_t k = 0; k < nl; k++) {
			uint32_t i = list[k];
			if (pos[i] < m->srcs[i].ntake)
				list[k2++] = i;
		}
		nl = k2;
		e = en;
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
	/* whole: the ns H is left whole to a later round (see above); else
	 * (a source with only packets at H left and more maybe to come) the
	 * sources take their packets at H in tie key order up to the first,
	 * (Hk, J), of those whose last buffered one is at H */
	int whole = open && lo < H;
	uint32_t Hk = 0;
	if (open && !whole)
		J = tie_last(m, H, &Hk);
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
			/* (H: UINT64_MAX if !open) */
			int at_h = !open || (!whole && tie_before(H, i, Hk, J));
			uint64_t lim = at_h ? H : H - 1;
			if (!at_h && H == 0)
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
		arr_place(m, cbase, lo, top);
	} else {
		arr_radix(m, n, lo, top - lo);
		arr_ties(m, n);
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
