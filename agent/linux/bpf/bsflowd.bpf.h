/*
 * bsflowd.bpf.h - what the linux backend's BPF object (bsflowd.bpf.c) and
 * its loader (bpfrun.c) share: the per-queue statistics record and the
 * sizes of the maps.  Plain fixed-width types only, so that both the BPF
 * side (vmlinux.h) and the user side (stdint.h) compile it.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_LINUX_BPF_H
#define BSFLOWD_LINUX_BPF_H

#define LINUXBE_BPF_SLOTS 1024 /* queues watched: ports x queues */
#define LINUXBE_BPF_HIST  32   /* log2 buckets of the sojourn, ns */

#define LINUXBE_BPF_HDR 128 /* header bytes a sample carries at most */

/* A watched queue: its slot in qstats, its port's 1-in-N (0: none). */
struct linuxbe_bpf_qinfo {
	__u32 slot;
	__u32 rate;
};

/* A sampled packet at dequeue (ring buffer `samples`). */
struct linuxbe_bpf_sample {
	__u64 t;		       /* CLOCK_MONOTONIC ns of the dequeue */
	__u64 sojourn;		       /* ns in the qdisc */
	__u64 backlog;		       /* bytes the packet met at enqueue */
	__u32 slot;		       /* its queue */
	__u32 in_ifindex;	       /* skb_iif, 0 if locally originated */
	__u32 frame_len;	       /* skb->len */
	__u32 hdr_len;		       /* bytes in hdr */
	__u8 hdr[2 * LINUXBE_BPF_HDR]; /* (twice the size: a bound the verifier sees) */
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
	__u32 pad;
	__u64 suppressed; /* drops the token bucket suppressed on this CPU so far */
	__u8 hdr[2 * LINUXBE_BPF_HDR];
};

/* The per-CPU token bucket of drop reports. */
struct linuxbe_bpf_bucket {
	__u64 tokens_ns; /* credit, in ns of the refill period */
	__u64 last;	 /* CLOCK_MONOTONIC ns of the last refill */
	__u64 suppressed;
	__u64 lost; /* drops lost to a full ring */
};

/* One queue's figures since the loader last drained this half (per CPU). */
struct linuxbe_bpf_qstat {
	__u64 peak_backlog;	      /* bytes, after an enqueue */
	__u64 peak_t;		      /* CLOCK_MONOTONIC ns of that peak */
	__u64 sojourn_max;	      /* ns */
	__u64 sojourn_last;	      /* ns, the latest dequeue's */
	__u64 sojourn_last_t;	      /* CLOCK_MONOTONIC ns of that dequeue */
	__u64 sojourn_n;	      /* dequeues measured */
	__u64 enq;		      /* enqueues seen */
	__u64 deq;		      /* dequeues seen (the sampling pool) */
	__u64 ring_lost;	      /* samples lost to a full ring buffer */
	__u64 hist[LINUXBE_BPF_HIST]; /* bucket b: sojourn in [2^b, 2^(b+1)) ns */
};

#endif
