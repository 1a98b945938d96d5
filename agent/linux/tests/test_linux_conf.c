/*
 * test_linux_conf.c - the linux backend's configuration section
 * (linuxcfg.c) with its defaults, values and errors (each naming the
 * file, the line within bsflowd.conf and the key), the tracepoint format
 * parser on a hand-written format text, the reason overrides, and the
 * turning of a NET_DM alert into a BSF_EV_DROP.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/net_dropmon.h>

#include "agent/linux/linuxcfg.h"
#include "agent/linux/state.h"
#include "agent/linux/tests/nlbuild.h"
#include "agent/linux/tracepoint.h"

static char err[512];

START_TEST(conf_defaults)
{
	struct linuxbe_conf c;
	unsigned i;

	ck_assert_int_eq(linuxbe_conf_parse(&c, NULL, "b.conf", 10, err, sizeof err), 0);
	ck_assert_int_eq(c.ports_auto, 1);
	ck_assert_uint_eq(c.qdisc_poll_ms, 10);
	ck_assert_uint_eq(c.buffer_poll_ms, 1000);
	ck_assert_uint_eq(c.header_bytes, 128);
	ck_assert_uint_eq(c.psample_group, 1);
	ck_assert_int_eq(c.install_samplers, 0);
	ck_assert_uint_eq(c.n_queues, 0);
	for (i = 0; i < LINUXBE_NSRC; i++)
		ck_assert_uint_eq(c.mode[i], LINUXBE_AUTO);
	linuxbe_conf_free(&c);
}
END_TEST

START_TEST(conf_values)
{
	struct linuxbe_conf c;
	const char *t = "\n  ports = {\"swp1\", \"swp2\"}  # two\n"
			"  queues = {\"1:10\", \"1:20\", \"8001:\"}\n"
			"  qdisc_poll_ms = 5\n  buffer_poll_ms = 250\n"
			"  dropmon = off\n  psample = on\n  install_samplers = yes\n"
			"  reasons = {\"QDISC_DROP=261\", \"NO_SOCKET=acl\"}\n";

	ck_assert_msg(linuxbe_conf_parse(&c, t, "b.conf", 10, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(c.ports_auto, 0);
	ck_assert_uint_eq(c.n_ports, 2);
	ck_assert_str_eq(c.ports[1], "swp2");
	ck_assert_uint_eq(c.n_queues, 3);
	ck_assert_uint_eq(c.queues[0], 0x10010);
	ck_assert_uint_eq(c.queues[1], 0x10020);
	ck_assert_uint_eq(c.queues[2], 0x80010000u);
	ck_assert_uint_eq(c.qdisc_poll_ms, 5);
	ck_assert_uint_eq(c.buffer_poll_ms, 250);
	ck_assert_uint_eq(c.mode[LINUXBE_SRC_DROPMON], LINUXBE_OFF);
	ck_assert_uint_eq(c.mode[LINUXBE_SRC_PSAMPLE], LINUXBE_ON);
	ck_assert_int_eq(c.install_samplers, 1);
	ck_assert_uint_eq(c.n_reasons, 2);
	ck_assert_str_eq(c.reason_names[0], "QDISC_DROP");
	ck_assert_uint_eq(c.reason_codes[0], 261);
	ck_assert_uint_eq(c.reason_codes[1], 258);
	linuxbe_conf_free(&c);

	ck_assert_int_eq(
	    linuxbe_conf_parse(&c, "ports = {\"/^swp[0-9]+$/\"}", "b.conf", 3, err, sizeof err), 0);
	ck_assert_uint_eq(c.n_ports, 1);
	ck_assert_str_eq(c.ports[0], "/^swp[0-9]+$/");
	linuxbe_conf_free(&c);
}
END_TEST

/* text of a section starting at line 20 of x.conf, and the message */
static const struct {
	const char *text, *want;
} bad[] = {
    {"\n\n  qdisc_poll_ms = 0\n", "x.conf:22: linux: qdisc_poll_ms = 0: out of range (1..10000)"},
    {"\n  dropmon = maybe\n", "x.conf:21: linux: dropmon = \"maybe\": use auto, on or off"},
    {"header_bytes = 129", "x.conf:20: linux: header_bytes = 129: out of range (14..128)"},
    {"\n\n\n ports = {\"/[/\"}", "x.conf:23: linux: ports = \"/[/\": not a valid regular"},
    {"ports = {\"eth0\", \"auto\"}", "x.conf:20: linux: ports = \"auto\": auto must be alone"},
    {"\nqueues = {\"1:x\"}", "x.conf:21: linux: queues = \"1:x\": not a tc handle"},
    {"\n\nreasons = {\"FOO=999\"}", "x.conf:22: linux: reasons = \"FOO=999\": 999 is not"},
    {"reasons = {\"FOO=nope\"}", "x.conf:20: linux: reasons = \"FOO=nope\": nope is not"},
    {"\nfrobnicate = 1\n",
     "x.conf:21: linux: frobnicate: unknown key; allowed: the keys of bsflowd.conf(5)"},
    {"\nqueus = {x}\n", "x.conf:21: linux: queus: unknown key; allowed: the keys of "
			"bsflowd.conf(5); did you mean queues?"},
};

START_TEST(conf_errors)
{
	struct linuxbe_conf c;

	ck_assert_int_eq(linuxbe_conf_parse(&c, bad[_i].text, "x.conf", 20, err, sizeof err), -1);
	ck_assert_msg(strncmp(err, bad[_i].want, strlen(bad[_i].want)) == 0,
		      "got \"%s\", want \"%s\"", err, bad[_i].want);
}
END_TEST

static const char fmt_text[] =
    "name: kfree_skb\nID: 1234\nformat:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
    "\tfield:void * skbaddr;\toffset:8;\tsize:8;\tsigned:0;\n"
    "\tfield:enum skb_drop_reason reason;\toffset:36;\tsize:4;\tsigned:0;\n\n"
    "print fmt: \"skbaddr=%p reason: %s\", REC->skbaddr, __print_symbolic(REC->reason, "
    "{ 2, \"NOT_SPECIFIED\" }, { 3, \"NO_SOCKET\" }, { 0x40, \"QDISC_DROP\" }, "
    "{ 77, \"MAX\" })\n";

START_TEST(tp_format)
{
	struct linuxbe_tp_format *f = malloc(sizeof *f);

	ck_assert_ptr_nonnull(f);
	ck_assert_msg(linuxbe_tp_format_parse(fmt_text, f, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(f->reason_off, 36);
	ck_assert_uint_eq(f->reason_size, 4);
	ck_assert_str_eq(f->names[2], "NOT_SPECIFIED");
	ck_assert_str_eq(f->names[3], "NO_SOCKET");
	ck_assert_str_eq(f->names[64], "QDISC_DROP");
	ck_assert_str_eq(f->names[5], "");
	ck_assert_uint_eq(f->n, 78);
	ck_assert_int_eq(linuxbe_tp_format_parse("name: x\nprint fmt: \"\"", f, err, sizeof err),
			 -1);
	ck_assert_ptr_nonnull(strstr(err, "reason"));
	free(f);
}
END_TEST

static uint64_t fake_now(void *arg)
{
	(void)arg;
	return 555;
}

START_TEST(drop_event)
{
	struct linuxbe_st st;
	struct linuxbe_port ports[2];
	struct bsf_host host;
	struct linuxbe_drop d;
	struct bsf_event e;
	static const uint8_t pkt[200] = {1, 2, 3};

	memset(&st, 0, sizeof st);
	memset(ports, 0, sizeof ports);
	memset(&host, 0, sizeof host);
	host.now_ns = fake_now;
	st.host = &host;
	st.ports = ports;
	st.nports = 2;
	ports[0].ifindex = 7;
	ports[1].ifindex = 9;
	ck_assert_int_eq(linuxbe_conf_parse(&st.conf,
					    "header_bytes = 64\nreasons = "
					    "{\"tail_drop=red\"}",
					    "b.conf", 1, err, sizeof err),
			 0);
	memset(&d, 0, sizeof d);
	strcpy(d.reason, "QDISC_DROP");
	strcpy(d.symbol, "__dev_queue_xmit+0xd01/0xf30");
	d.in_ifindex = 9;
	d.t_ns = BSF_UNKNOWN;
	d.orig_len = 1442;
	d.payload = pkt;
	d.payload_len = sizeof pkt;
	bsf_event_init(&e);
	linuxbe_dropmon_event(&st, &d, &e);
	ck_assert_uint_eq(e.type, BSF_EV_DROP);
	ck_assert_uint_eq(e.reason, 259);
	ck_assert_uint_eq(e.stage, BSF_STAGE_EGRESS_ADMISSION);
	ck_assert_uint_eq(e.in_port, 1);
	ck_assert_uint_eq(e.out_port, UINT32_MAX);
	ck_assert_uint_eq(e.t_ns, 555);
	ck_assert_uint_eq(e.frame_len, 1446); /* + FCS */
	ck_assert_uint_eq(e.hdr_len, 64);     /* header_bytes */
	ck_assert_str_eq(e.function, "__dev_queue_xmit+0xd01/0xf30");
	ck_assert_str_eq(e.reason_name, "QDISC_DROP");

	/* a hardware trap, overridden by the config to 260 red; a port not ours */
	memset(&d, 0, sizeof d);
	strcpy(d.trap_group, "buffer_drops");
	strcpy(d.trap_name, "tail_drop");
	d.in_ifindex = 3;
	d.t_ns = 42;
	d.orig_len = UINT32_MAX;
	bsf_event_init(&e);
	linuxbe_dropmon_event(&st, &d, &e);
	ck_assert_uint_eq(e.reason, 260);
	ck_assert_uint_eq(e.in_port, UINT32_MAX);
	ck_assert_uint_eq(e.t_ns, 42);
	ck_assert_uint_eq(e.frame_len, 0);
	ck_assert_str_eq(e.trap_group, "buffer_drops");
	ck_assert_str_eq(e.trap_name, "tail_drop");
	linuxbe_conf_free(&st.conf);
}
END_TEST

/* an ETHTOOL_MSG_STATS_GET reply: eth-mac with FCS and too-long errors,
 * eth-phy with symbol errors, each stat in its own GRP_STAT nest */
START_TEST(eth_stats)
{
	struct nlb b;
	struct genlmsghdr g = {ETHTOOL_MSG_STATS_GET_REPLY, 1, 0};
	struct linuxbe_ethstats s;
	struct bsf_eth_counters o;
	const struct nlmsghdr *m;

	nlb_start(&b, 0x15, &g, sizeof g);
	nlb_nest_start(&b, ETHTOOL_A_STATS_HEADER);
	nlb_u32(&b, ETHTOOL_A_HEADER_DEV_INDEX, 2);
	nlb_nest_end(&b);
	nlb_nest_start(&b, ETHTOOL_A_STATS_GRP);
	nlb_u32(&b, ETHTOOL_A_STATS_GRP_ID, ETHTOOL_STATS_ETH_MAC);
	nlb_u32(&b, ETHTOOL_A_STATS_GRP_SS_ID, 20);
	nlb_nest_start(&b, ETHTOOL_A_STATS_GRP_STAT);
	nlb_u64(&b, ETHTOOL_A_STATS_ETH_MAC_6_FCS_ERR, 5);
	nlb_nest_end(&b);
	nlb_nest_start(&b, ETHTOOL_A_STATS_GRP_STAT);
	nlb_u64(&b, ETHTOOL_A_STATS_ETH_MAC_25_TOO_LONG_ERR, 7);
	nlb_nest_end(&b);
	nlb_nest_start(&b, ETHTOOL_A_STATS_GRP_STAT);
	nlb_u64(&b, ETHTOOL_A_STATS_ETH_MAC_3_SINGLE_COL, 11);
	nlb_nest_end(&b);
	nlb_nest_end(&b);
	nlb_nest_start(&b, ETHTOOL_A_STATS_GRP);
	nlb_u32(&b, ETHTOOL_A_STATS_GRP_ID, ETHTOOL_STATS_ETH_PHY);
	nlb_nest_start(&b, ETHTOOL_A_STATS_GRP_STAT);
	nlb_u64(&b, ETHTOOL_A_STATS_ETH_PHY_5_SYM_ERR, 3);
	nlb_nest_end(&b);
	nlb_nest_end(&b);
	m = nlb_end(&b);
	ck_assert_msg(linuxbe_ethstats_parse(m, b.len, &s, err, sizeof err) == 0, "%s", err);
	bsf_eth_counters_init(&o);
	linuxbe_ethstats_fill(&s, &o);
	ck_assert_uint_eq(o.fcs_errors, 5);
	ck_assert_uint_eq(o.frame_too_longs, 7);
	ck_assert_uint_eq(o.single_collision_frames, 11);
	ck_assert_uint_eq(o.symbol_errors, 3);
	ck_assert_uint_eq(o.alignment_errors, BSF_UNKNOWN);
	ck_assert_uint_eq(o.sqe_test_errors, BSF_UNKNOWN);
	ck_assert_uint_eq(o.late_collisions, BSF_UNKNOWN);

	/* a group whose nest claims more than the message holds */
	b.buf[b.len - 12 - 4 - 4 - 8] = 0xff;
	ck_assert_int_eq(linuxbe_ethstats_parse(m, b.len, &s, err, sizeof err), -1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("linux_conf");
	TCase *tc = tcase_create("all");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, conf_defaults);
	tcase_add_test(tc, conf_values);
	tcase_add_loop_test(tc, conf_errors, 0, (int)(sizeof bad / sizeof bad[0]));
	tcase_add_test(tc, tp_format);
	tcase_add_test(tc, drop_event);
	tcase_add_test(tc, eth_stats);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
