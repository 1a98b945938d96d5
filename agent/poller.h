/*
 * poller.h - the counter poller: one data source per port (0:ifIndex) and
 * one for the device (2:1), each polled every polling_interval seconds, the
 * first poll of each staggered at random within the interval (in slots of
 * 100 ms) so that sources do not all fire together.  One timer serves them
 * all: a wake-up polls every source due, so polling costs at most ten
 * wake-ups a second however many ports there are.
 *
 * A poll builds the source's counters sample through counters.h (backend
 * reads with the export's peak window 0, closing its peaks) and hands it to
 * the exporter.  The poller owns the per-data-source sample sequence
 * numbers (counters samples); they survive interval changes and backend
 * reopens (kept by data source id).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_POLLER_H
#define BSFLOWD_AGENT_POLLER_H

#include <stddef.h>
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
/* The same in two steps, so that a reload can allocate everything before
 * it changes anything: poller_prepare_backend allocates the new sources
 * (NULL: out of memory, nothing changed); then poller_commit_backend
 * (cannot fail; takes nx) or poller_discard_backend.  With the backend in
 * use (its device changed: a new description), nothing is polled first
 * and the sources that stay keep their schedule; new ones start in a
 * random slot of the same 100 ms grid. */
struct poller_next;
struct poller_next *poller_prepare_backend(struct poller *p, const struct bsf_backend_ops *ops,
					   void *st);
void poller_commit_backend(struct poller *p, struct poller_next *nx);
void poller_discard_backend(struct poller_next *nx);
/* While on, no port source is polled (not on schedule, nor by
 * poller_poll_all or poller_sample_port): their samples are skipped, their
 * sequence numbers wait; the device source goes on.  For a backend whose
 * port numbering the daemon does not know (devchange.h). */
void poller_suspend_ports(struct poller *p, int on);
/* Own-record enterprise (0 = no own records). */
void poller_set_enterprise(struct poller *p, uint32_t enterprise);
/* Seconds between polls, 0 = off.  A change restarts the staggered
 * schedule. */
void poller_set_interval(struct poller *p, unsigned seconds);
/* Poll every source now (tests, status). */
void poller_poll_all(struct poller *p);
/* An out-of-cycle counters sample of port index `port` now (a congestion
 * start asks for one): the port's data source, its next sequence number,
 * the regular timer untouched.  It reads the same peak window as the
 * regular samples (POLLER_WINDOW) and closes its peaks: its peaks cover
 * the time since the port's previous sample, regular or not, and the next
 * regular sample's the time since it, so that no peak is reported twice
 * (nor lost).  Its buffers go to the port buffers hook like the regular
 * polls'.  Interface counters are cumulative either way.  0 if sent, -1
 * if not. */
int poller_sample_port(struct poller *p, uint32_t port);
/* The visibility samplers' statistics for E:7 in the device sample: fn
 * returns n entries (valid until the next call).  When E:7 does not fit in
 * the device sample next to its other records, it is left out of it and
 * sent right after in further counters samples of the device source
 * carrying only E:7 (each with the next sequence number, as many samplers
 * each as fit).  fn NULL: no E:7. */
struct sflow_own_sampler_stat;
void poller_set_sampler_stats(struct poller *p,
			      const struct sflow_own_sampler_stat *(*fn)(void *arg, size_t *n),
			      void *arg);
/* Called with each port's buffers as every poll reads them (regular and
 * out-of-cycle: each closes the peaks); fn NULL: none. */
void poller_set_port_buffers_hook(struct poller *p,
				  void (*fn)(void *arg, uint32_t port,
					     const struct bsf_port_buffers *b),
				  void *arg);

/* For a driver on virtual time that never runs the loop (bsflow-sim
 * --sflow, with bsf_clock_virtual): the earliest time a source is due
 * (UINT64_MAX: none), and the polls of every source due at bsf_now_ns()
 * or before, as their timers would run them. */
uint64_t poller_next_due(const struct poller *p);
void poller_run_due(struct poller *p);
/* The seed of the random stagger of the next schedule (poller_new's). */
void poller_set_seed(struct poller *p, uint64_t seed);

uint32_t poller_n_sources(const struct poller *p);
/* Wake-ups of the polling timer so far (each polls every source due). */
uint64_t poller_wakeups(const struct poller *p);
/* Samples sent and failed reads of source i; its id as type:index. */
void poller_source_stats(const struct poller *p, uint32_t i, uint32_t *type, uint32_t *index,
			 uint64_t *samples, uint64_t *read_errors, uint32_t *next_seq);
void poller_log_status(const struct poller *p);

#endif
