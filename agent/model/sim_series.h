/*
 * sim_series.h - bsflow-sim --interval T: a time series of the run, one
 * row per queue that held, sent or dropped something in the interval
 * (occupancy now and its peak in the interval, copies sent, drops by
 * cause, delay percentiles of the packets that departed in the interval)
 * and one row per port with its PFC XOFF transitions, as JSON lines or
 * CSV.  It reads the model through its own read window
 * (SIM_SERIES_WINDOW), so the end-of-run report is unchanged.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_MODEL_SIM_SERIES_H
#define BSFLOWD_MODEL_SIM_SERIES_H

#include <stdint.h>
#include <stdio.h>

#include "agent/model/model.h"
#include "agent/model/sim_plot.h"

#define SIM_SERIES_WINDOW 1 /* model read window; bsflow-sim's report reads 0 */

struct sim_series;

/* csv: CSV with a header line, else JSON lines; out NULL: no rows
 * written (for plot alone).  plot (may be NULL) gets every queue row.
 * NULL out of memory. */
struct sim_series *sim_series_new(struct model *m, FILE *out, int csv, struct sim_plot *plot);
/* One interval ending at the model's clock: write its rows.  0, -1 on a
 * write error. */
int sim_series_sample(struct sim_series *s, struct model *m);
void sim_series_free(struct sim_series *s);
/* Run m to dur_ns writing a row set every interval_ns of virtual time to
 * out, then as model_run(m, dur_ns).  0, -1 out of memory or on a write
 * error. */
int sim_series_run(struct model *m, uint64_t dur_ns, uint64_t interval_ns, FILE *out, int csv,
		   struct sim_plot *plot);

/* The value below which a fraction q of the histogram's packets lie, as
 * the upper bound (2^b ns) of the power-of-two bucket b that reaches it;
 * 0 with no packet.  (Exported for its unit test.) */
uint64_t sim_series_quantile(const uint64_t hist[MODEL_DELAY_HIST], double q);

#endif
