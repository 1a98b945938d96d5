/*
 * bsflowd.bpf.h - what the linux backend's BPF object (bsflowd.bpf.c) and
 * its loader (bpfrun.c, bpfev.c, bpfdrain.c) share: the records of its
 * maps and ring buffers, and their sizes.  Plain fixed-width types only,
 * so that both the BPF side (vmlinux.h) and the user side (stdint.h)
 * compile it.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_LINUX_BPF_H
#define BSFLOWD_LINUX_BPF_H

#define LINUXBE_BPF_SLOTS  1024 /* queues watched: ports x queues */
#define LINUXBE_BPF_HIST   32	/* log2 buckets of the sojourn, ns */
#define LINUXBE_BPF_NOSLOT 0xFFFFFFFFu

#define LINUXBE_BPF_HDR 128 /* header bytes a sample carries at most */

/* The per-packet table: sets of LINUXBE_BPF_WAYS records, indexed by a
 * hash of the skb's address (a record: the packet's enqueue). */
#define LINUXBE_BPF_SETS_LOG2 14
#define LINUXBE_BPF_SETS      (1 << LINUXBE_BPF_SETS_LOG2)
#define LINUXBE_BPF_WAYS      4
/* A record older than this is free (its packet left unseen). */
#define LINUXBE_BPF_STALE_NS 10000000000ull

/* A classful root's leaves the object looks through per packet, at most. */
#define LINUXBE_BPF_MAX_LEAVES 16

/* slot flags */
#define LINUXBE_BPF_QEV_ENQ 1u /* stream enqueue events */
#define LINUXBE_BPF_QEV_DEQ 2u /* stream dequeue events */

/* A root qdisc the tracepoints see (hash `queues`, by ifindex << 32 |
 * handle): a queue itself (nleaves 0: its slot), or a classful root whose
 * watched leaves are slots first .. first + nleaves - 1. */
struct linuxbe_bpf_root {
	__u32 slot; /* its slot, or its first leaf's */
	__u32 nleaves;
	__u32 learned; /* the `learn` generation of its leaves' addresses */
	__u32 pad;
};

/* Roots by ifindex: array `rootidx` of LINUXBE_BPF_ROOTIDX entries, at
 * ifindex % LINUXBE_BPF_ROOTIDX, so that most enqueues find their root (or
 * that it is not watched) without a hash lookup; an entry shared by
 * several roots (mq children, or two ports' ifindexes) says `hashed`: its
 * roots are in the hash `queues`. */
#define LINUXBE_BPF_ROOTIDX 4096
struct linuxbe_bpf_rootidx {
	__u32 ifindex;
	__u32 handle;
	__u32 hashed;
	__u32 pad;
	struct linuxbe_bpf_root r;
};

/* One of the agent's ports (hash `ports`, by ifindex), for drops. */
struct linuxbe_bpf_port {
	__u32 slot;    /* its only queue's slot, or LINUXBE_BPF_NOSLOT */
	__u32 first;   /* a classful root: its first leaf's slot */
	__u32 nleaves; /* and how many (0: not classful) */
	__u32 pad;
};

/* A watched queue (array `slots`, by slot; written by the loader). */
struct linuxbe_bpf_slot {
	__u32 ifindex; /* its port */
	__u32 rate;    /* its port's 1-in-N at dequeue (0: none) */
	__u32 stream;  /* LINUXBE_BPF_QEV_* */
	__u32 pad;
};

/* What the object keeps of a queue (array `qvars`, by slot). */
struct linuxbe_bpf_qvar {
	__u64 seq;    /* the last number given in its enqueue sequence */
	__u64 deq_id; /* the highest number seen leaving */
	__u64 qdisc;  /* its qdisc's address (a leaf's: learned from the device) */
	__u32 drops;  /* a leaf: its qdisc's drops already paired with a kfree_skb */
	__u32 pcpu;   /* 1: a lockless qdisc with per-CPU statistics (pfifo_fast):
			 its backlog is not readable */
};

/* A packet's enqueue into a watched queue (one way of a set). */
struct linuxbe_bpf_pkt {
	__u64 skb; /* its address; 0: a free way */
	__u64 t;   /* CLOCK_MONOTONIC ns of the enqueue */
	__u64 id;  /* its number in the queue's enqueue sequence */
	__u32 slot;
	__u32 backlog; /* bytes it met at enqueue (before it), ~0 unknown */
};

struct linuxbe_bpf_set {
	struct linuxbe_bpf_pkt way[LINUXBE_BPF_WAYS];
};

/* A sampled packet at dequeue (ring buffer `samples`). */
struct linuxbe_bpf_sample {
	__u64 t;		       /* CLOCK_MONOTONIC ns of the dequeue */
	__u64 sojourn;		       /* ns in the qdisc, ~0 unknown (no record) */
	__u64 backlog;		       /* bytes the packet met at enqueue, ~0 unknown */
	__u32 slot;		       /* its queue */
	__u32 in_ifindex;	       /* skb_iif, 0 if locally originated */
	__u32 frame_len;	       /* skb->len */
	__u32 hdr_len;		       /* bytes in hdr */
	__u8 hdr[2 * LINUXBE_BPF_HDR]; /* (twice the size: a bound the verifier sees) */
};

/* An enqueue or dequeue of a streamed queue (ring buffer `qevents`). */
struct linuxbe_bpf_qev {
	__u64 t;       /* CLOCK_MONOTONIC ns */
	__u64 id;      /* the packet's number in its queue */
	__u64 depth;   /* bytes in the queue after the event */
	__u64 sojourn; /* dequeue: ns in the qdisc */
	__u32 slot;
	__u32 type; /* LINUXBE_BPF_QEV_ENQ or _DEQ */
	__u32 frame_len;
	__u32 hdr_len;
	__u8 hdr[2 * LINUXBE_BPF_HDR];
};

/* A dropped packet (skb:kfree_skb) on one of the agent's ports (ring
 * buffer `drops`). */
struct linuxbe_bpf_drop {
	__u64 t;	 /* CLOCK_MONOTONIC ns */
	__u32 ifindex;	 /* skb->dev */
	__u32 reason;	 /* enum skb_drop_reason (names from the kernel's BTF) */
	__u32 queue;	 /* skb->queue_mapping */
	__u32 frame_len; /* skb->len */
	__u32 hdr_len;	 /* bytes in hdr, from the MAC header when set */
	__u32 slot;	 /* the watched queue that dropped it, or LINUXBE_BPF_NOSLOT */
	__u64 depth;	 /* bytes in that queue at the drop, ~0 unknown */
	__u64 tail_id;	 /* id of the last packet admitted to it (streamed) */
	__u8 hdr[2 * LINUXBE_BPF_HDR];
};

/* Per-CPU counts of the drop reports (array `bucket`). */
struct linuxbe_bpf_bucket {
	__u64 suppressed; /* by the rate limit */
	__u64 lost;	  /* to a full ring */
};

/* A queue's maxima of one `epoch` on one CPU. */
struct linuxbe_bpf_qmax {
	__u64 epoch;
	__u64 peak_backlog; /* bytes, after an enqueue */
	__u64 peak_t;	    /* CLOCK_MONOTONIC ns of that peak */
	__u64 peak_qlen;    /* packets, after an enqueue */
	__u64 peak_qlen_t;  /* CLOCK_MONOTONIC ns of that peak */
	__u64 sojourn_max;  /* ns */
};

/* One queue's figures on one CPU (per-CPU array `qstats`, by slot): the
 * maxima of the current `epoch` e in max[e & 1] (the programs reset them
 * at their first write in a new epoch), while the loader, which bumps
 * the epoch, reads those of the epoch before in the other half, which
 * the programs then no longer write (and it never writes); and counts
 * that only grow (the loader takes the differences): no update is lost
 * between two reads. */
struct linuxbe_bpf_qstat {
	struct linuxbe_bpf_qmax max[2];
	__u64 sojourn_last;   /* ns, the latest dequeue's (not reset) */
	__u64 sojourn_last_t; /* CLOCK_MONOTONIC ns of that dequeue */
	/* cumulative */
	__u64 sojourn_n;	      /* dequeues measured */
	__u64 enq;		      /* enqueues seen */
	__u64 deq;		      /* dequeues (the sampling pool), measured or not */
	__u64 unmeasured;	      /* records lost to a full set (no sojourn) */
	__u64 ring_lost;	      /* samples lost to a full ring buffer */
	__u64 qev_lost;		      /* queue events lost to a full ring buffer */
	__u64 hist[LINUXBE_BPF_HIST]; /* bucket b: sojourn in [2^b, 2^(b+1)) ns */
};

#endif
