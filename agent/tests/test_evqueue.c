/*
 * test_evqueue.c - the daemon's queue of pushed backend events
 * (evqueue.h): bounded, first in first out, losses counted by type, the
 * pusher's event size honoured (a smaller event's missing fields come out
 * as bsf_event_init leaves them), the wake-up delivered once on the loop
 * whatever the number of pushes before it ran, nothing taken while it
 * refuses (a device change).  (Pushes from another thread:
 * test_push_thread.)
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <event2/event.h>
#include <stddef.h>
#include <string.h>

#include "agent/evqueue.h"

static int wakes;

static void on_wake(void *arg)
{
	(void)arg;
	wakes++;
}

static struct bsf_event ev_of(uint32_t type, uint32_t reason)
{
	struct bsf_event e;

	bsf_event_init(&e);
	e.type = type;
	e.reason = reason;
	e.in_port = 1;
	return e;
}

START_TEST(bounded_fifo)
{
	struct event_base *base = event_base_new();
	struct bsf_evq *q;
	struct bsf_event in[6], out[8];

	wakes = 0;
	q = bsf_evq_new(base, 4, on_wake, NULL);
	ck_assert_ptr_nonnull(q);
	in[0] = ev_of(BSF_EV_DROP, 10);
	in[1] = ev_of(BSF_EV_SAMPLE, 11);
	in[2] = ev_of(BSF_EV_DROP, 12);
	in[3] = ev_of(BSF_EV_ENQUEUE, 13);
	in[4] = ev_of(BSF_EV_DROP, 14);	  /* lost */
	in[5] = ev_of(BSF_EV_SAMPLE, 15); /* lost */
	ck_assert_uint_eq(bsf_evq_push(q, in, 3), 3);
	ck_assert_uint_eq(bsf_evq_push(q, in + 3, 3), 1);
	ck_assert_uint_eq(bsf_evq_lost(q, BSF_EV_DROP), 1);
	ck_assert_uint_eq(bsf_evq_lost(q, BSF_EV_SAMPLE), 1);
	ck_assert_uint_eq(bsf_evq_lost(q, BSF_EV_ENQUEUE), 0);
	ck_assert_uint_eq(bsf_evq_lost_all(q), 2);
	ck_assert_uint_eq(bsf_evq_pushed(q), 4);
	/* one wake-up for both pushes, on the loop */
	ck_assert_int_eq(wakes, 0);
	event_base_loop(base, EVLOOP_NONBLOCK);
	ck_assert_int_eq(wakes, 1);
	event_base_loop(base, EVLOOP_NONBLOCK);
	ck_assert_int_eq(wakes, 1);
	ck_assert_uint_eq(bsf_evq_pop(q, out, 3), 3);
	ck_assert_uint_eq(out[0].reason, 10);
	ck_assert_uint_eq(out[1].reason, 11);
	ck_assert_uint_eq(out[2].reason, 12);
	/* room again: the ring wraps */
	ck_assert_uint_eq(bsf_evq_push(q, in + 4, 2), 2);
	ck_assert_uint_eq(bsf_evq_pop(q, out, 8), 3);
	ck_assert_uint_eq(out[0].reason, 13);
	ck_assert_uint_eq(out[1].reason, 14);
	ck_assert_uint_eq(out[2].reason, 15);
	ck_assert_uint_eq(bsf_evq_pop(q, out, 8), 0);
	/* an unknown type is counted in [0] */
	bsf_evq_push(q, in, 4);
	in[0].type = 99;
	ck_assert_uint_eq(bsf_evq_push(q, in, 1), 0);
	ck_assert_uint_eq(bsf_evq_lost(q, 0), 1);
	ck_assert_uint_eq(bsf_evq_lost(q, 99), 1);
	/* events_ready without a push wakes too */
	event_base_loop(base, EVLOOP_NONBLOCK);
	wakes = 0;
	bsf_evq_wake(q);
	bsf_evq_wake(q);
	event_base_loop(base, EVLOOP_NONBLOCK);
	ck_assert_int_eq(wakes, 1);
	bsf_evq_free(q);
	event_base_free(base);
}
END_TEST

/* A pusher built against an older layout: events of its smaller size,
 * read with its stride; what lies past its size (here "NOT-MINE") is not
 * read, the fields come out unknown / empty. */
START_TEST(smaller_events)
{
	struct event_base *base = event_base_new();
	struct bsf_evq *q = bsf_evq_new(base, 8, on_wake, NULL);
	const size_t small = offsetof(struct bsf_event, copy_id) + sizeof(uint64_t);
	unsigned char raw[3 * sizeof(struct bsf_event)];
	struct bsf_event out[4];

	ck_assert_ptr_nonnull(q);
	memset(raw, 0, sizeof raw);
	for (int i = 0; i < 3; i++) {
		struct bsf_event e = ev_of(BSF_EV_DROP, 20 + (uint32_t)i);

		e.size = (uint32_t)small;
		e.out_port = 7;
		strcpy(e.function, "NOT-MINE");
		e.sampling_rate = 77;
		/* packed at the pusher's stride; its tail overwritten by the next */
		memcpy(raw + (size_t)i * small, &e, i < 2 ? small : sizeof e);
	}
	ck_assert_uint_eq(bsf_evq_push(q, (const struct bsf_event *)(void *)raw, 3), 3);
	ck_assert_uint_eq(bsf_evq_pop(q, out, 4), 3);
	for (int i = 0; i < 3; i++) {
		ck_assert_uint_eq(out[i].size, sizeof out[i]);
		ck_assert_uint_eq(out[i].reason, 20 + (uint32_t)i);
		ck_assert_uint_eq(out[i].out_port, 7);
		ck_assert_str_eq(out[i].function, "");
		ck_assert_uint_eq(out[i].sampling_rate, 0);
	}
	/* too small to hold even its type: counted lost */
	out[0].size = 4;
	ck_assert_uint_eq(bsf_evq_push(q, out, 1), 0);
	ck_assert_uint_eq(bsf_evq_lost(q, 0), 1);
	bsf_evq_free(q);
	event_base_free(base);
}
END_TEST

/* While refusing (a device change), nothing is taken: every event is
 * counted lost by type and refused; then pushes are taken again. */
START_TEST(refusing)
{
	struct event_base *base = event_base_new();
	struct bsf_evq *q = bsf_evq_new(base, 4, on_wake, NULL);
	struct bsf_event in[3], out[4];

	ck_assert_ptr_nonnull(q);
	in[0] = ev_of(BSF_EV_DROP, 1);
	in[1] = ev_of(BSF_EV_SAMPLE, 2);
	in[2] = ev_of(BSF_EV_SAMPLE, 3);
	ck_assert_uint_eq(bsf_evq_push(q, in, 1), 1);
	ck_assert_uint_eq(bsf_evq_refuse(q, 1), 0);
	ck_assert_uint_eq(bsf_evq_push(q, in, 3), 0);
	ck_assert_uint_eq(bsf_evq_push(q, in + 1, 1), 0);
	ck_assert_uint_eq(bsf_evq_lost(q, BSF_EV_DROP), 1);
	ck_assert_uint_eq(bsf_evq_lost(q, BSF_EV_SAMPLE), 3);
	ck_assert_uint_eq(bsf_evq_refused(q), 4);
	ck_assert_uint_eq(bsf_evq_refuse(q, 0), 4); /* refused in that time */
	ck_assert_uint_eq(bsf_evq_push(q, in + 2, 1), 1);
	ck_assert_uint_eq(bsf_evq_pop(q, out, 4), 2);
	ck_assert_uint_eq(out[0].reason, 1);
	ck_assert_uint_eq(out[1].reason, 3);
	/* a second time: its own count */
	bsf_evq_refuse(q, 1);
	ck_assert_uint_eq(bsf_evq_push(q, in, 2), 0);
	ck_assert_uint_eq(bsf_evq_refuse(q, 0), 2);
	ck_assert_uint_eq(bsf_evq_refused(q), 6);
	ck_assert_uint_eq(bsf_evq_pushed(q), 2);
	bsf_evq_free(q);
	event_base_free(base);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("evqueue");
	TCase *tc = tcase_create("evqueue");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, bounded_fifo);
	tcase_add_test(tc, smaller_events);
	tcase_add_test(tc, refusing);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? 0 : 1;
}
