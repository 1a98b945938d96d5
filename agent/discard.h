/*
 * discard.h - dropped-packet notifications: a drop event (bsf_event type
 * BSF_EV_DROP) as an sFlow discarded_packet (0:5), and the rate limit and
 * circuit breaker that decide which drops are notified.
 *
 * The notification belongs to the device data source 2:N (one sequence
 * number stream for the switch) and carries the reason code, input and
 * output ifIndex (0 = unknown; the output only for a drop on egress, stage
 * egress_admission or wred, as the sFlow drops specification says) and,
 * in this order:
 *
 *   0:1     sampled_header (as for flow samples: FCS stripped, at most
 *           header_bytes bytes);
 *   0:1036  extended_egress_queue, when the output port (so an egress drop)
 *           and a unicast queue are known;
 *   0:1040  extended_queue: depth of that queue in bytes at the drop, with
 *           0:1036 only;
 *   0:1043  extended_timestamp: the drop, ns since the Unix epoch;
 *   0:1038  extended_function: the function or symbol that dropped the
 *           packet when the backend names one (bsf_event.function, e.g. a
 *           kernel symbol), else where in the pipeline, one of the symbols
 *           "forwarding", "ingress_admission", "egress_admission", "wred"
 *           (left out when the backend says neither);
 *   0:1041  extended_hw_trap: the hardware trap's group and name, when the
 *           backend gives either (bsf_event.trap_group, trap_name);
 *   0:1042  extended_linux_reason: the platform's own reason string, e.g.
 *           the kernel's "QDISC_DROP" (bsf_event.reason_name), when given;
 *   E:1     the own visibility_event record of the drop (type 1: its
 *           visibility event id, queue, reason, depth), for drops that
 *           passed the visibility drop sampler (bsf_discard_params.vis),
 *           so that a collector can join the drop with the forensics
 *           events it started (see bsflowd-structures(7));
 *   E:2     the own flow_region_drop record: the flow region of a drop
 *           made by a flow-based shared-buffer admission
 *           (BSF_EVF_FLOW_REGION), with bsf_discard_params.region.
 *
 * drops is the cumulative number of notifications suppressed (rate limit
 * and circuit breaker); the daemon adds the drop events the backend lost
 * to a full queue (backend op drop_events_lost) and, with a visibility
 * drop sampler, the drops it rejected for rate reasons (bsf_visx_drops_lost),
 * so sent + the latest drops = every drop the backend saw, less those a
 * drop sampler filtered out by intent (not eligible, duplicate, flow).
 *
 * The limiter is a pure state machine on a clock the caller passes in
 * (the event's time, ns), so it can be tested exactly:
 *
 * Rate limit: a token bucket counted in tenths of a notification.  Time is
 * cut in steps of 100 ms (t / 10^8); at each new step the bucket gains
 * `limit` tenths (limit/10 notifications) up to a capacity of
 * max(limit, 10) tenths; a notification costs 10.  So every whole second
 * of the clock (t / 10^9) passes at most `limit` notifications, and any
 * 1 s interval at most limit + limit/10.  limit = 0 sends none.
 *
 * Circuit breaker: drops offered are counted per second of the clock.
 * When a second has more than `max` of them and so did each of the
 * `max_trip` - 1 seconds just before it, the breaker opens at that drop:
 * from then on nothing is sent (everything counts as suppressed) until
 * `cooldown` seconds after the trip, when it closes again with its
 * counts restarted.  A reload (bsf_discard_limiter_configure) closes it
 * too.  max = 0 turns the breaker off.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_DISCARD_H
#define BSFLOWD_AGENT_DISCARD_H

#include <stddef.h>
#include <stdint.h>

#include "agent/backend.h"

struct sflow_own_vis_event;

#define BSF_DISCARD_LIMIT_DEFAULT    100u
#define BSF_DISCARD_MAX_DEFAULT	     1000000u
#define BSF_DISCARD_MAX_TRIP_DEFAULT 10u
#define BSF_DISCARD_COOLDOWN_DEFAULT 60u
#define BSF_DISCARD_STEP_NS	     100000000ull /* refill step, 100 ms */
/* Bytes of a notification made here besides its header bytes, at most
 * (all records, the longest 0:1038 string: a backend's function of
 * BSF_NAME_MAX - 1 bytes, 64 on the wire with its padding, where the
 * longest stage symbol "ingress_admission" takes 20; the own
 * visibility_event record, the flow_region_drop record). */
#define BSF_DISCARD_OVERHEAD (136u - 20u + 64u + BSF_DISCARD_NAMES + 8u + 72u + 8u + 32u)
/* 0:1041 and 0:1042 with names of BSF_NAME_MAX - 1 bytes: (8 + 4 + 64 + 4 +
 * 64) + (8 + 4 + 64) */
#define BSF_DISCARD_NAMES (144u + 76u)
/* A scratch buffer this big always holds a notification made here. */
#define BSF_DISCARD_SCRATCH 1024u

/* The symbol sent in 0:1038 for a bsf_stage, or NULL (unknown stage). */
const char *bsf_discard_stage_symbol(uint32_t stage);
/* A drop event for logs: "reason 3 (QDISC_DROP) at sym, trap group/name",
 * each part when the backend gave it. */
void bsf_discard_describe(const struct bsf_event *ev, char *buf, size_t len);

struct bsf_discard_params {
	uint32_t seq;
	uint32_t source_type; /* SFLOW_DS_ENTITY for the device */
	uint32_t source_index;
	uint32_t drops;
	uint32_t in_ifindex;  /* 0 = unknown */
	uint32_t out_ifindex; /* 0 = unknown */
	uint32_t header_bytes;
	/* the drop's visibility event record (own enterprise enterprise,
	 * not 0), or NULL: none (visibility off, or drops not routed
	 * through a sampler) */
	const struct sflow_own_vis_event *vis;
	/* 1: add the flow_region_drop record of an event that names its
	 * flow region (own enterprise enterprise) */
	int region;
	uint32_t enterprise;
};

/* Encode one 0:5 sample from ev (and p->vis) into buf.  0 (SFLOW_OK) with
 * *len, or SFLOW_ERR_INVALID (not a drop event, header_bytes out of range,
 * p->vis with enterprise 0 or 4413) or SFLOW_ERR_FULL.  The region record
 * is left out with enterprise 0 or 4413. */
int bsf_discard_encode(const struct bsf_discard_params *p, const struct bsf_event *ev, uint8_t *buf,
		       size_t cap, size_t *len);

/* ---- the limiter */

struct bsf_discard_conf {
	uint32_t limit;	   /* notifications per second */
	uint32_t max;	   /* breaker threshold, drops offered per second; 0 = off */
	uint32_t max_trip; /* consecutive seconds over max (>= 1) */
	uint32_t cooldown; /* seconds the breaker stays open */
};

enum bsf_discard_verdict {
	BSF_DISCARD_SEND = 0,
	BSF_DISCARD_RATE,    /* suppressed by the rate limit */
	BSF_DISCARD_BREAKER, /* suppressed: the breaker is open */
};

/* bsf_discard_offer() transitions, for the caller to log. */
#define BSF_DISCARD_TRIPPED 1u
#define BSF_DISCARD_RESUMED 2u

struct bsf_discard_limiter {
	struct bsf_discard_conf conf;
	/* bucket */
	int started;
	uint64_t step;	 /* t / BSF_DISCARD_STEP_NS of the last refill */
	uint64_t tokens; /* tenths */
	/* breaker */
	int have_sec;
	uint64_t sec, sec_count; /* current second and drops offered in it */
	uint64_t last_over_sec;
	uint32_t run; /* consecutive seconds over max, ending at last_over_sec */
	int open;
	uint64_t open_until_ns;
	/* cumulative counts */
	uint64_t offered, sent, suppressed_rate, suppressed_breaker, trips;
};

/* Defaults: limit 100, max 1000000, max_trip 10, cooldown 60. */
void bsf_discard_conf_default(struct bsf_discard_conf *c);
void bsf_discard_limiter_init(struct bsf_discard_limiter *l, const struct bsf_discard_conf *c);
/* A new configuration (reload): counts and bucket are kept, the breaker
 * is closed and its counts restart. */
void bsf_discard_limiter_configure(struct bsf_discard_limiter *l, const struct bsf_discard_conf *c);
/* One drop at time t_ns: send it or not.  *transition (may be NULL) gets
 * BSF_DISCARD_TRIPPED / BSF_DISCARD_RESUMED when the breaker changed. */
enum bsf_discard_verdict bsf_discard_offer(struct bsf_discard_limiter *l, uint64_t t_ns,
					   unsigned *transition);
/* Suppressed so far (the 0:5 drops field). */
static inline uint64_t bsf_discard_suppressed(const struct bsf_discard_limiter *l)
{
	return l->suppressed_rate + l->suppressed_breaker;
}

#endif
