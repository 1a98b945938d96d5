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
 * With `renumber=1` (the device change test), the thread pushes only
 * samples of port "th0" (ifIndex 21), in batches of 8 under the plugin's
 * lock, with th0's index in the numbering in force;
 * testplugin_thread_change(), on the loop thread, calls
 * host->device_changed, and the next describe() swaps the two ports'
 * indices (backend.h, DEVICE CHANGES).  Before it swaps, that describe()
 * has the thread push one more batch of RENUMBER_OLD samples, with the
 * numbering it replaces: a push from another thread after the daemon's
 * drain and before the switch, every time.  testplugin_thread_pushed()
 * counts the samples pushed.
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

#define RENUMBER_OLD 5 /* samples pushed inside describe(), old numbering */

struct tt {
	const struct bsf_host *host;
	struct bsf_port_desc ports[2];
	struct bsf_device_desc dev;
	unsigned long n;
	pthread_t thr;
	int started;
	/* renumber=1: under mu */
	int renumber;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int stop;
	int pending;	      /* device_changed called, describe() not yet */
	int push_old;	      /* describe() waits for a batch in the old numbering */
	uint32_t th0;	      /* th0's index in the numbering in force */
	unsigned long pushed; /* samples pushed */
};

static struct tt *last_opened;

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

/* renumber=1: samples of th0, 8 at a time, and the batch describe()
 * asks for, each pushed under mu (a push never straddles the switch). */
static void *tt_run_renumber(void *arg)
{
	struct tt *t = arg;
	struct bsf_event batch[8];
	unsigned long i = 0;

	pthread_mutex_lock(&t->mu);
	while (!t->stop) {
		size_t k;

		if (t->push_old)
			k = RENUMBER_OLD;
		else if (i < t->n)
			k = t->n - i < 8 ? (size_t)(t->n - i) : 8;
		else {
			pthread_cond_wait(&t->cv, &t->mu);
			continue;
		}
		for (size_t j = 0; j < k; j++) {
			struct bsf_event *e = &batch[j];

			bsf_event_init(e);
			e->type = BSF_EV_SAMPLE;
			e->in_port = t->th0;
			e->out_port = 1 - t->th0;
			e->frame_len = 100;
			e->t_ns = t->host->now_ns(t->host->arg);
			e->hdr_len = 14;
			memset(e->hdr, 0xab, 14);
		}
		t->host->push_events(t->host->arg, batch, k);
		t->pushed += k;
		if (t->push_old) {
			t->push_old = 0;
			pthread_cond_broadcast(&t->cv);
		} else {
			i += k;
		}
		/* let describe() in */
		pthread_mutex_unlock(&t->mu);
		pthread_mutex_lock(&t->mu);
	}
	pthread_mutex_unlock(&t->mu);
	return NULL;
}

void testplugin_thread_change(void);
unsigned long testplugin_thread_pushed(void);

void testplugin_thread_change(void)
{
	struct tt *t = last_opened;

	pthread_mutex_lock(&t->mu);
	t->pending = 1;
	pthread_mutex_unlock(&t->mu);
	t->host->device_changed(t->host->arg);
}

unsigned long testplugin_thread_pushed(void)
{
	struct tt *t = last_opened;
	unsigned long n;

	pthread_mutex_lock(&t->mu);
	n = t->pushed;
	pthread_mutex_unlock(&t->mu);
	return n;
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
	for (size_t i = 0; i < args->n_options; i++) {
		if (strncmp(args->options[i], "events=", 7) == 0)
			t->n = strtoul(args->options[i] + 7, NULL, 10);
		if (strcmp(args->options[i], "renumber=1") == 0)
			t->renumber = 1;
	}
	pthread_mutex_init(&t->mu, NULL);
	pthread_cond_init(&t->cv, NULL);
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
	if (!t->host ||
	    pthread_create(&t->thr, NULL, t->renumber ? tt_run_renumber : tt_run, t) != 0) {
		snprintf(err, errlen, "cannot start the event thread");
		pthread_cond_destroy(&t->cv);
		pthread_mutex_destroy(&t->mu);
		free(t);
		return NULL;
	}
	t->started = 1;
	last_opened = t;
	return t;
}

static void tt_close(void *st)
{
	struct tt *t = st;

	pthread_mutex_lock(&t->mu);
	t->stop = 1;
	pthread_cond_broadcast(&t->cv);
	pthread_mutex_unlock(&t->mu);
	if (t->started)
		pthread_join(t->thr, NULL);
	pthread_cond_destroy(&t->cv);
	pthread_mutex_destroy(&t->mu);
	if (last_opened == t)
		last_opened = NULL;
	free(t);
}

/* renumber=1: a change asked for takes effect here, after the thread
 * pushed one batch more in the numbering it replaces. */
static const struct bsf_device_desc *tt_describe(void *st)
{
	struct tt *t = st;
	struct bsf_port_desc p;

	if (!t->renumber)
		return &t->dev;
	pthread_mutex_lock(&t->mu);
	if (t->pending) {
		t->push_old = 1;
		pthread_cond_broadcast(&t->cv);
		while (t->push_old && !t->stop)
			pthread_cond_wait(&t->cv, &t->mu);
		p = t->ports[0];
		t->ports[0] = t->ports[1];
		t->ports[1] = p;
		t->th0 = 1 - t->th0;
		t->pending = 0;
	}
	pthread_mutex_unlock(&t->mu);
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
