/*
 * scenario.c - the `model` config section: option table, conversion into
 * a model_config plus traffic generator / replay configurations, and the
 * built-in demo scenario (see scenario.h).
 *
 * Every value option is a libconfuse "pointer" option whose parse callback
 * only records the raw text and the line it was on.  All checking happens
 * afterwards, here, where the file name and the whole section are known,
 * so each error reads "FILE:LINE: key: problem" with the right line.
 * Every key is documented in bsflowd.conf(5) (the MODEL SECTION part).
 */
#include "config.h"

#include "agent/model/scenario.h"

#include <ctype.h>
#include <limits.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <arpa/inet.h>

#include "agent/model/headers.h"

/* ---- raw values with their line ---- */

struct sval {
	int line;
	char text[];
};

static int sv_parse(cfg_t *cfg, cfg_opt_t *opt, const char *value, void *result)
{
	size_t n = strlen(value);
	struct sval *v = malloc(sizeof(*v) + n + 1);

	(void)opt;
	if (!v)
		return -1;
	v->line = cfg->line;
	memcpy(v->text, value, n + 1);
	*(void **)result = v;
	return 0;
}

static void sv_free(void *p)
{
	free(p);
}

#define SV(name)  CFG_PTR_CB(name, NULL, CFGF_NONE, sv_parse, sv_free)
#define SVL(name) CFG_PTR_LIST_CB(name, NULL, CFGF_NONE, sv_parse, sv_free)

static cfg_opt_t port_opts[] = {SV("speed"), SV("name"), SV("sampling_rate"), CFG_END()};

static cfg_opt_t wred_opts[] = {SVL("ports"), SVL("queues"),	 SV("min"),
				SV("max"),    SV("probability"), CFG_END()};

static cfg_opt_t mcg_opts[] = {SVL("ports"), CFG_END()};

static cfg_opt_t traffic_opts[] = {
    SVL("ports"),      SV("rate"),     SV("size"),    SV("arrival"),	 SV("period"),
    SV("duty"),	       SV("phase"),    SV("start"),   SV("stop"),	 SV("packets"),
    SV("destination"), SV("to"),       SV("hotspot"), SV("flows"),	 SV("ip"),
    SV("protocol"),    SV("vlan"),     SV("pcp"),     SV("dscp"),	 SV("dport"),
    SV("multicast"),   SV("mc_group"), SV("drop"),    SV("drop_reason"), CFG_END()};

static cfg_opt_t replay_opts[] = {SV("file"),	     SVL("ingress_ports"), SVL("egress_ports"),
				  SVL("vlan_ports"), SVL("egress_map"),	   SV("time_scale"),
				  SV("start"),	     SV("loop"),	   SV("mc_group"),
				  CFG_END()};

static cfg_opt_t model_opts[] = {
    SV("seed"),
    SV("ports"),
    SV("speed"),
    SV("cell_size"),
    SV("buffer"),
    SV("unicast_queues"),
    SV("multicast_queues"),
    SV("alpha"),
    SV("pg_alpha"),
    SV("queue_limit"),
    SV("queue_min"),
    SV("pg_min"),
    SV("queue_packets"),
    SV("scheduler"),
    SVL("weights"),
    SV("sampling_rate"),
    SVL("lossless"),
    SV("headroom"),
    SV("xoff"),
    SV("xon"),
    SV("pfc_delay"),
    SV("duration"),
    CFG_SEC("port", port_opts, CFGF_MULTI | CFGF_TITLE | CFGF_NO_TITLE_DUPES),
    CFG_SEC("wred", wred_opts, CFGF_MULTI),
    CFG_SEC("mc_group", mcg_opts, CFGF_MULTI | CFGF_TITLE | CFGF_NO_TITLE_DUPES),
    CFG_SEC("traffic", traffic_opts, CFGF_MULTI | CFGF_TITLE | CFGF_NO_TITLE_DUPES),
    CFG_SEC("replay", replay_opts, CFGF_MULTI | CFGF_TITLE | CFGF_NO_TITLE_DUPES),
    CFG_END()};

cfg_opt_t *model_conf_opts(void)
{
	return model_opts;
}

/* ---- error context ---- */

struct ctx {
	const char *file;
	char *err;
	size_t errlen;
	char sect[80]; /* "traffic \"x\": " or "" */
	int sect_line; /* line of the section (its closing brace) */
};

#if defined(__GNUC__)
__attribute__((format(printf, 4, 0)))
#endif
static int
failv(struct ctx *x, int line, const char *key, const char *fmt, va_list ap)
{
	char msg[320];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (line <= 0)
		line = x->sect_line;
	if (line > 0)
		snprintf(x->err, x->errlen, "%s:%d: %s%s%s%s", x->file, line, x->sect,
			 key ? key : "", key ? ": " : "", msg);
	else
		snprintf(x->err, x->errlen, "%s: %s%s%s%s", x->file, x->sect, key ? key : "",
			 key ? ": " : "", msg);
	return -1;
}

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static int
fail(struct ctx *x, const struct sval *v, const char *key, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = failv(x, v ? v->line : 0, key, fmt, ap);
	va_end(ap);
	return r;
}

static const struct sval *get(cfg_t *sec, const char *key)
{
	return sec ? cfg_getptr(sec, key) : NULL;
}

/* ---- value parsers ---- */

static int parse_long(struct ctx *x, const struct sval *v, const char *key, long lo, long hi,
		      long *out)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v->text, &end, 10);
	if (end == v->text || *end || errno)
		return fail(x, v, key, "'%s' is not an integer", v->text);
	if (n < lo || n > hi)
		return fail(x, v, key, "%ld is out of range %ld..%ld", n, lo, hi);
	*out = n;
	return 0;
}

static int get_long(struct ctx *x, cfg_t *sec, const char *key, long lo, long hi, long *out)
{
	const struct sval *v = get(sec, key);

	return v ? parse_long(x, v, key, lo, hi, out) : 0;
}

/* A number with an optional suffix from units[] (NULL-terminated pairs
 * of name and multiplier, matched case-insensitively); nosuffix is the
 * multiplier of a bare number. */
struct unit {
	const char *name;
	double mult;
};

static int parse_units(const char *s, const struct unit *units, double nosuffix, double *out)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(s, &end);
	if (end == s || errno || !isfinite(d))
		return -1;
	while (*end == ' ')
		end++;
	if (!*end) {
		*out = d * nosuffix;
		return 0;
	}
	for (; units->name; units++) {
		if (strcasecmp(end, units->name) == 0) {
			*out = d * units->mult;
			return 0;
		}
	}
	return -1;
}

static const struct unit rate_units[] = {
    {"k", 1e3},	   {"m", 1e6},	  {"g", 1e9},	 {"t", 1e12},	 {"bps", 1},
    {"kbps", 1e3}, {"mbps", 1e6}, {"gbps", 1e9}, {"tbps", 1e12}, {"b/s", 1},
    {"kb/s", 1e3}, {"mb/s", 1e6}, {"gb/s", 1e9}, {"tb/s", 1e12}, {NULL, 0}};
static const struct unit byte_units[] = {
    {"b", 1},	       {"k", 1024.0},	    {"kb", 1024.0},	  {"m", 1048576.0},
    {"mb", 1048576.0}, {"g", 1073741824.0}, {"gb", 1073741824.0}, {NULL, 0}};
static const struct unit time_units[] = {
    {"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}, {NULL, 0}};

static int parse_speed(struct ctx *x, const struct sval *v, const char *key, uint64_t *out)
{
	double d;

	if (parse_units(v->text, rate_units, 1, &d) < 0)
		return fail(x, v, key, "'%s' is not a speed (bits/s, suffix K, M, G or T)",
			    v->text);
	if (d < (double)MODEL_MIN_SPEED || d > (double)MODEL_MAX_SPEED)
		return fail(x, v, key, "'%s' is out of range 1G..800G", v->text);
	*out = (uint64_t)llround(d);
	return 0;
}

/* Bytes, at most max. */
static int parse_bytes(struct ctx *x, const struct sval *v, const char *key, double max,
		       uint64_t *out)
{
	double d;

	if (parse_units(v->text, byte_units, 1, &d) < 0 || d < 0)
		return fail(x, v, key,
			    "'%s' is not a byte count (suffix K, M or G: powers of 1024)", v->text);
	if (d > max)
		return fail(x, v, key, "'%s' is above %.0f bytes", v->text, max);
	*out = (uint64_t)llround(d);
	return 0;
}

static int parse_time(struct ctx *x, const struct sval *v, const char *key, uint64_t *out)
{
	double d;

	if (parse_units(v->text, time_units, 1e9, &d) < 0 || d < 0)
		return fail(x, v, key, "'%s' is not a time (suffix ns, us, ms or s)", v->text);
	if (d > 1e18)
		return fail(x, v, key, "'%s' is too long", v->text);
	*out = (uint64_t)llround(d);
	return 0;
}

/* A fraction: "N%" or a number in 0..1. */
static int parse_frac(struct ctx *x, const struct sval *v, const char *key, double lo, double hi,
		      double *out)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(v->text, &end);
	if (end == v->text || errno || !isfinite(d))
		goto bad;
	if (*end == '%' && end[1] == 0)
		d /= 100.0;
	else if (*end)
		goto bad;
	if (d < lo || d > hi)
		return fail(x, v, key, "'%s' is out of range %g..%g (%g%%..%g%%)", v->text, lo, hi,
			    lo * 100, hi * 100);
	*out = d;
	return 0;
bad:
	return fail(x, v, key, "'%s' is not a fraction (0.25 or 25%%)", v->text);
}

static int parse_double(struct ctx *x, const struct sval *v, const char *key, double lo, double hi,
			int lo_open, double *out)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(v->text, &end);
	if (end == v->text || *end || errno || !isfinite(d))
		return fail(x, v, key, "'%s' is not a number", v->text);
	if ((lo_open ? d <= lo : d < lo) || d > hi)
		return fail(x, v, key, "%s is out of range %s%g..%g", v->text,
			    lo_open ? "above " : "", lo, hi);
	*out = d;
	return 0;
}

static int parse_enum(struct ctx *x, const struct sval *v, const char *key,
		      const char *const *names, int *out)
{
	char list[200] = "";

	for (int i = 0; names[i]; i++) {
		if (strcasecmp(v->text, names[i]) == 0) {
			*out = i;
			return 0;
		}
	}
	for (int i = 0; names[i]; i++) {
		strncat(list, i ? ", " : "", sizeof(list) - strlen(list) - 1);
		strncat(list, names[i], sizeof(list) - strlen(list) - 1);
	}
	return fail(x, v, key, "'%s' is not one of %s", v->text, list);
}

/* A list of port numbers and ranges "a-b"; every port below nports. */
static int parse_ports(struct ctx *x, cfg_t *sec, const char *key, unsigned nports, uint16_t **out,
		       unsigned *nout)
{
	unsigned n = cfg_size(sec, key), i, k = 0, cap = 0;
	uint16_t *list = NULL;

	*out = NULL;
	*nout = 0;
	for (i = 0; i < n; i++) {
		const struct sval *v = cfg_getnptr(sec, key, i);
		char *end;
		long a, b;

		errno = 0;
		a = strtol(v->text, &end, 10);
		b = a;
		if (end != v->text && *end == '-') {
			const char *s = end + 1;

			b = strtol(s, &end, 10);
			if (end == s)
				goto bad;
		}
		if (end == v->text || *end || errno)
			goto bad;
		if (a < 0 || b < a || (unsigned long)b >= nports) {
			free(list);
			return fail(x, v, key,
				    "'%s' is out of range: ports are numbered 0..%u on this switch",
				    v->text, nports - 1);
		}
		for (long p = a; p <= b; p++) {
			if (k == cap) {
				uint16_t *nl;

				cap = cap ? cap * 2 : 16;
				nl = realloc(list, cap * sizeof(*list));
				if (!nl) {
					free(list);
					return fail(x, v, key, "out of memory");
				}
				list = nl;
			}
			for (unsigned j = 0; j < k; j++) {
				if (list[j] == p) {
					free(list);
					return fail(x, v, key, "port %ld is listed twice", p);
				}
			}
			list[k++] = (uint16_t)p;
		}
		continue;
	bad:
		free(list);
		return fail(x, v, key, "'%s' is not a port number or a range like 1-4", v->text);
	}
	*out = list;
	*nout = k;
	return 0;
}

/* ---- the switch part ---- */

static uint32_t cells_of(uint64_t bytes, uint32_t cell)
{
	uint64_t c = (bytes + cell - 1) / cell;

	return c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
}

static int build_switch(struct ctx *x, cfg_t *sec, struct model_scenario *sc)
{
	struct model_config *cfg = &sc->cfg;
	const struct sval *v;
	long n, nports = 8, ucq = 8, mcq = 0;
	uint64_t speed = 10000000000ull, b;
	unsigned i, q, g;

	if (get_long(x, sec, "ports", 1, MODEL_MAX_PORTS, &nports) < 0)
		return -1;
	if ((v = get(sec, "speed")) && parse_speed(x, v, "speed", &speed) < 0)
		return -1;
	if (model_config_init(cfg, (unsigned)nports, speed) < 0)
		return fail(x, NULL, NULL, "out of memory");
	n = 1;
	if (get_long(x, sec, "seed", 0, LONG_MAX, &n) < 0)
		return -1;
	cfg->seed = (uint64_t)n;
	if (get_long(x, sec, "cell_size", 64, 16384, &n) < 0)
		return -1;
	if (get(sec, "cell_size"))
		cfg->cell_bytes = (uint32_t)n;
	if ((v = get(sec, "buffer"))) {
		if (parse_bytes(x, v, "buffer", 64.0 * 1073741824.0, &b) < 0)
			return -1;
		if (b / cfg->cell_bytes < 1)
			return fail(x, v, "buffer", "'%s' is less than one cell", v->text);
		cfg->total_cells = (uint32_t)(b / cfg->cell_bytes);
	} else if (get(sec, "cell_size")) {
		/* keep the default 16 MB (or more) in bytes */
		cfg->total_cells =
		    (uint32_t)((uint64_t)cfg->total_cells * MODEL_CELL_DEFAULT / cfg->cell_bytes);
	}
	if (get_long(x, sec, "unicast_queues", 1, MODEL_MAX_QUEUES, &ucq) < 0 ||
	    get_long(x, sec, "multicast_queues", 0, MODEL_MAX_QUEUES, &mcq) < 0)
		return -1;

	/* per-port overrides */
	for (i = 0; i < cfg_size(sec, "port"); i++) {
		cfg_t *ps = cfg_getnsec(sec, "port", i);
		const char *t = cfg_title(ps);
		struct model_port_config *p;
		char *end;
		long pn;
		uint64_t sp;

		errno = 0;
		pn = strtol(t, &end, 10);
		if (end == t || *end || errno || pn < 0 || pn >= nports)
			return fail(x, NULL, NULL,
				    "port \"%s\": not a port number 0..%ld (line %d)", t,
				    nports - 1, ps->line);
		p = &cfg->ports[pn];
		snprintf(x->sect, sizeof(x->sect), "port %ld: ", pn);
		x->sect_line = ps->line;
		if ((v = get(ps, "speed"))) {
			if (parse_speed(x, v, "speed", &sp) < 0)
				return -1;
			p->speed_bps = sp;
		}
		if ((v = get(ps, "name"))) {
			if (strlen(v->text) >= sizeof(p->name) || !*v->text)
				return fail(x, v, "name", "must be 1..%zu characters",
					    sizeof(p->name) - 1);
			snprintf(p->name, sizeof(p->name), "%s", v->text);
		}
		if (get_long(x, ps, "sampling_rate", 0, LONG_MAX, &n) < 0)
			return -1;
		if (get(ps, "sampling_rate"))
			p->sampling_rate = (uint32_t)n;
		x->sect[0] = 0;
		x->sect_line = 0;
	}

	/* queues, limits, scheduling: the same on every front-panel port */
	{
		double alpha = 1.0, pg_alpha;
		uint64_t qlimit = 0, qmin = 0, pgmin = 0, headroom = 0, xoff = 0, xon = 0, pfcd = 0;
		long qpk = 0, sampling = -1;
		int sched = 0, have_qlimit = 0, have_qmin = 0, have_pgmin = 0;
		uint32_t weights[MODEL_MAX_QUEUES];
		uint8_t lossless[MODEL_NUM_PG] = {0};
		static const char *const scheds[] = {"sp", "dwrr", NULL};

		if ((v = get(sec, "alpha")) && parse_double(x, v, "alpha", 0, 1024, 1, &alpha) < 0)
			return -1;
		pg_alpha = alpha;
		if ((v = get(sec, "pg_alpha")) &&
		    parse_double(x, v, "pg_alpha", 0, 1024, 1, &pg_alpha) < 0)
			return -1;
		if ((v = get(sec, "queue_limit"))) {
			if (parse_bytes(x, v, "queue_limit", 64.0 * 1073741824.0, &qlimit) < 0)
				return -1;
			have_qlimit = 1;
		}
		if ((v = get(sec, "queue_min"))) {
			if (parse_bytes(x, v, "queue_min", 1073741824.0, &qmin) < 0)
				return -1;
			have_qmin = 1;
		}
		if ((v = get(sec, "pg_min"))) {
			if (parse_bytes(x, v, "pg_min", 1073741824.0, &pgmin) < 0)
				return -1;
			have_pgmin = 1;
		}
		if (get_long(x, sec, "queue_packets", 0, 100000000, &qpk) < 0 ||
		    get_long(x, sec, "sampling_rate", 0, LONG_MAX, &sampling) < 0)
			return -1;
		if ((v = get(sec, "scheduler")) &&
		    parse_enum(x, v, "scheduler", scheds, &sched) < 0)
			return -1;
		for (q = 0; q < MODEL_MAX_QUEUES; q++)
			weights[q] = 1;
		n = cfg_size(sec, "weights");
		if (n > ucq)
			return fail(x, cfg_getnptr(sec, "weights", (unsigned)ucq), "weights",
				    "%ld weights for %ld unicast queues", n, ucq);
		for (q = 0; q < (unsigned)n; q++) {
			long w;

			if (parse_long(x, cfg_getnptr(sec, "weights", q), "weights", 1, 1024, &w) <
			    0)
				return -1;
			weights[q] = (uint32_t)w;
		}
		for (i = 0; i < cfg_size(sec, "lossless"); i++) {
			long pg;

			if (parse_long(x, cfg_getnptr(sec, "lossless", i), "lossless", 0,
				       MODEL_NUM_PG - 1, &pg) < 0)
				return -1;
			lossless[pg] = 1;
		}
		if ((v = get(sec, "headroom")) &&
		    parse_bytes(x, v, "headroom", 1073741824.0, &headroom) < 0)
			return -1;
		if ((v = get(sec, "xoff")) && parse_bytes(x, v, "xoff", 1073741824.0, &xoff) < 0)
			return -1;
		if ((v = get(sec, "xon")) && parse_bytes(x, v, "xon", 1073741824.0, &xon) < 0)
			return -1;
		if (xoff && xon > xoff)
			return fail(x, get(sec, "xon"), "xon", "%llu bytes is above xoff (%llu)",
				    (unsigned long long)xon, (unsigned long long)xoff);
		if ((v = get(sec, "pfc_delay")) && parse_time(x, v, "pfc_delay", &pfcd) < 0)
			return -1;
		for (i = 0; i < cfg->nports; i++) {
			struct model_port_config *p = &cfg->ports[i];

			p->n_ucq = (uint8_t)ucq;
			p->n_mcq = (uint8_t)mcq;
			if (sampling >= 0 && !p->sampling_rate)
				p->sampling_rate = (uint32_t)sampling;
			if (get(sec, "pfc_delay"))
				p->pfc_delay_ns = pfcd;
			for (unsigned t = 0; t < MODEL_NUM_TC; t++) {
				p->tc_to_ucq[t] = (uint8_t)(t * ucq / MODEL_NUM_TC);
				p->tc_to_mcq[t] = mcq ? (uint8_t)(t * mcq / MODEL_NUM_TC) : 0;
			}
			for (g = 0; g < MODEL_NUM_PG; g++) {
				struct model_pg_config *pg = &p->pg[g];

				pg->shared.alpha = pg_alpha;
				if (have_pgmin)
					pg->min_cells = cells_of(pgmin, cfg->cell_bytes);
				if (lossless[g]) {
					pg->lossless = 1;
					pg->headroom_cells = cells_of(headroom, cfg->cell_bytes);
					pg->xoff_cells = cells_of(xoff, cfg->cell_bytes);
					pg->xon_cells = cells_of(xon, cfg->cell_bytes);
				}
			}
			for (q = 0; q < 2 * MODEL_MAX_QUEUES; q++) {
				struct model_queue_config *qc = q < MODEL_MAX_QUEUES
								    ? &p->ucq[q]
								    : &p->mcq[q - MODEL_MAX_QUEUES];

				qc->shared.alpha = alpha;
				if (have_qlimit) {
					qc->shared.mode = MODEL_LIMIT_STATIC;
					qc->shared.cells = cells_of(qlimit, cfg->cell_bytes);
				}
				if (have_qmin)
					qc->min_cells = cells_of(qmin, cfg->cell_bytes);
				qc->sched = (uint8_t)sched;
				qc->weight = weights[q % MODEL_MAX_QUEUES];
				qc->limit_pkts = (uint32_t)qpk;
			}
		}
	}

	/* WRED */
	for (i = 0; i < cfg_size(sec, "wred"); i++) {
		cfg_t *ws = cfg_getnsec(sec, "wred", i);
		uint16_t *ports = NULL, *queues = NULL;
		unsigned np, nq;
		uint64_t mn = 0, mx = 0;
		double prob = 0.1;

		snprintf(x->sect, sizeof(x->sect), "wred: ");
		x->sect_line = ws->line;
		if (!(v = get(ws, "min")) || parse_bytes(x, v, "min", 4294967295.0, &mn) < 0 ||
		    !(v = get(ws, "max")) || parse_bytes(x, v, "max", 4294967295.0, &mx) < 0) {
			if (!v)
				fail(x, NULL, get(ws, "min") ? "max" : "min", "missing");
			return -1;
		}
		if (mx <= mn)
			return fail(x, v, "max", "must be above min (%llu bytes)",
				    (unsigned long long)mn);
		if ((v = get(ws, "probability")) &&
		    parse_frac(x, v, "probability", 0, 1, &prob) < 0)
			return -1;
		if (parse_ports(x, ws, "ports", cfg->nports, &ports, &np) < 0)
			return -1;
		if (parse_ports(x, ws, "queues", (unsigned)ucq, &queues, &nq) < 0) {
			free(ports);
			return -1;
		}
		for (unsigned a = 0; a < (np ? np : cfg->nports); a++) {
			struct model_port_config *p = &cfg->ports[np ? ports[a] : a];

			for (unsigned k = 0; k < (nq ? nq : (unsigned)ucq); k++) {
				struct model_wred_config *w = &p->ucq[nq ? queues[k] : k].wred;

				w->enabled = 1;
				w->min_bytes = (uint32_t)mn;
				w->max_bytes = (uint32_t)mx;
				w->max_prob = prob;
			}
		}
		free(ports);
		free(queues);
		x->sect[0] = 0;
		x->sect_line = 0;
	}

	/* multicast groups, numbered 1..n */
	n = cfg_size(sec, "mc_group");
	if (n > 0) {
		cfg->mc_groups = calloc((size_t)n, sizeof(*cfg->mc_groups));
		if (!cfg->mc_groups)
			return fail(x, NULL, NULL, "out of memory");
		cfg->n_mc_groups = (uint32_t)n;
	}
	for (i = 0; i < (unsigned)n; i++) {
		cfg_t *gs = cfg_getnsec(sec, "mc_group", i);
		const char *t = cfg_title(gs);
		uint16_t *ports;
		unsigned np;
		char *end;
		long gn;

		errno = 0;
		gn = strtol(t, &end, 10);
		x->sect_line = gs->line;
		if (end == t || *end || errno || gn < 1 || gn > n)
			return fail(
			    x, NULL, NULL,
			    "mc_group \"%s\": groups must be numbered 1..%ld (one section each)", t,
			    n);
		snprintf(x->sect, sizeof(x->sect), "mc_group %ld: ", gn);
		if (parse_ports(x, gs, "ports", cfg->nports, &ports, &np) < 0)
			return -1;
		if (np < 1 || np > 64) {
			free(ports);
			return fail(x, NULL, "ports", "a group has 1..64 ports (%u given)", np);
		}
		memcpy(cfg->mc_groups[gn - 1].ports, ports, np * sizeof(*ports));
		cfg->mc_groups[gn - 1].nports = (uint16_t)np;
		free(ports);
		x->sect[0] = 0;
		x->sect_line = 0;
	}

	/* shared pools: the buffer less the minimum guarantees and headroom */
	{
		uint64_t ing = 0, egr = 0;

		for (i = 0; i <= cfg->nports; i++) {
			const struct model_port_config *p =
			    i < cfg->nports ? &cfg->ports[i] : &cfg->cpu;

			for (g = 0; g < MODEL_NUM_PG; g++)
				ing += p->pg[g].min_cells + p->pg[g].headroom_cells;
			for (q = 0; q < p->n_ucq; q++)
				egr += p->ucq[q].min_cells;
			for (q = 0; q < p->n_mcq; q++)
				egr += p->mcq[q].min_cells;
		}
		if (ing >= cfg->total_cells || egr >= cfg->total_cells)
			return fail(x, get(sec, "buffer"), "buffer",
				    "%u cells of %u bytes leave nothing shared after the minimum "
				    "guarantees and headroom (%llu ingress, %llu egress cells)",
				    cfg->total_cells, cfg->cell_bytes, (unsigned long long)ing,
				    (unsigned long long)egr);
		cfg->ing_pool_cells[0] = (uint32_t)(cfg->total_cells - ing);
		cfg->egr_pool_cells[0] = (uint32_t)(cfg->total_cells - egr);
	}

	if ((v = get(sec, "duration")) && parse_time(x, v, "duration", &sc->duration_ns) < 0)
		return -1;
	return 0;
}

/* ---- traffic sections ---- */

static int parse_size(struct ctx *x, const struct sval *v, struct model_gen_conf *c)
{
	char *end;
	long a, b;

	if (strcasecmp(v->text, "imix") == 0) {
		c->size = MODEL_SIZE_IMIX;
		return 0;
	}
	errno = 0;
	a = strtol(v->text, &end, 10);
	b = a;
	if (end != v->text && *end == '-') {
		const char *s = end + 1;

		b = strtol(s, &end, 10);
		if (end == s)
			end = (char *)v->text;
	}
	if (end == v->text || *end || errno)
		return fail(x, v, "size", "'%s' is not imix, a size or a range like 64-1518",
			    v->text);
	if (a < MODEL_FRAME_MIN || b > MODEL_FRAME_MAX || a > b)
		return fail(x, v, "size", "'%s' is out of range %d..%d bytes", v->text,
			    MODEL_FRAME_MIN, MODEL_FRAME_MAX);
	c->size = a == b ? MODEL_SIZE_FIXED : MODEL_SIZE_UNIFORM;
	c->size_lo = (uint32_t)a;
	c->size_hi = (uint32_t)b;
	return 0;
}

static int parse_reason(struct ctx *x, const struct sval *v, uint16_t *out)
{
	static const struct {
		const char *name;
		uint16_t code;
	} names[] = {{"ttl_exceeded", 257}, {"acl", 258}, {"blackhole_route", 269}};
	long n;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcasecmp(v->text, names[i].name) == 0) {
			*out = names[i].code;
			return 0;
		}
	}
	if (!isdigit((unsigned char)v->text[0]))
		return fail(x, v, "drop_reason",
			    "'%s' is not ttl_exceeded, acl, blackhole_route or a reason code",
			    v->text);
	if (parse_long(x, v, "drop_reason", 1, 65535, &n) < 0)
		return -1;
	*out = (uint16_t)n;
	return 0;
}

/* Append a generator; flow ids follow on from the previous one's. */
static int add_gen(struct model_scenario *sc, const struct model_gen_conf *c)
{
	struct model_gen_conf *ng = realloc(sc->gen, (sc->ngen + 1) * sizeof(*ng));

	if (!ng)
		return -1;
	sc->gen = ng;
	ng[sc->ngen] = *c;
	ng[sc->ngen].flow_base =
	    sc->ngen ? ng[sc->ngen - 1].flow_base + model_gen_flow_ids(&ng[sc->ngen - 1]) : 0;
	sc->ngen++;
	return 0;
}

static int build_traffic(struct ctx *x, cfg_t *ts, unsigned index, struct model_scenario *sc)
{
	static const char *const arrivals[] = {"constant", "poisson", "onoff", NULL};
	static const char *const dests[] = {"fixed",	   "uniform", "hotspot",
					    "permutation", "incast",  NULL};
	static const char *const protos[] = {"udp", "tcp", NULL};
	const struct model_config *cfg = &sc->cfg;
	struct model_gen_conf c;
	const struct sval *v, *ratev = get(ts, "rate");
	uint16_t *ports = NULL, perm[MODEL_MAX_PORTS];
	unsigned np, i;
	double rate_frac = 0.1, rate_bps = 0;
	int k, rc = -1;
	long n;
	char gerr[200];

	model_gen_defaults(&c);
	c.nports = (uint16_t)cfg->nports;
	c.size = MODEL_SIZE_IMIX;
	c.dest = MODEL_DEST_UNIFORM;
	c.nflows = 4;
	c.hotspot = 0.5;
	if (parse_ports(x, ts, "ports", cfg->nports, &ports, &np) < 0)
		return -1;
	if (np == 0) {
		fail(x, NULL, "ports", "missing: list the ingress ports, e.g. ports = {1-4}");
		goto out;
	}
	if (ratev) {
		const char *pct = strchr(ratev->text, '%');

		if (pct) {
			if (parse_frac(x, ratev, "rate", 0, 1, &rate_frac) < 0)
				goto out;
			if (rate_frac <= 0) {
				fail(x, ratev, "rate", "must be above 0");
				goto out;
			}
		} else if (parse_units(ratev->text, rate_units, 1, &rate_bps) < 0 ||
			   !(rate_bps > 0)) {
			fail(x, ratev, "rate",
			     "'%s' is not a rate (a percentage of line rate, or bits/s with "
			     "suffix K, M, G or T)",
			     ratev->text);
			goto out;
		}
	}
	if ((v = get(ts, "size")) && parse_size(x, v, &c) < 0)
		goto out;
	if ((v = get(ts, "arrival"))) {
		if (parse_enum(x, v, "arrival", arrivals, &k) < 0)
			goto out;
		c.arrival = (enum model_arrival_kind)k;
	}
	if ((v = get(ts, "period")) && parse_time(x, v, "period", &c.period_ns) < 0)
		goto out;
	if ((v = get(ts, "duty")) && parse_frac(x, v, "duty", 0, 1, &c.duty) < 0)
		goto out;
	if ((v = get(ts, "phase")) && parse_time(x, v, "phase", &c.phase_ns) < 0)
		goto out;
	if ((v = get(ts, "start")) && parse_time(x, v, "start", &c.start_ns) < 0)
		goto out;
	if ((v = get(ts, "stop")) && parse_time(x, v, "stop", &c.stop_ns) < 0)
		goto out;
	if (v && c.stop_ns <= c.start_ns) {
		fail(x, v, "stop", "must be after start");
		goto out;
	}
	if (get_long(x, ts, "packets", 0, LONG_MAX, &n) < 0)
		goto out;
	if (get(ts, "packets"))
		c.max_packets = (uint64_t)n;
	if (c.arrival == MODEL_ARRIVAL_ONOFF) {
		if (!get(ts, "period")) {
			fail(x, get(ts, "arrival"), "period", "onoff arrivals need a period");
			goto out;
		}
		if (!(c.duty > 0)) {
			fail(x, get(ts, "duty"), "duty", "must be above 0");
			goto out;
		}
		if (!get(ts, "duty")) {
			fail(x, get(ts, "arrival"), "duty", "onoff arrivals need a duty cycle");
			goto out;
		}
	}
	if ((v = get(ts, "destination"))) {
		if (parse_enum(x, v, "destination", dests, &k) < 0)
			goto out;
		c.dest = (enum model_dest_kind)k;
	}
	if ((v = get(ts, "to"))) {
		if (parse_long(x, v, "to", 0, cfg->nports - 1, &n) < 0)
			goto out;
		c.dest_port = (uint16_t)n;
	} else if (c.dest == MODEL_DEST_FIXED || c.dest == MODEL_DEST_HOTSPOT ||
		   c.dest == MODEL_DEST_INCAST) {
		fail(x, get(ts, "destination"), "to", "destination %s needs a port: to = N",
		     dests[c.dest]);
		goto out;
	}
	if ((v = get(ts, "hotspot")) && parse_frac(x, v, "hotspot", 0, 1, &c.hotspot) < 0)
		goto out;
	if (c.dest == MODEL_DEST_PERMUTATION && np < 2) {
		fail(x, get(ts, "destination"), "destination",
		     "permutation needs two or more ports in the ports list");
		goto out;
	}
	if (c.dest == MODEL_DEST_INCAST) {
		for (i = 0; i < np; i++) {
			if (ports[i] == c.dest_port) {
				fail(x, get(ts, "to"), "to",
				     "incast target %u is also one of the senders", c.dest_port);
				goto out;
			}
		}
	}
	if (get_long(x, ts, "flows", 1, MODEL_GEN_MAX_FLOWS, &n) < 0)
		goto out;
	if (get(ts, "flows"))
		c.nflows = (uint32_t)n;
	if (get_long(x, ts, "ip", 4, 6, &n) < 0)
		goto out;
	if ((v = get(ts, "ip"))) {
		if (n == 5) {
			fail(x, v, "ip", "must be 4 or 6");
			goto out;
		}
		c.ip_version = (uint8_t)n;
	}
	if ((v = get(ts, "protocol"))) {
		if (parse_enum(x, v, "protocol", protos, &k) < 0)
			goto out;
		c.l4 = k ? MODEL_IPPROTO_TCP : MODEL_IPPROTO_UDP;
	}
	if (get_long(x, ts, "vlan", 0, 4095, &n) < 0)
		goto out;
	if (get(ts, "vlan"))
		c.vlan = (int)n;
	if (get_long(x, ts, "pcp", 0, 7, &n) < 0)
		goto out;
	if ((v = get(ts, "pcp"))) {
		if (c.vlan < 0) {
			fail(x, v, "pcp", "needs a vlan (the PCP travels in the 802.1Q tag)");
			goto out;
		}
		c.pcp = (uint8_t)n;
	}
	if (get_long(x, ts, "dscp", 0, 63, &n) < 0)
		goto out;
	if (get(ts, "dscp"))
		c.dscp = (uint8_t)n;
	if (get_long(x, ts, "dport", 0, 65535, &n) < 0)
		goto out;
	if (get(ts, "dport"))
		c.dport = (uint16_t)n;
	if ((v = get(ts, "multicast")) && parse_frac(x, v, "multicast", 0, 1, &c.mc_fraction) < 0)
		goto out;
	if ((v = get(ts, "mc_group"))) {
		if (cfg->n_mc_groups == 0) {
			fail(x, v, "mc_group", "no mc_group sections are defined");
			goto out;
		}
		if (parse_long(x, v, "mc_group", 1, cfg->n_mc_groups, &n) < 0)
			goto out;
		c.mc_group = (uint16_t)n;
	} else if (c.mc_fraction > 0) {
		fail(x, get(ts, "multicast"), "mc_group", "multicast traffic needs mc_group = N");
		goto out;
	}
	if ((v = get(ts, "drop")) && parse_frac(x, v, "drop", 0, 1, &c.drop_fraction) < 0)
		goto out;
	if ((v = get(ts, "drop_reason")) && parse_reason(x, v, &c.drop_reason) < 0)
		goto out;

	if (c.dest == MODEL_DEST_PERMUTATION)
		model_traffic_permutation(np, cfg->seed * 1000003u + index, perm);
	for (i = 0; i < np; i++) {
		struct model_gen_conf g = c;
		double line = (double)cfg->ports[ports[i]].speed_bps;

		g.in_port = ports[i];
		g.rate_bps = rate_bps > 0 ? rate_bps : rate_frac * line;
		if (g.rate_bps > line * (1 + 1e-9)) {
			fail(x, ratev, "rate", "%.6g bits/s is above the %.6g bits/s of port %u",
			     g.rate_bps, line, g.in_port);
			goto out;
		}
		if (c.dest == MODEL_DEST_PERMUTATION)
			g.dest_port = ports[perm[i]];
		g.seed = cfg->seed * 0x9e3779b97f4a7c15ull + index;
		if (model_gen_check(&g, gerr, sizeof(gerr)) < 0) {
			fail(x, NULL, NULL, "%s", gerr);
			goto out;
		}
		if (add_gen(sc, &g) < 0) {
			fail(x, NULL, NULL, "out of memory");
			goto out;
		}
	}
	rc = 0;
out:
	free(ports);
	return rc;
}

/* ---- replay sections ---- */

static int parse_prefix(const char *s, struct model_replay_prefix *p, long *port)
{
	char addr[64], *slash, *eq, *end;
	long plen;
	size_t n;

	eq = strchr(s, '=');
	if (!eq || (n = (size_t)(eq - s)) >= sizeof(addr))
		return -1;
	memcpy(addr, s, n);
	addr[n] = 0;
	errno = 0;
	*port = strtol(eq + 1, &end, 10);
	if (end == eq + 1 || *end || errno)
		return -1;
	slash = strchr(addr, '/');
	if (slash)
		*slash = 0;
	memset(p, 0, sizeof(*p));
	if (inet_pton(AF_INET, addr, p->addr) == 1) {
		p->family = 4;
		plen = 32;
	} else if (inet_pton(AF_INET6, addr, p->addr) == 1) {
		p->family = 6;
		plen = 128;
	} else {
		return -1;
	}
	if (slash) {
		long l = strtol(slash + 1, &end, 10);

		if (end == slash + 1 || *end || l < 0 || l > plen)
			return -1;
		plen = l;
	}
	p->plen = (uint8_t)plen;
	return 0;
}

static int build_replay(struct ctx *x, cfg_t *rs, struct model_scenario *sc)
{
	const struct model_config *cfg = &sc->cfg;
	struct model_scen_replay *r;
	const struct sval *v;
	unsigned i, n;
	long l;

	r = realloc(sc->replay, (sc->nreplay + 1) * sizeof(*r));
	if (!r)
		return fail(x, NULL, NULL, "out of memory");
	sc->replay = r;
	r = &sc->replay[sc->nreplay++];
	memset(r, 0, sizeof(*r));
	model_replay_defaults(&r->rc);
	r->rc.nports = (uint16_t)cfg->nports;

	if (!(v = get(rs, "file")))
		return fail(x, NULL, "file", "missing: the pcap file to replay");
	snprintf(r->where, sizeof(r->where), "%s:%d", x->file, v->line);
	{
		const char *slash = strrchr(x->file, '/');
		size_t dl = slash && v->text[0] != '/' ? (size_t)(slash - x->file) + 1 : 0;

		r->file = malloc(dl + strlen(v->text) + 1);
		if (!r->file)
			return fail(x, v, "file", "out of memory");
		memcpy(r->file, x->file, dl);
		strcpy(r->file + dl, v->text);
		r->rc.file = r->file;
	}
	if (parse_ports(x, rs, "ingress_ports", cfg->nports, &r->in_ports, &r->rc.n_in_ports) < 0 ||
	    parse_ports(x, rs, "egress_ports", cfg->nports, &r->out_ports, &r->rc.n_out_ports) < 0)
		return -1;
	r->rc.in_ports = r->in_ports;
	r->rc.out_ports = r->out_ports;

	n = cfg_size(rs, "vlan_ports");
	if (n) {
		r->vlan_map = calloc(n, sizeof(*r->vlan_map));
		if (!r->vlan_map)
			return fail(x, NULL, NULL, "out of memory");
	}
	for (i = 0; i < n; i++) {
		char *end;
		long vid, port;

		v = cfg_getnptr(rs, "vlan_ports", i);
		errno = 0;
		vid = strtol(v->text, &end, 10);
		if (end == v->text || *end != ':')
			return fail(x, v, "vlan_ports", "'%s' is not VLAN:PORT", v->text);
		{
			const char *s = end + 1;

			port = strtol(s, &end, 10);
			if (end == s || *end || errno)
				return fail(x, v, "vlan_ports", "'%s' is not VLAN:PORT", v->text);
		}
		if (vid < 0 || vid > 4095)
			return fail(x, v, "vlan_ports", "VLAN %ld is out of range 0..4095", vid);
		if (port < 0 || port >= (long)cfg->nports)
			return fail(x, v, "vlan_ports", "port %ld is out of range 0..%u", port,
				    cfg->nports - 1);
		r->vlan_map[i].vid = (uint16_t)vid;
		r->vlan_map[i].port = (uint16_t)port;
	}
	r->rc.vlan_map = r->vlan_map;
	r->rc.n_vlan_map = n;

	n = cfg_size(rs, "egress_map");
	if (n) {
		r->egress_map = calloc(n, sizeof(*r->egress_map));
		if (!r->egress_map)
			return fail(x, NULL, NULL, "out of memory");
	}
	for (i = 0; i < n; i++) {
		long port;

		v = cfg_getnptr(rs, "egress_map", i);
		if (parse_prefix(v->text, &r->egress_map[i], &port) < 0)
			return fail(x, v, "egress_map",
				    "'%s' is not PREFIX=PORT (e.g. \"10.1.0.0/16=3\")", v->text);
		if (port < 0 || port >= (long)cfg->nports)
			return fail(x, v, "egress_map", "port %ld is out of range 0..%u", port,
				    cfg->nports - 1);
		r->egress_map[i].port = (uint16_t)port;
	}
	r->rc.egress_map = r->egress_map;
	r->rc.n_egress_map = n;

	if ((v = get(rs, "time_scale")) &&
	    parse_double(x, v, "time_scale", 0, 1e9, 1, &r->rc.time_scale) < 0)
		return -1;
	if ((v = get(rs, "start")) && parse_time(x, v, "start", &r->rc.start_ns) < 0)
		return -1;
	if (get_long(x, rs, "loop", 0, UINT32_MAX, &l) < 0)
		return -1;
	if (get(rs, "loop"))
		r->rc.loops = (uint32_t)l;
	if ((v = get(rs, "mc_group"))) {
		if (cfg->n_mc_groups == 0)
			return fail(x, v, "mc_group", "no mc_group sections are defined");
		if (parse_long(x, v, "mc_group", 1, cfg->n_mc_groups, &l) < 0)
			return -1;
		r->rc.mc_group = (uint16_t)l;
	}
	return 0;
}

/* ---- entry points ---- */

int model_scenario_from_cfg(cfg_t *sec, const char *filename,
			    const struct model_scenario_opts *opts, struct model_scenario *sc,
			    char *err, size_t errlen)
{
	struct ctx x;
	unsigned i;

	memset(sc, 0, sizeof(*sc));
	memset(&x, 0, sizeof(x));
	x.file = filename ? filename : "(config)";
	sc->file = strdup(x.file);
	if (!sc->file) {
		snprintf(err, errlen, "%s: out of memory", x.file);
		return -1;
	}
	x.err = err;
	x.errlen = errlen;
	if (build_switch(&x, sec, sc) < 0)
		return -1;
	if (opts && opts->set_seed)
		sc->cfg.seed = opts->seed;
	for (i = 0; sec && i < cfg_size(sec, "traffic"); i++) {
		cfg_t *ts = cfg_getnsec(sec, "traffic", i);

		snprintf(x.sect, sizeof(x.sect), "traffic \"%s\": ", cfg_title(ts));
		x.sect_line = ts->line;
		if (build_traffic(&x, ts, i, sc) < 0)
			return -1;
		sc->ntraffic++;
	}
	for (i = 0; sec && i < cfg_size(sec, "replay"); i++) {
		cfg_t *rs = cfg_getnsec(sec, "replay", i);

		snprintf(x.sect, sizeof(x.sect), "replay \"%s\": ", cfg_title(rs));
		x.sect_line = rs->line;
		if (build_replay(&x, rs, sc) < 0)
			return -1;
	}
	return 0;
}

/*
 * Keep only the top-level `model { ... }` sections of a config text:
 * everything else becomes blanks (newlines stay, so line numbers hold).
 * Knows libconfuse's comments (#, //, / * * /) and quoted strings.
 */
static char *only_model(const char *text, unsigned *nkept)
{
	size_t n = strlen(text), i = 0, keep_from = 0;
	char *out = malloc(n + 1);
	int depth = 0, keeping = 0, want_brace = 0;

	if (!out)
		return NULL;
	for (size_t j = 0; j < n; j++)
		out[j] = text[j] == '\n' ? '\n' : ' ';
	out[n] = 0;
	while (i < n) {
		char c = text[i];

		if (c == '#' || (c == '/' && text[i + 1] == '/')) {
			while (i < n && text[i] != '\n')
				i++;
			continue;
		}
		if (c == '/' && text[i + 1] == '*') {
			i += 2;
			while (i < n && !(text[i] == '*' && text[i + 1] == '/'))
				i++;
			i = i < n ? i + 2 : n;
			continue;
		}
		if (c == '"' || c == '\'') {
			i++;
			while (i < n && text[i] != c) {
				if (text[i] == '\\' && i + 1 < n)
					i++;
				i++;
			}
			i++;
			want_brace = 0;
			continue;
		}
		if (c == '{') {
			if (depth == 0 && want_brace)
				keeping = 1;
			want_brace = 0;
			depth++;
			i++;
			continue;
		}
		if (c == '}') {
			if (depth > 0)
				depth--;
			i++;
			if (depth == 0 && keeping) {
				memcpy(out + keep_from, text + keep_from, i - keep_from);
				keeping = 0;
				(*nkept)++;
			}
			continue;
		}
		if (isspace((unsigned char)c)) {
			i++;
			continue;
		}
		if (depth == 0 && !keeping) {
			size_t s = i;

			while (i < n && (isalnum((unsigned char)text[i]) || text[i] == '_' ||
					 text[i] == '-' || text[i] == '.'))
				i++;
			if (i == s) {
				i++;
				want_brace = 0;
				continue;
			}
			want_brace = (i - s == 5 && strncmp(text + s, "model", 5) == 0);
			if (want_brace)
				keep_from = s;
			continue;
		}
		i++;
	}
	return out;
}

/* libconfuse's own messages (syntax, unknown keys).  Sections carry no
 * file name in libconfuse 3.3, so those say only the line; the caller's
 * summary names the file. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 0)))
#endif
static void
syntax_error(cfg_t *cfg, const char *fmt, va_list ap)
{
	if (cfg && cfg->filename)
		fprintf(stderr, "%s:%d: ", cfg->filename, cfg->line);
	else if (cfg && cfg->line > 0)
		fprintf(stderr, "line %d: ", cfg->line);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

static int parse_text(const char *text, const char *name, const struct model_scenario_opts *opts,
		      struct model_scenario *sc, char *err, size_t errlen)
{
	cfg_opt_t top[] = {CFG_SEC("model", model_opts, CFGF_NONE), CFG_END()};
	unsigned nkept = 0;
	char *only = only_model(text, &nkept);
	cfg_t *root;
	int rc;

	memset(sc, 0, sizeof(*sc));
	if (!only) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -1;
	}
	if (nkept == 0) {
		free(only);
		snprintf(err, errlen, "%s: no model section", name);
		return -1;
	}
	root = cfg_init(top, CFGF_NONE);
	if (!root) {
		free(only);
		snprintf(err, errlen, "%s: out of memory", name);
		return -1;
	}
	cfg_set_error_function(root, syntax_error);
	free(root->filename);
	root->filename = strdup(name);
	rc = cfg_parse_buf(root, only);
	free(only);
	if (rc != CFG_SUCCESS) {
		snprintf(err, errlen,
			 "%s: syntax error in the model section (see the message above)", name);
		cfg_free(root);
		return -1;
	}
	rc = model_scenario_from_cfg(cfg_getsec(root, "model"), name, opts, sc, err, errlen);
	cfg_free(root);
	return rc;
}

int model_scenario_parse_text(const char *text, const char *name,
			      const struct model_scenario_opts *opts, struct model_scenario *sc,
			      char *err, size_t errlen)
{
	return parse_text(text, name ? name : "(text)", opts, sc, err, errlen);
}

int model_scenario_parse_file(const char *path, const struct model_scenario_opts *opts,
			      struct model_scenario *sc, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, got;
	int rc;

	memset(sc, 0, sizeof(*sc));
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	do {
		if (cap - len < 4096) {
			char *nb = realloc(buf, cap ? cap * 2 : 8192);

			if (!nb) {
				free(buf);
				fclose(f);
				snprintf(err, errlen, "%s: out of memory", path);
				return -1;
			}
			buf = nb;
			cap = cap ? cap * 2 : 8192;
		}
		got = fread(buf + len, 1, cap - len - 1, f);
		len += got;
	} while (got > 0);
	if (ferror(f)) {
		snprintf(err, errlen, "%s: read error: %s", path, strerror(errno));
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[len] = 0;
	if (strlen(buf) != len) {
		snprintf(err, errlen, "%s: not a text file (contains a NUL byte)", path);
		free(buf);
		return -1;
	}
	rc = parse_text(buf, path, opts, sc, err, errlen);
	free(buf);
	return rc;
}

int model_scenario_add_sources(const struct model_scenario *sc, struct model *m, char *err,
			       size_t errlen)
{
	const char *name = sc->file ? sc->file : "(config)";
	char e[300];
	unsigned i;

	for (i = 0; i < sc->ngen; i++) {
		struct model_source s;

		if (model_gen_new(&sc->gen[i], &s, e, sizeof(e)) < 0) {
			snprintf(err, errlen, "traffic generator for port %u: %s",
				 sc->gen[i].in_port, e);
			return -1;
		}
		if (model_add_source(m, &s) < 0) {
			s.free(s.state);
			snprintf(err, errlen, "cannot add a traffic source to the model");
			return -1;
		}
	}
	for (i = 0; i < sc->nreplay; i++) {
		struct model_source s;

		if (model_replay_new(&sc->replay[i].rc, &s, e, sizeof(e)) < 0) {
			snprintf(err, errlen, "%s: replay: %s", sc->replay[i].where, e);
			return -1;
		}
		if (model_add_source(m, &s) < 0) {
			s.free(s.state);
			snprintf(err, errlen, "%s: cannot add a replay source to the model", name);
			return -1;
		}
	}
	return 0;
}

struct model *model_scenario_build(const struct model_scenario *sc, char *err, size_t errlen)
{
	struct model_err me;
	struct model *m = model_new(&sc->cfg, &me);

	if (!m) {
		snprintf(err, errlen, "%s: model: %s", sc->file ? sc->file : "(config)", me.msg);
		return NULL;
	}
	if (model_scenario_add_sources(sc, m, err, errlen) < 0) {
		model_free(m);
		return NULL;
	}
	return m;
}

void model_scenario_free(struct model_scenario *sc)
{
	unsigned i;

	model_config_release(&sc->cfg);
	free(sc->gen);
	for (i = 0; i < sc->nreplay; i++) {
		struct model_scen_replay *r = &sc->replay[i];

		free(r->file);
		free(r->in_ports);
		free(r->out_ports);
		free(r->vlan_map);
		free(r->egress_map);
	}
	free(sc->replay);
	free(sc->file);
	memset(sc, 0, sizeof(*sc));
}

/* ---- the demo: keep identical to etc/scenarios/demo.conf ---- */

const char model_demo_scenario[] =
    "# demo.conf - the built-in demo scenario of bsflowd.\n"
    "#\n"
    "# bsflowd runs this model section when it is started without a config\n"
    "# file; bsflow-sim -f demo.conf runs it on virtual time.  The daemon\n"
    "# keeps a copy compiled in (agent/model/scenario.c, model_demo_scenario),\n"
    "# and a test checks that the two stay identical.\n"
    "#\n"
    "# An 8-port switch (10G, but port 5 is a 1G server port) with 8 unicast\n"
    "# queues per port and a 2 MB buffer, light enough (about 250 000 packets\n"
    "# a second) for the model to run in real time inside bsflowd on a small\n"
    "# fraction of a core:\n"
    "#  - port 0: incast microbursts, ports 1-4 send at line rate to port 0\n"
    "#    for 250 us every 50 ms (a 4:1 burst: the queue fills, some tail drops);\n"
    "#  - port 5 (1G): steadily congested, ports 6 and 7 each send 800 Mb/s to\n"
    "#    it (1.6:1), WRED on its queue 1 drops early;\n"
    "#  - ports 0 -> 1: light background traffic, 1 % dropped by an ACL;\n"
    "#  - ports 2, 3, 4, 6 and 7 receive nothing: idle egress ports.\n"
    "# Ports are numbered from 0 (names port0..port7).\n"
    "\n"
    "model {\n"
    "\tseed = 1\n"
    "\tports = 8\n"
    "\tspeed = 10G\n"
    "\tbuffer = 2M\n"
    "\tunicast_queues = 8\n"
    "\talpha = 1\n"
    "\tsampling_rate = 1000\n"
    "\tduration = 20s\n"
    "\n"
    "\t# the server port\n"
    "\tport 5 {\n"
    "\t\tspeed = 1G\n"
    "\t}\n"
    "\n"
    "\t# WRED on queue 1 (traffic class 1, DSCP 8..15) of port 5\n"
    "\twred {\n"
    "\t\tports = {5}\n"
    "\t\tqueues = {1}\n"
    "\t\tmin = 64K\n"
    "\t\tmax = 256K\n"
    "\t\tprobability = 20%\n"
    "\t}\n"
    "\n"
    "\ttraffic incast {\n"
    "\t\tports = {1-4}\n"
    "\t\tdestination = incast\n"
    "\t\tto = 0\n"
    "\t\trate = 100%\n"
    "\t\tarrival = onoff\n"
    "\t\tperiod = 50ms\n"
    "\t\tduty = 0.5%\n"
    "\t\tsize = 1500\n"
    "\t\tdscp = 0\n"
    "\t\tflows = 4\n"
    "\t}\n"
    "\n"
    "\ttraffic congested {\n"
    "\t\tports = {6, 7}\n"
    "\t\tdestination = fixed\n"
    "\t\tto = 5\n"
    "\t\trate = 800M\n"
    "\t\tarrival = poisson\n"
    "\t\tsize = 576-1500\n"
    "\t\tdscp = 8\n"
    "\t\tflows = 32\n"
    "\t}\n"
    "\n"
    "\ttraffic background {\n"
    "\t\tports = {0}\n"
    "\t\tdestination = fixed\n"
    "\t\tto = 1\n"
    "\t\trate = 200M\n"
    "\t\tsize = 64-1518\n"
    "\t\tprotocol = tcp\n"
    "\t\tdscp = 0\n"
    "\t\tflows = 64\n"
    "\t\tdrop = 1%\n"
    "\t\tdrop_reason = acl\n"
    "\t}\n"
    "}\n";
