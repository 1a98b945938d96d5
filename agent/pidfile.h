/*
 * pidfile.h - the daemon's pid file (-p): created or reused without
 * following a symbolic link, mode 0644 whatever the umask, and locked
 * (flock, exclusive) for the life of the process, so that a second
 * instance with the same pid file is refused instead of running beside
 * the first.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_PIDFILE_H
#define BSFLOWD_AGENT_PIDFILE_H

#include <stddef.h>

/* Open and lock path and write this process's id in it.  Returns the
 * file descriptor (keep it open: it holds the lock), or -1 with a message
 * in err: a symbolic link or anything but a regular file, an error, or
 * another process holding the lock (its pid named when the file says). */
int pidfile_create(const char *path, char *err, size_t errlen);
/* Remove the file (if it is still the one fd holds) and close fd; fd -1:
 * nothing.  0, or -1 with errno when it could not be removed (after -u,
 * bsflowd's user may not write the directory): the file is then left
 * empty, naming no process. */
int pidfile_remove(const char *path, int fd);

#endif
