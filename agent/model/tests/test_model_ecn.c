/*
 * test_model_ecn.c - WRED with ECN marking and on an averaged depth
 * (model.h, struct model_wred_config), against their formulas:
 *  - at fixed depths (the egress port paused, bursts of 1000-byte
 *    packets, each meeting the queue 1000 bytes deeper than the one
 *    before, 2000 rounds), ECN-capable packets are marked CE with the
 *    linear min/max probability of their depth and never dropped, and
 *    packets that are not ECN-capable are dropped with it instead;
 *  - the average with gain g moves 2^-g of the way to the depth at each
 *    packet: with a step threshold (max = min + 1) the first packet hit
 *    is the first whose average, by the closed form of the average of a
 *    ramp, reaches it (gain 0: the depth itself);
 *  - the marks are counted per queue and in the stats, and the header
 *    bytes of a marked packet's event carry CE with a valid IPv4
 *    checksum (IPv6: its traffic class).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/model/headers.h"
#include "agent/model/model.h"
#include "agent/model/tests/tsrc.h"

#define G10    10000000000ULL
#define ROUND  100000 /* ns between bursts */
#define BURST  30     /* packets a burst */
#define PKTLEN 1000

/* Bursts of BURST packets of PKTLEN bytes from port 0 to port 1, 1 ns
 * apart, one every ROUND ns, with the ECN field ecn and header bytes of
 * IPv4 (or IPv6) UDP with that field. */
struct burst_src {
	unsigned rounds, i;
	uint8_t ecn;
	uint8_t hdr[64];
	uint16_t hdr_len;
};

static int burst_next(void *state, struct model_pkt *p)
{
	struct burst_src *s = state;
	if (s->i >= s->rounds * BURST)
		return 0;
	memset(p, 0, sizeof(*p));
	p->t_ns = (uint64_t)(s->i / BURST + 1) * ROUND + s->i % BURST;
	p->len = PKTLEN;
	p->in_port = 0;
	p->out_port = 1;
	p->flow_id = s->i;
	p->tos = model_tos(26, s->ecn); /* as in its header */
	p->hdr = s->hdr;
	p->hdr_len = s->hdr_len;
	s->i++;
	return 1;
}

static void burst_add(struct model *m, unsigned rounds, uint8_t ecn, int ipv6)
{
	struct burst_src *s = calloc(1, sizeof(*s));
	ck_assert_ptr_nonnull(s);
	s->rounds = rounds;
	s->ecn = ecn;
	struct model_hdr_spec h;
	memset(&h, 0, sizeof(h));
	h.vlan = -1;
	h.ip_version = ipv6 ? 6 : 4;
	h.l4 = MODEL_IPPROTO_UDP;
	h.dscp = 26;
	h.ecn = ecn;
	h.ttl = 64;
	h.src_ip[0] = 10;
	h.dst_ip[0] = 10;
	h.dst_ip[3] = 1;
	h.sport = 1000;
	h.dport = 2000;
	h.dst_mac[0] = 2;
	s->hdr_len = (uint16_t)model_hdr_build(&h, PKTLEN, s->hdr);
	ck_assert_uint_gt(s->hdr_len, 0);
	struct model_source src = {.next = burst_next, .free = free, .state = s, .name = "burst"};
	ck_assert_int_eq(model_add_source(m, &src), 0);
}

/* Run the bursts, the egress port paused while each arrives and then
 * released to drain. */
static void run_rounds(struct model *m, unsigned rounds)
{
	for (unsigned r = 1; r <= rounds; r++) {
		model_advance_to(m, (uint64_t)r * ROUND - 1);
		ck_assert_int_eq(model_set_egress_pause(m, 1, 1), 0);
		model_advance_to(m, (uint64_t)r * ROUND + BURST + 10);
		ck_assert_int_eq(model_set_egress_pause(m, 1, 0), 0);
	}
	ck_assert_int_eq(model_run(m, MODEL_T_END), 0);
}

/* Per position in a burst (= depth met / PKTLEN): trials, marked, dropped. */
struct by_depth {
	uint64_t trials[BURST], marked[BURST], dropped[BURST], wred_drops, other_drops, ce;
};

static void depth_trace(void *arg, const struct model_trace *tr)
{
	struct by_depth *c = arg;
	unsigned k = tr->depth_bytes / PKTLEN;
	ck_assert_uint_lt(k, BURST);
	c->trials[k]++;
	if (tr->departed) {
		c->marked[k] += tr->ecn == MODEL_ECN_CE;
		c->ce += tr->ecn == MODEL_ECN_CE;
	} else {
		c->dropped[k]++;
		if (tr->cause == MODEL_DROP_WRED)
			c->wred_drops++;
		else
			c->other_drops++;
	}
}

static struct model *wred_switch(unsigned gain, uint32_t minb, uint32_t maxb, double maxp)
{
	struct model_config cfg;
	ck_assert_int_eq(tcfg_simple(&cfg, 2, G10), 0);
	struct model_wred_config *w = &cfg.ports[1].ucq[0].wred;
	w->enabled = 1;
	w->ecn = 1;
	w->gain = (uint8_t)gain;
	w->min_bytes = minb;
	w->max_bytes = maxb;
	w->max_prob = maxp;
	cfg.event_capacity = 1u << 16;
	struct model *m = tmodel(&cfg);
	model_config_release(&cfg);
	return m;
}

/*
 * The marking curve at fixed depths: min 4000, max 20000, max_prob 0.5;
 * position k of a burst meets depth 1000 k (every earlier packet of its
 * burst is in the queue: marked packets are admitted).  Its marks are
 * binomial (2000, p(1000 k)), p = 0 below min, 0.5 (d - min) / (max -
 * min) up to max, 1 from max: within 4 sd (exactly 0 and 2000 at the
 * ends), no packet dropped.  Packets that are not ECN-capable: dropped
 * with the same probability at the depth they meet instead.
 */
START_TEST(test_ecn_curve)
{
	const double minb = 4000, maxb = 20000, maxp = 0.5;
	const unsigned R = 2000;
	for (int ect = 1; ect >= 0; ect--) {
		struct model *m = wred_switch(0, (uint32_t)minb, (uint32_t)maxb, maxp);
		struct by_depth *c = calloc(1, sizeof(*c));
		ck_assert_ptr_nonnull(c);
		model_set_trace(m, depth_trace, c);
		burst_add(m, R, ect ? MODEL_ECN_ECT0 : MODEL_ECN_NOT_ECT, 0);
		run_rounds(m, R);
		ck_assert_uint_eq(c->other_drops, 0);
		double worst = 0;
		for (unsigned k = 0; k < BURST; k++) {
			double d = k * 1000.0;
			double p = d < minb ? 0 : d >= maxb ? 1 : maxp * (d - minb) / (maxb - minb);
			uint64_t n = c->trials[k], hit = ect ? c->marked[k] : c->dropped[k];
			if (n == 0)
				continue;
			double sd = sqrt(n * p * (1 - p)), z = sd > 0 ? fabs(hit - n * p) / sd : 0;
			if (z > worst)
				worst = z;
			ck_assert_msg(fabs(hit - n * p) <= 4 * sd,
				      "%s depth %.0f: %llu of %llu, curve %.4f",
				      ect ? "ECT" : "not-ECT", d, (unsigned long long)hit,
				      (unsigned long long)n, p);
			if (ect)
				ck_assert_uint_eq(n, R); /* every position met, none dropped */
		}
		struct model_stats st;
		model_get_stats(m, &st);
		struct model_port_drops dr;
		model_read_drops(m, 1, &dr);
		printf("WRED %s: marked %llu (stats %llu, queue %llu), dropped %llu; at 1000-byte "
		       "depth steps, the worst |hits - n p| is %.2f sd; depth 12000: %llu of %llu "
		       "(%.0f)\n",
		       ect ? "ECT(0), ECN on" : "not ECN-capable, ECN on",
		       (unsigned long long)c->ce, (unsigned long long)st.ecn_marked,
		       (unsigned long long)dr.ecn_ucq[0], (unsigned long long)c->wred_drops, worst,
		       (unsigned long long)(ect ? c->marked[12] : c->dropped[12]),
		       (unsigned long long)c->trials[12], c->trials[12] * 0.25);
		if (ect) {
			ck_assert_uint_eq(c->wred_drops, 0);
			ck_assert_uint_gt(c->ce, 10000);
			ck_assert_uint_eq(st.ecn_marked, c->ce);
			ck_assert_uint_eq(dr.ecn_ucq[0], c->ce);
			ck_assert_uint_eq(dr.ecn, c->ce);
			ck_assert_uint_eq(dr.ucq[0][MODEL_DROP_WRED], 0);
		} else {
			ck_assert_uint_eq(c->ce, 0);
			ck_assert_uint_eq(st.ecn_marked, 0);
			ck_assert_uint_eq(dr.ucq[0][MODEL_DROP_WRED], c->wred_drops);
		}
		free(c);
		model_free(m);
	}
}
END_TEST

/* The first position of a burst that WRED hits. */
struct first_hit {
	int64_t first;
	unsigned n;
};

static void first_trace(void *arg, const struct model_trace *tr)
{
	struct first_hit *f = arg;
	if (tr->departed && tr->ecn == MODEL_ECN_CE && f->first < 0)
		f->first = (int64_t)(tr->depth_bytes / PKTLEN);
	f->n++;
}

/*
 * The average: with max = min + 1 and max_prob 0 a packet is hit exactly
 * when the average it is judged by is at least min + 1.  Packet j of one
 * burst meets depth D_j = 1000 j; the average after it is A_j = (1 - w)
 * A_(j-1) + w D_j from A_(-1) = 0, w = 2^-gain, which is
 * A_j = 1000 (j - (1 - w) / w (1 - (1 - w)^j)).  The first packet hit is
 * the first j with A_j >= min + 1: for min 10000, 11 with gain 0 (the
 * depth), 12, 17, 22, 29 with gains 1, 3, 4, 5, never within the 30
 * packets of the burst with gain 6.
 */
static int64_t ewma_first(unsigned gain, double minb)
{
	double w = gain ? ldexp(1.0, -(int)gain) : 1;
	for (unsigned j = 0; j < BURST; j++) {
		double a = 1000.0 * (j - (1 - w) / w * (1 - pow(1 - w, j)));
		if (a >= minb + 1)
			return j;
	}
	return -1;
}

START_TEST(test_ecn_average)
{
	static const unsigned gains[] = {0, 1, 3, 4, 5, 6};
	const double minb = 10000;
	for (unsigned i = 0; i < sizeof(gains) / sizeof(gains[0]); i++) {
		struct model *m = wred_switch(gains[i], (uint32_t)minb, (uint32_t)minb + 1, 0);
		struct first_hit f = {-1, 0};
		model_set_trace(m, first_trace, &f);
		burst_add(m, 1, MODEL_ECN_ECT1, 0);
		run_rounds(m, 1);
		ck_assert_uint_eq(f.n, BURST);
		int64_t want = ewma_first(gains[i], minb);
		printf("WRED average, gain %u: first packet marked %lld (closed form %lld)\n",
		       gains[i], (long long)f.first, (long long)want);
		ck_assert_int_eq(f.first, want);
		model_free(m);
	}
	ck_assert_int_eq(ewma_first(0, minb), 11);
	ck_assert_int_eq(ewma_first(1, minb), 12);
	ck_assert_int_eq(ewma_first(3, minb), 17);
	ck_assert_int_eq(ewma_first(4, minb), 22);
	ck_assert_int_eq(ewma_first(5, minb), 29);
	ck_assert_int_eq(ewma_first(6, minb), -1);
}
END_TEST

/* Header bytes of a marked packet's departure event: CE in the IP
 * header, the IPv4 checksum still valid (the sum of the header's 16-bit
 * words is 0xffff); IPv6: the traffic class's two low bits. */
static unsigned ip_sum(const uint8_t *p, unsigned n)
{
	unsigned s = 0;
	for (unsigned i = 0; i < n; i += 2)
		s += (unsigned)p[i] << 8 | p[i + 1];
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return s;
}

START_TEST(test_ecn_header)
{
	for (int v6 = 0; v6 < 2; v6++) {
		struct model *m = wred_switch(0, 4000, 5000, 1);
		ck_assert_int_eq(model_set_queue_events(m, 1, 0, 0, MODEL_QEV_DEQUEUE, NULL), 0);
		burst_add(m, 1, MODEL_ECN_ECT0, v6);
		run_rounds(m, 1);
		struct model_event ev[BURST];
		size_t n = model_events_read(m, ev, BURST);
		ck_assert_uint_eq(n, BURST);
		unsigned ce = 0;
		for (size_t i = 0; i < n; i++) {
			const uint8_t *ip = ev[i].hdr + 14;
			unsigned field = v6 ? (ip[1] >> 4) & 3 : ip[1] & 3;
			ck_assert_uint_eq(field, ev[i].ecn);
			ck_assert_uint_eq(v6 ? (unsigned)((ip[0] & 15) << 2 | ip[1] >> 6)
					     : ip[1] >> 2,
					  26); /* the DSCP kept */
			if (!v6)
				ck_assert_uint_eq(ip_sum(ip, 20), 0xffff);
			/* depth met 5000 (position 5, max) and deeper: hit;
			 * 4000 (min) has probability 0 */
			ck_assert_uint_eq(ev[i].ecn,
					  i >= 5 ? MODEL_ECN_CE : (unsigned)MODEL_ECN_ECT0);
			ce += ev[i].ecn == MODEL_ECN_CE;
		}
		printf("ECN header rewrite (IPv%d): %u of %zu events CE\n", v6 ? 6 : 4, ce, n);
		model_free(m);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("model_ecn");
	TCase *tc = tcase_create("ecn");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_ecn_curve);
	tcase_add_test(tc, test_ecn_average);
	tcase_add_test(tc, test_ecn_header);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	srunner_run_all(sr, CK_NORMAL);
	int nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? 0 : 1;
}
