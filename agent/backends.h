/*
 * backends.h - opening the configured backend: a built-in one (model) or
 * a plugin .so, behind one handle the daemon keeps.
 *
 * Each open backend has its own host table (host.h: timers, fd watches,
 * its pushed events) and is seen through an ABI wrapper (abiwrap.h), so
 * be->ops / be->st are always in the daemon's own layout.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_BACKENDS_H
#define BSFLOWD_AGENT_BACKENDS_H

#include <stddef.h>

#include "agent/backend.h"
#include "agent/conf.h"
#include "agent/plugin.h"

struct event_base;
struct bsf_abiwrap;
struct bsf_hostimpl;

struct bsf_backend {
	const struct bsf_backend_ops *ops; /* the wrapper's; NULL: none open */
	void *st;			   /* the wrapper */
	struct bsf_plugin plugin;	   /* plugins: the loaded object */
	struct bsf_abiwrap *wrap;
	struct bsf_hostimpl *host; /* its timers, watches and pushed events */
};

/* Open c's backend on base (NULL: no loop, its clock is driven by hand,
 * as tests do).  drain(drain_arg) runs on the loop thread when the
 * backend pushed events or called events_ready (bsf_backend_pop_events).
 * 0, or -1 with a message (FILE:LINE: when it is about the backend key). */
int bsf_backend_open(struct bsf_backend *be, const struct conf *c, struct event_base *base,
		     void (*drain)(void *arg), void *drain_arg, char *err, size_t errlen);
void bsf_backend_close(struct bsf_backend *be);
/* changed(arg) runs on the loop thread when the open backend calls
 * host->device_changed (NULL: ignored). */
void bsf_backend_on_change(struct bsf_backend *be, void (*changed)(void *arg), void *arg);
/* Read the open backend's description again (abiwrap.h,
 * bsf_abiwrap_redescribe): the new one with *prev the one in use before
 * (valid until bsf_backend_release_previous), or NULL with the reason
 * (nothing changes).  Either way the backend's describe() was called:
 * the host takes pushed events again (host.h, bsf_host_described). */
const struct bsf_device_desc *bsf_backend_redescribe(struct bsf_backend *be,
						     const struct bsf_device_desc **prev, char *err,
						     size_t errlen);
void bsf_backend_release_previous(struct bsf_backend *be);
/* The open backend's own state behind its wrapper if ops is its table
 * (bsf_backend_model_ops(): the built-in model, which bsflow-sim drives
 * by hand), else NULL. */
void *bsf_backend_own_state(const struct bsf_backend *be, const struct bsf_backend_ops *ops);
/* Events the backend pushed (host->push_events), up to max, in the
 * daemon's layout; the loop thread. */
size_t bsf_backend_pop_events(struct bsf_backend *be, struct bsf_event *ev, size_t max);
/* Pushed events lost to the daemon's full queue: of type t, all. */
uint64_t bsf_backend_push_lost(const struct bsf_backend *be, uint32_t type);
uint64_t bsf_backend_push_lost_all(const struct bsf_backend *be);
/* Of those, pushed between the backend's device_changed and the daemon's
 * describe() (backend.h, DEVICE CHANGES), refused. */
uint64_t bsf_backend_push_refused(const struct bsf_backend *be);
/* For -t: check c's backend without running it: its check op (the model
 * builds its model; a plugin parses its section), else a plugin is
 * loaded and its interface version checked.  0 with a summary in report
 * ("" if none), or -1 with a message. */
int bsf_backend_check(const struct conf *c, char *report, size_t reportlen, char *err,
		      size_t errlen);

#endif
