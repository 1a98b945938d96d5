/*
 * reasons.c - the table from the kernel's drop reasons and devlink trap
 * names to sFlow discard reason codes (sflow_drops.txt) and pipeline
 * stages.
 *
 * Matching is by STRING, never by the kernel's enum number (enum
 * skb_drop_reason is renumbered between releases).  A name ending in '*'
 * matches by prefix, one starting with '*' by suffix; the first match in
 * table order wins.  Lookup order for an alert: its software reason
 * (NET_DM_ATTR_REASON, the tracepoint's reason name), else its hardware
 * trap name, else its trap group; anything else is 256 unknown.
 *
 * Choices made for a buffer agent (they differ from hsflowd where noted):
 * QDISC_DROP / QDISC_OVERLIMIT and the fq limits are 259 no_buffer_space,
 * not 261 traffic_shaping (the kernel uses them for any full queue, not
 * only a shaper's); QDISC_CONGESTED and CAKE_FLOOD are 260 red (AQM
 * drops); TC_* and NETFILTER_DROP are 258 acl.  The stage follows the
 * reason: queue limits are egress admission, AQM is WRED, full rings and
 * backlogs are ingress admission, the rest forwarding.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <string.h>

#include "agent/linux/linuxbe.h"

#define FWD BSF_STAGE_FORWARDING
#define IAD BSF_STAGE_INGRESS_ADMISSION
#define EAD BSF_STAGE_EGRESS_ADMISSION
#define WRD BSF_STAGE_WRED
#define UNK BSF_STAGE_UNKNOWN

const struct linuxbe_reason linuxbe_sw_reasons[] = {
    {"QDISC_DROP", 259, EAD},
    {"QDISC_OVERLIMIT", 259, EAD},
    {"FQ_BAND_LIMIT", 259, EAD},
    {"FQ_HORIZON_LIMIT", 259, EAD},
    {"FQ_FLOW_LIMIT", 259, EAD},
    {"QDISC_CONGESTED", 260, WRD},
    {"CAKE_FLOOD", 260, WRD},
    {"TC_*", 258, FWD},
    {"NETFILTER_DROP", 258, FWD},
    {"NO_SOCKET", 3, FWD},
    {"IP_OUTNOROUTES", 6, FWD},
    {"IP_INNOROUTES", 0, FWD},
    {"NEIGH_*", 279, FWD},
    {"PKT_TOO_BIG", 262, FWD},
    {"IP_INHDR", 275, FWD},
    {"IP_CSUM", 275, FWD},
    {"UNICAST_IN_L2_MULTICAST", 271, FWD},
    {"CPU_BACKLOG", 259, IAD},
    {"FULL_RING", 259, IAD},
    {"NOMEM", 259, IAD},
    {"SOCKET_RCVBUFF", 259, IAD},
    {"PROTO_MEM", 259, IAD},
    {"NOT_SPECIFIED", 256, UNK},
};
const size_t linuxbe_n_sw_reasons = sizeof linuxbe_sw_reasons / sizeof linuxbe_sw_reasons[0];

/* devlink generic trap names (Documentation/networking/devlink/devlink-trap.rst) */
const struct linuxbe_reason linuxbe_hw_traps[] = {
    {"tail_drop", 259, EAD},
    {"early_drop", 260, WRD},
    {"blackhole_route", 269, FWD},
    {"ttl_value_is_too_small", 257, FWD},
    {"*flow_action_drop", 258, FWD},
    {"source_mac_is_multicast", 263, FWD},
    {"vlan_tag_mismatch", 264, FWD},
    {"ingress_vlan_filter", 265, FWD},
    {"ingress_spanning_tree_filter", 266, FWD},
    {"port_list_is_empty", 267, FWD},
    {"port_loopback_filter", 268, FWD},
    {"non_ip", 270, FWD},
    {"uc_dip_over_mc_dmac", 271, FWD},
    {"dip_is_loopback_address", 272, FWD},
    {"sip_is_mc", 273, FWD},
    {"sip_is_loopback_address", 274, FWD},
    {"ip_header_corrupted", 275, FWD},
    {"ipv4_sip_is_limited_bc", 276, FWD},
    {"ipv6_mc_dip_reserved_scope", 277, FWD},
    {"ipv6_mc_dip_interface_local_scope", 278, FWD},
    {"mtu_value_is_too_small", 262, FWD},
    {"unresolved_neigh", 279, FWD},
    {"mc_reverse_path_forwarding", 280, FWD},
    {"non_routable_packet", 281, FWD},
    {"decap_error", 282, FWD},
    {"overlay_smac_is_mc", 283, FWD},
    {"blackhole_neigh", 292, FWD},
};
const size_t linuxbe_n_hw_traps = sizeof linuxbe_hw_traps / sizeof linuxbe_hw_traps[0];

const struct linuxbe_reason linuxbe_hw_groups[] = {
    {"l2_drops", 284, FWD},	{"l3_drops", 285, FWD},	    {"l3_exceptions", 286, FWD},
    {"buffer_drops", 287, EAD}, {"tunnel_drops", 288, FWD}, {"acl_drops", 258, FWD},
};
const size_t linuxbe_n_hw_groups = sizeof linuxbe_hw_groups / sizeof linuxbe_hw_groups[0];

static int name_match(const char *pat, const char *s)
{
	size_t pl = strlen(pat), sl = strlen(s);

	if (pl > 0 && pat[pl - 1] == '*')
		return strncmp(pat, s, pl - 1) == 0;
	if (pl > 0 && pat[0] == '*')
		return sl >= pl - 1 && strcmp(s + sl - (pl - 1), pat + 1) == 0;
	return strcmp(pat, s) == 0;
}

static const struct linuxbe_reason *find(const struct linuxbe_reason *t, size_t n, const char *s)
{
	size_t i;

	if (!s || !s[0])
		return NULL;
	for (i = 0; i < n; i++)
		if (name_match(t[i].name, s))
			return &t[i];
	return NULL;
}

void linuxbe_reason_lookup(const char *reason, const char *trap_group, const char *trap_name,
			   uint32_t *code, uint32_t *stage)
{
	const struct linuxbe_reason *r = find(linuxbe_sw_reasons, linuxbe_n_sw_reasons, reason);

	if (!r)
		r = find(linuxbe_hw_traps, linuxbe_n_hw_traps, trap_name);
	if (!r)
		r = find(linuxbe_hw_groups, linuxbe_n_hw_groups, trap_group);
	*code = r ? r->code : 256;
	*stage = r ? r->stage : BSF_STAGE_UNKNOWN;
}
