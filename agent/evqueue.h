/*
 * evqueue.h - the daemon's bounded queue of pushed backend events: the
 * thread-safe half of the backend host table (host.h).
 *
 * Any thread may push events (bsf_evq_push) or ask for a wake-up
 * (bsf_evq_wake); the loop thread is woken through an eventfd (a pipe
 * where there is none) registered with libevent and drains the queue
 * with bsf_evq_pop.  A push copies each event into a slot of the daemon's
 * struct bsf_event layout, whatever the pusher's size: the fields both
 * layouts have, the rest as bsf_event_init() leaves them.  What does not
 * fit is counted per event type (bsf_evq_lost), never blocks the pusher.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_EVQUEUE_H
#define BSFLOWD_AGENT_EVQUEUE_H

#include <stddef.h>
#include <stdint.h>

#include "agent/backend.h"

struct event_base;
struct bsf_evq;

/* A queue of cap events on base; wake(arg) runs on the loop thread after
 * a push or a bsf_evq_wake.  NULL if out of memory or descriptors. */
struct bsf_evq *bsf_evq_new(struct event_base *base, size_t cap, void (*wake)(void *arg),
			    void *arg);
void bsf_evq_free(struct bsf_evq *q);

/* Any thread.  Copy n events (stride ev[0].size) in; returns how many fit
 * (the others are counted lost, by type) and wakes the loop. */
size_t bsf_evq_push(struct bsf_evq *q, const struct bsf_event *ev, size_t n);
/* Any thread: run wake() on the loop thread soon. */
void bsf_evq_wake(struct bsf_evq *q);

/* Loop thread.  Move up to max events out (daemon layout); returns how
 * many. */
size_t bsf_evq_pop(struct bsf_evq *q, struct bsf_event *out, size_t max);
/* Any thread.  Events of type t (0: unknown types) lost to a full queue,
 * cumulative; all types. */
uint64_t bsf_evq_lost(struct bsf_evq *q, uint32_t type);
uint64_t bsf_evq_lost_all(struct bsf_evq *q);
/* Any thread.  Events pushed and taken, cumulative. */
uint64_t bsf_evq_pushed(struct bsf_evq *q);
/* Any thread.  While on, the queue takes nothing pushed: every event
 * pushed is counted lost by type (bsf_evq_lost) and refused (a backend's
 * device change: backend.h, DEVICE CHANGES).  Returns how many were
 * refused since it was turned on.  bsf_evq_refused: all refused,
 * cumulative (also in the lost counts). */
uint64_t bsf_evq_refuse(struct bsf_evq *q, int on);
uint64_t bsf_evq_refused(struct bsf_evq *q);

#endif
