/*
 * sim_stats.h - what bsflow-sim measures beside the model's counters: it
 * turns on the model's queue statistics (model_track_queues: per queue
 * the occupancy integral and a histogram of the queue delay of every
 * departed packet, per ingress port the drops by priority group and by
 * traffic class) and reads them over the whole run or over the current
 * interval of the time series, for which it keeps the histograms and
 * drops as they were when the interval began.
 *
 * Delays are counted in the model's log-linear buckets (struct
 * model_sojourns): exact below 256 ns, then 128 buckets per power of two,
 * so a percentile read back is the upper end of its bucket, at most 1/128
 * (0.8 %) above the exact value (and never above the largest delay of
 * the run or interval).  A histogram takes 58 KB of address space, made
 * for a queue when its first packet departs; only its pages of buckets
 * that counted something are ever touched.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_MODEL_SIM_STATS_H
#define BSFLOWD_MODEL_SIM_STATS_H

#include <stdint.h>

#include "agent/model/model.h"

struct sim_stats;

/* Measure m from now on.  intervals: also keep what the intervals need.
 * NULL out of memory. */
struct sim_stats *sim_stats_new(struct model *m, int intervals);
void sim_stats_free(struct sim_stats *s);
/* The nearest-rank quantiles q[0..n-1] (each in (0, 1]) of the delays of
 * the packets that left unicast (mc 0) or multicast queue `queue` of
 * `port` over the run (interval 0) or the current interval (1), into
 * out[0..n-1]; all 0 if none left it in that time. */
void sim_stats_delays(const struct sim_stats *s, unsigned port, unsigned queue, int mc,
		      int interval, const double *q, uint64_t *out, unsigned n);
/* The drops of ingress port `port` over the run (interval 0) or the
 * current interval (1) into d.  0, or -1 for a port out of range. */
int sim_stats_drops(const struct sim_stats *s, unsigned port, int interval,
		    struct model_class_drops *d);
/* A new interval starts now. */
void sim_stats_next_interval(struct sim_stats *s);
/* 1 if memory ran out for a histogram (the figures then miss that
 * queue's delays: the caller says so). */
int sim_stats_failed(const struct sim_stats *s);

#endif
