/*
 * test_host.c - the host table's events_ready from the loop thread: the
 * daemon drains in the same turn of the loop, before a zero-delay timer
 * the backend started in the same callback (the model's resume after a
 * full ring: it must find the ring read, or it waits for its next tick);
 * from another thread it still goes through the queue's descriptor and
 * the drain runs on the loop thread.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <event2/event.h>
#include <pthread.h>
#include <string.h>

#include "agent/host.h"
#include "agent/log.h"

static char order[16];
static size_t norder;
static struct bsf_hostimpl *hi;
static struct bsf_timer *resume;
static pthread_t drained_on;
static struct event *drain_ev;

/* As the daemon does: the host's drain call activates the drain event,
 * which reads the events when the loop runs it. */
static void drain_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	drained_on = pthread_self();
	order[norder++] = 'd';
}

static void drain(void *arg)
{
	(void)arg;
	event_active(drain_ev, EV_TIMEOUT, 0);
}

static void resume_cb(void *arg)
{
	(void)arg;
	order[norder++] = 'r';
}

/* The backend's tick: events are ready, resume right after. */
static void tick_cb(void *arg)
{
	(void)arg;
	order[norder++] = 't';
	hi->host.events_ready(hi->host.arg);
	ck_assert_int_eq(hi->host.timer_start(resume, 0, 0), 0);
}

START_TEST(ready_on_loop_drains_first)
{
	struct event_base *base = event_base_new();
	struct bsf_timer *tick;

	norder = 0;
	drain_ev = event_new(base, -1, 0, drain_cb, NULL);
	hi = bsf_host_new(base, drain, NULL);
	ck_assert_ptr_nonnull(hi);
	tick = hi->host.timer_new(hi->host.arg, tick_cb, NULL);
	resume = hi->host.timer_new(hi->host.arg, resume_cb, NULL);
	ck_assert_int_eq(hi->host.timer_start(tick, 0, 0), 0);
	for (int i = 0; i < 5; i++)
		event_base_loop(base, EVLOOP_NONBLOCK);
	order[norder] = '\0';
	ck_assert_str_eq(order, "tdr");
	ck_assert(pthread_equal(drained_on, pthread_self()));
	bsf_host_free(hi);
	event_free(drain_ev);
	event_base_free(base);
}
END_TEST

static void *ready_thread(void *arg)
{
	(void)arg;
	hi->host.events_ready(hi->host.arg);
	return NULL;
}

START_TEST(ready_off_loop_through_queue)
{
	struct event_base *base = event_base_new();
	pthread_t t;

	norder = 0;
	drain_ev = event_new(base, -1, 0, drain_cb, NULL);
	hi = bsf_host_new(base, drain, NULL);
	ck_assert_ptr_nonnull(hi);
	ck_assert_int_eq(pthread_create(&t, NULL, ready_thread, NULL), 0);
	pthread_join(t, NULL);
	ck_assert_uint_eq(norder, 0); /* not in the pushing thread */
	event_base_loop(base, EVLOOP_NONBLOCK);
	event_base_loop(base, EVLOOP_NONBLOCK);
	ck_assert_uint_eq(norder, 1);
	ck_assert(pthread_equal(drained_on, pthread_self()));
	bsf_host_free(hi);
	event_free(drain_ev);
	event_base_free(base);
}
END_TEST

int main(void)
{
	Suite *su = suite_create("host");
	TCase *tc = tcase_create("host");
	SRunner *sr;
	int nf;

	bsf_log_init("test_host", 0, 1);
	tcase_add_test(tc, ready_on_loop_drains_first);
	tcase_add_test(tc, ready_off_loop_through_queue);
	suite_add_tcase(su, tc);
	sr = srunner_create(su);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? 0 : 1;
}
