/*
 * pkt.h - the packet descriptor that traffic sources hand to the switch
 * model engine, and the source interface.
 *
 * This is the contract between the traffic side of the model (generators,
 * pcap replay: traffic.h) and the engine (model.h).  A source yields
 * packets in non-decreasing arrival time; the engine pulls the next one
 * when it needs it, one at a time (next) or, if the source offers it, a
 * few at a time (next_batch: the same sequence, less work per packet).
 * Header bytes belong to the source and stay valid for the source's whole
 * life (generators keep per-flow templates; replay keeps the capture's
 * headers in memory); a source with a header() function may instead hand
 * packets out without them (hdr NULL, hdr_len set) and give the bytes
 * when the engine reports such a packet (a sample, an event), which saves
 * finding them for every packet that is never reported.
 *
 * SPDX-License-Identifier: BSD-2-Clause
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
	uint8_t tos;	    /* the IP header's DS field and ECN field as carried
			       in the header (IPv4 TOS byte, IPv6 traffic
			       class): DSCP << 2 | ECN, ECN one of MODEL_ECN_*
			       (RFC 3168; 0: not ECN-capable); model_tos() */
	uint16_t fwd_drop;  /* 0, or an sFlow reason code (257, 258, 269...):
			       the forwarding pipeline drops it before the MMU */
	uint16_t hdr_len;   /* bytes at hdr, <= MODEL_HDR_MAX */
	uint32_t flow_id;   /* source-unique flow number, for tests and matching */
	uint32_t src;	    /* the engine's (index of the source it came from):
			       sources need not set it */
	const uint8_t *hdr; /* the frame's first hdr_len bytes (Ethernet), or
			       NULL: none, or ask the source's header() */
	uint8_t cast;	    /* destination MAC class if the source knows it:
			       MODEL_CAST_UNICAST / _MULTICAST / _BROADCAST;
			       0: the engine reads it from the header (slower) */
};

#define MODEL_ECN_NOT_ECT 0
#define MODEL_ECN_ECT1	  1
#define MODEL_ECN_ECT0	  2
#define MODEL_ECN_CE	  3

/* struct model_pkt tos from a DSCP (0..63) and an ECN field (0..3), and
 * back */
#define model_tos(dscp, ecn) ((uint8_t)(((dscp)&63u) << 2 | ((ecn)&3u)))
#define model_tos_dscp(tos)  ((unsigned)(tos) >> 2)
#define model_tos_ecn(tos)   ((unsigned)(tos)&3u)

#define MODEL_CAST_UNICAST   1
#define MODEL_CAST_MULTICAST 2
#define MODEL_CAST_BROADCAST 3

/* The class (MODEL_CAST_*) of destination MAC address d[0..5]. */
static inline uint8_t model_cast_of_mac(const uint8_t *d)
{
	if ((d[0] & d[1] & d[2] & d[3] & d[4] & d[5]) == 0xff)
		return MODEL_CAST_BROADCAST;
	return (d[0] & 1) ? MODEL_CAST_MULTICAST : MODEL_CAST_UNICAST;
}

/* Initialize with designated initializers or zero the whole struct: the
 * optional members come last and NULL means not offered. */
struct model_source {
	/* Fill *p with the next packet; return 1, or 0 when the source is
	 * exhausted (it will not be called again). */
	int (*next)(void *state, struct model_pkt *p);
	void (*free)(void *state);
	void *state;
	const char *name; /* for messages */
	/* Optional: fill p[0..k-1] with the next k packets (1 <= k <= n) of
	 * the sequence next() gives, and return k; or return 0 when the
	 * source has ended (it is not called again). */
	unsigned (*next_batch)(void *state, struct model_pkt *p, unsigned n);
	/* Optional: the hdr_len header bytes of packet p that this source
	 * handed out with hdr NULL (p as handed out; src, t_ns may differ),
	 * or NULL if it has none.  They need only stay valid until the next
	 * call into the source.  Without header(), a packet with hdr NULL
	 * has no header bytes.  A packet handed out with hdr NULL should
	 * have cast set; if not, the engine calls header() when it takes
	 * the packet, to read the destination MAC. */
	const uint8_t *(*header)(void *state, const struct model_pkt *p);
	/* Optional promise, for speed: if ports is not 0, every packet has
	 * in_port and out_port below ports, mc_group at most groups, tc
	 * below 8, len 1..65535 and cast set, and if hdr is NULL the source
	 * has a header() or hdr_len is 0.  If ports and groups fit the model,
	 * it checks packets no further; else it checks each packet as it
	 * does those of a source without the promise (model.h). */
	uint32_t ports, groups;
	/* Optional promise, for speed, with the one above: if ordered is
	 * not 0, the times never decrease (each packet's t_ns is at least
	 * the one before it), so the engine need not clamp each to its
	 * predecessor's (it still clamps the first ones to the time the
	 * source was added). */
	uint8_t ordered;
	/* Optional: if not 0, the bytes of every packet after its hdr_len
	 * header bytes are zeros up to the end of the frame (its FCS
	 * excepted), as the headers' IP and UDP/TCP lengths and checksums
	 * say (headers.h): events then carry them, up to the model's
	 * event_hdr_bytes, so that a sampled header is what a capture of the
	 * frame's first bytes would show. */
	uint8_t zero_payload;
};

#endif
