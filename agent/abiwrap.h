/*
 * abiwrap.h - the daemon's view of a backend of any layout its ABI range
 * allows: a wrapper with the same struct bsf_backend_ops, in the daemon's
 * own layout, so that nothing else in the daemon deals with sizes.
 *
 * The wrapper's table has the backend's functions where the backend has
 * them (optional ones it lacks, or that lie past its ops->size, are NULL)
 * and its state pointer is the wrapper.  Through it:
 *  - describe() returns a copy in the daemon's layout (fields past the
 *    backend's sizes zero, ports read with the backend's stride), made
 *    when the wrapper is and again only by bsf_abiwrap_redescribe (the
 *    backend's describe() is where a device change takes effect: the
 *    daemon decides when);
 *  - each read gets an out-struct pre-filled by bsf_*_init() (size set);
 *  - read_events() gets slots pre-filled by bsf_event_init(), and the
 *    names in what comes back are NUL-terminated;
 *  - queue_events_lost() also counts the losses of pushed events.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_ABIWRAP_H
#define BSFLOWD_AGENT_ABIWRAP_H

#include <stddef.h>

#include "agent/backend.h"

struct bsf_abiwrap;

/* The least each size may be (what the daemon needs to make sense of
 * anything): the ops through the required read_delays, an event through
 * its type; the descriptors whole (unchanged since ABI 1).  Less is refused
 * (ops, descriptors) or counted lost (events). */
#define BSF_ABI_END(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))
#define BSF_ABI_OPS_MIN		 BSF_ABI_END(struct bsf_backend_ops, read_delays)
#define BSF_ABI_EVENT_MIN	 BSF_ABI_END(struct bsf_event, type)
#define BSF_ABI_DEVICE_MIN	 BSF_ABI_END(struct bsf_device_desc, n_cpu_queues)
#define BSF_ABI_PORT_MIN	 BSF_ABI_END(struct bsf_port_desc, sampling_rate)

/* Wrap (ops, st), st opened by ops.  push_lost(push_arg), if not NULL,
 * counts the events of queue streams the backend pushed and the daemon's
 * queue lost (cumulative): the wrapper's queue_events_lost adds them to
 * the backend's own count, so that the visibility monitors see a gap
 * whichever queue lost the events.  NULL with a message in err if out of
 * memory or if describe() gives sizes below the minimum. */
struct bsf_abiwrap *bsf_abiwrap_new(const struct bsf_backend_ops *ops, void *st,
				    uint64_t (*push_lost)(void *arg), void *push_arg, char *err,
				    size_t errlen);
/* The wrapper's table and state, to call as the backend's. */
const struct bsf_backend_ops *bsf_abiwrap_ops(const struct bsf_abiwrap *w);
void *bsf_abiwrap_st(struct bsf_abiwrap *w);
/* The backend said its device changed: read its description again (the
 * backend's describe(), which makes its new numbering current) and make
 * the copy the one describe() gives; *prev (if not NULL) gets the one in
 * use before, which stays valid until bsf_abiwrap_release_previous, so
 * that its users can move over first.  Called again before that (they
 * could not), *prev stays the one they still use and the copy read in
 * between is dropped.  NULL with the reason in err (describe() gave NULL
 * or sizes below the minimum, out of memory): nothing changes. */
const struct bsf_device_desc *bsf_abiwrap_redescribe(struct bsf_abiwrap *w,
						     const struct bsf_device_desc **prev, char *err,
						     size_t errlen);
void bsf_abiwrap_release_previous(struct bsf_abiwrap *w);
/* Frees the wrapper only (close the backend first). */
void bsf_abiwrap_free(struct bsf_abiwrap *w);

/* The backend's own table normalised: a copy in the daemon's layout, the
 * fields past ops->size NULL.  For the wrapper and plugin checks. */
void bsf_abi_ops_copy(struct bsf_backend_ops *dst, const struct bsf_backend_ops *src);

#endif
