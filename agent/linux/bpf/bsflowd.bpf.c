/*
 * bsflowd.bpf.c - the linux backend's BPF object (source `bpf`), CO-RE
 * against the kernel's BTF.  It watches the queues the loader names:
 *
 *   - a root qdisc the kernel's qdisc:qdisc_enqueue tracepoint sees (a
 *     single-queue root such as tbf, or an mq child), in `queues` (key:
 *     ifindex << 32 | qdisc handle);
 *   - the leaves of a classful root (htb, prio, drr...), which no
 *     tracepoint sees: the root is in `queues` with the range of its
 *     leaves' slots, and each leaf in `leaves` (key: ifindex << 32 | the
 *     class the leaf qdisc hangs from, its parent).  The leaves' qdiscs
 *     are found in the device's qdisc hash (every non-root qdisc is
 *     there, htb's default pfifo leaves too) at the root's first enqueue
 *     and whenever the loader bumps `learn`; at each of the root's
 *     enqueues, the leaf the packet went to is the one it is now the
 *     tail of (FIFO leaves: pfifo, bfifo, pfifo_head_drop, codel, pie).
 *
 * At each enqueue into a watched queue: the exact backlog peak after it
 * (with its time), the packet's number in the queue's sequence, and a
 * record of the enqueue (time, queue, backlog met, number) in `pkts`, a
 * set-associative table indexed by a hash of the skb's address (no map
 * insertion or deletion per packet: a record is a slot of a preallocated
 * array, freed by the packet's dequeue).  At the root's dequeue
 * (qdisc:qdisc_dequeue; for a leaf, its root's dequeue, which is when
 * the packet leaves the leaf), the record gives the queue and the
 * sojourn: max, latest, count and a log2 histogram per queue; packets of
 * a port that samples 1-in-N are sampled at random with that probability
 * into the `samples` ring (header bytes, sojourn, the backlog met, the
 * time).  A queue the loader streams also gets every enqueue and dequeue
 * into the `qevents` ring, with its number and depth.  Figures go to a
 * per-CPU array: counts that only grow, and maxima of the loader's
 * current `epoch`, which the programs reset at their first write in a
 * new one (the loader never writes them, so nothing is lost between two
 * reads).  A full ring counts what it lost.
 *
 * On skb:kfree_skb: a packet with a record is forgotten (and its queue
 * known); a packet a leaf refused is paired with the first leaf of its
 * port whose qdisc counted a drop not paired yet; a packet dropped on one
 * of the agent's ports (`ports`) goes to
 * the `drops` ring with its reason, device, queue and its depth, header
 * bytes and, for a streamed queue, the number of the last packet
 * admitted, at most at the rate the loader set (the agent's drop limit):
 * a token bucket shared by all CPUs, kept as one theoretical arrival time
 * updated by compare-and-swap (GCRA), so the rate holds however the drops
 * spread over the CPUs; what it suppresses is counted exactly per CPU.
 *
 * Tracepoints only (no kprobe or fentry: kernels without them load it).
 * Needs Linux >= 5.14 (BTF and tp_btf of 5.5, the ring buffer of 5.8,
 * compare-and-swap of 5.12, the qdisc_enqueue tracepoint of 5.14); bsf_drop
 * 5.18 (kfree_skb's reason of 5.17, the reason QDISC_DROP of 5.18): on an
 * older kernel the loader leaves it out (linuxbe_bpf_kernel_check).
 *
 * SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
 */
#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bsflowd.bpf.h"

/* struct Qdisc flags (include/net/sch_generic.h; defines, not in BTF) */
#define TCQ_F_CPUSTATS 0x20
#define TCQ_F_NOLOCK   0x100

char LICENSE[] SEC("license") = "Dual BSD/GPL";

volatile __u64 epoch SEC(".data") = 1; /* of the maxima, bumped by the loader */
volatile __u32 learn SEC(".data") = 1; /* bumped by the loader: find the leaves again */

volatile __u32 hdr_bytes = 128;		     /* header bytes per sample, set before load */
volatile __u32 report_drops = 1;	     /* send drops to the ring (else only forget records) */
volatile __u64 drop_cost_ns = 10000;	     /* 1e9 / the reports a second; 0: none */
volatile __u64 drop_tau_ns SEC(".data") = 0; /* the burst: (reports - 1) x the cost */
volatile __u64 drop_tat;		     /* GCRA: when the bucket is full again */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, LINUXBE_BPF_SLOTS);
	__type(key, __u64); /* ifindex << 32 | qdisc handle */
	__type(value, struct linuxbe_bpf_root);
} queues SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, LINUXBE_BPF_ROOTIDX);
	__type(key, __u32); /* ifindex % LINUXBE_BPF_ROOTIDX */
	__type(value, struct linuxbe_bpf_rootidx);
} rootidx SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, LINUXBE_BPF_SLOTS);
	__type(key, __u64); /* ifindex << 32 | the leaf qdisc's parent class */
	__type(value, __u32);
} leaves SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, LINUXBE_BPF_SLOTS);
	__type(key, __u32);
	__type(value, struct linuxbe_bpf_slot);
} slots SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, LINUXBE_BPF_SLOTS);
	__type(key, __u32);
	__type(value, struct linuxbe_bpf_qvar);
} qvars SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, LINUXBE_BPF_SETS);
	__type(key, __u32);
	__type(value, struct linuxbe_bpf_set);
} pkts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} samples SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 22);
} qevents SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} drops SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32); /* ifindex of one of the agent's ports */
	__type(value, struct linuxbe_bpf_port);
} ports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct linuxbe_bpf_bucket);
} bucket SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, LINUXBE_BPF_SLOTS);
	__type(key, __u32); /* slot */
	__type(value, struct linuxbe_bpf_qstat);
} qstats SEC(".maps");

static __always_inline struct linuxbe_bpf_qstat *stat_of(__u32 slot)
{
	return bpf_map_lookup_elem(&qstats, &slot);
}

/* the maxima of s that the current epoch writes (reset at its first
 * write): the half the loader does not read */
static __always_inline struct linuxbe_bpf_qmax *max_of(struct linuxbe_bpf_qstat *s)
{
	__u64 e = epoch;
	struct linuxbe_bpf_qmax *m = &s->max[e & 1];

	if (m->epoch != e) {
		m->epoch = e;
		m->peak_backlog = 0;
		m->peak_t = 0;
		m->peak_qlen = 0;
		m->peak_qlen_t = 0;
		m->sojourn_max = 0;
	}
	return m;
}

static __always_inline struct linuxbe_bpf_set *set_of(struct sk_buff *skb)
{
	/* the low half of the skb's address (a 32-bit copy of a pointer is a
	 * number to the verifier; arithmetic on the pointer is refused):
	 * skbs are slab objects of 256 bytes, so the bits above them, mixed */
	__u32 lo, idx;

	/* (clang would fold a plain cast into arithmetic on the pointer) */
	asm volatile("%[lo] = %[p]" : [lo] "=w"(lo) : [p] "w"((__u32)(__u64)skb));
	idx = ((lo >> 8) * 0x9E3779B1u) >> (32 - LINUXBE_BPF_SETS_LOG2);
	idx &= LINUXBE_BPF_SETS - 1;
	return bpf_map_lookup_elem(&pkts, &idx);
}

/* n header bytes from p (at most the configured and LINUXBE_BPF_HDR)
 * into dst; how many */
static __always_inline __u32 copy_bytes(__u8 *dst, const void *p, __u32 lin)
{
	__u32 n = hdr_bytes;

	if (n > lin)
		n = lin;
	if (n > LINUXBE_BPF_HDR)
		n = LINUXBE_BPF_HDR;
	/* a bound the verifier sees (clang would drop a plain mask of a value
	 * it knows is <= 128): n stays n, and the read stays in dst[] */
	asm volatile("%[n] &= 255" : [n] "+r"(n));
	if (bpf_probe_read_kernel(dst, n, p) != 0)
		return 0;
	return n;
}

/* the header bytes at skb->data (the MAC header, on the way out) */
static __always_inline __u32 copy_data(__u8 *dst, struct sk_buff *skb)
{
	return copy_bytes(dst, skb->data, skb->len - skb->data_len);
}

static __always_inline void queue_event(struct linuxbe_bpf_qstat *s, __u32 type, __u32 slot,
					struct sk_buff *skb, __u64 now, __u64 id, __u64 depth,
					__u64 sojourn)
{
	struct linuxbe_bpf_qev *e = bpf_ringbuf_reserve(&qevents, sizeof *e, 0);

	if (!e) {
		s->qev_lost++;
		return;
	}
	e->t = now;
	e->id = id;
	e->depth = depth;
	e->sojourn = sojourn;
	e->slot = slot;
	e->type = type;
	e->frame_len = skb->len;
	e->hdr_len = copy_data(e->hdr, skb);
	bpf_ringbuf_submit(e, 0);
}

/* skb was admitted to the queue of slot, which holds backlog bytes now
 * (~0: a lockless qdisc, whose backlog and length are per CPU: unknown,
 * and whose enqueues run on several CPUs at once) */
static __always_inline void on_enqueue(struct sk_buff *skb, __u64 q, __u32 slot, __u64 backlog,
				       __u64 qlen)
{
	struct linuxbe_bpf_pkt *w = 0, *victim = 0;
	struct linuxbe_bpf_qstat *s, *vs;
	struct linuxbe_bpf_qvar *qv;
	struct linuxbe_bpf_slot *sc;
	struct linuxbe_bpf_set *set;
	__u64 now, len, id = 0;
	__u32 i, vslot;

	s = stat_of(slot);
	sc = bpf_map_lookup_elem(&slots, &slot);
	qv = bpf_map_lookup_elem(&qvars, &slot);
	set = set_of(skb);
	if (!s || !sc || !qv || !set)
		return;
	qv->qdisc = q;
	now = bpf_ktime_get_ns();
	s->enq++;
	if (backlog == ~0ull) {
		/* lockless: its numbers taken atomically (the peaks stay the
		 * poller's, which sums the per-CPU figures) */
		qv->pcpu = 1;
		id = __sync_fetch_and_add(&qv->seq, 1) + 1;
	} else {
		struct linuxbe_bpf_qmax *mx = max_of(s);

		if (backlog > mx->peak_backlog) {
			mx->peak_backlog = backlog;
			mx->peak_t = now;
		}
		if (qlen > mx->peak_qlen) {
			mx->peak_qlen = qlen;
			mx->peak_qlen_t = now;
		}
		/* enqueues of one queue hold its root's lock: no other writer */
		id = qv->seq + 1;
		qv->seq = id;
	}
	/* a way: a free one, or one whose packet left unseen (this skb's
	 * address: the packet there before it left; or a record too old), or
	 * else the oldest (a full set) */
	for (i = 0; i < LINUXBE_BPF_WAYS; i++) {
		struct linuxbe_bpf_pkt *p = &set->way[i];

		if (p->skb == 0) {
			w = p;
			break;
		}
		if (p->skb == (__u64)skb || now - p->t > LINUXBE_BPF_STALE_NS) {
			victim = p;
			break;
		}
		if (!victim || p->t < victim->t)
			victim = p;
	}
	if (!w) {
		if (!victim)
			return;
		/* that packet's sojourn goes unmeasured */
		w = victim;
		vslot = victim->slot;
		vs = vslot < LINUXBE_BPF_SLOTS ? stat_of(vslot) : 0;
		if (vs) {
			vs->unmeasured++;
			vs->deq++;
		}
	}
	len = skb->len;
	w->skb = 0;
	w->t = now;
	w->id = id;
	w->slot = slot;
	w->backlog = backlog == ~0ull		? ~0u
		     : backlog >= 0xFFFFFFFFull ? 0xFFFFFFFEu
		     : backlog > len		? (__u32)(backlog - len)
						: 0;
	w->skb = (__u64)skb;
	if (sc->stream & LINUXBE_BPF_QEV_ENQ)
		queue_event(s, LINUXBE_BPF_QEV_ENQ, slot, skb, now, id, backlog, 0);
}

/* Find the qdiscs of a classful root's leaves in its device's qdisc hash
 * (bounded: 16 buckets, 8 qdiscs each), and note each watched one's
 * address and drops. */
static __always_inline void learn_leaves(struct Qdisc *root, __u32 ifindex)
{
	__u64 dev = 0, node, addr, key;
	struct linuxbe_bpf_qvar *qv;
	__u32 i, j, *slot;

	bpf_probe_read_kernel(&dev, sizeof dev, &root->dev_queue->dev);
	if (!dev)
		return;
	for (i = 0; i < 16; i++) {
		struct hlist_head *h =
		    (struct hlist_head *)(dev +
					  bpf_core_field_offset(struct net_device, qdisc_hash) +
					  i * sizeof(struct hlist_head));

		node = (__u64)BPF_CORE_READ(h, first);
		for (j = 0; j < 8 && node; j++) {
			struct Qdisc *q;

			addr = node - bpf_core_field_offset(struct Qdisc, hash);
			q = (struct Qdisc *)addr;
			key = ((__u64)ifindex << 32) | BPF_CORE_READ(q, parent);
			slot = bpf_map_lookup_elem(&leaves, &key);
			qv = slot ? bpf_map_lookup_elem(&qvars, slot) : 0;
			if (qv && qv->qdisc != addr) {
				qv->qdisc = addr;
				qv->drops = BPF_CORE_READ(q, qstats.drops);
			}
			node = (__u64)BPF_CORE_READ((struct hlist_node *)node, next);
		}
	}
}

/* skb just went into one of root r's watched leaves: the one whose tail
 * it is (FIFO leaves) */
static __always_inline void leaf_enqueue(struct Qdisc *root, struct linuxbe_bpf_root *r,
					 struct sk_buff *skb, __u32 ifindex)
{
	struct linuxbe_bpf_qvar *qv;
	__u32 i, slot;

	if (r->learned != learn) {
		r->learned = learn;
		learn_leaves(root, ifindex);
	}
	for (i = 0; i < LINUXBE_BPF_MAX_LEAVES && i < r->nleaves; i++) {
		struct Qdisc *leaf;

		slot = r->slot + i;
		qv = bpf_map_lookup_elem(&qvars, &slot);
		if (!qv || !qv->qdisc)
			continue;
		leaf = (struct Qdisc *)qv->qdisc;
		if ((__u64)BPF_CORE_READ(leaf, q.tail) == (__u64)skb) {
			on_enqueue(skb, qv->qdisc, slot, BPF_CORE_READ(leaf, qstats.backlog),
				   BPF_CORE_READ(leaf, q.qlen));
			return;
		}
	}
}

/* the watched root (ifindex, handle), or 0: an array entry, else the hash */
static __always_inline struct linuxbe_bpf_root *root_of(__u32 ifindex, __u32 handle)
{
	__u32 i = ifindex & (LINUXBE_BPF_ROOTIDX - 1);
	struct linuxbe_bpf_rootidx *e = bpf_map_lookup_elem(&rootidx, &i);
	__u64 key;

	if (!e)
		return 0;
	if (e->hashed) {
		key = ((__u64)ifindex << 32) | handle;
		return bpf_map_lookup_elem(&queues, &key);
	}
	if (e->ifindex != ifindex || e->handle != handle)
		return 0;
	return &e->r;
}

SEC("tp_btf/qdisc_enqueue")
int BPF_PROG(bsf_enqueue, struct Qdisc *q, const struct netdev_queue *txq, struct sk_buff *skb)
{
	__u32 ifindex = q->dev_queue->dev->ifindex;
	struct linuxbe_bpf_root *r = root_of(ifindex, q->handle);

	if (!r || r->slot >= LINUXBE_BPF_SLOTS)
		return 0;
	if (r->nleaves)
		leaf_enqueue(q, r, skb, ifindex);
	else if (q->flags & (TCQ_F_CPUSTATS | TCQ_F_NOLOCK))
		on_enqueue(skb, (__u64)q, r->slot, ~0ull, ~0ull);
	else
		on_enqueue(skb, (__u64)q, r->slot, q->qstats.backlog, q->q.qlen);
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
	e->hdr_len = copy_data(e->hdr, skb);
	bpf_ringbuf_submit(e, 0);
}

/* the backlog of slot's queue now (its qdisc as of its last enqueue), ~0
 * unknown */
static __always_inline __u64 depth_of(__u32 slot)
{
	struct linuxbe_bpf_qvar *qv = bpf_map_lookup_elem(&qvars, &slot);
	struct Qdisc *q;

	if (!qv || !qv->qdisc || qv->pcpu)
		return ~0ull;
	q = (struct Qdisc *)qv->qdisc;
	return BPF_CORE_READ(q, qstats.backlog);
}

/* skb left root q with no record of its enqueue: it went in before the
 * source opened, or the enqueue tracepoint did not show it (it shows a
 * packet the qdisc took only with NET_XMIT_SUCCESS, not one taken with
 * NET_XMIT_CN while another was dropped: a head drop, fq_codel's batch
 * drop).  A single-queue root's packet still counts: in its pool (and
 * sampled 1-in-N, its sojourn and the backlog it met unknown) and as
 * unmeasured.  (A leaf's is not known: it counts nowhere.) */
static __always_inline void unrecorded(struct Qdisc *q, struct sk_buff *skb, __u32 ifindex)
{
	struct linuxbe_bpf_root *r = root_of(ifindex, q->handle);
	struct linuxbe_bpf_qstat *s;
	struct linuxbe_bpf_slot *sc;
	__u32 slot;

	if (!r || r->nleaves)
		return;
	slot = r->slot;
	if (slot >= LINUXBE_BPF_SLOTS)
		return;
	s = stat_of(slot);
	sc = bpf_map_lookup_elem(&slots, &slot);
	if (!s || !sc)
		return;
	s->deq++;
	s->unmeasured++;
	if (sc->rate && bpf_get_prandom_u32() % sc->rate == 0)
		sample(s, slot, skb, bpf_ktime_get_ns(), ~0ull, ~0ull);
}

/* skb left its root q: the end of its sojourn, if it has a record */
static __always_inline void on_dequeue(struct Qdisc *q, struct sk_buff *skb, __u32 ifindex)
{
	struct linuxbe_bpf_set *set = set_of(skb);
	struct linuxbe_bpf_qvar *qv;
	struct linuxbe_bpf_qstat *s;
	struct linuxbe_bpf_qmax *mx;
	struct linuxbe_bpf_slot *sc;
	struct linuxbe_bpf_pkt *w = 0;
	__u64 d, t, id, backlog, now;
	__u32 i, slot, b;

	if (!set)
		return;
	for (i = 0; i < LINUXBE_BPF_WAYS; i++)
		if (set->way[i].skb == (__u64)skb) {
			w = &set->way[i];
			break;
		}
	if (!w) {
		unrecorded(q, skb, ifindex);
		return;
	}
	t = w->t;
	id = w->id;
	slot = w->slot;
	backlog = w->backlog == ~0u ? ~0ull : w->backlog;
	w->skb = 0;
	if (slot >= LINUXBE_BPF_SLOTS)
		return;
	sc = bpf_map_lookup_elem(&slots, &slot);
	s = stat_of(slot);
	qv = bpf_map_lookup_elem(&qvars, &slot);
	if (!sc || !s || !qv || sc->ifindex != ifindex)
		return; /* a record left by a packet of another device */
	if (id > qv->deq_id)
		qv->deq_id = id;
	now = bpf_ktime_get_ns();
	d = now > t ? now - t : 0;
	s->deq++;
	mx = max_of(s);
	if (d > mx->sojourn_max)
		mx->sojourn_max = d;
	s->sojourn_last = d;
	s->sojourn_last_t = now;
	s->sojourn_n++;
	b = d ? log2_u64(d) : 0;
	if (b >= LINUXBE_BPF_HIST)
		b = LINUXBE_BPF_HIST - 1;
	s->hist[b & (LINUXBE_BPF_HIST - 1)]++;
	if (sc->rate && bpf_get_prandom_u32() % sc->rate == 0)
		sample(s, slot, skb, now, d, backlog);
	if (sc->stream & LINUXBE_BPF_QEV_DEQ)
		queue_event(s, LINUXBE_BPF_QEV_DEQ, slot, skb, now, id, depth_of(slot), d);
}

SEC("tp_btf/qdisc_dequeue")
int BPF_PROG(bsf_dequeue, struct Qdisc *q, const struct netdev_queue *txq, int packets,
	     struct sk_buff *skb)
{
	__u32 ifindex;
	int i;

	if (!skb)
		return 0;
	ifindex = q->dev_queue->dev->ifindex;
	/* a bulk dequeue hands a list (of 9 at most without byte queue
	 * limits; with them, as many as the limit's bytes): its first 64 */
	for (i = 0; i < 64 && skb; i++) {
		on_dequeue(q, skb, ifindex);
		skb = skb->next;
	}
	return 0;
}

/* the header bytes from the MAC header when it is set, else from data */
static __always_inline __u32 copy_hdr(__u8 *dst, struct sk_buff *skb)
{
	unsigned char *from = skb->data;
	__u32 lin = skb->len - skb->data_len;
	__u16 mac = skb->mac_header;

	if (mac != (__u16)~0U && skb->head + mac <= skb->data) {
		from = skb->head + mac;
		lin += (__u32)(skb->data - from);
	}
	return copy_bytes(dst, from, lin);
}

/* GCRA: 1 if a report may go now (the bucket shared by all CPUs) */
static __always_inline int drop_allowed(__u64 now)
{
	__u64 cost = drop_cost_ns, tau = drop_tau_ns, old, next;
	int i;

	if (!cost)
		return 0;
	for (i = 0; i < 4; i++) {
		old = drop_tat;
		if (old > now + tau)
			return 0;
		next = (old > now ? old : now) + cost;
		if (__sync_val_compare_and_swap(&drop_tat, old, next) == old)
			return 1;
	}
	return 0; /* lost the race 4 times: counted as suppressed */
}

/* A qdisc's drop (its drop count counts it): QDISC_DROP, and where the
 * kernel has them the reasons of its limits and AQMs */
static __always_inline int qdisc_reason(enum skb_drop_reason reason)
{
	if (reason == bpf_core_enum_value(enum skb_drop_reason, SKB_DROP_REASON_QDISC_DROP))
		return 1;
	if (bpf_core_enum_value_exists(enum skb_drop_reason, SKB_DROP_REASON_QDISC_OVERLIMIT) &&
	    reason == bpf_core_enum_value(enum skb_drop_reason, SKB_DROP_REASON_QDISC_OVERLIMIT))
		return 1;
	if (bpf_core_enum_value_exists(enum skb_drop_reason, SKB_DROP_REASON_QDISC_CONGESTED) &&
	    reason == bpf_core_enum_value(enum skb_drop_reason, SKB_DROP_REASON_QDISC_CONGESTED))
		return 1;
	return 0;
}

/* A drop on port pv that no record explains: a leaf that refused it, the
 * first of the port's leaves whose qdisc counted a drop not yet paired
 * with a kfree_skb (each drop is freed once; a leaf's drops of packets it
 * had queued are paired by their records); else the port's only queue.
 * A pairing is claimed by compare-and-swap, so that two CPUs never pair
 * two packets with one drop. */
static __always_inline __u32 drop_slot(struct linuxbe_bpf_port *pv, enum skb_drop_reason reason)
{
	struct linuxbe_bpf_qvar *qv;
	struct Qdisc *leaf;
	__u32 i, slot, drops, old;

	if (!pv->nleaves)
		return pv->slot;
	if (!qdisc_reason(reason))
		return LINUXBE_BPF_NOSLOT;
	for (i = 0; i < LINUXBE_BPF_MAX_LEAVES && i < pv->nleaves; i++) {
		slot = pv->first + i;
		qv = bpf_map_lookup_elem(&qvars, &slot);
		if (!qv || !qv->qdisc)
			continue;
		leaf = (struct Qdisc *)qv->qdisc;
		drops = BPF_CORE_READ(leaf, qstats.drops);
		old = qv->drops;
		if ((__s32)(drops - old) > 0 &&
		    __sync_val_compare_and_swap(&qv->drops, old, old + 1) == old)
			return slot;
	}
	return LINUXBE_BPF_NOSLOT;
}

SEC("tp_btf/kfree_skb")
int BPF_PROG(bsf_drop, struct sk_buff *skb, void *location, enum skb_drop_reason reason)
{
	struct linuxbe_bpf_qstat *qs;
	struct linuxbe_bpf_set *set;
	struct linuxbe_bpf_bucket *bk;
	struct linuxbe_bpf_qvar *qv;
	struct linuxbe_bpf_port *pv;
	struct linuxbe_bpf_drop *e;
	struct net_device *dev;
	__u32 ifindex, zero = 0, slot = LINUXBE_BPF_NOSLOT, i;
	__u64 now, depth = ~0ull, tail = 0, id;

	if (!skb)
		return 0;
	/* a packet with a record leaves its queue here: forget it */
	set = set_of(skb);
	if (set)
		for (i = 0; i < LINUXBE_BPF_WAYS; i++)
			if (set->way[i].skb == (__u64)skb) {
				/* dropped in its queue; or a record left by a
				 * packet that left unseen at this address (a
				 * number its queue has seen leave after it):
				 * not this drop's queue */
				slot = set->way[i].slot;
				id = set->way[i].id;
				set->way[i].skb = 0;
				qs = slot < LINUXBE_BPF_SLOTS ? stat_of(slot) : 0;
				qv = slot < LINUXBE_BPF_SLOTS ? bpf_map_lookup_elem(&qvars, &slot)
							      : 0;
				if (qs)
					qs->unmeasured++;
				if (!qv || id <= qv->deq_id)
					slot = LINUXBE_BPF_NOSLOT;
				else if (qdisc_reason(reason))
					/* its qdisc counted this drop (a head
					 * drop, an AQM's at dequeue): paired
					 * here, not with a refused packet */
					__sync_fetch_and_add(&qv->drops, 1);
				break;
			}
	if (!report_drops)
		return 0;
	dev = skb->dev;
	if (!dev)
		return 0;
	ifindex = dev->ifindex;
	pv = bpf_map_lookup_elem(&ports, &ifindex);
	if (!pv)
		return 0;
	if (slot >= LINUXBE_BPF_SLOTS)
		slot = drop_slot(pv, reason);
	if (slot < LINUXBE_BPF_SLOTS) {
		depth = depth_of(slot);
		qv = bpf_map_lookup_elem(&qvars, &slot);
		if (qv)
			tail = qv->seq;
	}
	bk = bpf_map_lookup_elem(&bucket, &zero);
	if (!bk)
		return 0;
	now = bpf_ktime_get_ns();
	if (!drop_allowed(now)) {
		bk->suppressed++;
		return 0;
	}
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
	e->slot = slot;
	e->depth = depth;
	e->tail_id = tail;
	e->hdr_len = copy_hdr(e->hdr, skb);
	bpf_ringbuf_submit(e, 0);
	return 0;
}
