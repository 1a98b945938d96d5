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
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* libbpf's messages during load (the verifier's refusal): kept for the
 * log line, last lines first to go when it is long */
static char load_log[1024];

static int print_cb(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	size_t n = strlen(load_log);
	char line[512];

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

int linuxbe_bpf_open(struct linuxbe_st *st, char *why, size_t whylen)
{
	struct linuxbe_bpf *b;
	uint32_t p, q;
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
	err = b->skel ? bsflowd_bpf__load(b->skel) : -errno;
	if (!err)
		err = bsflowd_bpf__attach(b->skel);
	libbpf_set_print(NULL);
	if (err) {
		oneline(load_log);
		if (err == -EPERM || err == -EACCES)
			snprintf(why, whylen, "bpf absent (needs CAP_BPF and CAP_PERFMON: %s)",
				 strerror(-err));
		else
			snprintf(why, whylen, "bpf absent (load refused: %s: %.700s)",
				 strerror(-err), load_log);
		bsflowd_bpf__destroy(b->skel);
		free(b->buf);
		free(b);
		return -1;
	}
	fd = bpf_map__fd(b->skel->maps.queues);
	for (p = 0; p < st->nports; p++) {
		struct linuxbe_port *pt = &st->ports[p];

		for (q = 0; q < pt->n_leaves && b->nslots < LINUXBE_BPF_SLOTS; q++) {
			struct linuxbe_leaf *lf = &pt->leaves[q];
			uint32_t slot = b->nslots;
			uint64_t key;
			int named = 0;

			/* the qdisc the kernel enqueues on: a leaf's own qdisc (mq
			 * children), or the root of a single-queue port (tbf, fq...) */
			if (lf->qdisc) {
				key = (uint64_t)pt->ifindex << 32 | lf->qdisc;
				named |= bpf_map_update_elem(fd, &key, &slot, BPF_ANY) == 0;
			}
			if (pt->n_leaves == 1 || lf->handle == pt->root_handle) {
				key = (uint64_t)pt->ifindex << 32 | lf->handle;
				named |= bpf_map_update_elem(fd, &key, &slot, BPF_ANY) == 0;
			}
			if (!named)
				continue;
			lf->bpf = 1;
			b->slot_port[slot] = p;
			b->slot_q[slot] = q;
			b->nslots++;
		}
	}
	st->bpf = b;
	snprintf(why, whylen,
		 "bpf on %u queue%s (exact backlog peaks, per-packet qdisc sojourn; tp_btf "
		 "qdisc_enqueue / qdisc_dequeue)",
		 b->nslots, b->nslots == 1 ? "" : "s");
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
			for (k = 0; k < LINUXBE_BPF_HIST; k++)
				t.hist[k] += r->hist[k];
		}
		if (!t.enq && !t.sojourn_n)
			continue;
		memset(b->buf, 0, (size_t)b->ncpu * sizeof *b->buf);
		if (bpf_map_update_elem(fd, &idx, b->buf, BPF_ANY) != 0) {
			linuxbe_src_fail(st, LINUXBE_SRC_BPF, strerror(errno));
			return;
		}
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

void linuxbe_bpf_log_status(struct linuxbe_st *st)
{
	struct linuxbe_bpf *b = st->bpf;
	uint32_t s;

	if (!b)
		return;
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
	bsflowd_bpf__destroy(b->skel);
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

void linuxbe_bpf_close(struct linuxbe_st *st)
{
	(void)st;
}

#endif
