/*
 * flowsample.h - turn a sampled-packet event (bsf_event type
 * BSF_EV_SAMPLE) into an sFlow flow_sample_expanded (0:3), and keep the
 * per-data-source state of packet sampling.
 *
 * A packet is sampled at ingress, so its sample belongs to the data source
 * of its input port, 0:ifIndex.  The sample carries, in this order:
 *
 *   0:1     sampled_header: Ethernet, frame_length = the original frame
 *           with its FCS, stripped = 4 (the FCS), and the first
 *           header_bytes bytes of the frame (never into the FCS);
 *   0:1001  extended_switch: VLAN id and 802.1p priority from the
 *           header's 802.1Q tag, the same in and out (0 and 0 untagged);
 *   0:1036  extended_egress_queue and 4413:1 extended_bst_egress_queue:
 *           the egress queue, when the output port and queue are known and
 *           the packet is unicast (both need a single output port);
 *   0:1040  extended_queue: queue depth in bytes met at enqueue (saturated),
 *           with 0:1036 only (the depth is that queue's);
 *   0:1039  extended_transit: ns from arrival to departure (saturated),
 *           not for a packet dropped after it was sampled;
 *   0:1043  extended_timestamp: departure (or drop), ns since the Unix
 *           epoch.
 *
 * input = the input port's ifIndex; output = the output port's ifIndex
 * (0 unknown), or for a multicast packet output_format 2 "multiple" with
 * the number of outputs (ev->multicast when above 1, else 0: not known),
 * or for a packet dropped after it was sampled (ev->reason non-zero)
 * output_format 1 "discarded" with the drop's reason code, so that every
 * sampled packet is reported and sample_pool / samples stays the rate.
 * The transit time of a multicast sample is that of the first copy to
 * leave.
 *
 * sample_pool and drops are cumulative per data source and go on the wire
 * as 32-bit counters that wrap.  drops counts the port's samples lost
 * before they reached the collector's datagram: by the backend (events
 * lost to its full event queue, bsf_backend_ops.sample_drops) plus by the
 * agent (no room to send them).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_FLOWSAMPLE_H
#define BSFLOWD_AGENT_FLOWSAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "agent/backend.h"

#define BSF_FLOW_HEADER_DEFAULT		 128u /* header_bytes default */
#define BSF_FLOW_HEADER_MIN		 14u  /* an Ethernet header */
#define BSF_FLOW_HEADER_MAX		 BSF_HDR_MAX
#define BSF_FLOW_OUTPUT_MULTIPLE_UNKNOWN 0u
/* Bytes of a sample made here besides its header bytes (all records,
 * header length a multiple of 4). */
#define BSF_FLOW_OVERHEAD 164u
/* The same with the 0:1 record alone (sample fields, 0:1's fixed part). */
#define BSF_FLOW_OVERHEAD_MIN 76u
/* A scratch buffer this big always holds a sample made here. */
#define BSF_FLOW_SCRATCH 512u

/* The fixed part of one sample, as the caller knows it. */
struct bsf_flowsample_params {
	uint32_t seq;		 /* this data source's flow sample sequence number */
	uint32_t source_ifindex; /* data source 0:ifIndex */
	uint32_t sampling_rate;
	uint32_t sample_pool;
	uint32_t drops;
	uint32_t in_ifindex;   /* 0 = unknown */
	uint32_t out_ifindex;  /* 0 = unknown; not used for multicast */
	uint32_t header_bytes; /* most header bytes to send */
	int header_only;       /* 0:1 alone, no other record (to fit a small datagram) */
};

/* Encode one 0:3 sample from ev into buf (cap bytes).  Returns 0 (SFLOW_OK)
 * with *len set, SFLOW_ERR_INVALID (not a sample event, header_bytes out
 * of BSF_FLOW_HEADER_MIN..MAX) or SFLOW_ERR_FULL (cap too small). */
int bsf_flowsample_encode(const struct bsf_flowsample_params *p, const struct bsf_event *ev,
			  uint8_t *buf, size_t cap, size_t *len);

/* 802.1Q tag of an Ethernet header (TPID 0x8100 or 0x88a8 at offset 12):
 * 1 with *vid and *pcp set, or 0 (untagged or too short). */
int bsf_flowsample_vlan(const uint8_t *hdr, uint32_t hdr_len, uint32_t *vid, uint32_t *pcp);

/* ---- per data source state */

struct bsf_flows_port {
	uint32_t ifindex;
	uint32_t rate;		/* sampling rate in force (1-in-N), 0 = off */
	uint32_t next_seq;	/* of the next flow sample; the first is 1 */
	uint64_t samples;	/* samples built */
	uint64_t drops;		/* samples lost by the agent, and by backends replaced
				   since (their last count folded in) */
	uint64_t backend_drops; /* the current backend's count (sample_drops) */
};

struct bsf_flows {
	uint32_t nports;
	struct bsf_flows_port *ports; /* by backend port index */
	uint32_t header_bytes;
	uint64_t no_source; /* sample events without a known input port */
	uint64_t cut;	    /* samples sent with fewer header bytes or records */
};

/* Empty state with header_bytes BSF_FLOW_HEADER_DEFAULT. */
void bsf_flows_init(struct bsf_flows *f);
void bsf_flows_fini(struct bsf_flows *f);
/* Rebuild the data sources from a backend's description: a port with an
 * ifIndex seen before keeps its sequence number and counts (drops: its
 * backend count folded in, the new backend_drops 0); rates come from
 * the description (set them after with bsf_flows_set_rate).  0 or -1 (out
 * of memory; nothing changed). */
int bsf_flows_set_device(struct bsf_flows *f, const struct bsf_device_desc *dev);
/* The same for the same backend's new description (its device changed):
 * a port kept also keeps the backend's count (backend_drops), which goes
 * on. */
int bsf_flows_device_changed(struct bsf_flows *f, const struct bsf_device_desc *dev);
void bsf_flows_set_rate(struct bsf_flows *f, uint32_t port, uint32_t rate);
/* Build the sample of ev (its input port's data source) with that port's
 * next sequence number, which then advances.  pool: the port's cumulative
 * sample pool (from the backend).  A sample that does not fit in cap (the
 * room a datagram leaves, datagram_bytes) is made smaller: first fewer
 * header bytes (down to BSF_FLOW_HEADER_MIN), then the 0:1 record alone;
 * such samples are counted in cut.  0, or an SFLOW_ERR_* (no port: counted
 * in no_source; SFLOW_ERR_FULL: not even the smallest form fits). */
int bsf_flows_build(struct bsf_flows *f, const struct bsf_event *ev, uint64_t pool, uint8_t *buf,
		    size_t cap, size_t *len);
/* n samples of port were lost before they could be built or sent. */
void bsf_flows_lost(struct bsf_flows *f, uint32_t port, uint64_t n);
/* The backend's cumulative count of port's samples lost to its full event
 * queue (bsf_backend_ops.sample_drops), to add in the port's drops.  When
 * the backend is replaced, give each port the old one's final count before
 * bsf_flows_set_device: the new description folds it into drops and the
 * new backend's count starts from 0. */
void bsf_flows_backend_lost(struct bsf_flows *f, uint32_t port, uint64_t total);

#endif
