/*
 * vis.h - visibility events and samplers (the visibility sampling method,
 * doc/glossary.md): the
 * types shared by every file of agent/visibility/ and the semantics chosen
 * where the seed leaves a choice.
 *
 * The library is fed abstract per-packet events (struct vis_pkt_event:
 * enqueue, dequeue, drop) by any backend.  Monitors turn them into
 * visibility events (struct vis_event: drop, high delay, queue forensics,
 * congestion start/end); samplers (vis_sampler.h) decide which visibility
 * events go on; vis_pipeline.h ties both together, built from the config
 * section (vis_conf.h).  Nothing here does I/O or reads a clock: every
 * call takes the time, so tests drive it with a virtual clock.
 *
 * Semantics chosen where the seed is ambiguous (each is tested):
 *
 *  Monitors
 *  - Packet ids (vis_pkt_event.pkt_id) are a per-queue sequence growing in
 *    enqueue order.  Queue forensics stores the id of the packet at the
 *    queue's tail at drop time (the last enqueued id, or the drop event's
 *    tail_id when the backend supplies it) and tags every departure with
 *    id <= that tail; the departure with id >= tail ends it (so a tail
 *    packet that was itself purged still ends it), as does the queue
 *    becoming empty.  The last tagged departure carries VIS_EVF_LAST (a
 *    snapshot that ends on an untagged departure, its tail having been
 *    purged, has no such event).  A drop on an empty queue starts nothing;
 *    a queue is known empty only once the last enqueue seen has left (at
 *    the start and after a gap it may hold packets enqueued unseen).  A new drop
 *    while forensics is active moves the tail and the event id to the new
 *    drop (the latest drop wins).  With scope "port", a drop activates
 *    every queue of the port that holds packets, each with its own tail.
 *  - Every visibility event gets an event id from one counter per
 *    monitor set, starting at 1; forensics departures carry the id of the
 *    drop that started them (vis_event.event_id) and have their own id in
 *    vis_event.own_id.
 *  - High delay is evaluated on dequeue, on the delay the backend reports
 *    for the departing packet (sojourn or marker delay).  A profile has up
 *    to VIS_DELAY_LEVELS thresholds; a departure is tagged with the
 *    highest level whose threshold is enabled (>= 0) and strictly below
 *    the delay; -1 disables a level.  Level numbers are 1-based positions
 *    in the profile.  When a queue that was tagging stops (a departure
 *    below every threshold), VIS_EV_DELAY_END is emitted once (it resets
 *    flow filters that ask for it; it is not meant for export).
 *  - Congestion: start when the depth reaches high (>=), end when it
 *    falls to low (<=) or below; in between nothing is emitted (one start
 *    and one end per episode).  The end carries the peak, the time of the
 *    peak and the duration (end - start); the start carries the flag
 *    VIS_EVF_SAMPLE_PORT: the daemon should send an out-of-cycle counters
 *    sample of that port.  Port depth is the sum of the latest depths of
 *    its queues.
 *  - Pre-event eligibility: when the monitor set has an eligibility match,
 *    packets that fail it update queue state (depths, forensics tails) but
 *    raise no packet event (drop, delay, forensics tag).  Congestion events
 *    are about queues, not packets, and are never filtered here.
 *
 *  Samplers
 *  - One sampler runs its stages in a fixed order: eligibility
 *    match, duplicate filter, re-occurrence limiter / recurrent-only,
 *    ticket, probability or deterministic decimation, flow filter.  The
 *    first failing stage is the rejection reason.
 *  - Two phases: check (decides, changes nothing that a pass would spend)
 *    then commit (spends: ticket, flow bits, limiter count, duplicate
 *    record) or abort (a later member rejected it: counted as rejected
 *    "downstream").  The probability draw and the every-N / K-of-M
 *    position advance at check, on every event that reaches that stage
 *    (drawing at commit, as blk 1780 says, would reuse a failed draw).
 *  - every = N passes events N, 2N, ... (1-in-N); first = K, of = M passes
 *    events 1..K of each block of M; positions count the events reaching
 *    that stage.
 *  - Tickets: periods are aligned on multiples of the period on the event
 *    clock (boxes with one period refill at the same instants, like the
 *    seed's synchronised replenishers); the first event opens its period
 *    with one batch.  A batch is added at each boundary, capped at cap.
 *    With a floor below zero a ticket can be spent until the balance
 *    reaches the floor; the debt is repaid out of the following batches,
 *    which keeps the long-run average at batch / period (the seed's
 *    "longer period").  "Consumed all" is set when the balance reaches
 *    the floor and holds until the next refill.  Jitter: each batch is
 *    batch +- batch_jitter, each period period +- period_jitter (uniform).
 *  - The re-occurrence limiter counts committed samples per (event type,
 *    port, queue) and rejects once `limit` samples passed in the current
 *    period; recurrent-only (`after` = N) rejects the first N occurrences
 *    per key and period (counted at check, passed or not).  The table
 *    keeps the keys of the current period only (at most
 *    VIS_LIMITER_MAX_SLOTS; when full, every count restarts).
 *  - Flow filter: k banks of bits; first-of-flow if any of the k bits is
 *    clear; commit sets all k.  Resets: every flow_reset ns, after
 *    flow_reset_after checks, on VIS_EV_DELAY_END and/or at the end of a
 *    forensics snapshot (per-sampler options; applied after the event
 *    that ends the episode was itself sampled), or by
 *    vis_sampler_reset_flows().
 *  - Chains: "all" is one two-phase decision over its members (a ticket is
 *    spent only when every member passes); "any" passes on the first
 *    member that passes and spends only that member's resources; later
 *    members do not see the event.
 *  - Hierarchy (aggregate): an event goes to the first child whose
 *    eligibility match accepts it (other children do not count it); the
 *    child decides, then the aggregate applies its own stages.  The
 *    child's pass is spent when the aggregate and every node above pass
 *    the event, or when the aggregate's own stages reject it (a level
 *    samples on its own, so the rate manager sees a child
 *    that asked for more than the aggregate gives); if a node above the
 *    aggregate rejects it, neither spends and both count it as
 *    downstream.  The duplicate filter keys on (event type, multicast copy
 *    id) over the last VIS_DEDUP_SLOTS passed copies within dedup_window.
 *  - Rate manager: runs when the aggregate's ticket period ends.
 *    If the aggregate ran out of tickets, every child that ran out steps
 *    down one level; otherwise ("guarded", default) a child that ran out
 *    steps up one level only while the aggregate's unused tickets cover
 *    the increase; policy "step" is the seed's literal rule (every child
 *    steps up when the aggregate did not run out).  A child's cap follows
 *    its batch.
 *  - Statistics: for every sampler, seen = passed + sum(rejected[r]).
 *    An aggregate counts the events one of its children passed, and as
 *    not_eligible those no child's match takes.
 *  - An unconfigured sampler (vis_sampler_conf_init) passes everything.
 *
 *  Pipeline (vis_pipeline.h)
 *  - Each event type is routed to one named sampler (or chain or
 *    aggregate); with none, every drop passes and the other types go
 *    through an implicit ticket box of default_rate a second (vis_conf.h;
 *    rejections count as no_ticket).  Congestion start and end share a
 *    route, but only starts are offered to it: an end passes or is
 *    rejected with its start (per queue or port), and is offered only
 *    when its start was not seen.  The out-of-cycle port sample of a
 *    congestion start is requested whatever the sampler decides.
 *  - Samplers run on the event clock (vis_event.t_ns), never the wall
 *    clock, so a simulation and the tests are reproducible.
 *  - Backend events (struct bsf_event, vis_backend.h): the enqueues and
 *    departures of a queue the backend streams (backend.h version 2,
 *    BSF_CAP_QUEUE_EVENTS) are the full stream and drive every monitor;
 *    sampled packets and the drops of other queues are a subset, marked
 *    VIS_PKTF_PARTIAL, that drives drops and high delay only; congestion
 *    of a queue that is not streamed is fed from polled queue depths
 *    (vis_pipeline_depth).  Multicast queue q of a port is queue
 *    BSF_MAX_QUEUES + q here.  A gap in a stream (events the backend
 *    lost) is vis_pipeline_gap().
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_VIS_H
#define BSFLOWD_VIS_H

#include <stddef.h>
#include <stdint.h>

#define VIS_NONE	     UINT32_MAX /* unknown port / queue; port-scope events' queue */
#define VIS_ID_NONE	     UINT64_MAX /* no packet id / tail id */
#define VIS_HDR_MAX	     128	/* header bytes carried (= BSF_HDR_MAX) */
#define VIS_DELAY_LEVELS     4		/* thresholds per delay profile */
#define VIS_NAME_MAX	     32
#define VIS_MEMBERS_MAX_CONF 64 /* members of a chain or aggregate */

/* ---- input: what a backend reports ---- */

enum vis_pkt_type {
	VIS_PKT_ENQUEUE = 1,
	VIS_PKT_DEQUEUE = 2,
	VIS_PKT_DROP = 3, /* failed enqueue or any other drop */
};

/* Flow fields, from the packet header (vis_flow_from_header) or the backend. */
struct vis_flow {
	uint8_t af;    /* 0 none, 4 IPv4, 6 IPv6 */
	uint8_t proto; /* IP protocol */
	uint16_t sport, dport;
	uint16_t vlan; /* 0 none */
	uint8_t src[16], dst[16];
};

enum vis_pkt_flag {
	/* one of a sampled subset, not the full enqueue / departure stream:
	 * it does not drive forensics or congestion state */
	VIS_PKTF_PARTIAL = 1u << 0,
};

struct vis_pkt_event {
	uint32_t type;	      /* enum vis_pkt_type */
	uint32_t flags;	      /* enum vis_pkt_flag */
	uint64_t t_ns;	      /* time of the event */
	uint32_t port;	      /* egress port index (the queue's port), VIS_NONE unknown */
	uint32_t queue;	      /* queue index on that port, VIS_NONE unknown (drops only) */
	uint32_t in_port;     /* ingress port index, VIS_NONE unknown */
	uint64_t pkt_id;      /* per-queue sequence (enqueue order) */
	uint64_t tail_id;     /* drops: id at the queue's tail, VIS_ID_NONE = use the last
				 enqueue seen */
	uint64_t depth_bytes; /* queue depth after the event */
	uint64_t delay_ns;    /* dequeue: delay of the departing packet, UINT64_MAX unknown */
	uint32_t reason;      /* drops: sFlow discard reason */
	uint32_t stage;	      /* drops: where in the pipeline (enum bsf_stage) */
	uint32_t tc;	      /* traffic class */
	uint64_t mc_id;	      /* multicast copy id, same for all copies; 0 = not a copy */
	uint64_t flow_hash;   /* 0: computed from flow */
	struct vis_flow flow;
	uint32_t frame_len;
	uint32_t hdr_len;
	const uint8_t *hdr; /* not owned; copied into vis_event (up to VIS_HDR_MAX) */
};

/* ---- output: visibility events ---- */

enum vis_event_type {
	VIS_EV_DROP = 1,
	VIS_EV_HIGH_DELAY = 2,
	VIS_EV_FORENSICS = 3,
	VIS_EV_CONGESTION_START = 4,
	VIS_EV_CONGESTION_END = 5,
	VIS_EV_DELAY_END = 6, /* a queue stopped tagging (notification) */
	VIS_EV_NTYPES
};

enum vis_event_flag {
	VIS_EVF_SAMPLE_PORT = 1u << 0, /* congestion start: send a counters sample of port */
	VIS_EVF_LAST = 1u << 1,	       /* forensics: last tagged departure of the snapshot */
	VIS_EVF_PORT_SCOPE = 1u << 2,  /* congestion of a port (queue = VIS_NONE) */
};

struct vis_event {
	uint32_t type;	   /* enum vis_event_type */
	uint32_t flags;	   /* enum vis_event_flag */
	uint32_t level;	   /* high delay: 1-based level; others 0 */
	uint32_t severity; /* high delay: the level's severity */
	uint32_t tag;	   /* high delay: the level's tag */
	uint64_t event_id; /* forensics: the drop's id; congestion end: its
			      start's id; others their own id */
	uint64_t own_id;   /* this event's own id */
	uint64_t t_ns;
	uint32_t port, queue, in_port;
	uint32_t reason; /* drops, forensics: the drop reason */
	uint32_t stage;	 /* drops: enum bsf_stage (0 unknown) */
	uint32_t tc;
	uint64_t depth_bytes; /* queue (port) depth at the event */
	uint64_t delay_ns;    /* UINT64_MAX unknown */
	uint64_t peak_bytes;  /* congestion: peak depth (start: the depth) */
	uint64_t peak_t_ns;   /* congestion: time of the peak */
	uint64_t duration_ns; /* congestion end: end - start */
	uint64_t pkt_id, mc_id;
	uint64_t flow_hash; /* 0: not computed yet (vis_event_flow_hash) */
	struct vis_flow flow;
	uint32_t frame_len;
	uint32_t hdr_len;
	uint8_t hdr[VIS_HDR_MAX];
};

/* ---- rejection reasons and statistics ---- */

enum vis_reject {
	VIS_PASS = 0,
	VIS_REJ_NOT_ELIGIBLE = 1,
	VIS_REJ_DUPLICATE,
	VIS_REJ_LIMITER,
	VIS_REJ_RECURRENT,
	VIS_REJ_NO_TICKET,
	VIS_REJ_PROBABILITY, /* probability or every-N / K-of-M */
	VIS_REJ_FLOW_FILTER,
	VIS_REJ_DOWNSTREAM, /* passed here, rejected by a later chain member */
	VIS_REJ_N
};

struct vis_sampler_stats {
	uint64_t seen, passed;
	uint64_t rejected[VIS_REJ_N]; /* [0] unused */
	int64_t ticket_balance;	      /* now (0 without tickets) */
	uint32_t ticket_batch;	      /* current batch (rate manager moves it) */
	uint64_t consumed_all;	      /* periods that ran out of tickets */
};

/* ---- helpers (vis_util.c) ---- */

/* Name of an event type / rejection reason ("drop", "no_ticket", ...). */
const char *vis_event_type_name(uint32_t type);
const char *vis_reject_name(uint32_t reason);
/* Event type by name ("drop", "delay", "forensics", "congestion"); a
 * bit mask of types (congestion = start | end), 0 if unknown. */
uint32_t vis_event_mask_by_name(const char *name);

/* Seeded pseudo-random generator (splitmix64): reproducible per seed. */
struct vis_rng {
	uint64_t s;
};
void vis_rng_seed(struct vis_rng *r, uint64_t seed);
uint64_t vis_rng_next(struct vis_rng *r);

/* Parse an Ethernet frame's header (VLAN tags, IPv4/IPv6, TCP/UDP ports)
 * into f; fields not found stay zero.  Returns 0, or -1 if not IP. */
int vis_flow_from_header(const uint8_t *hdr, size_t len, struct vis_flow *f);
/* 64-bit hash of the flow fields (never 0). */
uint64_t vis_flow_hash(const struct vis_flow *f);
/* The flow hash of a packet event: pe->flow_hash, or computed. */
uint64_t vis_pkt_flow_hash(const struct vis_pkt_event *pe);
/* The flow hash of an event: ev->flow_hash, or computed from ev->flow. */
uint64_t vis_event_flow_hash(const struct vis_event *ev);

#endif
