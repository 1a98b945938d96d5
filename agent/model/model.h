/*
 * model.h - the switch model library: the one public header of libmodel.
 *
 * A packet-level discrete-event model of a shared-buffer switch MMU on a
 * nanosecond virtual clock.  Traffic comes from sources (pkt.h); the
 * model admits packets against ingress (priority group, service pool) and
 * egress (queue, service pool) limits, schedules each egress port with
 * strict priority and DWRR at line rate, and keeps the telemetry a backend
 * reports: occupancy and windowed peaks, interface counters, drops by
 * cause, queue delay (non-tagged, marker, ground truth)
 * and a bounded event ring (drops, sampled departures, PFC, and per-queue
 * enqueues and dequeues where asked).
 *
 * The library has no dependency on the daemon.  It is deterministic for a
 * given configuration, seed and sources.  Memory is proportional to
 * ports x queues plus packets in the buffer (and packets held back at
 * paused senders); packet records come from a free-list pool.
 *
 * Typical use:
 *
 *	struct model_config cfg;
 *	struct model_err err;
 *	model_config_init(&cfg, 64, 100000000000ULL);	// 64 x 100G
 *	cfg.ports[3].sampling_rate = 1000;		// tweak
 *	struct model *m = model_new(&cfg, &err);	// copies cfg
 *	model_config_release(&cfg);
 *	model_add_source(m, &src);			// engine owns src now
 *	model_run(m, MODEL_T_END);			// or model_advance_to()
 *	... model_read_buffers(), model_events_read() ...
 *	model_free(m);
 *
 * Units: time in ns on the virtual clock (starts at 0); buffer in cells
 * (cfg.cell_bytes each, a packet takes ceil(len / cell_bytes) cells) and
 * bytes; speeds in bit/s.
 *
 * Timing: a packet arrives when its last bit is in (model_pkt.t_ns); it is
 * admitted or dropped at once; it stays at the head of its queue, and in
 * the buffer, while it is being sent, and departs when its last bit is
 * out: (len + overhead_bytes) * 8 / speed after transmission began
 * (kept to the femtosecond per port, also across idle time: a port that
 * went idle at ns t with its last bit out at t + f (f < 1 ns) starts a
 * transmission at t only at t + f; events on whole ns, the ns below the
 * exact time).  So no port sends above its line rate at any speed.
 * Sojourn = departure - arrival; an idle switch forwards a packet in its
 * serialization time (in whole ns: rounded down; exact in the
 * ground-truth sum, struct model_delay sum_sub_fs).
 *
 * Events at the same ns run departures first, then arrivals, then PFC
 * releases and the marker tick.  A packet whose last bit leaves at ns t
 * has left the buffer and its queue at t, so an arrival at t meets
 * neither: it sees the space and the depth without it, and a marker
 * that departs at t hands over to the queue's tail before t's arrivals
 * (struct model_marker, test_model_basic test_same_ns_order).  Arrivals at the same ns from
 *different sources take turns fairly: they run in the order of a key drawn afresh for each source
 *and period of 65536 ns (65.5 us), model_tie_key(t, source index) (lowest first, then the lower
 *source index; a source's packets at that ns together, in its order), so perfectly synchronised
 *senders each go first equally often in the long run instead of the lowest index always.
 *
 * Admission order: forwarding drop (model_pkt.fwd_drop) -> device full ->
 * ingress PG min / shared limit / ingress pool (lossless: headroom) ->
 * per copy: queue length limit (limit_pkts) -> WRED (or its ECN marking,
 * struct model_wred_config) -> queue min / shared limit / egress pool.
 * The first that fails names the drop cause.
 * A packet from a lossless PG is never dropped at egress (as a switch
 * exempts its lossless queues from egress drops): its copies are queued
 * even beyond the queue's and the egress pool's limits (and WRED), and
 * its PG's PFC (ingress) is what holds its senders back.
 *
 * Not thread-safe: one model, one thread.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_MODEL_MODEL_H
#define BSFLOWD_MODEL_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "agent/model/pkt.h"

#define MODEL_MAX_PORTS	    4096 /* front-panel ports; the CPU port is extra */
#define MODEL_MAX_QUEUES    8	 /* unicast, and multicast, queues per port */
#define MODEL_NUM_PG	    8	 /* priority groups per port */
#define MODEL_NUM_TC	    8	 /* traffic classes (model_pkt.tc) */
#define MODEL_MAX_POOLS	    4	 /* ingress, and egress, service pools */
#define MODEL_NUM_WINDOWS   4	 /* independent read windows (reader ids): peaks, delays */
#define MODEL_CELL_DEFAULT  256
#define MODEL_EVENT_HDR_MAX 256 /* header bytes an event can carry */
#define MODEL_T_END	    UINT64_MAX
#define MODEL_MIN_SPEED	    1000000000ULL   /* 1G */
#define MODEL_MAX_SPEED	    800000000000ULL /* 800G */

/* ------------------------------------------------------------------ */
/* Configuration                                                        */
/* ------------------------------------------------------------------ */

enum model_limit_mode {
	MODEL_LIMIT_STATIC = 0, /* shared use <= cells */
	MODEL_LIMIT_DYNAMIC = 1 /* shared use <= alpha * free cells of the pool */
};

/*
 * A shared-use limit.  "Shared use" of an object is its occupancy above
 * its minimum guarantee (min_cells); it is drawn from the object's service
 * pool.  Admission of a packet of c cells: use_after = used + c; the part
 * above min must satisfy shared_after <= limit (evaluated before the
 * packet is added: dynamic limit = alpha * (pool size - pool shared use)),
 * and the pool must have room for the growth of shared use.
 */
struct model_limit {
	uint8_t mode;	/* enum model_limit_mode */
	uint32_t cells; /* static limit */
	double alpha;	/* dynamic threshold factor, e.g. 1/128 .. 8 */
};

struct model_pg_config {
	uint32_t min_cells;	   /* guarantee, not drawn from the pool */
	struct model_limit shared; /* shared limit in the ingress pool */
	uint8_t pool;		   /* ingress service pool index */
	uint8_t lossless;	   /* 1: PFC class (headroom, XOFF/XON) */
	uint32_t headroom_cells;   /* lossless only: absorbs packets after the
				      shared limit is reached (see PFC below) */
	uint32_t xoff_cells;	   /* XOFF when shared use >= xoff_cells;
				      0: when a packet first goes to headroom */
	uint32_t xon_cells;	   /* XON when shared use <= xon_cells and the
				      headroom is empty */
};

/*
 * WRED, and ECN marking.  The depth it goes by is the queue's depth in
 * bytes before the packet, or with gain g > 0 its average: at each copy
 * offered to the queue, avg += (depth - avg) / 2^g (a double; no decay
 * while the queue gets no packet).  Below min_bytes a packet passes; at
 * max_bytes and above it is hit; in between with probability max_prob x
 * (avg - min) / (max - min) (one draw of the model's generator).  A hit
 * packet is dropped (MODEL_DROP_WRED) unless ecn is on and it is
 * ECN-capable (model_pkt.tos ECN field ECT(0), ECT(1) or CE): then it is marked CE
 * instead and goes on to the queue's other limits (which may still drop
 * it).  A packet of a lossless PG is never dropped here, but is marked.
 */
struct model_wred_config {
	uint8_t enabled;
	uint8_t ecn;	    /* 1: mark ECN-capable packets CE instead of dropping */
	uint8_t gain;	    /* 0..15: average weight 2^-gain; 0: the depth itself */
	uint32_t min_bytes; /* (average) depth below which nothing is hit */
	uint32_t max_bytes; /* depth at and above which every packet is hit */
	double max_prob;    /* hit probability just below max_bytes; linear
			       from 0 at min_bytes */
};

enum model_sched {
	MODEL_SCHED_SP = 0,  /* strict priority: higher index first, all SP
				queues before the DWRR group */
	MODEL_SCHED_DWRR = 1 /* deficit weighted round robin among DWRR queues */
};

struct model_queue_config {
	uint32_t min_cells;
	struct model_limit shared; /* shared limit in the egress pool */
	uint8_t pool;		   /* egress service pool index */
	uint8_t sched;		   /* enum model_sched */
	uint32_t weight;	   /* DWRR: quantum = weight * dwrr_quantum bytes;
				      the deficit counts frame bytes (len), and
				      the port's overhead_bytes too with
				      model_config.dwrr_wire */
	uint32_t limit_pkts;	   /* 0, or tail-drop above this many packets
				      in the queue (the one in transmission
				      included): a "queue length" limit */
	struct model_wred_config wred;
};

struct model_port_config {
	uint32_t ifindex;
	char name[32];
	uint64_t speed_bps;	 /* MODEL_MIN_SPEED .. MODEL_MAX_SPEED */
	uint32_t overhead_bytes; /* preamble + IFG added to each frame on the
				    wire; model_config_init sets 20 */
	uint8_t n_ucq;		 /* unicast queues 1..8 */
	uint8_t n_mcq;		 /* multicast queues 0..8 */
	uint32_t sampling_rate;	 /* 1-in-N ingress sampling, 0 = off */
	uint64_t pfc_delay_ns;	 /* cable + response delay: an XOFF decided at
				    t stops this port's sender at t + delay;
				    an XON restarts it at t + delay */
	uint8_t tc_to_pg[MODEL_NUM_TC];
	uint8_t tc_to_ucq[MODEL_NUM_TC];
	uint8_t tc_to_mcq[MODEL_NUM_TC];
	struct model_pg_config pg[MODEL_NUM_PG];
	struct model_queue_config ucq[MODEL_MAX_QUEUES];
	struct model_queue_config mcq[MODEL_MAX_QUEUES];
};

/* A multicast packet (model_pkt.mc_group = g) is stored once and queued
 * to every port of group g except its ingress port, in the multicast
 * queue tc_to_mcq[tc] of each (the unicast queue tc_to_ucq[tc] on a port
 * without multicast queues).  Each copy is admitted or dropped on its own. */
struct model_mc_group {
	uint16_t nports;
	uint16_t ports[64]; /* egress port indices (the CPU port = nports of
			       the config allowed) */
};

struct model_iarb_config;
struct model_fb_config;
struct model_config {
	uint32_t cell_bytes;			  /* default MODEL_CELL_DEFAULT */
	uint32_t total_cells;			  /* whole buffer; no admission beyond it */
	uint8_t n_ing_pools;			  /* 1..4 */
	uint8_t n_egr_pools;			  /* 1..4 */
	uint32_t ing_pool_cells[MODEL_MAX_POOLS]; /* shared pool sizes */
	uint32_t egr_pool_cells[MODEL_MAX_POOLS];

	uint32_t nports;		 /* 1..MODEL_MAX_PORTS */
	struct model_port_config *ports; /* nports entries (heap, see init) */
	struct model_port_config cpu;	 /* the CPU port, index nports */

	uint32_t n_mc_groups;		  /* groups are numbered 1..n */
	struct model_mc_group *mc_groups; /* n_mc_groups entries (heap) */

	uint64_t seed;		     /* WRED draws and sampling skips */
	uint32_t dwrr_quantum;	     /* bytes per DWRR weight unit (default 2048) */
	uint8_t dwrr_wire;	     /* 1: a DWRR deficit counts each frame's
					overhead_bytes (preamble and gap) too,
					so that shares are of line time; 0
					(default): frame bytes only */
	uint32_t event_capacity;     /* event ring slots (default 4096) */
	uint32_t event_hdr_bytes;    /* header bytes copied into events
					(default 128, max MODEL_EVENT_HDR_MAX) */
	uint64_t marker_tick_ns;     /* background marker refresh period
					(default 1000 ns; 0 = no background) */
	uint32_t marker_tick_queues; /* queues refreshed per tick, round robin
					(default 64; 0 = all) */
	/* optional mechanisms, NULL: off (heap, freed by
	 * model_config_release; model_new copies them): ingress
	 * arbitration with accelerated memory (model_iarb.h), flow-based
	 * shared-buffer admission (model_flowbuf.h) */
	const struct model_iarb_config *iarb;
	const struct model_fb_config *fb;
};

/*
 * Fill *cfg with a usable default switch: nports ports of speed_bps named
 * "port<i>" with ifIndex i+1, 8 unicast and 8 multicast queues, 8 PGs (tc
 * i -> PG i, queue i), one ingress and one egress pool, 256-byte cells,
 * buffer 16 MB (65536 cells) or more for big switches, dynamic thresholds
 * alpha 1 on PGs and queues with small minimums, all queues SP, no WRED,
 * no lossless PGs, no sampling, CPU port 1G with 8+0 queues, seed 1.
 * Allocates cfg->ports; returns 0, or -1 (nports out of range / memory).
 */
int model_config_init(struct model_config *cfg, unsigned nports, uint64_t speed_bps);
/* The tie key of an arrival at ns t from source src (model_add_source
 * order, from 0): the top 16 bits of the splitmix64 finalizer of
 * (t >> MODEL_TIE_SHIFT) + (src + 1) x 0x9E3779B97F4A7C15, i.e. a fresh
 * pseudo-random order of the sources for every period of 65536 ns (see
 * Timing above). */
#define MODEL_TIE_SHIFT 16
static inline uint32_t model_tie_key(uint64_t t, uint32_t src)
{
	uint64_t z = (t >> MODEL_TIE_SHIFT) + (uint64_t)(src + 1) * 0x9E3779B97F4A7C15ULL;
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return (uint32_t)((z ^ (z >> 31)) >> 48);
}

/* Free what model_config_init (or the caller, with malloc) put in cfg. */
void model_config_release(struct model_config *cfg);
/* Can the model hold a buffer of `cells` cells of `cell_bytes` bytes
 * (1 or 0)?  It keeps a buffer object's cells and bytes in one 64-bit
 * counter (cells + 65536 below 2^(64 - the bit length of its bytes)):
 * any buffer up to 16 GiB fits with cells of 64 bytes or more; 64 GiB
 * needs cells of more than 512 bytes. */
int model_buffer_fits(uint32_t cells, uint32_t cell_bytes);

/* ------------------------------------------------------------------ */
/* Lifecycle, sources, running                                          */
/* ------------------------------------------------------------------ */

struct model;

struct model_err {
	char msg[256];
};

/* Write the message into err (nothing if err is NULL); returns -1, for
 * "return model_err_set(err, ...)" in validation code. */
int model_err_set(struct model_err *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Validate cfg and build a model (cfg is copied).  NULL on error with a
 * message in err naming the field and value. */
struct model *model_new(const struct model_config *cfg, struct model_err *err);
/* Frees everything, and calls each source's free(). */
void model_free(struct model *m);

/* The optional mechanisms of a model, NULL when off (their counters:
 * model_iarb_read, model_fb_read). */
struct model_iarb *model_iarb_of(struct model *m);
struct model_fb *model_fb_of(struct model *m);

/* The copied configuration (for describe()). */
const struct model_config *model_config_of(const struct model *m);

/*
 * Add a source (any number; each may feed any ingress ports).  The model
 * takes ownership: src->free(state) is called at model_free (not when the
 * source is exhausted, so header bytes stay valid while packets are in the
 * buffer).  Packets must come in non-decreasing t_ns; a packet earlier than
 * the clock is taken as arriving now.  Packets with bad ports, tc, length
 * or group are dropped and counted in stats.bad_pkts when the engine takes
 * them from the source (a batch at a time from a source with next_batch;
 * not checked for a source whose promise, model_source.ports and .groups,
 * fits the model).  Returns 0 or -1.
 */
int model_add_source(struct model *m, const struct model_source *src);

/* Process every event with time <= t_ns; the clock is then t_ns (it never
 * goes back; an earlier t_ns is a no-op).  Returns 0. */
int model_advance_to(struct model *m, uint64_t t_ns);

/* The same with a bound on the work: stop after max_events engine events
 * (a packet costs about two) and return 1 with the clock at the last event
 * processed, or return 0 as model_advance_to() does.  For the daemon's
 * event loop: call again on the next tick; model_now() tells how far
 * behind the wall clock the model runs. */
int model_advance_bounded(struct model *m, uint64_t t_ns, uint64_t max_events);

/* Run as fast as possible until every source is exhausted and the switch
 * has drained (returns 0; the clock is at the last event), or until the
 * clock reaches t_end_ns (returns 1; MODEL_T_END = no limit).  Also
 * returns 0 when nothing more can happen although packets remain (an
 * egress class paused with model_set_egress_pause and never released). */
int model_run(struct model *m, uint64_t t_end_ns);

uint64_t model_now(const struct model *m);

/* 1 if nothing is buffered, held at a paused sender, or left in sources. */
int model_idle(const struct model *m);

/*
 * Downstream PFC received on egress port `port`: queues whose class bit is
 * set in class_mask (bit q = unicast queue q and multicast queue q) are
 * not scheduled from now on until cleared (a packet in transmission
 * finishes).  Returns 0, or -1 on a bad port.
 */
int model_set_egress_pause(struct model *m, unsigned port, uint8_t class_mask);

/* ------------------------------------------------------------------ */
/* Telemetry: buffer occupancy and peaks                                */
/* ------------------------------------------------------------------ */

/*
 * One buffer object.  cur_* is the occupancy now; peak_* the highest
 * occupancy (in cells; bytes at that moment) since the previous read of
 * the same window, at time peak_t_ns; alloc_cells the allocation the BST
 * percentage is computed against (100 * peak_cells / alloc_cells),
 * evaluated at the time of the peak:
 *
 *   device uc / mc     total_cells
 *   ingress pool i     ing_pool_cells[i]   (occupancy = shared use in it;
 *                                          bytes = cells * cell_bytes)
 *   egress pool j      egr_pool_cells[j]   (likewise)
 *   PG                 min + shared limit (dynamic: alpha * free cells of
 *                      its pool at the time of the peak); occupancy
 *                      excludes headroom
 *   PG headroom        headroom_cells; occupancy = cells in headroom
 *   queue              min + shared limit (dynamic: as for PGs)
 *   port ingress uc/mc sum of the port's PG allocations (dynamic limits
 *                      evaluated at the time of the port's peak)
 *   port egress uc/mc  sum of the allocations of the port's unicast
 *                      (multicast) queues, likewise
 *   CPU port           as any port (index nports)
 *
 * Multicast: a packet's cells are stored once.  Device mc, ingress PG and
 * port ingress mc count them once; every multicast queue holding a copy
 * (and its egress pool, port egress mc) is charged the packet's cells.
 * A port without multicast queues takes copies in its unicast queue (and
 * counts them as unicast at egress).  Unicast and multicast are apart for
 * device, port and queue; PGs and pools count both.
 *
 * A read of window w (0..MODEL_NUM_WINDOWS-1) returns and resets only w's
 * peaks; the other windows keep theirs.
 */
struct model_occ {
	uint32_t cur_cells;
	uint32_t peak_cells;
	uint64_t cur_bytes;
	uint64_t peak_bytes;
	uint64_t peak_t_ns;
	uint32_t alloc_cells;
};

struct model_port_buffers {
	struct model_occ ing_uc, ing_mc; /* port ingress */
	struct model_occ egr_uc, egr_mc; /* port egress */
	struct model_occ pg[MODEL_NUM_PG];
	struct model_occ pg_headroom[MODEL_NUM_PG];
	struct model_occ ucq[MODEL_MAX_QUEUES]; /* n_ucq used */
	struct model_occ mcq[MODEL_MAX_QUEUES]; /* n_mcq used */
	uint8_t pfc_paused;			/* bit g: PG g has XOFF out now */
};

struct model_buffers {
	uint64_t t_ns;	 /* when read */
	uint32_t nports; /* entries in ports[]: config nports + 1 (CPU last) */
	struct model_occ dev_uc, dev_mc;
	struct model_occ ing_pool[MODEL_MAX_POOLS];
	struct model_occ egr_pool[MODEL_MAX_POOLS];
	struct model_port_buffers *ports;
};

/* The device-wide objects alone (model_read_device_buffers). */
struct model_device_buffers {
	uint64_t t_ns; /* when read */
	struct model_occ dev_uc, dev_mc;
	struct model_occ ing_pool[MODEL_MAX_POOLS]; /* n_ing_pools used, rest 0 */
	struct model_occ egr_pool[MODEL_MAX_POOLS]; /* n_egr_pools used, rest 0 */
};

/*
 * Per-object reads, O(one port) each: a reader that reads the switch one
 * port at a time closes window w of exactly what it reads.
 *
 * model_read_port_buffers: fill *out with port `port` (0..nports; nports
 * is the CPU port) and close window w's peak period of that port's
 * objects only (port ingress/egress, PGs, headroom, queues).  Other ports,
 * the device and the pools keep their window-w peaks.
 *
 * model_read_device_buffers: fill *out with the device uc/mc and the
 * service pools and close window w of those objects only (read the CPU
 * port with model_read_port_buffers(m, w, nports, ...)).
 *
 * Both return 0, or -1 on a bad window or port.
 */
int model_read_port_buffers(struct model *m, unsigned window, unsigned port,
			    struct model_port_buffers *out);
int model_read_device_buffers(struct model *m, unsigned window, struct model_device_buffers *out);

/* Allocate a snapshot sized for m (free with model_buffers_free). */
struct model_buffers *model_buffers_new(const struct model *m);
void model_buffers_free(struct model_buffers *b);
/* Fill b with every object (device, pools, every port and the CPU port)
 * and close window w's peak period of all of them: the same as
 * model_read_device_buffers and model_read_port_buffers of every port.
 * Returns 0, -1 on a bad w. */
int model_read_buffers(struct model *m, unsigned window, struct model_buffers *b);

/* ------------------------------------------------------------------ */
/* Telemetry: counters, drops                                           */
/* ------------------------------------------------------------------ */

/* Drop causes; model_drop_reason() gives the sFlow reason code. */
enum model_drop_cause {
	MODEL_DROP_ING_LIMIT = 0, /* ingress PG/pool/device limit  -> 259 */
	MODEL_DROP_EGR_LIMIT,	  /* egress queue/pool/length limit -> 259 */
	MODEL_DROP_WRED,	  /* WRED                           -> 260 */
	MODEL_DROP_TTL,		  /* fwd_drop 257 ttl_exceeded */
	MODEL_DROP_ACL,		  /* fwd_drop 258 acl */
	MODEL_DROP_BLACKHOLE,	  /* fwd_drop 269 blackhole_route */
	MODEL_DROP_FWD_OTHER,	  /* any other fwd_drop code (kept in events) */
	MODEL_DROP_NCAUSES
};

#define MODEL_REASON_TTL_EXCEEDED    257
#define MODEL_REASON_ACL	     258
#define MODEL_REASON_NO_BUFFER_SPACE 259
#define MODEL_REASON_RED	     260
#define MODEL_REASON_BLACKHOLE_ROUTE 269
#define MODEL_REASON_UNKNOWN	     256 /* (all copies of a multicast packet dropped) */

#define MODEL_REASON_UNKNOWN 256

/* The cause's sFlow reason code (MODEL_REASON_UNKNOWN for
 * MODEL_DROP_FWD_OTHER, whose events carry their own code) and its name
 * ("?" for no cause); the cause of a forwarding drop with code `code`;
 * the code of a forwarding cause's name, case-insensitive (-1: not one).
 * model_drop.c holds the table. */
unsigned model_drop_reason(enum model_drop_cause c);
const char *model_drop_cause_name(enum model_drop_cause c);
enum model_drop_cause model_drop_cause_of_fwd(unsigned code);
int model_drop_fwd_code(const char *name, uint16_t *code);

/* Cumulative; in_* count packets received on the port and not discarded
 * at ingress (IF-MIB's ifIn*Pkts: delivered; the discarded ones are in
 * in_discards only; a packet dropped later, at egress, was delivered),
 * out_* copies transmitted.  Unicast/multicast/broadcast is taken from the
 * destination MAC when the packet has >= 6 header bytes, else from
 * mc_group.  in_discards: packets dropped at ingress (forwarding drops and
 * ingress limits); out_discards: copies dropped at egress admission or by
 * WRED for this egress port. */
struct model_if_counters {
	uint64_t in_octets, in_ucast, in_mcast, in_bcast, in_discards;
	uint64_t out_octets, out_ucast, out_mcast, out_bcast, out_discards;
	uint64_t sample_pool;		 /* packets that could have been sampled */
	uint64_t samples_marked;	 /* packets marked for sampling at ingress */
	uint64_t samples_dropped;	 /* marked packets dropped (their sample
					    event has the drop's reason) */
	uint64_t samples_lost;		 /* marked packets that departed but whose
					    sample event the full event ring
					    could not take (counted for the
					    packet's ingress port) */
	uint64_t pfc_xoff[MODEL_NUM_PG]; /* XOFF transitions per PG */
	/* PFC per PG, for bsflow-sim (appended; nothing on the wire): */
	uint64_t pfc_xoff_ns[MODEL_NUM_PG];  /* time with XOFF out (sent and not yet
						followed by XON), up to the read */
	uint64_t pfc_held[MODEL_NUM_PG];     /* packets its paused sender held
						back, cumulative */
	uint64_t pfc_held_now[MODEL_NUM_PG]; /* of them, still held at the read */
};

/* Drops by cause: by ingress port (ingress-side causes), by egress port
 * (egress causes), and per queue (every copy dropped that was headed for
 * the queue, by cause, forwarding drops excepted). */
struct model_port_drops {
	uint64_t in[MODEL_DROP_NCAUSES];
	uint64_t out[MODEL_DROP_NCAUSES];
	uint64_t ucq[MODEL_MAX_QUEUES][MODEL_DROP_NCAUSES];
	uint64_t mcq[MODEL_MAX_QUEUES][MODEL_DROP_NCAUSES];
	/* not drops: copies WRED marked CE instead (struct
	 * model_wred_config), per egress queue and in all (marked copies
	 * that a queue limit then dropped are not counted) */
	uint64_t ecn_ucq[MODEL_MAX_QUEUES], ecn_mcq[MODEL_MAX_QUEUES], ecn;
};

int model_read_counters(const struct model *m, unsigned port, struct model_if_counters *c);
int model_read_drops(const struct model *m, unsigned port, struct model_port_drops *d);

/* Whole-switch accounting (conservation: arrived = fwd_dropped +
 * ing_dropped + admitted; copies = copies_departed + copies_dropped +
 * copies_buffered, where every admitted unicast packet is one copy and a
 * multicast packet is one copy per group member).  admitted and
 * copies_buffered are computed from the others at the read; model_audit
 * counts the copies in the queues against copies_buffered. */
struct model_stats {
	uint64_t arrived;	     /* packets that reached ingress */
	uint64_t fwd_dropped;	     /* dropped by the forwarding pipeline */
	uint64_t ing_dropped;	     /* dropped at ingress admission */
	uint64_t admitted;	     /* passed ingress admission */
	uint64_t copies;	     /* copies offered to egress admission */
	uint64_t copies_dropped;     /* egress admission + WRED */
	uint64_t copies_departed;    /* transmitted */
	uint64_t copies_buffered;    /* in queues now */
	uint64_t pkts_buffered;	     /* distinct packets in the buffer now */
	uint64_t held;		     /* held at paused senders now */
	uint64_t bad_pkts;	     /* rejected source packets */
	uint64_t ecn_marked;	     /* copies WRED marked CE (model_port_drops ecn) */
	uint64_t events_lost;	     /* event ring overflow */
	uint64_t events;	     /* events queued in total */
	uint64_t n_events_processed; /* engine events (for benchmarks; counted
					when model_run or model_advance_*
					returns) */
	uint32_t cells_used;	     /* device cells now */
};

void model_get_stats(const struct model *m, struct model_stats *s);

/* ------------------------------------------------------------------ */
/* Telemetry: queue delay                                               */
/* ------------------------------------------------------------------ */

/*
 * Per queue, as seen by one read window (reader id 0..MODEL_NUM_WINDOWS-1,
 * independent of the buffer peak windows of the same number).  "Since the
 * last read" values are since the previous model_read_delay() of the same
 * queue and window (or since the start): a read of window w resets only
 * w's maxima and count; the other windows keep theirs.  Times in ns; a
 * packet's sojourn is departure (last bit out) - arrival (last bit in).
 */
#define MODEL_DELAY_HIST 64 /* bucket b: sojourn in [2^(b-1), 2^b) ns; b=0: 0 */
struct model_delay {
	/* non-tagged method */
	uint64_t nt_latest_ns; /* last measurement (0 if none yet) */
	uint64_t nt_max_ns;    /* max since this window's last read */
	uint64_t nt_count;     /* measurements, cumulative */
	uint64_t nt_sum_ns;    /* their sum, cumulative.  Their mean is biased
				  low against the true mean delay (by 21-48 %
				  at load 0.5-0.9 for M/D/1): a measurement
				  starts only when none is running, i.e. with a
				  packet that just found the queue short */
	uint64_t nt_win_count; /* measurements since this window's last read */
	/* marker method */
	uint64_t mk_delay_ns; /* current stored delay */
	uint64_t mk_max_ns;   /* max stored delay since this window's last read
				 (at least the current delay at that read) */
	/* ground truth over every departed packet, cumulative */
	uint64_t n;
	uint64_t sum_ns;     /* sojourns in whole ns (each rounded down) */
	uint64_t sum_sub_fs; /* what they leave out, in fs: the exact sum is
				sum_ns + sum_sub_fs / 1e6 ns */
	uint64_t max_ns;
	uint64_t hist[MODEL_DELAY_HIST];
};

/* Fill d for unicast (mc 0) or multicast queue `queue` of `port` and close
 * window w's period.  Returns 0, or -1 on a bad window, port or queue. */
int model_read_delay(struct model *m, unsigned window, unsigned port, unsigned queue, int mc,
		     struct model_delay *d);

/*
 * The marker delay tracker, usable on its own (the model keeps one
 * per queue).  Packet ids are any increasing numbers (the model uses the
 * queue's enqueue count).  Rules (the worked example of doc/glossary.md):
 *  - enqueue: tail := packet; if no marker, the packet becomes the marker;
 *  - refresh (on dequeue and on a background tick): delay :=
 *    max(now - marker_ts, delay of the last departed marker), or with no
 *    marker: 0;
 *  - dequeue of the marker: the departed marker's delay is the last stored
 *    delay (not recomputed); marker := tail (none if the queue is now
 *    empty, then the departed delay is forgotten), then refresh.
 * The tracker applies events in the order it is called.  The engine
 * calls it (its queues' markers) in the engine's order: at one ns a
 * departure before an arrival (Timing above).  The worked example
 * enqueues before it dequeues within its step t8, a clock cycle of the
 * hardware rather than an instant; test_model_basic feeds it in that
 * order, and test_same_ns_order shows the two orders' different delays.
 */
struct model_marker {
	uint64_t tail_id, tail_ts; /* (the fields an enqueue touches first) */
	uint8_t has_marker, has_tail;
	uint64_t marker_id, marker_ts;
	uint64_t departed_delay;
	uint64_t delay; /* stored delay (226) */
};

void model_marker_init(struct model_marker *mk);
void model_marker_enqueue(struct model_marker *mk, uint64_t id, uint64_t now);
/* queue_empty: 1 if this dequeue leaves the queue empty. */
void model_marker_dequeue(struct model_marker *mk, uint64_t id, uint64_t now, int queue_empty);
uint64_t model_marker_refresh(struct model_marker *mk, uint64_t now);

/* ------------------------------------------------------------------ */
/* Event stream                                                         */
/* ------------------------------------------------------------------ */

enum model_event_type {
	MODEL_EV_DROP = 1,    /* a packet (copy) dropped */
	MODEL_EV_SAMPLE = 2,  /* departure of a packet marked for sampling, or
				 its drop (reason non-zero, delay_ns 0) */
	MODEL_EV_PFC = 3,     /* XOFF (pfc_on = 1) / XON sent for in_port, pg */
	MODEL_EV_ENQUEUE = 4, /* a copy admitted to a queue (queue events on) */
	MODEL_EV_DEQUEUE = 5  /* a copy finished leaving a queue (last bit out;
				 queue events on) */
};

#define MODEL_PORT_NONE	 0xffff /* unknown port (multicast drop at ingress) */
#define MODEL_QUEUE_NONE 0xff

struct model_event {
	uint8_t type;	   /* enum model_event_type */
	uint8_t queue;	   /* egress queue index, or MODEL_QUEUE_NONE */
	uint8_t mc;	   /* 1: multicast queue / packet */
	uint8_t cause;	   /* drop: enum model_drop_cause */
	uint16_t reason;   /* drop, dropped sample: sFlow reason code */
	uint16_t in_port;  /* port index */
	uint16_t out_port; /* port index or MODEL_PORT_NONE */
	uint8_t tc, pg, pfc_on;
	uint16_t n_out;	      /* sample of a multicast packet: its group's
				 output ports (the input port excepted) */
	uint64_t t_ns;	      /* when it happened (departure for samples) */
	uint64_t delay_ns;    /* sample, dequeue: departure - arrival */
	uint64_t pkt_id;      /* enqueue/dequeue: the copy's per-queue sequence
				 number in enqueue order (the first copy ever
				 admitted to the queue is 1); others 0 */
	uint64_t tail_id;     /* drop with a queue: pkt_id of the last copy
				 admitted to that queue (0: none yet); others 0 */
	uint64_t copy_id;     /* multicast packet: one non-zero id shared by all
				 its copies (and its drops); unicast 0 */
	uint32_t depth_bytes; /* queue depth in bytes met at enqueue (sample),
				 at the drop (drop), or after the event
				 (enqueue, dequeue) */
	uint32_t len;	      /* frame length */
	uint32_t flow_id;
	/* drop by the flow-based admission (model_flowbuf.h, whose
	 * MODEL_FB_DROP_* cause is fb_drop; 0: another drop or event): the
	 * region the packet was classified to, the states the decision
	 * saw (hundredths of % of their bounds: the region's, (ingress
	 * port, priority), (egress port, priority)), the region's count and
	 * the regions' bound (units) then */
	uint8_t fb_drop;
	uint16_t fb_region;
	uint32_t fb_pc[3];
	uint64_t fb_count, fb_bound;
	uint8_t ecn;	  /* the copy's ECN field (MODEL_ECN_*), as in hdr: a
			     copy WRED marked CE has CE there too (the IP
			     header's field and IPv4 checksum rewritten) */
	uint16_t hdr_len; /* bytes in hdr */
	uint8_t hdr[MODEL_EVENT_HDR_MAX];
};

/*
 * Per-queue packet events, for visibility monitors: with MODEL_QEV_ENQUEUE
 * set for a queue, every copy admitted to it queues a MODEL_EV_ENQUEUE
 * event; with MODEL_QEV_DEQUEUE, every copy that departs from it (last bit
 * out) a MODEL_EV_DEQUEUE event.  Their fields: queue, mc (1: multicast
 * queue), in_port, out_port, tc, pg, len, flow_id, hdr/hdr_len as for
 * samples; t_ns the time of the event; depth_bytes the queue's depth in
 * bytes just after the event; pkt_id the copy's sequence number in the
 * queue; copy_id as above; delay_ns departure - arrival (dequeue; 0 for
 * enqueue).  A queue is FIFO, so dequeue pkt_ids come in the order of the
 * enqueue ones.  They go into the same bounded ring as the other events
 * (overflow counted in events_lost).  Default: off for every queue.
 *
 * model_set_queue_events sets the mask (MODEL_QEV_* or 0 = off) of
 * unicast (mc 0) or multicast queue `queue` of `port` (0..nports; nports
 * is the CPU port).  Returns 0, or -1 with a message in err (if not NULL)
 * on a bad port, queue or flag.
 */
#define MODEL_QEV_ENQUEUE 1u
#define MODEL_QEV_DEQUEUE 2u
int model_set_queue_events(struct model *m, uint32_t port, unsigned queue, int mc, unsigned flags,
			   struct model_err *err);

/* Take up to max events, oldest first; returns how many.  Only the first
 * hdr_len bytes of each event's hdr are written. */
size_t model_events_read(struct model *m, struct model_event *ev, size_t max);

/* ------------------------------------------------------------------ */
/* Per-packet trace (tests, validation): called at every departure and  */
/* every drop when set; NULL to clear.                                  */
/* ------------------------------------------------------------------ */

struct model_trace {
	uint8_t departed; /* 1 departure, 0 drop */
	uint8_t cause;	  /* drop cause */
	uint8_t queue, mc;
	uint16_t in_port, out_port;
	uint32_t len, flow_id;
	uint64_t t_arr_ns, t_ns;
	uint32_t depth_bytes;  /* queue depth met at enqueue (or at the drop) */
	int64_t nt_latency_ns; /* departure completed a non-tagged measurement
				  for its queue: the latency; else -1 */
	uint8_t tc, pg;	       /* the packet's class and its ingress PG */
	uint8_t ecn;	       /* the copy's ECN field (MODEL_ECN_*): at a
				  departure after WRED's marking (CE), at a drop
				  as it came */
};

typedef void (*model_trace_fn)(void *arg, const struct model_trace *tr);
void model_set_trace(struct model *m, model_trace_fn fn, void *arg);

/*
 * Queue statistics (bsflow-sim), off by default.  After
 * model_track_queues(m), from the clock at that call on:
 *  - each queue's byte occupancy (struct model_occ cur_bytes) integrated
 *    over time: model_read_occupancy gives the integral in byte x ns, so
 *    that divided by the time it is the time-average occupancy in bytes
 *    (a double: exact up to 2^53 byte ns, then to 16 digits).  It is kept
 *    by Little's identity, sum over copies of bytes x time in the queue:
 *    each departure adds its own (bytes x sojourn), a read adds the copies
 *    still queued (O(queued copies)), and with ingress arbitration, whose
 *    packets enter their queue after their arrival time, each enqueue
 *    notes that head start;
 *  - each queue's sojourns (arrival to departure, as struct model_delay)
 *    counted in a log-linear histogram (struct model_sojourns), made at
 *    the queue's first departure: model_read_sojourns;
 *  - each ingress port's dropped packets by priority group and traffic
 *    class (every copy, forwarding drops included): model_read_class_drops.
 * A departure costs one call out of line (an enqueue too with ingress
 * arbitration), a drop two increments.  model_track_queues returns 0, or
 * -1 out of memory; a histogram that could not be made is counted in
 * model_sojourns_missing (its queue's sojourns are then not counted).
 * Reads return 0, or -1 on a bad port or queue.
 */
int model_track_queues(struct model *m);
int model_read_occupancy(const struct model *m, unsigned port, unsigned queue, int mc,
			 double *byte_ns);

/* Sojourn buckets: exact below 2 MODEL_SOJ_SUB ns, then MODEL_SOJ_SUB per
 * power of two (v in [2^e, 2^(e+1)) in 2^(e-7) ns wide ones), so that a
 * bucket is at most 1/MODEL_SOJ_SUB of its values wide. */
#define MODEL_SOJ_SUB 128u
#define MODEL_SOJ_NB  (2 * MODEL_SOJ_SUB + (64 - 8) * MODEL_SOJ_SUB)
struct model_sojourns {
	uint64_t n;	   /* sojourns counted */
	uint64_t max;	   /* the largest, ns */
	uint64_t max_w;	   /* the largest since model_sojourns_restart */
	uint32_t lo, hi;   /* the buckets touched: [lo, hi] (hi < lo: none) */
	const uint64_t *c; /* MODEL_SOJ_NB counts; NULL: none counted */
};

/* The bucket of v ns: a clz and two shifts. */
static inline unsigned model_soj_bucket(uint64_t v)
{
	if (v < 2 * MODEL_SOJ_SUB)
		return (unsigned)v;
	unsigned e = 63u - (unsigned)__builtin_clzll(v); /* 8 .. 63 */
	return ((e - 7u) << 7) + (unsigned)(v >> (e - 7u));
}
_Static_assert(MODEL_SOJ_SUB == 1u << 7, "model_soj_bucket shifts by 7");
/* The largest value of bucket b. */
uint64_t model_soj_upper(unsigned b);
/* The nearest-rank q-quantile (0 < q <= 1) of the sojourns counted in h
 * since base (NULL: all of them; else h as read earlier): the smallest
 * delay d with at least ceil(q n) of them at or below d, read as the upper
 * end of its bucket but at most max (h->max, or h->max_w with a base:
 * model_sojourns_restart when base was read); 0 with none.  base's counts
 * are those of h when it was read (a copy of them). */
uint64_t model_soj_quantile(const struct model_sojourns *h, const struct model_sojourns *base,
			    double q);

/* The histogram of unicast (mc 0) or multicast queue `queue` of `port`
 * into h (its counts stay the model's, valid until model_free; c NULL if
 * nothing departed from it since model_track_queues, or none is kept:
 * not tracked, no memory).  0, or -1 on a bad port or queue. */
int model_read_sojourns(const struct model *m, unsigned port, unsigned queue, int mc,
			struct model_sojourns *h);
/* Every histogram's max_w back to 0. */
void model_sojourns_restart(struct model *m);
/* Queues whose histogram could not be made (out of memory). */
unsigned model_sojourns_missing(const struct model *m);

struct model_class_drops {
	uint64_t pg[MODEL_NUM_PG]; /* by the packet's ingress priority group */
	uint64_t tc[MODEL_NUM_TC]; /* by its traffic class */
};
int model_read_class_drops(const struct model *m, unsigned port, struct model_class_drops *d);

/*
 * Recount every occupancy counter (device, pools, ports, PGs, headroom,
 * queues, packet counts) from the packets actually in the buffer and
 * compare with the incremental ones, and check the conservation
 * identities of struct model_stats.  O(buffered packets + queues): for
 * tests.  Returns 0, or -1 with the first mismatch in err.
 */
int model_audit(const struct model *m, struct model_err *err);

#endif
