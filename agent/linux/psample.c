/*
 * psample.c - the psample source's parser: a PSAMPLE_CMD_SAMPLE message to
 * struct linuxbe_sample (ports, 1-in-N rate, egress traffic class and its
 * occupancy, latency, timestamp, original size, header bytes, group
 * sequence).
 *
 * IIFINDEX / OIFINDEX are u16 on the wire (the kernel truncates the
 * ifindex).  With PSAMPLE_ATTR_SAMPLE_PROBABILITY (Linux 6.11, shadowed
 * here for older headers) SAMPLE_RATE is a probability scaled to
 * UINT32_MAX; it is turned back into 1-in-N, rounded to the nearest N.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/psample.h>

#include "agent/linux/linuxbe.h"

/* uapi order after PSAMPLE_ATTR_PROTO (14): USER_COOKIE, SAMPLE_PROBABILITY */
#define LINUXBE_PSAMPLE_ATTR_PROBABILITY 16
#define LINUXBE_PSAMPLE_ATTR_MAX	 16

int linuxbe_psample_parse(const struct nlmsghdr *nlh, size_t len, struct linuxbe_sample *out,
			  char *err, size_t errlen)
{
	const struct nlattr *tb[LINUXBE_PSAMPLE_ATTR_MAX + 1];
	const struct genlmsghdr *g;
	char e[200];
	uint16_t v16;
	uint32_t v32;

	memset(out, 0, sizeof *out);
	out->iifindex = out->oifindex = UINT32_MAX;
	out->orig_size = UINT32_MAX;
	out->out_tc = UINT32_MAX;
	out->proto = UINT32_MAX;
	out->group = UINT32_MAX;
	out->out_tc_occ = out->latency_ns = out->t_ns = BSF_UNKNOWN;
	if (linuxbe_msg_table(nlh, len, GENL_HDRLEN, tb, LINUXBE_PSAMPLE_ATTR_MAX, e, sizeof e) < 0)
		goto bad;
	g = mnl_nlmsg_get_payload(nlh);
	if (g->cmd != PSAMPLE_CMD_SAMPLE) {
		snprintf(e, sizeof e, "command %u is not a sample (%u)", g->cmd,
			 PSAMPLE_CMD_SAMPLE);
		goto bad;
	}
	if (tb[PSAMPLE_ATTR_IIFINDEX]) {
		if (linuxbe_attr_u16(tb[PSAMPLE_ATTR_IIFINDEX], &v16, "PSAMPLE_ATTR_IIFINDEX", e,
				     sizeof e) < 0)
			goto bad;
		out->iifindex = v16;
	}
	if (tb[PSAMPLE_ATTR_OIFINDEX]) {
		if (linuxbe_attr_u16(tb[PSAMPLE_ATTR_OIFINDEX], &v16, "PSAMPLE_ATTR_OIFINDEX", e,
				     sizeof e) < 0)
			goto bad;
		out->oifindex = v16;
	}
	if (tb[PSAMPLE_ATTR_ORIGSIZE] &&
	    linuxbe_attr_u32(tb[PSAMPLE_ATTR_ORIGSIZE], &out->orig_size, "PSAMPLE_ATTR_ORIGSIZE", e,
			     sizeof e) < 0)
		goto bad;
	if (tb[PSAMPLE_ATTR_SAMPLE_GROUP] &&
	    linuxbe_attr_u32(tb[PSAMPLE_ATTR_SAMPLE_GROUP], &out->group,
			     "PSAMPLE_ATTR_SAMPLE_GROUP", e, sizeof e) < 0)
		goto bad;
	if (tb[PSAMPLE_ATTR_GROUP_SEQ]) {
		if (linuxbe_attr_u32(tb[PSAMPLE_ATTR_GROUP_SEQ], &out->seq,
				     "PSAMPLE_ATTR_GROUP_SEQ", e, sizeof e) < 0)
			goto bad;
		out->has_seq = 1;
	}
	if (!tb[PSAMPLE_ATTR_SAMPLE_RATE]) {
		snprintf(e, sizeof e, "no PSAMPLE_ATTR_SAMPLE_RATE");
		goto bad;
	}
	if (linuxbe_attr_u32(tb[PSAMPLE_ATTR_SAMPLE_RATE], &v32, "PSAMPLE_ATTR_SAMPLE_RATE", e,
			     sizeof e) < 0)
		goto bad;
	if (tb[LINUXBE_PSAMPLE_ATTR_PROBABILITY]) {
		out->probability = 1;
		out->rate = v32 ? (uint32_t)(((uint64_t)UINT32_MAX + v32 / 2) / v32) : 0;
	} else {
		out->rate = v32;
	}
	if (tb[PSAMPLE_ATTR_OUT_TC]) {
		if (linuxbe_attr_u16(tb[PSAMPLE_ATTR_OUT_TC], &v16, "PSAMPLE_ATTR_OUT_TC", e,
				     sizeof e) < 0)
			goto bad;
		out->out_tc = v16;
	}
	if (tb[PSAMPLE_ATTR_OUT_TC_OCC] &&
	    linuxbe_attr_u64(tb[PSAMPLE_ATTR_OUT_TC_OCC], &out->out_tc_occ,
			     "PSAMPLE_ATTR_OUT_TC_OCC", e, sizeof e) < 0)
		goto bad;
	if (tb[PSAMPLE_ATTR_LATENCY] && linuxbe_attr_u64(tb[PSAMPLE_ATTR_LATENCY], &out->latency_ns,
							 "PSAMPLE_ATTR_LATENCY", e, sizeof e) < 0)
		goto bad;
	if (tb[PSAMPLE_ATTR_TIMESTAMP] &&
	    linuxbe_attr_u64(tb[PSAMPLE_ATTR_TIMESTAMP], &out->t_ns, "PSAMPLE_ATTR_TIMESTAMP", e,
			     sizeof e) < 0)
		goto bad;
	if (tb[PSAMPLE_ATTR_PROTO]) {
		if (linuxbe_attr_u16(tb[PSAMPLE_ATTR_PROTO], &v16, "PSAMPLE_ATTR_PROTO", e,
				     sizeof e) < 0)
			goto bad;
		out->proto = v16;
	}
	if (tb[PSAMPLE_ATTR_DATA]) {
		out->data = mnl_attr_get_payload(tb[PSAMPLE_ATTR_DATA]);
		out->data_len = mnl_attr_get_payload_len(tb[PSAMPLE_ATTR_DATA]);
	}
	return 0;
bad:
	snprintf(err, errlen, "psample message: %s", e);
	return -1;
}
