/*
 * vis_sampler.h - visibility samplers (doc/glossary.md): the building
 * blocks (attribute match, ticket box, flow filter, re-occurrence limiter,
 * duplicate filter, rate manager) and the sampler node that composes them,
 * alone, in chains (all / any) or as an aggregate over children.
 * The semantics chosen are listed in vis.h.
 *
 * Typical use:
 *	struct vis_sampler_conf c;
 *	vis_sampler_conf_init(&c, "drops");
 *	c.probability = 0.55;
 *	struct vis_sampler *s = vis_sampler_new(&c, err, sizeof err);
 *	if (vis_sampler_offer(s, &ev, now_ns)) ... passed ...
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_VIS_SAMPLER_H
#define BSFLOWD_VIS_SAMPLER_H

#include <stddef.h>
#include <stdint.h>

#include "agent/visibility/vis.h"

/* ---- attribute match (vis_match.c) ---- */

/* A set of numbers kept as at most VIS_SET_MAX ranges [lo, hi], sorted,
 * disjoint and not adjacent (touching or overlapping ranges are merged),
 * so {0-1023} or {1024-65535} take one range.  n counts the values; an
 * empty set (n == 0) matches any value. */
#define VIS_SET_MAX 64

struct vis_range {
	uint32_t lo, hi;
};

struct vis_set {
	uint64_t n;  /* values in the set; 0: any value */
	uint32_t nr; /* ranges used in r */
	struct vis_range r[VIS_SET_MAX];
};

struct vis_match {
	uint32_t events; /* bit (1 << type) per accepted event type; 0 = any */
	struct vis_set ports, in_ports, queues, tcs, reasons, sports, dports;
	int proto; /* IP protocol, -1 any */
};

void vis_match_init(struct vis_match *m); /* matches everything */
/* Add a value or the range lo..hi (lo <= hi): 0, or -1 (set unchanged)
 * if the union needs more than VIS_SET_MAX ranges. */
int vis_set_add(struct vis_set *s, uint32_t v);
int vis_set_add_range(struct vis_set *s, uint32_t lo, uint32_t hi);
int vis_set_has(const struct vis_set *s, uint32_t v);
/* Do two non-empty sets share a value? */
int vis_set_meets(const struct vis_set *a, const struct vis_set *b);
/* The i-th smallest value (i < n). */
uint32_t vis_set_nth(const struct vis_set *s, uint64_t i);
int vis_match_event(const struct vis_match *m, const struct vis_event *ev);
/* Pre-event form: type is the visibility event type the packet would
 * raise (0: do not check the event mask). */
int vis_match_pkt(const struct vis_match *m, const struct vis_pkt_event *pe, uint32_t type);

/* ---- ticket box (vis_ticket.c) ---- */

/* Periods are aligned on multiples of period_ns of the event clock (so
 * boxes with one period refill at the same instants, like the seed's
 * synchronised replenishers); with period jitter each period is
 * period_ns +- a random offset. */
struct vis_ticket {
	uint32_t batch, cap;
	int32_t floor; /* <= 0: lowest balance a spend may reach */
	uint64_t period_ns;
	uint32_t batch_jitter;
	uint64_t period_jitter_ns;
	struct vis_rng rng;
	int started;
	int64_t balance;
	uint64_t cur_start_ns, next_ns;
	int consumed_all;	   /* in the current period */
	uint64_t consumed_all_n;   /* periods that ran out */
	uint64_t refills;	   /* periods closed */
	uint64_t last_batch_added; /* for tests: the last (jittered) batch */
};

void vis_ticket_init(struct vis_ticket *t, uint32_t batch, uint64_t period_ns, uint32_t cap,
		     int32_t floor, uint64_t seed);
/* Close every period that ended before now (refilling). */
void vis_ticket_advance(struct vis_ticket *t, uint64_t now);
int vis_ticket_available(const struct vis_ticket *t);
void vis_ticket_spend(struct vis_ticket *t);

/* ---- flow filter (vis_flowfilter.c) ---- */

struct vis_flowfilter {
	uint32_t k;	   /* hash functions = banks, 1..8 */
	uint32_t bits;	   /* bits per bank, a power of two */
	uint64_t *bank;	   /* k * bits / 64 words */
	uint64_t reset_ns; /* 0: no periodic reset */
	uint64_t next_reset;
	uint64_t reset_after; /* 0: none; reset after this many checks */
	uint64_t checks;      /* since the last reset */
	uint64_t resets;
	/* words set since the last reset, so that a reset clears only them;
	 * past dirty_max of them a reset clears every word */
	uint32_t *dirty;
	uint32_t n_dirty, dirty_max;
	int dirty_overflow;
	uint64_t cleared_words; /* cumulative, for tests */
};

/* Returns 0, or -1 (bad k or bits, or no memory). */
int vis_flowfilter_init(struct vis_flowfilter *f, uint32_t k, uint32_t bits, uint64_t reset_ns,
			uint64_t reset_after);
void vis_flowfilter_release(struct vis_flowfilter *f);
/* Applies the due resets, counts the check, and says whether the flow
 * is new (some bit clear). */
int vis_flowfilter_is_first(struct vis_flowfilter *f, uint64_t flow_hash, uint64_t now);
void vis_flowfilter_mark(struct vis_flowfilter *f, uint64_t flow_hash);
void vis_flowfilter_reset(struct vis_flowfilter *f);

/* ---- re-occurrence limiter and recurrent-only (vis_limiter.c) ---- */

struct vis_limiter_slot;
/* Most keys a limiter table holds (1 Mi slots, 16 MiB); past it the table
 * is emptied (every count restarts) and vis_limiter.overflows counts it. */
#define VIS_LIMITER_MAX_SLOTS (1u << 20)

struct vis_limiter {
	uint32_t limit;		      /* samples per key and period, 0 = no limit */
	uint32_t after;		      /* recurrent-only: reject the first N per key and period */
	uint64_t period_ns;	      /* 0: never reset */
	int by_flow;		      /* key on (type, flow) instead of (type, port, queue) */
	struct vis_limiter_slot *tab; /* keys of the current period */
	size_t size, used;
	uint64_t epoch;	    /* the period the table holds (now / period_ns) */
	uint64_t overflows; /* times the table was full and emptied early */
};

int vis_limiter_init(struct vis_limiter *l, uint32_t limit, uint32_t after, uint64_t period_ns,
		     int by_flow);
void vis_limiter_release(struct vis_limiter *l);
int vis_limiter_check(struct vis_limiter *l, const struct vis_event *ev, uint64_t now);
void vis_limiter_commit(struct vis_limiter *l, const struct vis_event *ev, uint64_t now);

/* ---- duplicate filter (vis_dedup.c) ---- */

#define VIS_DEDUP_SLOTS 64

struct vis_dedup {
	uint64_t window_ns; /* copies further apart are not duplicates */
	uint32_t next;
	struct {
		uint32_t type;
		uint64_t mc_id, t_ns;
	} slot[VIS_DEDUP_SLOTS];
};

void vis_dedup_init(struct vis_dedup *d, uint64_t window_ns);
int vis_dedup_is_dup(const struct vis_dedup *d, const struct vis_event *ev, uint64_t now);
void vis_dedup_record(struct vis_dedup *d, const struct vis_event *ev, uint64_t now);

/* ---- rate manager (vis_ratemgr.c) ---- */

#define VIS_RATE_LEVELS_MAX 8

enum vis_rate_policy {
	VIS_RATE_GUARDED = 0, /* raise only while the aggregate's leftover covers it */
	VIS_RATE_STEP = 1,    /* the seed's rule: raise every child when not exhausted */
};

struct vis_ratemgr {
	uint32_t n_levels;
	uint32_t levels[VIS_RATE_LEVELS_MAX]; /* ascending */
	uint32_t policy;		      /* enum vis_rate_policy */
	uint64_t runs, steps_up, steps_down;
};

void vis_ratemgr_init(struct vis_ratemgr *rm, const uint32_t *levels, uint32_t n, uint32_t policy);
/* The level index nearest to a batch. */
uint32_t vis_ratemgr_level_of(const struct vis_ratemgr *rm, uint32_t batch);
/* Run the policy for the aggregate period ending at agg->next_ns: reads
 * the aggregate's and the children's state of that period and sets the
 * children's batch and cap (before they refill).  Call before advancing
 * any of the boxes past that boundary. */
void vis_ratemgr_run(struct vis_ratemgr *rm, const struct vis_ticket *agg,
		     struct vis_ticket *const *children, size_t n);

/* ---- the sampler node (vis_sampler.c, vis_chain.c) ---- */

enum vis_node_kind {
	VIS_NODE_SAMPLER = 0,	/* own stages only */
	VIS_NODE_CHAIN_ALL = 1, /* members conjunctive, one two-phase decision */
	VIS_NODE_CHAIN_ANY = 2, /* members disjunctive */
	VIS_NODE_AGGREGATE = 3, /* children in parallel, then own stages */
};

struct vis_sampler_conf {
	char name[VIS_NAME_MAX];
	uint32_t kind; /* enum vis_node_kind */
	uint64_t seed;
	struct vis_match match; /* eligibility; vis_match_init = all */
	/* decimation: probability < 1, or every > 1, or first/of */
	double probability; /* 1 = all */
	uint32_t every;	    /* 0/1 = all */
	uint32_t first, of; /* K of M; of = 0: off */
	/* tickets: batch 0 = no ticket stage */
	uint32_t tickets, cap, batch_jitter;
	int32_t floor;
	uint64_t period_ns, period_jitter_ns;
	/* flow filter */
	int flow_filter;
	uint32_t flow_hashes, flow_bits;
	uint64_t flow_reset_ns, flow_reset_after;
	int flow_reset_on_delay_end, flow_reset_on_forensics_end;
	/* re-occurrence limiter */
	uint32_t limit, after;
	uint64_t limit_period_ns;
	int limit_by_flow;
	/* duplicate filter */
	int dedup;
	uint64_t dedup_window_ns;
	/* rate manager over the children (aggregates with tickets) */
	int rate_manager;
	uint32_t rate_levels[VIS_RATE_LEVELS_MAX];
	uint32_t n_rate_levels;
	uint32_t rate_policy;
};

struct vis_sampler;

/* Defaults: a pass-through sampler named name. */
void vis_sampler_conf_init(struct vis_sampler_conf *c, const char *name);
/* Returns NULL with a message in err on a bad setting or no memory. */
struct vis_sampler *vis_sampler_new(const struct vis_sampler_conf *c, char *err, size_t errlen);
void vis_sampler_free(struct vis_sampler *s);
/* Chain members / aggregate children, in order; not owned by s.
 * Returns 0, or -1 (not a chain or aggregate, too many, or no memory). */
int vis_sampler_add_member(struct vis_sampler *s, struct vis_sampler *m);

/* Two-phase decision.  check returns VIS_PASS or a rejection reason;
 * after VIS_PASS exactly one of commit / abort must follow. */
int vis_sampler_check(struct vis_sampler *s, const struct vis_event *ev, uint64_t now);
void vis_sampler_commit(struct vis_sampler *s, const struct vis_event *ev, uint64_t now);
void vis_sampler_abort(struct vis_sampler *s);
/* check + commit: 1 passed, 0 rejected (*reason set if not NULL). */
int vis_sampler_offer(struct vis_sampler *s, const struct vis_event *ev, uint64_t now, int *reason);

/* A monitor notification (VIS_EV_DELAY_END, a forensics event with
 * VIS_EVF_LAST): resets the flow filter when configured to. */
void vis_sampler_notify(struct vis_sampler *s, const struct vis_event *ev);
void vis_sampler_reset_flows(struct vis_sampler *s);

const char *vis_sampler_name(const struct vis_sampler *s);
const struct vis_sampler_conf *vis_sampler_conf_of(const struct vis_sampler *s);
void vis_sampler_get_stats(const struct vis_sampler *s, struct vis_sampler_stats *st);
/* The ticket box, NULL if none (the rate manager and tests use it). */
struct vis_ticket *vis_sampler_ticket(struct vis_sampler *s);
const struct vis_ratemgr *vis_sampler_ratemgr(const struct vis_sampler *s);
size_t vis_sampler_n_members(const struct vis_sampler *s);
struct vis_sampler *vis_sampler_member(const struct vis_sampler *s, size_t i);

#endif
