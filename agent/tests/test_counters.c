/*
 * test_counters.c - unit tests of the counters sample builder (counters.c)
 * with a fake backend holding known values: every produced sample goes
 * through the datagram builder and sflow_decode(), and every field is
 * checked against values computed by hand from the fake's numbers
 * (percentages = 10000 * peak / alloc rounded down, 32-bit counters wrap,
 * own unsigned ints saturate at 0xFFFFFFFE, unknown = all ones / -1);
 * E:7 sampler statistics in and after the device sample; and the own
 * visibility event sample E:1 against byte vectors written out by hand
 * from bsflowd-structures(7) (record order, lengths, every field).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "agent/counters.h"
#include "agent/evsample.h"
#include "proto/sflow_decode.h"
#include "proto/sflow_encode.h"
#include "proto/sflow_own.h"

#define ENT  32473u
#define U32X 0xFFFFFFFFu
#define U64X UINT64_MAX

/* ---- the fake backend */

struct fake {
	struct bsf_device_desc dev;
	struct bsf_port_desc ports[2];
	struct bsf_if_counters ifc;
	struct bsf_port_buffers pb;
	struct bsf_port_delays pd;
	struct bsf_device_buffers db;
	struct bsf_eth_counters eth;
	int reads_eth;
	int fail_buffers;
	int reads_ctr, reads_buf, reads_delay, reads_dev;
	unsigned last_window;
	uint32_t last_port;
};

static int f_counters(void *st, uint32_t port, struct bsf_if_counters *out, char *err,
		      size_t errlen)
{
	struct fake *f = st;
	(void)err, (void)errlen;
	f->reads_ctr++;
	f->last_port = port;
	*out = f->ifc;
	return 0;
}

static int f_port_buffers(void *st, unsigned window, uint32_t port, struct bsf_port_buffers *out,
			  char *err, size_t errlen)
{
	struct fake *f = st;
	f->reads_buf++;
	f->last_window = window;
	f->last_port = port;
	if (f->fail_buffers) {
		snprintf(err, errlen, "fake: port %u unreadable", port);
		memset(out, 0x5a, sizeof *out); /* garbage the agent must not use */
		return -1;
	}
	*out = f->pb;
	return 0;
}

static int f_device_buffers(void *st, unsigned window, struct bsf_device_buffers *out, char *err,
			    size_t errlen)
{
	struct fake *f = st;
	(void)err, (void)errlen;
	f->reads_dev++;
	f->last_window = window;
	*out = f->db;
	return 0;
}

static int f_delays(void *st, unsigned window, uint32_t port, struct bsf_port_delays *out,
		    char *err, size_t errlen)
{
	struct fake *f = st;
	(void)err, (void)errlen;
	f->reads_delay++;
	f->last_window = window;
	f->last_port = port;
	*out = f->pd;
	return 0;
}

static int f_eth(void *st, uint32_t port, struct bsf_eth_counters *out, char *err, size_t errlen)
{
	struct fake *f = st;
	(void)err, (void)errlen, (void)port;
	f->reads_eth++;
	*out = f->eth;
	return 0;
}

static const struct bsf_backend_ops fake_ops = {
    .abi_version = BSF_BACKEND_ABI_VERSION,
    .name = "fake",
    .read_counters = f_counters,
    .read_port_buffers = f_port_buffers,
    .read_device_buffers = f_device_buffers,
    .read_delays = f_delays,
    .read_eth_counters = f_eth,
};

static struct bsf_buf mkbuf(uint64_t cur_c, uint64_t cur_b, uint64_t peak_c, uint64_t peak_b,
			    uint64_t alloc, uint64_t t)
{
	struct bsf_buf b = {cur_c, cur_b, peak_c, peak_b, alloc, t};
	return b;
}

static struct bsf_buf unknown_buf(void)
{
	return mkbuf(U64X, U64X, U64X, U64X, U64X, U64X);
}

#define ALL_CAPS                                                                                   \
	(BSF_CAP_IF_COUNTERS | BSF_CAP_BUFFERS | BSF_CAP_BUFFER_BYTES | BSF_CAP_PEAK_TIME |        \
	 BSF_CAP_PGS | BSF_CAP_POOLS | BSF_CAP_CPU_QUEUES | BSF_CAP_DELAY_NONTAGGED |              \
	 BSF_CAP_DELAY_MARKER)

static struct fake F;
static struct bsf_counters_src SRC;

static void fake_init(void)
{
	memset(&F, 0, sizeof F);
	F.dev.caps = ALL_CAPS;
	strcpy(F.dev.id, "fake");
	F.dev.nports = 2;
	F.dev.ports = F.ports;
	F.dev.cell_bytes = 256;
	F.dev.total_cells = 100000;
	F.dev.n_ingress_pools = 1;
	F.dev.n_egress_pools = 2;
	F.dev.n_cpu_queues = 2;

	F.ports[0].ifindex = 3;
	strcpy(F.ports[0].name, "swp1");
	F.ports[0].speed_bps = 10000000000ull;
	F.ports[0].n_uc_queues = 8;
	F.ports[0].n_mc_queues = 8;
	F.ports[0].n_pgs = 2;
	F.ports[0].oper_up = 1;
	F.ports[1] = F.ports[0];
	F.ports[1].ifindex = 4;
	strcpy(F.ports[1].name, "swp2");

	struct bsf_if_counters *c = &F.ifc;
	c->in_octets = 0x123456789ull;
	c->in_ucast = 0x100000005ull; /* wraps to 5 */
	c->in_mcast = U64X;
	c->in_bcast = 0;
	c->in_discards = 7;
	c->in_errors = 0;
	c->in_unknown_protos = U64X;
	c->out_octets = 1000000;
	c->out_ucast = 0xFFFFFFFFull; /* stays 0xFFFFFFFF */
	c->out_mcast = 2;
	c->out_bcast = 3;
	c->out_discards = 11;
	c->out_errors = 1;
	c->speed_bps = 25000000000ull;
	c->admin_up = 1;
	c->oper_up = 0;

	struct bsf_port_buffers *p = &F.pb;
	p->ingress_uc = mkbuf(10, 2560, 512, 131072, 1024, 1700000000123456789ull);
	p->ingress_mc = mkbuf(0, 0, 5, 1280, 0, 5); /* alloc 0: -1 */
	p->egress_uc = mkbuf(1, 256, 1024, 262144, 1024, 7);
	p->egress_mc = mkbuf(0, 0, 1, 256, 3, 8); /* 3333 */
	for (unsigned i = 0; i < BSF_MAX_QUEUES; i++) {
		/* uc queue i: peak 100 i of 1000 cells -> 1000 i; queue 7 over */
		p->uc[i] = mkbuf(i, 256 * i, i == 7 ? 2000 : 100 * i, 25600 * i, 1000, 100 + i);
		p->mc[i] = unknown_buf();
	}
	p->mc[1] = mkbuf(0, 0, 0, 0, 500, 0); /* idle: 0 */
	p->pg_shared[0] = mkbuf(4, 1024, 8, 2048, 16, 9);
	p->pg_headroom[0] = mkbuf(0, 0, 0, 0, 32, U64X);
	p->pg_shared[1] = mkbuf(0x1FFFFFFFFull, U64X, 0, 0, 1, 0); /* saturates */
	p->pg_headroom[1] = unknown_buf();

	for (unsigned i = 0; i < BSF_MAX_QUEUES; i++) {
		F.pd.uc[i] = (struct bsf_queue_delay){1500 + i, 0x100000000ull, 3, 800};
		F.pd.mc[i] = (struct bsf_queue_delay){U64X, U64X, 0, U64X};
	}

	F.db.uc = mkbuf(100, 25600, 512, 131072, 1024, 42);
	F.db.mc = unknown_buf();
	F.db.ingress_pool[0] = mkbuf(1, 256, 2, 512, 8, 43);
	F.db.egress_pool[0] = mkbuf(3, 768, 6, 1536, 8, 44);
	F.db.egress_pool[1] = mkbuf(0, 0, 0, 0, 8, 45);
	F.db.cpu[0] = mkbuf(1, 64, 1, 64, 10, 46);
	F.db.cpu[1] = mkbuf(0, 0, 0, 0, 0, 47);

	memset(&SRC, 0, sizeof SRC);
	SRC.ops = &fake_ops;
	SRC.st = &F;
	SRC.dev = &F.dev;
	SRC.window = 0;
	SRC.own_enterprise = ENT;
	SRC.own_records = BSF_COUNTERS_OWN_ALL;
	SRC.device_index = 1;
}

/* ---- decoding what was built */

static struct sflow_dgram_builder B;
static struct sflow_datagram D;
static uint8_t SCRATCH[BSF_COUNTERS_SCRATCH];

static const struct sflow_sample *decode_one(const struct bsf_counters_out *out)
{
	struct sflow_addr agent = {.type = SFLOW_ADDR_IP4, .a = {127, 0, 0, 1}};
	struct sflow_decode_error err;
	struct sflow_decode_opts opts = {.own_enterprise = ENT};
	size_t len;

	ck_assert_int_eq(sflow_builder_init(&B, &agent, 0, SFLOW_DGRAM_MAX, 0), SFLOW_OK);
	ck_assert_int_eq(sflow_builder_add(&B, SCRATCH, out->len), SFLOW_OK);
	const uint8_t *dg = sflow_builder_finish(&B, 1, 1000, &len);
	ck_assert_ptr_nonnull(dg);
	int e = sflow_decode(dg, len, &opts, &D, &err);
	if (e != SFLOW_OK)
		ck_abort_msg("decode: %s", err.msg);
	ck_assert_uint_eq(D.nsamples, 1);
	ck_assert_uint_eq(D.samples[0].kind, SFLOW_SMP_COUNTERS);
	ck_assert_uint_eq(D.samples[0].nrecords, out->nrecords);
	return &D.samples[0];
}

static const struct sflow_record *find(const struct sflow_sample *s, uint32_t tag)
{
	for (uint32_t i = 0; i < s->nrecords; i++)
		if (s->records[i].tag == tag)
			return &s->records[i];
	return NULL;
}

static void check_buf(const struct sflow_own_buffer *b, uint32_t cur_c, uint32_t cur_b,
		      uint32_t peak_c, uint32_t peak_b, uint32_t alloc, int32_t pc, uint64_t t)
{
	ck_assert_uint_eq(b->cur_cells, cur_c);
	ck_assert_uint_eq(b->cur_bytes, cur_b);
	ck_assert_uint_eq(b->peak_cells, peak_c);
	ck_assert_uint_eq(b->peak_bytes, peak_b);
	ck_assert_uint_eq(b->alloc_cells, alloc);
	ck_assert_int_eq(b->peak_pc, pc);
	ck_assert_uint_eq(b->peak_time_ns, t);
}

/* ---- tests */

START_TEST(port_full)
{
	struct bsf_counters_out out;
	fake_init();
	ck_assert_int_eq(bsf_counters_port(&SRC, 0, 77, SCRATCH, sizeof SCRATCH, &out), SFLOW_OK);
	ck_assert_int_eq(out.read_errors, 0);
	ck_assert_str_eq(out.err, "");
	ck_assert_uint_eq(out.omitted, 0);
	ck_assert_uint_eq(out.nrecords, 8);
	/* sizes by hand: header 24, 0:1 96, 0:2 60, 0:1005 "swp1" 16,
	 * 4413:2 96, E:1 136, E:2 8+8+16*32, E:3 8+8+16*16, E:4 8+4+2*64 */
	ck_assert_uint_eq(out.len, 24 + 96 + 60 + 16 + 96 + 136 + 528 + 272 + 140);
	/* one read of each kind, window 0, port 0 */
	ck_assert_int_eq(F.reads_ctr, 1);
	ck_assert_int_eq(F.reads_buf, 1);
	ck_assert_int_eq(F.reads_delay, 1);
	ck_assert_int_eq(F.reads_dev, 0);
	ck_assert_uint_eq(F.last_window, 0);
	ck_assert_uint_eq(F.last_port, 0);

	const struct sflow_sample *s = decode_one(&out);
	ck_assert_uint_eq(s->tag, SFLOW_SAMPLE_COUNTERS_EXP);
	ck_assert_uint_eq(s->h.counters.sequence_number, 77);
	ck_assert_uint_eq(s->h.counters.source_id_type, 0);
	ck_assert_uint_eq(s->h.counters.source_id_index, 3);
	/* record order */
	ck_assert_uint_eq(s->records[0].tag, SFLOW_TAG(0, 1));
	ck_assert_uint_eq(s->records[1].tag, SFLOW_TAG(0, 2));
	ck_assert_uint_eq(s->records[2].tag, SFLOW_TAG(0, 1005));
	ck_assert_uint_eq(s->records[3].tag, SFLOW_TAG(4413, 2));
	for (uint32_t i = 0; i < 4; i++)
		ck_assert_uint_eq(s->records[4 + i].tag, SFLOW_TAG(ENT, i + 1));

	const struct sflow_if_counters *g = &s->records[0].u.ifc;
	ck_assert_int_eq(s->records[0].kind, SFLOW_REC_IF_COUNTERS);
	ck_assert_uint_eq(g->ifIndex, 3);
	ck_assert_uint_eq(g->ifType, 6);
	ck_assert_uint_eq(g->ifSpeed, 25000000000ull);
	ck_assert_uint_eq(g->ifDirection, 1);
	ck_assert_uint_eq(g->ifStatus, 1); /* admin up, oper down */
	ck_assert_uint_eq(g->ifInOctets, 0x123456789ull);
	ck_assert_uint_eq(g->ifInUcastPkts, 5);
	ck_assert_uint_eq(g->ifInMulticastPkts, U32X);
	ck_assert_uint_eq(g->ifInBroadcastPkts, 0);
	ck_assert_uint_eq(g->ifInDiscards, 7);
	ck_assert_uint_eq(g->ifInErrors, 0);
	ck_assert_uint_eq(g->ifInUnknownProtos, U32X);
	ck_assert_uint_eq(g->ifOutOctets, 1000000);
	ck_assert_uint_eq(g->ifOutUcastPkts, 0xFFFFFFFFu);
	ck_assert_uint_eq(g->ifOutMulticastPkts, 2);
	ck_assert_uint_eq(g->ifOutBroadcastPkts, 3);
	ck_assert_uint_eq(g->ifOutDiscards, 11);
	ck_assert_uint_eq(g->ifOutErrors, 1);
	ck_assert_uint_eq(g->ifPromiscuousMode, 0);

	const struct sflow_eth_counters *e = &s->records[1].u.eth;
	const uint32_t *ew = (const uint32_t *)e;
	for (size_t i = 0; i < sizeof *e / 4; i++)
		ck_assert_uint_eq(ew[i], U32X);

	ck_assert_uint_eq(s->records[2].u.port_name.len, 4);
	ck_assert_str_eq(s->records[2].u.port_name.name, "swp1");

	const struct sflow_bst_port *b = &s->records[3].u.bst_port;
	ck_assert_int_eq(b->ingress_uc_pc, 5000); /* 512 of 1024 */
	ck_assert_int_eq(b->ingress_mc_pc, -1);	  /* alloc 0 */
	ck_assert_int_eq(b->egress_uc_pc, 10000); /* 1024 of 1024 */
	ck_assert_int_eq(b->egress_mc_pc, 3333);  /* 1 of 3 */
	ck_assert_uint_eq(b->n_uc, 8);
	ck_assert_uint_eq(b->n_mc, 8);
	for (int i = 0; i < 7; i++)
		ck_assert_int_eq(b->egress_queue_uc_pc[i], 1000 * i);
	ck_assert_int_eq(b->egress_queue_uc_pc[7], 10000); /* 2000 of 1000: clamped */
	ck_assert_int_eq(b->egress_queue_mc_pc[0], -1);
	ck_assert_int_eq(b->egress_queue_mc_pc[1], 0);
	for (int i = 2; i < 8; i++)
		ck_assert_int_eq(b->egress_queue_mc_pc[i], -1);

	/* E:1 */
	const struct sflow_own_record *o = &s->records[4].u.own;
	ck_assert_int_eq(s->records[4].kind, SFLOW_REC_OWN);
	check_buf(&o->u.port.ingress_uc, 10, 2560, 512, 131072, 1024, 5000, 1700000000123456789ull);
	check_buf(&o->u.port.ingress_mc, 0, 0, 5, 1280, 0, -1, 5);
	check_buf(&o->u.port.egress_uc, 1, 256, 1024, 262144, 1024, 10000, 7);
	check_buf(&o->u.port.egress_mc, 0, 0, 1, 256, 3, 3333, 8);

	/* E:2: all queues */
	o = &s->records[5].u.own;
	struct sflow_own_buffer q;
	ck_assert_uint_eq(o->u.queues.uc.n, 8);
	ck_assert_uint_eq(o->u.queues.mc.n, 8);
	for (uint32_t i = 0; i < 8; i++) {
		ck_assert_int_eq(sflow_own_buffer_at(&o->u.queues.uc, i, &q), 0);
		check_buf(&q, i, 256 * i, i == 7 ? 2000 : 100 * i, 25600 * i, 1000,
			  i == 7 ? 10000 : (int32_t)(1000 * i), 100 + i);
	}
	ck_assert_int_eq(sflow_own_buffer_at(&o->u.queues.mc, 0, &q), 0);
	check_buf(&q, U32X, U32X, U32X, U32X, U32X, -1, U64X);
	ck_assert_int_eq(sflow_own_buffer_at(&o->u.queues.mc, 1, &q), 0);
	check_buf(&q, 0, 0, 0, 0, 500, 0, 0);

	/* E:3 */
	o = &s->records[6].u.own;
	struct sflow_own_qdelay d;
	ck_assert_uint_eq(o->u.delays.uc.n, 8);
	ck_assert_uint_eq(o->u.delays.mc.n, 8);
	ck_assert_int_eq(sflow_own_qdelay_at(&o->u.delays.uc, 2, &d), 0);
	ck_assert_uint_eq(d.latest_ns, 1502);
	ck_assert_uint_eq(d.max_ns, 0xFFFFFFFEu); /* 2^32 saturates */
	ck_assert_uint_eq(d.count, 3);
	ck_assert_uint_eq(d.marker_ns, 800);
	ck_assert_int_eq(sflow_own_qdelay_at(&o->u.delays.mc, 7, &d), 0);
	ck_assert_uint_eq(d.latest_ns, U32X);
	ck_assert_uint_eq(d.max_ns, U32X);
	ck_assert_uint_eq(d.count, 0);
	ck_assert_uint_eq(d.marker_ns, U32X);

	/* E:4 */
	o = &s->records[7].u.own;
	struct sflow_own_pg pg;
	ck_assert_uint_eq(o->u.pgs.pgs.n, 2);
	ck_assert_int_eq(sflow_own_pg_at(&o->u.pgs.pgs, 0, &pg), 0);
	check_buf(&pg.shared, 4, 1024, 8, 2048, 16, 5000, 9);
	check_buf(&pg.headroom, 0, 0, 0, 0, 32, 0, U64X);
	ck_assert_int_eq(sflow_own_pg_at(&o->u.pgs.pgs, 1, &pg), 0);
	check_buf(&pg.shared, 0xFFFFFFFEu, U32X, 0, 0, 1, 0, 0);
	check_buf(&pg.headroom, U32X, U32X, U32X, U32X, U32X, -1, U64X);
	sflow_datagram_free(&D);
}
END_TEST

START_TEST(port_second_and_window)
{
	struct bsf_counters_out out;
	fake_init();
	SRC.window = 2;
	ck_assert_int_eq(bsf_counters_port(&SRC, 1, 0xFFFFFFFFu, SCRATCH, sizeof SCRATCH, &out),
			 SFLOW_OK);
	ck_assert_uint_eq(F.last_window, 2);
	ck_assert_uint_eq(F.last_port, 1);
	const struct sflow_sample *s = decode_one(&out);
	ck_assert_uint_eq(s->h.counters.sequence_number, 0xFFFFFFFFu);
	ck_assert_uint_eq(s->h.counters.source_id_index, 4);
	ck_assert_str_eq(find(s, SFLOW_TAG(0, 1005))->u.port_name.name, "swp2");
	sflow_datagram_free(&D);
	/* bad port, bad source */
	ck_assert_int_eq(bsf_counters_port(&SRC, 2, 0, SCRATCH, sizeof SCRATCH, &out),
			 SFLOW_ERR_INVALID);
	ck_assert_int_eq(bsf_counters_port(NULL, 0, 0, SCRATCH, sizeof SCRATCH, &out),
			 SFLOW_ERR_INVALID);
}
END_TEST

START_TEST(port_capabilities)
{
	struct bsf_counters_out out;
	fake_init();
	/* no bytes, no peak time, no marker delay, no PGs */
	F.dev.caps &=
	    ~(BSF_CAP_BUFFER_BYTES | BSF_CAP_PEAK_TIME | BSF_CAP_DELAY_MARKER | BSF_CAP_PGS);
	ck_assert_int_eq(bsf_counters_port(&SRC, 0, 1, SCRATCH, sizeof SCRATCH, &out), SFLOW_OK);
	ck_assert_uint_eq(out.nrecords, 7);
	const struct sflow_sample *s = decode_one(&out);
	ck_assert_ptr_null(find(s, SFLOW_TAG(ENT, 4)));
	const struct sflow_own_record *o = &find(s, SFLOW_TAG(ENT, 1))->u.own;
	check_buf(&o->u.port.ingress_uc, 10, U32X, 512, U32X, 1024, 5000, U64X);
	o = &find(s, SFLOW_TAG(ENT, 3))->u.own;
	struct sflow_own_qdelay d;
	ck_assert_int_eq(sflow_own_qdelay_at(&o->u.delays.uc, 0, &d), 0);
	ck_assert_uint_eq(d.latest_ns, 1500);
	ck_assert_uint_eq(d.marker_ns, U32X);
	sflow_datagram_free(&D);

	/* no buffers, no delays, no counters: standard records only, all
	 * unknown; ifStatus and speed from the port description */
	F.dev.caps = 0;
	F.reads_buf = F.reads_ctr = F.reads_delay = 0;
	ck_assert_int_eq(bsf_counters_port(&SRC, 0, 1, SCRATCH, sizeof SCRATCH, &out), SFLOW_OK);
	ck_assert_int_eq(F.reads_buf + F.reads_ctr + F.reads_delay, 0);
	ck_assert_uint_eq(out.nrecords, 4);
	s = decode_one(&out);
	const struct sflow_if_counters *g = &find(s, SFLOW_TAG(0, 1))->u.ifc;
	ck_assert_uint_eq(g->ifSpeed, 10000000000ull);
	ck_assert_uint_eq(g->ifStatus, 3);
	ck_assert_uint_eq(g->ifInOctets, U64X);
	ck_assert_uint_eq(g->ifOutDiscards, U32X);
	const struct sflow_bst_port *b = &find(s, SFLOW_TAG(4413, 2))->u.bst_port;
	ck_assert_int_eq(b->ingress_uc_pc, -1);
	ck_assert_int_eq(b->egress_mc_pc, -1);
	ck_assert_uint_eq(b->n_uc, 8);
	for (int i = 0; i < 8; i++)
		ck_assert_int_eq(b->egress_queue_uc_pc[i], -1);
	sflow_datagram_free(&D);

	/* own_enterprise 0: no own records even with every capability */
	fake_init();
	SRC.own_enterprise = 0;
	ck_assert_int_eq(bsf_counters_port(&SRC, 0, 1, SCRATCH, sizeof SCRATCH, &out), SFLOW_OK);
	ck_assert_uint_eq(out.nrecords, 4);
	ck_assert_uint_eq(out.omitted, 0);
	/* a subset of own records */
	SRC.own_enterprise = ENT;
	SRC.own_records = BSF_COUNTERS_OWN_QUEUE_DELAYS;
	ck_assert_int_eq(bsf_counters_port(&SRC, 0, 1, SCRATCH, sizeof SCRATCH, &out), SFLOW_OK);
	ck_assert_uint_eq(out.nrecords, 5);
	s = decode_one(&out);
	ck_assert_ptr_nonnull(find(s, SFLOW_TAG(ENT, 3)));
	sflow_datagram_free(&D);
}
END_TEST

/* 0:2 from read_eth_counters (BSF_CAP_ETH_COUNTERS): each dot3 counter
 * its low 32 bits, all ones where unknown; without the capability it is
 * not read and 0:2 is all ones. */
START_TEST(port_eth_counters)
{
	struct bsf_counters_out out;
	fake_init();
	bsf_eth_counters_init(&F.eth);
	F.eth.fcs_errors = 5;
	F.eth.symbol_errors = 0x100000003ull; /* wraps: 3 */
	F.eth.frame_too_longs = 0;
	F.dev.caps |= BSF_CAP_ETH_COUNTERS;
	ck_assert_int_eq(bsf_counters_port(&SRC, 0, 1, SCRATCH, sizeof SCRATCH, &out), SFLOW_OK);
	ck_assert_int_eq(F.reads_eth, 1);
	const struct sflow_sample *s = decode_one(&out);
	const struct sflow_eth_counters *e = &find(s, SFLOW_TAG(0, 2))->u.eth;
	ck_assert_uint_eq(e->dot3StatsFCSErrors, 5);
	ck_assert_uint_eq(e->dot3StatsSymbolErrors, 3);
	ck_assert_uint_eq(e->dot3StatsFrameTooLongs, 0);
	ck_assert_uint_eq(e->dot3StatsAlignmentErrors, U32X);
	ck_assert_uint_eq(e->dot3StatsInternalMacReceiveErrors, U32X);
	sflow_datagram_free(&D);

	F.dev.caps &= ~BSF_CAP_ETH_COUNTERS;
	ck_assert_int_eq(bsf_counters_port(&SRC, 0, 1, SCRATCH, sizeof SCRATCH, &out), SFLOW_OK);
	ck_assert_int_eq(F.reads_eth, 1);
	s = decode_one(&out);
	e = &find(s, SFLOW_TAG(0, 2))->u.eth;
	ck_assert_uint_eq(e->dot3StatsFCSErrors, U32X);
	sflow_datagram_free(&D);
}
END_TEST

START_TEST(port_fewer_queues)
{
	struct bsf_counters_out out;
	fake_init();
	F.ports[0].n_uc_queues = 3;
	F.ports[0].n_mc_queues = 0;
	F.ports[0].n_pgs = 0;
	ck_assert_int_eq(bsf_counters_port(&SRC, 0, 1, SCRATCH, sizeof SCRATCH, &out), SFLOW_OK);
	/* 4413:2 8+16+4+12+4; E:2 8+4+96+4; E:3 8+4+48+4; no E:4 */
	ck_assert_uint_eq(out.len, 24 + 96 + 60 + 16 + 44 + 136 + 112 + 64);
	const struct sflow_sample *s = decode_one(&out);
	const struct sflow_bst_port *b = &find(s, SFLOW_TAG(4413, 2))->u.bst_port;
	ck_assert_uint_eq(b->n_uc, 3);
	ck_assert_uint_eq(b->n_mc, 0);
	ck_assert_int_eq(b->egress_queue_uc_pc[2], 2000);
	ck_assert_uint_eq(find(s, SFLOW_TAG(ENT, 2))->u.own.u.queues.uc.n, 3);
	ck_assert_uint_eq(find(s, SFLOW_TAG(ENT, 2))->u.own.u.queues.mc.n, 0);
	ck_assert_ptr_null(find(s, SFLOW_TAG(ENT, 4)));
	sflow_datagram_free(&D);
}
END_TEST

#if BSF_MAX_QUEUES > 8
START_TEST(port_nine_queues)
{
	struct bsf_counters_out out;
	struct sflow_own_buffer q;
	fake_init();
	F.ports[0].n_uc_queues = 9;
	F.pb.uc[8] = mkbuf(0, 0, 250, 64000, 1000, 99);
	ck_assert_int_eq(bsf_counters_port(&SRC, 0, 1, SCRATCH, sizeof SCRATCH, &out), SFLOW_OK);
	const struct sflow_sample *s = decode_one(&out);
	ck_assert_uint_eq(find(s, SFLOW_TAG(4413, 2))->u.bst_port.n_uc, 8);
	const struct sflow_own_record *o = &find(s, SFLOW_TAG(ENT, 2))->u.own;
	ck_assert_uint_eq(o->u.queues.uc.n, 9);
	ck_assert_int_eq(sflow_own_buffer_at(&o->u.queues.uc, 8, &q), 0);
	check_buf(&q, 0, 0, 250, 64000, 1000, 2500, 99);
	ck_assert_uint_eq(find(s, SFLOW_TAG(ENT, 3))->u.own.u.delays.uc.n, 9);
	sflow_datagram_free(&D);
}
END_TEST
#endif

START_TEST(port_read_error)
{
	struct bsf_counters_out out;
	fake_init();
	F.fail_buffers = 1;
	ck_assert_int_eq(bsf_counters_port(&SRC, 1, 1, SCRATCH, sizeof SCRATCH, &out), SFLOW_OK);
	ck_assert_int_eq(out.read_errors, 1);
	ck_assert_str_eq(out.err, "read_port_buffers: fake: port 1 unreadable");
	const struct sflow_sample *s = decode_one(&out);
	const struct sflow_bst_port *b = &find(s, SFLOW_TAG(4413, 2))->u.bst_port;
	ck_assert_int_eq(b->ingress_uc_pc, -1);
	ck_assert_int_eq(b->egress_queue_uc_pc[3], -1);
	const struct sflow_own_record *o = &find(s, SFLOW_TAG(ENT, 1))->u.own;
	check_buf(&o->u.port.egress_uc, U32X, U32X, U32X, U32X, U32X, -1, U64X);
	/* counters were read fine */
	ck_assert_uint_eq(find(s, SFLOW_TAG(0, 1))->u.ifc.ifInDiscards, 7);
	sflow_datagram_free(&D);
}
END_TEST

START_TEST(port_fallback)
{
	struct bsf_counters_out out;
	const size_t std = 24 + 96 + 60 + 16 + 96; /* 292 */
	fake_init();
	/* room for everything but E:4 */
	ck_assert_int_eq(bsf_counters_port(&SRC, 0, 1, SCRATCH, 1300, &out), SFLOW_OK);
	ck_assert_uint_eq(out.omitted, BSF_COUNTERS_OWN_PG_BUFFERS);
	ck_assert_uint_eq(out.len, std + 136 + 528 + 272);
	ck_assert_uint_eq(out.nrecords, 7);
	ck_assert_int_eq(F.reads_buf, 1); /* read once, encoded twice */
	ck_assert_int_eq(F.reads_ctr, 1);
	ck_assert_int_eq(F.reads_delay, 1);
	const struct sflow_sample *s = decode_one(&out);
	ck_assert_ptr_nonnull(find(s, SFLOW_TAG(ENT, 3)));
	sflow_datagram_free(&D);
	/* exactly the standard records */
	ck_assert_int_eq(bsf_counters_port(&SRC, 0, 1, SCRATCH, std, &out), SFLOW_OK);
	ck_assert_uint_eq(out.omitted, 0x1e);
	ck_assert_uint_eq(out.len, std);
	ck_assert_uint_eq(out.nrecords, 4);
	/* not even those */
	ck_assert_int_eq(bsf_counters_port(&SRC, 0, 1, SCRATCH, std - 4, &out), SFLOW_ERR_FULL);
	ck_assert_uint_eq(out.len, 0);
}
END_TEST

START_TEST(device_full)
{
	struct bsf_counters_out out;
	fake_init();
	SRC.window = 1;
	ck_assert_int_eq(bsf_counters_device(&SRC, 9, SCRATCH, sizeof SCRATCH, &out), SFLOW_OK);
	ck_assert_int_eq(F.reads_dev, 1);
	ck_assert_int_eq(F.reads_buf, 0);
	ck_assert_uint_eq(F.last_window, 1);
	ck_assert_uint_eq(out.nrecords, 3);
	/* 24 + 4413:1 16 + E:5 8+8+64+4+32+4+64 + E:6 8+4+64 */
	ck_assert_uint_eq(out.len, 24 + 16 + 184 + 76);
	const struct sflow_sample *s = decode_one(&out);
	ck_assert_uint_eq(s->h.counters.sequence_number, 9);
	ck_assert_uint_eq(s->h.counters.source_id_type, 2);
	ck_assert_uint_eq(s->h.counters.source_id_index, 1);
	ck_assert_uint_eq(s->records[0].tag, SFLOW_TAG(4413, 1));
	ck_assert_int_eq(s->records[0].u.bst_device.uc_pc, 5000);
	ck_assert_int_eq(s->records[0].u.bst_device.mc_pc, -1);

	ck_assert_uint_eq(s->records[1].tag, SFLOW_TAG(ENT, 5));
	const struct sflow_own_device_pools *p = &s->records[1].u.own.u.pools;
	struct sflow_own_buffer q;
	ck_assert_uint_eq(p->cell_bytes, 256);
	ck_assert_uint_eq(p->total_cells, 100000);
	check_buf(&p->uc, 100, 25600, 512, 131072, 1024, 5000, 42);
	check_buf(&p->mc, U32X, U32X, U32X, U32X, U32X, -1, U64X);
	ck_assert_uint_eq(p->ingress.n, 1);
	ck_assert_uint_eq(p->egress.n, 2);
	ck_assert_int_eq(sflow_own_buffer_at(&p->ingress, 0, &q), 0);
	check_buf(&q, 1, 256, 2, 512, 8, 2500, 43);
	ck_assert_int_eq(sflow_own_buffer_at(&p->egress, 0, &q), 0);
	check_buf(&q, 3, 768, 6, 1536, 8, 7500, 44);
	ck_assert_int_eq(sflow_own_buffer_at(&p->egress, 1, &q), 0);
	check_buf(&q, 0, 0, 0, 0, 8, 0, 45);

	ck_assert_uint_eq(s->records[2].tag, SFLOW_TAG(ENT, 6));
	const struct sflow_own_cpu_queues *c = &s->records[2].u.own.u.cpu;
	ck_assert_uint_eq(c->queues.n, 2);
	ck_assert_int_eq(sflow_own_buffer_at(&c->queues, 0, &q), 0);
	check_buf(&q, 1, 64, 1, 64, 10, 1000, 46);
	ck_assert_int_eq(sflow_own_buffer_at(&c->queues, 1, &q), 0);
	check_buf(&q, 0, 0, 0, 0, 0, -1, 47);
	sflow_datagram_free(&D);

	/* device index 0 means 1; another index is kept */
	SRC.device_index = 0;
	ck_assert_int_eq(bsf_counters_device(&SRC, 1, SCRATCH, sizeof SCRATCH, &out), SFLOW_OK);
	s = decode_one(&out);
	ck_assert_uint_eq(s->h.counters.source_id_index, 1);
	sflow_datagram_free(&D);
	SRC.device_index = 3;
	ck_assert_int_eq(bsf_counters_device(&SRC, 1, SCRATCH, sizeof SCRATCH, &out), SFLOW_OK);
	s = decode_one(&out);
	ck_assert_uint_eq(s->h.counters.source_id_index, 3);
	sflow_datagram_free(&D);
}
END_TEST

START_TEST(device_capabilities)
{
	struct bsf_counters_out out;
	fake_init();
	/* buffers but no pools, no CPU queues, no cells: E:5 with empty pools */
	F.dev.caps = BSF_CAP_BUFFERS;
	F.dev.cell_bytes = 0;
	ck_assert_int_eq(bsf_counters_device(&SRC, 1, SCRATCH, sizeof SCRATCH, &out), SFLOW_OK);
	ck_assert_uint_eq(out.nrecords, 2);
	const struct sflow_sample *s = decode_one(&out);
	const struct sflow_own_device_pools *p = &find(s, SFLOW_TAG(ENT, 5))->u.own.u.pools;
	ck_assert_uint_eq(p->cell_bytes, U32X);
	ck_assert_uint_eq(p->total_cells, U32X);
	ck_assert_uint_eq(p->ingress.n, 0);
	ck_assert_uint_eq(p->egress.n, 0);
	check_buf(&p->uc, 100, U32X, 512, U32X, 1024, 5000, U64X);
	ck_assert_ptr_null(find(s, SFLOW_TAG(ENT, 6)));
	sflow_datagram_free(&D);
	/* nothing: 4413:1 unknown only */
	F.dev.caps = 0;
	F.reads_dev = 0;
	ck_assert_int_eq(bsf_counters_device(&SRC, 1, SCRATCH, sizeof SCRATCH, &out), SFLOW_OK);
	ck_assert_int_eq(F.reads_dev, 0);
	ck_assert_uint_eq(out.nrecords, 1);
	s = decode_one(&out);
	ck_assert_int_eq(s->records[0].u.bst_device.uc_pc, -1);
	ck_assert_int_eq(s->records[0].u.bst_device.mc_pc, -1);
	sflow_datagram_free(&D);
	/* fallback: room for 4413:1 and E:5 only */
	fake_init();
	ck_assert_int_eq(bsf_counters_device(&SRC, 1, SCRATCH, 24 + 16 + 184, &out), SFLOW_OK);
	ck_assert_uint_eq(out.omitted, BSF_COUNTERS_OWN_CPU_QUEUES);
	ck_assert_uint_eq(out.nrecords, 2);
}
END_TEST

/* ---- sampler statistics (E:7) */

static void mkstat(struct sflow_own_sampler_stat *st, const char *name, uint64_t base)
{
	memset(st, 0, sizeof *st);
	snprintf(st->name, sizeof st->name, "%s", name);
	st->seen = base + 10;
	st->passed = base;
	st->no_ticket = 10;
	st->ticket_balance = -2;
	st->ticket_batch = 64;
	st->consumed_all = 3;
}

START_TEST(device_sampler_stats)
{
	struct sflow_own_sampler_stat st[3];
	struct sflow_own_sampler_stat got;
	struct bsf_counters_out out;
	uint32_t n = 99;

	fake_init();
	mkstat(&st[0], "a1", 100);
	mkstat(&st[1], "b2", 200);
	mkstat(&st[2], "c3", 300);
	SRC.samplers = st;
	SRC.n_samplers = 2;
	/* E:7 after E:5 and E:6: 8 + count 4 + 2 x (name 4 + 4 + 100) */
	ck_assert_int_eq(bsf_counters_device(&SRC, 4, SCRATCH, sizeof SCRATCH, &out), SFLOW_OK);
	ck_assert_uint_eq(out.nrecords, 4);
	ck_assert_uint_eq(out.omitted, 0);
	ck_assert_uint_eq(out.len, 24 + 16 + 184 + 76 + 12 + 2 * 108);
	const struct sflow_sample *s = decode_one(&out);
	ck_assert_uint_eq(s->records[3].tag, SFLOW_TAG(ENT, 7));
	const struct sflow_own_sampler_stats *a = &s->records[3].u.own.u.samplers;
	ck_assert_uint_eq(a->n, 2);
	ck_assert_int_eq(sflow_own_sampler_at(a, 1, &got), 0);
	ck_assert_str_eq(got.name, "b2");
	ck_assert_uint_eq(got.seen, 210);
	ck_assert_uint_eq(got.passed, 200);
	ck_assert_uint_eq(got.no_ticket, 10);
	ck_assert_int_eq(got.ticket_balance, -2);
	ck_assert_uint_eq(got.ticket_batch, 64);
	ck_assert_uint_eq(got.consumed_all, 3);
	sflow_datagram_free(&D);

	/* no room for E:7 next to the others: left out (last first), and
	 * reported, never dropped silently */
	ck_assert_int_eq(bsf_counters_device(&SRC, 4, SCRATCH, 24 + 16 + 184 + 76, &out), SFLOW_OK);
	ck_assert_uint_eq(out.omitted, BSF_COUNTERS_OWN_SAMPLER_STATS);
	ck_assert_uint_eq(out.nrecords, 3);

	/* ... then in samples of their own: 3 samplers, room for 2 */
	SRC.n_samplers = 3;
	F.reads_dev = 0;
	ck_assert_int_eq(
	    bsf_counters_device_samplers(&SRC, 5, 0, SCRATCH, 24 + 12 + 2 * 108, &n, &out),
	    SFLOW_OK);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(out.len, 24 + 12 + 2 * 108);
	ck_assert_int_eq(F.reads_dev, 0); /* no backend read */
	s = decode_one(&out);
	ck_assert_uint_eq(s->h.counters.sequence_number, 5);
	ck_assert_uint_eq(s->h.counters.source_id_type, 2);
	ck_assert_uint_eq(s->nrecords, 1);
	ck_assert_uint_eq(s->records[0].u.own.u.samplers.n, 2);
	sflow_datagram_free(&D);
	ck_assert_int_eq(
	    bsf_counters_device_samplers(&SRC, 6, 2, SCRATCH, 24 + 12 + 2 * 108, &n, &out),
	    SFLOW_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(out.len, 24 + 12 + 108);
	s = decode_one(&out);
	ck_assert_int_eq(sflow_own_sampler_at(&s->records[0].u.own.u.samplers, 0, &got), 0);
	ck_assert_str_eq(got.name, "c3");
	sflow_datagram_free(&D);
	/* not even one fits; nothing left to send */
	ck_assert_int_eq(bsf_counters_device_samplers(&SRC, 6, 2, SCRATCH, 24 + 12 + 107, &n, &out),
			 SFLOW_ERR_FULL);
	ck_assert_int_eq(
	    bsf_counters_device_samplers(&SRC, 6, 3, SCRATCH, sizeof SCRATCH, &n, &out),
	    SFLOW_ERR_INVALID);
}
END_TEST

/* ---- visibility event samples: the bytes, written out by hand */

static uint32_t be32(const uint8_t *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static size_t put32(uint8_t *b, size_t at, uint32_t v)
{
	b[at] = (uint8_t)(v >> 24);
	b[at + 1] = (uint8_t)(v >> 16);
	b[at + 2] = (uint8_t)(v >> 8);
	b[at + 3] = (uint8_t)v;
	return at + 4;
}

static size_t put64(uint8_t *b, size_t at, uint64_t v)
{
	at = put32(b, at, (uint32_t)(v >> 32));
	return put32(b, at, (uint32_t)v);
}

#define TAG_OWN1 0x07ED9001u /* 32473 << 12 | 1 */

/* Sample E:1's tag, length and six fixed fields, its record count, then
 * record E:1's tag and length (72). */
static size_t put_event_start(uint8_t *b, uint32_t len, const struct bsf_evsample_event *p,
			      uint32_t nrec)
{
	const uint32_t w[] = {
	    TAG_OWN1, len,	     p->seq,	     p->source_type, p->source_index,
	    p->drops, p->in_ifindex, p->out_ifindex, nrec,	     TAG_OWN1,
	    72};
	size_t at = 0;

	for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
		at = put32(b, at, w[i]);
	return at;
}

START_TEST(event_sample_bytes)
{
	static const uint8_t hdr[6] = {1, 2, 3, 4, 5, 6};
	struct bsf_evsample_event p = {.enterprise = ENT,
				       .seq = 9,
				       .source_type = 0,
				       .source_index = 3,
				       .drops = 4,
				       .in_ifindex = 2,
				       .out_ifindex = 3,
				       .header_bytes = 128};
	struct vis_event ev;
	uint8_t want[256], got[256];
	size_t len = 0, at = 0;

	memset(&ev, 0, sizeof ev);
	ev.type = VIS_EV_HIGH_DELAY;
	ev.level = 2;
	ev.severity = 3;
	ev.tag = 7;
	ev.event_id = ev.own_id = 0x100000002ull;
	ev.port = 2;
	ev.queue = 5;
	ev.in_port = 1;
	ev.reason = 259; /* not sent: not a forensics event */
	ev.depth_bytes = 70000;
	ev.delay_ns = 123456;
	ev.peak_bytes = 9; /* not sent: not congestion */
	ev.t_ns = 0x0102030405060708ull;
	ev.frame_len = 64;
	ev.hdr_len = sizeof hdr;
	memcpy(ev.hdr, hdr, sizeof hdr);

	/* sample E:1: length 192, seq 9, source 0:3, drops 4, in 2, out 3, 6
	 * records; record E:1 visibility_event, 72 bytes */
	at = put_event_start(want, 192, &p, 6);
	at = put32(want, at, 2); /* high_delay */
	at = put32(want, at, 0); /* flags */
	at = put32(want, at, 2);
	at = put32(want, at, 3);
	at = put32(want, at, 7);
	at = put64(want, at, 0x100000002ull);
	at = put64(want, at, 0x100000002ull);
	at = put32(want, at, 5);     /* queue */
	at = put32(want, at, 0);     /* reason */
	at = put32(want, at, 70000); /* depth */
	at = put32(want, at, 123456);
	at = put32(want, at, 0);	  /* peak */
	at = put64(want, at, UINT64_MAX); /* peak time: none */
	at = put64(want, at, 0);	  /* duration */
	/* 0:1 sampled_header: ethernet, frame 64, 4 stripped, 6 bytes + 2 pad */
	at = put32(want, at, 1);
	at = put32(want, at, 24);
	at = put32(want, at, 1);
	at = put32(want, at, 64);
	at = put32(want, at, 4);
	at = put32(want, at, 6);
	memcpy(want + at, hdr, 6);
	want[at + 6] = want[at + 7] = 0;
	at += 8;
	/* 0:1036 queue, 0:1039 delay, 0:1040 depth, 0:1043 time */
	at = put32(want, at, 1036);
	at = put32(want, at, 4);
	at = put32(want, at, 5);
	at = put32(want, at, 1039);
	at = put32(want, at, 4);
	at = put32(want, at, 123456);
	at = put32(want, at, 1040);
	at = put32(want, at, 4);
	at = put32(want, at, 70000);
	at = put32(want, at, 1043);
	at = put32(want, at, 8);
	at = put64(want, at, 0x0102030405060708ull);
	ck_assert_uint_eq(at, 200);

	memset(got, 0xee, sizeof got);
	ck_assert_int_eq(bsf_evsample_vis_event(&p, &ev, got, sizeof got, &len), SFLOW_OK);
	ck_assert_uint_eq(len, 200);
	ck_assert_mem_eq(got, want, 200);
	/* the overhead bound holds: 200 = 192 + 8 header bytes */
	ck_assert_uint_le(len, BSF_EVSAMPLE_OVERHEAD + 8);
	/* one byte short: full, never a partial sample */
	ck_assert_int_eq(bsf_evsample_vis_event(&p, &ev, got, 199, &len), SFLOW_ERR_FULL);
}
END_TEST

/* A drop's record for 0:5: type 1, its own id in both ids, the reason,
 * the queue (multicast queue 2 = 16 + 2 here) and depth; no delay. */
START_TEST(drop_record)
{
	struct vis_event ev;
	struct sflow_own_vis_event o;

	memset(&ev, 0, sizeof ev);
	ev.type = VIS_EV_DROP;
	ev.event_id = ev.own_id = 77;
	ev.port = 4;
	ev.queue = BSF_MAX_QUEUES + 2;
	ev.reason = 260;
	ev.depth_bytes = 0x1FFFFFFFFull; /* saturates */
	ev.delay_ns = 5000;		 /* a drop has no delay: 0 */
	ev.peak_bytes = 9;
	ev.duration_ns = 9;
	bsf_evsample_vis_record(&ev, &o);
	ck_assert_uint_eq(o.type, SFLOW_OWN_VIS_DROP);
	ck_assert_uint_eq(o.flags, SFLOW_OWN_VIS_FLAG_MULTICAST);
	ck_assert_uint_eq(o.level, 0);
	ck_assert_uint_eq(o.severity, 0);
	ck_assert_uint_eq(o.tag, 0);
	ck_assert_uint_eq(o.event_id, 77);
	ck_assert_uint_eq(o.own_id, 77);
	ck_assert_uint_eq(o.queue, 2);
	ck_assert_uint_eq(o.reason, 260);
	ck_assert_uint_eq(o.depth, 0xFFFFFFFEu);
	ck_assert_uint_eq(o.delay, 0);
	ck_assert_uint_eq(o.peak, 0);
	ck_assert_uint_eq(o.peak_time_ns, UINT64_MAX);
	ck_assert_uint_eq(o.duration_ns, 0);
	/* unknown queue (a drop before queueing): queue all ones, and not
	 * port scope (bit 2 is for events about the whole port); no queue, no
	 * depth: all ones too, whatever the backend put there (the model
	 * says 0 for an ACL drop) */
	ev.queue = VIS_NONE;
	ev.depth_bytes = 0;
	bsf_evsample_vis_record(&ev, &o);
	ck_assert_uint_eq(o.flags, 0);
	ck_assert_uint_eq(o.queue, 0xFFFFFFFFu);
	ck_assert_uint_eq(o.depth, 0xFFFFFFFFu);
	/* a drop is never an E:1 sample of its own */
	{
		struct bsf_evsample_event p = {.enterprise = ENT, .header_bytes = 128};
		uint8_t buf[256];
		size_t len = 0;

		ck_assert_int_eq(bsf_evsample_vis_event(&p, &ev, buf, sizeof buf, &len),
				 SFLOW_ERR_INVALID);
	}
}
END_TEST

START_TEST(event_sample_congestion_port)
{
	struct bsf_evsample_event p = {.enterprise = ENT,
				       .seq = 1,
				       .source_type = 0,
				       .source_index = 7,
				       .out_ifindex = 7,
				       .header_bytes = 128};
	struct vis_event ev;
	uint8_t want[160], got[160];
	size_t len = 0, at = 0;

	memset(&ev, 0, sizeof ev);
	ev.type = VIS_EV_CONGESTION_END;
	ev.flags = VIS_EVF_PORT_SCOPE;
	ev.event_id = ev.own_id = 77;
	ev.port = 6;
	ev.queue = VIS_NONE;
	ev.in_port = VIS_NONE;
	ev.depth_bytes = 1000;
	ev.delay_ns = UINT64_MAX;
	ev.peak_bytes = 5000000000ull; /* saturates */
	ev.peak_t_ns = 0x11;
	ev.duration_ns = 0x22;
	ev.t_ns = 0x33;

	/* 24 + 4 + E:1 80 + 0:1043 16: no header, no queue (port scope), no
	 * delay (unknown), no 0:1040 (a port's depth is not a queue's) */
	at = put_event_start(want, 124, &p, 2); /* seq 1, 0:7, out 7 */
	at = put32(want, at, 5);		/* congestion_end */
	at = put32(want, at, 1u << 2);		/* port scope */
	at = put32(want, at, 0);
	at = put32(want, at, 0);
	at = put32(want, at, 0);
	at = put64(want, at, 77);
	at = put64(want, at, 77);
	at = put32(want, at, 0xFFFFFFFFu); /* no queue */
	at = put32(want, at, 0);
	at = put32(want, at, 1000);
	at = put32(want, at, 0xFFFFFFFFu); /* delay unknown */
	at = put32(want, at, 0xFFFFFFFEu); /* peak saturated */
	at = put64(want, at, 0x11);
	at = put64(want, at, 0x22);
	at = put32(want, at, 1043);
	at = put32(want, at, 8);
	at = put64(want, at, 0x33);
	ck_assert_uint_eq(at, 132);
	ck_assert_int_eq(bsf_evsample_vis_event(&p, &ev, got, sizeof got, &len), SFLOW_OK);
	ck_assert_uint_eq(len, 132);
	ck_assert_mem_eq(got, want, 132);
}
END_TEST

START_TEST(event_sample_forensics_multicast)
{
	struct bsf_evsample_event p = {.enterprise = ENT,
				       .seq = 2,
				       .source_type = 0,
				       .source_index = 1,
				       .in_ifindex = 2,
				       .out_ifindex = 1,
				       .header_bytes = 16};
	struct vis_event ev;
	uint8_t got[256];
	size_t len = 0;
	/* record order and lengths, walked from the start of the records */
	static const uint32_t tags[] = {TAG_OWN1, 1, 1039, 1040, 1043};
	static const uint32_t lens[] = {72, 32, 4, 4, 8};
	size_t at = 36;

	memset(&ev, 0, sizeof ev);
	ev.type = VIS_EV_FORENSICS;
	ev.flags = VIS_EVF_LAST;
	ev.event_id = 40;
	ev.own_id = 45;
	ev.port = 0;
	ev.queue = BSF_MAX_QUEUES + 3; /* multicast queue 3 */
	ev.reason = 260;
	ev.depth_bytes = 512;
	ev.delay_ns = 900;
	ev.frame_len = 1500;
	ev.hdr_len = 100; /* cut to header_bytes 16 */
	ev.t_ns = 5;
	ck_assert_int_eq(bsf_evsample_vis_event(&p, &ev, got, sizeof got, &len), SFLOW_OK);
	ck_assert_uint_eq(got[35], 5); /* records */
	for (size_t i = 0; i < 5; i++) {
		ck_assert_uint_eq(be32(got + at), tags[i]);
		ck_assert_uint_eq(be32(got + at + 4), lens[i]);
		if (i == 0) {
			ck_assert_uint_eq(be32(got + at + 12),
					  (1u << 1) | (1u << 3));	    /* last, mc */
			ck_assert_uint_eq(be32(got + at + 8 + 36), 3);	    /* queue */
			ck_assert_uint_eq(be32(got + at + 8 + 40), 260);    /* reason */
			ck_assert_uint_eq(be32(got + at + 8 + 20 + 4), 40); /* event id */
			ck_assert_uint_eq(be32(got + at + 8 + 28 + 4), 45); /* own id */
		}
		if (i == 1)
			ck_assert_uint_eq(be32(got + at + 8 + 12), 16); /* header length */
		at += 8 + lens[i];
	}
	ck_assert_uint_eq(at, len);
	/* drops are never event samples, nor is the end of a delay episode */
	ev.type = VIS_EV_DROP;
	ck_assert_int_eq(bsf_evsample_vis_event(&p, &ev, got, sizeof got, &len), SFLOW_ERR_INVALID);
	ev.type = VIS_EV_DELAY_END;
	ck_assert_int_eq(bsf_evsample_vis_event(&p, &ev, got, sizeof got, &len), SFLOW_ERR_INVALID);
}
END_TEST

static Suite *samples_suite(void)
{
	Suite *s = suite_create("samples");
	TCase *tc = tcase_create("port");
	tcase_add_test(tc, port_full);
	tcase_add_test(tc, port_second_and_window);
	tcase_add_test(tc, port_capabilities);
	tcase_add_test(tc, port_eth_counters);
	tcase_add_test(tc, port_fewer_queues);
#if BSF_MAX_QUEUES > 8
	tcase_add_test(tc, port_nine_queues);
#endif
	tcase_add_test(tc, port_read_error);
	tcase_add_test(tc, port_fallback);
	suite_add_tcase(s, tc);
	tc = tcase_create("device");
	tcase_add_test(tc, device_full);
	tcase_add_test(tc, device_capabilities);
	tcase_add_test(tc, device_sampler_stats);
	suite_add_tcase(s, tc);
	tc = tcase_create("event");
	tcase_add_test(tc, event_sample_bytes);
	tcase_add_test(tc, event_sample_congestion_port);
	tcase_add_test(tc, event_sample_forensics_multicast);
	tcase_add_test(tc, drop_record);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(samples_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
