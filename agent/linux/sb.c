/*
 * sb.c - the devlink shared-buffer source's parser: one reply of
 * DEVLINK_CMD_SB_GET, SB_POOL_GET, SB_PORT_POOL_GET, SB_TC_POOL_BIND_GET or
 * PORT_GET to struct linuxbe_sb_rec, and the allocation rule for static and
 * dynamic thresholds.
 *
 * Occupancy (SB_OCC_CUR / SB_OCC_MAX) is present only when the driver
 * implements it (mlxsw, ocelot); mlxsw reports it in bytes.  The cycle the
 * backend runs is SB_OCC_SNAPSHOT -> dump -> SB_OCC_MAX_CLEAR, so that the
 * hardware maximum covers the time between two polls.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/devlink.h>
#include <linux/genetlink.h>

#include "agent/linux/linuxbe.h"

struct u32f {
	unsigned attr;
	int width; /* 1, 2 or 4 bytes */
	size_t off;
	const char *name;
};

#define F(a, w, field)                                                                             \
	{                                                                                          \
		a, w, offsetof(struct linuxbe_sb_rec, field), #a                                   \
	}
static const struct u32f fields[] = {
    F(DEVLINK_ATTR_SB_INDEX, 4, sb_index),
    F(DEVLINK_ATTR_PORT_INDEX, 4, port_index),
    F(DEVLINK_ATTR_SB_POOL_INDEX, 2, pool_index),
    F(DEVLINK_ATTR_SB_TC_INDEX, 2, tc_index),
    F(DEVLINK_ATTR_SB_POOL_TYPE, 1, pool_type),
    F(DEVLINK_ATTR_SB_POOL_SIZE, 4, size),
    F(DEVLINK_ATTR_SB_SIZE, 4, size),
    F(DEVLINK_ATTR_SB_POOL_CELL_SIZE, 4, cell_size),
    F(DEVLINK_ATTR_SB_THRESHOLD, 4, threshold),
    F(DEVLINK_ATTR_SB_POOL_THRESHOLD_TYPE, 1, threshold_type),
    F(DEVLINK_ATTR_SB_INGRESS_POOL_COUNT, 2, ingress_pools),
    F(DEVLINK_ATTR_SB_EGRESS_POOL_COUNT, 2, egress_pools),
    F(DEVLINK_ATTR_SB_INGRESS_TC_COUNT, 2, ingress_tcs),
    F(DEVLINK_ATTR_SB_EGRESS_TC_COUNT, 2, egress_tcs),
    F(DEVLINK_ATTR_PORT_NETDEV_IFINDEX, 4, netdev_ifindex),
    F(DEVLINK_ATTR_PORT_FLAVOUR, 2, flavour),
};
#undef F

int linuxbe_sb_parse(const struct nlmsghdr *nlh, size_t len, struct linuxbe_sb_rec *out, char *err,
		     size_t errlen)
{
	const struct nlattr *tb[DEVLINK_ATTR_MAX + 1];
	const struct genlmsghdr *g;
	char e[200];
	size_t i;

	memset(out, 0xff, sizeof *out);
	out->bus[0] = out->dev[0] = '\0';
	out->occ_cur = out->occ_max = BSF_UNKNOWN;
	if (linuxbe_msg_table(nlh, len, GENL_HDRLEN, tb, DEVLINK_ATTR_MAX, e, sizeof e) < 0)
		goto bad;
	g = mnl_nlmsg_get_payload(nlh);
	out->cmd = g->cmd;
	if (tb[DEVLINK_ATTR_BUS_NAME])
		linuxbe_attr_str(tb[DEVLINK_ATTR_BUS_NAME], out->bus, sizeof out->bus);
	if (tb[DEVLINK_ATTR_DEV_NAME])
		linuxbe_attr_str(tb[DEVLINK_ATTR_DEV_NAME], out->dev, sizeof out->dev);
	for (i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		const struct nlattr *a = tb[fields[i].attr];
		uint32_t *dst = (uint32_t *)((char *)out + fields[i].off);
		uint8_t v8;
		uint16_t v16;

		if (!a)
			continue;
		if (fields[i].width == 1) {
			if (linuxbe_attr_u8(a, &v8, fields[i].name, e, sizeof e) < 0)
				goto bad;
			*dst = v8;
		} else if (fields[i].width == 2) {
			if (linuxbe_attr_u16(a, &v16, fields[i].name, e, sizeof e) < 0)
				goto bad;
			*dst = v16;
		} else if (linuxbe_attr_u32(a, dst, fields[i].name, e, sizeof e) < 0) {
			goto bad;
		}
	}
	if (tb[DEVLINK_ATTR_SB_OCC_CUR]) {
		uint32_t v;

		if (linuxbe_attr_u32(tb[DEVLINK_ATTR_SB_OCC_CUR], &v, "DEVLINK_ATTR_SB_OCC_CUR", e,
				     sizeof e) < 0)
			goto bad;
		out->occ_cur = v;
	}
	if (tb[DEVLINK_ATTR_SB_OCC_MAX]) {
		uint32_t v;

		if (linuxbe_attr_u32(tb[DEVLINK_ATTR_SB_OCC_MAX], &v, "DEVLINK_ATTR_SB_OCC_MAX", e,
				     sizeof e) < 0)
			goto bad;
		out->occ_max = v;
	}
	return 0;
bad:
	snprintf(err, errlen, "devlink message: %s", e);
	return -1;
}

uint64_t linuxbe_sb_alloc_bytes(uint32_t threshold_type, uint32_t threshold, uint64_t pool_bytes)
{
	if (threshold == UINT32_MAX)
		return BSF_UNKNOWN;
	if (threshold_type == DEVLINK_SB_THRESHOLD_TYPE_STATIC)
		return threshold;
	if (threshold_type == DEVLINK_SB_THRESHOLD_TYPE_DYNAMIC && pool_bytes != BSF_UNKNOWN &&
	    threshold <= 20) {
		/* alpha = 2^(th-10); alpha/(1+alpha) = 2^th / (2^th + 2^10) */
		uint64_t num = (uint64_t)1 << threshold;

		return (uint64_t)((double)pool_bytes * (double)num / (double)(num + 1024u));
	}
	return BSF_UNKNOWN;
}
