/*
 * test_linux_parse.c - the linux backend's parsers against netlink messages
 * built by hand from the kernel's UAPI definitions (tests/nlbuild.h): link,
 * qdisc/class (htb, mq, tbf, pfifo, bfifo, fq_codel, codel), NET_DM
 * software and hardware alerts and stats, psample with and without the
 * egress-queue metadata and the probability flag, devlink shared-buffer
 * replies with and without occupancy; malformed and truncated messages;
 * the reason table; peak windows and counter wrap.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <linux/devlink.h>
#include <linux/gen_stats.h>
#include <linux/genetlink.h>
#include <linux/if.h>
#include <linux/if_link.h>
#include <linux/net_dropmon.h>
#include <linux/pkt_sched.h>
#include <linux/psample.h>
#include <linux/rtnetlink.h>

#include "agent/linux/linuxbe.h"
#include "agent/linux/tests/nlbuild.h"
#include "proto/sflow_drops.h"

static char err[256];

static void genl_start(struct nlb *b, uint16_t family, uint8_t cmd)
{
	struct genlmsghdr g = {cmd, 1, 0};

	nlb_start(b, family, &g, sizeof g);
}

/* ---------------------------------------------------------------- link */

START_TEST(link_stats64)
{
	struct nlb b;
	struct ifinfomsg ifi;
	struct rtnl_link_stats64 st;
	struct linuxbe_link l;
	const struct nlmsghdr *m;

	memset(&ifi, 0, sizeof ifi);
	ifi.ifi_index = 7;
	ifi.ifi_flags = IFF_UP | IFF_RUNNING;
	memset(&st, 0, sizeof st);
	st.rx_packets = 1000;
	st.tx_packets = 2000;
	st.rx_bytes = 64000;
	st.tx_bytes = 128000;
	st.multicast = 100;
	st.tx_dropped = 3;
	st.rx_nohandler = 9;
	nlb_start(&b, RTM_NEWLINK, &ifi, sizeof ifi);
	nlb_str(&b, IFLA_IFNAME, "swp1");
	nlb_u8(&b, IFLA_OPERSTATE, 6);
	nlb_u32(&b, IFLA_TXQLEN, 1000);
	nlb_attr(&b, IFLA_PHYS_SWITCH_ID, "\x01\x02\x03\x04", 4);
	nlb_nest_start(&b, IFLA_LINKINFO);
	nlb_str(&b, IFLA_INFO_KIND, "veth");
	nlb_nest_end(&b);
	nlb_attr(&b, IFLA_STATS64, &st, sizeof st);
	m = nlb_end(&b);
	ck_assert_int_eq(linuxbe_link_parse(m, b.len, &l, err, sizeof err), 0);
	ck_assert_uint_eq(l.ifindex, 7);
	ck_assert_str_eq(l.name, "swp1");
	ck_assert_uint_eq(l.operstate, 6);
	ck_assert_uint_eq(l.txqlen, 1000);
	ck_assert_int_eq(l.switchdev, 1);
	ck_assert_str_eq(l.kind, "veth");
	ck_assert_int_eq(l.has_stats, 1);
	ck_assert_uint_eq(l.rx_packets, 1000);
	ck_assert_uint_eq(l.tx_bytes, 128000);
	ck_assert_uint_eq(l.multicast, 100);
	ck_assert_uint_eq(l.tx_dropped, 3);
	ck_assert_uint_eq(l.rx_nohandler, 9);
	ck_assert(l.flags & IFF_UP);
}
END_TEST

START_TEST(link_short_stats)
{
	struct nlb b;
	struct ifinfomsg ifi;
	uint8_t st[40];
	struct linuxbe_link l;
	const struct nlmsghdr *m;

	memset(&ifi, 0, sizeof ifi);
	memset(st, 0, sizeof st);
	ifi.ifi_index = 2;
	nlb_start(&b, RTM_NEWLINK, &ifi, sizeof ifi);
	nlb_attr(&b, IFLA_STATS64, st, sizeof st);
	m = nlb_end(&b);
	ck_assert_int_eq(linuxbe_link_parse(m, b.len, &l, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "IFLA_STATS64"));
	ck_assert_ptr_nonnull(strstr(err, "ifindex 2"));
}
END_TEST

/* --------------------------------------------------------------- qdisc */

static void tc_start(struct nlb *b, uint16_t type, int ifindex, uint32_t handle, uint32_t parent,
		     const char *kind)
{
	struct tcmsg t;

	memset(&t, 0, sizeof t);
	t.tcm_ifindex = ifindex;
	t.tcm_handle = handle;
	t.tcm_parent = parent;
	nlb_start(b, type, &t, sizeof t);
	nlb_str(b, TCA_KIND, kind);
}

static void tc_stats(struct nlb *b, uint32_t qlen, uint32_t backlog, uint32_t drops,
		     const void *app, size_t applen)
{
	struct gnet_stats_queue q = {qlen, backlog, drops, 0, 17};
	uint8_t basic[12];
	uint64_t bytes = 9821462;
	uint32_t pkts = 6811;

	memcpy(basic, &bytes, 8);
	memcpy(basic + 8, &pkts, 4);
	nlb_nest_start(b, TCA_STATS2);
	nlb_attr(b, TCA_STATS_BASIC, basic, sizeof basic);
	nlb_attr(b, TCA_STATS_QUEUE, &q, sizeof q);
	if (app)
		nlb_attr(b, TCA_STATS_APP, app, applen);
	nlb_nest_end(b);
}

START_TEST(tc_bfifo_pfifo)
{
	struct nlb b;
	struct tc_fifo_qopt fo = {65536};
	struct linuxbe_tc t;
	const struct nlmsghdr *m;

	tc_start(&b, RTM_NEWQDISC, 4, 0x100000, 0x10010, "bfifo");
	nlb_attr(&b, TCA_OPTIONS, &fo, sizeof fo);
	tc_stats(&b, 45, 64890, 222515, NULL, 0);
	m = nlb_end(&b);
	ck_assert_int_eq(linuxbe_tc_parse(m, b.len, &t, err, sizeof err), 0);
	ck_assert_str_eq(t.kind, "bfifo");
	ck_assert_int_eq(t.is_class, 0);
	ck_assert_uint_eq(t.ifindex, 4);
	ck_assert_uint_eq(t.handle, 0x100000);
	ck_assert_uint_eq(t.parent, 0x10010);
	ck_assert_uint_eq(t.limit, 65536);
	ck_assert_uint_eq(t.limit_unit, LINUXBE_LIMIT_BYTES);
	ck_assert_uint_eq(t.backlog, 64890);
	ck_assert_uint_eq(t.qlen, 45);
	ck_assert_uint_eq(t.drops, 222515);
	ck_assert_uint_eq(t.overlimits, 17);
	ck_assert_uint_eq(t.bytes, 9821462);
	ck_assert_uint_eq(t.packets, 6811);
	ck_assert_uint_eq(t.delay_ns, BSF_UNKNOWN);

	fo.limit = 50;
	tc_start(&b, RTM_NEWQDISC, 4, 0x200000, 0x10020, "pfifo");
	nlb_attr(&b, TCA_OPTIONS, &fo, sizeof fo);
	tc_stats(&b, 50, 72100, 144178, NULL, 0);
	m = nlb_end(&b);
	ck_assert_int_eq(linuxbe_tc_parse(m, b.len, &t, err, sizeof err), 0);
	ck_assert_uint_eq(t.limit, 50);
	ck_assert_uint_eq(t.limit_unit, LINUXBE_LIMIT_PACKETS);
	ck_assert_uint_eq(t.qlen, 50);
}
END_TEST

START_TEST(tc_htb_mq)
{
	struct nlb b;
	struct tc_htb_opt ho;
	struct linuxbe_tc t;
	const struct nlmsghdr *m;

	memset(&ho, 0, sizeof ho);
	tc_start(&b, RTM_NEWTCLASS, 4, 0x10010, 0x10001, "htb");
	nlb_nest_start(&b, TCA_OPTIONS);
	nlb_attr(&b, TCA_HTB_PARMS, &ho, sizeof ho);
	nlb_nest_end(&b);
	tc_stats(&b, 0, 0, 222515, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 20);
	m = nlb_end(&b);
	ck_assert_int_eq(linuxbe_tc_parse(m, b.len, &t, err, sizeof err), 0);
	ck_assert_int_eq(t.is_class, 1);
	ck_assert_str_eq(t.kind, "htb");
	ck_assert_uint_eq(t.limit, UINT32_MAX);
	ck_assert_uint_eq(t.limit_unit, LINUXBE_LIMIT_NONE);
	ck_assert_uint_eq(t.drops, 222515);

	tc_start(&b, RTM_NEWQDISC, 5, 0x80000000u, 0xffffffffu, "mq");
	tc_stats(&b, 3, 4500, 0, NULL, 0);
	m = nlb_end(&b);
	ck_assert_int_eq(linuxbe_tc_parse(m, b.len, &t, err, sizeof err), 0);
	ck_assert_str_eq(t.kind, "mq");
	ck_assert_uint_eq(t.parent, TC_H_ROOT);
	ck_assert_uint_eq(t.backlog, 4500);
}
END_TEST

START_TEST(tc_tbf)
{
	struct nlb b;
	struct tc_tbf_qopt q;
	struct linuxbe_tc t;
	const struct nlmsghdr *m;

	memset(&q, 0, sizeof q);
	q.limit = 30720;
	q.buffer = 12345;
	tc_start(&b, RTM_NEWQDISC, 6, 0x10000, TC_H_ROOT, "tbf");
	nlb_nest_start(&b, TCA_OPTIONS);
	nlb_attr(&b, TCA_TBF_PARMS, &q, sizeof q);
	nlb_nest_end(&b);
	tc_stats(&b, 21, 30218, 346404, NULL, 0);
	m = nlb_end(&b);
	ck_assert_int_eq(linuxbe_tc_parse(m, b.len, &t, err, sizeof err), 0);
	ck_assert_uint_eq(t.limit, 30720);
	ck_assert_uint_eq(t.limit_unit, LINUXBE_LIMIT_BYTES);
	ck_assert_uint_eq(t.backlog, 30218);
	ck_assert_uint_eq(t.drops, 346404);

	/* TCA_TBF_PARMS shorter than struct tc_tbf_qopt */
	tc_start(&b, RTM_NEWQDISC, 6, 0x10000, TC_H_ROOT, "tbf");
	nlb_nest_start(&b, TCA_OPTIONS);
	nlb_attr(&b, TCA_TBF_PARMS, &q, 20);
	nlb_nest_end(&b);
	m = nlb_end(&b);
	ck_assert_int_eq(linuxbe_tc_parse(m, b.len, &t, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "TCA_TBF_PARMS"));
	ck_assert_ptr_nonnull(strstr(err, "tbf 1:0"));
}
END_TEST

START_TEST(tc_fq_codel_codel)
{
	struct nlb b;
	struct tc_fq_codel_xstats fx;
	struct tc_codel_xstats cx;
	struct linuxbe_tc t;
	const struct nlmsghdr *m;

	memset(&fx, 0, sizeof fx);
	fx.type = TCA_FQ_CODEL_XSTATS_QDISC;
	fx.qdisc_stats.maxpacket = 1514;
	fx.qdisc_stats.memory_usage = 4096;
	tc_start(&b, RTM_NEWQDISC, 3, 0, TC_H_ROOT, "fq_codel");
	nlb_nest_start(&b, TCA_OPTIONS);
	nlb_u32(&b, TCA_FQ_CODEL_TARGET, 4999);
	nlb_u32(&b, TCA_FQ_CODEL_LIMIT, 10240);
	nlb_u32(&b, TCA_FQ_CODEL_FLOWS, 1024);
	nlb_nest_end(&b);
	tc_stats(&b, 2, 3028, 5, &fx, sizeof fx);
	m = nlb_end(&b);
	ck_assert_int_eq(linuxbe_tc_parse(m, b.len, &t, err, sizeof err), 0);
	ck_assert_uint_eq(t.limit, 10240);
	ck_assert_uint_eq(t.limit_unit, LINUXBE_LIMIT_PACKETS);
	ck_assert_uint_eq(t.qlen, 2);
	ck_assert_uint_eq(t.delay_ns, BSF_UNKNOWN); /* no delay at qdisc level */

	memset(&cx, 0, sizeof cx);
	cx.ldelay = 1500; /* us */
	tc_start(&b, RTM_NEWQDISC, 3, 0x10000, TC_H_ROOT, "codel");
	nlb_nest_start(&b, TCA_OPTIONS);
	nlb_u32(&b, TCA_CODEL_LIMIT, 1000);
	nlb_nest_end(&b);
	tc_stats(&b, 0, 0, 0, &cx, sizeof cx);
	m = nlb_end(&b);
	ck_assert_int_eq(linuxbe_tc_parse(m, b.len, &t, err, sizeof err), 0);
	ck_assert_uint_eq(t.limit, 1000);
	ck_assert_uint_eq(t.delay_ns, 1500000);

	/* codel xstats cut short */
	tc_start(&b, RTM_NEWQDISC, 3, 0x10000, TC_H_ROOT, "codel");
	tc_stats(&b, 0, 0, 0, &cx, 8);
	m = nlb_end(&b);
	ck_assert_int_eq(linuxbe_tc_parse(m, b.len, &t, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "codel xstats"));
}
END_TEST

/* cake: the delay is the largest peak delay of its tins */
START_TEST(tc_cake)
{
	struct nlb b;
	struct linuxbe_tc t;
	const struct nlmsghdr *m;

	tc_start(&b, RTM_NEWQDISC, 3, 0x80010000u, TC_H_ROOT, "cake");
	nlb_nest_start(&b, TCA_STATS2);
	nlb_nest_start(&b, TCA_STATS_APP);
	nlb_u32(&b, TCA_CAKE_STATS_MEMORY_USED, 9000);
	nlb_nest_start(&b, TCA_CAKE_STATS_TIN_STATS);
	nlb_nest_start(&b, 1);
	nlb_u32(&b, TCA_CAKE_TIN_STATS_PEAK_DELAY_US, 1200);
	nlb_u32(&b, TCA_CAKE_TIN_STATS_AVG_DELAY_US, 300);
	nlb_nest_end(&b);
	nlb_nest_start(&b, 2);
	nlb_u32(&b, TCA_CAKE_TIN_STATS_PEAK_DELAY_US, 4500);
	nlb_nest_end(&b);
	nlb_nest_start(&b, 3);
	nlb_u32(&b, TCA_CAKE_TIN_STATS_PEAK_DELAY_US, 20);
	nlb_nest_end(&b);
	nlb_nest_end(&b);
	nlb_nest_end(&b);
	nlb_nest_end(&b);
	m = nlb_end(&b);
	ck_assert_msg(linuxbe_tc_parse(m, b.len, &t, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(t.delay_ns, 4500000);

	/* a tin's peak delay of two bytes */
	tc_start(&b, RTM_NEWQDISC, 3, 0x80010000u, TC_H_ROOT, "cake");
	nlb_nest_start(&b, TCA_STATS2);
	nlb_nest_start(&b, TCA_STATS_APP);
	nlb_nest_start(&b, TCA_CAKE_STATS_TIN_STATS);
	nlb_nest_start(&b, 1);
	nlb_u16(&b, TCA_CAKE_TIN_STATS_PEAK_DELAY_US, 7);
	nlb_nest_end(&b);
	nlb_nest_end(&b);
	nlb_nest_end(&b);
	nlb_nest_end(&b);
	m = nlb_end(&b);
	ck_assert_int_eq(linuxbe_tc_parse(m, b.len, &t, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "PEAK_DELAY_US"));
}
END_TEST

START_TEST(tc_malformed)
{
	struct nlb b;
	struct linuxbe_tc t;
	struct gnet_stats_queue q;
	const struct nlmsghdr *m;
	uint8_t *a;

	/* an attribute claiming more bytes than the message holds */
	tc_start(&b, RTM_NEWQDISC, 4, 0x10000, TC_H_ROOT, "pfifo");
	nlb_u32(&b, TCA_OPTIONS, 50);
	m = nlb_end(&b);
	a = b.buf + b.len - 8; /* the TCA_OPTIONS attribute's header */
	a[0] = 200;
	ck_assert_int_eq(linuxbe_tc_parse(m, b.len, &t, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "claims 200 bytes"));

	/* the message header says more than was received */
	tc_start(&b, RTM_NEWQDISC, 4, 0x10000, TC_H_ROOT, "pfifo");
	m = nlb_end(&b);
	ck_assert_int_eq(linuxbe_tc_parse(m, b.len - 4, &t, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "truncated"));

	/* shorter than struct tcmsg */
	{
		struct nlmsghdr h = {sizeof h + 4, RTM_NEWQDISC, 0, 0, 0};
		uint8_t buf[32] = {0};

		memcpy(buf, &h, sizeof h);
		ck_assert_int_eq(
		    linuxbe_tc_parse((const void *)buf, sizeof h + 4, &t, err, sizeof err), -1);
		ck_assert_ptr_nonnull(strstr(err, "shorter than"));
	}

	/* TCA_STATS_QUEUE too short */
	memset(&q, 0, sizeof q);
	tc_start(&b, RTM_NEWQDISC, 4, 0x10000, TC_H_ROOT, "pfifo");
	nlb_nest_start(&b, TCA_STATS2);
	nlb_attr(&b, TCA_STATS_QUEUE, &q, 12);
	nlb_nest_end(&b);
	m = nlb_end(&b);
	ck_assert_int_eq(linuxbe_tc_parse(m, b.len, &t, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "TCA_STATS_QUEUE"));
}
END_TEST

/* ------------------------------------------------------------- dropmon */

static const uint8_t frame[14] = {0x02, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2, 0x08, 0x00};

START_TEST(dropmon_sw)
{
	struct nlb b;
	struct linuxbe_drop d;
	const struct nlmsghdr *m;

	genl_start(&b, 0x1c, NET_DM_CMD_PACKET_ALERT);
	nlb_u16(&b, NET_DM_ATTR_ORIGIN, NET_DM_ORIGIN_SW);
	nlb_u64(&b, NET_DM_ATTR_PC, 0xffffffff81234567ull);
	nlb_str(&b, NET_DM_ATTR_SYMBOL, "__dev_queue_xmit+0xd01/0xf30");
	nlb_nest_start(&b, NET_DM_ATTR_IN_PORT);
	nlb_u32(&b, NET_DM_ATTR_PORT_NETDEV_IFINDEX, 3);
	nlb_nest_end(&b);
	nlb_u64(&b, NET_DM_ATTR_TIMESTAMP, 1700000000123456789ull);
	nlb_u32(&b, NET_DM_ATTR_ORIG_LEN, 1442);
	nlb_u16(&b, NET_DM_ATTR_PROTO, 0x0008);
	nlb_attr(&b, NET_DM_ATTR_PAYLOAD, frame, sizeof frame);
	nlb_str(&b, NET_DM_ATTR_REASON, "QDISC_DROP");
	m = nlb_end(&b);
	ck_assert_int_eq(linuxbe_dropmon_parse(m, b.len, &d, err, sizeof err), 0);
	ck_assert_uint_eq(d.origin, NET_DM_ORIGIN_SW);
	ck_assert_str_eq(d.reason, "QDISC_DROP");
	ck_assert_str_eq(d.symbol, "__dev_queue_xmit+0xd01/0xf30");
	ck_assert_str_eq(d.trap_group, "");
	ck_assert_uint_eq(d.in_ifindex, 3);
	ck_assert_uint_eq(d.t_ns, 1700000000123456789ull);
	ck_assert_uint_eq(d.orig_len, 1442);
	ck_assert_uint_eq(d.proto, 0x0008);
	ck_assert_uint_eq(d.payload_len, 14);
	ck_assert_mem_eq(d.payload, frame, 14);
}
END_TEST

START_TEST(dropmon_hw)
{
	struct nlb b;
	struct linuxbe_drop d;
	const struct nlmsghdr *m;
	uint32_t code, stage;

	genl_start(&b, 0x1c, NET_DM_CMD_PACKET_ALERT);
	nlb_u16(&b, NET_DM_ATTR_ORIGIN, NET_DM_ORIGIN_HW);
	nlb_str(&b, NET_DM_ATTR_HW_TRAP_GROUP_NAME, "buffer_drops");
	nlb_str(&b, NET_DM_ATTR_HW_TRAP_NAME, "tail_drop");
	nlb_nest_start(&b, NET_DM_ATTR_IN_PORT);
	nlb_u32(&b, NET_DM_ATTR_PORT_NETDEV_IFINDEX, 12);
	nlb_str(&b, NET_DM_ATTR_PORT_NETDEV_NAME, "swp3");
	nlb_nest_end(&b);
	nlb_u64(&b, NET_DM_ATTR_TIMESTAMP, 42);
	nlb_u32(&b, NET_DM_ATTR_ORIG_LEN, 60);
	nlb_attr(&b, NET_DM_ATTR_PAYLOAD, frame, sizeof frame);
	m = nlb_end(&b);
	ck_assert_int_eq(linuxbe_dropmon_parse(m, b.len, &d, err, sizeof err), 0);
	ck_assert_uint_eq(d.origin, NET_DM_ORIGIN_HW);
	ck_assert_str_eq(d.trap_group, "buffer_drops");
	ck_assert_str_eq(d.trap_name, "tail_drop");
	ck_assert_str_eq(d.reason, "");
	ck_assert_uint_eq(d.in_ifindex, 12);
	ck_assert_uint_eq(d.proto, UINT32_MAX);
	linuxbe_reason_lookup(d.reason, d.trap_group, d.trap_name, &code, &stage);
	ck_assert_uint_eq(code, 259);
	ck_assert_uint_eq(stage, BSF_STAGE_EGRESS_ADMISSION);
}
END_TEST

START_TEST(dropmon_stats_and_bad)
{
	struct nlb b;
	struct linuxbe_drop d;
	const struct nlmsghdr *m;
	uint64_t lost;

	genl_start(&b, 0x1c, NET_DM_CMD_STATS_NEW);
	nlb_nest_start(&b, NET_DM_ATTR_STATS);
	nlb_u64(&b, NET_DM_ATTR_STATS_DROPPED, 5);
	nlb_nest_end(&b);
	nlb_nest_start(&b, NET_DM_ATTR_HW_STATS);
	nlb_u64(&b, NET_DM_ATTR_STATS_DROPPED, 7);
	nlb_nest_end(&b);
	m = nlb_end(&b);
	ck_assert_int_eq(linuxbe_dropmon_stats_parse(m, b.len, &lost, err, sizeof err), 0);
	ck_assert_uint_eq(lost, 12);

	/* not an alert */
	ck_assert_int_eq(linuxbe_dropmon_parse(m, b.len, &d, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "not a packet alert"));

	/* timestamp of 4 bytes */
	genl_start(&b, 0x1c, NET_DM_CMD_PACKET_ALERT);
	nlb_u32(&b, NET_DM_ATTR_TIMESTAMP, 1);
	m = nlb_end(&b);
	ck_assert_int_eq(linuxbe_dropmon_parse(m, b.len, &d, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "NET_DM_ATTR_TIMESTAMP"));

	/* truncated in the middle of the payload attribute */
	genl_start(&b, 0x1c, NET_DM_CMD_PACKET_ALERT);
	nlb_attr(&b, NET_DM_ATTR_PAYLOAD, frame, sizeof frame);
	m = nlb_end(&b);
	((struct nlmsghdr *)(void *)b.buf)->nlmsg_len -= 8;
	ck_assert_int_eq(linuxbe_dropmon_parse(m, b.len - 8, &d, err, sizeof err), -1);
}
END_TEST

/* ------------------------------------------------------------- psample */

START_TEST(psample_full)
{
	struct nlb b;
	struct linuxbe_sample s;
	const struct nlmsghdr *m;

	genl_start(&b, 0x1d, PSAMPLE_CMD_SAMPLE);
	nlb_u16(&b, PSAMPLE_ATTR_IIFINDEX, 11);
	nlb_u16(&b, PSAMPLE_ATTR_OIFINDEX, 12);
	nlb_u32(&b, PSAMPLE_ATTR_ORIGSIZE, 1500);
	nlb_u32(&b, PSAMPLE_ATTR_SAMPLE_GROUP, 1);
	nlb_u32(&b, PSAMPLE_ATTR_GROUP_SEQ, 77);
	nlb_u32(&b, PSAMPLE_ATTR_SAMPLE_RATE, 4096);
	nlb_attr(&b, PSAMPLE_ATTR_DATA, frame, sizeof frame);
	nlb_u16(&b, PSAMPLE_ATTR_OUT_TC, 9);
	nlb_u64(&b, PSAMPLE_ATTR_OUT_TC_OCC, 123456);
	nlb_u64(&b, PSAMPLE_ATTR_LATENCY, 2500);
	nlb_u64(&b, PSAMPLE_ATTR_TIMESTAMP, 1700000000000000001ull);
	nlb_u16(&b, PSAMPLE_ATTR_PROTO, 0x0008);
	m = nlb_end(&b);
	ck_assert_int_eq(linuxbe_psample_parse(m, b.len, &s, err, sizeof err), 0);
	ck_assert_uint_eq(s.iifindex, 11);
	ck_assert_uint_eq(s.oifindex, 12);
	ck_assert_uint_eq(s.orig_size, 1500);
	ck_assert_uint_eq(s.group, 1);
	ck_assert_int_eq(s.has_seq, 1);
	ck_assert_uint_eq(s.seq, 77);
	ck_assert_uint_eq(s.rate, 4096);
	ck_assert_int_eq(s.probability, 0);
	ck_assert_uint_eq(s.out_tc, 9);
	ck_assert_uint_eq(s.out_tc_occ, 123456);
	ck_assert_uint_eq(s.latency_ns, 2500);
	ck_assert_uint_eq(s.t_ns, 1700000000000000001ull);
	ck_assert_uint_eq(s.data_len, 14);
}
END_TEST

START_TEST(psample_plain_and_probability)
{
	struct nlb b;
	struct linuxbe_sample s;
	const struct nlmsghdr *m;

	/* act_sample: ports, rate, no queue metadata */
	genl_start(&b, 0x1d, PSAMPLE_CMD_SAMPLE);
	nlb_u16(&b, PSAMPLE_ATTR_IIFINDEX, 3);
	nlb_u32(&b, PSAMPLE_ATTR_SAMPLE_GROUP, 2);
	nlb_u32(&b, PSAMPLE_ATTR_SAMPLE_RATE, 100);
	nlb_u32(&b, PSAMPLE_ATTR_ORIGSIZE, 98);
	m = nlb_end(&b);
	ck_assert_int_eq(linuxbe_psample_parse(m, b.len, &s, err, sizeof err), 0);
	ck_assert_uint_eq(s.rate, 100);
	ck_assert_uint_eq(s.oifindex, UINT32_MAX);
	ck_assert_uint_eq(s.out_tc, UINT32_MAX);
	ck_assert_uint_eq(s.out_tc_occ, BSF_UNKNOWN);
	ck_assert_uint_eq(s.latency_ns, BSF_UNKNOWN);
	ck_assert_int_eq(s.has_seq, 0);

	/* probability 1/1000 of UINT32_MAX (4294967) -> 1-in-1000 */
	genl_start(&b, 0x1d, PSAMPLE_CMD_SAMPLE);
	nlb_u32(&b, PSAMPLE_ATTR_SAMPLE_RATE, 4294967);
	nlb_flag(&b, 16 /* PSAMPLE_ATTR_SAMPLE_PROBABILITY */);
	m = nlb_end(&b);
	ck_assert_int_eq(linuxbe_psample_parse(m, b.len, &s, err, sizeof err), 0);
	ck_assert_int_eq(s.probability, 1);
	ck_assert_uint_eq(s.rate, 1000);

	/* no rate at all: refused */
	genl_start(&b, 0x1d, PSAMPLE_CMD_SAMPLE);
	nlb_u16(&b, PSAMPLE_ATTR_IIFINDEX, 3);
	m = nlb_end(&b);
	ck_assert_int_eq(linuxbe_psample_parse(m, b.len, &s, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "SAMPLE_RATE"));

	/* OUT_TC of one byte */
	genl_start(&b, 0x1d, PSAMPLE_CMD_SAMPLE);
	nlb_u32(&b, PSAMPLE_ATTR_SAMPLE_RATE, 10);
	nlb_u8(&b, PSAMPLE_ATTR_OUT_TC, 1);
	m = nlb_end(&b);
	ck_assert_int_eq(linuxbe_psample_parse(m, b.len, &s, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "PSAMPLE_ATTR_OUT_TC"));
}
END_TEST

/* ------------------------------------------------------------- devlink */

static void dl_head(struct nlb *b, uint8_t cmd)
{
	genl_start(b, 0x1e, cmd);
	nlb_str(b, DEVLINK_ATTR_BUS_NAME, "pci");
	nlb_str(b, DEVLINK_ATTR_DEV_NAME, "0000:03:00.0");
}

START_TEST(sb_dumps)
{
	struct nlb b;
	struct linuxbe_sb_rec r;
	const struct nlmsghdr *m;

	dl_head(&b, DEVLINK_CMD_SB_NEW);
	nlb_u32(&b, DEVLINK_ATTR_SB_INDEX, 0);
	nlb_u32(&b, DEVLINK_ATTR_SB_SIZE, 16777216);
	nlb_u16(&b, DEVLINK_ATTR_SB_INGRESS_POOL_COUNT, 4);
	nlb_u16(&b, DEVLINK_ATTR_SB_EGRESS_POOL_COUNT, 4);
	nlb_u16(&b, DEVLINK_ATTR_SB_INGRESS_TC_COUNT, 8);
	nlb_u16(&b, DEVLINK_ATTR_SB_EGRESS_TC_COUNT, 16);
	m = nlb_end(&b);
	ck_assert_int_eq(linuxbe_sb_parse(m, b.len, &r, err, sizeof err), 0);
	ck_assert_uint_eq(r.cmd, DEVLINK_CMD_SB_NEW);
	ck_assert_str_eq(r.bus, "pci");
	ck_assert_str_eq(r.dev, "0000:03:00.0");
	ck_assert_uint_eq(r.sb_index, 0);
	ck_assert_uint_eq(r.size, 16777216);
	ck_assert_uint_eq(r.egress_tcs, 16);
	ck_assert_uint_eq(r.ingress_pools, 4);

	dl_head(&b, DEVLINK_CMD_SB_POOL_NEW);
	nlb_u32(&b, DEVLINK_ATTR_SB_INDEX, 0);
	nlb_u16(&b, DEVLINK_ATTR_SB_POOL_INDEX, 4);
	nlb_u8(&b, DEVLINK_ATTR_SB_POOL_TYPE, DEVLINK_SB_POOL_TYPE_EGRESS);
	nlb_u32(&b, DEVLINK_ATTR_SB_POOL_SIZE, 13768608);
	nlb_u8(&b, DEVLINK_ATTR_SB_POOL_THRESHOLD_TYPE, DEVLINK_SB_THRESHOLD_TYPE_DYNAMIC);
	nlb_u32(&b, DEVLINK_ATTR_SB_POOL_CELL_SIZE, 144);
	m = nlb_end(&b);
	ck_assert_int_eq(linuxbe_sb_parse(m, b.len, &r, err, sizeof err), 0);
	ck_assert_uint_eq(r.pool_index, 4);
	ck_assert_uint_eq(r.pool_type, DEVLINK_SB_POOL_TYPE_EGRESS);
	ck_assert_uint_eq(r.size, 13768608);
	ck_assert_uint_eq(r.threshold_type, DEVLINK_SB_THRESHOLD_TYPE_DYNAMIC);
	ck_assert_uint_eq(r.cell_size, 144);
	ck_assert_uint_eq(r.occ_cur, BSF_UNKNOWN);

	/* tc pool bind with occupancy (mlxsw: bytes) */
	dl_head(&b, DEVLINK_CMD_SB_TC_POOL_BIND_NEW);
	nlb_u32(&b, DEVLINK_ATTR_PORT_INDEX, 1);
	nlb_u32(&b, DEVLINK_ATTR_SB_INDEX, 0);
	nlb_u16(&b, DEVLINK_ATTR_SB_TC_INDEX, 9);
	nlb_u8(&b, DEVLINK_ATTR_SB_POOL_TYPE, DEVLINK_SB_POOL_TYPE_EGRESS);
	nlb_u16(&b, DEVLINK_ATTR_SB_POOL_INDEX, 4);
	nlb_u32(&b, DEVLINK_ATTR_SB_THRESHOLD, 13);
	nlb_u32(&b, DEVLINK_ATTR_SB_OCC_CUR, 2880);
	nlb_u32(&b, DEVLINK_ATTR_SB_OCC_MAX, 144000);
	m = nlb_end(&b);
	ck_assert_int_eq(linuxbe_sb_parse(m, b.len, &r, err, sizeof err), 0);
	ck_assert_uint_eq(r.port_index, 1);
	ck_assert_uint_eq(r.tc_index, 9);
	ck_assert_uint_eq(r.threshold, 13);
	ck_assert_uint_eq(r.occ_cur, 2880);
	ck_assert_uint_eq(r.occ_max, 144000);

	/* port pool without occupancy (driver without sb_occ_port_pool_get) */
	dl_head(&b, DEVLINK_CMD_SB_PORT_POOL_NEW);
	nlb_u32(&b, DEVLINK_ATTR_PORT_INDEX, 1);
	nlb_u32(&b, DEVLINK_ATTR_SB_INDEX, 0);
	nlb_u16(&b, DEVLINK_ATTR_SB_POOL_INDEX, 0);
	nlb_u32(&b, DEVLINK_ATTR_SB_THRESHOLD, 10);
	m = nlb_end(&b);
	ck_assert_int_eq(linuxbe_sb_parse(m, b.len, &r, err, sizeof err), 0);
	ck_assert_uint_eq(r.threshold, 10);
	ck_assert_uint_eq(r.occ_cur, BSF_UNKNOWN);
	ck_assert_uint_eq(r.occ_max, BSF_UNKNOWN);
	ck_assert_uint_eq(r.tc_index, UINT32_MAX);

	dl_head(&b, DEVLINK_CMD_PORT_NEW);
	nlb_u32(&b, DEVLINK_ATTR_PORT_INDEX, 1);
	nlb_u32(&b, DEVLINK_ATTR_PORT_NETDEV_IFINDEX, 42);
	nlb_u16(&b, DEVLINK_ATTR_PORT_FLAVOUR, DEVLINK_PORT_FLAVOUR_PHYSICAL);
	m = nlb_end(&b);
	ck_assert_int_eq(linuxbe_sb_parse(m, b.len, &r, err, sizeof err), 0);
	ck_assert_uint_eq(r.netdev_ifindex, 42);
	ck_assert_uint_eq(r.flavour, DEVLINK_PORT_FLAVOUR_PHYSICAL);

	/* SB_OCC_CUR of two bytes */
	dl_head(&b, DEVLINK_CMD_SB_TC_POOL_BIND_NEW);
	nlb_u16(&b, DEVLINK_ATTR_SB_OCC_CUR, 1);
	m = nlb_end(&b);
	ck_assert_int_eq(linuxbe_sb_parse(m, b.len, &r, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "DEVLINK_ATTR_SB_OCC_CUR"));
}
END_TEST

START_TEST(sb_alloc)
{
	/* static: the threshold is the allocation in bytes */
	ck_assert_uint_eq(linuxbe_sb_alloc_bytes(DEVLINK_SB_THRESHOLD_TYPE_STATIC, 70000, 1000000),
			  70000);
	/* dynamic th=10: alpha=1 -> 1/2 of the pool */
	ck_assert_uint_eq(linuxbe_sb_alloc_bytes(DEVLINK_SB_THRESHOLD_TYPE_DYNAMIC, 10, 1000000),
			  500000);
	/* th=12: alpha=4 -> 4/5 */
	ck_assert_uint_eq(linuxbe_sb_alloc_bytes(DEVLINK_SB_THRESHOLD_TYPE_DYNAMIC, 12, 1000000),
			  800000);
	/* th=9: alpha=1/2 -> 1/3 */
	ck_assert_uint_eq(linuxbe_sb_alloc_bytes(DEVLINK_SB_THRESHOLD_TYPE_DYNAMIC, 9, 900000),
			  300000);
	ck_assert_uint_eq(linuxbe_sb_alloc_bytes(DEVLINK_SB_THRESHOLD_TYPE_DYNAMIC, 21, 900000),
			  BSF_UNKNOWN);
	ck_assert_uint_eq(
	    linuxbe_sb_alloc_bytes(DEVLINK_SB_THRESHOLD_TYPE_DYNAMIC, 10, BSF_UNKNOWN),
	    BSF_UNKNOWN);
}
END_TEST

/* ------------------------------------------------------------- reasons */

START_TEST(reasons_valid_codes)
{
	const struct {
		const struct linuxbe_reason *t;
		size_t n;
	} tabs[] = {{linuxbe_sw_reasons, linuxbe_n_sw_reasons},
		    {linuxbe_hw_traps, linuxbe_n_hw_traps},
		    {linuxbe_hw_groups, linuxbe_n_hw_groups}};
	size_t i, j;

	for (i = 0; i < 3; i++) {
		ck_assert_uint_gt(tabs[i].n, 0);
		for (j = 0; j < tabs[i].n; j++) {
			ck_assert_msg(sflow_drop_name(tabs[i].t[j].code) != NULL,
				      "%s -> %u is not an sFlow drop code", tabs[i].t[j].name,
				      tabs[i].t[j].code);
			ck_assert_uint_le(tabs[i].t[j].stage, BSF_STAGE_WRED);
		}
	}
}
END_TEST

START_TEST(reasons_lookup)
{
	uint32_t c, s;

	linuxbe_reason_lookup("QDISC_DROP", "", "", &c, &s);
	ck_assert_uint_eq(c, 259);
	ck_assert_uint_eq(s, BSF_STAGE_EGRESS_ADMISSION);
	linuxbe_reason_lookup("QDISC_CONGESTED", NULL, NULL, &c, &s);
	ck_assert_uint_eq(c, 260);
	ck_assert_uint_eq(s, BSF_STAGE_WRED);
	linuxbe_reason_lookup("TC_EGRESS", "", "", &c, &s);
	ck_assert_uint_eq(c, 258);
	linuxbe_reason_lookup("NETFILTER_DROP", "", "", &c, &s);
	ck_assert_uint_eq(c, 258);
	linuxbe_reason_lookup("NO_SOCKET", "", "", &c, &s);
	ck_assert_uint_eq(c, 3);
	linuxbe_reason_lookup("IP_OUTNOROUTES", "", "", &c, &s);
	ck_assert_uint_eq(c, 6);
	linuxbe_reason_lookup("NEIGH_QUEUEFULL", "", "", &c, &s);
	ck_assert_uint_eq(c, 279);
	linuxbe_reason_lookup("PKT_TOO_BIG", "", "", &c, &s);
	ck_assert_uint_eq(c, 262);
	linuxbe_reason_lookup("", "l3_drops", "ttl_value_is_too_small", &c, &s);
	ck_assert_uint_eq(c, 257);
	linuxbe_reason_lookup("", "acl_drops", "ingress_flow_action_drop", &c, &s);
	ck_assert_uint_eq(c, 258);
	linuxbe_reason_lookup("", "l3_drops", "blackhole_route", &c, &s);
	ck_assert_uint_eq(c, 269);
	linuxbe_reason_lookup("", "l3_drops", "some_new_trap", &c, &s);
	ck_assert_uint_eq(c, 285);
	linuxbe_reason_lookup("", "buffer_drops", "early_drop", &c, &s);
	ck_assert_uint_eq(c, 260);
	linuxbe_reason_lookup("", "l2_drops", "x", &c, &s);
	ck_assert_uint_eq(c, 284);
	linuxbe_reason_lookup("", "tunnel_drops", "x", &c, &s);
	ck_assert_uint_eq(c, 288);
	/* a prefix is not a match without its '*' */
	linuxbe_reason_lookup("QDISC_DROPX", "", "", &c, &s);
	ck_assert_uint_eq(c, 256);
	linuxbe_reason_lookup("SOMETHING_NEW", "", "", &c, &s);
	ck_assert_uint_eq(c, 256);
	ck_assert_uint_eq(s, BSF_STAGE_UNKNOWN);
	linuxbe_reason_lookup(NULL, NULL, NULL, &c, &s);
	ck_assert_uint_eq(c, 256);
}
END_TEST

/* --------------------------------------------------- peaks and u32 wrap */

START_TEST(peak_windows)
{
	struct linuxbe_peak p;
	struct bsf_buf o;

	memset(&p, 0, sizeof p);
	linuxbe_peak_take(&p, 0, &o, 100, 1);
	ck_assert_uint_eq(o.peak_cells, BSF_UNKNOWN); /* never read */
	linuxbe_peak_fold(&p, 10, 100, 1000);
	linuxbe_peak_fold(&p, 50, 100, 2000);
	linuxbe_peak_fold(&p, 20, 100, 3000);
	linuxbe_peak_take(&p, 0, &o, 100, 1);
	ck_assert_uint_eq(o.peak_cells, 50);
	ck_assert_uint_eq(o.peak_bytes, 50);
	ck_assert_uint_eq(o.cur_cells, 20);
	ck_assert_uint_eq(o.peak_time_ns, 2000);
	ck_assert_uint_eq(o.alloc_cells, 100);
	/* window 0 restarted at the current value; window 1 kept its peak */
	linuxbe_peak_take(&p, 0, &o, 100, 1);
	ck_assert_uint_eq(o.peak_cells, 20);
	linuxbe_peak_take(&p, 1, &o, 100, 0);
	ck_assert_uint_eq(o.peak_cells, 50);
	ck_assert_uint_eq(o.peak_bytes, BSF_UNKNOWN); /* packets: no bytes */
	linuxbe_peak_fold(&p, 70, 100, 4000);
	linuxbe_peak_take(&p, 3, &o, 100, 1);
	ck_assert_uint_eq(o.peak_cells, 70);
	ck_assert_uint_eq(o.peak_time_ns, 4000);
}
END_TEST

START_TEST(wrap32)
{
	struct linuxbe_wrap w;

	memset(&w, 0, sizeof w);
	ck_assert_uint_eq(linuxbe_wrap_add(&w, 0xfffffff0u), 0xfffffff0u);
	ck_assert_uint_eq(linuxbe_wrap_add(&w, 0x10u), 0x100000010ull);
	ck_assert_uint_eq(linuxbe_wrap_add(&w, 0x20u), 0x100000020ull);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("linux_parse");
	TCase *tc = tcase_create("all");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, link_stats64);
	tcase_add_test(tc, link_short_stats);
	tcase_add_test(tc, tc_bfifo_pfifo);
	tcase_add_test(tc, tc_htb_mq);
	tcase_add_test(tc, tc_tbf);
	tcase_add_test(tc, tc_fq_codel_codel);
	tcase_add_test(tc, tc_cake);
	tcase_add_test(tc, tc_malformed);
	tcase_add_test(tc, dropmon_sw);
	tcase_add_test(tc, dropmon_hw);
	tcase_add_test(tc, dropmon_stats_and_bad);
	tcase_add_test(tc, psample_full);
	tcase_add_test(tc, psample_plain_and_probability);
	tcase_add_test(tc, sb_dumps);
	tcase_add_test(tc, sb_alloc);
	tcase_add_test(tc, reasons_valid_codes);
	tcase_add_test(tc, reasons_lookup);
	tcase_add_test(tc, peak_windows);
	tcase_add_test(tc, wrap32);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
