/*
 * daemon.c - bsflowd's top-level state: applying and reloading the
 * configuration, signals, the backend's event queue, the status dump
 * (see daemon.h for the reload rules).
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
#include "agent/daemon.h"
#include "agent/linux/backend_linux.h"
#include "agent/abiwrap.h"
#include "agent/export.h"
#include "agent/log.h"
#include "agent/notify.h"
#include "agent/poller.h"
#include "agent/samples.h"
#include "agent/visibility/vis_pipeline.h"
#include "proto/sflow.h"

#define EVENT_BATCH 64

static const struct sflow_own_sampler_stat *vis_sampler_stats(void *arg, size_t *n)
{
	return bsf_visx_sampler_stats(arg, n);
}

/* The backend pushed events or called events_ready (host.h): drain them
 * on the next turn of the loop. */
static void backend_drain(void *arg)
{
	struct bsf_daemon *d = arg;

	if (d->ev_events)
		event_active(d->ev_events, EV_TIMEOUT, 0);
}

/* The ifIndex of backend port index p, 0 if unknown. */
static uint32_t ifindex_of(const struct bsf_daemon *d, uint32_t p)
{
	return p < d->flows.nports ? d->flows.ports[p].ifindex : 0;
}

/* A sampled packet: its 0:3 sample on the input port's data source. */
static void handle_sample(struct bsf_daemon *d, const struct bsf_event *e)
{
	const struct bsf_backend_ops *o = d->be.ops;
	uint8_t buf[BSF_FLOW_SCRATCH];
	uint64_t pool = 0;
	size_t len = 0;

	if (o->sample_pool && e->in_port < d->flows.nports)
		pool = o->sample_pool(d->be.st, e->in_port);
	/* drops: what the backend lost to its full queue, and what we lost */
	if (o->sample_drops && e->in_port < d->flows.nports)
		bsf_flows_backend_lost(&d->flows, e->in_port,
				       o->sample_drops(d->be.st, e->in_port));
	if (bsf_flows_build(&d->flows, e, pool, buf, sizeof buf, &len) != SFLOW_OK) {
		d->flow_samples_lost++;
		return;
	}
	if (export_add(d->x, buf, len) < 0) {
		/* datagram_bytes too small for it: counted in the port's drops */
		bsf_flows_lost(&d->flows, e->in_port, 1);
		d->flow_samples_lost++;
		return;
	}
	d->flow_samples_sent++;
}

/* Drop events the backends lost to a full queue, cumulative. */
static uint64_t drop_events_lost(const struct bsf_daemon *d)
{
	const struct bsf_backend_ops *o = d->be.ops;

	return d->drop_events_lost_closed +
	       (o && o->drop_events_lost ? o->drop_events_lost(d->be.st) : 0) +
	       bsf_backend_push_lost(&d->be, BSF_EV_DROP);
}

/* A dropped packet: a 0:5 notification on the device source 2:1, if the
 * rate limit and the circuit breaker let it through.  Its drops field
 * counts what was suppressed, what the backend lost and, with a drop
 * sampler, what the sampler rejected for rate reasons (no ticket,
 * probability or every-N, re-occurrence limit), so that sent + drops =
 * every drop the backend saw; with a drop sampler, less those it filtered
 * by intent (not eligible, duplicate, flow filter), which are neither
 * sent nor counted. */
/* Encode drop e as a 0:5 with p and queue it for export: 1, or 0 if it
 * does not fit a datagram (datagram_bytes). */
static int encode_add_drop(struct bsf_daemon *d, const struct bsf_discard_params *p,
			   const struct bsf_event *e)
{
	uint8_t buf[BSF_DISCARD_SCRATCH];
	size_t len = 0;

	return bsf_discard_encode(p, e, buf, sizeof buf, &len) == SFLOW_OK &&
	       export_add(d->x, buf, len) == 0;
}

static void handle_drop(struct bsf_daemon *d, const struct bsf_event *e)
{
	const struct bsf_discard_conf *dc = &d->drops.conf;
	struct bsf_discard_params p;
	uint64_t n;
	unsigned tr;
	int ok;

	enum bsf_discard_verdict v = bsf_discard_offer(&d->drops, e->t_ns, &tr);

	if (bsf_log_verbosity() >= 2) {
		char what[300];

		bsf_discard_describe(e, what, sizeof what);
		log_debug("drop: in port %u, out port %u, queue %u: %s", e->in_port, e->out_port,
			  e->queue, what);
	}

	if (tr & BSF_DISCARD_RESUMED)
		log_notice("drop notifications: circuit breaker closed after %u s, "
			   "notifications resume (%llu suppressed so far)",
			   dc->cooldown, (unsigned long long)bsf_discard_suppressed(&d->drops));
	if (tr & BSF_DISCARD_TRIPPED)
		log_warnx("drop notifications: more than %u drops a second for %u "
			  "seconds in a row: circuit breaker open, no notifications "
			  "for %u s (or until a reload)",
			  dc->max, dc->max_trip, dc->cooldown);
	if (v != BSF_DISCARD_SEND)
		return;
	memset(&p, 0, sizeof p);
	p.seq = d->discard_seq;
	p.source_type = SFLOW_DS_ENTITY;
	p.source_index = 1;
	p.drops = (uint32_t)(bsf_discard_suppressed(&d->drops) + drop_events_lost(d) +
			     bsf_visx_drops_lost(&d->vis));
	p.in_ifindex = ifindex_of(d, e->in_port);
	p.out_ifindex = ifindex_of(d, e->out_port);
	p.header_bytes = d->flows.header_bytes;
	bsf_visx_drop_params(&d->vis, &p); /* a sampled drop: its own record */
	ok = encode_add_drop(d, &p, e);
	if (!ok && p.vis) {
		/* too big for datagram_bytes with bsflowd's own record: sent
		 * without it (bsflowd.conf(5), datagram_bytes) */
		p.vis = NULL;
		ok = encode_add_drop(d, &p, e);
		if (ok && bsf_ratelimit_hit(&d->drop_fit_rl, bsf_now_ns(), &n))
			log_warnx(
			    "drop notifications: own visibility_event record left out of %llu "
			    "notification(s): datagram_bytes (%u) too small for it",
			    (unsigned long long)n, d->conf ? d->conf->datagram_bytes : 0);
	}
	if (!ok) {
		/* not sent after all: count it with the suppressed ones, so
		 * that sent + drops stays equal to the drops offered */
		d->drops.sent--;
		d->drops.suppressed_rate++;
		if (bsf_ratelimit_hit(&d->drop_fit_rl, bsf_now_ns(), &n))
			log_warnx("drop notifications: %llu not sent: datagram_bytes (%u) too "
				  "small for them (counted in the drops field)",
				  (unsigned long long)n, d->conf ? d->conf->datagram_bytes : 0);
		return;
	}
	d->discard_seq++;
}

/* A drop that passed the visibility drop sampler. */
static void vis_drop(void *arg, const struct bsf_event *e)
{
	handle_drop(arg, e);
}

/* Drain the backend's event queue: sampled packets become 0:3 flow
 * samples, drops 0:5 notifications (flowsample.h, discard.h), and every
 * event goes to the visibility pipeline (visexport.h); with a drop
 * sampler, only the drops it passes become notifications, and drops it
 * never sees (no drop event raised for them, e.g. a port outside the
 * device's ports) are notified as without a sampler. */
static void events_cb(evutil_socket_t fd, short what, void *arg)
{
	struct bsf_daemon *d = arg;
	struct bsf_event ev[EVENT_BATCH];
	size_t n;
	int rounds = 0;
	const size_t ntypes = sizeof d->events_by_type / sizeof d->events_by_type[0];

	if (!d->be.ops)
		return;
	do {
		bsf_visx_check_lost(&d->vis);
		/* what it pushed from any thread, then what it queued itself */
		n = bsf_backend_pop_events(&d->be, ev, EVENT_BATCH);
		if (n < EVENT_BATCH && d->be.ops->read_events)
			n += d->be.ops->read_events(d->be.st, ev + n, EVENT_BATCH - n);
		for (size_t i = 0; i < n; i++) {
			d->events_by_type[ev[i].type < ntypes ? ev[i].type : 0]++;
			if (ev[i].type == BSF_EV_SAMPLE)
				handle_sample(d, &ev[i]);
			/* a drop the drop sampler did not take (none routed, or
			 * outside the watched ports, e.g. a CPU port): 0:5 here */
			if (!bsf_visx_feed(&d->vis, &ev[i]) && ev[i].type == BSF_EV_DROP)
				handle_drop(d, &ev[i]);
		}
	} while (n == EVENT_BATCH && ++rounds < 64);
	if (n == EVENT_BATCH) /* more left: come back after other work */
		event_active(d->ev_events, EV_TIMEOUT, 0);
	else
		bsf_visx_events_drained(&d->vis);
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
	size_t fit = room > BSF_SAMPLES_EVENT_OVERHEAD
			 ? (room - BSF_SAMPLES_EVENT_OVERHEAD) & ~(size_t)3
			 : 0;

	return fit < want ? (unsigned)fit : want;
}

struct conf *bsf_daemon_load_conf(const struct bsf_daemon *d, int *is_default, char *err,
				  size_t errlen)
{
	struct stat st;

	*is_default = 0;
	if (!d->conf_explicit && stat(d->conf_path, &st) < 0 && errno == ENOENT) {
		*is_default = 1;
		return conf_load_default(err, errlen);
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
	d->ev_events = event_new(base, -1, 0, events_cb, d);
	if (!d->ev_events)
		return -1;
	if (bsf_visx_init(&d->vis, base, d->x, d->poller, vis_drop, d) < 0)
		return -1;
	poller_set_port_buffers_hook(d->poller, bsf_visx_port_buffers, &d->vis);
	poller_set_sampler_stats(d->poller, vis_sampler_stats, &d->vis);
	bsf_flows_init(&d->flows);
	{
		struct bsf_discard_conf dc;

		bsf_discard_conf_default(&dc);
		bsf_discard_limiter_init(&d->drops, &dc);
	}
	d->discard_seq = 1;
	bsf_ratelimit_init(&d->drop_fit_rl, 60ull * 1000000000ull);
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

	for (uint32_t i = 0; i < d->flows.nports; i++) {
		const struct bsf_flows_port *p = &d->flows.ports[i];
		int dup = 0;

		if (!p->rate)
			continue;
		on++;
		for (uint32_t j = 0; j < i && !dup; j++)
			dup = d->flows.ports[j].rate == p->rate;
		if (!dup && used + 16 < sizeof rates)
			used += (size_t)snprintf(rates + used, sizeof rates - used, "%s1-in-%u",
						 used ? ", " : "", p->rate);
	}
	log_info("packet sampling on %u of %u ports%s%s, %u header bytes; drop notifications "
		 "at most %u a second",
		 on, d->flows.nports, on ? " at " : "", rates, d->flows.header_bytes,
		 d->drops.conf.limit);
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
	ndev = reopen ? nbe.ops->describe(nbe.st) : d->be.ops->describe(d->be.st);
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

		/* what the old backend has queued still goes out */
		if (d->be.ops)
			events_cb(-1, 0, d);
		/* the old backend's final sample drop counts stay in the drops
		 * of the data sources that carry over */
		if (d->be.ops && d->be.ops->sample_drops)
			for (uint32_t i = 0; i < d->flows.nports; i++)
				bsf_flows_backend_lost(&d->flows, i,
						       d->be.ops->sample_drops(d->be.st, i));
		/* allocate everything the new backend needs first; the last
		 * step that can fail (bsf_flows_set_device) comes before the
		 * poller and the visibility export switch over, and nothing can
		 * fail after, so none of them is ever left on a closed backend */
		nvb = bsf_visx_prepare_backend(nbe.ops, nbe.st);
		npl = nvb ? poller_prepare_backend(d->poller, nbe.ops, nbe.st) : NULL;
		if (!npl || bsf_flows_set_device(&d->flows, nbe.ops->describe(nbe.st)) < 0) {
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
		d->drop_events_lost_closed = drop_events_lost(d);
		bsf_backend_close(&d->be);
		d->be = nbe;
		memset(d->events_by_type, 0, sizeof d->events_by_type);
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
	d->flows.header_bytes = fit_header_bytes(d, c->header_bytes);
	if (d->flows.header_bytes < c->header_bytes)
		log_warnx("%s: header_bytes %u does not fit datagrams of %u bytes: sending %u",
			  c->file, c->header_bytes, c->datagram_bytes, d->flows.header_bytes);
	bsf_discard_limiter_configure(&d->drops, &c->drops);
	bsf_visx_set_export(&d->vis, c->enterprise, fit_event_header_bytes(d, c->header_bytes));
	bsf_visx_apply_streams(&d->vis);
	log_sampling(d);
	log_visibility(d, c, keep_vis);
	if (c->n_collectors == 0)
		log_warnx("%s: no collector configured: nothing will be sent", c->file);
	log_info("configuration %s: agent %s sub-agent %u, backend %s%s, %zu collectors, "
		 "polling every %u s, datagrams of at most %u bytes",
		 c->file, bsf_addr_str(&agent, ab, sizeof ab), c->sub_agent_id,
		 conf_backend_name(c), reopen ? "" : " (unchanged)", c->n_collectors,
		 c->polling_interval, c->datagram_bytes);
	conf_free(d->conf);
	d->conf = c;
	return 0;
}

int bsf_daemon_reload(struct bsf_daemon *d, char *err, size_t errlen)
{
	int is_default;
	struct conf *c = bsf_daemon_load_conf(d, &is_default, err, errlen);

	d->reloads++;
	if (c && is_default && d->conf && d->conf->is_file) {
		/* the file we run from has gone: do not fall back to the demo */
		snprintf(err, errlen, "%s: No such file or directory", d->conf_path);
		conf_free(c);
		c = NULL;
	}
	if (!c || bsf_daemon_apply(d, c, err, errlen) < 0) {
		conf_free(c);
		d->reload_failures++;
		return -1;
	}
	if (is_default)
		log_notice("%s does not exist: running the built-in default configuration",
			   d->conf_path);
	return 0;
}

static void notify_status(const struct bsf_daemon *d, const char *first)
{
	char msg[512];

	snprintf(msg, sizeof msg, "%sSTATUS=backend %s, %zu collectors, polling every %u s", first,
		 d->conf ? conf_backend_name(d->conf) : "none", d->conf ? d->conf->n_collectors : 0,
		 d->conf ? d->conf->polling_interval : 0);
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
	if (d->be.ops)
		events_cb(-1, 0, d);
	bsf_visx_flush_held(&d->vis);
	export_flush(d->x);
}

void bsf_daemon_log_status(const struct bsf_daemon *d)
{
	log_notice("status: configuration %s, %llu reloads (%llu refused)",
		   d->conf ? d->conf->file : "none", (unsigned long long)d->reloads,
		   (unsigned long long)d->reload_failures);
	export_log_status(d->x);
	poller_log_status(d->poller);
	bsf_visx_log_status(&d->vis);
	if (d->be.ops) {
		const struct bsf_backend_ops *o = d->be.ops;

		log_notice(
		    "status: backend %s: %llu drop events, %llu sample events, %llu enqueue "
		    "and %llu dequeue events read; %llu events lost to a full queue",
		    o->name, (unsigned long long)d->events_by_type[BSF_EV_DROP],
		    (unsigned long long)d->events_by_type[BSF_EV_SAMPLE],
		    (unsigned long long)d->events_by_type[BSF_EV_ENQUEUE],
		    (unsigned long long)d->events_by_type[BSF_EV_DEQUEUE],
		    (unsigned long long)((o->event_overflows ? o->event_overflows(d->be.st) : 0) +
					 bsf_backend_push_lost_all(&d->be)));
		if (bsf_backend_push_lost_all(&d->be))
			log_notice(
			    "status: backend %s: pushed events lost to a full queue: %llu "
			    "drop, %llu sample, %llu enqueue, %llu dequeue, %llu other",
			    o->name, (unsigned long long)bsf_backend_push_lost(&d->be, BSF_EV_DROP),
			    (unsigned long long)bsf_backend_push_lost(&d->be, BSF_EV_SAMPLE),
			    (unsigned long long)bsf_backend_push_lost(&d->be, BSF_EV_ENQUEUE),
			    (unsigned long long)bsf_backend_push_lost(&d->be, BSF_EV_DEQUEUE),
			    (unsigned long long)bsf_backend_push_lost(&d->be, 0));
		log_notice("status: packet samples: %llu sent, %llu lost; drop notifications: "
			   "%llu offered, %llu sent, %llu suppressed by the rate limit, %llu by "
			   "the circuit breaker (%s, tripped %llu times), %llu drop events lost "
			   "to a full queue",
			   (unsigned long long)d->flow_samples_sent,
			   (unsigned long long)d->flow_samples_lost,
			   (unsigned long long)d->drops.offered, (unsigned long long)d->drops.sent,
			   (unsigned long long)d->drops.suppressed_rate,
			   (unsigned long long)d->drops.suppressed_breaker,
			   d->drops.open ? "open" : "closed", (unsigned long long)d->drops.trips,
			   (unsigned long long)drop_events_lost(d));
		if (o->lag_ns)
			log_notice("status: backend %s: simulation lag %.3f ms behind the wall "
				   "clock",
				   o->name, (double)o->lag_ns(d->be.st) / 1e6);
		if (d->conf && d->conf->backend == CONF_BACKEND_LINUX && d->be.wrap)
			linuxbe_log_status(bsf_abiwrap_backend_st(d->be.wrap));
	}
}

void bsf_daemon_fini(struct bsf_daemon *d)
{
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
	if (d->ev_events)
		event_free(d->ev_events);
	conf_free(d->conf);
	bsf_flows_fini(&d->flows);
	memset(d, 0, sizeof *d);
}
