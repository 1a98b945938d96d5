/*
 * export.c - the exporter (see export.h): shared datagram builder, flush
 * timer, per-collector non-blocking UDP sockets, sequence numbers.
 *
 * Finished datagrams are queued, numbered, and sent together at the end of
 * the event loop's turn (or when EXPORT_BATCH are queued, or on
 * export_flush): one sendmmsg per collector for all of them, so a poll
 * that fills many datagrams costs one system call per collector.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "agent/addr.h"
#include "agent/export.h"
#include "agent/log.h"
#include "agent/resolve.h"
#include "agent/seqspace.h"
#include "proto/sflow_encode.h"

#define EXPORT_LOG_INTERVAL_NS (60ull * 1000000000ull)
#define EXPORT_RETRY_NS	       (60ull * 1000000000ull)
#define EXPORT_MAX_STREAMS     8
#define EXPORT_BATCH	       64 /* datagrams queued at most, one sendmmsg */

struct export_coll {
	struct export *x;
	struct conf_collector conf;
	int fd;			 /* -1 while not open */
	struct resolve_req *req; /* its name being looked up */
	uint64_t next_try_ns;	 /* when to retry opening */
	char dest[CONF_HOST_MAX + 64];
	uint64_t datagrams, bytes, errors;
	struct bsf_ratelimit rl;
	int open_warned;
};

/* A datagram stream, its sequence number and its samples' (seqspace.h). */
struct export_stream {
	struct sflow_addr agent;
	uint32_t sub_agent_id;
	uint32_t next_seq;
	struct seqspace *samples; /* NULL: out of memory, samples keep theirs */
};

struct export
{
	struct event_base *base;
	struct event *flush_ev;
	int flush_armed;
	uint64_t start_ns;
	struct sflow_dgram_builder b;
	int configured;
	struct export_stream streams[EXPORT_MAX_STREAMS];
	size_t nstreams, cur;
	struct resolver *dns; /* collector names, looked up without blocking */
	struct export_coll **colls;
	size_t ncolls;
	uint64_t flush_due_ns; /* while flush_armed */
	void (*tap)(void *arg, const uint8_t *d, size_t len);
	void *tap_arg;
	/* finished datagrams waiting for the end of the loop's turn */
	struct event *send_ev;
	int send_armed;
	size_t nq;
	size_t qlen[EXPORT_BATCH];
	uint8_t queue[EXPORT_BATCH][SFLOW_DGRAM_MAX];
	uint8_t scratch[SFLOW_DGRAM_MAX]; /* a sample being renumbered */
};

static void send_queued(struct export *x);

static void flush_cb(evutil_socket_t fd, short what, void *arg)
{
	struct export *x = arg;

	x->flush_armed = 0;
	export_flush(x);
}

static void send_cb(evutil_socket_t fd, short what, void *arg)
{
	struct export *x = arg;

	x->send_armed = 0;
	send_queued(x);
}

struct export *export_new(struct event_base *base)
{
	struct export *x = calloc(1, sizeof *x);

	if (!x)
		return NULL;
	x->base = base;
	x->flush_ev = evtimer_new(base, flush_cb, x);
	x->send_ev = event_new(base, -1, 0, send_cb, x);
	x->dns = resolver_new(base);
	if (!x->flush_ev || !x->send_ev || !x->dns) {
		if (x->flush_ev)
			event_free(x->flush_ev);
		if (x->send_ev)
			event_free(x->send_ev);
		resolver_free(x->dns);
		free(x);
		return NULL;
	}
	x->start_ns = bsf_now_ns();
	return x;
}

static void coll_close(struct export_coll *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

/* Close and free a collector, forgetting its pending lookup. */
static void coll_free(struct export_coll *c)
{
	resolve_cancel(c->req);
	coll_close(c);
	free(c);
}

void export_free(struct export *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->ncolls; i++)
		coll_free(x->colls[i]);
	free(x->colls);
	resolver_free(x->dns);
	event_free(x->flush_ev);
	event_free(x->send_ev);
	for (size_t i = 0; i < x->nstreams; i++)
		seqspace_free(x->streams[i].samples);
	free(x);
}

uint32_t export_uptime_ms(const struct export *x)
{
	return (uint32_t)((bsf_now_ns() - x->start_ns) / 1000000u);
}

uint32_t export_sequence(const struct export *x)
{
	return x->configured ? x->streams[x->cur].next_seq : 0;
}

static int same_agent(const struct sflow_addr *a, const struct sflow_addr *b)
{
	return a->type == b->type && memcmp(a->a, b->a, 16) == 0;
}

int export_set_agent(struct export *x, const struct sflow_addr *agent, uint32_t sub_agent_id,
		     size_t max_bytes, char *err, size_t errlen)
{
	struct sflow_addr a = *agent;
	size_t i;
	int r;

	if (a.type == SFLOW_ADDR_IP4)
		memset(a.a + 4, 0, 12);
	if (x->configured && same_agent(&x->b.agent, &a) && x->b.sub_agent_id == sub_agent_id &&
	    x->b.max_bytes == max_bytes)
		return 0;
	if (x->configured)
		export_flush(x);
	r = sflow_builder_init(&x->b, &a, sub_agent_id, max_bytes, 0);
	if (r != SFLOW_OK) {
		snprintf(err, errlen, "datagram builder: %s", sflow_strerror(r));
		x->configured = 0;
		return -1;
	}
	for (i = 0; i < x->nstreams; i++)
		if (same_agent(&x->streams[i].agent, &a) &&
		    x->streams[i].sub_agent_id == sub_agent_id)
			break;
	if (i == x->nstreams) {
		if (x->nstreams == EXPORT_MAX_STREAMS) {
			/* forget the oldest remembered stream */
			seqspace_free(x->streams[0].samples);
			memmove(&x->streams[0], &x->streams[1],
				(EXPORT_MAX_STREAMS - 1) * sizeof x->streams[0]);
			x->nstreams--;
			i = x->nstreams;
		}
		x->streams[i].agent = a;
		x->streams[i].sub_agent_id = sub_agent_id;
		x->streams[i].next_seq = 1;
		x->streams[i].samples = seqspace_new(); /* NULL: not renumbered */
		x->nstreams++;
	}
	x->cur = i;
	x->configured = 1;
	return 0;
}

size_t export_sample_room(const struct export *x)
{
	return x->configured ? x->b.max_bytes - x->b.hdr_len : 0;
}

/* A socket to one resolved address of collector c: -1 with why[] set. */
static int open_one(const struct export_coll *c, const struct addrinfo *ai, char *why,
		    size_t whylen)
{
	int fd = socket(ai->ai_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	const char *step = NULL;
	int e = 0;

	if (fd < 0) {
		snprintf(why, whylen, "socket: %s", strerror(errno));
		return -1;
	}
	if (c->conf.device[0] && setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, c->conf.device,
					    (socklen_t)strlen(c->conf.device)) < 0) {
		step = "device (SO_BINDTODEVICE)";
		e = errno;
	}
	if (!step && c->conf.source[0]) {
		struct addrinfo sh, *sres = NULL;

		memset(&sh, 0, sizeof sh);
		sh.ai_family = ai->ai_family;
		sh.ai_socktype = SOCK_DGRAM;
		sh.ai_flags = AI_NUMERICHOST | AI_PASSIVE;
		if (getaddrinfo(c->conf.source, NULL, &sh, &sres) != 0) {
			snprintf(why, whylen,
				 "source %.64s is not of the collector's address family",
				 c->conf.source);
			close(fd);
			return -1;
		}
		if (bind(fd, sres->ai_addr, sres->ai_addrlen) < 0) {
			step = "bind to the source address";
			e = errno;
		}
		freeaddrinfo(sres);
	}
	if (!step && connect(fd, ai->ai_addr, ai->ai_addrlen) < 0) {
		step = "connect";
		e = errno;
	}
	if (step) {
		snprintf(why, whylen, "%s: %s", step, strerror(e));
		close(fd);
		return -1;
	}
	return fd;
}

/* The addresses of collector c are known: a socket to the first that
 * works replaces the one it had (if any); if none works, the old one is
 * kept.  Logs its own failures. */
static void coll_connect(struct export_coll *c, const struct addrinfo *res)
{
	const struct addrinfo *ai;
	char why[320] = "no address", dest[sizeof c->dest] = "";
	int fd = -1;

	for (ai = res; ai && fd < 0; ai = ai->ai_next) {
		char host[NI_MAXHOST], serv[NI_MAXSERV];

		fd = open_one(c, ai, why, sizeof why);
		if (fd >= 0 && getnameinfo(ai->ai_addr, ai->ai_addrlen, host, sizeof host, serv,
					   sizeof serv, NI_NUMERICHOST | NI_NUMERICSERV) == 0)
			snprintf(dest, sizeof dest, ai->ai_family == AF_INET6 ? "[%s]:%s" : "%s:%s",
				 host, serv);
	}
	if (fd < 0) {
		log_warnx("collector %s: cannot open a socket to %s port %u: %s (retrying every "
			  "minute%s)",
			  c->conf.name, c->conf.address, c->conf.port, why,
			  c->fd >= 0 ? "; still sending to the last address" : "");
		if (c->fd < 0)
			snprintf(c->dest, sizeof c->dest, "%s: %s", c->conf.address, why);
		return;
	}
	if (c->fd >= 0 && strcmp(dest, c->dest) == 0) {
		close(fd); /* the same address again */
		return;
	}
	coll_close(c);
	c->fd = fd;
	snprintf(c->dest, sizeof c->dest, "%s", dest);
	log_info("collector %s: sending to %s", c->conf.name, c->dest);
}

static void coll_resolved(void *arg, const struct addrinfo *res, const char *err)
{
	struct export_coll *c = arg;

	c->req = NULL;
	if (!res) {
		log_warnx("collector %s: cannot resolve %s: %s (retrying every minute%s)",
			  c->conf.name, c->conf.address, err,
			  c->fd >= 0 ? "; still sending to the last address" : "");
		if (c->fd < 0)
			snprintf(c->dest, sizeof c->dest, "%s: %s", c->conf.address, err);
		return;
	}
	coll_connect(c, res);
}

/* Look collector c's address up and open its socket when the answer
 * comes (at once for a literal address): never blocks.  Until then it
 * keeps the socket it has, if any. */
static void coll_open(struct export_coll *c)
{
	if (c->req)
		return; /* a lookup is under way */
	c->next_try_ns = bsf_now_ns() + EXPORT_RETRY_NS;
	c->req = resolve_start(c->x->dns, c->conf.address, c->conf.port, coll_resolved, c);
}

static int coll_conf_same(const struct conf_collector *a, const struct conf_collector *b)
{
	return strcmp(a->address, b->address) == 0 && a->port == b->port &&
	       strcmp(a->source, b->source) == 0 && strcmp(a->device, b->device) == 0;
}

void export_set_collectors(struct export *x, const struct conf_collector *cs, size_t n)
{
	struct export_coll **nc = calloc(n + 1, sizeof *nc);

	if (!nc) {
		log_errx("collectors: out of memory; keeping the old set");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		nc[i] = calloc(1, sizeof *nc[i]);
		if (!nc[i]) {
			while (i > 0)
				free(nc[--i]);
			free(nc);
			log_errx("collectors: out of memory; keeping the old set");
			return;
		}
	}
	/* send what is pending to the collectors it was made for */
	export_flush(x);
	for (size_t i = 0; i < n; i++) {
		struct export_coll *old = NULL;

		for (size_t j = 0; j < x->ncolls && !old; j++)
			if (x->colls[j] && strcmp(x->colls[j]->conf.name, cs[i].name) == 0) {
				old = x->colls[j];
				x->colls[j] = NULL; /* kept */
			}
		if (old) {
			free(nc[i]);
			nc[i] = old;
			if (!coll_conf_same(&old->conf, &cs[i])) {
				/* another destination: nothing of the old one is kept */
				resolve_cancel(old->req);
				old->req = NULL;
				coll_close(old);
				old->conf = cs[i];
				coll_open(old);
			} else {
				old->conf = cs[i];
				/* a host name is looked up again at each reload (the
				 * socket to its last address is kept meanwhile) */
				struct sflow_addr tmp;

				if (old->fd < 0 || bsf_addr_parse(old->conf.address, &tmp) < 0)
					coll_open(old);
			}
		} else {
			struct export_coll *c = nc[i];

			c->x = x;
			c->conf = cs[i];
			c->fd = -1;
			bsf_ratelimit_init(&c->rl, EXPORT_LOG_INTERVAL_NS);
			coll_open(c);
		}
	}
	for (size_t j = 0; j < x->ncolls; j++) {
		if (!x->colls[j])
			continue;
		if (x->colls[j]->fd >= 0)
			log_info("collector %s: removed", x->colls[j]->conf.name);
		coll_free(x->colls[j]);
	}
	free(x->colls);
	x->colls = nc;
	x->ncolls = n;
}

/* Send the queued datagrams to collector c: one sendmmsg for all of them
 * (more only after a failure, which counts against that datagram alone). */
static void coll_send(struct export_coll *c, struct export *x)
{
	struct mmsghdr mm[EXPORT_BATCH];
	struct iovec iov[EXPORT_BATCH];
	uint64_t count;
	size_t i = 0;

	if (c->fd < 0) {
		if (bsf_now_ns() >= c->next_try_ns)
			coll_open(c);
		if (c->fd < 0) {
			c->errors += x->nq;
			return;
		}
	}
	memset(mm, 0, x->nq * sizeof mm[0]);
	for (size_t k = 0; k < x->nq; k++) {
		iov[k].iov_base = x->queue[k];
		iov[k].iov_len = x->qlen[k];
		mm[k].msg_hdr.msg_iov = &iov[k];
		mm[k].msg_hdr.msg_iovlen = 1;
	}
	while (i < x->nq) {
		int r = sendmmsg(c->fd, mm + i, (unsigned)(x->nq - i), MSG_DONTWAIT | MSG_NOSIGNAL);
		int e = errno;

		if (r > 0) {
			for (size_t k = i; k < i + (size_t)r; k++) {
				if (mm[k].msg_len == x->qlen[k]) {
					c->datagrams++;
					c->bytes += x->qlen[k];
					continue;
				}
				c->errors++;
				if (bsf_ratelimit_hit(&c->rl, bsf_now_ns(), &count))
					log_warnx("collector %s (%s): short send (%u of %zu bytes)",
						  c->conf.name, c->dest, mm[k].msg_len, x->qlen[k]);
			}
			i += (size_t)r;
			continue;
		}
		/* the datagram at i failed: counted, the rest tried */
		c->errors++;
		i++;
		if (bsf_ratelimit_hit(&c->rl, bsf_now_ns(), &count))
			log_warnx(
			    "collector %s (%s): send: %s (%llu errors since the last message; "
			    "%llu in all)",
			    c->conf.name, c->dest, r < 0 ? strerror(e) : "nothing sent",
			    (unsigned long long)count, (unsigned long long)c->errors);
	}
}

/* Send every queued datagram to every collector, in order. */
static void send_queued(struct export *x)
{
	if (!x->nq)
		return;
	for (size_t i = 0; i < x->ncolls; i++)
		coll_send(x->colls[i], x);
	x->nq = 0;
}

/* Finish the pending datagram (its sequence number and uptime now) into
 * the queue, which is sent at the end of the loop's turn, or now if full. */
static void queue_pending(struct export *x)
{
	const uint8_t *d;
	size_t len = 0;

	if (!x->configured || !sflow_builder_pending(&x->b))
		return;
	if (x->nq == EXPORT_BATCH)
		send_queued(x);
	d = sflow_builder_finish(&x->b, x->streams[x->cur].next_seq, export_uptime_ms(x), &len);
	if (!d || !len || len > sizeof x->queue[0])
		return;
	x->streams[x->cur].next_seq++;
	if (x->tap)
		x->tap(x->tap_arg, d, len);
	memcpy(x->queue[x->nq], d, len);
	x->qlen[x->nq++] = len;
	if (!x->send_armed) {
		event_active(x->send_ev, EV_TIMEOUT, 1);
		x->send_armed = 1;
	}
}

void export_flush(struct export *x)
{
	if (x->flush_armed) {
		evtimer_del(x->flush_ev);
		x->flush_armed = 0;
	}
	queue_pending(x);
	send_queued(x);
}

uint64_t export_flush_due(const struct export *x)
{
	return x->flush_armed ? x->flush_due_ns : UINT64_MAX;
}

void export_set_tap(struct export *x, void (*fn)(void *arg, const uint8_t *d, size_t len),
		    void *arg)
{
	x->tap = fn;
	x->tap_arg = arg;
}

int export_add(struct export *x, const uint8_t *sample, size_t len)
{
	struct seqspace *sp;
	uint32_t *slot = NULL;
	int r;

	if (!x->configured)
		return -1;
	/* the stream's number for the sample's data source */
	sp = x->streams[x->cur].samples;
	if (sp && len <= sizeof x->scratch && (slot = seqspace_slot(sp, sample, len)) != NULL) {
		memcpy(x->scratch, sample, len);
		seqspace_write(x->scratch, slot);
		sample = x->scratch;
	}
	r = sflow_builder_add(&x->b, sample, len);
	if (r == SFLOW_ERR_FULL) {
		queue_pending(x);
		r = sflow_builder_add(&x->b, sample, len);
	}
	if (r != SFLOW_OK)
		return -1;
	if (slot)
		++*slot; /* used only by a sample accepted */
	if (!x->flush_armed) {
		struct timeval one = {1, 0};

		evtimer_add(x->flush_ev, &one);
		x->flush_armed = 1;
		x->flush_due_ns = bsf_now_ns() + 1000000000ull;
	}
	return 0;
}

size_t export_n_collectors(const struct export *x)
{
	return x->ncolls;
}

void export_collector_stats(const struct export *x, size_t i, struct export_collector_stats *out)
{
	const struct export_coll *c = x->colls[i];

	out->name = c->conf.name;
	snprintf(out->dest, sizeof out->dest, "%s", c->fd >= 0 ? c->dest : "(not open)");
	out->datagrams = c->datagrams;
	out->bytes = c->bytes;
	out->errors = c->errors;
}

void export_log_status(const struct export *x)
{
	char ab[64];

	if (x->configured)
		log_notice("status: agent %s sub-agent %u, next datagram sequence %u, uptime %u ms",
			   sflow_addr_str(&x->b.agent, ab, sizeof ab), x->b.sub_agent_id,
			   export_sequence(x), export_uptime_ms(x));
	for (size_t i = 0; i < x->ncolls; i++) {
		const struct export_coll *c = x->colls[i];

		log_notice("status: collector %s (%s): %llu datagrams, %llu bytes, %llu errors",
			   c->conf.name, c->fd >= 0 ? c->dest : "not open",
			   (unsigned long long)c->datagrams, (unsigned long long)c->bytes,
			   (unsigned long long)c->errors);
	}
}
