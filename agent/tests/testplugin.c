/*
 * testplugin.c - a tiny backend plugin for the loader and daemon tests.
 *
 * Two ports (ifIndex 11 "tp0" and 12 "tp1", 10G, 2 unicast queues) with
 * fixed telemetry; built as a libtool module.  It takes the queue event
 * switches of interface version 2 (set_queue_events, for its 2 x 2
 * unicast queues; testplugin_qev has the last flags set per queue) but
 * sends no events.  Compiled with -DTESTPLUGIN_ABI=N it claims interface
 * version N instead (the refusal tests: 99, 1 and 2, the versions before
 * sizes), with -DTESTPLUGIN_NO_ENTRY it exports no entry point at all,
 * and with -DTESTPLUGIN_DATA_ENTRY as well a data symbol of the entry
 * point's name.
 * With -DTESTPLUGIN_OLD_LAYOUT it stands for a plugin built against an
 * older layout of interface 3: its table's size ends at queue_events_lost
 * (the check and read_eth_counters members past it hold functions that
 * abort, which the daemon must never call), and its read_events returns
 * one drop event per call of an event size that ends at copy_id (the
 * names past it are set to "NOT-MINE", which the daemon must not read).
 * The option "fail=1" makes open() fail with a message; testplugin_opens
 * counts the successful opens.
 * Device changes (the device change test, through dlsym):
 * testplugin_change(1) puts aside a description of three ports, tp1
 * (ifIndex 12, kept), tp2 and tp3 (13, 14; tp0 left) with 2, 4 and 3
 * unicast queues, and calls host->device_changed; it takes effect at the
 * next describe(), and from then on a port's ifInOctets is 1000 x its
 * ifIndex (before: 1000 x (index + 1)), so that a test sees which
 * numbering a read used.  testplugin_change(2): the next describe()
 * returns a device of size 8 (less than any daemon reads), then the
 * description in force again.  testplugin_change(3): no ports at all.
 * testplugin_change(4): as 1, the three ports numbered and read anew from
 * the next describe(), but that describe() and every one after it returns
 * a device of size 8, until testplugin_change(5), whose describe() gives
 * the three ports' description.
 * testplugin_describes counts describe().
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/backend.h"

#ifndef TESTPLUGIN_ABI
#define TESTPLUGIN_ABI BSF_BACKEND_ABI_VERSION
#endif

/* How many times open() succeeded: the reload test reads it with dlsym. */
int testplugin_opens;
/* port buffer reads by peak window (0, 1), for the visibility test (dlsym) */
unsigned testplugin_window_reads[2];
/* set_queue_events flags by [port][queue], for the loader test (dlsym) */
unsigned testplugin_qev[2][2];

/* describe() calls, for the device change test (dlsym) */
unsigned testplugin_describes;

struct tp {
	struct bsf_port_desc ports[3];
	struct bsf_device_desc dev, bad;
	uint64_t reads;
	const struct bsf_host *host;
	int pending;  /* testplugin_change's variant, taken at describe() */
	int by_index; /* counters by ifIndex (after variant 1) */
	int broken;   /* describe() gives size 8 (variant 4, until 5) */
};

static struct tp *last_opened;

static void set_port(struct bsf_port_desc *p, uint32_t ifindex, const char *name, unsigned nuc)
{
	memset(p, 0, sizeof *p);
	p->size = sizeof *p;
	p->ifindex = ifindex;
	snprintf(p->name, sizeof p->name, "%s", name);
	p->speed_bps = 10000000000ull;
	p->n_uc_queues = (uint8_t)nuc;
	p->oper_up = 1;
}

int testplugin_change(int variant);

int testplugin_change(int variant)
{
	struct tp *t = last_opened;

	if (!t || !BSF_FITS(t->host, struct bsf_host, device_changed) || !t->host->device_changed)
		return -1;
	t->pending = variant;
	t->host->device_changed(t->host->arg);
	return 0;
}

static void *tp_open(const struct bsf_backend_args *args, char *err, size_t errlen)
{
	struct tp *t;

	for (size_t i = 0; i < args->n_options; i++)
		if (strcmp(args->options[i], "fail=1") == 0) {
			snprintf(err, errlen, "asked to fail");
			return NULL;
		}
	t = calloc(1, sizeof *t);
	if (!t) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	set_port(&t->ports[0], 11, "tp0", 2);
	set_port(&t->ports[1], 12, "tp1", 2);
	t->host = args->host;
	last_opened = t;
	testplugin_opens++;
	t->dev.size = sizeof t->dev;
	snprintf(t->dev.id, sizeof t->dev.id, "testplugin");
	t->dev.caps = BSF_CAP_IF_COUNTERS | BSF_CAP_BUFFERS | BSF_CAP_QUEUE_EVENTS;
	t->dev.nports = 2;
	t->dev.ports = t->ports;
	t->dev.cell_bytes = 256;
	t->dev.total_cells = 1000;
	return t;
}

static void tp_close(void *st)
{
	if (st == last_opened)
		last_opened = NULL;
	free(st);
}

static const struct bsf_device_desc *tp_describe(void *st)
{
	struct tp *t = st;
	int v = t->pending;

	testplugin_describes++;
	t->pending = 0;
	if (v == 1 || v == 4) {
		set_port(&t->ports[0], 12, "tp1", 2);
		set_port(&t->ports[1], 13, "tp2", 4);
		set_port(&t->ports[2], 14, "tp3", 3);
		t->dev.nports = 3;
		t->by_index = 1;
	} else if (v == 3) {
		t->dev.nports = 0;
	}
	if (v == 4 || v == 5)
		t->broken = v == 4;
	if (v == 2 || t->broken) {
		t->bad = t->dev;
		t->bad.size = 8;
		return &t->bad;
	}
	return &t->dev;
}

static int tp_read_counters(void *st, uint32_t port, struct bsf_if_counters *out, char *err,
			    size_t errlen)
{
	struct tp *t = st;

	/* the fields of the first ABI 3 layout always fit out */
	out->in_mcast = out->in_bcast = out->in_discards = out->in_errors = 0;
	out->in_unknown_protos = out->out_mcast = out->out_bcast = 0;
	out->out_discards = out->out_errors = 0;
	t->reads++;
	if (port >= t->dev.nports) {
		snprintf(err, errlen, "no port %u", port);
		return -1;
	}
	out->in_octets = 1000 * (t->by_index ? t->dev.ports[port].ifindex : port + 1);
	out->out_octets = 2000 * (port + 1);
	out->in_ucast = out->out_ucast = 10;
	out->speed_bps = 10000000000ull;
	out->admin_up = out->oper_up = 1;
	return 0;
}

static void zero(struct bsf_buf *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		b[i] = (struct bsf_buf){0, 0, 0, 0, 0, 0};
}

static void fill(struct bsf_buf *b, uint64_t peak)
{
	b->cur_cells = 0;
	b->cur_bytes = 0;
	b->peak_cells = peak;
	b->peak_bytes = peak * 256;
	b->alloc_cells = 1000;
	b->peak_time_ns = BSF_UNKNOWN;
}

static int tp_read_port_buffers(void *st, unsigned window, uint32_t port,
				struct bsf_port_buffers *out, char *err, size_t errlen)
{
	if (window < 2)
		testplugin_window_reads[window]++;
	zero(out->uc, BSF_MAX_QUEUES);
	zero(out->mc, BSF_MAX_QUEUES);
	zero(out->pg_shared, BSF_MAX_PGS);
	zero(out->pg_headroom, BSF_MAX_PGS);
	fill(&out->ingress_uc, 100);
	fill(&out->ingress_mc, 0);
	fill(&out->egress_uc, 250);
	fill(&out->egress_mc, 0);
	fill(&out->uc[0], 200);
	fill(&out->uc[1], 50);
	return 0;
}

static int tp_read_device_buffers(void *st, unsigned window, struct bsf_device_buffers *out,
				  char *err, size_t errlen)
{
	zero(out->ingress_pool, BSF_MAX_POOLS);
	zero(out->egress_pool, BSF_MAX_POOLS);
	zero(out->cpu, BSF_MAX_QUEUES);
	fill(&out->uc, 500);
	fill(&out->mc, 0);
	return 0;
}

static int tp_read_delays(void *st, unsigned window, uint32_t port, struct bsf_port_delays *out,
			  char *err, size_t errlen)
{
	snprintf(err, errlen, "no delays here");
	return -1;
}

#ifndef TESTPLUGIN_OLD_LAYOUT
static size_t tp_read_events(void *st, struct bsf_event *ev, size_t max)
{
	return 0;
}
#else
#include <stdlib.h>

static size_t tp_read_events(void *st, struct bsf_event *ev, size_t max)
{
	struct bsf_event e;

	if (max == 0)
		return 0;
	bsf_event_init(&e);
	e.size = offsetof(struct bsf_event, copy_id) + sizeof e.copy_id;
	e.type = BSF_EV_DROP;
	e.reason = 3;
	e.in_port = 1;
	e.frame_len = 100;
	snprintf(e.function, sizeof e.function, "NOT-MINE");
	snprintf(e.reason_name, sizeof e.reason_name, "NOT-MINE");
	e.sampling_rate = 77;
	bsf_event_copy(bsf_event_slot(ev, 0), &e);
	return 1;
}

static int tp_never_check(const struct bsf_backend_args *args, char *report, size_t reportlen,
			  char *err, size_t errlen)
{
	abort();
}

static int tp_never_eth(void *st, uint32_t port, struct bsf_eth_counters *out, char *err,
			size_t errlen)
{
	abort();
}
#endif

static int tp_set_queue_events(void *st, uint32_t port, uint32_t queue, uint32_t multicast,
			       uint32_t flags, char *err, size_t errlen)
{
	struct tp *t = st;

	if (port >= t->dev.nports || queue >= t->dev.ports[port].n_uc_queues || multicast) {
		snprintf(err, errlen, "no such queue");
		return -1;
	}
	if (flags & ~(BSF_QEV_ENQUEUE | BSF_QEV_DEQUEUE)) {
		snprintf(err, errlen, "bad flags");
		return -1;
	}
	if (port < 2 && queue < 2)
		testplugin_qev[port][queue] = flags;
	return 0;
}

static uint64_t tp_queue_events_lost(void *st)
{
	return 0;
}

static const struct bsf_backend_ops tp_ops = {
    .abi_version = TESTPLUGIN_ABI,
#ifndef TESTPLUGIN_OLD_LAYOUT
    .size = sizeof(struct bsf_backend_ops),
#else
    .size = offsetof(struct bsf_backend_ops, queue_events_lost) +
	    sizeof(((struct bsf_backend_ops *)0)->queue_events_lost),
    .check = tp_never_check,
    .read_eth_counters = tp_never_eth,
#endif
    .name = "testplugin",
    .open = tp_open,
    .close = tp_close,
    .describe = tp_describe,
    .read_counters = tp_read_counters,
    .read_port_buffers = tp_read_port_buffers,
    .read_device_buffers = tp_read_device_buffers,
    .read_delays = tp_read_delays,
    .read_events = tp_read_events,
    .set_queue_events = tp_set_queue_events,
    .queue_events_lost = tp_queue_events_lost,
};

#ifndef TESTPLUGIN_NO_ENTRY
const struct bsf_backend_ops *bsf_backend_entry(void);

const struct bsf_backend_ops *bsf_backend_entry(void)
{
	return &tp_ops;
}
#else
/* keep the table referenced so the module is not empty */
const struct bsf_backend_ops *testplugin_not_the_entry(void);

const struct bsf_backend_ops *testplugin_not_the_entry(void)
{
	return &tp_ops;
}
#ifdef TESTPLUGIN_DATA_ENTRY
/* the entry's name on data, not a function: calling it would crash */
const unsigned char bsf_backend_entry[16] = {0xff, 0xff, 0xff, 0xff};
#endif
#endif
