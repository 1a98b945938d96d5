/*
 * test_reload.c - reload semantics at the function level, with the test
 * plugin as the backend and two UDP sockets on 127.0.0.1 as collectors:
 * a bad configuration (syntax, bad value, bad plugin) is refused with its
 * FILE:LINE message and changes nothing; a good one adds and removes
 * collectors and changes the interval without reopening the backend when
 * its section is unchanged, and never resets the datagram sequence
 * number, the sample sequence numbers or the collector counters.  The
 * visibility pipeline: a bad section keeps the running one, an unchanged
 * section keeps it and its sampler statistics (also across a backend
 * reopen with the same ports), a changed one starts a new one.  A
 * backend switch allocates first and commits without failing.
 *
 * SPDX-License-Identifier: BSD-2-Clause
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
#include "agent/tests/testnet.h"
#include "agent/poller.h"
#include "agent/visibility/vis_pipeline.h"

static char plugin[512];
static char conf_path[64];

/* Receive one datagram (it was sent before we ask: loopback is
 * synchronous) and return its sequence number; check the header. */
static uint32_t recv_seq(int fd, uint32_t want_samples)
{
	uint8_t buf[9000];
	ssize_t r = recv(fd, buf, sizeof buf, MSG_DONTWAIT);

	ck_assert_int_ge(r, 28);
	ck_assert_uint_eq(test_be32(buf), 5);	  /* version */
	ck_assert_uint_eq(test_be32(buf + 4), 1); /* IPv4 agent */
	ck_assert_uint_eq(buf[8], 192);		  /* 192.0.2.1 */
	ck_assert_uint_eq(buf[11], 1);
	ck_assert_uint_eq(test_be32(buf + 12), 3); /* sub-agent */
	ck_assert_uint_eq(test_be32(buf + 24), want_samples);
	return test_be32(buf + 16);
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
	int s1 = test_udp_listener(&p1), s2 = test_udp_listener(&p2), fd;
	char err[1024], want[1100];

	snprintf(conf_path, sizeof conf_path, "/tmp/bsfreloadXXXXXX");
	fd = mkstemp(conf_path);
	ck_assert_int_ge(fd, 0);
	close(fd);

	/* start */
	good_conf(p1, 0, "x=1", 0);
	ck_assert_int_eq(bsf_daemon_init(&d, base, conf_path, 1), 0);
	c = bsf_daemon_load_conf(&d, err, sizeof err);
	ck_assert_msg(c != NULL, "%s", err);
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
	snprintf(want, sizeof want,
		 "%s:5: bogus: unknown key; allowed: the keys of bsflowd.conf(5)", conf_path);
	ck_assert_str_eq(err, want);
	ck_assert_ptr_eq(d.conf, before);
	ck_assert_uint_eq(d.conf->polling_interval, 0);

	/* a value out of range */
	write_conf("datagram_bytes = 10\n");
	ck_assert_int_eq(bsf_daemon_reload(&d, err, sizeof err), -1);
	snprintf(want, sizeof want, "%s:1: datagram_bytes = 10: out of range; allowed: 200..8192",
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

	/* a comment left open swallowed the rest of the file, and a reload
	 * with it silently removed the collectors after it: refused with
	 * the line it opened on */
	write_conf("polling_interval = 5\n/* old:\ncollector c {\n address = 127.0.0.1\n}\n");
	ck_assert_int_eq(bsf_daemon_reload(&d, err, sizeof err), -1);
	ck_assert_msg(strstr(err, ":2: ") && strstr(err, "not closed"), "%s", err);

	/* a list given twice: libconfuse kept the last silently, and the
	 * plugin reopened with the second's options; refused with both
	 * lines, the plugin keeps running as it was */
	{
		char text[1024];

		snprintf(text, sizeof text,
			 "backend = \"%s\"\nplugin {\n option = {\"x=1\"}\n option = {\"x=2\"}\n}\n"
			 "collector c1 {\n address = 127.0.0.1\n port = %u\n}\n",
			 plugin, p1);
		write_conf(text);
	}
	ck_assert_int_eq(bsf_daemon_reload(&d, err, sizeof err), -1);
	snprintf(want, sizeof want,
		 "%s:4: plugin: option: given twice (first on line 3); allowed: once, with all its "
		 "values in one { }",
		 conf_path);
	ck_assert_str_eq(err, want);

	/* after all that, the old state is intact */
	ck_assert_ptr_eq(d.conf, before);
	ck_assert_int_eq(opens(&d), 1);
	ck_assert_uint_eq(export_n_collectors(d.x), 1);
	ck_assert_uint_eq(d.reload_failures, 6);
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

START_TEST(error_when_missing)
{
	/* a missing file is an error naming it, at the default path (no -f)
	 * as with -f: never a silent fallback to built-in settings */
	struct event_base *base = event_base_new();
	struct bsf_daemon d;
	struct conf *c;
	char err[512];

	ck_assert_int_eq(bsf_daemon_init(&d, base, "/nonexistent/bsflowd.conf", 0), 0);
	c = bsf_daemon_load_conf(&d, err, sizeof err);
	ck_assert_ptr_null(c);
	ck_assert_str_eq(err, "/nonexistent/bsflowd.conf: No such file or directory (the default "
			      "configuration file; give another with -f)");
	bsf_daemon_fini(&d);

	ck_assert_int_eq(bsf_daemon_init(&d, base, "/nonexistent/bsflowd.conf", 1), 0);
	c = bsf_daemon_load_conf(&d, err, sizeof err);
	ck_assert_ptr_null(c);
	ck_assert_str_eq(err, "/nonexistent/bsflowd.conf: No such file or directory");
	bsf_daemon_fini(&d);
	event_base_free(base);
}
END_TEST

START_TEST(file_removed)
{
	/* running from the default file (no -f), which is then removed: a
	 * reload is refused and the running configuration kept */
	struct event_base *base = event_base_new();
	struct bsf_daemon d;
	struct conf *c, *before;
	int fd;
	char err[1024], want[1100];

	snprintf(conf_path, sizeof conf_path, "/tmp/bsfreloadXXXXXX");
	fd = mkstemp(conf_path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	good_conf(9, 0, "x=1", 0);
	ck_assert_int_eq(bsf_daemon_init(&d, base, conf_path, 0), 0);
	c = bsf_daemon_load_conf(&d, err, sizeof err);
	ck_assert_msg(c != NULL, "%s", err);
	ck_assert_msg(bsf_daemon_apply(&d, c, err, sizeof err) == 0, "%s", err);
	before = d.conf;
	unlink(conf_path);
	ck_assert_int_eq(bsf_daemon_reload(&d, err, sizeof err), -1);
	snprintf(want, sizeof want,
		 "%s: No such file or directory (the default configuration file; give another "
		 "with -f)",
		 conf_path);
	ck_assert_str_eq(err, want);
	ck_assert_ptr_eq(d.conf, before);
	bsf_daemon_fini(&d);
	event_base_free(base);
}
END_TEST

/* A configuration like good_conf with a visibility section body vis. */
static void vis_conf(unsigned p1, const char *opt, unsigned iv, const char *vis)
{
	char text[2048];

	snprintf(text, sizeof text,
		 "agent {\n address = 192.0.2.1\n sub_agent_id = 3\n}\n"
		 "polling_interval = %u\n"
		 "backend = \"%s\"\n"
		 "plugin {\n option = {\"%s\"}\n}\n"
		 "collector c1 {\n address = 127.0.0.1\n port = %u\n}\n"
		 "visibility {\n%s}\n",
		 iv, plugin, opt, p1, vis);
	write_conf(text);
}

static void feed_drops(struct bsf_daemon *d, int n)
{
	struct bsf_event e;

	memset(&e, 0, sizeof e);
	e.type = BSF_EV_DROP;
	e.reason = 259;
	e.in_port = 1;
	e.out_port = 0;
	e.queue = 0;
	e.frame_len = 64;
	for (int i = 0; i < n; i++) {
		e.t_ns = 1000000000ull + (uint64_t)i;
		bsf_events_route(&d->events, &e);
	}
}

static uint64_t sampler_seen(struct bsf_daemon *d)
{
	struct vis_sampler_stats st;

	vis_sampler_get_stats(vis_pipeline_sampler(d->vis.p, 0), &st);
	return st.seen;
}

START_TEST(reload_visibility)
{
	static const char vis2[] = " sampler s {\n  every = 2\n }\n sample_drops = s\n";
	struct event_base *base = event_base_new();
	struct bsf_daemon d;
	struct vis_pipeline *p1;
	struct conf *c;
	unsigned port;
	int s1 = test_udp_listener(&port), fd, n_opens;
	char err[1024], want[1100];

	snprintf(conf_path, sizeof conf_path, "/tmp/bsfreloadXXXXXX");
	fd = mkstemp(conf_path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	vis_conf(port, "x=1", 0, vis2);
	ck_assert_int_eq(bsf_daemon_init(&d, base, conf_path, 1), 0);
	c = bsf_daemon_load_conf(&d, err, sizeof err);
	ck_assert_msg(c != NULL, "%s", err);
	ck_assert_msg(bsf_daemon_apply(&d, c, err, sizeof err) == 0, "%s", err);
	p1 = d.vis.p;
	ck_assert_ptr_nonnull(p1);
	ck_assert_int_eq(d.vis.drop_routed, 1);
	ck_assert_uint_eq(d.vis_rebuilds, 1);
	/* 1-in-2: drops 2 and 4 become notifications, 1 and 3 are counted */
	feed_drops(&d, 4);
	ck_assert_uint_eq(sampler_seen(&d), 4);
	ck_assert_uint_eq(d.events.drops.offered, 2);
	ck_assert_uint_eq(bsf_visx_drops_lost(&d.vis), 2);

	/* a bad visibility section: refused with FILE:LINE, the old pipeline
	 * keeps running with its statistics */
	vis_conf(port, "x=1", 0, " congestion q {\n  high = K\n }\n");
	ck_assert_int_eq(bsf_daemon_reload(&d, err, sizeof err), -1);
	snprintf(want, sizeof want,
		 "%s:16: visibility: congestion \"q\": high = K: not a size; allowed: 0..1T bytes, "
		 "suffix K, M, G or T (powers of 1024)",
		 conf_path);
	ck_assert_str_eq(err, want);
	ck_assert_ptr_eq(d.vis.p, p1);
	ck_assert_uint_eq(sampler_seen(&d), 4);

	/* the same section, other settings: the pipeline and its statistics
	 * are kept */
	vis_conf(port, "x=1", 5, vis2);
	ck_assert_msg(bsf_daemon_reload(&d, err, sizeof err) == 0, "%s", err);
	ck_assert_ptr_eq(d.vis.p, p1);
	ck_assert_uint_eq(sampler_seen(&d), 4);
	/* the backend reopened with the same ports: kept too, its per-queue
	 * state forgotten */
	n_opens = opens(&d);
	vis_conf(port, "x=2", 5, vis2);
	ck_assert_msg(bsf_daemon_reload(&d, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(opens(&d), n_opens + 1);
	ck_assert_ptr_eq(d.vis.p, p1);
	ck_assert_uint_eq(sampler_seen(&d), 4);
	ck_assert_uint_eq(d.vis.gaps, 1);
	ck_assert_uint_eq(d.vis_rebuilds, 1);

	/* a changed section: a new pipeline, statistics from 0; the drops
	 * already counted stay in the 0:5 drops field */
	vis_conf(port, "x=2", 5, " sampler s {\n  every = 3\n }\n sample_drops = s\n");
	ck_assert_msg(bsf_daemon_reload(&d, err, sizeof err) == 0, "%s", err);
	ck_assert_ptr_nonnull(d.vis.p);
	ck_assert_uint_eq(d.vis_rebuilds, 2);
	ck_assert_uint_eq(sampler_seen(&d), 0);
	feed_drops(&d, 3);
	ck_assert_uint_eq(sampler_seen(&d), 3);
	ck_assert_uint_eq(d.events.drops.offered, 3);
	ck_assert_uint_eq(bsf_visx_drops_lost(&d.vis), 4);

	/* no section: off; every drop is offered again */
	vis_conf(port, "x=2", 5, "");
	ck_assert_msg(bsf_daemon_reload(&d, err, sizeof err) == 0, "%s", err);
	ck_assert_ptr_null(d.vis.p);
	ck_assert_int_eq(d.vis.drop_routed, 0);
	ck_assert_uint_eq(bsf_visx_drops_lost(&d.vis), 4);

	bsf_daemon_fini(&d);
	event_base_free(base);
	close(s1);
	unlink(conf_path);
}
END_TEST

/* A reload that reopens the backend allocates everything the new backend
 * needs (bsf_visx_prepare_backend, poller_prepare_backend) before the
 * poller or the visibility export switch over; after the last step that
 * can fail nothing fails (the commits).  A preparation thrown away (the
 * out-of-memory path) leaves both exactly as they were: same backend,
 * same data sources, sequence numbers carrying on.  A committed one keeps
 * the sequence numbers the sources had at commit time, polls done after
 * the preparation included. */
START_TEST(reload_prepare_commit)
{
	struct event_base *base = event_base_new();
	struct bsf_daemon d;
	struct bsf_visx_backend *nvb;
	struct poller_next *npl;
	struct conf *c;
	unsigned port;
	int s1 = test_udp_listener(&port), fd;
	const struct bsf_visx_src *src;
	void *st;
	char err[1024];

	snprintf(conf_path, sizeof conf_path, "/tmp/bsfreloadXXXXXX");
	fd = mkstemp(conf_path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	vis_conf(port, "x=1", 0, " sampler s {\n  every = 2\n }\n sample_drops = s\n");
	ck_assert_int_eq(bsf_daemon_init(&d, base, conf_path, 1), 0);
	c = bsf_daemon_load_conf(&d, err, sizeof err);
	ck_assert_msg(c != NULL, "%s", err);
	ck_assert_msg(bsf_daemon_apply(&d, c, err, sizeof err) == 0, "%s", err);
	/* 2 ports + the device */
	ck_assert_uint_eq(poller_n_sources(d.poller), 3);
	poll_and_flush(&d);
	ck_assert_uint_eq(src_seq(&d, 0), 2);

	/* prepared, then thrown away: nothing changed */
	src = d.vis.src;
	st = d.vis.st;
	nvb = bsf_visx_prepare_backend(d.be.ops, d.be.st);
	ck_assert_ptr_nonnull(nvb);
	npl = poller_prepare_backend(d.poller, d.be.ops, d.be.st);
	ck_assert_ptr_nonnull(npl);
	poller_discard_backend(npl);
	bsf_visx_discard_backend(nvb);
	poller_discard_backend(NULL);
	bsf_visx_discard_backend(NULL);
	ck_assert_ptr_eq(d.vis.src, src);
	ck_assert_ptr_eq(d.vis.st, st);
	ck_assert_uint_eq(d.vis.nsrc, 3);
	ck_assert_uint_eq(poller_n_sources(d.poller), 3);
	ck_assert_uint_eq(src_seq(&d, 0), 2);
	poll_and_flush(&d);
	ck_assert_uint_eq(src_seq(&d, 0), 3);

	/* prepared, a poll in between, then committed: the numbers as at
	 * the commit */
	nvb = bsf_visx_prepare_backend(d.be.ops, d.be.st);
	npl = poller_prepare_backend(d.poller, d.be.ops, d.be.st);
	ck_assert_ptr_nonnull(nvb);
	ck_assert_ptr_nonnull(npl);
	poll_and_flush(&d);
	ck_assert_uint_eq(src_seq(&d, 0), 4);
	poller_commit_backend(d.poller, npl);
	bsf_visx_commit_backend(&d.vis, nvb);
	ck_assert_uint_eq(poller_n_sources(d.poller), 3);
	ck_assert_uint_eq(src_seq(&d, 0), 4);
	ck_assert_uint_eq(d.vis.nsrc, 3);
	poll_and_flush(&d);
	ck_assert_uint_eq(src_seq(&d, 0), 5);

	bsf_daemon_fini(&d);
	event_base_free(base);
	close(s1);
	unlink(conf_path);
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
	tcase_add_test(tc, error_when_missing);
	tcase_add_test(tc, file_removed);
	tcase_add_test(tc, reload_visibility);
	tcase_add_test(tc, reload_prepare_commit);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? 0 : 1;
}
