/*
 * bpfdrain.c - the `bpf` source's per-CPU figures into the linux
 * backend's state: before every window read, flip the half the kernel
 * writes, read the other, and fold each queue's exact backlog
 * peak (with its time), its sojourns (max, latest, count) into the
 * leaves' windows, its dequeues into the port's sample pool, its lost
 * samples and queue events into their counts, and its sojourn histogram
 * into the cumulative one that the port's own counter record E:12
 * sojourn_histograms carries (read_own_records).
 *
 * SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
 */
#include "config.h"

#if HAVE_BPF
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include <bpf/bpf.h>

#include "agent/linux/bpf/bpfint.h"
#include "agent/linux/bpf/bpfrun.h"
#include "agent/linux/bpf/bsflowd.skel.h"
#include "proto/sflow_encode.h"
#include "proto/sflow_own.h"

/* a peak from the kernel into all windows, the current value unchanged */
static void fold_max(struct linuxbe_peak *pk, uint64_t v, uint64_t alloc, uint64_t t)
{
	uint64_t cur = pk->cur;
	int valid = pk->valid;

	linuxbe_peak_fold(pk, v, alloc, t);
	if (valid)
		pk->cur = cur;
}

/* The CPUs' records of one slot: maxima of epoch e (into t->max[0]),
 * counts since the last read (prev: the sums then, updated) into t. */
static void sum_cpus(const struct linuxbe_bpf *b, uint64_t e, struct linuxbe_bpf_qstat *prev,
		     struct linuxbe_bpf_qstat *t)
{
	struct linuxbe_bpf_qstat cum;
	unsigned k;
	int c;

	memset(t, 0, sizeof *t);
	memset(&cum, 0, sizeof cum);
	for (c = 0; c < b->ncpu; c++) {
		const struct linuxbe_bpf_qstat *r = &b->buf[c];

		const struct linuxbe_bpf_qmax *rm = &r->max[e & 1];
		struct linuxbe_bpf_qmax *tm = &t->max[0];

		if (rm->epoch == e) {
			if (rm->peak_backlog > tm->peak_backlog || (!tm->peak_t && rm->peak_t)) {
				tm->peak_backlog = rm->peak_backlog;
				tm->peak_t = rm->peak_t;
			}
			if (rm->peak_qlen > tm->peak_qlen ||
			    (!tm->peak_qlen_t && rm->peak_qlen_t)) {
				tm->peak_qlen = rm->peak_qlen;
				tm->peak_qlen_t = rm->peak_qlen_t;
			}
			if (rm->sojourn_max > tm->sojourn_max)
				tm->sojourn_max = rm->sojourn_max;
		}
		if (r->sojourn_last_t >= t->sojourn_last_t) {
			t->sojourn_last = r->sojourn_last;
			t->sojourn_last_t = r->sojourn_last_t;
		}
		cum.sojourn_n += r->sojourn_n;
		cum.enq += r->enq;
		cum.deq += r->deq;
		cum.unmeasured += r->unmeasured;
		cum.ring_lost += r->ring_lost;
		cum.qev_lost += r->qev_lost;
		for (k = 0; k < LINUXBE_BPF_HIST; k++)
			cum.hist[k] += r->hist[k];
	}
	t->sojourn_n = cum.sojourn_n - prev->sojourn_n;
	t->enq = cum.enq - prev->enq;
	t->deq = cum.deq - prev->deq;
	t->unmeasured = cum.unmeasured - prev->unmeasured;
	t->ring_lost = cum.ring_lost - prev->ring_lost;
	t->qev_lost = cum.qev_lost - prev->qev_lost;
	for (k = 0; k < LINUXBE_BPF_HIST; k++)
		t->hist[k] = cum.hist[k] - prev->hist[k];
	*prev = cum;
}

/* one slot's figures since the last drain into its leaf */
static void fold_slot(struct linuxbe_st *st, uint32_t s, const struct linuxbe_bpf_qstat *t,
		      uint64_t off)
{
	struct linuxbe_bpf *b = st->bpf;
	struct linuxbe_leaf *lf = &st->ports[b->slot_port[s]].leaves[b->slot_q[s]];
	unsigned k, w;

	b->pool[b->slot_port[s]] += t->deq;
	st->ports[b->slot_port[s]].sample_drops += t->ring_lost;
	b->unmeasured[s] += t->unmeasured;
	b->qev_lost += t->qev_lost;
	if (t->enq) {
		fold_max(&lf->bytes, t->max[0].peak_backlog,
			 lf->limit_unit == LINUXBE_LIMIT_BYTES ? lf->limit : BSF_UNKNOWN,
			 t->max[0].peak_t + off);
		fold_max(&lf->pkts, t->max[0].peak_qlen,
			 lf->limit_unit == LINUXBE_LIMIT_PACKETS ? lf->limit : BSF_UNKNOWN,
			 t->max[0].peak_qlen_t + off);
	}
	if (!t->sojourn_n)
		return;
	linuxbe_peak_fold(&lf->delay, t->max[0].sojourn_max, BSF_UNKNOWN, t->sojourn_last_t + off);
	/* a window's max covers its own measurements only: a past packet's
	 * sojourn does not carry into the next window */
	lf->delay.cur = 0;
	lf->delay_ns = t->sojourn_last;
	for (w = 0; w < BSF_WINDOWS; w++)
		lf->delay_count[w] += t->sojourn_n;
	for (k = 0; k < LINUXBE_BPF_HIST; k++)
		b->hist[s][k] += t->hist[k];
}

void linuxbe_bpf_drain(struct linuxbe_st *st)
{
	struct linuxbe_bpf *b = st->bpf;
	struct linuxbe_bpf_qstat t;
	uint64_t mono, off, e;
	uint32_t s;
	int fd;

	if (!b || st->state[LINUXBE_SRC_BPF] != LINUXBE_ACTIVE)
		return;
	mono = linuxbe_bpf_mono_ns();
	if (b->drains && mono - b->last_drain_mono < 1000000u)
		return; /* reads of all ports in a row: one drain */
	b->last_drain_mono = mono;
	b->drains++;
	off = st->host->now_ns(st->host->arg) - mono; /* kernel clock to the agent's */
	/* once a second: find the leaves' qdiscs again (a leaf replaced by
	 * tc, whose old qdisc is gone) */
	if (b->n_leaf_slots && mono - b->learn_mono >= 1000000000u) {
		b->learn_mono = mono;
		__atomic_add_fetch(&b->skel->data->learn, 1, __ATOMIC_SEQ_CST);
	}
	e = __atomic_fetch_add(&b->skel->data->epoch, 1, __ATOMIC_SEQ_CST);
	fd = bpf_map__fd(b->skel->maps.qstats);
	for (s = 0; s < b->nslots; s++) {
		if (bpf_map_lookup_elem(fd, &s, b->buf) != 0) {
			linuxbe_src_fail(st, LINUXBE_SRC_BPF, strerror(errno));
			return;
		}
		sum_cpus(b, e, &b->prev[s], &t);
		if (t.enq || t.deq || t.unmeasured || t.ring_lost || t.qev_lost)
			fold_slot(st, s, &t, off);
	}
}

uint64_t linuxbe_bpf_queue_events_lost(struct linuxbe_st *st)
{
	linuxbe_bpf_drain(st);
	return st->bpf ? st->bpf->qev_lost : 0;
}

/* slot s's histogram as an E:12 element (its non-zero range) */
static void hist_of(const struct linuxbe_bpf *b, uint32_t s, struct sflow_own_sojourn *h)
{
	unsigned lo = 0, hi = LINUXBE_BPF_HIST, k;

	memset(h, 0, sizeof *h);
	h->queue = b->slot_q[s];
	h->unmeasured = (uint32_t)b->unmeasured[s];
	while (lo < hi && !b->hist[s][lo])
		lo++;
	while (hi > lo && !b->hist[s][hi - 1])
		hi--;
	h->first = lo < hi ? lo : 0;
	h->n = hi - lo;
	for (k = lo; k < hi; k++)
		h->counts[k - lo] = (uint32_t)b->hist[s][k]; /* modulo 2^32 */
}

int linuxbe_bpf_own_records(struct linuxbe_st *st, uint32_t port, uint32_t enterprise,
			    struct bsf_own_records *out, char *err, size_t errlen)
{
	struct linuxbe_bpf *b = st->bpf;
	struct sflow_own_sojourn h[SFLOW_OWN_SOJOURN_MAX];
	struct sflow_sample_enc s;
	struct sflow_w w;
	size_t room = sizeof out->buf - 12; /* tag, length, count */
	uint32_t n = 0, left = 0, slot;

	out->nrec = 0;
	out->len = 0;
	if (!b || port >= st->nports || st->state[LINUXBE_SRC_BPF] != LINUXBE_ACTIVE)
		return 0;
	linuxbe_bpf_drain(st);
	for (slot = 0; slot < b->nslots; slot++) {
		if (b->slot_port[slot] != port)
			continue;
		if (n == SFLOW_OWN_SOJOURN_MAX) {
			left++;
			continue;
		}
		hist_of(b, slot, &h[n]);
		if (sflow_own_sojourn_size(&h[n]) > room) {
			left++; /* the queues that fit go, the others wait for fewer buckets */
			continue;
		}
		room -= sflow_own_sojourn_size(&h[n]);
		n++;
	}
	if (!n)
		return 0;
	if (left && !b->hist_cut_said) {
		b->hist_cut_said = 1;
		linuxbe_log(st, LOG_NOTICE,
			    "bpf: %s: %u queue%s sojourn histogram left out of its counters "
			    "(more than %zu bytes of own records)",
			    st->ports[port].name, left, left == 1 ? "'s" : "s'", sizeof out->buf);
	}
	memset(&s, 0, sizeof s);
	sflow_w_init(&w, out->buf, sizeof out->buf);
	sflow_own_enc_sojourns(&w, &s, enterprise, h, n);
	if (w.err) {
		snprintf(err, errlen, "bpf: the sojourn histograms do not encode (%d)", w.err);
		return -1;
	}
	out->nrec = s.nrecords;
	out->len = (uint32_t)w.len;
	return 0;
}

#endif
