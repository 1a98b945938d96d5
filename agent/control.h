/*
 * control.h - bsflowd's control socket and its client: a UNIX stream
 * socket (mode 0660, owner and group of the daemon, so root and its group
 * only) answering one request per connection with the status that SIGUSR1
 * logs, as text or JSON; `bsflowd --status [--json]` is the client.  It
 * also keeps the service manager's one-line STATUS= up to date.
 *
 * Protocol: the client sends one line, "status" or "status json", and
 * reads the reply until the daemon closes the connection.  An unknown
 * request gets "error: unknown request" and the connection is closed.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_CONTROL_H
#define BSFLOWD_AGENT_CONTROL_H

#include <stddef.h>

struct bsf_daemon;
struct bsf_control;
struct evbuffer;

/* The default socket path (under the run-state directory). */
#define BSF_CONTROL_DIR	    RUNSTATEDIR "/bsflowd"
#define BSF_CONTROL_DEFAULT BSF_CONTROL_DIR "/bsflowd.sock"

/* Listen on path for d.  explicit: the path was given on the command line,
 * so failing to listen is an error (NULL with the reason); otherwise the
 * failure is logged at info level and a control object without a socket is
 * returned (the STATUS= updates still run).  path "none" disables the
 * socket. */
struct bsf_control *bsf_control_new(struct bsf_daemon *d, const char *path, int explicit, char *err,
				    size_t errlen);
/* Close the socket and remove its file. */
void bsf_control_free(struct bsf_control *c);

/* The status as text (the SIGUSR1 lines without their "status: " prefix)
 * or as one JSON object, appended to out. */
void bsf_control_status_text(const struct bsf_daemon *d, struct evbuffer *out);
void bsf_control_status_json(const struct bsf_daemon *d, struct evbuffer *out);
/* The one-line summary given to the service manager as STATUS=. */
void bsf_control_summary(const struct bsf_daemon *d, char *buf, size_t len);

/* Client: ask the daemon at path and copy its reply to stdout.  Returns the
 * exit code: 0, or 3 with a message on stderr when the daemon cannot be
 * reached. */
int bsf_control_client(const char *path, int json);

#endif
