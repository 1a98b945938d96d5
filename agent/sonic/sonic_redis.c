/*
 * sonic_redis.c - an asynchronous hiredis connection on the host table
 * (see sonic_redis.h).  hiredis asks for read and write readiness through
 * the ev.addRead / delRead / addWrite / delWrite / cleanup hooks of its
 * redisAsyncContext; each becomes a host fd watch.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <hiredis/async.h>
#include <hiredis/hiredis.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "agent/sonic/sonic_redis.h"

#define BACKOFF_MIN_NS 1000000000ull
#define BACKOFF_MAX_NS 5000000000ull

struct sonic_redis {
	const struct bsf_host *host;
	char unix_path[256], hostname[128];
	char label[48]; /* after the address in log lines: which connection */
	int port;
	redisAsyncContext *ac; /* connecting or connected */
	int connected;
	struct bsf_fd_watch *rw, *ww;
	struct bsf_timer *retry;
	uint64_t backoff_ns;
	void (*up)(void *arg), (*down)(void *arg);
	void *arg;
	struct sonic_redis_stats stats;
	int logged_down; /* the failure was logged: the next ones are not */
};

/* ---- the adapter: hiredis's event hooks on host fd watches ---- */

static void on_readable(int fd, void *arg)
{
	struct sonic_redis *r = arg;

	(void)fd;
	r->stats.reads++;
	if (r->ac)
		redisAsyncHandleRead(r->ac);
}

static void on_writable(int fd, void *arg)
{
	struct sonic_redis *r = arg;

	(void)fd;
	r->stats.writes++;
	if (r->ac)
		redisAsyncHandleWrite(r->ac);
}

static void add_read(void *priv)
{
	struct sonic_redis *r = priv;

	if (!r->rw && r->ac)
		r->rw = r->host->fd_watch(r->host->arg, r->ac->c.fd, on_readable, r);
}

static void del_read(void *priv)
{
	struct sonic_redis *r = priv;

	r->host->fd_unwatch(r->rw);
	r->rw = NULL;
}

static void add_write(void *priv)
{
	struct sonic_redis *r = priv;

	if (!r->ww && r->ac)
		r->ww = r->host->fd_watch_write(r->host->arg, r->ac->c.fd, on_writable, r);
}

static void del_write(void *priv)
{
	struct sonic_redis *r = priv;

	r->host->fd_unwatch(r->ww);
	r->ww = NULL;
}

static void cleanup(void *priv)
{
	del_read(priv);
	del_write(priv);
}

/* ---- connecting ---- */

static void schedule_retry(struct sonic_redis *r)
{
	r->host->timer_start(r->retry, r->backoff_ns, 0);
	r->backoff_ns = r->backoff_ns * 2 > BACKOFF_MAX_NS ? BACKOFF_MAX_NS : r->backoff_ns * 2;
}

static const char *where(const struct sonic_redis *r, char *buf, size_t size)
{
	if (r->unix_path[0])
		snprintf(buf, size, "%s%s", r->unix_path, r->label);
	else
		snprintf(buf, size, "%s:%d%s", r->hostname, r->port, r->label);
	return buf;
}

static void on_connect(const redisAsyncContext *ac, int status)
{
	struct sonic_redis *r = ac->ev.data;
	char b[400];

	if (status != REDIS_OK) {
		/* hiredis frees ac after this callback */
		r->ac = NULL;
		r->stats.failures++;
		if (!r->logged_down)
			r->host->log(r->host->arg, LOG_WARNING,
				     "sonic: redis %s: cannot connect: %s (retrying with backoff; "
				     "counters are sent with unknown values meanwhile)",
				     where(r, b, sizeof b), ac->errstr);
		r->logged_down = 1;
		schedule_retry(r);
		return;
	}
	r->connected = 1;
	r->stats.connects++;
	r->backoff_ns = BACKOFF_MIN_NS;
	r->host->log(r->host->arg, r->logged_down ? LOG_NOTICE : LOG_INFO,
		     "sonic: redis %s: connected", where(r, b, sizeof b));
	r->logged_down = 0;
	if (r->up)
		r->up(r->arg);
}

static void on_disconnect(const redisAsyncContext *ac, int status)
{
	struct sonic_redis *r = ac->ev.data;
	char b[400];

	(void)status;
	if (!r)
		return;
	r->ac = NULL;
	if (!r->connected)
		return;
	r->connected = 0;
	r->stats.disconnects++;
	r->host->log(r->host->arg, LOG_WARNING,
		     "sonic: redis %s: connection lost (reconnecting; counters unknown meanwhile)",
		     where(r, b, sizeof b));
	r->logged_down = 1;
	if (r->down)
		r->down(r->arg);
	schedule_retry(r);
}

static void try_connect(void *arg)
{
	struct sonic_redis *r = arg;
	redisAsyncContext *ac;
	char b[400];

	if (r->ac)
		return;
	ac = r->unix_path[0] ? redisAsyncConnectUnix(r->unix_path)
			     : redisAsyncConnect(r->hostname, r->port);
	if (!ac || ac->err) {
		r->stats.failures++;
		if (!r->logged_down)
			r->host->log(r->host->arg, LOG_WARNING,
				     "sonic: redis %s: cannot connect: %s (retrying with backoff)",
				     where(r, b, sizeof b), ac ? ac->errstr : "out of memory");
		r->logged_down = 1;
		if (ac)
			redisAsyncFree(ac);
		schedule_retry(r);
		return;
	}
	ac->ev.data = r;
	ac->ev.addRead = add_read;
	ac->ev.delRead = del_read;
	ac->ev.addWrite = add_write;
	ac->ev.delWrite = del_write;
	ac->ev.cleanup = cleanup;
	r->ac = ac;
	redisAsyncSetConnectCallback(ac, on_connect);
	redisAsyncSetDisconnectCallback(ac, on_disconnect);
	/* the connection completes when the socket becomes writable */
	add_write(r);
}

struct sonic_redis *sonic_redis_new(const struct bsf_host *host, const char *unix_path,
				    const char *hostname, int port, const char *label,
				    void (*up)(void *arg), void (*down)(void *arg), void *arg)
{
	struct sonic_redis *r;

	if (!BSF_FITS(host, struct bsf_host, fd_watch_write) || !host->fd_watch_write)
		return NULL;
	r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->host = host;
	snprintf(r->unix_path, sizeof r->unix_path, "%s", unix_path ? unix_path : "");
	snprintf(r->hostname, sizeof r->hostname, "%s", hostname ? hostname : "");
	snprintf(r->label, sizeof r->label, "%s", label ? label : "");
	r->port = port;
	r->up = up;
	r->down = down;
	r->arg = arg;
	r->backoff_ns = BACKOFF_MIN_NS;
	r->retry = host->timer_new(host->arg, try_connect, r);
	if (!r->retry) {
		free(r);
		return NULL;
	}
	try_connect(r);
	return r;
}

redisAsyncContext *sonic_redis_ctx(struct sonic_redis *r)
{
	return r && r->connected ? r->ac : NULL;
}

void sonic_redis_drop(struct sonic_redis *r)
{
	redisAsyncContext *ac = r->ac;

	if (!ac)
		return;
	/* pending callbacks run with NULL replies, then on_disconnect (if
	 * it was connected), which schedules the retry */
	if (!r->connected) {
		r->ac = NULL;
		redisAsyncFree(ac);
		schedule_retry(r);
		return;
	}
	redisAsyncFree(ac);
	if (r->connected) { /* no disconnect callback came */
		r->ac = NULL;
		r->connected = 0;
		r->stats.disconnects++;
		if (r->down)
			r->down(r->arg);
		schedule_retry(r);
	}
}

const struct sonic_redis_stats *sonic_redis_stats(const struct sonic_redis *r)
{
	return &r->stats;
}

void sonic_redis_free(struct sonic_redis *r)
{
	if (!r)
		return;
	r->up = r->down = NULL;
	if (r->ac) {
		r->connected = 0; /* on_disconnect: nothing to report */
		redisAsyncFree(r->ac);
		r->ac = NULL;
	}
	cleanup(r);
	r->host->timer_free(r->retry);
	free(r);
}
