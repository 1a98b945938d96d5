/*
 * events.h - the backend's events, routed: what the agent does with each
 * event a backend reports (backend.h, BSF_EV_*), in one place.
 *
 *   BSF_EV_SAMPLE    a 0:3 flow sample on the input port's data source
 *                    (flowsample.h), and to the visibility monitors;
 *   BSF_EV_DROP      to the visibility monitors, whose drop sampler (if
 *                    one is routed) decides whether it is notified; then,
 *                    unless the sampler took it, a 0:5 notification on the
 *                    device source 2:1 (discard.h), through the rate limit
 *                    and the circuit breaker, carrying the drop's own
 *                    visibility_event record when the sampler passed it;
 *   BSF_EV_ENQUEUE / BSF_EV_DEQUEUE
 *                    to the visibility monitors only.
 *
 * The 0:5 drops field counts what was suppressed (rate limit, breaker,
 * too big for a datagram), what the backend lost to its full queue and,
 * with a drop sampler, what the sampler rejected for rate reasons, so
 * that sent + drops = every drop the backend saw, less those a drop
 * sampler filtered by intent (not eligible, duplicate, flow filter),
 * which are neither sent nor counted.
 *
 * The queue is drained from the loop when the backend says it has events
 * (bsf_events_wake, the host's events_ready) and before the backend is
 * closed or the daemon exits (bsf_events_drain).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_EVENTS_H
#define BSFLOWD_AGENT_EVENTS_H

#include <stdint.h>

#include "agent/backends.h"
#include "agent/discard.h"
#include "agent/flowsample.h"
#include "agent/log.h"

struct event;
struct event_base;
struct export;
struct bsf_visx;

struct bsf_events {
	struct bsf_backend *be; /* the daemon's open backend (be->ops NULL: none) */
	struct export *x;
	struct bsf_visx *vis;
	struct event *ev_drain;		  /* drains the backend's event queue */
	uint64_t by_type[8];		  /* read, by enum bsf_event_type; [0] others */
	struct bsf_flows flows;		  /* per-port sampling state (0:3) */
	struct bsf_discard_limiter drops; /* 0:5 rate limit and circuit breaker */
	uint32_t discard_seq;		  /* next 0:5 sequence number (device 2:1) */
	unsigned datagram_bytes;	  /* for the log line below */
	struct bsf_ratelimit drop_fit_rl; /* log lines: a 0:5 too big for datagrams */
	uint64_t flow_samples_sent, flow_samples_lost;
	struct bsf_ratelimit flow_fit_rl;		/* log lines: 0:3 cut or lost for size */
	uint64_t flow_cut_unlogged, flow_lost_unlogged; /* since the last line */
	uint64_t drop_events_lost_closed;		/* lost by backends closed since */
	/* bsf_events_suspend_ports: events routed meanwhile, by type */
	int ports_suspended;
	uint64_t unattributed[8];
};

/* 0, or -1 (out of memory). */
int bsf_events_init(struct bsf_events *e, struct event_base *base, struct bsf_backend *be,
		    struct export *x, struct bsf_visx *vis);
void bsf_events_fini(struct bsf_events *e);
/* The backend has events: drain them from the loop, soon. */
void bsf_events_wake(struct bsf_events *e);
/* One event, to every place it goes (above). */
void bsf_events_route(struct bsf_events *e, const struct bsf_event *ev);
/* While on, the backend's port numbering is not the one the daemon knows
 * (devchange.h): an event is attributed to no port.  A drop is notified
 * with its input and output interfaces unknown (0) and without the
 * visibility monitors; a sampled packet is not sent (no data source is
 * known to be its); queue events are dropped; all are counted
 * (unattributed, by type). */
void bsf_events_suspend_ports(struct bsf_events *e, int on);
/* Read and route everything the backend has queued, now. */
void bsf_events_drain(struct bsf_events *e);
/* Before the open backend is closed (a reload that replaces it): route
 * what it still has queued and keep its final loss counts. */
void bsf_events_backend_closing(struct bsf_events *e);
/* After a new backend took over: its event counts start from 0. */
void bsf_events_backend_opened(struct bsf_events *e);
/* Drop events the backends lost to a full queue, cumulative. */
uint64_t bsf_events_drops_lost(const struct bsf_events *e);
void bsf_events_log_status(const struct bsf_events *e);

#endif
