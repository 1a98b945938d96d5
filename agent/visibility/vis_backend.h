/*
 * vis_backend.h - from the backend's event (struct bsf_event, backend.h)
 * to the visibility library's packet event.
 *
 *  - BSF_EV_ENQUEUE / BSF_EV_DEQUEUE (a queue's full stream, asked with
 *    set_queue_events) become enqueues / departures carrying the stream's
 *    packet ids; a departure's delay is its transit time.  They feed every
 *    monitor: forensics, high delay, congestion.
 *  - BSF_EV_DROP becomes a drop on (out_port, queue).  When its queue is
 *    streamed (BSF_EVF_QUEUE_STREAM) it carries the tail id and drives
 *    forensics; otherwise it is VIS_PKTF_PARTIAL.
 *  - BSF_EV_SAMPLE (a 1-in-N sampled departure) becomes a partial
 *    departure (VIS_PKTF_PARTIAL) carrying its transit delay, which feeds
 *    the high-delay monitor only.  The daemon feeds samples only for
 *    queues that are not streamed (a backend without BSF_CAP_QUEUE_EVENTS,
 *    or a queue it refused): a streamed queue's departures come from its
 *    stream, and a sample would count one twice.
 *
 * Queue numbering: the pipeline sees VIS_BSF_NQUEUES queues per port,
 * unicast queue q as q and multicast queue q as BSF_MAX_QUEUES + q
 * (vis_bsf_queue), so the daemon builds it with nqueues = VIS_BSF_NQUEUES
 * and the `queues = {...}` sets of the visibility configuration use these
 * numbers (0..15 unicast, 16..31 multicast).
 *
 * Multicast copies: vis_pkt_event.mc_id is the backend's copy_id; for a
 * multicast event without one, a hash of the header bytes and length
 * (copies of one packet share them; the duplicate filter's window bounds
 * them in time).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_VIS_BACKEND_H
#define BSFLOWD_VIS_BACKEND_H

#include "agent/backend.h"
#include "agent/visibility/vis.h"

#define VIS_BSF_NQUEUES (2 * BSF_MAX_QUEUES) /* queues per port the pipeline sees */

/* The pipeline's number of a backend queue (VIS_NONE for UINT32_MAX or a
 * queue out of range). */
static inline uint32_t vis_bsf_queue(uint32_t queue, uint32_t multicast)
{
	if (queue >= BSF_MAX_QUEUES)
		return VIS_NONE;
	return multicast ? BSF_MAX_QUEUES + queue : queue;
}

/* Returns 0, or -1 for an event type the library does not take.  pe->hdr
 * points into be (keep be alive while pe is used). */
int vis_pkt_from_bsf(const struct bsf_event *be, struct vis_pkt_event *pe);

#endif
