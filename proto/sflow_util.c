/*
 * sflow_util.c - small helpers shared by the encoder side and the decoder
 * side of libsflow: the BST percentage, tag text and structure names,
 * address text.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <sys/socket.h>

#include "proto/sflow_decode.h"

const char *sflow_addr_str(const struct sflow_addr *a, char *buf, size_t n)
{
	if (a->type == SFLOW_ADDR_IP4)
		inet_ntop(AF_INET, a->a, buf, (socklen_t)n);
	else if (a->type == SFLOW_ADDR_IP6)
		inet_ntop(AF_INET6, a->a, buf, (socklen_t)n);
	else
		snprintf(buf, n, "unknown");
	return buf;
}

/* ---- percentage: floor(10000 * used / allocated), exact for all inputs */

struct u128 {
	uint64_t hi, lo;
};

/* a * m as a 128-bit value (m < 2^32). */
static struct u128 mul_small(uint64_t a, uint32_t m)
{
	uint64_t lo = (a & 0xFFFFFFFFu) * m; /* < 2^64 */
	uint64_t hi = (a >> 32) * m;	     /* < 2^64 */
	struct u128 r;

	r.lo = lo + (hi << 32);
	r.hi = (hi >> 32) + (r.lo < lo);
	return r;
}

static int u128_le(struct u128 x, struct u128 y)
{
	return x.hi < y.hi || (x.hi == y.hi && x.lo <= y.lo);
}

int32_t sflow_percentage(uint64_t used, uint64_t allocated)
{
	struct u128 p;
	uint32_t q = 0, bit;

	if (allocated == 0 || allocated == UINT64_MAX || used == UINT64_MAX)
		return SFLOW_PCT_UNKNOWN;
	if (used >= allocated)
		return 10000;
	if (used <= UINT64_MAX / 10000)
		return (int32_t)(used * 10000 / allocated);
	/* 10000 * used needs more than 64 bits: find the largest q with
	 * q * allocated <= 10000 * used, one bit at a time (q < 10000). */
	p = mul_small(used, 10000);
	for (bit = 1u << 13; bit; bit >>= 1)
		if (u128_le(mul_small(allocated, q | bit), p))
			q |= bit;
	return (int32_t)q;
}

/* ---- names */

const char *sflow_tag_str(uint32_t tag, char *buf, size_t n)
{
	if (!buf || n == 0)
		return "";
	snprintf(buf, n, "%u:%u", SFLOW_TAG_ENTERPRISE(tag), SFLOW_TAG_FORMAT(tag));
	return buf;
}

const char *sflow_sample_name(uint32_t tag)
{
	switch (tag) {
	case SFLOW_SAMPLE_FLOW:
		return "flow_sample";
	case SFLOW_SAMPLE_COUNTERS:
		return "counters_sample";
	case SFLOW_SAMPLE_FLOW_EXP:
		return "flow_sample_expanded";
	case SFLOW_SAMPLE_COUNTERS_EXP:
		return "counters_sample_expanded";
	case SFLOW_SAMPLE_DISCARD:
		return "discarded_packet";
	default:
		return NULL;
	}
}

const char *sflow_record_name(uint32_t sample_tag, uint32_t tag)
{
	if (sample_tag == SFLOW_SAMPLE_COUNTERS || sample_tag == SFLOW_SAMPLE_COUNTERS_EXP) {
		switch (tag) {
		case SFLOW_CTR_GENERIC:
			return "if_counters";
		case SFLOW_CTR_ETHERNET:
			return "ethernet_counters";
		case SFLOW_CTR_PORT_NAME:
			return "port_name";
		case SFLOW_CTR_BST_DEVICE:
			return "bst_device_buffers";
		case SFLOW_CTR_BST_PORT:
			return "bst_port_buffers";
		default:
			return NULL;
		}
	}
	switch (tag) {
	case SFLOW_FLOW_HEADER:
		return "sampled_header";
	case SFLOW_FLOW_EXT_SWITCH:
		return "extended_switch";
	case SFLOW_FLOW_EGRESS_QUEUE:
		return "extended_egress_queue";
	case SFLOW_FLOW_FUNCTION:
		return "extended_function";
	case SFLOW_FLOW_HW_TRAP:
		return "extended_hw_trap";
	case SFLOW_FLOW_LINUX_REASON:
		return "extended_linux_reason";
	case SFLOW_FLOW_TRANSIT:
		return "extended_transit";
	case SFLOW_FLOW_QUEUE_DEPTH:
		return "extended_queue";
	case SFLOW_FLOW_TIMESTAMP:
		return "extended_timestamp";
	case SFLOW_FLOW_BST_EGRESS_QUEUE:
		return "extended_bst_egress_queue";
	default:
		return NULL;
	}
}
