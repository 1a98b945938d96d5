/*
 * vis_pipeline.h - the visibility pipeline the daemon runs: monitors ->
 * samplers (routed per event type) -> the caller's callbacks.  Built from
 * a parsed `visibility` section (struct vis_config, vis_conf.h) once the
 * backend has said how many ports and queues it has.
 *
 *	struct vis_pipeline_cbs cbs = {.event = on_event, .port_sample = on_port, .arg = d};
 *	struct vis_pipeline *p = vis_pipeline_new(&vc, nports, nqueues, &cbs, err, errlen);
 *	vis_pipeline_feed(p, &pkt_event);          // per backend packet event
 *	vis_pipeline_depth(p, port, queue, bytes, t_ns);  // polled occupancy, optional
 *
 * on_event gets every visibility event that passed its route's sampler
 * (for a high-delay, forensics or congestion type with no sampler: the
 * first default_rate events of each second, vis_conf.h; drops with no
 * sampler all pass), to be exported.  A congestion end is not offered to
 * the sampler: it passes if its start passed and is rejected (with the
 * start's reason) if its start was.
 * on_port is called on each congestion start before its sampler
 * decides; bsflowd does not use it and sends the port's counters sample
 * only for a start that passed its sampler (VIS_EVF_SAMPLE_PORT on an
 * event given to on_event).  cbs.rejected, if set, gets every event a
 * sampler rejected (the daemon counts them per data source).
 * VIS_EV_DELAY_END is never given to on_event; it only resets flow
 * filters.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_VIS_PIPELINE_H
#define BSFLOWD_VIS_PIPELINE_H

#include <stddef.h>
#include <stdint.h>

#include "agent/visibility/vis.h"
#include "agent/visibility/vis_monitor.h"
#include "agent/visibility/vis_sampler.h"

struct vis_config;

struct vis_pipeline_cbs {
	void (*event)(void *arg, const struct vis_event *ev);
	void (*port_sample)(void *arg, uint32_t port, uint64_t t_ns);
	/* optional: an event its route's sampler rejected, with the reason
	 * (enum vis_reject) */
	void (*rejected)(void *arg, const struct vis_event *ev, int reason);
	void *arg;
};

struct vis_pipeline_stats {
	uint64_t raised[VIS_EV_NTYPES];	     /* by the monitors */
	uint64_t passed[VIS_EV_NTYPES];	     /* given to cbs.event */
	uint64_t sampled_out[VIS_EV_NTYPES]; /* rejected by the route's sampler or the
						implicit box (no_ticket) */
	uint64_t port_samples;		     /* cbs.port_sample calls */
	uint64_t ends_of_rejected;	     /* congestion ends rejected with their start */
};

struct vis_pipeline;

struct vis_pipeline *vis_pipeline_new(const struct vis_config *vc, uint32_t nports,
				      uint32_t nqueues, const struct vis_pipeline_cbs *cbs,
				      char *err, size_t errlen);
void vis_pipeline_free(struct vis_pipeline *p);

void vis_pipeline_feed(struct vis_pipeline *p, const struct vis_pkt_event *pe);
/* A polled queue depth (drives congestion only). */
void vis_pipeline_depth(struct vis_pipeline *p, uint32_t port, uint32_t queue, uint64_t bytes,
			uint64_t t_ns);

/* The monitors' vis_monitors_watches() and vis_monitors_gap(). */
uint32_t vis_pipeline_watches(const struct vis_pipeline *p, uint32_t port, uint32_t queue);
void vis_pipeline_gap(struct vis_pipeline *p, uint32_t port, uint32_t queue);

void vis_pipeline_get_stats(const struct vis_pipeline *p, struct vis_pipeline_stats *st);
/* Drop events lost to sampling, cumulative (discarded_packet.drops). */
uint64_t vis_pipeline_drops_lost(const struct vis_pipeline *p);
size_t vis_pipeline_n_samplers(const struct vis_pipeline *p);
struct vis_sampler *vis_pipeline_sampler(const struct vis_pipeline *p, size_t i);
struct vis_sampler *vis_pipeline_sampler_by_name(const struct vis_pipeline *p, const char *name);
struct vis_monitors *vis_pipeline_monitors(const struct vis_pipeline *p);

#endif
