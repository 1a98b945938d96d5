/*
 * vis_int.h - internals of the sampler node shared by vis_sampler.c (own
 * stages) and vis_chain.c (members: chains and aggregates).  Not for use
 * outside agent/visibility/.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_VIS_INT_H
#define BSFLOWD_VIS_INT_H

#include "agent/visibility/vis_sampler.h"

#define VIS_MEMBERS_MAX VIS_MEMBERS_MAX_CONF

struct vis_sampler {
	struct vis_sampler_conf c;
	struct vis_rng rng;
	uint64_t thr;	   /* probability threshold over 2^32 */
	uint64_t position; /* events that reached the decimation stage */
	int has_ticket, has_ff, has_lim, has_dedup;
	struct vis_ticket ticket;
	struct vis_flowfilter ff;
	struct vis_limiter lim;
	struct vis_dedup dedup;
	struct vis_ratemgr rm;
	struct vis_sampler *members[VIS_MEMBERS_MAX];
	size_t n_members;
	int pending; /* chain any, aggregate: the member that passed, -1 */
	struct vis_sampler_stats st;
};

/* vis_sampler.c: own stages (after the match) */
int vis_own_check(struct vis_sampler *s, const struct vis_event *ev, uint64_t now);
void vis_own_commit(struct vis_sampler *s, const struct vis_event *ev, uint64_t now);
/* vis_chain.c: members; VIS_PASS or the reason.  The members that passed
 * are committed / aborted with the node (vis_members_commit / abort). */
int vis_members_check(struct vis_sampler *s, const struct vis_event *ev, uint64_t now,
		      int *counted);
void vis_members_commit(struct vis_sampler *s, const struct vis_event *ev, uint64_t now);
void vis_members_abort(struct vis_sampler *s);

#endif
