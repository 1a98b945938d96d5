/*
 * backends.c - choose and open the configured backend (built-in or
 * plugin), with its host table and its ABI wrapper.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "agent/abiwrap.h"
#include "agent/model/backend_model.h"
#include "agent/backends.h"
#include "agent/evqueue.h"
#include "agent/host.h"
#include "agent/linux/backend_linux.h"
#include "agent/log.h"
#include "agent/sampling.h"
#ifdef HAVE_SONIC
#include "agent/sonic/backend_sonic.h"
#endif

static void prefix_line(const struct conf *c, char *err, size_t errlen, const char *msg)
{
	if (c->backend_line > 0)
		snprintf(err, errlen, "%s:%d: %s", c->file, c->backend_line, msg);
	else
		snprintf(err, errlen, "%s: %s", c->file, msg);
}

/* The backend's own table (loaded, checked) into *raw. */
static int resolve_ops(struct bsf_backend *be, const struct conf *c,
		       const struct bsf_backend_ops **raw, char *err, size_t errlen)
{
	char msg[768];

	memset(be, 0, sizeof *be);
	switch (c->backend) {
	case CONF_BACKEND_MODEL:
		*raw = bsf_backend_model_ops();
		if (bsf_backend_check_ops(*raw, "built-in backend model", msg, sizeof msg) < 0) {
			prefix_line(c, err, errlen, msg);
			return -1;
		}
		return 0;
	case CONF_BACKEND_SONIC:
#ifdef HAVE_SONIC
		*raw = bsf_backend_sonic_ops();
		if (bsf_backend_check_ops(*raw, "built-in backend sonic", msg, sizeof msg) < 0) {
			prefix_line(c, err, errlen, msg);
			return -1;
		}
		return 0;
#else
		prefix_line(c, err, errlen,
			    "backend sonic: not built in (configure --without-sonic)");
		return -1;
#endif
	case CONF_BACKEND_PLUGIN:
		if (bsf_plugin_load(c->backend_path, &be->plugin, msg, sizeof msg) < 0) {
			prefix_line(c, err, errlen, msg);
			return -1;
		}
		*raw = be->plugin.ops;
		return 0;
	case CONF_BACKEND_LINUX:
		*raw = linuxbe_ops();
		if (bsf_backend_check_ops(*raw, "built-in backend linux", msg, sizeof msg) < 0) {
			prefix_line(c, err, errlen, msg);
			return -1;
		}
		return 0;
	default:
		prefix_line(c, err, errlen, "unknown backend");
		return -1;
	}
}

/* The configured sampling rate of a port (sampling.h precedence). */
static uint32_t sampling_rate_cb(void *arg, const char *port_name, uint64_t speed_bps)
{
	return bsf_sampling_resolve(arg, port_name, speed_bps, NULL);
}

static void fill_args(struct bsf_backend_args *args, const struct conf *c)
{
	memset(args, 0, sizeof *args);
	args->size = sizeof *args;
	args->section_text = c->backend_section;
	args->section_file = c->file;
	args->section_line = c->backend_section_line;
	args->options = (const char *const *)c->plugin_options;
	args->n_options = c->n_plugin_options;
	args->config_file = c->file;
	args->drop_limit = c->drops.limit;
	if (c->sampling_set) {
		args->sampling_rate = sampling_rate_cb;
		args->sampling_arg = (void *)&c->sampling;
	}
}

/* A backend's message, as "FILE:LINE: ..." */
static void open_error(const struct conf *c, const char *msg, char *err, size_t errlen)
{
	char m2[700];
	size_t flen = strlen(c->file);

	if (strncmp(msg, c->file, flen) == 0 && msg[flen] == ':') {
		/* already "FILE:LINE: ..." (the section's errors) */
		snprintf(err, errlen, "%s", msg);
	} else {
		snprintf(m2, sizeof m2, "backend %s: %s", conf_backend_name(c),
			 msg[0] ? msg : "cannot open (no reason given)");
		prefix_line(c, err, errlen, m2);
	}
}

/* Pushed events of the queue streams lost to the host's full queue:
 * enqueues, dequeues, and drops (a streamed queue's drops are among
 * them). */
static uint64_t push_stream_lost(void *arg)
{
	struct bsf_evq *q = arg;

	return bsf_evq_lost(q, BSF_EV_ENQUEUE) + bsf_evq_lost(q, BSF_EV_DEQUEUE) +
	       bsf_evq_lost(q, BSF_EV_DROP);
}

int bsf_backend_open(struct bsf_backend *be, const struct conf *c, struct event_base *base,
		     void (*drain)(void *arg), void *drain_arg, char *err, size_t errlen)
{
	const struct bsf_backend_ops *raw;
	struct bsf_backend_args args;
	char msg[512] = "";
	void *st;

	if (resolve_ops(be, c, &raw, err, errlen) < 0)
		return -1;
	be->host = bsf_host_new(base, drain, drain_arg);
	if (!be->host) {
		open_error(c, "out of memory", err, errlen);
		goto fail;
	}
	fill_args(&args, c);
	args.host = &be->host->host;
	if (c->backend == CONF_BACKEND_MODEL && c->model_seed_set)
		st = bsf_backend_model_open_seeded(&args, c->model_seed, msg, sizeof msg);
	else
		st = raw->open(&args, msg, sizeof msg);
	if (!st) {
		open_error(c, msg, err, errlen);
		goto fail;
	}
	be->wrap = bsf_abiwrap_new(raw, st, be->host->q ? push_stream_lost : NULL, be->host->q, msg,
				   sizeof msg);
	if (!be->wrap) {
		raw->close(st);
		open_error(c, msg, err, errlen);
		goto fail;
	}
	be->ops = bsf_abiwrap_ops(be->wrap);
	be->st = bsf_abiwrap_st(be->wrap);
	return 0;
fail:
	bsf_host_free(be->host);
	bsf_plugin_unload(&be->plugin);
	memset(be, 0, sizeof *be);
	return -1;
}

void *bsf_backend_own_state(const struct bsf_backend *be, const struct bsf_backend_ops *ops)
{
	return bsf_abiwrap_backend_st(be->wrap, ops);
}

void bsf_backend_close(struct bsf_backend *be)
{
	if (be->ops && be->st)
		be->ops->close(be->st);
	bsf_abiwrap_free(be->wrap);
	/* after close: no backend thread pushes any more */
	bsf_host_free(be->host);
	bsf_plugin_unload(&be->plugin);
	memset(be, 0, sizeof *be);
}

void bsf_backend_on_change(struct bsf_backend *be, void (*changed)(void *arg), void *arg)
{
	if (be->host)
		bsf_host_on_change(be->host, changed, arg);
}

const struct bsf_device_desc *bsf_backend_redescribe(struct bsf_backend *be,
						     const struct bsf_device_desc **prev, char *err,
						     size_t errlen)
{
	const struct bsf_device_desc *d;
	uint64_t refused;

	if (!be->wrap) {
		snprintf(err, errlen, "no backend open");
		return NULL;
	}
	d = bsf_abiwrap_redescribe(be->wrap, prev, err, errlen);
	/* describe() has returned (whatever it gave): the backend pushes
	 * with the numbering it made current */
	refused = be->host ? bsf_host_described(be->host) : 0;
	if (refused)
		log_info("backend %s: %llu events pushed between its device_changed and "
			 "describe() refused (counted lost: their port numbering is not known)",
			 be->ops->name, (unsigned long long)refused);
	return d;
}

void bsf_backend_release_previous(struct bsf_backend *be)
{
	if (be->wrap)
		bsf_abiwrap_release_previous(be->wrap);
}

size_t bsf_backend_pop_events(struct bsf_backend *be, struct bsf_event *ev, size_t max)
{
	return be->host && be->host->q ? bsf_evq_pop(be->host->q, ev, max) : 0;
}

uint64_t bsf_backend_push_lost(const struct bsf_backend *be, uint32_t type)
{
	return be->host && be->host->q ? bsf_evq_lost(be->host->q, type) : 0;
}

uint64_t bsf_backend_push_lost_all(const struct bsf_backend *be)
{
	return be->host && be->host->q ? bsf_evq_lost_all(be->host->q) : 0;
}

uint64_t bsf_backend_push_refused(const struct bsf_backend *be)
{
	return be->host && be->host->q ? bsf_evq_refused(be->host->q) : 0;
}

int bsf_backend_check(const struct conf *c, char *report, size_t reportlen, char *err,
		      size_t errlen)
{
	const struct bsf_backend_ops *raw;
	struct bsf_backend_ops ops;
	struct bsf_backend be;
	struct bsf_backend_args args;
	char msg[512] = "";
	int rc = 0;

	if (reportlen)
		report[0] = '\0';
	if (resolve_ops(&be, c, &raw, err, errlen) < 0)
		return -1;
	bsf_abi_ops_copy(&ops, raw);
	if (ops.check) {
		fill_args(&args, c);
		if (ops.check(&args, report, reportlen, msg, sizeof msg) < 0) {
			open_error(c, msg, err, errlen);
			rc = -1;
		}
	}
	bsf_plugin_unload(&be.plugin);
	return rc;
}
