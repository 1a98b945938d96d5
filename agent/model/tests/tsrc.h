/*
 * tsrc.h - test-only traffic sources for the model's fidelity tests:
 * one stream of packets with constant or exponential gaps and sizes,
 * from its own seeded generator, so a test controls every packet.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_MODEL_TESTS_TSRC_H
#define BSFLOWD_MODEL_TESTS_TSRC_H

#include <stdint.h>

#include "agent/model/model.h"

enum { TS_CONST = 0, TS_EXP = 1 };

struct tsrc_spec {
	uint16_t in_port, out_port, mc_group;
	uint8_t tc;
	double t0_ns;	/* first arrival */
	int gap_dist;	/* TS_CONST / TS_EXP */
	double gap_ns;	/* (mean) gap between arrivals */
	int len_dist;	/* TS_CONST / TS_EXP (rounded, at least 1) */
	double len;	/* (mean) length in bytes */
	uint64_t count; /* packets */
	uint64_t seed;
	uint16_t fwd_drop;  /* reason code for the drops below */
	uint32_t fwd_every; /* 0, or every k-th packet is a forwarding drop */
	uint32_t flow_id;
};

/* A struct model_source for one stream (the model frees it). */
struct model_source tsrc_new(const struct tsrc_spec *sp);
/* Serialization time in ns (exact real) of len bytes + 20 at bps. */
double tsrc_ser_ns(uint32_t len, uint64_t bps);
/* Shrink factor for packet counts from MODEL_TEST_SCALE (default 1). */
double tsrc_scale(void);
/*
 * A switch for closed-form tests: nports ports at bps, 1 unicast queue
 * (SP) and no multicast queue per port, no minimums, static shared limits
 * as big as the pools (1M cells each, the buffer 4M), so nothing limits
 * unless the test sets it.  Returns 0 or -1.
 */
int tcfg_simple(struct model_config *cfg, unsigned nports, uint64_t bps);
/* Give cfg one multicast group (number 1) of the n ports listed.
 * Returns 0 or -1 (memory). */
int tcfg_mc_group(struct model_config *cfg, unsigned n, const uint16_t *ports);
/* Build a model or fail the test with the message. */
struct model *tmodel(const struct model_config *cfg);
/* Add a tsrc to m. */
void tadd(struct model *m, const struct tsrc_spec *sp);

/* Uniform double in [0,1) from a splitmix state. */
double tsrc_unit(uint64_t *state);

#endif
