/*
 * evsample.h - the parts of a sample built from one backend event: the
 * 0:1 sampled_header of a packet (shared by flow samples, drop
 * notifications and visibility event samples), and bsflowd's own
 * visibility event record and event sample (E:1 sample type; see
 * bsflowd-structures(7)).  Nothing here allocates, keeps state or does I/O.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_EVSAMPLE_H
#define BSFLOWD_AGENT_EVSAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "agent/backend.h"
#include "agent/visibility/vis.h"
#include "proto/sflow.h"

struct sflow_own_vis_event;

#define BSF_EVSAMPLE_FCS 4u /* bytes of FCS at the end of a frame */

/* The 0:1 sampled_header of a packet (flow, drop and event samples
 * alike): an Ethernet frame of frame_len bytes (FCS included), the FCS
 * counted as stripped and never copied, at most header_bytes and
 * BSF_HDR_MAX of the hdr_len bytes at hdr (kept as a pointer). */
void bsf_evsample_header(struct sflow_sampled_header *sh, const uint8_t *hdr, uint32_t hdr_len,
			 uint32_t frame_len, uint32_t header_bytes);

/* Visibility event ev as the own visibility_event record (type 1 for a
 * drop, with reason and depth and no delay: the record a 0:5 carries). */
void bsf_evsample_vis_record(const struct vis_event *ev, struct sflow_own_vis_event *o);

/* The own sample E:1 visibility_event_sample's fixed fields and options. */
struct bsf_evsample_event {
	uint32_t enterprise; /* the own enterprise (not 0) */
	uint32_t seq;	     /* the data source's next event sample number */
	uint32_t source_type, source_index;
	uint32_t drops;	       /* the data source's events lost so far */
	uint32_t in_ifindex;   /* 0 = unknown */
	uint32_t out_ifindex;  /* 0 = unknown */
	uint32_t header_bytes; /* 0:1 carries at most this many header bytes */
};

/* Bytes of an event sample besides its header bytes, at most. */
#define BSF_EVSAMPLE_OVERHEAD 192u

/*
 * Encode visibility event ev (not a drop, not VIS_EV_DELAY_END) as one E:1
 * sample into buf: record E:1 visibility_event, then 0:1 sampled_header
 * (when the event has header bytes), 0:1036 extended_egress_queue (a
 * unicast queue of a known output port), 0:1039 transit delay (when
 * known), 0:1040 queue depth (when known; not for a port's congestion)
 * and 0:1043 the event's time.
 * Queue numbers: ev->queue below BSF_MAX_QUEUES is unicast queue q,
 * BSF_MAX_QUEUES + q multicast queue q (flag multicast in the record).
 * 0 (SFLOW_OK) with *len, SFLOW_ERR_INVALID or SFLOW_ERR_FULL.
 */
int bsf_evsample_vis_event(const struct bsf_evsample_event *p, const struct vis_event *ev,
			   uint8_t *buf, size_t cap, size_t *len);

#endif
