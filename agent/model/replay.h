/*
 * replay.h - a model traffic source that replays a pcap capture.
 *
 * The whole capture is read when the source is made (so a bad file fails
 * at once, naming the file and the problem) and kept in memory: each
 * packet's first MODEL_HDR_MAX captured bytes are the header bytes the
 * model reports, valid for the source's life as pkt.h requires.
 *
 * Rules (documented for users in bsflowd.conf(5)):
 *  - the capture must be Ethernet (link type EN10MB); frame length =
 *    original length + 4 (the FCS a capture leaves out), clamped to
 *    64..16383;
 *  - time: t = start + (timestamp - first timestamp) / time_scale; a
 *    timestamp earlier than the previous one is taken as equal to it; each
 *    further loop starts one mean packet gap after the previous loop's
 *    last packet;
 *  - ingress port: the vlan map entry for the frame's (outer) 802.1Q VLAN
 *    id if there is one, else ingress_ports[h(source MAC) % n];
 *  - egress port: the longest egress map prefix containing the
 *    destination IP if any, else egress_ports[h(destination IP) % n] for
 *    IPv4/IPv6 and egress_ports[h(destination MAC) % n] for other frames;
 *    a hashed egress equal to the ingress port moves to the next entry of
 *    egress_ports (when it has two or more); frames to a group MAC address
 *    go to mc_group instead when mc_group is set;
 *  - h is 32-bit FNV-1a over the address bytes (6 for a MAC, 4 for IPv4,
 *    16 for IPv6); ingress_ports and egress_ports default to all ports;
 *  - traffic class: 802.1Q PCP if tagged, else DSCP >> 3, 0 for non-IP;
 *  - flow_id: FNV-1a over source and destination IP, protocol and L4
 *    ports (IP), or over the two MACs and the Ethernet type (other).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_MODEL_REPLAY_H
#define BSFLOWD_MODEL_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "agent/model/pkt.h"

struct model_replay_vlan {
	uint16_t vid, port;
};

struct model_replay_prefix {
	uint8_t family; /* 4 or 6 */
	uint8_t plen;	/* prefix length in bits */
	uint8_t addr[16];
	uint16_t port;
};

struct model_replay_conf {
	const char *file;
	uint16_t nports;
	const uint16_t *in_ports; /* NULL/0: all ports */
	unsigned n_in_ports;
	const uint16_t *out_ports; /* NULL/0: all ports */
	unsigned n_out_ports;
	const struct model_replay_vlan *vlan_map;
	unsigned n_vlan_map;
	const struct model_replay_prefix *egress_map;
	unsigned n_egress_map;
	double time_scale; /* > 0; 1 keeps the capture's timing */
	uint64_t start_ns;
	uint32_t loops;	    /* passes over the capture; 0 = forever */
	uint16_t mc_group;  /* 0: group-address frames are hashed like unicast */
	uint32_t flow_base; /* added to every flow_id */
};

/* Fill c with defaults (time_scale 1, one loop, all ports). */
void model_replay_defaults(struct model_replay_conf *c);

/* Read the capture and make the source.  Returns 0, or -1 with a message
 * naming the file and the problem in err. */
int model_replay_new(const struct model_replay_conf *c, struct model_source *out, char *err,
		     size_t errlen);

/* Packets in one pass of the capture. */
uint64_t model_replay_count(const struct model_source *s);

/* 32-bit FNV-1a of n bytes (the hash the port rules use). */
uint32_t model_replay_hash(const void *data, size_t n);

#endif
