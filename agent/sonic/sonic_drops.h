/*
 * sonic_drops.h - SONiC's drops as the sonic backend exports them, in the
 * own counter records of bsflowd-structures(7): each queue's dropped
 * packets and bytes (SAI_QUEUE_STAT_DROPPED_PACKETS / _BYTES) in E:10
 * queue_drops, and SONiC's configurable drop counters (its debug
 * counters, sonic_maps.h) in E:11 drop_counters, the port-level ones in
 * each port's sample and the switch-level ones in the device sample, each
 * with the sFlow discard reason code its drop reasons map to.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_SONIC_DROPS_H
#define BSFLOWD_AGENT_SONIC_DROPS_H

#include <stdint.h>

#include "agent/backend.h"
#include "agent/sonic/sonic_maps.h"
#include "proto/sflow_own.h"

/* The sFlow discard reason code of one of SONiC's drop reasons (SAI's
 * sai_in_drop_reason_t / sai_out_drop_reason_t without their prefix, as
 * DEBUG_COUNTER_DROP_REASON names them: "TTL", "ACL_ANY", ...), or
 * UINT32_MAX when no code fits. */
uint32_t sonic_drop_reason_code(const char *reason);

/* The own records of one port (E:10 from the queues given, E:11 from
 * dbg with values[i] the packets of dbg->c[i]) or of the device (no
 * queues: E:11 only), tagged enterprise, into out: E:10 when there are
 * queues, E:11 when there are counters.  0; 1 with a message in err when
 * E:11 does not fit (out has E:10 alone); -1 with a message when E:10
 * does not (out has nothing). */
int sonic_drops_records(uint32_t enterprise, const struct sflow_own_qdrop *uc, unsigned n_uc,
			const struct sflow_own_qdrop *mc, unsigned n_mc,
			const struct sonic_dbgs *dbg, const uint64_t *values,
			struct bsf_own_records *out, char *err, size_t errlen);

#endif
