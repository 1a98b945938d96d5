/*
 * sonic_notify.c - the keyspace notification subscriber of the sonic
 * backend (see sonic_notify.h).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <hiredis/async.h>
#include <hiredis/hiredis.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "agent/sonic/sonic_conf.h"
#include "agent/sonic/sonic_notify.h"
#include "agent/sonic/sonic_redis.h"

#define NPATTERNS 5

struct sonic_notify {
	const struct bsf_host *host;
	struct sonic_redis *redis;
	char patterns[NPATTERNS][96];
	int server;	    /* the server publishes them */
	int sent;	    /* PSUBSCRIBE sent on this connection */
	unsigned confirmed; /* patterns the server confirmed */
	void (*changed)(void *arg);
	void *arg;
	struct sonic_notify_stats stats;
};

int sonic_notify_flags_ok(const char *flags)
{
	return strchr(flags, 'K') && (strchr(flags, 'A') || strchr(flags, 'h'));
}

int sonic_notify_config_reply(const redisReply *r, char *buf, size_t size)
{
	if (!r || r->type != REDIS_REPLY_ARRAY || r->elements != 2 || !r->element[1] ||
	    r->element[1]->type != REDIS_REPLY_STRING || r->element[1]->len >= size)
		return -1;
	memcpy(buf, r->element[1]->str, r->element[1]->len);
	buf[r->element[1]->len] = '\0';
	return 0;
}

/* Each reply of the subscription: its confirmations, then the events. */
static void on_message(redisAsyncContext *ac, void *reply, void *priv)
{
	struct sonic_notify *n = priv;
	const redisReply *r = reply;
	const redisReply *kind;

	(void)ac;
	if (!r || r->type != REDIS_REPLY_ARRAY || r->elements < 3 || !(kind = r->element[0]) ||
	    kind->type != REDIS_REPLY_STRING)
		return; /* freed with the connection, or not a message */
	if (strcmp(kind->str, "psubscribe") == 0) {
		if (++n->confirmed == NPATTERNS) {
			n->stats.subscriptions++;
			n->host->log(n->host->arg, LOG_INFO,
				     "sonic: subscribed to the keyspace notifications of the maps");
			/* whatever changed before is caught up by a refresh */
			n->changed(n->arg);
		}
	} else if (strcmp(kind->str, "pmessage") == 0 && r->elements == 4) {
		n->stats.notifications++;
		n->changed(n->arg);
	}
}

static void subscribe(struct sonic_notify *n)
{
	redisAsyncContext *ac = sonic_redis_ctx(n->redis);

	if (!ac || n->sent || !n->server)
		return;
	if (redisAsyncCommand(ac, on_message, n, "PSUBSCRIBE %s %s %s %s %s", n->patterns[0],
			      n->patterns[1], n->patterns[2], n->patterns[3],
			      n->patterns[4]) == REDIS_OK)
		n->sent = 1;
}

static void up(void *arg)
{
	struct sonic_notify *n = arg;

	n->sent = 0;
	n->confirmed = 0;
	subscribe(n);
}

static void down(void *arg)
{
	struct sonic_notify *n = arg;

	n->sent = 0;
	n->confirmed = 0;
}

struct sonic_notify *sonic_notify_new(const struct bsf_host *host, const struct sonic_conf *c,
				      void (*changed)(void *arg), void *arg)
{
	struct sonic_notify *n = calloc(1, sizeof *n);

	if (!n)
		return NULL;
	n->host = host;
	n->changed = changed;
	n->arg = arg;
	snprintf(n->patterns[0], sizeof n->patterns[0], "__keyspace@%d__:PORT|*", c->config_db);
	snprintf(n->patterns[1], sizeof n->patterns[1], "__keyspace@%d__:BUFFER_*", c->config_db);
	snprintf(n->patterns[2], sizeof n->patterns[2], "__keyspace@%d__:DEBUG_COUNTER*",
		 c->config_db);
	snprintf(n->patterns[3], sizeof n->patterns[3], "__keyspace@%d__:BUFFER_*", c->appl_db);
	snprintf(n->patterns[4], sizeof n->patterns[4], "__keyspace@%d__:COUNTERS_*_MAP",
		 c->counters_db);
	n->redis = sonic_redis_new(host, c->unix_path, c->host, c->port,
				   " (keyspace notifications)", up, down, n);
	if (!n->redis) {
		free(n);
		return NULL;
	}
	return n;
}

void sonic_notify_server(struct sonic_notify *n, int enabled)
{
	n->server = enabled;
	subscribe(n);
}

int sonic_notify_active(const struct sonic_notify *n)
{
	return n && n->server && n->confirmed == NPATTERNS && sonic_redis_ctx(n->redis);
}

const struct sonic_notify_stats *sonic_notify_stats(const struct sonic_notify *n)
{
	return &n->stats;
}

void sonic_notify_free(struct sonic_notify *n)
{
	if (!n)
		return;
	sonic_redis_free(n->redis);
	free(n);
}
