/*
 * bpfrun.c - the linux backend's `bpf` source: loads bsflowd.bpf.o
 * through its generated skeleton (libbpf, CO-RE with the kernel's BTF)
 * and names the queues the qdisc source mapped in the object's maps:
 *
 *   - a single-queue root (tbf, fq_codel...) or an mq child, which the
 *     qdisc tracepoints see, by its qdisc handle (`queues`);
 *   - a leaf of a classful root (htb, prio, drr, hfsc, ets, qfq), which
 *     they do not: the root with the range of its leaves' slots, each
 *     leaf by its class (`leaves`); the object finds a packet's leaf by
 *     its tail, so FIFO leaves only (pfifo, htb's default, bfifo,
 *     pfifo_head_drop, codel, pie): others are left out, saying so.
 *
 * Each watched queue has a slot: its per-CPU figures (bpfdrain.c), its
 * port's sampling rate at dequeue and its queue event stream
 * (set_queue_events).  Drops are reported at most at the agent's drop
 * limit (drops { limit }) a second, the rate the kernel's token bucket
 * is set to.  Without BPF support at build time (configure
 * --disable-bpf, or no clang / bpftool / libbpf / BTF) the source is
 * absent, saying why.
 *
 * SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "agent/linux/bpf/bpfrun.h"
#include "agent/linux/state.h"

#if HAVE_BPF
#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "agent/linux/bpf/bpfint.h"
#include "agent/linux/bpf/bsflowd.skel.h"

/* libbpf's messages during load (the verifier's refusal): their last
 * 16 KB kept for the log line, which quotes their end (where the verifier
 * says why) */
static char load_log[16384];

__attribute__((format(printf, 2, 0))) static int print_cb(enum libbpf_print_level level,
							  const char *fmt, va_list ap)
{
	size_t n = strlen(load_log), m;
	static char line[16384];

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(line, sizeof line, fmt, ap);
	m = strlen(line);
	if (n + m + 1 > sizeof load_log) {
		size_t cut = n + m + 1 - sizeof load_log;

		cut = cut > n ? n : cut;
		memmove(load_log, load_log + cut, n - cut + 1);
		n -= cut;
	}
	snprintf(load_log + n, sizeof load_log - n, "%s", line);
	return 0;
}

static void oneline(char *s)
{
	for (; *s; s++)
		if (*s == '\n' || *s == '\t')
			*s = ' ';
}

uint64_t linuxbe_bpf_drops_lost(struct linuxbe_st *st)
{
	struct linuxbe_bpf *b = st->bpf;
	uint32_t zero = 0;
	uint64_t n = b ? b->drops_lost_base : 0;
	int c;

	if (!b || !b->dropping || !b->bk ||
	    bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.bucket), &zero, b->bk) != 0)
		return n;
	for (c = 0; c < b->ncpu; c++)
		n += b->bk[c].suppressed + b->bk[c].lost;
	return n;
}

int linuxbe_bpf_dropping(const struct linuxbe_st *st)
{
	return st->bpf && st->bpf->dropping;
}

/* ---- leaves of classful roots: their qdisc kind's enqueue function */

/* the roots whose leaves the tracepoints do not see */
static int hides_leaves(const char *kind)
{
	static const char *const k[] = {"htb", "prio", "ets", "drr", "hfsc", "qfq"};
	unsigned i;

	for (i = 0; i < sizeof k / sizeof k[0]; i++)
		if (strcmp(kind, k[i]) == 0)
			return 1;
	return 0;
}

/* the leaf kinds whose packets sit in their qdisc's own list, the newest
 * at its tail ("": the default pfifo) */
static int fifo_kind(const char *kind)
{
	static const char *const k[] = {"", "pfifo", "bfifo", "pfifo_head_drop", "codel", "pie"};
	unsigned i;

	for (i = 0; i < sizeof k / sizeof k[0]; i++)
		if (strcmp(kind, k[i]) == 0)
			return 1;
	return 0;
}

/* ---- the queues' slots */

struct slot_plan {
	uint64_t key;  /* in `queues` (leaf 0) or `leaves` (leaf 1) */
	uint64_t key2; /* a second `queues` key (a root named twice), 0 none */
	int leaf;
	uint32_t port, q;
};

/* Plan the slots of every port's queues; ports whose sampled queues are
 * not all watched count in *uncovered. */
static uint32_t plan(struct linuxbe_st *st, struct linuxbe_bpf *b, struct slot_plan *pl,
		     unsigned *uncovered)
{
	uint32_t p, q, n = 0;

	for (p = 0; p < st->nports; p++) {
		struct linuxbe_port *pt = &st->ports[p];
		int classful = hides_leaves(pt->root_kind), covered = 1;

		for (q = 0; q < pt->n_leaves && n < LINUXBE_BPF_SLOTS; q++) {
			struct linuxbe_leaf *lf = &pt->leaves[q];
			struct slot_plan *s = &pl[n];

			memset(s, 0, sizeof *s);
			s->port = p;
			s->q = q;
			if (classful && lf->handle != pt->root_handle) {
				const char *why = NULL;

				if (!(lf->handle & 0xFFFFu))
					why = "a qdisc, not a class";
				else if (!fifo_kind(lf->kind))
					why = "not a FIFO leaf";
				else if (q >= LINUXBE_BPF_MAX_LEAVES)
					why = "beyond 16 leaves";
				if (why) {
					if (!b->leaf_why[0])
						snprintf(b->leaf_why, sizeof b->leaf_why,
							 "%.60s queue %u (%x:%x, %.16s): %s",
							 pt->name, q, lf->handle >> 16,
							 lf->handle & 0xFFFFu,
							 lf->kind[0] ? lf->kind : "pfifo", why);
					covered = 0;
					continue;
				}
				s->leaf = 1;
				s->key = (uint64_t)pt->ifindex << 32 | lf->handle;
				n++;
				continue;
			}
			/* the qdisc the tracepoints see: a leaf's own qdisc (mq
			 * children), or the root of a single-queue port */
			if (lf->qdisc)
				s->key = (uint64_t)pt->ifindex << 32 | lf->qdisc;
			if (pt->n_leaves == 1 || lf->handle == pt->root_handle) {
				uint64_t k = (uint64_t)pt->ifindex << 32 | lf->handle;

				if (!s->key)
					s->key = k;
				else if (k != s->key)
					s->key2 = k;
			}
			if (!s->key) {
				covered = 0;
				continue;
			}
			n++;
		}
		if (q < pt->n_leaves)
			covered = 0; /* out of slots */
		if (pt->sampling_rate && !covered)
			(*uncovered)++;
	}
	return n;
}

/* The roots: each in its entry of `rootidx` (at ifindex %
 * LINUXBE_BPF_ROOTIDX), or, where several share one, all of those in the
 * hash `queues`, the entry saying so.  0 or -1. */
struct root_key {
	uint64_t key;
	struct linuxbe_bpf_root r;
};

static int name_roots(struct linuxbe_bpf *b, const struct root_key *rk, uint32_t n)
{
	int fi = bpf_map__fd(b->skel->maps.rootidx), fq = bpf_map__fd(b->skel->maps.queues);
	uint32_t i, j;

	for (i = 0; i < n; i++) {
		uint32_t ifindex = (uint32_t)(rk[i].key >> 32), idx = ifindex % LINUXBE_BPF_ROOTIDX;
		struct linuxbe_bpf_rootidx e;
		int shared = 0;

		memset(&e, 0, sizeof e);
		for (j = 0; j < n; j++)
			if (j != i && (uint32_t)(rk[j].key >> 32) % LINUXBE_BPF_ROOTIDX == idx)
				shared = 1;
		if (shared) {
			e.hashed = 1;
			if (bpf_map_update_elem(fq, &rk[i].key, &rk[i].r, BPF_ANY) != 0)
				return -1;
		} else {
			e.ifindex = ifindex;
			e.handle = (uint32_t)rk[i].key;
			e.r = rk[i].r;
		}
		if (bpf_map_update_elem(fi, &idx, &e, BPF_ANY) != 0)
			return -1;
	}
	return 0;
}

/* Write the planned slots into the maps; 0 or -1 */
static int name_slots(struct linuxbe_st *st, struct linuxbe_bpf *b, const struct slot_plan *pl,
		      uint32_t n)
{
	struct root_key *rk = calloc(2 * (size_t)n + st->nports + 1, sizeof *rk);
	uint32_t nrk = 0;
	int fl = bpf_map__fd(b->skel->maps.leaves), rc;
	int fs = bpf_map__fd(b->skel->maps.slots), fp = bpf_map__fd(b->skel->maps.ports);
	uint32_t i, p;

	for (i = 0; i < n; i++) {
		struct linuxbe_port *pt = &st->ports[pl[i].port];
		struct linuxbe_leaf *lf = &pt->leaves[pl[i].q];
		struct linuxbe_bpf_slot sc = {pt->ifindex, b->sampling ? pt->sampling_rate : 0, 0,
					      0};
		struct linuxbe_bpf_root r = {i, 0, 0, 0};

		if (!rk || bpf_map_update_elem(fs, &i, &sc, BPF_ANY) != 0 ||
		    (pl[i].leaf && bpf_map_update_elem(fl, &pl[i].key, &i, BPF_ANY) != 0)) {
			free(rk);
			return -1;
		}
		if (!pl[i].leaf)
			rk[nrk++] = (struct root_key){pl[i].key, r};
		if (pl[i].key2)
			rk[nrk++] = (struct root_key){pl[i].key2, r};
		lf->bpf = 1;
		lf->bpf_slot = i;
		b->slot_port[i] = pl[i].port;
		b->slot_q[i] = pl[i].q;
		b->n_leaf_slots += pl[i].leaf != 0;
	}
	b->nslots = n;
	/* the agent's ports, for drops; a classful root with the range of its
	 * watched leaves (slots in a row) */
	for (p = 0; p < st->nports; p++) {
		const struct linuxbe_port *pt = &st->ports[p];
		struct linuxbe_bpf_port v = {LINUXBE_BPF_NOSLOT, 0, 0, 0};

		if (pt->n_leaves == 1 && pt->leaves[0].bpf)
			v.slot = pt->leaves[0].bpf_slot;
		for (i = 0; i < n; i++)
			if (pl[i].port == p && pl[i].leaf && !v.nleaves++)
				v.first = i;
		if (v.nleaves) {
			struct linuxbe_bpf_root r = {v.first, v.nleaves, 0, 0};

			rk[nrk++] =
			    (struct root_key){(uint64_t)pt->ifindex << 32 | pt->root_handle, r};
		}
		if (bpf_map_update_elem(fp, &pt->ifindex, &v, BPF_ANY) != 0) {
			free(rk);
			return -1;
		}
	}
	rc = name_roots(b, rk, nrk);
	free(rk);
	return rc;
}

static void free_b(struct linuxbe_bpf *b)
{
	bsflowd_bpf__destroy(b->skel);
	free(b->buf);
	free(b);
}

/* the function prototype a tracepoint's btf_trace_NAME typedef points
 * to, or NULL */
static const struct btf_type *tp_proto(const struct btf *btf, const char *name)
{
	char tn[64];
	const struct btf_type *t;
	int id;

	snprintf(tn, sizeof tn, "btf_trace_%s", name);
	id = btf__find_by_name_kind(btf, tn, BTF_KIND_TYPEDEF);
	t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	t = t ? btf__type_by_id(btf, t->type) : NULL; /* the pointer */
	t = t && btf_is_ptr(t) ? btf__type_by_id(btf, t->type) : NULL;
	return t && btf_is_func_proto(t) ? t : NULL;
}

int linuxbe_bpf_kernel_check(const struct btf *btf, int *drops, char *why, size_t whylen)
{
	const struct btf_type *kf, *t;
	const struct btf_enum *en;
	int id, qdrop = 0;
	unsigned i;

	*drops = 0;
	if (!tp_proto(btf, "qdisc_enqueue") || !tp_proto(btf, "qdisc_dequeue")) {
		snprintf(why, whylen,
			 "bpf absent (the kernel has no qdisc:qdisc_enqueue tracepoint: Linux 5.14 "
			 "or later needed)");
		return -1;
	}
	/* kfree_skb(skb, location, reason): the reason from Linux 5.17,
	 * QDISC_DROP among the reasons from 5.18 */
	id = btf__find_by_name_kind(btf, "skb_drop_reason", BTF_KIND_ENUM);
	t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	for (i = 0; t && i < btf_vlen(t); i++) {
		const char *n;

		en = btf_enum(t) + i;
		n = btf__name_by_offset(btf, en->name_off);
		qdrop |= n && strcmp(n, "SKB_DROP_REASON_QDISC_DROP") == 0;
	}
	kf = tp_proto(btf, "kfree_skb");
	if (kf && btf_vlen(kf) >= 4 && qdrop) {
		/* (the typedef's first parameter is the tracepoint's data) */
		t = btf__type_by_id(btf, btf_params(kf)[3].type);
		*drops = t && btf_is_enum(t) && (int)btf_params(kf)[3].type == id;
	}
	if (!*drops)
		snprintf(why, whylen,
			 "no drops (the kernel's skb:kfree_skb tracepoint lacks the drop reason "
			 "QDISC_DROP: Linux 5.18 or later needed)");
	return 0;
}

/* open, set up and load the object; 0 or -1 with why */
static int load(struct linuxbe_st *st, struct linuxbe_bpf *b, char *why, size_t whylen)
{
	uint32_t rate = st->drop_limit;
	struct btf *vm = btf__load_vmlinux_btf();
	int err, drops = 0;

	if (!vm) {
		snprintf(why, whylen, "bpf absent (cannot read the kernel's BTF: %s)",
			 strerror(errno));
		return -1;
	}
	err = linuxbe_bpf_kernel_check(vm, &drops, b->drops_why, sizeof b->drops_why);
	btf__free(vm);
	if (err < 0) {
		snprintf(why, whylen, "%s", b->drops_why);
		return -1;
	}
	if (!drops)
		b->dropping = 0; /* (the drop monitor's drops stay, if it is active) */

	load_log[0] = 0;
	libbpf_set_print(print_cb);
	b->skel = bsflowd_bpf__open();
	err = b->skel ? 0 : -errno;
	if (b->skel) {
		uint64_t cost = rate ? 1000000000ull / rate : 0;
		uint32_t burst = rate / 10 ? rate / 10 : 1;

		b->skel->data->hdr_bytes = st->conf.header_bytes;
		b->skel->data->report_drops = (uint32_t)b->dropping;
		/* the agent's drop limit: `rate` reports a second, bursts of
		 * a tenth of that (as the agent's own limiter) */
		b->skel->data->drop_cost_ns = cost;
		b->skel->data->drop_tau_ns = (uint64_t)(burst - 1) * cost;
		b->drop_rate = rate;
	}
	if (!err && !drops)
		err = bpf_program__set_autoload(b->skel->progs.bsf_drop, false);
	if (!err)
		err = bsflowd_bpf__load(b->skel);
	if (!err)
		err = bsflowd_bpf__attach(b->skel);
	libbpf_set_print(NULL);
	if (err) {
		size_t ll;
		const char *tail;

		oneline(load_log);
		ll = strlen(load_log);
		tail = ll > 500 ? load_log + ll - 500 : load_log;
		if (err == -EPERM)
			snprintf(why, whylen,
				 "bpf absent (needs CAP_BPF and CAP_PERFMON: %s: %.600s)",
				 strerror(-err), tail);
		else
			snprintf(why, whylen, "bpf absent (load refused: %s: ...%s)",
				 strerror(-err), tail);
		return -1;
	}
	return 0;
}

int linuxbe_bpf_open(struct linuxbe_st *st, char *why, size_t whylen)
{
	struct linuxbe_bpf *b;
	struct slot_plan *pl;
	unsigned uncovered = 0;
	uint32_t n;

	why[0] = '\0';
	if (access("/sys/kernel/btf/vmlinux", R_OK) != 0) {
		snprintf(why, whylen, "bpf absent (no kernel BTF: /sys/kernel/btf/vmlinux: %s)",
			 strerror(errno));
		return -1;
	}
	if (st->state[LINUXBE_SRC_QDISC] != LINUXBE_ACTIVE) {
		snprintf(why, whylen,
			 "bpf absent (it measures the qdisc source's queues, which "
			 "is not active)");
		return -1;
	}
	b = calloc(1, sizeof *b);
	pl = calloc(LINUXBE_BPF_SLOTS, sizeof *pl);
	if (!b || !pl) {
		free(b);
		free(pl);
		snprintf(why, whylen, "bpf absent (out of memory)");
		return -1;
	}
	b->ncpu = libbpf_num_possible_cpus();
	if (b->ncpu <= 0 || !(b->buf = calloc((size_t)b->ncpu, sizeof *b->buf))) {
		snprintf(why, whylen, "bpf absent (cannot count the CPUs)");
		free(pl);
		free(b);
		return -1;
	}
	b->sampling = st->state[LINUXBE_SRC_PSAMPLE] != LINUXBE_ACTIVE &&
		      st->conf.mode[LINUXBE_SRC_PACKET] != LINUXBE_ON;
	b->dropping = st->state[LINUXBE_SRC_DROPMON] != LINUXBE_ACTIVE;
	n = plan(st, b, pl, &uncovered);
	/* a port whose sampled queues are not all watched: the packet source
	 * samples (every port, so that one source's rates hold) */
	if (uncovered)
		b->sampling = 0;
	if (load(st, b, why, whylen) < 0 || name_slots(st, b, pl, n) < 0) {
		if (b->skel && !why[0])
			snprintf(why, whylen, "bpf absent (cannot fill its maps: %s)",
				 strerror(errno));
		free(pl);
		linuxbe_bpf_close(st);
		free_b(b);
		return -1;
	}
	free(pl);
	st->bpf = b;
	b->pool = calloc(st->nports ? st->nports : 1, sizeof *b->pool);
	if (b->dropping) {
		linuxbe_bpf_load_reasons(b);
		b->bk = calloc((size_t)b->ncpu, sizeof *b->bk);
	}
	if (!b->pool || (b->dropping && !b->bk) || linuxbe_bpf_rings_open(st) < 0) {
		snprintf(why, whylen, "bpf absent (cannot watch its ring buffers)");
		linuxbe_bpf_close(st);
		return -1;
	}
	snprintf(why, whylen,
		 "bpf on %u queue%s%s (exact backlog peaks, per-packet qdisc sojourn%s%s, queue "
		 "events; tp_btf qdisc_enqueue / qdisc_dequeue / kfree_skb)%s%s",
		 b->nslots, b->nslots == 1 ? "" : "s",
		 b->n_leaf_slots ? ", leaves of classful roots among them" : "",
		 b->sampling ? ", 1-in-N samples at dequeue with queue, depth and sojourn" : "",
		 b->dropping ? ", drops with headers" : "", b->leaf_why[0] ? "; not watched: " : "",
		 b->leaf_why);
	if (b->dropping)
		snprintf(why + strlen(why), whylen - strlen(why),
			 "; drop reports at most %u a second (drops limit)", b->drop_rate);
	else if (b->drops_why[0])
		snprintf(why + strlen(why), whylen - strlen(why), "; %s", b->drops_why);
	return 0;
}

int linuxbe_bpf_sampling(const struct linuxbe_st *st)
{
	return st->bpf && st->bpf->sampling;
}

uint64_t linuxbe_bpf_pool(struct linuxbe_st *st, uint32_t port)
{
	linuxbe_bpf_drain(st);
	return st->bpf && port < st->nports ? st->bpf->pool[port] : 0;
}

int linuxbe_bpf_set_queue_events(struct linuxbe_st *st, uint32_t port, uint32_t queue,
				 uint32_t multicast, uint32_t flags, char *err, size_t errlen)
{
	struct linuxbe_bpf *b = st->bpf;
	struct linuxbe_bpf_slot sc;
	struct linuxbe_leaf *lf;
	uint32_t slot, want = 0;
	int fd;

	if (!b) {
		snprintf(err, errlen, "the bpf source is not active");
		return -1;
	}
	if (flags & ~(uint32_t)(BSF_QEV_ENQUEUE | BSF_QEV_DEQUEUE)) {
		snprintf(err, errlen, "flags 0x%x not supported", flags);
		return -1;
	}
	if (multicast || port >= st->nports || queue >= st->ports[port].n_leaves) {
		snprintf(err, errlen, "no %s queue %u on port %u",
			 multicast ? "multicast" : "unicast", queue, port);
		return -1;
	}
	lf = &st->ports[port].leaves[queue];
	if (!lf->bpf) {
		snprintf(err, errlen, "queue %u of %s is not watched by the bpf source", queue,
			 st->ports[port].name);
		return -1;
	}
	slot = lf->bpf_slot;
	if (flags & BSF_QEV_ENQUEUE)
		want |= LINUXBE_BPF_QEV_ENQ;
	if (flags & BSF_QEV_DEQUEUE)
		want |= LINUXBE_BPF_QEV_DEQ;
	fd = bpf_map__fd(b->skel->maps.slots);
	if (bpf_map_lookup_elem(fd, &slot, &sc) != 0) {
		snprintf(err, errlen, "bpf slots: %s", strerror(errno));
		return -1;
	}
	sc.stream = want;
	if (bpf_map_update_elem(fd, &slot, &sc, BPF_EXIST) != 0) {
		snprintf(err, errlen, "bpf slots: %s", strerror(errno));
		return -1;
	}
	if (want && !b->slot_stream[slot])
		st->q.streams++;
	else if (!want && b->slot_stream[slot])
		st->q.streams--;
	b->slot_stream[slot] = want;
	return 0;
}

void linuxbe_bpf_log_status(struct linuxbe_st *st)
{
	struct linuxbe_bpf *b = st->bpf;
	uint32_t s;

	if (!b)
		return;
	linuxbe_log(st, LOG_NOTICE,
		    "status: bpf: %llu samples read, %llu drop events, %llu drops suppressed "
		    "or lost in the kernel, %llu queue events read, %llu lost in the kernel",
		    (unsigned long long)b->samples, (unsigned long long)b->drop_events,
		    (unsigned long long)linuxbe_bpf_drops_lost(st), (unsigned long long)b->qev_read,
		    (unsigned long long)linuxbe_bpf_queue_events_lost(st));
	for (s = 0; s < b->nslots; s++) {
		char line[400];
		size_t n = 0;
		unsigned k;

		for (k = 0; k < LINUXBE_BPF_HIST && n < sizeof line; k++)
			if (b->hist[s][k])
				n += (size_t)snprintf(line + n, sizeof line - n, " 2^%u:%llu", k,
						      (unsigned long long)b->hist[s][k]);
		linuxbe_log(st, LOG_NOTICE,
			    "status: bpf %s queue %u sojourn histogram (ns):%s; %llu unmeasured",
			    st->ports[b->slot_port[s]].name, b->slot_q[s], n ? line : " empty",
			    (unsigned long long)b->unmeasured[s]);
	}
}

void linuxbe_bpf_close(struct linuxbe_st *st)
{
	struct linuxbe_bpf *b = st->bpf;
	uint32_t p, q;

	for (p = 0; p < st->nports; p++)
		for (q = 0; q < BSF_MAX_QUEUES; q++)
			st->ports[p].leaves[q].bpf = 0;
	st->q.streams = 0;
	if (!b)
		return;
	if (b->rb_w && st->host->fd_unwatch)
		st->host->fd_unwatch(b->rb_w);
	ring_buffer__free(b->rb);
	free(b->pool);
	free(b->reasons);
	free(b->bk);
	free_b(b);
	st->bpf = NULL;
}

#else /* !HAVE_BPF */

int linuxbe_bpf_open(struct linuxbe_st *st, char *why, size_t whylen)
{
	(void)st;
	snprintf(why, whylen, "bpf absent (bsflowd was built without BPF support: %s)",
		 BSF_BPF_WHY);
	return -1;
}

void linuxbe_bpf_drain(struct linuxbe_st *st)
{
	(void)st;
}

void linuxbe_bpf_log_status(struct linuxbe_st *st)
{
	(void)st;
}

int linuxbe_bpf_sampling(const struct linuxbe_st *st)
{
	(void)st;
	return 0;
}

uint64_t linuxbe_bpf_pool(struct linuxbe_st *st, uint32_t port)
{
	(void)st;
	(void)port;
	return 0;
}

int linuxbe_bpf_dropping(const struct linuxbe_st *st)
{
	(void)st;
	return 0;
}

uint64_t linuxbe_bpf_drops_lost(struct linuxbe_st *st)
{
	(void)st;
	return 0;
}

int linuxbe_bpf_set_queue_events(struct linuxbe_st *st, uint32_t port, uint32_t queue,
				 uint32_t multicast, uint32_t flags, char *err, size_t errlen)
{
	(void)st;
	(void)port;
	(void)queue;
	(void)multicast;
	(void)flags;
	snprintf(err, errlen, "bsflowd was built without BPF support");
	return -1;
}

uint64_t linuxbe_bpf_queue_events_lost(struct linuxbe_st *st)
{
	(void)st;
	return 0;
}

int linuxbe_bpf_own_records(struct linuxbe_st *st, uint32_t port, uint32_t enterprise,
			    struct bsf_own_records *out, char *err, size_t errlen)
{
	(void)st;
	(void)port;
	(void)enterprise;
	(void)err;
	(void)errlen;
	out->nrec = 0;
	out->len = 0;
	return 0;
}

void linuxbe_bpf_close(struct linuxbe_st *st)
{
	(void)st;
}

#endif
