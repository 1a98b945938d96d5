/*
 * test_model_source.c - tests of the engine's source interface (pkt.h):
 * batches (next_batch), header bytes given on request (header()), the
 * promise that spares the per-packet checks (ports, groups), and the
 * traffic generators through it.
 *
 * The hand-made sources here give packets whose every field follows from
 * their number (flow_id), so each test knows the expected values without
 * the engine: header byte j of packet f is (7 f + j) mod 256.  The last
 * test runs the same generator scenario through the batch interface and
 * through next() alone and requires identical event streams (the two
 * paths must not differ in any packet, event or header byte).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "agent/model/model.h"
#include "agent/model/traffic.h"

#define HLEN 32

/* A source of n packets: packet f (0..n-1) arrives at t0 + f * gap ns on
 * in_port 0 to out_port 1 with flow_id f; without header bytes (hdr
 * NULL, hdr_len HLEN) unless eager.  Batches of at most `most` packets. */
struct hsrc {
	uint32_t n, f, most;
	uint64_t t0, gap;
	uint16_t in_port, out_port;
	uint8_t cast;	  /* what packets carry */
	uint8_t mac;	  /* 0: bytes by pattern; 1: even f broadcast, odd multicast */
	int eager;	  /* hand out hdr pointers (to bytes[f]) */
	uint32_t bad_run; /* packets with f % 20 below it have in_port 999 */
	uint32_t nnext, nbatch, nheader;
	uint8_t scratch[HLEN];
	uint8_t (*bytes)[HLEN];
};

static void pattern(uint8_t *b, uint32_t f, int mac)
{
	for (unsigned j = 0; j < HLEN; j++)
		b[j] = (uint8_t)(7 * f + j);
	if (mac) {
		memset(b, f % 2 == 0 ? 0xff : 0x00, 6);
		if (f % 2) {
			b[0] = 0x01;
			b[1] = 0x00;
			b[2] = 0x5e;
		}
	} else {
		b[0] = 0x02; /* a unicast MAC */
	}
}

static void hsrc_fill(struct hsrc *s, struct model_pkt *p)
{
	uint32_t f = s->f++;

	memset(p, 0, sizeof(*p));
	p->t_ns = s->t0 + f * s->gap;
	p->len = 100 + f % 5;
	p->in_port = f % 20 < s->bad_run ? 999 : s->in_port;
	p->out_port = s->out_port;
	p->tc = (uint8_t)(f % 8);
	p->flow_id = f;
	p->hdr_len = HLEN;
	p->cast = s->cast;
	p->src = 12345; /* the engine's field: it must not trust it */
	if (s->eager) {
		pattern(s->bytes[f], f, s->mac);
		p->hdr = s->bytes[f];
	}
}

static int hsrc_next(void *state, struct model_pkt *p)
{
	struct hsrc *s = state;

	s->nnext++;
	if (s->f >= s->n)
		return 0;
	hsrc_fill(s, p);
	return 1;
}

static unsigned hsrc_batch(void *state, struct model_pkt *p, unsigned n)
{
	struct hsrc *s = state;
	unsigned k = 0;

	s->nbatch++;
	ck_assert_uint_ge(n, 1);
	while (k < n && k < s->most && s->f < s->n)
		hsrc_fill(s, &p[k++]);
	return k;
}

static const uint8_t *hsrc_header(void *state, const struct model_pkt *p)
{
	struct hsrc *s = state;

	s->nheader++;
	ck_assert_uint_eq(p->hdr_len, HLEN);
	ck_assert_uint_eq(p->len, 100 + p->flow_id % 5);
	/* valid until the next call only: the engine must copy it at once */
	pattern(s->scratch, p->flow_id, s->mac);
	return s->scratch;
}

static void hsrc_free(void *state)
{
	struct hsrc *s = state;

	free(s->bytes);
	free(s);
}

static struct hsrc *hsrc_make(uint32_t n, struct model_source *out, int batch, int header)
{
	struct hsrc *s = calloc(1, sizeof(*s));

	ck_assert_ptr_nonnull(s);
	s->n = n;
	s->most = 5;
	s->t0 = 1000;
	s->gap = 1000;
	s->out_port = 1;
	s->cast = MODEL_CAST_UNICAST;
	s->bytes = calloc(n ? n : 1, HLEN);
	ck_assert_ptr_nonnull(s->bytes);
	memset(out, 0, sizeof(*out));
	out->next = hsrc_next;
	out->free = hsrc_free;
	out->state = s;
	out->name = "hsrc";
	out->next_batch = batch ? hsrc_batch : NULL;
	out->header = header ? hsrc_header : NULL;
	return s;
}

/* A 2 x 10G switch sampling every packet that enters port 0. */
static struct model *two_ports(void)
{
	struct model_config cfg;
	struct model_err err;
	struct model *m;

	ck_assert_int_eq(model_config_init(&cfg, 2, 10000000000ULL), 0);
	cfg.ports[0].sampling_rate = 1;
	cfg.event_capacity = 8192;
	m = model_new(&cfg, &err);
	ck_assert_msg(m != NULL, "%s", err.msg);
	model_config_release(&cfg);
	return m;
}

/* Add src to m and run until everything has left: n_ok packets arrive
 * and depart, n_bad are rejected. */
static void run_all(struct model *m, const struct model_source *src, uint64_t n_ok, uint64_t n_bad)
{
	struct model_stats st;

	ck_assert_int_eq(model_add_source(m, src), 0);
	ck_assert_int_eq(model_run(m, MODEL_T_END), 0);
	model_get_stats(m, &st);
	ck_assert_uint_eq(st.arrived, n_ok);
	ck_assert_uint_eq(st.copies_departed, n_ok);
	ck_assert_uint_eq(st.bad_pkts, n_bad);
}

/* The sample events of a run: every packet's, in flow order, each with
 * the header bytes of its flow (or none, want_hdr 0). */
static void check_samples(struct model *m, uint32_t n, int want_hdr)
{
	static struct model_event ev[8192];
	size_t k = model_events_read(m, ev, 8192);
	uint8_t b[HLEN];

	ck_assert_uint_eq(k, n);
	for (size_t i = 0; i < k; i++) {
		ck_assert_uint_eq(ev[i].type, MODEL_EV_SAMPLE);
		ck_assert_uint_eq(ev[i].flow_id, i);
		ck_assert_uint_eq(ev[i].len, 100 + i % 5);
		ck_assert_uint_eq(ev[i].tc, i % 8);
		if (!want_hdr) {
			ck_assert_uint_eq(ev[i].hdr_len, 0);
			continue;
		}
		ck_assert_uint_eq(ev[i].hdr_len, HLEN);
		pattern(b, (uint32_t)i, 0);
		ck_assert_mem_eq(ev[i].hdr, b, HLEN);
	}
}

/* Batches: every packet arrives once, in order, at its time; header bytes
 * asked for once per reported packet, and right. */
START_TEST(test_batch_lazy_headers)
{
	struct model *m = two_ports();
	struct model_source src;
	struct hsrc *s = hsrc_make(1000, &src, 1, 1);

	run_all(m, &src, 1000, 0);
	ck_assert_uint_eq(s->nnext, 0);
	/* 1000 packets 5 at a time, then the call that says the end */
	ck_assert_uint_eq(s->nbatch, 201);
	ck_assert_uint_eq(s->nheader, 1000);
	check_samples(m, 1000, 1);
	/* the last packet arrived at 1000 + 999 * 1000 ns and took
	 * (104 + 20) * 8 / 10 = 99.2 ns to send */
	ck_assert_uint_eq(model_now(m), 1000000 + 99);
	model_free(m);
}
END_TEST

/* next() alone (no batch) with header(): the same; and a source with
 * neither header bytes nor header() gives samples without bytes. */
START_TEST(test_next_only_and_no_header)
{
	struct model *m = two_ports();
	struct model_source src;
	struct hsrc *s = hsrc_make(300, &src, 0, 1);

	run_all(m, &src, 300, 0);
	ck_assert_uint_eq(s->nbatch, 0);
	ck_assert_uint_eq(s->nnext, 301);
	check_samples(m, 300, 1);
	model_free(m);

	m = two_ports();
	hsrc_make(300, &src, 1, 0);
	run_all(m, &src, 300, 0);
	check_samples(m, 300, 0);
	model_free(m);

	/* eager header bytes, no header(): the bytes the packets point at */
	m = two_ports();
	s = hsrc_make(300, &src, 1, 0);
	s->eager = 1;
	run_all(m, &src, 300, 0);
	check_samples(m, 300, 1);
	model_free(m);
}
END_TEST

/* Packets without bytes and without a cast: the engine reads the
 * destination MAC through header() (even flows broadcast, odd
 * multicast). */
START_TEST(test_cast_from_header)
{
	struct model *m = two_ports();
	struct model_source src;
	struct model_if_counters c;
	struct hsrc *s = hsrc_make(101, &src, 1, 1);

	s->cast = 0;
	s->mac = 1;
	run_all(m, &src, 101, 0);
	ck_assert_int_eq(model_read_counters(m, 0, &c), 0);
	ck_assert_uint_eq(c.in_bcast, 51);
	ck_assert_uint_eq(c.in_mcast, 50);
	ck_assert_uint_eq(c.in_ucast, 0);
	ck_assert_int_eq(model_read_counters(m, 1, &c), 0);
	ck_assert_uint_eq(c.out_bcast, 51);
	ck_assert_uint_eq(c.out_mcast, 50);
	model_free(m);
}
END_TEST

/* Bad packets are left out and counted, in batches too; a promise that
 * does not fit the model (more ports than it has) is not relied on. */
START_TEST(test_checks_and_promise)
{
	for (int promise = 0; promise < 2; promise++) {
		struct model *m = two_ports();
		struct model_source src;
		struct hsrc *s = hsrc_make(1000, &src, 1, 1);

		s->bad_run = 6; /* 300 of them, some whole batches of 5 */
		if (promise) {
			src.ports = 1000; /* the model has 2 + the CPU port */
			src.groups = 0;
		}
		run_all(m, &src, 700, 300);
		model_free(m);
	}
}
END_TEST

/* Many sources, added while earlier ones hold packets taken ahead (the
 * engine's array of sources grows and moves): each packet arrives once,
 * at its time, from its own source. */
struct seen {
	uint32_t n;
	uint32_t count[40][50];
	int bad;
};

static void trace_cb(void *arg, const struct model_trace *tr)
{
	struct seen *w = arg;
	uint32_t src = tr->flow_id / 1000, f = tr->flow_id % 1000;

	w->n++;
	if (src >= 40 || f >= 50 || tr->t_arr_ns != 1000 + (uint64_t)f * 997 + src ||
	    tr->in_port != src % 2 || !tr->departed)
		w->bad = 1;
	else
		w->count[src][f]++;
}

static int many_next(void *state, struct model_pkt *p)
{
	struct hsrc *s = state;

	if (s->f >= s->n)
		return 0;
	hsrc_fill(s, p);
	p->flow_id += 1000 * s->out_port; /* out_port: the source's number */
	p->t_ns = 1000 + (uint64_t)s->f * 997 - 997 + s->out_port;
	p->out_port = 2;
	return 1;
}

static unsigned many_batch(void *state, struct model_pkt *p, unsigned n)
{
	unsigned k = 0;

	while (k < n && k < 7 && many_next(state, &p[k]))
		k++;
	return k;
}

START_TEST(test_many_sources)
{
	struct model_config cfg;
	struct model_err err;
	struct model *m;
	static struct seen w;

	ck_assert_int_eq(model_config_init(&cfg, 3, 100000000000ULL), 0);
	m = model_new(&cfg, &err);
	ck_assert_msg(m != NULL, "%s", err.msg);
	model_config_release(&cfg);
	memset(&w, 0, sizeof(w));
	model_set_trace(m, trace_cb, &w);
	for (unsigned i = 0; i < 40; i++) {
		struct model_source src;
		struct hsrc *s = hsrc_make(50, &src, 1, 0);

		s->in_port = (uint16_t)(i % 2);
		s->out_port = (uint16_t)i; /* many_next's source number */
		src.next = many_next;
		src.next_batch = i % 3 ? many_batch : NULL;
		ck_assert_int_eq(model_add_source(m, &src), 0);
		if (i % 10 == 9) /* run a little: up to source i's first packet */
			ck_assert_int_eq(model_advance_to(m, 1000 + i), 0);
	}
	ck_assert_int_eq(model_run(m, MODEL_T_END), 0);
	ck_assert_int_eq(w.bad, 0);
	ck_assert_uint_eq(w.n, 40 * 50);
	for (unsigned i = 0; i < 40; i++)
		for (unsigned f = 0; f < 50; f++)
			ck_assert_uint_eq(w.count[i][f], 1);
	ck_assert(model_idle(m));
	model_free(m);
}
END_TEST

/* A trusted source that promises its times never decrease (ordered)
 * and one that does not, added when the clock has passed their first
 * packets: those arrive at once, the later ones at their own times.
 * Packet f is at 1000 + 1000 f ns, in batches of 5; added at 6500 ns,
 * packets 0..5 (all of the first batch, one of the second) arrive at
 * 6500, packet f >= 6 at 1000 + 1000 f. */
struct late_seen {
	uint32_t n;
	int bad;
};

static void late_cb(void *arg, const struct model_trace *tr)
{
	struct late_seen *w = arg;
	uint64_t want = tr->flow_id <= 5 ? 6500 : 1000 + 1000 * (uint64_t)tr->flow_id;

	w->n++;
	if (tr->t_arr_ns != want || !tr->departed)
		w->bad = 1;
}

START_TEST(test_ordered_late_source)
{
	for (int ordered = 0; ordered < 2; ordered++) {
		struct model *m = two_ports();
		struct model_source src;
		struct late_seen w = {0, 0};

		hsrc_make(20, &src, 1, 1);
		src.ports = 2; /* the promise: trusted */
		src.ordered = (uint8_t)ordered;
		model_set_trace(m, late_cb, &w);
		ck_assert_int_eq(model_advance_to(m, 6500), 0);
		ck_assert_int_eq(model_add_source(m, &src), 0);
		ck_assert_int_eq(model_run(m, MODEL_T_END), 0);
		ck_assert_int_eq(w.bad, 0);
		ck_assert_uint_eq(w.n, 20);
		model_free(m);
	}
}
END_TEST

/* A run that stops with only a far event pending (a packet 1 ms ahead)
 * must not leave anything scheduled afterwards for before it late: a
 * source added then, a port unpaused then.  far_model(): a 2 x 10G switch
 * with source A sending at 0 and 1 000 000 ns from port 0 to port 1
 * (100-byte packets take (100 + 20) x 8 / 10 = 96 ns on the wire). */
static struct model *far_model(void)
{
	struct model_config cfg;
	struct model_err err;
	struct model_source a;
	struct model *m;
	struct hsrc *sa;

	ck_assert_int_eq(model_config_init(&cfg, 2, 10000000000ULL), 0);
	m = model_new(&cfg, &err);
	ck_assert_msg(m != NULL, "%s", err.msg);
	model_config_release(&cfg);
	sa = hsrc_make(2, &a, 1, 0);
	sa->t0 = 0;
	sa->gap = 1000000;
	ck_assert_int_eq(model_add_source(m, &a), 0);
	return m;
}

START_TEST(test_after_far_stop)
{
	struct model_stats st;
	struct model_source b;
	struct model *m = far_model();
	struct hsrc *sb;

	/* B: one packet at 600 000, added at 500 000 */
	ck_assert_int_eq(model_advance_to(m, 500000), 0);
	sb = hsrc_make(1, &b, 0, 0);
	sb->t0 = 600000;
	ck_assert_int_eq(model_add_source(m, &b), 0);
	ck_assert_int_eq(model_advance_to(m, 700000), 0);
	model_get_stats(m, &st);
	ck_assert_uint_eq(st.arrived, 2);
	ck_assert_uint_eq(st.copies_departed, 2);
	ck_assert_int_eq(model_run(m, MODEL_T_END), 0);
	model_get_stats(m, &st);
	ck_assert_uint_eq(st.arrived, 3);
	model_free(m);

	/* port 1 paused: A's first packet waits; unpaused at 500 000 it
	 * departs at 500 096 */
	m = far_model();
	ck_assert_int_eq(model_set_egress_pause(m, 1, 0xff), 0);
	ck_assert_int_eq(model_advance_to(m, 500000), 0);
	model_get_stats(m, &st);
	ck_assert_uint_eq(st.arrived, 1);
	ck_assert_uint_eq(st.copies_departed, 0);
	ck_assert_int_eq(model_set_egress_pause(m, 1, 0), 0);
	ck_assert_int_eq(model_advance_to(m, 500095), 0);
	model_get_stats(m, &st);
	ck_assert_uint_eq(st.copies_departed, 0);
	ck_assert_int_eq(model_advance_to(m, 500096), 0);
	model_get_stats(m, &st);
	ck_assert_uint_eq(st.copies_departed, 1);
	model_free(m);
}
END_TEST

/* Generators: the batch interface (lazy headers, no per-packet checks)
 * and next() alone give the same packets, drops, samples and header
 * bytes (multicast, forwarding drops with the TTL 1 variant, hotspot,
 * on/off and Poisson arrivals, a header budget too small for every
 * destination). */
static size_t gen_run(int batch, struct model_event *ev, size_t max, struct model_stats *st)
{
	struct model_config cfg;
	struct model_err err;
	struct model *m;
	size_t n = 0, k;

	ck_assert_int_eq(model_config_init(&cfg, 8, 10000000000ULL), 0);
	cfg.n_mc_groups = 1;
	cfg.mc_groups = calloc(1, sizeof(*cfg.mc_groups));
	ck_assert_ptr_nonnull(cfg.mc_groups);
	cfg.mc_groups[0].nports = 3;
	cfg.mc_groups[0].ports[0] = 1;
	cfg.mc_groups[0].ports[1] = 2;
	cfg.mc_groups[0].ports[2] = 5;
	/* small: buffer drops too (minimums: 576 cells of PGs, 1152 of queues) */
	cfg.total_cells = 3000;
	cfg.ing_pool_cells[0] = 3000 - 576;
	cfg.egr_pool_cells[0] = 3000 - 1152;
	for (unsigned p = 0; p < 8; p++)
		cfg.ports[p].sampling_rate = 3;
	cfg.seed = 99;
	m = model_new(&cfg, &err);
	ck_assert_msg(m != NULL, "%s", err.msg);
	model_config_release(&cfg);
	for (unsigned p = 0; p < 8; p++) {
		struct model_gen_conf c;
		struct model_source s;
		char e[200];

		model_gen_defaults(&c);
		c.nports = 8;
		c.in_port = (uint16_t)p;
		c.rate_bps = 8e9;
		c.size = p % 2 ? MODEL_SIZE_IMIX : MODEL_SIZE_UNIFORM;
		c.size_lo = 128;
		c.size_hi = 1500;
		c.arrival = p % 3 == 0 ? MODEL_ARRIVAL_ONOFF : MODEL_ARRIVAL_POISSON;
		c.period_ns = 20000;
		c.duty = 0.5;
		c.dest = p < 4 ? MODEL_DEST_HOTSPOT : MODEL_DEST_UNIFORM;
		c.dest_port = 6;
		c.hotspot = 0.9;
		c.nflows = 3;
		c.ip_version = p % 4 == 2 ? 6 : 4;
		c.vlan = p == 5 ? 10 : -1;
		c.mc_fraction = 0.1;
		c.mc_group = 1;
		c.drop_fraction = 0.05;
		c.drop_reason = p % 2 ? 257 : 258;
		c.dscp = (uint8_t)(8 * p);
		c.flow_base = 1000 * p;
		c.stop_ns = 400000;
		c.hdr_budget = 4096; /* some destinations over it */
		c.seed = 5;
		ck_assert_int_eq(model_gen_new(&c, &s, e, sizeof(e)), 0);
		if (!batch) {
			s.next_batch = NULL;
			s.header = NULL;
			s.ports = s.groups = 0;
		}
		ck_assert_int_eq(model_add_source(m, &s), 0);
	}
	for (uint64_t t = 10000; t <= 500000; t += 10000) {
		ck_assert_int_eq(model_advance_to(m, t), 0);
		k = model_events_read(m, ev + n, max - n);
		n += k;
	}
	ck_assert_int_eq(model_run(m, MODEL_T_END), 0);
	n += model_events_read(m, ev + n, max - n);
	model_get_stats(m, st);
	ck_assert_uint_eq(st->events_lost, 0);
	model_free(m);
	return n;
}

START_TEST(test_generators_both_ways)
{
	static struct model_event a[20000], b[20000];
	struct model_stats sa, sb;
	size_t na = gen_run(1, a, 20000, &sa), nb = gen_run(0, b, 20000, &sb);
	size_t drops = 0, samples = 0, fwd = 0, mc = 0, hdr = 0;

	ck_assert_uint_eq(sa.arrived, sb.arrived);
	ck_assert_uint_eq(sa.copies_departed, sb.copies_departed);
	ck_assert_uint_eq(sa.copies_dropped, sb.copies_dropped);
	ck_assert_uint_eq(sa.fwd_dropped, sb.fwd_dropped);
	ck_assert_uint_eq(sa.bad_pkts, 0);
	ck_assert_uint_eq(sb.bad_pkts, 0);
	ck_assert_uint_eq(na, nb);
	for (size_t i = 0; i < na; i++) {
		/* the same event, field by field; the header: the engine's
		 * header() lookup gives at least the bytes the eager path has
		 * (over the budget that has none) */
		ck_assert_uint_eq(a[i].type, b[i].type);
		ck_assert_uint_eq(a[i].t_ns, b[i].t_ns);
		ck_assert_uint_eq(a[i].flow_id, b[i].flow_id);
		ck_assert_uint_eq(a[i].len, b[i].len);
		ck_assert_uint_eq(a[i].in_port, b[i].in_port);
		ck_assert_uint_eq(a[i].out_port, b[i].out_port);
		ck_assert_uint_eq(a[i].cause, b[i].cause);
		ck_assert_uint_eq(a[i].reason, b[i].reason);
		ck_assert_uint_eq(a[i].copy_id, b[i].copy_id);
		ck_assert_uint_eq(a[i].depth_bytes, b[i].depth_bytes);
		ck_assert_uint_gt(a[i].hdr_len, 0);
		if (b[i].hdr_len > 0) {
			ck_assert_uint_eq(a[i].hdr_len, b[i].hdr_len);
			ck_assert_mem_eq(a[i].hdr, b[i].hdr, a[i].hdr_len);
			hdr++;
		}
		drops += a[i].type == MODEL_EV_DROP;
		samples += a[i].type == MODEL_EV_SAMPLE;
		fwd += a[i].type == MODEL_EV_DROP && a[i].reason == 257;
		mc += a[i].mc;
	}
	/* the run has each kind of event and packet */
	ck_assert_uint_gt(drops, 100);
	ck_assert_uint_gt(samples, 500);
	ck_assert_uint_gt(fwd, 10);
	ck_assert_uint_gt(mc, 10);
	ck_assert_uint_gt(hdr, na / 10);
}
END_TEST

static Suite *source_suite(void)
{
	Suite *s = suite_create("model_source");
	TCase *t = tcase_create("source");

	tcase_set_timeout(t, 60);
	tcase_add_test(t, test_batch_lazy_headers);
	tcase_add_test(t, test_next_only_and_no_header);
	tcase_add_test(t, test_cast_from_header);
	tcase_add_test(t, test_checks_and_promise);
	tcase_add_test(t, test_many_sources);
	tcase_add_test(t, test_ordered_late_source);
	tcase_add_test(t, test_after_far_stop);
	tcase_add_test(t, test_generators_both_ways);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(source_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
