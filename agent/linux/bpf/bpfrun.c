/*
 * bpfrun.c - the linux backend's `bpf` source: loads bsflowd.bpf.o
 * through its generated skeleton (libbpf, CO-RE with the kernel's BTF),
 * names the queues the qdisc source mapped (a leaf's qdisc handle, or
 * the root qdisc of a single-queue port) in the object's `queues` map,
 * and drains the per-CPU figures into the leaves' peak windows and
 * delays before every window read: exact backlog peaks (every enqueue,
 * no polling gap) with their time, and each packet's qdisc sojourn.
 * Without BPF support at build time (configure --disable-bpf, or no
 * clang / bpftool / libbpf / BTF) the source is absent, saying why.
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
#include <time.h>
#include <unistd.h>

#include "agent/linux/bpf/bpfrun.h"
#include "agent/linux/state.h"

#if HAVE_BPF
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>

#include "agent/linux/bpf/bsflowd.bpf.h"
#include "agent/linux/bpf/bsflowd.skel.h"

struct linuxbe_bpf {
	struct bsflowd_bpf *skel;
	int ncpu;
	struct linuxbe_bpf_qstat *buf; /* ncpu records: one lookup */
	uint32_t nslots;
	uint32_t slot_port[LINUXBE_BPF_SLOTS], slot_q[LINUXBE_BPF_SLOTS];
	uint64_t hist[LINUXBE_BPF_SLOTS][LINUXBE_BPF_HIST]; /* cumulative */
	uint64_t last_drain_mono;
	uint64_t drains;
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
	struct linuxbe_bpf_bucket *bk; /* ncpu, for the suppressed count */
};

/* Drop reports the kernel sends at most, per second, the whole host. */
#define LINUXBE_BPF_DROP_RATE 10000u

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* libbpf's messages during load (the verifier's refusal): kept for the
 * log line, which quotes their end (where the verifier says why) */
static char load_log[16384];

static int print_cb(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	size_t n = strlen(load_log);
	static char line[16384];

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(line, sizeof line, fmt, ap);
	if (n + 1 < sizeof load_log)
		snprintf(load_log + n, sizeof load_log - n, "%s", line);
	return 0;
}

static void oneline(char *s)
{
	for (; *s; s++)
		if (*s == '\n' || *s == '\t')
			*s = ' ';
}

static int on_sample(void *ctx, void *data, size_t size)
{
	struct linuxbe_st *st = ctx;
	struct linuxbe_bpf *b = st->bpf;
	const struct linuxbe_bpf_sample *r = data;
	struct linuxbe_port *pt;
	struct bsf_event *e;
	struct timespec ts;
	uint64_t mono;
	uint32_t len;

	if (size < sizeof *r || r->slot >= b->nslots)
		return 0;
	pt = &st->ports[b->slot_port[r->slot]];
	e = linuxbe_evq_slot(st, BSF_EV_SAMPLE);
	if (!e) {
		pt->sample_drops++;
		return 0;
	}
	b->samples++;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	mono = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	/* the data source is the port whose queue the packet leaves (its
	 * sampling rate and pool), as for the packet source's outgoing
	 * packets: in_port is that port, not the skb's input device */
	e->in_port = b->slot_port[r->slot];
	e->out_port = b->slot_port[r->slot];
	e->queue = b->slot_q[r->slot];
	e->tc = UINT32_MAX;
	e->sampling_rate = pt->sampling_rate;
	e->depth_bytes = r->backlog;
	e->transit_ns = r->sojourn;
	e->t_ns = st->host->now_ns(st->host->arg) - (mono - r->t);
	e->frame_len = r->frame_len + 4; /* FCS */
	len = r->hdr_len;
	if (len > BSF_HDR_MAX)
		len = BSF_HDR_MAX;
	if (len > st->conf.header_bytes)
		len = st->conf.header_bytes;
	memcpy(e->hdr, r->hdr, len);
	e->hdr_len = len;
	return 0;
}

/* reasons that happen on the way out through a qdisc: the port is the
 * output, and queue_mapping its queue */
static int egress_reason(const char *r)
{
	return strncmp(r, "QDISC", 5) == 0 || strncmp(r, "TC_EGRESS", 9) == 0 ||
	       strncmp(r, "CAKE", 4) == 0 || strncmp(r, "FQ_", 3) == 0;
}

static int on_drop(void *ctx, void *data, size_t size)
{
	struct linuxbe_st *st = ctx;
	struct linuxbe_bpf *b = st->bpf;
	const struct linuxbe_bpf_drop *r = data;
	const char *name;
	struct bsf_event *e;
	struct timespec ts;
	uint32_t port, len;
	uint64_t mono;

	if (size < sizeof *r)
		return 0;
	port = linuxbe_port_by_ifindex(st, r->ifindex);
	if (port == UINT32_MAX)
		return 0;
	e = linuxbe_evq_slot(st, BSF_EV_DROP);
	if (!e)
		return 0; /* counted in the queue's lost drops */
	b->drop_events++;
	name = r->reason < b->n_reasons ? b->reasons[r->reason] : "";
	linuxbe_st_reason(st, name, "", "", &e->reason, &e->stage);
	snprintf(e->reason_name, sizeof e->reason_name, "%s", name);
	if (egress_reason(name)) {
		struct linuxbe_port *pt = &st->ports[port];

		e->out_port = port;
		e->queue = pt->n_leaves <= 1 ? 0 : r->queue < pt->n_leaves ? r->queue : UINT32_MAX;
	} else {
		e->in_port = port;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	mono = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	e->t_ns = st->host->now_ns(st->host->arg) - (mono - r->t);
	e->frame_len = r->frame_len + 4; /* FCS */
	len = r->hdr_len;
	if (len > BSF_HDR_MAX)
		len = BSF_HDR_MAX;
	if (len > st->conf.header_bytes)
		len = st->conf.header_bytes;
	memcpy(e->hdr, r->hdr, len);
	e->hdr_len = len;
	return 0;
}

/* the names of enum skb_drop_reason, by value, from the kernel's BTF */
static void load_reasons(struct linuxbe_bpf *b)
{
	struct btf *btf = btf__load_vmlinux_btf();
	const struct btf_type *t;
	const struct btf_enum *en;
	int id;
	unsigned i, max = 0;

	if (!btf)
		return;
	id = btf__find_by_name_kind(btf, "skb_drop_reason", BTF_KIND_ENUM);
	t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	if (t) {
		en = btf_enum(t);
		for (i = 0; i < btf_vlen(t); i++)
			if (en[i].val >= 0 && (unsigned)en[i].val < 1024 &&
			    (unsigned)en[i].val >= max)
				max = (unsigned)en[i].val + 1;
		b->reasons = calloc(max ? max : 1, sizeof *b->reasons);
		if (b->reasons) {
			b->n_reasons = max;
			for (i = 0; i < btf_vlen(t); i++) {
				const char *n = btf__name_by_offset(btf, en[i].name_off);

				if (en[i].val < 0 || (unsigned)en[i].val >= max || !n)
					continue;
				if (strncmp(n, "SKB_DROP_REASON_", 16) == 0)
					n += 16;
				snprintf(b->reasons[en[i].val], sizeof b->reasons[0], "%s", n);
			}
		}
	}
	btf__free(btf);
}

uint64_t linuxbe_bpf_drops_lost(struct linuxbe_st *st)
{
	struct linuxbe_bpf *b = st->bpf;
	uint32_t zero = 0;
	uint64_t n = 0;
	int c;

	if (!b || !b->dropping || !b->bk ||
	    bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.bucket), &zero, b->bk) != 0)
		return 0;
	for (c = 0; c < b->ncpu; c++)
		n += b->bk[c].suppressed + b->bk[c].lost;
	return n;
}

int linuxbe_bpf_dropping(const struct linuxbe_st *st)
{
	return st->bpf && st->bpf->dropping;
}

static void on_ring(int fd, void *arg)
{
	struct linuxbe_st *st = arg;

	(void)fd;
	if (ring_buffer__consume(st->bpf->rb) < 0)
		st->src_errors[LINUXBE_SRC_BPF]++;
	if (st->q.n && st->host->events_ready)
		st->host->events_ready(st->host->arg);
}

int linuxbe_bpf_open(struct linuxbe_st *st, char *why, size_t whylen)
{
	struct linuxbe_bpf *b;
	uint32_t p, q, uncovered = 0;
	int err, fd;

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
	if (!b) {
		snprintf(why, whylen, "bpf absent (out of memory)");
		return -1;
	}
	b->ncpu = libbpf_num_possible_cpus();
	if (b->ncpu <= 0 || !(b->buf = calloc((size_t)b->ncpu, sizeof *b->buf))) {
		snprintf(why, whylen, "bpf absent (cannot count the CPUs)");
		free(b);
		return -1;
	}
	load_log[0] = 0;
	libbpf_set_print(print_cb);
	b->skel = bsflowd_bpf__open();
	if (b->skel) {
		b->skel->data->hdr_bytes = st->conf.header_bytes;
		/* each CPU's bucket: its share of the rate, one second of burst */
		b->skel->data->drop_cost_ns =
		    1000000000ull * (uint64_t)b->ncpu / LINUXBE_BPF_DROP_RATE;
		b->skel->data->drop_burst_ns = 1000000000ull;
	}
	err = b->skel ? bsflowd_bpf__load(b->skel) : -errno;
	if (!err)
		err = bsflowd_bpf__attach(b->skel);
	libbpf_set_print(NULL);
	if (err) {
		oneline(load_log);
		size_t ll = strlen(load_log);
		const char *tail = ll > 500 ? load_log + ll - 500 : load_log;

		if (err == -EPERM)
			snprintf(why, whylen,
				 "bpf absent (needs CAP_BPF and CAP_PERFMON: %s: %.600s)",
				 strerror(-err), tail);
		else
			snprintf(why, whylen, "bpf absent (load refused: %s: ...%s)",
				 strerror(-err), tail);
		bsflowd_bpf__destroy(b->skel);
		free(b->buf);
		free(b);
		return -1;
	}
	b->sampling = st->state[LINUXBE_SRC_PSAMPLE] != LINUXBE_ACTIVE &&
		      st->conf.mode[LINUXBE_SRC_PACKET] != LINUXBE_ON;
	b->dropping = st->state[LINUXBE_SRC_DROPMON] != LINUXBE_ACTIVE;
	if (b->dropping) {
		int pfd = bpf_map__fd(b->skel->maps.ports);

		load_reasons(b);
		b->bk = calloc((size_t)b->ncpu, sizeof *b->bk);
		for (p = 0; p < st->nports; p++) {
			uint32_t one = 1;

			bpf_map_update_elem(pfd, &st->ports[p].ifindex, &one, BPF_ANY);
		}
	}
	fd = bpf_map__fd(b->skel->maps.queues);
	for (p = 0; p < st->nports; p++) {
		struct linuxbe_port *pt = &st->ports[p];
		int covered = 0; /* the kernel's enqueues on this port are all seen */

		for (q = 0; q < pt->n_leaves && b->nslots < LINUXBE_BPF_SLOTS; q++) {
			struct linuxbe_leaf *lf = &pt->leaves[q];
			struct linuxbe_bpf_qinfo qi = {b->nslots,
						       b->sampling ? pt->sampling_rate : 0};
			uint32_t slot = b->nslots;
			uint64_t key;
			int named = 0;

			/* the qdisc the kernel enqueues on: a leaf's own qdisc (mq
			 * children), or the root of a single-queue port (tbf, fq...) */
			if (lf->qdisc) {
				key = (uint64_t)pt->ifindex << 32 | lf->qdisc;
				named |= bpf_map_update_elem(fd, &key, &qi, BPF_ANY) == 0;
			}
			if (pt->n_leaves == 1 || lf->handle == pt->root_handle) {
				key = (uint64_t)pt->ifindex << 32 | lf->handle;
				named |= bpf_map_update_elem(fd, &key, &qi, BPF_ANY) == 0;
			}
			if (!named)
				continue;
			if (lf->handle == pt->root_handle || pt->n_leaves == 1 ||
			    strcmp(pt->root_kind, "mq") == 0 ||
			    strcmp(pt->root_kind, "mqprio") == 0)
				covered = 1;
			lf->bpf = 1;
			b->slot_port[slot] = p;
			b->slot_q[slot] = q;
			b->nslots++;
		}
		/* a classful root (htb, prio...) hides its leaves from the
		 * tracepoints: the packet source samples such ports */
		if (pt->sampling_rate && !covered)
			uncovered++;
	}
	if (uncovered && b->sampling) {
		uint64_t key, next;
		struct linuxbe_bpf_qinfo qi;
		int more = bpf_map_get_next_key(fd, NULL, &key) == 0;

		b->sampling = 0; /* no rate: the programs sample nothing */
		while (more) {
			more = bpf_map_get_next_key(fd, &key, &next) == 0;
			if (bpf_map_lookup_elem(fd, &key, &qi) == 0) {
				qi.rate = 0;
				bpf_map_update_elem(fd, &key, &qi, BPF_EXIST);
			}
			key = next;
		}
	}
	st->bpf = b;
	b->pool = calloc(st->nports ? st->nports : 1, sizeof *b->pool);
	if (b->sampling || b->dropping) {
		b->rb = ring_buffer__new(bpf_map__fd(b->skel->maps.samples), on_sample, st, NULL);
		if (b->rb && b->dropping &&
		    ring_buffer__add(b->rb, bpf_map__fd(b->skel->maps.drops), on_drop, st) != 0) {
			ring_buffer__free(b->rb);
			b->rb = NULL;
		}
		b->rb_w = b->rb && st->host->fd_watch
			      ? st->host->fd_watch(st->host->arg, ring_buffer__epoll_fd(b->rb),
						   on_ring, st)
			      : NULL;
		if (!b->pool || !b->rb_w) {
			snprintf(why, whylen, "bpf absent (cannot watch its ring buffer)");
			linuxbe_bpf_close(st);
			return -1;
		}
	}
	snprintf(why, whylen,
		 "bpf on %u queue%s (exact backlog peaks, per-packet qdisc sojourn%s%s; tp_btf "
		 "qdisc_enqueue / qdisc_dequeue%s)",
		 b->nslots, b->nslots == 1 ? "" : "s",
		 b->sampling ? ", 1-in-N samples at dequeue with queue, depth and sojourn" : "",
		 b->dropping ? ", drops with headers (at most 10000/s)" : "",
		 b->dropping ? " / kfree_skb" : "");
	return 0;
}

/* a peak from the kernel into all windows, the current value unchanged */
static void fold_max(struct linuxbe_peak *pk, uint64_t v, uint64_t alloc, uint64_t t)
{
	uint64_t cur = pk->cur;
	int valid = pk->valid;

	linuxbe_peak_fold(pk, v, alloc, t);
	if (valid)
		pk->cur = cur;
}

void linuxbe_bpf_drain(struct linuxbe_st *st)
{
	struct linuxbe_bpf *b = st->bpf;
	uint64_t mono, off;
	uint32_t s, old;
	int fd, c;

	if (!b || st->state[LINUXBE_SRC_BPF] != LINUXBE_ACTIVE)
		return;
	mono = mono_ns();
	if (b->drains && mono - b->last_drain_mono < 1000000u)
		return; /* reads of all ports in a row: one drain */
	b->last_drain_mono = mono;
	b->drains++;
	off = st->host->now_ns(st->host->arg) - mono; /* kernel clock to the agent's */
	old = b->skel->bss->gen & 1;
	__atomic_store_n(&b->skel->bss->gen, old ^ 1, __ATOMIC_SEQ_CST);
	fd = bpf_map__fd(b->skel->maps.qstats);
	for (s = 0; s < b->nslots; s++) {
		struct linuxbe_leaf *lf = &st->ports[b->slot_port[s]].leaves[b->slot_q[s]];
		struct linuxbe_bpf_qstat t = {0};
		uint32_t idx = s * 2 + old;
		unsigned k, w;

		if (bpf_map_lookup_elem(fd, &idx, b->buf) != 0) {
			linuxbe_src_fail(st, LINUXBE_SRC_BPF, strerror(errno));
			return;
		}
		for (c = 0; c < b->ncpu; c++) {
			const struct linuxbe_bpf_qstat *r = &b->buf[c];

			if (r->peak_backlog > t.peak_backlog || (!t.peak_t && r->peak_t)) {
				t.peak_backlog = r->peak_backlog;
				t.peak_t = r->peak_t;
			}
			if (r->sojourn_max > t.sojourn_max)
				t.sojourn_max = r->sojourn_max;
			if (r->sojourn_n && r->sojourn_last_t >= t.sojourn_last_t) {
				t.sojourn_last = r->sojourn_last;
				t.sojourn_last_t = r->sojourn_last_t;
			}
			t.sojourn_n += r->sojourn_n;
			t.enq += r->enq;
			t.deq += r->deq;
			t.ring_lost += r->ring_lost;
			for (k = 0; k < LINUXBE_BPF_HIST; k++)
				t.hist[k] += r->hist[k];
		}
		if (!t.enq && !t.sojourn_n && !t.deq && !t.ring_lost)
			continue;
		memset(b->buf, 0, (size_t)b->ncpu * sizeof *b->buf);
		if (bpf_map_update_elem(fd, &idx, b->buf, BPF_ANY) != 0) {
			linuxbe_src_fail(st, LINUXBE_SRC_BPF, strerror(errno));
			return;
		}
		b->pool[b->slot_port[s]] += t.deq;
		st->ports[b->slot_port[s]].sample_drops += t.ring_lost;
		if (t.enq && lf->limit_unit != LINUXBE_LIMIT_PACKETS)
			fold_max(&lf->bytes, t.peak_backlog,
				 lf->limit_unit == LINUXBE_LIMIT_BYTES ? lf->limit : BSF_UNKNOWN,
				 t.peak_t + off);
		else if (t.enq)
			fold_max(&lf->bytes, t.peak_backlog, BSF_UNKNOWN, t.peak_t + off);
		if (t.sojourn_n) {
			linuxbe_peak_fold(&lf->delay, t.sojourn_max, BSF_UNKNOWN,
					  t.sojourn_last_t + off);
			/* a window's max covers its own measurements only: a past
			 * packet's sojourn does not carry into the next window */
			lf->delay.cur = 0;
			lf->delay_ns = t.sojourn_last;
			for (w = 0; w < BSF_WINDOWS; w++)
				lf->delay_count[w] += t.sojourn_n;
			for (k = 0; k < LINUXBE_BPF_HIST; k++)
				b->hist[s][k] += t.hist[k];
		}
	}
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

void linuxbe_bpf_log_status(struct linuxbe_st *st)
{
	struct linuxbe_bpf *b = st->bpf;
	uint32_t s;

	if (!b)
		return;
	if (b->sampling || b->dropping)
		linuxbe_log(
		    st, LOG_NOTICE,
		    "status: bpf: %llu samples read, %llu drop events, %llu drops suppressed "
		    "or lost in the kernel",
		    (unsigned long long)b->samples, (unsigned long long)b->drop_events,
		    (unsigned long long)linuxbe_bpf_drops_lost(st));
	for (s = 0; s < b->nslots; s++) {
		char line[400];
		size_t n = 0;
		unsigned k;

		for (k = 0; k < LINUXBE_BPF_HIST && n < sizeof line; k++)
			if (b->hist[s][k])
				n += (size_t)snprintf(line + n, sizeof line - n, " 2^%u:%llu", k,
						      (unsigned long long)b->hist[s][k]);
		linuxbe_log(st, LOG_NOTICE, "status: bpf %s queue %u sojourn histogram (ns):%s",
			    st->ports[b->slot_port[s]].name, b->slot_q[s], n ? line : " empty");
	}
}

void linuxbe_bpf_close(struct linuxbe_st *st)
{
	struct linuxbe_bpf *b = st->bpf;
	uint32_t p, q;

	if (!b)
		return;
	if (b->rb_w && st->host->fd_unwatch)
		st->host->fd_unwatch(b->rb_w);
	ring_buffer__free(b->rb);
	bsflowd_bpf__destroy(b->skel);
	free(b->pool);
	free(b->reasons);
	free(b->bk);
	free(b->buf);
	free(b);
	st->bpf = NULL;
	for (p = 0; p < st->nports; p++)
		for (q = 0; q < BSF_MAX_QUEUES; q++)
			st->ports[p].leaves[q].bpf = 0;
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

void linuxbe_bpf_close(struct linuxbe_st *st)
{
	(void)st;
}

#endif
