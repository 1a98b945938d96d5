/*
 * vis_backend.c - converting a backend event (struct bsf_event) into a
 * visibility packet event (see vis_backend.h).
 */
#include "config.h"

#include <string.h>

#include "agent/visibility/vis_backend.h"

_Static_assert(VIS_HDR_MAX == BSF_HDR_MAX, "header sizes differ");

int vis_pkt_from_bsf(const struct bsf_event *be, struct vis_pkt_event *pe)
{
	memset(pe, 0, sizeof(*pe));
	if (be->type == BSF_EV_DROP)
		pe->type = VIS_PKT_DROP;
	else if (be->type == BSF_EV_SAMPLE)
		pe->type = VIS_PKT_DEQUEUE;
	else
		return -1;
	pe->t_ns = be->t_ns;
	pe->port = be->out_port;
	pe->queue = be->queue; /* UINT32_MAX = VIS_NONE: unknown */
	pe->in_port = be->in_port;
	pe->pkt_id = VIS_ID_NONE;
	pe->tail_id = VIS_ID_NONE;
	pe->flags = VIS_PKTF_PARTIAL;
	pe->depth_bytes = be->depth_bytes; /* BSF_UNKNOWN is UINT64_MAX too */
	pe->delay_ns = be->type == BSF_EV_SAMPLE ? be->transit_ns : UINT64_MAX;
	pe->reason = be->reason;
	pe->stage = be->stage;
	pe->frame_len = be->frame_len;
	pe->hdr = be->hdr;
	pe->hdr_len = be->hdr_len > BSF_HDR_MAX ? BSF_HDR_MAX : be->hdr_len;
	vis_flow_from_header(be->hdr, pe->hdr_len, &pe->flow);
	pe->flow_hash = vis_flow_hash(&pe->flow);
	/* bsf_event has no copy id: copies of one packet share header bytes
	 * and length, and the dedup window bounds them in time */
	if (be->multicast) {
		struct vis_rng r;
		uint64_t h = 0xcbf29ce484222325ULL ^ be->frame_len;
		for (uint32_t i = 0; i < pe->hdr_len; i++)
			h = (h ^ be->hdr[i]) * 0x100000001b3ULL;
		vis_rng_seed(&r, h);
		pe->mc_id = vis_rng_next(&r) | 1;
	}
	return 0;
}
