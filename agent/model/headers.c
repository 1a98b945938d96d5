/*
 * headers.c - build Ethernet / 802.1Q / IPv4 / IPv6 / UDP / TCP header
 * bytes for synthesized frames (see headers.h).
 *
 * Layout written, in network byte order:
 *   Ethernet II: dst MAC, src MAC, [0x8100, PCP|VID], ethertype
 *   IPv4 (20 bytes, no options, DF set) or IPv6 (40 bytes, no extensions)
 *   UDP (8 bytes) or TCP (20 bytes, no options, flags ACK|PSH)
 * Lengths are derived from the frame length minus the FCS; the L4 checksum
 * covers the pseudo-header, the L4 header and a payload of zero bytes.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include "agent/model/headers.h"

#include <string.h>

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

uint32_t model_inet_sum(const void *data, size_t n, uint32_t sum)
{
	const uint8_t *p = data;
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		sum += (uint32_t)p[n - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return sum;
}

uint16_t model_inet_csum_fin(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static unsigned l2_size(const struct model_hdr_spec *s)
{
	return s->vlan >= 0 ? 18 : 14;
}

static unsigned l3_size(const struct model_hdr_spec *s)
{
	return s->ip_version == 6 ? 40 : 20;
}

static unsigned l4_size(const struct model_hdr_spec *s)
{
	return s->l4 == MODEL_IPPROTO_TCP ? 20 : 8;
}

unsigned model_hdr_size(const struct model_hdr_spec *s)
{
	return l2_size(s) + l3_size(s) + l4_size(s);
}

uint32_t model_hdr_min_frame(const struct model_hdr_spec *s)
{
	uint32_t n = model_hdr_size(s) + MODEL_ETH_FCS;

	return n < MODEL_FRAME_MIN ? MODEL_FRAME_MIN : n;
}

unsigned model_hdr_build(const struct model_hdr_spec *s, uint32_t frame_len, uint8_t *buf)
{
	unsigned l2 = l2_size(s), l3 = l3_size(s), l4 = l4_size(s);
	uint32_t ip_len, l4_len, sum;
	uint8_t *ip, *tp, pseudo[40];
	size_t plen;

	if (frame_len < model_hdr_min_frame(s) || frame_len > MODEL_FRAME_MAX)
		return 0;
	ip_len = frame_len - MODEL_ETH_FCS - l2; /* IP header + payload */
	l4_len = ip_len - l3;

	memcpy(buf, s->dst_mac, 6);
	memcpy(buf + 6, s->src_mac, 6);
	if (s->vlan >= 0) {
		put16(buf + 12, MODEL_ETHERTYPE_VLAN);
		put16(buf + 14, (uint16_t)((s->pcp & 7) << 13 | (s->vlan & 0xfff)));
	}
	put16(buf + l2 - 2, s->ip_version == 6 ? MODEL_ETHERTYPE_IPV6 : MODEL_ETHERTYPE_IPV4);

	ip = buf + l2;
	if (s->ip_version == 6) {
		/* version 6, traffic class = DSCP << 2, flow label 0 */
		put32(ip, 6u << 28 | (uint32_t)(s->dscp & 63) << 22 | (uint32_t)(s->ecn & 3) << 20);
		put16(ip + 4, (uint16_t)l4_len);
		ip[6] = s->l4;
		ip[7] = s->ttl;
		memcpy(ip + 8, s->src_ip, 16);
		memcpy(ip + 24, s->dst_ip, 16);
		memcpy(pseudo, s->src_ip, 16);
		memcpy(pseudo + 16, s->dst_ip, 16);
		put32(pseudo + 32, l4_len);
		pseudo[36] = pseudo[37] = pseudo[38] = 0;
		pseudo[39] = s->l4;
		plen = 40;
	} else {
		ip[0] = 0x45;
		ip[1] = (uint8_t)((s->dscp & 63) << 2 | (s->ecn & 3));
		put16(ip + 2, (uint16_t)ip_len);
		put16(ip + 4, s->ip_id);
		put16(ip + 6, 0x4000); /* DF, fragment offset 0 */
		ip[8] = s->ttl;
		ip[9] = s->l4;
		put16(ip + 10, 0);
		memcpy(ip + 12, s->src_ip, 4);
		memcpy(ip + 16, s->dst_ip, 4);
		put16(ip + 10, model_inet_csum_fin(model_inet_sum(ip, 20, 0)));
		memcpy(pseudo, s->src_ip, 4);
		memcpy(pseudo + 4, s->dst_ip, 4);
		pseudo[8] = 0;
		pseudo[9] = s->l4;
		put16(pseudo + 10, (uint16_t)l4_len);
		plen = 12;
	}

	tp = ip + l3;
	put16(tp, s->sport);
	put16(tp + 2, s->dport);
	if (s->l4 == MODEL_IPPROTO_TCP) {
		put32(tp + 4, s->tcp_seq);
		put32(tp + 8, s->tcp_seq + 1);
		tp[12] = 5 << 4; /* data offset: 5 words */
		tp[13] = 0x18;	 /* ACK | PSH */
		put16(tp + 14, 65535);
		put16(tp + 16, 0);
		put16(tp + 18, 0);
		sum = model_inet_sum(pseudo, plen, 0);
		sum = model_inet_sum(tp, 20, sum);
		put16(tp + 16, model_inet_csum_fin(sum));
	} else {
		uint16_t c;

		put16(tp + 4, (uint16_t)l4_len);
		put16(tp + 6, 0);
		sum = model_inet_sum(pseudo, plen, 0);
		sum = model_inet_sum(tp, 8, sum);
		c = model_inet_csum_fin(sum);
		put16(tp + 6, c ? c : 0xffff); /* 0 means "no checksum" in UDP */
	}
	return l2 + l3 + l4;
}
