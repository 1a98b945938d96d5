/*
 * conf.c - parse and validate bsflowd.conf with libconfuse.
 *
 * The option tables below are the grammar documented in bsflowd.conf(5)
 * (every key is also in the commented etc/bsflowd.conf; test_conf_keys
 * checks both ways).  Every value is a raw value (CONF_V, confval.h)
 * checked after the parse with the value parsers of confval.h, so every
 * message reads "FILE:LINE: section "name": key = value: problem;
 * allowed: ..." with the line of the value.  What libconfuse itself
 * refuses (syntax, unknown keys) is worded alike by conf_lib_parse.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <confuse.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/addr.h"
#include "agent/conf.h"
#include "agent/confwire.h"
#include "agent/confval.h"
#include "agent/flowsample.h"
#include "agent/linux/linuxcfg.h"
#include "agent/model/scenario.h"
#include "agent/sonic/sonic_conf.h"
#include "proto/sflow.h"

/* The per-speed keys of the sampling section (bsflowd.conf(5)). */
static const char *const conf_speed_keys[] = {"10M", "100M", "1G",   "2.5G", "5G",   "10G", "25G",
					      "40G", "50G",  "100G", "200G", "400G", "800G"};
#define CONF_N_SPEED_KEYS (sizeof conf_speed_keys / sizeof conf_speed_keys[0])

/* The grammar: every value is a raw value (CONF_V, confval.h) checked
 * after the parse by conf_build. */
static cfg_opt_t agent_opts[] = {
    CONF_V("address"),
    CONF_V("sub_agent_id"),
    CONF_V("enterprise"),
    CFG_END(),
};
static cfg_opt_t collector_opts[] = {
    CONF_V("address"), CONF_V("port"), CONF_V("source"), CONF_V("device"), CFG_END(),
};
static cfg_opt_t plugin_opts[] = {
    CONF_VL("option"),
    CFG_END(),
};
static cfg_opt_t sampling_port_opts[] = {
    CONF_V("rate"),
    CFG_END(),
};
/* keep the speed keys in the order of conf_speed_keys */
static cfg_opt_t sampling_opts[] = {
    CONF_V("default"),
    CONF_V("10M"),
    CONF_V("100M"),
    CONF_V("1G"),
    CONF_V("2.5G"),
    CONF_V("5G"),
    CONF_V("10G"),
    CONF_V("25G"),
    CONF_V("40G"),
    CONF_V("50G"),
    CONF_V("100G"),
    CONF_V("200G"),
    CONF_V("400G"),
    CONF_V("800G"),
    CFG_SEC("port", sampling_port_opts, CFGF_MULTI | CFGF_TITLE | CFGF_NO_TITLE_DUPES),
    CFG_END(),
};
static cfg_opt_t drops_opts[] = {
    CONF_V("limit"), CONF_V("max"), CONF_V("max_trip"), CONF_V("cooldown"), CFG_END(),
};
static cfg_opt_t conf_top_opts[] = {
    CFG_SEC("agent", agent_opts, CFGF_NONE),
    CFG_SEC("collector", collector_opts, CFGF_MULTI | CFGF_TITLE | CFGF_NO_TITLE_DUPES),
    CONF_V("polling_interval"),
    CONF_V("datagram_bytes"),
    CONF_V("backend"),
    CFG_SEC("model", NULL, CFGF_NONE), /* model_conf_opts(), set in conf_opts */
    CFG_SEC("plugin", plugin_opts, CFGF_NONE),
    CFG_SEC("linux", NULL, CFGF_NONE), /* linuxbe_conf_opts(), set in conf_opts */
    CFG_SEC("sonic", NULL, CFGF_NONE), /* sonic_conf_opts() */
    CONF_V("header_bytes"),
    CFG_SEC("sampling", sampling_opts, CFGF_NODEFAULT),
    CFG_SEC("drops", drops_opts, CFGF_NONE),
    CFG_SEC("visibility", NULL, CFGF_MULTI), /* vis_conf_opts() */
    CFG_END(),
};

void *conf_opts(void)
{
	for (cfg_opt_t *o = conf_top_opts; o->name; o++) {
		if (strcmp(o->name, "model") == 0)
			o->subopts = model_conf_opts();
		else if (strcmp(o->name, "visibility") == 0)
			o->subopts = vis_conf_opts();
		else if (strcmp(o->name, "linux") == 0)
			o->subopts = linuxbe_conf_opts();
		else if (strcmp(o->name, "sonic") == 0)
			o->subopts = sonic_conf_opts();
	}
	return conf_top_opts;
}

static cfg_t *conf_new_cfg(void)
{
	return cfg_init(conf_opts(), CFGF_NONE);
}

/* Skip a quoted string at p (the text has been through
 * conf_blank_comments: no comments are left, every string is closed);
 * returns p unchanged if none.  Counts newlines into *line. */
static const char *skip_lexical(const char *p, int *line)
{
	if (*p == '"' || *p == '\'') {
		char q = *p++;

		while (*p && *p != q) {
			if (*p == '\n')
				(*line)++;
			p += (*p == '\\' && p[1]) ? 2 : 1;
		}
		if (*p)
			p++;
	}
	return p;
}

/* Line of the first '{' never closed, or 0.  (libconfuse accepts a file
 * that ends inside a section.) */
static int unclosed_line(const char *p)
{
	int line = 1, depth = 0, open_line[64] = {0};

	while (*p) {
		const char *q = skip_lexical(p, &line);

		if (q != p) {
			p = q;
			continue;
		}
		if (*p == '\n')
			line++;
		else if (*p == '{') {
			if (depth < 64)
				open_line[depth] = line;
			depth++;
		} else if (*p == '}' && depth > 0)
			depth--;
		p++;
	}
	return depth > 0 ? open_line[depth > 64 ? 63 : depth - 1] : 0;
}

/*
 * The source text of every top-level `name { ... }` block of text, joined:
 * what decides whether a reload changed the backend's settings.  (The
 * model section's values are opaque to cfg_print, so the text is taken
 * from the file itself; comments and strings are skipped when matching
 * braces.)
 */
static char *section_text(const char *text, const char *name)
{
	size_t nlen = strlen(name), cap = 64, used = 0;
	char *out = malloc(cap);
	const char *p = text;
	int depth = 0, line = 1;

	if (!out)
		return NULL;
	out[0] = '\0';
	while (*p) {
		const char *q = skip_lexical(p, &line), *e;
		int d = 0;
		size_t n;

		if (q != p) {
			p = q;
			continue;
		}
		if (*p == '{' || *p == '}') {
			depth += *p == '{' ? 1 : -1;
			p++;
			continue;
		}
		if (depth != 0 || strncmp(p, name, nlen) != 0 ||
		    (p != text && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))) {
			p++;
			continue;
		}
		/* `name` at the top level: is a block opening? */
		for (e = p + nlen; *e == ' ' || *e == '\t' || *e == '\n' || *e == '\r'; e++)
			;
		if (*e != '{') {
			p += nlen;
			continue;
		}
		/* copy it to its closing brace */
		while (*e) {
			q = skip_lexical(e, &line);
			if (q != e) {
				e = q;
				continue;
			}
			if (*e == '{')
				d++;
			if (*e++ == '}' && --d == 0)
				break;
		}
		n = (size_t)(e - p);
		if (used + n + 2 > cap) {
			char *nb;

			cap = used + n + 64;
			nb = realloc(out, cap);
			if (!nb) {
				free(out);
				return NULL;
			}
			out = nb;
		}
		memcpy(out + used, p, n);
		used += n;
		out[used++] = '\n';
		out[used] = '\0';
		p = e;
	}
	return out;
}

/* Read key of sec as an integer in lo..hi into *out, leaving *out when
 * absent.  0, or -1 with the message in x->err. */
static int get_u32(struct conf_ctx *x, cfg_t *sec, const char *key, long long lo, long long hi,
		   uint32_t *out)
{
	long long n;

	if (!conf_get(sec, key))
		return 0;
	if (conf_int(x, conf_get(sec, key), key, lo, hi, &n) < 0)
		return -1;
	*out = (uint32_t)n;
	return 0;
}

/* The agent section and the top-level values into c. */
static int build_agent(struct conf_ctx *x, cfg_t *cfg, struct conf *c)
{
	static const char *const fixed[] = {"model", "sonic", NULL};
	cfg_t *agent = cfg_getsec(cfg, "agent");
	const struct conf_val *v;
	struct sflow_addr a;
	uint32_t n;

	conf_enter(x, NULL, "agent", NULL, 0);
	snprintf(c->agent_address, sizeof c->agent_address, "auto");
	if ((v = conf_get(agent, "address")) && strcmp(v->text, "auto") != 0) {
		if (bsf_addr_parse(v->text, &a) < 0)
			return conf_fail(x, v, "address",
					 "not an address; allowed: auto, an IPv4 or IPv6 address");
		if (bsf_addr_classify(&a) == BSF_ADDR_UNUSABLE)
			return conf_fail(x, v, "address",
					 "unspecified or multicast; allowed: auto, a unicast "
					 "address");
		snprintf(c->agent_address, sizeof c->agent_address, "%s", v->text);
	}
	c->sub_agent_id = 0;
	c->enterprise = SFLOW_ENT_OWN_DEFAULT;
	if (get_u32(x, agent, "sub_agent_id", 0, 4294967295LL, &c->sub_agent_id) < 0)
		return -1;
	/* 0 and 4413 cannot tag bsflowd's own records (confwire.h) */
	if ((v = conf_get(agent, "enterprise"))) {
		char *end;
		long e = strtol(v->text, &end, 10);
		const char *why = *end == '\0' ? confwire_enterprise_refused(e) : NULL;

		if (why)
			return conf_fail(x, v, "enterprise", "refused: %s", why);
	}
	/* 20 bits of the data_format tag */
	if (get_u32(x, agent, "enterprise", 1, 1048575, &c->enterprise) < 0)
		return -1;
	conf_enter(x, NULL, NULL, NULL, 0);
	n = CONF_DEFAULT_POLLING_INTERVAL;
	if ((v = conf_get(cfg, "polling_interval"))) {
		/* a time as every time key reads it (20, 20s, 20000ms), in
		 * whole seconds */
		uint64_t ns;

		if (conf_time(x, v, "polling_interval", 0,
			      (uint64_t)CONF_MAX_POLLING_INTERVAL * 1000000000ull, &ns) < 0)
			return -1;
		if (ns % 1000000000ull)
			return conf_fail(x, v, "polling_interval",
					 "not whole seconds; allowed: 0..%u seconds, e.g. 20 or "
					 "20s",
					 CONF_MAX_POLLING_INTERVAL);
		n = (uint32_t)(ns / 1000000000ull);
	}
	c->polling_interval = n;
	n = SFLOW_DGRAM_DEFAULT;
	if (get_u32(x, cfg, "datagram_bytes", SFLOW_DGRAM_MIN, SFLOW_DGRAM_MAX, &n) < 0)
		return -1;
	c->datagram_bytes = n;
	c->backend = CONF_BACKEND_MODEL;
	if ((v = conf_get(cfg, "backend"))) {
		int k;

		c->backend_line = v->line;
		if (strcmp(v->text, "linux") == 0) {
			c->backend = CONF_BACKEND_LINUX;
		} else if (strchr(v->text, '/')) {
			c->backend = CONF_BACKEND_PLUGIN;
			c->backend_path = strdup(v->text);
			if (!c->backend_path)
				return conf_fail(x, NULL, NULL, "out of memory");
		} else if (conf_enum(x, v, "backend", fixed, &k) < 0) {
			return conf_fail(
			    x, v, "backend",
			    "unknown backend; allowed: model, linux, sonic or the path of a "
			    "plugin .so (containing a /)");
		} else if (k == 1) {
#ifndef HAVE_SONIC
			return conf_fail(
			    x, v, "backend",
			    "this bsflowd was built without the sonic backend (configure "
			    "--without-sonic)");
#endif
			c->backend = CONF_BACKEND_SONIC;
		}
	}
	return 0;
}

/* The collector sections into c. */
static int build_collectors(struct conf_ctx *x, cfg_t *cfg, struct conf *c)
{
	c->n_collectors = cfg_size(cfg, "collector");
	c->collectors = calloc(c->n_collectors + 1, sizeof *c->collectors);
	if (!c->collectors)
		return conf_fail(x, NULL, NULL, "out of memory");
	for (size_t i = 0; i < c->n_collectors; i++) {
		cfg_t *s = cfg_getnsec(cfg, "collector", (unsigned)i);
		struct conf_collector *k = &c->collectors[i];
		const char *title = cfg_title(s);
		const struct conf_val *v;
		struct sflow_addr a;
		uint32_t port = CONF_DEFAULT_PORT;

		conf_enter(x, NULL, "collector", title, conf_section_line(s));
		k->line = x->sect_line;
		if (!title[0] || strlen(title) >= CONF_NAME_MAX)
			return conf_fail(x, NULL, NULL, "%s name; allowed: 1..%d characters",
					 title[0] ? "too long a" : "an empty", CONF_NAME_MAX - 1);
		snprintf(k->name, sizeof k->name, "%s", title);
		if (!(v = conf_get(s, "address")))
			return conf_fail(
			    x, NULL, "address",
			    "missing; allowed: an IPv4 or IPv6 address or a host name");
		if (strchr(v->text, ':') && strchr(v->text, ':') == strrchr(v->text, ':') &&
		    strchr(v->text, ':')[1] &&
		    strspn(strchr(v->text, ':') + 1, "0123456789") ==
			strlen(strchr(v->text, ':') + 1))
			return conf_fail(x, v, "address",
					 "a port in the address; allowed: the address alone, with "
					 "the port in port = %s",
					 strchr(v->text, ':') + 1);
		if (strlen(v->text) >= CONF_HOST_MAX || conf_host_kind(v->text) == 0)
			return conf_fail(x, v, "address",
					 "not an address or a host name; allowed: an IPv4 or IPv6 "
					 "address, or a host name (letters, digits, - and dots, at "
					 "most 253 characters)");
		snprintf(k->address, sizeof k->address, "%s", v->text);
		if (get_u32(x, s, "port", 1, 65535, &port) < 0)
			return -1;
		k->port = (uint16_t)port;
		if ((v = conf_get(s, "source")) && v->text[0]) {
			if (bsf_addr_parse(v->text, &a) < 0)
				return conf_fail(
				    x, v, "source",
				    "not an address; allowed: \"\" (any) or an IPv4 or "
				    "IPv6 address");
			snprintf(k->source, sizeof k->source, "%s", v->text);
		}
		if ((v = conf_get(s, "device")) && v->text[0]) {
			if (strlen(v->text) >= IF_NAMESIZE)
				return conf_fail(
				    x, v, "device",
				    "too long; allowed: \"\" (none) or a device name of "
				    "1..%d characters",
				    IF_NAMESIZE - 1);
			snprintf(k->device, sizeof k->device, "%s", v->text);
		}
	}
	conf_enter(x, NULL, NULL, NULL, 0);
	return 0;
}

/* The plugin section into c. */
static int build_plugin(struct conf_ctx *x, cfg_t *cfg, struct conf *c)
{
	cfg_t *pl = cfg_getsec(cfg, "plugin");
	unsigned n = cfg_size(pl, "option");

	conf_enter(x, NULL, "plugin", NULL, 0);
	c->plugin_options = calloc(n + 1, sizeof *c->plugin_options);
	if (!c->plugin_options)
		return conf_fail(x, NULL, NULL, "out of memory");
	for (unsigned i = 0; i < n; i++) {
		const struct conf_val *v = cfg_getnptr(pl, "option", i);
		const char *eq = strchr(v->text, '=');

		if (!eq || eq == v->text)
			return conf_fail(x, v, "option", "not key=value; allowed: \"key=value\"");
		c->plugin_options[i] = strdup(v->text);
		if (!c->plugin_options[i])
			return conf_fail(x, NULL, NULL, "out of memory");
		c->n_plugin_options++;
	}
	conf_enter(x, NULL, NULL, NULL, 0);
	return 0;
}

/* header_bytes, the sampling section and the drops section into c. */
static int build_flows(struct conf_ctx *x, cfg_t *cfg, struct conf *c)
{
	cfg_t *dr = cfg_getsec(cfg, "drops");
	uint32_t hb = BSF_FLOW_HEADER_DEFAULT;

	if (get_u32(x, cfg, "header_bytes", BSF_FLOW_HEADER_MIN, BSF_FLOW_HEADER_MAX, &hb) < 0)
		return -1;
	c->header_bytes = hb;
	c->drops.limit = BSF_DISCARD_LIMIT_DEFAULT;
	c->drops.max = BSF_DISCARD_MAX_DEFAULT;
	c->drops.max_trip = BSF_DISCARD_MAX_TRIP_DEFAULT;
	c->drops.cooldown = BSF_DISCARD_COOLDOWN_DEFAULT;
	conf_enter(x, NULL, "drops", NULL, 0);
	if (get_u32(x, dr, "limit", 0, 1000000, &c->drops.limit) < 0 ||
	    get_u32(x, dr, "max", 0, 2147483647LL, &c->drops.max) < 0 ||
	    get_u32(x, dr, "max_trip", 1, 3600, &c->drops.max_trip) < 0 ||
	    get_u32(x, dr, "cooldown", 1, 86400, &c->drops.cooldown) < 0)
		return -1;
	if (cfg_size(cfg, "sampling") > 0) {
		cfg_t *sm = cfg_getsec(cfg, "sampling");
		unsigned np = cfg_size(sm, "port");
		size_t ns = 0;

		conf_enter(x, NULL, "sampling", NULL, 0);
		c->sampling_set = 1;
		if (conf_get(sm, "default")) {
			c->sampling.have_default = 1;
			if (get_u32(x, sm, "default", 0, BSF_SAMPLING_MAX,
				    &c->sampling.default_rate) < 0)
				return -1;
		}
		c->sampling_speeds = calloc(CONF_N_SPEED_KEYS, sizeof *c->sampling_speeds);
		c->sampling_ports = calloc(np + 1, sizeof *c->sampling_ports);
		if (!c->sampling_speeds || !c->sampling_ports)
			return conf_fail(x, NULL, NULL, "out of memory");
		for (size_t i = 0; i < CONF_N_SPEED_KEYS; i++) {
			uint64_t bps;

			if (!conf_get(sm, conf_speed_keys[i]) ||
			    bsf_sampling_parse_speed(conf_speed_keys[i], &bps) < 0)
				continue;
			if (get_u32(x, sm, conf_speed_keys[i], 0, BSF_SAMPLING_MAX,
				    &c->sampling_speeds[ns].rate) < 0)
				return -1;
			c->sampling_speeds[ns].speed_bps = bps;
			ns++;
		}
		for (unsigned i = 0; i < np; i++) {
			cfg_t *ps = cfg_getnsec(sm, "port", i);
			const char *title = cfg_title(ps);
			char *name;

			conf_enter(x, "sampling", "port", title, conf_section_line(ps));
			if (!title[0] || strlen(title) >= CONF_NAME_MAX)
				return conf_fail(
				    x, NULL, NULL, "%s name; allowed: 1..%d characters",
				    title[0] ? "too long a" : "an empty", CONF_NAME_MAX - 1);
			if (!conf_get(ps, "rate"))
				return conf_fail(x, NULL, "rate", "missing; allowed: 0..%u",
						 BSF_SAMPLING_MAX);
			name = strdup(title);
			if (!name)
				return conf_fail(x, NULL, NULL, "out of memory");
			c->sampling_ports[i].name = name;
			c->sampling.nports = i + 1;
			if (get_u32(x, ps, "rate", 0, BSF_SAMPLING_MAX,
				    &c->sampling_ports[i].rate) < 0)
				return -1;
		}
		c->sampling.speeds = c->sampling_speeds;
		c->sampling.nspeeds = ns;
		c->sampling.ports = c->sampling_ports;
	}
	conf_enter(x, NULL, NULL, NULL, 0);
	return 0;
}

/* Turn a parsed tree into a struct conf (the tree is kept in it); NULL
 * with the message in err. */
static struct conf *conf_build(cfg_t *cfg, const char *name, const char *text, char *err,
			       size_t errlen)
{
	struct conf *c = calloc(1, sizeof *c);
	struct conf_ctx x = {.file = name, .err = err, .errlen = errlen};
	char *sectext = NULL, *samptext = NULL;
	const char *backend;
	size_t tlen;

	if (!c)
		goto nomem;
	vis_config_init(&c->vis);
	c->cfg = cfg;
	c->file = strdup(name);
	if (!c->file)
		goto nomem;
	if (build_agent(&x, cfg, c) < 0 || build_collectors(&x, cfg, c) < 0 ||
	    (c->backend == CONF_BACKEND_PLUGIN && build_plugin(&x, cfg, c) < 0) ||
	    build_flows(&x, cfg, c) < 0)
		goto fail;
	backend = conf_backend_name(c);
	sectext = section_text(text, c->backend == CONF_BACKEND_PLUGIN	? "plugin"
				     : c->backend == CONF_BACKEND_LINUX ? "linux"
				     : c->backend == CONF_BACKEND_SONIC ? "sonic"
									: "model");
	if (!sectext)
		goto nomem;
	/* the backend applies the sampling rates when it opens: a change of
	 * the sampling section reopens it */
	samptext = section_text(text, "sampling");
	if (!samptext)
		goto nomem;
	/* the linux backend limits its kernel drop reports to drops { limit }
	 * when it opens: a change of the limit reopens it */
	tlen = strlen(backend) + strlen(sectext) + strlen(samptext) + 16;
	c->backend_text = malloc(tlen);
	if (!c->backend_text)
		goto nomem;
	snprintf(c->backend_text, tlen, "%s\n%s\n%s\n%u", backend, sectext, samptext,
		 c->backend == CONF_BACKEND_LINUX ? c->drops.limit : 0);
	free(sectext);
	sectext = NULL;
	free(samptext);
	samptext = NULL;
	c->vis_text = section_text(text, "visibility");
	if (!c->vis_text)
		goto nomem;
	return c;
nomem:
	snprintf(err, errlen, "%s: out of memory", name);
fail:
	free(sectext);
	free(samptext);
	if (c) {
		c->cfg = NULL; /* the caller frees the tree */
		conf_free(c);
	}
	return NULL;
}

/*
 * Where the body of the first top-level `name { ... }` block of clean (a
 * text whose comments are blanked) lies: *off and *len of what is between
 * its braces, *line the line of its first byte.  0, or -1 if there is none.
 */
static int section_body(const char *clean, const char *name, size_t *off, size_t *len, int *line)
{
	size_t nlen = strlen(name);
	const char *p = clean;
	int depth = 0, ln = 1, nl;

	while (*p) {
		const char *q = skip_lexical(p, &ln), *e;
		int d = 1;

		if (q != p) {
			p = q;
			continue;
		}
		if (*p == '\n')
			ln++;
		if (*p == '{' || *p == '}')
			depth += *p == '{' ? 1 : -1;
		if (depth != 0 || strncmp(p, name, nlen) != 0 ||
		    (p != clean && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))) {
			p++;
			continue;
		}
		/* the newlines before a '{' count only if it opens the block:
		 * otherwise the main loop counts them (`backend = linux`) */
		nl = 0;
		for (e = p + nlen; *e == ' ' || *e == '\t' || *e == '\n' || *e == '\r'; e++)
			if (*e == '\n')
				nl++;
		if (*e != '{') {
			p += nlen;
			continue;
		}
		ln += nl;
		*off = (size_t)(e + 1 - clean);
		*line = ln;
		for (e++; *e;) {
			q = skip_lexical(e, &ln);
			if (q != e) {
				e = q;
				continue;
			}
			if (*e == '{')
				d++;
			else if (*e == '}' && --d == 0)
				break;
			e++;
		}
		*len = (size_t)(e - clean) - *off;
		return 0;
	}
	return -1;
}

/* c's backend section from text (the original, comments included), for
 * the backend to parse: c->backend_section, c->backend_section_line. */
static int conf_take_section(struct conf *c, const char *text, const char *clean)
{
	const char *name = c->backend == CONF_BACKEND_MODEL   ? "model"
			   : c->backend == CONF_BACKEND_LINUX ? "linux"
			   : c->backend == CONF_BACKEND_SONIC ? "sonic"
							      : "plugin";
	size_t off, len;
	int line;

	if (section_body(clean, name, &off, &len, &line) < 0)
		return 0;
	c->backend_section = malloc(len + 1);
	if (!c->backend_section)
		return -1;
	memcpy(c->backend_section, text + off, len);
	c->backend_section[len] = '\0';
	c->backend_section_line = line;
	return 0;
}

/* conf_parse on text whose comments are blanked (conf_blank_comments). */
static struct conf *conf_parse_clean(const char *path, const char *text, char *err, size_t errlen)
{
	struct conf *c;
	cfg_t *cfg;
	int line;

	err[0] = '\0';
	cfg = conf_new_cfg();
	if (!cfg) {
		snprintf(err, errlen, "%s: cannot initialise the parser", path);
		return NULL;
	}
	line = unclosed_line(text);
	if (line > 0) {
		snprintf(err, errlen, "%s:%d: section not closed (missing })", path, line);
		cfg_free(cfg);
		return NULL;
	}
	if (conf_lib_parse(cfg, path, text, err, errlen) < 0) {
		cfg_free(cfg);
		return NULL;
	}
	c = conf_build(cfg, path, text, err, errlen);
	if (!c) {
		cfg_free(cfg);
		return NULL;
	}
	/* the visibility section's values are checked by its library */
	if (vis_conf_single(cfg, path, err, errlen) < 0 ||
	    vis_conf_from_cfg(cfg_getsec(cfg, "visibility"), path, &c->vis, err, errlen) < 0) {
		conf_free(c);
		return NULL;
	}
	return c;
}

/* The model section's values, checked by the model library's parser on
 * the section's text, as the model backend reads it (its check op, for
 * -t, also builds the switch; a load only parses). */
static int conf_check_model(const struct conf *c, char *err, size_t errlen)
{
	struct model_scenario sc;
	int rc = model_scenario_parse_section(c->backend_section, c->file, c->backend_section_line,
					      NULL, &sc, err, errlen);

	model_scenario_free(&sc);
	return rc;
}

/* Parse the text of a config file (path names it in messages).  Its
 * comments are blanked first: libconfuse 3.3 miscounts the lines after
 * them, and every FILE:LINE after a comment would be wrong. */
static struct conf *conf_parse(const char *path, const char *text, char *err, size_t errlen)
{
	char *clean;
	struct conf *c;

	if (conf_check_text(text, path, err, errlen) < 0)
		return NULL;
	clean = conf_blank_comments(text, path, err, errlen);
	if (!clean)
		return NULL;
	c = conf_parse_clean(path, clean, err, errlen);
	if (c && conf_take_section(c, text, clean) < 0) {
		snprintf(err, errlen, "%s: out of memory", path);
		conf_free(c);
		c = NULL;
	}
	free(clean);
	if (c && c->backend == CONF_BACKEND_MODEL && conf_check_model(c, err, errlen) < 0) {
		conf_free(c);
		c = NULL;
	}
	if (c && c->backend == CONF_BACKEND_SONIC) {
		struct sonic_conf sc;

		if (sonic_conf_parse(c->backend_section, c->file, c->backend_section_line, &sc, err,
				     errlen) < 0) {
			conf_free(c);
			c = NULL;
		}
	}
	return c;
}

struct conf *conf_load_file(const char *path, char *err, size_t errlen)
{
	char *text = conf_read_file(path, err, errlen);
	struct conf *c;

	if (!text)
		return NULL;
	c = conf_parse(path, text, err, errlen);
	free(text);
	if (c)
		c->is_file = 1;
	return c;
}

struct conf *conf_load_text(const char *text, const char *name, char *err, size_t errlen)
{
	return conf_parse(name, text, err, errlen);
}

/* Does text have a top-level "model {" line (a whole file), or is it the
 * body of the model section? */
static int has_model_section(const char *text)
{
	const char *p = text;

	while (p && *p) {
		const char *q = p;

		while (*q == ' ' || *q == '\t')
			q++;
		if (strncmp(q, "model", 5) == 0) {
			q += 5;
			while (*q == ' ' || *q == '\t' || *q == '\n')
				q++;
			if (*q == '{')
				return 1;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

struct conf *conf_load_default(char *err, size_t errlen)
{
	static const char head[] = "backend = model\n"
				   "collector \"default\" {\n"
				   "  address = 127.0.0.1\n"
				   "  port = 6343\n"
				   "}\n";
	int whole = has_model_section(model_demo_scenario);
	size_t n = sizeof head + strlen(model_demo_scenario) + 16;
	char *text = malloc(n);
	struct conf *c;

	if (!text) {
		snprintf(err, errlen, "(built-in default): out of memory");
		return NULL;
	}
	snprintf(text, n, "%s%s%s%s", head, whole ? "" : "model {\n", model_demo_scenario,
		 whole ? "\n" : "\n}\n");
	c = conf_parse("(built-in default)", text, err, errlen);
	free(text);
	return c;
}

void conf_free(struct conf *c)
{
	if (!c)
		return;
	if (c->cfg)
		cfg_free(c->cfg);
	for (size_t i = 0; i < c->n_plugin_options; i++)
		free(c->plugin_options[i]);
	free(c->plugin_options);
	free(c->backend_path);
	free(c->backend_text);
	free(c->backend_section);
	free(c->vis_text);
	vis_config_release(&c->vis);
	free(c->collectors);
	for (size_t i = 0; i < c->sampling.nports; i++)
		free((char *)c->sampling_ports[i].name);
	free(c->sampling_ports);
	free(c->sampling_speeds);
	free(c->file);
	free(c);
}

void *conf_backend_section(const struct conf *c)
{
	switch (c->backend) {
	case CONF_BACKEND_MODEL:
		return cfg_getsec(c->cfg, "model");
	case CONF_BACKEND_PLUGIN:
		return cfg_getsec(c->cfg, "plugin");
	case CONF_BACKEND_SONIC:
		return cfg_getsec(c->cfg, "sonic");
	default:
		return NULL;
	}
}

int conf_backend_same(const struct conf *a, const struct conf *b)
{
	return strcmp(a->backend_text, b->backend_text) == 0 &&
	       a->model_seed_set == b->model_seed_set &&
	       (!a->model_seed_set || a->model_seed == b->model_seed);
}

int conf_vis_same(const struct conf *a, const struct conf *b)
{
	return strcmp(a->vis_text, b->vis_text) == 0;
}

const char *conf_backend_name(const struct conf *c)
{
	switch (c->backend) {
	case CONF_BACKEND_MODEL:
		return "model";
	case CONF_BACKEND_LINUX:
		return "linux";
	case CONF_BACKEND_SONIC:
		return "sonic";
	default:
		return c->backend_path;
	}
}
