/*
 * test_notify.c - the sd_notify sender (to a path socket and to an
 * abstract one, both made here) and the rate-limited logger.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "agent/log.h"
#include "agent/notify.h"

/* Bind a datagram socket at path (abstract when it starts with '@'). */
static int listen_at(const char *path)
{
	struct sockaddr_un sun;
	size_t n = strlen(path);
	int fd = socket(AF_UNIX, SOCK_DGRAM, 0);

	ck_assert_int_ge(fd, 0);
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, path, n);
	if (path[0] == '@')
		sun.sun_path[0] = '\0';
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sun,
			      (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n)),
			 0);
	return fd;
}

static void expect(int fd, const char *msg)
{
	char buf[256];
	ssize_t r = recv(fd, buf, sizeof buf - 1, MSG_DONTWAIT);

	ck_assert_int_eq(r, (ssize_t)strlen(msg));
	buf[r] = '\0';
	ck_assert_str_eq(buf, msg);
}

START_TEST(path_socket)
{
	char dir[] = "/tmp/bsfnotifyXXXXXX";
	char path[128];
	int fd;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/notify", dir);
	fd = listen_at(path);
	ck_assert_int_eq(bsf_notify_to(path, "READY=1"), 1);
	expect(fd, "READY=1");
	ck_assert_int_eq(bsf_notify_to(path, "RELOADING=1\nSTATUS=reloading"), 1);
	expect(fd, "RELOADING=1\nSTATUS=reloading");
	/* through the environment */
	setenv("NOTIFY_SOCKET", path, 1);
	ck_assert_int_eq(bsf_notify("STOPPING=1"), 1);
	expect(fd, "STOPPING=1");
	unsetenv("NOTIFY_SOCKET");
	close(fd);
	unlink(path);
	rmdir(dir);
}
END_TEST

START_TEST(abstract_socket)
{
	char name[64];
	int fd;

	snprintf(name, sizeof name, "@bsflowd-test-notify-%ld", (long)getpid());
	fd = listen_at(name);
	ck_assert_int_eq(bsf_notify_to(name, "READY=1\nSTATUS=ok"), 1);
	expect(fd, "READY=1\nSTATUS=ok");
	close(fd);
}
END_TEST

START_TEST(no_socket)
{
	unsetenv("NOTIFY_SOCKET");
	ck_assert_int_eq(bsf_notify("READY=1"), 0);
	ck_assert_int_eq(bsf_notify_to(NULL, "READY=1"), 0);
	ck_assert_int_eq(bsf_notify_to("", "READY=1"), 0);
	/* neither absolute nor abstract */
	errno = 0;
	ck_assert_int_eq(bsf_notify_to("relative/sock", "READY=1"), -1);
	ck_assert_int_eq(errno, EINVAL);
	/* nobody listening */
	ck_assert_int_eq(bsf_notify_to("/nonexistent-dir-bsflowd/sock", "READY=1"), -1);
}
END_TEST

#define S 1000000000ull

START_TEST(ratelimit)
{
	struct bsf_ratelimit rl;
	uint64_t count = 0;
	uint64_t t0 = 5 * S;

	bsf_ratelimit_init(&rl, 60 * S);
	/* the first occurrence is logged at once */
	ck_assert_int_eq(bsf_ratelimit_hit(&rl, t0, &count), 1);
	ck_assert_uint_eq(count, 1);
	/* then nothing for a minute */
	ck_assert_int_eq(bsf_ratelimit_hit(&rl, t0 + 1 * S, &count), 0);
	ck_assert_int_eq(bsf_ratelimit_hit(&rl, t0 + 30 * S, &count), 0);
	ck_assert_int_eq(bsf_ratelimit_hit(&rl, t0 + 60 * S - 1, &count), 0);
	/* a minute later: one line standing for 4 occurrences */
	ck_assert_int_eq(bsf_ratelimit_hit(&rl, t0 + 60 * S, &count), 1);
	ck_assert_uint_eq(count, 4);
	ck_assert_int_eq(bsf_ratelimit_hit(&rl, t0 + 61 * S, &count), 0);
	/* long quiet: the next one is logged, counting the suppressed one */
	ck_assert_int_eq(bsf_ratelimit_hit(&rl, t0 + 1000 * S, &count), 1);
	ck_assert_uint_eq(count, 2);
	ck_assert_int_eq(bsf_ratelimit_hit(&rl, t0 + 1000 * S, &count), 0);
}
END_TEST

START_TEST(ratelimit_at_zero)
{
	/* a first hit at time 0 is still logged */
	struct bsf_ratelimit rl;
	uint64_t count = 0;

	bsf_ratelimit_init(&rl, 10);
	ck_assert_int_eq(bsf_ratelimit_hit(&rl, 0, &count), 1);
	ck_assert_uint_eq(count, 1);
	ck_assert_int_eq(bsf_ratelimit_hit(&rl, 9, &count), 0);
	ck_assert_int_eq(bsf_ratelimit_hit(&rl, 10, &count), 1);
	ck_assert_uint_eq(count, 2);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("notify");
	TCase *tc = tcase_create("notify");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, path_socket);
	tcase_add_test(tc, abstract_socket);
	tcase_add_test(tc, no_socket);
	tcase_add_test(tc, ratelimit);
	tcase_add_test(tc, ratelimit_at_zero);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? 0 : 1;
}
