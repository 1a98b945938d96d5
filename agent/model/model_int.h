/*
 * model_int.h - internal data structures of the switch model, shared by
 * its sources (model.c: engine, admission, scheduling; model_telem.c:
 * reads, peaks, audit).  Not for users of the library: use model.h.
 */
#ifndef BSFLOWD_MODEL_MODEL_INT_H
#define BSFLOWD_MODEL_MODEL_INT_H

#include "agent/model/model.h"
#include "agent/model/rng.h"

int model_config_check(const struct model_config *cfg, struct model_err *err);

/* Slots in a port's queue array: unicast q at q, multicast q at 8 + q. */
#define MQ_SLOTS 16
#define MQ_MC	 8

/* A buffer object's occupancy and peaks.  run* is the peak since the last
 * read of any window; w[] (kept apart, it is cold) holds each window's
 * peak up to that read. */
struct mpeak_w {
	uint32_t cells, alloc;
	uint64_t bytes, t;
};
struct mpeak {
	uint32_t cur, run;
	uint32_t run_alloc;
	uint64_t cur_b, run_b, run_t;
	struct mpeak_w *w; /* MODEL_NUM_WINDOWS entries in model.win */
};

/* A queue's delay figures as last seen by one read window (cold): the
 * running maxima in struct mqueue (since the last read of any window) are
 * folded into every window at each read, as for peaks. */
struct mdelay_w {
	uint64_t nt_max, mk_max;
	uint64_t nt_seen; /* nt_count at this window's last read */
};

/* Packet flags */
#define MP_HDRM	  0x01 /* charged to its PG's headroom */
#define MP_SAMPLE 0x02 /* marked for sampling at ingress (body) */
#define MP_MC	  0x04 /* multicast (group) packet */
#define MP_CAST_M 0x18 /* destination class, see CAST_* */
#define MP_CAST_S 3
enum { CAST_UC = 0, CAST_MC = 1, CAST_BC = 2 };

/*
 * One packet record from the pool.  A unicast packet is one record (its
 * own body); a multicast packet is a body record plus one record per
 * queued copy, each pointing at the body, which counts them in refs.
 */
struct mpkt {
	struct mpkt *next; /* queue, hold list or free list */
	struct mpkt *body;
	const uint8_t *hdr;
	uint64_t t_arr;
	uint32_t len;
	uint32_t flow_id;
	uint32_t depth_enq; /* copy: queue bytes met at enqueue */
	uint32_t cells;
	uint16_t in_port, out_port;
	uint16_t hdr_len;
	uint16_t refs;
	uint16_t mc_group;
	uint16_t fwd_drop;
	uint8_t tc, pg, flags, slot;
	uint8_t dscp, cast;
};

/* A queue's cold data, apart so that the queues' hot fields pack densely
 * (m->qcold, one per queue slot of every port). */
struct mqcold {
	uint64_t hist[MODEL_DELAY_HIST];    /* ground-truth sojourn histogram */
	uint64_t drops[MODEL_DROP_NCAUSES]; /* copies dropped, by cause */
};

/* Cache line size the hot structures (ports, PGs, queues) are aligned
 * to; model.c allocates the ports with aligned_alloc. */
#define MODEL_LINE 64

/* Fields are in order of use: what every packet touches first (enqueue:
 * the first three lines; departure: the first four). */
struct mqueue {
	_Alignas(MODEL_LINE) struct mpkt *head;
	struct mpkt *tail;
	uint32_t npkts, limit_pkts;
	uint32_t min_cells, lim_cells;
	double alpha;
	uint8_t dyn, pool, wred, nt_flag, sched, is_mc, present;
	/* seed 004 */
	uint32_t enq_cnt, deq_cnt, nt_start_cnt;
	uint64_t nt_start;
	struct mpeak pk;
	/* seed 000 */
	struct model_marker mk;
	/* ground truth */
	uint64_t n, sum, max;
	/* delay since the last read of any window (see struct mdelay_w) */
	uint64_t nt_latest, nt_max, nt_count, mk_max;
	/* DWRR */
	uint32_t quantum;
	int64_t deficit;
	/* WRED */
	uint32_t wred_min, wred_max;
	double wred_maxp;
};

/* Line 0: what admission and the sender's pause test read. */
struct mpg {
	_Alignas(MODEL_LINE) uint32_t min_cells;
	uint32_t lim_cells, headroom, xoff, xon;
	uint8_t dyn, pool, lossless, xoff_state, rel_armed;
	double alpha;
	/* sender side: PFC pause window and held packets */
	uint64_t pause_start, pause_end;
	struct mpkt *hold_head;
	struct mpeak pk; /* min + shared use */
	struct mpkt *hold_tail;
	struct mpeak pk_hdrm; /* headroom use */
};

/* Sums over a port's PGs or same-kind queues, for port allocations. */
struct msum {
	uint64_t fixed; /* mins + static limits */
	double alpha[MODEL_MAX_POOLS];
};

/* Fields are in order of use: what every packet touches first, the
 * queues and PGs last. */
struct mport {
	_Alignas(MODEL_LINE) uint64_t fs_per_byte; /* femtoseconds per byte on the wire */
	uint64_t frac_fs;			   /* sub-ns end of the transmission in progress */
	uint32_t overhead;
	uint8_t busy;
	uint8_t in_slot; /* slot being transmitted */
	uint8_t n_ucq, n_mcq;
	uint16_t nonempty; /* bit per slot */
	uint16_t paused;   /* bit per slot: downstream PFC */
	uint8_t ndwrr;
	uint16_t sp_mask; /* bit per strict-priority slot */
	uint8_t rr, rr_turn;
	uint8_t tc_pg[MODEL_NUM_TC], tc_ucq[MODEL_NUM_TC], tc_mcq[MODEL_NUM_TC];
	uint32_t sampling_rate, skip;
	uint8_t dwrr_list[MQ_SLOTS];
	struct mpeak ing_uc, egr_uc;
	struct model_if_counters ctr;
	struct mpeak ing_mc, egr_mc;
	uint64_t pfc_delay;
	struct msum sum_pg, sum_uc, sum_mc;
	uint64_t drop_in[MODEL_DROP_NCAUSES], drop_out[MODEL_DROP_NCAUSES];
	struct mpg pg[MODEL_NUM_PG];
	struct mqueue q[MQ_SLOTS];
};

struct msrc {
	struct model_source src;
	struct model_pkt next;
	uint8_t live;
};

/* A rare event (PFC release, marker tick) in the 4-ary heap. */
struct mheap_ent {
	uint64_t t;
	uint64_t seq; /* insertion number: ties run in insertion order */
	uint32_t id;
};

struct mchunk {
	struct mchunk *next;
	struct mpkt recs[];
};

struct model {
	struct model_config cfg;
	uint32_t np;	    /* ports including the CPU port */
	uint8_t cell_shift; /* log2(cell_bytes) when a power of two, else 0 */
	uint64_t now;
	struct model_rng rng;
	struct mport *ports;

	/* buffer */
	uint32_t cells_used;
	struct mpeak dev_uc, dev_mc;
	uint32_t ip_used[MODEL_MAX_POOLS], ep_used[MODEL_MAX_POOLS];
	struct mpeak ip_pk[MODEL_MAX_POOLS], ep_pk[MODEL_MAX_POOLS];

	/* events */
	struct mheap_ent *heap; /* rare events */
	uint32_t nheap, heap_cap;
	uint64_t *tree; /* tournament tree, 2 * tn keys (model.c) */
	uint64_t tbase; /* time base of the tree's keys */
	uint32_t tn;	/* leaves (power of two) */
	uint8_t tdepth; /* log2(tn) */
	uint64_t seq;
	uint32_t cur_id;   /* event being dispatched */
	uint32_t cur_leaf; /* its tree leaf, or all ones (heap event, or none) */
	uint8_t in_dispatch, cur_from_tree, resched, tree_resched;
	uint64_t resched_t; /* heap events */
	struct msrc *srcs;
	uint32_t nsrc, src_cap, src_live;
	uint8_t tick_armed;
	uint32_t tick_pos; /* next queue (port * MQ_SLOTS + slot) to refresh */

	/* packet pool */
	struct mpkt *free_list;
	struct mchunk *chunks;

	/* peak windows of every buffer object */
	struct mpeak_w *win;
	uint32_t nwin, win_used;
	struct mqcold *qcold; /* queue (port * MQ_SLOTS + slot) */
	/* delay windows: queue (port * MQ_SLOTS + slot) * MODEL_NUM_WINDOWS + w */
	struct mdelay_w *dwin;

	/* event ring */
	struct model_event *ring;
	uint32_t ring_cap, ring_head, ring_n;

	struct model_stats st;
	model_trace_fn trace;
	void *trace_arg;
};

/* The seed 000 marker rules (model.h), inline for the engine's hot path;
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

static inline struct mqcold *qcold(const struct model *m, unsigned port, unsigned slot)
{
	return &m->qcold[port * MQ_SLOTS + slot];
}

/* model.c helpers used by model_telem.c */
uint32_t model_q_alloc(const struct model *m, const struct mqueue *q);
uint32_t model_pg_alloc(const struct model *m, const struct mpg *g);
uint32_t model_sum_alloc(const struct model *m, const struct msum *s, int egress);

#endif
