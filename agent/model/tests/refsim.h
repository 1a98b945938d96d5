/*
 * refsim.h - a reference simulator of the switch model's rules, for
 * tests: deliberately plain (a binary heap of events, one record per
 * packet and per queued copy, occupancies recounted where they are
 * needed), run beside the engine on the same configuration and packets.
 * refsim.c's header says which rules it covers.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_MODEL_TESTS_REFSIM_H
#define BSFLOWD_MODEL_TESTS_REFSIM_H

#include <stddef.h>
#include <stdint.h>

#include "agent/model/model.h"

/* One input packet: what a source hands the engine (struct model_pkt),
 * without headers. */
struct refsim_pkt {
	uint64_t t_ns;
	uint32_t len;
	uint16_t in_port, out_port, mc_group;
	uint8_t tc;
	uint16_t fwd_drop;
	uint32_t flow_id;
	uint8_t ecn; /* MODEL_ECN_* */
};

/*
 * Run cfg (as model_new would take it; the CPU port gets no traffic)
 * with the packets of every ingress port: pk[p][0..npk[p]-1], in
 * non-decreasing time, for p in 0..nports-1.  Every departure and every
 * drop is reported to fn as the engine's trace would report it (struct
 * model_trace).  Runs until every packet has left or been dropped.
 * Returns 0, or -1 (memory).
 */
int refsim_run(const struct model_config *cfg, const struct refsim_pkt *const *pk,
	       const size_t *npk, model_trace_fn fn, void *arg);

#endif
