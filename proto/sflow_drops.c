/*
 * sflow_drops.c - the discarded_packet reason table (see sflow_drops.h).
 *
 * The whole drop_reason enumeration of "sFlow Dropped Packet Notification
 * Structures" (sflow_drops.txt, sflow.org, October 2020): 0..15 are the
 * ICMP destination-unreachable codes, 256..303 the switch and kernel drop
 * causes.  Names are spelled exactly as in the spec, including its
 * "dst_host_tos_unreacheable".  Sorted by code, so lookups by code can
 * bisect; lookups by name are linear (64 entries, used when parsing
 * configuration, not per packet).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <stddef.h>
#include <string.h>

#include "proto/sflow_drops.h"

struct drop_entry {
	uint32_t code;
	const char *name;
};

static const struct drop_entry drop_table[] = {
    {0, "net_unreachable"},
    {1, "host_unreachable"},
    {2, "protocol_unreachable"},
    {3, "port_unreachable"},
    {4, "frag_needed"},
    {5, "src_route_failed"},
    {6, "dst_net_unknown"},
    {7, "dst_host_unknown"},
    {8, "src_host_isolated"},
    {9, "dst_net_prohibited"},
    {10, "dst_host_prohibited"},
    {11, "dst_net_tos_unreachable"},
    {12, "dst_host_tos_unreacheable"},
    {13, "comm_admin_prohibited"},
    {14, "host_precedence_violation"},
    {15, "precedence_cutoff"},
    {256, "unknown"},
    {257, "ttl_exceeded"},
    {258, "acl"},
    {259, "no_buffer_space"},
    {260, "red"},
    {261, "traffic_shaping"},
    {262, "pkt_too_big"},
    {263, "src_mac_is_multicast"},
    {264, "vlan_tag_mismatch"},
    {265, "ingress_vlan_filter"},
    {266, "ingress_spanning_tree_filter"},
    {267, "port_list_is_empty"},
    {268, "port_loopback_filter"},
    {269, "blackhole_route"},
    {270, "non_ip"},
    {271, "uc_dip_over_mc_dmac"},
    {272, "dip_is_loopback_address"},
    {273, "sip_is_mc"},
    {274, "sip_is_loopback_address"},
    {275, "ip_header_corrupted"},
    {276, "ipv4_sip_is_limited_bc"},
    {277, "ipv6_mc_dip_reserved_scope"},
    {278, "ipv6_mc_dip_interface_local_scope"},
    {279, "unresolved_neigh"},
    {280, "mc_reverse_path_forwarding"},
    {281, "non_routable_packet"},
    {282, "decap_error"},
    {283, "overlay_smac_is_mc"},
    {284, "unknown_l2"},
    {285, "unknown_l3"},
    {286, "unknown_l3_exception"},
    {287, "unknown_buffer"},
    {288, "unknown_tunnel"},
    {289, "unknown_l4"},
    {290, "sip_is_unspecified"},
    {291, "mlag_port_isolation"},
    {292, "blackhole_arp_neigh"},
    {293, "src_mac_is_dmac"},
    {294, "dmac_is_reserved"},
    {295, "sip_is_class_e"},
    {296, "mc_dmac_mismatch"},
    {297, "sip_is_dip"},
    {298, "dip_is_local_network"},
    {299, "dip_is_link_local"},
    {300, "overlay_smac_is_dmac"},
    {301, "egress_vlan_filter"},
    {302, "uc_reverse_path_forwarding"},
    {303, "split_horizon"},
};

#define DROP_COUNT (sizeof drop_table / sizeof drop_table[0])

const char *sflow_drop_name(uint32_t code)
{
	size_t lo = 0, hi = DROP_COUNT;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (drop_table[mid].code == code)
			return drop_table[mid].name;
		if (drop_table[mid].code < code)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int sflow_drop_code(const char *name, uint32_t *code)
{
	size_t i;

	if (!name)
		return -1;
	for (i = 0; i < DROP_COUNT; i++) {
		if (strcmp(drop_table[i].name, name) == 0) {
			if (code)
				*code = drop_table[i].code;
			return 0;
		}
	}
	return -1;
}

unsigned sflow_drop_count(void)
{
	return (unsigned)DROP_COUNT;
}

void sflow_drop_entry(unsigned i, uint32_t *code, const char **name)
{
	if (i >= DROP_COUNT) {
		if (code)
			*code = 0;
		if (name)
			*name = NULL;
		return;
	}
	if (code)
		*code = drop_table[i].code;
	if (name)
		*name = drop_table[i].name;
}
