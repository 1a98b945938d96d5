/*
 * notify.h - the systemd service notification protocol (sd_notify(3)),
 * spoken directly: one datagram of "KEY=value\n..." text to the AF_UNIX
 * socket named by $NOTIFY_SOCKET (a path, or an abstract socket when it
 * starts with '@').  No libsystemd.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_NOTIFY_H
#define BSFLOWD_AGENT_NOTIFY_H

/* Send msg to the socket at path.  Returns 1 sent, 0 when path is NULL or
 * empty (not run by a service manager), -1 on error (errno set). */
int bsf_notify_to(const char *path, const char *msg);
/* Same, to $NOTIFY_SOCKET. */
int bsf_notify(const char *msg);

#endif
