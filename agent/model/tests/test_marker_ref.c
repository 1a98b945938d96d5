/*
 * test_marker_ref.c - the engine's marker delay against the
 * reference tracker (model_marker_*, model.h) on randomized traffic.
 *
 * A random small switch (2-5 ports of mixed speeds, 1-3 unicast queues,
 * strict priority or DWRR, a large buffer) gets Poisson streams with
 * random sizes at loads near or above its ports' rates, with enqueue and
 * dequeue events on for every queue.  The test takes the events from the
 * ring and feeds, per queue, a struct model_marker: enqueue (pkt_id,
 * t_ns), dequeue (pkt_id, t_ns, queue empty after it), and the background
 * refresh of the engine's marker tick (marker_tick_queues 0: every
 * non-empty queue at each multiple of marker_tick_ns while anything is
 * buffered; armed by an enqueue at the next multiple; after the events of
 * its ns).  At fixed steps it reads model_read_delay of every queue and
 * requires mk_delay_ns to equal the tracker's refresh at that time and
 * mk_max_ns the largest delay the tracker stored since the last read (at
 * least the delay at that read).  Half of the configurations run with the
 * tick off (marker_tick_ns 0), the others with random periods.
 *
 * The tracker is fed in the engine's order of events: at one ns a
 * departure before an arrival (model.h, Timing).  A second tracker fed
 * same-ns enqueues first (the order of the marker worked example's step
 * t8, a hardware clock cycle) shows how often that order would give a
 * different delay (printed for information, not a failure).
 *
 * TEST_MARKER_N configurations (default 500) from TEST_MARKER_SEED
 * (default 1); a failure prints the seed.  TEST_MARKER_TRACE=PORT:QUEUE
 * prints that queue's events as they are fed.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/model/model.h"
#include "agent/model/tests/tsrc.h"

#define MAXQ 3

static uint64_t rnd_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint32_t u(uint64_t *s, uint32_t n)
{
	return (uint32_t)(rnd_next(s) % n);
}

/* One queue as the test sees it: the tracker in engine order (a), the
 * one in enqueue-first order (b), the copies in the queue, the maxima. */
struct rq {
	struct model_marker a, b;
	uint64_t n, nb;
	uint64_t amax, bmax;
};

struct ref {
	unsigned np, nq;
	struct rq q[8][MAXQ];
	uint64_t buffered; /* copies in all queues */
	uint64_t T;	   /* tick period, 0: none */
	int armed;
	uint64_t tick_t;
	/* same-clock group for tracker b */
	struct model_event *grp;
	size_t ngrp, capgrp;
};

/* TEST_MARKER_TRACE=PORT:QUEUE prints that queue's events (debugging). */
static int trace_port = -1, trace_queue = -1;

static void fold(uint64_t *max, uint64_t d)
{
	if (d > *max)
		*max = d;
}

/* The engine's ticks before time t (inclusive: at t, after its events). */
static void ticks_until(struct ref *r, uint64_t t, int inclusive)
{
	while (r->armed && (r->tick_t < t || (inclusive && r->tick_t == t))) {
		for (unsigned p = 0; p < r->np; p++)
			for (unsigned k = 0; k < r->nq; k++) {
				struct rq *q = &r->q[p][k];
				if (q->n > 0)
					fold(&q->amax, model_marker_refresh(&q->a, r->tick_t));
				if (q->nb > 0)
					fold(&q->bmax, model_marker_refresh(&q->b, r->tick_t));
			}
		if (r->buffered > 0)
			r->tick_t += r->T;
		else
			r->armed = 0;
	}
}

/* Tracker b's same-clock group: enqueues, then dequeues. */
static void flush_group(struct ref *r)
{
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < r->ngrp; i++) {
			const struct model_event *e = &r->grp[i];
			struct rq *q = &r->q[e->out_port][e->queue];
			if (pass == 0 && e->type == MODEL_EV_ENQUEUE) {
				model_marker_enqueue(&q->b, e->pkt_id, e->t_ns);
				q->nb++;
			} else if (pass == 1 && e->type == MODEL_EV_DEQUEUE) {
				q->nb--;
				model_marker_dequeue(&q->b, e->pkt_id, e->t_ns, q->nb == 0);
				fold(&q->bmax, q->b.delay);
			}
		}
	r->ngrp = 0;
}

/* One event from the ring, in ring order; 0 or -1 (inconsistent). */
static int feed(struct ref *r, const struct model_event *e)
{
	if (e->type != MODEL_EV_ENQUEUE && e->type != MODEL_EV_DEQUEUE)
		return 0;
	if (e->mc || e->out_port >= r->np || e->queue >= r->nq)
		return -1;
	if (r->ngrp > 0 && r->grp[0].t_ns != e->t_ns)
		flush_group(r);
	ticks_until(r, e->t_ns, 0);
	struct rq *q = &r->q[e->out_port][e->queue];
	if (trace_port == e->out_port && trace_queue == e->queue)
		printf("  t %" PRIu64 " %s id %" PRIu64 " depth %" PRIu32 "\n", e->t_ns,
		       e->type == MODEL_EV_ENQUEUE ? "enq" : "deq", e->pkt_id, e->depth_bytes);
	if (e->type == MODEL_EV_ENQUEUE) {
		model_marker_enqueue(&q->a, e->pkt_id, e->t_ns);
		q->n++;
		r->buffered++;
		if (!r->armed && r->T != 0) {
			r->armed = 1;
			r->tick_t = (e->t_ns / r->T + 1) * r->T;
		}
	} else {
		if (q->n == 0)
			return -1;
		q->n--;
		r->buffered--;
		if ((q->n == 0) != (e->depth_bytes == 0))
			return -1;
		model_marker_dequeue(&q->a, e->pkt_id, e->t_ns, q->n == 0);
		fold(&q->amax, q->a.delay);
	}
	if (r->ngrp == r->capgrp) {
		r->capgrp = r->capgrp ? 2 * r->capgrp : 64;
		r->grp = realloc(r->grp, r->capgrp * sizeof(*r->grp));
		if (r->grp == NULL)
			abort();
	}
	r->grp[r->ngrp++] = *e;
	return 0;
}

/* Run configuration `seed`: 0 agree, 1 differ, -1 error.  *reads and
 * *bdiff get the delay reads compared and those where tracker b
 * (enqueue-first) differs from the engine. */
static int run_one(uint64_t seed, uint64_t *reads, uint64_t *bdiff, uint64_t *events)
{
	static const uint64_t speeds[] = {1000000000ULL, 10000000000ULL, 25000000000ULL,
					  100000000000ULL};
	static const uint64_t ticks[] = {0, 0, 0, 100, 500, 1000, 3000};
	static struct model_event ev[1024];
	uint64_t rs = seed * 0x9e3779b97f4a7c15ULL + 3;
	struct model_config cfg;
	struct ref r;
	unsigned np = 2 + u(&rs, 4), nq = 1 + u(&rs, MAXQ);
	int rc = 0;

	memset(&r, 0, sizeof(r));
	if (tcfg_simple(&cfg, np, 10000000000ULL) < 0)
		return -1;
	r.np = np;
	r.nq = nq;
	r.T = ticks[u(&rs, 7)];
	cfg.marker_tick_ns = r.T;
	cfg.marker_tick_queues = 0;
	cfg.event_capacity = 1u << 16;
	cfg.event_hdr_bytes = 0;
	for (unsigned p = 0; p < np; p++) {
		struct model_port_config *pc = &cfg.ports[p];
		pc->speed_bps = speeds[u(&rs, 4)];
		pc->n_ucq = (uint8_t)nq;
		unsigned dwrr = u(&rs, 2);
		for (unsigned k = 0; k < nq; k++) {
			pc->ucq[k].sched = (uint8_t)(dwrr ? MODEL_SCHED_DWRR : MODEL_SCHED_SP);
			pc->ucq[k].weight = 1 + u(&rs, 4);
		}
		for (unsigned t = 0; t < MODEL_NUM_TC; t++)
			pc->tc_to_ucq[t] = (uint8_t)(t % nq);
	}
	struct model *m = tmodel(&cfg);
	for (unsigned p = 0; p < np; p++)
		for (unsigned k = 0; k < nq; k++)
			if (model_set_queue_events(m, p, k, 0,
						   MODEL_QEV_ENQUEUE | MODEL_QEV_DEQUEUE, NULL) < 0)
				abort();
	/* streams: each toward a random port and class at a random share of
	 * its rate, some in bursts of equal times (TS_CONST gaps) */
	unsigned ns = 2 + u(&rs, 6);
	double span = 0; /* the longest stream's time */
	for (unsigned i = 0; i < ns; i++) {
		struct tsrc_spec sp;
		memset(&sp, 0, sizeof(sp));
		sp.in_port = (uint16_t)u(&rs, np);
		sp.out_port = (uint16_t)u(&rs, np);
		sp.tc = (uint8_t)u(&rs, MODEL_NUM_TC);
		sp.t0_ns = u(&rs, 2000);
		sp.len_dist = u(&rs, 2) ? TS_EXP : TS_CONST;
		sp.len = 64 + u(&rs, 1400);
		sp.gap_dist = u(&rs, 4) ? TS_EXP : TS_CONST;
		double ser = tsrc_ser_ns((uint32_t)sp.len, cfg.ports[sp.out_port].speed_bps);
		sp.gap_ns = ser * (0.5 + u(&rs, 300) / 100.0) * ns / 2.0;
		sp.count = 100 + u(&rs, 800);
		sp.seed = rnd_next(&rs);
		sp.flow_id = i;
		if (sp.gap_ns * (double)sp.count > span)
			span = sp.gap_ns * (double)sp.count;
		tadd(m, &sp);
	}
	/* about 400 reads over the traffic's time, at an odd step */
	uint64_t step = (uint64_t)(span / 400) + 100 + u(&rs, 1000);
	for (uint64_t t = step; rc == 0; t += step) {
		int more = model_advance_to(m, t) == 0 && !model_idle(m);
		size_t n;
		while ((n = model_events_read(m, ev, sizeof(ev) / sizeof(ev[0]))) > 0) {
			*events += n;
			for (size_t i = 0; i < n; i++)
				if (feed(&r, &ev[i]) < 0) {
					printf("FAIL: seed %" PRIu64
					       ": event stream inconsistent at "
					       "t %" PRIu64 " port %u queue %u\n",
					       seed, ev[i].t_ns, ev[i].out_port, ev[i].queue);
					rc = 1;
				}
		}
		flush_group(&r);
		ticks_until(&r, t, 1);
		for (unsigned p = 0; p < np && rc == 0; p++)
			for (unsigned k = 0; k < nq && rc == 0; k++) {
				struct rq *q = &r.q[p][k];
				struct model_delay d;
				model_read_delay(m, 0, p, k, 0, &d);
				uint64_t a = model_marker_refresh(&q->a, t);
				uint64_t b = model_marker_refresh(&q->b, t);
				fold(&q->amax, a);
				fold(&q->bmax, b);
				(*reads)++;
				if (d.mk_delay_ns != b || d.mk_max_ns != q->bmax) {
					if (*bdiff == 0)
						printf("note: seed %" PRIu64 " t %" PRIu64
						       " port %u queue %u: engine delay %" PRIu64
						       " max %" PRIu64
						       ", enqueue-first tracker %" PRIu64
						       " max %" PRIu64 "\n",
						       seed, t, p, k, d.mk_delay_ns, d.mk_max_ns, b,
						       q->bmax);
					(*bdiff)++;
				}
				if (d.mk_delay_ns != a || d.mk_max_ns != q->amax) {
					printf("FAIL: seed %" PRIu64 " (TEST_MARKER_SEED=%" PRIu64
					       " TEST_MARKER_N=1): t %" PRIu64 " port %u queue %u: "
					       "engine delay %" PRIu64 " max %" PRIu64
					       ", tracker %" PRIu64 " max %" PRIu64
					       " (tick %" PRIu64 " ns)\n",
					       seed, seed, t, p, k, d.mk_delay_ns, d.mk_max_ns, a,
					       q->amax, r.T);
					rc = 1;
				}
				q->amax = a;
				q->bmax = b;
			}
		if (!more)
			break;
	}
	struct model_stats st;
	model_get_stats(m, &st);
	if (rc == 0 && st.events_lost != 0) {
		printf("FAIL: seed %" PRIu64 ": %" PRIu64 " events lost\n", seed, st.events_lost);
		rc = -1;
	}
	model_free(m);
	model_config_release(&cfg);
	free(r.grp);
	return rc;
}

int main(void)
{
	const char *es = getenv("TEST_MARKER_SEED"), *en = getenv("TEST_MARKER_N");
	uint64_t seed = es && *es ? strtoull(es, NULL, 0) : 1;
	unsigned n = en && *en ? (unsigned)strtoul(en, NULL, 0) : 500;
	uint64_t reads = 0, bdiff = 0, events = 0;
	unsigned bad = 0;
	const char *tr = getenv("TEST_MARKER_TRACE");

	if (tr && sscanf(tr, "%d:%d", &trace_port, &trace_queue) != 2)
		trace_port = trace_queue = -1;

	for (unsigned i = 0; i < n; i++)
		if (run_one(seed + i, &reads, &bdiff, &events) != 0)
			bad++;
	printf("%u configurations from seed %" PRIu64 ": %" PRIu64 " queue events, %" PRIu64
	       " delay reads, %u differ; in enqueue-first order the tracker differs at %" PRIu64
	       " reads\n",
	       n, seed, events, reads, bad, bdiff);
	return bad ? 1 : 0;
}
