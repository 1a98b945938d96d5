/*
 * backend_linux.h - the built-in `linux` backend's ops table (registered by
 * agent/backends.c for `backend = linux`).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_LINUX_BACKEND_LINUX_H
#define BSFLOWD_LINUX_BACKEND_LINUX_H

#include "agent/backend.h"

const struct bsf_backend_ops *linuxbe_ops(void);
/* The status dump's lines (SIGUSR1) of an open linux backend st: one per
 * source, with what it found and its errors, the poller's cost, and the
 * tracepoint's drops by reason. */
void linuxbe_log_status(void *st);

#endif
