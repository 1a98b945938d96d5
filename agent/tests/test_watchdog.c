/*
 * test_watchdog.c - the service watchdog: which $WATCHDOG_USEC /
 * $WATCHDOG_PID values turn it on, that the pings arrive on
 * $NOTIFY_SOCKET at half the interval while the loop runs, and that none
 * arrive while the loop does not run (a wedged loop is not kept alive).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "agent/watchdog.h"

START_TEST(interval_from_env)
{
	ck_assert_uint_eq(bsf_watchdog_usec(NULL, NULL, 42), 0);
	ck_assert_uint_eq(bsf_watchdog_usec("", NULL, 42), 0);
	ck_assert_uint_eq(bsf_watchdog_usec("0", NULL, 42), 0);
	ck_assert_uint_eq(bsf_watchdog_usec("-5", NULL, 42), 0);
	ck_assert_uint_eq(bsf_watchdog_usec("30s", NULL, 42), 0);
	ck_assert_uint_eq(bsf_watchdog_usec("30000000", NULL, 42), 30000000u);
	ck_assert_uint_eq(bsf_watchdog_usec("30000000", "", 42), 30000000u);
	ck_assert_uint_eq(bsf_watchdog_usec("30000000", "42", 42), 30000000u);
	/* meant for another process (a parent that exec'd us without it) */
	ck_assert_uint_eq(bsf_watchdog_usec("30000000", "41", 42), 0);
	ck_assert_uint_eq(bsf_watchdog_usec("30000000", "4x", 42), 0);
}
END_TEST

static int listen_at(const char *path)
{
	struct sockaddr_un sun;
	int fd = socket(AF_UNIX, SOCK_DGRAM, 0);

	ck_assert_int_ge(fd, 0);
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	ck_assert_uint_lt(strlen(path), sizeof sun.sun_path);
	strcpy(sun.sun_path, path);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sun, sizeof sun), 0);
	return fd;
}

/* Count the "WATCHDOG=1" datagrams waiting on fd; fail on anything else. */
static int count_pings(int fd)
{
	char buf[64];
	ssize_t r;
	int n = 0;

	while ((r = recv(fd, buf, sizeof buf - 1, MSG_DONTWAIT)) >= 0) {
		buf[r] = '\0';
		ck_assert_str_eq(buf, "WATCHDOG=1");
		n++;
	}
	return n;
}

START_TEST(pings_from_the_loop)
{
	char dir[] = "/tmp/bsfwdogXXXXXX", path[128];
	struct event_base *base = event_base_new();
	struct timeval run = {0, 520000};
	struct event *ev;
	int fd, n;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/notify", dir);
	fd = listen_at(path);
	setenv("NOTIFY_SOCKET", path, 1);

	/* WatchdogSec=100ms: one ping at once, then one every 50 ms */
	ev = bsf_watchdog_start(base, 100000);
	ck_assert_ptr_nonnull(ev);
	ck_assert_int_eq(count_pings(fd), 1);

	/* 520 ms of loop: 10 periods of 50 ms fit; a loaded host may lose
	 * some, never add any */
	event_base_loopexit(base, &run);
	event_base_dispatch(base);
	n = count_pings(fd);
	ck_assert_msg(n >= 4 && n <= 10, "%d pings in 520 ms at a 50 ms period", n);

	/* the loop not running (wedged): no ping however long it takes */
	usleep(200000);
	ck_assert_int_eq(count_pings(fd), 0);

	event_free(ev);
	event_base_free(base);
	unsetenv("NOTIFY_SOCKET");
	close(fd);
	unlink(path);
	rmdir(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("watchdog");
	TCase *tc = tcase_create("watchdog");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, interval_from_env);
	tcase_add_test(tc, pings_from_the_loop);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
