/*
 * model_drop.c - the switch model's drop causes (enum model_drop_cause):
 * each one's sFlow discard reason code and name, in the one table that
 * the engine (a forwarding drop's cause from its code), bsflow-sim (its
 * drops-by-cause columns and keys) and the scenario parser (drop_reason
 * names) all read.  Names of causes that are one sFlow reason are that
 * reason's name (sflow_drops.txt); the others name where the model drops.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <strings.h>

#include "agent/model/model.h"

static const struct {
	uint16_t reason;
	uint8_t fwd; /* a forwarding drop: raised by its code (struct model_pkt fwd_drop) */
	const char *name;
} causes[MODEL_DROP_NCAUSES] = {
    [MODEL_DROP_ING_LIMIT] = {MODEL_REASON_NO_BUFFER_SPACE, 0, "ingress_limit"},
    [MODEL_DROP_EGR_LIMIT] = {MODEL_REASON_NO_BUFFER_SPACE, 0, "egress_limit"},
    [MODEL_DROP_WRED] = {MODEL_REASON_RED, 0, "wred"},
    [MODEL_DROP_TTL] = {MODEL_REASON_TTL_EXCEEDED, 1, "ttl_exceeded"},
    [MODEL_DROP_ACL] = {MODEL_REASON_ACL, 1, "acl"},
    [MODEL_DROP_BLACKHOLE] = {MODEL_REASON_BLACKHOLE_ROUTE, 1, "blackhole_route"},
    /* any other code: events keep the code itself */
    [MODEL_DROP_FWD_OTHER] = {MODEL_REASON_UNKNOWN, 0, "forwarding_other"},
};

unsigned model_drop_reason(enum model_drop_cause c)
{
	return (unsigned)c < MODEL_DROP_NCAUSES ? causes[c].reason : MODEL_REASON_UNKNOWN;
}

const char *model_drop_cause_name(enum model_drop_cause c)
{
	return (unsigned)c < MODEL_DROP_NCAUSES ? causes[c].name : "?";
}

enum model_drop_cause model_drop_cause_of_fwd(unsigned code)
{
	for (unsigned c = 0; c < MODEL_DROP_NCAUSES; c++)
		if (causes[c].fwd && causes[c].reason == code)
			return (enum model_drop_cause)c;
	return MODEL_DROP_FWD_OTHER;
}

int model_drop_fwd_code(const char *name, uint16_t *code)
{
	for (unsigned c = 0; c < MODEL_DROP_NCAUSES; c++) {
		if (causes[c].fwd && strcasecmp(name, causes[c].name) == 0) {
			*code = causes[c].reason;
			return 0;
		}
	}
	return -1;
}
