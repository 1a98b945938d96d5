/*
 * test_visexport.c - the daemon's visibility export at the function level,
 * with the test plugin as the backend and a UDP socket on 127.0.0.1 as the
 * collector: sampler statistics (E:7) that do not fit in the device's
 * counters sample next to its other records are never lost but follow it
 * in counters samples of the device carrying only E:7, each with the next
 * sequence number; every sampler appears exactly once per poll.  A drop
 * that passes the drop sampler reaches the 0:5 path with its own
 * visibility_event record (bsf_visx_drop_params).  Congestion starts get
 * an out-of-cycle port sample only when sampled, at most one a second per
 * port, and say so in flag bit 0; the 0:5 drops field counts only the
 * drop sampler's rejections for rate reasons; a drop outside the watched
 * ports is left to the daemon's own 0:5 path.
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
#include "agent/discard.h"
#include "agent/export.h"
#include "agent/log.h"
#include "agent/tests/testnet.h"
#include "agent/poller.h"
#include "agent/visibility/vis_pipeline.h"
#include "proto/sflow_decode.h"
#include "proto/sflow_own.h"

static char plugin[512];

#define SEC 1000000000ull

/* One poll's device samples as received: their sequence numbers and the
 * sampler names in their E:7 records, in order. */
struct seen {
	uint32_t n, seq[16];
	char names[16][40];
	uint32_t nnames;
	uint32_t with_bst; /* samples that had 4413:1 (the full device sample) */
};

static void receive_all(int fd, struct seen *sn)
{
	struct sflow_decode_opts opts = {.own_enterprise = SFLOW_ENT_OWN_DEFAULT};
	uint8_t buf[9000];
	ssize_t r;

	memset(sn, 0, sizeof *sn);
	while ((r = recv(fd, buf, sizeof buf, MSG_DONTWAIT)) > 0) {
		struct sflow_datagram d;
		struct sflow_decode_error err;

		ck_assert_int_le(r, 200); /* datagram_bytes */
		ck_assert_msg(sflow_decode(buf, (size_t)r, &opts, &d, &err) == SFLOW_OK, "%s",
			      err.msg);
		for (uint32_t i = 0; i < d.nsamples; i++) {
			const struct sflow_sample *s = &d.samples[i];

			if (s->kind != SFLOW_SMP_COUNTERS || s->h.counters.source_id_type != 2)
				continue;
			ck_assert_uint_lt(sn->n, 16);
			sn->seq[sn->n++] = s->h.counters.sequence_number;
			for (uint32_t j = 0; j < s->nrecords; j++) {
				const struct sflow_record *rec = &s->records[j];
				struct sflow_own_sampler_stat st;

				if (rec->tag == SFLOW_TAG(4413, 1))
					sn->with_bst++;
				if (rec->tag != SFLOW_TAG(SFLOW_ENT_OWN_DEFAULT, 7))
					continue;
				for (uint32_t k = 0; k < rec->u.own.u.samplers.n; k++) {
					ck_assert_int_eq(
					    sflow_own_sampler_at(&rec->u.own.u.samplers, k, &st),
					    0);
					ck_assert_uint_lt(sn->nnames, 16);
					snprintf(sn->names[sn->nnames++], 40, "%s", st.name);
				}
			}
		}
		sflow_datagram_free(&d);
	}
}

/* bsflowd's state d on the test plugin, sending to 127.0.0.1:port, with
 * the top-level settings extra and the visibility section body vis. */
static void start_daemon(struct bsf_daemon *d, struct event_base *base, unsigned port,
			 const char *extra, const char *vis)
{
	char text[2048], err[1024];
	struct conf *c;

	snprintf(text, sizeof text,
		 "agent {\n address = 192.0.2.1\n}\n"
		 "polling_interval = 0\n%s"
		 "backend = \"%s\"\n"
		 "collector c1 {\n address = 127.0.0.1\n port = %u\n}\n"
		 "visibility {\n%s}\n",
		 extra, plugin, port, vis);
	c = conf_load_text(text, "v.conf", err, sizeof err);
	ck_assert_msg(c != NULL, "%s", err);
	ck_assert_int_eq(bsf_daemon_init(d, base, "v.conf", 1), 0);
	ck_assert_msg(bsf_daemon_apply(d, c, err, sizeof err) == 0, "%s", err);
	ck_assert_ptr_nonnull(d->vis.p);
}

START_TEST(sampler_stats_split)
{
	struct event_base *base = event_base_new();
	struct bsf_daemon d;
	struct seen sn;
	unsigned port;
	int s = test_udp_listener(&port);

	/* 200-byte datagrams: the device sample (4413:1 and E:5) fits, but
	 * not with E:7 (12 + 108 bytes a sampler); each sampler alone does */
	start_daemon(&d, base, port, "datagram_bytes = 200\n",
		     " sampler aa {\n  every = 2\n }\n"
		     " sampler bb {\n  tickets = 5\n }\n"
		     " sampler cc {\n  type = any\n  members = {aa, bb}\n }\n"
		     " sample_drops = cc\n");

	for (uint32_t round = 0; round < 2; round++) {
		poller_poll_all(d.poller);
		export_flush(d.x);
		receive_all(s, &sn);
		/* the device sample, then one E:7-only sample per sampler */
		ck_assert_uint_eq(sn.n, 4);
		ck_assert_uint_eq(sn.with_bst, 1);
		for (uint32_t i = 0; i < sn.n; i++)
			ck_assert_uint_eq(sn.seq[i], 1 + 4 * round + i);
		ck_assert_uint_eq(sn.nnames, 3);
		ck_assert_str_eq(sn.names[0], "aa");
		ck_assert_str_eq(sn.names[1], "bb");
		ck_assert_str_eq(sn.names[2], "cc");
	}
	bsf_daemon_fini(&d);
	event_base_free(base);
	close(s);
}
END_TEST

/* A drop event from the backend: reason 259, 100 bytes, at 1 s, on port
 * 0's queue 0 (callers set the rest). */
static void drop_event(struct bsf_event *ev)
{
	memset(ev, 0, sizeof *ev);
	ev->type = BSF_EV_DROP;
	ev->reason = 259;
	ev->frame_len = 100;
	ev->tc = UINT32_MAX;
	ev->t_ns = 1 * SEC;
}

/* What bsf_visx_feed said of the drops fed through feed(): how many
 * passed the drop sampler, with how many own records. */
struct drop_seen {
	struct bsf_visx *v;
	uint32_t n, with_record;
	struct sflow_own_vis_event rec[4];
};

/* Feed ev; 1 if the drop sampler decided on it (passed or taken), 0 if
 * it is left to the caller to notify. */
static int feed(struct drop_seen *ds, const struct bsf_event *ev)
{
	struct sflow_own_vis_event rec;
	int valid = -1;
	enum bsf_visx_drop v = bsf_visx_feed(ds->v, ev, &rec, &valid);

	ck_assert_int_ne(valid, -1);
	if (v == BSF_VISX_DROP_SAMPLED) {
		if (valid && ds->n < 4) {
			ds->rec[ds->n] = rec;
			ds->with_record++;
		}
		ds->n++;
	} else {
		ck_assert_int_eq(valid, 0);
	}
	return v != BSF_VISX_DROP_NOTIFY;
}

/* A drop that passes the drop sampler comes back from the feed with its
 * own visibility_event record: type drop, its id in both ids, the queue,
 * reason and depth of the backend's event. */
START_TEST(drop_record_params)
{
	struct event_base *base = event_base_new();
	struct bsf_daemon d;
	struct drop_seen ds;
	struct bsf_event ev;

	start_daemon(&d, base, 9, "", " sampler all {\n  every = 1\n }\n sample_drops = all\n");
	ck_assert_int_eq(d.vis.drop_routed, 1);

	memset(&ds, 0, sizeof ds);
	ds.v = &d.vis;
	drop_event(&ev);
	ev.out_port = 1;
	ev.queue = 2;
	ev.depth_bytes = 4096;
	ck_assert_int_eq(feed(&ds, &ev), 1);
	ev.t_ns += 1000;
	ev.queue = 5;
	ev.reason = 260;
	ck_assert_int_eq(feed(&ds, &ev), 1);
	ck_assert_uint_eq(ds.n, 2);
	ck_assert_uint_eq(ds.with_record, 2);
	ck_assert_uint_eq(bsf_visx_enterprise(&d.vis), SFLOW_ENT_OWN_DEFAULT);
	for (uint32_t i = 0; i < 2; i++) {
		const struct sflow_own_vis_event *r = &ds.rec[i];

		ck_assert_uint_eq(r->type, SFLOW_OWN_VIS_DROP);
		ck_assert_uint_ne(r->own_id, 0);
		ck_assert_uint_eq(r->event_id, r->own_id);
		ck_assert_uint_eq(r->flags, 0);
		ck_assert_uint_eq(r->depth, 4096);
		ck_assert_uint_eq(r->delay, 0);
	}
	ck_assert_uint_gt(ds.rec[1].own_id, ds.rec[0].own_id);
	ck_assert_uint_eq(ds.rec[0].queue, 2);
	ck_assert_uint_eq(ds.rec[0].reason, 259);
	ck_assert_uint_eq(ds.rec[1].queue, 5);
	ck_assert_uint_eq(ds.rec[1].reason, 260);
	bsf_daemon_fini(&d);
	event_base_free(base);
}
END_TEST

/* What a run sent besides device samples: out-of-cycle counters samples
 * of ports (by ifIndex 11 or 12: the test plugin's two ports) and the E:1
 * event samples' type, flags and output ifIndex, in order. */
struct sent {
	char order[32]; /* C: port counters sample, S: congestion start, E: end */
	uint32_t port_samples[2];
	uint32_t n;
	uint32_t type[16], flags[16], out[16];
};

static void receive_sent(int fd, struct sent *sn)
{
	struct sflow_decode_opts opts = {.own_enterprise = SFLOW_ENT_OWN_DEFAULT};
	uint8_t buf[9000];
	ssize_t r;

	while ((r = recv(fd, buf, sizeof buf, MSG_DONTWAIT)) > 0) {
		struct sflow_datagram d;
		struct sflow_decode_error err;

		ck_assert_msg(sflow_decode(buf, (size_t)r, &opts, &d, &err) == SFLOW_OK, "%s",
			      err.msg);
		for (uint32_t i = 0; i < d.nsamples; i++) {
			const struct sflow_sample *s = &d.samples[i];

			if (s->kind == SFLOW_SMP_COUNTERS && s->h.counters.source_id_type == 0) {
				uint32_t ix = s->h.counters.source_id_index;

				ck_assert(ix == 11 || ix == 12);
				sn->port_samples[ix - 11]++;
				strncat(sn->order, "C", sizeof sn->order - strlen(sn->order) - 1);
			}
			if (s->kind != SFLOW_SMP_OWN)
				continue;
			for (uint32_t j = 0; j < s->nrecords; j++) {
				const struct sflow_record *rec = &s->records[j];

				if (rec->kind != SFLOW_REC_OWN ||
				    rec->u.own.format != SFLOW_OWN_VIS_EVENT)
					continue;
				ck_assert_uint_lt(sn->n, 16);
				sn->type[sn->n] = rec->u.own.u.event.type;
				sn->flags[sn->n] = rec->u.own.u.event.flags;
				sn->out[sn->n] = s->h.own.u.event.output;
				sn->n++;
				strncat(sn->order,
					rec->u.own.u.event.type == SFLOW_OWN_VIS_CONGESTION_START
					    ? "S"
					    : "E",
					sizeof sn->order - strlen(sn->order) - 1);
			}
		}
		sflow_datagram_free(&d);
	}
}

/* Run the loop once (out-of-cycle port samples go out from it), flush and
 * read what was sent. */
static void loop_and_receive(struct bsf_daemon *d, struct event_base *base, int fd, struct sent *sn)
{
	event_base_loop(base, EVLOOP_NONBLOCK);
	export_flush(d->x);
	receive_sent(fd, sn);
}

/* Congestion starts and their out-of-cycle counters samples: only a start
 * that passed its sampler gets one, at most one a second per port (event
 * time), and the start's E:1 has flag bit 0 exactly when it was sent.
 * Port 0 is not eligible for the sampler: its start gives nothing at all.
 * Port 1 starts at 1.0 s, 1.5 s and 2.6 s (each ended 0.1 s later): port
 * samples for the first and third only (1.5 s is 0.5 s after 1.0 s; 2.6 s
 * is 1.6 s after it), E:1 flags 1, 0, 1 on the starts, each port sample
 * just before its start.  A fourth episode at 4.0 s raised inside a poll
 * (start and end in one) is held until the loop runs, then goes out in the
 * same order: port sample, start (flag 1), end. */
START_TEST(congestion_port_samples)
{
	struct event_base *base = event_base_new();
	struct bsf_daemon d;
	struct sent sn;
	unsigned port;
	int fd = test_udp_listener(&port);
	static const uint64_t starts[3] = {1 * SEC, 3 * SEC / 2, 26 * SEC / 10};
	static const uint32_t want_flag[3] = {1, 0, 1};

	start_daemon(
	    &d, base, port, "",
	    " congestion q {\n  ports = {0, 1}\n  queues = {0}\n  high = 10K\n  low = 2K\n }\n"
	    " sampler only1 {\n  ports = {1}\n }\n"
	    " sample_congestion = only1\n");
	memset(&sn, 0, sizeof sn);
	loop_and_receive(&d, base, fd, &sn);
	ck_assert_uint_eq(sn.n, 0);
	ck_assert_uint_eq(sn.port_samples[0] + sn.port_samples[1], 0);

	/* port 0: rejected by the sampler (not eligible) */
	vis_pipeline_depth(d.vis.p, 0, 0, 20000, 1 * SEC + 1000);
	loop_and_receive(&d, base, fd, &sn);
	vis_pipeline_depth(d.vis.p, 0, 0, 0, 1 * SEC + 2000);
	loop_and_receive(&d, base, fd, &sn);
	ck_assert_uint_eq(sn.n, 0);
	ck_assert_uint_eq(sn.port_samples[0], 0);

	for (int i = 0; i < 3; i++) {
		vis_pipeline_depth(d.vis.p, 1, 0, 20000, starts[i]);
		loop_and_receive(&d, base, fd, &sn);
		vis_pipeline_depth(d.vis.p, 1, 0, 0, starts[i] + SEC / 10);
		loop_and_receive(&d, base, fd, &sn);
	}
	/* inside a poll: held */
	d.vis.in_poll = 1;
	vis_pipeline_depth(d.vis.p, 1, 0, 20000, 4 * SEC);
	vis_pipeline_depth(d.vis.p, 1, 0, 0, 4 * SEC + SEC / 10);
	d.vis.in_poll = 0;
	export_flush(d.x);
	receive_sent(fd, &sn);
	ck_assert_str_eq(sn.order, "CSESECSE");
	loop_and_receive(&d, base, fd, &sn);
	ck_assert_str_eq(sn.order, "CSESECSECSE");
	ck_assert_uint_eq(sn.port_samples[0], 0);
	ck_assert_uint_eq(sn.port_samples[1], 3);
	ck_assert_uint_eq(sn.n, 8);
	ck_assert_uint_eq(sn.flags[6] & SFLOW_OWN_VIS_FLAG_PORT_SAMPLED, 1);
	ck_assert_uint_eq(sn.flags[7] & SFLOW_OWN_VIS_FLAG_PORT_SAMPLED, 0);
	for (int i = 0; i < 3; i++) {
		ck_assert_uint_eq(sn.type[2 * i], SFLOW_OWN_VIS_CONGESTION_START);
		ck_assert_uint_eq(sn.type[2 * i + 1], SFLOW_OWN_VIS_CONGESTION_END);
		ck_assert_uint_eq(sn.out[2 * i], 12);
		ck_assert_uint_eq(sn.flags[2 * i] & SFLOW_OWN_VIS_FLAG_PORT_SAMPLED, want_flag[i]);
		ck_assert_uint_eq(sn.flags[2 * i + 1] & SFLOW_OWN_VIS_FLAG_PORT_SAMPLED, 0);
	}
	ck_assert_uint_eq(d.vis.port_samples, 3);
	ck_assert_uint_eq(d.vis.port_samples_skipped, 1);
	ck_assert_uint_eq(d.vis.port_samples_failed, 0);
	/* the 4 passed starts asked: sent + skipped + not sent */
	ck_assert_uint_eq(d.vis.port_samples_asked, 4);
	/* the port samples read the regular samples' peak window, closing its
	 * peaks, so that the next regular sample does not report them again */
	{
		unsigned *wr = dlsym(d.be.plugin.handle, "testplugin_window_reads");

		ck_assert_ptr_nonnull(wr);
		ck_assert_uint_eq(wr[1], 0);
		ck_assert_uint_ge(wr[0], 3);
	}
	/* a new pipeline: the status counts start again */
	bsf_visx_set_pipeline(&d.vis, NULL, 0);
	ck_assert_uint_eq(d.vis.port_samples_asked + d.vis.port_samples, 0);
	ck_assert_uint_eq(d.vis.sent[VIS_EV_CONGESTION_START], 0);
	bsf_daemon_fini(&d);
	event_base_free(base);
	close(fd);
}
END_TEST

/* bsflowd's state d with the visibility section body vis, ds ready for
 * feed(); ev a drop at 1 s. */
static void start_drop_daemon(struct bsf_daemon *d, struct event_base *base, struct drop_seen *ds,
			      struct bsf_event *ev, const char *vis)
{
	start_daemon(d, base, 9, "", vis);
	memset(ds, 0, sizeof *ds);
	ds->v = &d->vis;
	drop_event(ev);
}

/* The 0:5 drops field counts drop-sampler rejections for rate reasons
 * only.  Sampler: port 0 only, every 2nd.  Three drops on port 1 (not
 * eligible: neither sent nor counted), then four on port 0 (two pass, two
 * are sampled out by every-N): 2 notifications and drops = 2, so that
 * sent + drops = the 4 eligible drops.  Every drop was the pipeline's
 * (feed returns 1). */
START_TEST(drops_rate_reasons_only)
{
	struct event_base *base = event_base_new();
	struct bsf_daemon d;
	struct drop_seen ds;
	struct bsf_event ev;

	start_drop_daemon(&d, base, &ds, &ev,
			  " sampler p0 {\n  ports = {0}\n  every = 2\n }\n"
			  " sample_drops = p0\n");
	for (int i = 0; i < 7; i++) {
		ev.out_port = i < 3 ? 1 : 0;
		ev.t_ns += 1000;
		ck_assert_int_eq(feed(&ds, &ev), 1);
	}
	ck_assert_uint_eq(ds.n, 2);
	ck_assert_uint_eq(bsf_visx_drops_lost(&d.vis), 2);
	bsf_daemon_fini(&d);
	event_base_free(base);
}
END_TEST

/* A sampled drop whose 0:5 does not fit datagram_bytes with bsflowd's own
 * visibility_event record goes out without it.  0:5 of an egress drop
 * with no header bytes: 8 (tag, length) + 28 (seven fields) + 4 (count)
 * + 0:1 24 + 0:1036 12 + 0:1040 12 + 0:1043 16 + 0:1038 28
 * ("egress_admission") = 132 bytes; in a 28-byte datagram header, 160:
 * within 200.  With E:1 (8 + 72): 240, over. */
START_TEST(drop_too_big_for_own_record)
{
	struct event_base *base = event_base_new();
	struct bsf_daemon d;
	struct bsf_event ev;
	struct sflow_decode_opts opts = {.own_enterprise = SFLOW_ENT_OWN_DEFAULT};
	uint8_t buf[9000];
	unsigned port, n0 = 0, nrec = 0, nown = 0;
	int s = test_udp_listener(&port);
	ssize_t r;

	start_daemon(&d, base, port, "datagram_bytes = 200\n",
		     " sampler all {\n  every = 1\n }\n sample_drops = all\n");
	drop_event(&ev);
	ev.stage = BSF_STAGE_EGRESS_ADMISSION;
	ev.out_port = 1;
	ev.queue = 2;
	ev.depth_bytes = 4096;
	bsf_events_route(&d.events, &ev);
	export_flush(d.x);
	while ((r = recv(s, buf, sizeof buf, MSG_DONTWAIT)) > 0) {
		struct sflow_datagram dg;
		struct sflow_decode_error err;

		ck_assert_int_le(r, 200);
		ck_assert_msg(sflow_decode(buf, (size_t)r, &opts, &dg, &err) == SFLOW_OK, "%s",
			      err.msg);
		for (uint32_t i = 0; i < dg.nsamples; i++) {
			const struct sflow_sample *sm = &dg.samples[i];

			if (sm->kind != SFLOW_SMP_DISCARD)
				continue;
			n0++;
			nrec = sm->nrecords;
			for (uint32_t j = 0; j < sm->nrecords; j++)
				if (sm->records[j].tag >> 12 == SFLOW_ENT_OWN_DEFAULT)
					nown++;
			ck_assert_uint_eq(sm->length, 124); /* the body: 132 - 8 */
		}
		sflow_datagram_free(&dg);
	}
	ck_assert_uint_eq(n0, 1);
	ck_assert_uint_eq(nrec, 5);
	ck_assert_uint_eq(nown, 0);
	ck_assert_uint_eq(d.events.drops.sent, 1);
	ck_assert_uint_eq(d.events.drops.suppressed_rate, 0);
	bsf_daemon_fini(&d);
	event_base_free(base);
	close(s);
}
END_TEST

/* A drop outside the ports the monitors watch (e.g. a CPU port, index 2
 * on the test plugin's 2 ports) raises no drop event: the feed says the
 * pipeline did not take it (the daemon then notifies it itself); a drop
 * on port 1 is taken. */
START_TEST(drop_outside_ports_not_taken)
{
	struct event_base *base = event_base_new();
	struct bsf_daemon d;
	struct drop_seen ds;
	struct bsf_event ev;

	start_drop_daemon(&d, base, &ds, &ev,
			  " sampler all {\n  every = 1\n }\n sample_drops = all\n");
	ev.out_port = 2;
	ck_assert_int_eq(feed(&ds, &ev), 0);
	ck_assert_uint_eq(ds.n, 0);
	ev.out_port = 1;
	ev.t_ns += 1000;
	ck_assert_int_eq(feed(&ds, &ev), 1);
	ck_assert_uint_eq(ds.n, 1);
	/* a sample event is never a drop the pipeline took */
	ev.type = BSF_EV_SAMPLE;
	ev.t_ns += 1000;
	ck_assert_int_eq(feed(&ds, &ev), 0);
	bsf_daemon_fini(&d);
	event_base_free(base);
}
END_TEST

/* A packet sampled and then dropped (a sample event with a drop reason)
 * never departed: it is not a departure for the monitors (its drop event
 * is what they see), so its transit time raises no high-delay event; the
 * same sample without a reason does. */
START_TEST(dropped_sample_not_a_departure)
{
	struct event_base *base = event_base_new();
	struct bsf_daemon d;
	struct bsf_event ev;
	struct vis_pipeline_stats st;

	start_daemon(&d, base, 9, "",
		     " delay_profile dp {\n  thresholds = {1us}\n }\n"
		     " sampler all {\n  every = 1\n }\n sample_delay = all\n");
	/* as with a backend without queue event streams (the test plugin
	 * has them): port 1's samples are the monitors' departures */
	ck_assert_ptr_nonnull(d.vis.streamed);
	d.vis.streamed[1] = 0;
	memset(&ev, 0, sizeof ev);
	ev.type = BSF_EV_SAMPLE;
	ev.in_port = 0;
	ev.out_port = 1;
	ev.queue = 0;
	ev.tc = UINT32_MAX;
	ev.frame_len = 100;
	ev.t_ns = 1 * SEC;
	ev.transit_ns = 10000; /* 10 us, above the 1 us threshold */
	ev.reason = 259;
	bsf_events_route(&d.events, &ev);
	vis_pipeline_get_stats(d.vis.p, &st);
	ck_assert_uint_eq(st.raised[VIS_EV_HIGH_DELAY], 0);
	ev.reason = 0;
	ev.t_ns += 1000;
	bsf_events_route(&d.events, &ev);
	vis_pipeline_get_stats(d.vis.p, &st);
	ck_assert_uint_eq(st.raised[VIS_EV_HIGH_DELAY], 1);
	bsf_daemon_fini(&d);
	event_base_free(base);
}
END_TEST

int main(void)
{
	Suite *su = suite_create("visexport");
	TCase *tc = tcase_create("visexport");
	SRunner *sr;
	const char *b = getenv("top_builddir");
	int nf;

	snprintf(plugin, sizeof plugin, "%s/agent/tests/.libs/testplugin.so", b ? b : ".");
	bsf_log_init("test_visexport", 0, 1);
	tcase_add_test(tc, sampler_stats_split);
	tcase_add_test(tc, dropped_sample_not_a_departure);
	tcase_add_test(tc, drop_record_params);
	tcase_add_test(tc, congestion_port_samples);
	tcase_add_test(tc, drops_rate_reasons_only);
	tcase_add_test(tc, drop_outside_ports_not_taken);
	tcase_add_test(tc, drop_too_big_for_own_record);
	suite_add_tcase(su, tc);
	sr = srunner_create(su);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? 0 : 1;
}
