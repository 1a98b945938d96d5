/*
 * vis_monitor.c - the monitor set: per-queue state of every monitor, the
 * event id counter, pre-event eligibility, and the dispatch of one packet
 * event to the drop, forensics, delay and congestion monitors.  Each
 * visibility event raised is filled from the packet event (header bytes,
 * flow, lengths) and given to the caller's emit callback.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include "agent/visibility/vis_monitor.h"

struct vis_qstate {
	struct vis_delay_profile delay;
	int delay_tagging; /* the last departure was tagged */
	struct vis_forensics_q fx;
	struct vis_congestion_st cong;
	uint64_t depth;
};

struct vis_pstate {
	struct vis_congestion_st cong;
	uint64_t depth; /* sum of its queues' latest depths */
};

struct vis_monitors {
	struct vis_monitors_conf c;
	struct vis_qstate *q; /* nports * nqueues */
	struct vis_pstate *p; /* nports */
	struct vis_drop_mon drops;
	uint64_t next_id;
	struct vis_monitors_stats st;
};

void vis_monitors_conf_init(struct vis_monitors_conf *c, uint32_t nports, uint32_t nqueues)
{
	memset(c, 0, sizeof(*c));
	c->nports = nports;
	c->nqueues = nqueues;
	c->drops = 1;
	vis_match_init(&c->eligibility);
}

struct vis_monitors *vis_monitors_new(const struct vis_monitors_conf *c, char *err, size_t errlen)
{
	struct vis_monitors *m;

	if (c->nports == 0 || c->nqueues == 0 || c->nports > 65536 || c->nqueues > 1024) {
		snprintf(err, errlen, "monitors: %u ports x %u queues out of range", c->nports,
			 c->nqueues);
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (m) {
		m->q = calloc((size_t)c->nports * c->nqueues, sizeof(*m->q));
		m->p = calloc(c->nports, sizeof(*m->p));
	}
	if (!m || !m->q || !m->p) {
		vis_monitors_free(m);
		snprintf(err, errlen, "monitors: out of memory");
		return NULL;
	}
	m->c = *c;
	m->next_id = 1;
	vis_drop_mon_init(&m->drops);
	m->drops.enabled = c->drops;
	m->drops.reasons = c->drop_reasons;
	for (size_t i = 0; i < (size_t)c->nports * c->nqueues; i++) {
		vis_forensics_init(&m->q[i].fx);
		m->q[i].fx.enabled = c->forensics;
	}
	return m;
}

void vis_monitors_free(struct vis_monitors *m)
{
	if (!m)
		return;
	free(m->q);
	free(m->p);
	free(m);
}

static struct vis_qstate *qs(struct vis_monitors *m, uint32_t port, uint32_t queue)
{
	return &m->q[(size_t)port * m->c.nqueues + queue];
}

/* Apply fn to every (port, queue) selected; VIS_NONE = all. */
#define FOR_SELECTED(m, port, queue, body)                                                         \
	do {                                                                                       \
		if ((port != VIS_NONE && port >= m->c.nports) ||                                   \
		    (queue != VIS_NONE && queue >= m->c.nqueues))                                  \
			return -1;                                                                 \
		for (uint32_t p_ = 0; p_ < m->c.nports; p_++) {                                    \
			if (port != VIS_NONE && p_ != port)                                        \
				continue;                                                          \
			for (uint32_t q_ = 0; q_ < m->c.nqueues; q_++) {                           \
				struct vis_qstate *s_;                                             \
				if (queue != VIS_NONE && q_ != queue)                              \
					continue;                                                  \
				s_ = qs(m, p_, q_);                                                \
				body;                                                              \
			}                                                                          \
		}                                                                                  \
	} while (0)

int vis_monitors_set_delay_profile(struct vis_monitors *m, uint32_t port, uint32_t queue,
				   const struct vis_delay_profile *p)
{
	if (p && p->n > VIS_DELAY_LEVELS)
		return -1;
	FOR_SELECTED(m, port, queue, {
		if (p)
			s_->delay = *p;
		else
			memset(&s_->delay, 0, sizeof(s_->delay));
	});
	return 0;
}

int vis_monitors_set_forensics(struct vis_monitors *m, uint32_t port, uint32_t queue, int on)
{
	FOR_SELECTED(m, port, queue, s_->fx.enabled = on);
	return 0;
}

int vis_monitors_set_queue_congestion(struct vis_monitors *m, uint32_t port, uint32_t queue,
				      uint64_t high, uint64_t low)
{
	if (high && low > high)
		return -1;
	FOR_SELECTED(m, port, queue, vis_congestion_init(&s_->cong, high, low));
	return 0;
}

int vis_monitors_set_port_congestion(struct vis_monitors *m, uint32_t port, uint64_t high,
				     uint64_t low)
{
	if ((port != VIS_NONE && port >= m->c.nports) || (high && low > high))
		return -1;
	for (uint32_t p = 0; p < m->c.nports; p++)
		if (port == VIS_NONE || p == port)
			vis_congestion_init(&m->p[p].cong, high, low);
	return 0;
}

/* A visibility event filled from the packet event. */
static void base_event(struct vis_monitors *m, const struct vis_pkt_event *pe, uint32_t type,
		       struct vis_event *ev)
{
	/* the header bytes past hdr_len are never read */
	memset(ev, 0, offsetof(struct vis_event, hdr));
	ev->type = type;
	ev->own_id = m->next_id++;
	ev->event_id = ev->own_id;
	ev->t_ns = pe->t_ns;
	ev->port = pe->port;
	ev->queue = pe->queue;
	ev->in_port = pe->in_port;
	ev->reason = pe->reason;
	ev->stage = pe->stage;
	ev->tc = pe->tc;
	ev->depth_bytes = pe->depth_bytes;
	ev->delay_ns = pe->delay_ns;
	ev->pkt_id = pe->pkt_id;
	ev->mc_id = pe->mc_id;
	ev->flow = pe->flow;
	ev->flow_hash = pe->flow_hash; /* 0: hashed when needed (vis_event_flow_hash) */
	ev->frame_len = pe->frame_len;
	if (pe->hdr && pe->hdr_len) {
		ev->hdr_len = pe->hdr_len < VIS_HDR_MAX ? pe->hdr_len : VIS_HDR_MAX;
		memcpy(ev->hdr, pe->hdr, ev->hdr_len);
	}
}

static void emit_ev(struct vis_monitors *m, const struct vis_event *ev, vis_emit_fn emit, void *arg)
{
	if (ev->type < VIS_EV_NTYPES)
		m->st.events[ev->type]++;
	if (emit)
		emit(arg, ev);
}

static void congestion_event(struct vis_monitors *m, const struct vis_pkt_event *pe,
			     struct vis_congestion_st *c, int change, uint64_t depth,
			     uint64_t duration, int port_scope, vis_emit_fn emit, void *arg)
{
	struct vis_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = change == VIS_CONG_START ? VIS_EV_CONGESTION_START : VIS_EV_CONGESTION_END;
	ev.own_id = ev.event_id = m->next_id++;
	/* an end carries its start's id: a collector pairs them by it */
	if (change == VIS_CONG_START)
		c->start_id = ev.own_id;
	else
		ev.event_id = c->start_id;
	ev.t_ns = pe->t_ns;
	ev.port = pe->port;
	ev.queue = port_scope ? VIS_NONE : pe->queue;
	ev.in_port = VIS_NONE;
	ev.depth_bytes = depth;
	ev.delay_ns = UINT64_MAX;
	ev.peak_bytes = c->peak_bytes;
	ev.peak_t_ns = c->peak_ns;
	ev.duration_ns = change == VIS_CONG_END ? duration : 0;
	ev.pkt_id = VIS_ID_NONE;
	if (port_scope)
		ev.flags |= VIS_EVF_PORT_SCOPE;
	if (change == VIS_CONG_START)
		ev.flags |= VIS_EVF_SAMPLE_PORT;
	emit_ev(m, &ev, emit, arg);
}

static void update_depths(struct vis_monitors *m, const struct vis_pkt_event *pe,
			  struct vis_qstate *s, vis_emit_fn emit, void *arg)
{
	struct vis_pstate *p = &m->p[pe->port];
	uint64_t dur = 0;
	int ch;

	p->depth = p->depth - s->depth + pe->depth_bytes;
	s->depth = pe->depth_bytes;
	ch = vis_congestion_update(&s->cong, s->depth, pe->t_ns, &dur);
	if (ch != VIS_CONG_NONE)
		congestion_event(m, pe, &s->cong, ch, s->depth, dur, 0, emit, arg);
	ch = vis_congestion_update(&p->cong, p->depth, pe->t_ns, &dur);
	if (ch != VIS_CONG_NONE)
		congestion_event(m, pe, &p->cong, ch, p->depth, dur, 1, emit, arg);
}

static int eligible(const struct vis_monitors *m, const struct vis_pkt_event *pe, uint32_t type)
{
	return !m->c.has_eligibility || vis_match_pkt(&m->c.eligibility, pe, type);
}

static void on_drop(struct vis_monitors *m, const struct vis_pkt_event *pe, struct vis_qstate *s,
		    vis_emit_fn emit, void *arg)
{
	struct vis_event ev;
	int report = vis_drop_mon_account(&m->drops, pe->reason);
	int elig = eligible(m, pe, VIS_EV_DROP);
	uint64_t id;

	if (!elig)
		m->st.not_eligible++;
	base_event(m, pe, VIS_EV_DROP, &ev);
	id = ev.own_id;
	if (report && elig)
		emit_ev(m, &ev, emit, arg);
	/* forensics follows eligible drops, reported or not */
	if (!elig)
		return;
	if (m->c.forensics_port_scope) {
		for (uint32_t q = 0; q < m->c.nqueues; q++) {
			struct vis_pkt_event qe = *pe;
			qe.queue = q;
			if (q != pe->queue)
				qe.tail_id = VIS_ID_NONE;
			vis_forensics_drop(&qs(m, pe->port, q)->fx, &qe, id);
		}
	} else {
		vis_forensics_drop(&s->fx, pe, id);
	}
}

static void on_dequeue(struct vis_monitors *m, const struct vis_pkt_event *pe, struct vis_qstate *s,
		       vis_emit_fn emit, void *arg)
{
	struct vis_event ev;
	uint64_t drop_id = 0;
	uint32_t reason = 0, level;
	int last = 0;

	if (!(pe->flags & VIS_PKTF_PARTIAL) &&
	    vis_forensics_dequeue(&s->fx, pe, &drop_id, &reason, &last) &&
	    eligible(m, pe, VIS_EV_FORENSICS)) {
		base_event(m, pe, VIS_EV_FORENSICS, &ev);
		ev.event_id = drop_id;
		ev.reason = reason;
		if (last)
			ev.flags |= VIS_EVF_LAST;
		emit_ev(m, &ev, emit, arg);
	}
	level = vis_delay_level_of(&s->delay, pe->delay_ns);
	if (level && eligible(m, pe, VIS_EV_HIGH_DELAY)) {
		const struct vis_delay_level *lv = &s->delay.lv[level - 1];
		base_event(m, pe, VIS_EV_HIGH_DELAY, &ev);
		ev.level = level;
		ev.tag = lv->tag;
		ev.severity = lv->severity;
		emit_ev(m, &ev, emit, arg);
		s->delay_tagging = 1;
	} else if (!level && s->delay_tagging && pe->delay_ns != UINT64_MAX) {
		s->delay_tagging = 0;
		base_event(m, pe, VIS_EV_DELAY_END, &ev);
		emit_ev(m, &ev, emit, arg);
	}
}

void vis_monitors_feed(struct vis_monitors *m, const struct vis_pkt_event *pe, vis_emit_fn emit,
		       void *arg)
{
	struct vis_qstate *s;

	m->st.pkt_events++;
	if (pe->port >= m->c.nports || pe->queue >= m->c.nqueues) {
		/* a drop with no known egress queue (forwarding, ACL) is still
		 * reported; it has no queue state to update */
		if (pe->type == VIS_PKT_DROP && (pe->port == VIS_NONE || pe->queue == VIS_NONE) &&
		    (pe->port == VIS_NONE || pe->port < m->c.nports)) {
			struct vis_event ev;
			int report = vis_drop_mon_account(&m->drops, pe->reason);
			base_event(m, pe, VIS_EV_DROP, &ev);
			if (!eligible(m, pe, VIS_EV_DROP))
				m->st.not_eligible++;
			else if (report)
				emit_ev(m, &ev, emit, arg);
			return;
		}
		m->st.out_of_range++;
		return;
	}
	s = qs(m, pe->port, pe->queue);
	switch (pe->type) {
	case VIS_PKT_ENQUEUE:
		vis_forensics_enqueue(&s->fx, pe);
		break;
	case VIS_PKT_DROP:
		on_drop(m, pe, s, emit, arg);
		break;
	case VIS_PKT_DEQUEUE:
		on_dequeue(m, pe, s, emit, arg);
		break;
	default:
		m->st.out_of_range++;
		return;
	}
	if (pe->depth_bytes != UINT64_MAX && !(pe->flags & VIS_PKTF_PARTIAL))
		update_depths(m, pe, s, emit, arg);
}

void vis_monitors_depth(struct vis_monitors *m, uint32_t port, uint32_t queue, uint64_t bytes,
			uint64_t t_ns, vis_emit_fn emit, void *arg)
{
	struct vis_pkt_event pe;

	if (port >= m->c.nports || queue >= m->c.nqueues) {
		m->st.out_of_range++;
		return;
	}
	memset(&pe, 0, sizeof(pe));
	pe.t_ns = t_ns;
	pe.port = port;
	pe.queue = queue;
	pe.depth_bytes = bytes;
	update_depths(m, &pe, qs(m, port, queue), emit, arg);
}

uint32_t vis_monitors_watches(const struct vis_monitors *m, uint32_t port, uint32_t queue)
{
	const struct vis_qstate *s;
	uint32_t w = 0;

	if (port >= m->c.nports || queue >= m->c.nqueues)
		return 0;
	s = &m->q[(size_t)port * m->c.nqueues + queue];
	if (s->fx.enabled)
		w |= VIS_WATCH_FORENSICS;
	for (uint32_t i = 0; i < s->delay.n; i++)
		if (s->delay.lv[i].threshold_ns >= 0)
			w |= VIS_WATCH_DELAY;
	if (s->cong.high || m->p[port].cong.high)
		w |= VIS_WATCH_CONGESTION;
	return w;
}

void vis_monitors_gap(struct vis_monitors *m, uint32_t port, uint32_t queue)
{
	m->st.gaps++;
	for (uint32_t p = 0; p < m->c.nports; p++) {
		if (port != VIS_NONE && p != port)
			continue;
		for (uint32_t q = 0; q < m->c.nqueues; q++) {
			struct vis_qstate *s;

			if (queue != VIS_NONE && q != queue)
				continue;
			s = qs(m, p, q);
			if (vis_forensics_forget(&s->fx))
				m->st.forensics_aborted++;
			s->delay_tagging = 0;
		}
	}
}

void vis_monitors_get_stats(const struct vis_monitors *m, struct vis_monitors_stats *st)
{
	*st = m->st;
}

const struct vis_drop_mon *vis_monitors_drops(const struct vis_monitors *m)
{
	return &m->drops;
}
