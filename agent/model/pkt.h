/*
 * pkt.h - the packet descriptor that traffic sources hand to the switch
 * model engine, and the source interface.
 *
 * This is the contract between the traffic side of the model (generators,
 * pcap replay: traffic.h) and the engine (model.h).  A source yields
 * packets in non-decreasing arrival time; the engine pulls the next one
 * when it needs it.  Header bytes belong to the source and stay valid for
 * the source's whole life (generators keep per-flow templates; replay keeps
 * the capture's headers in memory).
 */
#ifndef BSFLOWD_MODEL_PKT_H
#define BSFLOWD_MODEL_PKT_H

#include <stdint.h>

#define MODEL_HDR_MAX 256 /* most header bytes a packet carries */

struct model_pkt {
	uint64_t t_ns;	    /* arrival time (last bit in) on the virtual clock */
	uint32_t len;	    /* frame length in bytes, FCS included (64..16383) */
	uint16_t in_port;   /* ingress port index, 0..nports-1 */
	uint16_t out_port;  /* egress port index for unicast */
	uint16_t mc_group;  /* 0 = unicast; else multicast group id (model config) */
	uint8_t tc;	    /* traffic class 0..7: picks the queue and the PG */
	uint8_t dscp;	    /* as carried in the header, for reference */
	uint16_t fwd_drop;  /* 0, or an sFlow reason code (257, 258, 269...):
			       the forwarding pipeline drops it before the MMU */
	uint16_t hdr_len;   /* bytes at hdr, <= MODEL_HDR_MAX */
	uint32_t flow_id;   /* source-unique flow number, for tests and matching */
	const uint8_t *hdr; /* the frame's first hdr_len bytes (Ethernet) */
	uint8_t cast;	    /* destination MAC class if the source knows it:
			       MODEL_CAST_UNICAST / _MULTICAST / _BROADCAST;
			       0: the engine reads it from hdr (slower) */
};

#define MODEL_CAST_UNICAST   1
#define MODEL_CAST_MULTICAST 2
#define MODEL_CAST_BROADCAST 3

struct model_source {
	/* Fill *p with the next packet; return 1, or 0 when the source is
	 * exhausted (it will not be called again). */
	int (*next)(void *state, struct model_pkt *p);
	void (*free)(void *state);
	void *state;
	const char *name; /* for messages */
};

#endif
