/*
 * qdisc.c - the qdisc source's parser: an RTM_NEWQDISC or RTM_NEWTCLASS
 * message to struct linuxbe_tc: kind, handle, parent, the queue statistics
 * of TCA_STATS2 (qlen, backlog, drops, overlimits; all u32 in the kernel),
 * the limit from TCA_OPTIONS and, where the kind reports one, the queue
 * delay from its xstats.
 *
 * Limits by kind (what the BST percentage is computed against):
 *   pfifo, pfifo_head_drop  struct tc_fifo_qopt.limit, packets
 *   bfifo                   struct tc_fifo_qopt.limit, bytes
 *   tbf                     TCA_TBF_PARMS tc_tbf_qopt.limit, bytes
 *   fq_codel                TCA_FQ_CODEL_LIMIT, packets
 *   codel                   TCA_CODEL_LIMIT, packets
 *   pie                     TCA_PIE_LIMIT, packets
 *   fq                      TCA_FQ_PLIMIT, packets
 *   pfifo_fast              none here: the device's tx_queue_len (packets),
 *                           filled in by the caller from the link
 *   htb, mq, others         none (their leaves hold the packets)
 * Delay (xstats): codel ldelay and pie delay, both microseconds as the
 * kernel fills them (pie's header comment says ms; pie_dump_stats divides
 * ns by NSEC_PER_USEC); cake: the largest TCA_CAKE_TIN_STATS_PEAK_DELAY_US
 * of its tins.  fq_codel's qdisc-level xstats have no delay (only its
 * per-flow class stats do): unknown.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/gen_stats.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include "agent/linux/linuxbe.h"

static int nested_u32(const struct nlattr *opt, unsigned type, unsigned max, uint32_t *v,
		      const char *what, char *err, size_t errlen)
{
	const struct nlattr *tb[32];

	if (max >= 32)
		max = 31;
	if (linuxbe_attr_table(mnl_attr_get_payload(opt), mnl_attr_get_payload_len(opt), tb, max,
			       err, errlen) < 0)
		return -1;
	if (type <= max && tb[type])
		return linuxbe_attr_u32(tb[type], v, what, err, errlen);
	return 0;
}

static int parse_options(struct linuxbe_tc *t, const struct nlattr *opt, char *err, size_t errlen)
{
	const char *k = t->kind;
	uint32_t v = UINT32_MAX;

	if (strcmp(k, "pfifo") == 0 || strcmp(k, "bfifo") == 0 ||
	    strcmp(k, "pfifo_head_drop") == 0) {
		if (linuxbe_attr_u32(opt, &v, "TCA_OPTIONS (tc_fifo_qopt)", err, errlen) < 0)
			return -1;
		t->limit_unit = k[0] == 'b' ? LINUXBE_LIMIT_BYTES : LINUXBE_LIMIT_PACKETS;
	} else if (strcmp(k, "tbf") == 0) {
		const struct nlattr *tb[TCA_TBF_MAX + 1];
		struct tc_tbf_qopt q;

		if (linuxbe_attr_table(mnl_attr_get_payload(opt), mnl_attr_get_payload_len(opt), tb,
				       TCA_TBF_MAX, err, errlen) < 0)
			return -1;
		if (!tb[TCA_TBF_PARMS])
			return 0;
		if (mnl_attr_get_payload_len(tb[TCA_TBF_PARMS]) < sizeof q) {
			snprintf(err, errlen, "attribute TCA_TBF_PARMS: %u bytes, %zu expected",
				 (unsigned)mnl_attr_get_payload_len(tb[TCA_TBF_PARMS]), sizeof q);
			return -1;
		}
		memcpy(&q, mnl_attr_get_payload(tb[TCA_TBF_PARMS]), sizeof q);
		v = q.limit;
		t->limit_unit = LINUXBE_LIMIT_BYTES;
	} else if (strcmp(k, "fq_codel") == 0) {
		if (nested_u32(opt, TCA_FQ_CODEL_LIMIT, TCA_FQ_CODEL_MAX, &v, "TCA_FQ_CODEL_LIMIT",
			       err, errlen) < 0)
			return -1;
		t->limit_unit = LINUXBE_LIMIT_PACKETS;
	} else if (strcmp(k, "codel") == 0) {
		if (nested_u32(opt, TCA_CODEL_LIMIT, TCA_CODEL_MAX, &v, "TCA_CODEL_LIMIT", err,
			       errlen) < 0)
			return -1;
		t->limit_unit = LINUXBE_LIMIT_PACKETS;
	} else if (strcmp(k, "pie") == 0) {
		if (nested_u32(opt, TCA_PIE_LIMIT, TCA_PIE_MAX, &v, "TCA_PIE_LIMIT", err, errlen) <
		    0)
			return -1;
		t->limit_unit = LINUXBE_LIMIT_PACKETS;
	} else if (strcmp(k, "fq") == 0) {
		if (nested_u32(opt, TCA_FQ_PLIMIT, TCA_FQ_MAX, &v, "TCA_FQ_PLIMIT", err, errlen) <
		    0)
			return -1;
		t->limit_unit = LINUXBE_LIMIT_PACKETS;
	} else {
		return 0;
	}
	t->limit = v;
	if (v == UINT32_MAX)
		t->limit_unit = LINUXBE_LIMIT_NONE;
	return 0;
}

static int parse_xstats(struct linuxbe_tc *t, const struct nlattr *x, char *err, size_t errlen)
{
	size_t n = mnl_attr_get_payload_len(x);
	const uint8_t *p = mnl_attr_get_payload(x);

	if (strcmp(t->kind, "codel") == 0 && !t->is_class) {
		struct tc_codel_xstats cx;

		if (n < sizeof cx) {
			snprintf(err, errlen, "codel xstats: %zu bytes, %zu expected", n,
				 sizeof cx);
			return -1;
		}
		memcpy(&cx, p, sizeof cx);
		t->delay_ns = (uint64_t)cx.ldelay * 1000u;
	} else if (strcmp(t->kind, "cake") == 0 && !t->is_class) {
		const struct nlattr *cs[TCA_CAKE_STATS_MAX + 1], *tin;
		uint64_t best = BSF_UNKNOWN;

		if (linuxbe_attr_table(p, n, cs, TCA_CAKE_STATS_MAX, err, errlen) < 0)
			return -1;
		if (!cs[TCA_CAKE_STATS_TIN_STATS])
			return 0;
		mnl_attr_for_each_nested(tin, cs[TCA_CAKE_STATS_TIN_STATS])
		{
			const struct nlattr *ts[TCA_CAKE_TIN_STATS_MAX + 1];
			uint32_t us;

			if (linuxbe_attr_table(mnl_attr_get_payload(tin),
					       mnl_attr_get_payload_len(tin), ts,
					       TCA_CAKE_TIN_STATS_MAX, err, errlen) < 0)
				return -1;
			if (!ts[TCA_CAKE_TIN_STATS_PEAK_DELAY_US])
				continue;
			if (linuxbe_attr_u32(ts[TCA_CAKE_TIN_STATS_PEAK_DELAY_US], &us,
					     "TCA_CAKE_TIN_STATS_PEAK_DELAY_US", err, errlen) < 0)
				return -1;
			if (best == BSF_UNKNOWN || (uint64_t)us * 1000u > best)
				best = (uint64_t)us * 1000u;
		}
		t->delay_ns = best;
	} else if (strcmp(t->kind, "pie") == 0 && !t->is_class) {
		struct tc_pie_xstats px;

		if (n < offsetof(struct tc_pie_xstats, delay) + sizeof px.delay) {
			snprintf(err, errlen, "pie xstats: %zu bytes, %zu expected", n,
				 offsetof(struct tc_pie_xstats, delay) + sizeof px.delay);
			return -1;
		}
		memcpy(&px.delay, p + offsetof(struct tc_pie_xstats, delay), sizeof px.delay);
		t->delay_ns = (uint64_t)px.delay * 1000u;
	}
	return 0;
}

int linuxbe_tc_parse(const struct nlmsghdr *nlh, size_t len, struct linuxbe_tc *out, char *err,
		     size_t errlen)
{
	const struct nlattr *tb[TCA_MAX + 1];
	const struct tcmsg *tcm;
	char e[200];

	memset(out, 0, sizeof *out);
	out->limit = UINT32_MAX;
	out->bytes = out->packets = BSF_UNKNOWN;
	out->delay_ns = BSF_UNKNOWN;
	if (linuxbe_msg_table(nlh, len, sizeof *tcm, tb, TCA_MAX, e, sizeof e) < 0) {
		snprintf(err, errlen, "tc message: %s", e);
		return -1;
	}
	tcm = mnl_nlmsg_get_payload(nlh);
	out->is_class = nlh->nlmsg_type == RTM_NEWTCLASS || nlh->nlmsg_type == RTM_DELTCLASS;
	out->ifindex = (uint32_t)tcm->tcm_ifindex;
	out->handle = tcm->tcm_handle;
	out->parent = tcm->tcm_parent;
	if (tb[TCA_KIND])
		linuxbe_attr_str(tb[TCA_KIND], out->kind, sizeof out->kind);
	if (tb[TCA_OPTIONS] && parse_options(out, tb[TCA_OPTIONS], e, sizeof e) < 0)
		goto bad;
	if (tb[TCA_STATS2]) {
		const struct nlattr *st[TCA_STATS_MAX + 1];

		if (linuxbe_attr_table(mnl_attr_get_payload(tb[TCA_STATS2]),
				       mnl_attr_get_payload_len(tb[TCA_STATS2]), st, TCA_STATS_MAX,
				       e, sizeof e) < 0)
			goto bad;
		if (st[TCA_STATS_QUEUE]) {
			struct gnet_stats_queue q;

			if (mnl_attr_get_payload_len(st[TCA_STATS_QUEUE]) < sizeof q) {
				snprintf(e, sizeof e,
					 "attribute TCA_STATS_QUEUE: %u bytes, %zu expected",
					 (unsigned)mnl_attr_get_payload_len(st[TCA_STATS_QUEUE]),
					 sizeof q);
				goto bad;
			}
			memcpy(&q, mnl_attr_get_payload(st[TCA_STATS_QUEUE]), sizeof q);
			out->has_queue = 1;
			out->qlen = q.qlen;
			out->backlog = q.backlog;
			out->drops = q.drops;
			out->requeues = q.requeues;
			out->overlimits = q.overlimits;
		}
		if (st[TCA_STATS_BASIC]) {
			struct gnet_stats_basic b;

			/* 12 bytes on the wire (the kernel copies the packed
			 * size), 16 with this compiler's padding */
			if (mnl_attr_get_payload_len(st[TCA_STATS_BASIC]) < 12) {
				snprintf(e, sizeof e,
					 "attribute TCA_STATS_BASIC: %u bytes, 12 expected",
					 (unsigned)mnl_attr_get_payload_len(st[TCA_STATS_BASIC]));
				goto bad;
			}
			memset(&b, 0, sizeof b);
			memcpy(&b, mnl_attr_get_payload(st[TCA_STATS_BASIC]), 12);
			out->bytes = b.bytes;
			out->packets = b.packets;
		}
		if (st[TCA_STATS_PKT64] && linuxbe_attr_u64(st[TCA_STATS_PKT64], &out->packets,
							    "TCA_STATS_PKT64", e, sizeof e) < 0)
			goto bad;
		if (st[TCA_STATS_APP] && parse_xstats(out, st[TCA_STATS_APP], e, sizeof e) < 0)
			goto bad;
	} else if (tb[TCA_XSTATS] && parse_xstats(out, tb[TCA_XSTATS], e, sizeof e) < 0) {
		goto bad;
	}
	return 0;
bad:
	snprintf(err, errlen, "tc message (%s %x:%x ifindex %u): %s",
		 out->kind[0] ? out->kind : "?", out->handle >> 16, out->handle & 0xffff,
		 out->ifindex, e);
	return -1;
}
