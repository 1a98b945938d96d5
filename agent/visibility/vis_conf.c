/*
 * vis_conf.c - the `visibility` config section (see vis_conf.h): the
 * libconfuse option table and its conversion into a struct vis_config.
 *
 * Every value is a libconfuse pointer option whose parse callback keeps
 * the raw text and its line; all checks are made here afterwards, where
 * the file name and the whole section are known, so an error reads
 * "FILE:LINE: visibility: sampler "x": key: problem".  Sampler references
 * (members, routes) are resolved after every sampler is read.
 */
#include "config.h"

#include "agent/visibility/vis_conf.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- raw values with their line ---- */

struct vval {
	int line;
	char text[];
};

static int vv_parse(cfg_t *cfg, cfg_opt_t *opt, const char *value, void *result)
{
	size_t n = strlen(value);
	struct vval *v = malloc(sizeof(*v) + n + 1);

	(void)opt;
	if (!v)
		return -1;
	v->line = cfg->line;
	memcpy(v->text, value, n + 1);
	*(void **)result = v;
	return 0;
}

static void vv_free(void *p)
{
	free(p);
}

#define V(name)	 CFG_PTR_CB(name, NULL, CFGF_NONE, vv_parse, vv_free)
#define VL(name) CFG_PTR_LIST_CB(name, NULL, CFGF_NONE, vv_parse, vv_free)

#define MATCH_OPTS                                                                                 \
	VL("ports"), VL("in_ports"), VL("queues"), VL("traffic_classes"), VL("events"),            \
	    VL("reasons"), V("protocol"), VL("src_ports"), VL("dst_ports")

static cfg_opt_t eligible_opts[] = {MATCH_OPTS, CFG_END()};

static cfg_opt_t delay_opts[] = {VL("ports"), VL("queues"),	VL("thresholds"),
				 VL("tags"),  VL("severities"), CFG_END()};

static cfg_opt_t congestion_opts[] = {V("scope"), VL("ports"), VL("queues"),
				      V("high"),  V("low"),    CFG_END()};

static cfg_opt_t sampler_opts[] = {V("type"),
				   VL("members"),
				   MATCH_OPTS,
				   V("probability"),
				   V("every"),
				   V("first"),
				   V("of"),
				   V("tickets"),
				   V("period"),
				   V("cap"),
				   V("floor"),
				   V("batch_jitter"),
				   V("period_jitter"),
				   V("flow_filter"),
				   V("flow_hashes"),
				   V("flow_bits"),
				   V("flow_reset"),
				   V("flow_reset_after"),
				   VL("flow_reset_on"),
				   V("limit"),
				   V("after"),
				   V("limit_period"),
				   V("limit_key"),
				   V("dedup"),
				   V("dedup_window"),
				   V("rate_manager"),
				   VL("rate_levels"),
				   V("rate_policy"),
				   V("seed"),
				   CFG_END()};

static cfg_opt_t vis_opts[] = {
    V("enable"),
    V("seed"),
    V("drops"),
    VL("drop_reasons"),
    V("forensics"),
    V("forensics_scope"),
    VL("forensics_ports"),
    VL("forensics_queues"),
    V("sample_drops"),
    V("sample_delay"),
    V("sample_forensics"),
    V("sample_congestion"),
    CFG_SEC("eligible", eligible_opts, CFGF_NONE),
    CFG_SEC("delay_profile", delay_opts, CFGF_MULTI | CFGF_TITLE | CFGF_NO_TITLE_DUPES),
    CFG_SEC("congestion", congestion_opts, CFGF_MULTI | CFGF_TITLE | CFGF_NO_TITLE_DUPES),
    CFG_SEC("sampler", sampler_opts, CFGF_MULTI | CFGF_TITLE | CFGF_NO_TITLE_DUPES),
    CFG_END()};

cfg_opt_t *vis_conf_opts(void)
{
	return vis_opts;
}

/* ---- error context ---- */

struct ctx {
	const char *file;
	char *err;
	size_t errlen;
	char sect[96]; /* "sampler \"x\": " or "" */
};

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static int
fail(struct ctx *x, const struct vval *v, const char *key, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (v)
		snprintf(x->err, x->errlen, "%s:%d: visibility: %s%s%s%s", x->file, v->line,
			 x->sect, key ? key : "", key ? ": " : "", msg);
	else
		snprintf(x->err, x->errlen, "%s: visibility: %s%s%s%s", x->file, x->sect,
			 key ? key : "", key ? ": " : "", msg);
	return -1;
}

static const struct vval *get(cfg_t *sec, const char *key)
{
	return sec ? cfg_getptr(sec, key) : NULL;
}

/* ---- value parsers ---- */

int vis_parse_duration(const char *s, uint64_t *ns)
{
	static const struct {
		const char *suffix;
		uint64_t mult;
	} units[] = {{"ns", 1},
		     {"us", 1000},
		     {"ms", 1000000},
		     {"s", 1000000000ULL},
		     {"", 1000000000ULL}}; /* a bare number is seconds, as in the model section */
	char *end;
	unsigned long long v;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].suffix) == 0) {
			if (v > UINT64_MAX / units[i].mult)
				return -1;
			*ns = v * units[i].mult;
			return 0;
		}
	}
	return -1;
}

static int p_ll(struct ctx *x, const struct vval *v, const char *key, long long lo, long long hi,
		long long *out)
{
	char *end;
	long long n;

	errno = 0;
	n = strtoll(v->text, &end, 10);
	if (errno || end == v->text || *end)
		return fail(x, v, key, "\"%s\" is not a whole number", v->text);
	if (n < lo || n > hi)
		return fail(x, v, key, "%lld out of range (%lld..%lld)", n, lo, hi);
	*out = n;
	return 0;
}

static int p_u32(struct ctx *x, cfg_t *sec, const char *key, long long lo, long long hi,
		 uint32_t *out)
{
	const struct vval *v = get(sec, key);
	long long n;

	if (!v)
		return 0;
	if (p_ll(x, v, key, lo, hi, &n) < 0)
		return -1;
	*out = (uint32_t)n;
	return 0;
}

/* A count, or bytes with an optional K, M or G (powers of 1024). */
static int p_u64(struct ctx *x, cfg_t *sec, const char *key, int bytes, uint64_t *out)
{
	const struct vval *v = get(sec, key);
	uint64_t mult = 1;
	char *end;
	unsigned long long n;

	if (!v)
		return 0;
	errno = 0;
	n = strtoull(v->text, &end, 10);
	if (bytes && *end && !end[1]) {
		mult = *end == 'K'   ? 1024ULL
		       : *end == 'M' ? 1048576ULL
		       : *end == 'G' ? 1073741824ULL
				     : 0;
		if (mult)
			end++;
		else
			mult = 1;
	}
	if (errno || end == v->text || *end || v->text[0] == '-' || n > UINT64_MAX / mult)
		return fail(x, v, key, "\"%s\" is not a whole number%s", v->text,
			    bytes ? " of bytes (with K, M or G)" : "");
	*out = n * mult;
	return 0;
}

static int p_bool(struct ctx *x, cfg_t *sec, const char *key, int *out)
{
	const struct vval *v = get(sec, key);

	if (!v)
		return 0;
	if (!strcasecmp(v->text, "true") || !strcasecmp(v->text, "yes") ||
	    !strcasecmp(v->text, "on") || !strcmp(v->text, "1"))
		*out = 1;
	else if (!strcasecmp(v->text, "false") || !strcasecmp(v->text, "no") ||
		 !strcasecmp(v->text, "off") || !strcmp(v->text, "0"))
		*out = 0;
	else
		return fail(x, v, key, "\"%s\" is not true or false", v->text);
	return 0;
}

static int p_dur(struct ctx *x, cfg_t *sec, const char *key, int nonzero, uint64_t *out)
{
	const struct vval *v = get(sec, key);

	if (!v)
		return 0;
	if (vis_parse_duration(v->text, out) < 0)
		return fail(x, v, key, "\"%s\" is not a duration (a number with ns, us, ms or s)",
			    v->text);
	if (nonzero && *out == 0)
		return fail(x, v, key, "must be more than 0");
	return 0;
}

static int p_name(struct ctx *x, cfg_t *sec, const char *key, char *out)
{
	const struct vval *v = get(sec, key);

	if (!v)
		return 0;
	if (!v->text[0] || strlen(v->text) >= VIS_NAME_MAX)
		return fail(x, v, key, "a sampler name of 1..%d characters", VIS_NAME_MAX - 1);
	strcpy(out, v->text);
	return 0;
}

/* One word out of a list of choices: its index. */
static int p_word(struct ctx *x, cfg_t *sec, const char *key, const char *const *words,
		  uint32_t *out)
{
	const struct vval *v = get(sec, key);
	char list[128] = "";

	if (!v)
		return 0;
	for (uint32_t i = 0; words[i]; i++) {
		if (strcmp(v->text, words[i]) == 0) {
			*out = i;
			return 0;
		}
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "",
			 words[i]);
	}
	return fail(x, v, key, "\"%s\" is not one of %s", v->text, list);
}

static int p_set(struct ctx *x, cfg_t *sec, const char *key, long long hi, struct vis_set *out)
{
	unsigned n = sec ? cfg_size(sec, key) : 0;

	for (unsigned i = 0; i < n; i++) {
		const struct vval *v = cfg_getnptr(sec, key, i);
		const char *dash = strchr(v->text + 1, '-');
		long long lo, up;

		if (dash && v->text[0] != '-') {
			/* a range lo-hi */
			char *end;
			errno = 0;
			lo = strtoll(v->text, &end, 10);
			if (errno || end != dash)
				return fail(x, v, key, "\"%s\" is not a number or a range",
					    v->text);
			up = strtoll(dash + 1, &end, 10);
			if (errno || *end || end == dash + 1)
				return fail(x, v, key, "\"%s\" is not a number or a range",
					    v->text);
			if (lo < 0 || up > hi || lo > up)
				return fail(x, v, key, "range %s not within 0..%lld", v->text, hi);
		} else {
			if (p_ll(x, v, key, 0, hi, &lo) < 0)
				return -1;
			up = lo;
		}
		for (long long val = lo; val <= up; val++)
			if (vis_set_add(out, (uint32_t)val) < 0)
				return fail(x, v, key, "more than %d values", VIS_SET_MAX);
	}
	return 0;
}

static int p_match(struct ctx *x, cfg_t *sec, struct vis_match *m)
{
	unsigned n = cfg_size(sec, "events");
	uint32_t proto = UINT32_MAX;

	if (p_set(x, sec, "ports", 65535, &m->ports) < 0 ||
	    p_set(x, sec, "in_ports", 65535, &m->in_ports) < 0 ||
	    p_set(x, sec, "queues", 1023, &m->queues) < 0 ||
	    p_set(x, sec, "traffic_classes", 255, &m->tcs) < 0 ||
	    p_set(x, sec, "reasons", 0xffffffffLL, &m->reasons) < 0 ||
	    p_set(x, sec, "src_ports", 65535, &m->sports) < 0 ||
	    p_set(x, sec, "dst_ports", 65535, &m->dports) < 0 ||
	    p_u32(x, sec, "protocol", 0, 255, &proto) < 0)
		return -1;
	if (proto != UINT32_MAX)
		m->proto = (int)proto;
	for (unsigned i = 0; i < n; i++) {
		const struct vval *v = cfg_getnptr(sec, "events", i);
		uint32_t mask = vis_event_mask_by_name(v->text);
		if (!mask)
			return fail(x, v, "events",
				    "\"%s\" is not one of drop, delay, forensics, congestion",
				    v->text);
		m->events |= mask;
	}
	return 0;
}

static int p_probability(struct ctx *x, cfg_t *sec, double *out)
{
	const struct vval *v = get(sec, "probability");
	char *end;
	double d;

	if (!v)
		return 0;
	errno = 0;
	d = strtod(v->text, &end);
	if (errno || end == v->text || (*end && strcmp(end, "%") != 0))
		return fail(x, v, "probability", "\"%s\" is not a number", v->text);
	if (*end == '%')
		d /= 100.0;
	if (!(d >= 0.0 && d <= 1.0))
		return fail(x, v, "probability", "%s is not in 0..1 (or 0%%..100%%)", v->text);
	*out = d;
	return 0;
}

/* ---- sections ---- */

static int do_delay(struct ctx *x, cfg_t *sec, struct vis_conf_delay *d)
{
	unsigned nt = cfg_size(sec, "thresholds"), ntag = cfg_size(sec, "tags"),
		 nsev = cfg_size(sec, "severities");

	snprintf(d->name, sizeof(d->name), "%s", cfg_title(sec));
	if (p_set(x, sec, "ports", 65535, &d->ports) < 0 ||
	    p_set(x, sec, "queues", 1023, &d->queues) < 0)
		return -1;
	if (nt == 0)
		return fail(x, NULL, "thresholds", "missing");
	if (nt > VIS_DELAY_LEVELS)
		return fail(x, cfg_getnptr(sec, "thresholds", VIS_DELAY_LEVELS), "thresholds",
			    "more than %d levels", VIS_DELAY_LEVELS);
	if (ntag && ntag != nt)
		return fail(x, cfg_getnptr(sec, "tags", 0), "tags", "%u tags for %u thresholds",
			    ntag, nt);
	if (nsev && nsev != nt)
		return fail(x, cfg_getnptr(sec, "severities", 0), "severities",
			    "%u severities for %u thresholds", nsev, nt);
	d->profile.n = nt;
	for (unsigned i = 0; i < nt; i++) {
		const struct vval *v = cfg_getnptr(sec, "thresholds", i);
		struct vis_delay_level *lv = &d->profile.lv[i];
		uint64_t ns;
		long long n;

		if (strcmp(v->text, "-1") == 0) {
			lv->threshold_ns = -1;
		} else if (vis_parse_duration(v->text, &ns) < 0 || ns > INT64_MAX) {
			return fail(x, v, "thresholds",
				    "\"%s\" is not a duration (a number with ns, us, ms or s) "
				    "nor -1",
				    v->text);
		} else {
			lv->threshold_ns = (int64_t)ns;
		}
		lv->tag = i + 1;
		lv->severity = i + 1;
		if (ntag) {
			if (p_ll(x, cfg_getnptr(sec, "tags", i), "tags", 0, 0xffffffffLL, &n) < 0)
				return -1;
			lv->tag = (uint32_t)n;
		}
		if (nsev) {
			if (p_ll(x, cfg_getnptr(sec, "severities", i), "severities", 0,
				 0xffffffffLL, &n) < 0)
				return -1;
			lv->severity = (uint32_t)n;
		}
	}
	return 0;
}

static int do_congestion(struct ctx *x, cfg_t *sec, struct vis_conf_congestion *g)
{
	static const char *const scopes[] = {"queue", "port", NULL};
	uint32_t scope = 0;

	snprintf(g->name, sizeof(g->name), "%s", cfg_title(sec));
	if (p_word(x, sec, "scope", scopes, &scope) < 0 ||
	    p_set(x, sec, "ports", 65535, &g->ports) < 0 ||
	    p_set(x, sec, "queues", 1023, &g->queues) < 0 ||
	    p_u64(x, sec, "high", 1, &g->high) < 0 || p_u64(x, sec, "low", 1, &g->low) < 0)
		return -1;
	g->port_scope = scope == 1;
	if (!get(sec, "high"))
		return fail(x, NULL, "high", "missing");
	if (g->high == 0)
		return fail(x, get(sec, "high"), "high", "must be more than 0");
	if (!get(sec, "low"))
		g->low = g->high / 2;
	if (g->low > g->high)
		return fail(x, get(sec, "low"), "low", "%llu is above high (%llu)",
			    (unsigned long long)g->low, (unsigned long long)g->high);
	if (g->port_scope && g->queues.n)
		return fail(x, cfg_getnptr(sec, "queues", 0), "queues", "not with scope = port");
	return 0;
}

static int do_sampler(struct ctx *x, cfg_t *sec, uint64_t seed, struct vis_conf_sampler *cs)
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
	    p_dur(x, sec, "period", 1, &c->period_ns) < 0 ||
	    p_u32(x, sec, "cap", 1, 0x7fffffffLL, &c->cap) < 0 ||
	    p_u32(x, sec, "batch_jitter", 0, 0x7fffffffLL, &c->batch_jitter) < 0 ||
	    p_dur(x, sec, "period_jitter", 0, &c->period_jitter_ns) < 0 ||
	    p_bool(x, sec, "flow_filter", &c->flow_filter) < 0 ||
	    p_u32(x, sec, "flow_hashes", 1, 8, &c->flow_hashes) < 0 ||
	    p_u32(x, sec, "flow_bits", 64, 1 << 24, &c->flow_bits) < 0 ||
	    p_dur(x, sec, "flow_reset", 0, &c->flow_reset_ns) < 0 ||
	    p_u64(x, sec, "flow_reset_after", 0, &c->flow_reset_after) < 0 ||
	    p_u32(x, sec, "limit", 0, 0xffffffffLL, &c->limit) < 0 ||
	    p_u32(x, sec, "after", 0, 0xffffffffLL, &c->after) < 0 ||
	    p_dur(x, sec, "limit_period", 0, &c->limit_period_ns) < 0 ||
	    p_word(x, sec, "limit_key", keys, &limit_key) < 0 ||
	    p_bool(x, sec, "dedup", &c->dedup) < 0 ||
	    p_dur(x, sec, "dedup_window", 0, &c->dedup_window_ns) < 0 ||
	    p_bool(x, sec, "rate_manager", &c->rate_manager) < 0 ||
	    p_word(x, sec, "rate_policy", policies, &c->rate_policy) < 0)
		return -1;
	c->every = every;
	c->limit_by_flow = limit_key == 1;
	if (get(sec, "floor")) {
		if (p_ll(x, get(sec, "floor"), "floor", -0x7fffffffLL, 0, &fl) < 0)
			return -1;
		c->floor = (int32_t)fl;
	}
	if (get(sec, "seed")) {
		long long s;
		if (p_ll(x, get(sec, "seed"), "seed", 0, 0x7fffffffffffffffLL, &s) < 0)
			return -1;
		c->seed = (uint64_t)s;
	}
	if ((get(sec, "first") != NULL) != (get(sec, "of") != NULL))
		return fail(x, get(sec, "first") ? get(sec, "first") : get(sec, "of"),
			    get(sec, "first") ? "first" : "of", "first and of go together");
	if (c->of && c->first > c->of)
		return fail(x, get(sec, "first"), "first", "%u is more than of (%u)", c->first,
			    c->of);
	if (((c->of != 0) + (every > 1) + (get(sec, "probability") != NULL)) > 1)
		return fail(x, get(sec, "every") ? get(sec, "every") : get(sec, "probability"),
			    NULL, "probability, every and first/of exclude each other");
	if (!c->tickets) {
		const char *tk[] = {"period", "cap", "floor", "batch_jitter", "period_jitter"};
		for (size_t i = 0; i < sizeof(tk) / sizeof(tk[0]); i++)
			if (get(sec, tk[i]))
				return fail(x, get(sec, tk[i]), tk[i], "needs tickets");
	}
	if (c->cap && c->cap < c->tickets)
		return fail(x, get(sec, "cap"), "cap", "%u is below tickets (%u)", c->cap,
			    c->tickets);
	if (c->period_jitter_ns >= c->period_ns)
		return fail(x, get(sec, "period_jitter"), "period_jitter",
			    "must be below the period");
	if (c->batch_jitter > c->tickets && c->tickets)
		return fail(x, get(sec, "batch_jitter"), "batch_jitter",
			    "more than the batch (tickets)");
	if (c->flow_bits & (c->flow_bits - 1))
		return fail(x, get(sec, "flow_bits"), "flow_bits", "%u is not a power of two",
			    c->flow_bits);
	n = cfg_size(sec, "flow_reset_on");
	for (unsigned i = 0; i < n; i++) {
		const struct vval *v = cfg_getnptr(sec, "flow_reset_on", i);
		if (strcmp(v->text, "delay_end") == 0)
			c->flow_reset_on_delay_end = 1;
		else if (strcmp(v->text, "forensics_end") == 0)
			c->flow_reset_on_forensics_end = 1;
		else
			return fail(x, v, "flow_reset_on",
				    "\"%s\" is not one of delay_end, forensics_end", v->text);
	}
	n = cfg_size(sec, "rate_levels");
	if (n > VIS_RATE_LEVELS_MAX)
		return fail(x, cfg_getnptr(sec, "rate_levels", 0), "rate_levels",
			    "more than %d levels", VIS_RATE_LEVELS_MAX);
	for (unsigned i = 0; i < n; i++) {
		const struct vval *v = cfg_getnptr(sec, "rate_levels", i);
		long long lv;
		if (p_ll(x, v, "rate_levels", 1, 0x7fffffffLL, &lv) < 0)
			return -1;
		if (i && lv <= c->rate_levels[i - 1])
			return fail(x, v, "rate_levels", "levels must be ascending");
		c->rate_levels[i] = (uint32_t)lv;
	}
	c->n_rate_levels = n;
	if (c->rate_manager && (c->kind != VIS_NODE_AGGREGATE || !c->tickets))
		return fail(x, get(sec, "rate_manager"), "rate_manager",
			    "needs type = aggregate and tickets");
	n = cfg_size(sec, "members");
	if (c->kind == VIS_NODE_SAMPLER && n)
		return fail(x, cfg_getnptr(sec, "members", 0), "members",
			    "needs type = all, any or aggregate");
	if (c->kind != VIS_NODE_SAMPLER && n == 0)
		return fail(x, NULL, "members", "missing (type = %s)", types[c->kind]);
	if (n > VIS_MEMBERS_MAX_CONF)
		return fail(x, cfg_getnptr(sec, "members", 0), "members", "more than %d",
			    VIS_MEMBERS_MAX_CONF);
	for (unsigned i = 0; i < n; i++) {
		const struct vval *v = cfg_getnptr(sec, "members", i);
		if (!v->text[0] || strlen(v->text) >= VIS_NAME_MAX)
			return fail(x, v, "members", "a sampler name of 1..%d characters",
				    VIS_NAME_MAX - 1);
		strcpy(cs->members[i], v->text);
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

/* Members exist, each sampler has at most one parent, no cycles; rate
 * managed children have the aggregate's period and tickets. */
static int check_refs(struct ctx *x, cfg_t *vsec, struct vis_config *vc)
{
	int *parent = malloc((vc->n_samplers + 1) * sizeof(int));

	if (!parent)
		return fail(x, NULL, NULL, "out of memory");
	for (size_t i = 0; i < vc->n_samplers; i++)
		parent[i] = -1;
	for (size_t i = 0; i < vc->n_samplers; i++) {
		cfg_t *sec = cfg_getnsec(vsec, "sampler", (unsigned)i);
		struct vis_conf_sampler *cs = &vc->samplers[i];

		snprintf(x->sect, sizeof(x->sect), "sampler \"%s\": ", cs->c.name);
		for (uint32_t j = 0; j < cs->n_members; j++) {
			const struct vval *v = cfg_getnptr(sec, "members", j);
			int k = find_sampler(vc, cs->members[j]);
			if (k < 0) {
				free(parent);
				return fail(x, v, "members", "no sampler named \"%s\"",
					    cs->members[j]);
			}
			if ((size_t)k == i || parent[k] >= 0) {
				free(parent);
				return fail(x, v, "members",
					    "\"%s\" is already a member elsewhere (or itself)",
					    cs->members[j]);
			}
			parent[k] = (int)i;
			if (cs->c.rate_manager &&
			    (!vc->samplers[k].c.tickets ||
			     vc->samplers[k].c.period_ns != cs->c.period_ns)) {
				free(parent);
				return fail(x, v, "members",
					    "\"%s\" needs tickets and the aggregate's period for "
					    "the rate manager",
					    cs->members[j]);
			}
		}
	}
	/* a cycle: following parents from some sampler comes back to it */
	for (size_t i = 0; i < vc->n_samplers; i++) {
		int p = parent[i];
		size_t steps = 0;
		while (p >= 0 && steps++ <= vc->n_samplers) {
			if ((size_t)p == i) {
				free(parent);
				x->sect[0] = 0;
				return fail(x, NULL, NULL, "sampler \"%s\" is its own member",
					    vc->samplers[i].c.name);
			}
			p = parent[p];
		}
	}
	free(parent);
	x->sect[0] = 0;
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
	struct ctx x = {.file = filename ? filename : "(config)", .err = err, .errlen = errlen};
	uint32_t scope = 0;
	long long seed;
	unsigned n;

	vis_config_init(vc);
	if (!sec || !section_used(sec))
		return 0;
	vc->enabled = 1;
	if (p_bool(&x, sec, "enable", &vc->enabled) < 0 ||
	    p_bool(&x, sec, "drops", &vc->drops) < 0 ||
	    p_set(&x, sec, "drop_reasons", 0xffffffffLL, &vc->drop_reasons) < 0 ||
	    p_bool(&x, sec, "forensics", &vc->forensics) < 0 ||
	    p_word(&x, sec, "forensics_scope", scopes, &scope) < 0 ||
	    p_set(&x, sec, "forensics_ports", 65535, &vc->forensics_ports) < 0 ||
	    p_set(&x, sec, "forensics_queues", 1023, &vc->forensics_queues) < 0)
		return -1;
	vc->forensics_port_scope = scope == 1;
	if (get(sec, "seed")) {
		if (p_ll(&x, get(sec, "seed"), "seed", 0, 0x7fffffffffffffffLL, &seed) < 0)
			return -1;
		vc->seed = (uint64_t)seed;
	}
	if (cfg_size(sec, "eligible") && section_used(cfg_getsec(sec, "eligible"))) {
		snprintf(x.sect, sizeof(x.sect), "eligible: ");
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
		return fail(&x, NULL, NULL, "out of memory");
	for (unsigned i = 0; i < cfg_size(sec, "delay_profile"); i++) {
		cfg_t *s = cfg_getnsec(sec, "delay_profile", i);
		snprintf(x.sect, sizeof(x.sect), "delay_profile \"%s\": ", cfg_title(s));
		if (do_delay(&x, s, &vc->delay[i]) < 0)
			return -1;
		vc->n_delay++;
	}
	for (unsigned i = 0; i < cfg_size(sec, "congestion"); i++) {
		cfg_t *s = cfg_getnsec(sec, "congestion", i);
		snprintf(x.sect, sizeof(x.sect), "congestion \"%s\": ", cfg_title(s));
		if (do_congestion(&x, s, &vc->congestion[i]) < 0)
			return -1;
		vc->n_congestion++;
	}
	for (unsigned i = 0; i < cfg_size(sec, "sampler"); i++) {
		cfg_t *s = cfg_getnsec(sec, "sampler", i);
		snprintf(x.sect, sizeof(x.sect), "sampler \"%s\": ", cfg_title(s));
		if (strlen(cfg_title(s)) >= VIS_NAME_MAX || !cfg_title(s)[0])
			return fail(&x, NULL, NULL, "a name of 1..%d characters", VIS_NAME_MAX - 1);
		/* each sampler its own stream, reproducible from the section seed */
		if (do_sampler(&x, s, vc->seed * 1000003ULL + i, &vc->samplers[i]) < 0)
			return -1;
		vc->n_samplers++;
	}
	x.sect[0] = 0;
	if (check_refs(&x, sec, vc) < 0)
		return -1;
	for (uint32_t t = 1; t < VIS_EV_NTYPES; t++) {
		if (t >= sizeof(route_keys) / sizeof(route_keys[0]) || !route_keys[t])
			continue;
		if (p_name(&x, sec, route_keys[t], vc->route[t]) < 0)
			return -1;
		if (vc->route[t][0] && find_sampler(vc, vc->route[t]) < 0)
			return fail(&x, get(sec, route_keys[t]), route_keys[t],
				    "no sampler named \"%s\"", vc->route[t]);
	}
	return 0;
}

int vis_conf_parse_text(const char *text, const char *name, struct vis_config *vc, char *err,
			size_t errlen)
{
	cfg_opt_t opts[] = {CFG_SEC("visibility", vis_conf_opts(), CFGF_NONE), CFG_END()};
	cfg_t *cfg = cfg_init(opts, CFGF_NONE);
	int r;

	vis_config_init(vc);
	if (!cfg) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -1;
	}
	if (cfg_parse_buf(cfg, text) != CFG_SUCCESS) {
		snprintf(err, errlen, "%s: syntax error in the visibility section", name);
		cfg_free(cfg);
		return -1;
	}
	r = vis_conf_from_cfg(cfg_size(cfg, "visibility") ? cfg_getsec(cfg, "visibility") : NULL,
			      name, vc, err, errlen);
	cfg_free(cfg);
	return r;
}
