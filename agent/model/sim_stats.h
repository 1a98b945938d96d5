/*
 * sim_stats.h - what bsflow-sim measures beside the model's counters,
 * from the model's per-packet trace (model_set_trace): per queue, the
 * distribution of the queue delay (arrival to departure) of every
 * departed packet, over the whole run and over the current interval of
 * the time series; per ingress port, the drops by priority group and by
 * traffic class.  It also turns on the model's occupancy integral
 * (model_track_occupancy), for time-average occupancies.
 *
 * Delays go into log-linear histograms: exact below 256 ns, then 128
 * buckets per power of two, so a percentile read back is the upper end
 * of its bucket, at most 1/128 (0.8 %) above the exact value (and never
 * above the largest delay seen).  A histogram takes 58 KB and is made
 * for a queue when its first packet departs.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_MODEL_SIM_STATS_H
#define BSFLOWD_MODEL_SIM_STATS_H

#include <stdint.h>

#include "agent/model/model.h"

#define SIM_HIST_SUB 128u /* buckets per power of two */
#define SIM_HIST_NB  (2 * SIM_HIST_SUB + (64 - 8) * SIM_HIST_SUB)

struct sim_hist {
	uint64_t n, max;
	uint32_t lo, hi; /* buckets touched: [lo, hi] (hi < lo: none) */
	uint64_t c[SIM_HIST_NB];
};

/* The nearest-rank q-quantile (0 < q <= 1) of h: the smallest delay d
 * with at least ceil(q n) packets at or below d, as the upper end of its
 * bucket (at most the largest delay seen); 0 with no packet. */
uint64_t sim_hist_quantile(const struct sim_hist *h, double q);
/* The bucket of v, and the largest value of bucket b (for tests). */
unsigned sim_hist_bucket(uint64_t v);
uint64_t sim_hist_upper(unsigned b);

/* Drops of one ingress port, by priority group and by traffic class
 * (every copy dropped, forwarding drops included). */
struct sim_class_drops {
	uint64_t pg[MODEL_NUM_PG];
	uint64_t tc[MODEL_NUM_TC];
};

struct sim_stats;

/* Measure m from now on (sets its trace callback: nothing else may).
 * intervals: also keep per-interval histograms and drops.  NULL out of
 * memory. */
struct sim_stats *sim_stats_new(struct model *m, int intervals);
void sim_stats_free(struct sim_stats *s);
/* The delays of unicast (mc 0) or multicast queue `queue` of `port`, over
 * the run (interval 0) or the current interval (1); NULL if no packet
 * departed from it in that time. */
const struct sim_hist *sim_stats_delay(const struct sim_stats *s, unsigned port, unsigned queue,
				       int mc, int interval);
/* The drops of ingress port `port` over the run (interval 0) or the
 * current interval (1); NULL for a port out of range. */
const struct sim_class_drops *sim_stats_drops(const struct sim_stats *s, unsigned port,
					      int interval);
/* A new interval starts: its histograms and drops back to empty. */
void sim_stats_next_interval(struct sim_stats *s);
/* 1 if the model ran out of memory for a histogram (the figures then miss
 * that queue's delays: the caller says so). */
int sim_stats_failed(const struct sim_stats *s);

#endif
