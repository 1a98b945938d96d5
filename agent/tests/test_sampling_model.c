/*
 * test_sampling_model.c - packet sampling end to end through the switch
 * model: 10^6 packets enter port 0 (10G, sampled 1-in-100) in bursts at
 * line rate towards port 1 (1G), so its queue builds and drains; every
 * sampled departure becomes a 0:3 sample (flowsample.c), is decoded with
 * sflow_decode() and checked:
 *
 *  - samples x 100 is within 5 % of 10^6 (the model's skips are uniform
 *    on 1..199, mean 100: about 10^4 samples, standard deviation about
 *    1 %);
 *  - each sample's sample_pool equals the packets that had entered port
 *    0 when it was built (counted from the source's own arrival times),
 *    the final pool is 10^6; sequence numbers are 1, 2, 3, ... without a
 *    gap;
 *  - each sample's 0:1039 transit delay and 0:1040 queue depth equal the
 *    model's ground truth for that packet (its per-packet trace), the
 *    packet being found by the sequence number the source wrote into
 *    its header bytes.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/flowsample.h"
#include "agent/model/model.h"
#include "proto/sflow_decode.h"
#include "proto/sflow_encode.h"

#define NPKT	  1000000u
#define RATE	  100u
#define HDR	  64u
#define RING	  (1u << 17) /* header slots: more than packets ever buffered */
#define IDX_OFF	  42u	     /* where the packet number sits in the header */
#define SPEED_IN  10000000000ull
#define SPEED_OUT 1000000000ull

/* ---- the source: bursts of 1..40 packets back to back at 10G, then a
 * pause so that port 1 (1G) is loaded about 80 % on average */
struct src {
	uint64_t n, t, rng;
	uint32_t burst_left;
	uint8_t *hdrs;	 /* RING x HDR */
	uint64_t *t_arr; /* arrival time of each packet, for the pool check */
};

static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static int src_next(void *st, struct model_pkt *p)
{
	struct src *s = st;
	uint8_t *h;
	uint32_t len;

	if (s->n >= NPKT)
		return 0;
	len = 64 + (uint32_t)(next_rand(&s->rng) % (1518 - 64 + 1));
	if (s->burst_left == 0) {
		uint32_t b = 1 + (uint32_t)(next_rand(&s->rng) % 40);
		/* a burst of b packets of about 791 bytes at 1G takes about
		 * b * 6.5 us; pause so the average is about 80 % */
		s->t += (uint64_t)b * 8000u;
		s->burst_left = b;
	}
	s->burst_left--;
	/* back to back at 10G: (len + 20) * 8 / 10 ns */
	s->t += ((uint64_t)len + 20) * 8 / 10;
	h = s->hdrs + (s->n % RING) * HDR;
	memset(h, 0, HDR);
	memcpy(h, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01\x08\x00", 14);
	h[14] = 0x45;
	h[IDX_OFF] = (uint8_t)(s->n >> 24);
	h[IDX_OFF + 1] = (uint8_t)(s->n >> 16);
	h[IDX_OFF + 2] = (uint8_t)(s->n >> 8);
	h[IDX_OFF + 3] = (uint8_t)s->n;
	memset(p, 0, sizeof *p);
	p->t_ns = s->t;
	s->t_arr[s->n] = s->t;
	p->len = len;
	p->in_port = 0;
	p->out_port = 1;
	p->tc = 0;
	p->hdr_len = HDR;
	p->hdr = h;
	p->flow_id = (uint32_t)s->n;
	p->cast = MODEL_CAST_UNICAST;
	s->n++;
	return 1;
}

static void src_free(void *st)
{
	struct src *s = st;

	free(s->hdrs);
	free(s->t_arr);
	free(s);
}

/* ---- ground truth from the model's per-packet trace */
struct truth {
	uint64_t *delay;
	uint32_t *depth;
	uint8_t *seen;
	uint64_t departed, dropped;
};

static void trace_cb(void *arg, const struct model_trace *tr)
{
	struct truth *g = arg;

	if (!tr->departed) {
		g->dropped++;
		return;
	}
	g->departed++;
	if (tr->flow_id < NPKT) {
		g->delay[tr->flow_id] = tr->t_ns - tr->t_arr_ns;
		g->depth[tr->flow_id] = tr->depth_bytes;
		g->seen[tr->flow_id] = 1;
	}
}

/* The daemon's model backend does this conversion (backend_model.c). */
static void to_bsf(const struct model_event *m, struct bsf_event *e)
{
	memset(e, 0, sizeof *e);
	e->type = BSF_EV_SAMPLE;
	e->in_port = m->in_port;
	e->out_port = m->out_port;
	e->queue = m->queue;
	e->multicast = m->mc;
	e->frame_len = m->len;
	e->t_ns = m->t_ns;
	e->depth_bytes = m->depth_bytes;
	e->transit_ns = m->delay_ns;
	e->hdr_len = m->hdr_len < BSF_HDR_MAX ? m->hdr_len : BSF_HDR_MAX;
	memcpy(e->hdr, m->hdr, e->hdr_len);
}

START_TEST(test_one_million)
{
	struct model_config cfg;
	struct model_err err;
	struct model *m;
	struct src *s = calloc(1, sizeof *s);
	struct model_source ms = {.next = NULL};
	struct truth g;
	struct bsf_flows f;
	struct bsf_port_desc pd[2];
	struct bsf_device_desc dev;
	static struct model_event evs[4096];
	struct bsf_event be;
	uint8_t buf[BSF_FLOW_SCRATCH];
	struct model_if_counters c;
	struct model_stats st;
	uint64_t t = 0, nsamples = 0, checked = 0, last_pool = 0, max_depth = 0, max_delay = 0;
	uint32_t expect_seq = 1;
	uint64_t arrived = 0; /* packets with arrival time <= t */
	const uint64_t *t_arr;

	ck_assert_ptr_nonnull(s);
	s->hdrs = malloc((size_t)RING * HDR);
	s->t_arr = calloc(NPKT, sizeof *s->t_arr);
	s->rng = 42;
	ck_assert_ptr_nonnull(s->hdrs);
	ck_assert_ptr_nonnull(s->t_arr);
	t_arr = s->t_arr;
	memset(&g, 0, sizeof g);
	g.delay = calloc(NPKT, sizeof *g.delay);
	g.depth = calloc(NPKT, sizeof *g.depth);
	g.seen = calloc(NPKT, 1);
	ck_assert(g.delay && g.depth && g.seen);

	ck_assert_int_eq(model_config_init(&cfg, 2, SPEED_IN), 0);
	cfg.ports[1].speed_bps = SPEED_OUT;
	cfg.ports[0].sampling_rate = RATE;
	cfg.event_capacity = 65536;
	cfg.seed = 7;
	m = model_new(&cfg, &err);
	ck_assert_msg(m != NULL, "%s", err.msg);
	model_config_release(&cfg);
	model_set_trace(m, trace_cb, &g);
	ms.next = src_next;
	ms.free = src_free;
	ms.state = s;
	ms.name = "bursts";
	ck_assert_int_eq(model_add_source(m, &ms), 0);

	memset(pd, 0, sizeof pd);
	memset(&dev, 0, sizeof dev);
	pd[0].ifindex = 1;
	pd[0].sampling_rate = RATE;
	pd[1].ifindex = 2;
	dev.nports = 2;
	dev.ports = pd;
	bsf_flows_init(&f);
	ck_assert_int_eq(bsf_flows_set_device(&f, &dev), 0);

	for (;;) {
		int idle;
		size_t n;

		t += 1000000; /* 1 ms of model time per round */
		model_advance_to(m, t);
		idle = model_idle(m);
		/* the source has been asked for every packet up to t: those
		 * have t_arr filled in (later ones are still 0) */
		while (arrived < NPKT && t_arr[arrived] != 0 && t_arr[arrived] <= t)
			arrived++;
		ck_assert_int_eq(model_read_counters(m, 0, &c), 0);
		while ((n = model_events_read(m, evs, 4096)) > 0) {
			for (size_t i = 0; i < n; i++) {
				struct sflow_dgram_builder b;
				struct sflow_addr a = {SFLOW_ADDR_IP4, {10, 0, 0, 1}};
				struct sflow_datagram d;
				struct sflow_decode_error de;
				const struct sflow_sample *sm;
				const uint8_t *dg;
				size_t len = 0, dlen;
				uint32_t idx = UINT32_MAX, transit = 0, depth = 0;

				ck_assert_int_eq(evs[i].type, MODEL_EV_SAMPLE);
				to_bsf(&evs[i], &be);
				ck_assert_int_eq(
				    bsf_flows_build(&f, &be, c.sample_pool, buf, sizeof buf, &len),
				    SFLOW_OK);
				ck_assert_int_eq(sflow_builder_init(&b, &a, 0, 1400, 0), SFLOW_OK);
				ck_assert_int_eq(sflow_builder_add(&b, buf, len), SFLOW_OK);
				dg = sflow_builder_finish(&b, 1, 0, &dlen);
				ck_assert_int_eq(sflow_decode(dg, dlen, NULL, &d, &de), SFLOW_OK);
				sm = &d.samples[0];
				ck_assert_uint_eq(sm->h.flow.sequence_number, expect_seq);
				expect_seq++;
				ck_assert_uint_eq(sm->h.flow.source_id_index, 1);
				ck_assert_uint_eq(sm->h.flow.input_value, 1);
				ck_assert_uint_eq(sm->h.flow.output_value, 2);
				ck_assert_uint_eq(sm->h.flow.sampling_rate, RATE);
				ck_assert_uint_eq(sm->h.flow.sample_pool, arrived);
				ck_assert_uint_ge(sm->h.flow.sample_pool, last_pool);
				last_pool = sm->h.flow.sample_pool;
				for (uint32_t r = 0; r < sm->nrecords; r++) {
					const struct sflow_record *rec = &sm->records[r];

					if (rec->kind == SFLOW_REC_SAMPLED_HEADER) {
						const uint8_t *h = rec->u.header.header;

						ck_assert_uint_ge(rec->u.header.header_length,
								  IDX_OFF + 4);
						idx = ((uint32_t)h[IDX_OFF] << 24) |
						      ((uint32_t)h[IDX_OFF + 1] << 16) |
						      ((uint32_t)h[IDX_OFF + 2] << 8) |
						      h[IDX_OFF + 3];
					} else if (rec->kind == SFLOW_REC_TRANSIT) {
						transit = rec->u.delay_ns;
					} else if (rec->kind == SFLOW_REC_QUEUE_DEPTH) {
						depth = rec->u.depth;
					}
				}
				ck_assert_uint_lt(idx, NPKT);
				ck_assert_msg(g.seen[idx], "sample of packet %u never departed",
					      idx);
				ck_assert_uint_eq(transit, g.delay[idx]);
				ck_assert_uint_eq(depth, g.depth[idx]);
				if (depth > max_depth)
					max_depth = depth;
				if (transit > max_delay)
					max_delay = transit;
				checked++;
				nsamples++;
				sflow_datagram_free(&d);
			}
		}
		if (idle)
			break;
		ck_assert_uint_lt(t, 600ull * 1000000000ull);
	}
	model_get_stats(m, &st);
	ck_assert_uint_eq(st.events_lost, 0);
	ck_assert_uint_eq(g.dropped, 0);
	ck_assert_uint_eq(g.departed, NPKT);
	ck_assert_int_eq(model_read_counters(m, 0, &c), 0);
	ck_assert_uint_eq(c.sample_pool, NPKT);
	ck_assert_uint_eq(arrived, NPKT);
	ck_assert_uint_eq(c.samples_marked, nsamples);
	/* the estimate within 5 % */
	ck_assert_msg(nsamples * RATE >= NPKT * 95 / 100 && nsamples * RATE <= NPKT * 105 / 100,
		      "%llu samples x %u = %llu, not within 5 %% of %u",
		      (unsigned long long)nsamples, RATE, (unsigned long long)(nsamples * RATE),
		      NPKT);
	fprintf(stderr,
		"test_sampling_model: %llu samples x %u = %llu for %u packets; "
		"max depth %llu bytes, max transit %llu ns\n",
		(unsigned long long)nsamples, RATE, (unsigned long long)(nsamples * RATE), NPKT,
		(unsigned long long)max_depth, (unsigned long long)max_delay);
	/* the queue really did build (the test would be weak otherwise) */
	ck_assert_uint_gt(max_depth, 10000);
	ck_assert_uint_gt(max_delay, 100000);
	ck_assert_uint_eq(checked, nsamples);
	ck_assert_uint_eq(f.ports[0].next_seq, nsamples + 1);
	bsf_flows_fini(&f);
	model_free(m);
	free(g.delay);
	free(g.depth);
	free(g.seen);
}
END_TEST

static Suite *sampling_model_suite(void)
{
	Suite *s = suite_create("sampling_model");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_one_million);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(sampling_model_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
