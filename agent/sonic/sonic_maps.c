/*
 * sonic_maps.c - SONiC's tables as read from Redis and the device built
 * from them (see sonic_maps.h).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <fnmatch.h>
#include <hiredis/hiredis.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <syslog.h>

#include "agent/sonic/sonic_drops.h"
#include "agent/sonic/sonic_maps.h"
#include "agent/sonic/sonic_parse.h"

const char *const sonic_table_key[SONIC_T_N] = {
    "PORT|",
    "BUFFER_POOL|",
    "BUFFER_PROFILE|",
    "BUFFER_QUEUE|",
    "BUFFER_PG|",
    "DEBUG_COUNTER|",
    "DEBUG_COUNTER_DROP_REASON|",
    "BUFFER_POOL_TABLE:",
    "BUFFER_PROFILE_TABLE:",
    "BUFFER_QUEUE_TABLE:",
    "BUFFER_PG_TABLE:",
    "ASIC_STATE:SAI_OBJECT_TYPE_SWITCH:",
    "COUNTERS_PORT_NAME_MAP",
    "COUNTERS_QUEUE_NAME_MAP",
    "COUNTERS_QUEUE_TYPE_MAP",
    "COUNTERS_PG_NAME_MAP",
    "COUNTERS_BUFFER_POOL_NAME_MAP",
    "COUNTERS_DEBUG_NAME_PORT_STAT_MAP",
    "COUNTERS_DEBUG_NAME_SWITCH_STAT_MAP",
};

const unsigned char sonic_table_db[SONIC_T_N] = {
    SONIC_DB_CONFIG,   SONIC_DB_CONFIG,	  SONIC_DB_CONFIG,   SONIC_DB_CONFIG,	SONIC_DB_CONFIG,
    SONIC_DB_CONFIG,   SONIC_DB_CONFIG,	  SONIC_DB_APPL,     SONIC_DB_APPL,	SONIC_DB_APPL,
    SONIC_DB_APPL,     SONIC_DB_ASIC,	  SONIC_DB_COUNTERS, SONIC_DB_COUNTERS, SONIC_DB_COUNTERS,
    SONIC_DB_COUNTERS, SONIC_DB_COUNTERS, SONIC_DB_COUNTERS, SONIC_DB_COUNTERS,
};

const unsigned char sonic_table_fields[SONIC_T_N] = {
    1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1,
};

static void row_free_fields(struct sonic_row *row)
{
	for (size_t i = 0; i < 2 * row->nf; i++)
		free(row->f[i]);
	free(row->f);
	row->f = NULL;
	row->nf = 0;
}

void sonic_tables_free(struct sonic_tables *t)
{
	for (int k = 0; k < SONIC_T_N; k++) {
		for (size_t i = 0; i < t->t[k].n; i++) {
			row_free_fields(&t->t[k].r[i]);
			free(t->t[k].r[i].key);
		}
		free(t->t[k].r);
	}
	memset(t, 0, sizeof *t);
}

static struct sonic_row *rows_add(struct sonic_rows *rs, const char *key, size_t len)
{
	struct sonic_row *row;

	if (rs->n == rs->cap) {
		size_t nc = rs->cap ? rs->cap * 2 : 64;
		struct sonic_row *nr = realloc(rs->r, nc * sizeof *nr);

		if (!nr)
			return NULL;
		rs->r = nr;
		rs->cap = nc;
	}
	row = &rs->r[rs->n];
	memset(row, 0, sizeof *row);
	row->key = malloc(len + 1);
	if (!row->key)
		return NULL;
	memcpy(row->key, key, len);
	row->key[len] = '\0';
	rs->n++;
	return row;
}

int sonic_tables_add_keys(struct sonic_tables *t, enum sonic_table tab, const redisReply *r)
{
	size_t plen = strlen(sonic_table_key[tab]);

	if (!r || r->type != REDIS_REPLY_ARRAY) {
		t->bad++;
		return -1;
	}
	for (size_t i = 0; i < r->elements; i++) {
		const redisReply *e = r->element[i];

		if (!e || e->type != REDIS_REPLY_STRING || e->len <= plen ||
		    memcmp(e->str, sonic_table_key[tab], plen) != 0 ||
		    memchr(e->str, '\0', e->len)) {
			t->bad++;
			continue;
		}
		if (!rows_add(&t->t[tab], e->str + plen, e->len - plen))
			return -1;
	}
	return 0;
}

static char *dupn(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

int sonic_tables_set_fields(struct sonic_tables *t, enum sonic_table tab, size_t i,
			    const redisReply *r)
{
	struct sonic_row *row;
	size_t n;

	if (tab >= SONIC_T_FIRST_MAP) {
		if (t->t[tab].n == 0 && !rows_add(&t->t[tab], "", 0))
			return -1;
		i = 0;
	}
	if (i >= t->t[tab].n)
		return -1;
	row = &t->t[tab].r[i];
	row_free_fields(row);
	if (!r || r->type != REDIS_REPLY_ARRAY || r->elements % 2) {
		t->bad++;
		return -1;
	}
	n = r->elements / 2;
	row->f = calloc(2 * n + 1, sizeof *row->f);
	if (!row->f)
		return -1;
	row->nf = n; /* the slots not filled yet are NULL: freed as such */
	for (size_t k = 0; k < 2 * n; k++) {
		const redisReply *e = r->element[k];

		if (!e || e->type != REDIS_REPLY_STRING || memchr(e->str, '\0', e->len)) {
			t->bad++;
			row_free_fields(row);
			return -1;
		}
		row->f[k] = dupn(e->str, e->len);
		if (!row->f[k]) {
			row_free_fields(row);
			return -1;
		}
	}
	return 0;
}

int sonic_tables_add_field(struct sonic_tables *t, enum sonic_table tab, const char *key,
			   const char *name, const char *value)
{
	struct sonic_rows *rs = &t->t[tab];
	struct sonic_row *row = NULL;
	char **nf;

	for (size_t i = 0; i < rs->n && !row; i++)
		if (strcmp(rs->r[i].key, key) == 0)
			row = &rs->r[i];
	if (!row && !(row = rows_add(rs, key, strlen(key))))
		return -1;
	nf = realloc(row->f, (2 * row->nf + 3) * sizeof *nf);
	if (!nf)
		return -1;
	row->f = nf;
	nf[2 * row->nf] = dupn(name, strlen(name));
	nf[2 * row->nf + 1] = dupn(value, strlen(value));
	if (!nf[2 * row->nf] || !nf[2 * row->nf + 1]) {
		free(nf[2 * row->nf]);
		free(nf[2 * row->nf + 1]);
		return -1;
	}
	row->nf++;
	return 0;
}

const char *sonic_row_get(const struct sonic_row *row, const char *name)
{
	for (size_t i = 0; row && i < row->nf; i++)
		if (strcmp(row->f[2 * i], name) == 0)
			return row->f[2 * i + 1];
	return NULL;
}

static const struct sonic_row *find_row(const struct sonic_rows *rs, const char *key)
{
	for (size_t i = 0; i < rs->n; i++)
		if (strcmp(rs->r[i].key, key) == 0)
			return &rs->r[i];
	return NULL;
}

static const struct sonic_row *map_of(const struct sonic_tables *t, enum sonic_table tab)
{
	return t->t[tab].n ? &t->t[tab].r[0] : NULL;
}

static uint64_t field_u64(const struct sonic_row *row, const char *name)
{
	const char *v = sonic_row_get(row, name);
	uint64_t x;

	return v && sonic_parse_u64(v, strlen(v), &x) == 0 ? x : SONIC_UNKNOWN;
}

/* ---- building ---- */

static int cmp_port(const void *a, const void *b)
{
	const struct sonic_port *x = a, *y = b;

	return x->ifindex < y->ifindex ? -1 : x->ifindex > y->ifindex;
}

static int cmp_pool(const void *a, const void *b)
{
	return strcmp(((const struct sonic_pool *)a)->name, ((const struct sonic_pool *)b)->name);
}

#define LOG(...)                                                                                   \
	do {                                                                                       \
		if (log)                                                                           \
			log(arg, __VA_ARGS__);                                                     \
	} while (0)

static int build_ports(struct sonic_dev *dev, const struct sonic_tables *t, const char *pattern,
		       unsigned off,
		       void (*log)(void *arg, int priority, const char *fmt, ...)
			   BSF_PRINTF_LIKE(3, 4),
		       void *arg)
{
	const struct sonic_rows *rs = &t->t[SONIC_T_PORT];
	const struct sonic_row *pmap = map_of(t, SONIC_T_PORT_MAP);
	uint32_t n = 0;

	dev->ports = calloc(rs->n + 1, sizeof *dev->ports);
	if (!dev->ports)
		return -1;
	for (size_t i = 0; i < rs->n; i++) {
		const struct sonic_row *row = &rs->r[i];
		const char *role = sonic_row_get(row, "role");
		const char *admin = sonic_row_get(row, "admin_status");
		const char *oid = sonic_row_get(pmap, row->key);
		uint64_t index = field_u64(row, "index"), speed = field_u64(row, "speed");
		struct sonic_port *p = &dev->ports[n];

		if (fnmatch(pattern, row->key, 0) != 0 || strlen(row->key) >= sizeof p->name)
			continue;
		if (role && strcasecmp(role, "Ext") != 0)
			continue; /* internal, inband, recirculation: not front panel */
		if (index == SONIC_UNKNOWN || index + off == 0 || index + off > UINT32_MAX) {
			LOG(LOG_WARNING, "sonic: CONFIG_DB PORT|%s: no usable index (%s): left out",
			    row->key,
			    sonic_row_get(row, "index") ? sonic_row_get(row, "index") : "none");
			continue;
		}
		snprintf(p->name, sizeof p->name, "%s", row->key);
		p->ifindex = (uint32_t)(index + off);
		p->speed_bps = speed == SONIC_UNKNOWN || speed > UINT64_MAX / 1000000u
				   ? SONIC_UNKNOWN
				   : speed * 1000000u;
		p->admin_up = !admin ? BSF_UNKNOWN32 : strcmp(admin, "up") == 0 ? 1 : 0;
		if (oid && strlen(oid) < sizeof p->oid)
			snprintf(p->oid, sizeof p->oid, "%s", oid);
		else if (pmap)
			LOG(LOG_WARNING,
			    "sonic: port %s: not in COUNTERS_PORT_NAME_MAP: its counters are "
			    "unknown",
			    p->name);
		n++;
	}
	qsort(dev->ports, n, sizeof *dev->ports, cmp_port);
	/* one port per ifIndex */
	for (uint32_t i = 1; i < n; i++) {
		if (dev->ports[i].ifindex == dev->ports[i - 1].ifindex) {
			LOG(LOG_WARNING, "sonic: ports %s and %s have the same index: %s left out",
			    dev->ports[i - 1].name, dev->ports[i].name, dev->ports[i].name);
			memmove(&dev->ports[i], &dev->ports[i + 1],
				(n - i - 1) * sizeof *dev->ports);
			n--;
			i--;
		}
	}
	dev->nports = n;
	if (!pmap)
		LOG(LOG_WARNING, "sonic: no COUNTERS_PORT_NAME_MAP (flex counters not enabled?): "
				 "port counters unknown");
	return 0;
}

static struct sonic_port *port_named(struct sonic_dev *dev, const char *name)
{
	for (uint32_t i = 0; i < dev->nports; i++)
		if (strcmp(dev->ports[i].name, name) == 0)
			return &dev->ports[i];
	return NULL;
}

const struct sonic_port *sonic_dev_port(const struct sonic_dev *dev, const char *name)
{
	return port_named((struct sonic_dev *)dev, name);
}

/* Insert o into arr (n used, max) in idx order. */
static void obj_insert(struct sonic_obj *arr, unsigned *n, unsigned max, const struct sonic_obj *o)
{
	unsigned i = *n;

	if (*n == max)
		return;
	while (i > 0 && arr[i - 1].idx > o->idx) {
		arr[i] = arr[i - 1];
		i--;
	}
	arr[i] = *o;
	(*n)++;
}

static void build_objs(struct sonic_dev *dev, const struct sonic_tables *t)
{
	const struct sonic_row *qm = map_of(t, SONIC_T_QUEUE_MAP);
	const struct sonic_row *tm = map_of(t, SONIC_T_QTYPE_MAP);
	const struct sonic_row *gm = map_of(t, SONIC_T_PG_MAP);
	char name[BSF_NAME_MAX];
	struct sonic_obj o;
	struct sonic_port *p;

	for (size_t i = 0; qm && i < qm->nf; i++) {
		const char *type;

		memset(&o, 0, sizeof o);
		o.alloc = o.alloc2 = SONIC_UNKNOWN;
		if (sonic_parse_obj_key(qm->f[2 * i], name, sizeof name, &o.idx) < 0 ||
		    !(p = port_named(dev, name)) || strlen(qm->f[2 * i + 1]) >= sizeof o.oid)
			continue;
		snprintf(o.oid, sizeof o.oid, "%s", qm->f[2 * i + 1]);
		type = sonic_row_get(tm, o.oid);
		if (type && strcmp(type, "SAI_QUEUE_TYPE_MULTICAST") == 0)
			obj_insert(p->mc, &p->nmc, BSF_MAX_QUEUES, &o);
		else /* unicast, or "all" */
			obj_insert(p->uc, &p->nuc, BSF_MAX_QUEUES, &o);
	}
	for (size_t i = 0; gm && i < gm->nf; i++) {
		memset(&o, 0, sizeof o);
		o.alloc = o.alloc2 = SONIC_UNKNOWN;
		if (sonic_parse_obj_key(gm->f[2 * i], name, sizeof name, &o.idx) < 0 ||
		    !(p = port_named(dev, name)) || strlen(gm->f[2 * i + 1]) >= sizeof o.oid)
			continue;
		snprintf(o.oid, sizeof o.oid, "%s", gm->f[2 * i + 1]);
		obj_insert(p->pg, &p->npg, BSF_MAX_PGS, &o);
	}
}

/* The row keyed key of APPL_DB's table appl, else of CONFIG_DB's table
 * cfg (the precedence of the buffer configuration), or NULL. */
static const struct sonic_row *either(const struct sonic_tables *t, enum sonic_table appl,
				      enum sonic_table cfg, const char *key)
{
	const struct sonic_row *r = find_row(&t->t[appl], key);

	return r ? r : find_row(&t->t[cfg], key);
}

static void add_pool(struct sonic_dev *dev, const struct sonic_tables *t, const char *name)
{
	const struct sonic_row *pm = map_of(t, SONIC_T_POOL_MAP);
	const struct sonic_row *row = either(t, SONIC_T_APOOL, SONIC_T_POOL, name);
	const char *type = sonic_row_get(row, "type"), *oid = sonic_row_get(pm, name);
	int egress = type && strcmp(type, "egress") == 0;
	struct sonic_pool *p;

	if (!type || strlen(name) >= sizeof p->name)
		return;
	for (unsigned i = 0; i < dev->ning; i++)
		if (strcmp(dev->ing[i].name, name) == 0)
			return;
	for (unsigned i = 0; i < dev->negr; i++)
		if (strcmp(dev->egr[i].name, name) == 0)
			return;
	if (egress ? dev->negr == BSF_MAX_POOLS : dev->ning == BSF_MAX_POOLS)
		return;
	p = egress ? &dev->egr[dev->negr++] : &dev->ing[dev->ning++];
	memset(p, 0, sizeof *p);
	snprintf(p->name, sizeof p->name, "%s", name);
	if (oid && strlen(oid) < sizeof p->oid)
		snprintf(p->oid, sizeof p->oid, "%s", oid);
	p->size = field_u64(row, "size");
}

/* The pools of either database (each once, APPL_DB's row first). */
static void build_pools(struct sonic_dev *dev, const struct sonic_tables *t)
{
	for (size_t i = 0; i < t->t[SONIC_T_APOOL].n; i++)
		add_pool(dev, t, t->t[SONIC_T_APOOL].r[i].key);
	for (size_t i = 0; i < t->t[SONIC_T_POOL].n; i++)
		add_pool(dev, t, t->t[SONIC_T_POOL].r[i].key);
	qsort(dev->ing, dev->ning, sizeof dev->ing[0], cmp_pool);
	qsort(dev->egr, dev->negr, sizeof dev->egr[0], cmp_pool);
}

/* The allocation of one queue or PG under profile ref; xoff: its xoff. */
static uint64_t profile_alloc(const struct sonic_tables *t, const char *ref, uint64_t *xoff)
{
	char name[128], pool[128];
	const struct sonic_row *prof, *pl;
	const char *dyn, *pref;
	int k = 0, have_dyn = 0;

	*xoff = SONIC_UNKNOWN;
	if (!ref || sonic_parse_ref(ref, name, sizeof name) < 0 ||
	    !(prof = either(t, SONIC_T_APROFILE, SONIC_T_PROFILE, name)))
		return SONIC_UNKNOWN;
	*xoff = field_u64(prof, "xoff");
	dyn = sonic_row_get(prof, "dynamic_th");
	if (dyn && sonic_parse_small_int(dyn, &k) == 0)
		have_dyn = 1;
	pref = sonic_row_get(prof, "pool");
	pl = pref && sonic_parse_ref(pref, pool, sizeof pool) == 0
		 ? either(t, SONIC_T_APOOL, SONIC_T_POOL, pool)
		 : NULL;
	return sonic_alloc_bytes(field_u64(prof, "static_th"), have_dyn, k,
				 pl ? field_u64(pl, "size") : SONIC_UNKNOWN);
}

static void bind(struct sonic_dev *dev, const struct sonic_tables *t, enum sonic_table tab)
{
	const struct sonic_rows *rs = &t->t[tab];
	char ports[1024];
	unsigned lo, hi;

	for (size_t i = 0; i < rs->n; i++) {
		uint64_t xoff, a;

		if (sonic_parse_binding(rs->r[i].key, ports, sizeof ports, &lo, &hi) < 0)
			continue;
		a = profile_alloc(t, sonic_row_get(&rs->r[i], "profile"), &xoff);
		for (uint32_t k = 0; k < dev->nports; k++) {
			struct sonic_port *p = &dev->ports[k];

			if (!sonic_list_has(ports, p->name))
				continue;
			if (tab == SONIC_T_QUEUE || tab == SONIC_T_AQUEUE) {
				for (unsigned j = 0; j < p->nuc; j++)
					if (p->uc[j].idx >= lo && p->uc[j].idx <= hi)
						p->uc[j].alloc = a;
				for (unsigned j = 0; j < p->nmc; j++)
					if (p->mc[j].idx >= lo && p->mc[j].idx <= hi)
						p->mc[j].alloc = a;
			} else {
				for (unsigned j = 0; j < p->npg; j++)
					if (p->pg[j].idx >= lo && p->pg[j].idx <= hi) {
						p->pg[j].alloc = a;
						p->pg[j].alloc2 = xoff;
					}
			}
		}
	}
}

int sonic_dev_build(struct sonic_dev *dev, const struct sonic_tables *t, const char *pattern,
		    unsigned ifindex_offset,
		    void (*log)(void *arg, int priority, const char *fmt, ...)
			BSF_PRINTF_LIKE(3, 4),
		    void *arg)
{
	memset(dev, 0, sizeof *dev);
	if (build_ports(dev, t, pattern, ifindex_offset, log, arg) < 0)
		return -1;
	build_objs(dev, t);
	build_pools(dev, t);
	/* CONFIG_DB's bindings, then APPL_DB's over them */
	bind(dev, t, SONIC_T_QUEUE);
	bind(dev, t, SONIC_T_PG);
	bind(dev, t, SONIC_T_AQUEUE);
	bind(dev, t, SONIC_T_APG);
	sonic_dbgs_build(&dev->dbg_port, t, SONIC_T_DBG_PORT_MAP);
	sonic_dbgs_build(&dev->dbg_switch, t, SONIC_T_DBG_SWITCH_MAP);
	if (t->t[SONIC_T_SWITCH].n && strlen(t->t[SONIC_T_SWITCH].r[0].key) < SONIC_OID_MAX)
		snprintf(dev->switch_oid, sizeof dev->switch_oid, "%s",
			 t->t[SONIC_T_SWITCH].r[0].key);
	return 0;
}

/* ---- drop counters ---- */

static int cmp_dbg(const void *a, const void *b)
{
	return strcmp(((const struct sonic_dbg *)a)->name, ((const struct sonic_dbg *)b)->name);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The reasons of counter c (DEBUG_COUNTER_DROP_REASON|<name>|<reason>),
 * sorted, comma-separated into c->reasons, and the code they map to. */
static void dbg_reasons(struct sonic_dbg *c, const struct sonic_tables *t)
{
	const struct sonic_rows *rs = &t->t[SONIC_T_DBG_REASON];
	size_t nl = strlen(c->name), n = 0, used = 0;
	const char **list = calloc(rs->n + 1, sizeof *list);
	uint32_t code = UINT32_MAX;
	int mixed = 0;

	c->reasons[0] = '\0';
	c->code = UINT32_MAX;
	if (!list)
		return;
	for (size_t i = 0; i < rs->n; i++)
		if (strncmp(rs->r[i].key, c->name, nl) == 0 && rs->r[i].key[nl] == '|' &&
		    rs->r[i].key[nl + 1])
			list[n++] = rs->r[i].key + nl + 1;
	qsort(list, n, sizeof *list, cmp_str);
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(list[i]);
		uint32_t k = sonic_drop_reason_code(list[i]);

		if (i == 0)
			code = k;
		else if (k != code)
			mixed = 1;
		if (used + (used ? 1 : 0) + len <= SONIC_DBG_REASONS) {
			if (used)
				c->reasons[used++] = ',';
			memcpy(c->reasons + used, list[i], len);
			used += len;
			c->reasons[used] = '\0';
		}
	}
	free(list);
	c->code = n && !mixed ? code : UINT32_MAX;
}

void sonic_dbgs_build(struct sonic_dbgs *out, const struct sonic_tables *t, enum sonic_table map)
{
	const struct sonic_row *m = map_of(t, map);

	memset(out, 0, sizeof *out);
	for (size_t i = 0; m && i < m->nf && out->n < SONIC_DBG_MAX; i++) {
		const char *name = m->f[2 * i], *stat = m->f[2 * i + 1], *type, *alias;
		const struct sonic_row *cfg;
		struct sonic_dbg *c = &out->c[out->n];

		if (!name[0] || strlen(name) > SONIC_DBG_NAME || !stat[0] ||
		    strlen(stat) >= sizeof c->stat)
			continue;
		memset(c, 0, sizeof *c);
		snprintf(c->name, sizeof c->name, "%s", name);
		snprintf(c->stat, sizeof c->stat, "%s", stat);
		cfg = find_row(&t->t[SONIC_T_DBG], name);
		type = sonic_row_get(cfg, "type");
		alias = sonic_row_get(cfg, "alias");
		if (alias && strlen(alias) <= SONIC_DBG_NAME)
			snprintf(c->alias, sizeof c->alias, "%s", alias);
		/* the type says; else the field's name does */
		if (type ? strstr(type, "INGRESS") != NULL : strstr(stat, "_IN_") != NULL)
			c->direction = 0;
		else if (type ? strstr(type, "EGRESS") != NULL : strstr(stat, "_OUT_") != NULL)
			c->direction = 1;
		else
			c->direction = SONIC_DIR_UNKNOWN;
		dbg_reasons(c, t);
		out->n++;
	}
	qsort(out->c, out->n, sizeof out->c[0], cmp_dbg);
}

int sonic_dbgs_same(const struct sonic_dbgs *a, const struct sonic_dbgs *b)
{
	if (a->n != b->n)
		return 0;
	for (unsigned i = 0; i < a->n; i++)
		if (strcmp(a->c[i].name, b->c[i].name) != 0 ||
		    strcmp(a->c[i].stat, b->c[i].stat) != 0)
			return 0;
	return 1;
}

void sonic_dev_free(struct sonic_dev *dev)
{
	free(dev->ports);
	memset(dev, 0, sizeof *dev);
}
