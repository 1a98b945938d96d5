/*
 * visexport.c - the daemon's side of the visibility pipeline (see
 * visexport.h): the pipeline's callbacks turn sampled events into 0:5
 * notifications (through the daemon), own E:1 event samples and
 * out-of-cycle port samples; the backend is asked for the queue event
 * streams the monitors need, and polled queue depths stand in for the
 * streams it cannot give.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <event2/event.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/discard.h"
#include "agent/export.h"
#include "agent/log.h"
#include "agent/poller.h"
#include "agent/counters.h"
#include "agent/evsample.h"
#include "agent/visexport.h"
#include "agent/visibility/vis_backend.h"
#include "agent/visibility/vis_conf.h"
#include "agent/visibility/vis_pipeline.h"
#include "proto/sflow.h"
#include "proto/sflow_own.h"

#define SCRATCH 1024u

/* The data source of an event of port (index); the device's when the
 * port is unknown. */
static struct bsf_visx_src *src_of(struct bsf_visx *v, uint32_t port)
{
	if (!v->src)
		return NULL;
	return port < v->nsrc - 1 ? &v->src[port] : &v->src[v->nsrc - 1];
}

static uint32_t ifindex_of(const struct bsf_visx *v, uint32_t port)
{
	return v->dev && port < v->dev->nports ? v->dev->ports[port].ifindex : 0;
}

static int is_streamed(const struct bsf_visx *v, uint32_t port, uint32_t queue)
{
	return v->streamed && v->dev && port < v->dev->nports && queue < BSF_VISX_NQUEUES &&
	       (v->streamed[port] >> queue & 1u);
}

/* A visibility event that passed its sampler (not a drop): its E:1 sample. */
static void send_event(struct bsf_visx *v, const struct vis_event *ev)
{
	struct bsf_visx_src *s = src_of(v, ev->port);
	struct bsf_evsample_event p;
	uint8_t buf[SCRATCH];
	size_t len = 0;
	uint32_t t = ev->type < VIS_EV_NTYPES ? ev->type : 0;

	if (!s)
		return;
	memset(&p, 0, sizeof p);
	p.enterprise = v->enterprise;
	p.seq = s->next_seq;
	p.source_type = s->type;
	p.source_index = s->index;
	p.drops = (uint32_t)(s->sampled_out + s->lost);
	p.in_ifindex = ifindex_of(v, ev->in_port);
	p.out_ifindex = ifindex_of(v, ev->port);
	p.header_bytes = v->header_bytes;
	if (bsf_evsample_vis_event(&p, ev, buf, sizeof buf, &len) != SFLOW_OK ||
	    export_add(v->x, buf, len) < 0) {
		s->lost++;
		v->lost[t]++;
		return;
	}
	s->next_seq++;
	s->sent++;
	v->sent[t]++;
}

/* An event that passed its sampler, outside any poll.  A congestion
 * start asking for a counters sample of its port gets one at most once a
 * second per port (event time; a clock that went back starts over), sent
 * just before its E:1, whose flag bit 0 says whether it went. */
static void emit(struct bsf_visx *v, const struct vis_event *ev)
{
	struct vis_event e;
	uint64_t last;

	if (!(ev->flags & VIS_EVF_SAMPLE_PORT)) {
		send_event(v, ev);
		return;
	}
	e = *ev;
	e.flags &= ~(uint32_t)VIS_EVF_SAMPLE_PORT;
	v->port_samples_asked++;
	if (!v->port_sample_t || !v->dev || ev->port >= v->dev->nports) {
		v->port_samples_failed++;
	} else if ((last = v->port_sample_t[ev->port]) != 0 && ev->t_ns >= last &&
		   ev->t_ns - last < 1000000000ull) {
		v->port_samples_skipped++;
	} else {
		v->port_sample_t[ev->port] = ev->t_ns ? ev->t_ns : 1;
		if (poller_sample_port(v->poller, ev->port) == 0) {
			v->port_samples++;
			e.flags |= VIS_EVF_SAMPLE_PORT;
		} else {
			v->port_samples_failed++;
		}
	}
	send_event(v, &e);
}

/* Inside a poll, or behind events held from one: keep it for the loop.
 * Out of memory: sent now, without a port sample. */
static void hold(struct bsf_visx *v, const struct vis_event *ev)
{
	if (v->n_held == v->cap_held) {
		size_t cap = v->cap_held ? 2 * v->cap_held : 16;
		struct vis_event *n = realloc(v->held, cap * sizeof *n);

		if (!n) {
			struct vis_event e = *ev;

			if (e.flags & VIS_EVF_SAMPLE_PORT) {
				v->port_samples_asked++;
				v->port_samples_failed++;
			}
			e.flags &= ~(uint32_t)VIS_EVF_SAMPLE_PORT;
			send_event(v, &e);
			return;
		}
		v->held = n;
		v->cap_held = cap;
	}
	v->held[v->n_held++] = *ev;
	if (!v->flush_armed) {
		v->flush_armed = 1;
		event_active(v->ev_ports, EV_TIMEOUT, 0);
	}
}

void bsf_visx_flush_held(struct bsf_visx *v)
{
	/* emit() never holds: the list cannot grow meanwhile */
	for (size_t i = 0; i < v->n_held; i++)
		emit(v, &v->held[i]);
	v->n_held = 0;
}

static void on_event(void *arg, const struct vis_event *ev)
{
	struct bsf_visx *v = arg;

	if (ev->type == VIS_EV_DROP) {
		/* the drop being fed (bsf_visx_feed) passed the drop sampler */
		if (v->drop_rec) {
			v->drop_passed = 1;
			bsf_evsample_vis_record(ev, v->drop_rec);
		}
		return;
	}
	if (v->in_poll || v->n_held)
		hold(v, ev);
	else
		emit(v, ev);
}

/* Sampler rejections for rate reasons (no ticket, probability or every-N,
 * re-occurrence limit) are counted in the drops fields: E:1's per data
 * source, 0:5's for drops; rejections by intent (not eligible, duplicate,
 * flow filter) are not. */
static void on_rejected(void *arg, const struct vis_event *ev, int reason)
{
	struct bsf_visx *v = arg;
	struct bsf_visx_src *s;

	if (reason != VIS_REJ_NO_TICKET && reason != VIS_REJ_PROBABILITY &&
	    reason != VIS_REJ_LIMITER)
		return; /* filtered by intent (match, duplicate, flow), not for rate */
	if (ev->type == VIS_EV_DROP) {
		v->drops_rate_lost++;
		return;
	}
	s = src_of(v, ev->port);
	if (s)
		s->sampled_out++;
}

/* The events held from inside polls, from the loop. */
static void ports_cb(evutil_socket_t fd, short what, void *arg)
{
	struct bsf_visx *v = arg;

	(void)fd;
	(void)what;
	v->flush_armed = 0;
	bsf_visx_flush_held(v);
}

int bsf_visx_init(struct bsf_visx *v, struct event_base *base, struct export *x,
		  struct poller *poller)
{
	memset(v, 0, sizeof *v);
	v->x = x;
	v->poller = poller;
	v->ev_ports = event_new(base, -1, 0, ports_cb, v);
	return v->ev_ports ? 0 : -1;
}

/* What a backend's data sources and per-port state need, allocated
 * before anything changes (bsf_visx_prepare_backend). */
struct bsf_visx_backend {
	const struct bsf_backend_ops *ops;
	void *st;
	const struct bsf_device_desc *dev;
	uint32_t n; /* ports + 1 */
	struct bsf_visx_src *src;
	uint32_t *streamed;
	uint64_t *depth_t, *port_sample_t;
};

static void free_backend_state(struct bsf_visx *v)
{
	free(v->src);
	free(v->streamed);
	free(v->depth_t);
	free(v->port_sample_t);
	v->src = NULL;
	v->streamed = NULL;
	v->depth_t = NULL;
	v->port_sample_t = NULL;
	v->nsrc = 0;
}

void bsf_visx_fini(struct bsf_visx *v)
{
	vis_pipeline_free(v->p);
	free_backend_state(v);
	free(v->held);
	free(v->stats);
	if (v->ev_ports)
		event_free(v->ev_ports);
	memset(v, 0, sizeof *v);
}

/* Warn about a port list of the visibility section that names none of the
 * backend's nports ports (nothing it selects is ever watched). */
static void warn_no_port(const char *file, const char *what, const char *name,
			 const struct vis_set *ports, uint32_t nports)
{
	uint32_t lo = UINT32_MAX;

	if (ports->n == 0) /* all */
		return;
	for (uint32_t i = 0; i < ports->nr; i++)
		if (ports->r[i].lo < lo)
			lo = ports->r[i].lo;
	if (lo >= nports)
		log_warnx("%s: visibility: %s%s%s%s: ports: none of them is one of the "
			  "backend's %u ports (0..%u): it never applies",
			  file, what, name ? " \"" : "", name ? name : "", name ? "\"" : "", nports,
			  nports - 1);
}

static void warn_ports(const char *file, const struct vis_config *vc, uint32_t nports)
{
	if (vc->forensics)
		warn_no_port(file, "forensics_ports", NULL, &vc->forensics_ports, nports);
	if (vc->has_eligibility)
		warn_no_port(file, "eligible", NULL, &vc->eligibility.ports, nports);
	for (size_t i = 0; i < vc->n_delay; i++)
		warn_no_port(file, "delay_profile", vc->delay[i].name, &vc->delay[i].ports, nports);
	for (size_t i = 0; i < vc->n_congestion; i++)
		warn_no_port(file, "congestion", vc->congestion[i].name, &vc->congestion[i].ports,
			     nports);
	for (size_t i = 0; i < vc->n_samplers; i++)
		warn_no_port(file, "sampler", vc->samplers[i].c.name,
			     &vc->samplers[i].c.match.ports, nports);
}

int bsf_visx_build(struct bsf_visx *v, const struct vis_config *vc,
		   const struct bsf_device_desc *dev, const char *file, struct vis_pipeline **out,
		   char *err, size_t errlen)
{
	struct vis_pipeline_cbs cbs = {.event = on_event, .rejected = on_rejected, .arg = v};
	char msg[512];

	*out = NULL;
	if (!vc->enabled)
		return 0;
	if (!dev || dev->nports == 0) {
		snprintf(err, errlen, "%s: visibility: the backend has no ports to watch", file);
		return -1;
	}
	msg[0] = '\0';
	*out = vis_pipeline_new(vc, dev->nports, BSF_VISX_NQUEUES, &cbs, msg, sizeof msg);
	if (!*out) {
		snprintf(err, errlen, "%s: %s", file, msg);
		return -1;
	}
	warn_ports(file, vc, dev->nports);
	return 0;
}

void bsf_visx_discard_backend(struct bsf_visx_backend *nb)
{
	if (!nb)
		return;
	free(nb->src);
	free(nb->streamed);
	free(nb->depth_t);
	free(nb->port_sample_t);
	free(nb);
}

struct bsf_visx_backend *bsf_visx_prepare_backend(const struct bsf_backend_ops *ops, void *st)
{
	struct bsf_visx_backend *nb = calloc(1, sizeof *nb);
	uint32_t np;

	if (!nb)
		return NULL;
	nb->ops = ops;
	nb->st = st;
	nb->dev = ops ? ops->describe(st) : NULL;
	np = nb->dev ? nb->dev->nports : 0;
	nb->n = np + 1;
	nb->src = calloc(nb->n, sizeof *nb->src);
	nb->streamed = calloc(nb->n, sizeof *nb->streamed);
	nb->depth_t = calloc(nb->n, sizeof *nb->depth_t);
	nb->port_sample_t = calloc(nb->n, sizeof *nb->port_sample_t);
	if (!nb->src || !nb->streamed || !nb->depth_t || !nb->port_sample_t) {
		bsf_visx_discard_backend(nb);
		return NULL;
	}
	return nb;
}

void bsf_visx_commit_backend(struct bsf_visx *v, struct bsf_visx_backend *nb)
{
	uint32_t np = nb->n - 1;

	/* sequence numbers and counts carried over by id, as they are now
	 * (the old backend may have sent since the preparation) */
	for (uint32_t i = 0; i < nb->n; i++) {
		struct bsf_visx_src *s = &nb->src[i];

		s->type = i < np ? SFLOW_DS_IFINDEX : SFLOW_DS_ENTITY;
		s->index = i < np ? nb->dev->ports[i].ifindex : 1;
		s->next_seq = 1;
		for (uint32_t j = 0; j < v->nsrc; j++) {
			const struct bsf_visx_src *o = &v->src[j];

			if (o->type == s->type && o->index == s->index)
				*s = *o;
		}
	}
	/* events held from the old backend's polls go out now, a congestion
	 * start's without its port sample (the poller has moved on) */
	for (size_t i = 0; i < v->n_held; i++) {
		struct vis_event *e = &v->held[i];

		if (e->flags & VIS_EVF_SAMPLE_PORT) {
			v->port_samples_asked++;
			v->port_samples_failed++;
		}
		e->flags &= ~(uint32_t)VIS_EVF_SAMPLE_PORT;
		send_event(v, e);
	}
	v->n_held = 0;
	free_backend_state(v);
	v->src = nb->src;
	v->nsrc = nb->n;
	v->streamed = nb->streamed;
	v->depth_t = nb->depth_t;
	v->port_sample_t = nb->port_sample_t;
	v->ops = nb->ops;
	v->st = nb->st;
	v->dev = nb->dev;
	v->n_streamed = 0;
	v->stream_cap = 0;
	v->said_nostream = 0;
	v->lost_seen = 0;
	v->gap_pending = 0;
	free(nb);
}

int bsf_visx_set_backend(struct bsf_visx *v, const struct bsf_backend_ops *ops, void *st)
{
	struct bsf_visx_backend *nb = bsf_visx_prepare_backend(ops, st);

	if (!nb)
		return -1;
	bsf_visx_commit_backend(v, nb);
	return 0;
}

void bsf_visx_set_pipeline(struct bsf_visx *v, struct vis_pipeline *p, int drop_routed)
{
	vis_pipeline_free(v->p);
	v->p = p;
	v->drop_routed = p && drop_routed;
	/* the status counts start again with the pipeline's statistics (the
	 * drops lost for rate reasons do not: they are the 0:5 drops field) */
	memset(v->sent, 0, sizeof v->sent);
	memset(v->lost, 0, sizeof v->lost);
	v->port_samples_asked = v->port_samples = 0;
	v->port_samples_failed = v->port_samples_skipped = 0;
}

void bsf_visx_forget(struct bsf_visx *v)
{
	if (v->p) {
		vis_pipeline_gap(v->p, VIS_NONE, VIS_NONE);
		v->gaps++;
	}
	if (v->depth_t && v->dev)
		memset(v->depth_t, 0, (v->dev->nports + 1) * sizeof *v->depth_t);
}

void bsf_visx_set_export(struct bsf_visx *v, uint32_t enterprise, unsigned header_bytes)
{
	v->enterprise = enterprise;
	v->header_bytes = header_bytes;
}

/* Ask for (or stop) one queue's stream; 1 if it is now on. */
static int set_stream(struct bsf_visx *v, uint32_t port, uint32_t q, int mc, int want, int *failed,
		      char *err, size_t errlen)
{
	char msg[160];
	int r;

	msg[0] = '\0';
	r = v->ops->set_queue_events(v->st, port, q, (uint32_t)mc,
				     want ? BSF_QEV_ENQUEUE | BSF_QEV_DEQUEUE : 0, msg, sizeof msg);
	if (r != 0 && want) {
		if ((*failed)++ == 0)
			snprintf(err, errlen, "port %u %s queue %u: %s", port,
				 mc ? "multicast" : "unicast", q, msg[0] ? msg : "refused");
		return 0;
	}
	return r == 0 && want;
}

void bsf_visx_suspend_ports(struct bsf_visx *v, int on)
{
	v->ports_suspended = on;
	if (on && v->streamed) {
		memset(v->streamed, 0, v->nsrc * sizeof *v->streamed);
		v->n_streamed = 0;
	}
}

void bsf_visx_apply_streams(struct bsf_visx *v)
{
	uint32_t wanted = 0;
	int failed = 0;
	char err[256] = "";

	if (!v->dev || !v->streamed || v->ports_suspended)
		return;
	v->stream_cap = (v->dev->caps & BSF_CAP_QUEUE_EVENTS) && v->ops->set_queue_events;
	v->n_streamed = 0;
	for (uint32_t port = 0; port < v->dev->nports; port++) {
		const struct bsf_port_desc *pd = &v->dev->ports[port];
		uint32_t n_uc = pd->n_uc_queues > BSF_MAX_QUEUES ? BSF_MAX_QUEUES : pd->n_uc_queues;
		uint32_t n_mc = pd->n_mc_queues > BSF_MAX_QUEUES ? BSF_MAX_QUEUES : pd->n_mc_queues;

		v->streamed[port] = 0;
		for (uint32_t vq = 0; vq < BSF_VISX_NQUEUES; vq++) {
			int mc = vq >= BSF_MAX_QUEUES;
			uint32_t q = vq % BSF_MAX_QUEUES;
			int want;

			if (q >= (mc ? n_mc : n_uc))
				continue;
			want = v->p && vis_pipeline_watches(v->p, port, vq) != 0;
			wanted += (uint32_t)want;
			if (v->stream_cap &&
			    set_stream(v, port, q, mc, want, &failed, err, sizeof err)) {
				v->streamed[port] |= 1u << vq;
				v->n_streamed++;
			}
		}
	}
	if (wanted && !v->stream_cap && !v->said_nostream) {
		log_notice("visibility: backend %s cannot stream queue events: forensics, high "
			   "delay and congestion run on its drop events, the delays of sampled "
			   "packets and the queue depths read at each counters poll",
			   v->ops->name);
		v->said_nostream = 1;
	}
	if (failed)
		log_warnx("visibility: backend %s refused queue events on %d queues (first: %s): "
			  "those run on drop events and polled depths",
			  v->ops->name, failed, err);
	if (v->n_streamed)
		log_info("visibility: enqueue and dequeue events from %u queues", v->n_streamed);
}

/* The backend's count of lost queue events, 0 if it has none. */
static uint64_t queue_events_lost(const struct bsf_visx *v)
{
	const struct bsf_backend_ops *o = v->ops;

	if (o->queue_events_lost)
		return o->queue_events_lost(v->st);
	/* without its own count, any loss from the shared event queue */
	return o->event_overflows ? o->event_overflows(v->st) : 0;
}

void bsf_visx_check_lost(struct bsf_visx *v)
{
	uint64_t n;

	if (!v->p || !v->ops || !v->n_streamed)
		return;
	n = queue_events_lost(v);
	if (n > v->lost_seen)
		v->gap_pending = 1;
	v->lost_seen = n;
}

void bsf_visx_events_drained(struct bsf_visx *v)
{
	if (!v->gap_pending)
		return;
	v->gap_pending = 0;
	if (v->p) {
		vis_pipeline_gap(v->p, VIS_NONE, VIS_NONE);
		v->gaps++;
	}
}

enum bsf_visx_drop bsf_visx_feed(struct bsf_visx *v, const struct bsf_event *be,
				 struct sflow_own_vis_event *rec, int *rec_valid)
{
	struct vis_pkt_event pe;
	struct vis_monitors_stats ms;
	struct sflow_own_vis_event scratch;
	uint64_t oor;

	if (rec_valid)
		*rec_valid = 0;
	if (!v->p || vis_pkt_from_bsf(be, &pe) < 0)
		return BSF_VISX_DROP_NOTIFY;
	/* a streamed queue's departures come from the stream, not samples */
	if (be->type == BSF_EV_SAMPLE && is_streamed(v, pe.port, pe.queue))
		return BSF_VISX_DROP_NOTIFY;
	if (be->type != BSF_EV_DROP || !v->drop_routed) {
		vis_pipeline_feed(v->p, &pe);
		return BSF_VISX_DROP_NOTIFY;
	}
	/* a drop outside the ports and queues the monitors know (a CPU
	 * port, say) is only counted there: not the drop sampler's */
	vis_monitors_get_stats(vis_pipeline_monitors(v->p), &ms);
	oor = ms.out_of_range;
	v->drop_rec = rec ? rec : &scratch;
	v->drop_passed = 0;
	vis_pipeline_feed(v->p, &pe);
	v->drop_rec = NULL;
	vis_monitors_get_stats(vis_pipeline_monitors(v->p), &ms);
	if (ms.out_of_range != oor)
		return BSF_VISX_DROP_NOTIFY;
	if (!v->drop_passed)
		return BSF_VISX_DROP_TAKEN;
	if (rec_valid)
		*rec_valid = rec && v->enterprise;
	return BSF_VISX_DROP_SAMPLED;
}

/* Bytes of a polled buffer value, UINT64_MAX unknown. */
static uint64_t buf_bytes(const struct bsf_visx *v, uint64_t bytes, uint64_t cells)
{
	if (v->dev->caps & BSF_CAP_BUFFER_BYTES)
		return bytes;
	if (cells == BSF_UNKNOWN || !v->dev->cell_bytes)
		return UINT64_MAX;
	return cells * v->dev->cell_bytes;
}

static void feed_depth(struct bsf_visx *v, uint32_t port, uint32_t vq, const struct bsf_buf *b,
		       uint64_t since, uint64_t now)
{
	uint64_t cur, peak, t;

	if (is_streamed(v, port, vq) ||
	    !(vis_pipeline_watches(v->p, port, vq) & VIS_WATCH_CONGESTION))
		return;
	cur = buf_bytes(v, b->cur_bytes, b->cur_cells);
	if (cur == UINT64_MAX)
		return;
	/* the peak since the previous read first, at its time when known */
	peak = buf_bytes(v, b->peak_bytes, b->peak_cells);
	if (peak != UINT64_MAX && peak > cur) {
		t = (v->dev->caps & BSF_CAP_PEAK_TIME) && b->peak_time_ns != BSF_UNKNOWN
			? b->peak_time_ns
			: now;
		t = t < since ? since : t > now ? now : t;
		vis_pipeline_depth(v->p, port, vq, peak, t);
		v->depths_fed++;
	}
	vis_pipeline_depth(v->p, port, vq, cur, now);
	v->depths_fed++;
}

void bsf_visx_port_buffers(void *arg, uint32_t port, const struct bsf_port_buffers *b)
{
	struct bsf_visx *v = arg;
	const struct bsf_port_desc *pd;
	uint64_t now, since;

	if (!v->p || !v->dev || port >= v->dev->nports || !v->depth_t)
		return;
	pd = &v->dev->ports[port];
	now = bsf_wall_ns();
	since = v->depth_t[port];
	v->in_poll = 1; /* what this raises is held for the loop */
	for (uint32_t q = 0; q < pd->n_uc_queues && q < BSF_MAX_QUEUES; q++)
		feed_depth(v, port, q, &b->uc[q], since, now);
	for (uint32_t q = 0; q < pd->n_mc_queues && q < BSF_MAX_QUEUES; q++)
		feed_depth(v, port, BSF_MAX_QUEUES + q, &b->mc[q], since, now);
	v->in_poll = 0;
	v->depth_t[port] = now;
}

uint32_t bsf_visx_enterprise(const struct bsf_visx *v)
{
	return v->enterprise;
}

uint64_t bsf_visx_drops_lost(const struct bsf_visx *v)
{
	return v->drops_rate_lost;
}

const struct sflow_own_sampler_stat *bsf_visx_sampler_stats(struct bsf_visx *v, size_t *n)
{
	size_t k = v->p ? vis_pipeline_n_samplers(v->p) : 0;

	*n = 0;
	if (!k)
		return NULL;
	if (k > v->stats_cap) {
		struct sflow_own_sampler_stat *ns = realloc(v->stats, k * sizeof *ns);

		if (!ns)
			return NULL;
		v->stats = ns;
		v->stats_cap = k;
	}
	for (size_t i = 0; i < k; i++) {
		const struct vis_sampler *s = vis_pipeline_sampler(v->p, i);
		struct sflow_own_sampler_stat *o = &v->stats[i];
		struct vis_sampler_stats st;

		vis_sampler_get_stats(s, &st);
		memset(o, 0, sizeof *o);
		snprintf(o->name, sizeof o->name, "%s", vis_sampler_name(s));
		o->seen = st.seen;
		o->passed = st.passed;
		o->not_eligible = st.rejected[VIS_REJ_NOT_ELIGIBLE];
		o->duplicate = st.rejected[VIS_REJ_DUPLICATE];
		o->limiter = st.rejected[VIS_REJ_LIMITER];
		o->recurrent = st.rejected[VIS_REJ_RECURRENT];
		o->no_ticket = st.rejected[VIS_REJ_NO_TICKET];
		o->probability = st.rejected[VIS_REJ_PROBABILITY];
		o->flow_filter = st.rejected[VIS_REJ_FLOW_FILTER];
		o->downstream = st.rejected[VIS_REJ_DOWNSTREAM];
		o->ticket_balance = st.ticket_balance;
		o->ticket_batch = st.ticket_batch;
		o->consumed_all = st.consumed_all;
	}
	*n = k;
	return v->stats;
}

/* printf at buf + *used, never past size (a long line is cut). */
__attribute__((format(printf, 4, 5))) static void appendf(char *buf, size_t size, size_t *used,
							  const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*used >= size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *used, size - *used, fmt, ap);
	va_end(ap);
	*used = n < 0 ? size : *used + (size_t)n;
}

void bsf_visx_log_status(const struct bsf_visx *v)
{
	struct vis_pipeline_stats ps;
	struct vis_monitors_stats ms;
	char line[768] = "";
	size_t used = 0;

	if (!v->p) {
		log_notice("status: visibility: off");
		return;
	}
	vis_pipeline_get_stats(v->p, &ps);
	vis_monitors_get_stats(vis_pipeline_monitors(v->p), &ms);
	log_notice("status: visibility: %llu packet events (%llu outside the ports and queues, "
		   "%llu not eligible); queue event streams on %u queues%s, %llu polled depths "
		   "fed; %llu gaps in the streams (%llu forensics snapshots cut short)",
		   (unsigned long long)ms.pkt_events, (unsigned long long)ms.out_of_range,
		   (unsigned long long)ms.not_eligible, v->n_streamed,
		   v->stream_cap ? "" : " (the backend cannot stream)",
		   (unsigned long long)v->depths_fed, (unsigned long long)v->gaps,
		   (unsigned long long)ms.forensics_aborted);
	for (uint32_t t = VIS_EV_DROP; t < VIS_EV_NTYPES; t++) {
		if (t == VIS_EV_DELAY_END)
			continue;
		appendf(line, sizeof line, &used, "%s%s %llu raised, %llu passed, %llu sampled out",
			used ? "; " : "", vis_event_type_name(t), (unsigned long long)ps.raised[t],
			(unsigned long long)ps.passed[t], (unsigned long long)ps.sampled_out[t]);
		if (t != VIS_EV_DROP)
			appendf(line, sizeof line, &used, ", %llu sent, %llu not sent",
				(unsigned long long)v->sent[t], (unsigned long long)v->lost[t]);
	}
	log_notice("status: visibility events: %s", line);
	log_notice("status: visibility: %llu congestion starts passed and asked for an "
		   "out-of-cycle port sample: %llu sent, %llu skipped (within a second of the "
		   "port's previous one), %llu not sent; drop events sampled out for rate "
		   "reasons since bsflowd started (the 0:5 drops field): %llu",
		   (unsigned long long)v->port_samples_asked, (unsigned long long)v->port_samples,
		   (unsigned long long)v->port_samples_skipped,
		   (unsigned long long)v->port_samples_failed,
		   (unsigned long long)bsf_visx_drops_lost(v));
	for (size_t i = 0; i < vis_pipeline_n_samplers(v->p); i++) {
		const struct vis_sampler *s = vis_pipeline_sampler(v->p, i);
		struct vis_sampler_stats st;

		vis_sampler_get_stats(s, &st);
		used = 0;
		line[0] = '\0';
		for (uint32_t r = 1; r < VIS_REJ_N; r++)
			appendf(line, sizeof line, &used, "%s%s %llu", r > 1 ? ", " : "",
				vis_reject_name(r), (unsigned long long)st.rejected[r]);
		log_notice("status: visibility sampler %s: %llu seen, %llu passed, rejected: %s; "
			   "tickets %lld (batch %u), %llu periods consumed all",
			   vis_sampler_name(s), (unsigned long long)st.seen,
			   (unsigned long long)st.passed, line, (long long)st.ticket_balance,
			   st.ticket_batch, (unsigned long long)st.consumed_all);
	}
}
