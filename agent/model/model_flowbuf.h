/*
 * model_flowbuf.h - flow-based shared-buffer admission: a shared-buffer
 * controller that keeps, beside the occupancy counts of every (ingress
 * port, receive priority) and (egress port, transmit priority), counts
 * per flow region, and admits or drops each packet from admission states
 * computed from those counts (computed from earlier packets, refreshed
 * with a configurable lag).  Flows are classified into regions by a hash
 * over header fields or by match rules naming a region; several flows
 * may share a region's count, and one admission state may combine
 * several counts.  Also flow-based WRED, flow-based mirroring and the
 * short-time-change flag.  Off unless a model_fb is made.
 *
 * Accounting, as the source document's: a packet's size (bytes or
 * packets) is added to its flow count and its two occupancy counts only
 * once it is admitted (a dropped packet consumes nothing), and taken off
 * all three when it is transmitted (model_fb_release).
 *
 * [NOT IN PATENT] defaults of ours: every bound is a dynamic threshold
 * T = alpha x (B_pool - used_pool); the "function" decision rule admits
 * when the mean of the three continuous states is below 100 %; the
 * multi-level state has 4 levels; the short-time-change flag is
 * |count - count at the window's start| > delta within a tumbling window
 * (its region is then refused while flagged if stc_admit); WRED is
 * linear between min and max.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_MODEL_MODEL_FLOWBUF_H
#define BSFLOWD_MODEL_MODEL_FLOWBUF_H

#include <stdint.h>

#include "agent/model/model.h"

#define MODEL_FB_MAX_COUNTS 1024
#define MODEL_FB_MAX_RULES  256
#define MODEL_FB_MAX_PORTS  256
#define MODEL_FB_NPRIO	    8

enum { MODEL_FB_UNIT_BYTES = 0, MODEL_FB_UNIT_PKTS };
enum { MODEL_FB_CLASS_HASH = 0, MODEL_FB_CLASS_RULES };
/* Admission-state encodings (all from the same percentage of the bound). */
enum { MODEL_FB_STATE_BINARY = 0, MODEL_FB_STATE_LEVELS, MODEL_FB_STATE_PERCENT };
/* Decision rules over the states of FL, (PI,Rp), (PO,Tp). */
enum { MODEL_FB_RULE_ALL = 0, MODEL_FB_RULE_MAJORITY, MODEL_FB_RULE_FUNC };
/* How a state combines its counts. */
enum { MODEL_FB_COMB_SUM = 0, MODEL_FB_COMB_MAX, MODEL_FB_COMB_MEAN };
/* Why a packet was dropped. */
enum { MODEL_FB_OK = 0, MODEL_FB_DROP_DT, MODEL_FB_DROP_WRED, MODEL_FB_DROP_STC };

/* A packet's header fields the classifier reads. */
struct model_fb_key {
	uint32_t src_ip, dst_ip;
	uint16_t src_port, dst_port;
	uint8_t proto, dscp;
	uint16_t vlan;
	uint32_t binding; /* VNI, VRF or tunnel id; 0: none */
};

/* A match rule: the fields it tests (mask MODEL_FB_M_*) and the region it
 * names. */
#define MODEL_FB_M_SRC	   0x01
#define MODEL_FB_M_DST	   0x02
#define MODEL_FB_M_SPORT   0x04
#define MODEL_FB_M_DPORT   0x08
#define MODEL_FB_M_PROTO   0x10
#define MODEL_FB_M_DSCP	   0x20
#define MODEL_FB_M_VLAN	   0x40
#define MODEL_FB_M_BINDING 0x80
struct model_fb_rule {
	uint32_t match;
	struct model_fb_key key;
	uint8_t src_len, dst_len; /* prefix lengths (0..32) */
	uint16_t count;		  /* the region (count index) it names */
};

/* A bound: dynamic (alpha) or a static number of units. */
struct model_fb_bound {
	double alpha;  /* T = alpha (B - used); used when stat == 0 */
	uint64_t stat; /* static bound in units; 0: dynamic */
};

struct model_fb_config {
	uint32_t n_ports;    /* ports (ingress and egress indices) */
	uint8_t unit;	     /* MODEL_FB_UNIT_* */
	uint8_t flow_on;     /* flow-based admission on (else only occupancy) */
	uint8_t classify;    /* MODEL_FB_CLASS_*; rules fall back to the hash */
	uint8_t encoding;    /* MODEL_FB_STATE_* */
	uint8_t levels;	     /* multi-level states (default 4) */
	uint8_t rule;	     /* MODEL_FB_RULE_* */
	uint8_t combine;     /* MODEL_FB_COMB_*, for states of several counts */
	uint8_t hash_fields; /* MODEL_FB_M_* fields the hash covers (default 5-tuple) */
	uint64_t pool;	     /* B: the shared pool in units */
	uint32_t n_counts;   /* flow regions (counts) */
	uint32_t n_states;   /* admission states; 0: one per count */
	uint16_t count_state[MODEL_FB_MAX_COUNTS]; /* the state each count feeds */
	struct model_fb_bound flow_bound;	   /* per state */
	struct model_fb_bound occ_bound;	   /* per (port, priority) */
	uint32_t n_rules;
	struct model_fb_rule rules[MODEL_FB_MAX_RULES];
	uint64_t refresh_ns; /* states refreshed at most this often; 0: every update */
	/* flow-based WRED on the flow count (units): off when wred_max == 0 */
	uint64_t wred_min, wred_max;
	double wred_maxp;
	/* mirroring: packets of a region whose count is above mirror_at;
	 * only while its (PO,Tp) state is at or above mirror_cong_pc if
	 * mirror_cong; off when mirror_at == 0 */
	uint64_t mirror_at;
	uint8_t mirror_cong;
	uint32_t mirror_cong_pc;
	uint16_t mirror_port;
	/* short-time change: |delta count| > stc_delta within stc_win_ns */
	uint64_t stc_win_ns, stc_delta;
	uint8_t stc_admit, stc_mirror;
	uint64_t seed; /* WRED's random numbers */
};

/* What the controller decided for one packet. */
struct model_fb_res {
	uint8_t drop; /* MODEL_FB_* cause, 0: admitted */
	uint8_t mirror;
	uint8_t stc_event; /* a short-time change was raised by this packet */
	uint16_t count;	   /* its region */
	uint32_t pc[3];	   /* states seen: FL, (PI,Rp), (PO,Tp), hundredths of % */
};

/* A region's counters. */
struct model_fb_region {
	uint64_t cur, peak;	  /* units; peak since the last read */
	uint32_t cur_pc, peak_pc; /* hundredths of % of its bound */
	uint64_t bound;		  /* its state's bound now, units */
	uint64_t admitted, dropped, dropped_wred, mirrored, stc_events;
	uint32_t state; /* encoded admission state of its state */
	uint8_t stc;	/* flagged now */
};

struct model_fb;

void model_fb_defaults(struct model_fb_config *c, uint32_t n_ports, uint64_t pool);
struct model_fb *model_fb_new(const struct model_fb_config *c, struct model_err *err);
void model_fb_free(struct model_fb *fb);
/* The region a packet's fields classify to. */
uint16_t model_fb_classify(const struct model_fb *fb, const struct model_fb_key *k);
/* Admission of a packet (len bytes) of region cnt from (in_port, rp) to
 * (out_port, tp) at now; admitted packets are counted. */
struct model_fb_res model_fb_admit(struct model_fb *fb, uint16_t cnt, uint32_t in_port, unsigned rp,
				   uint32_t out_port, unsigned tp, uint32_t len, uint64_t now);
/* A packet admitted earlier is transmitted. */
void model_fb_release(struct model_fb *fb, uint16_t cnt, uint32_t in_port, unsigned rp,
		      uint32_t out_port, unsigned tp, uint32_t len, uint64_t now);
/* Counts: a region's, an occupancy count's, the pool's use. */
uint64_t model_fb_count(const struct model_fb *fb, uint16_t cnt);
uint64_t model_fb_occ(const struct model_fb *fb, int egress, uint32_t port, unsigned prio);
uint64_t model_fb_used(const struct model_fb *fb);
/* The flow regions' bound now (units: every region's, from the pool's use). */
uint64_t model_fb_bound(const struct model_fb *fb);
/* The dynamic threshold alpha (B - used) in units (closed form). */
uint64_t model_fb_dt(double alpha, uint64_t pool, uint64_t used);
/* The encoded state of percentage pc (hundredths of %). */
uint32_t model_fb_encode(const struct model_fb *fb, uint32_t pc);
/* A region's counters; the peak is reset. */
void model_fb_read(struct model_fb *fb, uint16_t cnt, struct model_fb_region *out);
const struct model_fb_config *model_fb_config(const struct model_fb *fb);

#endif
