/*
 * sonic_view.c - the sonic backend's description and its polled objects
 * (see sonic_view.h): building one from SONiC's maps, making its Redis
 * commands, comparing two, carrying values from one to the next.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <hiredis/hiredis.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/sonic/sonic_parse.h"
#include "agent/sonic/sonic_view.h"

#define UNK SONIC_UNKNOWN

const char *const sonic_ctr_fields[SONIC_NCTR] = {
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
#define Q_DROP_P "SAI_QUEUE_STAT_DROPPED_PACKETS"
#define Q_DROP_B "SAI_QUEUE_STAT_DROPPED_BYTES"
#define PG_WM	 "SAI_INGRESS_PRIORITY_GROUP_STAT_SHARED_WATERMARK_BYTES"
#define PG_HR	 "SAI_INGRESS_PRIORITY_GROUP_STAT_XOFF_ROOM_WATERMARK_BYTES"
#define PG_CUR	 "SAI_INGRESS_PRIORITY_GROUP_STAT_CURR_OCCUPANCY_BYTES"
#define POOL_WM	 "SAI_BUFFER_POOL_STAT_WATERMARK_BYTES"
#define POOL_CUR "SAI_BUFFER_POOL_STAT_CURR_OCCUPANCY_BYTES"

/* ---- commands ---- */

static void free_cmd(char **cmd)
{
	redisFreeCommand(*cmd);
	*cmd = NULL;
}

/* HMGET key fields... into *cmd; 0, or -1. */
static int hmget(char **cmd, size_t *len, const char *key, const char *const *fields, unsigned n)
{
	const char *argv[2 + SONIC_NCTR + SONIC_DBG_MAX];
	int r;

	argv[0] = "HMGET";
	argv[1] = key;
	for (unsigned i = 0; i < n; i++)
		argv[2 + i] = fields[i];
	r = redisFormatCommandArgv(cmd, (int)n + 2, argv, NULL);
	if (r < 0)
		return -1;
	*len = (size_t)r;
	return 0;
}

/* o's commands for oid: COUNTERS (its watermarks, occupancy and, for
 * queues, drops) and PERIODIC_WATERMARKS (its watermarks). */
static int obj_cmds(struct sonic_robj *o, const char *oid)
{
	static const char *const f[3][5] = {
	    {Q_WM, Q_CUR, Q_DROP_P, Q_DROP_B},
	    {PG_WM, PG_HR, PG_CUR},
	    {POOL_WM, POOL_CUR},
	};
	static const unsigned nf[3] = {4, 3, 2};
	char key[SONIC_OID_MAX + 32];

	free_cmd(&o->cmd_ctr);
	free_cmd(&o->cmd_per);
	if (!oid || !oid[0])
		return 0;
	snprintf(key, sizeof key, "COUNTERS:%s", oid);
	if (hmget(&o->cmd_ctr, &o->len_ctr, key, f[o->kind], nf[o->kind]) < 0)
		return -1;
	snprintf(key, sizeof key, "PERIODIC_WATERMARKS:%s", oid);
	return hmget(&o->cmd_per, &o->len_per, key, f[o->kind], (unsigned)o->nwm);
}

/* The port's counters (and drop counters) and its oper status. */
static int port_cmds(struct sonic_view *v, uint32_t i)
{
	struct sonic_rport *r = &v->rp[i];
	const struct sonic_port *p = v->pmap[i];
	const char *fields[SONIC_NCTR + SONIC_DBG_MAX];
	char key[SONIC_OID_MAX + 16];
	int n;

	free_cmd(&r->cmd_ctr);
	free_cmd(&r->cmd_oper);
	if (!p)
		return 0;
	n = redisFormatCommand(&r->cmd_oper, "HGET PORT_TABLE:%s oper_status", p->name);
	if (n < 0)
		return -1;
	r->len_oper = (size_t)n;
	if (!p->oid[0])
		return 0;
	snprintf(key, sizeof key, "COUNTERS:%s", p->oid);
	for (unsigned k = 0; k < SONIC_NCTR; k++)
		fields[k] = sonic_ctr_fields[k];
	for (unsigned k = 0; k < v->dbg_port.n; k++)
		fields[SONIC_NCTR + k] = v->dbg_port.c[k].stat;
	return hmget(&r->cmd_ctr, &r->len_ctr, key, fields, SONIC_NCTR + v->dbg_port.n);
}

static int switch_cmd(struct sonic_view *v, const struct sonic_dev *dev)
{
	const char *fields[SONIC_DBG_MAX];
	char key[SONIC_OID_MAX + 16];

	free_cmd(&v->cmd_sw);
	if (!v->dbg_switch.n || !dev->switch_oid[0])
		return 0;
	snprintf(key, sizeof key, "COUNTERS:%s", dev->switch_oid);
	for (unsigned k = 0; k < v->dbg_switch.n; k++)
		fields[k] = v->dbg_switch.c[k].stat;
	return hmget(&v->cmd_sw, &v->len_sw, key, fields, v->dbg_switch.n);
}

static const char *obj_oid(const struct sonic_obj *arr, unsigned n, unsigned j)
{
	return j < n ? arr[j].oid : NULL;
}

int sonic_view_remap(struct sonic_view *v, const struct sonic_dev *dev)
{
	if (!sonic_dbgs_same(&v->dbg_port, &dev->dbg_port)) {
		v->dbg_port = dev->dbg_port;
		for (uint32_t i = 0; i < v->desc.nports; i++)
			for (unsigned k = 0; k < SONIC_DBG_MAX; k++)
				v->rp[i].dbg[k] = v->rp[i].in_dbg[k] = UNK;
	} else {
		v->dbg_port = dev->dbg_port; /* aliases and reasons may differ */
	}
	if (!sonic_dbgs_same(&v->dbg_switch, &dev->dbg_switch))
		for (unsigned k = 0; k < SONIC_DBG_MAX; k++)
			v->sw[k] = v->in_sw[k] = UNK;
	v->dbg_switch = dev->dbg_switch;
	/* every port on the new maps first (the old ones may be gone by
	 * now, whatever happens below) */
	for (uint32_t i = 0; i < v->desc.nports; i++)
		v->pmap[i] = sonic_dev_port(dev, v->pdesc[i].name);
	for (uint32_t i = 0; i < v->desc.nports; i++) {
		const struct sonic_port *p = v->pmap[i];
		const struct bsf_port_desc *d = &v->pdesc[i];
		struct sonic_robj *o = &v->objs[v->rp[i].first_obj];

		if (port_cmds(v, i) < 0)
			return -1;
		for (unsigned j = 0; j < d->n_uc_queues; j++, o++)
			if (obj_cmds(o, p ? obj_oid(p->uc, p->nuc, j) : NULL) < 0)
				return -1;
		for (unsigned j = 0; j < d->n_mc_queues; j++, o++)
			if (obj_cmds(o, p ? obj_oid(p->mc, p->nmc, j) : NULL) < 0)
				return -1;
		for (unsigned j = 0; j < d->n_pgs; j++, o++)
			if (obj_cmds(o, p ? obj_oid(p->pg, p->npg, j) : NULL) < 0)
				return -1;
	}
	for (unsigned j = 0; j < v->desc.n_ingress_pools; j++)
		if (obj_cmds(&v->objs[v->first_pool + j], j < dev->ning ? dev->ing[j].oid : NULL) <
		    0)
			return -1;
	for (unsigned j = 0; j < v->desc.n_egress_pools; j++)
		if (obj_cmds(&v->objs[v->first_pool + v->desc.n_ingress_pools + j],
			     j < dev->negr ? dev->egr[j].oid : NULL) < 0)
			return -1;
	return switch_cmd(v, dev);
}

/* ---- building ---- */

static unsigned cap_u(unsigned n, unsigned max)
{
	return n > max ? max : n;
}

static void wm_reset(struct sonic_wm *w)
{
	w->in_ctr = w->in_per = w->latest = UNK;
	for (int k = 0; k < BSF_WINDOWS; k++)
		w->peak[k] = UNK;
}

static void obj_init(struct sonic_robj *o, int kind)
{
	memset(o, 0, sizeof *o);
	o->kind = kind;
	o->nwm = kind == SONIC_OBJ_PG ? 2 : 1;
	wm_reset(&o->w[0]);
	wm_reset(&o->w[1]);
	o->in_cur = o->cur = UNK;
	o->in_drop[0] = o->in_drop[1] = o->drop[0] = o->drop[1] = UNK;
}

struct sonic_view *sonic_view_new(const struct sonic_dev *dev, int fallback)
{
	struct sonic_view *v = calloc(1, sizeof *v);
	uint32_t n = dev->nports;
	size_t nobj = 0;

	if (!v)
		return NULL;
	v->pdesc = calloc(n + 1, sizeof *v->pdesc);
	v->rp = calloc(n + 1, sizeof *v->rp);
	v->pmap = calloc(n + 1, sizeof *v->pmap);
	if (!v->pdesc || !v->rp || !v->pmap) {
		sonic_view_free(v);
		return NULL;
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct sonic_port *p = &dev->ports[i];
		struct bsf_port_desc *d = &v->pdesc[i];
		struct sonic_rport *r = &v->rp[i];

		d->size = sizeof *d;
		d->ifindex = p->ifindex;
		snprintf(d->name, sizeof d->name, "%s", p->name);
		d->speed_bps = p->speed_bps == UNK ? 0 : p->speed_bps;
		d->n_uc_queues = (uint8_t)cap_u(p->nuc ? p->nuc : fallback ? 8 : 1, BSF_MAX_QUEUES);
		d->n_mc_queues = (uint8_t)cap_u(fallback ? 8 : p->nmc, BSF_MAX_QUEUES);
		d->n_pgs = (uint8_t)cap_u(fallback ? 8 : p->npg, BSF_MAX_PGS);
		r->first_obj = nobj;
		r->oper = r->in_oper = BSF_UNKNOWN32;
		for (int k = 0; k < SONIC_NCTR; k++)
			r->ctr[k] = r->in_ctr[k] = UNK;
		for (int k = 0; k < SONIC_DBG_MAX; k++)
			r->dbg[k] = r->in_dbg[k] = UNK;
		nobj += d->n_uc_queues + d->n_mc_queues + d->n_pgs;
	}
	v->first_pool = nobj;
	nobj += dev->ning + dev->negr;
	v->objs = calloc(nobj + 1, sizeof *v->objs);
	if (!v->objs) {
		sonic_view_free(v);
		return NULL;
	}
	v->nobjs = nobj;
	for (uint32_t i = 0; i < n; i++) {
		const struct bsf_port_desc *d = &v->pdesc[i];
		struct sonic_robj *o = &v->objs[v->rp[i].first_obj];

		for (unsigned j = 0; j < (unsigned)d->n_uc_queues + d->n_mc_queues; j++)
			obj_init(o++, SONIC_OBJ_QUEUE);
		for (unsigned j = 0; j < d->n_pgs; j++)
			obj_init(o++, SONIC_OBJ_PG);
	}
	for (size_t j = v->first_pool; j < nobj; j++)
		obj_init(&v->objs[j], SONIC_OBJ_POOL);
	for (int k = 0; k < SONIC_DBG_MAX; k++)
		v->sw[k] = v->in_sw[k] = UNK;
	v->desc.size = sizeof v->desc;
	snprintf(v->desc.id, sizeof v->desc.id, "sonic");
	v->desc.caps = BSF_CAP_IF_COUNTERS | BSF_CAP_BUFFERS | BSF_CAP_BUFFER_BYTES | BSF_CAP_PGS |
		       BSF_CAP_POOLS | BSF_CAP_ETH_COUNTERS;
	v->desc.nports = n;
	v->desc.ports = v->pdesc;
	v->desc.cell_bytes = 1; /* SONiC counts bytes: a "cell" here is a byte */
	v->desc.total_cells = BSF_UNKNOWN;
	v->desc.n_ingress_pools = (uint8_t)dev->ning;
	v->desc.n_egress_pools = (uint8_t)dev->negr;
	v->dbg_port = dev->dbg_port;
	v->dbg_switch = dev->dbg_switch;
	if (sonic_view_remap(v, dev) < 0) {
		sonic_view_free(v);
		return NULL;
	}
	return v;
}

void sonic_view_free(struct sonic_view *v)
{
	if (!v)
		return;
	for (size_t j = 0; v->objs && j < v->nobjs; j++) {
		free_cmd(&v->objs[j].cmd_ctr);
		free_cmd(&v->objs[j].cmd_per);
	}
	for (uint32_t i = 0; v->rp && i < v->desc.nports; i++) {
		free_cmd(&v->rp[i].cmd_ctr);
		free_cmd(&v->rp[i].cmd_oper);
	}
	free_cmd(&v->cmd_sw);
	free(v->objs);
	free(v->rp);
	free(v->pmap);
	free(v->pdesc);
	free(v);
}

/* ---- comparing, carrying ---- */

int sonic_view_same(const struct sonic_view *a, const struct sonic_view *b)
{
	if (a->desc.nports != b->desc.nports ||
	    a->desc.n_ingress_pools != b->desc.n_ingress_pools ||
	    a->desc.n_egress_pools != b->desc.n_egress_pools)
		return 0;
	for (uint32_t i = 0; i < a->desc.nports; i++) {
		const struct bsf_port_desc *x = &a->pdesc[i], *y = &b->pdesc[i];

		if (x->ifindex != y->ifindex || strcmp(x->name, y->name) != 0 ||
		    x->speed_bps != y->speed_bps || x->n_uc_queues != y->n_uc_queues ||
		    x->n_mc_queues != y->n_mc_queues || x->n_pgs != y->n_pgs)
			return 0;
	}
	return 1;
}

static void obj_carry(struct sonic_robj *to, const struct sonic_robj *from)
{
	to->w[0] = from->w[0];
	to->w[1] = from->w[1];
	to->cur = from->cur;
	to->drop[0] = from->drop[0];
	to->drop[1] = from->drop[1];
}

/* Objects j < min(nt, nf) of a kind: from's into to's. */
static void objs_carry(struct sonic_robj *to, unsigned nt, const struct sonic_robj *from,
		       unsigned nf)
{
	for (unsigned j = 0; j < nt && j < nf; j++)
		obj_carry(&to[j], &from[j]);
}

void sonic_view_carry(struct sonic_view *to, const struct sonic_view *from)
{
	int same_dbg = sonic_dbgs_same(&to->dbg_port, &from->dbg_port);

	for (uint32_t i = 0; i < to->desc.nports; i++) {
		const struct bsf_port_desc *d = &to->pdesc[i], *e = NULL;
		struct sonic_rport *r = &to->rp[i];
		const struct sonic_rport *q = NULL;
		struct sonic_robj *o;
		const struct sonic_robj *p;

		for (uint32_t k = 0; k < from->desc.nports && !e; k++)
			if (strcmp(from->pdesc[k].name, d->name) == 0) {
				e = &from->pdesc[k];
				q = &from->rp[k];
			}
		if (!e)
			continue;
		memcpy(r->ctr, q->ctr, sizeof r->ctr);
		if (same_dbg)
			memcpy(r->dbg, q->dbg, sizeof r->dbg);
		r->oper = q->oper;
		o = &to->objs[r->first_obj];
		p = &from->objs[q->first_obj];
		objs_carry(o, d->n_uc_queues, p, e->n_uc_queues);
		objs_carry(o + d->n_uc_queues, d->n_mc_queues, p + e->n_uc_queues, e->n_mc_queues);
		objs_carry(o + d->n_uc_queues + d->n_mc_queues, d->n_pgs,
			   p + e->n_uc_queues + e->n_mc_queues, e->n_pgs);
	}
	/* pools are in name order in both: the same count, the same pools
	 * (a change of pools is rare; their peaks restart then) */
	if (to->desc.n_ingress_pools == from->desc.n_ingress_pools &&
	    to->desc.n_egress_pools == from->desc.n_egress_pools)
		for (size_t j = 0; j < to->nobjs - to->first_pool; j++)
			obj_carry(&to->objs[to->first_pool + j], &from->objs[from->first_pool + j]);
	if (sonic_dbgs_same(&to->dbg_switch, &from->dbg_switch))
		memcpy(to->sw, from->sw, sizeof to->sw);
}
