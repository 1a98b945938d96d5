/*
 * test_push_thread.c - the threading contract of backend.h: a plugin
 * (testplugin_thread.so) pushes events from its own thread while the
 * daemon's real event loop drains them.  Every event pushed either
 * arrives, exactly once and whole, through the same path as pulled ones
 * (the daemon's per-type counts), or is counted lost by type; none is
 * both or neither.  Built with -fsanitize=thread (with the daemon's
 * queue, host and backend files compiled into it, so that their accesses
 * are instrumented): any data race fails the run.  Skips (77) when the
 * build cannot use ThreadSanitizer (BSF_TSAN_SKIP from configure).
 *
 * Then the same at device changes (backend.h, DEVICE CHANGES): the
 * plugin's thread pushes samples of one port (ifIndex 21) while its two
 * ports swap indices eight times, and at each change it pushes a batch
 * more in the old numbering after the daemon's drain and before describe()
 * switches (the race the rule closes).  Every sample reaches ifIndex 21's
 * data source or is counted lost (the batches pushed between
 * device_changed and describe() among them, refused); none reaches
 * ifIndex 22's.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <dlfcn.h>
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/backends.h"
#include "agent/daemon.h"
#include "agent/log.h"

#define N_EVENTS 40000ul

static void tick_cb(evutil_socket_t fd, short what, void *arg)
{
}

/* The daemon d on base, with the plugin pushing n events (options: more
 * of its options, "" or ", \"renumber=1\"").  0, or -1 with a message. */
static int start(struct bsf_daemon *d, struct event_base *base, unsigned long n,
		 const char *options)
{
	char text[1024], err[1024];
	const char *b = getenv("top_builddir");
	struct conf *c;

	snprintf(text, sizeof text,
		 "backend = \"%s/agent/tests/.libs/testplugin_thread.so\"\n"
		 "plugin {\n option = {\"events=%lu\"%s}\n}\n",
		 b ? b : ".", n, options);
	if (!base || bsf_daemon_init(d, base, "/nonexistent/push.conf", 0) < 0) {
		fprintf(stderr, "cannot set up\n");
		return -1;
	}
	c = conf_load_text(text, "push.conf", err, sizeof err);
	if (!c || bsf_daemon_apply(d, c, err, sizeof err) < 0) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	return 0;
}

/* Run the daemon with the plugin pushing n events; returns 0 if every
 * event is accounted for. */
static int run(unsigned long n)
{
	struct event_base *base = event_base_new();
	struct event *tick;
	struct bsf_daemon d;
	struct timeval tv = {0, 20000};
	uint64_t drops, samples, ldrops, lsamples, lother;
	int rc = 0;

	if (start(&d, base, n, "") < 0)
		return 1;
	tick = event_new(base, -1, EV_PERSIST, tick_cb, NULL);
	event_add(tick, &tv);
	/* until everything is in (or counted lost), at most 60 s */
	for (int i = 0; i < 3000; i++) {
		event_base_loop(base, EVLOOP_ONCE);
		drops = d.events.by_type[BSF_EV_DROP] + bsf_backend_push_lost(&d.be, BSF_EV_DROP);
		samples =
		    d.events.by_type[BSF_EV_SAMPLE] + bsf_backend_push_lost(&d.be, BSF_EV_SAMPLE);
		if (drops + samples >= n)
			break;
	}
	ldrops = bsf_backend_push_lost(&d.be, BSF_EV_DROP);
	lsamples = bsf_backend_push_lost(&d.be, BSF_EV_SAMPLE);
	lother = bsf_backend_push_lost(&d.be, 0);
	drops = d.events.by_type[BSF_EV_DROP];
	samples = d.events.by_type[BSF_EV_SAMPLE];
	printf("%lu events pushed: %llu drops and %llu samples arrived, %llu and %llu lost\n", n,
	       (unsigned long long)drops, (unsigned long long)samples, (unsigned long long)ldrops,
	       (unsigned long long)lsamples);
	if (drops + ldrops != (n + 1) / 2 || samples + lsamples != n / 2 || lother != 0 ||
	    d.events.by_type[0] != 0) {
		printf("FAIL: not every event accounted for once\n");
		rc = 1;
	}
	if (drops == 0 || samples == 0) {
		printf("FAIL: nothing arrived\n");
		rc = 1;
	}
	event_free(tick);
	bsf_daemon_fini(&d); /* closes the plugin: its thread is joined */
	event_base_free(base);
	return rc;
}

/* Samples built on port ifIndex's data source, -1 if it has none. */
static long long port_samples(const struct bsf_daemon *d, uint32_t ifindex)
{
	for (uint32_t i = 0; i < d->events.flows.nports; i++)
		if (d->events.flows.ports[i].ifindex == ifindex)
			return (long long)d->events.flows.ports[i].samples;
	return -1;
}

#define N_CHANGES 8
#define N_OLD	  5 /* the plugin's RENUMBER_OLD */

/* The plugin pushing n samples of ifIndex 21 through N_CHANGES device
 * changes; 0 if each went to ifIndex 21 or is counted lost. */
static int run_renumber(unsigned long n)
{
	struct event_base *base = event_base_new();
	struct event *tick;
	struct bsf_daemon d;
	struct timeval tv = {0, 20000};
	void (*change)(void);
	unsigned long (*pushed)(void);
	unsigned long want = n + N_CHANGES * N_OLD, p = 0;
	long long s21 = 0, s22 = 0;
	uint64_t lost = 0, refused;
	int rc = 0, changes = 0;

	if (start(&d, base, n, ", \"renumber=1\"") < 0)
		return 1;
	change = (void (*)(void))dlsym(d.be.plugin.handle, "testplugin_thread_change");
	pushed = (unsigned long (*)(void))dlsym(d.be.plugin.handle, "testplugin_thread_pushed");
	if (!change || !pushed) {
		fprintf(stderr, "the plugin has no testplugin_thread_change\n");
		return 1;
	}
	tick = event_new(base, -1, EV_PERSIST, tick_cb, NULL);
	event_add(tick, &tv);
	/* a change every fifth turn of the loop, while the thread pushes;
	 * until everything is in (or counted lost), at most 60 s */
	for (int i = 0; i < 3000; i++) {
		event_base_loop(base, EVLOOP_ONCE);
		if (changes < N_CHANGES && i % 5 == 4 && d.device_changes == (uint64_t)changes) {
			change();
			changes++;
		}
		s21 = port_samples(&d, 21);
		s22 = port_samples(&d, 22);
		lost = bsf_backend_push_lost(&d.be, BSF_EV_SAMPLE);
		p = pushed();
		if (changes == N_CHANGES && d.device_changes == N_CHANGES && p == want &&
		    (uint64_t)(s21 + s22) + lost >= p)
			break;
	}
	refused = bsf_backend_push_refused(&d.be);
	printf("%lu samples of ifIndex 21 pushed through %llu device changes: %lld on ifIndex "
	       "21, %lld on ifIndex 22, %llu lost (%llu refused between device_changed and "
	       "describe())\n",
	       p, (unsigned long long)d.device_changes, s21, s22, (unsigned long long)lost,
	       (unsigned long long)refused);
	if (d.device_changes != N_CHANGES || d.device_change_failures != 0 || p != want) {
		printf("FAIL: %llu changes taken (%llu failed), %lu of %lu samples pushed\n",
		       (unsigned long long)d.device_changes,
		       (unsigned long long)d.device_change_failures, p, want);
		rc = 1;
	}
	if (s22 != 0) {
		printf("FAIL: %lld samples on ifIndex 22: read in another numbering than pushed\n",
		       s22);
		rc = 1;
	}
	if ((uint64_t)s21 + lost != p || d.events.flows.no_source != 0) {
		printf("FAIL: not every sample accounted for once (%llu without a source)\n",
		       (unsigned long long)d.events.flows.no_source);
		rc = 1;
	}
	if (refused < N_CHANGES * N_OLD || refused > lost || s21 == 0) {
		printf("FAIL: the batches pushed during the changes were not refused\n");
		rc = 1;
	}
	event_free(tick);
	bsf_daemon_fini(&d);
	event_base_free(base);
	return rc;
}

int main(void)
{
#ifdef BSF_TSAN_SKIP
	/* run() is compiled all the same (and so kept building) */
	if (N_EVENTS) {
		printf("SKIP: %s\n", BSF_TSAN_SKIP);
		return 77;
	}
#endif
	bsf_log_init("test_push_thread", 0, 1);
	if (run(N_EVENTS) != 0)
		return 1;
	return run_renumber(N_EVENTS / 2) == 0 ? 0 : 1;
}
