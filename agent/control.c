/*
 * control.c - the control socket (status on request, text or JSON), its
 * client for `bsflowd --status`, and the periodic STATUS= line for the
 * service manager.  The status itself is bsf_daemon_log_status() run with
 * a log sink (log.h) that collects its lines: one piece of code for the
 * SIGUSR1 dump and for this socket.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <errno.h>
#include <event2/buffer.h>
#include <event2/event.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "agent/addr.h"
#include "agent/control.h"
#include "agent/daemon.h"
#include "agent/export.h"
#include "agent/log.h"
#include "agent/notify.h"

#define CONTROL_STATUS_PERIOD 10 /* seconds between STATUS= updates */
#define CONTROL_IO_TIMEOUT    1	 /* seconds a client may take to ask or read */

struct bsf_control {
	struct bsf_daemon *d;
	int fd;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	struct event *ev_accept;
	struct event *ev_status;
};

/* ---- the status, collected from the log lines */

static void sink_lines(void *arg, int priority, const char *line)
{
	struct evbuffer *out = arg;

	(void)priority;
	if (strncmp(line, "status: ", 8) == 0)
		line += 8;
	evbuffer_add_printf(out, "%s\n", line);
}

void bsf_control_status_text(const struct bsf_daemon *d, struct evbuffer *out)
{
	bsf_log_set_sink(sink_lines, out);
	bsf_daemon_log_status(d);
	bsf_log_set_sink(NULL, NULL);
}

static void json_str(struct evbuffer *out, const char *s)
{
	evbuffer_add(out, "\"", 1);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			evbuffer_add_printf(out, "\\%c", ch);
		else if (ch < 0x20)
			evbuffer_add_printf(out, "\\u%04x", ch);
		else
			evbuffer_add(out, s, 1);
	}
	evbuffer_add(out, "\"", 1);
}

void bsf_control_status_json(const struct bsf_daemon *d, struct evbuffer *out)
{
	struct evbuffer *text = evbuffer_new();
	size_t n = d->x ? export_n_collectors(d->x) : 0;
	char *line;

	evbuffer_add_printf(out, "{\"program\":\"bsflowd\",\"version\":");
	json_str(out, PACKAGE_VERSION);
	evbuffer_add_printf(out, ",\"pid\":%ld,\"configuration\":", (long)getpid());
	json_str(out, d->conf ? d->conf->file : "");
	evbuffer_add_printf(out, ",\"backend\":");
	json_str(out, d->conf ? conf_backend_name(d->conf) : "");
	evbuffer_add_printf(out, ",\"reloads\":%llu,\"reloads_refused\":%llu",
			    (unsigned long long)d->reloads, (unsigned long long)d->reload_failures);
	if (d->x)
		evbuffer_add_printf(out, ",\"next_sequence\":%u,\"uptime_ms\":%u",
				    export_sequence(d->x), export_uptime_ms(d->x));
	evbuffer_add_printf(out, ",\"collectors\":[");
	for (size_t i = 0; i < n; i++) {
		struct export_collector_stats st;

		export_collector_stats(d->x, i, &st);
		evbuffer_add_printf(out, "%s{\"name\":", i ? "," : "");
		json_str(out, st.name ? st.name : "");
		evbuffer_add_printf(out, ",\"destination\":");
		json_str(out, st.dest);
		evbuffer_add_printf(out, ",\"datagrams\":%llu,\"bytes\":%llu,\"errors\":%llu}",
				    (unsigned long long)st.datagrams, (unsigned long long)st.bytes,
				    (unsigned long long)st.errors);
	}
	evbuffer_add_printf(out, "],\"status\":[");
	if (text) {
		int first = 1;

		bsf_control_status_text(d, text);
		while ((line = evbuffer_readln(text, NULL, EVBUFFER_EOL_LF)) != NULL) {
			if (!first)
				evbuffer_add(out, ",", 1);
			json_str(out, line);
			free(line);
			first = 0;
		}
		evbuffer_free(text);
	}
	evbuffer_add_printf(out, "]}\n");
}

void bsf_control_summary(const struct bsf_daemon *d, char *buf, size_t len)
{
	size_t n = d->x ? export_n_collectors(d->x) : 0;
	unsigned long long dg = 0, errs = 0;

	for (size_t i = 0; i < n; i++) {
		struct export_collector_stats st;

		export_collector_stats(d->x, i, &st);
		dg += st.datagrams;
		errs += st.errors;
	}
	snprintf(buf, len,
		 "running, backend %s, %zu collectors, %llu datagrams sent, %llu send errors, "
		 "%llu reloads (%llu refused)",
		 d->conf ? conf_backend_name(d->conf) : "none", n, dg, errs,
		 (unsigned long long)d->reloads, (unsigned long long)d->reload_failures);
}

/* ---- the server */

static void status_cb(evutil_socket_t fd, short what, void *arg)
{
	struct bsf_control *c = arg;
	char msg[512];

	(void)fd;
	(void)what;
	memcpy(msg, "STATUS=", 7);
	bsf_control_summary(c->d, msg + 7, sizeof msg - 7);
	bsf_notify(msg);
}

static void write_all(int fd, struct evbuffer *b)
{
	while (evbuffer_get_length(b) > 0) {
		size_t n = evbuffer_get_length(b);
		unsigned char *p = evbuffer_pullup(b, (ssize_t)(n > 65536 ? 65536 : n));
		ssize_t w = send(fd, p, n > 65536 ? 65536 : n, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		evbuffer_drain(b, (size_t)w);
	}
}

static void accept_cb(evutil_socket_t lfd, short what, void *arg)
{
	struct bsf_control *c = arg;
	struct timeval tv = {CONTROL_IO_TIMEOUT, 0};
	struct evbuffer *out;
	char req[64];
	size_t got = 0;
	int fd;

	(void)what;
	fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0)
		return;
	/* the listening socket is non-blocking; the accepted one is not, with
	 * timeouts so that a silent client cannot hold the loop for long */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
	while (got < sizeof req - 1) {
		ssize_t r = recv(fd, req + got, sizeof req - 1 - got, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
		if (memchr(req, '\n', got))
			break;
	}
	req[got] = '\0';
	req[strcspn(req, "\r\n")] = '\0';
	out = evbuffer_new();
	if (out) {
		if (strcmp(req, "status") == 0)
			bsf_control_status_text(c->d, out);
		else if (strcmp(req, "status json") == 0)
			bsf_control_status_json(c->d, out);
		else
			evbuffer_add_printf(out, "error: unknown request\n");
		write_all(fd, out);
		evbuffer_free(out);
	}
	close(fd);
}

/* A socket file left by a daemon that is gone is removed; one that answers
 * belongs to a running daemon. */
static int stale_socket(const char *path, const struct sockaddr_un *sun)
{
	struct stat st;
	int fd, r;

	if (lstat(path, &st) < 0 || !S_ISSOCK(st.st_mode))
		return 0;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	r = connect(fd, (const struct sockaddr *)sun, sizeof *sun);
	close(fd);
	if (r < 0 && errno == ECONNREFUSED) {
		unlink(path);
		return 0;
	}
	return r == 0 ? -1 : 0;
}

static int control_listen(struct bsf_control *c, const char *path, char *err, size_t errlen)
{
	struct sockaddr_un sun;
	mode_t old;
	int r;

	if (strlen(path) >= sizeof sun.sun_path) {
		snprintf(err, errlen, "control socket %s: path too long", path);
		return -1;
	}
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, path, strlen(path));
	if (stale_socket(path, &sun) < 0) {
		snprintf(err, errlen, "control socket %s: another bsflowd answers there", path);
		return -1;
	}
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (c->fd < 0) {
		snprintf(err, errlen, "control socket %s: %s", path, strerror(errno));
		return -1;
	}
	/* created with mode 0660 from the start: no window where others could
	 * connect */
	old = umask(0117);
	r = bind(c->fd, (struct sockaddr *)&sun, sizeof sun);
	umask(old);
	if (r < 0 || chmod(path, 0660) < 0 || listen(c->fd, 8) < 0) {
		snprintf(err, errlen, "control socket %s: %s", path, strerror(errno));
		close(c->fd);
		c->fd = -1;
		return -1;
	}
	snprintf(c->path, sizeof c->path, "%s", path);
	return 0;
}

struct bsf_control *bsf_control_new(struct bsf_daemon *d, const char *path, int explicit, char *err,
				    size_t errlen)
{
	struct bsf_control *c = calloc(1, sizeof *c);
	struct timeval tv = {CONTROL_STATUS_PERIOD, 0};

	if (!c) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	c->d = d;
	c->fd = -1;
	/* the default socket's directory: made by systemd (RuntimeDirectory=)
	 * for the unit, by us when run by hand (root and its group only) */
	if (strcmp(path, BSF_CONTROL_DEFAULT) == 0)
		(void)mkdir(BSF_CONTROL_DIR, 0750);
	if (strcmp(path, "none") != 0 && control_listen(c, path, err, errlen) < 0) {
		if (explicit) {
			free(c);
			return NULL;
		}
		log_info("%s; bsflowd --status will not reach this daemon", err);
	}
	if (c->fd >= 0) {
		c->ev_accept = event_new(d->base, c->fd, EV_READ | EV_PERSIST, accept_cb, c);
		if (!c->ev_accept || event_add(c->ev_accept, NULL) < 0) {
			snprintf(err, errlen, "control socket %s: cannot watch it", path);
			bsf_control_free(c);
			return NULL;
		}
		log_info("control socket %s", c->path);
	}
	if (getenv("NOTIFY_SOCKET")) {
		c->ev_status = event_new(d->base, -1, EV_PERSIST, status_cb, c);
		if (c->ev_status)
			event_add(c->ev_status, &tv);
	}
	return c;
}

void bsf_control_free(struct bsf_control *c)
{
	if (!c)
		return;
	if (c->ev_accept)
		event_free(c->ev_accept);
	if (c->ev_status)
		event_free(c->ev_status);
	if (c->fd >= 0) {
		close(c->fd);
		unlink(c->path);
	}
	free(c);
}

/* ---- the client */

int bsf_control_client(const char *path, int json)
{
	struct sockaddr_un sun;
	const char *req = json ? "status json\n" : "status\n";
	char buf[4096];
	ssize_t r;
	int fd;

	if (strlen(path) >= sizeof sun.sun_path) {
		fprintf(stderr, "bsflowd: control socket %s: path too long\n", path);
		return 3;
	}
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, path, strlen(path));
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sun, sizeof sun) < 0) {
		fprintf(stderr,
			"bsflowd: cannot reach the daemon at %s: %s (is bsflowd running, and with "
			"this --control path?)\n",
			path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return 3;
	}
	if (send(fd, req, strlen(req), MSG_NOSIGNAL) < 0) {
		fprintf(stderr, "bsflowd: control socket %s: %s\n", path, strerror(errno));
		close(fd);
		return 3;
	}
	while ((r = recv(fd, buf, sizeof buf, 0)) > 0 || (r < 0 && errno == EINTR))
		if (r > 0)
			fwrite(buf, 1, (size_t)r, stdout);
	close(fd);
	if (fflush(stdout) != 0)
		return 3;
	return 0;
}
