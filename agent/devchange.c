/*
 * devchange.c - a backend's device change, taken in by the daemon (see
 * devchange.h).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <event2/event.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "agent/daemon.h"
#include "agent/devchange.h"
#include "agent/log.h"
#include "agent/poller.h"
#include "agent/visibility/vis_pipeline.h"

/* A description that cannot be taken is read again after RETRY_MIN_S,
 * then twice as long each time up to RETRY_MAX_S (or at once when the
 * backend calls device_changed again); one message a LOG_INTERVAL_NS. */
#define RETRY_MIN_S	1u
#define RETRY_MAX_S	60u
#define LOG_INTERVAL_NS (60ull * 1000000000ull)

/* The backend's call: on the next turn of the loop, never inside it. */
static void backend_changed(void *arg)
{
	struct bsf_daemon *d = arg;

	d->device_change_calls++;
	event_active(d->ev_devchange, 0, 0);
}

/* Whether the daemon knows the backend's port numbering: while not, no
 * per-port data is read or attributed (devchange.h). */
static void set_ports_unknown(struct bsf_daemon *d, int on)
{
	d->ports_unknown = on;
	poller_suspend_ports(d->poller, on);
	bsf_events_suspend_ports(&d->events, on);
	bsf_visx_suspend_ports(&d->vis, on);
}

/* An attempt failed, after the backend's describe(): its numbering is
 * the new one, which the daemon could not take. */
static void failed(struct bsf_daemon *d, const char *err)
{
	const char *name = d->be.ops ? d->be.ops->name : "(none)";
	struct timeval tv = {0, 0};
	uint64_t n = 0;

	d->device_change_failures++;
	d->devchange_failing++;
	if (!d->ports_unknown) {
		set_ports_unknown(d, 1);
		d->devchange_retry_s = RETRY_MIN_S;
		bsf_ratelimit_init(&d->devchange_rl, LOG_INTERVAL_NS); /* this one is logged */
		bsf_ratelimit_hit(&d->devchange_rl, bsf_now_ns(), &n);
		log_errx("backend %s: the device changed, but %s: the backend numbers its "
			 "ports as that description says, which this bsflowd could not take: "
			 "no port data until it can (port counters samples skipped, packet "
			 "samples not sent, drops notified without their ports, no visibility "
			 "events); trying again in %u s",
			 name, err, d->devchange_retry_s);
	} else {
		d->devchange_retry_s =
		    d->devchange_retry_s * 2 > RETRY_MAX_S ? RETRY_MAX_S : d->devchange_retry_s * 2;
		if (bsf_ratelimit_hit(&d->devchange_rl, bsf_now_ns(), &n))
			log_errx("backend %s: still cannot take the device's new description: "
				 "%s (%llu attempts failed since the last message, %llu since "
				 "the first): no port data; trying again in %u s",
				 name, err, (unsigned long long)n,
				 (unsigned long long)d->devchange_failing, d->devchange_retry_s);
	}
	if (d->be.ops) {
		tv.tv_sec = (time_t)d->devchange_retry_s;
		evtimer_add(d->ev_devchange_retry, &tv);
	}
}

static void devchange_cb(evutil_socket_t fd, short what, void *arg)
{
	struct bsf_daemon *d = arg;
	char err[512];

	(void)fd;
	(void)what;
	evtimer_del(d->ev_devchange_retry);
	if (bsf_devchange_apply(d, err, sizeof err) < 0)
		failed(d, err);
}

int bsf_devchange_init(struct bsf_daemon *d)
{
	d->ev_devchange = event_new(d->base, -1, 0, devchange_cb, d);
	d->ev_devchange_retry = evtimer_new(d->base, devchange_cb, d);
	return d->ev_devchange && d->ev_devchange_retry ? 0 : -1;
}

void bsf_devchange_fini(struct bsf_daemon *d)
{
	if (d->ev_devchange)
		event_free(d->ev_devchange);
	if (d->ev_devchange_retry)
		event_free(d->ev_devchange_retry);
	d->ev_devchange = d->ev_devchange_retry = NULL;
}

void bsf_devchange_watch(struct bsf_daemon *d)
{
	bsf_backend_on_change(&d->be, backend_changed, d);
	/* a description the one before could not give is no concern of
	 * this backend's: its ports are known (its description is fresh) */
	evtimer_del(d->ev_devchange_retry);
	if (d->ports_unknown) {
		set_ports_unknown(d, 0);
		log_notice("backend %s: opened: port data resumes (the backend replaced had a "
			   "port numbering this bsflowd could not take, %llu attempts)",
			   d->be.ops ? d->be.ops->name : "(none)",
			   (unsigned long long)d->devchange_failing);
	}
	d->devchange_failing = 0;
}

/* ---- the line that says what changed ---- */

struct line {
	char *buf;
	size_t len, used;
	unsigned entries, more;
};

static void put(struct line *l, const char *fmt, ...) BSF_PRINTF_LIKE(2, 3);

static void put(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (l->used >= l->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(l->buf + l->used, l->len - l->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->used += (size_t)n < l->len - l->used ? (size_t)n : l->len - l->used - 1;
}

static const struct bsf_port_desc *by_ifindex(const struct bsf_device_desc *d, uint32_t ifindex)
{
	for (uint32_t i = 0; d && i < d->nports; i++)
		if (d->ports[i].ifindex == ifindex)
			return &d->ports[i];
	return NULL;
}

static int differs(const struct bsf_port_desc *a, const struct bsf_port_desc *b)
{
	return strcmp(a->name, b->name) != 0 || a->speed_bps != b->speed_bps ||
	       a->n_uc_queues != b->n_uc_queues || a->n_mc_queues != b->n_mc_queues ||
	       a->n_pgs != b->n_pgs || a->sampling_rate != b->sampling_rate;
}

/* Room for one more entry of a list (else it is counted in "more"); the
 * list's heading before the first. */
static int room(struct line *l, const char *what, int *first)
{
	l->entries++;
	if (l->used + 112 > l->len) {
		l->more++;
		return 0;
	}
	put(l, *first ? "; %s " : ", ", what);
	*first = 0;
	return 1;
}

unsigned bsf_devchange_diff(const struct bsf_device_desc *old, const struct bsf_device_desc *nw,
			    char *buf, size_t len)
{
	struct line l = {.buf = buf, .len = len};
	int first;

	if (!len)
		return 0;
	buf[0] = '\0';
	put(&l, "%u ports, were %u", nw ? nw->nports : 0, old ? old->nports : 0);
	first = 1;
	for (uint32_t i = 0; nw && i < nw->nports; i++) {
		const struct bsf_port_desc *p = &nw->ports[i];

		if (!by_ifindex(old, p->ifindex) && room(&l, "added", &first))
			put(&l, "%s (ifIndex %u)", p->name, p->ifindex);
	}
	first = 1;
	for (uint32_t i = 0; old && i < old->nports; i++) {
		const struct bsf_port_desc *p = &old->ports[i];

		if (!by_ifindex(nw, p->ifindex) && room(&l, "removed", &first))
			put(&l, "%s (ifIndex %u)", p->name, p->ifindex);
	}
	first = 1;
	for (uint32_t i = 0; nw && i < nw->nports; i++) {
		const struct bsf_port_desc *p = &nw->ports[i], *o = by_ifindex(old, p->ifindex);

		if (o && differs(o, p) && room(&l, "changed", &first))
			put(&l,
			    "%s (ifIndex %u: %u/%u queues, %u PGs, %llu Mb/s; were %s, %u/%u, %u, "
			    "%llu)",
			    p->name, p->ifindex, p->n_uc_queues, p->n_mc_queues, p->n_pgs,
			    (unsigned long long)(p->speed_bps / 1000000u), o->name, o->n_uc_queues,
			    o->n_mc_queues, o->n_pgs,
			    (unsigned long long)(o->speed_bps / 1000000u));
	}
	if (l.more)
		put(&l, "; and %u more", l.more);
	return l.entries;
}

/* ---- taking the new description ---- */

int bsf_devchange_apply(struct bsf_daemon *d, char *err, size_t errlen)
{
	const struct bsf_device_desc *old, *nd;
	const struct vis_config *vc;
	struct vis_pipeline *nvis = NULL;
	struct bsf_visx_backend *nvb;
	struct poller_next *npl;
	int rebuild, vis_failed = 0;
	char line[1024], verr[512];

	if (!d->be.ops || !d->conf)
		return 0;
	/* what is queued was numbered with the old description */
	bsf_events_drain(&d->events);
	nd = bsf_backend_redescribe(&d->be, &old, err, errlen);
	if (!nd)
		return -1;
	vc = &d->conf->vis;
	/* the pipeline's port lists are indices: a new one for another
	 * number of ports (or none: visibility was off for lack of them) */
	rebuild = vc->enabled && (!d->vis.p || !old || old->nports != nd->nports);
	if (rebuild && bsf_visx_build(&d->vis, vc, nd, d->conf->file, &nvis, verr, sizeof verr) < 0)
		vis_failed = 1;
	nvb = bsf_visx_prepare_backend(d->be.ops, d->be.st);
	npl = nvb ? poller_prepare_backend(d->poller, d->be.ops, d->be.st) : NULL;
	if (!npl || bsf_flows_device_changed(&d->events.flows, nd) < 0) {
		poller_discard_backend(npl);
		bsf_visx_discard_backend(nvb);
		vis_pipeline_free(nvis);
		snprintf(err, errlen, "out of memory setting up the data sources");
		return -1;
	}
	/* nothing can fail from here */
	poller_commit_backend(d->poller, npl);
	bsf_visx_commit_backend(&d->vis, nvb);
	if (rebuild) {
		bsf_visx_set_pipeline(&d->vis, nvis, vc->route[VIS_EV_DROP][0] != '\0');
		if (nvis)
			d->vis_rebuilds++;
	} else {
		bsf_visx_forget(&d->vis);
	}
	if (d->ports_unknown) {
		set_ports_unknown(d, 0);
		log_notice("backend %s: the device's new description taken after %llu failed "
			   "attempts: port data resumes",
			   d->be.ops->name, (unsigned long long)d->devchange_failing);
	}
	d->devchange_failing = 0;
	bsf_visx_apply_streams(&d->vis);
	d->device_changes++;
	if (bsf_devchange_diff(old, nd, line, sizeof line))
		log_notice("backend %s: the device changed: %s", d->be.ops->name, line);
	else
		log_info("backend %s: the device was read again: no port changed (%u ports)",
			 d->be.ops->name, nd->nports);
	bsf_backend_release_previous(&d->be); /* old: nobody uses it now */
	if (vis_failed)
		log_errx("%s; visibility is off until the ports change again or a reload", verr);
	return 0;
}
