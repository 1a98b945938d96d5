/*
 * sim_series.h - bsflow-sim --interval T: a time series of the run, one
 * row per queue that held, sent or dropped something in the interval
 * (occupancy now, its peak and its time average in the interval, copies
 * sent, drops by cause, delay percentiles of the packets that departed in
 * the interval) and one row per port whose priority groups did anything
 * in it (XOFF transitions, time and state, PG and headroom peaks, packets held
 * at its paused sender, drops by priority group and by class), as JSON
 * lines or CSV.  It reads the model through its own read window
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
#include "agent/model/sim_stats.h"

#define SIM_SERIES_WINDOW 1 /* model read window; bsflow-sim's report reads 2 */

struct sim_series;

/* Runs the model, and whatever runs with it, to virtual time t_ns: 0, or
 * -1 on an error (already reported). */
typedef int (*sim_advance_fn)(void *arg, uint64_t t_ns);

/* st: the run's measurements, made with intervals on.  csv: CSV with a
 * header line, else JSON lines; out NULL: no rows written (for plot
 * alone).  plot (may be NULL) gets every queue row.  NULL out of
 * memory. */
struct sim_series *sim_series_new(struct model *m, struct sim_stats *st, FILE *out, int csv,
				  struct sim_plot *plot);
/* One interval ending at the model's clock: write its rows.  0, -1 on a
 * write error. */
int sim_series_sample(struct sim_series *s, struct model *m);
void sim_series_free(struct sim_series *s);
/* Write a row set every interval_ns of virtual time to out, advancing
 * with adv(arg, t) (NULL: model_advance_to), up to dur_ns.  0, -1 out of
 * memory, on a write error or when adv failed. */
int sim_series_run(struct model *m, struct sim_stats *st, uint64_t dur_ns, uint64_t interval_ns,
		   FILE *out, int csv, struct sim_plot *plot, sim_advance_fn adv, void *arg);

#endif
