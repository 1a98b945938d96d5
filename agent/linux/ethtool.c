/*
 * ethtool.c - the 0:2 Ethernet (dot3) counters of the link source, from
 * ethtool netlink (ETHTOOL_MSG_STATS_GET, groups eth-mac and eth-phy, the
 * IEEE 802.3 counters drivers report): the reply's parser, a pure
 * function tested on hand-built messages, and the per-port request.
 *
 * Mapping (sFlow 0:2 <- ethtool): alignment_errors <- 7_ALIGN_ERR,
 * fcs_errors <- 6_FCS_ERR, single_collision_frames <- 3_SINGLE_COL,
 * multiple_collision_frames <- 4_MULTI_COL, deferred_transmissions <-
 * 9_TX_DEFER, late_collisions <- 10_LATE_COL, excessive_collisions <-
 * 11_XS_COL, internal_mac_transmit_errors <- 12_TX_INT_ERR,
 * carrier_sense_errors <- 13_CS_ERR, frame_too_longs <- 25_TOO_LONG_ERR,
 * internal_mac_receive_errors <- 15_RX_INT_ERR, symbol_errors <- eth-phy
 * 5_SYM_ERR; sqe_test_errors has no ethtool counter (unknown).  A counter
 * the driver does not report is absent from the reply: unknown.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>

#include "agent/linux/nl.h"
#include "agent/linux/state.h"

static void put_stat(struct linuxbe_ethstats *o, uint32_t grp, const struct nlattr *stat)
{
	const struct nlattr *a;

	mnl_attr_for_each_nested(a, stat)
	{
		unsigned t = mnl_attr_get_type(a);
		uint64_t v;

		if (mnl_attr_get_payload_len(a) < 8)
			continue;
		memcpy(&v, mnl_attr_get_payload(a), 8);
		if (grp == ETHTOOL_STATS_ETH_MAC && t < LINUXBE_ETH_MAC_N)
			o->mac[t] = v;
		else if (grp == ETHTOOL_STATS_ETH_PHY && t == ETHTOOL_A_STATS_ETH_PHY_5_SYM_ERR)
			o->symbol_errors = v;
	}
}

int linuxbe_ethstats_parse(const struct nlmsghdr *nlh, size_t len, struct linuxbe_ethstats *out,
			   char *err, size_t errlen)
{
	const struct nlattr *tb[ETHTOOL_A_STATS_MAX + 1];
	const struct nlattr *a;
	size_t off = MNL_NLMSG_HDRLEN + MNL_ALIGN(GENL_HDRLEN);
	char e[200];
	unsigned i;

	for (i = 0; i < LINUXBE_ETH_MAC_N; i++)
		out->mac[i] = BSF_UNKNOWN;
	out->symbol_errors = BSF_UNKNOWN;
	if (linuxbe_msg_table(nlh, len, GENL_HDRLEN, tb, ETHTOOL_A_STATS_MAX, e, sizeof e) < 0) {
		snprintf(err, errlen, "ethtool stats: %s", e);
		return -1;
	}
	/* several ETHTOOL_A_STATS_GRP: walk them all (the table keeps one) */
	for (a = (const struct nlattr *)((const char *)nlh + off);
	     mnl_attr_ok(a, (int)((const char *)nlh + nlh->nlmsg_len - (const char *)a));
	     a = mnl_attr_next(a)) {
		const struct nlattr *g[ETHTOOL_A_STATS_GRP_MAX + 1];
		const struct nlattr *s;
		uint32_t grp;

		if (mnl_attr_get_type(a) != ETHTOOL_A_STATS_GRP)
			continue;
		if (linuxbe_attr_table(mnl_attr_get_payload(a), mnl_attr_get_payload_len(a), g,
				       ETHTOOL_A_STATS_GRP_MAX, e, sizeof e) < 0) {
			snprintf(err, errlen, "ethtool stats group: %s", e);
			return -1;
		}
		if (!g[ETHTOOL_A_STATS_GRP_ID] ||
		    linuxbe_attr_u32(g[ETHTOOL_A_STATS_GRP_ID], &grp, "ETHTOOL_A_STATS_GRP_ID", e,
				     sizeof e) < 0)
			continue;
		mnl_attr_for_each_nested(s, a)
		{
			if (mnl_attr_get_type(s) == ETHTOOL_A_STATS_GRP_STAT)
				put_stat(out, grp, s);
		}
	}
	return 0;
}

void linuxbe_ethstats_fill(const struct linuxbe_ethstats *s, struct bsf_eth_counters *o)
{
	o->alignment_errors = s->mac[ETHTOOL_A_STATS_ETH_MAC_7_ALIGN_ERR];
	o->fcs_errors = s->mac[ETHTOOL_A_STATS_ETH_MAC_6_FCS_ERR];
	o->single_collision_frames = s->mac[ETHTOOL_A_STATS_ETH_MAC_3_SINGLE_COL];
	o->multiple_collision_frames = s->mac[ETHTOOL_A_STATS_ETH_MAC_4_MULTI_COL];
	o->deferred_transmissions = s->mac[ETHTOOL_A_STATS_ETH_MAC_9_TX_DEFER];
	o->late_collisions = s->mac[ETHTOOL_A_STATS_ETH_MAC_10_LATE_COL];
	o->excessive_collisions = s->mac[ETHTOOL_A_STATS_ETH_MAC_11_XS_COL];
	o->internal_mac_transmit_errors = s->mac[ETHTOOL_A_STATS_ETH_MAC_12_TX_INT_ERR];
	o->carrier_sense_errors = s->mac[ETHTOOL_A_STATS_ETH_MAC_13_CS_ERR];
	o->frame_too_longs = s->mac[ETHTOOL_A_STATS_ETH_MAC_25_TOO_LONG_ERR];
	o->internal_mac_receive_errors = s->mac[ETHTOOL_A_STATS_ETH_MAC_15_RX_INT_ERR];
	o->symbol_errors = s->symbol_errors;
}

static int stats_cb(const struct nlmsghdr *nlh, size_t len, void *arg, char *err, size_t errlen)
{
	return linuxbe_ethstats_parse(nlh, len, arg, err, errlen);
}

int linuxbe_eth_read(struct linuxbe_st *st, uint32_t port, struct linuxbe_ethstats *out, char *err,
		     size_t errlen)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh =
	    linuxbe_genl_req(buf, st->eth_family, ETHTOOL_MSG_STATS_GET, ETHTOOL_GENL_VERSION, 0);
	struct nlattr *n;
	uint32_t bits = (1u << ETHTOOL_STATS_ETH_MAC) | (1u << ETHTOOL_STATS_ETH_PHY);
	unsigned i;

	n = mnl_attr_nest_start(nlh, ETHTOOL_A_STATS_HEADER);
	mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_DEV_INDEX, st->ports[port].ifindex);
	mnl_attr_nest_end(nlh, n);
	n = mnl_attr_nest_start(nlh, ETHTOOL_A_STATS_GROUPS);
	mnl_attr_put(nlh, ETHTOOL_A_BITSET_NOMASK, 0, NULL);
	mnl_attr_put_u32(nlh, ETHTOOL_A_BITSET_SIZE, 2);
	mnl_attr_put(nlh, ETHTOOL_A_BITSET_VALUE, sizeof bits, &bits);
	mnl_attr_nest_end(nlh, n);
	for (i = 0; i < LINUXBE_ETH_MAC_N; i++)
		out->mac[i] = BSF_UNKNOWN;
	out->symbol_errors = BSF_UNKNOWN;
	return linuxbe_nl_exchange(st->genl, nlh, stats_cb, out, err, errlen);
}

int linuxbe_eth_open(struct linuxbe_st *st, char *why, size_t whylen)
{
	struct linuxbe_ethstats s;
	char e[200];
	unsigned i, known = 0;
	int rc;

	if (!st->genl && !(st->genl = linuxbe_nl_open(NETLINK_GENERIC, e, sizeof e))) {
		snprintf(why, whylen, "no generic netlink: %s", e);
		return -1;
	}
	rc = linuxbe_genl_resolve(st->genl, ETHTOOL_GENL_NAME, &st->eth_family, NULL, NULL, e,
				  sizeof e);
	if (rc < 0) {
		snprintf(why, whylen, "no ethtool netlink family");
		return -1;
	}
	if (linuxbe_eth_read(st, 0, &s, e, sizeof e) < 0) {
		snprintf(why, whylen, "%s: %s", st->ports[0].name, e);
		return -1;
	}
	for (i = 0; i < LINUXBE_ETH_MAC_N; i++)
		known += s.mac[i] != BSF_UNKNOWN;
	known += s.symbol_errors != BSF_UNKNOWN;
	if (!known) {
		snprintf(why, whylen, "the driver of %s reports no IEEE 802.3 counters",
			 st->ports[0].name);
		return -1;
	}
	snprintf(why, whylen, "0:2 from ethtool (%u counters on %s)", known, st->ports[0].name);
	return 0;
}
