/*
 * backend_sonic.c - the built-in sonic backend: reads SONiC's Redis
 * databases through one asynchronous hiredis connection (sonic_redis.h)
 * and serves the daemon's reads from what the last poll cycle brought.
 *
 * Schema: the maps and the buffer configuration are described in
 * sonic_maps.h; every poll cycle reads, for each front-panel port
 *   COUNTERS:<port oid>   SAI_PORT_STAT_IF_{IN,OUT}_* (0:1) and
 *                         SAI_PORT_STAT_DOT3_STATS_* (0:2)
 *   APPL_DB PORT_TABLE:<name>   oper_status
 * for each queue, PG and pool (COUNTERS_DB)
 *   COUNTERS:<oid>        SAI_QUEUE_STAT_SHARED_WATERMARK_BYTES,
 *                         SAI_QUEUE_STAT_CURR_OCCUPANCY_BYTES;
 *                         SAI_INGRESS_PRIORITY_GROUP_STAT_SHARED_WATERMARK_BYTES,
 *                         ..._XOFF_ROOM_WATERMARK_BYTES, ..._CURR_OCCUPANCY_BYTES;
 *                         SAI_BUFFER_POOL_STAT_WATERMARK_BYTES,
 *                         SAI_BUFFER_POOL_STAT_CURR_OCCUPANCY_BYTES
 *   PERIODIC_WATERMARKS:<oid>   the same watermark fields
 * all in one pipeline (one round trip per cycle).  A watermark is taken
 * from COUNTERS:<oid> when the flex counter's latest value is still there
 * (the peak of its poll period, SONiC's `counterpoll watermark interval`),
 * else from PERIODIC_WATERMARKS:<oid> (the peak since SONiC's telemetry
 * period began).  USER_WATERMARKS and PERSISTENT_WATERMARKS are never
 * read nor written, nor is anything cleared: bsflowd keeps its own peak
 * per read window, the largest value read since the window's last read.
 * The maps are read again every map_refresh (no keyspace notifications).
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
#include "agent/sonic/sonic_maps.h"
#include "agent/sonic/sonic_parse.h"
#include "agent/sonic/sonic_redis.h"

#define UNK SONIC_UNKNOWN

/* 0:1 and 0:2 fields, in struct order */
#define NIF  13
#define NETH 13
#define NCTR (NIF + NETH)
static const char *const ctr_fields[NCTR] = {
    "SAI_PORT_STAT_IF_IN_OCTETS",
    "SAI_PORT_STAT_IF_IN_UCAST_PKTS",
    "SAI_PORT_STAT_IF_IN_MULTICAST_PKTS",
    "SAI_PORT_STAT_IF_IN_BROADCAST_PKTS",
    "SAI_PORT_STAT_IF_IN_DISCARDS",
    "SAI_PORT_STAT_IF_IN_ERRORS",
    "SAI_PORT_STAT_IF_IN_UNKNOWN_PROTOS",
    "SAI_PORT_STAT_IF_OUT_OCTETS",
    "SAI_PORT_STAT_IF_OUT_UCAST_PKTS",
    "SAI_PORT_STAT_IF_OUT_MULTICAST_PKTS",
    "SAI_PORT_STAT_IF_OUT_BROADCAST_PKTS",
    "SAI_PORT_STAT_IF_OUT_DISCARDS",
    "SAI_PORT_STAT_IF_OUT_ERRORS",
    "SAI_PORT_STAT_DOT3_STATS_ALIGNMENT_ERRORS",
    "SAI_PORT_STAT_DOT3_STATS_FCS_ERRORS",
    "SAI_PORT_STAT_DOT3_STATS_SINGLE_COLLISION_FRAMES",
    "SAI_PORT_STAT_DOT3_STATS_MULTIPLE_COLLISION_FRAMES",
    "SAI_PORT_STAT_DOT3_STATS_SQE_TEST_ERRORS",
    "SAI_PORT_STAT_DOT3_STATS_DEFERRED_TRANSMISSIONS",
    "SAI_PORT_STAT_DOT3_STATS_LATE_COLLISIONS",
    "SAI_PORT_STAT_DOT3_STATS_EXCESSIVE_COLLISIONS",
    "SAI_PORT_STAT_DOT3_STATS_INTERNAL_MAC_TRANSMIT_ERRORS",
    "SAI_PORT_STAT_DOT3_STATS_CARRIER_SENSE_ERRORS",
    "SAI_PORT_STAT_DOT3_STATS_FRAME_TOO_LONGS",
    "SAI_PORT_STAT_DOT3_STATS_INTERNAL_MAC_RECEIVE_ERRORS",
    "SAI_PORT_STAT_DOT3_STATS_SYMBOL_ERRORS",
};

#define Q_WM	 "SAI_QUEUE_STAT_SHARED_WATERMARK_BYTES"
#define Q_CUR	 "SAI_QUEUE_STAT_CURR_OCCUPANCY_BYTES"
#define PG_WM	 "SAI_INGRESS_PRIORITY_GROUP_STAT_SHARED_WATERMARK_BYTES"
#define PG_HR	 "SAI_INGRESS_PRIORITY_GROUP_STAT_XOFF_ROOM_WATERMARK_BYTES"
#define PG_CUR	 "SAI_INGRESS_PRIORITY_GROUP_STAT_CURR_OCCUPANCY_BYTES"
#define POOL_WM	 "SAI_BUFFER_POOL_STAT_WATERMARK_BYTES"
#define POOL_CUR "SAI_BUFFER_POOL_STAT_CURR_OCCUPANCY_BYTES"

enum kind {
	K_SELECT = 0,
	K_PORT, /* a = port */
	K_OPER, /* a = port */
	K_OBJ,	/* a = object index in st->objs, COUNTERS:<oid> */
	K_PER,	/* a = object, PERIODIC_WATERMARKS:<oid> */
	K_KEYS, /* tab */
	K_MAP,	/* tab */
	K_ROW,	/* tab, a = row */
};

struct sonic_st;

struct slot {
	struct sonic_st *st;
	uint8_t kind, tab;
	uint32_t a;
};

/* A watermark: what this cycle read and what was kept. */
struct wm {
	uint64_t in_ctr, in_per; /* this cycle: COUNTERS, PERIODIC_WATERMARKS */
	uint64_t latest;
	uint64_t peak[BSF_WINDOWS]; /* largest since the window's last read */
};

/* A queue, PG or pool as polled: two watermarks (PGs: shared, headroom). */
struct robj {
	char *cmd_ctr, *cmd_per; /* formatted HMGETs; NULL: no oid */
	size_t len_ctr, len_per;
	int nwm; /* 1 or 2 */
	struct wm w[2];
	uint64_t in_cur, cur;
};

struct rport {
	char *cmd_ctr, *cmd_oper;
	size_t len_ctr, len_oper;
	uint64_t in_ctr[NCTR], ctr[NCTR];
	uint32_t in_oper, oper;
	int first_obj; /* its objects: uc, mc then pg, from here in st->objs */
};

struct sonic_st {
	const struct bsf_host *host;
	struct sonic_conf conf;
	struct sonic_redis *redis;
	struct bsf_timer *tick;
	redisContext *sync; /* open(): the first read of the maps */

	struct sonic_dev dev; /* the maps in force */
	struct bsf_device_desc desc;
	struct bsf_port_desc *pdesc;
	struct rport *rp;		/* desc.nports */
	const struct sonic_port **pmap; /* desc port -> dev port, or NULL */
	struct robj *objs;		/* per port uc, mc, pg; then pools */
	size_t nobjs;
	int first_pool; /* ingress pools then egress pools */

	/* the cycle in flight */
	struct slot *slots;
	size_t nslots, cap;
	unsigned pending;
	int failed;
	int stage; /* 0 poll, 1 refresh keys, 2 refresh rows */
	struct sonic_tables tabs;
	uint64_t cycle_start_ns, last_ok_ns, last_refresh_ns;
	int have_maps;
	int fallback; /* the ports came from config_db.json: queues and PGs
			 assumed 8 + 8 and 8 */

	struct sonic_backend_stats stats;
	uint64_t bad_logged_ns;
};

static uint64_t now_ns(const struct sonic_st *st)
{
	return st->host->now_ns(st->host->arg);
}

/* ---- objects and their commands ---- */

static void robj_free_cmds(struct robj *o)
{
	redisFreeCommand(o->cmd_ctr);
	redisFreeCommand(o->cmd_per);
	o->cmd_ctr = o->cmd_per = NULL;
}

static void wm_reset(struct wm *w)
{
	w->in_ctr = w->in_per = w->latest = UNK;
	for (int k = 0; k < BSF_WINDOWS; k++)
		w->peak[k] = UNK;
}

/* (Re)format o's commands for oid with the fields of its kind. */
static int robj_cmds(struct robj *o, const char *oid, const char *wm1, const char *wm2,
		     const char *cur)
{
	int n;

	robj_free_cmds(o);
	if (!oid || !oid[0])
		return 0;
	n = wm2 ? redisFormatCommand(&o->cmd_ctr, "HMGET COUNTERS:%s %s %s %s", oid, wm1, wm2, cur)
		: redisFormatCommand(&o->cmd_ctr, "HMGET COUNTERS:%s %s %s", oid, wm1, cur);
	if (n < 0)
		return -1;
	o->len_ctr = (size_t)n;
	n = wm2 ? redisFormatCommand(&o->cmd_per, "HMGET PERIODIC_WATERMARKS:%s %s %s", oid, wm1,
				     wm2)
		: redisFormatCommand(&o->cmd_per, "HMGET PERIODIC_WATERMARKS:%s %s", oid, wm1);
	if (n < 0)
		return -1;
	o->len_per = (size_t)n;
	return 0;
}

static int port_cmds(struct sonic_st *st, uint32_t i)
{
	struct rport *r = &st->rp[i];
	const struct sonic_port *p = st->pmap[i];
	const char *argv[NCTR + 2];
	char key[SONIC_OID_MAX + 16];
	int n;

	redisFreeCommand(r->cmd_ctr);
	redisFreeCommand(r->cmd_oper);
	r->cmd_ctr = r->cmd_oper = NULL;
	if (!p)
		return 0;
	n = redisFormatCommand(&r->cmd_oper, "HGET PORT_TABLE:%s oper_status", p->name);
	if (n < 0)
		return -1;
	r->len_oper = (size_t)n;
	if (!p->oid[0])
		return 0;
	snprintf(key, sizeof key, "COUNTERS:%s", p->oid);
	argv[0] = "HMGET";
	argv[1] = key;
	for (int k = 0; k < NCTR; k++)
		argv[2 + k] = ctr_fields[k];
	n = redisFormatCommandArgv(&r->cmd_ctr, NCTR + 2, argv, NULL);
	if (n < 0)
		return -1;
	r->len_ctr = (size_t)n;
	return 0;
}

/* The commands of every port and object for the maps in force. */
static int all_cmds(struct sonic_st *st)
{
	for (uint32_t i = 0; i < st->desc.nports; i++) {
		const struct sonic_port *p = st->pmap[i];
		const struct bsf_port_desc *d = &st->pdesc[i];
		struct robj *o = &st->objs[st->rp[i].first_obj];

		if (port_cmds(st, i) < 0)
			return -1;
		for (unsigned j = 0; j < d->n_uc_queues; j++, o++)
			if (robj_cmds(o, p && j < p->nuc ? p->uc[j].oid : NULL, Q_WM, NULL, Q_CUR) <
			    0)
				return -1;
		for (unsigned j = 0; j < d->n_mc_queues; j++, o++)
			if (robj_cmds(o, p && j < p->nmc ? p->mc[j].oid : NULL, Q_WM, NULL, Q_CUR) <
			    0)
				return -1;
		for (unsigned j = 0; j < d->n_pgs; j++, o++)
			if (robj_cmds(o, p && j < p->npg ? p->pg[j].oid : NULL, PG_WM, PG_HR,
				      PG_CUR) < 0)
				return -1;
	}
	for (unsigned j = 0; j < st->desc.n_ingress_pools; j++)
		if (robj_cmds(&st->objs[st->first_pool + j],
			      j < st->dev.ning ? st->dev.ing[j].oid : NULL, POOL_WM, NULL,
			      POOL_CUR) < 0)
			return -1;
	for (unsigned j = 0; j < st->desc.n_egress_pools; j++)
		if (robj_cmds(&st->objs[st->first_pool + st->desc.n_ingress_pools + j],
			      j < st->dev.negr ? st->dev.egr[j].oid : NULL, POOL_WM, NULL,
			      POOL_CUR) < 0)
			return -1;
	return 0;
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

static void handle(struct sonic_st *st, const struct slot *s, const redisReply *r)
{
	struct robj *o;

	if (!r) {
		st->failed = 1;
		return;
	}
	if (r->type == REDIS_REPLY_ERROR) {
		if (s->kind == K_SELECT)
			st->failed = 1;
		st->stats.bad_values++;
		return;
	}
	switch (s->kind) {
	case K_PORT:
		if (r->type != REDIS_REPLY_ARRAY || r->elements != NCTR) {
			bad_value(st, "port counters");
			return;
		}
		for (int k = 0; k < NCTR; k++)
			take(st, r, (size_t)k, &st->rp[s->a].in_ctr[k], ctr_fields[k]);
		break;
	case K_OPER:
		if (r->type == REDIS_REPLY_STRING)
			st->rp[s->a].in_oper = strcmp(r->str, "up") == 0 ? 1 : 0;
		break;
	case K_OBJ:
		o = &st->objs[s->a];
		take(st, r, 0, &o->w[0].in_ctr, "watermark");
		if (o->nwm == 2)
			take(st, r, 1, &o->w[1].in_ctr, "watermark");
		take(st, r, (size_t)o->nwm, &o->in_cur, "occupancy");
		break;
	case K_PER:
		o = &st->objs[s->a];
		take(st, r, 0, &o->w[0].in_per, "periodic watermark");
		if (o->nwm == 2)
			take(st, r, 1, &o->w[1].in_per, "periodic watermark");
		break;
	case K_KEYS:
		sonic_tables_add_keys(&st->tabs, (enum sonic_table)s->tab, r);
		break;
	case K_MAP:
	case K_ROW:
		sonic_tables_set_fields(&st->tabs, (enum sonic_table)s->tab, s->a, r);
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
	st->stage = 0;
	if (reserve(st, 2 + 2 * (size_t)st->desc.nports + 2 * st->nobjs) < 0)
		return -1;
	if (send_cmd(st, K_SELECT, 0, 0, "SELECT %d", st->conf.counters_db) < 0)
		return -1;
	for (uint32_t i = 0; i < st->desc.nports; i++) {
		struct rport *r = &st->rp[i];

		for (int k = 0; k < NCTR; k++)
			r->in_ctr[k] = UNK;
		r->in_oper = BSF_UNKNOWN32;
		if (r->cmd_ctr && send_fmt(st, K_PORT, 0, i, r->cmd_ctr, r->len_ctr) < 0)
			return -1;
	}
	for (size_t j = 0; j < st->nobjs; j++) {
		struct robj *o = &st->objs[j];

		o->w[0].in_ctr = o->w[0].in_per = o->w[1].in_ctr = o->w[1].in_per = UNK;
		o->in_cur = UNK;
		if (!o->cmd_ctr)
			continue;
		if (send_fmt(st, K_OBJ, 0, (uint32_t)j, o->cmd_ctr, o->len_ctr) < 0 ||
		    send_fmt(st, K_PER, 0, (uint32_t)j, o->cmd_per, o->len_per) < 0)
			return -1;
	}
	if (send_cmd(st, K_SELECT, 0, 0, "SELECT %d", st->conf.appl_db) < 0)
		return -1;
	for (uint32_t i = 0; i < st->desc.nports; i++)
		if (st->rp[i].cmd_oper &&
		    send_fmt(st, K_OPER, 0, i, st->rp[i].cmd_oper, st->rp[i].len_oper) < 0)
			return -1;
	return 0;
}

static void wm_commit(struct wm *w)
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
	for (uint32_t i = 0; i < st->desc.nports; i++) {
		struct rport *r = &st->rp[i];

		memcpy(r->ctr, r->in_ctr, sizeof r->ctr);
		r->oper = r->in_oper;
	}
	for (size_t j = 0; j < st->nobjs; j++) {
		struct robj *o = &st->objs[j];

		wm_commit(&o->w[0]);
		if (o->nwm == 2)
			wm_commit(&o->w[1]);
		o->cur = o->in_cur;
	}
	st->last_ok_ns = now_ns(st);
	st->stats.polls++;
}

/* ---- map refresh ---- */

static int start_refresh(struct sonic_st *st)
{
	sonic_tables_free(&st->tabs);
	st->stage = 1;
	if (reserve(st, 2 + SONIC_T_N) < 0)
		return -1;
	if (send_cmd(st, K_SELECT, 0, 0, "SELECT %d", st->conf.config_db) < 0)
		return -1;
	for (int t = 0; t < SONIC_T_FIRST_MAP; t++)
		if (send_cmd(st, K_KEYS, t, 0, "KEYS %s*", sonic_table_key[t]) < 0)
			return -1;
	if (send_cmd(st, K_SELECT, 0, 0, "SELECT %d", st->conf.counters_db) < 0)
		return -1;
	for (int t = SONIC_T_FIRST_MAP; t < SONIC_T_N; t++)
		if (send_cmd(st, K_MAP, t, 0, "HGETALL %s", sonic_table_key[t]) < 0)
			return -1;
	return 0;
}

static int refresh_rows(struct sonic_st *st)
{
	size_t n = 1;

	st->stage = 2;
	for (int t = 0; t < SONIC_T_FIRST_MAP; t++)
		n += st->tabs.t[t].n;
	if (reserve(st, n) < 0)
		return -1;
	if (send_cmd(st, K_SELECT, 0, 0, "SELECT %d", st->conf.config_db) < 0)
		return -1;
	for (int t = 0; t < SONIC_T_FIRST_MAP; t++)
		for (size_t i = 0; i < st->tabs.t[t].n; i++)
			if (send_cmd(st, K_ROW, t, (uint32_t)i, "HGETALL %s%s", sonic_table_key[t],
				     st->tabs.t[t].r[i].key) < 0)
				return -1;
	return 0;
}

static void log_changes(struct sonic_st *st, const struct sonic_dev *old,
			const struct sonic_dev *nw)
{
	const struct bsf_host *h = st->host;

	for (uint32_t i = 0; i < nw->nports; i++) {
		const struct sonic_port *p = &nw->ports[i], *q = sonic_dev_port(old, p->name);
		int exported = 0;

		for (uint32_t k = 0; k < st->desc.nports; k++)
			exported |= strcmp(st->pdesc[k].name, p->name) == 0;
		if (!q) {
			h->log(h->arg, LOG_NOTICE,
			       "sonic: port %s (ifIndex %u) appeared in the maps%s", p->name,
			       p->ifindex,
			       exported ? ""
					: "; exported once the backend is reopened (restart, or "
					  "a reload that changes the sonic section)");
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
			h->log(h->arg, LOG_NOTICE,
			       "sonic: port %s left the maps: its values are unknown from now on",
			       old->ports[i].name);
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
	for (uint32_t i = 0; i < st->desc.nports; i++)
		st->pmap[i] = sonic_dev_port(&st->dev, st->pdesc[i].name);
	if (st->pmap && all_cmds(st) < 0)
		st->host->log(st->host->arg, LOG_ERR, "sonic: out of memory formatting commands");
	st->have_maps = 1;
	st->last_refresh_ns = now_ns(st);
	st->stats.refreshes++;
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
	if ((refresh ? start_refresh(st) : start_poll(st)) < 0)
		st->failed = 1; /* what was sent still completes */
	if (st->pending == 0)
		cycle_done(st);
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
	start_cycle(st, !st->have_maps || t - st->last_refresh_ns >= st->conf.map_refresh_ns);
}

static void redis_up(void *arg)
{
	struct sonic_st *st = arg;

	if (!st->pending)
		start_cycle(st, 1); /* the maps may have changed while it was away */
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
	return rc;
}

/* ---- the ops ---- */

static void sonic_close(void *p)
{
	struct sonic_st *st = p;

	if (!st)
		return;
	sonic_redis_free(st->redis); /* pending callbacks run with NULL */
	if (st->host)
		st->host->timer_free(st->tick);
	for (size_t j = 0; j < st->nobjs; j++)
		robj_free_cmds(&st->objs[j]);
	for (uint32_t i = 0; st->rp && i < st->desc.nports; i++) {
		redisFreeCommand(st->rp[i].cmd_ctr);
		redisFreeCommand(st->rp[i].cmd_oper);
	}
	sonic_tables_free(&st->tabs);
	sonic_dev_free(&st->dev);
	free(st->objs);
	free(st->rp);
	free(st->pmap);
	free(st->pdesc);
	free(st->slots);
	free(st);
}

static unsigned cap_u(unsigned n, unsigned max)
{
	return n > max ? max : n;
}

/* The device as the daemon sees it, from the maps read at open. */
static int build_desc(struct sonic_st *st)
{
	uint32_t n = st->dev.nports;
	size_t nobj = 0;

	st->pdesc = calloc(n + 1, sizeof *st->pdesc);
	st->rp = calloc(n + 1, sizeof *st->rp);
	st->pmap = calloc(n + 1, sizeof *st->pmap);
	if (!st->pdesc || !st->rp || !st->pmap)
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		const struct sonic_port *p = &st->dev.ports[i];
		struct bsf_port_desc *d = &st->pdesc[i];

		d->size = sizeof *d;
		d->ifindex = p->ifindex;
		snprintf(d->name, sizeof d->name, "%s", p->name);
		d->speed_bps = p->speed_bps == UNK ? 0 : p->speed_bps;
		d->n_uc_queues = (uint8_t)cap_u(p->nuc	       ? p->nuc
						: st->fallback ? 8
							       : 1,
						BSF_MAX_QUEUES);
		d->n_mc_queues = (uint8_t)cap_u(st->fallback ? 8 : p->nmc, BSF_MAX_QUEUES);
		d->n_pgs = (uint8_t)cap_u(st->fallback ? 8 : p->npg, BSF_MAX_PGS);
		d->oper_up = 0;
		st->rp[i].first_obj = (int)nobj;
		st->rp[i].oper = BSF_UNKNOWN32;
		for (int k = 0; k < NCTR; k++)
			st->rp[i].ctr[k] = UNK;
		nobj += d->n_uc_queues + d->n_mc_queues + d->n_pgs;
		st->pmap[i] = p;
	}
	st->first_pool = (int)nobj;
	nobj += st->dev.ning + st->dev.negr;
	st->objs = calloc(nobj + 1, sizeof *st->objs);
	if (!st->objs)
		return -1;
	st->nobjs = nobj;
	for (size_t j = 0; j < nobj; j++) {
		st->objs[j].nwm = 1;
		wm_reset(&st->objs[j].w[0]);
		wm_reset(&st->objs[j].w[1]);
		st->objs[j].cur = UNK;
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct bsf_port_desc *d = &st->pdesc[i];
		size_t pg = (size_t)st->rp[i].first_obj + d->n_uc_queues + d->n_mc_queues;

		for (unsigned j = 0; j < d->n_pgs; j++)
			st->objs[pg + j].nwm = 2;
	}
	st->desc.size = sizeof st->desc;
	snprintf(st->desc.id, sizeof st->desc.id, "sonic");
	st->desc.caps = BSF_CAP_IF_COUNTERS | BSF_CAP_BUFFERS | BSF_CAP_BUFFER_BYTES | BSF_CAP_PGS |
			BSF_CAP_POOLS | BSF_CAP_ETH_COUNTERS;
	st->desc.nports = n;
	st->desc.ports = st->pdesc;
	st->desc.cell_bytes = 1; /* SONiC counts bytes: a "cell" here is a byte */
	st->desc.total_cells = BSF_UNKNOWN;
	st->desc.n_ingress_pools = (uint8_t)st->dev.ning;
	st->desc.n_egress_pools = (uint8_t)st->dev.negr;
	return all_cmds(st);
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
			     "ports \"%s\", poll every %llu ms, maps every %llu s",
			     where, sc.config_db, sc.appl_db, sc.counters_db, sc.ports,
			     (unsigned long long)(sc.poll_ns / 1000000u),
			     (unsigned long long)(sc.map_refresh_ns / 1000000000u));
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
				      "(only the device sample); they are exported once the "
				      "backend is reopened",
				      st->conf.unix_path[0] ? st->conf.unix_path : st->conf.host,
				      why, st->conf.config_db_json, strerror(errno));
	} else
		st->host->log(st->host->arg, LOG_INFO,
			      "sonic: %u front-panel ports, %u ingress and %u egress pools",
			      st->dev.nports, st->dev.ning, st->dev.negr);
	if (build_desc(st) < 0) {
		snprintf(err, errlen, "out of memory");
		sonic_close(st);
		return NULL;
	}
	st->tick = st->host->timer_new(st->host->arg, tick, st);
	st->redis = sonic_redis_new(st->host, st->conf.unix_path, st->conf.host, st->conf.port,
				    redis_up, redis_down, st);
	if (!st->tick || !st->redis || st->host->timer_start(st->tick, st->conf.poll_ns, 1) < 0) {
		snprintf(err, errlen, "out of memory");
		sonic_close(st);
		return NULL;
	}
	return st;
}

static const struct bsf_device_desc *sonic_describe(void *p)
{
	return &((struct sonic_st *)p)->desc;
}

static int sonic_read_counters(void *p, uint32_t port, struct bsf_if_counters *out, char *err,
			       size_t errlen)
{
	struct sonic_st *st = p;
	const struct rport *r;
	const struct sonic_port *m;

	if (port >= st->desc.nports) {
		snprintf(err, errlen, "no port %u", port);
		return -1;
	}
	r = &st->rp[port];
	m = st->pmap[port];
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

	if (port >= st->desc.nports) {
		snprintf(err, errlen, "no port %u", port);
		return -1;
	}
	if (!fresh(st))
		return 0;
	c = st->rp[port].ctr + NIF;
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
static void out_buf(struct robj *o, int m, unsigned w, uint64_t alloc, int ok, struct bsf_buf *b)
{
	struct wm *x = &o->w[m];
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
	const struct bsf_port_desc *d;
	const struct sonic_port *m;
	struct robj *o;
	int ok = fresh(st);

	if (port >= st->desc.nports || window >= BSF_WINDOWS) {
		snprintf(err, errlen, "no port %u or window %u", port, window);
		return -1;
	}
	d = &st->pdesc[port];
	m = st->pmap[port];
	o = &st->objs[st->rp[port].first_obj];
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
	struct robj *o = &st->objs[st->first_pool];
	uint64_t sum_peak = 0, sum_alloc = 0;
	int ok = fresh(st);

	if (window >= BSF_WINDOWS) {
		snprintf(err, errlen, "no window %u", window);
		return -1;
	}
	for (unsigned j = 0; j < st->desc.n_ingress_pools; j++, o++)
		out_buf(o, 0, window, j < st->dev.ning ? st->dev.ing[j].size : UNK, ok,
			&out->ingress_pool[j]);
	for (unsigned j = 0; j < st->desc.n_egress_pools; j++, o++) {
		struct bsf_buf *b = &out->egress_pool[j];

		out_buf(o, 0, window, j < st->dev.negr ? st->dev.egr[j].size : UNK, ok, b);
		/* the device's unicast figure: the egress pools together (the
		 * sum of their peaks: an upper bound of the peak of the sum) */
		sum_peak = sum_peak == UNK || b->peak_bytes == UNK ? UNK : sum_peak + b->peak_bytes;
		sum_alloc =
		    sum_alloc == UNK || b->alloc_cells == UNK ? UNK : sum_alloc + b->alloc_cells;
	}
	if (st->desc.n_egress_pools) {
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
		      "one ran), the last complete %s%llu ms ago; %llu map refreshes; %llu values "
		      "that were not numbers; %u ports exported",
		      (unsigned long long)s.polls, (unsigned long long)s.polls_failed,
		      (unsigned long long)s.stalls, st->last_ok_ns ? "" : "(none) ",
		      (unsigned long long)(st->last_ok_ns ? (t - st->last_ok_ns) / 1000000u : 0),
		      (unsigned long long)s.refreshes, (unsigned long long)s.bad_values,
		      st->desc.nports);
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
	    .log_status = sonic_log_status,
	};
	return &ops;
}
