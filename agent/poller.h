/*
 * poller.h - the counter poller: one data source per port (0:ifIndex) and
 * one for the device (2:1), each polled every polling_interval seconds on
 * its own libevent timer, the first poll of each staggered at random within
 * the interval so that sources do not all fire together.
 *
 * A poll builds the source's counters sample through samples.h (backend
 * reads with the export's peak window 0, closing its peaks) and hands it to
 * the exporter.  The poller owns the per-data-source sample sequence
 * numbers (counters samples); they survive interval changes and backend
 * reopens (kept by data source id).
 */
#ifndef BSFLOWD_AGENT_POLLER_H
#define BSFLOWD_AGENT_POLLER_H

#include <stdint.h>

#include "agent/backend.h"

struct event_base;
struct export;
struct poller;

#define POLLER_WINDOW 0 /* the sFlow export's peak read window */

struct poller *poller_new(struct event_base *base, struct export *x, uint64_t seed);
void poller_free(struct poller *p);
/* Use this backend (ops/st may be NULL: no sources).  If another backend
 * was in use, every source of it is polled once first, so that its pending
 * peaks are exported before the caller closes it.  Data sources are then
 * rebuilt from describe(); a source with the same id keeps its sequence
 * number and counts.  0, or -1 (out of memory; nothing changed). */
int poller_set_backend(struct poller *p, const struct bsf_backend_ops *ops, void *st);
/* Own-record enterprise (0 = no own records). */
void poller_set_enterprise(struct poller *p, uint32_t enterprise);
/* Seconds between polls, 0 = off.  A change restarts the staggered
 * schedule. */
void poller_set_interval(struct poller *p, unsigned seconds);
/* Poll every source now (tests, status). */
void poller_poll_all(struct poller *p);

uint32_t poller_n_sources(const struct poller *p);
/* Samples sent and failed reads of source i; its id as type:index. */
void poller_source_stats(const struct poller *p, uint32_t i, uint32_t *type, uint32_t *index,
			 uint64_t *samples, uint64_t *read_errors, uint32_t *next_seq);
void poller_log_status(const struct poller *p);

#endif
