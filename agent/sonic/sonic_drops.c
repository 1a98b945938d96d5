/*
 * sonic_drops.c - SONiC's drop reasons mapped to sFlow discard reason
 * codes, and the drop records (see sonic_drops.h).
 *
 * The map takes SAI's drop reasons (saidebugcounter.h, as SONiC's
 * DEBUG_COUNTER_DROP_REASON table names them) to the sFlow codes of the
 * same meaning (proto/sflow_drops.c, by name).  Reasons of no equivalent
 * (FDB_UC_DISCARD, IRIF_DISABLED, MPLS_*, ...) map to none.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "agent/sonic/sonic_drops.h"
#include "proto/sflow_drops.h"

static const struct {
	const char *sai, *sflow;
} reason_map[] = {
    {"L2_ANY", "unknown_l2"},
    {"SMAC_MULTICAST", "src_mac_is_multicast"},
    {"SMAC_EQUALS_DMAC", "src_mac_is_dmac"},
    {"DMAC_RESERVED", "dmac_is_reserved"},
    {"VLAN_TAG_NOT_ALLOWED", "vlan_tag_mismatch"},
    {"INGRESS_VLAN_FILTER", "ingress_vlan_filter"},
    {"INGRESS_STP_FILTER", "ingress_spanning_tree_filter"},
    {"L2_LOOPBACK_FILTER", "port_loopback_filter"},
    {"EXCEEDS_L2_MTU", "pkt_too_big"},
    {"EXCEEDS_L3_MTU", "pkt_too_big"},
    {"L3_ANY", "unknown_l3"},
    {"TTL", "ttl_exceeded"},
    {"NON_ROUTABLE", "non_routable_packet"},
    {"NO_L3_HEADER", "non_ip"},
    {"IP_HEADER_ERROR", "ip_header_corrupted"},
    {"UC_DIP_MC_DMAC", "uc_dip_over_mc_dmac"},
    {"DIP_LOOPBACK", "dip_is_loopback_address"},
    {"SIP_LOOPBACK", "sip_is_loopback_address"},
    {"SIP_MC", "sip_is_mc"},
    {"SIP_CLASS_E", "sip_is_class_e"},
    {"SIP_UNSPECIFIED", "sip_is_unspecified"},
    {"MC_DMAC_MISMATCH", "mc_dmac_mismatch"},
    {"SIP_EQUALS_DIP", "sip_is_dip"},
    {"SIP_BC", "ipv4_sip_is_limited_bc"},
    {"DIP_LOCAL", "dip_is_local_network"},
    {"DIP_LINK_LOCAL", "dip_is_link_local"},
    {"IPV6_MC_SCOPE0", "ipv6_mc_dip_reserved_scope"},
    {"IPV6_MC_SCOPE1", "ipv6_mc_dip_interface_local_scope"},
    {"LPM4_MISS", "net_unreachable"},
    {"LPM6_MISS", "net_unreachable"},
    {"BLACKHOLE_ROUTE", "blackhole_route"},
    {"BLACKHOLE_ARP", "blackhole_arp_neigh"},
    {"UNRESOLVED_NEXT_HOP", "unresolved_neigh"},
    {"DECAP_ERROR", "decap_error"},
    {"ACL_ANY", "acl"},
    {"ACL_INGRESS_PORT", "acl"},
    {"ACL_INGRESS_LAG", "acl"},
    {"ACL_INGRESS_VLAN", "acl"},
    {"ACL_INGRESS_RIF", "acl"},
    {"ACL_INGRESS_SWITCH", "acl"},
    {"ACL_EGRESS_PORT", "acl"},
    {"ACL_EGRESS_LAG", "acl"},
    {"ACL_EGRESS_VLAN", "acl"},
    {"ACL_EGRESS_RIF", "acl"},
    {"ACL_EGRESS_SWITCH", "acl"},
    {"EGRESS_VLAN_FILTER", "egress_vlan_filter"},
};

uint32_t sonic_drop_reason_code(const char *reason)
{
	uint32_t code;

	for (size_t i = 0; i < sizeof reason_map / sizeof reason_map[0]; i++)
		if (strcmp(reason, reason_map[i].sai) == 0)
			return sflow_drop_code(reason_map[i].sflow, &code) == 0 ? code : UINT32_MAX;
	return UINT32_MAX;
}

/* E:11 of dbg with its values. */
static void enc_counters(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
			 const struct sonic_dbgs *dbg, const uint64_t *values)
{
	struct sflow_own_drop_counter c[SONIC_DBG_MAX];

	memset(c, 0, sizeof c);
	for (unsigned i = 0; i < dbg->n; i++) {
		const struct sonic_dbg *d = &dbg->c[i];

		snprintf(c[i].name, sizeof c[i].name, "%s", d->name);
		snprintf(c[i].alias, sizeof c[i].alias, "%s", d->alias);
		snprintf(c[i].reasons, sizeof c[i].reasons, "%s", d->reasons);
		c[i].direction = d->direction;
		c[i].reason = d->code;
		c[i].packets = values[i];
	}
	sflow_own_enc_drop_counters(w, s, enterprise, c, dbg->n);
}

int sonic_drops_records(uint32_t enterprise, const struct sflow_own_qdrop *uc, unsigned n_uc,
			const struct sflow_own_qdrop *mc, unsigned n_mc,
			const struct sonic_dbgs *dbg, const uint64_t *values,
			struct bsf_own_records *out, char *err, size_t errlen)
{
	struct sflow_sample_enc s;
	struct sflow_w w;
	uint32_t nrec;
	size_t len;

	memset(&s, 0, sizeof s);
	out->nrec = 0;
	out->len = 0;
	sflow_w_init(&w, out->buf, sizeof out->buf);
	if (n_uc + n_mc)
		sflow_own_enc_queue_drops(&w, &s, enterprise, uc, n_uc, mc, n_mc);
	if (w.err) {
		snprintf(err, errlen, "sonic: %u queues' drops do not fit in %zu bytes",
			 n_uc + n_mc, sizeof out->buf);
		return -1;
	}
	nrec = s.nrecords;
	len = w.len;
	if (dbg && dbg->n)
		enc_counters(&w, &s, enterprise, dbg, values);
	if (w.err) {
		/* the drop counters do not fit: the queues alone */
		snprintf(err, errlen, "sonic: %u drop counters do not fit in %zu bytes", dbg->n,
			 sizeof out->buf);
		out->nrec = nrec;
		out->len = (uint32_t)len;
		return 1;
	}
	out->nrec = s.nrecords;
	out->len = (uint32_t)w.len;
	return 0;
}
