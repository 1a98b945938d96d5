/*
 * confwire.h - configuration values the sFlow wire format rules out,
 * checked by conf.c's validation with a reason the operator can act on.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_CONFWIRE_H
#define BSFLOWD_AGENT_CONFWIRE_H

/* Why enterprise number v cannot tag bsflowd's own structures, or NULL if
 * it can.  0 is the standard structures' (sFlow.org) and 4413 Broadcom's,
 * whose 4413:1..3 (device, port, egress queue buffers) bsflowd also sends:
 * its own E:1..E:3 would collide with them. */
const char *confwire_enterprise_refused(long v);

#endif
