/*
 * sim_plot.h - bsflow-sim --plot FILE.svg: the time series of chosen
 * queues (sim_series.h) drawn as one SVG readable in any browser: queue
 * occupancy (now and interval peak) and the 99th percentile queue delay
 * over virtual time, intervals with drops marked in red, a legend naming
 * port and queue.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_MODEL_SIM_PLOT_H
#define BSFLOWD_MODEL_SIM_PLOT_H

#include <stdint.h>
#include <stdio.h>

#define SIM_PLOT_MAX_QUEUES 8

struct sim_plot;

/* A plot of the queues named by "PORT:QUEUE" strings (unicast), or, with
 * none, of the up to 4 queues with the largest peaks.  NULL out of memory
 * or on a bad name (message in err). */
struct sim_plot *sim_plot_new(const char *const *queues, unsigned nqueues, char *err,
			      size_t errlen);
/* One queue row of one interval (called by the series). */
void sim_plot_add(struct sim_plot *p, double t, unsigned port, unsigned queue, int mc,
		  uint64_t bytes, uint64_t peak_bytes, uint64_t drops, uint64_t delay_p99_ns);
/* Write the SVG; title names the scenario.  0, -1 on a write error. */
int sim_plot_write(struct sim_plot *p, FILE *out, const char *title, double duration_s);
void sim_plot_free(struct sim_plot *p);

#endif
