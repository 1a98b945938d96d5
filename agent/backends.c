/*
 * backends.c - choose and open the configured backend (built-in or plugin).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "agent/backends.h"
#include "agent/sampling.h"

static void prefix_line(const struct conf *c, char *err, size_t errlen, const char *msg)
{
	if (c->backend_line > 0)
		snprintf(err, errlen, "%s:%d: %s", c->file, c->backend_line, msg);
	else
		snprintf(err, errlen, "%s: %s", c->file, msg);
}

static int resolve_ops(struct bsf_backend *be, const struct conf *c, char *err, size_t errlen)
{
	char msg[768];

	memset(be, 0, sizeof *be);
	switch (c->backend) {
	case CONF_BACKEND_MODEL:
		be->ops = bsf_backend_model_ops();
		if (bsf_backend_check_ops(be->ops, "built-in backend model", msg, sizeof msg) < 0) {
			prefix_line(c, err, errlen, msg);
			return -1;
		}
		return 0;
	case CONF_BACKEND_PLUGIN:
		if (bsf_plugin_load(c->backend_path, &be->plugin, msg, sizeof msg) < 0) {
			prefix_line(c, err, errlen, msg);
			return -1;
		}
		be->ops = be->plugin.ops;
		return 0;
	default:
		prefix_line(c, err, errlen, "backend linux: not built yet in this version");
		return -1;
	}
}

/* The configured sampling rate of a port (sampling.h precedence). */
static uint32_t sampling_rate_cb(void *arg, const char *port_name, uint64_t speed_bps)
{
	return bsf_sampling_resolve(arg, port_name, speed_bps, NULL);
}

int bsf_backend_open(struct bsf_backend *be, const struct conf *c, struct event_base *base,
		     const struct bsf_host *host, char *err, size_t errlen)
{
	struct bsf_backend_args args;
	char msg[512] = "";

	if (resolve_ops(be, c, err, errlen) < 0)
		return -1;
	memset(&args, 0, sizeof args);
	args.base = base;
	args.host = host;
	args.cfg_section = conf_backend_section(c);
	args.options = (const char *const *)c->plugin_options;
	args.n_options = c->n_plugin_options;
	args.config_file = c->file;
	if (c->sampling_set) {
		args.sampling_rate = sampling_rate_cb;
		args.sampling_arg = (void *)&c->sampling;
	}
	be->st = be->ops->open(&args, msg, sizeof msg);
	if (!be->st) {
		char m2[700];
		size_t flen = strlen(c->file);

		if (strncmp(msg, c->file, flen) == 0 && msg[flen] == ':') {
			/* already "FILE:LINE: ..." (the model section's errors) */
			snprintf(err, errlen, "%s", msg);
		} else {
			snprintf(m2, sizeof m2, "backend %s: %s", conf_backend_name(c),
				 msg[0] ? msg : "cannot open (no reason given)");
			prefix_line(c, err, errlen, m2);
		}
		bsf_plugin_unload(&be->plugin);
		memset(be, 0, sizeof *be);
		return -1;
	}
	return 0;
}

void bsf_backend_close(struct bsf_backend *be)
{
	if (be->ops && be->st)
		be->ops->close(be->st);
	bsf_plugin_unload(&be->plugin);
	memset(be, 0, sizeof *be);
}

int bsf_backend_check(const struct conf *c, char *err, size_t errlen)
{
	struct bsf_backend be;

	if (c->backend == CONF_BACKEND_MODEL) {
		/* build the model (reads replay files) without running it */
		if (bsf_backend_open(&be, c, NULL, NULL, err, errlen) < 0)
			return -1;
		bsf_backend_close(&be);
		return 0;
	}
	if (resolve_ops(&be, c, err, errlen) < 0)
		return -1;
	bsf_plugin_unload(&be.plugin);
	return 0;
}
