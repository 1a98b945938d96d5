/*
 * dropmon.c - the drop monitor source's parsers: a NET_DM_CMD_PACKET_ALERT
 * (software drop: reason string, symbol, input port; hardware drop: devlink
 * trap group and name) to struct linuxbe_drop, and a NET_DM_CMD_STATS_NEW
 * reply to the count of alerts the kernel's per-CPU queues dropped.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/net_dropmon.h>

#include "agent/linux/linuxbe.h"

int linuxbe_dropmon_parse(const struct nlmsghdr *nlh, size_t len, struct linuxbe_drop *out,
			  char *err, size_t errlen)
{
	const struct nlattr *tb[NET_DM_ATTR_MAX + 1];
	const struct genlmsghdr *g;
	char e[200];
	uint16_t v16;

	memset(out, 0, sizeof *out);
	out->in_ifindex = UINT32_MAX;
	out->t_ns = BSF_UNKNOWN;
	out->orig_len = UINT32_MAX;
	out->proto = UINT32_MAX;
	if (linuxbe_msg_table(nlh, len, GENL_HDRLEN, tb, NET_DM_ATTR_MAX, e, sizeof e) < 0)
		goto bad;
	g = mnl_nlmsg_get_payload(nlh);
	if (g->cmd != NET_DM_CMD_PACKET_ALERT) {
		snprintf(e, sizeof e, "command %u is not a packet alert (%u)", g->cmd,
			 NET_DM_CMD_PACKET_ALERT);
		goto bad;
	}
	if (tb[NET_DM_ATTR_ORIGIN]) {
		if (linuxbe_attr_u16(tb[NET_DM_ATTR_ORIGIN], &v16, "NET_DM_ATTR_ORIGIN", e,
				     sizeof e) < 0)
			goto bad;
		out->origin = v16;
	}
	if (tb[NET_DM_ATTR_REASON])
		linuxbe_attr_str(tb[NET_DM_ATTR_REASON], out->reason, sizeof out->reason);
	if (tb[NET_DM_ATTR_SYMBOL])
		linuxbe_attr_str(tb[NET_DM_ATTR_SYMBOL], out->symbol, sizeof out->symbol);
	if (tb[NET_DM_ATTR_HW_TRAP_GROUP_NAME])
		linuxbe_attr_str(tb[NET_DM_ATTR_HW_TRAP_GROUP_NAME], out->trap_group,
				 sizeof out->trap_group);
	if (tb[NET_DM_ATTR_HW_TRAP_NAME])
		linuxbe_attr_str(tb[NET_DM_ATTR_HW_TRAP_NAME], out->trap_name,
				 sizeof out->trap_name);
	if (tb[NET_DM_ATTR_IN_PORT]) {
		const struct nlattr *pt[NET_DM_ATTR_PORT_MAX + 1];

		if (linuxbe_attr_table(mnl_attr_get_payload(tb[NET_DM_ATTR_IN_PORT]),
				       mnl_attr_get_payload_len(tb[NET_DM_ATTR_IN_PORT]), pt,
				       NET_DM_ATTR_PORT_MAX, e, sizeof e) < 0)
			goto bad;
		if (pt[NET_DM_ATTR_PORT_NETDEV_IFINDEX] &&
		    linuxbe_attr_u32(pt[NET_DM_ATTR_PORT_NETDEV_IFINDEX], &out->in_ifindex,
				     "NET_DM_ATTR_PORT_NETDEV_IFINDEX", e, sizeof e) < 0)
			goto bad;
	}
	if (tb[NET_DM_ATTR_TIMESTAMP] && linuxbe_attr_u64(tb[NET_DM_ATTR_TIMESTAMP], &out->t_ns,
							  "NET_DM_ATTR_TIMESTAMP", e, sizeof e) < 0)
		goto bad;
	if (tb[NET_DM_ATTR_ORIG_LEN] && linuxbe_attr_u32(tb[NET_DM_ATTR_ORIG_LEN], &out->orig_len,
							 "NET_DM_ATTR_ORIG_LEN", e, sizeof e) < 0)
		goto bad;
	if (tb[NET_DM_ATTR_PROTO]) {
		if (linuxbe_attr_u16(tb[NET_DM_ATTR_PROTO], &v16, "NET_DM_ATTR_PROTO", e,
				     sizeof e) < 0)
			goto bad;
		out->proto = v16;
	}
	if (tb[NET_DM_ATTR_PAYLOAD]) {
		out->payload = mnl_attr_get_payload(tb[NET_DM_ATTR_PAYLOAD]);
		out->payload_len = mnl_attr_get_payload_len(tb[NET_DM_ATTR_PAYLOAD]);
	}
	return 0;
bad:
	snprintf(err, errlen, "NET_DM alert: %s", e);
	return -1;
}

static int stats_nest(const struct nlattr *a, uint64_t *sum, char *err, size_t errlen)
{
	const struct nlattr *st[NET_DM_ATTR_STATS_MAX + 1];
	uint64_t v;

	if (linuxbe_attr_table(mnl_attr_get_payload(a), mnl_attr_get_payload_len(a), st,
			       NET_DM_ATTR_STATS_MAX, err, errlen) < 0)
		return -1;
	if (st[NET_DM_ATTR_STATS_DROPPED]) {
		if (linuxbe_attr_u64(st[NET_DM_ATTR_STATS_DROPPED], &v, "NET_DM_ATTR_STATS_DROPPED",
				     err, errlen) < 0)
			return -1;
		*sum += v;
	}
	return 0;
}

int linuxbe_dropmon_stats_parse(const struct nlmsghdr *nlh, size_t len, uint64_t *dropped,
				char *err, size_t errlen)
{
	const struct nlattr *tb[NET_DM_ATTR_MAX + 1];
	char e[200];

	*dropped = 0;
	if (linuxbe_msg_table(nlh, len, GENL_HDRLEN, tb, NET_DM_ATTR_MAX, e, sizeof e) < 0)
		goto bad;
	if (tb[NET_DM_ATTR_STATS] && stats_nest(tb[NET_DM_ATTR_STATS], dropped, e, sizeof e) < 0)
		goto bad;
	if (tb[NET_DM_ATTR_HW_STATS] &&
	    stats_nest(tb[NET_DM_ATTR_HW_STATS], dropped, e, sizeof e) < 0)
		goto bad;
	return 0;
bad:
	snprintf(err, errlen, "NET_DM stats: %s", e);
	return -1;
}
