/*
 * testplugin_thread.c - a backend plugin that pushes its events from its
 * own thread, as an ASIC SDK's callback thread would, for the threading
 * contract's test (test_push_thread.c, run under ThreadSanitizer).
 *
 * open() starts a thread that pushes `events=N` events (default 20000):
 * drops (even numbers) and samples (odd), in batches of 1 to 16 through
 * host->push_events, calls host->events_ready after each batch and
 * host->log once; close() joins it.  Two ports, fixed counters.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "agent/backend.h"

struct tt {
	const struct bsf_host *host;
	struct bsf_port_desc ports[2];
	struct bsf_device_desc dev;
	unsigned long n;
	pthread_t thr;
	int started;
};

static void *tt_run(void *arg)
{
	struct tt *t = arg;
	struct bsf_event batch[16];
	unsigned long i = 0;

	t->host->log(t->host->arg, LOG_INFO, "testplugin_thread: pushing %lu events", t->n);
	while (i < t->n) {
		size_t k = 1 + i % 16, j;

		if (k > t->n - i)
			k = t->n - i;
		for (j = 0; j < k; j++, i++) {
			struct bsf_event *e = &batch[j];

			bsf_event_init(e);
			e->type = i % 2 ? BSF_EV_SAMPLE : BSF_EV_DROP;
			e->reason = 3;
			e->in_port = (uint32_t)(i / 2 % 2);
			e->out_port = 1 - e->in_port;
			e->queue = 0;
			e->frame_len = 100;
			e->t_ns = t->host->now_ns(t->host->arg);
			e->hdr_len = 14;
			memset(e->hdr, 0xab, 14);
			if (e->type == BSF_EV_DROP)
				snprintf(e->reason_name, sizeof e->reason_name, "TEST_DROP");
		}
		t->host->push_events(t->host->arg, batch, k);
		t->host->events_ready(t->host->arg);
	}
	return NULL;
}

static void *tt_open(const struct bsf_backend_args *args, char *err, size_t errlen)
{
	struct tt *t = calloc(1, sizeof *t);

	if (!t) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	t->host = args->host;
	t->n = 20000;
	for (size_t i = 0; i < args->n_options; i++)
		if (strncmp(args->options[i], "events=", 7) == 0)
			t->n = strtoul(args->options[i] + 7, NULL, 10);
	for (int i = 0; i < 2; i++) {
		t->ports[i].size = sizeof t->ports[i];
		t->ports[i].ifindex = 21 + (uint32_t)i;
		snprintf(t->ports[i].name, sizeof t->ports[i].name, "th%d", i);
		t->ports[i].speed_bps = 10000000000ull;
		t->ports[i].n_uc_queues = 1;
		t->ports[i].oper_up = 1;
	}
	t->dev.size = sizeof t->dev;
	snprintf(t->dev.id, sizeof t->dev.id, "testplugin_thread");
	t->dev.caps = BSF_CAP_IF_COUNTERS | BSF_CAP_DROP_EVENTS | BSF_CAP_SAMPLE_EVENTS;
	t->dev.nports = 2;
	t->dev.ports = t->ports;
	if (!t->host || pthread_create(&t->thr, NULL, tt_run, t) != 0) {
		snprintf(err, errlen, "cannot start the event thread");
		free(t);
		return NULL;
	}
	t->started = 1;
	return t;
}

static void tt_close(void *st)
{
	struct tt *t = st;

	if (t->started)
		pthread_join(t->thr, NULL);
	free(t);
}

static const struct bsf_device_desc *tt_describe(void *st)
{
	struct tt *t = st;

	return &t->dev;
}

static int tt_read_counters(void *st, uint32_t port, struct bsf_if_counters *out, char *err,
			    size_t errlen)
{
	out->in_octets = out->out_octets = 1000;
	out->admin_up = out->oper_up = 1;
	return 0;
}

static int tt_read_port_buffers(void *st, unsigned window, uint32_t port,
				struct bsf_port_buffers *out, char *err, size_t errlen)
{
	snprintf(err, errlen, "no buffers");
	return -1;
}

static int tt_read_device_buffers(void *st, unsigned window, struct bsf_device_buffers *out,
				  char *err, size_t errlen)
{
	snprintf(err, errlen, "no buffers");
	return -1;
}

static int tt_read_delays(void *st, unsigned window, uint32_t port, struct bsf_port_delays *out,
			  char *err, size_t errlen)
{
	snprintf(err, errlen, "no delays");
	return -1;
}

static const struct bsf_backend_ops tt_ops = {
    .abi_version = BSF_BACKEND_ABI_VERSION,
    .size = sizeof(struct bsf_backend_ops),
    .name = "testplugin_thread",
    .open = tt_open,
    .close = tt_close,
    .describe = tt_describe,
    .read_counters = tt_read_counters,
    .read_port_buffers = tt_read_port_buffers,
    .read_device_buffers = tt_read_device_buffers,
    .read_delays = tt_read_delays,
    /* no read_events: everything is pushed */
};

const struct bsf_backend_ops *bsf_backend_entry(void);

const struct bsf_backend_ops *bsf_backend_entry(void)
{
	return &tt_ops;
}
