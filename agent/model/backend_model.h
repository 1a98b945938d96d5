/*
 * backend_model.h - the model backend (backend_model.c): its struct
 * bsf_backend_ops and, for tests, a way to run its clock without the
 * event loop.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_BACKEND_MODEL_H
#define BSFLOWD_AGENT_BACKEND_MODEL_H

#include <stdint.h>

#include "agent/backend.h"

/* The model backend's table. */
const struct bsf_backend_ops *bsf_backend_model_ops(void);

/*
 * Advance the model of an open model backend st (opened with a host that
 * has no timers, so its clock stays put unless told) to t_ns ns after
 * open, on virtual time, as its real-time timer does: with a queue stream
 * on, in steps the event ring can hold.  Returns 1 if it stopped short
 * because the ring is nearly full (read the events, then call again), 0
 * when the clock is at t_ns.
 */
int bsf_backend_model_run_to(void *st, uint64_t t_ns);

/* The model of an open model backend st (bsflow-sim --sflow reads its
 * figures). */
struct model *bsf_backend_model_of(void *st);

/* Scenario options (a seed) that every model backend opened from now on
 * applies to its section, as bsflow-sim --seed does (copied; NULL: none,
 * the default). */
struct model_scenario_opts;
void bsf_backend_model_set_opts(const struct model_scenario_opts *so);

#endif
