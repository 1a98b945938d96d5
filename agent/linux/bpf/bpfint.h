/*
 * bpfint.h - the `bpf` source's state, shared by its loader (bpfrun.c),
 * its ring buffer readers (bpfev.c) and its drain of the per-CPU figures
 * (bpfdrain.c).  Built only with BPF support (HAVE_BPF).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_LINUX_BPFINT_H
#define BSFLOWD_LINUX_BPFINT_H

#include <stdint.h>

#include <bpf/libbpf.h>
#include <linux/types.h>

#include "agent/linux/bpf/bsflowd.bpf.h"
#include "agent/linux/state.h"

struct bsflowd_bpf;

/* A ring buffer record that did not fit the event queue, kept until it
 * does (the kernel's ring holds the rest meanwhile). */
union linuxbe_bpf_rec {
	struct linuxbe_bpf_sample s;
	struct linuxbe_bpf_drop d;
	struct linuxbe_bpf_qev q;
};

struct linuxbe_bpf {
	struct bsflowd_bpf *skel;
	int ncpu;
	struct linuxbe_bpf_qstat *buf;			  /* ncpu records: one lookup */
	struct linuxbe_bpf_qstat prev[LINUXBE_BPF_SLOTS]; /* counts at the last read */
	uint32_t nslots;
	uint32_t slot_port[LINUXBE_BPF_SLOTS], slot_q[LINUXBE_BPF_SLOTS];
	uint32_t slot_stream[LINUXBE_BPF_SLOTS]; /* LINUXBE_BPF_QEV_* */
	/* cumulative since open, per slot: the sojourn histogram, the
	 * packets left unmeasured, the queue events lost in the kernel */
	uint64_t hist[LINUXBE_BPF_SLOTS][LINUXBE_BPF_HIST];
	uint64_t unmeasured[LINUXBE_BPF_SLOTS];
	uint64_t qev_lost;
	unsigned n_leaf_slots; /* slots of leaves of classful roots */
	char leaf_why[160];    /* leaves left out, and why */
	uint64_t last_drain_mono;
	uint64_t drains;
	int hist_cut_said;   /* logged that a port's histograms did not all fit */
	uint64_t learn_mono; /* CLOCK_MONOTONIC of the last bump of `learn` */
	/* sampling (when neither psample nor a required packet source does) */
	int sampling;
	struct ring_buffer *rb;
	struct bsf_fd_watch *rb_w;
	uint64_t *pool; /* per port: packets dequeued from its watched queues */
	uint64_t samples;
	/* drops (when dropmon is not active) */
	int dropping;
	char (*reasons)[48]; /* enum skb_drop_reason names, from the kernel's BTF */
	unsigned n_reasons;
	uint64_t drop_events;
	uint64_t drops_lost_base;      /* lost by the object before a ports change */
	struct linuxbe_bpf_bucket *bk; /* ncpu, for the suppressed count */
	uint32_t drop_rate;	       /* reports a second the kernel sends at most */
	char drops_why[160];	       /* why the kernel's drops are not read, if so */
	/* queue streams */
	uint64_t qev_read;
	uint64_t off_ns; /* the agent's clock - CLOCK_MONOTONIC, this read */
	union linuxbe_bpf_rec pending;
	int pending_kind; /* 0 none, 1 sample, 2 drop, 3 queue event */
};

/* bpfrun.c: can the object load on the kernel of BTF btf?  0, or -1
 * with why (no qdisc_enqueue tracepoint: Linux 5.14); *drops: its drop
 * program can load too (kfree_skb with its reason, and the reason
 * QDISC_DROP: Linux 5.18), else why says so and the object loads
 * without it. */
struct btf;
int linuxbe_bpf_kernel_check(const struct btf *btf, int *drops, char *why, size_t whylen);

/* bpfev.c: the ring buffers' records into the event queue */
void linuxbe_bpf_load_reasons(struct linuxbe_bpf *b);
/* Create the ring buffer reader of the rings in use and watch it; 0 or -1. */
int linuxbe_bpf_rings_open(struct linuxbe_st *st);
/* CLOCK_MONOTONIC ns */
uint64_t linuxbe_bpf_mono_ns(void);

#endif
