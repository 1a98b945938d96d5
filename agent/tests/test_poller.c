/*
 * test_poller.c - the counter poller's schedule, through the daemon with
 * the bench backend plugin (agent/bench/backend_bench.c, 200 ports) and a
 * UDP socket on 127.0.0.1 as the collector, for 2.3 s of polling every
 * second: the sources' first polls are spread over the interval (more
 * than one wake-up) but one wake-up polls every source due (at most ten
 * a second, where one timer per source took one per source and poll);
 * each source's samples are numbered 1, 2, ... without a gap; port
 * samples share datagrams when they fit (8192-byte datagrams), and
 * every datagram arrives, numbered without a gap.
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
#include <unistd.h>

#include "agent/daemon.h"
#include "agent/export.h"
#include "agent/log.h"
#include "agent/poller.h"
#include "agent/tests/testnet.h"
#include "proto/sflow_decode.h"

#define NPORTS 200

static char plugin[512];

struct got {
	uint32_t next_seq[NPORTS + 2]; /* ports by ifIndex 1..NPORTS, device last */
	uint32_t datagrams, samples, next_dgram;
	int bad;
};

static void rx_cb(evutil_socket_t fd, short what, void *arg)
{
	struct sflow_decode_opts opts = {.own_enterprise = SFLOW_ENT_OWN_DEFAULT};
	struct got *g = arg;
	uint8_t buf[9000];
	ssize_t r;

	while ((r = recv(fd, buf, sizeof buf, MSG_DONTWAIT)) > 0) {
		struct sflow_datagram d;
		struct sflow_decode_error err;

		if (sflow_decode(buf, (size_t)r, &opts, &d, &err) != SFLOW_OK) {
			fprintf(stderr, "test_poller: %s\n", err.msg);
			g->bad++;
			continue;
		}
		if (d.sequence_number != ++g->next_dgram)
			g->bad++;
		g->datagrams++;
		for (uint32_t i = 0; i < d.nsamples; i++) {
			const struct sflow_sample *s = &d.samples[i];
			uint32_t k;

			if (s->kind != SFLOW_SMP_COUNTERS)
				continue;
			k = s->h.counters.source_id_type == 2 ? NPORTS + 1
							      : s->h.counters.source_id_index;
			if (k < 1 || k > NPORTS + 1 ||
			    s->h.counters.sequence_number != ++g->next_seq[k])
				g->bad++;
			g->samples++;
		}
		sflow_datagram_free(&d);
	}
}

START_TEST(one_wakeup_polls_all_due)
{
	struct event_base *base = event_base_new();
	struct timeval run = {2, 300000};
	struct bsf_daemon d;
	struct event *rx;
	struct got g;
	char text[1024], err[1024];
	struct conf *c;
	unsigned port;
	int s = test_udp_listener(&port);
	uint64_t wakeups, t0, secs;

	memset(&g, 0, sizeof g);
	snprintf(text, sizeof text,
		 "agent {\n address = 192.0.2.1\n}\n"
		 "polling_interval = 1\n"
		 "datagram_bytes = 8192\n"
		 "backend = \"%s\"\n"
		 "plugin {\n option = {\"ports=%d\", \"queues=2\"}\n}\n"
		 "collector c1 {\n address = 127.0.0.1\n port = %u\n}\n",
		 plugin, NPORTS, port);
	c = conf_load_text(text, "p.conf", err, sizeof err);
	ck_assert_msg(c != NULL, "%s", err);
	ck_assert_int_eq(bsf_daemon_init(&d, base, "p.conf", 1), 0);
	ck_assert_msg(bsf_daemon_apply(&d, c, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(poller_n_sources(d.poller), NPORTS + 1);
	rx = event_new(base, s, EV_READ | EV_PERSIST, rx_cb, &g);
	event_add(rx, NULL);
	event_base_loopexit(base, &run);
	t0 = bsf_now_ns();
	event_base_dispatch(base);
	wakeups = poller_wakeups(d.poller);
	/* whole seconds begun since the start (a loaded machine may stretch
	 * the run): the bounds below follow from the schedule, not from speed */
	secs = (bsf_now_ns() - t0) / 1000000000ull + 1;
	bsf_daemon_flush(&d);
	rx_cb(s, EV_READ, &g);

	ck_assert_int_eq(g.bad, 0);
	/* every source polled, at most once in each second begun */
	for (uint32_t k = 1; k <= NPORTS + 1; k++) {
		ck_assert_uint_ge(g.next_seq[k], 1);
		ck_assert_uint_le(g.next_seq[k], secs);
	}
	/* 100 ms slots: ten wake-ups a second at most, whatever the number of
	 * sources; and more than one slot used (the first polls are
	 * staggered) */
	ck_assert_uint_le(wakeups, 10 * secs);
	ck_assert_uint_ge(wakeups, 2);
	/* several port samples (about 850 bytes each) a datagram */
	ck_assert_uint_lt(g.datagrams * 3, g.samples);
	event_free(rx);
	bsf_daemon_fini(&d);
	event_base_free(base);
	close(s);
}
END_TEST

/* A backend of n ports that describes itself and nothing else (the
 * exporter has no agent: polls send nothing, only the schedule runs). */
static struct bsf_port_desc fake_ports[64];
static struct bsf_device_desc fake_dev = {.size = sizeof fake_dev, .ports = fake_ports};

static const struct bsf_device_desc *fake_describe(void *st)
{
	(void)st;
	return &fake_dev;
}

static void fake_ports_set(uint32_t first_ifindex, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		memset(&fake_ports[i], 0, sizeof fake_ports[i]);
		fake_ports[i].size = sizeof fake_ports[i];
		fake_ports[i].ifindex = first_ifindex + i;
	}
	fake_dev.nports = n;
}

/* Run the poller on virtual time until `until`: every wake-up's time,
 * checked to fall on the 100 ms grid of phase `phase` (ns within the
 * slot); returns how many wake-ups. */
static unsigned run_until(struct poller *p, uint64_t *now, uint64_t until, uint64_t phase)
{
	unsigned n = 0;
	uint64_t t;

	while ((t = poller_next_due(p)) < until) {
		ck_assert_uint_ge(t, *now);
		ck_assert_msg(t % 100000000ull == phase, "a poll at %llu ns: %llu ns into its slot",
			      (unsigned long long)t, (unsigned long long)(t % 100000000ull));
		*now = t;
		poller_run_due(p);
		n++;
	}
	*now = until;
	return n;
}

/* Ports added by a device change take slots of the grid the kept sources
 * are on (not a grid of their own from the time of the change), so that
 * one wake-up still polls every source due and there are at most ten a
 * second: 40 ports polled every second, 30 of them added 37 ms into a
 * slot. */
START_TEST(device_change_keeps_the_grid)
{
	struct event_base *base = event_base_new();
	struct export *x = export_new(base);
	struct poller *p = poller_new(base, x, 7);
	struct bsf_backend_ops ops;
	struct poller_next *nx;
	uint64_t now = 5000000000ull; /* the grid: 50 ms into each slot */
	unsigned n;

	memset(&ops, 0, sizeof ops);
	ops.describe = fake_describe;
	bsf_clock_virtual(&now, 0);
	fake_ports_set(1, 10);
	poller_set_interval(p, 1);
	ck_assert_int_eq(poller_set_backend(p, &ops, NULL), 0);
	n = run_until(p, &now, 7000000000ull, 50000000ull);
	ck_assert_uint_le(n, 20);
	/* ports 1..10 stay, 11..40 come */
	now += 37000000ull;
	fake_ports_set(1, 40);
	nx = poller_prepare_backend(p, &ops, NULL);
	ck_assert_ptr_nonnull(nx);
	poller_commit_backend(p, nx);
	ck_assert_uint_eq(poller_n_sources(p), 41);
	n = run_until(p, &now, 10037000000ull, 50000000ull);
	ck_assert_uint_le(n, 30);
	bsf_clock_virtual(NULL, 0);
	poller_free(p);
	export_free(x);
	event_base_free(base);
}
END_TEST

int main(void)
{
	Suite *su = suite_create("poller");
	TCase *tc = tcase_create("poller");
	SRunner *sr;
	const char *b = getenv("top_builddir");
	int nf;

	snprintf(plugin, sizeof plugin, "%s/agent/bench/.libs/backend_bench.so", b ? b : ".");
	bsf_log_init("test_poller", 0, 1);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, one_wakeup_polls_all_due);
	tcase_add_test(tc, device_change_keeps_the_grid);
	suite_add_tcase(su, tc);
	sr = srunner_create(su);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? 0 : 1;
}
