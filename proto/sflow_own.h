/*
 * sflow_own.h - bsflowd's own sFlow structures (enterprise configurable,
 * default SFLOW_ENT_OWN_DEFAULT = 32473).
 *
 * What the standard and Broadcom structures cannot carry (bytes and cells,
 * per-queue delay, service pools, priority groups, CPU queues, more than 8
 * queues, time of peak, sampler statistics, visibility events) travels in
 * the records and sample types defined here, always next to the standard
 * ones.  Every structure here is also in bsflowd-structures(7).
 *
 * Decoding contract with sflow_decode.c: for a record or sample whose
 * enterprise is the configured own enterprise, the decoder calls
 * sflow_own_decode_record() / sflow_own_decode_sample() with a reader over
 * exactly the body.  They validate the whole body (array counts against the
 * remaining bytes, no bytes left over) and fill the value; variable-length
 * arrays are not copied: the value keeps a pointer to the validated
 * elements and an accessor decodes element i.  Return SFLOW_OK, 1 for a
 * format not known here (the decoder then keeps it as unknown), or an
 * error on the reader.
 *
 * The structures, in XDR (RFC 4506; E = the own enterprise; "percentage"
 * is an int in hundredths of a percent as in 4413:1/4413:2):
 *
 *   Conventions
 *     unsigned int fields that count bytes, cells or ns saturate at
 *     0xFFFFFFFE; 0xFFFFFFFF means unknown (the backend cannot say).
 *     unsigned hyper times are ns since the Unix epoch (UTC); all ones
 *     means unknown.  percentage -1 means unknown.  Peaks are since the
 *     previous export of the same data source (the window closes when
 *     the sample is built, as for 4413:2).  In a uc<>/mc<> array the
 *     element's position is the queue number (0 first).
 *
 *   struct buffer {                 (32 bytes; one buffer object)
 *     unsigned int cur_cells;       occupancy when the sample was built
 *     unsigned int cur_bytes;
 *     unsigned int peak_cells;      peak since the previous export
 *     unsigned int peak_bytes;
 *     unsigned int alloc_cells;     most the object may hold (at the peak)
 *     percentage   peak_pc;         100 * peak_cells / alloc_cells, rounded
 *                                   down, 0..10000; -1 unknown / alloc 0
 *     unsigned hyper peak_time;     when the peak happened
 *   }
 *
 *   Counter records (in counters samples 0:4 / 0:2):
 *
 *   E:1 port_buffers {              (128 bytes; in each port's sample)
 *     buffer ingress_uc;            the port's ingress accounting
 *     buffer ingress_mc;
 *     buffer egress_uc;             the port's egress accounting
 *     buffer egress_mc;
 *   }
 *   E:2 queue_buffers {             (every egress queue, not only 8)
 *     buffer uc<>;                  unicast queue i
 *     buffer mc<>;                  multicast queue i
 *   }
 *   E:3 queue_delays {
 *     queue_delay uc<>;
 *     queue_delay mc<>;
 *   }
 *   struct queue_delay {            (16 bytes)
 *     unsigned int latest;          ns: last completed non-tagged (seed
 *                                   004) measurement
 *     unsigned int max;             ns: largest measurement since the
 *                                   previous export
 *     unsigned int count;           measurements since the previous export
 *     unsigned int marker;          ns: marker queue delay (marker method) now
 *   }
 *   E:4 pg_buffers {                (per ingress priority group)
 *     pg_buffer pgs<>;              position = PG number
 *   }
 *   struct pg_buffer {              (64 bytes)
 *     buffer shared;                use of the shared pool by the PG
 *     buffer headroom;              use of the PG's headroom
 *   }
 *   E:5 device_pools {              (in the device sample 2:N)
 *     unsigned int cell_bytes;      bytes per cell, 0xFFFFFFFF unknown
 *     unsigned int total_cells;     cells in the whole buffer
 *     buffer uc;                    device unicast use (4413:1 uc_pc's base)
 *     buffer mc;                    device multicast use
 *     buffer ingress<>;             ingress service pool i
 *     buffer egress<>;              egress service pool i
 *   }
 *   E:6 cpu_queues {                (in the device sample)
 *     buffer queues<>;              CPU port queue i
 *   }
 *   E:7 sampler_stats {             (in the device sample 2:N)
 *     sampler_stat samplers<>;      every configured visibility sampler
 *   }
 *   struct sampler_stat {           (104..136 bytes: 100 + the name)
 *     string name<32>;              the sampler's name in the config
 *     unsigned hyper seen;          events that reached the sampler
 *     unsigned hyper passed;        events it let through
 *     unsigned hyper not_eligible;  rejected: attributes did not match
 *     unsigned hyper duplicate;     rejected: copy of a passed packet
 *     unsigned hyper limiter;       rejected: re-occurrence limit reached
 *     unsigned hyper recurrent;     rejected: not yet recurrent
 *     unsigned hyper no_ticket;     rejected: no ticket left
 *     unsigned hyper probability;   rejected: probability / every-N /
 *                                   K-of-M decimation
 *     unsigned hyper flow_filter;   rejected: flow already seen
 *     unsigned hyper downstream;    rejected by a later chain member
 *     hyper ticket_balance;         tickets now (may be negative; 0
 *                                   without a ticket stage)
 *     unsigned int ticket_batch;    tickets per period now
 *     unsigned hyper consumed_all;  periods that ran out of tickets
 *   }
 *     All counts are cumulative since the daemon started (or since the
 *     sampler was created by a reload).  Invariant, for every element:
 *     seen = passed + not_eligible + duplicate + limiter + recurrent +
 *     no_ticket + probability + flow_filter + downstream.
 *   E:8 ingress_arbitration {       (140 bytes; in each port's sample for
 *                                   its ingress port, and in the device
 *                                   sample 2:N for the whole arbiter)
 *     unsigned hyper accelerated;   SOPs stored in the accelerated memory
 *     unsigned hyper not_accelerated; SOPs stored in the packet buffer
 *     unsigned hyper dropped;       packets the packet buffer could not hold
 *     unsigned hyper by_cause[7];   not accelerated, per congestion input
 *                                   found congested: am_fill, pfc_ingress,
 *                                   pfc_egress, pfc_ingress_resources,
 *                                   pfc_egress_resources,
 *                                   oversubscription, egress_over (a packet
 *                                   counts under every input that tripped)
 *     unsigned hyper transitions;   uncongested <-> congested
 *     unsigned hyper congested_ns;  time spent congested
 *     unsigned int congested;       1 if the last decision was congested
 *     unsigned int am_cur;          bytes of accelerated memory in use
 *     unsigned int am_peak;         peak since the previous export
 *     percentage am_cur_pc;         of the AM (a port: of its share)
 *     percentage am_peak_pc;
 *     unsigned int am_lat_min;      ns: SOP latency through the AM
 *     unsigned int am_lat_mean;     (since the start; 0 with no packet)
 *     unsigned int am_lat_max;
 *     unsigned int pb_lat_min;      ns: through the packet buffer
 *     unsigned int pb_lat_mean;
 *     unsigned int pb_lat_max;
 *   }
 *   E:9 flow_regions {              (in the device sample 2:N)
 *     unsigned int unit;            0 bytes, 1 packets
 *     unsigned int total;           regions that carried traffic
 *     flow_region regions<>;        at most 16, the fullest (peak_pc)
 *                                   first; the others are left out (total
 *                                   says how many), so that the record
 *                                   stays within 8 + 16 x 56 = 904 bytes
 *   }
 *   struct flow_region {            (56 bytes)
 *     unsigned int region;          its number in the configuration
 *     unsigned int cur;             count now (unit above)
 *     unsigned int peak;            peak since the previous export
 *     unsigned int bound;           its dynamic threshold now
 *     percentage cur_pc;            of the bound, 0..10000
 *     percentage peak_pc;
 *     unsigned int state;           admission state as configured
 *                                   (binary: 1 drop; levels: the level;
 *                                   percent: hundredths of a percent)
 *     unsigned int flags;           bit 0: short-time change flagged
 *     unsigned hyper admitted;      packets, cumulative
 *     unsigned hyper dropped;       packets, cumulative (bound and WRED)
 *     unsigned hyper mirrored;      packets, cumulative
 *   }
 *   E:10 queue_drops {              (in each port's sample)
 *     queue_drop uc<>;              unicast queue i
 *     queue_drop mc<>;              multicast queue i
 *   }
 *   struct queue_drop {             (16 bytes)
 *     unsigned hyper packets;       dropped by the queue, cumulative
 *     unsigned hyper bytes;         (all ones: unknown)
 *   }
 *   E:11 drop_counters {            (port samples: the port's; the device
 *                                   sample: the switch's)
 *     drop_counter counters<>;      the configured drop counters
 *   }
 *   struct drop_counter {           (28..224 bytes: 28 + the strings)
 *     string name<32>;              the counter's name (SONiC: its
 *                                   DEBUG_COUNTER key)
 *     string alias<32>;             its alias, "" if none
 *     unsigned int direction;       0 ingress, 1 egress, 0xFFFFFFFF unknown
 *     unsigned int reason;          the sFlow discard reason code every one
 *                                   of its reasons maps to; 0xFFFFFFFF when
 *                                   none fits or they map to several
 *     unsigned hyper packets;       dropped, cumulative (all ones: unknown)
 *     string reasons<128>;          the platform's reasons it counts,
 *                                   comma-separated ("TTL,ACL_ANY")
 *   }
 *   E:12 sojourn_histograms {       (in each port's sample; the linux
 *                                   backend's bpf source)
 *     sojourn_histogram queues<>;   the port's measured queues, at most 16
 *   }
 *   struct sojourn_histogram {      (16 + 4 x n bytes)
 *     unsigned int queue;           egress (unicast) queue number
 *     unsigned int unmeasured;      packets that left the queue with no
 *                                   sojourn measured
 *     unsigned int first;           bucket of counts[0], 0..31
 *     unsigned int counts<>;        counts[i]: packets whose sojourn s in
 *                                   the queue fell in bucket b = first + i:
 *                                   2^b <= s < 2^(b+1) ns (bucket 0: s < 2
 *                                   ns, bucket 31: s >= 2^31 ns); at most
 *                                   32 - first elements; buckets outside
 *                                   are 0
 *   }
 *     All counts are cumulative since the backend opened (a reload that
 *     reopens it starts them again), modulo 2^32.  The counts of a queue
 *     sum to the packets it measured (its 0:1039 sojourns are among them).
 *   E:13 queue_ecn {                (in each port's sample, for its
 *                                   egress queues)
 *     unsigned hyper uc<>;          packets of unicast queue i that WRED
 *                                   marked CE instead of dropping them,
 *                                   cumulative
 *     unsigned hyper mc<>;          multicast queue i
 *   }
 *   E:14..E:15 reserved for further counter records.
 *
 *   Sample types (enterprise E):
 *   E:1 visibility_event_sample {   (laid out like 0:5)
 *     unsigned int sequence_number; per data source, its own sequence
 *     unsigned int source_id_type;  0 = port (ifIndex), 2 = device
 *     unsigned int source_id_index;
 *     unsigned int drops;           visibility events of this data source
 *                                   the agent lost (rejected by a sampler
 *                                   for rate reasons, or lost to a full
 *                                   event queue), cumulative
 *     unsigned int input;           ifIndex, 0 = unknown
 *     unsigned int output;          ifIndex, 0 = unknown
 *     flow_record records<>;        E:1 visibility_event first, then any
 *                                   of 0:1, 0:1036, 0:1039, 0:1040, 0:1043
 *   }
 *     Non-drop visibility events (high delay, queue forensics,
 *     congestion start and end).  Never sent as 0:3 (collectors scale
 *     those by the sampling rate); drops go out as 0:5.
 *
 *   Flow records inside E:1 samples and standard 0:5 discarded_packet
 *   samples only (the own record numbering is per enclosing sample: E:1
 *   here is not the counter record E:1):
 *   E:1 visibility_event {          (72 bytes)
 *     unsigned int type;            1 drop (only in 0:5), 2 high_delay,
 *                                   3 forensics, 4 congestion_start,
 *                                   5 congestion_end (only in E:1)
 *     unsigned int flags;           bit 0: a counters sample of the port
 *                                   was sent (congestion start); bit 1:
 *                                   last tagged forensics departure;
 *                                   bit 2: port scope (queue not
 *                                   meaningful); bit 3: the queue is a
 *                                   multicast queue
 *     unsigned int level;           high delay: 1-based level; else 0
 *     unsigned int severity;        high delay: the level's severity
 *     unsigned int tag;             high delay: the level's tag
 *     unsigned hyper event_id;      forensics: id of the drop that
 *                                   started the snapshot; else = own_id
 *     unsigned hyper own_id;        this event's id (one counter per
 *                                   agent, from 1)
 *     unsigned int queue;           egress queue, 0xFFFFFFFF unknown or
 *                                   port scope
 *     unsigned int reason;          drop, forensics: the drop's sFlow
 *                                   discard reason; else 0
 *     unsigned int depth;           bytes in the queue (the port, for
 *                                   port scope) at the event
 *     unsigned int delay;           ns: the packet's queue delay
 *     unsigned int peak;            congestion: peak depth in bytes
 *                                   (start: the depth); else 0
 *     unsigned hyper peak_time;     congestion: when the peak was; all
 *                                   ones when unknown and for other
 *                                   events
 *     unsigned hyper duration;      congestion end: ns from start to end;
 *                                   else 0
 *   }
 *     depth, delay and peak saturate at 0xFFFFFFFE, 0xFFFFFFFF unknown.
 *     In a 0:5 the record (type 1) is the drop's visibility event, so
 *     that a collector can join the drop with the forensics events it
 *     started (their event_id): event_id = own_id = the drop's id,
 *     queue and flags bits 2 and 3 as for other events, reason = the
 *     0:5's reason, depth; flags bits 0 and 1, level, severity, tag,
 *     delay, peak and duration 0, peak_time all ones.  Only 0:5
 *     notifications of drops that passed the visibility drop sampler
 *     carry it.
 *   E:2 flow_region_drop {          (32 bytes; only in a 0:5)
 *     unsigned int region;          the flow region the packet was
 *                                   classified to (its number in the
 *                                   configuration)
 *     unsigned int cause;           1 bound (the admission states), 2 the
 *                                   region's WRED, 3 the region's
 *                                   short-time change
 *     unsigned int unit;            0 bytes, 1 packets
 *     unsigned int region_pc;       the states the decision saw, in
 *     unsigned int ingress_pc;      hundredths of a percent of their
 *     unsigned int egress_pc;       bounds (above 10000 past the bound):
 *                                   the region's, the (ingress port,
 *                                   priority) and (egress port, priority)
 *                                   counts'
 *     unsigned int count;           the region's count at the drop (unit)
 *     unsigned int bound;           the regions' bound then (unit)
 *   }
 *     A drop made by the flow-based shared-buffer admission; count and
 *     bound saturate at 0xFFFFFFFE.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_PROTO_SFLOW_OWN_H
#define BSFLOWD_PROTO_SFLOW_OWN_H

#include <stdint.h>

#include "proto/sflow_encode.h"
#include "proto/xdr.h"

/* Counter record formats */
#define SFLOW_OWN_PORT_BUFFERS	1u
#define SFLOW_OWN_QUEUE_BUFFERS 2u
#define SFLOW_OWN_QUEUE_DELAYS	3u
#define SFLOW_OWN_PG_BUFFERS	4u
#define SFLOW_OWN_DEVICE_POOLS	5u
#define SFLOW_OWN_CPU_QUEUES	6u
#define SFLOW_OWN_SAMPLER_STATS 7u
#define SFLOW_OWN_INGRESS_ARB	8u
#define SFLOW_OWN_FLOW_REGIONS	9u
#define SFLOW_OWN_QUEUE_DROPS	10u
#define SFLOW_OWN_DROP_COUNTERS 11u
#define SFLOW_OWN_SOJOURN_HISTS 12u
#define SFLOW_OWN_QUEUE_ECN	13u
/* Sample types */
#define SFLOW_OWN_SMP_EVENT 1u /* visibility_event_sample */
/* Flow records inside an E:1 sample and a 0:5 */
#define SFLOW_OWN_VIS_EVENT	   1u /* visibility_event (also inside 0:5) */
#define SFLOW_OWN_REGION_DROP	   2u /* flow_region_drop (only inside 0:5) */
#define SFLOW_OWN_REGION_DROP_SIZE 32u
/* flow_region_drop.cause */
#define SFLOW_OWN_REGION_BOUND 1u
#define SFLOW_OWN_REGION_WRED  2u
#define SFLOW_OWN_REGION_STC   3u

/* visibility_event.type */
#define SFLOW_OWN_VIS_DROP	       1u /* only inside a 0:5, never in E:1 */
#define SFLOW_OWN_VIS_HIGH_DELAY       2u
#define SFLOW_OWN_VIS_FORENSICS	       3u
#define SFLOW_OWN_VIS_CONGESTION_START 4u
#define SFLOW_OWN_VIS_CONGESTION_END   5u
/* visibility_event.flags */
#define SFLOW_OWN_VIS_FLAG_PORT_SAMPLED (1u << 0) /* a counters sample of the port was sent */
#define SFLOW_OWN_VIS_FLAG_LAST		(1u << 1) /* last tagged forensics departure */
#define SFLOW_OWN_VIS_FLAG_PORT_SCOPE	(1u << 2) /* port scope: queue not meaningful */
#define SFLOW_OWN_VIS_FLAG_MULTICAST	(1u << 3) /* the queue is a multicast queue */

#define SFLOW_OWN_UNKNOWN32 0xFFFFFFFFu
#define SFLOW_OWN_MAX32	    0xFFFFFFFEu
#define SFLOW_OWN_UNKNOWN64 0xFFFFFFFFFFFFFFFFull

/* Wire sizes in bytes */
#define SFLOW_OWN_BUFFER_SIZE	   32u
#define SFLOW_OWN_QDELAY_SIZE	   16u
#define SFLOW_OWN_PG_SIZE	   64u
#define SFLOW_OWN_EVENT_HDR_SIZE   24u /* E:1 sample fields before the record count */
#define SFLOW_OWN_VIS_EVENT_SIZE   72u
#define SFLOW_OWN_SAMPLER_NAME_MAX 32u
#define SFLOW_OWN_IARB_SIZE	   140u
#define SFLOW_OWN_IARB_CAUSES	   7u
#define SFLOW_OWN_REGION_SIZE	   56u
#define SFLOW_OWN_REGIONS_MAX	   16u /* per E:9 record */
#define SFLOW_OWN_SOJOURN_BUCKETS  32u /* log2 buckets of E:12, ns */
#define SFLOW_OWN_SOJOURN_MIN_SIZE 16u /* a sojourn_histogram without counts */
#define SFLOW_OWN_SOJOURN_MAX	   16u /* queues per E:12 record */
/* A sampler_stat without its name's bytes: name length + 100 */
#define SFLOW_OWN_SAMPLER_MIN_SIZE 104u
#define SFLOW_OWN_QDROP_SIZE	   16u
/* drop_counter: limits of its strings, and its size with all three empty */
#define SFLOW_OWN_DROPCTR_NAME_MAX    32u
#define SFLOW_OWN_DROPCTR_REASONS_MAX 128u
#define SFLOW_OWN_DROPCTR_MIN_SIZE    28u
/* drop_counter.direction */
#define SFLOW_OWN_DIR_INGRESS 0u
#define SFLOW_OWN_DIR_EGRESS  1u

/* A 64-bit backend value as an own unsigned int: all ones (unknown) stays
 * unknown, anything else saturates at SFLOW_OWN_MAX32. */
static inline uint32_t sflow_own_u32(uint64_t v)
{
	if (v == SFLOW_OWN_UNKNOWN64)
		return SFLOW_OWN_UNKNOWN32;
	return v > SFLOW_OWN_MAX32 ? SFLOW_OWN_MAX32 : (uint32_t)v;
}

struct sflow_own_buffer {
	uint32_t cur_cells;
	uint32_t cur_bytes;
	uint32_t peak_cells;
	uint32_t peak_bytes;
	uint32_t alloc_cells;
	int32_t peak_pc;
	uint64_t peak_time_ns;
};

struct sflow_own_qdelay {
	uint32_t latest_ns;
	uint32_t max_ns;
	uint32_t count;
	uint32_t marker_ns;
};

struct sflow_own_pg {
	struct sflow_own_buffer shared;
	struct sflow_own_buffer headroom;
};

/* A decoded, validated variable-length array: n elements of a fixed wire
 * size starting at p (inside the decoder's input).  Read element i with
 * the accessor for its type. */
struct sflow_own_array {
	uint32_t n;
	const uint8_t *p;
};

struct sflow_own_port_buffers { /* E:1 */
	struct sflow_own_buffer ingress_uc, ingress_mc, egress_uc, egress_mc;
};

struct sflow_own_queue_buffers { /* E:2: elements are buffers */
	struct sflow_own_array uc, mc;
};

struct sflow_own_queue_delays { /* E:3: elements are qdelays */
	struct sflow_own_array uc, mc;
};

struct sflow_own_pg_buffers { /* E:4: elements are pgs */
	struct sflow_own_array pgs;
};

struct sflow_own_device_pools { /* E:5 */
	uint32_t cell_bytes;
	uint32_t total_cells;
	struct sflow_own_buffer uc, mc;
	struct sflow_own_array ingress, egress; /* buffers */
};

struct sflow_own_cpu_queues { /* E:6: elements are buffers */
	struct sflow_own_array queues;
};

/* Flow record E:1 inside an E:1 sample or a 0:5 (encoder input, decoder
 * output). */
struct sflow_own_vis_event {
	uint32_t type, flags, level, severity, tag;
	uint64_t event_id, own_id;
	uint32_t queue, reason, depth, delay, peak;
	uint64_t peak_time_ns, duration_ns;
};

/* One element of counter record E:7 (encoder input, decoder output).
 * name: NUL-terminated, at most SFLOW_OWN_SAMPLER_NAME_MAX bytes. */
struct sflow_own_sampler_stat {
	char name[SFLOW_OWN_SAMPLER_NAME_MAX + 1];
	uint64_t seen, passed, not_eligible, duplicate, limiter, recurrent, no_ticket, probability,
	    flow_filter, downstream;
	int64_t ticket_balance;
	uint32_t ticket_batch;
	uint64_t consumed_all;
};

/* E:7 decoded: n validated elements of varying length (the name) in the
 * len bytes at p (inside the decoder's input).  Read them in order with
 * sflow_own_sampler_next() or by index with sflow_own_sampler_at(). */
struct sflow_own_sampler_stats {
	uint32_t n;
	uint32_t len;
	const uint8_t *p;
};

struct sflow_own_iarb { /* E:8 (encoder input, decoder output) */
	uint64_t accelerated, not_accelerated, dropped;
	uint64_t by_cause[SFLOW_OWN_IARB_CAUSES];
	uint64_t transitions, congested_ns;
	uint32_t congested, am_cur, am_peak;
	int32_t am_cur_pc, am_peak_pc;
	uint32_t am_lat_min, am_lat_mean, am_lat_max, pb_lat_min, pb_lat_mean, pb_lat_max;
};

struct sflow_own_region { /* an element of E:9 */
	uint32_t region, cur, peak, bound;
	int32_t cur_pc, peak_pc;
	uint32_t state, flags;
	uint64_t admitted, dropped, mirrored;
};

struct sflow_own_flow_regions { /* E:9: elements are regions */
	uint32_t unit, total;
	struct sflow_own_array regions;
};

struct sflow_own_qdrop { /* an element of E:10 */
	uint64_t packets, bytes;
};

struct sflow_own_queue_drops { /* E:10: elements are qdrops */
	struct sflow_own_array uc, mc;
};

/* One element of E:11 (encoder input, decoder output); the strings
 * NUL-terminated, at most their limits. */
struct sflow_own_drop_counter {
	char name[SFLOW_OWN_DROPCTR_NAME_MAX + 1];
	char alias[SFLOW_OWN_DROPCTR_NAME_MAX + 1];
	uint32_t direction, reason;
	uint64_t packets;
	char reasons[SFLOW_OWN_DROPCTR_REASONS_MAX + 1];
};

/* E:11 decoded: n validated elements of varying length in the len bytes
 * at p; read them with sflow_own_drop_counter_next() / _at(). */
struct sflow_own_drop_counters {
	uint32_t n;
	uint32_t len;
	const uint8_t *p;
};

/* One element of E:12 (encoder input, decoder output): n counts of the
 * buckets first .. first + n - 1. */
struct sflow_own_sojourn {
	uint32_t queue, unmeasured, first, n;
	uint32_t counts[SFLOW_OWN_SOJOURN_BUCKETS];
};

/* E:12 decoded: n validated elements of varying length in the len bytes
 * at p (inside the decoder's input); read them with
 * sflow_own_sojourn_next() or sflow_own_sojourn_at(). */
struct sflow_own_sojourns {
	uint32_t n;
	uint32_t len;
	const uint8_t *p;
};

struct sflow_own_queue_ecn { /* E:13: elements are unsigned hypers */
	struct sflow_own_array uc, mc;
};

/* Flow record E:2 inside a 0:5 (encoder input, decoder output). */
struct sflow_own_region_drop {
	uint32_t region, cause, unit, region_pc, ingress_pc, egress_pc, count, bound;
};

struct sflow_own_record {
	uint32_t format;
	union {
		struct sflow_own_port_buffers port;
		struct sflow_own_queue_buffers queues;
		struct sflow_own_queue_delays delays;
		struct sflow_own_pg_buffers pgs;
		struct sflow_own_device_pools pools;
		struct sflow_own_cpu_queues cpu;
		struct sflow_own_sampler_stats samplers;  /* E:7 in counters samples */
		struct sflow_own_iarb iarb;		  /* E:8 */
		struct sflow_own_flow_regions regions;	  /* E:9 */
		struct sflow_own_queue_drops qdrops;	  /* E:10 */
		struct sflow_own_drop_counters dropctrs;  /* E:11 */
		struct sflow_own_sojourns sojourns;	  /* E:12 */
		struct sflow_own_queue_ecn ecn;		  /* E:13 */
		struct sflow_own_vis_event event;	  /* E:1 in E:1 samples and 0:5 */
		struct sflow_own_region_drop region_drop; /* E:2 in 0:5 */
	} u;
};

/* The fixed fields of sample E:1 (encoder input, decoder output). */
struct sflow_own_event_sample {
	uint32_t sequence_number;
	uint32_t source_id_type;
	uint32_t source_id_index;
	uint32_t drops;
	uint32_t input;
	uint32_t output;
};

struct sflow_own_sample {
	uint32_t format;
	union {
		struct sflow_own_event_sample event; /* SFLOW_OWN_SMP_EVENT */
	} u;
};

/* ---- decoding */

/* in_sample: the enclosing sample's tag (counter records, and flow
 * records of each own sample type, share format numbers).  Counter
 * records are known inside 0:2 and 0:4; the visibility_event record only
 * inside an own E:1 sample (a tag of an enterprise other than 0 and 4413
 * with format 1: sflow_decode() only decodes the records of own samples
 * of the configured enterprise) and inside a 0:5.  Anywhere else a
 * format is not known (1). */
/* 1 when own records in a sample tagged in_sample are numbered as flow
 * records of the event kind (E:1 = visibility_event): an own E:1 sample
 * or a 0:5; else 0. */
int sflow_own_event_context(uint32_t in_sample);
int sflow_own_decode_record(uint32_t format, uint32_t in_sample, struct sflow_r *r,
			    struct sflow_own_record *out);
/* Decodes the own sample's fixed fields; leaves the reader at the record
 * count. */
int sflow_own_decode_sample(uint32_t format, struct sflow_r *r, struct sflow_own_sample *out);
/* Name of an own record/sample format for printing, or NULL:
 * "port_buffers" ... "cpu_queues", "sampler_stats"; "visibility_event"
 * (in an E:1 sample or a 0:5); sample "visibility_event_sample". */
const char *sflow_own_record_name(uint32_t format, uint32_t in_sample);
const char *sflow_own_sample_name(uint32_t format);
/* Name of a visibility_event type: "drop", "high_delay", "forensics",
 * "congestion_start", "congestion_end"; NULL for others. */
const char *sflow_own_vis_type_name(uint32_t type);

/* Element i of a decoded array; 0, or -1 (and *out untouched) when i >= n. */
int sflow_own_buffer_at(const struct sflow_own_array *a, uint32_t i, struct sflow_own_buffer *out);
int sflow_own_qdelay_at(const struct sflow_own_array *a, uint32_t i, struct sflow_own_qdelay *out);
int sflow_own_pg_at(const struct sflow_own_array *a, uint32_t i, struct sflow_own_pg *out);
int sflow_own_region_at(const struct sflow_own_array *a, uint32_t i, struct sflow_own_region *out);
int sflow_own_qdrop_at(const struct sflow_own_array *a, uint32_t i, struct sflow_own_qdrop *out);
/* E:11 elements, as sflow_own_sampler_next / _at below. */
int sflow_own_drop_counter_next(const struct sflow_own_drop_counters *a, uint32_t *pos,
				struct sflow_own_drop_counter *out);
int sflow_own_drop_counter_at(const struct sflow_own_drop_counters *a, uint32_t i,
			      struct sflow_own_drop_counter *out);
/* "ingress", "egress" or "unknown". */
const char *sflow_own_direction_name(uint32_t direction);
/* Element i of an E:13 array (a count of CE marks). */
int sflow_own_u64_at(const struct sflow_own_array *a, uint32_t i, uint64_t *out);
/* Name of a flow_region_drop cause: "bound", "wred", "short_time_change";
 * NULL for others. */
const char *sflow_own_region_cause_name(uint32_t cause);
/* Name of an ingress_arbitration congestion input (by_cause index):
 * "am_fill" ... "egress_over"; NULL for i >= 7. */
const char *sflow_own_iarb_cause_name(uint32_t i);
/* E:7 elements.  next: *pos is a byte offset into the elements, 0 for the
 * first; returns 0 and advances it, or -1 after the last.  at: element i
 * (walks from the first), 0 or -1 when i >= n.  The name is copied and
 * NUL-terminated. */
int sflow_own_sampler_next(const struct sflow_own_sampler_stats *a, uint32_t *pos,
			   struct sflow_own_sampler_stat *out);
int sflow_own_sampler_at(const struct sflow_own_sampler_stats *a, uint32_t i,
			 struct sflow_own_sampler_stat *out);
/* The eight rejection counts in wire order (not_eligible .. downstream),
 * and their names ("not_eligible" ... "downstream"; NULL for i >= 8). */
#define SFLOW_OWN_SAMPLER_REJECTS 8u
void sflow_own_sampler_rejects(const struct sflow_own_sampler_stat *st,
			       uint64_t out[SFLOW_OWN_SAMPLER_REJECTS]);
const char *sflow_own_sampler_reject_name(uint32_t i);
/* seen == passed + the eight rejection counts (without overflow). */
int sflow_own_sampler_adds_up(const struct sflow_own_sampler_stat *st);

/* ---- encoding: each adds one record (tag enterprise:format) to the
 * counters sample s being written through w; errors are sticky in w->err. */

void sflow_own_enc_port_buffers(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
				const struct sflow_own_port_buffers *b);
void sflow_own_enc_queue_buffers(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
				 const struct sflow_own_buffer *uc, uint32_t n_uc,
				 const struct sflow_own_buffer *mc, uint32_t n_mc);
void sflow_own_enc_queue_delays(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
				const struct sflow_own_qdelay *uc, uint32_t n_uc,
				const struct sflow_own_qdelay *mc, uint32_t n_mc);
void sflow_own_enc_pg_buffers(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
			      const struct sflow_own_pg *pgs, uint32_t n);
/* E:5: the arrays come as C arrays (the ingress/egress members of a
 * decoded value are ignored). */
void sflow_own_enc_device_pools(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
				uint32_t cell_bytes, uint32_t total_cells,
				const struct sflow_own_buffer *uc,
				const struct sflow_own_buffer *mc,
				const struct sflow_own_buffer *ingress, uint32_t n_ingress,
				const struct sflow_own_buffer *egress, uint32_t n_egress);
void sflow_own_enc_cpu_queues(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
			      const struct sflow_own_buffer *q, uint32_t n);
/* E:7 in the device's counters sample: n samplers (st may be NULL when n
 * is 0).  A name without a NUL in its 33 bytes (longer than 32) is
 * SFLOW_ERR_INVALID, and nothing is written. */
void sflow_own_enc_sampler_stats(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
				 const struct sflow_own_sampler_stat *st, uint32_t n);

/* E:8 in a port's or the device's counters sample. */
void sflow_own_enc_iarb(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
			const struct sflow_own_iarb *a);
/* E:9 in the device's counters sample: n regions given (at most
 * SFLOW_OWN_REGIONS_MAX, else SFLOW_ERR_INVALID and nothing written),
 * total of them in use. */
void sflow_own_enc_flow_regions(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
				uint32_t unit, uint32_t total, const struct sflow_own_region *r,
				uint32_t n);
/* E:10 in a port's counters sample: CE marks of its n_uc unicast and
 * n_mc multicast queues. */
void sflow_own_enc_queue_ecn(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
			     const uint64_t *uc, uint32_t n_uc, const uint64_t *mc, uint32_t n_mc);
/* E:2 among a 0:5's flow records. */
void sflow_own_enc_region_drop(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
			       const struct sflow_own_region_drop *d);

/* E:10 in a port's counters sample. */
void sflow_own_enc_queue_drops(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
			       const struct sflow_own_qdrop *uc, uint32_t n_uc,
			       const struct sflow_own_qdrop *mc, uint32_t n_mc);
/* E:11 in a port's or the device's counters sample: n counters.  A string
 * without a NUL within its limit + 1 bytes is SFLOW_ERR_INVALID, and
 * nothing is written. */
void sflow_own_enc_drop_counters(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
				 const struct sflow_own_drop_counter *c, uint32_t n);

/* ---- encoding a visibility event sample (a 0:5 adds the drop's record
 * with sflow_own_enc_vis_event() among its flow records):
 *
 *	sflow_own_enc_event_begin(&w, &s, enterprise, &hdr);   sample E:1
 *	sflow_own_enc_vis_event(&w, &s, enterprise, &ev);      record E:1, first
 *	sflow_enc_sampled_header(&w, &s, &h);                  then standard flow
 *	sflow_enc_egress_queue(&w, &s, q); ...                 records, any of
 *	                         0:1, 0:1036, 0:1039, 0:1040, 0:1043
 *	sflow_enc_sample_end(&w, &s);
 *
 * and hand the bytes to sflow_builder_add() like any other sample. */
void sflow_own_enc_event_begin(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
			       const struct sflow_own_event_sample *h);
void sflow_own_enc_vis_event(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
			     const struct sflow_own_vis_event *ev);

/* E:12 in a port's counters sample: n queues (at most
 * SFLOW_OWN_SOJOURN_MAX, each with first + n <= 32, else
 * SFLOW_ERR_INVALID and nothing written). */
void sflow_own_enc_sojourns(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
			    const struct sflow_own_sojourn *h, uint32_t n);
/* The wire size of one element. */
size_t sflow_own_sojourn_size(const struct sflow_own_sojourn *h);
/* E:12 elements, as sflow_own_sampler_next / _at. */
int sflow_own_sojourn_next(const struct sflow_own_sojourns *a, uint32_t *pos,
			   struct sflow_own_sojourn *out);
int sflow_own_sojourn_at(const struct sflow_own_sojourns *a, uint32_t i,
			 struct sflow_own_sojourn *out);

#endif
