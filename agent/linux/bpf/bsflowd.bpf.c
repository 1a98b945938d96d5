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
 * so nothing is lost between two reads.  Needs Linux >= 5.8 (BTF,
 * tp_btf, the qdisc tracepoints of 5.1 and 5.16 for enqueue).
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
	__type(key, __u64);   /* ifindex << 32 | qdisc handle */
	__type(value, __u32); /* slot */
} queues SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2 * LINUXBE_BPF_SLOTS);
	__type(key, __u32); /* slot * 2 + half */
	__type(value, struct linuxbe_bpf_qstat);
} qstats SEC(".maps");

struct enq_info {
	__u64 t;
	__u32 slot;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 65536);
	__type(key, __u64); /* the skb's address */
	__type(value, struct enq_info);
} inflight SEC(".maps");

static __always_inline struct linuxbe_bpf_qstat *stat_of(struct Qdisc *q, __u32 *slotp)
{
	__u64 key = ((__u64)(__u32)q->dev_queue->dev->ifindex << 32) | q->handle;
	__u32 *slot = bpf_map_lookup_elem(&queues, &key);
	__u32 idx;

	if (!slot)
		return 0;
	*slotp = *slot;
	idx = *slot * 2 + (gen & 1);
	return bpf_map_lookup_elem(&qstats, &idx);
}

SEC("tp_btf/qdisc_enqueue")
int BPF_PROG(bsf_enqueue, struct Qdisc *q, const struct netdev_queue *txq, struct sk_buff *skb)
{
	struct linuxbe_bpf_qstat *s;
	struct enq_info ei = {};
	__u64 now, backlog, key = (__u64)skb;
	__u32 slot;

	s = stat_of(q, &slot);
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
	ei.slot = slot;
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

SEC("tp_btf/qdisc_dequeue")
int BPF_PROG(bsf_dequeue, struct Qdisc *q, const struct netdev_queue *txq, int packets,
	     struct sk_buff *skb)
{
	struct linuxbe_bpf_qstat *s;
	struct enq_info *ei;
	__u64 now, d, key;
	__u32 slot, b;
	int i;

	if (!skb)
		return 0;
	s = stat_of(q, &slot);
	if (!s)
		return 0;
	now = bpf_ktime_get_ns();
	/* a bulk dequeue hands a list: its first packets (bounded loop) */
	for (i = 0; i < 8 && skb; i++) {
		key = (__u64)skb;
		ei = bpf_map_lookup_elem(&inflight, &key);
		if (ei) {
			d = now > ei->t ? now - ei->t : 0;
			bpf_map_delete_elem(&inflight, &key);
			if (d > s->sojourn_max)
				s->sojourn_max = d;
			s->sojourn_last = d;
			s->sojourn_last_t = now;
			s->sojourn_n++;
			b = d ? log2_u64(d) : 0;
			if (b < LINUXBE_BPF_HIST)
				s->hist[b]++;
		}
		skb = skb->next;
	}
	return 0;
}
