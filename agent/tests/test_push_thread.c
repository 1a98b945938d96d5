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
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

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

/* Run the daemon with the plugin pushing n events; returns 0 if every
 * event is accounted for. */
static int run(unsigned long n)
{
	struct event_base *base = event_base_new();
	struct event *tick;
	struct bsf_daemon d;
	struct conf *c;
	struct timeval tv = {0, 20000};
	char text[1024], err[1024];
	const char *b = getenv("top_builddir");
	uint64_t drops, samples, ldrops, lsamples, lother;
	int rc = 0;

	snprintf(text, sizeof text,
		 "backend = \"%s/agent/tests/.libs/testplugin_thread.so\"\n"
		 "plugin {\n option = {\"events=%lu\"}\n}\n",
		 b ? b : ".", n);
	if (!base || bsf_daemon_init(&d, base, "/nonexistent/push.conf", 0) < 0) {
		fprintf(stderr, "cannot set up\n");
		return 1;
	}
	c = conf_load_text(text, "push.conf", err, sizeof err);
	if (!c || bsf_daemon_apply(&d, c, err, sizeof err) < 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
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
	return run(N_EVENTS) == 0 ? 0 : 1;
}
