/*
 * sonic_notify.h - Redis keyspace notifications of SONiC's maps: a second
 * asynchronous connection (sonic_redis.h) subscribed (PSUBSCRIBE) to the
 * keys the sonic backend builds its device from, so that a change (ports
 * added or removed, a breakout, `config reload`, the buffer manager's new
 * profiles, drop counters configured) is seen as it happens instead of at
 * the next periodic re-read:
 *
 *   __keyspace@<CONFIG_DB>__:PORT|*            __keyspace@<CONFIG_DB>__:BUFFER_*
 *   __keyspace@<CONFIG_DB>__:DEBUG_COUNTER*    __keyspace@<APPL_DB>__:BUFFER_*
 *   __keyspace@<COUNTERS_DB>__:COUNTERS_*_MAP
 *
 * (COUNTERS:<oid>, which the flex counters rewrite at every poll, does not
 * match.)  The server publishes them only with notify-keyspace-events
 * holding K and A (or h): the backend reads that setting with CONFIG GET
 * at every refresh of its maps and says what it found
 * (sonic_notify_server); bsflowd never changes it.  changed(arg) is
 * called on each notification, and once the subscription is in place
 * (changes made before it are not notified).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_SONIC_NOTIFY_H
#define BSFLOWD_AGENT_SONIC_NOTIFY_H

#include <stdint.h>

#include "agent/backend.h"

struct redisReply;
struct sonic_conf;
struct sonic_notify;

struct sonic_notify_stats {
	uint64_t notifications; /* keyspace events received */
	uint64_t subscriptions; /* times the subscription was made */
};

/* Whether a value of notify-keyspace-events publishes the keyspace
 * events the subscription needs: 1 or 0. */
int sonic_notify_flags_ok(const char *flags);
/* The value of a CONFIG GET notify-keyspace-events reply into buf: 0, or
 * -1 (not such a reply). */
int sonic_notify_config_reply(const struct redisReply *r, char *buf, size_t size);

/* Connects to c's Redis (a connection of its own).  NULL if out of
 * memory. */
struct sonic_notify *sonic_notify_new(const struct bsf_host *host, const struct sonic_conf *c,
				      void (*changed)(void *arg), void *arg);
/* What the server's notify-keyspace-events allows: 1 subscribe (now, or
 * once connected), 0 not (nothing is notified). */
void sonic_notify_server(struct sonic_notify *n, int enabled);
/* Whether the subscription is in place: changes are notified. */
int sonic_notify_active(const struct sonic_notify *n);
const struct sonic_notify_stats *sonic_notify_stats(const struct sonic_notify *n);
void sonic_notify_free(struct sonic_notify *n);

#endif
