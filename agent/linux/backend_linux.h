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

#endif
