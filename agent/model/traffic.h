/*
 * traffic.h - scenario traffic generators for the switch model.
 *
 * A generator is one traffic stream entering one ingress port: a rate, a
 * packet-size distribution, an arrival process, a destination pattern and
 * a set of flows whose Ethernet/IP/L4 headers are synthesized (headers.h).
 * Each generator is a model_source (pkt.h) with the engine's fast
 * interface: packets in batches (next_batch), without header bytes, which
 * the engine asks for (header) only for the packets it reports, and the
 * promise that spares the engine's per-packet checks.  model_merge_new
 * combines any number of sources (generators, pcap replays) into one
 * time-ordered source.  scenario.c builds generators from the config
 * file.
 *
 * Conventions (documented for users in bsflowd.conf(5)):
 *  - rates are layer-1 rates: a frame of L bytes (FCS included) occupies
 *    (L + 20) * 8 bits on the wire (preamble, SFD and inter-frame gap), so
 *    a load of 1.0 fills the line exactly;
 *  - a packet's time is the arrival of its last bit; constant arrivals are
 *    spaced by each packet's own wire time at the configured rate;
 *  - the traffic class is the 802.1Q PCP when the frames are tagged, else
 *    DSCP >> 3 (the IP precedence / class selector);
 *  - flows: each packet picks its destination by the pattern, then one of
 *    nflows flows to that destination, uniformly; so a generator has
 *    nflows flows per destination it reaches; a set of destination ports
 *    (ECMP) is one destination, whose flows each leave by the member
 *    their 5-tuple hashes to (model_gen_ecmp_member);
 *  - addresses: port p has the IPv4 subnet 10.(p/256).(p%256).0/24 and the
 *    IPv6 prefix fd00:b5:0:p::/64 (p in hex); flow f uses host number
 *    h = 1 + f % 250 in both the source and the destination subnet, MAC
 *    02:00:00:(p/256):(p%256):h, source L4 port 49152 + k % 16384 where
 *    k = d * nflows + f; multicast group g is 239.181.(g/256).(g%256) or
 *    ff0e::b5:g (MAC 01:00:5e:35:(g/256):(g%256) or 33:33:00:b5:..);
 *  - memory: header bytes (42..82 each) are kept for every (flow, size,
 *    TTL variant) of each destination whose headers were asked for (by
 *    next(), or by the engine for the packets it reports): a block per
 *    destination, allocated on its first use, filled as used, while the
 *    blocks fit the generator's header budget (hdr_budget; by default
 *    MODEL_GEN_HDR_BUDGET_TOTAL / nports, at least
 *    MODEL_GEN_HDR_BUDGET_MIN).  Cached headers are never evicted (a user
 *    of next() may keep packets' hdr pointers for the source's life).
 *    next() gives packets to a destination whose block did not fit with
 *    hdr NULL (hdr_len set); model_gen_header builds their bytes on
 *    request, so in the model their samples and events still carry them.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_MODEL_TRAFFIC_H
#define BSFLOWD_MODEL_TRAFFIC_H

#include <stddef.h>
#include <stdint.h>

#include "agent/model/pkt.h"

#define MODEL_GEN_MAX_FLOWS	1024 /* flows per destination */
#define MODEL_GEN_UNIFORM_SIZES 64   /* distinct sizes of a uniform range */
#define MODEL_GEN_MAX_TO	64   /* ports of a destination set (ECMP) */

/* Default header budget of a generator: this many bytes shared out over
 * the switch's ports (one generator per port keeps the model's header
 * bytes under it), but at least MODEL_GEN_HDR_BUDGET_MIN. */
#define MODEL_GEN_HDR_BUDGET_TOTAL ((size_t)64 << 20)
#define MODEL_GEN_HDR_BUDGET_MIN   ((size_t)64 << 10)

enum model_size_kind {
	MODEL_SIZE_FIXED,   /* size_lo */
	MODEL_SIZE_UNIFORM, /* uniform over size_lo..size_hi: every size if the range
			       has at most 64, else 64 evenly spaced sizes
			       lo + floor(i * (hi - lo) / 63), i = 0..63 */
	MODEL_SIZE_IMIX,    /* simple IMIX: 64, 576, 1500 bytes in the ratio 7:4:1 */
	MODEL_SIZE_EXP,	    /* exponential on whole bytes: size_lo + G, G geometric
			       (P(G = k) = (1 - q) q^k, q = m / (m + 1), mean
			       m = size_mean - size_lo: floor(m' E), E exponential,
			       m' = 1 / ln(1 + 1/m)), redrawn above size_hi;
			       size_lo 0: the smallest frame its headers fit */
};

/* The simple IMIX, frame lengths with FCS; its mean is 4252/12 bytes. */
#define MODEL_IMIX_SMALL  64
#define MODEL_IMIX_MEDIUM 576
#define MODEL_IMIX_LARGE  1500

enum model_arrival_kind {
	MODEL_ARRIVAL_CONSTANT,	    /* evenly spaced at the rate */
	MODEL_ARRIVAL_POISSON,	    /* exponential gaps, mean = mean wire bits / rate */
	MODEL_ARRIVAL_ONOFF,	    /* constant at the rate during the on part of each period */
	MODEL_ARRIVAL_POISSON_LINK, /* link-limited Poisson: each gap is the frame's own
				       wire time at link_bps plus an exponential idle time
				       (mean: what gives the rate), so the ingress line
				       rate is never exceeded */
};

enum model_dest_kind {
	MODEL_DEST_FIXED,	/* always dest_port */
	MODEL_DEST_UNIFORM,	/* uniform over all ports but the ingress port */
	MODEL_DEST_HOTSPOT,	/* dest_port with probability hotspot, else uniform */
	MODEL_DEST_PERMUTATION, /* resolved by the caller to a fixed port */
	MODEL_DEST_INCAST,	/* N:1: like fixed; the group shares on/off phases */
};

struct model_gen_conf {
	uint16_t in_port; /* 0..nports-1 */
	uint16_t nports;  /* switch size (destinations are 0..nports-1) */
	double rate_bps;  /* layer-1 bits/s (the on-rate for on/off) */
	double link_bps;  /* the ingress port's line rate, >= rate_bps: needed by
			     MODEL_ARRIVAL_POISSON_LINK, else unused */

	enum model_size_kind size;
	uint32_t size_lo, size_hi; /* frame bytes with FCS */
	double size_mean;	   /* MODEL_SIZE_EXP: mean before the redraws above size_hi */

	enum model_arrival_kind arrival;
	uint64_t period_ns;   /* on/off period */
	double duty;	      /* on/off: fraction of the period that is on, (0, 1] */
	uint64_t phase_ns;    /* on/off: offset of the first on part after start */
	uint64_t start_ns;    /* first possible arrival */
	uint64_t stop_ns;     /* no arrival at or after this; 0 = never stop */
	uint64_t max_packets; /* 0 = unlimited */

	enum model_dest_kind dest;
	uint16_t dest_port; /* fixed / incast / permutation target, hotspot port */
	double hotspot;	    /* fraction of packets sent to dest_port */
	/* fixed / incast to a set of ports (n_to >= 2; dest_port is to[0]):
	 * each flow leaves by the member its 5-tuple hashes to
	 * (model_gen_ecmp_member), its addresses those of a flow to to[0] */
	uint16_t n_to;
	uint16_t to[MODEL_GEN_MAX_TO];

	uint32_t nflows;    /* flows per destination, 1..MODEL_GEN_MAX_FLOWS */
	uint32_t flow_base; /* flow f to destination d (port, or multicast
			       group for multicast packets: nports + group - 1)
			       has flow_id flow_base + d * nflows + f */
	uint8_t ip_version; /* 4 or 6 */
	uint8_t l4;	    /* 6 (TCP) or 17 (UDP) */
	int vlan;	    /* -1 untagged, else VID */
	uint8_t pcp;
	uint8_t dscp;
	uint8_t ecn;	/* the packets' ECN field (MODEL_ECN_*, pkt.h) */
	uint16_t dport; /* destination L4 port */

	double mc_fraction; /* fraction of packets sent to mc_group */
	uint16_t mc_group;  /* >= 1 when mc_fraction > 0 */

	double drop_fraction; /* fraction of packets marked fwd_drop */
	uint16_t drop_reason; /* sFlow reason code, e.g. 257, 258, 269 */

	uint64_t seed;
	size_t hdr_budget; /* bytes of cached headers; 0 = the default */
};

/* Number of flow ids a generator uses (flow_base + 0 .. this - 1). */
uint32_t model_gen_flow_ids(const struct model_gen_conf *c);

/* Fill c with defaults: 1 flow, fixed 64-byte UDP/IPv4 frames, constant
 * arrivals, fixed destination 0, DSCP 0, untagged, dport 5001. */
void model_gen_defaults(struct model_gen_conf *c);

/*
 * ECMP: the member (0..n-1) of a set of n ports that a flow's 5-tuple
 * picks: h = the 32-bit FNV-1a hash (offset basis 2166136261, prime
 * 16777619) of the source address, the destination address (4 bytes
 * each for IPv4, 16 for IPv6), the protocol (1 byte), the source and
 * destination L4 ports (2 bytes each, network order), in this order,
 * then MurmurHash3's finalizer (h ^= h >> 16; h *= 0x85ebca6b;
 * h ^= h >> 13; h *= 0xc2b2ae35; h ^= h >> 16, 32-bit); the member is
 * floor(h x n / 2^32).  ip: 4 or 6.
 */
unsigned model_gen_ecmp_member(uint8_t ip, const uint8_t *src, const uint8_t *dst, uint8_t proto,
			       uint16_t sport, uint16_t dport, unsigned n);

/* Traffic class of a frame: PCP if tagged (vlan >= 0), else DSCP >> 3. */
uint8_t model_traffic_tc(int vlan, uint8_t pcp, uint8_t dscp);

/* Mean frame length of the configured size distribution, in bytes
 * (exponential: as drawn, the redraws above size_hi taken into
 * account; size_lo 0 is taken as MODEL_FRAME_MIN). */
double model_gen_mean_size(const struct model_gen_conf *c);
/* Its second moment, E[L^2] (bytes^2). */
double model_gen_size_moment2(const struct model_gen_conf *c);

/* Check a configuration; on error return -1 with a message in err. */
int model_gen_check(const struct model_gen_conf *c, char *err, size_t errlen);

/* Make a generator source.  Returns 0, or -1 with a message in err. */
int model_gen_new(const struct model_gen_conf *c, struct model_source *out, char *err,
		  size_t errlen);

/*
 * Batch interface of a generator source (state is its model_source's
 * state): fill p[0..n-1] with its next packets, in order, and return how
 * many (fewer than n only when the source has ended; 0 then).  Calls may
 * be mixed with the source's next(): both hand out one sequence.  Making
 * packets in batches keeps the generator's state in registers; an engine
 * that takes n packets at a time saves a call per packet.
 *
 * With MODEL_GEN_LAZY_HDR in flags the packets may come with hdr NULL
 * (hdr_len is set): model_gen_header gives their bytes when they are
 * needed (a sample, a drop event), which saves the header lookup for
 * every packet that is never reported.
 */
#define MODEL_GEN_LAZY_HDR 1u
unsigned model_gen_next_batch(void *state, struct model_pkt *p, unsigned n, unsigned flags);

/* Header bytes (hdr_len of them) of a packet the generator made: p->hdr
 * if set, else found from the packet's flow_id, mc_group, len and
 * fwd_drop.  They stay valid for the source's life when the header is
 * cached; over the header budget they are built into a scratch buffer
 * valid until the next call.  NULL when out of memory or when p is not a
 * packet of this generator. */
const uint8_t *model_gen_header(void *state, const struct model_pkt *p);

/* Bytes of memory a generator source uses now (state and header cache). */
size_t model_gen_memory(const struct model_source *s);

/* The header cache of a generator source. */
struct model_gen_hdr_stats {
	size_t budget;		/* bytes the cached headers may take */
	size_t cached_bytes;	/* bytes they take now (<= budget) */
	uint64_t uncached_pkts; /* packets handed out with hdr NULL because
				   their header did not fit the budget */
};
void model_gen_hdr_stats(const struct model_source *s, struct model_gen_hdr_stats *st);

/* A random derangement of 0..n-1 (perm[i] != i when n > 1) drawn from
 * seed: the destination of ingress port i under the permutation pattern. */
void model_traffic_permutation(unsigned n, uint64_t seed, uint16_t *perm);

/*
 * Merge n sources into one whose packets come in non-decreasing time
 * (ties go to the lower index).  Takes ownership of the sources (frees
 * them when the merged source is freed; also on failure).  Returns 0 or -1
 * (out of memory).
 */
int model_merge_new(const struct model_source *srcs, unsigned n, struct model_source *out);

#endif
