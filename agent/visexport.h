/*
 * visexport.h - the daemon's side of the visibility pipeline
 * (agent/visibility/): building it for the backend's ports, feeding it the
 * backend's events and polled queue depths, asking the backend for the
 * enqueue / dequeue streams the monitors need, and exporting what passes
 * the samplers.
 *
 *   drop events      routed through a sampler (sample_drops): bsf_visx_feed
 *                    says whether the drop passed it and, if so, gives the
 *                    drop's own visibility_event record, which its 0:5
 *                    notification carries (agent/events.c) so that
 *                    collectors can join it with the forensics events it
 *                    started; without a drop sampler every drop is
 *                    notified as before.
 *   other events     (high delay, forensics, congestion start / end): an
 *                    own E:1 visibility_event_sample on the egress port's
 *                    data source 0:ifIndex (2:1 when the event has no
 *                    port), with its own sequence numbers per data source
 *                    and a drops field counting that source's events
 *                    sampled out for rate reasons (no ticket, probability
 *                    or every-N, re-occurrence limit) or not sent.
 *   congestion start an out-of-cycle counters sample of the port
 *                    (poller_sample_port), only for a start that passed
 *                    its sampler (every start when none is routed) and at
 *                    most one per port per second of event time; the
 *                    others are counted (port_samples_skipped).  The
 *                    start's E:1 sample goes out right after that counters
 *                    sample was tried, with flag bit 0 set exactly when
 *                    it was sent.  Events raised inside a poll (polled
 *                    depths) are held and sent, in order, from the loop.
 *
 * 0:5 drops field: bsf_visx_drops_lost counts the drops the drop sampler
 * rejected for rate reasons only (no ticket, probability or every-N,
 * re-occurrence limit), like the E:1 drops field; drops it filters by
 * intent (not eligible, duplicate, flow filter) are neither sent nor
 * counted.
 *
 * Queue numbering: the monitors see 2 * BSF_MAX_QUEUES queues per port,
 * unicast queue q as q and multicast queue q as BSF_MAX_QUEUES + q; the
 * event samples carry that number.
 *
 * Life cycle with reloads: a pipeline is built (bsf_visx_build) before
 * the daemon commits a configuration, so a section that cannot be built
 * refuses the reload; bsf_visx_set_pipeline swaps it in.  The data
 * sources' sequence numbers and counts, and the drops already counted,
 * carry over any swap.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_VISEXPORT_H
#define BSFLOWD_AGENT_VISEXPORT_H

#include <stddef.h>
#include <stdint.h>

#include "agent/backend.h"
#include "agent/visibility/vis.h"
#include "proto/sflow_own.h"

struct event;
struct event_base;
struct export;
struct poller;
struct vis_config;
struct vis_pipeline;
struct sflow_own_sampler_stat;

#define BSF_VISX_NQUEUES (2 * BSF_MAX_QUEUES) /* queues per port the monitors see */

/* One data source carrying event samples. */
struct bsf_visx_src {
	uint32_t type, index; /* 0:ifIndex, or 2:1 */
	uint32_t next_seq;
	uint64_t sent;	      /* event samples sent */
	uint64_t sampled_out; /* rejected for rate reasons */
	uint64_t lost;	      /* passed, but not sent (no room) */
};

struct bsf_visx {
	struct export *x;
	struct poller *poller;
	struct vis_pipeline *p;	  /* NULL: visibility off */
	int drop_routed;	  /* drops go through a sampler */
	uint64_t drops_rate_lost; /* drops sampled out for rate reasons, cumulative */
	uint32_t enterprise, header_bytes;
	/* the backend */
	const struct bsf_backend_ops *ops;
	void *st;
	const struct bsf_device_desc *dev;
	/* data sources: ports by index, then the device (nports + 1) */
	struct bsf_visx_src *src;
	uint32_t nsrc;
	/* queue event streams: bit v of streamed[port] = (port, queue v) */
	uint32_t *streamed;
	uint32_t n_streamed;
	int stream_cap;		 /* the backend can stream queue events */
	int said_nostream;	 /* the "cannot stream" line was logged */
	uint64_t lost_seen;	 /* the backend's queue_events_lost at the last look */
	int gap_pending;	 /* lost events seen: a gap after those queued */
	uint64_t gaps;		 /* gaps in the streams given to the monitors */
	uint64_t *depth_t;	 /* per port: time of the last polled depth fed */
	uint64_t *port_sample_t; /* per port: event time of the last out-of-cycle
				  * sample tried */
	/* E:1 events raised inside a poll (polled depths), held in order for
	 * the loop: a congestion start's port sample cannot be sent from
	 * inside a poll (the poller's scratch and sequence numbers are in use
	 * there) and the samples that follow it keep their order */
	struct vis_event *held;
	size_t n_held, cap_held;
	int in_poll, flush_armed;
	struct event *ev_ports;
	/* during bsf_visx_feed of a drop: where its record goes if it passes
	 * the drop sampler (NULL otherwise), and whether it did */
	struct sflow_own_vis_event *drop_rec;
	int drop_passed;
	/* counts since the pipeline was built (as its own statistics), by
	 * enum vis_event_type */
	uint64_t sent[VIS_EV_NTYPES], lost[VIS_EV_NTYPES];
	uint64_t port_samples_asked; /* passed congestion starts that ask for one */
	uint64_t port_samples, port_samples_failed;
	uint64_t port_samples_skipped; /* within a second of the port's previous one */
	uint64_t depths_fed;
	int ports_suspended; /* bsf_visx_suspend_ports */
	/* sampler statistics for E:7 (bsf_visx_sampler_stats) */
	struct sflow_own_sampler_stat *stats;
	size_t stats_cap;
};

/* 0, or -1 (out of memory). */
int bsf_visx_init(struct bsf_visx *v, struct event_base *base, struct export *x,
		  struct poller *poller);
void bsf_visx_fini(struct bsf_visx *v);

/* A pipeline for vc on dev's ports, calling back into v; *out is NULL when
 * vc is not enabled.  0, or -1 with "FILE: visibility: ..." in err (file
 * names the configuration). */
int bsf_visx_build(struct bsf_visx *v, const struct vis_config *vc,
		   const struct bsf_device_desc *dev, const char *file, struct vis_pipeline **out,
		   char *err, size_t errlen);
/* Use backend (ops, st): data sources rebuilt from describe() keeping
 * sequence numbers by id.  In two steps so that a reload can allocate
 * everything before it changes anything: bsf_visx_prepare_backend
 * allocates (NULL: out of memory, nothing changed), then either
 * bsf_visx_commit_backend (cannot fail; takes nb) or
 * bsf_visx_discard_backend.  bsf_visx_set_backend does both: 0, or -1
 * (out of memory: unchanged). */
struct bsf_visx_backend;
struct bsf_visx_backend *bsf_visx_prepare_backend(const struct bsf_backend_ops *ops, void *st);
void bsf_visx_commit_backend(struct bsf_visx *v, struct bsf_visx_backend *nb);
void bsf_visx_discard_backend(struct bsf_visx_backend *nb);
int bsf_visx_set_backend(struct bsf_visx *v, const struct bsf_backend_ops *ops, void *st);
/* Swap in p (taken over; NULL: off), freeing the one in use. */
void bsf_visx_set_pipeline(struct bsf_visx *v, struct vis_pipeline *p, int drop_routed);
/* The backend was reopened and the pipeline kept: forget every queue's
 * per-packet state (as after a gap). */
void bsf_visx_forget(struct bsf_visx *v);
/* Ask the backend for enqueue and dequeue events on exactly the queues the
 * monitors watch (none when off); log once if it cannot. */
void bsf_visx_apply_streams(struct bsf_visx *v);
/* While on, the backend's port numbering is not the one the daemon knows
 * (devchange.h): no queue stream is on (the backend turned them off with
 * its new description) and none is asked for; the events (events.h) and
 * polled depths (poller.h) of ports are not fed meanwhile. */
void bsf_visx_suspend_ports(struct bsf_visx *v, int on);
/* Own enterprise (0: no event samples) and header bytes for 0:1. */
void bsf_visx_set_export(struct bsf_visx *v, uint32_t enterprise, unsigned header_bytes);

/* What bsf_visx_feed decided about a drop's 0:5 notification. */
enum bsf_visx_drop {
	/* not the drop sampler's (none is routed, the event is not a drop,
	 * or a drop outside the device's ports and queues, such as a CPU
	 * port's, which the monitors only count as out of range): the caller
	 * notifies it as without a sampler */
	BSF_VISX_DROP_NOTIFY = 0,
	/* it passed the drop sampler: notify it, with *rec (its own
	 * visibility_event record) when rec_valid */
	BSF_VISX_DROP_SAMPLED,
	/* the drop sampler's, and not passed (sampled out, or not raised by
	 * the monitors: drops = no, a cause not in drop_reasons, not
	 * eligible): no notification */
	BSF_VISX_DROP_TAKEN,
};

/* One backend event, to the monitors.  For a drop, the verdict on its 0:5
 * notification; a passed drop's own record is written to *rec (if rec is
 * not NULL), and *rec_valid says whether it was (it is not when no own
 * enterprise is set). */
enum bsf_visx_drop bsf_visx_feed(struct bsf_visx *v, const struct bsf_event *be,
				 struct sflow_own_vis_event *rec, int *rec_valid);
/* Before reading events: has the backend lost queue events since the
 * last look?  A full event queue loses the newest events, and the backend
 * adds none while the daemon drains it, so what is queued now came before
 * the gap: the monitors are told (a gap on every queue) once the queue has
 * been drained (bsf_visx_events_drained). */
void bsf_visx_check_lost(struct bsf_visx *v);
void bsf_visx_events_drained(struct bsf_visx *v);
/* Polled buffers of a port (poller hook): depths of the queues the
 * monitors watch but the backend does not stream. */
void bsf_visx_port_buffers(void *arg, uint32_t port, const struct bsf_port_buffers *b);
/* Send the E:1 events held from inside polls now (the loop does it on its
 * own; for a flush before exit). */
void bsf_visx_flush_held(struct bsf_visx *v);

/* The own enterprise the export uses (0: none). */
uint32_t bsf_visx_enterprise(const struct bsf_visx *v);

/* Drop events the drop sampler rejected for rate reasons, cumulative over
 * pipelines (0:5 drops). */
uint64_t bsf_visx_drops_lost(const struct bsf_visx *v);
/* Every sampler's statistics as E:7 entries (valid until the next call or
 * swap); *n = 0 when off. */
const struct sflow_own_sampler_stat *bsf_visx_sampler_stats(struct bsf_visx *v, size_t *n);
void bsf_visx_log_status(const struct bsf_visx *v);

#endif
