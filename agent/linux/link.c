/*
 * link.c - the link source's parser: an RTM_NEWLINK message (a dump reply
 * or an RTNLGRP_LINK notification) to struct linuxbe_link: name, flags,
 * oper state, IFLA_STATS64, tx queue length, switchdev identity.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "agent/linux/linuxbe.h"

int linuxbe_link_parse(const struct nlmsghdr *nlh, size_t len, struct linuxbe_link *out, char *err,
		       size_t errlen)
{
	const struct nlattr *tb[IFLA_MAX + 1];
	const struct ifinfomsg *ifi;
	char e[200];

	memset(out, 0, sizeof *out);
	out->operstate = UINT32_MAX;
	out->txqlen = UINT32_MAX;
	if (linuxbe_msg_table(nlh, len, sizeof *ifi, tb, IFLA_MAX, e, sizeof e) < 0) {
		snprintf(err, errlen, "link message: %s", e);
		return -1;
	}
	ifi = mnl_nlmsg_get_payload(nlh);
	out->ifindex = (uint32_t)ifi->ifi_index;
	out->flags = ifi->ifi_flags;
	out->type = ifi->ifi_type;
	if (tb[IFLA_IFNAME])
		linuxbe_attr_str(tb[IFLA_IFNAME], out->name, sizeof out->name);
	if (tb[IFLA_OPERSTATE]) {
		uint8_t v;

		if (linuxbe_attr_u8(tb[IFLA_OPERSTATE], &v, "IFLA_OPERSTATE", e, sizeof e) < 0)
			goto bad;
		out->operstate = v;
	}
	if (tb[IFLA_TXQLEN] &&
	    linuxbe_attr_u32(tb[IFLA_TXQLEN], &out->txqlen, "IFLA_TXQLEN", e, sizeof e) < 0)
		goto bad;
	out->switchdev = tb[IFLA_PHYS_SWITCH_ID] != NULL;
	if (tb[IFLA_LINKINFO]) {
		const struct nlattr *li[IFLA_INFO_MAX + 1];

		if (linuxbe_attr_table(mnl_attr_get_payload(tb[IFLA_LINKINFO]),
				       mnl_attr_get_payload_len(tb[IFLA_LINKINFO]), li,
				       IFLA_INFO_MAX, e, sizeof e) < 0)
			goto bad;
		if (li[IFLA_INFO_KIND])
			linuxbe_attr_str(li[IFLA_INFO_KIND], out->kind, sizeof out->kind);
	}
	if (tb[IFLA_STATS64]) {
		struct rtnl_link_stats64 st;
		size_t n = mnl_attr_get_payload_len(tb[IFLA_STATS64]);

		/* the struct grew over the years: rx_nohandler is in every
		 * kernel bsflowd supports; later fields are not used */
		if (n < offsetof(struct rtnl_link_stats64, rx_nohandler) + sizeof(uint64_t)) {
			snprintf(e, sizeof e, "attribute IFLA_STATS64: %zu bytes, %zu expected", n,
				 offsetof(struct rtnl_link_stats64, rx_nohandler) +
				     sizeof(uint64_t));
			goto bad;
		}
		memset(&st, 0, sizeof st);
		memcpy(&st, mnl_attr_get_payload(tb[IFLA_STATS64]), n < sizeof st ? n : sizeof st);
		out->has_stats = 1;
		out->rx_packets = st.rx_packets;
		out->tx_packets = st.tx_packets;
		out->rx_bytes = st.rx_bytes;
		out->tx_bytes = st.tx_bytes;
		out->rx_errors = st.rx_errors;
		out->tx_errors = st.tx_errors;
		out->rx_dropped = st.rx_dropped;
		out->tx_dropped = st.tx_dropped;
		out->multicast = st.multicast;
		out->rx_missed_errors = st.rx_missed_errors;
		out->rx_nohandler = st.rx_nohandler;
	}
	return 0;
bad:
	snprintf(err, errlen, "link message (ifindex %u): %s", out->ifindex, e);
	return -1;
}
