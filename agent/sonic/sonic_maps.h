/*
 * sonic_maps.h - SONiC's maps and buffer configuration as the backend
 * uses them: the tables read from Redis (struct sonic_tables, filled one
 * reply at a time) and the device built from them (struct sonic_dev:
 * front-panel ports with their SAI object ids, queues, PGs, pools and the
 * allocation of each).
 *
 * What is read (SONiC's schema, from its public design documents and
 * sources; database numbers from database_config.json):
 *   CONFIG_DB   PORT|<name>            index, alias, speed (Mb/s),
 *                                      admin_status, role
 *               BUFFER_POOL|<pool>     size, type (ingress|egress), mode
 *               BUFFER_PROFILE|<p>     pool, size, static_th | dynamic_th
 *                                      (log2 alpha), xoff
 *               BUFFER_QUEUE|<ports>|<q or a-b>   profile
 *               BUFFER_PG|<ports>|<pg or a-b>     profile
 *               DEBUG_COUNTER|<name>   type (PORT_INGRESS_DROPS,
 *                                      PORT_EGRESS_DROPS, SWITCH_INGRESS_DROPS,
 *                                      SWITCH_EGRESS_DROPS), alias
 *               DEBUG_COUNTER_DROP_REASON|<name>|<reason>   (keys only)
 *   APPL_DB     BUFFER_POOL_TABLE:<pool>, BUFFER_PROFILE_TABLE:<p>,
 *               BUFFER_QUEUE_TABLE:<ports>:<queues>,
 *               BUFFER_PG_TABLE:<ports>:<pgs>   the same fields, as the
 *                                      buffer manager put them in force
 *                                      (the dynamic buffer model computes
 *                                      pool sizes and headroom profiles
 *                                      here, not in CONFIG_DB)
 *   ASIC_DB     ASIC_STATE:SAI_OBJECT_TYPE_SWITCH:<oid>   (keys only: the
 *                                      switch's object id)
 *   COUNTERS_DB COUNTERS_PORT_NAME_MAP        name -> oid
 *               COUNTERS_QUEUE_NAME_MAP       "<port>:<q>" -> oid
 *               COUNTERS_QUEUE_TYPE_MAP       oid -> SAI_QUEUE_TYPE_UNICAST
 *                                             | SAI_QUEUE_TYPE_MULTICAST
 *               COUNTERS_PG_NAME_MAP          "<port>:<pg>" -> oid
 *               COUNTERS_BUFFER_POOL_NAME_MAP pool -> oid
 *               COUNTERS_DEBUG_NAME_PORT_STAT_MAP    debug counter name ->
 *                                      its field in COUNTERS:<port oid>
 *                                      (SAI_PORT_STAT_IN_CONFIGURED_DROP_
 *                                      REASONS_<n>_DROPPED_PKTS, ..._OUT_...)
 *               COUNTERS_DEBUG_NAME_SWITCH_STAT_MAP  the same, its field in
 *                                      COUNTERS:<switch oid>
 *
 * Precedence of the buffer configuration: each object (a queue's or PG's
 * binding, a profile, a pool) is taken from APPL_DB when APPL_DB has it,
 * else from CONFIG_DB; a reference is resolved the same way.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_SONIC_MAPS_H
#define BSFLOWD_AGENT_SONIC_MAPS_H

#include <stddef.h>
#include <stdint.h>

#include "agent/backend.h"

struct redisReply;

#define SONIC_OID_MAX 48

/* ---- what was read ---- */

/* One hash: its key (without the table prefix) and its fields as pairs. */
struct sonic_row {
	char *key;
	size_t nf; /* fields */
	char **f;  /* f[2i] name, f[2i+1] value */
};

struct sonic_rows {
	size_t n, cap;
	struct sonic_row *r;
};

enum sonic_table {
	SONIC_T_PORT = 0, /* CONFIG_DB hashes */
	SONIC_T_POOL,
	SONIC_T_PROFILE,
	SONIC_T_QUEUE,
	SONIC_T_PG,
	SONIC_T_DBG,	    /* DEBUG_COUNTER */
	SONIC_T_DBG_REASON, /* DEBUG_COUNTER_DROP_REASON: keys only */
	SONIC_T_APOOL,	    /* APPL_DB hashes */
	SONIC_T_APROFILE,
	SONIC_T_AQUEUE,
	SONIC_T_APG,
	SONIC_T_SWITCH,	  /* ASIC_DB: keys only */
	SONIC_T_PORT_MAP, /* COUNTERS_DB maps: one row each, key "" */
	SONIC_T_QUEUE_MAP,
	SONIC_T_QTYPE_MAP,
	SONIC_T_PG_MAP,
	SONIC_T_POOL_MAP,
	SONIC_T_DBG_PORT_MAP,
	SONIC_T_DBG_SWITCH_MAP,
	SONIC_T_N
};

enum sonic_db { SONIC_DB_CONFIG = 0, SONIC_DB_APPL, SONIC_DB_COUNTERS, SONIC_DB_ASIC };

/* The Redis key of each table's hashes ("PORT|"), or of its map; the
 * database each is in; whether each row's fields are read (HGETALL) or
 * only its key (the keys of SONIC_T_DBG_REASON and SONIC_T_SWITCH say
 * all there is). */
extern const char *const sonic_table_key[SONIC_T_N];
extern const unsigned char sonic_table_db[SONIC_T_N];
extern const unsigned char sonic_table_fields[SONIC_T_N];
#define SONIC_T_FIRST_MAP SONIC_T_PORT_MAP

struct sonic_tables {
	struct sonic_rows t[SONIC_T_N];
	unsigned bad; /* replies of the wrong shape */
};

void sonic_tables_free(struct sonic_tables *t);
/* A KEYS reply of table t's hashes: a row per key (no fields yet); 0, or
 * -1 (not an array of strings: counted in bad). */
int sonic_tables_add_keys(struct sonic_tables *t, enum sonic_table tab, const struct redisReply *r);
/* The HGETALL reply of row i of table tab (or, for a map, of the map
 * itself: i ignored).  0, or -1 (wrong shape: counted in bad; the row
 * keeps no fields). */
int sonic_tables_set_fields(struct sonic_tables *t, enum sonic_table tab, size_t i,
			    const struct redisReply *r);
/* Add field name = value to the row of table tab keyed key (created if
 * need be).  0, or -1 (out of memory). */
int sonic_tables_add_field(struct sonic_tables *t, enum sonic_table tab, const char *key,
			   const char *name, const char *value);
/* Field name of row, or NULL. */
const char *sonic_row_get(const struct sonic_row *row, const char *name);

/* ---- what was built ---- */

struct sonic_obj {
	char oid[SONIC_OID_MAX]; /* "" if the map has none */
	unsigned idx;		 /* SONiC's index (queue, PG) */
	uint64_t alloc;		 /* bytes, SONIC_UNKNOWN if not known */
	uint64_t alloc2;	 /* PGs: headroom (xoff) bytes */
};

struct sonic_port {
	char name[BSF_NAME_MAX];
	char oid[SONIC_OID_MAX];
	uint32_t ifindex;
	uint64_t speed_bps;
	uint32_t admin_up; /* 0, 1, or BSF_UNKNOWN32 */
	unsigned nuc, nmc, npg;
	struct sonic_obj uc[BSF_MAX_QUEUES], mc[BSF_MAX_QUEUES], pg[BSF_MAX_PGS];
};

struct sonic_pool {
	char name[BSF_NAME_MAX];
	char oid[SONIC_OID_MAX];
	uint64_t size; /* bytes, SONIC_UNKNOWN */
};

/* A configured drop counter (SONiC's debug counters), port- or
 * switch-level. */
#define SONIC_DBG_MAX	  16  /* of each level (SAI has 8 in + 8 out) */
#define SONIC_DBG_NAME	  32  /* as E:11 carries them */
#define SONIC_DBG_REASONS 128 /* the reasons, comma-separated */
#define SONIC_DIR_UNKNOWN 0xFFFFFFFFu

struct sonic_dbg {
	char name[SONIC_DBG_NAME + 1], alias[SONIC_DBG_NAME + 1];
	char stat[96];	    /* its field in COUNTERS:<oid> */
	uint32_t direction; /* 0 ingress, 1 egress, SONIC_DIR_UNKNOWN */
	uint32_t code;	    /* sFlow reason code of all its reasons, or UINT32_MAX */
	char reasons[SONIC_DBG_REASONS + 1];
};

struct sonic_dbgs {
	unsigned n;
	struct sonic_dbg c[SONIC_DBG_MAX];
};

struct sonic_dev {
	uint32_t nports;
	struct sonic_port *ports;
	unsigned ning, negr;
	struct sonic_pool ing[BSF_MAX_POOLS], egr[BSF_MAX_POOLS];
	struct sonic_dbgs dbg_port, dbg_switch; /* by name */
	char switch_oid[SONIC_OID_MAX];		/* "" if ASIC_DB has none */
};

/* Build dev from t: the ports named like pattern (fnmatch), whose role is
 * absent or Ext, with an index (ifIndex = index + ifindex_offset, not 0,
 * unique), in ifIndex order.  What is skipped or malformed is logged
 * through log(arg, priority, ...) (NULL: silent).  0, or -1 (out of
 * memory). */
int sonic_dev_build(struct sonic_dev *dev, const struct sonic_tables *t, const char *pattern,
		    unsigned ifindex_offset,
		    void (*log)(void *arg, int priority, const char *fmt, ...)
			BSF_PRINTF_LIKE(3, 4),
		    void *arg);
void sonic_dev_free(struct sonic_dev *dev);

/* The drop counters of the COUNTERS_DB stat map map (SONIC_T_DBG_PORT_MAP
 * or SONIC_T_DBG_SWITCH_MAP) with their direction, alias and reasons from
 * CONFIG_DB, sorted by name (at most SONIC_DBG_MAX; names longer than
 * SONIC_DBG_NAME left out, reasons cut at a comma to fit). */
void sonic_dbgs_build(struct sonic_dbgs *out, const struct sonic_tables *t, enum sonic_table map);
/* Whether a and b are the same counters (names and fields, in order). */
int sonic_dbgs_same(const struct sonic_dbgs *a, const struct sonic_dbgs *b);

/* The port of dev named name, or NULL. */
const struct sonic_port *sonic_dev_port(const struct sonic_dev *dev, const char *name);

#endif
