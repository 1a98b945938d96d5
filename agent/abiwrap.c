/*
 * abiwrap.c - a backend of any layout within the ABI range, seen in the
 * daemon's layout (see abiwrap.h): forwarding functions that pre-fill
 * what the daemon allocates and normalise what the backend gives.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/abiwrap.h"

/* A description in the daemon's layout: the device and its ports. */
struct wdesc {
	struct bsf_device_desc dev;
	struct bsf_port_desc ports[];
};

struct bsf_abiwrap {
	struct bsf_backend_ops ops; /* the forwarding table given out */
	struct bsf_backend_ops be;  /* the backend's, normalised */
	void *st;		    /* the backend's state */
	struct wdesc *cur;	    /* what describe() gives the daemon */
	struct wdesc *prev;	    /* the one in use before redescribe, kept
				       until its users moved over */
	uint64_t (*push_lost)(void *arg);
	void *push_arg;
};

void bsf_abi_ops_copy(struct bsf_backend_ops *dst, const struct bsf_backend_ops *src)
{
	size_t n = src->size < sizeof *dst ? src->size : sizeof *dst;

	memset(dst, 0, sizeof *dst);
	memcpy(dst, src, n);
	dst->size = sizeof *dst;
}

/* The backend's descriptor d in the daemon's layout: a new copy, or NULL
 * with the reason in err (none, sizes below the minimum, out of
 * memory). */
static struct wdesc *copy_desc(const struct bsf_device_desc *d, char *err, size_t errlen)
{
	size_t psize;
	struct wdesc *c;

	if (!d) {
		snprintf(err, errlen, "describe() returned NULL");
		return NULL;
	}
	psize = d->nports && d->ports ? d->ports[0].size : sizeof(struct bsf_port_desc);
	if (d->size < BSF_ABI_DEVICE_MIN ||
	    (d->nports && (!d->ports || psize < BSF_ABI_PORT_MIN))) {
		snprintf(err, errlen,
			 "describe(): device size %u, port size %u: below the least this "
			 "bsflowd reads (%zu, %zu)",
			 d->size, d->nports && d->ports ? d->ports[0].size : 0,
			 (size_t)BSF_ABI_DEVICE_MIN, (size_t)BSF_ABI_PORT_MIN);
		return NULL;
	}
	c = calloc(1, sizeof *c + (size_t)d->nports * sizeof c->ports[0]);
	if (!c) {
		snprintf(err, errlen, "out of memory copying %u port descriptions", d->nports);
		return NULL;
	}
	memcpy(&c->dev, d, d->size < sizeof c->dev ? d->size : sizeof c->dev);
	c->dev.size = sizeof c->dev;
	c->dev.id[BSF_NAME_MAX - 1] = '\0';
	for (uint32_t i = 0; i < d->nports; i++) {
		const char *src = (const char *)d->ports + i * psize;

		memcpy(&c->ports[i], src, psize < sizeof c->ports[i] ? psize : sizeof c->ports[i]);
		c->ports[i].size = sizeof c->ports[i];
		c->ports[i].name[BSF_NAME_MAX - 1] = '\0';
	}
	c->dev.ports = c->ports;
	return c;
}

/* The description in force (read from the backend when the wrapper was
 * made, and again by bsf_abiwrap_redescribe only). */
static const struct bsf_device_desc *w_describe(void *st)
{
	struct bsf_abiwrap *w = st;

	return w->cur ? &w->cur->dev : NULL;
}

const struct bsf_device_desc *bsf_abiwrap_redescribe(struct bsf_abiwrap *w,
						     const struct bsf_device_desc **prev, char *err,
						     size_t errlen)
{
	struct wdesc *c = copy_desc(w->be.describe(w->st), err, errlen);

	if (!c)
		return NULL;
	if (w->prev)
		free(w->cur); /* read before, never taken into use */
	else
		w->prev = w->cur;
	w->cur = c;
	if (prev)
		*prev = &w->prev->dev;
	return &c->dev;
}

void bsf_abiwrap_release_previous(struct bsf_abiwrap *w)
{
	free(w->prev);
	w->prev = NULL;
}

static void w_close(void *st)
{
	struct bsf_abiwrap *w = st;

	w->be.close(w->st);
	w->st = NULL;
}

static int w_read_counters(void *st, uint32_t port, struct bsf_if_counters *out, char *err,
			   size_t errlen)
{
	struct bsf_abiwrap *w = st;

	bsf_if_counters_init(out);
	return w->be.read_counters(w->st, port, out, err, errlen);
}

static int w_read_port_buffers(void *st, unsigned window, uint32_t port,
			       struct bsf_port_buffers *out, char *err, size_t errlen)
{
	struct bsf_abiwrap *w = st;

	bsf_port_buffers_init(out);
	return w->be.read_port_buffers(w->st, window, port, out, err, errlen);
}

static int w_read_device_buffers(void *st, unsigned window, struct bsf_device_buffers *out,
				 char *err, size_t errlen)
{
	struct bsf_abiwrap *w = st;

	bsf_device_buffers_init(out);
	return w->be.read_device_buffers(w->st, window, out, err, errlen);
}

static int w_read_delays(void *st, unsigned window, uint32_t port, struct bsf_port_delays *out,
			 char *err, size_t errlen)
{
	struct bsf_abiwrap *w = st;

	bsf_port_delays_init(out);
	return w->be.read_delays(w->st, window, port, out, err, errlen);
}

static int w_read_eth_counters(void *st, uint32_t port, struct bsf_eth_counters *out, char *err,
			       size_t errlen)
{
	struct bsf_abiwrap *w = st;

	bsf_eth_counters_init(out);
	return w->be.read_eth_counters(w->st, port, out, err, errlen);
}

static int w_read_own_records(void *st, unsigned window, uint32_t port, uint32_t enterprise,
			      struct bsf_own_records *out, char *err, size_t errlen)
{
	struct bsf_abiwrap *w = st;
	int r;

	out->size = sizeof *out;
	out->nrec = 0;
	out->len = 0;
	r = w->be.read_own_records(w->st, window, port, enterprise, out, err, errlen);
	/* what cannot be so: nothing */
	if (out->len > sizeof out->buf || (out->nrec && !out->len)) {
		out->nrec = 0;
		out->len = 0;
	}
	return r;
}

static size_t w_read_events(void *st, struct bsf_event *ev, size_t max)
{
	struct bsf_abiwrap *w = st;
	size_t n;

	for (size_t i = 0; i < max; i++)
		bsf_event_init(&ev[i]);
	n = w->be.read_events(w->st, ev, max);
	if (n > max)
		n = max;
	for (size_t i = 0; i < n; i++) {
		struct bsf_event *e = &ev[i];

		e->size = sizeof *e;
		e->function[BSF_NAME_MAX - 1] = e->reason_name[BSF_NAME_MAX - 1] = '\0';
		e->trap_group[BSF_NAME_MAX - 1] = e->trap_name[BSF_NAME_MAX - 1] = '\0';
	}
	return n;
}

/* The optional ops without anything to normalise: the wrapper's state in,
 * the backend's out. */
static uint64_t w_sample_pool(void *st, uint32_t port)
{
	struct bsf_abiwrap *w = st;

	return w->be.sample_pool(w->st, port);
}

static uint64_t w_event_overflows(void *st)
{
	struct bsf_abiwrap *w = st;

	return w->be.event_overflows(w->st);
}

static void w_log_status(void *st)
{
	struct bsf_abiwrap *w = st;

	w->be.log_status(w->st);
}

static uint64_t w_lag_ns(void *st)
{
	struct bsf_abiwrap *w = st;

	return w->be.lag_ns(w->st);
}

static uint64_t w_drop_events_lost(void *st)
{
	struct bsf_abiwrap *w = st;

	return w->be.drop_events_lost(w->st);
}

static uint64_t w_sample_drops(void *st, uint32_t port)
{
	struct bsf_abiwrap *w = st;

	return w->be.sample_drops(w->st, port);
}

static int w_set_queue_events(void *st, uint32_t port, uint32_t queue, uint32_t multicast,
			      uint32_t flags, char *err, size_t errlen)
{
	struct bsf_abiwrap *w = st;

	return w->be.set_queue_events(w->st, port, queue, multicast, flags, err, errlen);
}

/* The backend's count (or, without one, all it lost, as the visibility
 * export reads a backend without it) plus what the daemon's queue lost. */
static uint64_t w_queue_events_lost(void *st)
{
	struct bsf_abiwrap *w = st;
	uint64_t n = 0;

	if (w->be.queue_events_lost)
		n = w->be.queue_events_lost(w->st);
	else if (w->be.event_overflows)
		n = w->be.event_overflows(w->st);
	return n + (w->push_lost ? w->push_lost(w->push_arg) : 0);
}

struct bsf_abiwrap *bsf_abiwrap_new(const struct bsf_backend_ops *ops, void *st,
				    uint64_t (*push_lost)(void *arg), void *push_arg, char *err,
				    size_t errlen)
{
	struct bsf_abiwrap *w = calloc(1, sizeof *w);
	const struct bsf_backend_ops *b;

	if (!w) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	bsf_abi_ops_copy(&w->be, ops);
	w->st = st;
	w->push_lost = push_lost;
	w->push_arg = push_arg;
	b = &w->be;
	w->ops.abi_version = BSF_BACKEND_ABI_VERSION;
	w->ops.size = sizeof w->ops;
	w->ops.name = b->name ? b->name : "(unnamed)";
	w->ops.open = NULL; /* already open */
	w->ops.close = w_close;
	w->ops.describe = w_describe;
	w->ops.read_counters = w_read_counters;
	w->ops.read_port_buffers = w_read_port_buffers;
	w->ops.read_device_buffers = w_read_device_buffers;
	w->ops.read_delays = w_read_delays;
	w->ops.read_events = b->read_events ? w_read_events : NULL;
	w->ops.sample_pool = b->sample_pool ? w_sample_pool : NULL;
	w->ops.event_overflows = b->event_overflows ? w_event_overflows : NULL;
	w->ops.lag_ns = b->lag_ns ? w_lag_ns : NULL;
	w->ops.drop_events_lost = b->drop_events_lost ? w_drop_events_lost : NULL;
	w->ops.sample_drops = b->sample_drops ? w_sample_drops : NULL;
	w->ops.set_queue_events = b->set_queue_events ? w_set_queue_events : NULL;
	w->ops.queue_events_lost = b->queue_events_lost || push_lost ? w_queue_events_lost : NULL;
	w->ops.check = b->check;
	w->ops.read_eth_counters = b->read_eth_counters ? w_read_eth_counters : NULL;
	w->ops.read_own_records = b->read_own_records ? w_read_own_records : NULL;
	w->ops.log_status = b->log_status ? w_log_status : NULL;
	w->cur = copy_desc(b->describe(st), err, errlen);
	if (!w->cur) {
		free(w);
		return NULL;
	}
	return w;
}

const struct bsf_backend_ops *bsf_abiwrap_ops(const struct bsf_abiwrap *w)
{
	return &w->ops;
}

void *bsf_abiwrap_st(struct bsf_abiwrap *w)
{
	return w;
}

void bsf_abiwrap_free(struct bsf_abiwrap *w)
{
	if (!w)
		return;
	free(w->cur);
	free(w->prev);
	free(w);
}
