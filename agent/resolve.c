/*
 * resolve.c - asynchronous collector name lookups over libevent's evdns
 * (see resolve.h).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <event2/dns.h>
#include <event2/event.h>
#include <event2/util.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "agent/resolve.h"

struct resolver {
	struct event_base *base;
	struct evdns_base *dns;	     /* made at the first host name */
	struct resolve_req *pending; /* a list, to cancel them all at the end */
};

struct resolve_req {
	struct resolver *r;
	struct evdns_getaddrinfo_request *er; /* NULL until evdns returned it */
	resolve_cb cb;			      /* NULL: cancelled */
	void *arg;
	int done; /* the callback has run (possibly inside resolve_start) */
	struct resolve_req *next, **prevp;
};

struct resolver *resolver_new(struct event_base *base)
{
	struct resolver *r = calloc(1, sizeof *r);

	if (!r)
		return NULL;
	r->base = base;
	return r;
}

/* The evdns base, made when first needed: a configuration of literal
 * addresses never reads resolv.conf nor keeps a name server socket.  Name
 * servers come from /etc/resolv.conf (and names from /etc/hosts); a
 * missing or empty file leaves evdns on its default (localhost). */
static struct evdns_base *dns_base(struct resolver *r)
{
	if (!r->dns)
		r->dns = evdns_base_new(r->base, EVDNS_BASE_INITIALIZE_NAMESERVERS |
						     EVDNS_BASE_DISABLE_WHEN_INACTIVE);
	if (!r->dns)
		r->dns = evdns_base_new(r->base, 0);
	return r->dns;
}

/* A literal address: answered at once, without the resolver.  0, or -1
 * (not a literal). */
static int literal(const char *host, const char *port, resolve_cb cb, void *arg)
{
	struct addrinfo hints, *res = NULL;

	memset(&hints, 0, sizeof hints);
	hints.ai_socktype = SOCK_DGRAM;
	hints.ai_protocol = IPPROTO_UDP;
	hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
	if (getaddrinfo(host, port, &hints, &res) != 0)
		return -1;
	cb(arg, res, NULL);
	freeaddrinfo(res);
	return 0;
}

static void unlink_req(struct resolve_req *q)
{
	if (q->prevp) {
		*q->prevp = q->next;
		if (q->next)
			q->next->prevp = q->prevp;
		q->prevp = NULL;
	}
}

static void done_cb(int result, struct evutil_addrinfo *res, void *arg)
{
	struct resolve_req *q = arg;
	char msg[160];

	q->done = 1;
	unlink_req(q);
	if (q->cb) {
		if (result == 0) {
			q->cb(q->arg, (const struct addrinfo *)res, NULL);
		} else {
			snprintf(msg, sizeof msg, "%s", evutil_gai_strerror(result));
			q->cb(q->arg, NULL, msg);
		}
	}
	if (res)
		evutil_freeaddrinfo(res);
	/* inside resolve_start the request is freed there, after it returns */
	if (q->er || !q->r)
		free(q);
}

struct resolve_req *resolve_start(struct resolver *r, const char *host, uint16_t port,
				  resolve_cb cb, void *arg)
{
	struct evutil_addrinfo hints;
	struct resolve_req *q;
	struct evdns_getaddrinfo_request *er;
	struct evdns_base *dns;
	char portstr[8];

	snprintf(portstr, sizeof portstr, "%u", port);
	if (literal(host, portstr, cb, arg) == 0)
		return NULL;
	dns = dns_base(r);
	q = dns ? calloc(1, sizeof *q) : NULL;
	if (!q) {
		cb(arg, NULL, "out of memory");
		return NULL;
	}
	q->r = r;
	q->cb = cb;
	q->arg = arg;
	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_DGRAM;
	hints.ai_protocol = IPPROTO_UDP;
	er = evdns_getaddrinfo(dns, host, portstr, &hints, done_cb, q);
	if (q->done || !er) {
		/* answered (or failed) at once: the callback has run */
		if (!q->done)
			cb(arg, NULL, "cannot start the lookup");
		free(q);
		return NULL;
	}
	q->er = er;
	q->next = r->pending;
	if (q->next)
		q->next->prevp = &q->next;
	q->prevp = &r->pending;
	r->pending = q;
	return q;
}

void resolve_cancel(struct resolve_req *q)
{
	if (!q)
		return;
	unlink_req(q);
	q->cb = NULL;
	/* evdns calls done_cb (with EVUTIL_EAI_CANCEL) from the loop, which
	 * frees q */
	evdns_getaddrinfo_cancel(q->er);
}

void resolver_free(struct resolver *r)
{
	if (!r)
		return;
	while (r->pending)
		resolve_cancel(r->pending);
	if (r->dns) {
		/* evdns defers a cancelled lookup's callback to the loop, and
		 * only that callback frees the lookup (and our request): let
		 * them run once before the base goes */
		event_base_loop(r->base, EVLOOP_NONBLOCK);
		evdns_base_free(r->dns, 0);
	}
	free(r);
}
