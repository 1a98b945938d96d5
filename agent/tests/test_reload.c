/*
 * test_reload.c - reload semantics at the function level, with the test
 * plugin as the backend and two UDP sockets on 127.0.0.1 as collectors:
 * a bad configuration (syntax, bad value, bad plugin) is refused with its
 * FILE:LINE message and changes nothing; a good one adds and removes
 * collectors and changes the interval without reopening the backend when
 * its section is unchanged, and never resets the datagram sequence
 * number, the sample sequence numbers or the collector counters.
 */
#include "config.h"

#include <arpa/inet.h>
#include <check.h>
#include <dlfcn.h>
#include <event2/event.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "agent/daemon.h"
#include "agent/export.h"
#include "agent/log.h"
#include "agent/poller.h"

static char plugin[512];
static char conf_path[64];

static int udp_listener(unsigned *port)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof sin;
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	ck_assert_int_ge(fd, 0);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sin, sizeof sin), 0);
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&sin, &len), 0);
	*port = ntohs(sin.sin_port);
	return fd;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Receive one datagram (it was sent before we ask: loopback is
 * synchronous) and return its sequence number; check the header. */
static uint32_t recv_seq(int fd, uint32_t want_samples)
{
	uint8_t buf[9000];
	ssize_t r = recv(fd, buf, sizeof buf, MSG_DONTWAIT);

	ck_assert_int_ge(r, 28);
	ck_assert_uint_eq(be32(buf), 5);     /* version */
	ck_assert_uint_eq(be32(buf + 4), 1); /* IPv4 agent */
	ck_assert_uint_eq(buf[8], 192);	     /* 192.0.2.1 */
	ck_assert_uint_eq(buf[11], 1);
	ck_assert_uint_eq(be32(buf + 12), 3); /* sub-agent */
	ck_assert_uint_eq(be32(buf + 24), want_samples);
	return be32(buf + 16);
}

static void no_datagram(int fd)
{
	uint8_t buf[64];

	ck_assert_int_lt(recv(fd, buf, sizeof buf, MSG_DONTWAIT), 0);
}

static void write_conf(const char *text)
{
	FILE *f = fopen(conf_path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* A configuration: collectors on p1 (and p2 if nonzero), the plugin with
 * option opt, polling interval iv. */
static void good_conf(unsigned p1, unsigned p2, const char *opt, unsigned iv)
{
	char text[2048];
	int n;

	n = snprintf(text, sizeof text,
		     "agent {\n address = 192.0.2.1\n sub_agent_id = 3\n}\n"
		     "polling_interval = %u\n"
		     "backend = \"%s\"\n"
		     "plugin {\n option = {\"%s\"}\n}\n"
		     "collector c1 {\n address = 127.0.0.1\n port = %u\n}\n",
		     iv, plugin, opt, p1);
	if (p2)
		snprintf(text + n, sizeof text - (size_t)n,
			 "collector c2 {\n address = 127.0.0.1\n port = %u\n}\n", p2);
	write_conf(text);
}

static int opens(struct bsf_daemon *d)
{
	int *p = dlsym(d->be.plugin.handle, "testplugin_opens");

	ck_assert_ptr_nonnull(p);
	return *p;
}

static void poll_and_flush(struct bsf_daemon *d)
{
	poller_poll_all(d->poller);
	export_flush(d->x);
}

static uint32_t src_seq(struct bsf_daemon *d, uint32_t i)
{
	uint32_t type, index, seq;
	uint64_t samples, errs;

	poller_source_stats(d->poller, i, &type, &index, &samples, &errs, &seq);
	return seq;
}

START_TEST(reload)
{
	struct event_base *base = event_base_new();
	struct bsf_daemon d;
	struct export_collector_stats st;
	struct conf *c, *before;
	unsigned p1, p2;
	int s1 = udp_listener(&p1), s2 = udp_listener(&p2), fd, is_default;
	char err[1024], want[1100];

	snprintf(conf_path, sizeof conf_path, "/tmp/bsfreloadXXXXXX");
	fd = mkstemp(conf_path);
	ck_assert_int_ge(fd, 0);
	close(fd);

	/* start */
	good_conf(p1, 0, "x=1", 0);
	ck_assert_int_eq(bsf_daemon_init(&d, base, conf_path, 1), 0);
	c = bsf_daemon_load_conf(&d, &is_default, err, sizeof err);
	ck_assert_msg(c != NULL, "%s", err);
	ck_assert_int_eq(is_default, 0);
	ck_assert_msg(bsf_daemon_apply(&d, c, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(opens(&d), 1);
	ck_assert_uint_eq(poller_n_sources(d.poller), 3); /* 2 ports + device */
	poll_and_flush(&d);
	ck_assert_uint_eq(recv_seq(s1, 3), 1);
	ck_assert_uint_eq(src_seq(&d, 0), 2);

	/* a syntax error: refused with FILE:LINE, nothing changes */
	before = d.conf;
	write_conf("agent {\n address = 192.0.2.1\n}\npolling_interval = 5\nbogus = 1\n");
	ck_assert_int_eq(bsf_daemon_reload(&d, err, sizeof err), -1);
	snprintf(want, sizeof want, "%s:5: no such option 'bogus'", conf_path);
	ck_assert_str_eq(err, want);
	ck_assert_ptr_eq(d.conf, before);
	ck_assert_uint_eq(d.conf->polling_interval, 0);

	/* a value out of range */
	write_conf("datagram_bytes = 10\n");
	ck_assert_int_eq(bsf_daemon_reload(&d, err, sizeof err), -1);
	snprintf(want, sizeof want, "%s:1: datagram_bytes = 10: out of range (200..8192)",
		 conf_path);
	ck_assert_str_eq(err, want);

	/* a plugin that cannot be loaded: refused with the backend line */
	write_conf("\nbackend = \"/nonexistent/p.so\"\n");
	ck_assert_int_eq(bsf_daemon_reload(&d, err, sizeof err), -1);
	snprintf(want, sizeof want,
		 "%s:2: backend plugin /nonexistent/p.so: No such file or directory", conf_path);
	ck_assert_str_eq(err, want);

	/* a plugin whose open() fails */
	good_conf(p1, p2, "fail=1", 9);
	ck_assert_int_eq(bsf_daemon_reload(&d, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "asked to fail") != NULL, "%s", err);

	/* after all that, the old state is intact */
	ck_assert_ptr_eq(d.conf, before);
	ck_assert_int_eq(opens(&d), 1);
	ck_assert_uint_eq(export_n_collectors(d.x), 1);
	ck_assert_uint_eq(d.reload_failures, 4);
	poll_and_flush(&d);
	ck_assert_uint_eq(recv_seq(s1, 3), 2);
	no_datagram(s2);

	/* good: a second collector and another interval, same backend */
	good_conf(p1, p2, "x=1", 7);
	ck_assert_msg(bsf_daemon_reload(&d, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(opens(&d), 1); /* not reopened */
	ck_assert_uint_eq(d.conf->polling_interval, 7);
	ck_assert_uint_eq(export_n_collectors(d.x), 2);
	ck_assert_uint_eq(src_seq(&d, 0), 3);
	poll_and_flush(&d);
	ck_assert_uint_eq(recv_seq(s1, 3), 3);
	ck_assert_uint_eq(recv_seq(s2, 3), 3);
	export_collector_stats(d.x, 0, &st);
	ck_assert_str_eq(st.name, "c1");
	ck_assert_uint_eq(st.datagrams, 3); /* counters kept across reloads */
	ck_assert_uint_eq(st.errors, 0);
	export_collector_stats(d.x, 1, &st);
	ck_assert_str_eq(st.name, "c2");
	ck_assert_uint_eq(st.datagrams, 1);

	/* the plugin section changed: reopened, sequence numbers go on (the
	 * old backend's pending peaks were sent before it was closed) */
	good_conf(p1, p2, "x=2", 7);
	ck_assert_msg(bsf_daemon_reload(&d, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(opens(&d), 2);
	ck_assert_uint_eq(src_seq(&d, 0), 5);
	/* the samples polled before the close went out when the collectors
	 * were set (pending data goes to the collectors it was made for) */
	ck_assert_uint_eq(recv_seq(s1, 3), 4);
	ck_assert_uint_eq(recv_seq(s2, 3), 4);
	poll_and_flush(&d);
	ck_assert_uint_eq(recv_seq(s1, 3), 5);
	ck_assert_uint_eq(recv_seq(s2, 3), 5);
	ck_assert_uint_eq(src_seq(&d, 0), 6);

	/* c1 moved to the second port, c2 removed */
	good_conf(p2, 0, "x=2", 7);
	ck_assert_msg(bsf_daemon_reload(&d, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(export_n_collectors(d.x), 1);
	poll_and_flush(&d);
	ck_assert_uint_eq(recv_seq(s2, 3), 6); /* p2 is now named c1 */
	no_datagram(s1);

	bsf_daemon_fini(&d);
	event_base_free(base);
	close(s1);
	close(s2);
	unlink(conf_path);
}
END_TEST

START_TEST(default_when_missing)
{
	/* no file at the default path: the built-in default; a missing -f
	 * file: an error */
	struct event_base *base = event_base_new();
	struct bsf_daemon d;
	struct conf *c;
	int is_default = -1;
	char err[512];

	ck_assert_int_eq(bsf_daemon_init(&d, base, "/nonexistent/bsflowd.conf", 0), 0);
	c = bsf_daemon_load_conf(&d, &is_default, err, sizeof err);
	ck_assert_msg(c != NULL, "%s", err);
	ck_assert_int_eq(is_default, 1);
	ck_assert_str_eq(c->file, "(built-in default)");
	ck_assert_int_eq(c->backend, CONF_BACKEND_MODEL);
	ck_assert_uint_eq(c->n_collectors, 1);
	conf_free(c);
	bsf_daemon_fini(&d);

	ck_assert_int_eq(bsf_daemon_init(&d, base, "/nonexistent/bsflowd.conf", 1), 0);
	c = bsf_daemon_load_conf(&d, &is_default, err, sizeof err);
	ck_assert_ptr_null(c);
	ck_assert_int_eq(is_default, 0);
	ck_assert_str_eq(err, "/nonexistent/bsflowd.conf: No such file or directory");
	bsf_daemon_fini(&d);
	event_base_free(base);
}
END_TEST

START_TEST(file_removed)
{
	/* running from the default file (no -f), which is then removed: a
	 * reload is refused, not turned into the built-in default */
	struct event_base *base = event_base_new();
	struct bsf_daemon d;
	struct conf *c, *before;
	int is_default, fd;
	char err[1024], want[1100];

	snprintf(conf_path, sizeof conf_path, "/tmp/bsfreloadXXXXXX");
	fd = mkstemp(conf_path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	good_conf(9, 0, "x=1", 0);
	ck_assert_int_eq(bsf_daemon_init(&d, base, conf_path, 0), 0);
	c = bsf_daemon_load_conf(&d, &is_default, err, sizeof err);
	ck_assert_msg(c != NULL, "%s", err);
	ck_assert_int_eq(is_default, 0);
	ck_assert_msg(bsf_daemon_apply(&d, c, err, sizeof err) == 0, "%s", err);
	before = d.conf;
	unlink(conf_path);
	ck_assert_int_eq(bsf_daemon_reload(&d, err, sizeof err), -1);
	snprintf(want, sizeof want, "%s: No such file or directory", conf_path);
	ck_assert_str_eq(err, want);
	ck_assert_ptr_eq(d.conf, before);
	bsf_daemon_fini(&d);
	event_base_free(base);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("reload");
	TCase *tc = tcase_create("reload");
	SRunner *sr;
	const char *b = getenv("top_builddir");
	int nf;

	snprintf(plugin, sizeof plugin, "%s/agent/tests/.libs/testplugin.so", b ? b : ".");
	bsf_log_init("test_reload", 0, 1);
	tcase_add_test(tc, reload);
	tcase_add_test(tc, default_when_missing);
	tcase_add_test(tc, file_removed);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? 0 : 1;
}
