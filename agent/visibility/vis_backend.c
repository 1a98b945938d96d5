/*
 * vis_backend.c - converting a backend event (struct bsf_event) into a
 * visibility packet event (see vis_backend.h).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <string.h>

#include "agent/visibility/vis_backend.h"

_Static_assert(VIS_HDR_MAX == BSF_HDR_MAX, "header sizes differ");
_Static_assert(VIS_NONE == UINT32_MAX, "unknown port / queue");
_Static_assert(VIS_ID_NONE == BSF_UNKNOWN, "unknown id");

/* A copy id for a multicast event without one: copies of one packet share
 * header bytes and length. */
static uint64_t header_copy_id(const struct bsf_event *be, uint32_t hdr_len)
{
	struct vis_rng r;
	uint64_t h = 0xcbf29ce484222325ULL ^ be->frame_len;

	for (uint32_t i = 0; i < hdr_len; i++)
		h = (h ^ be->hdr[i]) * 0x100000001b3ULL;
	vis_rng_seed(&r, h);
	return vis_rng_next(&r) | 1;
}

int vis_pkt_from_bsf(const struct bsf_event *be, struct vis_pkt_event *pe)
{
	int stream = (be->flags & BSF_EVF_QUEUE_STREAM) != 0;

	memset(pe, 0, sizeof(*pe));
	switch (be->type) {
	case BSF_EV_DROP:
		pe->type = VIS_PKT_DROP;
		break;
	case BSF_EV_SAMPLE:
		pe->type = VIS_PKT_DEQUEUE;
		stream = 0; /* a sample is never the full stream */
		break;
	case BSF_EV_ENQUEUE:
		pe->type = VIS_PKT_ENQUEUE;
		break;
	case BSF_EV_DEQUEUE:
		pe->type = VIS_PKT_DEQUEUE;
		break;
	default:
		return -1;
	}
	pe->t_ns = be->t_ns;
	pe->port = be->out_port; /* UINT32_MAX = VIS_NONE: unknown */
	pe->queue = vis_bsf_queue(be->queue, be->multicast);
	pe->in_port = be->in_port;
	pe->pkt_id = VIS_ID_NONE;
	pe->tail_id = VIS_ID_NONE;
	pe->flags = VIS_PKTF_PARTIAL;
	if (stream && be->type != BSF_EV_ENQUEUE && be->type != BSF_EV_DEQUEUE &&
	    pe->queue == VIS_NONE)
		stream = 0; /* a drop with no queue is nobody's stream */
	if (stream) {
		pe->flags = 0;
		if (be->type == BSF_EV_DROP)
			/* 0: nothing ever admitted, so nothing to snapshot;
			 * VIS_ID_NONE makes the monitor use what it saw */
			pe->tail_id = be->tail_id == 0 ? VIS_ID_NONE : be->tail_id;
		else
			pe->pkt_id = be->pkt_id;
	}
	pe->depth_bytes = be->depth_bytes; /* BSF_UNKNOWN is UINT64_MAX too */
	pe->delay_ns = pe->type == VIS_PKT_DEQUEUE ? be->transit_ns : UINT64_MAX;
	pe->reason = be->reason;
	pe->stage = be->stage;
	pe->tc = be->tc;
	pe->frame_len = be->frame_len;
	pe->hdr = be->hdr;
	pe->hdr_len = be->hdr_len > BSF_HDR_MAX ? BSF_HDR_MAX : be->hdr_len;
	vis_flow_from_header(be->hdr, pe->hdr_len, &pe->flow);
	/* hashed only when an event needs it (vis_pkt_flow_hash): most
	 * packet events (every enqueue and dequeue of a streamed queue)
	 * never raise one */
	pe->flow_hash = 0;
	if (be->copy_id != 0)
		pe->mc_id = be->copy_id;
	else if (be->multicast)
		pe->mc_id = header_copy_id(be, pe->hdr_len);
	return 0;
}
