/*
 * backend_example.c - an example bsflowd backend plugin: start here to
 * write one for your switch.  Copy this file, replace what reads the fake
 * "hardware" below with calls into your SDK, and build it against the
 * installed header:
 *
 *	cc -std=c11 -shared -fPIC $(pkg-config --cflags bsflowd-backend) \
 *	    -o mybackend.so mybackend.c -lpthread
 *
 * then point bsflowd at it (bsflowd.conf(5)):
 *
 *	backend = "/usr/lib/bsflowd/mybackend.so"
 *	plugin {
 *		option = {"drop_interval_ms=500"}
 *	}
 *
 * The device here: two 10G ports, "ex0" (ifIndex 101) and "ex1" (102),
 * each with two unicast queues; traffic counters that grow at a steady
 * 1 Gb/s per direction from open(); queue occupancy that rises and falls
 * slowly; a few Ethernet errors; and a thread, standing for an SDK's
 * callback thread, that reports a dropped packet every drop_interval_ms
 * (default 1000, 0 = none).  What it shows, in order of appearance:
 *
 *  1. the entry point and the ops table, with abi_version and size set
 *     (bsf_backend_entry, at the end);
 *  2. check(): parse the options without side effects, for bsflowd -t;
 *  3. open(): describe the device (sizes set), keep the host table, start
 *     a host timer (loop thread) and the event thread;
 *  4. the read_* ops: fill only what you know into the pre-filled *out
 *     (everything else stays BSF_UNKNOWN), never past out->size;
 *  5. events from another thread: host->push_events, the one host call
 *     (with events_ready and log) allowed off the loop thread;
 *  6. close(): stop and join the thread before returning.
 * See bsflowd-backend(3) for the whole contract.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#define _POSIX_C_SOURCE 200809L /* pthreads, clock_gettime under -std=c11 */

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>

#include <bsflowd/backend.h>

#define EX_NPORTS  2
#define EX_QUEUES  2
#define EX_SPEED   10000000000ull /* 10 Gb/s */
#define EX_RATE	   1000000000ull  /* bits/s each port sends and receives */
#define EX_CELLS   4096u	  /* the shared buffer, cells of 256 bytes */
#define EX_TICK_NS 100000000ull	  /* the host timer: every 100 ms */

struct ex {
	const struct bsf_host *host; /* valid until close() returns */
	struct bsf_port_desc ports[EX_NPORTS];
	struct bsf_device_desc dev;
	struct bsf_timer *tick;
	uint64_t t0_ns;	 /* open(), Unix-epoch ns */
	uint64_t now_ns; /* the last tick: what the read ops report */
	/* the event thread */
	unsigned drop_interval_ms;
	pthread_t thread;
	int thread_started;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int stop; /* under mu */
};

/* ---- options: "key=value" strings from the plugin section */

static int ex_parse(const struct bsf_backend_args *args, unsigned *drop_interval_ms, char *err,
		    size_t errlen)
{
	const char *file = args->section_file ? args->section_file : args->config_file;

	*drop_interval_ms = 1000;
	for (size_t i = 0; i < args->n_options; i++) {
		const char *o = args->options[i];
		char *end;
		unsigned long v;

		if (strncmp(o, "drop_interval_ms=", 17) != 0) {
			snprintf(err, errlen,
				 "%s:%d: example: option %s: unknown (known: "
				 "drop_interval_ms)",
				 file, args->section_line, o);
			return -1;
		}
		errno = 0;
		v = strtoul(o + 17, &end, 10);
		if (errno || end == o + 17 || *end || v > 60000) {
			snprintf(err, errlen,
				 "%s:%d: example: drop_interval_ms = %s: not a "
				 "number of ms from 0 to 60000",
				 file, args->section_line, o + 17);
			return -1;
		}
		*drop_interval_ms = (unsigned)v;
	}
	return 0;
}

/* bsflowd -t: what open() would do, without doing it. */
static int ex_check(const struct bsf_backend_args *args, char *report, size_t reportlen, char *err,
		    size_t errlen)
{
	unsigned ms;

	if (ex_parse(args, &ms, err, errlen) < 0)
		return -1;
	if (ms)
		snprintf(report, reportlen,
			 "example: %d ports, a drop event every %u ms, no privileges needed",
			 EX_NPORTS, ms);
	else
		snprintf(report, reportlen, "example: %d ports, no drop events", EX_NPORTS);
	return 0;
}

/* ---- the event thread (an SDK's callback thread) */

/* One drop, as a switch would report it: port ex0 to ex1, queue 0. */
static void ex_make_drop(const struct ex *x, struct bsf_event *e)
{
	/* an Ethernet + IPv4 header: 02:00:00:00:00:02 <- :01, 10.0.0.1 ->
	 * 10.0.0.2, UDP, 100 bytes */
	static const uint8_t hdr[34] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00,
					0x00, 0x00, 0x01, 0x08, 0x00, 0x45, 0x00, 0x00, 0x52,
					0x00, 0x00, 0x00, 0x00, 0x40, 0x11, 0x66, 0x98, 0x0a,
					0x00, 0x00, 0x01, 0x0a, 0x00, 0x00, 0x02};

	bsf_event_init(e); /* size set, ports unknown, the rest 0 / "" */
	e->type = BSF_EV_DROP;
	e->reason = 259; /* sFlow's no_buffer_space */
	e->stage = BSF_STAGE_EGRESS_ADMISSION;
	e->in_port = 0;
	e->out_port = 1;
	e->queue = 0;
	e->frame_len = 104; /* FCS included */
	e->t_ns = x->host->now_ns(x->host->arg);
	e->depth_bytes = 256ull * EX_CELLS / 4;
	e->hdr_len = sizeof hdr;
	memcpy(e->hdr, hdr, sizeof hdr);
	/* names for 0:1038 and logs: what your SDK calls the drop */
	snprintf(e->function, sizeof e->function, "example_drop");
	snprintf(e->reason_name, sizeof e->reason_name, "EXAMPLE_QUEUE_FULL");
}

static void *ex_thread(void *arg)
{
	struct ex *x = arg;
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	pthread_mutex_lock(&x->mu);
	while (!x->stop) {
		struct bsf_event e;

		until.tv_nsec += (long)(x->drop_interval_ms % 1000) * 1000000L;
		until.tv_sec += x->drop_interval_ms / 1000 + until.tv_nsec / 1000000000L;
		until.tv_nsec %= 1000000000L;
		if (pthread_cond_timedwait(&x->cv, &x->mu, &until) != ETIMEDOUT)
			continue; /* woken: stop? */
		pthread_mutex_unlock(&x->mu);
		ex_make_drop(x, &e);
		/* any thread may push; the daemon copies the event, counts it
		 * lost if its queue is full, and wakes its loop.  (A backend
		 * whose ports change calls host->device_changed and switches
		 * to the new port indices in describe(): it pushes under the
		 * lock describe() takes for the switch, so that no push
		 * straddles it; bsflowd-backend(3), Device changes.  These
		 * ports never change.) */
		x->host->push_events(x->host->arg, &e, 1);
		pthread_mutex_lock(&x->mu);
	}
	pthread_mutex_unlock(&x->mu);
	return NULL;
}

/* ---- open / close */

/* The host timer: on the loop thread, like every op. */
static void ex_tick(void *arg)
{
	struct ex *x = arg;

	x->now_ns = x->host->now_ns(x->host->arg);
}

static void ex_close(void *st);

static void *ex_open(const struct bsf_backend_args *args, char *err, size_t errlen)
{
	struct ex *x;
	unsigned ms;

	if (ex_parse(args, &ms, err, errlen) < 0)
		return NULL;
	x = calloc(1, sizeof *x);
	if (!x) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	x->host = args->host;
	x->drop_interval_ms = ms;
	pthread_mutex_init(&x->mu, NULL);
	pthread_cond_init(&x->cv, NULL);
	for (int i = 0; i < EX_NPORTS; i++) {
		struct bsf_port_desc *p = &x->ports[i];

		p->size = sizeof *p; /* every struct we fill carries its size */
		p->ifindex = 101 + (uint32_t)i;
		snprintf(p->name, sizeof p->name, "ex%d", i);
		p->speed_bps = EX_SPEED;
		p->n_uc_queues = EX_QUEUES;
		p->oper_up = 1;
		/* samples: none here; a backend that samples asks
		 * args->sampling_rate for each port's rate */
	}
	x->dev.size = sizeof x->dev;
	snprintf(x->dev.id, sizeof x->dev.id, "example");
	x->dev.caps = BSF_CAP_IF_COUNTERS | BSF_CAP_ETH_COUNTERS | BSF_CAP_BUFFERS |
		      BSF_CAP_BUFFER_BYTES | (ms ? BSF_CAP_DROP_EVENTS : 0);
	x->dev.nports = EX_NPORTS;
	x->dev.ports = x->ports;
	x->dev.cell_bytes = 256;
	x->dev.total_cells = EX_CELLS;
	x->t0_ns = x->now_ns = x->host->now_ns(x->host->arg);
	x->tick = x->host->timer_new(x->host->arg, ex_tick, x);
	if (!x->tick || x->host->timer_start(x->tick, EX_TICK_NS, 1) < 0) {
		snprintf(err, errlen, "cannot start a timer");
		ex_close(x);
		return NULL;
	}
	if (ms) {
		if (pthread_create(&x->thread, NULL, ex_thread, x) != 0) {
			snprintf(err, errlen, "cannot start the event thread");
			ex_close(x);
			return NULL;
		}
		x->thread_started = 1;
	}
	x->host->log(x->host->arg, LOG_INFO, "example: %d ports, a drop every %u ms", EX_NPORTS,
		     ms);
	return x;
}

static void ex_close(void *st)
{
	struct ex *x = st;

	if (x->thread_started) {
		/* no thread may call the host once close() returns */
		pthread_mutex_lock(&x->mu);
		x->stop = 1;
		pthread_cond_signal(&x->cv);
		pthread_mutex_unlock(&x->mu);
		pthread_join(x->thread, NULL);
	}
	x->host->timer_free(x->tick);
	pthread_cond_destroy(&x->cv);
	pthread_mutex_destroy(&x->mu);
	free(x);
}

static const struct bsf_device_desc *ex_describe(void *st)
{
	struct ex *x = st;

	return &x->dev;
}

/* ---- reads: fill what you know, leave the rest as it comes (unknown) */

static double ex_seconds(const struct ex *x)
{
	return (double)(x->now_ns - x->t0_ns) / 1e9;
}

static int ex_read_counters(void *st, uint32_t port, struct bsf_if_counters *out, char *err,
			    size_t errlen)
{
	struct ex *x = st;
	uint64_t octets;

	if (port >= EX_NPORTS) {
		snprintf(err, errlen, "example: no port %u", port);
		return -1;
	}
	octets = (uint64_t)(ex_seconds(x) * (double)(EX_RATE / 8));
	out->in_octets = out->out_octets = octets;
	out->in_ucast = out->out_ucast = octets / 1000; /* 1000-byte frames */
	out->in_mcast = out->out_mcast = 0;
	out->in_bcast = out->out_bcast = 0;
	out->in_discards = out->in_errors = 0;
	out->out_discards = out->out_errors = 0;
	/* in_unknown_protos: not known, left BSF_UNKNOWN */
	out->speed_bps = EX_SPEED;
	out->admin_up = out->oper_up = 1;
	return 0;
}

static int ex_read_eth_counters(void *st, uint32_t port, struct bsf_eth_counters *out, char *err,
				size_t errlen)
{
	struct ex *x = st;

	if (port >= EX_NPORTS) {
		snprintf(err, errlen, "example: no port %u", port);
		return -1;
	}
	/* a field appended after the first ABI 3 layout would be written
	 * only if BSF_FITS(out, struct bsf_eth_counters, field) */
	out->fcs_errors = 7 + (uint64_t)ex_seconds(x) / 10;
	out->symbol_errors = 0;
	out->frame_too_longs = 0;
	/* half-duplex counters make no sense at 10G: left unknown */
	return 0;
}

/* One buffer object: cur cells now, peak cells since the window's read. */
static void ex_buf(struct bsf_buf *b, uint64_t cur, uint64_t peak, uint64_t alloc)
{
	b->cur_cells = cur;
	b->cur_bytes = cur * 256;
	b->peak_cells = peak;
	b->peak_bytes = peak * 256;
	b->alloc_cells = alloc;
	/* peak_time_ns: no BSF_CAP_PEAK_TIME, left unknown */
}

/* Occupancy rising and falling over 20 s, 0..EX_CELLS / 4 cells. */
static uint64_t ex_level(const struct ex *x, uint32_t port)
{
	uint64_t ms = (x->now_ns - x->t0_ns) / 1000000u + port * 5000u;
	uint64_t phase = ms % 20000u;

	return (phase < 10000u ? phase : 20000u - phase) * (EX_CELLS / 4) / 10000u;
}

static int ex_read_port_buffers(void *st, unsigned window, uint32_t port,
				struct bsf_port_buffers *out, char *err, size_t errlen)
{
	struct ex *x = st;
	uint64_t lvl;

	if (port >= EX_NPORTS || window >= BSF_WINDOWS) {
		snprintf(err, errlen, "example: no port %u or window %u", port, window);
		return -1;
	}
	/* a real backend keeps a peak per window and restarts only that
	 * window's on a read; the example's level moves slowly enough to
	 * report it as its own peak */
	lvl = ex_level(x, port);
	ex_buf(&out->egress_uc, lvl, lvl, EX_CELLS);
	ex_buf(&out->uc[0], lvl, lvl, EX_CELLS / 4);
	ex_buf(&out->uc[1], 0, 0, EX_CELLS / 4);
	ex_buf(&out->ingress_uc, lvl / 2, lvl / 2, EX_CELLS);
	return 0;
}

static int ex_read_device_buffers(void *st, unsigned window, struct bsf_device_buffers *out,
				  char *err, size_t errlen)
{
	struct ex *x = st;
	uint64_t lvl = ex_level(x, 0) + ex_level(x, 1);

	ex_buf(&out->uc, lvl, lvl, EX_CELLS);
	return 0;
}

static int ex_read_delays(void *st, unsigned window, uint32_t port, struct bsf_port_delays *out,
			  char *err, size_t errlen)
{
	/* no BSF_CAP_DELAY_*: never called, but required; all unknown */
	return 0;
}

/* ---- the entry point */

static const struct bsf_backend_ops ex_ops = {
    .abi_version = BSF_BACKEND_ABI_VERSION,
    .size = sizeof(struct bsf_backend_ops),
    .name = "example",
    .open = ex_open,
    .close = ex_close,
    .describe = ex_describe,
    .read_counters = ex_read_counters,
    .read_port_buffers = ex_read_port_buffers,
    .read_device_buffers = ex_read_device_buffers,
    .read_delays = ex_read_delays,
    /* read_events NULL: this backend pushes */
    .check = ex_check,
    .read_eth_counters = ex_read_eth_counters,
};

const struct bsf_backend_ops *bsf_backend_entry(void);

const struct bsf_backend_ops *bsf_backend_entry(void)
{
	return &ex_ops;
}
