/*
 * checks.h - bsflow-collect's checks and counters.
 *
 * Sequence numbers: one stream per (agent, sub-agent) for datagrams and
 * one per (agent, sub-agent, sample type family, source id) for samples.
 * A number one more than the last is in order; a jump forward is a gap
 * (reported once, with the count missing); a number that goes back, or an
 * agent uptime that goes back, is a reset.  bsflowd's visibility event
 * samples (own E:1) have a sequence per data source like the standard
 * ones, and must carry exactly one visibility_event record, first (else a
 * bad event sample).  Sampler statistics (own E:7) must add up: a sampler
 * whose seen is not passed plus its rejections is a mismatch.  Reports
 * are single lines ("gap ...", "reset ...", "malformed ...", "sampler
 * mismatch ...", "bad event sample ...") on the report stream.
 *
 * Counters for the exit summary: datagrams, bytes, malformed datagrams,
 * skipped capture frames, samples by type, records by tag, unknown tags,
 * gaps, resets, discards by reason, flow samples by output port and queue.
 *
 * The state is bounded, since agent addresses come from the wire (a
 * flood of spoofed agents must not grow it without end): at most
 * COLLECT_MAX_AGENTS (agent, sub-agent) streams are followed; a new one
 * beyond that evicts the least recently heard quarter of them, with their
 * data sources (counted: agentsEvicted, sourcesEvicted in the summary; an
 * evicted agent heard again starts afresh, without a gap or reset
 * report).  Data sources are bounded the same way by COLLECT_MAX_SOURCES
 * in all, and so are the summary's keys (sample types, record tags,
 * reasons, output ports); what cannot be followed within the bounds is
 * counted in keysNotTracked.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_COLLECT_CHECKS_H
#define BSFLOWD_COLLECT_CHECKS_H

#include <stdint.h>
#include <stdio.h>

#include "collector/print.h"
#include "proto/sflow_decode.h"

struct collect_checks;

#define COLLECT_MAX_AGENTS  4096u
#define COLLECT_MAX_SOURCES 262144u

struct collect_checks *collect_checks_new(FILE *report, uint32_t own_enterprise);
/* Other bounds than the defaults (tests); 0 counts as 1. */
void collect_checks_set_limits(struct collect_checks *c, size_t max_agents, size_t max_sources);
void collect_checks_free(struct collect_checks *c);

/* A datagram that decoded: check its sequence numbers and count it. */
void collect_checks_datagram(struct collect_checks *c, const struct collect_rx *rx,
			     const struct sflow_datagram *d);
/* A datagram that did not decode: report and count it. */
void collect_checks_malformed(struct collect_checks *c, const struct collect_rx *rx,
			      const struct sflow_decode_error *err);
/* A capture frame that carried no UDP datagram (why: short name). */
void collect_checks_skipped(struct collect_checks *c, const char *why);
/* Packets written by -w. */
void collect_checks_written(struct collect_checks *c, uint64_t n);

uint64_t collect_checks_gaps(const struct collect_checks *c);
/* Agents and data sources followed now, and agents evicted so far. */
size_t collect_checks_agents(const struct collect_checks *c);
size_t collect_checks_sources(const struct collect_checks *c);
uint64_t collect_checks_agents_evicted(const struct collect_checks *c);
uint64_t collect_checks_malformed_count(const struct collect_checks *c);
/* bsflowd's own structures found wrong so far: samplers whose statistics
 * did not add up, and bad event samples. */
uint64_t collect_checks_own_errors(const struct collect_checks *c);

/* The summary, "key value" lines between startSummary/endSummary. */
void collect_checks_summary(const struct collect_checks *c, FILE *fp);

#endif
