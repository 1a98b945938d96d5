/*
 * confwarn.c - `bsflowd -t` warnings (confwarn.h), read from the parsed
 * tree kept in struct conf.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <confuse.h>
#include <string.h>

#include "agent/confval.h"
#include "agent/confwarn.h"

/* bsflowd.conf(5): "a datagram_bytes of at least 330" for a port sample */
#define CONF_WARN_DGRAM_BYTES 330u

/* A positive integer without a unit: seconds, where milliseconds or
 * microseconds were likely meant. */
static int bare_number(const char *s)
{
	if (!*s || strcmp(s, "0") == 0)
		return 0;
	return strspn(s, "0123456789") == strlen(s);
}

/* Every "thresholds" list below sec (the delay profiles). */
static int warn_times(cfg_t *sec, const char *file, const char *path, FILE *out)
{
	int n = 0;

	for (cfg_opt_t *o = sec->opts; o && o->name; o++) {
		if (o->type == CFGT_SEC) {
			for (unsigned i = 0; i < cfg_opt_size(o); i++) {
				cfg_t *s = cfg_opt_getnsec(o, i);
				char sub[160];

				if (!s)
					continue;
				if (s->title)
					snprintf(sub, sizeof sub, "%s%s \"%s\": ", path, s->name,
						 s->title);
				else
					snprintf(sub, sizeof sub, "%s%s: ", path, s->name);
				n += warn_times(s, file, sub, out);
			}
		} else if (o->type == CFGT_PTR && strcmp(o->name, "thresholds") == 0) {
			for (unsigned i = 0; i < cfg_opt_size(o); i++) {
				const struct conf_val *v = cfg_opt_getnptr(o, i);

				if (!v || !bare_number(v->text))
					continue;
				fprintf(
				    out,
				    "%s:%d: warning: %s%s = %s: a bare number is seconds "
				    "(%ss); write the unit (%sms, %sus) if that was not meant\n",
				    file, v->line, path, o->name, v->text, v->text, v->text,
				    v->text);
				n++;
			}
		}
	}
	return n;
}

int conf_warn(const struct conf *c, FILE *out)
{
	cfg_t *root = c->cfg;
	int n = 0;

	if (!root)
		return 0;
	if (c->backend == CONF_BACKEND_MODEL && cfg_size(root, "model") > 0) {
		cfg_t *m = cfg_getsec(root, "model");

		if (m && cfg_size(m, "traffic") == 0 && cfg_size(m, "replay") == 0) {
			int line = c->backend_section_line > 0 ? c->backend_section_line
							       : conf_section_line(m);

			/* no model section written: no line to name */
			if (line > 0)
				fprintf(out, "%s:%d: warning: model: ", c->file, line);
			else
				fprintf(out, "%s: warning: no model section: ", c->file);
			fprintf(out, "no traffic or replay section: the switch stays idle "
				     "(counters all zero, no drops, no samples)\n");
			n++;
		}
	}
	n += warn_times(root, c->file, "", out);
	/* a port's counters sample with its standard records (0:1, 0:2, 0:1005
	 * and 4413:2 with 8 + 8 queues) takes about 300 bytes: below this it
	 * may not fit a datagram, and is then not sent at all
	 * (bsflowd.conf(5), datagram_bytes) */
	if (c->datagram_bytes < CONF_WARN_DGRAM_BYTES) {
		const struct conf_val *v = conf_get(root, "datagram_bytes");

		fprintf(out,
			"%s:%d: warning: datagram_bytes = %u: below %u, a port's counters sample "
			"(0:1, 0:2, 0:1005, 4413:2 with 8 + 8 queues: about 300 bytes) may not "
			"fit, and is then not sent\n",
			c->file, v ? v->line : 0, c->datagram_bytes, CONF_WARN_DGRAM_BYTES);
		n++;
	}
	return n;
}
