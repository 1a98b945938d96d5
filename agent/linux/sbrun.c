/*
 * sbrun.c - the devlink shared-buffer source at run time (mlxsw, ocelot):
 * map the ports to devlink ports (DEVLINK_CMD_PORT_GET, physical flavour,
 * netdev ifindex), read the buffer and its pools, then every
 * buffer_poll_ms run SB_OCC_SNAPSHOT -> dump SB_TC_POOL_BIND_GET and
 * SB_PORT_POOL_GET -> SB_OCC_MAX_CLEAR, folding each object's hardware
 * maximum (which covers the time between two polls) into the peak windows
 * and keeping its current value.
 *
 * Layout (mlxsw's): egress TC q -> uc[q], egress TC 8+q -> mc[q], ingress
 * TC -> pg_shared[pg]; port-pool occupancy summed over the egress
 * (ingress) pools -> egress_uc (ingress_uc); pools -> the device's
 * pools, their occupancy the sum over the ports (a lower bound: devlink
 * has no pool-wide counter).  Allocation: a static threshold in bytes, or
 * for a dynamic one the most a lone queue can take, alpha / (1 + alpha) x
 * pool size (linuxbe_sb_alloc_bytes).  Cells = bytes / the pool's cell
 * size.  Only the first shared buffer (index 0) of the device is read.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include <libmnl/libmnl.h>
#include <linux/devlink.h>
#include <linux/genetlink.h>

#include "agent/linux/nl.h"
#include "agent/linux/state.h"

struct sb_pool {
	uint32_t index, type, size, thtype, cell;
	struct linuxbe_peak occ;
	uint64_t sum_cur, sum_max; /* this poll's sums over the ports */
	int slot;		   /* ingress_pool[] / egress_pool[] index, -1 none */
};

struct linuxbe_sb {
	uint16_t family;
	char bus[32], dev[64];
	struct sb_pool pools[2 * BSF_MAX_POOLS];
	unsigned npools;
	uint32_t cell, size;
	struct bsf_timer *timer;
	uint64_t polls;
};

static struct nlmsghdr *dl_req(struct linuxbe_st *st, void *buf, uint8_t cmd, int dump)
{
	struct nlmsghdr *nlh =
	    linuxbe_genl_req(buf, st->sb->family, cmd, DEVLINK_GENL_VERSION, dump ? NLM_F_DUMP : 0);

	if (st->sb->bus[0]) {
		mnl_attr_put_strz(nlh, DEVLINK_ATTR_BUS_NAME, st->sb->bus);
		mnl_attr_put_strz(nlh, DEVLINK_ATTR_DEV_NAME, st->sb->dev);
	}
	return nlh;
}

static struct sb_pool *pool_of(struct linuxbe_sb *sb, uint32_t index)
{
	unsigned i;

	for (i = 0; i < sb->npools; i++)
		if (sb->pools[i].index == index)
			return &sb->pools[i];
	return NULL;
}

static int port_cb(const struct nlmsghdr *nlh, size_t len, void *arg, char *err, size_t errlen)
{
	struct linuxbe_st *st = arg;
	struct linuxbe_sb_rec r;
	uint32_t p;

	if (linuxbe_sb_parse(nlh, len, &r, err, errlen) < 0)
		return -1;
	if (r.netdev_ifindex == UINT32_MAX || r.port_index == UINT32_MAX ||
	    (r.flavour != UINT32_MAX && r.flavour != DEVLINK_PORT_FLAVOUR_PHYSICAL))
		return 0;
	p = linuxbe_port_by_ifindex(st, r.netdev_ifindex);
	if (p == UINT32_MAX)
		return 0;
	if (!st->sb->bus[0]) {
		snprintf(st->sb->bus, sizeof st->sb->bus, "%s", r.bus);
		snprintf(st->sb->dev, sizeof st->sb->dev, "%s", r.dev);
	} else if (strcmp(st->sb->bus, r.bus) || strcmp(st->sb->dev, r.dev)) {
		return 0; /* one devlink device: the first one found */
	}
	st->ports[p].dl_port = r.port_index;
	return 0;
}

static int sbget_cb(const struct nlmsghdr *nlh, size_t len, void *arg, char *err, size_t errlen)
{
	struct linuxbe_st *st = arg;
	struct linuxbe_sb_rec r;
	uint32_t p;

	if (linuxbe_sb_parse(nlh, len, &r, err, errlen) < 0)
		return -1;
	if (r.sb_index != 0 || strcmp(r.bus, st->sb->bus) || strcmp(r.dev, st->sb->dev))
		return 0;
	st->sb->size = r.size;
	for (p = 0; p < st->nports; p++) {
		if (st->ports[p].dl_port == UINT32_MAX)
			continue;
		if (r.egress_tcs != UINT32_MAX) {
			st->descs[p].n_uc_queues = (uint8_t)(r.egress_tcs > 8 ? 8 : r.egress_tcs);
			st->descs[p].n_mc_queues =
			    (uint8_t)(r.egress_tcs > 8 ? r.egress_tcs - 8 : 0);
			if (st->descs[p].n_mc_queues > 8)
				st->descs[p].n_mc_queues = 8;
		}
		if (r.ingress_tcs != UINT32_MAX)
			st->descs[p].n_pgs = (uint8_t)(r.ingress_tcs > 8 ? 8 : r.ingress_tcs);
	}
	return 0;
}

static int pool_cb(const struct nlmsghdr *nlh, size_t len, void *arg, char *err, size_t errlen)
{
	struct linuxbe_st *st = arg;
	struct linuxbe_sb *sb = st->sb;
	struct linuxbe_sb_rec r;
	struct sb_pool *pl;

	if (linuxbe_sb_parse(nlh, len, &r, err, errlen) < 0)
		return -1;
	if (r.sb_index != 0 || r.pool_index == UINT32_MAX || sb->npools >= 2 * BSF_MAX_POOLS)
		return 0;
	pl = &sb->pools[sb->npools++];
	memset(pl, 0, sizeof *pl);
	pl->index = r.pool_index;
	pl->type = r.pool_type;
	pl->size = r.size;
	pl->thtype = r.threshold_type;
	pl->cell = r.cell_size != UINT32_MAX ? r.cell_size : 0;
	if (pl->cell && !sb->cell)
		sb->cell = pl->cell;
	if (pl->type == DEVLINK_SB_POOL_TYPE_INGRESS && st->dev.n_ingress_pools < BSF_MAX_POOLS)
		pl->slot = st->dev.n_ingress_pools++;
	else if (pl->type == DEVLINK_SB_POOL_TYPE_EGRESS && st->dev.n_egress_pools < BSF_MAX_POOLS)
		pl->slot = st->dev.n_egress_pools++;
	else
		pl->slot = -1;
	return 0;
}

/* Fold a hardware (cur, max) pair: the max is the peak since the last clear. */
static void fold_hw(struct linuxbe_peak *pk, uint64_t cur, uint64_t max, uint64_t alloc,
		    uint64_t now)
{
	if (cur == BSF_UNKNOWN)
		return;
	linuxbe_peak_fold(pk, max != BSF_UNKNOWN && max > cur ? max : cur, alloc, now);
	pk->cur = cur;
}

struct poll_ctx {
	struct linuxbe_st *st;
	uint64_t now;
};

static int bind_cb(const struct nlmsghdr *nlh, size_t len, void *arg, char *err, size_t errlen)
{
	struct poll_ctx *c = arg;
	struct linuxbe_st *st = c->st;
	struct linuxbe_sb_rec r;
	struct sb_pool *pl;
	struct linuxbe_port *pt;
	uint32_t p;
	uint64_t alloc;

	if (linuxbe_sb_parse(nlh, len, &r, err, errlen) < 0)
		return -1;
	for (p = 0; p < st->nports; p++)
		if (st->ports[p].dl_port == r.port_index)
			break;
	if (p == st->nports || r.sb_index != 0 || r.tc_index == UINT32_MAX)
		return 0;
	pt = &st->ports[p];
	pl = pool_of(st->sb, r.pool_index);
	alloc = linuxbe_sb_alloc_bytes(pl ? pl->thtype : UINT32_MAX, r.threshold,
				       pl ? pl->size : BSF_UNKNOWN);
	if (r.pool_type == DEVLINK_SB_POOL_TYPE_EGRESS) {
		if (r.tc_index < 8) {
			fold_hw(&pt->sb_uc[r.tc_index], r.occ_cur, r.occ_max, alloc, c->now);
			pt->sb_uc_alloc[r.tc_index] = alloc;
		} else if (r.tc_index < 16) {
			fold_hw(&pt->sb_mc[r.tc_index - 8], r.occ_cur, r.occ_max, alloc, c->now);
			pt->sb_mc_alloc[r.tc_index - 8] = alloc;
		}
	} else if (r.pool_type == DEVLINK_SB_POOL_TYPE_INGRESS && r.tc_index < BSF_MAX_PGS) {
		fold_hw(&pt->sb_pg[r.tc_index], r.occ_cur, r.occ_max, alloc, c->now);
		pt->sb_pg_alloc[r.tc_index] = alloc;
	}
	return 0;
}

struct pp_sum {
	uint64_t cur, max, alloc;
	int any;
};

static int portpool_cb(const struct nlmsghdr *nlh, size_t len, void *arg, char *err, size_t errlen)
{
	struct poll_ctx *c = arg;
	struct linuxbe_st *st = c->st;
	struct linuxbe_sb_rec r;
	struct sb_pool *pl;
	uint32_t p;

	if (linuxbe_sb_parse(nlh, len, &r, err, errlen) < 0)
		return -1;
	pl = pool_of(st->sb, r.pool_index);
	if (!pl || r.sb_index != 0 || r.occ_cur == BSF_UNKNOWN)
		return 0;
	for (p = 0; p < st->nports; p++)
		if (st->ports[p].dl_port == r.port_index)
			break;
	pl->sum_cur += r.occ_cur;
	pl->sum_max += r.occ_max != BSF_UNKNOWN ? r.occ_max : r.occ_cur;
	if (p < st->nports) {
		struct linuxbe_port *pt = &st->ports[p];
		struct linuxbe_peak *pk =
		    pl->type == DEVLINK_SB_POOL_TYPE_EGRESS ? &pt->sb_egress : &pt->sb_ingress;
		uint64_t *al = pl->type == DEVLINK_SB_POOL_TYPE_EGRESS ? &pt->sb_egress_alloc
								       : &pt->sb_ingress_alloc;

		*al = linuxbe_sb_alloc_bytes(pl->thtype, r.threshold, pl->size);
		fold_hw(pk, r.occ_cur, r.occ_max, *al, c->now);
	}
	return 0;
}

static int sb_cmd(struct linuxbe_st *st, uint8_t cmd, char *err, size_t errlen)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = dl_req(st, buf, cmd, 0);

	mnl_attr_put_u32(nlh, DEVLINK_ATTR_SB_INDEX, 0);
	return linuxbe_nl_exchange(st->genl, nlh, NULL, NULL, err, errlen);
}

static int sb_dump(struct linuxbe_st *st, uint8_t cmd, linuxbe_nl_cb cb, void *arg, char *err,
		   size_t errlen)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = dl_req(st, buf, cmd, 1);

	return linuxbe_nl_exchange(st->genl, nlh, cb, arg, err, errlen);
}

static int sb_poll(struct linuxbe_st *st, char *err, size_t errlen)
{
	struct poll_ctx c = {st, st->host->now_ns(st->host->arg)};
	unsigned i;
	int rc;

	rc = sb_cmd(st, DEVLINK_CMD_SB_OCC_SNAPSHOT, err, errlen);
	if (rc < 0)
		return rc;
	for (i = 0; i < st->sb->npools; i++)
		st->sb->pools[i].sum_cur = st->sb->pools[i].sum_max = 0;
	if (sb_dump(st, DEVLINK_CMD_SB_TC_POOL_BIND_GET, bind_cb, &c, err, errlen) < 0 ||
	    sb_dump(st, DEVLINK_CMD_SB_PORT_POOL_GET, portpool_cb, &c, err, errlen) < 0)
		return -1;
	for (i = 0; i < st->sb->npools; i++) {
		struct sb_pool *pl = &st->sb->pools[i];

		fold_hw(&pl->occ, pl->sum_cur, pl->sum_max, pl->size, c.now);
	}
	st->sb->polls++;
	return sb_cmd(st, DEVLINK_CMD_SB_OCC_MAX_CLEAR, err, errlen);
}

static void on_timer(void *arg)
{
	struct linuxbe_st *st = arg;
	char e[256];

	if (st->state[LINUXBE_SRC_SB] == LINUXBE_ACTIVE && sb_poll(st, e, sizeof e) < 0)
		linuxbe_src_fail(st, LINUXBE_SRC_SB, e);
}

/* bsf_buf from a devlink peak: bytes, and cells from the cell size */
static void sb_take(struct linuxbe_st *st, struct linuxbe_peak *pk, unsigned w, struct bsf_buf *out,
		    uint64_t alloc)
{
	uint32_t cell = st->sb->cell;

	linuxbe_peak_take(pk, w, out, alloc, 1);
	if (!pk->valid)
		return;
	if (cell) {
		out->cur_cells = out->cur_bytes / cell;
		out->peak_cells = out->peak_bytes / cell;
		if (out->alloc_cells != BSF_UNKNOWN)
			out->alloc_cells /= cell;
	}
}

int linuxbe_sb_port_buffers(struct linuxbe_st *st, unsigned w, uint32_t port,
			    struct bsf_port_buffers *out);
int linuxbe_sb_device_buffers(struct linuxbe_st *st, unsigned w, struct bsf_device_buffers *out);

int linuxbe_sb_port_buffers(struct linuxbe_st *st, unsigned w, uint32_t port,
			    struct bsf_port_buffers *out)
{
	struct linuxbe_port *p = &st->ports[port];
	unsigned q;

	for (q = 0; q < 8; q++) {
		sb_take(st, &p->sb_uc[q], w, &out->uc[q], p->sb_uc_alloc[q]);
		sb_take(st, &p->sb_mc[q], w, &out->mc[q], p->sb_mc_alloc[q]);
		sb_take(st, &p->sb_pg[q], w, &out->pg_shared[q], p->sb_pg_alloc[q]);
	}
	sb_take(st, &p->sb_egress, w, &out->egress_uc, p->sb_egress_alloc);
	sb_take(st, &p->sb_ingress, w, &out->ingress_uc, p->sb_ingress_alloc);
	return 0;
}

int linuxbe_sb_device_buffers(struct linuxbe_st *st, unsigned w, struct bsf_device_buffers *out)
{
	unsigned i;

	for (i = 0; i < st->sb->npools; i++) {
		struct sb_pool *pl = &st->sb->pools[i];

		if (pl->slot < 0)
			continue;
		if (pl->type == DEVLINK_SB_POOL_TYPE_INGRESS)
			sb_take(st, &pl->occ, w, &out->ingress_pool[pl->slot], pl->size);
		else
			sb_take(st, &pl->occ, w, &out->egress_pool[pl->slot], pl->size);
	}
	return 0;
}

int linuxbe_sb_open(struct linuxbe_st *st, char *why, size_t whylen)
{
	char e[256];
	uint32_t p;
	unsigned mapped = 0;
	int rc;

	if (!st->genl && !(st->genl = linuxbe_nl_open(NETLINK_GENERIC, e, sizeof e))) {
		snprintf(why, whylen, "sb absent (%s)", e);
		return -1;
	}
	st->sb = calloc(1, sizeof *st->sb);
	if (!st->sb) {
		snprintf(why, whylen, "sb absent (out of memory)");
		return -1;
	}
	rc = linuxbe_genl_resolve(st->genl, DEVLINK_GENL_NAME, &st->sb->family, NULL, NULL, e,
				  sizeof e);
	if (rc < 0) {
		snprintf(why, whylen, "sb absent (%s)", rc == -ENOENT ? "no devlink family" : e);
		goto absent;
	}
	if (sb_dump(st, DEVLINK_CMD_PORT_GET, port_cb, st, e, sizeof e) < 0) {
		snprintf(why, whylen, "sb absent (devlink ports: %s)", e);
		goto absent;
	}
	for (p = 0; p < st->nports; p++)
		mapped += st->ports[p].dl_port != UINT32_MAX;
	if (!mapped) {
		snprintf(why, whylen, "sb absent (no devlink port for the configured ports)");
		goto absent;
	}
	if (sb_dump(st, DEVLINK_CMD_SB_GET, sbget_cb, st, e, sizeof e) < 0 ||
	    sb_dump(st, DEVLINK_CMD_SB_POOL_GET, pool_cb, st, e, sizeof e) < 0) {
		snprintf(why, whylen, "sb absent (%s %s: %s)", st->sb->bus, st->sb->dev, e);
		goto absent;
	}
	rc = sb_poll(st, e, sizeof e);
	if (rc == -EPERM) {
		snprintf(why, whylen, "sb needs CAP_NET_ADMIN (occupancy snapshot on %s/%s)",
			 st->sb->bus, st->sb->dev);
		goto absent;
	}
	if (rc == -EOPNOTSUPP) {
		snprintf(why, whylen,
			 "sb absent (%s/%s has a shared buffer but no occupancy monitoring)",
			 st->sb->bus, st->sb->dev);
		goto absent;
	}
	if (rc < 0) {
		snprintf(why, whylen, "sb absent (%s/%s: %s)", st->sb->bus, st->sb->dev, e);
		goto absent;
	}
	st->dev.cell_bytes = st->sb->cell;
	st->dev.total_cells = st->sb->cell ? st->sb->size / st->sb->cell : 0;
	snprintf(st->dev.id, sizeof st->dev.id, "%.20s/%.40s", st->sb->bus, st->sb->dev);
	st->sb->timer = st->host->timer_new(st->host->arg, on_timer, st);
	if (!st->sb->timer ||
	    st->host->timer_start(st->sb->timer, (uint64_t)st->conf.buffer_poll_ms * 1000000u, 1) <
		0) {
		snprintf(why, whylen, "sb absent (cannot start its timer)");
		goto absent;
	}
	snprintf(why, whylen, "sb on %u port%s of %s/%s, %u pools (every %u ms)", mapped,
		 mapped == 1 ? "" : "s", st->sb->bus, st->sb->dev, st->sb->npools,
		 st->conf.buffer_poll_ms);
	return 0;
absent:
	for (p = 0; p < st->nports; p++)
		st->ports[p].dl_port = UINT32_MAX;
	st->dev.n_ingress_pools = st->dev.n_egress_pools = 0;
	linuxbe_sb_close(st);
	return -1;
}

int linuxbe_sb_ports(struct linuxbe_st *st, char *why, size_t whylen)
{
	char e[256];
	uint32_t p;

	for (p = 0; p < st->nports; p++)
		st->ports[p].dl_port = UINT32_MAX;
	if (sb_dump(st, DEVLINK_CMD_PORT_GET, port_cb, st, e, sizeof e) < 0 ||
	    sb_dump(st, DEVLINK_CMD_SB_GET, sbget_cb, st, e, sizeof e) < 0) {
		snprintf(why, whylen, "mapping the devlink ports of %s/%s: %s", st->sb->bus,
			 st->sb->dev, e);
		return -1;
	}
	return 0;
}

void linuxbe_sb_close(struct linuxbe_st *st)
{
	if (!st->sb)
		return;
	if (st->sb->timer)
		st->host->timer_free(st->sb->timer);
	free(st->sb);
	st->sb = NULL;
}
