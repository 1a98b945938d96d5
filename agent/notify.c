/*
 * notify.c - sd_notify without libsystemd: READY=1, RELOADING=1,
 * STOPPING=1 and STATUS= lines as one datagram to $NOTIFY_SOCKET.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "agent/notify.h"

int bsf_notify_to(const char *path, const char *msg)
{
	struct sockaddr_un sun;
	size_t plen;
	socklen_t alen;
	ssize_t r;
	int fd;

	if (!path || !*path)
		return 0;
	plen = strlen(path);
	if ((path[0] != '/' && path[0] != '@') || plen >= sizeof sun.sun_path) {
		errno = EINVAL;
		return -1;
	}
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, path, plen);
	if (path[0] == '@')
		sun.sun_path[0] = '\0'; /* abstract namespace */
	alen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + plen);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	r = sendto(fd, msg, strlen(msg), MSG_NOSIGNAL, (struct sockaddr *)&sun, alen);
	if (r < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	close(fd);
	return 1;
}

int bsf_notify(const char *msg)
{
	return bsf_notify_to(getenv("NOTIFY_SOCKET"), msg);
}
