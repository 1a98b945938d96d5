/*
 * header.c - sflowtool-style decode of sampled packet headers (see
 * header.h).  Ethernet (header_protocol 1) with any number of 802.1Q/802.1ad
 * tags, raw IPv4 (11) and raw IPv6 (12); then IPv4 or IPv6 and the TCP, UDP
 * or ICMP ports.  Every read is checked against the header length.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdio.h>

#include "collector/header.h"

#define HDR_PROTO_IPV4 11u
#define HDR_PROTO_IPV6 12u

static unsigned be16(const uint8_t *p)
{
	return ((unsigned)p[0] << 8) | p[1];
}

static void decode_l4(struct collect_out *o, unsigned proto, const uint8_t *p, const uint8_t *end)
{
	if (end - p < 8)
		return;
	switch (proto) {
	case 1:
	case 58:
		collect_out_u32(o, "ICMPType", p[0]);
		collect_out_u32(o, "ICMPCode", p[1]);
		break;
	case 6:
		if (end - p < 14)
			return;
		collect_out_u32(o, "TCPSrcPort", be16(p));
		collect_out_u32(o, "TCPDstPort", be16(p + 2));
		collect_out_u32(o, "TCPFlags", p[13]);
		break;
	case 17:
		collect_out_u32(o, "UDPSrcPort", be16(p));
		collect_out_u32(o, "UDPDstPort", be16(p + 2));
		collect_out_u32(o, "UDPBytes", be16(p + 4));
		break;
	default:
		break;
	}
}

static void decode_ip4(struct collect_out *o, const struct sflow_sampled_header *h,
		       const uint8_t *p, const uint8_t *end)
{
	unsigned ihl, frag;

	if (end - p < 20 || (p[0] >> 4) != 4 || (p[0] & 15) < 5)
		return;
	collect_out_i64(o, "IPSize", (int64_t)h->frame_length - h->stripped - (p - h->header));
	collect_out_u32(o, "ip.tot_len", be16(p + 2));
	collect_out_ip4(o, "srcIP", p + 12);
	collect_out_ip4(o, "dstIP", p + 16);
	collect_out_u32(o, "IPProtocol", p[9]);
	collect_out_u32(o, "IPTOS", p[1]);
	collect_out_u32(o, "IPTTL", p[8]);
	collect_out_u32(o, "IPID", be16(p + 4));
	frag = be16(p + 6) & 0x1fff;
	if (frag) {
		collect_out_u32(o, "IPFragmentOffset", frag);
		return;
	}
	ihl = (p[0] & 15u) * 4u;
	if ((size_t)(end - p) < ihl)
		return;
	decode_l4(o, p[9], p + ihl, end);
}

static void print_ip6(struct collect_out *o, const char *key, const uint8_t *a)
{
	struct sflow_addr ad = {.type = SFLOW_ADDR_IP6};
	for (int i = 0; i < 16; i++)
		ad.a[i] = a[i];
	collect_out_addr(o, key, &ad);
}

static void decode_ip6(struct collect_out *o, const struct sflow_sampled_header *h,
		       const uint8_t *p, const uint8_t *end)
{
	unsigned next, plen;

	if (end - p < 40 || (p[0] >> 4) != 6)
		return;
	collect_out_i64(o, "IPSize", (int64_t)h->frame_length - h->stripped - (p - h->header));
	collect_out_u32(o, "IPTOS", ((p[0] & 15u) << 4) | (p[1] >> 4));
	collect_out_strf(o, "IP6_label", "0x%x",
			 ((p[1] & 15u) << 16) | ((unsigned)p[2] << 8) | p[3]);
	plen = be16(p + 4);
	if (plen == 0)
		collect_out_str(o, "IPV6_payloadLen", "<jumbo>");
	else
		collect_out_u32(o, "IPV6_payloadLen", plen);
	next = p[6];
	collect_out_u32(o, "IPTTL", p[7]);
	print_ip6(o, "srcIP6", p + 8);
	print_ip6(o, "dstIP6", p + 24);
	p += 40;
	/* hop-by-hop, routing, fragment, authentication, destination options */
	while (next == 0 || next == 43 || next == 44 || next == 51 || next == 60) {
		size_t optlen;
		collect_out_u32(o, "IP6HeaderExtension", next);
		if (end - p < 8)
			return;
		next = p[0];
		optlen = 8u * ((size_t)p[1] + 1u);
		if ((size_t)(end - p) < optlen)
			return;
		p += optlen;
	}
	collect_out_u32(o, "IPProtocol", next);
	decode_l4(o, next, p, end);
}

void collect_header_decode(struct collect_out *o, const struct sflow_sampled_header *h)
{
	const uint8_t *p = h->header, *end;
	unsigned type, depth = 0;

	if (!p)
		return;
	end = p + h->header_length;
	if (h->header_protocol == HDR_PROTO_IPV4) {
		decode_ip4(o, h, p, end);
		return;
	}
	if (h->header_protocol == HDR_PROTO_IPV6) {
		decode_ip6(o, h, p, end);
		return;
	}
	if (h->header_protocol != SFLOW_HEADER_PROTO_ETHERNET || end - p < 14)
		return;
	collect_out_hexl(o, "dstMAC", p, 6);
	collect_out_hexl(o, "srcMAC", p + 6, 6);
	type = be16(p + 12);
	p += 14;
	while (type == 0x8100 || type == 0x88a8 || type == 0x9100 || type == 0x9200 ||
	       type == 0x9300) {
		unsigned tci;
		char key[32];
		if (end - p < 4)
			return;
		tci = be16(p);
		if (depth == 0) {
			collect_out_u32(o, "decodedVLAN", tci & 0xfff);
			collect_out_u32(o, "decodedPriority", tci >> 13);
		} else {
			snprintf(key, sizeof(key), "decodedVLAN.%u", depth);
			collect_out_u32(o, key, tci & 0xfff);
			snprintf(key, sizeof(key), "decodedPriority.%u", depth);
			collect_out_u32(o, key, tci >> 13);
		}
		type = be16(p + 2);
		p += 4;
		depth++;
	}
	if (type <= 1500)
		return; /* 802.3 length: no further decode */
	collect_out_u32(o, "ethernet_type", type);
	if (type == 0x0800)
		decode_ip4(o, h, p, end);
	else if (type == 0x86dd)
		decode_ip6(o, h, p, end);
}
