/*
 * model_int.h - internal data structures of the switch model, shared by
 * its sources (the engine: model.c and the files model_engine.h names;
 * model_telem.c: reads, peaks, audit).  Not for users of the library: use
 * model.h.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_MODEL_MODEL_INT_H
#define BSFLOWD_MODEL_MODEL_INT_H

#include <stddef.h>

#include "agent/model/model.h"
#include "agent/model/rng.h"

int model_config_check(const struct model_config *cfg, struct model_err *err);

/* Slots in a port's queue array: unicast q at q, multicast q at 8 + q. */
#define MQ_SLOTS 16
#define MQ_MC	 8

/* A buffer object's occupancy and peaks.  run is the peak since the last
 * read of any window; the rest of it (bytes, time, allocation at that
 * peak) and each window's peak up to that read are cold (struct mpeak_c,
 * in m->win), written only when run rises or at a read. */
struct mpeak_w {
	uint32_t cells, alloc;
	uint64_t bytes, t;
};
struct mpeak_c {
	uint32_t run_alloc;
	uint64_t run_b, run_t;
	struct mpeak_w w[MODEL_NUM_WINDOWS];
};

/* The peak run (re)starts: its bytes, time and allocation (its cells are
 * the object's own). */
static inline void mpeak_c_run(struct mpeak_c *c, uint64_t bytes, uint64_t t, uint32_t alloc)
{
	c->run_b = bytes;
	c->run_t = t;
	c->run_alloc = alloc;
}
/*
 * A buffer object's occupancy is one counter, cb = cells << m->occ_shift
 * | bytes (occ_cells(), occ_bytes()): a packet's charge (struct mpkt inc)
 * is one add.  occ_shift is the bit length of the buffer's bytes
 * (total_cells x cell_bytes), which no object's bytes exceed, so the
 * bytes never carry into the cells; model_new refuses a buffer whose
 * cells do not fit above them.  run_top = run << occ_shift | occ_mask:
 * cells above the peak run are cb > run_top, with no shift.
 */
struct mpeak {
	uint64_t cb;
	uint64_t run_top;
	struct mpeak_c *c;
};

/* A pool: cells only (its bytes are cells x cell_bytes), its peak run. */
struct mpool {
	uint32_t cur, run;
	struct mpeak_c *c;
};

/* A queue's delay figures as last seen by one read window (cold): the
 * running maxima in struct mqueue (since the last read of any window) are
 * folded into every window at each read, as for peaks. */
struct mdelay_w {
	uint64_t nt_max, mk_max;
	uint64_t nt_seen; /* nt_count at this window's last read */
};

/* Cache line size the hot structures (ports, PGs, queues, packet
 * records) are aligned to; model_setup.c allocates the ports (carved
 * at line boundaries) and model.c the packet pool's chunks with
 * aligned_alloc. */
#define MODEL_LINE 64

/* Packet flags */
#define MP_HDRM	   0x01 /* charged to its PG's headroom */
#define MP_SAMPLE  0x02 /* marked for sampling at ingress (body) */
#define MP_MC	   0x04 /* multicast (group) packet */
#define MP_CAST_M  0x18 /* destination class, see CAST_* */
#define MP_CAST_S  3
#define MP_GCAST_M 0x60 /* the source's class (struct model_pkt cast, 0-3) */
#define MP_GCAST_S 5
#define MP_EXT	   0x80 /* counted by the flow-based admission (model_ext.c) */
enum { CAST_UC = 0, CAST_MC = 1, CAST_BC = 2 };

/*
 * One packet record from the pool, one cache line.  A unicast packet is
 * one record (its own body); a multicast packet is a body record plus one
 * record per queued copy, each pointing at the body (in place of the
 * header pointer, which only bodies use), which counts them in refs.  A
 * record in a queue is a copy if it has MP_MC (mpkt_body()).
 */
struct mpkt {
	_Alignas(MODEL_LINE) struct mpkt *next; /* queue, hold list or free list */
	/* len .. hdr: laid out as in struct model_pkt, copied in one block
	 * from the source's packet (fill_from_src) */
	uint32_t len;
	uint16_t in_port, out_port;
	uint16_t mc_group;
	uint8_t tc, tos; /* tos: DSCP << 2 | ECN; a copy's own, whose ECN
			    field WRED may mark CE */
	uint16_t fwd_drop;
	uint16_t hdr_len;
	uint32_t flow_id;
	uint32_t src; /* source index: header() for hdr NULL (ev_hdr) */
	union {
		const uint8_t *hdr; /* body */
		struct mpkt *body;  /* multicast copy */
	};
	union {
		uint64_t t_arr;	  /* body: arrival time */
		uint64_t copy_id; /* multicast copy: its packet's copy id */
	};
	uint32_t depth_enq; /* copy: queue bytes met at enqueue */
	uint8_t refs;	    /* body: its copies in queues (a group has at most 64) */
	uint8_t spare;	    /* (unused: with it the engine's hot path compiles to
			       fewer instructions than with a 16-bit refs) */
	uint8_t pg, flags;
	uint64_t inc; /* its charge to an object: cells << occ_shift | len */
};

#define MPKT_SAME(f)                                                                               \
	(offsetof(struct mpkt, f) - offsetof(struct mpkt, len) ==                                  \
	     offsetof(struct model_pkt, f) - offsetof(struct model_pkt, len) &&                    \
	 sizeof(((struct mpkt *)0)->f) == sizeof(((struct model_pkt *)0)->f))
_Static_assert(MPKT_SAME(in_port) && MPKT_SAME(out_port) && MPKT_SAME(mc_group) && MPKT_SAME(tc) &&
		   MPKT_SAME(tos) && MPKT_SAME(fwd_drop) && MPKT_SAME(hdr_len) &&
		   MPKT_SAME(flow_id) && MPKT_SAME(src) && MPKT_SAME(hdr),
	       "struct mpkt len..hdr must mirror struct model_pkt");
#undef MPKT_SAME

/* The body of a queued record cp (a unicast packet or a multicast copy). */
#define mpkt_body(cp) ((cp)->flags & MP_MC ? (cp)->body : (cp))

/* A queue's cold data, apart so that the queues' hot fields pack densely
 * (m->qcold, one per queue that exists, by qindex()). */
struct mqcold {
	uint64_t hist[MODEL_DELAY_HIST];    /* ground-truth sojourn histogram */
	uint64_t drops[MODEL_DROP_NCAUSES]; /* copies dropped, by cause */
	uint64_t ecn_marked;		    /* copies WRED marked CE */
	double wred_avg;		    /* WRED's average depth (bytes) */
	double wred_w;			    /* its weight 2^-gain; 0: the depth itself */
	uint8_t wred_ecn;		    /* WRED marks ECN-capable copies */
	/* model_track_queues: sum over enqueued copies of bytes x (enqueue -
	 * arrival time) (ingress arbitration), and at the start the queued
	 * ones' bytes x (start - arrival): what the departures' bytes x
	 * sojourn count but the queue did not hold */
	unsigned __int128 early;
};

/* A queue's statistics (model_track_queues), one line each, apart
 * (m->qstat, by qindex()): a departure touches it and one count. */
struct mqstat {
	_Alignas(MODEL_LINE) unsigned __int128 dep; /* sum over departed copies
						       of bytes x sojourn */
	uint64_t *c;		/* sojourn counts, made at the first departure */
	uint64_t n, max, max_w; /* struct model_sojourns */
	uint32_t lo, hi;
	uint8_t c_failed; /* ... but out of memory (soj_missing) */
};

/* A queue's marker (model.h struct model_marker without what the
 * queue itself knows: its tail is its last copy, and it has a marker
 * exactly while it is not empty; model.c q_mk_enqueue, q_mk_dequeue). */
struct qmarker {
	uint64_t marker_id, marker_ts;
	uint64_t departed_delay;
	uint64_t delay; /* stored delay (226) */
};

/* Line 0: the queue, its occupancy and the fields every enqueue or
 * departure reads besides; line 1: what an enqueue adds (non-tagged latency and
 * marker state); line 2: what a departure adds (ground truth, delay
 * maxima): a departure reads no other line.  Then the admission limits
 * an enqueue reads only while the queue is above its minimum, and the
 * rare fields.  Its length is enq_cnt - deq_cnt. */
#define QEV_STATS  0x40 /* struct mqueue qev: model_track_queues is on */
#define QEV_EARLY  0x20 /* ... and its packets may enter after their t_arr */
#define QCHK_WRED  0x01 /* WRED on */
#define QCHK_LIMIT 0x02 /* a packet limit (limit_pkts) */
struct mqueue {
	_Alignas(MODEL_LINE) struct mpkt *head;
	struct mpkt **tailp; /* &head when empty, else the last one's next */
	struct mpeak pk;
	uint64_t *hist;	  /* its m->qcold[qindex()].hist */
	uint64_t min_top; /* min_cells << occ_shift | occ_mask */
	uint64_t deq_cnt; /* copies departed */
	/* line 1 */
	uint8_t dyn, pool, chk, present; /* chk: QCHK_* */
	uint8_t qev;			 /* MODEL_QEV_* mask: per-packet queue events wanted;
					    QEV_TRACE while a trace callback is set,
					    QEV_STATS, QEV_EARLY (model_track_queues) */
	uint16_t bit;			 /* 1 << its slot (struct mport nonempty) */
	/* non-tagged latency (a packet is flagged while nt_start_cnt > deq_cnt);
	 * enq_cnt is also the queue's last pkt_id (model.h) */
	uint64_t enq_cnt, nt_start, nt_start_cnt;
	struct qmarker mk; /* marker method */
	/* line 2: ground truth (count: deq_cnt) */
	uint64_t sum, max;
	/* delay since the last read of any window (see struct mdelay_w) */
	uint64_t mk_max, nt_latest, nt_max;
	uint64_t nt_count; /* non-tagged latency delays measured */
	struct mpeak *egr; /* its port's egr_uc or egr_mc */
	uint64_t sum_fs;   /* the sub-ns parts (fs) the sojourns in sum leave out */
	/* end of line 2, line 3: shared-use limit (static or dynamic), read
	 * above the minimum only; the packet limit (QCHK_LIMIT) */
	uint32_t lim_cells, min_cells;
	double alpha;
	/* DWRR */
	uint32_t quantum;
	uint32_t limit_pkts;
	int64_t deficit;
	/* WRED */
	uint32_t wred_min, wred_max;
	double wred_maxp;
	uint64_t nt_sum; /* non-tagged latency delays measured: their sum (ns) */
};

/* Line 0: what admission, the sender's pause test and the PG's
 * occupancy need per packet (pk's cold pointer starts line 1). */
struct mpg {
	_Alignas(MODEL_LINE) uint64_t min_top; /* min_cells << occ_shift | occ_mask */
	double alpha;
	uint8_t dyn, pool, lossless, xoff_state, rel_armed;
	struct mpkt *hold_head;
	uint64_t pause_start, pause_end; /* sender side: PFC pause window */
	struct mpeak pk;		 /* min + shared use */
	uint32_t headroom, xoff, xon;
	struct mpkt *hold_tail;
	struct mpeak pk_hdrm; /* headroom use */
	uint32_t min_cells, lim_cells;
};

/* Sums over a port's PGs or same-kind queues, for port allocations. */
struct msum {
	uint64_t fixed; /* mins + static limits */
	double alpha[MODEL_MAX_POOLS];
};

/* Line 0: the egress side of a packet (transmission, scheduler, the
 * two interface counters a unicast departure moves, egress unicast
 * occupancy); line 1: the ingress side, ending with the first two
 * interface counters (in_octets, in_ucast: an arrival needs no other
 * line of its ingress port); then the rest, the PGs and the queues.
 * out_octets and out_ucast are counted in line 0, not in ctr (whose two
 * stay 0; model_read_counters adds them). */
struct mport {
	_Alignas(MODEL_LINE) uint64_t fs_per_byte; /* femtoseconds per byte on the wire */
	uint32_t frac_fs; /* sub-ns end (fs, < 1 ns) of the transmission in progress,
			     or, idle, of the last one (which ended at idle_ns) */
	uint32_t overhead;
	uint8_t busy;
	uint8_t in_slot;   /* slot being transmitted */
	uint16_t nonempty; /* bit per slot */
	uint16_t unpaused; /* bit per slot: not paused by downstream PFC */
	uint16_t sp_run;   /* sp_mask & unpaused: strict-priority slots not paused */
	uint8_t tc_ucq[MODEL_NUM_TC];
	uint64_t out_octets, out_ucast;
	struct mpeak egr_uc;
	/* line 1 */
	uint8_t tc_pg[MODEL_NUM_TC];
	uint32_t sampling_rate, skip;
	struct mpeak ing_uc;
	struct model_if_counters ctr; /* from the end of line 1 */
	uint8_t tc_mcq[MODEL_NUM_TC];
	uint8_t n_ucq, n_mcq;
	uint32_t qbase; /* qindex() of its first queue */
	uint64_t pfc_delay;
	struct mpeak ing_mc, egr_mc;
	uint16_t sp_mask; /* bit per strict-priority slot */
	uint8_t ndwrr;
	uint8_t rr, rr_turn;
	uint8_t dwrr_list[MQ_SLOTS];
	uint16_t dwrr_over; /* bytes a DWRR deficit counts per frame besides
			       its length: overhead_bytes (<= 1000) with
			       dwrr_wire, else 0 (in the padding before idle_ns,
			       which keeps the hot fields' lines as they were) */
	uint64_t idle_ns;   /* the ns whose departure left the port idle: the
			       line is free only frac_fs later */
	struct msum sum_pg, sum_uc, sum_mc;
	uint64_t drop_in[MODEL_DROP_NCAUSES], drop_out[MODEL_DROP_NCAUSES];
	struct mpg pg[MODEL_NUM_PG];
	struct mqueue q[MQ_SLOTS];
};

/* The line boundaries the comments above promise. */
_Static_assert(offsetof(struct mqueue, dyn) == MODEL_LINE, "mqueue line 0");
_Static_assert(offsetof(struct mqueue, mk.marker_id) + 8 <= 2 * MODEL_LINE, "mqueue line 1");
_Static_assert(offsetof(struct mqueue, nt_max) + 8 <= 3 * MODEL_LINE, "mqueue line 2");
_Static_assert(sizeof(struct mqueue) == 4 * MODEL_LINE && sizeof(struct mpg) == 2 * MODEL_LINE,
	       "mqueue, mpg size");
_Static_assert(offsetof(struct mqueue, deq_cnt) + 8 == MODEL_LINE, "mqueue line 0 ends");
_Static_assert(offsetof(struct mqueue, egr) + 8 <= 3 * MODEL_LINE, "mqueue line 2 ends");
_Static_assert(offsetof(struct mpg, pk.c) == MODEL_LINE, "mpg line 0");
_Static_assert(offsetof(struct mport, egr_uc.c) == MODEL_LINE, "mport line 0");
_Static_assert(offsetof(struct mport, ctr.in_ucast) + 8 == 2 * MODEL_LINE, "mport line 1");

/* Packets a source's buffer holds: topped up (MSRC_BATCH at most per
 * call of next_batch, one at a time from the others) when fewer than
 * MSRC_LOW are left at the start of a merge round (model_arr_merge). */
#define MSRC_BATCH 64
#define MSRC_LOW   32

/* A source: line 0 is what a merge round uses (its packets not yet taken
 * into the arrival stream and how to get more), then the source as given,
 * then its packets, with times clamped to be non-decreasing (last_t). */
struct msrc {
	_Alignas(MODEL_LINE) struct model_pkt *next; /* first not taken: buf[0..] */
	struct model_pkt *end;			     /* past the last one in buf */
	unsigned (*batch)(void *state, struct model_pkt *p, unsigned n); /* src.next_batch */
	void *state;							 /* src.state */
	uint64_t last_t; /* time of its last packet in buf (or of its addition) */
	uint32_t ntake;	 /* packets the merge round takes from next */
	uint8_t live;	 /* packets left, in buf or in the source */
	uint8_t ended;	 /* the source said it has no more (not called again) */
	uint8_t trusted; /* its promise (model_source.ports) holds: no checks */
	struct model_source src;
	_Alignas(MODEL_LINE) struct model_pkt buf[MSRC_BATCH];
};
_Static_assert(offsetof(struct msrc, next) == 0 && offsetof(struct msrc, trusted) < MODEL_LINE,
	       "msrc line 0");

/* The arrival stream's end marker (after the last packet merged: an
 * entry pointing at m->arr_mark[0] or [1], whose src says which):
 * ARR_MERGE at time t: no packet before t is missing, merge more there;
 * ARR_END: no packets left in any source. */
#define ARR_MERGE 0xfffffffeu
#define ARR_END	  0xffffffffu
/* Buckets of the merge round's counting sort (1 ns each): rounds spanning
 * more go by radix sort of (time, packet) keys, at most ARR_DIGIT bits a
 * pass. */
#define ARR_NB	  8192u
#define ARR_DIGIT 11u

/* An entry of the arrival stream: a packet in its source's buffer (its
 * src set to the source's index) and its arrival time; in the radix sort,
 * t is the time less the round's first. */
struct arr_ent {
	uint64_t t;
	const struct model_pkt *p;
};

/* What a port's event (the end of the transmission in progress) reads
 * first, set when the transmission starts (tx_slot): the port, its
 * queue in service and the packet at the queue's head.  run_loop
 * prefetches them for the next port event from here, without first
 * loading the port's line for its slot and the queue's for its head, one
 * miss after the other (prefetch_port).  Leaf l's is pf[l + 1]; pf[0],
 * all NULL, is CAL_NONE's (no event). */
struct mpf {
	const struct mport *P;
	const struct mqueue *q;
	const struct mpkt *h;
};

/* Where an arrival's PG and unicast queue are, for its port (ingress
 * and egress) and class: byte offsets from the ports' array.  run_loop
 * prefetches them for the next arrival from this small table rather
 * than from the ports' lines (tc_pg, tc_ucq), which would miss first
 * (prefetch_arrival). */
struct mpf_tc {
	uint32_t pg, q;
};

/* A rare event (PFC release) in the 4-ary heap. */
struct mheap_ent {
	uint64_t t;
	uint64_t seq; /* insertion number: ties run in insertion order */
	uint32_t id;
};

/* The calendar's window of per-packet events in ns (a power of two, 64
 * to 4096: one summary word, cal_sum) and its far events. */
#define CAL_W	 4096u
#define CAL_MASK ((uint64_t)CAL_W - 1)
_Static_assert(CAL_W >= 64 && CAL_W <= 4096 && (CAL_W & (CAL_W - 1)) == 0, "CAL_W");
/* An entry of a binary min-heap by time (model_heap.c, model_tk_push,
 * model_tk_pop): a far event (id: its leaf) or a source waiting for a merge round (id: its
 * index). */
struct mtk {
	uint64_t t;
	uint32_t id;
};

/* A chunk of the packet pool (aligned_alloc: one line per record). */
struct mchunk {
	_Alignas(MODEL_LINE) struct mchunk *next;
	struct mpkt recs[];
};
_Static_assert(sizeof(struct mpkt) == MODEL_LINE && sizeof(struct mchunk) == MODEL_LINE,
	       "packet records are lines");

struct model {
	struct model_config cfg;
	uint32_t np;	     /* ports including the CPU port */
	uint32_t cell_up;    /* cell_bytes - 1 */
	uint32_t cell_cmask; /* ~cell_up when cell_bytes is a power of two, else 0 */
	uint8_t ext_on;	     /* an optional admission-path mechanism is on (model_ext.c) */
	uint64_t now;
	struct model_rng rng;
	struct mport *ports;

	/* buffer: the device's cells in use are those of dev_uc + dev_mc */
	struct mpeak dev_uc, dev_mc;
	struct mpool ip_pk[MODEL_MAX_POOLS], ep_pk[MODEL_MAX_POOLS];
	uint8_t occ_shift;  /* struct mpeak */
	uint64_t cell_mult; /* 1 << (occ_shift - log2(cell_bytes)) with cell_cmask */
	uint64_t occ_mask;  /* (1 << occ_shift) - 1 */
	uint64_t total_top; /* total_cells << occ_shift | occ_mask */

	/* events */
	struct mheap_ent *heap; /* rare events */
	uint32_t nheap, heap_cap;
	uint64_t heap_t;   /* time of the root, UINT64_MAX if none */
	uint64_t run_lim;  /* run_loop's time limit */
	uint8_t run_idle;  /* run_loop stops when idle */
	uint64_t run_max;  /* run_loop's max_events */
	uint64_t run_rare; /* events run_careful ran (RUN_RARE) */
	/* stop_t: run_loop runs a per-packet event (a port's, an arrival) at
	 * time t on its fast path only if t < stop_t, so stop_t is at most the
	 * first time at which something else must come first: the heap's root
	 * and the tick plus 1 (at equal times they go after per-packet events),
	 * the run's limit plus 1, the stream's marker (arr_stop: its merge, and
	 * arrivals at its time, take the careful path), the next port event's
	 * time when it is a far one (pk_b CAL_FAR: cal_jump first), and 0 when
	 * the run may take no more events.  Lower is allowed (one visit of the
	 * careful path, which sets it again), higher never.  model_engine.h
	 * maintains it: stop_update (from all terms), stop_lower, stop_all. */
	uint64_t stop_t;
	uint64_t arr_stop; /* the stream's marker's time (UINT64_MAX: the end) */
	uint64_t seq;
	uint32_t cur_id; /* heap event being dispatched */
	uint8_t in_dispatch, resched;
	uint64_t resched_t; /* heap events */
	/* the calendar of per-packet events (model.c) */
	uint64_t cbase;		       /* window start */
	uint32_t cal_head[CAL_W];      /* per bucket: its first leaf */
	uint32_t *cal_next;	       /* per leaf: next leaf in its bucket */
	struct mpf *pf;		       /* per leaf + 1: what its event reads */
	struct mpf_tc *pf_tc;	       /* per port and class (port * 8 + tc) */
	uint64_t cal_bits[CAL_W / 64]; /* bit per non-empty bucket */
	uint64_t cal_sum;	       /* bit per non-zero word of cal_bits (a
					  bit may outlive its word's last one
					  until cal_scan leaves the word) */
	/* the calendar's next event (cal_scan's answer), kept up to date by
	 * inserts and takes */
	uint64_t pk_t;
	uint32_t pk_leaf, pk_b; /* pk_leaf CAL_NONE: no event */
	struct mtk *far;	/* events CAL_W ns or more ahead (binary heap) */
	uint64_t far_t;		/* the earliest of them, UINT64_MAX if none */
	uint32_t nfar;
	/* sources, and the stream of their packets in arrival order (time,
	 * then source index), merged a round at a time (model_arrival.c) */
	struct msrc *srcs;
	uint32_t nsrc, src_cap;
	/* a merge round visits the sources it may take from (model_arrival.c,
	 * model_arr_merge): the live ones with packets not in the stream, by the
	 * time of their first (a binary heap; when rounds are large, all of
	 * them in one pass, and the heap is rebuilt: SQ_SCAN), the ones the
	 * last round left empty (topped up by the next), and a bit per
	 * source taking part */
	struct mtk *sq;
	uint32_t nsq, nspend;
	uint8_t sq_stale; /* the heap is not built (sq_after_scan) */
	uint32_t *spend;
	uint64_t *spart;
	uint32_t *tie_ord; /* every source in tie key order for period tie_e
			      (model_arrival.c arr_place; UINT64_MAX: none) */
	uint64_t tie_e;
	struct arr_ent *arr;	      /* the stream: packets, then a marker */
	struct arr_ent *arr_next;     /* the next arrival, or the marker */
	uint32_t arr_cap;	      /* entries of arr (MSRC_BATCH per source + 1) */
	uint32_t *arr_cnt;	      /* ARR_NB counters of the merge's sort */
	struct arr_ent *arr_key;      /* arr_cap - 1: its radix sort (with arr) */
	struct model_pkt arr_mark[2]; /* what markers point at: src ARR_MERGE, ARR_END */
	/* the background marker tick (model_tick.c): not in the heap, a
	 * time and an insertion number of its own */
	uint8_t tick_armed;
	uint32_t tick_pos;	   /* next queue (port * MQ_SLOTS + slot) to refresh */
	uint32_t tick_nq, tick_k;  /* queue positions, refreshed per tick */
	uint64_t tick_t, tick_seq; /* next tick; tick_t UINT64_MAX: not armed */

	/* packet pool */
	struct mpkt *free_list;
	struct mchunk *chunks;

	/* peak windows of every buffer object */
	struct mpeak_c *win;
	uint32_t nwin, win_used;
	uint32_t nq;	      /* present queues (all ports) */
	struct mqcold *qcold; /* per present queue, by qindex() */
	/* model_track_queues (NULL: off): per present queue, per port */
	struct mqstat *qstat;
	struct model_class_drops *cdrops;
	unsigned soj_missing; /* histograms not made (out of memory) */
	/* bytes of the block that holds ports (at its start), cal_next, pf,
	 * pf_tc, far, arr_cnt, win, dwin and qcold (model_setup.c alloc_arrays) */
	size_t arrays_bytes;
	/* delay windows: qindex() * MODEL_NUM_WINDOWS + w */
	struct mdelay_w *dwin;

	/* event ring */
	struct model_event *ring;
	uint32_t ring_cap, ring_head, ring_n;

	uint64_t mc_seq; /* copy id of the last multicast packet to arrive */

	struct model_stats st;
	model_trace_fn trace;
	void *trace_arg;

	/* optional mechanisms (model_ext.c), NULL when off */
	struct model_iarb *iarb;
	struct model_fb *fb;
	/* the flow-based admission's drop that model_ext_arrive just made
	 * (fb_drop 0: none), for its drop event (model_ext_drop_note) */
	struct {
		uint8_t fb_drop;
		uint16_t region;
		uint32_t pc[3];
		uint64_t count, bound;
	} fb_last;
};

/* The marker rules (model.h), inline for the engine's hot path;
 * model_marker.c exports them. */
static inline void mk_enqueue(struct model_marker *mk, uint64_t id, uint64_t now)
{
	mk->tail_id = id;
	mk->tail_ts = now;
	mk->has_tail = 1;
	if (!mk->has_marker) {
		mk->marker_id = id;
		mk->marker_ts = now;
		mk->has_marker = 1;
		mk->departed_delay = 0;
	}
}

static inline uint64_t mk_refresh(struct model_marker *mk, uint64_t now)
{
	if (!mk->has_marker) {
		mk->delay = 0;
		return 0;
	}
	uint64_t d = now >= mk->marker_ts ? now - mk->marker_ts : 0;
	mk->delay = d > mk->departed_delay ? d : mk->departed_delay;
	return mk->delay;
}

static inline void mk_dequeue(struct model_marker *mk, uint64_t id, uint64_t now, int queue_empty)
{
	if (queue_empty)
		mk->has_tail = 0;
	if (mk->has_marker && id == mk->marker_id) {
		if (queue_empty || !mk->has_tail) {
			/* drained: keep the stored delay until the next refresh */
			mk->has_marker = 0;
			mk->departed_delay = 0;
			return;
		}
		mk->departed_delay = mk->delay;
		mk->marker_id = mk->tail_id;
		mk->marker_ts = mk->tail_ts;
	}
	mk_refresh(mk, now);
}

/* The index of a present queue among all present queues (its qcold and
 * dwin entries): the port's first, then unicast before multicast. */
static inline uint32_t qindex(const struct mport *P, unsigned slot)
{
	return P->qbase + (slot < MQ_MC ? slot : P->n_ucq + slot - MQ_MC);
}

/* A queue's marker delay now (marker refresh). */
static inline uint64_t q_mk_refresh(struct mqueue *q, uint64_t now)
{
	struct qmarker *mk = &q->mk;
	if (q->head == NULL) { /* no marker */
		mk->delay = 0;
		return 0;
	}
	uint64_t d = now >= mk->marker_ts ? now - mk->marker_ts : 0;
	mk->delay = d > mk->departed_delay ? d : mk->departed_delay;
	return mk->delay;
}

/* Copies in queues now: st.copies_buffered is not kept per packet, nor
 * st.admitted (model_get_stats derives both). */
static inline uint64_t copies_buffered(const struct model_stats *st)
{
	return st->copies - st->copies_departed - st->copies_dropped;
}

static inline uint32_t occ_cells(const struct model *m, uint64_t cb)
{
	return (uint32_t)(cb >> m->occ_shift);
}

static inline uint64_t occ_bytes(const struct model *m, uint64_t cb)
{
	return cb & m->occ_mask;
}

static inline struct mqcold *qcold(const struct model *m, unsigned port, unsigned slot)
{
	return &m->qcold[qindex(&m->ports[port], slot)];
}

/* model_ext.c: the engine's hooks for ingress arbitration and flow-based
 * admission.  model_ext_arrive returns 0 to go on, else 1 + the
 * MODEL_DROP_* cause of the packet's drop. */
int model_ext_setup(struct model *m, const struct model_config *cfg, struct model_err *err);
void model_ext_free(struct model *m);
unsigned model_ext_arrive(struct model *m, struct mport *P, struct mpg *g, struct mpkt *b);
void model_ext_release(struct model *m, struct mpkt *b);
/* The drop event e of the packet model_ext_arrive just dropped: the
 * flow-based admission's region and figures, if it made the drop. */
void model_ext_drop_note(struct model *m, struct model_event *e);

/* model.c helpers used by model_telem.c */
uint32_t model_q_alloc(const struct model *m, const struct mqueue *q);
uint32_t model_pg_alloc(const struct model *m, const struct mpg *g);
uint32_t model_sum_alloc(const struct model *m, const struct msum *s, int egress);

#endif
