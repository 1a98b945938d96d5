/*
 * daemon.c - bsflowd's top-level state: applying and reloading the
 * configuration, signals, the backend's event queue, the status dump
 * (see daemon.h for the reload rules).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <errno.h>
#include <event2/event.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent/addr.h"
#include "agent/control.h"
#include "agent/daemon.h"
#include "agent/devchange.h"
#include "agent/export.h"
#include "agent/log.h"
#include "agent/notify.h"
#include "agent/poller.h"
#include "agent/events.h"
#include "agent/evsample.h"
#include "agent/visibility/vis_pipeline.h"
#include "proto/sflow.h"

static const struct sflow_own_sampler_stat *vis_sampler_stats(void *arg, size_t *n)
{
	return bsf_visx_sampler_stats(arg, n);
}

/* The backend pushed events or called events_ready (host.h): drain them
 * on the next turn of the loop. */
static void backend_drain(void *arg)
{
	struct bsf_daemon *d = arg;

	bsf_events_wake(&d->events);
}

/* header_bytes as configured, less what would not fit a datagram of this
 * size (a sample never straddles datagrams). */
static unsigned fit_header_bytes(const struct bsf_daemon *d, unsigned want)
{
	size_t room = export_sample_room(d->x);
	size_t over =
	    BSF_FLOW_OVERHEAD > BSF_DISCARD_OVERHEAD ? BSF_FLOW_OVERHEAD : BSF_DISCARD_OVERHEAD;
	size_t fit = room > over ? (room - over) & ~(size_t)3 : 0;

	if (fit < want)
		want = fit < BSF_FLOW_HEADER_MIN ? BSF_FLOW_HEADER_MIN : (unsigned)fit;
	return want;
}

/* The same for visibility event samples (0: no header bytes fit). */
static unsigned fit_event_header_bytes(const struct bsf_daemon *d, unsigned want)
{
	size_t room = export_sample_room(d->x);
	size_t fit = room > BSF_EVSAMPLE_OVERHEAD ? (room - BSF_EVSAMPLE_OVERHEAD) & ~(size_t)3 : 0;

	return fit < want ? (unsigned)fit : want;
}

struct conf *bsf_daemon_load_conf(const struct bsf_daemon *d, char *err, size_t errlen)
{
	struct stat st;

	/* a missing file is an error, never a silent fallback to the demo */
	if (!d->conf_explicit && stat(d->conf_path, &st) < 0 && errno == ENOENT) {
		snprintf(err, errlen,
			 "%s: No such file or directory (the default configuration file; "
			 "give another with -f)",
			 d->conf_path);
		return NULL;
	}
	return conf_load_file(d->conf_path, err, errlen);
}

int bsf_daemon_init(struct bsf_daemon *d, struct event_base *base, const char *conf_path,
		    int conf_explicit)
{
	memset(d, 0, sizeof *d);
	d->base = base;
	d->conf_path = conf_path;
	d->conf_explicit = conf_explicit;
	d->x = export_new(base);
	if (!d->x)
		return -1;
	d->poller = poller_new(base, d->x, bsf_now_ns() ^ ((uint64_t)getpid() << 32));
	if (!d->poller)
		return -1;
	if (bsf_visx_init(&d->vis, base, d->x, d->poller) < 0)
		return -1;
	if (bsf_events_init(&d->events, base, &d->be, d->x, &d->vis) < 0)
		return -1;
	if (bsf_devchange_init(d) < 0)
		return -1;
	poller_set_port_buffers_hook(d->poller, bsf_visx_port_buffers, &d->vis);
	poller_set_sampler_stats(d->poller, vis_sampler_stats, &d->vis);
	return 0;
}

static int resolve_agent(const struct conf *c, struct sflow_addr *a, char *err, size_t errlen)
{
	char msg[300];

	if (strcmp(c->agent_address, "auto") == 0) {
		if (bsf_addr_auto(a, msg, sizeof msg) < 0) {
			snprintf(err, errlen, "%s: %s", c->file, msg);
			return -1;
		}
		return 0;
	}
	if (bsf_addr_parse(c->agent_address, a) < 0) {
		snprintf(err, errlen, "%s: agent address %s: not an IP address", c->file,
			 c->agent_address);
		return -1;
	}
	return 0;
}

/* One line on packet sampling: how many ports, at which rates. */
static void log_sampling(const struct bsf_daemon *d)
{
	char rates[200] = "";
	size_t used = 0;
	uint32_t on = 0;

	for (uint32_t i = 0; i < d->events.flows.nports; i++) {
		const struct bsf_flows_port *p = &d->events.flows.ports[i];
		int dup = 0;

		if (!p->rate)
			continue;
		on++;
		for (uint32_t j = 0; j < i && !dup; j++)
			dup = d->events.flows.ports[j].rate == p->rate;
		if (!dup && used + 16 < sizeof rates)
			used += (size_t)snprintf(rates + used, sizeof rates - used, "%s1-in-%u",
						 used ? ", " : "", p->rate);
	}
	log_info("packet sampling on %u of %u ports%s%s, %u header bytes; drop notifications "
		 "at most %u a second",
		 on, d->events.flows.nports, on ? " at " : "", rates, d->events.flows.header_bytes,
		 d->events.drops.conf.limit);
}

/* One line on visibility: off, or what runs and whether it restarted. */
static void log_visibility(const struct bsf_daemon *d, const struct conf *c, int kept)
{
	const struct vis_config *vc = &c->vis;

	if (!d->vis.p) {
		log_info("visibility: off");
		return;
	}
	log_info("visibility: drops %s, forensics %s, %zu delay profiles, %zu congestion "
		 "thresholds, %zu samplers%s; %s",
		 vc->drops ? "on" : "off", vc->forensics ? "on" : "off", vc->n_delay,
		 vc->n_congestion, vc->n_samplers,
		 d->vis.drop_routed ? ", drop notifications for sampled drops only" : "",
		 kept ? "unchanged, sampler statistics kept"
		      : "new pipeline, sampler statistics start from 0");
}

int bsf_daemon_apply(struct bsf_daemon *d, struct conf *c, char *err, size_t errlen)
{
	struct sflow_addr agent;
	struct bsf_backend nbe;
	int reopen = !d->be.ops || !d->conf || !conf_backend_same(d->conf, c);
	const struct bsf_device_desc *ndev;
	struct vis_pipeline *nvis = NULL;
	int keep_vis;
	char ab[64];

	/* 1. everything that can fail, before changing anything */
	if (resolve_agent(c, &agent, err, errlen) < 0)
		return -1;
	memset(&nbe, 0, sizeof nbe);
	if (reopen && bsf_backend_open(&nbe, c, d->base, backend_drain, d, err, errlen) < 0)
		return -1;
	/* the visibility pipeline: kept when its section and the number of
	 * ports are the same, else built for the backend that will run */
	/* (the description the data sources use, d->vis.dev: while the
	 * backend's new one cannot be taken, not what describe() gave last) */
	ndev = reopen ? nbe.ops->describe(nbe.st) : d->vis.dev;
	keep_vis = d->vis.p && d->conf && conf_vis_same(d->conf, c) && d->vis.dev &&
		   ndev->nports == d->vis.dev->nports;
	if (!keep_vis && bsf_visx_build(&d->vis, &c->vis, ndev, c->file, &nvis, err, errlen) < 0) {
		if (reopen)
			bsf_backend_close(&nbe);
		return -1;
	}

	/* 2. commit */
	if (reopen) {
		struct bsf_visx_backend *nvb;
		struct poller_next *npl;

		/* what the old backend has queued still goes out, and its
		 * final loss counts are kept */
		bsf_events_backend_closing(&d->events);
		/* allocate everything the new backend needs first; the last
		 * step that can fail (bsf_flows_set_device) comes before the
		 * poller and the visibility export switch over, and nothing can
		 * fail after, so none of them is ever left on a closed backend */
		nvb = bsf_visx_prepare_backend(nbe.ops, nbe.st);
		npl = nvb ? poller_prepare_backend(d->poller, nbe.ops, nbe.st) : NULL;
		if (!npl || bsf_flows_set_device(&d->events.flows, nbe.ops->describe(nbe.st)) < 0) {
			snprintf(err, errlen, "out of memory setting up the data sources");
			poller_discard_backend(npl);
			bsf_visx_discard_backend(nvb);
			vis_pipeline_free(nvis);
			bsf_backend_close(&nbe);
			return -1;
		}
		/* the data sources move to the new backend, keeping their
		 * sequence numbers; the old backend's pending peaks are exported
		 * (and its depths fed to the visibility export, still on the old
		 * backend) before it is closed */
		poller_commit_backend(d->poller, npl);
		bsf_visx_commit_backend(&d->vis, nvb);
		bsf_backend_close(&d->be);
		d->be = nbe;
		bsf_events_backend_opened(&d->events);
		bsf_devchange_watch(d);
		if (keep_vis)
			bsf_visx_forget(&d->vis);
	}
	if (!keep_vis) {
		bsf_visx_set_pipeline(&d->vis, nvis, c->vis.route[VIS_EV_DROP][0] != '\0');
		if (nvis)
			d->vis_rebuilds++;
	}
	if (export_set_agent(d->x, &agent, c->sub_agent_id, c->datagram_bytes, err, errlen) < 0)
		return -1; /* cannot happen: sizes were validated */
	export_set_collectors(d->x, c->collectors, c->n_collectors);
	poller_set_enterprise(d->poller, c->enterprise);
	poller_set_interval(d->poller, c->polling_interval);
	d->events.flows.header_bytes = fit_header_bytes(d, c->header_bytes);
	if (d->events.flows.header_bytes < c->header_bytes)
		log_warnx("%s: header_bytes %u does not fit datagrams of %u bytes: sending %u",
			  c->file, c->header_bytes, c->datagram_bytes,
			  d->events.flows.header_bytes);
	bsf_discard_limiter_configure(&d->events.drops, &c->drops);
	d->events.datagram_bytes = c->datagram_bytes;
	bsf_visx_set_export(&d->vis, c->enterprise, fit_event_header_bytes(d, c->header_bytes));
	bsf_visx_apply_streams(&d->vis);
	log_sampling(d);
	log_visibility(d, c, keep_vis);
	if (c->n_collectors == 0)
		log_warnx("%s: no collector configured: nothing will be sent", c->file);
	log_info("configuration %s: agent %s sub-agent %u, backend %s%s, %zu collectors, "
		 "polling every %u s, datagrams of at most %u bytes",
		 c->file, sflow_addr_str(&agent, ab, sizeof ab), c->sub_agent_id,
		 conf_backend_name(c), reopen ? "" : " (unchanged)", c->n_collectors,
		 c->polling_interval, c->datagram_bytes);
	conf_free(d->conf);
	d->conf = c;
	return 0;
}

int bsf_daemon_reload(struct bsf_daemon *d, char *err, size_t errlen)
{
	struct conf *c = bsf_daemon_load_conf(d, err, errlen);

	d->reloads++;
	if (!c || bsf_daemon_apply(d, c, err, errlen) < 0) {
		conf_free(c);
		d->reload_failures++;
		return -1;
	}
	return 0;
}

static void notify_status(const struct bsf_daemon *d, const char *first)
{
	char msg[512];
	int n = snprintf(msg, sizeof msg, "%sSTATUS=", first);

	bsf_control_summary(d, msg + n, sizeof msg - (size_t)n);
	bsf_notify(msg);
}

static void sig_cb(evutil_socket_t sig, short what, void *arg)
{
	struct bsf_daemon *d = arg;
	char err[1024];

	switch (sig) {
	case SIGHUP:
		bsf_notify("RELOADING=1");
		log_notice("SIGHUP: reloading %s", d->conf_path);
		if (bsf_daemon_reload(d, err, sizeof err) < 0)
			log_errx("reload refused, keeping the running configuration: %s", err);
		else
			log_notice("reload done");
		notify_status(d, "READY=1\n");
		break;
	case SIGUSR1:
		bsf_daemon_log_status(d);
		break;
	default:
		log_notice("signal %d: flushing and exiting", (int)sig);
		d->exit_code = 0;
		event_base_loopbreak(d->base);
		break;
	}
}

static void stop_cb(evutil_socket_t fd, short what, void *arg)
{
	struct bsf_daemon *d = arg;

	log_info("--run-for time is up: flushing and exiting");
	d->exit_code = 0;
	event_base_loopbreak(d->base);
}

int bsf_daemon_signals(struct bsf_daemon *d, unsigned run_for_seconds)
{
	static const int sigs[4] = {SIGHUP, SIGTERM, SIGINT, SIGUSR1};

	signal(SIGPIPE, SIG_IGN);
	for (int i = 0; i < 4; i++) {
		d->ev_sig[i] = evsignal_new(d->base, sigs[i], sig_cb, d);
		if (!d->ev_sig[i] || evsignal_add(d->ev_sig[i], NULL) < 0)
			return -1;
	}
	if (run_for_seconds) {
		struct timeval tv = {(time_t)run_for_seconds, 0};

		d->ev_stop = evtimer_new(d->base, stop_cb, d);
		if (!d->ev_stop || evtimer_add(d->ev_stop, &tv) < 0)
			return -1;
	}
	return 0;
}

void bsf_daemon_flush(struct bsf_daemon *d)
{
	bsf_events_drain(&d->events);
	bsf_visx_flush_held(&d->vis);
	export_flush(d->x);
}

void bsf_daemon_log_status(const struct bsf_daemon *d)
{
	log_notice("status: configuration %s, %llu reloads (%llu refused); the backend's device "
		   "changed %llu times (%llu calls, %llu attempts failed)",
		   d->conf ? d->conf->file : "none", (unsigned long long)d->reloads,
		   (unsigned long long)d->reload_failures, (unsigned long long)d->device_changes,
		   (unsigned long long)d->device_change_calls,
		   (unsigned long long)d->device_change_failures);
	if (d->ports_unknown)
		log_notice("status: the backend's port numbering is unknown (its device's new "
			   "description cannot be taken, %llu attempts failed): no port data; "
			   "next attempt within %u s",
			   (unsigned long long)d->devchange_failing, d->devchange_retry_s);
	export_log_status(d->x);
	poller_log_status(d->poller);
	bsf_visx_log_status(&d->vis);
	bsf_events_log_status(&d->events);
	if (d->be.ops) {
		const struct bsf_backend_ops *o = d->be.ops;

		if (o->lag_ns)
			log_notice("status: backend %s: simulation lag %.3f ms behind the wall "
				   "clock",
				   o->name, (double)o->lag_ns(d->be.st) / 1e6);
		if (o->log_status)
			o->log_status(d->be.st);
	}
}

void bsf_daemon_fini(struct bsf_daemon *d)
{
	bsf_devchange_fini(d);
	bsf_visx_fini(&d->vis);
	poller_free(d->poller);
	d->poller = NULL;
	bsf_backend_close(&d->be);
	export_free(d->x);
	d->x = NULL;
	for (int i = 0; i < 4; i++)
		if (d->ev_sig[i])
			event_free(d->ev_sig[i]);
	if (d->ev_stop)
		event_free(d->ev_stop);
	bsf_events_fini(&d->events);
	conf_free(d->conf);
	memset(d, 0, sizeof *d);
}
