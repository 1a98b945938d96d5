/*
 * sampling.h - which 1-in-N packet sampling rate each port gets.
 *
 * The configuration can name a rate for one port, for every port of one
 * link speed, and a default; what is left is derived from the port's
 * speed.  The precedence, highest first (bsflowd.conf(5), SAMPLING):
 *
 *   1. port "NAME" { sampling = N }   the port with that name
 *   2. sampling { "10G" = N }         ports of exactly that speed
 *   3. sampling { default = N }       every other port
 *   4. derived from the link speed: N = the speed in Mb/s (1G -> 1000,
 *      10G -> 10000, 100G -> 100000), the sFlow.org rule of thumb (also
 *      Cumulus Linux's per-speed defaults); a port of unknown speed gets
 *      BSF_SAMPLING_FALLBACK.
 *
 * N = 0 at any level means "no sampling" for the ports it covers and
 * stops the search there.  Everything here is pure: no allocation, no
 * state, no I/O.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_SAMPLING_H
#define BSFLOWD_AGENT_SAMPLING_H

#include <stddef.h>
#include <stdint.h>

#define BSF_SAMPLING_FALLBACK 1000u	  /* unknown speed, nothing configured */
#define BSF_SAMPLING_MAX      0x7fffffffu /* largest N accepted */

/* Where a port's rate came from. */
enum bsf_sampling_origin {
	BSF_SAMPLING_FROM_PORT = 1,
	BSF_SAMPLING_FROM_SPEED,
	BSF_SAMPLING_FROM_DEFAULT,
	BSF_SAMPLING_FROM_DERIVED,
};

struct bsf_sampling_speed {
	uint64_t speed_bps;
	uint32_t rate;
};

struct bsf_sampling_port {
	const char *name;
	uint32_t rate;
};

struct bsf_sampling_conf {
	int have_default; /* default_rate is set */
	uint32_t default_rate;
	const struct bsf_sampling_speed *speeds;
	size_t nspeeds;
	const struct bsf_sampling_port *ports;
	size_t nports;
};

/* The rate of a port of this name and speed (0 = not sampled); *origin
 * (may be NULL) says which rule decided. */
uint32_t bsf_sampling_resolve(const struct bsf_sampling_conf *c, const char *port_name,
			      uint64_t speed_bps, enum bsf_sampling_origin *origin);

/* Rule 4 alone: speed / 1e6 rounded to nearest (at least 1, at most
 * BSF_SAMPLING_MAX); BSF_SAMPLING_FALLBACK when speed_bps is 0. */
uint32_t bsf_sampling_derived(uint64_t speed_bps);

/* Parse a speed key: a number, possibly with decimals, and an optional K,
 * M, G or T suffix (powers of 1000, upper or lower case), e.g. "10G",
 * "100M", "2.5G", "400g".  Returns 0 with *bps set, or -1 (empty, junk,
 * zero, overflow, a fraction of a bit per second). */
int bsf_sampling_parse_speed(const char *s, uint64_t *bps);

/* "Origin" as a word for messages ("port", "speed", "default", "derived"). */
const char *bsf_sampling_origin_name(enum bsf_sampling_origin o);

#endif
