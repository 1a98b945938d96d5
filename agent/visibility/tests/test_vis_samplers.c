/*
 * test_vis_samplers.c - the visibility samplers against the seed's own
 * numbers: probabilistic p = 0.55 over 10^6 events, K = 5 of M = 100,
 * every N, ticket boxes (cap, floor, jitter, two-phase spending), the
 * repeating-flow filter with its resets, the re-occurrence limiter and
 * recurrent-only filter, conjunctive and disjunctive chains, the
 * aggregate's duplicate filter and the rate manager example of doc/glossary.md (8 x 256
 * into 512, two hot ports) on a virtual clock, aggregates inside chains
 * (a child spends only when the whole tree passes the event), and sets
 * kept as ranges.
 * Every test ends by checking seen = passed + sum(rejected) for each
 * sampler it used.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

#include "agent/visibility/vis_sampler.h"

#define SEC 1000000000ULL

static char err[256];

static struct vis_sampler *mk(const struct vis_sampler_conf *c)
{
	struct vis_sampler *s = vis_sampler_new(c, err, sizeof err);

	ck_assert_msg(s != NULL, "%s", err);
	return s;
}

static void stats_add_up(const struct vis_sampler *s)
{
	struct vis_sampler_stats st;
	uint64_t sum = 0;

	vis_sampler_get_stats(s, &st);
	for (int r = 1; r < VIS_REJ_N; r++)
		sum += st.rejected[r];
	ck_assert_msg(st.seen == st.passed + sum,
		      "sampler %s: seen %llu != passed %llu + rejected %llu", vis_sampler_name(s),
		      (unsigned long long)st.seen, (unsigned long long)st.passed,
		      (unsigned long long)sum);
}

static void ev_init(struct vis_event *ev, uint32_t type, uint32_t port, uint32_t queue)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = type;
	ev->port = port;
	ev->queue = queue;
	ev->in_port = VIS_NONE;
	ev->flow_hash = 0x1234;
}

START_TEST(probabilistic_055)
{
	struct vis_sampler_conf c;
	struct vis_sampler *a, *b, *d;
	struct vis_event ev;
	unsigned long passed = 0, same = 1, differ = 0;

	vis_sampler_conf_init(&c, "p55");
	c.probability = 0.55;
	c.seed = 42;
	a = mk(&c);
	b = mk(&c);
	c.seed = 43;
	d = mk(&c);
	ev_init(&ev, VIS_EV_DROP, 0, 0);
	for (unsigned long i = 0; i < 1000000; i++) {
		int pa = vis_sampler_offer(a, &ev, i, NULL);
		int pb = vis_sampler_offer(b, &ev, i, NULL);
		int pd = vis_sampler_offer(d, &ev, i, NULL);
		passed += (unsigned long)pa;
		if (pa != pb)
			same = 0;
		if (pa != pd)
			differ++;
	}
	/* 0.55 +- 0.5 %: 545000..555000 (the binomial sd is 497) */
	ck_assert_uint_ge(passed, 545000);
	ck_assert_uint_le(passed, 555000);
	ck_assert_int_eq(same, 1);
	ck_assert_uint_gt(differ, 0);
	stats_add_up(a);
	stats_add_up(d);
	{
		struct vis_sampler_stats st;
		vis_sampler_get_stats(a, &st);
		ck_assert_uint_eq(st.passed, passed);
		ck_assert_uint_eq(st.rejected[VIS_REJ_PROBABILITY], 1000000 - passed);
	}
	vis_sampler_free(a);
	vis_sampler_free(b);
	vis_sampler_free(d);
}
END_TEST

START_TEST(k_of_m_and_every_n)
{
	struct vis_sampler_conf c;
	struct vis_sampler *k5, *e3;
	struct vis_event ev;

	vis_sampler_conf_init(&c, "k5of100");
	c.first = 5;
	c.of = 100;
	k5 = mk(&c);
	vis_sampler_conf_init(&c, "every3");
	c.every = 3;
	e3 = mk(&c);
	ev_init(&ev, VIS_EV_DROP, 0, 0);
	for (unsigned i = 1; i <= 1000; i++) {
		int want = ((i - 1) % 100) < 5; /* events 1..5 of each hundred */
		ck_assert_int_eq(vis_sampler_offer(k5, &ev, i, NULL), want);
		ck_assert_int_eq(vis_sampler_offer(e3, &ev, i, NULL), i % 3 == 0);
	}
	stats_add_up(k5);
	stats_add_up(e3);
	vis_sampler_free(k5);
	vis_sampler_free(e3);
}
END_TEST

START_TEST(ticket_cap_per_period)
{
	struct vis_sampler_conf c;
	struct vis_sampler *s;
	struct vis_event ev;
	uint64_t t = 0;

	vis_sampler_conf_init(&c, "t10");
	c.tickets = 10;
	c.cap = 10;
	c.period_ns = 1000;
	s = mk(&c);
	ev_init(&ev, VIS_EV_DROP, 0, 0);
	for (int p = 0; p < 20; p++) {
		int n = 0;
		/* 50 events per period, then a quiet stretch */
		for (int i = 0; i < 50; i++, t += 10)
			n += vis_sampler_offer(s, &ev, t, NULL);
		ck_assert_int_eq(n, 10);
		t = (uint64_t)(p + 1) * 1000;
	}
	/* a long idle time does not pile up more than the cap */
	{
		int n = 0;
		t += 1000 * 1000;
		for (int i = 0; i < 50; i++)
			n += vis_sampler_offer(s, &ev, t, NULL);
		ck_assert_int_eq(n, 10);
	}
	stats_add_up(s);
	vis_sampler_free(s);
}
END_TEST

/* A ticket is spent only when the whole chain passes. */
START_TEST(ticket_two_phase_in_chain)
{
	struct vis_sampler_conf c;
	struct vis_sampler *tk, *ff, *ch, *one;
	struct vis_event ev;
	struct vis_sampler_stats st;
	int n = 0;

	vis_sampler_conf_init(&c, "tickets");
	c.tickets = 10;
	c.period_ns = SEC;
	tk = mk(&c);
	vis_sampler_conf_init(&c, "flows");
	c.flow_filter = 1;
	ff = mk(&c);
	vis_sampler_conf_init(&c, "chain");
	c.kind = VIS_NODE_CHAIN_ALL;
	ch = mk(&c);
	ck_assert_int_eq(vis_sampler_add_member(ch, tk), 0);
	ck_assert_int_eq(vis_sampler_add_member(ch, ff), 0);
	ev_init(&ev, VIS_EV_DROP, 0, 0);
	for (int i = 0; i < 100; i++)
		n += vis_sampler_offer(ch, &ev, (uint64_t)i, NULL);
	ck_assert_int_eq(n, 1);
	vis_sampler_get_stats(tk, &st);
	ck_assert_int_eq(st.ticket_balance, 9);
	ck_assert_uint_eq(st.passed, 1);
	ck_assert_uint_eq(st.rejected[VIS_REJ_DOWNSTREAM], 99);
	vis_sampler_get_stats(ff, &st);
	ck_assert_uint_eq(st.rejected[VIS_REJ_FLOW_FILTER], 99);
	vis_sampler_get_stats(ch, &st);
	ck_assert_uint_eq(st.rejected[VIS_REJ_FLOW_FILTER], 99);
	stats_add_up(tk);
	stats_add_up(ff);
	stats_add_up(ch);

	/* the same inside one sampler: flow filter after the ticket check */
	vis_sampler_conf_init(&c, "one");
	c.tickets = 10;
	c.flow_filter = 1;
	one = mk(&c);
	n = 0;
	for (int i = 0; i < 100; i++)
		n += vis_sampler_offer(one, &ev, (uint64_t)i, NULL);
	ck_assert_int_eq(n, 1);
	vis_sampler_get_stats(one, &st);
	ck_assert_int_eq(st.ticket_balance, 9);
	stats_add_up(one);
	vis_sampler_free(one);
	vis_sampler_free(ch);
	vis_sampler_free(tk);
	vis_sampler_free(ff);
}
END_TEST

/* Floor -5: a burst may take 15 in the first period, the debt is repaid
 * out of the next batches: 15 + 10 (N - 1) over N busy periods. */
START_TEST(ticket_negative_floor)
{
	struct vis_sampler_conf c;
	struct vis_sampler *s;
	struct vis_event ev;
	struct vis_sampler_stats st;
	int total = 0;

	vis_sampler_conf_init(&c, "burst");
	c.tickets = 10;
	c.cap = 10;
	c.floor = -5;
	c.period_ns = 1000;
	s = mk(&c);
	ev_init(&ev, VIS_EV_DROP, 0, 0);
	for (int p = 0; p < 10; p++) {
		int n = 0;
		for (int i = 0; i < 40; i++)
			n += vis_sampler_offer(s, &ev, (uint64_t)p * 1000 + (uint64_t)i, NULL);
		ck_assert_int_eq(n, p == 0 ? 15 : 10);
		total += n;
		ck_assert_int_eq(vis_sampler_ticket(s)->consumed_all, 1);
	}
	ck_assert_int_eq(total, 15 + 10 * 9);
	vis_sampler_get_stats(s, &st);
	ck_assert_uint_eq(st.consumed_all, 10);
	ck_assert_int_eq(st.ticket_balance, -5);
	stats_add_up(s);
	vis_sampler_free(s);
}
END_TEST

START_TEST(ticket_jitter)
{
	struct vis_ticket t;
	uint64_t sum = 0, n = 0;
	uint64_t lo = 100, hi = 0;

	vis_ticket_init(&t, 10, 100, 1000, 0, 7);
	t.batch_jitter = 3;
	t.period_jitter_ns = 10;
	vis_ticket_advance(&t, 0);
	for (uint64_t now = 0; n < 10000; now += 1) {
		uint64_t before = t.refills;
		vis_ticket_advance(&t, now);
		if (t.refills != before) {
			uint64_t b = t.last_batch_added;
			uint64_t len = t.next_ns - t.cur_start_ns;
			ck_assert_uint_ge(b, 7);
			ck_assert_uint_le(b, 13);
			ck_assert_uint_ge(len, 90);
			ck_assert_uint_le(len, 110);
			lo = b < lo ? b : lo;
			hi = b > hi ? b : hi;
			sum += b;
			n++;
		}
	}
	/* mean 10: the sd of the mean of 10^4 draws on 7..13 is 0.02 */
	ck_assert_uint_ge(sum, 99000);
	ck_assert_uint_le(sum, 101000);
	ck_assert_uint_eq(lo, 7);
	ck_assert_uint_eq(hi, 13);
}
END_TEST

START_TEST(repeating_flow_filter)
{
	struct vis_sampler_conf c;
	struct vis_sampler *s, *r2;
	struct vis_event ev, other;
	int n = 0;

	vis_sampler_conf_init(&c, "flows");
	c.flow_filter = 1;
	c.flow_hashes = 4;
	c.flow_bits = 1024;
	c.flow_reset_ns = SEC;
	s = mk(&c);
	ev_init(&ev, VIS_EV_DROP, 0, 0);
	ev_init(&other, VIS_EV_DROP, 0, 0);
	other.flow_hash = 0x9999;
	/* 100 drops of one flow within a period: 1 sample */
	for (int i = 0; i < 100; i++)
		n += vis_sampler_offer(s, &ev, (uint64_t)i * 1000, NULL);
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(vis_sampler_offer(s, &other, 200000, NULL), 1);
	/* after the periodic reset: 1 more */
	n = 0;
	for (int i = 0; i < 100; i++)
		n += vis_sampler_offer(s, &ev, SEC + (uint64_t)i * 1000, NULL);
	ck_assert_int_eq(n, 1);
	/* an explicit reset, and the delay-end notification when asked */
	vis_sampler_reset_flows(s);
	ck_assert_int_eq(vis_sampler_offer(s, &ev, SEC + 500000, NULL), 1);
	ck_assert_int_eq(vis_sampler_offer(s, &ev, SEC + 500001, NULL), 0);
	stats_add_up(s);

	vis_sampler_conf_init(&c, "reset_after");
	c.flow_filter = 1;
	c.flow_reset_after = 10;
	c.flow_reset_on_delay_end = 1;
	r2 = mk(&c);
	n = 0;
	for (int i = 0; i < 100; i++)
		n += vis_sampler_offer(r2, &ev, (uint64_t)i, NULL);
	ck_assert_int_eq(n, 10); /* new after every 10 checks */
	{
		struct vis_event de;
		ev_init(&de, VIS_EV_DELAY_END, 0, 0);
		/* checks 92..100 make 10 since the last reset: new again */
		ck_assert_int_eq(vis_sampler_offer(r2, &ev, 200, NULL), 1);
		ck_assert_int_eq(vis_sampler_offer(r2, &ev, 201, NULL), 0);
		vis_sampler_notify(r2, &de);
		ck_assert_int_eq(vis_sampler_offer(r2, &ev, 202, NULL), 1);
	}
	stats_add_up(r2);
	vis_sampler_free(s);
	vis_sampler_free(r2);
}
END_TEST

START_TEST(reoccurrence_limiter)
{
	struct vis_sampler_conf c;
	struct vis_sampler *s, *rec;
	struct vis_event qa, qb, dl;
	struct vis_sampler_stats st;
	int na = 0, nb = 0, nd = 0;

	vis_sampler_conf_init(&c, "limit1");
	c.limit = 1;
	c.limit_period_ns = SEC;
	s = mk(&c);
	ev_init(&qa, VIS_EV_DROP, 0, 3);
	ev_init(&qb, VIS_EV_DROP, 0, 4);
	ev_init(&dl, VIS_EV_HIGH_DELAY, 0, 3);
	for (int sec = 0; sec < 3; sec++) {
		for (int i = 0; i < 10; i++) {
			uint64_t t = (uint64_t)sec * SEC + (uint64_t)i * 1000;
			na += vis_sampler_offer(s, &qa, t, NULL);
			nb += vis_sampler_offer(s, &qb, t, NULL);
			nd += vis_sampler_offer(s, &dl, t, NULL);
		}
	}
	/* at most one report per (type, queue) per second */
	ck_assert_int_eq(na, 3);
	ck_assert_int_eq(nb, 3);
	ck_assert_int_eq(nd, 3);
	vis_sampler_get_stats(s, &st);
	ck_assert_uint_eq(st.rejected[VIS_REJ_LIMITER], 90 - 9);
	stats_add_up(s);

	vis_sampler_conf_init(&c, "after3");
	c.after = 3;
	c.limit_period_ns = SEC;
	rec = mk(&c);
	for (int i = 1; i <= 6; i++)
		ck_assert_int_eq(vis_sampler_offer(rec, &qa, (uint64_t)i, NULL), i >= 4);
	stats_add_up(rec);
	vis_sampler_free(s);
	vis_sampler_free(rec);
}
END_TEST

/* Conjunctive chain passes the intersection, disjunctive the union. */
START_TEST(chains_all_any)
{
	struct vis_sampler_conf c;
	struct vis_sampler *p1, *q2, *p1b, *q2b, *all, *any;
	struct vis_event ev;
	int n_all = 0, n_any = 0;

	vis_sampler_conf_init(&c, "port1");
	vis_set_add(&c.match.ports, 1);
	p1 = mk(&c);
	p1b = mk(&c);
	vis_sampler_conf_init(&c, "queue2");
	vis_set_add(&c.match.queues, 2);
	q2 = mk(&c);
	q2b = mk(&c);
	vis_sampler_conf_init(&c, "all");
	c.kind = VIS_NODE_CHAIN_ALL;
	all = mk(&c);
	vis_sampler_conf_init(&c, "any");
	c.kind = VIS_NODE_CHAIN_ANY;
	any = mk(&c);
	vis_sampler_add_member(all, p1);
	vis_sampler_add_member(all, q2);
	vis_sampler_add_member(any, p1b);
	vis_sampler_add_member(any, q2b);
	for (uint32_t port = 0; port < 4; port++) {
		for (uint32_t q = 0; q < 4; q++) {
			int a, o;
			ev_init(&ev, VIS_EV_HIGH_DELAY, port, q);
			a = vis_sampler_offer(all, &ev, 1, NULL);
			o = vis_sampler_offer(any, &ev, 1, NULL);
			ck_assert_int_eq(a, port == 1 && q == 2);
			ck_assert_int_eq(o, port == 1 || q == 2);
			n_all += a;
			n_any += o;
		}
	}
	ck_assert_int_eq(n_all, 1);
	ck_assert_int_eq(n_any, 4 + 4 - 1);
	stats_add_up(p1);
	stats_add_up(q2);
	stats_add_up(p1b);
	stats_add_up(q2b);
	stats_add_up(all);
	stats_add_up(any);
	vis_sampler_free(all);
	vis_sampler_free(any);
	vis_sampler_free(p1);
	vis_sampler_free(q2);
	vis_sampler_free(p1b);
	vis_sampler_free(q2b);
}
END_TEST

/* A multicast packet dropped on 3 queues: 1 aggregate output. */
START_TEST(aggregate_dedup)
{
	struct vis_sampler_conf c;
	struct vis_sampler *kid[3], *agg;
	struct vis_event ev;
	struct vis_sampler_stats st;
	int n = 0;

	vis_sampler_conf_init(&c, "agg");
	c.kind = VIS_NODE_AGGREGATE;
	c.dedup = 1;
	c.dedup_window_ns = 1000;
	agg = mk(&c);
	for (uint32_t i = 0; i < 3; i++) {
		char name[16];
		snprintf(name, sizeof name, "port%u", i);
		vis_sampler_conf_init(&c, name);
		vis_set_add(&c.match.ports, i);
		kid[i] = mk(&c);
		vis_sampler_add_member(agg, kid[i]);
	}
	for (uint32_t i = 0; i < 3; i++) {
		ev_init(&ev, VIS_EV_DROP, i, 0);
		ev.mc_id = 77;
		n += vis_sampler_offer(agg, &ev, 100 + i, NULL);
	}
	ck_assert_int_eq(n, 1);
	/* another packet, and the same copy id long after: new */
	ev.mc_id = 78;
	ck_assert_int_eq(vis_sampler_offer(agg, &ev, 200, NULL), 1);
	ev.mc_id = 77;
	ck_assert_int_eq(vis_sampler_offer(agg, &ev, 5000, NULL), 1);
	/* a port no child takes: the aggregate's own not_eligible (5 events
	 * from the children, 3 passed, 2 duplicates, and this one) */
	ev_init(&ev, VIS_EV_DROP, 9, 0);
	ck_assert_int_eq(vis_sampler_offer(agg, &ev, 6000, NULL), 0);
	vis_sampler_get_stats(agg, &st);
	ck_assert_uint_eq(st.seen, 6);
	ck_assert_uint_eq(st.passed, 3);
	ck_assert_uint_eq(st.rejected[VIS_REJ_DUPLICATE], 2);
	ck_assert_uint_eq(st.rejected[VIS_REJ_NOT_ELIGIBLE], 1);
	for (int i = 0; i < 3; i++) {
		vis_sampler_get_stats(kid[i], &st);
		ck_assert_uint_eq(st.passed, i == 2 ? 3 : 1);
		stats_add_up(kid[i]);
	}
	stats_add_up(agg);
	vis_sampler_free(agg);
	for (int i = 0; i < 3; i++)
		vis_sampler_free(kid[i]);
}
END_TEST

/*
 * Rate manager: 8 port samplers of 256 tickets a second feed an aggregate of 512
 * a second.  Ports 0 and 1 are hot (5000 events/s each), ports 2..7 cold
 * (40 events/s each).  Virtual clock in 100 us ticks.
 *
 * Second 0: the hot children pass 256 each in their first 51 ms, the
 * aggregate runs out around then and the cold ports are starved for the
 * rest of the second.  At the boundary the aggregate ran out and so did
 * the hot children: they step down to 128.  From second 1 on, the
 * aggregate gets 2 x 128 + 6 x 40 = 496 <= 512 a second: every cold event
 * passes; the 16 left over do not cover a step back up (128 more), so the
 * guarded policy holds the hot children at 128.
 */
struct fig15 {
	struct vis_sampler *kid[8], *agg;
	unsigned offered[8], passed[8];
	unsigned agg_per_sec[16];
};

static void fig15_setup(struct fig15 *f, uint32_t policy)
{
	struct vis_sampler_conf c;

	memset(f, 0, sizeof(*f));
	vis_sampler_conf_init(&c, "aggregate");
	c.kind = VIS_NODE_AGGREGATE;
	c.tickets = 512;
	c.period_ns = SEC;
	c.rate_manager = 1;
	c.rate_policy = policy;
	f->agg = mk(&c);
	for (uint32_t i = 0; i < 8; i++) {
		char name[16];
		snprintf(name, sizeof name, "port%u", i);
		vis_sampler_conf_init(&c, name);
		vis_set_add(&c.match.ports, i);
		c.tickets = 256;
		c.period_ns = SEC;
		f->kid[i] = mk(&c);
		ck_assert_int_eq(vis_sampler_add_member(f->agg, f->kid[i]), 0);
	}
}

static void fig15_run(struct fig15 *f, unsigned seconds, unsigned *cold_off, unsigned *cold_pass)
{
	struct vis_event ev;

	for (uint64_t tick = 0; tick < (uint64_t)seconds * 10000; tick++) {
		uint64_t now = tick * 100000; /* 100 us */
		unsigned sec = (unsigned)(tick / 10000);
		for (uint32_t p = 0; p < 8; p++) {
			int fire = p < 2 ? (tick % 2 == 0) : (tick % 250 == p * 10);
			int ok;
			if (!fire)
				continue;
			ev_init(&ev, VIS_EV_DROP, p, 0);
			ev.flow_hash = tick;
			ok = vis_sampler_offer(f->agg, &ev, now, NULL);
			f->offered[p]++;
			f->passed[p] += (unsigned)ok;
			f->agg_per_sec[sec] += (unsigned)ok;
			if (p >= 2) {
				cold_off[sec]++;
				cold_pass[sec] += (unsigned)ok;
			}
		}
	}
}

START_TEST(fig15_rate_manager)
{
	struct fig15 f;
	unsigned cold_off[16] = {0}, cold_pass[16] = {0};

	fig15_setup(&f, VIS_RATE_GUARDED);
	fig15_run(&f, 6, cold_off, cold_pass);
	for (unsigned s = 0; s < 6; s++) {
		ck_assert_uint_le(f.agg_per_sec[s], 512);
		ck_assert_uint_eq(cold_off[s], 240);
	}
	/* second 0: the problem the seed describes */
	ck_assert_uint_eq(f.agg_per_sec[0], 512);
	ck_assert_uint_lt(cold_pass[0], 240 / 2);
	/* then: hot ports stepped down, cold ports all pass */
	for (unsigned s = 1; s < 6; s++) {
		ck_assert_uint_eq(cold_pass[s], 240);
		ck_assert_uint_eq(f.agg_per_sec[s], 2 * 128 + 240);
	}
	for (int i = 0; i < 8; i++) {
		struct vis_sampler_stats st;
		vis_sampler_get_stats(f.kid[i], &st);
		ck_assert_uint_eq(st.ticket_batch, i < 2 ? 128 : 256);
		stats_add_up(f.kid[i]);
	}
	ck_assert_uint_eq(vis_sampler_ratemgr(f.agg)->steps_down, 2);
	ck_assert_uint_eq(vis_sampler_ratemgr(f.agg)->steps_up, 0);
	stats_add_up(f.agg);
	vis_sampler_free(f.agg);
	for (int i = 0; i < 8; i++)
		vis_sampler_free(f.kid[i]);
}
END_TEST

/* The seed's literal rule: every child steps up when the aggregate did
 * not run out, so the hot ports oscillate 128 <-> 256; the aggregate
 * still never passes more than 512 a second. */
START_TEST(fig15_step_policy)
{
	struct fig15 f;
	unsigned cold_off[16] = {0}, cold_pass[16] = {0};
	struct vis_sampler_stats st;

	fig15_setup(&f, VIS_RATE_STEP);
	fig15_run(&f, 4, cold_off, cold_pass);
	for (unsigned s = 0; s < 4; s++)
		ck_assert_uint_le(f.agg_per_sec[s], 512);
	/* s0 out -> hot 128; s1 496 not out -> all up (hot 256, cold 384);
	 * s2: 512 + cold -> out -> hot 128; s3: not out -> up again */
	ck_assert_uint_eq(f.agg_per_sec[1], 2 * 128 + 240);
	ck_assert_uint_eq(cold_pass[1], 240);
	ck_assert_uint_eq(f.agg_per_sec[2], 512);
	ck_assert_uint_eq(cold_pass[3], 240);
	vis_sampler_get_stats(f.kid[0], &st);
	ck_assert_uint_eq(st.ticket_batch, 128);
	vis_sampler_get_stats(f.kid[5], &st);
	ck_assert_uint_eq(st.ticket_batch, 384);
	for (int i = 0; i < 8; i++) {
		stats_add_up(f.kid[i]);
		vis_sampler_free(f.kid[i]);
	}
	stats_add_up(f.agg);
	vis_sampler_free(f.agg);
}
END_TEST

/* A sampler of a kind with a ticket box (tickets 0: none), defaults
 * otherwise (period 1 s). */
static struct vis_sampler *mk_node(const char *name, uint32_t kind, uint32_t tickets)
{
	struct vis_sampler_conf c;

	vis_sampler_conf_init(&c, name);
	c.kind = kind;
	c.tickets = tickets;
	return mk(&c);
}

/* Offer ev n times at t = 0, 1, ... ns; returns how many passed. */
static int offer_n(struct vis_sampler *root, const struct vis_event *ev, uint64_t n)
{
	int passed = 0;

	for (uint64_t i = 0; i < n; i++)
		passed += vis_sampler_offer(root, ev, i, NULL);
	return passed;
}

/* The statistics of one sampler, all at once (rejections not listed: 0). */
static void stats_are(const struct vis_sampler *s, uint64_t seen, uint64_t passed,
		      uint64_t downstream, uint64_t no_ticket, uint64_t probability)
{
	struct vis_sampler_stats st;

	vis_sampler_get_stats(s, &st);
	ck_assert_msg(st.seen == seen && st.passed == passed &&
			  st.rejected[VIS_REJ_DOWNSTREAM] == downstream &&
			  st.rejected[VIS_REJ_NO_TICKET] == no_ticket &&
			  st.rejected[VIS_REJ_PROBABILITY] == probability,
		      "%s: seen %llu passed %llu downstream %llu no_ticket %llu probability %llu",
		      vis_sampler_name(s), (unsigned long long)st.seen,
		      (unsigned long long)st.passed,
		      (unsigned long long)st.rejected[VIS_REJ_DOWNSTREAM],
		      (unsigned long long)st.rejected[VIS_REJ_NO_TICKET],
		      (unsigned long long)st.rejected[VIS_REJ_PROBABILITY]);
	stats_add_up(s);
}

/*
 * An aggregate inside a conjunctive chain: ch {all: agg {kid}, z}, kid with
 * 10 tickets per 100 ms.  The kid's pass is spent only when the whole
 * chain passes the event; when z rejects it, the kid counts it as
 * rejected "downstream" and keeps its ticket.  300 events 1 ms apart:
 * three periods of 100.
 *
 * z = probability 0: nothing passes, the kid never spends (balance 10, no
 * period ran out); kid, agg: 300 seen, 300 downstream; z, ch: 300
 * probability.
 *
 * z = every 2: in each period the kid passes events 1, 2, ... while it has
 * tickets; z sees those and passes every second one (its position runs on
 * across periods: 20 per period, even).  The kid spends on z's passes
 * only, so it runs out after 20 events: 10 passed, 10 downstream, 80
 * no_ticket per period, and the chain passes 10 per period.  (Spending at
 * the kid's own pass would run it out after 10 events, 5 passed.)
 */
static void chain_over_aggregate(double z_probability, uint32_t z_every, int *n_passed,
				 struct vis_sampler *nodes[4])
{
	struct vis_sampler_conf c;
	struct vis_event ev;

	vis_sampler_conf_init(&c, "kid");
	c.tickets = 10;
	c.period_ns = 100000000ULL;
	nodes[0] = mk(&c);
	nodes[1] = mk_node("agg", VIS_NODE_AGGREGATE, 0);
	vis_sampler_conf_init(&c, "z");
	c.probability = z_probability;
	c.every = z_every;
	nodes[2] = mk(&c);
	nodes[3] = mk_node("ch", VIS_NODE_CHAIN_ALL, 0);
	ck_assert_int_eq(vis_sampler_add_member(nodes[1], nodes[0]), 0);
	ck_assert_int_eq(vis_sampler_add_member(nodes[3], nodes[1]), 0);
	ck_assert_int_eq(vis_sampler_add_member(nodes[3], nodes[2]), 0);
	ev_init(&ev, VIS_EV_DROP, 1, 0);
	*n_passed = 0;
	for (uint64_t i = 0; i < 300; i++)
		*n_passed += vis_sampler_offer(nodes[3], &ev, i * 1000000ULL, NULL);
}

START_TEST(aggregate_in_chain_spends_on_pass)
{
	struct vis_sampler *nd[4];
	struct vis_sampler_stats st;
	int n;

	chain_over_aggregate(0.0, 0, &n, nd);
	ck_assert_int_eq(n, 0);
	vis_sampler_get_stats(nd[0], &st);
	ck_assert_int_eq(st.ticket_balance, 10);
	ck_assert_uint_eq(st.consumed_all, 0);
	stats_are(nd[0], 300, 0, 300, 0, 0); /* kid */
	stats_are(nd[1], 300, 0, 300, 0, 0); /* agg */
	stats_are(nd[2], 300, 0, 0, 0, 300); /* z */
	stats_are(nd[3], 300, 0, 0, 0, 300); /* ch */
	for (int i = 0; i < 4; i++)
		vis_sampler_free(nd[i]);

	chain_over_aggregate(1.0, 2, &n, nd);
	ck_assert_int_eq(n, 30);
	vis_sampler_get_stats(nd[0], &st);
	ck_assert_int_eq(st.ticket_balance, 0);
	ck_assert_uint_eq(st.consumed_all, 3);
	stats_are(nd[0], 300, 30, 30, 240, 0);
	stats_are(nd[1], 60, 30, 30, 0, 0);
	stats_are(nd[2], 60, 30, 0, 0, 30);
	stats_are(nd[3], 300, 30, 0, 240, 30);
	for (int i = 0; i < 4; i++)
		vis_sampler_free(nd[i]);
}
END_TEST

/*
 * Two levels of aggregates under a chain that rejects every other event,
 * and the same aggregate as the first member of a disjunctive chain.
 *
 * all {outer {inner {kid}}, e2}: kid 4 tickets (one period: all events at
 * t < 1 s), e2 = every 2.  Events 1..20: the kid passes 1..8 and spends on
 * the 4 that e2 passes (2, 4, 6, 8), then refuses 9..20 (12 no_ticket).
 *
 * any {outer2 {kid2}, rest}: kid2 3 tickets.  Events 1..3 pass through
 * outer2 and commit kid2; events 4..10 are refused by kid2 and go to rest
 * (pass-through), which passes them: kid2 spends exactly 3.
 *
 * any2 (2 tickets of its own) {agg3 {kid3}}: kid3 5 tickets, 6 events.
 * any2's own ticket stage is above the aggregate: events 1, 2 pass and
 * kid3 spends 2; events 3..6 pass kid3 and agg3 but any2 has no ticket,
 * so kid3 and agg3 count them downstream and kid3 keeps 3 tickets.
 */
START_TEST(nested_aggregates_two_phase)
{
	struct vis_sampler_conf c;
	struct vis_sampler *kid, *inner, *outer, *e2, *all, *kid2, *outer2, *rest, *any;
	struct vis_sampler *kid3, *agg3, *any2;
	struct vis_event ev;
	struct vis_sampler_stats st;

	kid = mk_node("kid", VIS_NODE_SAMPLER, 4);
	inner = mk_node("inner", VIS_NODE_AGGREGATE, 0);
	outer = mk_node("outer", VIS_NODE_AGGREGATE, 0);
	vis_sampler_conf_init(&c, "e2");
	c.every = 2;
	e2 = mk(&c);
	all = mk_node("all", VIS_NODE_CHAIN_ALL, 0);
	vis_sampler_add_member(inner, kid);
	vis_sampler_add_member(outer, inner);
	vis_sampler_add_member(all, outer);
	vis_sampler_add_member(all, e2);
	ev_init(&ev, VIS_EV_DROP, 0, 0);
	ck_assert_int_eq(offer_n(all, &ev, 20), 4);
	vis_sampler_get_stats(kid, &st);
	ck_assert_int_eq(st.ticket_balance, 0);
	stats_are(kid, 20, 4, 4, 12, 0);
	stats_are(inner, 8, 4, 4, 0, 0);
	stats_are(outer, 8, 4, 4, 0, 0);
	stats_are(e2, 8, 4, 0, 0, 4);
	stats_are(all, 20, 4, 0, 12, 4);

	kid2 = mk_node("kid2", VIS_NODE_SAMPLER, 3);
	outer2 = mk_node("outer2", VIS_NODE_AGGREGATE, 0);
	rest = mk_node("rest", VIS_NODE_SAMPLER, 0);
	any = mk_node("any", VIS_NODE_CHAIN_ANY, 0);
	vis_sampler_add_member(outer2, kid2);
	vis_sampler_add_member(any, outer2);
	vis_sampler_add_member(any, rest);
	ck_assert_int_eq(offer_n(any, &ev, 10), 10);
	vis_sampler_get_stats(kid2, &st);
	ck_assert_int_eq(st.ticket_balance, 0);
	stats_are(kid2, 10, 3, 0, 7, 0);
	stats_are(outer2, 3, 3, 0, 0, 0);
	stats_are(rest, 7, 7, 0, 0, 0);
	stats_are(any, 10, 10, 0, 0, 0);

	kid3 = mk_node("kid3", VIS_NODE_SAMPLER, 5);
	agg3 = mk_node("agg3", VIS_NODE_AGGREGATE, 0);
	any2 = mk_node("any2", VIS_NODE_CHAIN_ANY, 2);
	vis_sampler_add_member(agg3, kid3);
	vis_sampler_add_member(any2, agg3);
	ck_assert_int_eq(offer_n(any2, &ev, 6), 2);
	vis_sampler_get_stats(kid3, &st);
	ck_assert_int_eq(st.ticket_balance, 3);
	stats_are(kid3, 6, 2, 4, 0, 0);
	stats_are(agg3, 6, 2, 4, 0, 0);
	stats_are(any2, 6, 2, 0, 4, 0);
	vis_sampler_free(any2);
	vis_sampler_free(agg3);
	vis_sampler_free(kid3);
	vis_sampler_free(all);
	vis_sampler_free(outer);
	vis_sampler_free(inner);
	vis_sampler_free(kid);
	vis_sampler_free(e2);
	vis_sampler_free(any);
	vis_sampler_free(outer2);
	vis_sampler_free(kid2);
	vis_sampler_free(rest);
}
END_TEST

/*
 * Inside one aggregate, the child's decision stands: what it passes to the
 * aggregate is spent even when the aggregate's own ticket stage refuses it
 * (that is how the rate manager learns that a child asked for more
 * than the aggregate gives).  agg 5 tickets over kid 8 tickets, period
 * 1 s, 3 periods of 20 events: each period the kid passes 8 (5 go
 * through, 3 refused by agg: no_ticket at agg), then refuses 12; both
 * boxes run out every period.
 */
START_TEST(aggregate_child_decision_stands)
{
	struct vis_sampler *kid, *agg;
	struct vis_event ev;
	struct vis_sampler_stats st;
	int n = 0;

	kid = mk_node("kid", VIS_NODE_SAMPLER, 8);
	agg = mk_node("agg", VIS_NODE_AGGREGATE, 5);
	vis_sampler_add_member(agg, kid);
	ev_init(&ev, VIS_EV_DROP, 0, 0);
	for (uint64_t i = 0; i < 60; i++)
		n += vis_sampler_offer(agg, &ev, (i / 20) * SEC + i % 20, NULL);
	ck_assert_int_eq(n, 15);
	stats_are(kid, 60, 24, 0, 36, 0);
	stats_are(agg, 24, 15, 0, 9, 0);
	vis_sampler_get_stats(kid, &st);
	ck_assert_uint_eq(st.consumed_all, 3);
	vis_sampler_get_stats(agg, &st);
	ck_assert_uint_eq(st.consumed_all, 3);
	vis_sampler_free(agg);
	vis_sampler_free(kid);
}
END_TEST

/* Burst mode: a per-queue bucket and a per-sampler bucket in a
 * conjunctive chain; each sample spends one ticket of each, and whichever
 * is empty blocks. */
START_TEST(burst_two_buckets)
{
	struct vis_sampler_conf c;
	struct vis_sampler *q0, *q1, *per_q, *sampler, *all;
	struct vis_event e0, e1;
	struct vis_sampler_stats st;
	int n0 = 0, n1 = 0;

	vis_sampler_conf_init(&c, "queue0");
	vis_set_add(&c.match.queues, 0);
	c.tickets = 3;
	q0 = mk(&c);
	vis_sampler_conf_init(&c, "queue1");
	vis_set_add(&c.match.queues, 1);
	c.tickets = 3;
	q1 = mk(&c);
	vis_sampler_conf_init(&c, "per_queue");
	c.kind = VIS_NODE_CHAIN_ANY;
	per_q = mk(&c);
	vis_sampler_add_member(per_q, q0);
	vis_sampler_add_member(per_q, q1);
	vis_sampler_conf_init(&c, "sampler");
	c.tickets = 4;
	sampler = mk(&c);
	vis_sampler_conf_init(&c, "burst");
	c.kind = VIS_NODE_CHAIN_ALL;
	all = mk(&c);
	vis_sampler_add_member(all, per_q);
	vis_sampler_add_member(all, sampler);
	ev_init(&e0, VIS_EV_DROP, 0, 0);
	ev_init(&e1, VIS_EV_DROP, 0, 1);
	/* queue 0 alone: its bucket (3) runs out first */
	for (int i = 0; i < 5; i++)
		n0 += vis_sampler_offer(all, &e0, (uint64_t)i, NULL);
	ck_assert_int_eq(n0, 3);
	/* queue 1: the sampler's bucket has 1 left */
	for (int i = 0; i < 5; i++)
		n1 += vis_sampler_offer(all, &e1, (uint64_t)i, NULL);
	ck_assert_int_eq(n1, 1);
	vis_sampler_get_stats(q0, &st);
	ck_assert_int_eq(st.ticket_balance, 0);
	vis_sampler_get_stats(q1, &st);
	ck_assert_int_eq(st.ticket_balance, 2); /* not spent when the sampler refused */
	vis_sampler_get_stats(sampler, &st);
	ck_assert_int_eq(st.ticket_balance, 0);
	ck_assert_uint_eq(st.rejected[VIS_REJ_NO_TICKET], 4);
	stats_add_up(q0);
	stats_add_up(q1);
	stats_add_up(per_q);
	stats_add_up(sampler);
	stats_add_up(all);
	vis_sampler_free(all);
	vis_sampler_free(per_q);
	vis_sampler_free(sampler);
	vis_sampler_free(q0);
	vis_sampler_free(q1);
}
END_TEST

/* An unconfigured sampler passes everything. */
START_TEST(pass_through_default)
{
	struct vis_sampler_conf c;
	struct vis_sampler *s;
	struct vis_event ev;
	struct vis_sampler_stats st;

	vis_sampler_conf_init(&c, "default");
	s = mk(&c);
	for (uint32_t t = VIS_EV_DROP; t <= VIS_EV_CONGESTION_END; t++) {
		ev_init(&ev, t, t, t);
		for (int i = 0; i < 100; i++)
			ck_assert_int_eq(vis_sampler_offer(s, &ev, (uint64_t)i, NULL), 1);
	}
	vis_sampler_get_stats(s, &st);
	ck_assert_uint_eq(st.seen, 500);
	ck_assert_uint_eq(st.passed, 500);
	stats_add_up(s);
	vis_sampler_free(s);
}
END_TEST

/* Every stage in one tree, random events: the statistics of every node
 * still add up, and the aggregate passes at most its 64 tickets in each
 * of the 100 periods. */
START_TEST(stats_random_tree)
{
	struct vis_sampler_conf c;
	struct vis_sampler *kid[4], *agg, *p90, *all, *e3, *any;
	struct vis_sampler *nodes[9];
	struct vis_rng r;
	struct vis_event ev;

	vis_sampler_conf_init(&c, "agg");
	c.kind = VIS_NODE_AGGREGATE;
	c.tickets = 64;
	c.period_ns = 100000;
	c.dedup = 1;
	c.rate_manager = 1;
	agg = mk(&c);
	for (uint32_t i = 0; i < 4; i++) {
		vis_sampler_conf_init(&c, "kid");
		vis_set_add(&c.match.ports, i);
		c.tickets = 128;
		c.period_ns = 100000;
		c.seed = i + 100;
		if (i == 0)
			c.probability = 0.5;
		if (i == 1) {
			c.flow_filter = 1;
			c.flow_reset_ns = 30000;
		}
		if (i == 2) {
			c.limit = 2;
			c.after = 1;
			c.limit_period_ns = 10000;
		}
		if (i == 3) {
			c.first = 3;
			c.of = 7;
			c.floor = -20;
		}
		kid[i] = mk(&c);
		vis_sampler_add_member(agg, kid[i]);
	}
	vis_sampler_conf_init(&c, "p90");
	c.probability = 0.9;
	p90 = mk(&c);
	vis_sampler_conf_init(&c, "all");
	c.kind = VIS_NODE_CHAIN_ALL;
	all = mk(&c);
	vis_sampler_add_member(all, agg);
	vis_sampler_add_member(all, p90);
	vis_sampler_conf_init(&c, "e3");
	c.every = 3;
	e3 = mk(&c);
	vis_sampler_conf_init(&c, "any");
	c.kind = VIS_NODE_CHAIN_ANY;
	any = mk(&c);
	vis_sampler_add_member(any, all);
	vis_sampler_add_member(any, e3);
	nodes[0] = agg;
	for (int i = 0; i < 4; i++)
		nodes[1 + i] = kid[i];
	nodes[5] = p90;
	nodes[6] = all;
	nodes[7] = e3;
	nodes[8] = any;
	vis_rng_seed(&r, 5);
	for (uint64_t i = 0; i < 200000; i++) {
		uint64_t x = vis_rng_next(&r);
		ev_init(&ev, 1 + (uint32_t)(x % 3), (uint32_t)((x >> 8) % 5),
			(uint32_t)((x >> 16) % 4));
		ev.flow_hash = 1 + (x >> 24) % 50;
		ev.mc_id = (x >> 40) % 4 == 0 ? 1 + (x >> 44) % 20 : 0;
		vis_sampler_offer(any, &ev, i * 50, NULL);
	}
	for (int i = 0; i < 9; i++)
		stats_add_up(nodes[i]);
	{
		struct vis_sampler_stats st;
		vis_sampler_get_stats(agg, &st);
		/* 100 periods of at most 64 */
		ck_assert_uint_le(st.passed, 100 * 64);
		ck_assert_uint_gt(st.passed, 0);
	}
	for (int i = 0; i < 9; i++)
		vis_sampler_free(nodes[i]);
}
END_TEST

START_TEST(bad_settings)
{
	struct vis_sampler_conf c;

	vis_sampler_conf_init(&c, "bad");
	c.probability = 1.5;
	ck_assert_ptr_null(vis_sampler_new(&c, err, sizeof err));
	ck_assert_str_eq(err, "sampler \"bad\": probability not in 0..1");
	vis_sampler_conf_init(&c, "bad");
	c.first = 6;
	c.of = 5;
	ck_assert_ptr_null(vis_sampler_new(&c, err, sizeof err));
	vis_sampler_conf_init(&c, "bad");
	c.flow_filter = 1;
	c.flow_bits = 1000;
	ck_assert_ptr_null(vis_sampler_new(&c, err, sizeof err));
	vis_sampler_conf_init(&c, "bad");
	c.rate_manager = 1;
	ck_assert_ptr_null(vis_sampler_new(&c, err, sizeof err));
}
END_TEST

/* Limiter keyed by flow: 10000 distinct flows a period for 20 periods
 * (limit 3 each).  The table holds one period's keys only: 10000 keys at
 * a load of at most 3/4 need 16384 slots (a power of two), never more. */
START_TEST(limiter_flow_table_bounded)
{
	struct vis_limiter l;
	struct vis_event ev;
	uint64_t passed = 0;

	ck_assert_int_eq(vis_limiter_init(&l, 3, 0, 1000000000ULL, 1), 0);
	memset(&ev, 0, sizeof(ev));
	ev.type = VIS_EV_DROP;
	for (uint64_t i = 1; i <= 200000; i++) {
		uint64_t now = i * 100000; /* 10000 events a second */
		ev.flow_hash = i * 0x9e3779b97f4a7c15ULL;
		if (vis_limiter_check(&l, &ev, now) == VIS_PASS) {
			vis_limiter_commit(&l, &ev, now);
			passed++;
		}
	}
	ck_assert_uint_eq(passed, 200000); /* every flow is new */
	ck_assert_uint_le(l.size, 16384);
	/* a period with one key, then the next period: the table shrinks */
	ev.flow_hash = 1;
	vis_limiter_check(&l, &ev, 25000000000ULL);
	ck_assert_uint_eq(l.used, 1);
	vis_limiter_check(&l, &ev, 26000000000ULL);
	ck_assert_uint_le(l.size, 256);
	/* counts restart each period: limit 3 on one key passes 3 a period */
	passed = 0;
	for (uint64_t p = 30; p < 33; p++)
		for (int j = 0; j < 5; j++) {
			uint64_t now = p * 1000000000ULL + (uint64_t)j;
			if (vis_limiter_check(&l, &ev, now) == VIS_PASS) {
				vis_limiter_commit(&l, &ev, now);
				passed++;
			}
		}
	ck_assert_uint_eq(passed, 9);
	vis_limiter_release(&l);
}
END_TEST

/* Without a period (never reset) the table stops at its cap: 800000
 * distinct flows exceed 3/4 of 2^20 slots (786432), so it is emptied once
 * and never grows past the cap. */
START_TEST(limiter_capped_without_period)
{
	struct vis_limiter l;
	struct vis_event ev;

	ck_assert_int_eq(vis_limiter_init(&l, 1, 0, 0, 1), 0);
	memset(&ev, 0, sizeof(ev));
	ev.type = VIS_EV_DROP;
	for (uint64_t i = 1; i <= 800000; i++) {
		ev.flow_hash = i * 0x9e3779b97f4a7c15ULL;
		if (vis_limiter_check(&l, &ev, i) == VIS_PASS)
			vis_limiter_commit(&l, &ev, i);
	}
	ck_assert_uint_le(l.size, 1u << 20);
	ck_assert_uint_eq(l.overflows, 1);
	vis_limiter_release(&l);
}
END_TEST

/* A ticket box with period jitter after an idle gap of 10^6 s: with a
 * 1 ms period that is 10^9 periods, which must be skipped, not looped
 * over.  The box is full (cap 20) and about 10^9 periods were closed
 * (the skip counts whole nominal periods; the last one or two are drawn
 * with jitter). */
START_TEST(ticket_idle_gap_with_jitter)
{
	struct vis_ticket t;

	vis_ticket_init(&t, 5, 1000000ULL, 20, 0, 7);
	t.period_jitter_ns = 400000ULL;
	vis_ticket_advance(&t, 0);
	ck_assert_int_eq(vis_ticket_available(&t), 1);
	for (int i = 0; i < 5; i++)
		vis_ticket_spend(&t);
	ck_assert_int_eq(vis_ticket_available(&t), 0);
	vis_ticket_advance(&t, 1000000ULL * 1000000000ULL);
	ck_assert_int_eq(t.balance, 20);
	ck_assert_uint_ge(t.refills, 999999990ULL);
	ck_assert_uint_le(t.refills, 1000000010ULL);
}
END_TEST

/* A reset of a big filter (one bank of 2^20 bits = 16384 words) clears
 * only the words set since the last reset: 3 flows set at most 3 words.
 * Past 16384 / 8 = 2048 set words the reset clears all 16384.  Either way
 * every flow is new afterwards. */
START_TEST(flowfilter_reset_cost)
{
	struct vis_flowfilter f;
	uint64_t before;

	ck_assert_int_eq(vis_flowfilter_init(&f, 1, 1u << 20, 0, 0), 0);
	for (uint64_t h = 1; h <= 3; h++) {
		ck_assert_int_eq(vis_flowfilter_is_first(&f, h * 0x9e3779b97f4a7c15ULL, 0), 1);
		vis_flowfilter_mark(&f, h * 0x9e3779b97f4a7c15ULL);
		ck_assert_int_eq(vis_flowfilter_is_first(&f, h * 0x9e3779b97f4a7c15ULL, 0), 0);
	}
	vis_flowfilter_reset(&f);
	ck_assert_uint_le(f.cleared_words, 3);
	ck_assert_uint_ge(f.cleared_words, 1);
	for (uint64_t h = 1; h <= 3; h++)
		ck_assert_int_eq(vis_flowfilter_is_first(&f, h * 0x9e3779b97f4a7c15ULL, 0), 1);
	/* 5000 flows set more than 2048 distinct words of 16384 (at most 5000
	 * words, and a random spread of 5000 bits hits about 4300 words) */
	for (uint64_t h = 1; h <= 5000; h++)
		vis_flowfilter_mark(&f, h * 0x9e3779b97f4a7c15ULL);
	before = f.cleared_words;
	vis_flowfilter_reset(&f);
	ck_assert_uint_eq(f.cleared_words - before, 16384);
	for (uint64_t h = 1; h <= 5000; h++)
		ck_assert_int_eq(vis_flowfilter_is_first(&f, h * 0x9e3779b97f4a7c15ULL, 0), 1);
	vis_flowfilter_release(&f);
}
END_TEST

/* Sets are merged ranges: adjacent and overlapping ranges join, the
 * count of values follows, 64 disjoint ranges fit and a 65th does not
 * (the set is left as it was); a value joining two ranges frees one. */
START_TEST(set_ranges)
{
	struct vis_set a, b;

	memset(&a, 0, sizeof a);
	ck_assert_int_eq(vis_set_add_range(&a, 10, 20), 0);
	ck_assert_int_eq(vis_set_add(&a, 5), 0);
	ck_assert_int_eq(vis_set_add(&a, 21), 0); /* touches 10-20 */
	ck_assert_uint_eq(a.nr, 2);		  /* {5}, {10-21} */
	ck_assert_uint_eq(a.n, 1 + 12);
	ck_assert_int_eq(vis_set_add_range(&a, 0, 4), 0); /* touches 5 */
	ck_assert_uint_eq(a.nr, 2);			  /* {0-5}, {10-21} */
	ck_assert_uint_eq(a.r[0].lo, 0);
	ck_assert_uint_eq(a.r[0].hi, 5);
	ck_assert_uint_eq(vis_set_nth(&a, 5), 5);
	ck_assert_uint_eq(vis_set_nth(&a, 6), 10);
	ck_assert_uint_eq(vis_set_nth(&a, 17), 21);
	ck_assert_int_eq(vis_set_has(&a, 7), 0);
	ck_assert_int_eq(vis_set_add_range(&a, 3, 12), 0); /* spans both */
	ck_assert_uint_eq(a.nr, 1);
	ck_assert_uint_eq(a.n, 22);
	ck_assert_int_eq(vis_set_has(&a, 0), 1);
	ck_assert_int_eq(vis_set_has(&a, 7), 1);
	ck_assert_int_eq(vis_set_has(&a, 21), 1);
	ck_assert_int_eq(vis_set_has(&a, 22), 0);
	/* the top of the 32-bit range */
	ck_assert_int_eq(vis_set_add_range(&a, 0xfffffff0u, 0xffffffffu), 0);
	ck_assert_uint_eq(a.n, 22 + 16);
	ck_assert_int_eq(vis_set_has(&a, 0xffffffffu), 1);
	ck_assert_int_eq(vis_set_has(&a, 0xffffffefu), 0);
	ck_assert_int_eq(vis_set_add_range(&a, 9, 8), -1);

	/* 64 disjoint ranges (the even numbers 0..126), then a 65th */
	memset(&a, 0, sizeof a);
	for (uint32_t v = 0; v <= 126; v += 2)
		ck_assert_int_eq(vis_set_add(&a, v), 0);
	ck_assert_uint_eq(a.nr, 64);
	ck_assert_int_eq(vis_set_add(&a, 200), -1);
	ck_assert_int_eq(vis_set_add(&a, 127), 0);  /* touches 126 */
	ck_assert_int_eq(vis_set_add(&a, 129), -1); /* 128 between: a 65th */
	ck_assert_uint_eq(a.nr, 64);
	ck_assert_uint_eq(a.n, 65);
	ck_assert_int_eq(vis_set_has(&a, 200), 0);
	ck_assert_int_eq(vis_set_add(&a, 64), 0); /* already in */
	ck_assert_int_eq(vis_set_add(&a, 1), 0);  /* joins 0 and 2 */
	ck_assert_uint_eq(a.nr, 63);
	ck_assert_int_eq(vis_set_add(&a, 200), 0);
	ck_assert_uint_eq(a.nr, 64);
	ck_assert_uint_eq(a.n, 67);
	ck_assert_uint_eq(a.r[62].lo, 126);
	ck_assert_uint_eq(a.r[62].hi, 127);
	ck_assert_uint_eq(a.r[63].lo, 200);
	for (uint32_t v = 0; v <= 130; v++)
		ck_assert_int_eq(vis_set_has(&a, v),
				 v <= 2 || v == 127 || (v % 2 == 0 && v <= 126));

	/* meeting sets */
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	vis_set_add_range(&a, 1, 3);
	vis_set_add_range(&a, 100, 200);
	vis_set_add_range(&b, 4, 99);
	ck_assert_int_eq(vis_set_meets(&a, &b), 0);
	vis_set_add(&b, 150);
	ck_assert_int_eq(vis_set_meets(&a, &b), 1);
	ck_assert_int_eq(vis_set_meets(&b, &a), 1);
}
END_TEST

/* A match on ranges: egress ports 0-1023 of a 1024-port switch, source
 * ports 1024-65535 (ephemeral), both in one sampler. */
START_TEST(match_ranges)
{
	struct vis_sampler_conf c;
	struct vis_sampler *s;
	struct vis_event ev;
	static const struct {
		uint32_t port;
		uint16_t sport;
		int pass;
	} cases[] = {{0, 1024, 1},    {512, 40000, 1}, {1023, 65535, 1}, {1024, 1024, 0},
		     {1023, 1023, 0}, {0, 0, 0},       {5000, 50000, 0}};

	vis_sampler_conf_init(&c, "ranges");
	ck_assert_int_eq(vis_set_add_range(&c.match.ports, 0, 1023), 0);
	ck_assert_int_eq(vis_set_add_range(&c.match.sports, 1024, 65535), 0);
	s = mk(&c);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ev_init(&ev, VIS_EV_DROP, cases[i].port, 0);
		ev.flow.af = 4;
		ev.flow.proto = 6;
		ev.flow.sport = cases[i].sport;
		ck_assert_msg(vis_sampler_offer(s, &ev, 1, NULL) == cases[i].pass,
			      "port %u sport %u", cases[i].port, cases[i].sport);
	}
	stats_add_up(s);
	vis_sampler_free(s);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("vis_samplers");
	TCase *tc = tcase_create("samplers");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, probabilistic_055);
	tcase_add_test(tc, k_of_m_and_every_n);
	tcase_add_test(tc, ticket_cap_per_period);
	tcase_add_test(tc, ticket_two_phase_in_chain);
	tcase_add_test(tc, ticket_negative_floor);
	tcase_add_test(tc, ticket_jitter);
	tcase_add_test(tc, repeating_flow_filter);
	tcase_add_test(tc, reoccurrence_limiter);
	tcase_add_test(tc, chains_all_any);
	tcase_add_test(tc, aggregate_dedup);
	tcase_add_test(tc, fig15_rate_manager);
	tcase_add_test(tc, fig15_step_policy);
	tcase_add_test(tc, aggregate_in_chain_spends_on_pass);
	tcase_add_test(tc, nested_aggregates_two_phase);
	tcase_add_test(tc, aggregate_child_decision_stands);
	tcase_add_test(tc, burst_two_buckets);
	tcase_add_test(tc, pass_through_default);
	tcase_add_test(tc, stats_random_tree);
	tcase_add_test(tc, bad_settings);
	tcase_add_test(tc, limiter_flow_table_bounded);
	tcase_add_test(tc, limiter_capped_without_period);
	tcase_add_test(tc, ticket_idle_gap_with_jitter);
	tcase_add_test(tc, flowfilter_reset_cost);
	tcase_add_test(tc, set_ranges);
	tcase_add_test(tc, match_ranges);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
