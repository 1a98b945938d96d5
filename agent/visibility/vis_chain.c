/*
 * vis_chain.c - composing samplers (doc/glossary.md): conjunctive
 * chains (one two-phase decision: nothing is spent unless every member
 * passes), disjunctive chains (the first member that passes decides), and
 * aggregates (the event goes to the first child whose eligibility match
 * accepts it; the child decides, the aggregate then applies its own
 * stages, including the duplicate filter, and runs the rate manager over
 * its children at each period end).
 *
 * Every node is one two-phase decision: check spends nothing, and the
 * member that passed (every member, for "all") is committed (tickets,
 * flow bits, limiter counts, duplicate records) from vis_members_commit
 * when the node is committed, i.e. when the whole tree passed the event,
 * or aborted from vis_members_abort when a node above rejected it.  One
 * exception, inside an aggregate: when the aggregate's own stages reject
 * what its child passed, the child's decision stands and is committed
 * (vis_sampler_check), as a level of an aggregate hierarchy samples on its
 * own; that is how the rate manager sees a child that asked for more
 * than the aggregate gives.
 * Statistics are the same in every kind: a member that passed an event
 * which a node above then rejected counts it as rejected "downstream",
 * not as passed, so seen = passed + rejected holds and passed counts
 * what was spent.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include "agent/visibility/vis_int.h"

int vis_sampler_add_member(struct vis_sampler *s, struct vis_sampler *m)
{
	if (s->c.kind == VIS_NODE_SAMPLER || !m || m == s || s->n_members >= VIS_MEMBERS_MAX)
		return -1;
	s->members[s->n_members++] = m;
	return 0;
}

static void run_ratemgr(struct vis_sampler *s, uint64_t now)
{
	struct vis_ticket *kids[VIS_MEMBERS_MAX];

	if (!s->c.rate_manager || !s->ticket.started || now < s->ticket.next_ns)
		return;
	for (size_t i = 0; i < s->n_members; i++)
		kids[i] = vis_sampler_ticket(s->members[i]);
	vis_ratemgr_run(&s->rm, &s->ticket, kids, s->n_members);
	/* close the aggregate's period now, so the policy runs once per
	 * period even if no event reaches the aggregate's own stages */
	vis_ticket_advance(&s->ticket, now);
}

int vis_members_check(struct vis_sampler *s, const struct vis_event *ev, uint64_t now, int *counted)
{
	int r = VIS_REJ_NOT_ELIGIBLE;

	*counted = 1;
	switch (s->c.kind) {
	case VIS_NODE_CHAIN_ALL:
		for (size_t i = 0; i < s->n_members; i++) {
			r = vis_sampler_check(s->members[i], ev, now);
			if (r != VIS_PASS) {
				for (size_t j = 0; j < i; j++)
					vis_sampler_abort(s->members[j]);
				return r;
			}
		}
		return VIS_PASS;
	case VIS_NODE_CHAIN_ANY:
		s->pending = -1;
		for (size_t i = 0; i < s->n_members; i++) {
			int mr = vis_sampler_check(s->members[i], ev, now);
			if (mr == VIS_PASS) {
				s->pending = (int)i;
				return VIS_PASS;
			}
			/* the first reason of a member the event was eligible for */
			if (r == VIS_REJ_NOT_ELIGIBLE)
				r = mr;
		}
		return r;
	case VIS_NODE_AGGREGATE:
		run_ratemgr(s, now);
		s->pending = -1;
		for (size_t i = 0; i < s->n_members; i++) {
			struct vis_sampler *m = s->members[i];
			if (!vis_match_event(&m->c.match, ev))
				continue;
			/* the child decides now and spends later, in
			 * vis_members_commit: not if a node above the
			 * aggregate rejects the event */
			r = vis_sampler_check(m, ev, now);
			if (r == VIS_PASS)
				s->pending = (int)i;
			return r;
		}
		*counted = 0;
		return VIS_REJ_NOT_ELIGIBLE;
	default:
		return VIS_PASS;
	}
}

void vis_members_commit(struct vis_sampler *s, const struct vis_event *ev, uint64_t now)
{
	if (s->c.kind == VIS_NODE_CHAIN_ALL) {
		for (size_t i = 0; i < s->n_members; i++)
			vis_sampler_commit(s->members[i], ev, now);
	} else if (s->pending >= 0) { /* any, aggregate: the member that passed */
		vis_sampler_commit(s->members[s->pending], ev, now);
		s->pending = -1;
	}
}

void vis_members_abort(struct vis_sampler *s)
{
	if (s->c.kind == VIS_NODE_CHAIN_ALL) {
		for (size_t i = 0; i < s->n_members; i++)
			vis_sampler_abort(s->members[i]);
	} else if (s->pending >= 0) {
		vis_sampler_abort(s->members[s->pending]);
		s->pending = -1;
	}
}
