/*
 * bpfrun.h - the linux backend's `bpf` source (bpfrun.c, bpfev.c,
 * bpfdrain.c): open (after the qdisc source has mapped the queues),
 * drain the kernel's figures into the leaves before a window read, the
 * sojourn histograms as own records, queue event streams, status, close.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_LINUX_BPFRUN_H
#define BSFLOWD_LINUX_BPFRUN_H

#include <stddef.h>
#include <stdint.h>

#include "agent/backend.h"

struct linuxbe_st;

/* 0, or -1 with "bpf absent (...)" in why (no BTF, no capability, the
 * verifier's refusal, built without BPF). */
int linuxbe_bpf_open(struct linuxbe_st *st, char *why, size_t whylen);
/* Fold what the kernel measured since the last drain into the leaves'
 * peak windows and delays (at most once per ms). */
void linuxbe_bpf_drain(struct linuxbe_st *st);
void linuxbe_bpf_log_status(struct linuxbe_st *st);
/* The source samples packets at dequeue (psample not active, packet not
 * required); its pool: packets dequeued from the port's watched queues. */
int linuxbe_bpf_sampling(const struct linuxbe_st *st);
uint64_t linuxbe_bpf_pool(struct linuxbe_st *st, uint32_t port);
/* The source reports drops (dropmon not active); drops its kernel token
 * bucket suppressed or its ring lost, cumulative. */
int linuxbe_bpf_dropping(const struct linuxbe_st *st);
uint64_t linuxbe_bpf_drops_lost(struct linuxbe_st *st);
/* The port's own counter record E:12 sojourn_histograms (nothing when
 * the source is not active or watches none of its queues). */
int linuxbe_bpf_own_records(struct linuxbe_st *st, uint32_t port, uint32_t enterprise,
			    struct bsf_own_records *out, char *err, size_t errlen);
/* Stream one queue's enqueues and dequeues (backend.h set_queue_events),
 * and the stream events the kernel's ring lost, cumulative. */
int linuxbe_bpf_set_queue_events(struct linuxbe_st *st, uint32_t port, uint32_t queue,
				 uint32_t multicast, uint32_t flags, char *err, size_t errlen);
uint64_t linuxbe_bpf_queue_events_lost(struct linuxbe_st *st);
void linuxbe_bpf_close(struct linuxbe_st *st);
/* The ports change (bpfswap.c): take the cumulative figures and close the
 * source (NULL: nothing to carry); after the switch and linuxbe_bpf_open,
 * give them back to the queues and ports still there (and free them). */
struct linuxbe_bpf_carry;
struct linuxbe_bpf_carry *linuxbe_bpf_carry_take(struct linuxbe_st *st);
void linuxbe_bpf_carry_give(struct linuxbe_st *st, struct linuxbe_bpf_carry *c);

#endif
