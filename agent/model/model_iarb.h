/*
 * model_iarb.h - ingress arbitration with accelerated memory: an ingress
 * arbiter that stores each packet in a deep packet buffer (PB, memory
 * units) and, while the switch is not congested, the packet's start
 * (SOP) in a small accelerated memory (AM), so that the SOP reaches the
 * ingress packet processor sooner.  The arbiter decides per packet at
 * enqueue from a congestion measure (an OR of switchable inputs, each
 * compared with its threshold: acceleration only when strictly below),
 * keeps every ingress port's packets in arrival order, asserts PFC on
 * lossless traffic when PB usage passes a threshold and counts what it
 * did.  Off unless a model_iarb is made (model_iarb_new).
 *
 * Defaults and what is ours: see model_iarb_defaults and
 * bsflowd.conf(5) (ingress_arbitration).  The hysteresis, the
 * oversubscription rate window (10 us) and holding a SOP in the AM (and a
 * packet in the PB) until its ready time are [NOT IN PATENT] choices of
 * ours.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_MODEL_MODEL_IARB_H
#define BSFLOWD_MODEL_MODEL_IARB_H

#include <stdint.h>

#include "agent/model/model.h"

#define MODEL_IARB_MAX_PORTS 256

/* Congestion inputs (bit numbers of model_iarb_config.inputs). */
enum {
	MODEL_IARB_IN_AM = 0,	   /* AM fill (per ingress port or summed) */
	MODEL_IARB_IN_PFC_ING,	   /* PFC state of the ingress port */
	MODEL_IARB_IN_PFC_EGR,	   /* PFC state of the egress port */
	MODEL_IARB_IN_PFC_ING_RES, /* PFC state of the ingress port's resources */
	MODEL_IARB_IN_PFC_EGR_RES, /* PFC state of the egress port's resources */
	MODEL_IARB_IN_OVERSUB,	   /* ingress bandwidth above the oversubscription threshold */
	MODEL_IARB_IN_EGR_OVER,	   /* egress buffer over-utilized */
	MODEL_IARB_NIN
};
#define MODEL_IARB_IN_ALL ((1u << MODEL_IARB_NIN) - 1u)

/* Where a packet's SOP went. */
enum { MODEL_IARB_PB = 0, MODEL_IARB_AM = 1 };

struct model_iarb_config {
	uint32_t n_ports;      /* ingress ports of the arbiter (1..MODEL_IARB_MAX_PORTS) */
	uint32_t sop_bytes;    /* SOP portion (default 128) */
	uint32_t unit_bytes;   /* PB memory unit (default 128) */
	uint64_t pb_bytes;     /* PB size (default 5 MiB) */
	uint64_t am_bytes;     /* AM size; 0: sop_bytes x n_ports */
	uint32_t inputs;       /* MODEL_IARB_IN_* in use (default all but OVERSUB) */
	uint8_t am_per_port;   /* AM fill per ingress port (its share) vs summed */
	uint8_t sop_dup;       /* SOP also copied into PB in AM mode */
	uint8_t hysteresis;    /* [NOT IN PATENT] off by default */
	uint64_t am_thresh;    /* AM fill threshold, bytes; 0: the scope's size */
	uint32_t oversub_pc;   /* hundredths of %, of peak_bps (default 7000) */
	uint64_t peak_bps;     /* peak processing rate, bit/s (OVERSUB needs it) */
	uint64_t rate_win_ns;  /* [NOT IN PATENT] rate window (default 10000) */
	uint32_t hyst_pc;      /* release when below thresh x hyst_pc / 10000 */
	uint32_t lat_am_clk;   /* SOP latency through AM (default 47 clocks) */
	uint32_t lat_pb_clk;   /* through PB (default 87 clocks) */
	uint64_t clock_hz;     /* default 1 GHz */
	uint64_t pb_pfc_bytes; /* PB usage asserting PFC on lossless traffic; 0: off */
	uint32_t egr_over_pc;  /* in the engine: egress buffer over-utilized at this
				  use of the whole buffer (hundredths of %, 9000) */
};

/* What the caller knows about a packet's surroundings at enqueue. */
struct model_iarb_in {
	uint8_t pfc_ing, pfc_egr, pfc_ing_res, pfc_egr_res, egr_over;
};

/* The arbiter's answer for one packet. */
struct model_iarb_res {
	uint8_t mode;	  /* MODEL_IARB_AM or MODEL_IARB_PB */
	uint8_t dropped;  /* PB full: no_buffer_space */
	uint8_t pfc;	  /* PFC asserted on lossless traffic now */
	uint32_t causes;  /* inputs that found it congested (mask) */
	uint32_t lat_clk; /* its SOP latency, clocks */
	uint64_t ready;	  /* when its SOP reaches the packet processor (ns) */
};

/* SOP latency figures of one mode (ns). */
struct model_iarb_lat {
	uint64_t n, sum, min, max;
};

/* Counters of one ingress port or of the arbiter. */
struct model_iarb_counters {
	uint64_t accel, not_accel, dropped;
	uint64_t by_cause[MODEL_IARB_NIN]; /* not accelerated, per input found congested */
	uint64_t transitions;		   /* uncongested <-> congested */
	uint64_t congested_ns;		   /* time spent congested */
	uint8_t congested;		   /* state of the last decision */
	uint64_t am_cur, pb_cur;	   /* bytes */
	uint32_t am_cur_pc, am_peak_pc;	   /* hundredths of % of its AM scope */
	uint64_t am_peak;		   /* bytes, since this window's last read */
	uint64_t pfc_on;		   /* PFC assertions (arbiter only) */
	struct model_iarb_lat lat[2];	   /* by mode */
};

struct model_iarb;

void model_iarb_defaults(struct model_iarb_config *c, uint32_t n_ports);
/* NULL with a message in err if the configuration is wrong. */
struct model_iarb *model_iarb_new(const struct model_iarb_config *c, struct model_err *err);
void model_iarb_free(struct model_iarb *ia);
const struct model_iarb_config *model_iarb_config(const struct model_iarb *ia);
/* Lets go of the SOPs and packets whose ready time is <= now. */
void model_iarb_advance(struct model_iarb *ia, uint64_t now);
/* One packet of len bytes on ingress port port at now (non-decreasing). */
struct model_iarb_res model_iarb_enqueue(struct model_iarb *ia, uint32_t port, uint32_t len,
					 const struct model_iarb_in *in, uint64_t now);
/* Counters of port (port == n_ports: the arbiter); the AM peak read and
 * reset for read window w (0..MODEL_NUM_WINDOWS-1); congested time up to
 * now. */
void model_iarb_read(struct model_iarb *ia, uint32_t port, unsigned w, uint64_t now,
		     struct model_iarb_counters *out);
/* SOP latency in ns of clk clocks at the configured clock (rounded up). */
uint64_t model_iarb_clk_ns(const struct model_iarb *ia, uint32_t clk);

#endif
