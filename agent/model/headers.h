/*
 * headers.h - synthesis of real Ethernet / 802.1Q / IPv4 / IPv6 / UDP / TCP
 * header bytes for the model's traffic generators.
 *
 * The generators (traffic.c) describe each flow with a model_hdr_spec and
 * ask for the header bytes of a frame of a given length.  The result is
 * what a capture of the frame's first bytes would show: every length field
 * agrees with the frame length, the IPv4 header checksum is correct, and
 * the UDP/TCP checksum is correct for a payload of all-zero bytes (the
 * payload is never materialised; zeros add nothing to the RFC 1071 sum).
 * So sampled headers decode cleanly in Wireshark or tshark.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_MODEL_HEADERS_H
#define BSFLOWD_MODEL_HEADERS_H

#include <stddef.h>
#include <stdint.h>

#define MODEL_ETH_FCS	     4	   /* frame lengths include the FCS */
#define MODEL_ETH_OVERHEAD   20	   /* preamble+SFD (8) and inter-frame gap (12) */
#define MODEL_FRAME_MIN	     64	   /* smallest Ethernet frame, FCS included */
#define MODEL_FRAME_MAX	     16383 /* largest frame length pkt.h allows */
#define MODEL_ETHERTYPE_IPV4 0x0800
#define MODEL_ETHERTYPE_IPV6 0x86dd
#define MODEL_ETHERTYPE_VLAN 0x8100
#define MODEL_IPPROTO_TCP    6
#define MODEL_IPPROTO_UDP    17

struct model_hdr_spec {
	uint8_t dst_mac[6];
	uint8_t src_mac[6];
	int vlan;	    /* -1: untagged; else the VLAN id 0..4095 */
	uint8_t pcp;	    /* 802.1p priority 0..7, used when tagged */
	uint8_t ip_version; /* 4 or 6 */
	uint8_t l4;	    /* MODEL_IPPROTO_UDP or MODEL_IPPROTO_TCP */
	uint8_t dscp;	    /* 0..63 */
	uint8_t ecn;	    /* ECN field 0..3 (RFC 3168: 2 ECT(0), 1 ECT(1), 3 CE) */
	uint8_t ttl;	    /* IPv4 TTL / IPv6 hop limit */
	uint8_t src_ip[16]; /* IPv4 uses the first 4 bytes */
	uint8_t dst_ip[16];
	uint16_t sport, dport;
	uint16_t ip_id;	  /* IPv4 identification */
	uint32_t tcp_seq; /* TCP sequence number (ACK number is seq + 1) */
};

/* Bytes of headers (Ethernet up to and including the L4 header). */
unsigned model_hdr_size(const struct model_hdr_spec *s);

/* Smallest frame length (FCS included) that carries these headers:
 * max(64, model_hdr_size + 4). */
uint32_t model_hdr_min_frame(const struct model_hdr_spec *s);

/*
 * Write the headers of a frame of frame_len bytes (FCS included, at least
 * model_hdr_min_frame) into buf, which has room for model_hdr_size bytes.
 * Returns the number of bytes written, or 0 if frame_len is out of range.
 */
unsigned model_hdr_build(const struct model_hdr_spec *s, uint32_t frame_len, uint8_t *buf);

/* RFC 1071 one's complement sum of n bytes folded into 16 bits, added to
 * sum (pass 0 to start); model_inet_csum_fin complements it. */
uint32_t model_inet_sum(const void *data, size_t n, uint32_t sum);
uint16_t model_inet_csum_fin(uint32_t sum);

#endif
