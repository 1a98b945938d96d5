/*
 * vis_monitor.h - visibility event monitors (doc/glossary.md): drop
 * visibility per cause, high queue delay on dequeue against per-queue
 * multi-level deadline profiles, queue forensics after a drop, and
 * congestion start / end per queue and per port with high / low
 * hysteresis (like Arista LANZ).  struct vis_monitors holds them all and
 * turns a stream of struct vis_pkt_event into struct vis_event values
 * given to a callback.  Semantics chosen: see vis.h.
 *
 *	struct vis_monitors_conf c;
 *	vis_monitors_conf_init(&c, nports, nqueues);
 *	struct vis_monitors *m = vis_monitors_new(&c, err, sizeof err);
 *	vis_monitors_set_delay_profile(m, VIS_NONE, VIS_NONE, &profile);
 *	vis_monitors_feed(m, &pkt_event, emit, arg);
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_VIS_MONITOR_H
#define BSFLOWD_VIS_MONITOR_H

#include <stddef.h>
#include <stdint.h>

#include "agent/visibility/vis.h"
#include "agent/visibility/vis_sampler.h"

typedef void (*vis_emit_fn)(void *arg, const struct vis_event *ev);

/* ---- high delay (vis_monitor_delay.c) ---- */

struct vis_delay_level {
	int64_t threshold_ns; /* -1: disabled */
	uint32_t tag, severity;
};

struct vis_delay_profile {
	uint32_t n; /* levels used, 0..VIS_DELAY_LEVELS */
	struct vis_delay_level lv[VIS_DELAY_LEVELS];
};

/* The 1-based level a departure with this delay is tagged with, 0 none. */
uint32_t vis_delay_level_of(const struct vis_delay_profile *p, uint64_t delay_ns);

/* ---- queue forensics (vis_forensics.c) ---- */

struct vis_forensics_q {
	int enabled;
	uint64_t in_queue; /* packets: enqueues - departures */
	uint64_t last_enq; /* id of the last enqueued packet, VIS_ID_NONE none */
	int active;
	uint64_t tail;	  /* id at the tail at drop time */
	uint64_t drop_id; /* event id of the drop */
	uint32_t reason;  /* of the drop */
	uint64_t tagged;  /* departures tagged, all snapshots */
	uint64_t snapshots;
	/* after a gap: in_queue is a lower bound until the departure of the
	 * last packet enqueued since (the queue was then empty) */
	int resync;
};

void vis_forensics_init(struct vis_forensics_q *q);
void vis_forensics_enqueue(struct vis_forensics_q *q, const struct vis_pkt_event *pe);
/* A drop on this queue: returns 1 if a snapshot started (or moved). */
int vis_forensics_drop(struct vis_forensics_q *q, const struct vis_pkt_event *pe, uint64_t drop_id);
/* A departure: returns 1 if it is tagged (*drop_id, *last set). */
int vis_forensics_dequeue(struct vis_forensics_q *q, const struct vis_pkt_event *pe,
			  uint64_t *drop_id, uint32_t *reason, int *last);

/* A gap in the queue's event stream: end a snapshot in progress without
 * a last departure and forget the packet count (an empty queue is
 * recognised again once a departure has the id of the last enqueue seen
 * since).  Returns 1 if a snapshot was in progress. */
int vis_forensics_forget(struct vis_forensics_q *q);

/* ---- congestion (vis_congestion.c) ---- */

struct vis_congestion_st {
	uint64_t high, low; /* bytes; high 0 = off */
	int on;
	uint64_t start_ns, peak_bytes, peak_ns;
	uint64_t starts, ends;
	uint64_t start_id; /* the open episode's start event id (its end's event_id) */
};

enum vis_cong_change { VIS_CONG_NONE = 0, VIS_CONG_START = 1, VIS_CONG_END = 2 };

/* Returns 0 (off) or -1 if low > high. */
int vis_congestion_init(struct vis_congestion_st *c, uint64_t high, uint64_t low);
/* A new depth at time t: returns enum vis_cong_change; on END,
 * *duration_ns is set and the peak fields hold the episode's peak. */
int vis_congestion_update(struct vis_congestion_st *c, uint64_t depth, uint64_t t_ns,
			  uint64_t *duration_ns);

/* ---- drops (vis_monitor_drop.c) ---- */

#define VIS_REASON_SLOTS 512 /* per-cause counters for reasons 0..511 */

struct vis_drop_mon {
	int enabled;
	struct vis_set reasons; /* reported causes; empty = all */
	uint64_t by_reason[VIS_REASON_SLOTS];
	uint64_t other_reason; /* reasons >= VIS_REASON_SLOTS */
	uint64_t reported;
};

void vis_drop_mon_init(struct vis_drop_mon *d);
/* Count the drop; return 1 if its cause is reported. */
int vis_drop_mon_account(struct vis_drop_mon *d, uint32_t reason);

/* ---- the monitor set (vis_monitor.c) ---- */

struct vis_monitors_conf {
	uint32_t nports, nqueues;    /* events outside are counted and ignored */
	int drops;		     /* drop visibility */
	struct vis_set drop_reasons; /* empty = every cause */
	int forensics;		     /* on every queue (vis_monitors_set_forensics) */
	int forensics_port_scope;    /* a drop snapshots every queue of the port */
	int has_eligibility;
	struct vis_match eligibility; /* pre-event eligibility */
};

struct vis_monitors_stats {
	uint64_t pkt_events, out_of_range, not_eligible;
	uint64_t events[VIS_EV_NTYPES];
	uint64_t gaps;		    /* vis_monitors_gap() calls */
	uint64_t forensics_aborted; /* snapshots a gap ended (no VIS_EVF_LAST) */
};

struct vis_monitors;

void vis_monitors_conf_init(struct vis_monitors_conf *c, uint32_t nports, uint32_t nqueues);
struct vis_monitors *vis_monitors_new(const struct vis_monitors_conf *c, char *err, size_t errlen);
void vis_monitors_free(struct vis_monitors *m);

/* port / queue VIS_NONE: every port / queue.  Return 0 or -1 (range). */
int vis_monitors_set_delay_profile(struct vis_monitors *m, uint32_t port, uint32_t queue,
				   const struct vis_delay_profile *p);
int vis_monitors_set_forensics(struct vis_monitors *m, uint32_t port, uint32_t queue, int on);
int vis_monitors_set_queue_congestion(struct vis_monitors *m, uint32_t port, uint32_t queue,
				      uint64_t high, uint64_t low);
int vis_monitors_set_port_congestion(struct vis_monitors *m, uint32_t port, uint64_t high,
				     uint64_t low);

/* Feed one packet event; every visibility event it raises goes to emit. */
void vis_monitors_feed(struct vis_monitors *m, const struct vis_pkt_event *pe, vis_emit_fn emit,
		       void *arg);

/* A polled queue depth (bytes at t_ns): drives congestion only. */
void vis_monitors_depth(struct vis_monitors *m, uint32_t port, uint32_t queue, uint64_t bytes,
			uint64_t t_ns, vis_emit_fn emit, void *arg);

/* What watches queue (port, queue): a mask of enum vis_watch, 0 for
 * nothing (or out of range).  Forensics, delay and queue congestion need
 * the queue's full enqueue / departure stream to be exact; port congestion
 * needs every queue of the port. */
enum vis_watch {
	VIS_WATCH_FORENSICS = 1u << 0,
	VIS_WATCH_DELAY = 1u << 1,
	VIS_WATCH_CONGESTION = 1u << 2, /* the queue's or its port's thresholds */
};
uint32_t vis_monitors_watches(const struct vis_monitors *m, uint32_t port, uint32_t queue);

/* The packet event stream of (port, queue) has a gap (the backend lost
 * events; VIS_NONE: every port / queue): forget the state a gap makes
 * wrong.  A forensics snapshot in progress ends without an event (its
 * remaining departures cannot be told apart), its packet count restarts;
 * a high-delay episode is forgotten (no VIS_EV_DELAY_END: the departure
 * that ended it may be among the lost ones).  Congestion is kept: the
 * next event's depth brings it up to date.  Counted in gaps and
 * forensics_aborted. */
void vis_monitors_gap(struct vis_monitors *m, uint32_t port, uint32_t queue);

void vis_monitors_get_stats(const struct vis_monitors *m, struct vis_monitors_stats *st);
const struct vis_drop_mon *vis_monitors_drops(const struct vis_monitors *m);

#endif
