/*
 * export.h - the exporter: one shared sFlow datagram builder for the agent,
 * one non-blocking UDP socket per collector, datagram sequence numbers and
 * uptime.
 *
 * Producers (the counter poller, the event pipeline) hand it complete
 * encoded samples with export_add().  A sample goes into the pending
 * datagram; when it does not fit, the pending datagram is finished first
 * (numbered) and queued.  A pending datagram is also finished at the latest
 * one second after its first sample (a libevent timer), and on
 * export_flush().  Queued datagrams go out together at the end of the
 * event loop's turn (an active event), when 64 are queued, or on
 * export_flush(): one sendmmsg per collector.  Every datagram goes to
 * every collector.  Send errors (refused, unreachable, would block) are
 * counted per collector and logged at most once a minute per collector with
 * the count; they never stop the daemon.
 *
 * The datagram sequence number belongs to the stream (agent address,
 * sub-agent id): it survives reloads and collector changes; so do the
 * samples' sequence numbers, per data source and sample type, which the
 * exporter writes into each sample it accepts (seqspace.h): a new stream
 * numbers its samples from 1, an earlier one goes on with its own (the
 * last 8 streams are remembered).  Uptime is CLOCK_MONOTONIC since
 * export_new().
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_EXPORT_H
#define BSFLOWD_AGENT_EXPORT_H

#include <stddef.h>
#include <stdint.h>

#include "agent/conf.h"
#include "proto/sflow.h"

struct event_base;
struct export;

struct export_collector_stats {
	const char *name;
	char dest[CONF_HOST_MAX + 64]; /* "address:port" as resolved, or why not */
	uint64_t datagrams, bytes, errors;
};

struct export *export_new(struct event_base *base);
void export_free(struct export *x);

/* Set the agent address, sub-agent id and datagram size.  Flushes what is
 * pending first if any of them changes.  0, or -1 with a message. */
int export_set_agent(struct export *x, const struct sflow_addr *agent, uint32_t sub_agent_id,
		     size_t max_bytes, char *err, size_t errlen);
/* Make the collector set equal to cs[0..n): collectors are matched by name;
 * a kept one keeps its counters (its socket is reopened if its settings
 * changed).  Host names are looked up asynchronously (resolve.h): a
 * collector waiting for its name sends nothing until the answer comes,
 * while the others go on; a kept collector whose name is looked up again
 * (at each reload) keeps sending to its last address meanwhile, and keeps
 * it if the lookup fails.  A collector that cannot be resolved or opened
 * is logged and retried once a minute; never fatal. */
void export_set_collectors(struct export *x, const struct conf_collector *cs, size_t n);

/* Room for one sample: the most a sample may be (max_bytes - header). */
size_t export_sample_room(const struct export *x);
/* Add one encoded sample (its sequence number rewritten to the stream's,
 * seqspace.h).  0, or -1 if it can never fit (the caller keeps it smaller
 * than export_sample_room()). */
int export_add(struct export *x, const uint8_t *sample, size_t len);
/* Send what is pending and queued now. */
void export_flush(struct export *x);
/* When the pending datagram goes out at the latest (one second after its
 * first sample), UINT64_MAX if none: for a driver on virtual time that
 * never runs the loop (bsflow-sim --sflow), which calls export_flush then. */
uint64_t export_flush_due(const struct export *x);
/* Every datagram sent also goes to fn(arg, datagram, len) (bsflow-sim
 * --sflow writes them); fn NULL: none. */
void export_set_tap(struct export *x, void (*fn)(void *arg, const uint8_t *d, size_t len),
		    void *arg);

uint32_t export_uptime_ms(const struct export *x);
uint32_t export_sequence(const struct export *x); /* of the next datagram */
size_t export_n_collectors(const struct export *x);
void export_collector_stats(const struct export *x, size_t i, struct export_collector_stats *out);
/* Log one line per collector (LOG_NOTICE). */
void export_log_status(const struct export *x);

#endif
