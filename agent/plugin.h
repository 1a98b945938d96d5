/*
 * plugin.h - loading a backend from a shared object (dlopen).
 *
 * The object must export BSF_BACKEND_ENTRY ("bsf_backend_entry") returning
 * its struct bsf_backend_ops, whose abi_version must lie within
 * [BSF_BACKEND_ABI_MIN, BSF_BACKEND_ABI_VERSION].  Each failure has its
 * own message: not a file, dlopen's own error, the missing symbol, a NULL
 * table, an ABI version out of range (naming it and the range), a table
 * too small, required functions missing.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_PLUGIN_H
#define BSFLOWD_AGENT_PLUGIN_H

#include <stddef.h>

#include "agent/backend.h"

struct bsf_plugin {
	void *handle;
	const struct bsf_backend_ops *ops;
};

/* 0, or -1 with a message in err. */
int bsf_plugin_load(const char *path, struct bsf_plugin *p, char *err, size_t errlen);
void bsf_plugin_unload(struct bsf_plugin *p);
/* Checks any ops table (built-in too): the ABI version and the functions
 * every backend must have.  0, or -1 with a message. */
int bsf_backend_check_ops(const struct bsf_backend_ops *ops, const char *what, char *err,
			  size_t errlen);

#endif
