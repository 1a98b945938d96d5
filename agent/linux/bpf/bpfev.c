/*
 * bpfev.c - the `bpf` source's ring buffers into the linux backend's
 * event queue: sampled packets at dequeue (BSF_EV_SAMPLE with queue,
 * depth met and sojourn), dropped packets (BSF_EV_DROP with the kernel's
 * reason named from its BTF, the queue, its depth and, for a streamed
 * queue, the id of the packet at its tail) and the enqueues and dequeues
 * of streamed queues (BSF_EV_ENQUEUE / BSF_EV_DEQUEUE with the queue's
 * packet ids).  When the event queue is full, reading stops and the
 * record in hand is kept until the agent has drained the queue: the
 * kernel's rings hold the rest, and only their own overflow loses
 * records (counted in the kernel, per queue or per CPU).
 *
 * SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
 */
#include "config.h"

#if HAVE_BPF
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bpf/btf.h>

#include "agent/linux/bpf/bpfint.h"
#include "agent/linux/bpf/bsflowd.skel.h"

enum { REC_NONE = 0, REC_SAMPLE, REC_DROP, REC_QEV };

uint64_t linuxbe_bpf_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void copy_hdr(struct linuxbe_st *st, struct bsf_event *e, const uint8_t *hdr,
		     uint32_t hdr_len)
{
	uint32_t len = hdr_len;

	if (len > BSF_HDR_MAX)
		len = BSF_HDR_MAX;
	if (len > st->conf.header_bytes)
		len = st->conf.header_bytes;
	memcpy(e->hdr, hdr, len);
	e->hdr_len = len;
}

static void put_sample(struct linuxbe_st *st, struct bsf_event *e,
		       const struct linuxbe_bpf_sample *r)
{
	struct linuxbe_bpf *b = st->bpf;
	uint32_t port = b->slot_port[r->slot];

	b->samples++;
	/* the data source is the port whose queue the packet leaves (its
	 * sampling rate and pool), as for the packet source's outgoing
	 * packets: in_port is that port, not the skb's input device */
	e->in_port = port;
	e->out_port = port;
	e->queue = b->slot_q[r->slot];
	e->tc = UINT32_MAX;
	e->sampling_rate = st->ports[port].sampling_rate;
	e->depth_bytes = r->backlog == UINT64_MAX ? BSF_UNKNOWN : r->backlog;
	e->transit_ns = r->sojourn == UINT64_MAX ? BSF_UNKNOWN : r->sojourn;
	e->t_ns = r->t + b->off_ns;
	e->frame_len = r->frame_len + 4; /* FCS */
	copy_hdr(st, e, r->hdr, r->hdr_len);
}

/* reasons that happen on the way out through a qdisc: the port is the
 * output, and queue_mapping its queue */
static int egress_reason(const char *r)
{
	return strncmp(r, "QDISC", 5) == 0 || strncmp(r, "TC_EGRESS", 9) == 0 ||
	       strncmp(r, "CAKE", 4) == 0 || strncmp(r, "FQ_", 3) == 0;
}

static void put_drop(struct linuxbe_st *st, uint32_t port, struct bsf_event *e,
		     const struct linuxbe_bpf_drop *r)
{
	struct linuxbe_bpf *b = st->bpf;
	const char *name = r->reason < b->n_reasons ? b->reasons[r->reason] : "";
	struct linuxbe_port *pt = &st->ports[port];
	int known = r->slot < b->nslots && b->slot_port[r->slot] == port;

	b->drop_events++;
	linuxbe_st_reason(st, name, "", "", &e->reason, &e->stage);
	snprintf(e->reason_name, sizeof e->reason_name, "%s", name);
	if (egress_reason(name) || known) {
		e->out_port = port;
		if (known)
			e->queue = b->slot_q[r->slot];
		else
			e->queue = pt->n_leaves <= 1 ? 0
				   : strcmp(pt->root_kind, "mq") == 0 && r->queue < pt->n_leaves
				       ? r->queue
				       : UINT32_MAX;
		if (known && r->depth != UINT64_MAX)
			e->depth_bytes = r->depth;
		if (known && b->slot_stream[r->slot]) {
			e->flags = BSF_EVF_QUEUE_STREAM;
			e->tail_id = r->tail_id;
		}
	} else {
		e->in_port = port;
	}
	e->t_ns = r->t + b->off_ns;
	e->frame_len = r->frame_len + 4; /* FCS */
	copy_hdr(st, e, r->hdr, r->hdr_len);
}

static void put_qev(struct linuxbe_st *st, struct bsf_event *e, const struct linuxbe_bpf_qev *r)
{
	struct linuxbe_bpf *b = st->bpf;

	b->qev_read++;
	e->out_port = b->slot_port[r->slot];
	e->queue = b->slot_q[r->slot];
	e->multicast = 0;
	e->flags = BSF_EVF_QUEUE_STREAM;
	e->pkt_id = r->id;
	e->depth_bytes = r->depth == UINT64_MAX ? BSF_UNKNOWN : r->depth;
	if (r->type == LINUXBE_BPF_QEV_DEQ)
		e->transit_ns = r->sojourn;
	e->t_ns = r->t + b->off_ns;
	e->frame_len = r->frame_len + 4; /* FCS */
	copy_hdr(st, e, r->hdr, r->hdr_len);
}

/* One record into the event queue: 1 done (or not ours), 0 the queue is
 * full (the record was not taken). */
static int put(struct linuxbe_st *st, int kind, const void *data)
{
	struct linuxbe_bpf *b = st->bpf;
	struct bsf_event *e;
	uint32_t type, port = UINT32_MAX;

	switch (kind) {
	case REC_SAMPLE: {
		const struct linuxbe_bpf_sample *r = data;

		if (r->slot >= b->nslots)
			return 1;
		type = BSF_EV_SAMPLE;
		break;
	}
	case REC_DROP:
		port =
		    linuxbe_port_by_ifindex(st, ((const struct linuxbe_bpf_drop *)data)->ifindex);
		if (port == UINT32_MAX)
			return 1;
		type = BSF_EV_DROP;
		break;
	default: {
		const struct linuxbe_bpf_qev *r = data;

		if (r->slot >= b->nslots)
			return 1;
		type = r->type == LINUXBE_BPF_QEV_ENQ ? BSF_EV_ENQUEUE : BSF_EV_DEQUEUE;
		break;
	}
	}
	if (st->q.n == st->q.cap)
		return 0;
	e = linuxbe_evq_slot(st, type);
	if (kind == REC_SAMPLE)
		put_sample(st, e, data);
	else if (kind == REC_DROP)
		put_drop(st, port, e, data);
	else
		put_qev(st, e, data);
	return 1;
}

/* a ring's record: into the queue, or kept and reading stops */
static int take(struct linuxbe_st *st, int kind, void *data, size_t size, size_t want)
{
	struct linuxbe_bpf *b = st->bpf;

	if (size < want)
		return 0;
	if (put(st, kind, data))
		return 0;
	memcpy(&b->pending, data, want);
	b->pending_kind = kind;
	return -ENOSPC;
}

static int on_sample(void *ctx, void *data, size_t size)
{
	return take(ctx, REC_SAMPLE, data, size, sizeof(struct linuxbe_bpf_sample));
}

static int on_drop(void *ctx, void *data, size_t size)
{
	return take(ctx, REC_DROP, data, size, sizeof(struct linuxbe_bpf_drop));
}

static int on_qev(void *ctx, void *data, size_t size)
{
	return take(ctx, REC_QEV, data, size, sizeof(struct linuxbe_bpf_qev));
}

static void on_ring(int fd, void *arg)
{
	struct linuxbe_st *st = arg;
	struct linuxbe_bpf *b = st->bpf;

	(void)fd;
	b->off_ns = st->host->now_ns(st->host->arg) - linuxbe_bpf_mono_ns();
	if (b->pending_kind) {
		if (!put(st, b->pending_kind, &b->pending)) {
			if (st->host->events_ready)
				st->host->events_ready(st->host->arg);
			return; /* still full: after the agent drained */
		}
		b->pending_kind = REC_NONE;
	}
	if (ring_buffer__consume(b->rb) < 0 && !b->pending_kind)
		st->src_errors[LINUXBE_SRC_BPF]++;
	if (st->q.n && st->host->events_ready)
		st->host->events_ready(st->host->arg);
}

int linuxbe_bpf_rings_open(struct linuxbe_st *st)
{
	struct linuxbe_bpf *b = st->bpf;

	b->rb = ring_buffer__new(bpf_map__fd(b->skel->maps.qevents), on_qev, st, NULL);
	if (!b->rb)
		return -1;
	if ((b->sampling &&
	     ring_buffer__add(b->rb, bpf_map__fd(b->skel->maps.samples), on_sample, st) != 0) ||
	    (b->dropping &&
	     ring_buffer__add(b->rb, bpf_map__fd(b->skel->maps.drops), on_drop, st) != 0))
		return -1;
	b->rb_w = st->host->fd_watch
		      ? st->host->fd_watch(st->host->arg, ring_buffer__epoll_fd(b->rb), on_ring, st)
		      : NULL;
	return b->rb_w ? 0 : -1;
}

/* the names of enum skb_drop_reason, by value, from the kernel's BTF */
void linuxbe_bpf_load_reasons(struct linuxbe_bpf *b)
{
	struct btf *btf = btf__load_vmlinux_btf();
	const struct btf_type *t;
	const struct btf_enum *en;
	int id;
	unsigned i, max = 0;

	if (!btf)
		return;
	id = btf__find_by_name_kind(btf, "skb_drop_reason", BTF_KIND_ENUM);
	t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	if (t) {
		en = btf_enum(t);
		for (i = 0; i < btf_vlen(t); i++)
			if (en[i].val >= 0 && (unsigned)en[i].val < 1024 &&
			    (unsigned)en[i].val >= max)
				max = (unsigned)en[i].val + 1;
		b->reasons = calloc(max ? max : 1, sizeof *b->reasons);
		if (b->reasons) {
			b->n_reasons = max;
			for (i = 0; i < btf_vlen(t); i++) {
				const char *n = btf__name_by_offset(btf, en[i].name_off);

				if (en[i].val < 0 || (unsigned)en[i].val >= max || !n)
					continue;
				if (strncmp(n, "SKB_DROP_REASON_", 16) == 0)
					n += 16;
				snprintf(b->reasons[en[i].val], sizeof b->reasons[0], "%s", n);
			}
		}
	}
	btf__free(btf);
}

#endif
