/*
 * input_udp.c - receive sFlow datagrams on a UDP socket.
 *
 * Without -b: one AF_INET6 socket with IPV6_V6ONLY off, so IPv4 and IPv6
 * senders both arrive (IPv4 as v4-mapped addresses, printed as IPv4); -4
 * makes it one AF_INET socket, -6 an IPv6-only one.  With -b ADDR the
 * socket is bound to that address (its family decides, -4/-6 must agree).
 * The bound address and port go to stderr ("listening on ..."), so -p 0
 * (any free port) is usable by scripts.  poll() waits, with a deadline for
 * -t; SIGINT/SIGTERM interrupt it.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "collector/collect.h"

static double now_mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int open_socket(const struct collect_opts *o)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	int fd, family, one = 1, zero = 0, rcvbuf = 4 * 1024 * 1024;
	char host[INET6_ADDRSTRLEN], port[8];

	memset(&ss, 0, sizeof(ss));
	if (o->bind_addr) {
		struct addrinfo hints, *ai = NULL;
		int e;
		memset(&hints, 0, sizeof(hints));
		hints.ai_family = o->family == 4 ? AF_INET : o->family == 6 ? AF_INET6 : AF_UNSPEC;
		hints.ai_socktype = SOCK_DGRAM;
		hints.ai_flags = AI_NUMERICHOST | AI_PASSIVE;
		e = getaddrinfo(o->bind_addr, NULL, &hints, &ai);
		if (e != 0 || !ai) {
			fprintf(stderr, "bsflow-collect: -b %s: not a numeric %saddress (%s)\n",
				o->bind_addr,
				o->family == 4	 ? "IPv4 "
				: o->family == 6 ? "IPv6 "
						 : "",
				gai_strerror(e));
			return -1;
		}
		memcpy(&ss, ai->ai_addr, ai->ai_addrlen);
		sl = (socklen_t)ai->ai_addrlen;
		family = ai->ai_family;
		freeaddrinfo(ai);
	} else if (o->family == 4) {
		struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = htonl(INADDR_ANY);
		sl = sizeof(*sin);
		family = AF_INET;
	} else {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;
		sin6->sin6_family = AF_INET6;
		sin6->sin6_addr = in6addr_any;
		sl = sizeof(*sin6);
		family = AF_INET6;
	}
	if (family == AF_INET)
		((struct sockaddr_in *)&ss)->sin_port = htons(o->port);
	else
		((struct sockaddr_in6 *)&ss)->sin6_port = htons(o->port);

	fd = socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 && family == AF_INET6 && errno == EAFNOSUPPORT && !o->bind_addr &&
	    o->family == 0) {
		/* no IPv6 on this host: the dual-stack default falls back to IPv4 */
		struct collect_opts o4 = *o;
		o4.family = 4;
		fprintf(stderr, "bsflow-collect: no IPv6 here, listening on IPv4 only\n");
		return open_socket(&o4);
	}
	if (fd < 0) {
		fprintf(stderr, "bsflow-collect: socket(%s): %s\n",
			family == AF_INET ? "AF_INET" : "AF_INET6", strerror(errno));
		return -1;
	}
	if (family == AF_INET6) {
		int only = o->family == 6;
		if (setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, only ? &one : &zero, sizeof(int)) <
		    0) {
			fprintf(stderr, "bsflow-collect: IPV6_V6ONLY: %s\n", strerror(errno));
			close(fd);
			return -1;
		}
	}
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	if (bind(fd, (struct sockaddr *)&ss, sl) < 0) {
		fprintf(stderr, "bsflow-collect: bind %s port %u: %s\n",
			o->bind_addr	    ? o->bind_addr
			: family == AF_INET ? "0.0.0.0"
					    : "::",
			(unsigned)o->port, strerror(errno));
		close(fd);
		return -1;
	}
	sl = sizeof(ss);
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0 &&
	    getnameinfo((struct sockaddr *)&ss, sl, host, sizeof(host), port, sizeof(port),
			NI_NUMERICHOST | NI_NUMERICSERV) == 0)
		fprintf(stderr, "bsflow-collect: listening on udp %s%s%s port %s\n",
			family == AF_INET6 ? "[" : "", host, family == AF_INET6 ? "]" : "", port);
	return fd;
}

/* The sender's address; v4-mapped IPv6 addresses become IPv4. */
static void fill_src(struct collect_rx *rx, const struct sockaddr_storage *ss)
{
	static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

	memset(&rx->src, 0, sizeof(rx->src));
	if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *sin = (const struct sockaddr_in *)ss;
		rx->src.type = SFLOW_ADDR_IP4;
		memcpy(rx->src.a, &sin->sin_addr, 4);
		rx->src_port = ntohs(sin->sin_port);
	} else if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)ss;
		const uint8_t *a = sin6->sin6_addr.s6_addr;
		if (memcmp(a, mapped, 12) == 0) {
			rx->src.type = SFLOW_ADDR_IP4;
			memcpy(rx->src.a, a + 12, 4);
		} else {
			rx->src.type = SFLOW_ADDR_IP6;
			memcpy(rx->src.a, a, 16);
		}
		rx->src_port = ntohs(sin6->sin6_port);
	}
}

int collect_udp_run(struct collect_ctx *c)
{
	const struct collect_opts *o = c->opts;
	double deadline = o->max_seconds > 0 ? now_mono() + o->max_seconds : 0;
	uint8_t *buf;
	int fd = open_socket(o), rc = 0;

	if (fd < 0)
		return COLLECT_EXIT_ERROR;
	buf = malloc(COLLECT_MAX_DATAGRAM);
	if (!buf) {
		fprintf(stderr, "bsflow-collect: out of memory\n");
		close(fd);
		return COLLECT_EXIT_ERROR;
	}
	while (!*c->stop) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		int timeout = 1000, n;

		if (deadline > 0) {
			double left = deadline - now_mono();
			if (left <= 0)
				break;
			if (left * 1000 < timeout)
				timeout = (int)(left * 1000) + 1;
		}
		n = poll(&pfd, 1, timeout);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "bsflow-collect: poll: %s\n", strerror(errno));
			rc = COLLECT_EXIT_ERROR;
			break;
		}
		if (n == 0)
			continue;
		for (;;) {
			struct sockaddr_storage ss;
			socklen_t sl = sizeof(ss);
			struct collect_rx rx;
			struct timespec now;
			ssize_t got = recvfrom(fd, buf, COLLECT_MAX_DATAGRAM, MSG_DONTWAIT,
					       (struct sockaddr *)&ss, &sl);
			if (got < 0) {
				if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
					break;
				fprintf(stderr, "bsflow-collect: recvfrom: %s\n", strerror(errno));
				break;
			}
			memset(&rx, 0, sizeof(rx));
			fill_src(&rx, &ss);
			clock_gettime(CLOCK_REALTIME, &now);
			rx.unix_sec = now.tv_sec;
			rx.unix_usec = (uint32_t)(now.tv_nsec / 1000);
			rx.size = (size_t)got;
			if (collect_process(c, buf, (size_t)got, &rx)) {
				*c->stop = 1;
				break;
			}
			if (*c->stop)
				break;
		}
	}
	free(buf);
	close(fd);
	return rc;
}
