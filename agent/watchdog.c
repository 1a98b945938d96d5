/*
 * watchdog.c - keep-alives to the systemd service watchdog from the event
 * loop (watchdog.h): a persistent timer at half the interval the service
 * manager gave, each turn one "WATCHDOG=1" datagram (notify.c).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <errno.h>
#include <event2/event.h>
#include <stdlib.h>

#include "agent/notify.h"
#include "agent/watchdog.h"

uint64_t bsf_watchdog_usec(const char *usec, const char *pid, pid_t self)
{
	unsigned long long v;
	char *end;

	if (!usec || !*usec || *usec < '0' || *usec > '9')
		return 0;
	errno = 0;
	v = strtoull(usec, &end, 10);
	if (errno || *end || v == 0)
		return 0;
	if (pid && *pid) {
		long p;

		errno = 0;
		p = strtol(pid, &end, 10);
		if (errno || *end || p != (long)self)
			return 0;
	}
	return (uint64_t)v;
}

static void ping_cb(evutil_socket_t fd, short what, void *arg)
{
	bsf_notify("WATCHDOG=1");
}

struct event *bsf_watchdog_start(struct event_base *base, uint64_t usec)
{
	uint64_t half = usec / 2 ? usec / 2 : 1;
	struct timeval tv = {(time_t)(half / 1000000u), (suseconds_t)(half % 1000000u)};
	struct event *ev = event_new(base, -1, EV_PERSIST, ping_cb, NULL);

	if (!ev)
		return NULL;
	if (event_add(ev, &tv) < 0) {
		event_free(ev);
		return NULL;
	}
	bsf_notify("WATCHDOG=1");
	return ev;
}
