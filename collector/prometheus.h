/*
 * prometheus.h - bsflow-collect's metrics for Prometheus: what the decoded
 * datagrams say (per agent, data source and queue) kept as labelled
 * series, expired when not renewed, capped in number, and written in the
 * Prometheus text exposition format or in OpenMetrics.  The metric names
 * and labels are listed in bsflow-collect(1), PROMETHEUS.  Thread-safe:
 * the receiving thread adds, the HTTP thread (httpd.h) renders.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_COLLECT_PROMETHEUS_H
#define BSFLOWD_COLLECT_PROMETHEUS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "proto/sflow_decode.h"

#define COLLECT_PROM_EXPIRE_DEFAULT	300   /* seconds */
#define COLLECT_PROM_MAX_SERIES_DEFAULT 20000 /* series */

struct collect_prom;

struct collect_prom *collect_prom_new(uint32_t own_enterprise, double expire_s, size_t max_series);
void collect_prom_free(struct collect_prom *p);

/* Account one decoded datagram received at now (seconds, any clock that
 * also serves collect_prom_render). */
void collect_prom_datagram(struct collect_prom *p, const struct sflow_datagram *d, double now);
/* A datagram that did not decode. */
void collect_prom_malformed(struct collect_prom *p, double now);

/* Write every live series (series not renewed for expire_s are dropped
 * first).  openmetrics: the OpenMetrics text format ending in "# EOF",
 * else the Prometheus text format 0.0.4.  Returns 0, -1 on write error. */
int collect_prom_render(struct collect_prom *p, FILE *out, int openmetrics, double now);

/* The number of live series and of series refused by the cap. */
size_t collect_prom_series(struct collect_prom *p);
uint64_t collect_prom_refused(struct collect_prom *p);

#endif
