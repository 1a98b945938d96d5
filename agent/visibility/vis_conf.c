/*
 * vis_conf.c - the `visibility` config section (see vis_conf.h): the
 * libconfuse option table and its conversion into a struct vis_config.
 *
 * Every value is a libconfuse pointer option (CONF_V, agent/confval.h)
 * that keeps the raw text and its line; all checks are made here
 * afterwards with the shared conf_ parsers, where the file name and the
 * whole section are known, so an error reads
 * "FILE:LINE: visibility: sampler "x": key = value: problem; allowed: ..."
 * (confval.h).  Sampler references
 * (members, routes) are resolved after every sampler is read.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include "agent/visibility/vis_conf.h"

#include "agent/confval.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MATCH_OPTS                                                                                 \
	CONF_VL("ports"), CONF_VL("in_ports"), CONF_VL("queues"), CONF_VL("traffic_classes"),      \
	    CONF_VL("events"), CONF_VL("reasons"), CONF_V("protocol"), CONF_VL("src_ports"),       \
	    CONF_VL("dst_ports")

static cfg_opt_t eligible_opts[] = {MATCH_OPTS, CFG_END()};

static cfg_opt_t delay_opts[] = {CONF_VL("ports"), CONF_VL("queues"),	  CONF_VL("thresholds"),
				 CONF_VL("tags"),  CONF_VL("severities"), CFG_END()};

static cfg_opt_t congestion_opts[] = {CONF_V("scope"), CONF_VL("ports"), CONF_VL("queues"),
				      CONF_V("high"),  CONF_V("low"),	 CFG_END()};

static cfg_opt_t sampler_opts[] = {CONF_V("type"),
				   CONF_VL("members"),
				   MATCH_OPTS,
				   CONF_V("probability"),
				   CONF_V("every"),
				   CONF_V("first"),
				   CONF_V("of"),
				   CONF_V("tickets"),
				   CONF_V("period"),
				   CONF_V("cap"),
				   CONF_V("floor"),
				   CONF_V("batch_jitter"),
				   CONF_V("period_jitter"),
				   CONF_V("flow_filter"),
				   CONF_V("flow_hashes"),
				   CONF_V("flow_bits"),
				   CONF_V("flow_reset"),
				   CONF_V("flow_reset_after"),
				   CONF_VL("flow_reset_on"),
				   CONF_V("limit"),
				   CONF_V("after"),
				   CONF_V("limit_period"),
				   CONF_V("limit_key"),
				   CONF_V("dedup"),
				   CONF_V("dedup_window"),
				   CONF_V("rate_manager"),
				   CONF_VL("rate_levels"),
				   CONF_V("rate_policy"),
				   CONF_V("seed"),
				   CFG_END()};

static cfg_opt_t vis_opts[] = {
    CONF_V("enable"),
    CONF_V("seed"),
    CONF_V("drops"),
    CONF_VL("drop_reasons"),
    CONF_V("forensics"),
    CONF_V("forensics_scope"),
    CONF_VL("forensics_ports"),
    CONF_VL("forensics_queues"),
    CONF_V("sample_drops"),
    CONF_V("sample_delay"),
    CONF_V("sample_forensics"),
    CONF_V("sample_congestion"),
    CONF_V("default_rate"),
    CFG_SEC("eligible", eligible_opts, CFGF_NONE),
    CFG_SEC("delay_profile", delay_opts, CFGF_MULTI | CFGF_TITLE | CFGF_NO_TITLE_DUPES),
    CFG_SEC("congestion", congestion_opts, CFGF_MULTI | CFGF_TITLE | CFGF_NO_TITLE_DUPES),
    CFG_SEC("sampler", sampler_opts, CFGF_MULTI | CFGF_TITLE | CFGF_NO_TITLE_DUPES),
    CFG_END()};

cfg_opt_t *vis_conf_opts(void)
{
	return vis_opts;
}

/* Queue numbers: unicast 0..15, multicast 16 + q (vis.h, BSF_MAX_QUEUES). */
#define QUEUE_MAX 31
/* Limits on the size of the section (vis_conf.h). */
#define FLOW_FILTER_BYTES_MAX (256ULL << 20)
#define TICKET_PERIOD_MIN_NS  1000000ULL /* period, flow_reset */
#define FLOW_RESET_AFTER_MIN  64
#define CONGESTION_BYTES_MAX  (1ULL << 40) /* high, low: 1T */

/* ---- value parsers: the conf_ ones, reading key from sec ---- */

static int p_u32(struct conf_ctx *x, cfg_t *sec, const char *key, long long lo, long long hi,
		 uint32_t *out)
{
	const struct conf_val *v = conf_get(sec, key);
	long long n;

	if (!v)
		return 0;
	if (conf_int(x, v, key, lo, hi, &n) < 0)
		return -1;
	*out = (uint32_t)n;
	return 0;
}

/* A count of bytes (a size: suffix K, M, G, T). */
static int p_bytes(struct conf_ctx *x, cfg_t *sec, const char *key, uint64_t *out)
{
	const struct conf_val *v = conf_get(sec, key);

	return v ? conf_size(x, v, key, 0, CONGESTION_BYTES_MAX, out) : 0;
}

/* A whole number of 0 and up. */
static int p_count(struct conf_ctx *x, cfg_t *sec, const char *key, uint64_t *out)
{
	const struct conf_val *v = conf_get(sec, key);
	long long n;

	if (!v)
		return 0;
	if (conf_int(x, v, key, 0, INT64_MAX, &n) < 0)
		return -1;
	*out = (uint64_t)n;
	return 0;
}

static int p_bool(struct conf_ctx *x, cfg_t *sec, const char *key, int *out)
{
	const struct conf_val *v = conf_get(sec, key);

	return v ? conf_bool(x, v, key, out) : 0;
}

/* A time of at least lo ns. */
static int p_dur(struct conf_ctx *x, cfg_t *sec, const char *key, uint64_t lo, uint64_t *out)
{
	const struct conf_val *v = conf_get(sec, key);

	return v ? conf_time(x, v, key, lo, CONF_TIME_MAX, out) : 0;
}

/* One word out of a list of choices: its index. */
static int p_word(struct conf_ctx *x, cfg_t *sec, const char *key, const char *const *words,
		  uint32_t *out)
{
	const struct conf_val *v = conf_get(sec, key);
	int i;

	if (!v)
		return 0;
	if (conf_enum(x, v, key, words, &i) < 0)
		return -1;
	*out = (uint32_t)i;
	return 0;
}

/* One list item: a value or a range, and the item it was written as. */
struct set_item {
	uint32_t lo, hi;
	const struct conf_val *v;
};

static int item_cmp(const void *a, const void *b)
{
	const struct set_item *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* A list of values and ranges lo-hi within 0..hi, kept as at most
 * VIS_SET_MAX merged ranges.  The items are added by increasing start, so
 * the count of ranges never drops and the first item that needs one more
 * than VIS_SET_MAX is the one named. */
static int p_set(struct conf_ctx *x, cfg_t *sec, const char *key, long long hi, struct vis_set *out)
{
	unsigned n = sec ? cfg_size(sec, key) : 0;
	struct set_item *it;
	int r = 0;

	if (n == 0)
		return 0;
	it = calloc(n, sizeof(*it));
	if (!it)
		return conf_fail(x, NULL, key, "out of memory");
	for (unsigned i = 0; i < n && r == 0; i++) {
		const struct conf_val *v = cfg_getnptr(sec, key, i);
		long long lo = 0, up = 0;

		r = conf_range(x, v, key, 0, hi, &lo, &up);
		if (r < 0)
			break;
		it[i] = (struct set_item){(uint32_t)lo, (uint32_t)up, v};
	}
	if (r == 0)
		qsort(it, n, sizeof(*it), item_cmp);
	for (unsigned i = 0; i < n && r == 0; i++)
		if (vis_set_add_range(out, it[i].lo, it[i].hi) < 0)
			r = conf_fail(x, it[i].v, key,
				      "too many ranges; allowed: at most %d separate ranges",
				      VIS_SET_MAX);
	free(it);
	return r;
}

static int p_match(struct conf_ctx *x, cfg_t *sec, struct vis_match *m)
{
	unsigned n = cfg_size(sec, "events");
	uint32_t proto = UINT32_MAX;

	if (p_set(x, sec, "ports", 65535, &m->ports) < 0 ||
	    p_set(x, sec, "in_ports", 65535, &m->in_ports) < 0 ||
	    p_set(x, sec, "queues", QUEUE_MAX, &m->queues) < 0 ||
	    p_set(x, sec, "traffic_classes", 7, &m->tcs) < 0 ||
	    p_set(x, sec, "reasons", 0xffffffffLL, &m->reasons) < 0 ||
	    p_set(x, sec, "src_ports", 65535, &m->sports) < 0 ||
	    p_set(x, sec, "dst_ports", 65535, &m->dports) < 0 ||
	    p_u32(x, sec, "protocol", 0, 255, &proto) < 0)
		return -1;
	if (proto != UINT32_MAX)
		m->proto = (int)proto;
	for (unsigned i = 0; i < n; i++) {
		static const char *const events[] = {"drop", "delay", "forensics", "congestion",
						     NULL};
		int k;

		if (conf_enum(x, cfg_getnptr(sec, "events", i), "events", events, &k) < 0)
			return -1;
		m->events |= vis_event_mask_by_name(events[k]);
	}
	return 0;
}

static int p_probability(struct conf_ctx *x, cfg_t *sec, double *out)
{
	const struct conf_val *v = conf_get(sec, "probability");

	return v ? conf_frac(x, v, "probability", 0.0, 1.0, out) : 0;
}

/* ---- sections ---- */

static int do_delay(struct conf_ctx *x, cfg_t *sec, struct vis_conf_delay *d)
{
	unsigned nt = cfg_size(sec, "thresholds"), ntag = cfg_size(sec, "tags"),
		 nsev = cfg_size(sec, "severities");

	snprintf(d->name, sizeof(d->name), "%s", cfg_title(sec));
	if (p_set(x, sec, "ports", 65535, &d->ports) < 0 ||
	    p_set(x, sec, "queues", QUEUE_MAX, &d->queues) < 0)
		return -1;
	if (nt == 0)
		return conf_fail(x, NULL, "thresholds", "missing");
	if (nt > VIS_DELAY_LEVELS)
		return conf_fail(x, cfg_getnptr(sec, "thresholds", VIS_DELAY_LEVELS), "thresholds",
				 "too many levels; allowed: 1..%d levels", VIS_DELAY_LEVELS);
	if (ntag && ntag != nt)
		return conf_fail(x, cfg_getnptr(sec, "tags", 0), "tags",
				 "%u tags for %u thresholds; allowed: one per threshold", ntag, nt);
	if (nsev && nsev != nt)
		return conf_fail(x, cfg_getnptr(sec, "severities", 0), "severities",
				 "%u severities for %u thresholds; allowed: one per threshold",
				 nsev, nt);
	d->profile.n = nt;
	for (unsigned i = 0; i < nt; i++) {
		const struct conf_val *v = cfg_getnptr(sec, "thresholds", i);
		struct vis_delay_level *lv = &d->profile.lv[i];
		uint64_t ns;
		long long n;

		if (strcmp(v->text, "-1") == 0) {
			lv->threshold_ns = -1;
		} else if (conf_parse_time(v->text, &ns) < 0) {
			return conf_fail(x, v, "thresholds",
					 "not a time; allowed: -1 (level off) or a number with ns, "
					 "us, ms or s (a bare number is seconds)");
		} else {
			lv->threshold_ns = (int64_t)ns;
			/* levels rise: a lower threshold after a higher one
			 * could never be the level reported */
			for (unsigned j = i; j-- > 0;) {
				if (d->profile.lv[j].threshold_ns < 0)
					continue;
				if (d->profile.lv[j].threshold_ns >= lv->threshold_ns)
					return conf_fail(x, v, "thresholds",
							 "level %u is not above level %u; "
							 "allowed: rising times",
							 i + 1, j + 1);
				break;
			}
		}
		lv->tag = i + 1;
		lv->severity = i + 1;
		if (ntag) {
			if (conf_int(x, cfg_getnptr(sec, "tags", i), "tags", 0, 0xffffffffLL, &n) <
			    0)
				return -1;
			lv->tag = (uint32_t)n;
		}
		if (nsev) {
			if (conf_int(x, cfg_getnptr(sec, "severities", i), "severities", 0,
				     0xffffffffLL, &n) < 0)
				return -1;
			lv->severity = (uint32_t)n;
		}
	}
	return 0;
}

static int do_congestion(struct conf_ctx *x, cfg_t *sec, struct vis_conf_congestion *g)
{
	static const char *const scopes[] = {"queue", "port", NULL};
	uint32_t scope = 0;

	snprintf(g->name, sizeof(g->name), "%s", cfg_title(sec));
	if (p_word(x, sec, "scope", scopes, &scope) < 0 ||
	    p_set(x, sec, "ports", 65535, &g->ports) < 0 ||
	    p_set(x, sec, "queues", QUEUE_MAX, &g->queues) < 0 ||
	    p_bytes(x, sec, "high", &g->high) < 0 || p_bytes(x, sec, "low", &g->low) < 0)
		return -1;
	g->port_scope = scope == 1;
	if (!conf_get(sec, "high"))
		return conf_fail(x, NULL, "high", "missing");
	if (g->high == 0)
		return conf_fail(x, conf_get(sec, "high"), "high",
				 "out of range; allowed: more than 0 bytes");
	if (!conf_get(sec, "low"))
		g->low = g->high / 2;
	if (g->low > g->high)
		return conf_fail(x, conf_get(sec, "low"), "low",
				 "above high; allowed: 0..%llu bytes (high)",
				 (unsigned long long)g->high);
	if (g->port_scope && g->queues.n)
		return conf_fail(x, cfg_getnptr(sec, "queues", 0), "queues",
				 "not with scope = port; allowed: queues with scope = queue");
	return 0;
}

static int do_sampler(struct conf_ctx *x, cfg_t *sec, uint64_t seed, struct vis_conf_sampler *cs)
{
	static const char *const types[] = {"sampler", "all", "any", "aggregate", NULL};
	static const char *const keys[] = {"queue", "flow", NULL};
	static const char *const policies[] = {"guarded", "step", NULL};
	struct vis_sampler_conf *c = &cs->c;
	unsigned n;
	uint32_t limit_key = 0;
	long long fl = 0;
	uint32_t every = 0;

	vis_sampler_conf_init(c, cfg_title(sec));
	c->seed = seed;
	if (p_word(x, sec, "type", types, &c->kind) < 0 || p_match(x, sec, &c->match) < 0 ||
	    p_probability(x, sec, &c->probability) < 0 ||
	    p_u32(x, sec, "every", 1, 0xffffffffLL, &every) < 0 ||
	    p_u32(x, sec, "first", 1, 0xffffffffLL, &c->first) < 0 ||
	    p_u32(x, sec, "of", 1, 0xffffffffLL, &c->of) < 0 ||
	    p_u32(x, sec, "tickets", 1, 0x7fffffffLL, &c->tickets) < 0 ||
	    p_dur(x, sec, "period", TICKET_PERIOD_MIN_NS, &c->period_ns) < 0 ||
	    p_u32(x, sec, "cap", 1, 0x7fffffffLL, &c->cap) < 0 ||
	    p_u32(x, sec, "batch_jitter", 0, 0x7fffffffLL, &c->batch_jitter) < 0 ||
	    p_dur(x, sec, "period_jitter", 0, &c->period_jitter_ns) < 0 ||
	    p_bool(x, sec, "flow_filter", &c->flow_filter) < 0 ||
	    p_u32(x, sec, "flow_hashes", 1, 8, &c->flow_hashes) < 0 ||
	    p_u32(x, sec, "flow_bits", 64, 1 << 24, &c->flow_bits) < 0 ||
	    p_dur(x, sec, "flow_reset", 0, &c->flow_reset_ns) < 0 ||
	    p_count(x, sec, "flow_reset_after", &c->flow_reset_after) < 0 ||
	    p_u32(x, sec, "limit", 0, 0xffffffffLL, &c->limit) < 0 ||
	    p_u32(x, sec, "after", 0, 0xffffffffLL, &c->after) < 0 ||
	    p_dur(x, sec, "limit_period", 0, &c->limit_period_ns) < 0 ||
	    p_word(x, sec, "limit_key", keys, &limit_key) < 0 ||
	    p_bool(x, sec, "dedup", &c->dedup) < 0 ||
	    p_dur(x, sec, "dedup_window", 1, &c->dedup_window_ns) < 0 ||
	    p_bool(x, sec, "rate_manager", &c->rate_manager) < 0 ||
	    p_word(x, sec, "rate_policy", policies, &c->rate_policy) < 0)
		return -1;
	c->every = every;
	c->limit_by_flow = limit_key == 1;
	if (conf_get(sec, "floor")) {
		if (conf_int(x, conf_get(sec, "floor"), "floor", -0x7fffffffLL, 0, &fl) < 0)
			return -1;
		c->floor = (int32_t)fl;
	}
	if (conf_get(sec, "seed")) {
		long long s;
		if (conf_int(x, conf_get(sec, "seed"), "seed", 0, 0x7fffffffffffffffLL, &s) < 0)
			return -1;
		c->seed = (uint64_t)s;
	}
	if ((conf_get(sec, "first") != NULL) != (conf_get(sec, "of") != NULL))
		return conf_fail(
		    x, conf_get(sec, "first") ? conf_get(sec, "first") : conf_get(sec, "of"),
		    conf_get(sec, "first") ? "first" : "of", "first and of go together");
	if (c->of && c->first > c->of)
		return conf_fail(x, conf_get(sec, "first"), "first",
				 "more than of; allowed: 1..%u (of)", c->of);
	if (((c->of != 0) + (every > 1) + (conf_get(sec, "probability") != NULL)) > 1)
		return conf_fail(x,
				 conf_get(sec, "every") ? conf_get(sec, "every")
							: conf_get(sec, "probability"),
				 NULL, "probability, every and first/of exclude each other");
	if (!c->tickets) {
		const char *tk[] = {"period", "cap", "floor", "batch_jitter", "period_jitter"};
		for (size_t i = 0; i < sizeof(tk) / sizeof(tk[0]); i++)
			if (conf_get(sec, tk[i]))
				return conf_fail(x, conf_get(sec, tk[i]), tk[i], "needs tickets");
	}
	if (c->cap && c->cap < c->tickets)
		return conf_fail(x, conf_get(sec, "cap"), "cap",
				 "below tickets; allowed: %u (tickets) and up", c->tickets);
	if (c->period_jitter_ns > c->period_ns / 2)
		return conf_fail(x, conf_get(sec, "period_jitter"), "period_jitter",
				 "more than half the period; allowed: 0..period/2");
	if (c->batch_jitter > c->tickets && c->tickets)
		return conf_fail(x, conf_get(sec, "batch_jitter"), "batch_jitter",
				 "more than the batch; allowed: 0..tickets");
	if (c->flow_reset_ns && c->flow_reset_ns < TICKET_PERIOD_MIN_NS)
		return conf_fail(x, conf_get(sec, "flow_reset"), "flow_reset",
				 "out of range; allowed: 0 (never) or 1ms and up");
	if (c->flow_reset_after && c->flow_reset_after < FLOW_RESET_AFTER_MIN)
		return conf_fail(x, conf_get(sec, "flow_reset_after"), "flow_reset_after",
				 "out of range; allowed: 0 (never) or %d and up",
				 FLOW_RESET_AFTER_MIN);
	if (c->limit_by_flow && c->limit_period_ns == 0)
		return conf_fail(x, conf_get(sec, "limit_period"), "limit_period",
				 "0 with limit_key = flow; allowed: more than 0");
	if (c->flow_bits & (c->flow_bits - 1))
		return conf_fail(x, conf_get(sec, "flow_bits"), "flow_bits",
				 "not a power of two; allowed: 64, 128, .. 16777216");
	n = cfg_size(sec, "flow_reset_on");
	for (unsigned i = 0; i < n; i++) {
		static const char *const ends[] = {"delay_end", "forensics_end", NULL};
		int k;

		if (conf_enum(x, cfg_getnptr(sec, "flow_reset_on", i), "flow_reset_on", ends, &k) <
		    0)
			return -1;
		if (k == 0)
			c->flow_reset_on_delay_end = 1;
		else
			c->flow_reset_on_forensics_end = 1;
	}
	n = cfg_size(sec, "rate_levels");
	if (n > VIS_RATE_LEVELS_MAX)
		return conf_fail(x, cfg_getnptr(sec, "rate_levels", 0), "rate_levels",
				 "too many levels; allowed: 1..%d levels", VIS_RATE_LEVELS_MAX);
	for (unsigned i = 0; i < n; i++) {
		const struct conf_val *v = cfg_getnptr(sec, "rate_levels", i);
		long long lv;
		if (conf_int(x, v, "rate_levels", 1, 0x7fffffffLL, &lv) < 0)
			return -1;
		if (i && lv <= c->rate_levels[i - 1])
			return conf_fail(x, v, "rate_levels",
					 "not above the level before; allowed: rising levels");
		c->rate_levels[i] = (uint32_t)lv;
	}
	c->n_rate_levels = n;
	if (c->rate_manager && (c->kind != VIS_NODE_AGGREGATE || !c->tickets))
		return conf_fail(x, conf_get(sec, "rate_manager"), "rate_manager",
				 "needs type = aggregate and tickets");
	n = cfg_size(sec, "members");
	if (c->kind == VIS_NODE_SAMPLER && n)
		return conf_fail(x, cfg_getnptr(sec, "members", 0), "members",
				 "needs type = all, any or aggregate");
	if (c->kind != VIS_NODE_SAMPLER && n == 0)
		return conf_fail(x, NULL, "members", "missing (type = %s)", types[c->kind]);
	if (n > VIS_MEMBERS_MAX_CONF)
		return conf_fail(x, cfg_getnptr(sec, "members", 0), "members",
				 "too many members; allowed: 1..%d", VIS_MEMBERS_MAX_CONF);
	for (unsigned i = 0; i < n; i++) {
		const struct conf_val *v = cfg_getnptr(sec, "members", i);
		if (conf_name(x, v, "members", "sampler name", cs->members[i], VIS_NAME_MAX) < 0)
			return -1;
	}
	cs->n_members = n;
	return 0;
}

static int find_sampler(const struct vis_config *vc, const char *name)
{
	for (size_t i = 0; i < vc->n_samplers; i++)
		if (strcmp(vc->samplers[i].c.name, name) == 0)
			return (int)i;
	return -1;
}

/* Members exist, each sampler has at most one parent, no cycles, chains
 * nest at most VIS_CONF_DEPTH_MAX deep; rate managed children have the
 * aggregate's period and tickets. */
static int check_refs(struct conf_ctx *x, cfg_t *vsec, struct vis_config *vc)
{
	int *parent = malloc((vc->n_samplers + 1) * sizeof(int));
	int r = -1;

	if (!parent)
		return conf_fail(x, NULL, NULL, "out of memory");
	for (size_t i = 0; i < vc->n_samplers; i++)
		parent[i] = -1;
	for (size_t i = 0; i < vc->n_samplers; i++) {
		cfg_t *sec = cfg_getnsec(vsec, "sampler", (unsigned)i);
		struct vis_conf_sampler *cs = &vc->samplers[i];

		conf_enter(x, "visibility", "sampler", cs->c.name, conf_section_line(sec));
		for (uint32_t j = 0; j < cs->n_members; j++) {
			const struct conf_val *v = cfg_getnptr(sec, "members", j);
			int k = find_sampler(vc, cs->members[j]);
			if (k < 0) {
				conf_fail(x, v, "members", "no sampler named \"%s\"",
					  cs->members[j]);
				goto out;
			}
			if ((size_t)k == i || parent[k] >= 0) {
				conf_fail(x, v, "members",
					  "\"%s\" is already a member elsewhere (or itself)",
					  cs->members[j]);
				goto out;
			}
			parent[k] = (int)i;
			if (cs->c.rate_manager &&
			    (!vc->samplers[k].c.tickets ||
			     vc->samplers[k].c.period_ns != cs->c.period_ns)) {
				conf_fail(x, v, "members",
					  "\"%s\" needs tickets and the aggregate's period for "
					  "the rate manager",
					  cs->members[j]);
				goto out;
			}
		}
	}
	/* a cycle: following parents from some sampler comes back to it; too
	 * deep: more than VIS_CONF_DEPTH_MAX levels above some sampler */
	for (size_t i = 0; i < vc->n_samplers; i++) {
		int p = parent[i];
		size_t steps = 0;
		while (p >= 0 && steps++ <= vc->n_samplers) {
			cfg_t *psec = cfg_getnsec(vsec, "sampler", (unsigned)p);
			conf_enter(x, "visibility", "sampler", vc->samplers[p].c.name,
				   conf_section_line(psec));
			if ((size_t)p == i) {
				conf_fail(x, NULL, "members", "is its own member (a cycle)");
				goto out;
			}
			if (steps >= VIS_CONF_DEPTH_MAX) {
				conf_fail(x, cfg_getnptr(psec, "members", 0), "members",
					  "chains and aggregates nest more than %d levels deep "
					  "(the bottom sampler counts)",
					  VIS_CONF_DEPTH_MAX);
				goto out;
			}
			p = parent[p];
		}
	}
	r = 0;
out:
	free(parent);
	conf_enter(x, "visibility", NULL, NULL, 0);
	return r;
}

/* Can sampler i ever pass an event of type t?  Its match must accept the
 * type (and, for drops and forensics, one of the monitored reasons); an
 * "all" chain needs every member to, "any" and aggregates one member. */
static int can_pass(const struct vis_config *vc, size_t i, uint32_t t, int depth)
{
	const struct vis_conf_sampler *cs = &vc->samplers[i];
	const struct vis_match *m = &cs->c.match;
	int any = 0;

	if (depth > VIS_CONF_DEPTH_MAX)
		return 1;
	if (m->events && !(m->events & (1u << t)))
		return 0;
	if ((t == VIS_EV_DROP || t == VIS_EV_FORENSICS) && m->reasons.n && vc->drop_reasons.n &&
	    !vis_set_meets(&m->reasons, &vc->drop_reasons))
		return 0;
	if (cs->n_members == 0)
		return 1;
	for (uint32_t j = 0; j < cs->n_members; j++) {
		int ok = can_pass(vc, (size_t)find_sampler(vc, cs->members[j]), t, depth + 1);
		if (cs->c.kind == VIS_NODE_CHAIN_ALL && !ok)
			return 0;
		any |= ok;
	}
	return cs->c.kind == VIS_NODE_CHAIN_ALL || any;
}

/* A sampler name: 1..VIS_NAME_MAX-1 ASCII letters, digits, _ and -. */
static int name_ok(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n >= VIS_NAME_MAX)
		return 0;
	for (size_t i = 0; i < n; i++) {
		char ch = name[i];
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '_' || ch == '-'))
			return 0;
	}
	return 1;
}

/* Enter sub-section s (kind "sampler", ...): messages name it and its line. */
static int enter(struct conf_ctx *x, cfg_t *s, const char *kind)
{
	conf_enter(x, "visibility", kind, cfg_title(s), conf_section_line(s));
	if (!name_ok(cfg_title(s)))
		return conf_fail(x, NULL, NULL,
				 "bad name; allowed: 1..%d ASCII letters, digits, _ and -",
				 VIS_NAME_MAX - 1);
	return 0;
}

/* Did the file set anything in this section?  (libconfuse creates a
 * non-multi section with its defaults even when the file has none.) */
static int section_used(cfg_t *sec)
{
	for (cfg_opt_t *o = sec->opts; o && o->name; o++) {
		if (o->type == CFGT_SEC && !(o->flags & CFGF_MULTI)) {
			if (cfg_opt_size(o) && section_used(cfg_opt_getnsec(o, 0)))
				return 1;
		} else if (cfg_opt_size(o)) {
			return 1;
		}
	}
	return 0;
}

void vis_config_init(struct vis_config *vc)
{
	memset(vc, 0, sizeof(*vc));
	vc->seed = 1;
	vc->drops = 1;
	vc->default_rate = VIS_CONF_DEFAULT_RATE;
	vis_match_init(&vc->eligibility);
}

void vis_config_release(struct vis_config *vc)
{
	free(vc->delay);
	free(vc->congestion);
	free(vc->samplers);
	vc->delay = NULL;
	vc->congestion = NULL;
	vc->samplers = NULL;
	vc->n_delay = vc->n_congestion = vc->n_samplers = 0;
}

int vis_conf_from_cfg(cfg_t *sec, const char *filename, struct vis_config *vc, char *err,
		      size_t errlen)
{
	static const char *const route_keys[] = {[VIS_EV_DROP] = "sample_drops",
						 [VIS_EV_HIGH_DELAY] = "sample_delay",
						 [VIS_EV_FORENSICS] = "sample_forensics",
						 [VIS_EV_CONGESTION_START] = "sample_congestion"};
	static const char *const scopes[] = {"queue", "port", NULL};
	struct conf_ctx x = {
	    .file = filename ? filename : "(config)", .err = err, .errlen = errlen};
	uint32_t scope = 0;
	uint64_t ff_bytes = 0;
	long long seed;
	unsigned n;

	vis_config_init(vc);
	if (!sec || !section_used(sec))
		return 0;
	conf_enter(&x, "visibility", NULL, NULL, 0);
	vc->enabled = 1;
	if (p_bool(&x, sec, "enable", &vc->enabled) < 0 ||
	    p_bool(&x, sec, "drops", &vc->drops) < 0 ||
	    p_set(&x, sec, "drop_reasons", 0xffffffffLL, &vc->drop_reasons) < 0 ||
	    p_bool(&x, sec, "forensics", &vc->forensics) < 0 ||
	    p_word(&x, sec, "forensics_scope", scopes, &scope) < 0 ||
	    p_set(&x, sec, "forensics_ports", 65535, &vc->forensics_ports) < 0 ||
	    p_set(&x, sec, "forensics_queues", QUEUE_MAX, &vc->forensics_queues) < 0 ||
	    p_u32(&x, sec, "default_rate", 0, 0x7fffffffLL, &vc->default_rate) < 0)
		return -1;
	vc->forensics_port_scope = scope == 1;
	if (conf_get(sec, "seed")) {
		if (conf_int(&x, conf_get(sec, "seed"), "seed", 0, 0x7fffffffffffffffLL, &seed) < 0)
			return -1;
		vc->seed = (uint64_t)seed;
	}
	if (cfg_size(sec, "eligible") && section_used(cfg_getsec(sec, "eligible"))) {
		conf_enter(&x, "visibility", "eligible", NULL, 0);
		vc->has_eligibility = 1;
		if (p_match(&x, cfg_getsec(sec, "eligible"), &vc->eligibility) < 0)
			return -1;
	}
	n = cfg_size(sec, "delay_profile");
	vc->delay = calloc(n ? n : 1, sizeof(*vc->delay));
	n = cfg_size(sec, "congestion");
	vc->congestion = calloc(n ? n : 1, sizeof(*vc->congestion));
	n = cfg_size(sec, "sampler");
	vc->samplers = calloc(n ? n : 1, sizeof(*vc->samplers));
	if (!vc->delay || !vc->congestion || !vc->samplers)
		return conf_fail(&x, NULL, NULL, "out of memory");
	for (unsigned i = 0; i < cfg_size(sec, "delay_profile"); i++) {
		cfg_t *s = cfg_getnsec(sec, "delay_profile", i);
		if (enter(&x, s, "delay_profile") < 0 || do_delay(&x, s, &vc->delay[i]) < 0)
			return -1;
		vc->n_delay++;
	}
	for (unsigned i = 0; i < cfg_size(sec, "congestion"); i++) {
		cfg_t *s = cfg_getnsec(sec, "congestion", i);
		if (enter(&x, s, "congestion") < 0 || do_congestion(&x, s, &vc->congestion[i]) < 0)
			return -1;
		vc->n_congestion++;
	}
	for (unsigned i = 0; i < cfg_size(sec, "sampler"); i++) {
		cfg_t *s = cfg_getnsec(sec, "sampler", i);
		struct vis_sampler_conf *c = &vc->samplers[i].c;

		if (enter(&x, s, "sampler") < 0)
			return -1;
		if (i >= VIS_CONF_SAMPLERS_MAX)
			return conf_fail(&x, NULL, NULL, "too many samplers; allowed: at most %d",
					 VIS_CONF_SAMPLERS_MAX);
		/* each sampler its own stream, reproducible from the section seed */
		if (do_sampler(&x, s, vc->seed * 1000003ULL + i, &vc->samplers[i]) < 0)
			return -1;
		vc->n_samplers++;
		if (c->flow_filter) {
			ff_bytes += (uint64_t)c->flow_hashes * c->flow_bits / 8;
			if (ff_bytes > FLOW_FILTER_BYTES_MAX)
				return conf_fail(&x, conf_get(s, "flow_filter"), "flow_filter",
						 "the flow filters of all samplers take too much; "
						 "allowed: %lluM in all",
						 FLOW_FILTER_BYTES_MAX >> 20);
		}
	}
	conf_enter(&x, "visibility", NULL, NULL, 0);
	if (check_refs(&x, sec, vc) < 0)
		return -1;
	for (uint32_t t = 1; t < VIS_EV_NTYPES; t++) {
		if (t >= sizeof(route_keys) / sizeof(route_keys[0]) || !route_keys[t])
			continue;
		const struct conf_val *v = conf_get(sec, route_keys[t]);

		if (v &&
		    conf_name(&x, v, route_keys[t], "sampler name", vc->route[t], VIS_NAME_MAX) < 0)
			return -1;
		if (!vc->route[t][0])
			continue;
		if (find_sampler(vc, vc->route[t]) < 0)
			return conf_fail(&x, v, route_keys[t], "no sampler named \"%s\"",
					 vc->route[t]);
		if (!can_pass(vc, (size_t)find_sampler(vc, vc->route[t]), t, 0))
			return conf_fail(&x, v, route_keys[t],
					 "sampler \"%s\" can never pass %s events (its events or "
					 "reasons exclude them)",
					 vc->route[t],
					 t == VIS_EV_CONGESTION_START ? "congestion"
								      : vis_event_type_name(t));
	}
	return 0;
}

int vis_conf_single(cfg_t *root, const char *filename, char *err, size_t errlen)
{
	struct conf_ctx x = {
	    .file = filename ? filename : "(config)", .err = err, .errlen = errlen};

	if (cfg_size(root, "visibility") < 2)
		return 0;
	conf_enter(&x, "visibility", NULL, NULL,
		   conf_section_line(cfg_getnsec(root, "visibility", 1)));
	return conf_fail(&x, NULL, NULL, "a second visibility section");
}

int vis_conf_parse_text(const char *text, const char *name, struct vis_config *vc, char *err,
			size_t errlen)
{
	cfg_opt_t opts[] = {CFG_SEC("visibility", vis_conf_opts(), CFGF_MULTI), CFG_END()};
	cfg_t *cfg = cfg_init(opts, CFGF_NONE);
	char *clean;
	int r;

	vis_config_init(vc);
	if (!cfg) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -1;
	}
	clean = conf_check_text(text, name, err, errlen) < 0
		    ? NULL
		    : conf_blank_comments(text, name, err, errlen); /* right line numbers */
	if (!clean) {
		cfg_free(cfg);
		return -1;
	}
	r = conf_lib_parse(cfg, name, clean, err, errlen);
	free(clean);
	if (r < 0) {
		cfg_free(cfg);
		return -1;
	}
	if (vis_conf_single(cfg, name, err, errlen) < 0) {
		cfg_free(cfg);
		return -1;
	}
	r = vis_conf_from_cfg(cfg_size(cfg, "visibility") ? cfg_getsec(cfg, "visibility") : NULL,
			      name, vc, err, errlen);
	cfg_free(cfg);
	return r;
}
