/*
 * conf.c - parse and validate bsflowd.conf with libconfuse.
 *
 * The option tables below are the grammar documented in bsflowd.conf(5)
 * (every key is also in the commented etc/bsflowd.conf).  Validation
 * callbacks check ranges and formats as each value is read, so every
 * message carries the line it is about.  libconfuse's error callback has
 * no user pointer, so the messages of the parse in progress go to a
 * file-local sink that exists only during conf_parse() (the daemon is
 * single-threaded).
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
#include "agent/confval.h"
#include "agent/flowsample.h"
#include "agent/model/backend_model.h"
#include "agent/model/scenario.h"
#include "agent/sonic/sonic_conf.h"
#include "proto/sflow.h"

struct conf_sink {
	char *buf;
	size_t len;
	int nerr;
	cfg_t *root; /* for the file name and line inside sections */
};

static struct conf_sink *conf_cur_sink;

static void conf_errfunc(cfg_t *cfg, const char *fmt, va_list ap)
{
	struct conf_sink *s = conf_cur_sink;
	char msg[512], sect[160];
	const char *file;
	size_t used;
	int line;

	if (!s)
		return;
	vsnprintf(msg, sizeof msg, fmt, ap);
	s->nerr++;
	if (s->nerr > 1)
		return; /* the first error is the one that matters */
	used = strlen(s->buf);
	file = cfg && cfg->filename ? cfg->filename : s->root ? s->root->filename : NULL;
	line = cfg && cfg->line > 0 ? cfg->line : s->root ? s->root->line : 0;
	/* inside a section: name it, as the sections' own checks do */
	sect[0] = '\0';
	if (cfg && s->root && cfg != s->root && cfg->name) {
		if (cfg->title)
			snprintf(sect, sizeof sect, "%s \"%s\": ", cfg->name, cfg->title);
		else
			snprintf(sect, sizeof sect, "%s: ", cfg->name);
	}
	if (file && line > 0)
		snprintf(s->buf + used, s->len - used, "%s:%d: %s%s", file, line, sect, msg);
	else if (file)
		snprintf(s->buf + used, s->len - used, "%s: %s%s", file, sect, msg);
	else
		snprintf(s->buf + used, s->len - used, "%s%s", sect, msg);
}

static int check_range(cfg_t *cfg, cfg_opt_t *opt, long lo, long hi)
{
	for (unsigned i = 0; i < cfg_opt_size(opt); i++) {
		long v = cfg_opt_getnint(opt, i);

		if (v < lo || v > hi) {
			cfg_error(cfg, "%s = %ld: out of range (%ld..%ld)", cfg_opt_name(opt), v,
				  lo, hi);
			return -1;
		}
	}
	return 0;
}

static int v_sub_agent(cfg_t *cfg, cfg_opt_t *opt)
{
	return check_range(cfg, opt, 0, 4294967295L);
}

static int v_enterprise(cfg_t *cfg, cfg_opt_t *opt)
{
	/* 20 bits of the data_format tag; 0 is the standard enterprise */
	return check_range(cfg, opt, 1, 1048575);
}

static int v_polling(cfg_t *cfg, cfg_opt_t *opt)
{
	return check_range(cfg, opt, 0, CONF_MAX_POLLING_INTERVAL);
}

static int v_dgram(cfg_t *cfg, cfg_opt_t *opt)
{
	return check_range(cfg, opt, SFLOW_DGRAM_MIN, SFLOW_DGRAM_MAX);
}

static int v_port(cfg_t *cfg, cfg_opt_t *opt)
{
	return check_range(cfg, opt, 1, 65535);
}

static int v_agent_address(cfg_t *cfg, cfg_opt_t *opt)
{
	const char *s = cfg_opt_getnstr(opt, 0);
	struct sflow_addr a;

	if (!s || strcmp(s, "auto") == 0)
		return 0;
	if (bsf_addr_parse(s, &a) < 0) {
		cfg_error(cfg, "address = \"%s\": not an IPv4 or IPv6 address, nor auto", s);
		return -1;
	}
	if (bsf_addr_classify(&a) == BSF_ADDR_UNUSABLE) {
		cfg_error(cfg, "address = \"%s\": unspecified or multicast address", s);
		return -1;
	}
	return 0;
}

static int v_collector_address(cfg_t *cfg, cfg_opt_t *opt)
{
	const char *s = cfg_opt_getnstr(opt, 0);

	if (!s || !*s) {
		cfg_error(cfg, "address: empty");
		return -1;
	}
	if (strlen(s) >= CONF_HOST_MAX) {
		cfg_error(cfg, "address: longer than %d characters", CONF_HOST_MAX - 1);
		return -1;
	}
	return 0;
}

static int v_source(cfg_t *cfg, cfg_opt_t *opt)
{
	const char *s = cfg_opt_getnstr(opt, 0);
	struct sflow_addr a;

	if (!s || !*s)
		return 0;
	if (bsf_addr_parse(s, &a) < 0) {
		cfg_error(cfg, "source = \"%s\": not an IPv4 or IPv6 address", s);
		return -1;
	}
	return 0;
}

static int v_device(cfg_t *cfg, cfg_opt_t *opt)
{
	const char *s = cfg_opt_getnstr(opt, 0);

	if (s && strlen(s) >= IF_NAMESIZE) {
		cfg_error(cfg, "device = \"%s\": longer than %d characters", s, IF_NAMESIZE - 1);
		return -1;
	}
	return 0;
}

static int v_backend(cfg_t *cfg, cfg_opt_t *opt)
{
	const char *s = cfg_opt_getnstr(opt, 0);

	if (!s || strcmp(s, "model") == 0)
		return 0;
	if (strcmp(s, "sonic") == 0) {
#ifndef HAVE_SONIC
		cfg_error(cfg, "backend = sonic: this bsflowd was built without it (configure "
			       "--without-sonic)");
		return -1;
#else
		return 0;
#endif
	}
	if (strcmp(s, "linux") == 0) {
		cfg_error(cfg, "backend = linux: not built yet in this version of bsflowd; use "
			       "model or the path of a backend plugin");
		return -1;
	}
	if (!strchr(s, '/')) {
		cfg_error(cfg,
			  "backend = \"%s\": unknown backend; use model or the path of a plugin "
			  ".so (containing a /)",
			  s);
		return -1;
	}
	return 0;
}

static int v_plugin_option(cfg_t *cfg, cfg_opt_t *opt)
{
	for (unsigned i = 0; i < cfg_opt_size(opt); i++) {
		const char *s = cfg_opt_getnstr(opt, i);
		const char *eq = strchr(s, '=');

		if (!eq || eq == s) {
			cfg_error(cfg, "option \"%s\": not of the form key=value", s);
			return -1;
		}
	}
	return 0;
}

static int v_collector(cfg_t *cfg, cfg_opt_t *opt)
{
	/* the section just closed is the last one */
	cfg_t *sec = cfg_opt_getnsec(opt, cfg_opt_size(opt) - 1);

	if (!cfg_getstr(sec, "address")) {
		cfg_error(cfg, "collector \"%s\": no address", cfg_title(sec));
		return -1;
	}
	if (strlen(cfg_title(sec)) >= CONF_NAME_MAX) {
		cfg_error(cfg, "collector \"%s\": name longer than %d characters", cfg_title(sec),
			  CONF_NAME_MAX - 1);
		return -1;
	}
	return 0;
}

/* ---- packet sampling and drop notifications */

/* The per-speed keys of the sampling section (bsflowd.conf(5)). */
static const char *const conf_speed_keys[] = {"10M", "100M", "1G",   "2.5G", "5G",   "10G", "25G",
					      "40G", "50G",  "100G", "200G", "400G", "800G"};
#define CONF_N_SPEED_KEYS (sizeof conf_speed_keys / sizeof conf_speed_keys[0])

static int v_header_bytes(cfg_t *cfg, cfg_opt_t *opt)
{
	return check_range(cfg, opt, BSF_FLOW_HEADER_MIN, BSF_FLOW_HEADER_MAX);
}

static int v_rate(cfg_t *cfg, cfg_opt_t *opt)
{
	return check_range(cfg, opt, 0, BSF_SAMPLING_MAX);
}

static int v_sampling_port(cfg_t *cfg, cfg_opt_t *opt)
{
	cfg_t *sec = cfg_opt_getnsec(opt, cfg_opt_size(opt) - 1);

	if (cfg_size(sec, "rate") == 0) {
		cfg_error(cfg, "port \"%s\": no rate", cfg_title(sec));
		return -1;
	}
	if (strlen(cfg_title(sec)) >= CONF_NAME_MAX) {
		cfg_error(cfg, "port \"%s\": name longer than %d characters", cfg_title(sec),
			  CONF_NAME_MAX - 1);
		return -1;
	}
	return 0;
}

static int v_drops_limit(cfg_t *cfg, cfg_opt_t *opt)
{
	return check_range(cfg, opt, 0, 1000000);
}

static int v_drops_max(cfg_t *cfg, cfg_opt_t *opt)
{
	return check_range(cfg, opt, 0, 2147483647L);
}

static int v_drops_max_trip(cfg_t *cfg, cfg_opt_t *opt)
{
	return check_range(cfg, opt, 1, 3600);
}

static int v_drops_cooldown(cfg_t *cfg, cfg_opt_t *opt)
{
	return check_range(cfg, opt, 1, 86400);
}

static cfg_t *conf_new_cfg(void)
{
	static cfg_opt_t agent_opts[] = {
	    CFG_STR("address", "auto", CFGF_NONE),
	    CFG_INT("sub_agent_id", 0, CFGF_NONE),
	    CFG_INT("enterprise", SFLOW_ENT_OWN_DEFAULT, CFGF_NONE),
	    CFG_END(),
	};
	static cfg_opt_t collector_opts[] = {
	    CFG_STR("address", NULL, CFGF_NODEFAULT),
	    CFG_INT("port", CONF_DEFAULT_PORT, CFGF_NONE),
	    CFG_STR("source", "", CFGF_NONE),
	    CFG_STR("device", "", CFGF_NONE),
	    CFG_END(),
	};
	static cfg_opt_t plugin_opts[] = {
	    CFG_STR_LIST("option", "{}", CFGF_NONE),
	    CFG_END(),
	};
	static cfg_opt_t sampling_port_opts[] = {
	    CFG_INT("rate", 0, CFGF_NODEFAULT),
	    CFG_END(),
	};
	/* keep the speed keys in the order of conf_speed_keys */
	static cfg_opt_t sampling_opts[] = {
	    CFG_INT("default", 0, CFGF_NODEFAULT),
	    CFG_INT("10M", 0, CFGF_NODEFAULT),
	    CFG_INT("100M", 0, CFGF_NODEFAULT),
	    CFG_INT("1G", 0, CFGF_NODEFAULT),
	    CFG_INT("2.5G", 0, CFGF_NODEFAULT),
	    CFG_INT("5G", 0, CFGF_NODEFAULT),
	    CFG_INT("10G", 0, CFGF_NODEFAULT),
	    CFG_INT("25G", 0, CFGF_NODEFAULT),
	    CFG_INT("40G", 0, CFGF_NODEFAULT),
	    CFG_INT("50G", 0, CFGF_NODEFAULT),
	    CFG_INT("100G", 0, CFGF_NODEFAULT),
	    CFG_INT("200G", 0, CFGF_NODEFAULT),
	    CFG_INT("400G", 0, CFGF_NODEFAULT),
	    CFG_INT("800G", 0, CFGF_NODEFAULT),
	    CFG_SEC("port", sampling_port_opts, CFGF_MULTI | CFGF_TITLE | CFGF_NO_TITLE_DUPES),
	    CFG_END(),
	};
	static cfg_opt_t drops_opts[] = {
	    CFG_INT("limit", BSF_DISCARD_LIMIT_DEFAULT, CFGF_NONE),
	    CFG_INT("max", BSF_DISCARD_MAX_DEFAULT, CFGF_NONE),
	    CFG_INT("max_trip", BSF_DISCARD_MAX_TRIP_DEFAULT, CFGF_NONE),
	    CFG_INT("cooldown", BSF_DISCARD_COOLDOWN_DEFAULT, CFGF_NONE),
	    CFG_END(),
	};
	cfg_opt_t opts[] = {
	    CFG_SEC("agent", agent_opts, CFGF_NONE),
	    CFG_SEC("collector", collector_opts, CFGF_MULTI | CFGF_TITLE | CFGF_NO_TITLE_DUPES),
	    CFG_INT("polling_interval", CONF_DEFAULT_POLLING_INTERVAL, CFGF_NONE),
	    CFG_INT("datagram_bytes", SFLOW_DGRAM_DEFAULT, CFGF_NONE),
	    CFG_STR("backend", "model", CFGF_NONE),
	    CFG_SEC("model", model_conf_opts(), CFGF_NONE),
	    CFG_SEC("plugin", plugin_opts, CFGF_NONE),
	    CFG_SEC("sonic", sonic_conf_opts(), CFGF_NONE),
	    CFG_INT("header_bytes", BSF_FLOW_HEADER_DEFAULT, CFGF_NONE),
	    CFG_SEC("sampling", sampling_opts, CFGF_NODEFAULT),
	    CFG_SEC("drops", drops_opts, CFGF_NONE),
	    CFG_SEC("visibility", vis_conf_opts(), CFGF_MULTI),
	    CFG_END(),
	};
	cfg_t *cfg = cfg_init(opts, CFGF_NONE);
	char path[32];

	if (!cfg)
		return NULL;
	cfg_set_error_function(cfg, conf_errfunc);
	cfg_set_validate_func(cfg, "agent|sub_agent_id", v_sub_agent);
	cfg_set_validate_func(cfg, "agent|enterprise", v_enterprise);
	cfg_set_validate_func(cfg, "agent|address", v_agent_address);
	cfg_set_validate_func(cfg, "collector|address", v_collector_address);
	cfg_set_validate_func(cfg, "collector|port", v_port);
	cfg_set_validate_func(cfg, "collector|source", v_source);
	cfg_set_validate_func(cfg, "collector|device", v_device);
	cfg_set_validate_func(cfg, "collector", v_collector);
	cfg_set_validate_func(cfg, "polling_interval", v_polling);
	cfg_set_validate_func(cfg, "datagram_bytes", v_dgram);
	cfg_set_validate_func(cfg, "backend", v_backend);
	cfg_set_validate_func(cfg, "plugin|option", v_plugin_option);
	cfg_set_validate_func(cfg, "header_bytes", v_header_bytes);
	cfg_set_validate_func(cfg, "sampling|default", v_rate);
	for (size_t i = 0; i < CONF_N_SPEED_KEYS; i++) {
		snprintf(path, sizeof path, "sampling|%s", conf_speed_keys[i]);
		cfg_set_validate_func(cfg, path, v_rate);
	}
	cfg_set_validate_func(cfg, "sampling|port|rate", v_rate);
	cfg_set_validate_func(cfg, "sampling|port", v_sampling_port);
	cfg_set_validate_func(cfg, "drops|limit", v_drops_limit);
	cfg_set_validate_func(cfg, "drops|max", v_drops_max);
	cfg_set_validate_func(cfg, "drops|max_trip", v_drops_max_trip);
	cfg_set_validate_func(cfg, "drops|cooldown", v_drops_cooldown);
	return cfg;
}

/* Skip a quoted string at p, or a C comment left unclosed (the only
 * comments left: the text has been through conf_blank_comments); returns p
 * unchanged if none.  Counts newlines into *line. */
static const char *skip_lexical(const char *p, int *line)
{
	if (p[0] == '/' && p[1] == '*') {
		for (p += 2; *p && !(p[0] == '*' && p[1] == '/'); p++)
			if (*p == '\n')
				(*line)++;
		if (*p)
			p += 2;
	} else if (*p == '"' || *p == '\'') {
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

/* Line of the last top-level "key =" in text, or 0.  (libconfuse's line
 * when a validation callback runs may already be past the value.) */
static int top_key_line(const char *p, const char *key)
{
	size_t klen = strlen(key);
	const char *start = p;
	int line = 1, depth = 0, found = 0;

	while (*p) {
		const char *q = skip_lexical(p, &line);

		if (q != p) {
			p = q;
			continue;
		}
		if (*p == '\n') {
			line++;
		} else if (*p == '{') {
			depth++;
		} else if (*p == '}') {
			depth--;
		} else if (depth == 0 && strncmp(p, key, klen) == 0 &&
			   (p == start || !(isalnum((unsigned char)p[-1]) || p[-1] == '_'))) {
			q = p + klen;
			while (*q == ' ' || *q == '\t')
				q++;
			if (*q == '=')
				found = line;
		}
		p++;
	}
	return found;
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

/* header_bytes, the sampling section and the drops section into c.
 * 0, or -1 out of memory. */
static int conf_build_flows(struct conf *c, cfg_t *cfg)
{
	cfg_t *dr = cfg_getsec(cfg, "drops");

	c->header_bytes = (unsigned)cfg_getint(cfg, "header_bytes");
	c->drops.limit = (uint32_t)cfg_getint(dr, "limit");
	c->drops.max = (uint32_t)cfg_getint(dr, "max");
	c->drops.max_trip = (uint32_t)cfg_getint(dr, "max_trip");
	c->drops.cooldown = (uint32_t)cfg_getint(dr, "cooldown");
	if (cfg_size(cfg, "sampling") > 0) {
		cfg_t *sm = cfg_getsec(cfg, "sampling");
		unsigned np = cfg_size(sm, "port");
		size_t ns = 0;

		c->sampling_set = 1;
		if (cfg_size(sm, "default") > 0) {
			c->sampling.have_default = 1;
			c->sampling.default_rate = (uint32_t)cfg_getint(sm, "default");
		}
		c->sampling_speeds = calloc(CONF_N_SPEED_KEYS, sizeof *c->sampling_speeds);
		c->sampling_ports = calloc(np + 1, sizeof *c->sampling_ports);
		if (!c->sampling_speeds || !c->sampling_ports)
			return -1;
		for (size_t i = 0; i < CONF_N_SPEED_KEYS; i++) {
			uint64_t bps;

			if (cfg_size(sm, conf_speed_keys[i]) == 0 ||
			    bsf_sampling_parse_speed(conf_speed_keys[i], &bps) < 0)
				continue;
			c->sampling_speeds[ns].speed_bps = bps;
			c->sampling_speeds[ns].rate = (uint32_t)cfg_getint(sm, conf_speed_keys[i]);
			ns++;
		}
		for (unsigned i = 0; i < np; i++) {
			cfg_t *ps = cfg_getnsec(sm, "port", i);
			char *name = strdup(cfg_title(ps));

			if (!name)
				return -1;
			c->sampling_ports[i].name = name;
			c->sampling_ports[i].rate = (uint32_t)cfg_getint(ps, "rate");
			c->sampling.nports = i + 1;
		}
		c->sampling.speeds = c->sampling_speeds;
		c->sampling.nspeeds = ns;
		c->sampling.ports = c->sampling_ports;
	}
	return 0;
}

/* Turn a parsed tree into a struct conf (the tree is kept in it). */
static struct conf *conf_build(cfg_t *cfg, const char *name, const char *text, int backend_line,
			       char *err, size_t errlen)
{
	struct conf *c = calloc(1, sizeof *c);
	cfg_t *agent = cfg_getsec(cfg, "agent");
	const char *backend = cfg_getstr(cfg, "backend");
	char *sectext = NULL, *samptext = NULL;
	size_t tlen;

	if (!c)
		goto nomem;
	vis_config_init(&c->vis);
	c->cfg = cfg;
	c->file = strdup(name);
	if (!c->file)
		goto nomem;
	snprintf(c->agent_address, sizeof c->agent_address, "%s", cfg_getstr(agent, "address"));
	c->sub_agent_id = (uint32_t)cfg_getint(agent, "sub_agent_id");
	c->enterprise = (uint32_t)cfg_getint(agent, "enterprise");
	c->polling_interval = (unsigned)cfg_getint(cfg, "polling_interval");
	c->datagram_bytes = (unsigned)cfg_getint(cfg, "datagram_bytes");
	c->backend_line = backend_line;
	if (strcmp(backend, "model") == 0) {
		c->backend = CONF_BACKEND_MODEL;
	} else if (strcmp(backend, "linux") == 0) {
		c->backend = CONF_BACKEND_LINUX;
	} else if (strcmp(backend, "sonic") == 0) {
		c->backend = CONF_BACKEND_SONIC;
	} else {
		cfg_t *pl = cfg_getsec(cfg, "plugin");
		unsigned n = cfg_size(pl, "option");

		c->backend = CONF_BACKEND_PLUGIN;
		c->backend_path = strdup(backend);
		if (!c->backend_path)
			goto nomem;
		c->plugin_options = calloc(n + 1, sizeof *c->plugin_options);
		if (!c->plugin_options)
			goto nomem;
		for (unsigned i = 0; i < n; i++) {
			c->plugin_options[i] = strdup(cfg_getnstr(pl, "option", i));
			if (!c->plugin_options[i])
				goto nomem;
			c->n_plugin_options++;
		}
	}
	sectext = section_text(text, c->backend == CONF_BACKEND_PLUGIN	? "plugin"
				     : c->backend == CONF_BACKEND_SONIC ? "sonic"
									: "model");
	if (!sectext)
		goto nomem;
	/* the backend applies the sampling rates when it opens: a change of
	 * the sampling section reopens it */
	samptext = section_text(text, "sampling");
	if (!samptext)
		goto nomem;
	tlen = strlen(backend) + strlen(sectext) + strlen(samptext) + 3;
	c->backend_text = malloc(tlen);
	if (!c->backend_text)
		goto nomem;
	snprintf(c->backend_text, tlen, "%s\n%s\n%s", backend, sectext, samptext);
	free(sectext);
	sectext = NULL;
	free(samptext);
	samptext = NULL;
	if (conf_build_flows(c, cfg) < 0)
		goto nomem;
	c->vis_text = section_text(text, "visibility");
	if (!c->vis_text)
		goto nomem;

	c->n_collectors = cfg_size(cfg, "collector");
	c->collectors = calloc(c->n_collectors + 1, sizeof *c->collectors);
	if (!c->collectors)
		goto nomem;
	for (size_t i = 0; i < c->n_collectors; i++) {
		cfg_t *s = cfg_getnsec(cfg, "collector", (unsigned)i);
		struct conf_collector *k = &c->collectors[i];

		snprintf(k->name, sizeof k->name, "%s", cfg_title(s));
		snprintf(k->address, sizeof k->address, "%s", cfg_getstr(s, "address"));
		k->port = (uint16_t)cfg_getint(s, "port");
		snprintf(k->source, sizeof k->source, "%s", cfg_getstr(s, "source"));
		snprintf(k->device, sizeof k->device, "%s", cfg_getstr(s, "device"));
		k->line = s->line;
	}
	return c;
nomem:
	free(sectext);
	free(samptext);
	snprintf(err, errlen, "%s: out of memory", name);
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
	int depth = 0, ln = 1;

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
		for (e = p + nlen; *e == ' ' || *e == '\t' || *e == '\n' || *e == '\r'; e++)
			if (*e == '\n')
				ln++;
		if (*e != '{') {
			p += nlen;
			continue;
		}
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

/* Read a whole file into a NUL-terminated buffer (NULL with errno set). */
static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0;

	if (!f)
		return NULL;
	for (;;) {
		size_t r;

		if (cap - len < 4096) {
			char *nb = realloc(buf, cap + 65536);

			if (!nb) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
			cap += 65536;
		}
		r = fread(buf + len, 1, cap - len - 1, f);
		len += r;
		if (r == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno;

		free(buf);
		fclose(f);
		errno = e ? e : EIO;
		return NULL;
	}
	fclose(f);
	buf[len] = '\0';
	if (strlen(buf) != len) {
		free(buf);
		errno = EINVAL; /* a NUL byte: not a text file */
		return NULL;
	}
	return buf;
}

/* conf_parse on text whose comments are blanked (conf_blank_comments). */
static struct conf *conf_parse_clean(const char *path, const char *text, char *err, size_t errlen)
{
	struct conf_sink sink = {err, errlen, 0, NULL};
	struct conf *c;
	cfg_t *cfg;
	FILE *f;
	int r, line;

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
	f = fmemopen((void *)text, strlen(text), "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		cfg_free(cfg);
		return NULL;
	}
	free(cfg->filename);
	cfg->filename = strdup(path);
	sink.root = cfg;
	conf_cur_sink = &sink;
	r = cfg_parse_fp(cfg, f);
	conf_cur_sink = NULL;
	fclose(f);
	if (r != CFG_SUCCESS) {
		if (!err[0])
			snprintf(err, errlen, "%s: cannot parse", path);
		cfg_free(cfg);
		return NULL;
	}
	c = conf_build(cfg, path, text, top_key_line(text, "backend"), err, errlen);
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

/* The model section's values, checked by the model backend's check op
 * (the model library parses the section's text). */
static int conf_check_model(const struct conf *c, char *err, size_t errlen)
{
	const struct bsf_backend_ops *ops = bsf_backend_model_ops();
	struct bsf_backend_args args;
	char report[256];

	memset(&args, 0, sizeof args);
	args.size = sizeof args;
	args.section_text = c->backend_section;
	args.section_file = c->file;
	args.section_line = c->backend_section_line;
	args.config_file = c->file;
	return ops->check(&args, report, sizeof report, err, errlen);
}

/* Parse the text of a config file (path names it in messages).  Its
 * comments are blanked first: libconfuse 3.3 miscounts the lines after
 * them, and every FILE:LINE after a comment would be wrong. */
static struct conf *conf_parse(const char *path, const char *text, char *err, size_t errlen)
{
	char *clean = conf_blank_comments(text);
	struct conf *c;

	if (!clean) {
		snprintf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
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
	char *text = read_file(path);
	struct conf *c;

	if (!text) {
		snprintf(err, errlen, "%s: %s", path,
			 errno == EINVAL ? "not a text file" : strerror(errno));
		return NULL;
	}
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
	default:
		return NULL;
	}
}

int conf_backend_same(const struct conf *a, const struct conf *b)
{
	return strcmp(a->backend_text, b->backend_text) == 0;
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
