/*
 * resolve.h - collector host names resolved without blocking the loop.
 *
 * A thin layer over libevent's asynchronous resolver (evdns): it reads
 * /etc/resolv.conf and /etc/hosts once, when created, and answers each
 * lookup through a callback from the event loop, so a name server that
 * is slow or never answers delays only the collector that needs it:
 * samples keep going to every other collector, startup, reloads and
 * SIGTERM do not wait.  A literal address is answered at once, without
 * the resolver.
 *
 * A lookup can be cancelled (its collector removed, the daemon exiting):
 * its callback is then never called.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_RESOLVE_H
#define BSFLOWD_AGENT_RESOLVE_H

#include <stdint.h>

struct addrinfo;
struct event_base;
struct resolver;
struct resolve_req;

/* res: the addresses (UDP), freed by the resolver after the callback
 * returns; NULL on failure, with a message in err. */
typedef void (*resolve_cb)(void *arg, const struct addrinfo *res, const char *err);

/* NULL when out of memory. */
struct resolver *resolver_new(struct event_base *base);
/* Cancels every lookup still pending (no callbacks); runs the event loop
 * once without blocking, for evdns to release the cancelled lookups. */
void resolver_free(struct resolver *r);
/* Look host up for UDP port port.  The callback may run before this
 * returns (a literal, /etc/hosts); then, or on a failure to start, the
 * result is NULL.  Otherwise the pending lookup, for resolve_cancel. */
struct resolve_req *resolve_start(struct resolver *r, const char *host, uint16_t port,
				  resolve_cb cb, void *arg);
/* Forget a pending lookup: its callback is never called. */
void resolve_cancel(struct resolve_req *q);

#endif
