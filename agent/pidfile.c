/*
 * pidfile.c - the daemon's pid file, locked for the life of the process
 * (see pidfile.h).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent/pidfile.h"

int pidfile_create(const char *path, char *err, size_t errlen)
{
	struct stat st;
	char buf[32];
	int fd, n;

	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0644);
	if (fd < 0) {
		if (errno == ELOOP)
			snprintf(err, errlen,
				 "pid file %s: is a symbolic link; refusing to follow it (remove "
				 "it or choose another path)",
				 path);
		else
			snprintf(err, errlen, "pid file %s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "pid file %s: not a regular file", path);
		close(fd);
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		long other = 0;

		if (errno == EWOULDBLOCK) {
			n = (int)pread(fd, buf, sizeof buf - 1, 0);
			if (n > 0) {
				buf[n] = '\0';
				other = strtol(buf, NULL, 10);
			}
			if (other > 0)
				snprintf(err, errlen,
					 "pid file %s: locked by another bsflowd (pid %ld) already "
					 "running with it; refusing to start a second one",
					 path, other);
			else
				snprintf(err, errlen,
					 "pid file %s: locked by another bsflowd already running "
					 "with it; refusing to start a second one",
					 path);
		} else {
			snprintf(err, errlen, "pid file %s: lock: %s", path, strerror(errno));
		}
		close(fd);
		return -1;
	}
	n = snprintf(buf, sizeof buf, "%ld\n", (long)getpid());
	if (fchmod(fd, 0644) < 0 || ftruncate(fd, 0) < 0 || pwrite(fd, buf, (size_t)n, 0) != n) {
		snprintf(err, errlen, "pid file %s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

int pidfile_remove(const char *path, int fd)
{
	struct stat a, b;
	int rc = 0, e = 0;

	if (fd < 0)
		return 0;
	/* only the file this process holds, not one put there since */
	if (fstat(fd, &a) == 0 && lstat(path, &b) == 0) {
		if (a.st_dev == b.st_dev && a.st_ino == b.st_ino && unlink(path) < 0) {
			e = errno;
			rc = -1;
		}
	} else if (errno != ENOENT) {
		e = errno;
		rc = -1;
	}
	/* not removable (-u dropped the right to write its directory): an
	 * empty file names no process, where a stale pid could name another */
	if (rc < 0 && ftruncate(fd, 0) < 0)
		e = errno;
	close(fd);
	errno = e;
	return rc;
}
