/*
 * test_devchange.c - a backend's device change taken in by the daemon
 * without a reopen (backend.h, DEVICE CHANGES; agent/devchange.c), with
 * the test plugin as the backend and a UDP socket on 127.0.0.1 as the
 * collector, whose datagrams are decoded with proto/: the plugin's call
 * changes nothing until the loop turns; then the data source of the port
 * that stays goes on with its sequence numbers, new ports' sources start
 * at 1, the removed port's stops, and the reads use the new numbering; a
 * description the daemon cannot take keeps the old one and is tried
 * again; the visibility pipeline is rebuilt for the new number of ports
 * and the queue streams asked for again; the log line says what changed.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <dlfcn.h>
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "agent/daemon.h"
#include "agent/devchange.h"
#include "agent/export.h"
#include "agent/host.h"
#include "agent/log.h"
#include "agent/poller.h"
#include "agent/tests/testnet.h"
#include "proto/sflow_decode.h"

static char plugin[512];
static char conf_path[64];

/* What one counters sample said: its source, sequence number, ifInOctets
 * (ports) and number of unicast queues in 4413:2. */
struct seen {
	uint32_t type, index, seq, n_uc;
	uint64_t in_octets;
};

/* Poll every source, flush, and decode the datagrams into s (at most max
 * samples); returns how many. */
static size_t poll_decode(struct bsf_daemon *d, int fd, struct seen *s, size_t max)
{
	uint8_t buf[9000];
	struct sflow_datagram dg;
	struct sflow_decode_error e;
	ssize_t r;
	size_t n = 0;
	int dgs = 0;

	poller_poll_all(d->poller);
	export_flush(d->x);
	while ((r = recv(fd, buf, sizeof buf, MSG_DONTWAIT)) > 0) {
		dgs++;
		ck_assert_msg(sflow_decode(buf, (size_t)r, NULL, &dg, &e) == SFLOW_OK, "%s", e.msg);
		for (uint32_t i = 0; i < dg.nsamples && n < max; i++) {
			const struct sflow_sample *sm = &dg.samples[i];

			if (sm->kind != SFLOW_SMP_COUNTERS)
				continue;
			memset(&s[n], 0, sizeof s[n]);
			s[n].type = sm->h.counters.source_id_type;
			s[n].index = sm->h.counters.source_id_index;
			s[n].seq = sm->h.counters.sequence_number;
			for (uint32_t k = 0; k < sm->nrecords; k++) {
				const struct sflow_record *rec = &sm->records[k];

				if (rec->kind == SFLOW_REC_IF_COUNTERS)
					s[n].in_octets = rec->u.ifc.ifInOctets;
				if (rec->kind == SFLOW_REC_BST_PORT)
					s[n].n_uc = rec->u.bst_port.n_uc;
			}
			n++;
		}
		sflow_datagram_free(&dg);
	}
	ck_assert_int_gt(dgs, 0);
	return n;
}

static const struct seen *find(const struct seen *s, size_t n, uint32_t type, uint32_t index)
{
	for (size_t i = 0; i < n; i++)
		if (s[i].type == type && s[i].index == index)
			return &s[i];
	return NULL;
}

static void write_conf(const char *text)
{
	FILE *f = fopen(conf_path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* The configuration: the plugin, the collector on port, and vis (the
 * visibility section, or ""). */
static void write_conf_for(unsigned port, const char *vis)
{
	char text[2048];

	snprintf(text, sizeof text,
		 "agent {\n address = 192.0.2.1\n}\n"
		 "polling_interval = 0\n"
		 "backend = \"%s\"\n"
		 "collector c1 {\n address = 127.0.0.1\n port = %u\n}\n%s",
		 plugin, port, vis);
	write_conf(text);
}

static void start(struct bsf_daemon *d, struct event_base *base, unsigned port, const char *vis)
{
	char err[1024];
	struct conf *c;
	int fd;

	snprintf(conf_path, sizeof conf_path, "/tmp/bsfdevchgXXXXXX");
	fd = mkstemp(conf_path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	write_conf_for(port, vis);
	ck_assert_int_eq(bsf_daemon_init(d, base, conf_path, 1), 0);
	c = bsf_daemon_load_conf(d, err, sizeof err);
	ck_assert_msg(c != NULL, "%s", err);
	ck_assert_msg(bsf_daemon_apply(d, c, err, sizeof err) == 0, "%s", err);
}

/* The end of a test that start()ed: the daemon, its loop, the
 * collector's socket and the configuration file. */
static void stop(struct bsf_daemon *d, struct event_base *base, int fd)
{
	bsf_daemon_fini(d);
	event_base_free(base);
	close(fd);
	unlink(conf_path);
}

static void *sym(struct bsf_daemon *d, const char *name)
{
	void *p = dlsym(d->be.plugin.handle, name);

	ck_assert_ptr_nonnull(p);
	return p;
}

/* The plugin's testplugin_change(variant). */
static int change(struct bsf_daemon *d, int variant)
{
	int (*fn)(int) = (int (*)(int))sym(d, "testplugin_change");

	return fn(variant);
}

START_TEST(device_change)
{
	struct event_base *base = event_base_new();
	struct bsf_daemon d;
	struct seen s[8];
	const struct seen *x;
	unsigned port, *describes;
	int fd = test_udp_listener(&port);
	size_t n;

	start(&d, base, port, "");
	describes = sym(&d, "testplugin_describes");
	ck_assert_uint_eq(poller_n_sources(d.poller), 3);
	n = poll_decode(&d, fd, s, 8);
	ck_assert_uint_eq(n, 3);
	x = find(s, n, 0, 11);
	ck_assert_ptr_nonnull(x);
	ck_assert_uint_eq(x->seq, 1);
	ck_assert_uint_eq(x->in_octets, 1000); /* port index 0 */
	x = find(s, n, 0, 12);
	ck_assert_ptr_nonnull(x);
	ck_assert_uint_eq(x->in_octets, 2000);
	/* polled again: the sources go on */
	n = poll_decode(&d, fd, s, 8);
	ck_assert_uint_eq(find(s, n, 0, 12)->seq, 2);
	ck_assert_uint_eq(find(s, n, 2, 1)->seq, 2);

	/* tp0 leaves, tp2 and tp3 come: nothing happens inside the call */
	unsigned before = *describes;
	ck_assert_int_eq(change(&d, 1), 0);
	ck_assert_uint_eq(*describes, before);
	ck_assert_uint_eq(poller_n_sources(d.poller), 3);
	ck_assert_uint_eq(d.device_change_calls, 1);
	ck_assert_uint_eq(d.device_changes, 0);
	/* the loop turns: one describe(), the sources move over */
	event_base_loop(base, EVLOOP_NONBLOCK);
	ck_assert_uint_eq(*describes, before + 1);
	ck_assert_uint_eq(d.device_changes, 1);
	ck_assert_uint_eq(poller_n_sources(d.poller), 4);
	ck_assert_uint_eq(d.events.flows.nports, 3);
	ck_assert_uint_eq(d.vis.nsrc, 4);
	n = poll_decode(&d, fd, s, 8);
	ck_assert_uint_eq(n, 4);
	ck_assert_ptr_null(find(s, n, 0, 11)); /* removed: stopped */
	x = find(s, n, 0, 12);		       /* stays: goes on */
	ck_assert_ptr_nonnull(x);
	ck_assert_uint_eq(x->seq, 3);
	ck_assert_uint_eq(x->in_octets, 12000); /* read with the new numbering */
	ck_assert_uint_eq(x->n_uc, 2);
	x = find(s, n, 0, 13); /* new: from 1, its own queues */
	ck_assert_ptr_nonnull(x);
	ck_assert_uint_eq(x->seq, 1);
	ck_assert_uint_eq(x->in_octets, 13000);
	ck_assert_uint_eq(x->n_uc, 4);
	x = find(s, n, 0, 14);
	ck_assert_ptr_nonnull(x);
	ck_assert_uint_eq(x->seq, 1);
	ck_assert_uint_eq(x->n_uc, 3);
	ck_assert_uint_eq(find(s, n, 2, 1)->seq, 3);

	/* a description it cannot take (size 8): the sources stay, but the
	 * backend's numbering is not known (describe() was called): only the
	 * device is polled; it is tried again a second later, when the plugin
	 * gives its own again (unchanged: nothing moves), and the ports'
	 * sources go on where they stopped */
	ck_assert_int_eq(change(&d, 2), 0);
	event_base_loop(base, EVLOOP_NONBLOCK);
	ck_assert_uint_eq(d.device_change_failures, 1);
	ck_assert_uint_eq(d.device_changes, 1);
	ck_assert_int_eq(d.ports_unknown, 1);
	ck_assert_uint_eq(poller_n_sources(d.poller), 4);
	n = poll_decode(&d, fd, s, 8);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(find(s, n, 2, 1)->seq, 4);
	{
		struct timeval tv = {1, 500000};

		event_base_loopexit(base, &tv);
		event_base_dispatch(base);
	}
	ck_assert_uint_eq(d.device_changes, 2);
	ck_assert_uint_eq(d.device_change_failures, 1);
	ck_assert_int_eq(d.ports_unknown, 0);
	ck_assert_uint_eq(poller_n_sources(d.poller), 4);
	n = poll_decode(&d, fd, s, 8);
	ck_assert_uint_eq(n, 4);
	ck_assert_uint_eq(find(s, n, 0, 12)->seq, 4);
	ck_assert_uint_eq(find(s, n, 0, 13)->seq, 2);
	ck_assert_uint_eq(find(s, n, 2, 1)->seq, 5);

	stop(&d, base, fd);
}
END_TEST

/* n sampled packets of port index 0 pushed into the daemon's queue, as a
 * backend thread would (more than one drain of the loop reads). */
static void push_samples(struct bsf_daemon *d, unsigned n)
{
	static struct bsf_event ev[256];
	const struct bsf_host *h = &d->be.host->host;

	for (unsigned k = 0; k < n;) {
		unsigned m = n - k < 256 ? n - k : 256;

		for (unsigned i = 0; i < m; i++) {
			bsf_event_init(&ev[i]);
			ev[i].type = BSF_EV_SAMPLE;
			ev[i].in_port = 0;
			ev[i].frame_len = 64;
			ev[i].hdr_len = 14;
		}
		ck_assert_uint_eq(h->push_events(h->arg, ev, m), m);
		k += m;
	}
}

/* The samples port ifIndex's data source has sent, -1 if it has none. */
static long long port_samples(const struct bsf_daemon *d, uint32_t ifindex)
{
	for (uint32_t i = 0; i < d->events.flows.nports; i++)
		if (d->events.flows.ports[i].ifindex == ifindex)
			return (long long)d->events.flows.ports[i].samples;
	return -1;
}

/* The log lines of priority LOG_ERR saying a description cannot be
 * taken, and the last one. */
static unsigned take_errs;
static char take_err[1024];

static void log_sink(void *arg, int priority, const char *line)
{
	(void)arg;
	if (priority == LOG_ERR && strstr(line, "take")) {
		take_errs++;
		snprintf(take_err, sizeof take_err, "%s", line);
	}
	fprintf(stderr, "test_devchange: %s\n", line);
}

/* The input and output interfaces of the first drop notification (0:5)
 * that arrives (within a second). */
static void recv_discard(int fd, uint32_t *in, uint32_t *out)
{
	uint8_t buf[9000];
	struct sflow_datagram dg;
	struct sflow_decode_error e;
	ssize_t r;
	int found = 0;

	for (int tries = 0; !found && tries < 100; tries++) {
		r = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
		if (r <= 0) {
			usleep(10000);
			continue;
		}
		ck_assert_msg(sflow_decode(buf, (size_t)r, NULL, &dg, &e) == SFLOW_OK, "%s", e.msg);
		for (uint32_t i = 0; i < dg.nsamples && !found; i++)
			if (dg.samples[i].kind == SFLOW_SMP_DISCARD) {
				*in = dg.samples[i].h.discard.input;
				*out = dg.samples[i].h.discard.output;
				found = 1;
			}
		sflow_datagram_free(&dg);
	}
	ck_assert_msg(found, "no drop notification");
}

/* The backend numbers its ports anew and describes them in a way the
 * daemon cannot take, again and again (a device of size 8): from that
 * describe() on, no port is read nor attributed with the old numbering,
 * the first failure is logged and the next ones at most once a minute
 * with their count, the attempts come 1, 2, 4, 8 s apart (or at once when
 * the backend calls again); when the description can be taken, the
 * ports' data resumes in the new numbering. */
START_TEST(device_change_unusable)
{
	struct event_base *base = event_base_new();
	struct bsf_daemon d;
	struct seen s[8];
	const struct seen *x;
	struct bsf_event drop;
	uint64_t vnow;
	uint32_t in = 99, out = 99;
	unsigned port;
	int fd = test_udp_listener(&port);
	size_t n;

	start(&d, base, port, "");
	n = poll_decode(&d, fd, s, 8);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(find(s, n, 0, 11)->in_octets, 1000);
	/* the rate limit's clock, moved by hand below */
	vnow = bsf_now_ns();
	bsf_clock_virtual(&vnow, bsf_wall_ns() - vnow);
	take_errs = 0;
	bsf_log_set_sink(log_sink, NULL);

	/* tp1, tp2, tp3 (ifIndex 12, 13, 14) are ports 0, 1, 2 from the next
	 * describe(), which gives a device of size 8 */
	ck_assert_int_eq(change(&d, 4), 0);
	event_base_loop(base, EVLOOP_NONBLOCK);
	ck_assert_uint_eq(d.device_change_failures, 1);
	ck_assert_uint_eq(d.device_changes, 0);
	ck_assert_int_eq(d.ports_unknown, 1);
	ck_assert_uint_eq(take_errs, 1);
	ck_assert_uint_eq(d.devchange_retry_s, 1);
	/* only the device's counters: port 0 read now would be tp1's
	 * (12000) sent as ifIndex 11's */
	n = poll_decode(&d, fd, s, 8);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(s[0].type, 2);
	ck_assert_uint_eq(s[0].seq, 2);
	ck_assert_int_eq(poller_sample_port(d.poller, 0), -1);
	/* a sampled packet of port 0 is sent on no port's source; a drop
	 * from port 0 to port 1 is notified without its ports */
	push_samples(&d, 1);
	bsf_event_init(&drop);
	drop.type = BSF_EV_DROP;
	drop.reason = 259;
	drop.in_port = 0;
	drop.out_port = 1;
	drop.frame_len = 64;
	drop.hdr_len = 14;
	ck_assert_uint_eq(d.be.host->host.push_events(d.be.host->host.arg, &drop, 1), 1);
	bsf_daemon_flush(&d);
	ck_assert_uint_eq(d.events.by_type[BSF_EV_SAMPLE], 1);
	ck_assert_uint_eq(d.events.flow_samples_sent, 0);
	ck_assert_uint_eq(d.events.unattributed[BSF_EV_SAMPLE], 1);
	ck_assert_uint_eq(d.events.unattributed[BSF_EV_DROP], 1);
	recv_discard(fd, &in, &out);
	ck_assert_uint_eq(in, 0);
	ck_assert_uint_eq(out, 0);

	/* the backend calls again: tried at once, not logged (within the
	 * minute), the next attempt twice as far */
	ck_assert_int_eq(change(&d, 4), 0);
	event_base_loop(base, EVLOOP_NONBLOCK);
	ck_assert_uint_eq(d.device_change_failures, 2);
	ck_assert_uint_eq(d.devchange_retry_s, 2);
	ck_assert_uint_eq(take_errs, 1);
	/* the timer's attempt, 2 s later: 4 s to the next */
	{
		struct timeval tv = {2, 500000};

		event_base_loopexit(base, &tv);
		event_base_dispatch(base);
	}
	ck_assert_uint_eq(d.device_change_failures, 3);
	ck_assert_uint_eq(d.devchange_retry_s, 4);
	ck_assert_uint_eq(take_errs, 1);
	/* a minute on: the next failure is logged, with the three since the
	 * first message (this one included) */
	vnow += 61ull * 1000000000ull;
	ck_assert_int_eq(change(&d, 4), 0);
	event_base_loop(base, EVLOOP_NONBLOCK);
	ck_assert_uint_eq(d.device_change_failures, 4);
	ck_assert_uint_eq(d.devchange_retry_s, 8);
	ck_assert_uint_eq(take_errs, 2);
	ck_assert_msg(strstr(take_err, "(3 attempts failed since the last message, 4 since the "
				       "first)") != NULL,
		      "%s", take_err);
	ck_assert_int_eq(d.ports_unknown, 1);
	n = poll_decode(&d, fd, s, 8);
	ck_assert_uint_eq(n, 1);

	/* a description it can take: the ports' data resumes, numbered anew;
	 * tp1 goes on from its last sample */
	ck_assert_int_eq(change(&d, 5), 0);
	event_base_loop(base, EVLOOP_NONBLOCK);
	ck_assert_uint_eq(d.device_changes, 1);
	ck_assert_uint_eq(d.device_change_failures, 4);
	ck_assert_int_eq(d.ports_unknown, 0);
	ck_assert_int_eq(evtimer_pending(d.ev_devchange_retry, NULL), 0);
	n = poll_decode(&d, fd, s, 8);
	ck_assert_uint_eq(n, 4);
	ck_assert_ptr_null(find(s, n, 0, 11));
	x = find(s, n, 0, 12);
	ck_assert_ptr_nonnull(x);
	ck_assert_uint_eq(x->seq, 2);
	ck_assert_uint_eq(x->in_octets, 12000);
	x = find(s, n, 0, 13);
	ck_assert_ptr_nonnull(x);
	ck_assert_uint_eq(x->seq, 1);
	ck_assert_uint_eq(x->in_octets, 13000);
	ck_assert_uint_eq(find(s, n, 2, 1)->seq, 4);
	push_samples(&d, 1);
	bsf_daemon_flush(&d);
	ck_assert_int_eq(port_samples(&d, 12), 1);

	bsf_log_set_sink(NULL, NULL);
	bsf_clock_virtual(NULL, 0);
	stop(&d, base, fd);
}
END_TEST

/* Visibility on, and a description the daemon cannot take: no queue
 * stream is on nor asked for (not even by a reload, which builds its
 * pipeline for the ports the daemon knows), until it can: then the
 * pipeline for three ports and their streams. */
START_TEST(device_change_unusable_visibility)
{
	struct event_base *base = event_base_new();
	struct bsf_daemon d;
	unsigned port, *qev;
	int fd = test_udp_listener(&port);
	char err[1024];

	start(&d, base, port, "visibility {\n forensics = yes\n}\n");
	qev = sym(&d, "testplugin_qev");
	ck_assert_uint_eq(d.vis.n_streamed, 4);
	ck_assert_int_eq(change(&d, 4), 0);
	event_base_loop(base, EVLOOP_NONBLOCK);
	ck_assert_int_eq(d.ports_unknown, 1);
	ck_assert_uint_eq(d.vis.n_streamed, 0);
	memset(qev, 0, 4 * sizeof *qev);
	/* a reload with another visibility section: a pipeline for the two
	 * ports the daemon still has, no stream asked for */
	write_conf_for(port, "visibility {\n forensics = yes\n congestion q {\n  high = 64K\n "
			     "}\n}\n");
	ck_assert_msg(bsf_daemon_reload(&d, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(d.vis_rebuilds, 2);
	ck_assert_uint_eq(d.vis.n_streamed, 0);
	for (int i = 0; i < 4; i++)
		ck_assert_uint_eq(qev[i], 0);
	ck_assert_int_eq(d.ports_unknown, 1);
	/* taken: three ports, their queues streamed */
	ck_assert_int_eq(change(&d, 5), 0);
	event_base_loop(base, EVLOOP_NONBLOCK);
	ck_assert_int_eq(d.ports_unknown, 0);
	ck_assert_uint_eq(d.vis_rebuilds, 3);
	ck_assert_uint_eq(d.vis.n_streamed, 2 + 4 + 3);
	stop(&d, base, fd);
}
END_TEST

/* Visibility on: a new pipeline for the new number of ports, and the
 * queue streams asked for again on the new ports' queues. */
START_TEST(device_change_visibility)
{
	struct event_base *base = event_base_new();
	struct bsf_daemon d;
	unsigned port;
	int fd = test_udp_listener(&port);

	start(&d, base, port, "visibility {\n forensics = yes\n}\n");
	ck_assert_ptr_nonnull(d.vis.p);
	ck_assert_uint_eq(d.vis_rebuilds, 1);
	ck_assert_uint_eq(d.vis.n_streamed, 4); /* 2 ports x 2 queues */
	ck_assert_int_eq(change(&d, 1), 0);
	event_base_loop(base, EVLOOP_NONBLOCK);
	ck_assert_uint_eq(d.device_changes, 1);
	ck_assert_ptr_nonnull(d.vis.p);
	ck_assert_uint_eq(d.vis_rebuilds, 2);
	ck_assert_uint_eq(d.vis.n_streamed, 2 + 4 + 3);
	stop(&d, base, fd);
}
END_TEST

/* A description of no ports at all, then ports again: the device's
 * source goes on alone, visibility is off (it has nothing to watch) and
 * comes back with the ports. */
START_TEST(device_change_to_no_ports)
{
	struct event_base *base = event_base_new();
	struct bsf_daemon d;
	struct seen s[8];
	unsigned port;
	int fd = test_udp_listener(&port);
	size_t n;

	start(&d, base, port, "visibility {\n forensics = yes\n}\n");
	ck_assert_ptr_nonnull(d.vis.p);
	ck_assert_int_eq(change(&d, 3), 0);
	event_base_loop(base, EVLOOP_NONBLOCK);
	ck_assert_uint_eq(d.device_changes, 1);
	ck_assert_uint_eq(poller_n_sources(d.poller), 1);
	ck_assert_uint_eq(d.events.flows.nports, 0);
	ck_assert_ptr_null(d.vis.p);
	ck_assert_uint_eq(d.vis.n_streamed, 0);
	ck_assert_int_eq(poller_sample_port(d.poller, 0), -1);
	n = poll_decode(&d, fd, s, 8);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(s[0].type, 2);
	ck_assert_uint_eq(s[0].seq, 1);
	/* a sample of a port that is gone: no data source takes it */
	push_samples(&d, 1);
	bsf_daemon_flush(&d);
	ck_assert_uint_eq(d.events.flow_samples_sent, 0);
	/* ports again: three new sources, visibility back */
	ck_assert_int_eq(change(&d, 1), 0);
	event_base_loop(base, EVLOOP_NONBLOCK);
	ck_assert_uint_eq(d.device_changes, 2);
	ck_assert_uint_eq(poller_n_sources(d.poller), 4);
	ck_assert_ptr_nonnull(d.vis.p);
	ck_assert_uint_eq(d.vis.n_streamed, 2 + 4 + 3);
	n = poll_decode(&d, fd, s, 8);
	ck_assert_uint_eq(n, 4);
	ck_assert_uint_eq(find(s, n, 0, 12)->seq, 1);
	ck_assert_uint_eq(find(s, n, 2, 1)->seq, 2);
	stop(&d, base, fd);
}
END_TEST

/* Every event queued before the change is read with the old numbering,
 * however many there are: 6000 samples of port index 0 (tp0, ifIndex
 * 11) queued, then the change (index 0 becomes tp1, ifIndex 12): all
 * 6000 go out on tp0's source, none on tp1's. */
START_TEST(device_change_queued_events)
{
	struct event_base *base = event_base_new();
	struct bsf_daemon d;
	unsigned port;
	int fd = test_udp_listener(&port);

	start(&d, base, port, "");
	ck_assert_int_eq(port_samples(&d, 12), 0);
	push_samples(&d, 6000);
	ck_assert_int_eq(change(&d, 1), 0);
	event_base_loop(base, EVLOOP_NONBLOCK);
	event_base_loop(base, EVLOOP_NONBLOCK);
	ck_assert_uint_eq(d.device_changes, 1);
	ck_assert_uint_eq(d.events.by_type[BSF_EV_SAMPLE], 6000);
	ck_assert_uint_eq(d.events.flow_samples_sent, 6000);
	ck_assert_int_eq(port_samples(&d, 11), -1); /* gone with tp0 */
	ck_assert_int_eq(port_samples(&d, 12), 0);
	stop(&d, base, fd);
}
END_TEST

/* At exit (bsf_daemon_flush) everything queued goes out, not one
 * drain's worth. */
START_TEST(flush_reads_every_queued_event)
{
	struct event_base *base = event_base_new();
	struct bsf_daemon d;
	unsigned port;
	int fd = test_udp_listener(&port);

	start(&d, base, port, "");
	push_samples(&d, 6000);
	bsf_daemon_flush(&d);
	ck_assert_uint_eq(d.events.by_type[BSF_EV_SAMPLE], 6000);
	ck_assert_uint_eq(port_samples(&d, 11), 6000);
	stop(&d, base, fd);
}
END_TEST

/* The log line, by ifIndex. */
START_TEST(diff_line)
{
	struct bsf_port_desc a[2], b[3];
	struct bsf_device_desc da = {.nports = 2, .ports = a}, db = {.nports = 3, .ports = b};
	char line[512];

	memset(a, 0, sizeof a);
	memset(b, 0, sizeof b);
	a[0].ifindex = 11;
	snprintf(a[0].name, sizeof a[0].name, "tp0");
	a[1].ifindex = 12;
	snprintf(a[1].name, sizeof a[1].name, "tp1");
	a[1].n_uc_queues = 2;
	b[0] = a[1];
	b[0].n_uc_queues = 8;
	b[0].n_pgs = 8;
	b[1].ifindex = 13;
	snprintf(b[1].name, sizeof b[1].name, "tp2");
	b[2].ifindex = 14;
	snprintf(b[2].name, sizeof b[2].name, "tp3");
	ck_assert_uint_eq(bsf_devchange_diff(&da, &db, line, sizeof line), 4);
	ck_assert_str_eq(line, "3 ports, were 2; added tp2 (ifIndex 13), tp3 (ifIndex 14); "
			       "removed tp0 (ifIndex 11); changed tp1 (ifIndex 12: 8/0 queues, "
			       "8 PGs, 0 Mb/s; were tp1, 2/0, 0, 0)");
	/* a short buffer: the entries counted, never an overrun */
	ck_assert_uint_eq(bsf_devchange_diff(&da, &db, line, 40), 4);
	ck_assert_str_eq(line, "3 ports, were 2; and 4 more");
	ck_assert_uint_eq(bsf_devchange_diff(&db, &db, line, sizeof line), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("devchange");
	TCase *tc = tcase_create("devchange");
	SRunner *sr;
	const char *b = getenv("top_builddir");
	int nf;

	snprintf(plugin, sizeof plugin, "%s/agent/tests/.libs/testplugin.so", b ? b : ".");
	bsf_log_init("test_devchange", 0, 1);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, device_change);
	tcase_add_test(tc, device_change_visibility);
	tcase_add_test(tc, device_change_unusable);
	tcase_add_test(tc, device_change_unusable_visibility);
	tcase_add_test(tc, device_change_queued_events);
	tcase_add_test(tc, device_change_to_no_ports);
	tcase_add_test(tc, flush_reads_every_queued_event);
	tcase_add_test(tc, diff_line);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? 0 : 1;
}
