/*
 * test_linux_ports.c - the pure steps of the linux backend's ports
 * changing while it runs (portset.c), with hand-worked expectations:
 *   - the old -> new index map by ifindex (kept, moved, gone, new);
 *   - one event renumbered: a sample of a port gone dropped, a drop
 *     kept with its gone port unknown, a queue event of a gone queue
 *     dropped, unknown ports left unknown;
 *   - the backend's event queue renumbered in place across its ring's
 *     wrap, order kept, the dropped ones counted;
 *   - the change as one log line (added, renamed, removed; "" unchanged).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "agent/linux/portset.h"

START_TEST(port_map)
{
	/* old: ifindex 3, 5, 7; new: 7, 3, 9 (5 gone, 9 added) */
	const uint32_t o[] = {3, 5, 7}, n[] = {7, 3, 9};
	uint32_t map[3];

	linuxbe_port_map(o, 3, n, 3, map);
	ck_assert_uint_eq(map[0], 1);
	ck_assert_uint_eq(map[1], UINT32_MAX);
	ck_assert_uint_eq(map[2], 0);
	/* everything gone */
	linuxbe_port_map(o, 3, n, 0, map);
	ck_assert_uint_eq(map[0], UINT32_MAX);
	ck_assert_uint_eq(map[2], UINT32_MAX);
}
END_TEST

static struct bsf_event ev(uint32_t type, uint32_t in, uint32_t out)
{
	struct bsf_event e;

	bsf_event_init(&e);
	e.type = type;
	e.in_port = in;
	e.out_port = out;
	return e;
}

START_TEST(event_renumber)
{
	/* old port 0 -> 2, 1 gone, 2 -> 0 */
	const uint32_t map[] = {2, UINT32_MAX, 0};
	struct bsf_event e;

	e = ev(BSF_EV_SAMPLE, 0, 2);
	ck_assert_int_eq(linuxbe_event_renumber(&e, map, 3), 0);
	ck_assert_uint_eq(e.in_port, 2);
	ck_assert_uint_eq(e.out_port, 0);
	/* a sample whose input port is gone: its data source is gone */
	e = ev(BSF_EV_SAMPLE, 1, 0);
	ck_assert_int_eq(linuxbe_event_renumber(&e, map, 3), -1);
	/* output gone: kept, output unknown */
	e = ev(BSF_EV_SAMPLE, 2, 1);
	ck_assert_int_eq(linuxbe_event_renumber(&e, map, 3), 0);
	ck_assert_uint_eq(e.in_port, 0);
	ck_assert_uint_eq(e.out_port, UINT32_MAX);
	/* a drop on a port gone still happened */
	e = ev(BSF_EV_DROP, 1, 1);
	ck_assert_int_eq(linuxbe_event_renumber(&e, map, 3), 0);
	ck_assert_uint_eq(e.in_port, UINT32_MAX);
	ck_assert_uint_eq(e.out_port, UINT32_MAX);
	e = ev(BSF_EV_DROP, UINT32_MAX, 0);
	ck_assert_int_eq(linuxbe_event_renumber(&e, map, 3), 0);
	ck_assert_uint_eq(e.in_port, UINT32_MAX);
	ck_assert_uint_eq(e.out_port, 2);
	/* queue events: the queue's port decides */
	e = ev(BSF_EV_DEQUEUE, UINT32_MAX, 1);
	ck_assert_int_eq(linuxbe_event_renumber(&e, map, 3), -1);
	e = ev(BSF_EV_ENQUEUE, UINT32_MAX, 2);
	ck_assert_int_eq(linuxbe_event_renumber(&e, map, 3), 0);
	ck_assert_uint_eq(e.out_port, 0);
	/* an index beyond the old ports is no port of them */
	e = ev(BSF_EV_SAMPLE, 7, UINT32_MAX);
	ck_assert_int_eq(linuxbe_event_renumber(&e, map, 3), -1);
}
END_TEST

START_TEST(queue_renumber)
{
	const uint32_t map[] = {1, UINT32_MAX}; /* 0 -> 1, 1 gone */
	struct bsf_event ring[4];
	struct linuxbe_evq q;

	memset(&q, 0, sizeof q);
	q.ev = ring;
	q.cap = 4;
	q.head = 2; /* four events at 2, 3, 0, 1 */
	q.n = 4;
	ring[2] = ev(BSF_EV_SAMPLE, 0, UINT32_MAX);
	ring[2].frame_len = 100;
	ring[3] = ev(BSF_EV_SAMPLE, 1, UINT32_MAX); /* dropped */
	ring[0] = ev(BSF_EV_DROP, 1, UINT32_MAX);   /* kept, port unknown */
	ring[0].frame_len = 300;
	ring[1] = ev(BSF_EV_SAMPLE, 0, 1);
	ring[1].frame_len = 400;
	ck_assert_uint_eq(linuxbe_evq_renumber(&q, map, 2), 1);
	ck_assert_uint_eq(q.n, 3);
	ck_assert_uint_eq(q.head, 2);
	ck_assert_uint_eq(ring[2].frame_len, 100);
	ck_assert_uint_eq(ring[2].in_port, 1);
	ck_assert_uint_eq(ring[3].frame_len, 300);
	ck_assert_uint_eq(ring[3].type, BSF_EV_DROP);
	ck_assert_uint_eq(ring[3].in_port, UINT32_MAX);
	ck_assert_uint_eq(ring[0].frame_len, 400);
	ck_assert_uint_eq(ring[0].in_port, 1);
	ck_assert_uint_eq(ring[0].out_port, UINT32_MAX);
}
END_TEST

START_TEST(changes)
{
	const struct linuxbe_port_id o[] = {{3, "vx0"}, {5, "vx1"}, {7, "vx2"}};
	const struct linuxbe_port_id n[] = {{3, "vx0"}, {7, "vxb"}, {9, "vx3"}};
	char buf[256];

	ck_assert_uint_eq(linuxbe_port_changes(o, 3, n, 3, buf, sizeof buf), 3);
	ck_assert_str_eq(buf, "renamed vx2 -> vxb (ifindex 7), added vx3 (ifindex 9), removed vx1 "
			      "(ifindex 5)");
	ck_assert_uint_eq(linuxbe_port_changes(o, 3, o, 3, buf, sizeof buf), 0);
	ck_assert_str_eq(buf, "");
	/* cut short, never past the buffer */
	ck_assert_uint_eq(linuxbe_port_changes(o, 3, n, 0, buf, 20), 3);
	ck_assert_str_eq(buf, "removed vx0 (ifinde");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("linux_ports");
	TCase *tc = tcase_create("all");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, port_map);
	tcase_add_test(tc, event_renumber);
	tcase_add_test(tc, queue_renumber);
	tcase_add_test(tc, changes);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
