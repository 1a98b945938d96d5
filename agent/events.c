/*
 * events.c - the backend's events, routed to flow samples, drop
 * notifications and the visibility monitors (see events.h).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <event2/event.h>
#include <string.h>

#include "agent/events.h"
#include "agent/export.h"
#include "agent/visexport.h"
#include "proto/sflow.h"

#define EVENT_BATCH 64
/* Batches one drain from the loop reads before other work gets a turn. */
#define EVENT_DRAIN_TURN 64
/* Batches bsf_events_drain reads: until the queues are empty, which a
 * full host queue (BSF_HOST_QUEUE) and a backend's own take far fewer
 * than; the bound is for a backend thread that pushes as fast as the
 * daemon reads. */
#define EVENT_DRAIN_ALL 4096

/* The ifIndex of backend port index p, 0 if unknown. */
static uint32_t ifindex_of(const struct bsf_events *e, uint32_t p)
{
	return p < e->flows.nports ? e->flows.ports[p].ifindex : 0;
}

/* A sampled packet: its 0:3 sample on the input port's data source. */
static void route_sample(struct bsf_events *e, const struct bsf_event *ev)
{
	const struct bsf_backend_ops *o = e->be->ops;
	uint8_t buf[BSF_FLOW_SCRATCH];
	uint64_t pool = 0, cut, n;
	size_t len = 0, room;
	int r;

	if (o->sample_pool && ev->in_port < e->flows.nports)
		pool = o->sample_pool(e->be->st, ev->in_port);
	/* drops: what the backend lost to its full queue, and what we lost */
	if (o->sample_drops && ev->in_port < e->flows.nports)
		bsf_flows_backend_lost(&e->flows, ev->in_port,
				       o->sample_drops(e->be->st, ev->in_port));
	room = export_sample_room(e->x);
	if (room > sizeof buf)
		room = sizeof buf;
	cut = e->flows.cut;
	r = bsf_flows_build(&e->flows, ev, pool, buf, room, &len);
	if (r == SFLOW_OK && export_add(e->x, buf, len) < 0)
		r = SFLOW_ERR_FULL;
	if (r != SFLOW_OK) {
		if (r == SFLOW_ERR_FULL) /* no room: counted in the port's drops */
			bsf_flows_lost(&e->flows, ev->in_port, 1);
		e->flow_samples_lost++;
		e->flow_lost_unlogged++;
	} else {
		e->flow_samples_sent++;
		e->flow_cut_unlogged += e->flows.cut - cut;
	}
	if ((e->flow_lost_unlogged || e->flow_cut_unlogged) &&
	    bsf_ratelimit_hit(&e->flow_fit_rl, bsf_now_ns(), &n)) {
		if (e->flow_cut_unlogged)
			log_warnx("packet samples: %llu sent with fewer header bytes or without "
				  "their extended records: datagram_bytes (%u) too small for them",
				  (unsigned long long)e->flow_cut_unlogged, e->datagram_bytes);
		if (e->flow_lost_unlogged)
			log_warnx("packet samples: %llu lost (not built or too big for "
				  "datagram_bytes %u; counted in their data source's drops)",
				  (unsigned long long)e->flow_lost_unlogged, e->datagram_bytes);
		e->flow_cut_unlogged = e->flow_lost_unlogged = 0;
	}
}

uint64_t bsf_events_drops_lost(const struct bsf_events *e)
{
	const struct bsf_backend_ops *o = e->be->ops;

	return e->drop_events_lost_closed +
	       (o && o->drop_events_lost ? o->drop_events_lost(e->be->st) : 0) +
	       bsf_backend_push_lost(e->be, BSF_EV_DROP);
}

/* Encode drop ev as a 0:5 with p and queue it for export: 1, or 0 if it
 * does not fit a datagram (datagram_bytes). */
static int encode_add_drop(struct bsf_events *e, const struct bsf_discard_params *p,
			   const struct bsf_event *ev)
{
	uint8_t buf[BSF_DISCARD_SCRATCH];
	size_t len = 0;

	return bsf_discard_encode(p, ev, buf, sizeof buf, &len) == SFLOW_OK &&
	       export_add(e->x, buf, len) == 0;
}

/* A dropped packet to notify: a 0:5 on the device source 2:1, if the rate
 * limit and the circuit breaker let it through, with rec (its own
 * visibility_event record, a sampled drop's) when not NULL. */
static void notify_drop(struct bsf_events *e, const struct bsf_event *ev,
			const struct sflow_own_vis_event *rec)
{
	const struct bsf_discard_conf *dc = &e->drops.conf;
	struct bsf_discard_params p;
	uint64_t n;
	unsigned tr;
	int ok;

	enum bsf_discard_verdict v = bsf_discard_offer(&e->drops, ev->t_ns, &tr);

	if (bsf_log_verbosity() >= 2) {
		char what[300];

		bsf_discard_describe(ev, what, sizeof what);
		log_debug("drop: in port %u, out port %u, queue %u: %s", ev->in_port, ev->out_port,
			  ev->queue, what);
	}

	if (tr & BSF_DISCARD_RESUMED)
		log_notice("drop notifications: circuit breaker closed after %u s, "
			   "notifications resume (%llu suppressed so far)",
			   dc->cooldown, (unsigned long long)bsf_discard_suppressed(&e->drops));
	if (tr & BSF_DISCARD_TRIPPED)
		log_warnx("drop notifications: more than %u drops a second for %u "
			  "seconds in a row: circuit breaker open, no notifications "
			  "for %u s (or until a reload)",
			  dc->max, dc->max_trip, dc->cooldown);
	if (v != BSF_DISCARD_SEND)
		return;
	memset(&p, 0, sizeof p);
	p.seq = e->discard_seq;
	p.source_type = SFLOW_DS_ENTITY;
	p.source_index = 1;
	p.drops = (uint32_t)(bsf_discard_suppressed(&e->drops) + bsf_events_drops_lost(e) +
			     bsf_visx_drops_lost(e->vis));
	p.in_ifindex = ifindex_of(e, ev->in_port);
	p.out_ifindex = ifindex_of(e, ev->out_port);
	p.header_bytes = e->flows.header_bytes;
	p.enterprise = bsf_visx_enterprise(e->vis);
	p.vis = rec;
	p.region = 1;
	ok = encode_add_drop(e, &p, ev);
	if (!ok && (p.vis || (ev->flags & BSF_EVF_FLOW_REGION))) {
		/* too big for datagram_bytes with bsflowd's own records: sent
		 * without them (bsflowd.conf(5), datagram_bytes) */
		p.vis = NULL;
		p.region = 0;
		ok = encode_add_drop(e, &p, ev);
		if (ok && bsf_ratelimit_hit(&e->drop_fit_rl, bsf_now_ns(), &n))
			log_warnx("drop notifications: own records left out of %llu "
				  "notification(s): datagram_bytes (%u) too small for them",
				  (unsigned long long)n, e->datagram_bytes);
	}
	if (!ok) {
		/* not sent after all: count it with the suppressed ones, so
		 * that sent + drops stays equal to the drops offered */
		e->drops.sent--;
		e->drops.suppressed_rate++;
		if (bsf_ratelimit_hit(&e->drop_fit_rl, bsf_now_ns(), &n))
			log_warnx("drop notifications: %llu not sent: datagram_bytes (%u) too "
				  "small for them (counted in the drops field)",
				  (unsigned long long)n, e->datagram_bytes);
		return;
	}
	e->discard_seq++;
}

/* An event while the port numbering is unknown (bsf_events_suspend_ports):
 * a drop notified without its ports, nothing else. */
static void route_unattributed(struct bsf_events *e, const struct bsf_event *ev, size_t t)
{
	struct bsf_event copy;

	e->unattributed[t]++;
	if (ev->type != BSF_EV_DROP)
		return;
	copy = *ev;
	copy.in_port = copy.out_port = UINT32_MAX;
	notify_drop(e, &copy, NULL);
}

void bsf_events_suspend_ports(struct bsf_events *e, int on)
{
	e->ports_suspended = on;
}

void bsf_events_route(struct bsf_events *e, const struct bsf_event *ev)
{
	const size_t ntypes = sizeof e->by_type / sizeof e->by_type[0];
	size_t t = ev->type < ntypes ? ev->type : 0;
	struct sflow_own_vis_event rec;
	int rec_valid;
	enum bsf_visx_drop verdict;

	e->by_type[t]++;
	if (e->ports_suspended) {
		route_unattributed(e, ev, t);
		return;
	}
	if (ev->type == BSF_EV_SAMPLE) {
		route_sample(e, ev);
		/* a packet dropped after it was sampled never departed: its
		 * drop event tells the visibility monitors about it */
		if (ev->reason != 0)
			return;
	}
	verdict = bsf_visx_feed(e->vis, ev, &rec, &rec_valid);
	if (ev->type != BSF_EV_DROP || verdict == BSF_VISX_DROP_TAKEN)
		return;
	notify_drop(e, ev, verdict == BSF_VISX_DROP_SAMPLED && rec_valid ? &rec : NULL);
}

/* Read and route up to `rounds` batches; then, if the last one was full
 * (more may be left), come back from the loop after other work, else tell
 * the visibility export the queue is empty. */
static void drain_rounds(struct bsf_events *e, int rounds)
{
	struct bsf_event ev[EVENT_BATCH];
	size_t n;

	if (!e->be->ops)
		return;
	do {
		bsf_visx_check_lost(e->vis);
		/* what it pushed from any thread, then what it queued itself */
		n = bsf_backend_pop_events(e->be, ev, EVENT_BATCH);
		if (n < EVENT_BATCH && e->be->ops->read_events)
			n += e->be->ops->read_events(e->be->st, ev + n, EVENT_BATCH - n);
		for (size_t i = 0; i < n; i++)
			bsf_events_route(e, &ev[i]);
	} while (n == EVENT_BATCH && --rounds > 0);
	if (n == EVENT_BATCH)
		event_active(e->ev_drain, EV_TIMEOUT, 0);
	else
		bsf_visx_events_drained(e->vis);
}

void bsf_events_drain(struct bsf_events *e)
{
	drain_rounds(e, EVENT_DRAIN_ALL);
}

static void drain_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	drain_rounds(arg, EVENT_DRAIN_TURN);
}

void bsf_events_wake(struct bsf_events *e)
{
	if (e->ev_drain)
		event_active(e->ev_drain, EV_TIMEOUT, 0);
}

int bsf_events_init(struct bsf_events *e, struct event_base *base, struct bsf_backend *be,
		    struct export *x, struct bsf_visx *vis)
{
	struct bsf_discard_conf dc;

	memset(e, 0, sizeof *e);
	e->be = be;
	e->x = x;
	e->vis = vis;
	e->ev_drain = event_new(base, -1, 0, drain_cb, e);
	if (!e->ev_drain)
		return -1;
	bsf_flows_init(&e->flows);
	bsf_discard_conf_default(&dc);
	bsf_discard_limiter_init(&e->drops, &dc);
	e->discard_seq = 1;
	bsf_ratelimit_init(&e->drop_fit_rl, 60ull * 1000000000ull);
	bsf_ratelimit_init(&e->flow_fit_rl, 60ull * 1000000000ull);
	return 0;
}

void bsf_events_fini(struct bsf_events *e)
{
	if (e->ev_drain)
		event_free(e->ev_drain);
	bsf_flows_fini(&e->flows);
	memset(e, 0, sizeof *e);
}

void bsf_events_backend_closing(struct bsf_events *e)
{
	const struct bsf_backend_ops *o = e->be->ops;

	if (!o)
		return;
	/* what the old backend has queued still goes out */
	bsf_events_drain(e);
	/* its final sample drop counts stay in the drops of the data
	 * sources that carry over (by port index: not while unknown) */
	if (o->sample_drops && !e->ports_suspended)
		for (uint32_t i = 0; i < e->flows.nports; i++)
			bsf_flows_backend_lost(&e->flows, i, o->sample_drops(e->be->st, i));
	e->drop_events_lost_closed = bsf_events_drops_lost(e);
}

void bsf_events_backend_opened(struct bsf_events *e)
{
	memset(e->by_type, 0, sizeof e->by_type);
}

void bsf_events_log_status(const struct bsf_events *e)
{
	const struct bsf_backend_ops *o = e->be->ops;

	if (!o)
		return;
	log_notice("status: backend %s: %llu drop events, %llu sample events, %llu enqueue "
		   "and %llu dequeue events read; %llu events lost to a full queue",
		   o->name, (unsigned long long)e->by_type[BSF_EV_DROP],
		   (unsigned long long)e->by_type[BSF_EV_SAMPLE],
		   (unsigned long long)e->by_type[BSF_EV_ENQUEUE],
		   (unsigned long long)e->by_type[BSF_EV_DEQUEUE],
		   (unsigned long long)((o->event_overflows ? o->event_overflows(e->be->st) : 0) +
					bsf_backend_push_lost_all(e->be)));
	if (bsf_backend_push_lost_all(e->be))
		log_notice("status: backend %s: pushed events lost: %llu drop, %llu sample, "
			   "%llu enqueue, %llu dequeue, %llu other (%llu of them refused during "
			   "a device change, the rest to a full queue)",
			   o->name, (unsigned long long)bsf_backend_push_lost(e->be, BSF_EV_DROP),
			   (unsigned long long)bsf_backend_push_lost(e->be, BSF_EV_SAMPLE),
			   (unsigned long long)bsf_backend_push_lost(e->be, BSF_EV_ENQUEUE),
			   (unsigned long long)bsf_backend_push_lost(e->be, BSF_EV_DEQUEUE),
			   (unsigned long long)bsf_backend_push_lost(e->be, 0),
			   (unsigned long long)bsf_backend_push_refused(e->be));
	if (e->ports_suspended || e->unattributed[BSF_EV_DROP] || e->unattributed[BSF_EV_SAMPLE] ||
	    e->unattributed[BSF_EV_ENQUEUE] || e->unattributed[BSF_EV_DEQUEUE])
		log_notice("status: backend %s: events of no known port (its port numbering "
			   "unknown%s): %llu drops notified without their ports, %llu packet "
			   "samples and %llu queue events not sent",
			   o->name, e->ports_suspended ? ", now" : "",
			   (unsigned long long)e->unattributed[BSF_EV_DROP],
			   (unsigned long long)e->unattributed[BSF_EV_SAMPLE],
			   (unsigned long long)(e->unattributed[BSF_EV_ENQUEUE] +
						e->unattributed[BSF_EV_DEQUEUE]));
	log_notice("status: packet samples: %llu sent, %llu lost; drop notifications: "
		   "%llu offered, %llu sent, %llu suppressed by the rate limit, %llu by "
		   "the circuit breaker (%s, tripped %llu times), %llu drop events lost "
		   "to a full queue",
		   (unsigned long long)e->flow_samples_sent,
		   (unsigned long long)e->flow_samples_lost, (unsigned long long)e->drops.offered,
		   (unsigned long long)e->drops.sent, (unsigned long long)e->drops.suppressed_rate,
		   (unsigned long long)e->drops.suppressed_breaker,
		   e->drops.open ? "open" : "closed", (unsigned long long)e->drops.trips,
		   (unsigned long long)bsf_events_drops_lost(e));
}
