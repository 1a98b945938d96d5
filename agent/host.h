/*
 * host.h - the daemon's side of struct bsf_host (backend.h): what a
 * backend may ask of the daemon, on libevent.  One host per open backend,
 * so that what a backend leaves behind (its pushed events, timers it did
 * not free) goes with it when it is closed.
 *
 * Timers and fd watches are libevent events on the daemon's loop; log
 * goes to log.c; now_ns is the wall clock; push_events and events_ready
 * go through the host's event queue (evqueue.h), whose wake-up calls the
 * daemon's drain function on the loop thread; device_changed calls the
 * daemon's function set with bsf_host_on_change (and refuses pushed
 * events until the daemon's describe(): bsf_host_described).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_HOST_H
#define BSFLOWD_AGENT_HOST_H

#include <pthread.h>
#include <stddef.h>

#include "agent/backend.h"

struct event_base;
struct bsf_evq;
struct bsf_host_obj;

/* The events pushed that the daemon's queue holds at most (about 8 MB of
 * struct bsf_event, touched only as far as it fills). */
#define BSF_HOST_QUEUE 16384

struct bsf_hostimpl {
	struct bsf_host host; /* what the backend gets: &hi->host */
	struct event_base *base;
	struct bsf_evq *q;	   /* pushed events; NULL without a base */
	struct bsf_host_obj *objs; /* timers and watches not freed yet */
	void (*drain)(void *arg);  /* the daemon: events are ready */
	void *drain_arg;
	void (*changed)(void *arg); /* the daemon: the device changed */
	void *changed_arg;
	pthread_t loop_thread; /* the loop's (bsf_host_new's caller) */
};

/* A host on base (NULL: a host for check / tests without a loop: log and
 * now_ns only, push counts everything as lost).  drain(drain_arg) is
 * called on the loop thread when pushed events wait or the backend
 * called events_ready.  NULL if out of memory. */
struct bsf_hostimpl *bsf_host_new(struct event_base *base, void (*drain)(void *arg),
				  void *drain_arg);
/* The backend called host->device_changed: changed(arg) on the loop
 * thread, at once (NULL: ignored, as before open() returned).  From that
 * call the host refuses every pushed event (counted lost, and refused:
 * bsf_evq_refuse) until bsf_host_described: the daemon's describe() has
 * returned, and the backend pushes with the new numbering.  That returns
 * how many were refused meanwhile. */
void bsf_host_on_change(struct bsf_hostimpl *hi, void (*changed)(void *arg), void *arg);
uint64_t bsf_host_described(struct bsf_hostimpl *hi);
/* After the backend's close(): frees what it left too. */
void bsf_host_free(struct bsf_hostimpl *hi);

#endif
