/*
 * backends.h - opening the configured backend: a built-in one (model) or
 * a plugin .so, behind one handle the daemon keeps.
 */
#ifndef BSFLOWD_AGENT_BACKENDS_H
#define BSFLOWD_AGENT_BACKENDS_H

#include <stddef.h>

#include "agent/backend.h"
#include "agent/conf.h"
#include "agent/plugin.h"

struct bsf_backend {
	const struct bsf_backend_ops *ops; /* NULL: none open */
	void *st;
	struct bsf_plugin plugin; /* plugins: the loaded object */
};

/* The model backend's table (backend_model.c). */
const struct bsf_backend_ops *bsf_backend_model_ops(void);

/* Open c's backend.  0, or -1 with a message (FILE:LINE: when it is about
 * the backend key). */
int bsf_backend_open(struct bsf_backend *be, const struct conf *c, struct event_base *base,
		     const struct bsf_host *host, char *err, size_t errlen);
void bsf_backend_close(struct bsf_backend *be);
/* For -t: build the model without running it; load a plugin and check
 * its interface version without opening it.  0, or -1 with a message. */
int bsf_backend_check(const struct conf *c, char *err, size_t errlen);

#endif
