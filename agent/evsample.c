/*
 * evsample.c - packet headers and visibility event samples from backend
 * events (see evsample.h).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <stdio.h>
#include <string.h>

#include "agent/evsample.h"
#include "proto/sflow_encode.h"
#include "proto/sflow_own.h"

void bsf_evsample_header(struct sflow_sampled_header *sh, const uint8_t *hdr, uint32_t hdr_len,
			 uint32_t frame_len, uint32_t header_bytes)
{
	uint32_t n = hdr_len > BSF_HDR_MAX ? BSF_HDR_MAX : hdr_len;
	uint32_t fcs = frame_len >= BSF_EVSAMPLE_FCS ? BSF_EVSAMPLE_FCS : 0;

	if (n > header_bytes)
		n = header_bytes;
	if (fcs && n > frame_len - fcs)
		n = frame_len - fcs;
	memset(sh, 0, sizeof *sh);
	sh->header_protocol = SFLOW_HEADER_PROTO_ETHERNET;
	sh->frame_length = frame_len;
	sh->stripped = fcs;
	sh->header_length = n;
	sh->header = hdr;
}

void bsf_evsample_vis_record(const struct vis_event *ev, struct sflow_own_vis_event *o)
{
	int congestion = ev->type == VIS_EV_CONGESTION_START || ev->type == VIS_EV_CONGESTION_END;
	/* the port-scope flag says the event is about the whole port; an
	 * event whose queue is unknown (a drop before queueing) has queue
	 * unknown without it */
	int port_scope = (ev->flags & VIS_EVF_PORT_SCOPE) != 0;
	int no_queue = port_scope || ev->queue == VIS_NONE;
	int drop = ev->type == VIS_EV_DROP;

	memset(o, 0, sizeof *o);
	switch (ev->type) {
	case VIS_EV_DROP:
		o->type = SFLOW_OWN_VIS_DROP;
		break;
	case VIS_EV_HIGH_DELAY:
		o->type = SFLOW_OWN_VIS_HIGH_DELAY;
		break;
	case VIS_EV_FORENSICS:
		o->type = SFLOW_OWN_VIS_FORENSICS;
		break;
	case VIS_EV_CONGESTION_START:
		o->type = SFLOW_OWN_VIS_CONGESTION_START;
		break;
	default:
		o->type = SFLOW_OWN_VIS_CONGESTION_END;
		break;
	}
	if (ev->flags & VIS_EVF_SAMPLE_PORT)
		o->flags |= SFLOW_OWN_VIS_FLAG_PORT_SAMPLED;
	if (ev->flags & VIS_EVF_LAST)
		o->flags |= SFLOW_OWN_VIS_FLAG_LAST;
	if (port_scope)
		o->flags |= SFLOW_OWN_VIS_FLAG_PORT_SCOPE;
	else if (!no_queue && ev->queue >= BSF_MAX_QUEUES)
		o->flags |= SFLOW_OWN_VIS_FLAG_MULTICAST;
	o->level = ev->level;
	o->severity = ev->severity;
	o->tag = ev->tag;
	o->event_id = ev->event_id;
	o->own_id = ev->own_id;
	o->queue = no_queue ? SFLOW_OWN_UNKNOWN32 : ev->queue % BSF_MAX_QUEUES;
	o->reason = ev->type == VIS_EV_FORENSICS || drop ? ev->reason : 0;
	/* the depth is a queue's: unknown (all ones) without one */
	o->depth = ev->queue == VIS_NONE && !port_scope ? SFLOW_OWN_UNKNOWN32
							: sflow_own_u32(ev->depth_bytes);
	o->delay = drop ? 0 : sflow_own_u32(ev->delay_ns);
	o->peak = congestion ? sflow_own_u32(ev->peak_bytes) : 0;
	o->peak_time_ns = congestion ? ev->peak_t_ns : SFLOW_OWN_UNKNOWN64;
	o->duration_ns = ev->type == VIS_EV_CONGESTION_END ? ev->duration_ns : 0;
}

int bsf_evsample_vis_event(const struct bsf_evsample_event *p, const struct vis_event *ev,
			   uint8_t *buf, size_t cap, size_t *len)
{
	struct sflow_own_event_sample h;
	struct sflow_own_vis_event o;
	struct sflow_sample_enc s;
	struct sflow_w w;

	if (!p || !ev || !buf || !p->enterprise || ev->type < VIS_EV_HIGH_DELAY ||
	    ev->type > VIS_EV_CONGESTION_END)
		return SFLOW_ERR_INVALID;
	memset(&h, 0, sizeof h);
	h.sequence_number = p->seq;
	h.source_id_type = p->source_type;
	h.source_id_index = p->source_index;
	h.drops = p->drops;
	h.input = p->in_ifindex;
	h.output = p->out_ifindex;
	bsf_evsample_vis_record(ev, &o);

	sflow_w_init(&w, buf, cap);
	sflow_own_enc_event_begin(&w, &s, p->enterprise, &h);
	sflow_own_enc_vis_event(&w, &s, p->enterprise, &o);
	if (ev->hdr_len > 0 && p->header_bytes > 0) {
		struct sflow_sampled_header sh;

		bsf_evsample_header(&sh, ev->hdr, ev->hdr_len, ev->frame_len, p->header_bytes);
		sflow_enc_sampled_header(&w, &s, &sh);
	}
	if (!(o.flags & (SFLOW_OWN_VIS_FLAG_PORT_SCOPE | SFLOW_OWN_VIS_FLAG_MULTICAST)) &&
	    p->out_ifindex != 0)
		sflow_enc_egress_queue(&w, &s, o.queue);
	if (ev->delay_ns != UINT64_MAX)
		sflow_enc_transit(&w, &s, ev->delay_ns);
	if (ev->depth_bytes != UINT64_MAX && !(o.flags & SFLOW_OWN_VIS_FLAG_PORT_SCOPE))
		sflow_enc_queue_depth(&w, &s, ev->depth_bytes); /* a queue's, not a port's */
	sflow_enc_timestamp(&w, &s, ev->t_ns);
	sflow_enc_sample_end(&w, &s);
	if (w.err != SFLOW_OK)
		return w.err;
	*len = w.len;
	return SFLOW_OK;
}
