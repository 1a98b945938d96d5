/*
 * model_tick.c - the switch model's background marker tick: the marker
 * marker of every queue holding packets refreshed in turn, k queue
 * positions every marker_tick_ns (model.h: marker_tick_ns,
 * marker_tick_queues), run by run_loop's careful path (model.c) when due.
 * arm_tick (model_engine.h) arms it from the enqueue path.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include "agent/model/model_engine.h"

/*
 * The background marker refresh: the next k queue positions (tick_k of
 * tick_nq = ports x MQ_SLOTS), round robin, every marker_tick_ns while
 * anything is buffered.  Only a queue with a marker changes, and a queue
 * with a marker holds packets (its marker is one of them), so each port's
 * bitmap of nonempty slots picks the queues to visit: the result is that
 * of visiting all k positions, without reading the empty ones.  The tick
 * is not a heap event (it runs every marker_tick_ns at light loads, where
 * a heap event's cost would count): run_loop runs it at its time, by its
 * insertion number among the heap's events at the same time, as a heap
 * event would be run.  At light loads several ticks fall between two
 * other events: they run as one (model_tick_run).
 */

/* A tick's refresh of queue q: its marker delay now, and its max. */
static inline void tick_refresh(struct mqueue *q, uint64_t now)
{
	if (q->head == NULL) /* no marker (q_mk_enqueue) */
		return;
	uint64_t d = q_mk_refresh(q, now);
	if (d > q->mk_max)
		q->mk_max = d;
}

/* Refresh the queues at n positions from pos (n <= tick_nq) at time now;
 * the position after them. */
static uint32_t tick_visit(struct model *m, uint32_t pos, uint32_t n, uint64_t now)
{
	if (pos % MQ_SLOTS == 0 && n % MQ_SLOTS == 0) {
		/* whole ports (pos is a port's first slot) */
		struct mport *P = &m->ports[pos / MQ_SLOTS], *end = &m->ports[m->np];
		for (n /= MQ_SLOTS; n > 0; n--) {
			for (uint32_t bits = P->nonempty; bits != 0; bits &= bits - 1u)
				tick_refresh(&P->q[__builtin_ctz(bits)], now);
			if (++P == end)
				P = m->ports;
		}
		return (uint32_t)(P - m->ports) * MQ_SLOTS;
	}
	while (n > 0) {
		uint32_t s0 = pos % MQ_SLOTS, c = MQ_SLOTS - s0;
		if (c > n)
			c = n;
		struct mport *P = &m->ports[pos / MQ_SLOTS];
		uint32_t bits = (uint32_t)P->nonempty & (((1u << c) - 1u) << s0);
		for (; bits != 0; bits &= bits - 1u)
			tick_refresh(&P->q[__builtin_ctz(bits)], now);
		n -= c;
		pos += c;
		if (pos == m->tick_nq)
			pos = 0;
	}
	return pos;
}

/* Run the ticks from the next one (due: run_careful) that come before t
 * (the next per-packet event: at the same time a tick goes after it), by
 * lim and before the heap's root, at most max (>= 1) of them: as one,
 * since nothing else happens between them.  A queue refreshed by several
 * ends as if refreshed by the last only (the delay a refresh sets only
 * grows with its time while the marker stays, and the max with it), so
 * each position is visited once, by the last of the ticks that reach it.
 * The number of ticks run. */
uint64_t model_tick_run(struct model *m, uint64_t t, uint64_t lim, uint64_t max)
{
	uint64_t T = m->cfg.marker_tick_ns, t0 = m->tick_t, J = 1;
	/* nothing is buffered or taken out between them: all rearm, or
	 * the first stops the tick */
	int rearm = copies_buffered(&m->st) > 0;
	if (rearm) {
		/* the last at or before end; the first is at or before the
		 * heap's root, and the others' insertion numbers are after
		 * any heap event's, so they go before its time only */
		uint64_t end = t - 1 < lim ? t - 1 : lim;
		if (m->nheap > 0 && m->heap[0].t - 1 < end)
			end = m->heap[0].t - 1;
		if (end > t0)
			J = 1 + (end - t0) / T;
		if (J > max)
			J = max;
	}
	/* in offsets from tick_pos, tick j visits j * k .. (j + 1) * k - 1
	 * (k <= nq); an offset below J * k - nq is visited again, nq later */
	uint32_t k = m->tick_k, nq = m->tick_nq, pos = m->tick_pos;
	if (J >= (nq + k - 1) / k) {
		/* each position once at least: the queues holding packets, each
		 * at its last visit, offset J * k - nq + d for d in 0 .. nq - 1,
		 * the one congruent to its own offset modulo nq, by tick
		 * (J * k - (nq - d)) / k = J - ceil((nq - d) / k) (J * k may
		 * not fit: J is as large as the time to the limit allows) */
		uint32_t bm = (uint32_t)((J % nq) * k % nq); /* (J * k - nq) mod nq */
		for (uint32_t p = 0; p < m->np; p++) {
			struct mport *P = &m->ports[p];
			for (uint32_t bits = P->nonempty; bits != 0; bits &= bits - 1u) {
				uint32_t sl = (uint32_t)__builtin_ctz(bits), x = p * MQ_SLOTS + sl;
				uint32_t off = x >= pos ? x - pos : x + nq - pos;
				uint32_t d = off >= bm ? off - bm : off + nq - bm;
				tick_refresh(&P->q[sl], t0 + (J - (nq - d + k - 1) / k) * T);
			}
		}
		pos = pos + bm < nq ? pos + bm : pos + bm - nq;
	} else {
		for (uint64_t j = 0; j < J; j++)
			pos = tick_visit(m, pos, k, t0 + j * T);
	}
	m->tick_pos = pos;
	m->now = t0 + (J - 1) * T;
	if (rearm) {
		m->tick_t = m->now + T;
		m->seq += J;
		m->tick_seq = m->seq - 1;
	} else {
		m->tick_armed = 0;
		m->tick_t = UINT64_MAX;
	}
	stop_update(m);
	return J;
}
