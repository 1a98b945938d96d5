/*
 * backend_model_own.h - the model backend's own counter records
 * (backend_model_own.c).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_MODEL_BACKEND_MODEL_OWN_H
#define BSFLOWD_MODEL_BACKEND_MODEL_OWN_H

#include <stddef.h>
#include <stdint.h>

#include "agent/backend.h"
#include "agent/model/model.h"

/* read_own_records for model m of nports front-panel ports. */
int bsf_backend_model_own_records(struct model *m, uint32_t nports, unsigned window, uint32_t port,
				  uint32_t enterprise, struct bsf_own_records *out, char *err,
				  size_t errlen);

#endif
