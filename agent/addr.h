/*
 * addr.h - the agent address: parsing a literal and choosing one from the
 * host's interfaces for `address = auto`.
 *
 * The choice is a pure function over a list of candidates
 * (bsf_addr_choose) so it can be tested without the host's interfaces;
 * bsf_addr_auto() feeds it from getifaddrs(3).  Preference, best first:
 *   1. global unicast, 2. private (10/8, 172.16/12, 192.168/16,
 *   100.64/10, fc00::/7), 3. link-local (169.254/16, fe80::/10),
 *   4. loopback (127/8, ::1) only when nothing else exists.
 * Within a class: an interface that is up before one that is down, IPv4
 * before IPv6 (a smaller datagram header), then the numerically lowest
 * address, so the choice does not depend on interface order.
 * Unspecified and multicast addresses are never chosen.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_ADDR_H
#define BSFLOWD_AGENT_ADDR_H

#include <stddef.h>

#include "proto/sflow.h"

enum bsf_addr_class {
	BSF_ADDR_UNUSABLE = 0,
	BSF_ADDR_LOOPBACK = 1,
	BSF_ADDR_LINKLOCAL = 2,
	BSF_ADDR_PRIVATE = 3,
	BSF_ADDR_GLOBAL = 4,
};

struct bsf_addr_cand {
	struct sflow_addr addr;
	int up; /* interface is up */
};

enum bsf_addr_class bsf_addr_classify(const struct sflow_addr *a);
/* Index of the best candidate, or -1 if none is usable. */
int bsf_addr_choose(const struct bsf_addr_cand *c, size_t n);
/* Parse an IPv4 or IPv6 literal: 0, or -1. */
int bsf_addr_parse(const char *s, struct sflow_addr *out);
/* Choose from getifaddrs(3): 0, or -1 with a message. */
int bsf_addr_auto(struct sflow_addr *out, char *err, size_t errlen);

#endif
