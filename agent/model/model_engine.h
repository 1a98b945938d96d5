/*
 * model_engine.h - what the switch model engine's sources share: model.c
 * (the per-packet path, the calendar and the run loop), model_heap.c (the
 * heaps), model_arrival.c (the sources' merge into the arrival stream),
 * model_tick.c (the background marker tick) and model_setup.c (model_new,
 * model_add_source).  The helpers the per-packet path calls are inline
 * here, so that splitting the engine costs it no call; the rest are
 * functions of the source named at each.  Not for model_telem.c nor the
 * library's users (model.h).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_MODEL_MODEL_ENGINE_H
#define BSFLOWD_MODEL_MODEL_ENGINE_H

#include "agent/model/model_int.h"

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

/* ---------------------------------------------------------------- stop_t */

/* The calendar's (model.c): no leaf, and cal_scan's bucket for a far event */
#define CAL_NONE UINT32_MAX
#define CAL_FAR	 (CAL_W + 1)

/* The time after t (UINT64_MAX stays: nothing is after it). */
static inline uint64_t stop_after(uint64_t t)
{
	return t == UINT64_MAX ? t : t + 1;
}

/* stop_t from its terms (struct model says what they are): after a term
 * may have risen (the heap's root moved, a tick ran, the stream has a new
 * marker, a run starts, a far event is no longer the next).  It does not
 * know the run's count of events left: run_loop sets 0 again after it
 * when none is (stop_all). */
static inline void stop_update(struct model *m)
{
	uint64_t r = m->heap_t < m->tick_t ? m->heap_t : m->tick_t;
	r = r < m->run_lim ? r : m->run_lim;
	r = stop_after(r);
	r = r < m->arr_stop ? r : m->arr_stop;
	m->stop_t = m->pk_b == CAL_FAR && m->pk_t < r ? m->pk_t : r;
}

/* A term fell to t (a far event became the next port event, the tick was
 * armed): stop_t goes down to t if it is above. */
static inline void stop_lower(struct model *m, uint64_t t)
{
	if (t < m->stop_t)
		m->stop_t = t;
}

/* The run may take no more events: every one goes the careful way. */
static inline void stop_all(struct model *m)
{
	m->stop_t = 0;
}

/* The heap's first time is now t (UINT64_MAX: empty). */
static inline void heap_root_moved(struct model *m, uint64_t t)
{
	m->heap_t = t;
	stop_update(m);
}

/* ---------------------------------------------------------------- heaps */

/* model_heap.c: the rare events' 4-ary heap (struct model heap), ordered
 * by (time, insertion number): push, the root replaced by e (a heap
 * event rescheduled while it runs), pop the root; room for need events
 * (0, or -1: out of memory). */
void model_heap_push(struct model *m, uint64_t t, uint32_t id);
void model_heap_sift_root(struct model *m, struct mheap_ent e);
void model_heap_pop(struct model *m);
int model_heap_reserve(struct model *m, uint32_t need);

/* model_heap.c: a binary min-heap of n entries by time (ties in any
 * order), for the calendar's far events and the merge's sources: push,
 * and pop the first. */
void model_tk_push(struct mtk *h, uint32_t *n, uint64_t t, uint32_t id);
void model_tk_pop(struct mtk *h, uint32_t *np);

/* ---------------------------------------------------------------- arrivals */

/* The stream's marker at e: merge from time t on, or (end) nothing left. */
static inline void arr_mark(struct model *m, struct arr_ent *e, uint64_t t, int end)
{
	e->t = end ? UINT64_MAX : t;
	e->p = &m->arr_mark[end ? 1 : 0];
	m->arr_stop = e->t;
	stop_update(m);
}

/* model_arrival.c: a packet's header bytes from its source (NULL: none);
 * top up a source's buffer; merge the next round into the stream; undo
 * the round merged last (a source was added). */
const uint8_t *model_src_header(const struct model *m, const struct mpkt *b);
void model_src_topup(struct model *m, struct msrc *s);
void model_arr_merge(struct model *m);
void model_arr_discard(struct model *m);

/* ---------------------------------------------------------------- tick */

/* Arm the background tick (something was buffered): its next tick is
 * at the next multiple of marker_tick_ns after now, and it takes an
 * insertion number as a heap event would (ties with PFC releases). */
static inline void arm_tick(struct model *m)
{
	if (m->tick_armed || m->cfg.marker_tick_ns == 0)
		return;
	uint64_t T = m->cfg.marker_tick_ns;
	m->tick_armed = 1;
	m->tick_t = (m->now / T + 1) * T;
	m->tick_seq = m->seq++;
	stop_lower(m, stop_after(m->tick_t));
}

/* model_tick.c: run the ticks due before t, by lim, at most max of them;
 * the number run. */
uint64_t model_tick_run(struct model *m, uint64_t t, uint64_t lim, uint64_t max);

#endif
