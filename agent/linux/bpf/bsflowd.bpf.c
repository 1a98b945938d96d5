/*
 * bsflowd.bpf.c - the linux backend's BPF object (source `bpf`): on the
 * kernel's qdisc:qdisc_enqueue and qdisc:qdisc_dequeue tracepoints
 * (tp_btf, CO-RE against the kernel's BTF) it keeps, for every queue the
 * loader names in `queues` (key: ifindex << 32 | qdisc handle), the exact
 * backlog peak after every enqueue with its time, and each packet's
 * sojourn in the qdisc (enqueue time kept per packet in an LRU hash keyed
 * by the skb, read back at dequeue): max, latest, count and a log2
 * histogram.  Figures go to one of two halves of a per-CPU array chosen
 * by `gen`; the loader flips gen, then reads and clears the other half,
 * so nothing is lost between two reads.  Packets leaving a queue whose
 * port samples 1-in-N are sampled at random with that probability into
 * the `samples` ring buffer: header bytes, sojourn, the backlog met at
 * enqueue, the time (a full ring counts the sample lost).  On
 * skb:kfree_skb, a packet dropped on one of the agent's ports (`ports`)
 * goes to the `drops` ring with its reason, device, queue mapping and
 * header bytes, at most at the rate a per-CPU token bucket allows (the
 * bucket counts what it suppressed, exactly).  Needs Linux >= 5.8 (BTF,
 * tp_btf, the qdisc tracepoints of 5.1 and 5.16 for enqueue).
 *
 * SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
 */
#include "vmlinux.h"

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bsflowd.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

volatile __u32 gen; /* the half being written (0 or 1), set by the loader */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, LINUXBE_BPF_SLOTS);
	__type(key, __u64); /* ifindex << 32 | qdisc handle */
	__type(value, struct linuxbe_bpf_qinfo);
} queues SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} samples SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} drops SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32); /* ifindex of one of the agent's ports */
	__type(value, __u32);
} ports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct linuxbe_bpf_bucket);
} bucket SEC(".maps");

volatile __u32 hdr_bytes = 128;		   /* header bytes per sample, set before load */
volatile __u64 drop_cost_ns = 1000;	   /* one report costs 1e9 / (rate per CPU) ns of credit */
volatile __u64 drop_burst_ns = 1000000000; /* the most credit: one second's reports */

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2 * LINUXBE_BPF_SLOTS);
	__type(key, __u32); /* slot * 2 + half */
	__type(value, struct linuxbe_bpf_qstat);
} qstats SEC(".maps");

struct enq_info {
	__u64 t;
	__u64 backlog; /* met at enqueue */
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 65536);
	__type(key, __u64); /* the skb's address */
	__type(value, struct enq_info);
} inflight SEC(".maps");

static __always_inline struct linuxbe_bpf_qstat *stat_of(struct Qdisc *q,
							 struct linuxbe_bpf_qinfo *qi)
{
	__u64 key = ((__u64)(__u32)q->dev_queue->dev->ifindex << 32) | q->handle;
	struct linuxbe_bpf_qinfo *v = bpf_map_lookup_elem(&queues, &key);
	__u32 idx;

	if (!v)
		return 0;
	*qi = *v;
	idx = v->slot * 2 + (gen & 1);
	return bpf_map_lookup_elem(&qstats, &idx);
}

SEC("tp_btf/qdisc_enqueue")
int BPF_PROG(bsf_enqueue, struct Qdisc *q, const struct netdev_queue *txq, struct sk_buff *skb)
{
	struct linuxbe_bpf_qstat *s;
	struct linuxbe_bpf_qinfo qi;
	struct enq_info ei = {};
	__u64 now, backlog, len, key = (__u64)skb;

	s = stat_of(q, &qi);
	if (!s)
		return 0;
	now = bpf_ktime_get_ns();
	backlog = q->qstats.backlog;
	s->enq++;
	if (backlog > s->peak_backlog) {
		s->peak_backlog = backlog;
		s->peak_t = now;
	}
	ei.t = now;
	len = skb->len;
	ei.backlog = backlog > len ? backlog - len : 0;
	bpf_map_update_elem(&inflight, &key, &ei, BPF_ANY);
	return 0;
}

static __always_inline __u32 log2_u64(__u64 v)
{
	__u32 r = 0;

	if (v >> 32) {
		v >>= 32;
		r += 32;
	}
	if (v >> 16) {
		v >>= 16;
		r += 16;
	}
	if (v >> 8) {
		v >>= 8;
		r += 8;
	}
	if (v >> 4) {
		v >>= 4;
		r += 4;
	}
	if (v >> 2) {
		v >>= 2;
		r += 2;
	}
	if (v >> 1)
		r += 1;
	return r;
}

/* one sampled packet into the ring; a full ring counts it lost */
static __always_inline void sample(struct linuxbe_bpf_qstat *s, __u32 slot, struct sk_buff *skb,
				   __u64 now, __u64 sojourn, __u64 backlog)
{
	struct linuxbe_bpf_sample *e = bpf_ringbuf_reserve(&samples, sizeof *e, 0);
	__u32 n, lin;

	if (!e) {
		s->ring_lost++;
		return;
	}
	e->t = now;
	e->sojourn = sojourn;
	e->backlog = backlog;
	e->slot = slot;
	e->in_ifindex = skb->skb_iif;
	e->frame_len = skb->len;
	lin = skb->len - skb->data_len; /* the linear part */
	n = hdr_bytes;
	if (n > lin)
		n = lin;
	if (n > LINUXBE_BPF_HDR)
		n = LINUXBE_BPF_HDR;
	/* a bound the verifier sees (clang would drop a plain mask of a value
	 * it knows is <= 128): n stays n, and the read stays in hdr[] */
	asm volatile("%[n] &= 255" : [n] "+r"(n));
	e->hdr_len = 0;
	if (bpf_probe_read_kernel(e->hdr, n, skb->data) == 0)
		e->hdr_len = n;
	bpf_ringbuf_submit(e, 0);
}

SEC("tp_btf/qdisc_dequeue")
int BPF_PROG(bsf_dequeue, struct Qdisc *q, const struct netdev_queue *txq, int packets,
	     struct sk_buff *skb)
{
	struct linuxbe_bpf_qstat *s;
	struct linuxbe_bpf_qinfo qi;
	struct enq_info *ei;
	__u64 now, d, key, backlog;
	__u32 b;
	int i;

	if (!skb)
		return 0;
	s = stat_of(q, &qi);
	if (!s)
		return 0;
	now = bpf_ktime_get_ns();
	/* a bulk dequeue hands a list: its first packets (bounded loop) */
	for (i = 0; i < 8 && skb; i++) {
		key = (__u64)skb;
		s->deq++;
		ei = bpf_map_lookup_elem(&inflight, &key);
		if (ei) {
			d = now > ei->t ? now - ei->t : 0;
			backlog = ei->backlog;
			bpf_map_delete_elem(&inflight, &key);
			if (d > s->sojourn_max)
				s->sojourn_max = d;
			s->sojourn_last = d;
			s->sojourn_last_t = now;
			s->sojourn_n++;
			b = d ? log2_u64(d) : 0;
			if (b < LINUXBE_BPF_HIST)
				s->hist[b]++;
			if (qi.rate && bpf_get_prandom_u32() % qi.rate == 0)
				sample(s, qi.slot, skb, now, d, backlog);
		}
		skb = skb->next;
	}
	return 0;
}

/* the header bytes from the MAC header when it is set, else from data */
static __always_inline __u32 copy_hdr(__u8 *dst, struct sk_buff *skb)
{
	unsigned char *from = skb->data;
	__u32 n = hdr_bytes, lin = skb->len - skb->data_len;
	__u16 mac = skb->mac_header;

	if (mac != (__u16)~0U && skb->head + mac <= skb->data) {
		from = skb->head + mac;
		lin += (__u32)(skb->data - from);
	}
	if (n > lin)
		n = lin;
	if (n > LINUXBE_BPF_HDR)
		n = LINUXBE_BPF_HDR;
	asm volatile("%[n] &= 255" : [n] "+r"(n));
	if (bpf_probe_read_kernel(dst, n, from) != 0)
		return 0;
	return n;
}

SEC("tp_btf/kfree_skb")
int BPF_PROG(bsf_drop, struct sk_buff *skb, void *location, enum skb_drop_reason reason)
{
	struct linuxbe_bpf_bucket *bk;
	struct linuxbe_bpf_drop *e;
	struct net_device *dev;
	__u32 ifindex, zero = 0;
	__u64 now, credit;

	if (!skb)
		return 0;
	dev = skb->dev;
	if (!dev)
		return 0;
	ifindex = dev->ifindex;
	if (!bpf_map_lookup_elem(&ports, &ifindex))
		return 0;
	bk = bpf_map_lookup_elem(&bucket, &zero);
	if (!bk)
		return 0;
	now = bpf_ktime_get_ns();
	credit = bk->tokens_ns + (now - bk->last);
	if (credit > drop_burst_ns)
		credit = drop_burst_ns;
	bk->last = now;
	if (credit < drop_cost_ns) {
		bk->tokens_ns = credit;
		bk->suppressed++;
		return 0;
	}
	bk->tokens_ns = credit - drop_cost_ns;
	e = bpf_ringbuf_reserve(&drops, sizeof *e, 0);
	if (!e) {
		bk->lost++;
		return 0;
	}
	e->t = now;
	e->ifindex = ifindex;
	e->reason = (__u32)reason;
	e->queue = skb->queue_mapping;
	e->frame_len = skb->len;
	e->suppressed = bk->suppressed;
	e->pad = 0;
	e->hdr_len = copy_hdr(e->hdr, skb);
	bpf_ringbuf_submit(e, 0);
	return 0;
}
