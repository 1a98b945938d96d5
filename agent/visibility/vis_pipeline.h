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
 * (or every one, for an event type with no sampler), to be exported.
 * on_port is called on each congestion start (never sampled away): send an
 * out-of-cycle counters sample of that port.  VIS_EV_DELAY_END is never
 * given to on_event; it only resets flow filters.
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
	void *arg;
};

struct vis_pipeline_stats {
	uint64_t raised[VIS_EV_NTYPES];	     /* by the monitors */
	uint64_t passed[VIS_EV_NTYPES];	     /* given to cbs.event */
	uint64_t sampled_out[VIS_EV_NTYPES]; /* rejected by the route's sampler */
	uint64_t port_samples;		     /* cbs.port_sample calls */
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

void vis_pipeline_get_stats(const struct vis_pipeline *p, struct vis_pipeline_stats *st);
/* Drop events lost to sampling, cumulative (discarded_packet.drops). */
uint64_t vis_pipeline_drops_lost(const struct vis_pipeline *p);
size_t vis_pipeline_n_samplers(const struct vis_pipeline *p);
struct vis_sampler *vis_pipeline_sampler(const struct vis_pipeline *p, size_t i);
struct vis_sampler *vis_pipeline_sampler_by_name(const struct vis_pipeline *p, const char *name);
struct vis_monitors *vis_pipeline_monitors(const struct vis_pipeline *p);

#endif
