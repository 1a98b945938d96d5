/*
 * test_backend_model_qev.c - per-queue enqueue / dequeue events through
 * the model backend (backend_model.c): set_queue_events, the conversion of
 * the model's events into struct bsf_event, and the bounded clock steps
 * that keep a streamed queue's events from overflowing the event ring.
 * The backend is opened with no event loop and driven on virtual time with
 * bsf_backend_model_run_to().
 *
 * The scenario of `exact`: port 0 (10G) sends 100 frames of 1004 bytes at
 * 8 Gb/s, constant, to port 1 (4.096 Gb/s) unicast queue 0, which is
 * tail-dropped at 10 packets.  On the wire a frame is 1024 bytes, so
 * arrivals come every A = 1024 * 8 / 8 = 1024 ns and port 1 sends one
 * every S = 1024 * 8 / 4.096 = 2000 ns.  The queue never empties while
 * arrivals last (A < S), so with a_1 the first arrival, departure j ends
 * at a_1 + j * S; arrival k is at a_1 + (k - 1) * A.  No departure
 * coincides with an arrival (2000 j = 1024 (k - 1) needs k - 1 to be a
 * multiple of 125).  The test replays these closed forms in time order
 * (admit if fewer than 10 packets are in the queue, the one being sent
 * included) and checks every event of the stream against them: ids,
 * times, depths after each event (packets x 1004 bytes), transit times,
 * the drops' tail ids.  By hand: before arrival 20, 9 packets have left
 * (9 x 2000 <= 19 x 1024 < 10 x 2000) and 19 came, so arrival 20 is the
 * first drop, with tail id 19 and depth 10 x 1004.  Port 1 also sends 50
 * frames to port 0, whose queue is not streamed: no event may name it.
 *
 * `no_loss` runs 30000 arrivals at the same rates, far more events than
 * the ring's 4096 slots, in one call: the clock must stop when the ring is
 * full and nothing may be lost; the stream stays consistent.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <confuse.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/backend.h"
#include "agent/model/backend_model.h"
#include "agent/backends.h"
#include "agent/model/scenario.h"

#define LEN	 1004u
#define A_NS	 1024u
#define S_NS	 2000u
#define QLIM	 10u
#define NARR	 100u
#define NARR_BIG 30000u

static const char scenario_fmt[] = "model {\n"
				   "  seed = 1\n"
				   "  ports = 2\n"
				   "  speed = 10G\n"
				   "  queue_packets = 10\n"
				   "  port 1 { speed = 4096000000 }\n"
				   "  traffic main {\n"
				   "    ports = {0}\n"
				   "    destination = fixed\n"
				   "    to = 1\n"
				   "    rate = 8G\n"
				   "    arrival = constant\n"
				   "    size = 1004\n"
				   "    dscp = 0\n"
				   "    flows = 1\n"
				   "    packets = %u\n"
				   "  }\n"
				   "  traffic back {\n"
				   "    ports = {1}\n"
				   "    destination = fixed\n"
				   "    to = 0\n"
				   "    rate = 1G\n"
				   "    size = 500\n"
				   "    flows = 1\n"
				   "    packets = 50\n"
				   "  }\n"
				   "}\n";

struct fixture {
	char *section; /* the model section's body */
	const struct bsf_backend_ops *ops;
	void *st;
};

static void open_model(struct fixture *f, unsigned narrivals)
{
	struct bsf_backend_args args;
	char text[2048], err[512];
	const char *open, *close;

	snprintf(text, sizeof text, scenario_fmt, narrivals);
	/* the section as the daemon hands it: between its braces */
	open = strchr(text, '{');
	close = strrchr(text, '}');
	ck_assert(open && close && close > open);
	f->section = strndup(open + 1, (size_t)(close - open - 1));
	ck_assert_ptr_nonnull(f->section);
	memset(&args, 0, sizeof args);
	args.size = sizeof args;
	args.section_text = f->section;
	args.section_file = "test";
	args.section_line = 1;
	args.config_file = "test";
	f->ops = bsf_backend_model_ops();
	ck_assert_uint_eq(f->ops->abi_version, 3);
	err[0] = '\0';
	f->st = f->ops->open(&args, err, sizeof err);
	ck_assert_msg(f->st != NULL, "%s", err);
}

static void close_model(struct fixture *f)
{
	f->ops->close(f->st);
	free(f->section);
}

/* Run the model until every source is done and the switch drained (1 s of
 * virtual time is far more than needed), reading events as they come; the
 * events of out_port 1 queue 0 unicast go into *out (grown as needed).
 * Returns how many of them; *stops counts the calls the ring stopped. */
static size_t run_all(struct fixture *f, struct bsf_event **out, unsigned *stops)
{
	struct bsf_event buf[256];
	size_t n = 0, cap = 0;
	int more;

	*out = NULL;
	*stops = 0;
	do {
		size_t got;

		more = bsf_backend_model_run_to(f->st, 1000000000ull);
		*stops += (unsigned)more;
		for (size_t i = 0; i < 256; i++)
			bsf_event_init(&buf[i]);
		while ((got = f->ops->read_events(f->st, buf, 256)) > 0) {
			for (size_t i = 0; i < got; i++) {
				const struct bsf_event *e = &buf[i];

				/* only the streamed queue has enqueues and dequeues */
				if (e->type == BSF_EV_ENQUEUE || e->type == BSF_EV_DEQUEUE) {
					ck_assert_uint_eq(e->out_port, 1);
					ck_assert_uint_eq(e->queue, 0);
					ck_assert_uint_eq(e->multicast, 0);
				}
				/* and the only drops */
				ck_assert(e->type != BSF_EV_SAMPLE);
				if (e->type == BSF_EV_DROP)
					ck_assert_uint_eq(e->out_port, 1);
				if (n == cap) {
					cap = cap ? 2 * cap : 1024;
					*out = realloc(*out, cap * sizeof **out);
					ck_assert_ptr_nonnull(*out);
				}
				(*out)[n++] = *e;
			}
		}
	} while (more);
	return n;
}

/* What every streamed event has, whatever the scenario. */
static void check_common(const struct bsf_event *e)
{
	ck_assert_uint_eq(e->flags & BSF_EVF_QUEUE_STREAM, BSF_EVF_QUEUE_STREAM);
	ck_assert_uint_eq(e->in_port, 0);
	ck_assert_uint_eq(e->frame_len, LEN);
	ck_assert_uint_eq(e->tc, 0);
	ck_assert_uint_eq(e->copy_id, 0);
	ck_assert_uint_gt(e->hdr_len, 0);
}

START_TEST(exact)
{
	struct fixture f;
	struct bsf_event *ev;
	size_t n, i = 0;
	unsigned stops;
	uint64_t t1, adm_t[NARR + 1];
	uint32_t c = 0, admitted = 0, departed = 0, drops = 0;
	char err[256];

	open_model(&f, NARR);
	ck_assert(f.ops->describe(f.st)->caps & BSF_CAP_QUEUE_EVENTS);
	ck_assert_int_eq(f.ops->set_queue_events(f.st, 1, 0, 0, BSF_QEV_ENQUEUE | BSF_QEV_DEQUEUE,
						 err, sizeof err),
			 0);
	n = run_all(&f, &ev, &stops);
	ck_assert_uint_eq(stops, 0);
	ck_assert_uint_gt(n, 0);
	ck_assert_uint_eq(ev[0].type, BSF_EV_ENQUEUE);
	t1 = ev[0].t_ns; /* a_1 */

	/* replay the closed forms in time order: arrival k (1..NARR) and
	 * departure j (1..admitted) */
	for (uint32_t k = 1; k <= NARR || departed < admitted;) {
		uint64_t ta = t1 + (uint64_t)(k - 1) * A_NS;
		uint64_t td = t1 + (uint64_t)(departed + 1) * S_NS;
		const struct bsf_event *e;

		ck_assert_msg(i < n, "stream ends early: %zu events", n);
		e = &ev[i++];
		check_common(e);
		if (k <= NARR && (departed == admitted || ta < td)) {
			ck_assert_uint_eq(e->t_ns, ta);
			if (c < QLIM) {
				admitted++;
				c++;
				adm_t[admitted] = ta;
				ck_assert_uint_eq(e->type, BSF_EV_ENQUEUE);
				ck_assert_uint_eq(e->pkt_id, admitted);
			} else {
				drops++;
				ck_assert_uint_eq(e->type, BSF_EV_DROP);
				ck_assert_uint_eq(e->tail_id, admitted);
				ck_assert_uint_eq(e->reason, 259); /* no_buffer_space */
				ck_assert_uint_eq(e->stage, BSF_STAGE_EGRESS_ADMISSION);
				if (drops == 1) { /* by hand, see the top */
					ck_assert_uint_eq(k, 20);
					ck_assert_uint_eq(e->tail_id, 19);
				}
			}
			k++;
		} else {
			departed++;
			c--;
			ck_assert_uint_eq(e->type, BSF_EV_DEQUEUE);
			ck_assert_uint_eq(e->pkt_id, departed);
			ck_assert_uint_eq(e->t_ns, td);
			ck_assert_uint_eq(e->transit_ns, td - adm_t[departed]);
		}
		ck_assert_uint_eq(e->out_port, 1);
		ck_assert_uint_eq(e->queue, 0);
		ck_assert_uint_eq(e->depth_bytes, (uint64_t)c * LEN);
	}
	ck_assert_uint_eq(i, n);
	ck_assert_uint_eq(admitted + drops, NARR);
	ck_assert_uint_gt(drops, 0);
	ck_assert_uint_eq(f.ops->event_overflows(f.st), 0);
	ck_assert_uint_eq(f.ops->queue_events_lost(f.st), 0);
	free(ev);
	close_model(&f);
}
END_TEST

START_TEST(no_loss)
{
	struct fixture f;
	struct bsf_event *ev;
	struct bsf_if_counters ic;
	size_t n;
	unsigned stops;
	uint64_t enq = 0, deq = 0, drops = 0, depth = 0, t = 0;
	char err[256];

	open_model(&f, NARR_BIG);
	ck_assert_int_eq(f.ops->set_queue_events(f.st, 1, 0, 0, BSF_QEV_ENQUEUE | BSF_QEV_DEQUEUE,
						 err, sizeof err),
			 0);
	n = run_all(&f, &ev, &stops);
	/* about 30000 enqueues and drops and 15000 dequeues through a ring of
	 * 4096: the clock stopped many times */
	ck_assert_uint_ge(stops, 5);
	for (size_t i = 0; i < n; i++) {
		const struct bsf_event *e = &ev[i];

		check_common(e);
		ck_assert_uint_ge(e->t_ns, t);
		t = e->t_ns;
		if (e->type == BSF_EV_ENQUEUE) {
			ck_assert_uint_eq(e->pkt_id, ++enq);
			depth += LEN;
		} else if (e->type == BSF_EV_DEQUEUE) {
			ck_assert_uint_eq(e->pkt_id, ++deq);
			ck_assert_uint_le(deq, enq);
			depth -= LEN;
		} else {
			ck_assert_uint_eq(e->type, BSF_EV_DROP);
			ck_assert_uint_eq(e->tail_id, enq);
			ck_assert_uint_eq(depth, (uint64_t)QLIM * LEN);
			drops++;
		}
		ck_assert_uint_eq(e->depth_bytes, depth);
	}
	ck_assert_uint_eq(enq + drops, NARR_BIG);
	ck_assert_uint_eq(deq, enq);
	ck_assert_uint_eq(depth, 0);
	ck_assert_int_eq(f.ops->read_counters(f.st, 1, &ic, err, sizeof err), 0);
	ck_assert_uint_eq(ic.out_ucast, deq);
	ck_assert_uint_eq(ic.out_discards, drops);
	ck_assert_uint_eq(f.ops->event_overflows(f.st), 0);
	ck_assert_uint_eq(f.ops->queue_events_lost(f.st), 0);
	ck_assert_uint_eq(f.ops->drop_events_lost(f.st), 0);
	free(ev);
	close_model(&f);
}
END_TEST

/* Streams off by default, off again on request; bad requests refused. */
START_TEST(switches)
{
	struct fixture f;
	struct bsf_event *ev;
	size_t n;
	unsigned stops;
	char err[256];

	open_model(&f, NARR);
	ck_assert_int_eq(f.ops->set_queue_events(f.st, 1, 0, 0, BSF_QEV_ENQUEUE, err, sizeof err),
			 0);
	ck_assert_int_eq(f.ops->set_queue_events(f.st, 1, 0, 0, 0, err, sizeof err), 0);
	n = run_all(&f, &ev, &stops);
	/* only the drops, without the stream flag but with their tail */
	ck_assert_uint_eq(n, 40);
	for (size_t i = 0; i < n; i++) {
		ck_assert_uint_eq(ev[i].type, BSF_EV_DROP);
		ck_assert_uint_eq(ev[i].flags, 0);
		ck_assert_uint_eq(ev[i].pkt_id, 0);
		ck_assert_uint_ne(ev[i].tail_id, BSF_UNKNOWN);
	}
	free(ev);

	ck_assert_int_eq(f.ops->set_queue_events(f.st, 2, 0, 0, 3, err, sizeof err), -1);
	ck_assert_str_eq(err, "model: no port 2");
	ck_assert_int_eq(f.ops->set_queue_events(f.st, 1, 8, 0, 3, err, sizeof err), -1);
	ck_assert_str_eq(err, "model: port 1 has no unicast queue 8");
	ck_assert_int_eq(f.ops->set_queue_events(f.st, 1, 0, 1, 3, err, sizeof err), -1);
	ck_assert_str_eq(err, "model: port 1 has no multicast queue 0");
	ck_assert_int_eq(f.ops->set_queue_events(f.st, 1, 0, 0, 4, err, sizeof err), -1);
	ck_assert_str_eq(err, "model: unknown queue event flags 0x4");
	close_model(&f);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("backend_model_qev");
	TCase *tc = tcase_create("qev");
	SRunner *sr;
	int nf;

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, exact);
	tcase_add_test(tc, no_loss);
	tcase_add_test(tc, switches);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? 0 : 1;
}
