/*
 * sonic_redis.h - one asynchronous hiredis connection driven by the
 * daemon's loop through the host table (fd watches for read and write
 * readiness, timers), so that a slow, absent or restarting Redis never
 * blocks the loop: connects without blocking, reconnects with backoff
 * (1 s doubling to 5 s) and counts what happened.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_SONIC_REDIS_H
#define BSFLOWD_AGENT_SONIC_REDIS_H

#include <stdint.h>

#include "agent/backend.h"

struct redisAsyncContext;
struct sonic_redis;

struct sonic_redis_stats {
	uint64_t connects;	/* connections made */
	uint64_t failures;	/* connection attempts that failed */
	uint64_t disconnects;	/* connections lost (or dropped as stalled) */
	uint64_t reads, writes; /* times the socket was found readable, writable */
};

/* A connection to the unix socket path (if non-empty) or host:port,
 * label (may be NULL) following the address in its log lines.  up(arg)
 * runs when a connection is made, down(arg) when it is lost (its pending
 * replies have had their callbacks with a NULL reply).  Starts connecting
 * at once.  NULL if out of memory or the host lacks write watches. */
struct sonic_redis *sonic_redis_new(const struct bsf_host *host, const char *unix_path,
				    const char *hostname, int port, const char *label,
				    void (*up)(void *arg), void (*down)(void *arg), void *arg);
/* The connected context, or NULL. */
struct redisAsyncContext *sonic_redis_ctx(struct sonic_redis *r);
/* Drop the connection now (a stalled server) and reconnect later. */
void sonic_redis_drop(struct sonic_redis *r);
const struct sonic_redis_stats *sonic_redis_stats(const struct sonic_redis *r);
void sonic_redis_free(struct sonic_redis *r);

#endif
