/*
 * vis_sampler.c - the sampler node: settings, its own stages in their fixed
 * order (match, duplicates, limiter, ticket, probability / every-N /
 * K-of-M, flow filter), the two-phase check / commit / abort and the
 * statistics.  Members (chains, aggregates) are in vis_chain.c.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/visibility/vis_int.h"

void vis_sampler_conf_init(struct vis_sampler_conf *c, const char *name)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name ? name : "");
	c->kind = VIS_NODE_SAMPLER;
	c->seed = 1;
	vis_match_init(&c->match);
	c->probability = 1.0;
	c->period_ns = 1000000000ULL;
	c->flow_hashes = 4;
	c->flow_bits = 4096;
	c->limit_period_ns = 1000000000ULL;
	c->dedup_window_ns = 1000000ULL;
	c->rate_policy = VIS_RATE_GUARDED;
}

static struct vis_sampler *fail(struct vis_sampler *s, char *err, size_t errlen, const char *msg)
{
	snprintf(err, errlen, "sampler \"%s\": %s", s->c.name, msg);
	vis_sampler_free(s);
	return NULL;
}

struct vis_sampler *vis_sampler_new(const struct vis_sampler_conf *c, char *err, size_t errlen)
{
	struct vis_sampler *s = calloc(1, sizeof(*s));

	if (!s) {
		snprintf(err, errlen, "sampler \"%s\": out of memory", c->name);
		return NULL;
	}
	s->c = *c;
	if (c->kind > VIS_NODE_AGGREGATE)
		return fail(s, err, errlen, "unknown kind");
	if (!(c->probability >= 0.0 && c->probability <= 1.0))
		return fail(s, err, errlen, "probability not in 0..1");
	if (c->of && (c->first == 0 || c->first > c->of))
		return fail(s, err, errlen, "first must be 1..of");
	if (c->of && c->every > 1)
		return fail(s, err, errlen, "every and first/of are exclusive");
	if ((c->of || c->every > 1) && c->probability < 1.0)
		return fail(s, err, errlen, "probability and every/first are exclusive");
	vis_rng_seed(&s->rng, c->seed);
	s->thr = (uint64_t)llround(c->probability * 4294967296.0);
	if (c->tickets) {
		if (c->period_ns == 0)
			return fail(s, err, errlen, "period must be > 0");
		if (c->cap && c->cap < c->tickets)
			return fail(s, err, errlen, "cap below the batch");
		vis_ticket_init(&s->ticket, c->tickets, c->period_ns, c->cap, c->floor, c->seed);
		s->ticket.batch_jitter = c->batch_jitter;
		s->ticket.period_jitter_ns = c->period_jitter_ns;
		s->has_ticket = 1;
	}
	if (c->flow_filter) {
		if (vis_flowfilter_init(&s->ff, c->flow_hashes, c->flow_bits, c->flow_reset_ns,
					c->flow_reset_after) < 0)
			return fail(s, err, errlen,
				    "flow filter: hashes 1..8, bits a power of two 64..2^24");
		s->has_ff = 1;
	}
	if (c->limit || c->after) {
		if (vis_limiter_init(&s->lim, c->limit, c->after, c->limit_period_ns,
				     c->limit_by_flow) < 0)
			return fail(s, err, errlen, "out of memory");
		s->has_lim = 1;
	}
	if (c->dedup) {
		vis_dedup_init(&s->dedup, c->dedup_window_ns);
		s->has_dedup = 1;
	}
	if (c->rate_manager) {
		if (c->kind != VIS_NODE_AGGREGATE || !c->tickets)
			return fail(s, err, errlen,
				    "a rate manager needs an aggregate with tickets");
		vis_ratemgr_init(&s->rm, c->n_rate_levels ? c->rate_levels : NULL, c->n_rate_levels,
				 c->rate_policy);
		for (uint32_t i = 1; i < s->rm.n_levels; i++)
			if (s->rm.levels[i] <= s->rm.levels[i - 1])
				return fail(s, err, errlen, "rate levels must be ascending");
	}
	s->pending = -1;
	return s;
}

void vis_sampler_free(struct vis_sampler *s)
{
	if (!s)
		return;
	if (s->has_ff)
		vis_flowfilter_release(&s->ff);
	if (s->has_lim)
		vis_limiter_release(&s->lim);
	free(s);
}

int vis_own_check(struct vis_sampler *s, const struct vis_event *ev, uint64_t now)
{
	int r;

	if (s->has_dedup && vis_dedup_is_dup(&s->dedup, ev, now))
		return VIS_REJ_DUPLICATE;
	if (s->has_lim && (r = vis_limiter_check(&s->lim, ev, now)) != VIS_PASS)
		return r;
	if (s->has_ticket) {
		vis_ticket_advance(&s->ticket, now);
		if (!vis_ticket_available(&s->ticket))
			return VIS_REJ_NO_TICKET;
	}
	if (s->c.of) {
		uint64_t pos = s->position++ % s->c.of; /* 0-based within the block */
		if (pos >= s->c.first)
			return VIS_REJ_PROBABILITY;
	} else if (s->c.every > 1) {
		if (++s->position % s->c.every != 0)
			return VIS_REJ_PROBABILITY;
	} else if (s->thr < 4294967296ULL) {
		if ((vis_rng_next(&s->rng) >> 32) >= s->thr)
			return VIS_REJ_PROBABILITY;
	}
	if (s->has_ff && !vis_flowfilter_is_first(&s->ff, vis_event_flow_hash(ev), now))
		return VIS_REJ_FLOW_FILTER;
	return VIS_PASS;
}

void vis_own_commit(struct vis_sampler *s, const struct vis_event *ev, uint64_t now)
{
	if (s->has_dedup)
		vis_dedup_record(&s->dedup, ev, now);
	if (s->has_lim)
		vis_limiter_commit(&s->lim, ev, now);
	if (s->has_ticket)
		vis_ticket_spend(&s->ticket);
	if (s->has_ff)
		vis_flowfilter_mark(&s->ff, vis_event_flow_hash(ev));
}

int vis_sampler_check(struct vis_sampler *s, const struct vis_event *ev, uint64_t now)
{
	int counted = 1, r;

	if (s->c.kind == VIS_NODE_AGGREGATE && s->n_members) {
		/* children decide on their own first; the aggregate only
		 * sees what they pass (vis_chain.c) */
		r = vis_members_check(s, ev, now, &counted);
		if (r != VIS_PASS) {
			if (!counted) {
				/* no child takes it: the aggregate's own
				 * not_eligible, so that every event offered is
				 * counted somewhere */
				s->st.seen++;
				s->st.rejected[VIS_REJ_NOT_ELIGIBLE]++;
			}
			return r;
		}
		s->st.seen++;
		r = vis_match_event(&s->c.match, ev) ? vis_own_check(s, ev, now)
						     : VIS_REJ_NOT_ELIGIBLE;
		if (r != VIS_PASS) {
			/* the child's own decision stands: it spends what it
			 * passed to this level (the rate manager learns from
			 * it); only a rejection above the aggregate undoes it */
			vis_members_commit(s, ev, now);
			s->st.rejected[r]++;
		}
		return r;
	}
	s->st.seen++;
	if (!vis_match_event(&s->c.match, ev)) {
		s->st.rejected[VIS_REJ_NOT_ELIGIBLE]++;
		return VIS_REJ_NOT_ELIGIBLE;
	}
	if (s->n_members) {
		r = vis_members_check(s, ev, now, &counted);
		if (r != VIS_PASS) {
			s->st.rejected[r]++;
			return r;
		}
	}
	r = vis_own_check(s, ev, now);
	if (r != VIS_PASS) {
		if (s->n_members)
			vis_members_abort(s);
		s->st.rejected[r]++;
	}
	return r;
}

void vis_sampler_commit(struct vis_sampler *s, const struct vis_event *ev, uint64_t now)
{
	if (s->n_members)
		vis_members_commit(s, ev, now);
	vis_own_commit(s, ev, now);
	s->st.passed++;
}

void vis_sampler_abort(struct vis_sampler *s)
{
	if (s->n_members)
		vis_members_abort(s);
	s->st.rejected[VIS_REJ_DOWNSTREAM]++;
}

int vis_sampler_offer(struct vis_sampler *s, const struct vis_event *ev, uint64_t now, int *reason)
{
	int r = vis_sampler_check(s, ev, now);

	if (reason)
		*reason = r;
	if (r != VIS_PASS)
		return 0;
	vis_sampler_commit(s, ev, now);
	return 1;
}

void vis_sampler_reset_flows(struct vis_sampler *s)
{
	if (s->has_ff)
		vis_flowfilter_reset(&s->ff);
}

void vis_sampler_notify(struct vis_sampler *s, const struct vis_event *ev)
{
	if (s->has_ff && ((ev->type == VIS_EV_DELAY_END && s->c.flow_reset_on_delay_end) ||
			  (ev->type == VIS_EV_FORENSICS && (ev->flags & VIS_EVF_LAST) &&
			   s->c.flow_reset_on_forensics_end)))
		vis_flowfilter_reset(&s->ff);
	for (size_t i = 0; i < s->n_members; i++)
		vis_sampler_notify(s->members[i], ev);
}

const char *vis_sampler_name(const struct vis_sampler *s)
{
	return s->c.name;
}

const struct vis_sampler_conf *vis_sampler_conf_of(const struct vis_sampler *s)
{
	return &s->c;
}

void vis_sampler_get_stats(const struct vis_sampler *s, struct vis_sampler_stats *st)
{
	*st = s->st;
	st->ticket_balance = s->has_ticket ? s->ticket.balance : 0;
	st->ticket_batch = s->has_ticket ? s->ticket.batch : 0;
	st->consumed_all = s->has_ticket ? s->ticket.consumed_all_n : 0;
}

struct vis_ticket *vis_sampler_ticket(struct vis_sampler *s)
{
	return s->has_ticket ? &s->ticket : NULL;
}

const struct vis_ratemgr *vis_sampler_ratemgr(const struct vis_sampler *s)
{
	return s->c.rate_manager ? &s->rm : NULL;
}

size_t vis_sampler_n_members(const struct vis_sampler *s)
{
	return s->n_members;
}

struct vis_sampler *vis_sampler_member(const struct vis_sampler *s, size_t i)
{
	return i < s->n_members ? s->members[i] : NULL;
}
