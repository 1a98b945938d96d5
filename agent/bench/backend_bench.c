/*
 * backend_bench.c - a backend plugin for `make bench` that simulates
 * nothing: the cost of bsflowd's own polling and export, without a switch
 * model's.  ports=N (1..65536, default 1024) ports of 1 Gb/s, each with
 * queues=Q (1..16, default 8) unicast queues and 8 priority groups; its
 * reads answer at once with values computed from the time of the read
 * (interface counters that grow at a steady rate, queue levels that move
 * slowly), every structure the model fills: interface and Ethernet
 * counters, port, queue, PG, pool and CPU queue buffers with peak times,
 * and both kinds of queue delay, so that its counters samples are the
 * model's size.  No events, no timers, no threads: between polls bsflowd
 * has nothing of its own to do.
 *
 *	backend = "agent/bench/.libs/backend_bench.so"
 *	plugin {
 *		option = {"ports=4096", "queues=8"}
 *	}
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/backend.h"

#define BB_SPEED 1000000000ull /* 1 Gb/s */
#define BB_RATE	 100000000ull  /* bits/s each port sends and receives */
#define BB_CELLS 65536u	       /* the shared buffer, cells of 256 bytes */
#define BB_PGS	 8

struct bb {
	const struct bsf_host *host;
	struct bsf_port_desc *ports;
	struct bsf_device_desc dev;
	uint64_t t0_ns;
};

/* "key=N" with lo <= N <= hi: 1 matched (*v set), 0 another key, -1 bad. */
static int bb_opt(const char *o, const char *key, unsigned long lo, unsigned long hi,
		  unsigned long *v)
{
	size_t k = strlen(key);
	char *end;

	if (strncmp(o, key, k) != 0 || o[k] != '=')
		return 0;
	errno = 0;
	*v = strtoul(o + k + 1, &end, 10);
	return errno || end == o + k + 1 || *end || *v < lo || *v > hi ? -1 : 1;
}

static int bb_parse(const struct bsf_backend_args *args, unsigned *nports, unsigned *nq, char *err,
		    size_t errlen)
{
	const char *file = args->section_file ? args->section_file : args->config_file;

	*nports = 1024;
	*nq = 8;
	for (size_t i = 0; i < args->n_options; i++) {
		const char *o = args->options[i];
		unsigned long v;
		int r;

		if ((r = bb_opt(o, "ports", 1, 65536, &v)) > 0) {
			*nports = (unsigned)v;
			continue;
		}
		if (r == 0 && (r = bb_opt(o, "queues", 1, BSF_MAX_QUEUES, &v)) > 0) {
			*nq = (unsigned)v;
			continue;
		}
		snprintf(err, errlen,
			 r < 0 ? "%s:%d: bench: option %s: not a number in range (ports 1..65536, "
				 "queues 1..16)"
			       : "%s:%d: bench: option %s: unknown (known: ports, queues)",
			 file ? file : "?", args->section_line, o);
		return -1;
	}
	return 0;
}

static int bb_check(const struct bsf_backend_args *args, char *report, size_t reportlen, char *err,
		    size_t errlen)
{
	unsigned n, q;

	if (bb_parse(args, &n, &q, err, errlen) < 0)
		return -1;
	snprintf(report, reportlen, "bench: %u ports x %u queues, values computed, no events", n,
		 q);
	return 0;
}

static void bb_close(void *st)
{
	struct bb *b = st;

	free(b->ports);
	free(b);
}

static void *bb_open(const struct bsf_backend_args *args, char *err, size_t errlen)
{
	struct bb *b;
	unsigned n, q;

	if (bb_parse(args, &n, &q, err, errlen) < 0)
		return NULL;
	b = calloc(1, sizeof *b);
	if (!b || !(b->ports = calloc(n, sizeof *b->ports))) {
		free(b);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	b->host = args->host;
	for (unsigned i = 0; i < n; i++) {
		struct bsf_port_desc *p = &b->ports[i];

		p->size = sizeof *p;
		p->ifindex = 1 + i;
		snprintf(p->name, sizeof p->name, "bench%u", i);
		p->speed_bps = BB_SPEED;
		p->n_uc_queues = (uint8_t)q;
		p->n_pgs = BB_PGS;
		p->oper_up = 1;
	}
	b->dev.size = sizeof b->dev;
	snprintf(b->dev.id, sizeof b->dev.id, "bench");
	b->dev.caps = BSF_CAP_IF_COUNTERS | BSF_CAP_ETH_COUNTERS | BSF_CAP_BUFFERS |
		      BSF_CAP_BUFFER_BYTES | BSF_CAP_PEAK_TIME | BSF_CAP_PGS | BSF_CAP_POOLS |
		      BSF_CAP_CPU_QUEUES | BSF_CAP_DELAY_NONTAGGED | BSF_CAP_DELAY_MARKER;
	b->dev.nports = n;
	b->dev.ports = b->ports;
	b->dev.cell_bytes = 256;
	b->dev.total_cells = BB_CELLS;
	b->dev.n_ingress_pools = 1;
	b->dev.n_egress_pools = 1;
	b->dev.n_cpu_queues = 8;
	b->t0_ns = b->host->now_ns(b->host->arg);
	return b;
}

static const struct bsf_device_desc *bb_describe(void *st)
{
	return &((struct bb *)st)->dev;
}

static uint64_t bb_ns(const struct bb *b)
{
	return b->host->now_ns(b->host->arg) - b->t0_ns;
}

static int bb_read_counters(void *st, uint32_t port, struct bsf_if_counters *out, char *err,
			    size_t errlen)
{
	struct bb *b = st;
	uint64_t octets = bb_ns(b) / 1000u * (BB_RATE / 8) / 1000000u + port;

	out->in_octets = out->out_octets = octets;
	out->in_ucast = out->out_ucast = octets / 500u;
	out->in_mcast = out->out_mcast = out->in_bcast = out->out_bcast = 0;
	out->in_discards = out->in_errors = out->in_unknown_protos = 0;
	out->out_discards = out->out_errors = 0;
	out->speed_bps = BB_SPEED;
	out->admin_up = out->oper_up = 1;
	return 0;
}

static int bb_read_eth_counters(void *st, uint32_t port, struct bsf_eth_counters *out, char *err,
				size_t errlen)
{
	out->alignment_errors = out->fcs_errors = out->frame_too_longs = 0;
	out->internal_mac_transmit_errors = out->internal_mac_receive_errors = 0;
	out->symbol_errors = 0;
	return 0;
}

/* A buffer object at level cur cells (the peak is the level: it moves
 * slowly), its peak seen at t. */
static void bb_buf(struct bsf_buf *x, uint64_t cur, uint64_t alloc, uint64_t t)
{
	x->cur_cells = x->peak_cells = cur;
	x->cur_bytes = x->peak_bytes = cur * 256;
	x->alloc_cells = alloc;
	x->peak_time_ns = t;
}

/* A level rising and falling over 20 s, 0..max, phase by object. */
static uint64_t bb_level(uint64_t ns, uint32_t obj, uint64_t max)
{
	uint64_t ms = ns / 1000000u + obj * 37u, ph = ms % 20000u;

	return (ph < 10000u ? ph : 20000u - ph) * max / 10000u;
}

static int bb_read_port_buffers(void *st, unsigned window, uint32_t port,
				struct bsf_port_buffers *out, char *err, size_t errlen)
{
	struct bb *b = st;
	uint64_t ns = bb_ns(b), t = b->t0_ns + ns, sum = 0;

	for (uint32_t q = 0; q < b->ports[port].n_uc_queues; q++) {
		uint64_t l = bb_level(ns, port * 16 + q, 256);

		bb_buf(&out->uc[q], l, 1024, t);
		sum += l;
	}
	for (uint32_t g = 0; g < BB_PGS; g++) {
		bb_buf(&out->pg_shared[g], g ? 0 : sum, 4096, t);
		bb_buf(&out->pg_headroom[g], 0, 128, t);
	}
	bb_buf(&out->egress_uc, sum, BB_CELLS, t);
	bb_buf(&out->egress_mc, 0, BB_CELLS, t);
	bb_buf(&out->ingress_uc, sum, BB_CELLS, t);
	bb_buf(&out->ingress_mc, 0, BB_CELLS, t);
	return 0;
}

static int bb_read_device_buffers(void *st, unsigned window, struct bsf_device_buffers *out,
				  char *err, size_t errlen)
{
	struct bb *b = st;
	uint64_t ns = bb_ns(b), t = b->t0_ns + ns, l = bb_level(ns, 0, BB_CELLS / 4);

	bb_buf(&out->uc, l, BB_CELLS, t);
	bb_buf(&out->mc, 0, BB_CELLS, t);
	bb_buf(&out->ingress_pool[0], l, BB_CELLS, t);
	bb_buf(&out->egress_pool[0], l, BB_CELLS, t);
	for (uint32_t q = 0; q < b->dev.n_cpu_queues; q++)
		bb_buf(&out->cpu[q], 0, 64, t);
	return 0;
}

static int bb_read_delays(void *st, unsigned window, uint32_t port, struct bsf_port_delays *out,
			  char *err, size_t errlen)
{
	struct bb *b = st;
	uint64_t ns = bb_ns(b);

	for (uint32_t q = 0; q < b->ports[port].n_uc_queues; q++) {
		struct bsf_queue_delay *d = &out->uc[q];

		/* a queue of l cells of 256 bytes drains at 1 Gb/s: 2048 ns each */
		d->nontagged_latest_ns = d->marker_ns = bb_level(ns, port * 16 + q, 256) * 2048u;
		d->nontagged_max_ns = d->nontagged_latest_ns;
		d->nontagged_count = 1000;
	}
	return 0;
}

static const struct bsf_backend_ops bb_ops = {
    .abi_version = BSF_BACKEND_ABI_VERSION,
    .size = sizeof(struct bsf_backend_ops),
    .name = "bench",
    .open = bb_open,
    .close = bb_close,
    .describe = bb_describe,
    .read_counters = bb_read_counters,
    .read_port_buffers = bb_read_port_buffers,
    .read_device_buffers = bb_read_device_buffers,
    .read_delays = bb_read_delays,
    .check = bb_check,
    .read_eth_counters = bb_read_eth_counters,
};

const struct bsf_backend_ops *bsf_backend_entry(void);

const struct bsf_backend_ops *bsf_backend_entry(void)
{
	return &bb_ops;
}
