/*
 * test_linux_qdisc.c - the qdisc source's queue mapping and peak windows,
 * fed with RTM_NEWQDISC / RTM_NEWTCLASS messages built by hand
 * (nlbuild.h) and read back through the backend's read_port_buffers:
 *   - an htb tree (1: -> 1:1 -> leaves 1:10 with a bfifo, 1:20 with a
 *     pfifo): two queues in class-id order, bytes vs packets limits,
 *     BST = backlog / limit in the limit's unit, the root's drops;
 *   - an mq root with a pfifo_fast and an fq_codel child: TX queue order,
 *     pfifo_fast limited by tx_queue_len;
 *   - a tbf root: one queue, its byte limit;
 *   - `queues` naming one class: that class only;
 *   - peak windows over two polls (one window read in between).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <linux/gen_stats.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include "agent/linux/backend_linux.h"
#include "agent/linux/state.h"
#include "agent/linux/tests/nlbuild.h"

static char err[512];

static void add(struct linuxbe_st *st, uint16_t type, int ifindex, uint32_t handle, uint32_t parent,
		const char *kind, const void *opt, size_t optlen, int nested_u32, uint32_t qlen,
		uint32_t backlog, uint32_t drops)
{
	struct nlb b;
	struct tcmsg t;
	struct gnet_stats_queue q = {qlen, backlog, drops, 0, 0};

	memset(&t, 0, sizeof t);
	t.tcm_ifindex = ifindex;
	t.tcm_handle = handle;
	t.tcm_parent = parent;
	nlb_start(&b, type, &t, sizeof t);
	nlb_str(&b, TCA_KIND, kind);
	if (opt && nested_u32 >= 0) {
		nlb_nest_start(&b, TCA_OPTIONS);
		nlb_attr(&b, (uint16_t)nested_u32, opt, optlen);
		nlb_nest_end(&b);
	} else if (opt) {
		nlb_attr(&b, TCA_OPTIONS, opt, optlen);
	}
	nlb_nest_start(&b, TCA_STATS2);
	nlb_attr(&b, TCA_STATS_QUEUE, &q, sizeof q);
	nlb_nest_end(&b);
	ck_assert_msg(linuxbe_qdisc_add(st, nlb_end(&b), b.len, err, sizeof err) == 0, "%s", err);
}

static struct linuxbe_st *make_st(const char *section)
{
	struct linuxbe_st *st = calloc(1, sizeof *st);
	uint32_t p, ifx[3] = {4, 5, 6};

	ck_assert_ptr_nonnull(st);
	ck_assert_int_eq(linuxbe_conf_parse(&st->conf, section, "t.conf", 1, err, sizeof err), 0);
	st->nports = 3;
	st->ports = calloc(3, sizeof *st->ports);
	st->descs = calloc(3, sizeof *st->descs);
	for (p = 0; p < 3; p++) {
		st->ports[p].ifindex = ifx[p];
		st->ports[p].txqlen = 1000;
		st->ports[p].dl_port = UINT32_MAX;
		st->ports[p].desc = &st->descs[p];
		st->descs[p].size = sizeof st->descs[p];
	}
	st->state[LINUXBE_SRC_QDISC] = LINUXBE_ACTIVE;
	ck_assert_int_eq(linuxbe_qdisc_alloc(st), 0);
	return st;
}

static void free_st(struct linuxbe_st *st)
{
	linuxbe_qdisc_close(st);
	linuxbe_conf_free(&st->conf);
	free(st->ports);
	free(st->descs);
	free(st);
}

/* one poll of the three ports' trees, port 0's leaves at (b10, q20) */
static void poll(struct linuxbe_st *st, int first, uint64_t now, uint32_t b10, uint32_t q20)
{
	struct tc_fifo_qopt bf = {65536}, pf = {50};
	struct tc_tbf_qopt tq;
	uint32_t fql = 10240;

	memset(&tq, 0, sizeof tq);
	tq.limit = 30720;
	linuxbe_qdisc_begin(st);
	/* port 0: htb */
	add(st, RTM_NEWQDISC, 4, 0x10000, TC_H_ROOT, "htb", NULL, 0, -1, 0, 0, 500);
	add(st, RTM_NEWQDISC, 4, 0x100000, 0x10010, "bfifo", &bf, sizeof bf, -1, 20, b10, 300);
	add(st, RTM_NEWQDISC, 4, 0x200000, 0x10020, "pfifo", &pf, sizeof pf, -1, q20, q20 * 1500,
	    200);
	/* port 1: mq with two TX queues */
	add(st, RTM_NEWQDISC, 5, 0x80010000u, TC_H_ROOT, "mq", NULL, 0, -1, 4, 6000, 0);
	add(st, RTM_NEWQDISC, 5, 0, 0x80010001u, "pfifo_fast", NULL, 0, -1, 1, 1500, 0);
	add(st, RTM_NEWQDISC, 5, 0, 0x80010002u, "fq_codel", &fql, sizeof fql, TCA_FQ_CODEL_LIMIT,
	    3, 4500, 0);
	/* port 2: tbf */
	add(st, RTM_NEWQDISC, 6, 0x10000, TC_H_ROOT, "tbf", &tq, sizeof tq, TCA_TBF_PARMS, 21,
	    30218, 7);
	/* classes (port 0's tree, port 1's TX queues), as their dumps give them */
	add(st, RTM_NEWTCLASS, 4, 0x10001, 0x10000, "htb", NULL, 0, -1, 0, 0, 0);
	add(st, RTM_NEWTCLASS, 4, 0x10020, 0x10001, "htb", NULL, 0, -1, q20, q20 * 1500, 200);
	add(st, RTM_NEWTCLASS, 4, 0x10010, 0x10001, "htb", NULL, 0, -1, 20, b10, 300);
	add(st, RTM_NEWTCLASS, 5, 0x80010001u, 0x80010000u, "mq", NULL, 0, -1, 1, 1500, 0);
	add(st, RTM_NEWTCLASS, 5, 0x80010002u, 0x80010000u, "mq", NULL, 0, -1, 3, 4500, 0);
	ck_assert_msg(linuxbe_qdisc_fold(st, first, now, err, sizeof err) == 0, "%s", err);
}

static void read_port(struct linuxbe_st *st, unsigned w, uint32_t port, struct bsf_port_buffers *b)
{
	bsf_port_buffers_init(b);
	ck_assert_msg(linuxbe_ops()->read_port_buffers(st, w, port, b, err, sizeof err) == 0, "%s",
		      err);
}

START_TEST(mapping)
{
	struct linuxbe_st *st = make_st(NULL);
	struct bsf_port_buffers b;

	poll(st, 1, 1000, 32768, 25);
	/* htb: leaves 1:10 then 1:20 */
	ck_assert_uint_eq(st->ports[0].n_leaves, 2);
	ck_assert_uint_eq(st->descs[0].n_uc_queues, 2);
	ck_assert_uint_eq(st->ports[0].leaves[0].handle, 0x10010);
	ck_assert_uint_eq(st->ports[0].leaves[1].handle, 0x10020);
	ck_assert_uint_eq(st->ports[0].root_drops.total, 500);
	read_port(st, 0, 0, &b);
	ck_assert_uint_eq(b.uc[0].peak_bytes, 32768); /* bfifo: bytes of 65536 */
	ck_assert_uint_eq(b.uc[0].peak_cells, 32768);
	ck_assert_uint_eq(b.uc[0].alloc_cells, 65536);
	ck_assert_uint_eq(b.uc[1].peak_cells, 25); /* pfifo: packets of 50 */
	ck_assert_uint_eq(b.uc[1].alloc_cells, 50);
	ck_assert_uint_eq(b.uc[1].peak_bytes, 37500);
	ck_assert_uint_eq(b.egress_uc.peak_bytes, 32768 + 37500);
	ck_assert_uint_eq(b.egress_uc.alloc_cells, BSF_UNKNOWN); /* bytes and packets mixed */
	ck_assert_uint_eq(b.uc[0].peak_time_ns, 1000);
	/* mq: TX queue 1 (pfifo_fast: tx_queue_len packets), TX queue 2 (fq_codel) */
	ck_assert_uint_eq(st->ports[1].n_leaves, 2);
	read_port(st, 0, 1, &b);
	ck_assert_uint_eq(b.uc[0].peak_cells, 1);
	ck_assert_uint_eq(b.uc[0].alloc_cells, 1000);
	ck_assert_uint_eq(b.uc[1].peak_cells, 3);
	ck_assert_uint_eq(b.uc[1].alloc_cells, 10240);
	ck_assert_uint_eq(b.uc[1].peak_bytes, 4500);
	/* tbf: one queue */
	ck_assert_uint_eq(st->ports[2].n_leaves, 1);
	ck_assert_uint_eq(st->descs[2].n_uc_queues, 1);
	read_port(st, 0, 2, &b);
	ck_assert_uint_eq(b.uc[0].peak_bytes, 30218);
	ck_assert_uint_eq(b.uc[0].alloc_cells, 30720);
	ck_assert_uint_eq(b.egress_uc.alloc_cells, 30720);
	ck_assert_uint_eq(b.uc[1].peak_cells, BSF_UNKNOWN); /* no second queue */
	ck_assert_uint_eq(st->ports[2].root_drops.total, 7);
	free_st(st);
}
END_TEST

START_TEST(windows)
{
	struct linuxbe_st *st = make_st(NULL);
	struct bsf_port_buffers b;

	poll(st, 1, 1000, 60000, 50);
	read_port(st, 0, 0, &b); /* window 0 read: restarts at 60000 / 50 */
	ck_assert_uint_eq(b.uc[0].peak_bytes, 60000);
	ck_assert_uint_eq(b.uc[1].peak_cells, 50);
	poll(st, 0, 2000, 1000, 2);
	poll(st, 0, 3000, 0, 0);
	read_port(st, 1, 0, &b); /* window 1: the peak of all three polls */
	ck_assert_uint_eq(b.uc[0].peak_bytes, 60000);
	ck_assert_uint_eq(b.uc[0].peak_time_ns, 1000);
	ck_assert_uint_eq(b.uc[0].cur_bytes, 0);
	read_port(st, 0, 0, &b); /* window 0: since its read (at 60000) */
	ck_assert_uint_eq(b.uc[0].peak_bytes, 60000);
	read_port(st, 0, 0, &b); /* and again: restarted at the current 0 */
	ck_assert_uint_eq(b.uc[0].peak_bytes, 0);
	ck_assert_uint_eq(b.uc[1].peak_cells, 0);
	/* the root's drops, widened: 500 at every poll, no growth */
	ck_assert_uint_eq(st->ports[0].root_drops.total, 500);
	free_st(st);
}
END_TEST

START_TEST(queues_override)
{
	struct linuxbe_st *st = make_st("queues = {\"1:20\"}");
	struct bsf_port_buffers b;

	poll(st, 1, 1000, 32768, 25);
	ck_assert_uint_eq(st->ports[0].n_leaves, 1);
	read_port(st, 0, 0, &b);
	ck_assert_uint_eq(b.uc[0].peak_cells, 25);
	ck_assert_uint_eq(b.uc[0].alloc_cells, 50);
	free_st(st);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("linux_qdisc");
	TCase *tc = tcase_create("all");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, mapping);
	tcase_add_test(tc, windows);
	tcase_add_test(tc, queues_override);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
