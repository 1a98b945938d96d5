/*
 * forward.c - -f HOST/PORT forwarding of raw datagrams (forward.h): one
 * connected UDP socket per destination.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "collector/forward.h"

#define FORWARD_MAX 32

struct collect_forward {
	int fd[FORWARD_MAX];
	size_t n;
	uint64_t errors;
};

int collect_forward_add(struct collect_forward **fp, const char *spec, char *err, size_t errlen)
{
	struct collect_forward *f = *fp;
	const char *slash = strrchr(spec, '/');
	struct addrinfo hints, *res = NULL;
	char host[256];
	int fd, rc;

	if (!slash || slash == spec || !slash[1] || (size_t)(slash - spec) >= sizeof host) {
		snprintf(err, errlen, "'%s' is not HOST/PORT (e.g. 127.0.0.1/6343)", spec);
		return -1;
	}
	if (!f) {
		f = calloc(1, sizeof *f);
		if (!f) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		*fp = f;
	}
	if (f->n >= FORWARD_MAX) {
		snprintf(err, errlen, "at most %d destinations", FORWARD_MAX);
		return -1;
	}
	memcpy(host, spec, (size_t)(slash - spec));
	host[slash - spec] = '\0';
	memset(&hints, 0, sizeof hints);
	hints.ai_socktype = SOCK_DGRAM;
	hints.ai_flags = AI_NUMERICSERV;
	rc = getaddrinfo(host, slash + 1, &hints, &res);
	if (rc != 0) {
		snprintf(err, errlen, "'%s': %s", spec, gai_strerror(rc));
		return -1;
	}
	fd = socket(res->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, res->ai_addr, res->ai_addrlen) < 0) {
		snprintf(err, errlen, "'%s': %s", spec, strerror(errno));
		if (fd >= 0)
			close(fd);
		freeaddrinfo(res);
		return -1;
	}
	freeaddrinfo(res);
	f->fd[f->n++] = fd;
	return 0;
}

void collect_forward_send(struct collect_forward *f, const uint8_t *buf, size_t len)
{
	for (size_t i = 0; i < f->n; i++)
		if (send(f->fd[i], buf, len, MSG_DONTWAIT) != (ssize_t)len)
			f->errors++;
}

uint64_t collect_forward_errors(const struct collect_forward *f)
{
	return f ? f->errors : 0;
}

void collect_forward_free(struct collect_forward *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->n; i++)
		close(f->fd[i]);
	free(f);
}
