/*
 * host.c - the host table given to backends (host.h): timers and fd
 * watches on the daemon's libevent loop, logging, the wall clock, and the
 * thread-safe event push and wake-up through evqueue.c.
 *
 * Timers and watches are kept on a list of the host so that those a
 * backend forgets to free are freed with the host after close().
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <event2/event.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "agent/evqueue.h"
#include "agent/host.h"
#include "agent/log.h"

/* A timer or an fd watch (struct bsf_timer and bsf_fd_watch are this). */
struct bsf_host_obj {
	struct bsf_host_obj *next, **pprev;
	struct bsf_hostimpl *hi;
	struct event *ev;
	void (*tcb)(void *cbarg);	  /* timers */
	void (*fcb)(int fd, void *cbarg); /* watches */
	void *cbarg;
	uint64_t interval_ns;
	int periodic;
};

static void host_log(void *arg, int priority, const char *fmt, ...) BSF_PRINTF_LIKE(3, 4);

static void host_log(void *arg, int priority, const char *fmt, ...)
{
	va_list ap;

	(void)arg;
	va_start(ap, fmt);
	bsf_vlog(priority, fmt, ap);
	va_end(ap);
}

static uint64_t host_now_ns(void *arg)
{
	(void)arg;
	return bsf_wall_ns();
}

/* From the loop thread (a backend's timer or watch) the daemon is told at
 * once, so that it drains in this turn of the loop, ahead of whatever the
 * backend scheduled for the next (the model resumes its clock from a
 * zero-delay timer once the agent has read: through the queue's descriptor
 * the drain came after that timer, found the ring still full, and the
 * model waited for its next tick: a ceiling of one ring a tick).  From any
 * other thread, through the queue's descriptor. */
static void host_events_ready(void *arg)
{
	struct bsf_hostimpl *hi = arg;

	if (hi->q && hi->drain && pthread_equal(pthread_self(), hi->loop_thread)) {
		hi->drain(hi->drain_arg);
		return;
	}
	if (hi->q)
		bsf_evq_wake(hi->q);
}

static size_t host_push_events(void *arg, const struct bsf_event *ev, size_t n)
{
	struct bsf_hostimpl *hi = arg;

	return hi->q ? bsf_evq_push(hi->q, ev, n) : 0;
}

static struct bsf_host_obj *obj_new(struct bsf_hostimpl *hi)
{
	struct bsf_host_obj *o = calloc(1, sizeof *o);

	if (!o)
		return NULL;
	o->hi = hi;
	o->next = hi->objs;
	if (o->next)
		o->next->pprev = &o->next;
	o->pprev = &hi->objs;
	hi->objs = o;
	return o;
}

static void obj_free(struct bsf_host_obj *o)
{
	if (!o)
		return;
	if (o->ev)
		event_free(o->ev);
	*o->pprev = o->next;
	if (o->next)
		o->next->pprev = o->pprev;
	free(o);
}

static void timer_cb(evutil_socket_t fd, short what, void *arg)
{
	struct bsf_host_obj *o = arg;

	(void)fd;
	(void)what;
	o->tcb(o->cbarg);
}

static struct bsf_timer *host_timer_new(void *arg, void (*cb)(void *cbarg), void *cbarg)
{
	struct bsf_hostimpl *hi = arg;
	struct bsf_host_obj *o;

	if (!hi->base || !cb)
		return NULL;
	o = obj_new(hi);
	if (!o)
		return NULL;
	o->tcb = cb;
	o->cbarg = cbarg;
	o->ev = event_new(hi->base, -1, 0, timer_cb, o);
	if (!o->ev) {
		obj_free(o);
		return NULL;
	}
	return (struct bsf_timer *)o;
}

static int host_timer_start(struct bsf_timer *t, uint64_t interval_ns, int periodic)
{
	struct bsf_host_obj *o = (struct bsf_host_obj *)t;
	struct timeval tv;

	if (!o)
		return -1;
	if (periodic && interval_ns == 0)
		return -1; /* a busy loop */
	tv.tv_sec = (time_t)(interval_ns / 1000000000u);
	tv.tv_usec = (suseconds_t)(interval_ns % 1000000000u / 1000u);
	if (interval_ns > 0 && tv.tv_sec == 0 && tv.tv_usec == 0)
		tv.tv_usec = 1;
	event_del(o->ev);
	if (event_assign(o->ev, o->hi->base, -1, periodic ? EV_PERSIST : 0, timer_cb, o) < 0)
		return -1;
	o->interval_ns = interval_ns;
	o->periodic = periodic;
	return event_add(o->ev, &tv);
}

static void host_timer_stop(struct bsf_timer *t)
{
	struct bsf_host_obj *o = (struct bsf_host_obj *)t;

	if (o)
		event_del(o->ev);
}

static void host_timer_free(struct bsf_timer *t)
{
	obj_free((struct bsf_host_obj *)t);
}

static void watch_cb(evutil_socket_t fd, short what, void *arg)
{
	struct bsf_host_obj *o = arg;

	(void)what;
	o->fcb((int)fd, o->cbarg);
}

/* A watch of fd for what (EV_READ or EV_WRITE). */
static struct bsf_fd_watch *fd_watch_for(struct bsf_hostimpl *hi, int fd, short what,
					 void (*cb)(int fd, void *cbarg), void *cbarg)
{
	struct bsf_host_obj *o;

	if (!hi->base || !cb || fd < 0)
		return NULL;
	o = obj_new(hi);
	if (!o)
		return NULL;
	o->fcb = cb;
	o->cbarg = cbarg;
	o->ev = event_new(hi->base, fd, what | EV_PERSIST, watch_cb, o);
	if (!o->ev || event_add(o->ev, NULL) < 0) {
		obj_free(o);
		return NULL;
	}
	return (struct bsf_fd_watch *)o;
}

static struct bsf_fd_watch *host_fd_watch(void *arg, int fd, void (*cb)(int fd, void *cbarg),
					  void *cbarg)
{
	return fd_watch_for(arg, fd, EV_READ, cb, cbarg);
}

static struct bsf_fd_watch *host_fd_watch_write(void *arg, int fd, void (*cb)(int fd, void *cbarg),
						void *cbarg)
{
	return fd_watch_for(arg, fd, EV_WRITE, cb, cbarg);
}

static void host_fd_unwatch(struct bsf_fd_watch *w)
{
	obj_free((struct bsf_host_obj *)w);
}

/* From now until the daemon's describe() returns, pushed events are
 * refused (backend.h, DEVICE CHANGES): the daemon cannot tell which
 * numbering they were given. */
static void host_device_changed(void *arg)
{
	struct bsf_hostimpl *hi = arg;

	if (!hi->changed)
		return;
	if (hi->q)
		bsf_evq_refuse(hi->q, 1);
	hi->changed(hi->changed_arg);
}

uint64_t bsf_host_described(struct bsf_hostimpl *hi)
{
	return hi->q ? bsf_evq_refuse(hi->q, 0) : 0;
}

void bsf_host_on_change(struct bsf_hostimpl *hi, void (*changed)(void *arg), void *arg)
{
	hi->changed = changed;
	hi->changed_arg = arg;
}

static void host_wake(void *arg)
{
	struct bsf_hostimpl *hi = arg;

	if (hi->drain)
		hi->drain(hi->drain_arg);
}

struct bsf_hostimpl *bsf_host_new(struct event_base *base, void (*drain)(void *arg),
				  void *drain_arg)
{
	struct bsf_hostimpl *hi = calloc(1, sizeof *hi);

	if (!hi)
		return NULL;
	hi->base = base;
	hi->drain = drain;
	hi->drain_arg = drain_arg;
	hi->loop_thread = pthread_self(); /* the loop runs on the thread that made it */
	if (base) {
		hi->q = bsf_evq_new(base, BSF_HOST_QUEUE, host_wake, hi);
		if (!hi->q) {
			free(hi);
			return NULL;
		}
	}
	hi->host.size = sizeof hi->host;
	hi->host.arg = hi;
	hi->host.log = host_log;
	hi->host.timer_new = host_timer_new;
	hi->host.timer_start = host_timer_start;
	hi->host.timer_stop = host_timer_stop;
	hi->host.timer_free = host_timer_free;
	hi->host.fd_watch = host_fd_watch;
	hi->host.fd_unwatch = host_fd_unwatch;
	hi->host.now_ns = host_now_ns;
	hi->host.events_ready = host_events_ready;
	hi->host.push_events = host_push_events;
	hi->host.fd_watch_write = host_fd_watch_write;
	hi->host.device_changed = host_device_changed;
	return hi;
}

void bsf_host_free(struct bsf_hostimpl *hi)
{
	if (!hi)
		return;
	while (hi->objs)
		obj_free(hi->objs);
	bsf_evq_free(hi->q);
	free(hi);
}
