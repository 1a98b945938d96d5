/*
 * sflow_drops.h - the sFlow discarded_packet reason codes (sflow_drops.txt).
 *
 * One table, code <-> name, used by the encoder side (the model and the
 * daemon name their drop causes with these codes) and by the decoder
 * (bsflow-collect prints the name).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_PROTO_SFLOW_DROPS_H
#define BSFLOWD_PROTO_SFLOW_DROPS_H

#include <stdint.h>

enum sflow_drop_reason {
	SFLOW_DROP_NET_UNREACHABLE = 0,
	/* 0..15: ICMP destination-unreachable codes */
	SFLOW_DROP_UNKNOWN = 256,
	SFLOW_DROP_TTL_EXCEEDED = 257,
	SFLOW_DROP_ACL = 258,
	SFLOW_DROP_NO_BUFFER_SPACE = 259,
	SFLOW_DROP_RED = 260,
	SFLOW_DROP_TRAFFIC_SHAPING = 261,
	SFLOW_DROP_PKT_TOO_BIG = 262,
	SFLOW_DROP_BLACKHOLE_ROUTE = 269,
	SFLOW_DROP_UNKNOWN_BUFFER = 287,
	/* the full list is the table in sflow_drops.c */
};

/* Name of a reason code ("no_buffer_space"), or NULL if not in the table. */
const char *sflow_drop_name(uint32_t code);
/* Code of a name; returns 0 and sets *code, or -1 if unknown. */
int sflow_drop_code(const char *name, uint32_t *code);
/* Iterate the table: entry i (0..count-1). */
unsigned sflow_drop_count(void);
void sflow_drop_entry(unsigned i, uint32_t *code, const char **name);

#endif
