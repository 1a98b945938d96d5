/*
 * httpd.c - bsflow-collect's HTTP listener for Prometheus (httpd.h): a
 * thread polling the listening socket, reading one request head per
 * connection (1 s timeouts), answering GET /metrics and closing.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "collector/httpd.h"
#include "collector/prometheus.h"

struct collect_httpd {
	int fd;
	int stop_pipe[2];
	pthread_t thread;
	struct collect_prom *p;
};

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void send_all(int fd, const char *buf, size_t n)
{
	while (n > 0) {
		ssize_t w = send(fd, buf, n, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		buf += w;
		n -= (size_t)w;
	}
}

static void reply(int fd, const char *status, const char *type, const char *body, size_t len)
{
	char head[256];
	int n = snprintf(head, sizeof head,
			 "HTTP/1.1 %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
			 "Connection: close\r\n\r\n",
			 status, type, len);

	send_all(fd, head, (size_t)n);
	send_all(fd, body, len);
}

static void serve(struct collect_httpd *h, int fd)
{
	char req[4096];
	size_t got = 0;
	char *body = NULL;
	size_t len = 0;
	FILE *f;
	int om;

	while (got < sizeof req - 1) {
		ssize_t r = recv(fd, req + got, sizeof req - 1 - got, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return;
		got += (size_t)r;
		req[got] = '\0';
		if (strstr(req, "\r\n\r\n") || strstr(req, "\n\n"))
			break;
	}
	req[got] = '\0';
	if (strncmp(req, "GET ", 4) != 0 && strncmp(req, "HEAD ", 5) != 0) {
		reply(fd, "405 Method Not Allowed", "text/plain", "GET only\n", 9);
		return;
	}
	if (strncmp(strchr(req, ' ') + 1, "/metrics", 8) != 0 ||
	    !strchr(" ?", strchr(req, ' ')[9])) {
		static const char nf[] = "bsflow-collect: the metrics are at /metrics\n";

		reply(fd, "404 Not Found", "text/plain", nf, sizeof nf - 1);
		return;
	}
	om = strcasestr(req, "application/openmetrics-text") != NULL;
	f = open_memstream(&body, &len);
	if (!f)
		return;
	collect_prom_render(h->p, f, om, mono_now());
	if (fclose(f) != 0) {
		free(body);
		return;
	}
	reply(fd, "200 OK",
	      om ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
		 : "text/plain; version=0.0.4; charset=utf-8",
	      body, strncmp(req, "HEAD ", 5) == 0 ? 0 : len);
	free(body);
}

static void *run(void *arg)
{
	struct collect_httpd *h = arg;

	for (;;) {
		struct pollfd pf[2] = {{h->fd, POLLIN, 0}, {h->stop_pipe[0], POLLIN, 0}};
		struct timeval tv = {1, 0};
		int fd;

		if (poll(pf, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pf[1].revents)
			break;
		fd = accept(h->fd, NULL, NULL);
		if (fd < 0)
			continue;
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
		serve(h, fd);
		close(fd);
	}
	return NULL;
}

static int listen_on(const char *addr, char *err, size_t errlen)
{
	char host[256];
	const char *colon = strrchr(addr, ':');
	struct addrinfo hints, *res = NULL;
	int fd, one = 1, rc;
	size_t hl;

	if (!colon || !colon[1]) {
		snprintf(err, errlen, "'%s' is not ADDRESS:PORT (e.g. 127.0.0.1:9465)", addr);
		return -1;
	}
	hl = (size_t)(colon - addr);
	if (hl >= sizeof host) {
		snprintf(err, errlen, "'%s': address too long", addr);
		return -1;
	}
	memcpy(host, addr, hl);
	host[hl] = '\0';
	if (hl >= 2 && host[0] == '[' && host[hl - 1] == ']') {
		memmove(host, host + 1, hl - 2);
		host[hl - 2] = '\0';
	}
	memset(&hints, 0, sizeof hints);
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	rc = getaddrinfo(*host ? host : NULL, colon + 1, &hints, &res);
	if (rc != 0) {
		snprintf(err, errlen, "'%s': %s", addr, gai_strerror(rc));
		return -1;
	}
	fd = socket(res->ai_family, res->ai_socktype | SOCK_CLOEXEC, res->ai_protocol);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
	    bind(fd, res->ai_addr, res->ai_addrlen) < 0 || listen(fd, 16) < 0) {
		snprintf(err, errlen, "'%s': %s", addr, strerror(errno));
		if (fd >= 0)
			close(fd);
		freeaddrinfo(res);
		return -1;
	}
	freeaddrinfo(res);
	return fd;
}

struct collect_httpd *collect_httpd_start(const char *addr, struct collect_prom *p, char *err,
					  size_t errlen)
{
	struct collect_httpd *h = calloc(1, sizeof *h);

	if (!h) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	h->p = p;
	h->fd = listen_on(addr, err, errlen);
	if (h->fd < 0) {
		free(h);
		return NULL;
	}
	if (pipe(h->stop_pipe) < 0 || pthread_create(&h->thread, NULL, run, h) != 0) {
		snprintf(err, errlen, "cannot start the HTTP thread");
		close(h->fd);
		free(h);
		return NULL;
	}
	return h;
}

void collect_httpd_stop(struct collect_httpd *h)
{
	if (!h)
		return;
	if (write(h->stop_pipe[1], "x", 1) == 1)
		pthread_join(h->thread, NULL);
	close(h->stop_pipe[0]);
	close(h->stop_pipe[1]);
	close(h->fd);
	free(h);
}
