/*
 * model_telem.c - telemetry reads of the switch model: buffer occupancy
 * and windowed peaks, interface counters, drops, queue delays, the event
 * ring, and the accounting audit used by the tests.
 *
 * Peaks: every buffer object keeps one running peak since the last read
 * of any window, plus one stored peak per window.  Reading window w of an
 * object folds its running peak into every window, reports and resets
 * w's, and restarts the running peak at the current occupancy; so the hot
 * path compares one value per object, reads cost O(objects read x
 * windows), and objects are read independently (one port, or the device
 * and pools, at a time).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <math.h>
#include <string.h>

#include "agent/model/model_int.h"

/* ---------------------------------------------------------------- reads */

/* Read window w of an object with peak run `run` (cold part c) and
 * occupancy cur cells, cur_b bytes; the caller restarts its run at cur. */
static void occ_read(struct mpeak_c *c, uint32_t run, uint32_t cur, uint64_t cur_b, unsigned w,
		     uint64_t now, uint32_t alloc_now, struct model_occ *o)
{
	for (unsigned j = 0; j < MODEL_NUM_WINDOWS; j++) {
		if (run > c->w[j].cells) {
			c->w[j].cells = run;
			c->w[j].bytes = c->run_b;
			c->w[j].t = c->run_t;
			c->w[j].alloc = c->run_alloc;
		}
	}
	o->cur_cells = cur;
	o->cur_bytes = cur_b;
	o->peak_cells = c->w[w].cells;
	o->peak_bytes = c->w[w].bytes;
	o->peak_t_ns = c->w[w].t;
	o->alloc_cells = c->w[w].alloc;
	c->w[w].cells = cur;
	c->w[w].bytes = cur_b;
	c->w[w].t = now;
	c->w[w].alloc = alloc_now;
	mpeak_c_run(c, cur_b, now, alloc_now);
}

static void pk_read(const struct model *m, struct mpeak *k, unsigned w, uint64_t now,
		    uint32_t alloc_now, struct model_occ *o)
{
	occ_read(k->c, occ_cells(m, k->run_top), occ_cells(m, k->cb), occ_bytes(m, k->cb), w, now,
		 alloc_now, o);
	k->run_top = k->cb | m->occ_mask;
}

/* A pool's bytes are its cells'. */
static void pool_read(const struct model *m, struct mpool *k, unsigned w, uint64_t now,
		      uint32_t alloc_now, struct model_occ *o)
{
	occ_read(k->c, k->run, k->cur, (uint64_t)k->cur * m->cfg.cell_bytes, w, now, alloc_now, o);
	k->run = k->cur;
}

struct model_buffers *model_buffers_new(const struct model *m)
{
	struct model_buffers *b = calloc(1, sizeof(*b));
	if (b == NULL)
		return NULL;
	b->nports = m->np;
	b->ports = calloc(m->np, sizeof(*b->ports));
	if (b->ports == NULL) {
		free(b);
		return NULL;
	}
	return b;
}

void model_buffers_free(struct model_buffers *b)
{
	if (b == NULL)
		return;
	free(b->ports);
	free(b);
}

int model_read_device_buffers(struct model *m, unsigned window, struct model_device_buffers *out)
{
	if (window >= MODEL_NUM_WINDOWS || out == NULL)
		return -1;
	uint64_t now = m->now;
	out->t_ns = now;
	pk_read(m, &m->dev_uc, window, now, m->cfg.total_cells, &out->dev_uc);
	pk_read(m, &m->dev_mc, window, now, m->cfg.total_cells, &out->dev_mc);
	for (unsigned i = 0; i < MODEL_MAX_POOLS; i++) {
		pool_read(m, &m->ip_pk[i], window, now, m->cfg.ing_pool_cells[i],
			  &out->ing_pool[i]);
		pool_read(m, &m->ep_pk[i], window, now, m->cfg.egr_pool_cells[i],
			  &out->egr_pool[i]);
		if (i >= m->cfg.n_ing_pools)
			memset(&out->ing_pool[i], 0, sizeof(out->ing_pool[i]));
		if (i >= m->cfg.n_egr_pools)
			memset(&out->egr_pool[i], 0, sizeof(out->egr_pool[i]));
	}
	return 0;
}

int model_read_port_buffers(struct model *m, unsigned window, unsigned port,
			    struct model_port_buffers *o)
{
	if (window >= MODEL_NUM_WINDOWS || port >= m->np || o == NULL)
		return -1;
	uint64_t now = m->now;
	struct mport *P = &m->ports[port];
	memset(o, 0, sizeof(*o));
	uint32_t a = model_sum_alloc(m, &P->sum_pg, 0);
	pk_read(m, &P->ing_uc, window, now, a, &o->ing_uc);
	pk_read(m, &P->ing_mc, window, now, a, &o->ing_mc);
	pk_read(m, &P->egr_uc, window, now, model_sum_alloc(m, &P->sum_uc, 1), &o->egr_uc);
	pk_read(m, &P->egr_mc, window, now, model_sum_alloc(m, &P->sum_mc, 1), &o->egr_mc);
	for (unsigned g = 0; g < MODEL_NUM_PG; g++) {
		struct mpg *G = &P->pg[g];
		pk_read(m, &G->pk, window, now, model_pg_alloc(m, G), &o->pg[g]);
		pk_read(m, &G->pk_hdrm, window, now, G->headroom, &o->pg_headroom[g]);
		if (G->xoff_state)
			o->pfc_paused |= (uint8_t)(1u << g);
	}
	for (unsigned q = 0; q < MODEL_MAX_QUEUES; q++) {
		if (P->q[q].present)
			pk_read(m, &P->q[q].pk, window, now, model_q_alloc(m, &P->q[q]),
				&o->ucq[q]);
		if (P->q[MQ_MC + q].present)
			pk_read(m, &P->q[MQ_MC + q].pk, window, now,
				model_q_alloc(m, &P->q[MQ_MC + q]), &o->mcq[q]);
	}
	return 0;
}

int model_read_buffers(struct model *m, unsigned window, struct model_buffers *b)
{
	struct model_device_buffers d;

	if (window >= MODEL_NUM_WINDOWS || b == NULL || b->nports < m->np)
		return -1;
	model_read_device_buffers(m, window, &d);
	b->t_ns = d.t_ns;
	b->dev_uc = d.dev_uc;
	b->dev_mc = d.dev_mc;
	memcpy(b->ing_pool, d.ing_pool, sizeof(b->ing_pool));
	memcpy(b->egr_pool, d.egr_pool, sizeof(b->egr_pool));
	for (unsigned p = 0; p < m->np; p++)
		model_read_port_buffers(m, window, p, &b->ports[p]);
	return 0;
}

int model_read_counters(const struct model *m, unsigned port, struct model_if_counters *c)
{
	if (port >= m->np)
		return -1;
	const struct mport *P = &m->ports[port];
	*c = P->ctr;
	c->out_octets = P->out_octets; /* counted in the port's line 0 */
	c->out_ucast = P->out_ucast;
	/* an XOFF still out counts up to now (it went out pfc_delay before
	 * the pause it started) */
	for (unsigned g = 0; g < MODEL_NUM_PG; g++)
		if (P->pg[g].xoff_state)
			c->pfc_xoff_ns[g] += m->now - (P->pg[g].pause_start - P->pfc_delay);
	return 0;
}

/* The queue of (port, queue, mc), NULL if there is none. */
static const struct mqueue *queue_of(const struct model *m, unsigned port, unsigned queue, int mc,
				     unsigned *slot)
{
	if (port >= m->np || queue >= MODEL_MAX_QUEUES)
		return NULL;
	*slot = (mc ? MQ_MC : 0) + queue;
	const struct mqueue *q = &m->ports[port].q[*slot];
	return q->present ? q : NULL;
}

int model_read_occupancy(const struct model *m, unsigned port, unsigned queue, int mc,
			 double *byte_ns)
{
	unsigned slot;
	const struct mqueue *q = queue_of(m, port, queue, mc, &slot);
	if (q == NULL)
		return -1;
	*byte_ns = 0;
	if (m->qstat == NULL)
		return 0;
	/* Little: every copy's bytes x its time in the queue (model.h) */
	const struct mqstat *st = &m->qstat[qindex(&m->ports[port], slot)];
	unsigned __int128 a = st->dep;
	for (const struct mpkt *cp = q->head; cp != NULL; cp = cp->next)
		a += (unsigned __int128)(cp->inc & m->occ_mask) * (m->now - mpkt_body(cp)->t_arr);
	*byte_ns = (double)(a - qcold(m, port, slot)->early);
	return 0;
}

int model_read_sojourns(const struct model *m, unsigned port, unsigned queue, int mc,
			struct model_sojourns *h)
{
	unsigned slot;
	memset(h, 0, sizeof(*h));
	h->lo = MODEL_SOJ_NB;
	if (queue_of(m, port, queue, mc, &slot) == NULL)
		return -1;
	if (m->qstat == NULL)
		return 0;
	const struct mqstat *st = &m->qstat[qindex(&m->ports[port], slot)];
	if (st->c == NULL)
		return 0;
	h->n = st->n;
	h->max = st->max;
	h->max_w = st->max_w;
	h->lo = st->lo;
	h->hi = st->hi;
	h->c = st->c;
	return 0;
}

void model_sojourns_restart(struct model *m)
{
	for (uint32_t i = 0; m->qstat != NULL && i < m->nq; i++)
		m->qstat[i].max_w = 0;
}

unsigned model_sojourns_missing(const struct model *m)
{
	return m->soj_missing;
}

uint64_t model_soj_upper(unsigned b)
{
	if (b < 2 * MODEL_SOJ_SUB)
		return b;
	unsigned shift = (b >> 7) - 1u; /* e - 7 (model_soj_bucket) */
	uint64_t sub = MODEL_SOJ_SUB + (b & (MODEL_SOJ_SUB - 1));
	if (sub + 1 == 2 * MODEL_SOJ_SUB && shift == 56)
		return UINT64_MAX;
	return ((sub + 1) << shift) - 1;
}

uint64_t model_soj_quantile(const struct model_sojourns *h, const struct model_sojourns *base,
			    double q)
{
	uint64_t n, want, acc = 0, max;
	if (h == NULL || h->c == NULL)
		return 0;
	n = h->n - (base ? base->n : 0);
	max = base ? h->max_w : h->max;
	if (n == 0)
		return 0;
	want = (uint64_t)ceil(q * (double)n);
	if (want == 0)
		want = 1;
	for (unsigned b = h->lo; b <= h->hi; b++) {
		/* a base's buckets are those of h, or fewer */
		acc +=
		    h->c[b] - (base && base->c && b >= base->lo && b <= base->hi ? base->c[b] : 0);
		if (acc >= want) {
			uint64_t u = model_soj_upper(b);
			return u < max ? u : max;
		}
	}
	return max;
}

int model_read_class_drops(const struct model *m, unsigned port, struct model_class_drops *d)
{
	if (port >= m->np)
		return -1;
	if (m->cdrops != NULL)
		*d = m->cdrops[port];
	else
		memset(d, 0, sizeof(*d));
	return 0;
}

int model_read_drops(const struct model *m, unsigned port, struct model_port_drops *d)
{
	if (port >= m->np)
		return -1;
	const struct mport *P = &m->ports[port];
	memset(d, 0, sizeof(*d));
	memcpy(d->in, P->drop_in, sizeof(d->in));
	memcpy(d->out, P->drop_out, sizeof(d->out));
	for (unsigned q = 0; q < MODEL_MAX_QUEUES; q++) {
		if (m->ports[port].q[q].present) {
			memcpy(d->ucq[q], qcold(m, port, q)->drops, sizeof(d->ucq[q]));
			d->ecn_ucq[q] = qcold(m, port, q)->ecn_marked;
		}
		if (m->ports[port].q[MQ_MC + q].present) {
			memcpy(d->mcq[q], qcold(m, port, MQ_MC + q)->drops, sizeof(d->mcq[q]));
			d->ecn_mcq[q] = qcold(m, port, MQ_MC + q)->ecn_marked;
		}
		d->ecn += d->ecn_ucq[q] + d->ecn_mcq[q];
	}
	return 0;
}

void model_get_stats(const struct model *m, struct model_stats *s)
{
	*s = m->st;
	s->cells_used = occ_cells(m, m->dev_uc.cb) + occ_cells(m, m->dev_mc.cb);
	/* not counted per packet */
	s->admitted = m->st.arrived - m->st.fwd_dropped - m->st.ing_dropped;
	s->copies_buffered = copies_buffered(&m->st);
}

int model_read_delay(struct model *m, unsigned window, unsigned port, unsigned queue, int mc,
		     struct model_delay *d)
{
	if (window >= MODEL_NUM_WINDOWS || port >= m->np || queue >= MODEL_MAX_QUEUES)
		return -1;
	unsigned slot = (mc ? MQ_MC : 0) + queue;
	struct mqueue *q = &m->ports[port].q[slot];
	if (!q->present)
		return -1;
	uint64_t cur = q_mk_refresh(q, m->now);
	if (cur > q->mk_max)
		q->mk_max = cur;
	/* fold the running maxima into every window, then report and reset w */
	struct mdelay_w *dw = &m->dwin[(size_t)qindex(&m->ports[port], slot) * MODEL_NUM_WINDOWS];
	for (unsigned j = 0; j < MODEL_NUM_WINDOWS; j++) {
		if (q->nt_max > dw[j].nt_max)
			dw[j].nt_max = q->nt_max;
		if (q->mk_max > dw[j].mk_max)
			dw[j].mk_max = q->mk_max;
	}
	struct mdelay_w *w = &dw[window];
	d->nt_latest_ns = q->nt_latest;
	d->nt_max_ns = w->nt_max;
	d->nt_count = q->nt_count;
	d->nt_sum_ns = q->nt_sum;
	d->nt_win_count = q->nt_count - w->nt_seen;
	d->mk_delay_ns = cur;
	d->mk_max_ns = w->mk_max;
	d->n = q->deq_cnt;
	d->sum_ns = q->sum;
	d->sum_sub_fs = q->sum_fs;
	d->max_ns = q->max;
	memcpy(d->hist, qcold(m, port, slot)->hist, sizeof(d->hist));
	w->nt_max = 0;
	w->mk_max = cur;
	w->nt_seen = q->nt_count;
	q->nt_max = 0;
	q->mk_max = cur;
	return 0;
}

size_t model_events_read(struct model *m, struct model_event *ev, size_t max)
{
	size_t n = 0;
	while (n < max && m->ring_n > 0) {
		/* the header bytes past hdr_len are not copied (nobody reads
		 * them; a queue event stream reads hundreds of thousands a
		 * second) */
		const struct model_event *e = &m->ring[m->ring_head];
		memcpy(&ev[n++], e, offsetof(struct model_event, hdr) + e->hdr_len);
		m->ring_head = m->ring_head + 1 == m->ring_cap ? 0 : m->ring_head + 1;
		m->ring_n--;
	}
	return n;
}

/* ---------------------------------------------------------------- audit */

static int afail(struct model_err *err, const char *what, unsigned a, unsigned b,
		 unsigned long long have, unsigned long long want)
{
	if (err != NULL)
		snprintf(err->msg, sizeof(err->msg), "%s [%u/%u]: counter %llu, recount %llu", what,
			 a, b, have, want);
	return -1;
}

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t) * (const void *const *)a,
		  y = (uintptr_t) * (const void *const *)b;
	return x < y ? -1 : x > y;
}

struct tally {
	uint64_t cells, bytes;
};

/* Do the cells and bytes counted differ from an object's occupancy cb? */
static int tally_differs(const struct model *m, const struct tally *t, uint64_t cb)
{
	return t->cells != occ_cells(m, cb) || t->bytes != occ_bytes(m, cb);
}

static inline uint32_t sat(uint64_t a, uint32_t b)
{
	return a > b ? (uint32_t)(a - b) : 0;
}

int model_audit(const struct model *m, struct model_err *err)
{
	struct model_stats st;
	model_get_stats(m, &st);
	const struct model_stats *s = &st;
	/* admitted and copies_buffered are what the other counters leave
	 * (model_get_stats), so conservation is checked by counting: the
	 * copies found in the queues must be copies - departed - dropped */

	/* collect distinct bodies */
	size_t nb = 0, cap = (size_t)s->copies_buffered + 1;
	const struct mpkt **bodies = malloc(cap * sizeof(*bodies));
	struct tally *pg = calloc((size_t)m->np * MODEL_NUM_PG * 2, sizeof(*pg));
	if (bodies == NULL || pg == NULL) {
		free(bodies);
		free(pg);
		return afail(err, "audit: out of memory", 0, 0, 0, 0);
	}
	uint64_t ncopies = 0, ep[MODEL_MAX_POOLS] = {0};
	int rc = 0;
	for (unsigned p = 0; p < m->np && rc == 0; p++) {
		const struct mport *P = &m->ports[p];
		struct tally eu = {0, 0}, em = {0, 0};
		for (unsigned sl = 0; sl < MQ_SLOTS && rc == 0; sl++) {
			const struct mqueue *q = &P->q[sl];
			uint64_t n = 0, c = 0, by = 0;
			for (const struct mpkt *cp = q->head; cp != NULL; cp = cp->next) {
				n++;
				c += occ_cells(m, cp->inc);
				by += cp->len;
				if (occ_bytes(m, cp->inc) != cp->len && rc == 0)
					rc = afail(err, "copy charge bytes", p, sl,
						   occ_bytes(m, cp->inc), cp->len);
				if (nb < cap)
					bodies[nb++] = mpkt_body(cp);
			}
			ncopies += n;
			if (n != q->enq_cnt - q->deq_cnt)
				rc = afail(err, "queue packets", p, sl, q->enq_cnt - q->deq_cnt, n);
			else if (c != occ_cells(m, q->pk.cb))
				rc = afail(err, "queue cells", p, sl, occ_cells(m, q->pk.cb), c);
			else if (by != occ_bytes(m, q->pk.cb))
				rc = afail(err, "queue bytes", p, sl, occ_bytes(m, q->pk.cb), by);
			else if (((P->nonempty >> sl) & 1) != (n > 0))
				rc = afail(err, "queue nonempty bit", p, sl,
					   (P->nonempty >> sl) & 1, n > 0);
			ep[q->pool] += sat(c, q->min_cells);
			struct tally *t = sl >= MQ_MC ? &em : &eu;
			t->cells += c;
			t->bytes += by;
		}
		if (rc == 0 && tally_differs(m, &eu, P->egr_uc.cb))
			rc = afail(err, "port egress uc cells", p, 0, occ_cells(m, P->egr_uc.cb),
				   eu.cells);
		if (rc == 0 && tally_differs(m, &em, P->egr_mc.cb))
			rc = afail(err, "port egress mc cells", p, 0, occ_cells(m, P->egr_mc.cb),
				   em.cells);
	}
	if (rc == 0 && ncopies != s->copies_buffered)
		rc = afail(err, "copies buffered", 0, 0, s->copies_buffered, ncopies);
	for (unsigned i = 0; i < m->cfg.n_egr_pools && rc == 0; i++)
		if (ep[i] != m->ep_pk[i].cur)
			rc = afail(err, "egress pool shared cells", i, 0, m->ep_pk[i].cur, ep[i]);
	if (rc == 0) {
		qsort(bodies, nb, sizeof(*bodies), cmp_ptr);
		struct tally du = {0, 0}, dm = {0, 0};
		uint64_t nbodies = 0;
		struct tally *iu = calloc(m->np * 2, sizeof(*iu));
		if (iu == NULL)
			rc = afail(err, "audit: out of memory", 0, 0, 0, 0);
		for (size_t i = 0; i < nb && rc == 0; i++) {
			const struct mpkt *b = bodies[i];
			size_t j = i;
			while (j + 1 < nb && bodies[j + 1] == b)
				j++;
			if (b->refs != j - i + 1)
				rc = afail(err, "packet copies (refs)", b->in_port, 0, b->refs,
					   j - i + 1);
			i = j;
			nbodies++;
			int mc = (b->flags & MP_MC) != 0;
			struct tally *t = &pg[(b->in_port * MODEL_NUM_PG + b->pg) * 2 +
					      ((b->flags & MP_HDRM) ? 1 : 0)];
			t->cells += occ_cells(m, b->inc);
			t->bytes += b->len;
			iu[b->in_port * 2 + mc].cells += occ_cells(m, b->inc);
			iu[b->in_port * 2 + mc].bytes += b->len;
			struct tally *d = mc ? &dm : &du;
			d->cells += occ_cells(m, b->inc);
			d->bytes += b->len;
		}
		if (rc == 0 && nbodies != s->pkts_buffered)
			rc = afail(err, "packets buffered", 0, 0, s->pkts_buffered, nbodies);
		if (rc == 0 && tally_differs(m, &du, m->dev_uc.cb))
			rc = afail(err, "device uc cells", 0, 0, occ_cells(m, m->dev_uc.cb),
				   du.cells);
		if (rc == 0 && tally_differs(m, &dm, m->dev_mc.cb))
			rc = afail(err, "device mc cells", 0, 0, occ_cells(m, m->dev_mc.cb),
				   dm.cells);

		uint64_t ip[MODEL_MAX_POOLS] = {0}, held = 0;
		for (unsigned p = 0; p < m->np && rc == 0; p++) {
			const struct mport *P = &m->ports[p];
			if (tally_differs(m, &iu[p * 2], P->ing_uc.cb))
				rc = afail(err, "port ingress uc cells", p, 0,
					   occ_cells(m, P->ing_uc.cb), iu[p * 2].cells);
			else if (tally_differs(m, &iu[p * 2 + 1], P->ing_mc.cb))
				rc = afail(err, "port ingress mc cells", p, 0,
					   occ_cells(m, P->ing_mc.cb), iu[p * 2 + 1].cells);
			for (unsigned g = 0; g < MODEL_NUM_PG && rc == 0; g++) {
				const struct mpg *G = &P->pg[g];
				const struct tally *t = &pg[(p * MODEL_NUM_PG + g) * 2];
				if (tally_differs(m, &t[0], G->pk.cb))
					rc = afail(err, "PG cells", p, g, occ_cells(m, G->pk.cb),
						   t[0].cells);
				else if (tally_differs(m, &t[1], G->pk_hdrm.cb))
					rc = afail(err, "PG headroom cells", p, g,
						   occ_cells(m, G->pk_hdrm.cb), t[1].cells);
				else if (occ_cells(m, G->pk_hdrm.cb) > G->headroom)
					rc = afail(err, "PG headroom above its size", p, g,
						   occ_cells(m, G->pk_hdrm.cb), G->headroom);
				ip[G->pool] += sat(occ_cells(m, G->pk.cb), G->min_cells);
				for (const struct mpkt *h = G->hold_head; h != NULL; h = h->next)
					held++;
			}
		}
		for (unsigned i = 0; i < m->cfg.n_ing_pools && rc == 0; i++)
			if (ip[i] != m->ip_pk[i].cur)
				rc = afail(err, "ingress pool shared cells", i, 0, m->ip_pk[i].cur,
					   ip[i]);
		if (rc == 0 && held != s->held)
			rc = afail(err, "packets held at senders", 0, 0, s->held, held);
		/* (summed in 64 bits, as model_stats cells_used is not) */
		uint64_t dev = (uint64_t)occ_cells(m, m->dev_uc.cb) + occ_cells(m, m->dev_mc.cb);
		if (rc == 0 && dev > m->cfg.total_cells)
			rc = afail(err, "device cells above the buffer", 0, 0, dev,
				   m->cfg.total_cells);
		free(iu);
	}
	free(bodies);
	free(pg);
	return rc;
}
