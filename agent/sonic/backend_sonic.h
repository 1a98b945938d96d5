/*
 * backend_sonic.h - the built-in sonic backend: SONiC's port counters,
 * buffer watermarks and buffer configuration read from its Redis
 * databases (backend_sonic.c).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_SONIC_BACKEND_SONIC_H
#define BSFLOWD_AGENT_SONIC_BACKEND_SONIC_H

#include <stdint.h>

#include "agent/backend.h"

const struct bsf_backend_ops *bsf_backend_sonic_ops(void);

/* For tests and the benchmark: what the backend has done so far. */
struct sonic_backend_stats {
	uint64_t polls;	       /* poll cycles completed */
	uint64_t polls_failed; /* cut short by a lost connection */
	uint64_t stalls;       /* ticks skipped: the last cycle still running */
	uint64_t commands;     /* Redis commands sent */
	uint64_t batches;      /* pipelines sent (one per cycle or stage) */
	uint64_t refreshes;    /* map refreshes completed */
	uint64_t bad_values;   /* fields that were not numbers */
	uint64_t connects, disconnects, connect_failures;
	uint64_t reads, writes;		       /* socket readable / writable wake-ups */
	uint64_t device_changes;	       /* new descriptions handed over */
	uint64_t notifications, subscriptions; /* keyspace notifications */
};
void sonic_backend_get_stats(void *st, struct sonic_backend_stats *out);

#endif
