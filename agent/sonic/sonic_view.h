/*
 * sonic_view.h - the sonic backend's device as the daemon sees it: the
 * description describe() returns (its ports in ifIndex order, their
 * queue and PG counts, the pools) and, for each port, queue, PG and pool
 * of it, the Redis commands of a poll cycle and the values they brought.
 *
 * A view is built from SONiC's maps (sonic_maps.h).  While the maps
 * change without changing the description (object ids after a `config
 * reload`, allocations), the view in force is kept and its commands are
 * made again; when the description changes (ports added or removed, a
 * breakout, other queue counts), a new view is built and the backend
 * hands it over at its next describe() (backend.h, DEVICE CHANGES),
 * carrying over the values of the ports that stay.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_SONIC_VIEW_H
#define BSFLOWD_AGENT_SONIC_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "agent/backend.h"
#include "agent/sonic/sonic_maps.h"

/* 0:1 fields then 0:2 fields, in struct order (sonic_ctr_fields) */
#define SONIC_NIF  13
#define SONIC_NETH 13
#define SONIC_NCTR (SONIC_NIF + SONIC_NETH)
extern const char *const sonic_ctr_fields[SONIC_NCTR];

/* A watermark: what this cycle read and what was kept. */
struct sonic_wm {
	uint64_t in_ctr, in_per; /* this cycle: COUNTERS, PERIODIC_WATERMARKS */
	uint64_t latest;
	uint64_t peak[BSF_WINDOWS]; /* largest since the window's last read */
};

enum sonic_obj_kind { SONIC_OBJ_QUEUE = 0, SONIC_OBJ_PG, SONIC_OBJ_POOL };

/* A queue, PG or pool as polled. */
struct sonic_robj {
	char *cmd_ctr, *cmd_per; /* formatted HMGETs; NULL: no oid */
	size_t len_ctr, len_per;
	int kind; /* enum sonic_obj_kind */
	int nwm;  /* watermarks: PGs 2 (shared, headroom), others 1 */
	struct sonic_wm w[2];
	uint64_t in_cur, cur;
	uint64_t in_drop[2], drop[2]; /* queues: dropped packets, bytes */
};

struct sonic_rport {
	char *cmd_ctr, *cmd_oper;
	size_t len_ctr, len_oper;
	uint64_t in_ctr[SONIC_NCTR], ctr[SONIC_NCTR];
	uint64_t in_dbg[SONIC_DBG_MAX], dbg[SONIC_DBG_MAX]; /* view's dbg_port order */
	uint32_t in_oper, oper;
	size_t first_obj; /* its objects: uc, mc then pg, from here in objs */
};

struct sonic_view {
	struct bsf_device_desc desc;
	struct bsf_port_desc *pdesc;
	struct sonic_rport *rp;		/* desc.nports */
	const struct sonic_port **pmap; /* desc port -> port of the maps, or NULL */
	struct sonic_robj *objs;	/* per port uc, mc, pg; then pools */
	size_t nobjs, first_pool;	/* ingress pools then egress pools */
	/* the drop counters the commands ask for (and the values hold) */
	struct sonic_dbgs dbg_port, dbg_switch;
	char *cmd_sw; /* HMGET of the switch's drop counters; NULL: none */
	size_t len_sw;
	uint64_t in_sw[SONIC_DBG_MAX], sw[SONIC_DBG_MAX];
};

/* A view of dev (its ports' pmap pointing into dev), every value unknown,
 * its commands made.  fallback: the ports came from config_db.json (no
 * maps): 8 unicast, 8 multicast queues and 8 PGs assumed.  NULL if out of
 * memory. */
struct sonic_view *sonic_view_new(const struct sonic_dev *dev, int fallback);
void sonic_view_free(struct sonic_view *v);
/* Point v at the maps dev (ports by name: NULL for those gone) and make
 * its commands again; drop counters that changed have unknown values
 * until the next poll.  0, or -1 (out of memory: pointed at dev all the
 * same, some commands missing). */
int sonic_view_remap(struct sonic_view *v, const struct sonic_dev *dev);
/* Whether a and b describe the same device (ports, their ifIndex, name,
 * speed and counts; pools). */
int sonic_view_same(const struct sonic_view *a, const struct sonic_view *b);
/* Carry the values of from's ports (by name: counters, watermarks and
 * their peaks, occupancy, drops) and pools into to, and its switch drop
 * counters. */
void sonic_view_carry(struct sonic_view *to, const struct sonic_view *from);

#endif
