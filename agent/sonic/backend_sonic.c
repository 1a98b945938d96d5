/*
 * backend_sonic.c - the built-in sonic backend: reads SONiC's Redis
 * databases through one asynchronous hiredis connection (sonic_redis.h)
 * and serves the daemon's reads from what the last poll cycle brought.
 *
 * Schema: the maps, the buffer configuration and the drop counters are
 * described in sonic_maps.h; every poll cycle reads, for each front-panel
 * port
 *   COUNTERS:<port oid>   SAI_PORT_STAT_IF_{IN,OUT}_* (0:1),
 *                         SAI_PORT_STAT_DOT3_STATS_* (0:2) and the fields
 *                         of the port-level drop counters
 *   APPL_DB PORT_TABLE:<name>   oper_status
 * for each queue, PG and pool (COUNTERS_DB)
 *   COUNTERS:<oid>        SAI_QUEUE_STAT_SHARED_WATERMARK_BYTES,
 *                         SAI_QUEUE_STAT_CURR_OCCUPANCY_BYTES,
 *                         SAI_QUEUE_STAT_DROPPED_PACKETS, _DROPPED_BYTES;
 *                         SAI_INGRESS_PRIORITY_GROUP_STAT_SHARED_WATERMARK_BYTES,
 *                         ..._XOFF_ROOM_WATERMARK_BYTES, ..._CURR_OCCUPANCY_BYTES;
 *                         SAI_BUFFER_POOL_STAT_WATERMARK_BYTES,
 *                         SAI_BUFFER_POOL_STAT_CURR_OCCUPANCY_BYTES
 *   PERIODIC_WATERMARKS:<oid>   the same watermark fields
 * and COUNTERS:<switch oid> for the switch-level drop counters, all in one
 * pipeline (one round trip per cycle).  A watermark is taken from
 * COUNTERS:<oid> when the flex counter's latest value is still there (the
 * peak of its poll period, SONiC's `counterpoll watermark interval`),
 * else from PERIODIC_WATERMARKS:<oid> (the peak since SONiC's telemetry
 * period began).  USER_WATERMARKS and PERSISTENT_WATERMARKS are never
 * read nor written, nor is anything cleared: bsflowd keeps its own peak
 * per read window, the largest value read since the window's last read.
 *
 * The maps are read again when Redis notifies a change of them (keyspace
 * notifications, sonic_notify.h, where the server publishes them), or
 * else every map_refresh, and at every reconnection.  When the ports
 * change (sonic_view.h) the backend tells the daemon (device_changed) and
 * hands the new description over at its next describe().
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <hiredis/async.h>
#include <hiredis/hiredis.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "agent/sonic/backend_sonic.h"
#include "agent/sonic/sonic_conf.h"
#include "agent/sonic/sonic_drops.h"
#include "agent/sonic/sonic_maps.h"
#include "agent/sonic/sonic_notify.h"
#include "agent/sonic/sonic_parse.h"
#include "agent/sonic/sonic_redis.h"
#include "agent/sonic/sonic_view.h"

#define UNK SONIC_UNKNOWN

/* A burst of notifications (a config reload rewrites thousands of keys)
 * is read once: SETTLE after the last one, at most MAXWAIT after the
 * first.  With notifications, the maps are still read every SAFETY x
 * map_refresh. */
#define SETTLE_NS  300000000ull
#define MAXWAIT_NS 3000000000ull
#define SAFETY	   10u

enum kind {
	K_SELECT = 0,
	K_PORT,	  /* a = port of the view in force */
	K_OPER,	  /* a = port */
	K_OBJ,	  /* a = object index in the view's objs, COUNTERS:<oid> */
	K_PER,	  /* a = object, PERIODIC_WATERMARKS:<oid> */
	K_SWITCH, /* the switch's drop counters */
	K_KEYS,	  /* tab */
	K_MAP,	  /* tab */
	K_ROW,	  /* tab, a = row */
	K_CONFIG, /* CONFIG GET notify-keyspace-events */
};

struct sonic_st;

struct slot {
	struct sonic_st *st;
	uint8_t kind, tab;
	uint32_t a;
	uint32_t gen; /* the view's generation when it was sent */
};

struct sonic_st {
	const struct bsf_host *host;
	struct sonic_conf conf;
	struct sonic_redis *redis;
	struct sonic_notify *notify;
	struct bsf_timer *tick, *settle;
	redisContext *sync; /* open(): the first read of the maps */

	struct sonic_dev dev;	 /* the maps in force */
	struct sonic_view *cur;	 /* what describe() gave last */
	struct sonic_view *next; /* the new description, until describe() */
	uint32_t gen;		 /* of cur: replies to an older one are dropped */
	int warned;		 /* said that this daemon cannot take a change */

	/* the cycle in flight */
	struct slot *slots;
	size_t nslots, cap;
	unsigned pending;
	int failed;
	int stage; /* 0 poll, 1 refresh keys, 2 refresh rows */
	uint32_t cycle_gen;
	struct sonic_tables tabs;
	uint64_t cycle_start_ns, last_ok_ns, last_refresh_ns;
	int have_maps;
	int fallback; /* the ports came from config_db.json: queues and PGs
			 assumed 8 + 8 and 8 */
	/* keyspace notifications: the server's setting (-1 unknown), a
	 * refresh asked for by them, the first of a burst */
	int ks_server;
	char ks_flags[32];
	int refresh_wanted;
	uint64_t settle_first_ns;
	uint64_t refreshes_notified;

	struct sonic_backend_stats stats;
	uint64_t bad_logged_ns, cut_logged_ns;
};

static uint64_t now_ns(const struct sonic_st *st)
{
	return st->host->now_ns(st->host->arg);
}

/* ---- issuing commands: async, or (open) on the blocking context ---- */

/* Room for n more slots; only between cycles (no reply refers to the
 * array then).  0, or -1. */
static int reserve(struct sonic_st *st, size_t n)
{
	struct slot *ns;

	if (st->nslots + n <= st->cap)
		return 0;
	if (st->pending)
		return -1;
	ns = realloc(st->slots, (st->nslots + n) * sizeof *ns);
	if (!ns)
		return -1;
	st->slots = ns;
	st->cap = st->nslots + n;
	return 0;
}

static struct slot *slot_new(struct sonic_st *st, int kind, int tab, uint32_t a)
{
	struct slot *s;

	if (st->nslots == st->cap)
		return NULL;
	s = &st->slots[st->nslots++];
	s->st = st;
	s->kind = (uint8_t)kind;
	s->tab = (uint8_t)tab;
	s->a = a;
	s->gen = st->gen;
	return s;
}

static void on_reply(redisAsyncContext *ac, void *reply, void *priv);

/* Send a formatted command; 0, or -1 (counted as a failed cycle). */
static int send_fmt(struct sonic_st *st, int kind, int tab, uint32_t a, const char *cmd, size_t len)
{
	struct slot *s = slot_new(st, kind, tab, a);
	redisAsyncContext *ac;
	int rc;

	if (!s)
		return -1;
	if (st->sync) {
		rc = redisAppendFormattedCommand(st->sync, cmd, len);
	} else {
		ac = sonic_redis_ctx(st->redis);
		rc = ac ? redisAsyncFormattedCommand(ac, on_reply, s, cmd, len) : -1;
	}
	if (rc != REDIS_OK) {
		st->nslots--;
		return -1;
	}
	st->pending++;
	st->stats.commands++;
	return 0;
}

static int send_cmd(struct sonic_st *st, int kind, int tab, uint32_t a, const char *fmt, ...)
{
	va_list ap;
	char *cmd;
	int n, rc;

	va_start(ap, fmt);
	n = redisvFormatCommand(&cmd, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	rc = send_fmt(st, kind, tab, a, cmd, (size_t)n);
	redisFreeCommand(cmd);
	return rc;
}

static int db_number(const struct sonic_st *st, int db)
{
	return db == SONIC_DB_CONFIG	 ? st->conf.config_db
	       : db == SONIC_DB_APPL	 ? st->conf.appl_db
	       : db == SONIC_DB_COUNTERS ? st->conf.counters_db
					 : st->conf.asic_db;
}

/* ---- the replies ---- */

static void bad_value(struct sonic_st *st, const char *what)
{
	uint64_t t = now_ns(st);

	st->stats.bad_values++;
	if (st->bad_logged_ns && t - st->bad_logged_ns < 60000000000ull)
		return;
	st->bad_logged_ns = t;
	st->host->log(st->host->arg, LOG_WARNING,
		      "sonic: %s: a value that is not a number (sent as unknown; %llu so "
		      "far, logged once a minute)",
		      what, (unsigned long long)st->stats.bad_values);
}

/* Element i of an HMGET reply as a counter into *out. */
static void take(struct sonic_st *st, const redisReply *r, size_t i, uint64_t *out,
		 const char *what)
{
	*out = UNK;
	if (!r || r->type != REDIS_REPLY_ARRAY || i >= r->elements)
		return;
	if (sonic_reply_u64(r->element[i], out) < 0)
		bad_value(st, what);
}

static void ks_config(struct sonic_st *st, const redisReply *r);

static void handle(struct sonic_st *st, const struct slot *s, const redisReply *r)
{
	struct sonic_view *v = st->cur;
	struct sonic_robj *o;

	if (!r) {
		st->failed = 1;
		return;
	}
	if (r->type == REDIS_REPLY_ERROR) {
		if (s->kind == K_SELECT)
			st->failed = 1;
		else if (s->kind == K_CONFIG)
			ks_config(st, NULL);
		st->stats.bad_values++;
		return;
	}
	/* a reply for a view handed over since: dropped */
	if (s->kind >= K_PORT && s->kind <= K_SWITCH && (s->gen != st->gen || !v))
		return;
	switch (s->kind) {
	case K_PORT:
		if (r->type != REDIS_REPLY_ARRAY || r->elements != SONIC_NCTR + v->dbg_port.n) {
			bad_value(st, "port counters");
			return;
		}
		for (int k = 0; k < SONIC_NCTR; k++)
			take(st, r, (size_t)k, &v->rp[s->a].in_ctr[k], sonic_ctr_fields[k]);
		for (unsigned k = 0; k < v->dbg_port.n; k++)
			take(st, r, SONIC_NCTR + k, &v->rp[s->a].in_dbg[k], v->dbg_port.c[k].stat);
		break;
	case K_OPER:
		if (r->type == REDIS_REPLY_STRING)
			v->rp[s->a].in_oper = strcmp(r->str, "up") == 0 ? 1 : 0;
		break;
	case K_OBJ:
		o = &v->objs[s->a];
		take(st, r, 0, &o->w[0].in_ctr, "watermark");
		if (o->nwm == 2)
			take(st, r, 1, &o->w[1].in_ctr, "watermark");
		take(st, r, (size_t)o->nwm, &o->in_cur, "occupancy");
		if (o->kind == SONIC_OBJ_QUEUE) {
			take(st, r, 2, &o->in_drop[0], "dropped packets");
			take(st, r, 3, &o->in_drop[1], "dropped bytes");
		}
		break;
	case K_PER:
		o = &v->objs[s->a];
		take(st, r, 0, &o->w[0].in_per, "periodic watermark");
		if (o->nwm == 2)
			take(st, r, 1, &o->w[1].in_per, "periodic watermark");
		break;
	case K_SWITCH:
		for (unsigned k = 0; k < v->dbg_switch.n; k++)
			take(st, r, k, &v->in_sw[k], v->dbg_switch.c[k].stat);
		break;
	case K_KEYS:
		sonic_tables_add_keys(&st->tabs, (enum sonic_table)s->tab, r);
		break;
	case K_MAP:
	case K_ROW:
		sonic_tables_set_fields(&st->tabs, (enum sonic_table)s->tab, s->a, r);
		break;
	case K_CONFIG:
		ks_config(st, r);
		break;
	default:
		break;
	}
}

static void cycle_done(struct sonic_st *st);

static void on_reply(redisAsyncContext *ac, void *reply, void *priv)
{
	struct slot s = *(struct slot *)priv;
	struct sonic_st *st = s.st;

	(void)ac;
	handle(st, &s, reply);
	if (--st->pending == 0)
		cycle_done(st);
}

/* ---- poll cycles ---- */

static int start_poll(struct sonic_st *st)
{
	struct sonic_view *v = st->cur;

	st->stage = 0;
	st->cycle_gen = st->gen;
	if (!v)
		return 0;
	if (reserve(st, 3 + 2 * (size_t)v->desc.nports + 2 * v->nobjs) < 0)
		return -1;
	if (send_cmd(st, K_SELECT, 0, 0, "SELECT %d", st->conf.counters_db) < 0)
		return -1;
	for (uint32_t i = 0; i < v->desc.nports; i++) {
		struct sonic_rport *r = &v->rp[i];

		for (int k = 0; k < SONIC_NCTR; k++)
			r->in_ctr[k] = UNK;
		for (int k = 0; k < SONIC_DBG_MAX; k++)
			r->in_dbg[k] = UNK;
		r->in_oper = BSF_UNKNOWN32;
		if (r->cmd_ctr && send_fmt(st, K_PORT, 0, i, r->cmd_ctr, r->len_ctr) < 0)
			return -1;
	}
	for (size_t j = 0; j < v->nobjs; j++) {
		struct sonic_robj *o = &v->objs[j];

		o->w[0].in_ctr = o->w[0].in_per = o->w[1].in_ctr = o->w[1].in_per = UNK;
		o->in_cur = o->in_drop[0] = o->in_drop[1] = UNK;
		if (!o->cmd_ctr)
			continue;
		if (send_fmt(st, K_OBJ, 0, (uint32_t)j, o->cmd_ctr, o->len_ctr) < 0 ||
		    send_fmt(st, K_PER, 0, (uint32_t)j, o->cmd_per, o->len_per) < 0)
			return -1;
	}
	for (int k = 0; k < SONIC_DBG_MAX; k++)
		v->in_sw[k] = UNK;
	if (v->cmd_sw && send_fmt(st, K_SWITCH, 0, 0, v->cmd_sw, v->len_sw) < 0)
		return -1;
	if (send_cmd(st, K_SELECT, 0, 0, "SELECT %d", st->conf.appl_db) < 0)
		return -1;
	for (uint32_t i = 0; i < v->desc.nports; i++)
		if (v->rp[i].cmd_oper &&
		    send_fmt(st, K_OPER, 0, i, v->rp[i].cmd_oper, v->rp[i].len_oper) < 0)
			return -1;
	return 0;
}

static void wm_commit(struct sonic_wm *w)
{
	uint64_t v = w->in_ctr != UNK ? w->in_ctr : w->in_per;

	w->latest = v;
	if (v == UNK)
		return;
	for (int k = 0; k < BSF_WINDOWS; k++)
		if (w->peak[k] == UNK || v > w->peak[k])
			w->peak[k] = v;
}

static void poll_commit(struct sonic_st *st)
{
	struct sonic_view *v = st->cur;

	for (uint32_t i = 0; i < v->desc.nports; i++) {
		struct sonic_rport *r = &v->rp[i];

		memcpy(r->ctr, r->in_ctr, sizeof r->ctr);
		memcpy(r->dbg, r->in_dbg, sizeof r->dbg);
		r->oper = r->in_oper;
	}
	for (size_t j = 0; j < v->nobjs; j++) {
		struct sonic_robj *o = &v->objs[j];

		wm_commit(&o->w[0]);
		if (o->nwm == 2)
			wm_commit(&o->w[1]);
		o->cur = o->in_cur;
		o->drop[0] = o->in_drop[0];
		o->drop[1] = o->in_drop[1];
	}
	memcpy(v->sw, v->in_sw, sizeof v->sw);
	st->last_ok_ns = now_ns(st);
	st->stats.polls++;
}

/* ---- map refresh ---- */

static int start_refresh(struct sonic_st *st)
{
	sonic_tables_free(&st->tabs);
	st->stage = 1;
	if (reserve(st, 5 + SONIC_T_N) < 0)
		return -1;
	if (send_cmd(st, K_CONFIG, 0, 0, "CONFIG GET notify-keyspace-events") < 0)
		return -1;
	for (int db = SONIC_DB_CONFIG; db <= SONIC_DB_ASIC; db++) {
		if (send_cmd(st, K_SELECT, 0, 0, "SELECT %d", db_number(st, db)) < 0)
			return -1;
		for (int t = 0; t < SONIC_T_N; t++) {
			if (sonic_table_db[t] != db)
				continue;
			if (t < SONIC_T_FIRST_MAP
				? send_cmd(st, K_KEYS, t, 0, "KEYS %s*", sonic_table_key[t]) < 0
				: send_cmd(st, K_MAP, t, 0, "HGETALL %s", sonic_table_key[t]) < 0)
				return -1;
		}
	}
	return 0;
}

static int refresh_rows(struct sonic_st *st)
{
	size_t n = 4;

	st->stage = 2;
	for (int t = 0; t < SONIC_T_FIRST_MAP; t++)
		if (sonic_table_fields[t])
			n += st->tabs.t[t].n;
	if (reserve(st, n) < 0)
		return -1;
	for (int db = SONIC_DB_CONFIG; db <= SONIC_DB_APPL; db++) {
		if (send_cmd(st, K_SELECT, 0, 0, "SELECT %d", db_number(st, db)) < 0)
			return -1;
		for (int t = 0; t < SONIC_T_FIRST_MAP; t++) {
			if (sonic_table_db[t] != db || !sonic_table_fields[t])
				continue;
			for (size_t i = 0; i < st->tabs.t[t].n; i++)
				if (send_cmd(st, K_ROW, t, (uint32_t)i, "HGETALL %s%s",
					     sonic_table_key[t], st->tabs.t[t].r[i].key) < 0)
					return -1;
		}
	}
	return 0;
}

static void log_changes(struct sonic_st *st, const struct sonic_dev *old,
			const struct sonic_dev *nw)
{
	const struct bsf_host *h = st->host;

	for (uint32_t i = 0; i < nw->nports; i++) {
		const struct sonic_port *p = &nw->ports[i], *q = sonic_dev_port(old, p->name);

		if (!q) {
			h->log(h->arg, LOG_NOTICE,
			       "sonic: port %s (ifIndex %u) appeared in the maps", p->name,
			       p->ifindex);
			continue;
		}
		if (strcmp(p->oid, q->oid) != 0)
			h->log(h->arg, LOG_NOTICE, "sonic: port %s: counters object %s -> %s",
			       p->name, q->oid[0] ? q->oid : "none", p->oid[0] ? p->oid : "none");
		if (p->nuc != q->nuc || p->nmc != q->nmc || p->npg != q->npg)
			h->log(h->arg, LOG_NOTICE,
			       "sonic: port %s: %u/%u/%u unicast/multicast queues/PGs, were "
			       "%u/%u/%u",
			       p->name, p->nuc, p->nmc, p->npg, q->nuc, q->nmc, q->npg);
	}
	for (uint32_t i = 0; i < old->nports; i++)
		if (!sonic_dev_port(nw, old->ports[i].name))
			h->log(h->arg, LOG_NOTICE, "sonic: port %s (ifIndex %u) left the maps",
			       old->ports[i].name, old->ports[i].ifindex);
	if (!sonic_dbgs_same(&old->dbg_port, &nw->dbg_port) ||
	    !sonic_dbgs_same(&old->dbg_switch, &nw->dbg_switch))
		h->log(h->arg, LOG_NOTICE,
		       "sonic: %u port-level and %u switch-level drop counters configured",
		       nw->dbg_port.n, nw->dbg_switch.n);
}

/* The daemon can take a new description (backend.h, DEVICE CHANGES). */
static int can_tell(const struct sonic_st *st)
{
	return BSF_FITS(st->host, struct bsf_host, device_changed) && st->host->device_changed;
}

/* The view of the maps just built: kept if the description is the same,
 * else the next one, handed over at the daemon's describe(). */
static void offer_view(struct sonic_st *st)
{
	struct sonic_view *nv = sonic_view_new(&st->dev, st->fallback);

	if (!nv) {
		st->host->log(st->host->arg, LOG_ERR,
			      "sonic: out of memory building the new description");
		return;
	}
	if (sonic_view_same(st->cur, nv)) {
		sonic_view_free(nv);
		return;
	}
	st->next = nv;
	if (!can_tell(st)) {
		if (!st->warned)
			st->host->log(st->host->arg, LOG_WARNING,
				      "sonic: the ports changed, and this bsflowd cannot take "
				      "them in while running: they are exported once the "
				      "backend is reopened (restart)");
		st->warned = 1;
		return;
	}
	st->host->device_changed(st->host->arg);
}

/* The maps just read replace those in force. */
static void refresh_commit(struct sonic_st *st)
{
	struct sonic_dev nd;

	if (sonic_dev_build(&nd, &st->tabs, st->conf.ports, st->conf.ifindex_offset,
			    st->have_maps ? NULL : st->host->log, st->host->arg) < 0)
		return;
	if (st->have_maps)
		log_changes(st, &st->dev, &nd);
	sonic_dev_free(&st->dev);
	st->dev = nd;
	st->have_maps = 1;
	st->last_refresh_ns = now_ns(st);
	st->stats.refreshes++;
	if (!st->cur)
		return; /* open(): the first view is built from these */
	/* a next view not handed over yet points into the old maps: built
	 * again from these (or none, if the ports are back as they were) */
	sonic_view_free(st->next);
	st->next = NULL;
	if (sonic_view_remap(st->cur, &st->dev) < 0)
		st->host->log(st->host->arg, LOG_ERR, "sonic: out of memory formatting commands");
	st->fallback = 0;
	offer_view(st);
}

static void cycle_done(struct sonic_st *st)
{
	int failed = st->failed;

	st->nslots = 0;
	st->failed = 0;
	if (failed) {
		if (st->stage == 0)
			st->stats.polls_failed++;
		sonic_tables_free(&st->tabs);
		return;
	}
	if (st->stage == 0) {
		/* a cycle of a view handed over meanwhile: its values are gone */
		if (st->cycle_gen == st->gen && st->cur)
			poll_commit(st);
	} else if (st->stage == 1) {
		st->stats.batches++;
		if (refresh_rows(st) < 0)
			st->failed = 1;
		if (st->pending == 0)
			cycle_done(st);
	} else {
		refresh_commit(st);
		sonic_tables_free(&st->tabs);
	}
}

static void start_cycle(struct sonic_st *st, int refresh)
{
	st->nslots = 0;
	st->failed = 0;
	st->cycle_start_ns = now_ns(st);
	st->stats.batches++;
	if (refresh)
		st->refresh_wanted = 0;
	if ((refresh ? start_refresh(st) : start_poll(st)) < 0)
		st->failed = 1; /* what was sent still completes */
	if (st->pending == 0)
		cycle_done(st);
}

/* Whether the maps are due for a read. */
static int refresh_due(const struct sonic_st *st, uint64_t t)
{
	uint64_t every = st->conf.map_refresh_ns;

	if (!st->have_maps || st->refresh_wanted)
		return 1;
	if (sonic_notify_active(st->notify))
		every *= SAFETY;
	return t - st->last_refresh_ns >= every;
}

static void tick(void *arg)
{
	struct sonic_st *st = arg;
	uint64_t t = now_ns(st), limit = 5 * st->conf.poll_ns;

	if (!sonic_redis_ctx(st->redis))
		return;
	if (st->pending) {
		st->stats.stalls++;
		if (limit < 5000000000ull)
			limit = 5000000000ull;
		if (t - st->cycle_start_ns > limit) {
			st->host->log(st->host->arg, LOG_WARNING,
				      "sonic: redis has not answered for %llu ms: reconnecting",
				      (unsigned long long)((t - st->cycle_start_ns) / 1000000u));
			sonic_redis_drop(st->redis);
		}
		return;
	}
	start_cycle(st, refresh_due(st, t));
}

/* ---- keyspace notifications ---- */

/* The reply to CONFIG GET notify-keyspace-events (NULL: an error). */
static void ks_config(struct sonic_st *st, const redisReply *r)
{
	char flags[sizeof st->ks_flags];
	int on = 0;

	if (!st->conf.notifications)
		return;
	if (!r || sonic_notify_config_reply(r, flags, sizeof flags) < 0)
		snprintf(flags, sizeof flags, "?");
	else
		on = sonic_notify_flags_ok(flags);
	if (on != st->ks_server || strcmp(flags, st->ks_flags) != 0) {
		if (on)
			st->host->log(st->host->arg, LOG_INFO,
				      "sonic: keyspace notifications on (notify-keyspace-events "
				      "\"%s\"): the maps are read again when they change",
				      flags);
		else
			st->host->log(st->host->arg, LOG_NOTICE,
				      "sonic: keyspace notifications off (notify-keyspace-events "
				      "\"%s\" lacks K and A or h): the maps are read again every "
				      "%llu ms",
				      flags,
				      (unsigned long long)(st->conf.map_refresh_ns / 1000000u));
	}
	snprintf(st->ks_flags, sizeof st->ks_flags, "%s", flags);
	st->ks_server = on;
	if (st->notify)
		sonic_notify_server(st->notify, on);
}

/* The burst settled: read the maps (now, or after the cycle running). */
static void settled(void *arg)
{
	struct sonic_st *st = arg;

	st->settle_first_ns = 0;
	st->refresh_wanted = 1;
	st->refreshes_notified++;
	if (!st->pending && sonic_redis_ctx(st->redis))
		start_cycle(st, 1);
}

/* A map changed (or the subscription was just made). */
static void ks_changed(void *arg)
{
	struct sonic_st *st = arg;
	uint64_t t = now_ns(st), wait = SETTLE_NS;

	if (!st->settle_first_ns)
		st->settle_first_ns = t;
	else if (t - st->settle_first_ns + SETTLE_NS > MAXWAIT_NS)
		wait = t - st->settle_first_ns >= MAXWAIT_NS
			   ? 1
			   : MAXWAIT_NS - (t - st->settle_first_ns);
	st->host->timer_start(st->settle, wait, 0);
}

/* ---- the connection ---- */

static void redis_up(void *arg)
{
	struct sonic_st *st = arg;

	if (!st->pending)
		start_cycle(st, 1); /* the maps may have changed while it was away */
	else
		st->refresh_wanted = 1;
}

static void redis_down(void *arg)
{
	struct sonic_st *st = arg;

	st->last_ok_ns = 0; /* values unknown until the next cycle */
}

/* Whether the values of the last cycle stand. */
static int fresh(const struct sonic_st *st)
{
	return st->last_ok_ns && sonic_redis_ctx(st->redis) &&
	       now_ns(st) - st->last_ok_ns <= 3 * st->conf.poll_ns + 1000000000ull;
}

/* ---- open: the first read of the maps, blocking for at most
 * connect_timeout ---- */

static int sync_load(struct sonic_st *st, char *err, size_t errlen)
{
	struct timeval tv = {.tv_sec = (time_t)(st->conf.connect_timeout_ns / 1000000000u),
			     .tv_usec =
				 (suseconds_t)(st->conf.connect_timeout_ns % 1000000000u / 1000u)};
	redisContext *c = st->conf.unix_path[0]
			      ? redisConnectUnixWithTimeout(st->conf.unix_path, tv)
			      : redisConnectWithTimeout(st->conf.host, st->conf.port, tv);
	int rc = 0;

	if (!c || c->err) {
		snprintf(err, errlen, "%s", c ? c->errstr : "out of memory");
		redisFree(c);
		return -1;
	}
	redisSetTimeout(c, tv);
	st->sync = c;
	start_cycle(st, 1);
	while (st->pending) {
		struct slot s = st->slots[st->nslots - st->pending];
		void *reply = NULL;

		if (redisGetReply(c, &reply) != REDIS_OK) {
			snprintf(err, errlen, "%s", c->errstr[0] ? c->errstr : "no reply");
			rc = -1;
			st->pending = 0;
			sonic_tables_free(&st->tabs);
			break;
		}
		handle(st, &s, reply);
		freeReplyObject(reply);
		if (--st->pending == 0)
			cycle_done(st);
	}
	st->sync = NULL;
	st->nslots = 0;
	redisFree(c);
	if (rc == 0 && !st->have_maps) {
		snprintf(err, errlen, "the maps could not be read");
		rc = -1;
	}
	return rc;
}

/* ---- the ops ---- */

static void sonic_close(void *p)
{
	struct sonic_st *st = p;

	if (!st)
		return;
	sonic_notify_free(st->notify);
	sonic_redis_free(st->redis); /* pending callbacks run with NULL */
	if (st->host) {
		st->host->timer_free(st->tick);
		st->host->timer_free(st->settle);
	}
	sonic_view_free(st->cur);
	sonic_view_free(st->next);
	sonic_tables_free(&st->tabs);
	sonic_dev_free(&st->dev);
	free(st->slots);
	free(st);
}

/* A whole file (at most 16 MiB) as a string, or NULL with errno set. */
static char *read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	long len;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && len < (16 << 20) &&
	    fseek(f, 0, SEEK_SET) == 0 && (buf = calloc(1, (size_t)len + 1)) &&
	    fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
		errno = EIO;
	}
	fclose(f);
	return buf;
}

static int load_conf(const struct bsf_backend_args *args, struct sonic_conf *sc, char *report,
		     size_t reportlen, char *err, size_t errlen)
{
	char jerr[200], *json;

	if (sonic_conf_parse(args->section_text, args->section_file, args->section_line, sc, err,
			     errlen) < 0)
		return -1;
	if (report && reportlen)
		report[0] = '\0';
	json = read_text(sc->dbconfig);
	if (json) {
		if (sonic_conf_apply_json(sc, json, jerr, sizeof jerr) < 0 && report)
			snprintf(report, reportlen, "sonic: %.200s: %.120s (using defaults)",
				 sc->dbconfig, jerr);
	} else if (report &&
		   (sc->config_db < 0 || sc->counters_db < 0 || sc->appl_db < 0 || !sc->redis[0])) {
		snprintf(report, reportlen, "sonic: %.200s: %.120s (using defaults)", sc->dbconfig,
			 strerror(errno));
	}
	free(json);
	sonic_conf_defaults(sc);
	return 0;
}

/* config_db.json's PORT table, into st->tabs. */
static void port_scalar(void *arg, const char *path, const char *val, size_t len)
{
	struct sonic_st *st = arg;
	char name[BSF_NAME_MAX], v[128];
	const char *dot;

	if (strncmp(path, "PORT.", 5) != 0 || !(dot = strchr(path + 5, '.')) ||
	    (size_t)(dot - path - 5) >= sizeof name || len >= sizeof v)
		return;
	memcpy(name, path + 5, (size_t)(dot - path - 5));
	name[dot - path - 5] = '\0';
	memcpy(v, val, len);
	v[len] = '\0';
	sonic_tables_add_field(&st->tabs, SONIC_T_PORT, name, dot + 1, v);
}

/* Redis is down at open: the ports from config_db.json, their queues
 * and PGs not known yet.  0, or -1. */
static int ports_from_file(struct sonic_st *st)
{
	char *json = read_text(st->conf.config_db_json);
	int rc = -1;

	sonic_tables_free(&st->tabs);
	if (json && sonic_json_scalars(json, port_scalar, st) == 0 &&
	    sonic_dev_build(&st->dev, &st->tabs, st->conf.ports, st->conf.ifindex_offset,
			    st->host->log, st->host->arg) == 0)
		rc = 0;
	free(json);
	sonic_tables_free(&st->tabs);
	return rc;
}

static int sonic_check(const struct bsf_backend_args *args, char *report, size_t reportlen,
		       char *err, size_t errlen)
{
	struct sonic_conf sc;
	char note[400], where[300];
	size_t n;

	if (load_conf(args, &sc, note, sizeof note, err, errlen) < 0)
		return -1;
	if (sc.unix_path[0])
		snprintf(where, sizeof where, "%s", sc.unix_path);
	else
		snprintf(where, sizeof where, "%s:%d", sc.host, sc.port);
	n = (size_t)snprintf(report, reportlen,
			     "sonic: redis %s, databases CONFIG_DB %d, APPL_DB %d, COUNTERS_DB %d, "
			     "ASIC_DB %d, ports \"%s\", poll every %llu ms, maps every %llu s%s",
			     where, sc.config_db, sc.appl_db, sc.counters_db, sc.asic_db, sc.ports,
			     (unsigned long long)(sc.poll_ns / 1000000u),
			     (unsigned long long)(sc.map_refresh_ns / 1000000000u),
			     sc.notifications ? " or when notified" : "");
	if (note[0] && n < reportlen)
		snprintf(report + n, reportlen - n, "; %s", note);
	return 0;
}

static void *sonic_open(const struct bsf_backend_args *args, char *err, size_t errlen)
{
	struct sonic_st *st = calloc(1, sizeof *st);
	char note[400], why[200];

	if (!st) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (load_conf(args, &st->conf, note, sizeof note, err, errlen) < 0) {
		free(st);
		return NULL;
	}
	st->host = args->host;
	st->ks_server = -1;
	if (note[0])
		st->host->log(st->host->arg, LOG_WARNING, "%s", note);
	if (!BSF_FITS(st->host, struct bsf_host, fd_watch_write) || !st->host->fd_watch_write) {
		snprintf(err, errlen, "the daemon offers no write watches (fd_watch_write)");
		free(st);
		return NULL;
	}
	if (sync_load(st, why, sizeof why) < 0) {
		st->fallback = 1;
		if (ports_from_file(st) == 0)
			st->host->log(st->host->arg, LOG_ERR,
				      "sonic: redis %s: %s: starting with the %u ports of %s "
				      "(values unknown until Redis answers)",
				      st->conf.unix_path[0] ? st->conf.unix_path : st->conf.host,
				      why, st->dev.nports, st->conf.config_db_json);
		else
			st->host->log(st->host->arg, LOG_ERR,
				      "sonic: redis %s: %s, and %s: %s: starting without ports "
				      "(only the device sample) until Redis answers",
				      st->conf.unix_path[0] ? st->conf.unix_path : st->conf.host,
				      why, st->conf.config_db_json, strerror(errno));
	} else
		st->host->log(st->host->arg, LOG_INFO,
			      "sonic: %u front-panel ports, %u ingress and %u egress pools, %u "
			      "port-level and %u switch-level drop counters",
			      st->dev.nports, st->dev.ning, st->dev.negr, st->dev.dbg_port.n,
			      st->dev.dbg_switch.n);
	st->cur = sonic_view_new(&st->dev, st->fallback);
	st->tick = st->host->timer_new(st->host->arg, tick, st);
	st->settle = st->host->timer_new(st->host->arg, settled, st);
	st->redis = sonic_redis_new(st->host, st->conf.unix_path, st->conf.host, st->conf.port,
				    NULL, redis_up, redis_down, st);
	if (st->conf.notifications)
		st->notify = sonic_notify_new(st->host, &st->conf, ks_changed, st);
	if (!st->cur || !st->tick || !st->settle || !st->redis ||
	    (st->conf.notifications && !st->notify) ||
	    st->host->timer_start(st->tick, st->conf.poll_ns, 1) < 0) {
		snprintf(err, errlen, "out of memory");
		sonic_close(st);
		return NULL;
	}
	if (st->notify && st->ks_server >= 0)
		sonic_notify_server(st->notify, st->ks_server);
	return st;
}

/* The description: the next one (the ports changed) takes effect here. */
static const struct bsf_device_desc *sonic_describe(void *p)
{
	struct sonic_st *st = p;

	if (st->next && can_tell(st)) {
		sonic_view_carry(st->next, st->cur);
		sonic_view_free(st->cur);
		st->cur = st->next;
		st->next = NULL;
		st->gen++;
		st->stats.device_changes++;
	}
	return &st->cur->desc;
}

static int sonic_read_counters(void *p, uint32_t port, struct bsf_if_counters *out, char *err,
			       size_t errlen)
{
	struct sonic_st *st = p;
	const struct sonic_view *v = st->cur;
	const struct sonic_rport *r;
	const struct sonic_port *m;

	if (port >= v->desc.nports) {
		snprintf(err, errlen, "no port %u", port);
		return -1;
	}
	r = &v->rp[port];
	m = v->pmap[port];
	out->speed_bps = m && m->speed_bps != UNK ? m->speed_bps : BSF_UNKNOWN;
	out->admin_up = m ? m->admin_up : BSF_UNKNOWN32;
	if (!fresh(st))
		return 0;
	out->oper_up = r->oper;
	out->in_octets = r->ctr[0];
	out->in_ucast = r->ctr[1];
	out->in_mcast = r->ctr[2];
	out->in_bcast = r->ctr[3];
	out->in_discards = r->ctr[4];
	out->in_errors = r->ctr[5];
	out->in_unknown_protos = r->ctr[6];
	out->out_octets = r->ctr[7];
	out->out_ucast = r->ctr[8];
	out->out_mcast = r->ctr[9];
	out->out_bcast = r->ctr[10];
	out->out_discards = r->ctr[11];
	out->out_errors = r->ctr[12];
	return 0;
}

static int sonic_read_eth(void *p, uint32_t port, struct bsf_eth_counters *out, char *err,
			  size_t errlen)
{
	struct sonic_st *st = p;
	const uint64_t *c;

	if (port >= st->cur->desc.nports) {
		snprintf(err, errlen, "no port %u", port);
		return -1;
	}
	if (!fresh(st))
		return 0;
	c = st->cur->rp[port].ctr + SONIC_NIF;
	out->alignment_errors = c[0];
	out->fcs_errors = c[1];
	out->single_collision_frames = c[2];
	out->multiple_collision_frames = c[3];
	out->sqe_test_errors = c[4];
	out->deferred_transmissions = c[5];
	out->late_collisions = c[6];
	out->excessive_collisions = c[7];
	out->internal_mac_transmit_errors = c[8];
	out->carrier_sense_errors = c[9];
	out->frame_too_longs = c[10];
	out->internal_mac_receive_errors = c[11];
	out->symbol_errors = c[12];
	return 0;
}

/* Window w's peak of watermark m (then restarted), as a buffer with
 * allocation alloc. */
static void out_buf(struct sonic_robj *o, int m, unsigned w, uint64_t alloc, int ok,
		    struct bsf_buf *b)
{
	struct sonic_wm *x = &o->w[m];
	uint64_t peak = x->peak[w] != UNK ? x->peak[w] : ok ? x->latest : UNK;

	x->peak[w] = UNK;
	b->peak_bytes = b->peak_cells = peak;
	b->cur_bytes = b->cur_cells = ok && m == 0 ? o->cur : UNK;
	b->alloc_cells = alloc;
	b->peak_time_ns = BSF_UNKNOWN;
}

static int sonic_read_port_buffers(void *p, unsigned window, uint32_t port,
				   struct bsf_port_buffers *out, char *err, size_t errlen)
{
	struct sonic_st *st = p;
	const struct sonic_view *v = st->cur;
	const struct bsf_port_desc *d;
	const struct sonic_port *m;
	struct sonic_robj *o;
	int ok = fresh(st);

	if (port >= v->desc.nports || window >= BSF_WINDOWS) {
		snprintf(err, errlen, "no port %u or window %u", port, window);
		return -1;
	}
	d = &v->pdesc[port];
	m = v->pmap[port];
	o = &v->objs[v->rp[port].first_obj];
	for (unsigned j = 0; j < d->n_uc_queues; j++, o++)
		out_buf(o, 0, window, m && j < m->nuc ? m->uc[j].alloc : UNK, ok, &out->uc[j]);
	for (unsigned j = 0; j < d->n_mc_queues; j++, o++)
		out_buf(o, 0, window, m && j < m->nmc ? m->mc[j].alloc : UNK, ok, &out->mc[j]);
	for (unsigned j = 0; j < d->n_pgs; j++, o++) {
		out_buf(o, 0, window, m && j < m->npg ? m->pg[j].alloc : UNK, ok,
			&out->pg_shared[j]);
		out_buf(o, 1, window, m && j < m->npg ? m->pg[j].alloc2 : UNK, ok,
			&out->pg_headroom[j]);
	}
	return 0;
}

static int sonic_read_device_buffers(void *p, unsigned window, struct bsf_device_buffers *out,
				     char *err, size_t errlen)
{
	struct sonic_st *st = p;
	const struct sonic_view *v = st->cur;
	struct sonic_robj *o = &v->objs[v->first_pool];
	uint64_t sum_peak = 0, sum_alloc = 0;
	int ok = fresh(st);

	if (window >= BSF_WINDOWS) {
		snprintf(err, errlen, "no window %u", window);
		return -1;
	}
	for (unsigned j = 0; j < v->desc.n_ingress_pools; j++, o++)
		out_buf(o, 0, window, j < st->dev.ning ? st->dev.ing[j].size : UNK, ok,
			&out->ingress_pool[j]);
	for (unsigned j = 0; j < v->desc.n_egress_pools; j++, o++) {
		struct bsf_buf *b = &out->egress_pool[j];

		out_buf(o, 0, window, j < st->dev.negr ? st->dev.egr[j].size : UNK, ok, b);
		/* the device's unicast figure: the egress pools together (the
		 * sum of their peaks: an upper bound of the peak of the sum) */
		sum_peak = sum_peak == UNK || b->peak_bytes == UNK ? UNK : sum_peak + b->peak_bytes;
		sum_alloc =
		    sum_alloc == UNK || b->alloc_cells == UNK ? UNK : sum_alloc + b->alloc_cells;
	}
	if (v->desc.n_egress_pools) {
		out->uc.peak_bytes = out->uc.peak_cells = sum_peak;
		out->uc.alloc_cells = sum_alloc;
	}
	return 0;
}

static int sonic_read_delays(void *p, unsigned window, uint32_t port, struct bsf_port_delays *out,
			     char *err, size_t errlen)
{
	(void)p;
	(void)window;
	(void)port;
	(void)out;
	(void)err;
	(void)errlen;
	return 0; /* SONiC publishes no queue delays: all unknown */
}

/* E:10 (the port's queues' drops) and E:11 (the port's drop counters, or
 * the switch's for the device). */
static int sonic_read_own_records(void *p, unsigned window, uint32_t port, uint32_t enterprise,
				  struct bsf_own_records *out, char *err, size_t errlen)
{
	struct sonic_st *st = p;
	const struct sonic_view *v = st->cur;
	struct sflow_own_qdrop uc[BSF_MAX_QUEUES], mc[BSF_MAX_QUEUES];
	uint64_t unknown[SONIC_DBG_MAX];
	const uint64_t *values;
	unsigned nuc = 0, nmc = 0;
	int ok = fresh(st), r;
	char msg[200];
	uint64_t t;

	(void)window;
	if (port != BSF_PORT_DEVICE && port >= v->desc.nports) {
		snprintf(err, errlen, "no port %u", port);
		return -1;
	}
	for (unsigned k = 0; k < SONIC_DBG_MAX; k++)
		unknown[k] = UNK;
	if (port == BSF_PORT_DEVICE) {
		values = ok ? v->sw : unknown;
	} else {
		const struct sonic_robj *o = &v->objs[v->rp[port].first_obj];

		nuc = v->pdesc[port].n_uc_queues;
		nmc = v->pdesc[port].n_mc_queues;
		for (unsigned j = 0; j < nuc + nmc; j++, o++) {
			struct sflow_own_qdrop *d = j < nuc ? &uc[j] : &mc[j - nuc];

			d->packets = ok ? o->drop[0] : UNK;
			d->bytes = ok ? o->drop[1] : UNK;
		}
		values = ok ? v->rp[port].dbg : unknown;
	}
	r = sonic_drops_records(enterprise, uc, nuc, mc, nmc,
				port == BSF_PORT_DEVICE ? &v->dbg_switch : &v->dbg_port, values,
				out, msg, sizeof msg);
	if (r < 0) {
		snprintf(err, errlen, "%s", msg);
		return -1;
	}
	t = now_ns(st);
	if (r > 0 && (!st->cut_logged_ns || t - st->cut_logged_ns >= 60000000000ull)) {
		st->cut_logged_ns = t;
		st->host->log(st->host->arg, LOG_WARNING, "%s: left out (logged once a minute)",
			      msg);
	}
	return 0;
}

static void sonic_log_status(void *p)
{
	struct sonic_st *st = p;
	struct sonic_backend_stats s;
	uint64_t t = now_ns(st);
	char where[300];

	sonic_backend_get_stats(st, &s);
	if (st->conf.unix_path[0])
		snprintf(where, sizeof where, "%s", st->conf.unix_path);
	else
		snprintf(where, sizeof where, "%s:%d", st->conf.host, st->conf.port);
	st->host->log(st->host->arg, LOG_NOTICE,
		      "status: sonic: redis %s %s; %llu connections made, %llu lost, %llu "
		      "attempts failed",
		      where, sonic_redis_ctx(st->redis) ? "connected" : "NOT connected",
		      (unsigned long long)s.connects, (unsigned long long)s.disconnects,
		      (unsigned long long)s.connect_failures);
	st->host->log(st->host->arg, LOG_NOTICE,
		      "status: sonic: %llu poll cycles (%llu cut short, %llu ticks skipped while "
		      "one ran), the last complete %s%llu ms ago; %llu map refreshes (%llu on "
		      "notifications); %llu values that were not numbers; %u ports exported, "
		      "%llu device changes",
		      (unsigned long long)s.polls, (unsigned long long)s.polls_failed,
		      (unsigned long long)s.stalls, st->last_ok_ns ? "" : "(none) ",
		      (unsigned long long)(st->last_ok_ns ? (t - st->last_ok_ns) / 1000000u : 0),
		      (unsigned long long)s.refreshes, (unsigned long long)st->refreshes_notified,
		      (unsigned long long)s.bad_values, st->cur->desc.nports,
		      (unsigned long long)s.device_changes);
	st->host->log(st->host->arg, LOG_NOTICE,
		      "status: sonic: keyspace notifications %s (notify-keyspace-events \"%s\"), "
		      "%llu received, subscribed %llu times",
		      !st->conf.notifications		? "not used (keyspace_notifications = no)"
		      : sonic_notify_active(st->notify) ? "on"
							: "off",
		      st->ks_flags, (unsigned long long)s.notifications,
		      (unsigned long long)s.subscriptions);
}

void sonic_backend_get_stats(void *p, struct sonic_backend_stats *out)
{
	const struct sonic_st *st = p;
	const struct sonic_redis_stats *r = sonic_redis_stats(st->redis);

	*out = st->stats;
	out->connects = r->connects;
	out->disconnects = r->disconnects;
	out->connect_failures = r->failures;
	out->reads = r->reads;
	out->writes = r->writes;
	if (st->notify) {
		out->notifications = sonic_notify_stats(st->notify)->notifications;
		out->subscriptions = sonic_notify_stats(st->notify)->subscriptions;
	}
}

const struct bsf_backend_ops *bsf_backend_sonic_ops(void)
{
	static const struct bsf_backend_ops ops = {
	    .abi_version = BSF_BACKEND_ABI_VERSION,
	    .size = sizeof(struct bsf_backend_ops),
	    .name = "sonic",
	    .open = sonic_open,
	    .close = sonic_close,
	    .describe = sonic_describe,
	    .read_counters = sonic_read_counters,
	    .read_port_buffers = sonic_read_port_buffers,
	    .read_device_buffers = sonic_read_device_buffers,
	    .read_delays = sonic_read_delays,
	    .check = sonic_check,
	    .read_eth_counters = sonic_read_eth,
	    .read_own_records = sonic_read_own_records,
	    .log_status = sonic_log_status,
	};
	return &ops;
}
