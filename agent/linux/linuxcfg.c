/*
 * linuxcfg.c - parse and check the `linux { }` section (linuxcfg.h) with
 * libconfuse.  Errors name the file and line within bsflowd.conf (the
 * section's text starts at a known line) and the key and value:
 * "FILE:LINE: linux: key = value: problem".
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <confuse.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/confhint.h"
#include "agent/confval.h"
#include "agent/linux/linuxcfg.h"
#include "proto/sflow_drops.h"

const char *const linuxbe_src_names[LINUXBE_NSRC] = {"link",	"qdisc",      "sb",	"dropmon",
						     "psample", "tracepoint", "packet", "bpf"};

/* each key once a section (conf_once): libconfuse kept the last silently */
static cfg_opt_t linux_opts[] = {
    CFG_STR_LIST_CB("ports", "{auto}", CFGF_NONE, conf_once_str),
    CFG_STR_LIST_CB("queues", "{auto}", CFGF_NONE, conf_once_str),
    CFG_INT_CB("qdisc_poll_ms", 10, CFGF_NONE, conf_once_int),
    CFG_INT_CB("buffer_poll_ms", 1000, CFGF_NONE, conf_once_int),
    CFG_STR_CB("link", "auto", CFGF_NONE, conf_once_str),
    CFG_STR_CB("qdisc", "auto", CFGF_NONE, conf_once_str),
    CFG_STR_CB("sb", "auto", CFGF_NONE, conf_once_str),
    CFG_STR_CB("dropmon", "auto", CFGF_NONE, conf_once_str),
    CFG_STR_CB("psample", "auto", CFGF_NONE, conf_once_str),
    CFG_STR_CB("tracepoint", "auto", CFGF_NONE, conf_once_str),
    CFG_STR_CB("packet", "auto", CFGF_NONE, conf_once_str),
    CFG_STR_CB("bpf", "auto", CFGF_NONE, conf_once_str),
    CFG_BOOL_CB("install_samplers", cfg_false, CFGF_NONE, conf_once_bool),
    CFG_INT_CB("psample_group", 1, CFGF_NONE, conf_once_int),
    CFG_INT_CB("header_bytes", 128, CFGF_NONE, conf_once_int),
    CFG_STR_LIST_CB("reasons", "{}", CFGF_NONE, conf_once_str),
    CFG_END(),
};

cfg_opt_t *linuxbe_conf_opts(void)
{
	return linux_opts;
}

/* where libconfuse's messages go during one parse (loop thread only) */
static struct {
	char *buf;
	size_t len;
	const char *file;
	int line0;
	int nerr;
} sink;

__attribute__((format(printf, 2, 0))) static void on_error(cfg_t *cfg, const char *fmt, va_list ap)
{
	char msg[400];
	int line = cfg && cfg->line > 0 ? cfg->line : 1;

	va_list ap2;

	if (sink.nerr++)
		return;
	va_copy(ap2, ap);
	conf_lib_message(fmt, ap, msg, sizeof msg);
	if (strcmp(fmt, "no such option '%s'") == 0) /* "did you mean" */
		conf_hint_unknown(cfg, cfg, va_arg(ap2, const char *), msg, sizeof msg);
	va_end(ap2);
	snprintf(sink.buf, sink.len, "%s:%d: linux: %s", sink.file, sink.line0 + line - 1, msg);
}

static int v_mode(cfg_t *cfg, cfg_opt_t *opt)
{
	const char *s = cfg_opt_getnstr(opt, cfg_opt_size(opt) - 1);

	if (strcmp(s, "auto") && strcmp(s, "on") && strcmp(s, "off")) {
		cfg_error(cfg, "%s = \"%s\": use auto, on or off", cfg_opt_name(opt), s);
		return -1;
	}
	return 0;
}

static const struct {
	const char *key;
	long lo, hi;
} int_keys[] = {
    {"qdisc_poll_ms", 1, 10000},
    {"buffer_poll_ms", 10, 60000},
    {"psample_group", 0, 0xffffffffL},
    {"header_bytes", 14, 128},
};

static int v_int(cfg_t *cfg, cfg_opt_t *opt)
{
	long v = cfg_opt_getnint(opt, cfg_opt_size(opt) - 1);
	size_t i;

	for (i = 0; i < sizeof int_keys / sizeof int_keys[0]; i++)
		if (strcmp(int_keys[i].key, cfg_opt_name(opt)) == 0 &&
		    (v < int_keys[i].lo || v > int_keys[i].hi)) {
			cfg_error(cfg, "%s = %ld: out of range (%ld..%ld)", cfg_opt_name(opt), v,
				  int_keys[i].lo, int_keys[i].hi);
			return -1;
		}
	return 0;
}

static int parse_handle(const char *s, uint32_t *h)
{
	unsigned long maj, min;
	char *e;

	maj = strtoul(s, &e, 16);
	if (e == s || *e != ':' || maj > 0xffff)
		return -1;
	s = e + 1;
	min = *s ? strtoul(s, &e, 16) : 0;
	if (*s && (*e || min > 0xffff))
		return -1;
	*h = (uint32_t)(maj << 16 | min);
	return 0;
}

/* Point cfg at the line (within text) of the first "key =" for a message. */
static void at_key(cfg_t *cfg, const char *text, const char *key)
{
	size_t kl = strlen(key);
	const char *p;
	int line = 1;

	cfg->line = 1;
	if (!text)
		return;
	for (p = text; *p; p++) {
		if (*p == '\n') {
			line++;
			continue;
		}
		if ((p == text || p[-1] == '\n' || p[-1] == ' ' || p[-1] == '\t') &&
		    strncmp(p, key, kl) == 0 && strchr(" \t=", p[kl])) {
			cfg->line = line;
			return;
		}
	}
}

int linuxbe_conf_parse(struct linuxbe_conf *c, const char *text, const char *file, int line,
		       char *err, size_t errlen)
{
	cfg_t *cfg;
	unsigned i, n;
	int rc = -1;

	memset(c, 0, sizeof *c);
	sink.buf = err;
	sink.len = errlen;
	sink.file = file ? file : "bsflowd.conf";
	sink.line0 = line > 0 ? line : 1;
	sink.nerr = 0;
	if (errlen)
		err[0] = '\0';
	cfg = cfg_init(linux_opts, CFGF_NONE);
	if (!cfg) {
		snprintf(err, errlen, "%s: linux: out of memory", sink.file);
		return -1;
	}
	cfg_set_error_function(cfg, on_error);
	for (i = 0; i < LINUXBE_NSRC; i++)
		cfg_set_validate_func(cfg, linuxbe_src_names[i], v_mode);
	for (i = 0; i < sizeof int_keys / sizeof int_keys[0]; i++)
		cfg_set_validate_func(cfg, int_keys[i].key, v_int);
	if (cfg_parse_buf(cfg, text ? text : "") != CFG_SUCCESS) {
		if (!sink.nerr)
			snprintf(err, errlen, "%s:%d: linux: cannot parse the section", sink.file,
				 sink.line0);
		goto out;
	}
	c->qdisc_poll_ms = (unsigned)cfg_getint(cfg, "qdisc_poll_ms");
	c->buffer_poll_ms = (unsigned)cfg_getint(cfg, "buffer_poll_ms");
	c->psample_group = (unsigned)cfg_getint(cfg, "psample_group");
	c->header_bytes = (unsigned)cfg_getint(cfg, "header_bytes");
	for (i = 0; i < LINUXBE_NSRC; i++) {
		const char *s = cfg_getstr(cfg, linuxbe_src_names[i]);

		c->mode[i] = strcmp(s, "on") == 0    ? LINUXBE_ON
			     : strcmp(s, "off") == 0 ? LINUXBE_OFF
						     : LINUXBE_AUTO;
	}
	c->install_samplers = cfg_getbool(cfg, "install_samplers");

	n = cfg_size(cfg, "ports");
	at_key(cfg, text, "ports");
	if (n == 0 || n > LINUXBE_MAX_LIST) {
		cfg_error(cfg, "ports: give auto, 1..%d names, or one \"/regex/\"",
			  LINUXBE_MAX_LIST);
		goto out;
	}
	if (n == 1 && strcmp(cfg_getnstr(cfg, "ports", 0), "auto") == 0) {
		c->ports_auto = 1;
	} else {
		for (i = 0; i < n; i++) {
			const char *s = cfg_getnstr(cfg, "ports", i);
			size_t l = strlen(s);

			if (l == 0 || strcmp(s, "auto") == 0) {
				cfg_error(cfg, "ports = \"%s\": auto must be alone; give names", s);
				goto out;
			}
			if (s[0] == '/') {
				regex_t re;
				char *body;
				int bad;

				if (n != 1 || l < 3 || s[l - 1] != '/') {
					cfg_error(cfg,
						  "ports = \"%s\": a regex is one \"/.../\" alone",
						  s);
					goto out;
				}
				body = strndup(s + 1, l - 2);
				bad = !body || regcomp(&re, body, REG_EXTENDED | REG_NOSUB) != 0;
				free(body);
				if (bad) {
					cfg_error(cfg,
						  "ports = \"%s\": not a valid regular expression",
						  s);
					goto out;
				}
				regfree(&re);
			} else if (l >= 16) {
				cfg_error(cfg, "ports = \"%s\": longer than an interface name", s);
				goto out;
			}
			c->ports[c->n_ports] = strdup(s);
			if (!c->ports[c->n_ports++])
				goto nomem;
		}
	}

	n = cfg_size(cfg, "queues");
	at_key(cfg, text, "queues");
	if (!(n == 1 && strcmp(cfg_getnstr(cfg, "queues", 0), "auto") == 0)) {
		if (n > 16) {
			cfg_error(cfg, "queues: at most 16 handles");
			goto out;
		}
		for (i = 0; i < n; i++) {
			const char *s = cfg_getnstr(cfg, "queues", i);

			if (parse_handle(s, &c->queues[i]) < 0) {
				cfg_error(cfg,
					  "queues = \"%s\": not a tc handle (MAJOR:MINOR, hex)", s);
				goto out;
			}
		}
		c->n_queues = n;
	}

	n = cfg_size(cfg, "reasons");
	at_key(cfg, text, "reasons");
	if (n > LINUXBE_MAX_LIST) {
		cfg_error(cfg, "reasons: at most %d entries", LINUXBE_MAX_LIST);
		goto out;
	}
	for (i = 0; i < n; i++) {
		const char *s = cfg_getnstr(cfg, "reasons", i);
		const char *eq = strchr(s, '=');
		uint32_t code;
		char *end;
		unsigned long v;

		if (!eq || eq == s) {
			cfg_error(cfg,
				  "reasons = \"%s\": use \"NAME=code\" or \"NAME=reason_name\"", s);
			goto out;
		}
		v = strtoul(eq + 1, &end, 10);
		if (end != eq + 1 && *end == '\0' && v <= UINT32_MAX) {
			code = (uint32_t)v;
			if (!sflow_drop_name(code)) {
				cfg_error(cfg, "reasons = \"%s\": %lu is not an sFlow drop code", s,
					  v);
				goto out;
			}
		} else if (sflow_drop_code(eq + 1, &code) < 0) {
			cfg_error(cfg, "reasons = \"%s\": %s is not an sFlow drop reason", s,
				  eq + 1);
			goto out;
		}
		c->reason_names[i] = strndup(s, (size_t)(eq - s));
		if (!c->reason_names[i])
			goto nomem;
		c->reason_codes[i] = code;
		c->n_reasons = i + 1;
	}
	rc = 0;
	goto out;
nomem:
	snprintf(err, errlen, "%s: linux: out of memory", sink.file);
out:
	cfg_free(cfg);
	sink.buf = NULL;
	if (rc < 0)
		linuxbe_conf_free(c);
	return rc;
}

void linuxbe_conf_free(struct linuxbe_conf *c)
{
	unsigned i;

	for (i = 0; i < c->n_ports; i++)
		free(c->ports[i]);
	for (i = 0; i < c->n_reasons; i++)
		free(c->reason_names[i]);
	c->n_ports = c->n_reasons = 0;
}
