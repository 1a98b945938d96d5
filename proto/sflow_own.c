/*
 * sflow_own.c - encoding and decoding of bsflowd's own sFlow structures.
 *
 * The XDR of every structure is in sflow_own.h and bsflowd-structures(7).
 * Encoders write through struct sflow_w (no allocation); decoders validate
 * a whole record body before returning and leave arrays in the input, read
 * later element by element with the *_at() accessors.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <string.h>

#include "proto/sflow_own.h"

/* ---- encoding */

/* A buffer object: 32 bytes, written unchecked after one check of room
 * (as every array below: its count and all its elements at once). */
#define OWN_BUFFER_BYTES 32u
#define OWN_QDELAY_BYTES 16u

static uint8_t *put_buffer(uint8_t *p, const struct sflow_own_buffer *b)
{
	p = sflow_put_u32(p, b->cur_cells);
	p = sflow_put_u32(p, b->cur_bytes);
	p = sflow_put_u32(p, b->peak_cells);
	p = sflow_put_u32(p, b->peak_bytes);
	p = sflow_put_u32(p, b->alloc_cells);
	p = sflow_put_i32(p, b->peak_pc);
	return sflow_put_u64(p, b->peak_time_ns);
}

static void enc_buffer(struct sflow_w *w, const struct sflow_own_buffer *b)
{
	uint8_t *p = sflow_w_reserve(w, OWN_BUFFER_BYTES);

	if (p)
		put_buffer(p, b);
}

static void enc_buffers(struct sflow_w *w, const struct sflow_own_buffer *b, uint32_t n)
{
	uint8_t *p = sflow_w_reserve(w, 4 + (size_t)n * OWN_BUFFER_BYTES);

	if (!p)
		return;
	p = sflow_put_u32(p, n);
	for (uint32_t i = 0; i < n; i++)
		p = put_buffer(p, &b[i]);
}

static void enc_qdelays(struct sflow_w *w, const struct sflow_own_qdelay *d, uint32_t n)
{
	uint8_t *p = sflow_w_reserve(w, 4 + (size_t)n * OWN_QDELAY_BYTES);

	if (!p)
		return;
	p = sflow_put_u32(p, n);
	for (uint32_t i = 0; i < n; i++) {
		p = sflow_put_u32(p, d[i].latest_ns);
		p = sflow_put_u32(p, d[i].max_ns);
		p = sflow_put_u32(p, d[i].count);
		p = sflow_put_u32(p, d[i].marker_ns);
	}
}

/* A NULL array with a count is a caller error. */
static int bad_array(struct sflow_w *w, const void *p, uint32_t n)
{
	if (n > 0 && !p) {
		if (!w->err)
			w->err = SFLOW_ERR_INVALID;
		return 1;
	}
	return 0;
}

void sflow_own_enc_port_buffers(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
				const struct sflow_own_port_buffers *b)
{
	size_t m = sflow_enc_record_begin(w, s, SFLOW_TAG(enterprise, SFLOW_OWN_PORT_BUFFERS));
	enc_buffer(w, &b->ingress_uc);
	enc_buffer(w, &b->ingress_mc);
	enc_buffer(w, &b->egress_uc);
	enc_buffer(w, &b->egress_mc);
	sflow_enc_record_end(w, m);
}

void sflow_own_enc_queue_buffers(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
				 const struct sflow_own_buffer *uc, uint32_t n_uc,
				 const struct sflow_own_buffer *mc, uint32_t n_mc)
{
	if (bad_array(w, uc, n_uc) || bad_array(w, mc, n_mc))
		return;
	size_t m = sflow_enc_record_begin(w, s, SFLOW_TAG(enterprise, SFLOW_OWN_QUEUE_BUFFERS));
	enc_buffers(w, uc, n_uc);
	enc_buffers(w, mc, n_mc);
	sflow_enc_record_end(w, m);
}

void sflow_own_enc_queue_delays(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
				const struct sflow_own_qdelay *uc, uint32_t n_uc,
				const struct sflow_own_qdelay *mc, uint32_t n_mc)
{
	if (bad_array(w, uc, n_uc) || bad_array(w, mc, n_mc))
		return;
	size_t m = sflow_enc_record_begin(w, s, SFLOW_TAG(enterprise, SFLOW_OWN_QUEUE_DELAYS));
	enc_qdelays(w, uc, n_uc);
	enc_qdelays(w, mc, n_mc);
	sflow_enc_record_end(w, m);
}

void sflow_own_enc_pg_buffers(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
			      const struct sflow_own_pg *pgs, uint32_t n)
{
	if (bad_array(w, pgs, n))
		return;
	size_t m = sflow_enc_record_begin(w, s, SFLOW_TAG(enterprise, SFLOW_OWN_PG_BUFFERS));
	sflow_w_u32(w, n);
	for (uint32_t i = 0; i < n && !w->err; i++) {
		enc_buffer(w, &pgs[i].shared);
		enc_buffer(w, &pgs[i].headroom);
	}
	sflow_enc_record_end(w, m);
}

void sflow_own_enc_device_pools(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
				uint32_t cell_bytes, uint32_t total_cells,
				const struct sflow_own_buffer *uc,
				const struct sflow_own_buffer *mc,
				const struct sflow_own_buffer *ingress, uint32_t n_ingress,
				const struct sflow_own_buffer *egress, uint32_t n_egress)
{
	if (bad_array(w, ingress, n_ingress) || bad_array(w, egress, n_egress) ||
	    bad_array(w, uc, 1) || bad_array(w, mc, 1))
		return;
	size_t m = sflow_enc_record_begin(w, s, SFLOW_TAG(enterprise, SFLOW_OWN_DEVICE_POOLS));
	sflow_w_u32(w, cell_bytes);
	sflow_w_u32(w, total_cells);
	enc_buffer(w, uc);
	enc_buffer(w, mc);
	enc_buffers(w, ingress, n_ingress);
	enc_buffers(w, egress, n_egress);
	sflow_enc_record_end(w, m);
}

void sflow_own_enc_cpu_queues(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
			      const struct sflow_own_buffer *q, uint32_t n)
{
	if (bad_array(w, q, n))
		return;
	size_t m = sflow_enc_record_begin(w, s, SFLOW_TAG(enterprise, SFLOW_OWN_CPU_QUEUES));
	enc_buffers(w, q, n);
	sflow_enc_record_end(w, m);
}

/* A string's length, or -1 when it has no NUL within max + 1 bytes. */
static int str_len(const char *s, uint32_t max)
{
	for (uint32_t i = 0; i <= max; i++)
		if (s[i] == '\0')
			return (int)i;
	return -1;
}

/* A name's length, or -1 when it has no NUL within the 33 bytes. */
static int name_len(const char *name)
{
	return str_len(name, SFLOW_OWN_SAMPLER_NAME_MAX);
}

void sflow_own_enc_sampler_stats(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
				 const struct sflow_own_sampler_stat *st, uint32_t n)
{
	if (bad_array(w, st, n))
		return;
	for (uint32_t i = 0; i < n; i++) {
		if (name_len(st[i].name) < 0) {
			if (!w->err)
				w->err = SFLOW_ERR_INVALID;
			return;
		}
	}
	size_t m = sflow_enc_record_begin(w, s, SFLOW_TAG(enterprise, SFLOW_OWN_SAMPLER_STATS));
	sflow_w_u32(w, n);
	for (uint32_t i = 0; i < n && !w->err; i++) {
		const struct sflow_own_sampler_stat *x = &st[i];
		sflow_w_opaque(w, x->name, (uint32_t)name_len(x->name));
		sflow_w_u64(w, x->seen);
		sflow_w_u64(w, x->passed);
		sflow_w_u64(w, x->not_eligible);
		sflow_w_u64(w, x->duplicate);
		sflow_w_u64(w, x->limiter);
		sflow_w_u64(w, x->recurrent);
		sflow_w_u64(w, x->no_ticket);
		sflow_w_u64(w, x->probability);
		sflow_w_u64(w, x->flow_filter);
		sflow_w_u64(w, x->downstream);
		sflow_w_u64(w, (uint64_t)x->ticket_balance);
		sflow_w_u32(w, x->ticket_batch);
		sflow_w_u64(w, x->consumed_all);
	}
	sflow_enc_record_end(w, m);
}

void sflow_own_enc_queue_drops(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
			       const struct sflow_own_qdrop *uc, uint32_t n_uc,
			       const struct sflow_own_qdrop *mc, uint32_t n_mc)
{
	const struct sflow_own_qdrop *arr[2] = {uc, mc};
	uint32_t n[2] = {n_uc, n_mc};

	if (bad_array(w, uc, n_uc) || bad_array(w, mc, n_mc))
		return;
	size_t m = sflow_enc_record_begin(w, s, SFLOW_TAG(enterprise, SFLOW_OWN_QUEUE_DROPS));
	for (int k = 0; k < 2; k++) {
		sflow_w_u32(w, n[k]);
		for (uint32_t i = 0; i < n[k] && !w->err; i++) {
			sflow_w_u64(w, arr[k][i].packets);
			sflow_w_u64(w, arr[k][i].bytes);
		}
	}
	sflow_enc_record_end(w, m);
}

void sflow_own_enc_drop_counters(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
				 const struct sflow_own_drop_counter *c, uint32_t n)
{
	if (bad_array(w, c, n))
		return;
	for (uint32_t i = 0; i < n; i++) {
		if (str_len(c[i].name, SFLOW_OWN_DROPCTR_NAME_MAX) < 0 ||
		    str_len(c[i].alias, SFLOW_OWN_DROPCTR_NAME_MAX) < 0 ||
		    str_len(c[i].reasons, SFLOW_OWN_DROPCTR_REASONS_MAX) < 0) {
			if (!w->err)
				w->err = SFLOW_ERR_INVALID;
			return;
		}
	}
	size_t m = sflow_enc_record_begin(w, s, SFLOW_TAG(enterprise, SFLOW_OWN_DROP_COUNTERS));
	sflow_w_u32(w, n);
	for (uint32_t i = 0; i < n && !w->err; i++) {
		sflow_w_opaque(w, c[i].name, (uint32_t)strlen(c[i].name));
		sflow_w_opaque(w, c[i].alias, (uint32_t)strlen(c[i].alias));
		sflow_w_u32(w, c[i].direction);
		sflow_w_u32(w, c[i].reason);
		sflow_w_u64(w, c[i].packets);
		sflow_w_opaque(w, c[i].reasons, (uint32_t)strlen(c[i].reasons));
	}
	sflow_enc_record_end(w, m);
}

void sflow_own_enc_event_begin(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
			       const struct sflow_own_event_sample *h)
{
	sflow_enc_sample_begin(w, s, SFLOW_TAG(enterprise, SFLOW_OWN_SMP_EVENT));
	sflow_w_u32(w, h->sequence_number);
	sflow_w_u32(w, h->source_id_type);
	sflow_w_u32(w, h->source_id_index);
	sflow_w_u32(w, h->drops);
	sflow_w_u32(w, h->input);
	sflow_w_u32(w, h->output);
	sflow_enc_records_begin(w, s);
}

void sflow_own_enc_vis_event(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
			     const struct sflow_own_vis_event *ev)
{
	size_t m = sflow_enc_record_begin(w, s, SFLOW_TAG(enterprise, SFLOW_OWN_VIS_EVENT));
	sflow_w_u32(w, ev->type);
	sflow_w_u32(w, ev->flags);
	sflow_w_u32(w, ev->level);
	sflow_w_u32(w, ev->severity);
	sflow_w_u32(w, ev->tag);
	sflow_w_u64(w, ev->event_id);
	sflow_w_u64(w, ev->own_id);
	sflow_w_u32(w, ev->queue);
	sflow_w_u32(w, ev->reason);
	sflow_w_u32(w, ev->depth);
	sflow_w_u32(w, ev->delay);
	sflow_w_u32(w, ev->peak);
	sflow_w_u64(w, ev->peak_time_ns);
	sflow_w_u64(w, ev->duration_ns);
	sflow_enc_record_end(w, m);
}

/* ---- decoding */

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) << 32 | get32(p + 4);
}

/* Decode a buffer from 32 validated bytes. */
static void buffer_from(const uint8_t *p, struct sflow_own_buffer *b)
{
	b->cur_cells = get32(p);
	b->cur_bytes = get32(p + 4);
	b->peak_cells = get32(p + 8);
	b->peak_bytes = get32(p + 12);
	b->alloc_cells = get32(p + 16);
	b->peak_pc = (int32_t)get32(p + 20);
	b->peak_time_ns = get64(p + 24);
}

static int read_buffer(struct sflow_r *r, struct sflow_own_buffer *b, const char *what)
{
	if (sflow_r_remaining(r) < SFLOW_OWN_BUFFER_SIZE) {
		/* let the reader record the truncation at the right offset */
		sflow_r_skip(r, SFLOW_OWN_BUFFER_SIZE, what);
		memset(b, 0, sizeof *b);
		return r->err;
	}
	buffer_from(r->buf + r->pos, b);
	return sflow_r_skip(r, SFLOW_OWN_BUFFER_SIZE, what);
}

/* A count, then n elements of size bytes: checks that they are all there
 * and points a at them. */
static int read_array(struct sflow_r *r, struct sflow_own_array *a, size_t size,
		      const char *count_what, const char *elems_what)
{
	uint32_t n;
	a->n = 0;
	a->p = NULL;
	if (sflow_r_u32(r, &n, count_what))
		return r->err;
	if ((uint64_t)n * size > sflow_r_remaining(r))
		return sflow_r_fail(r, SFLOW_ERR_FORMAT, elems_what);
	a->n = n;
	a->p = r->buf + r->pos;
	return sflow_r_skip(r, (size_t)n * size, elems_what);
}

/* The body must be used up exactly. */
static int read_end(struct sflow_r *r, const char *what)
{
	if (r->err)
		return r->err;
	if (sflow_r_remaining(r) != 0)
		return sflow_r_fail(r, SFLOW_ERR_FORMAT, what);
	return SFLOW_OK;
}

static int is_counters(uint32_t in_sample)
{
	return in_sample == SFLOW_SAMPLE_COUNTERS_EXP || in_sample == SFLOW_SAMPLE_COUNTERS;
}

int sflow_own_event_context(uint32_t in_sample)
{
	uint32_t ent = SFLOW_TAG_ENTERPRISE(in_sample);

	if (in_sample == SFLOW_SAMPLE_DISCARD)
		return 1;
	return ent != SFLOW_ENT_STANDARD && ent != SFLOW_ENT_BROADCOM &&
	       SFLOW_TAG_FORMAT(in_sample) == SFLOW_OWN_SMP_EVENT;
}

static uint64_t pad4(uint32_t n)
{
	return ((uint64_t)n + 3) & ~(uint64_t)3;
}

/* Decode one sampler_stat at p, of which avail bytes are there; returns
 * its wire size, or 0 when it does not fit or its name is too long. */
static size_t sampler_from(const uint8_t *p, size_t avail, void *out)
{
	struct sflow_own_sampler_stat *st = out;
	uint32_t n;
	size_t size;

	if (avail < SFLOW_OWN_SAMPLER_MIN_SIZE)
		return 0;
	n = get32(p);
	if (n > SFLOW_OWN_SAMPLER_NAME_MAX)
		return 0;
	size = SFLOW_OWN_SAMPLER_MIN_SIZE + (size_t)pad4(n);
	if (size > avail)
		return 0;
	if (st) {
		const uint8_t *q = p + 4 + pad4(n);
		memcpy(st->name, p + 4, n);
		st->name[n] = '\0';
		st->seen = get64(q);
		st->passed = get64(q + 8);
		st->not_eligible = get64(q + 16);
		st->duplicate = get64(q + 24);
		st->limiter = get64(q + 32);
		st->recurrent = get64(q + 40);
		st->no_ticket = get64(q + 48);
		st->probability = get64(q + 56);
		st->flow_filter = get64(q + 64);
		st->downstream = get64(q + 72);
		st->ticket_balance = (int64_t)get64(q + 80);
		st->ticket_batch = get32(q + 88);
		st->consumed_all = get64(q + 92);
	}
	return size;
}

/* An array of elements of varying length (E:7, E:11): what it is. */
struct var_kind {
	size_t min_size;					   /* an element at least */
	size_t (*from)(const uint8_t *p, size_t avail, void *out); /* its size, 0 bad */
	/* the element at p is bad in a way worth its own message, or NULL */
	const char *(*bad)(const uint8_t *p, size_t avail);
	const char *count_what, *too_many, *bad_elem, *elems_what;
};

/* A count, then the elements: validated; n, len and p of the array. */
static int read_var(struct sflow_r *r, const struct var_kind *k, uint32_t *n_out, uint32_t *len_out,
		    const uint8_t **p_out)
{
	const uint8_t *start;
	const char *why;
	size_t at = 0, avail, size;
	uint32_t n;

	*n_out = 0;
	*len_out = 0;
	*p_out = NULL;
	if (sflow_r_u32(r, &n, k->count_what))
		return r->err;
	avail = sflow_r_remaining(r);
	if ((uint64_t)n * k->min_size > avail)
		return sflow_r_fail(r, SFLOW_ERR_FORMAT, k->too_many);
	start = r->buf + r->pos;
	for (uint32_t i = 0; i < n; i++) {
		why = k->bad ? k->bad(start + at, avail - at) : NULL;
		size = why ? 0 : k->from(start + at, avail - at, NULL);
		if (size == 0) {
			sflow_r_skip(r, at, k->elems_what);
			return sflow_r_fail(r, SFLOW_ERR_FORMAT, why ? why : k->bad_elem);
		}
		at += size;
	}
	*n_out = n;
	*len_out = (uint32_t)at;
	*p_out = start;
	return sflow_r_skip(r, at, k->elems_what);
}

/* The next element at *pos of an array read by read_var, into out. */
static int var_next(const uint8_t *p, uint32_t len, uint32_t *pos,
		    size_t (*from)(const uint8_t *, size_t, void *), void *out)
{
	size_t size;

	if (*pos >= len)
		return -1;
	size = from(p + *pos, len - *pos, out);
	if (size == 0) /* cannot happen for a decoded value */
		return -1;
	*pos += (uint32_t)size;
	return 0;
}

/* Element i (walking from the first). */
static int var_at(const uint8_t *p, uint32_t n, uint32_t len, uint32_t i,
		  size_t (*from)(const uint8_t *, size_t, void *), void *out)
{
	uint32_t pos = 0;

	if (i >= n)
		return -1;
	for (uint32_t k = 0; k < i; k++)
		if (var_next(p, len, &pos, from, NULL) < 0)
			return -1;
	return var_next(p, len, &pos, from, out);
}

static const char *sampler_bad(const uint8_t *p, size_t avail)
{
	return avail >= 4 && get32(p) > SFLOW_OWN_SAMPLER_NAME_MAX
		   ? "own sampler_stats: name longer than 32"
		   : NULL;
}

static const struct var_kind samplers_kind = {
    SFLOW_OWN_SAMPLER_MIN_SIZE,
    sampler_from,
    sampler_bad,
    "own sampler_stats count",
    "own sampler_stats: count larger than the record",
    "own sampler_stats: sampler runs past the record",
    "own sampler_stats samplers",
};

/* ---- sojourn histograms (E:12) */

size_t sflow_own_sojourn_size(const struct sflow_own_sojourn *h)
{
	return SFLOW_OWN_SOJOURN_MIN_SIZE + 4u * (size_t)h->n;
}

static int sojourn_bad_range(uint32_t first, uint32_t n)
{
	return first >= SFLOW_OWN_SOJOURN_BUCKETS || n > SFLOW_OWN_SOJOURN_BUCKETS - first;
}

void sflow_own_enc_sojourns(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
			    const struct sflow_own_sojourn *h, uint32_t n)
{
	int bad = (n > 0 && !h) || n > SFLOW_OWN_SOJOURN_MAX;

	for (uint32_t i = 0; !bad && i < n; i++)
		bad = sojourn_bad_range(h[i].first, h[i].n);
	if (bad) {
		if (!w->err)
			w->err = SFLOW_ERR_INVALID;
		return;
	}
	size_t m = sflow_enc_record_begin(w, s, SFLOW_TAG(enterprise, SFLOW_OWN_SOJOURN_HISTS));
	sflow_w_u32(w, n);
	for (uint32_t i = 0; i < n && !w->err; i++) {
		sflow_w_u32(w, h[i].queue);
		sflow_w_u32(w, h[i].unmeasured);
		sflow_w_u32(w, h[i].first);
		sflow_w_u32(w, h[i].n);
		for (uint32_t k = 0; k < h[i].n; k++)
			sflow_w_u32(w, h[i].counts[k]);
	}
	sflow_enc_record_end(w, m);
}

/* One element at p, of which avail bytes are there: its wire size, or 0
 * when it does not fit or its range is outside the 32 buckets. */
static size_t sojourn_from(const uint8_t *p, size_t avail, void *out)
{
	struct sflow_own_sojourn *h = out;
	uint32_t first, n;
	size_t size;

	if (avail < SFLOW_OWN_SOJOURN_MIN_SIZE)
		return 0;
	first = get32(p + 8);
	n = get32(p + 12);
	if (sojourn_bad_range(first, n))
		return 0;
	size = SFLOW_OWN_SOJOURN_MIN_SIZE + 4u * (size_t)n;
	if (size > avail)
		return 0;
	if (h) {
		memset(h, 0, sizeof *h);
		h->queue = get32(p);
		h->unmeasured = get32(p + 4);
		h->first = first;
		h->n = n;
		for (uint32_t k = 0; k < n; k++)
			h->counts[k] = get32(p + 16 + 4 * (size_t)k);
	}
	return size;
}

static const char *sojourn_bad(const uint8_t *p, size_t avail)
{
	return avail >= SFLOW_OWN_SOJOURN_MIN_SIZE && sojourn_bad_range(get32(p + 8), get32(p + 12))
		   ? "own sojourn_histograms: buckets beyond 31"
		   : NULL;
}

static const struct var_kind sojourns_kind = {
    SFLOW_OWN_SOJOURN_MIN_SIZE,
    sojourn_from,
    sojourn_bad,
    "own sojourn_histograms count",
    "own sojourn_histograms: count larger than the record",
    "own sojourn_histograms: queue runs past the record",
    "own sojourn_histograms queues",
};

int sflow_own_sojourn_next(const struct sflow_own_sojourns *a, uint32_t *pos,
			   struct sflow_own_sojourn *out)
{
	return var_next(a->p, a->len, pos, sojourn_from, out);
}

int sflow_own_sojourn_at(const struct sflow_own_sojourns *a, uint32_t i,
			 struct sflow_own_sojourn *out)
{
	return var_at(a->p, a->n, a->len, i, sojourn_from, out);
}

/* A string of at most max bytes at p + *at (avail bytes from p): copied
 * into out (max + 1 bytes) if out is not NULL, *at advanced.  0, or -1
 * when it is longer or runs past. */
static int str_from(const uint8_t *p, size_t avail, size_t *at, uint32_t max, char *out)
{
	uint32_t n;

	if (avail - *at < 4)
		return -1;
	n = get32(p + *at);
	if (n > max || pad4(n) > avail - *at - 4)
		return -1;
	if (out) {
		memcpy(out, p + *at + 4, n);
		out[n] = '\0';
	}
	*at += 4 + (size_t)pad4(n);
	return 0;
}

/* Decode one drop_counter at p, of which avail bytes are there; returns
 * its wire size, or 0 when it runs past or a string is too long. */
static size_t dropctr_from(const uint8_t *p, size_t avail, void *out)
{
	struct sflow_own_drop_counter *c = out;
	size_t at = 0;

	if (str_from(p, avail, &at, SFLOW_OWN_DROPCTR_NAME_MAX, c ? c->name : NULL) < 0 ||
	    str_from(p, avail, &at, SFLOW_OWN_DROPCTR_NAME_MAX, c ? c->alias : NULL) < 0 ||
	    avail - at < 16)
		return 0;
	if (c) {
		c->direction = get32(p + at);
		c->reason = get32(p + at + 4);
		c->packets = get64(p + at + 8);
	}
	at += 16;
	if (str_from(p, avail, &at, SFLOW_OWN_DROPCTR_REASONS_MAX, c ? c->reasons : NULL) < 0)
		return 0;
	return at;
}

static const struct var_kind dropctrs_kind = {
    SFLOW_OWN_DROPCTR_MIN_SIZE,
    dropctr_from,
    NULL,
    "own drop_counters count",
    "own drop_counters: count larger than the record",
    "own drop_counters: a counter runs past the record or has a string over its limit",
    "own drop_counters counters",
};

static void read_vis_event(struct sflow_r *r, struct sflow_own_vis_event *e)
{
	sflow_r_u32(r, &e->type, "own visibility_event type");
	sflow_r_u32(r, &e->flags, "own visibility_event flags");
	sflow_r_u32(r, &e->level, "own visibility_event level");
	sflow_r_u32(r, &e->severity, "own visibility_event severity");
	sflow_r_u32(r, &e->tag, "own visibility_event tag");
	sflow_r_u64(r, &e->event_id, "own visibility_event event_id");
	sflow_r_u64(r, &e->own_id, "own visibility_event own_id");
	sflow_r_u32(r, &e->queue, "own visibility_event queue");
	sflow_r_u32(r, &e->reason, "own visibility_event reason");
	sflow_r_u32(r, &e->depth, "own visibility_event depth");
	sflow_r_u32(r, &e->delay, "own visibility_event delay");
	sflow_r_u32(r, &e->peak, "own visibility_event peak");
	sflow_r_u64(r, &e->peak_time_ns, "own visibility_event peak_time");
	sflow_r_u64(r, &e->duration_ns, "own visibility_event duration");
}

static void read_iarb(struct sflow_r *r, struct sflow_own_iarb *a)
{
	uint32_t v;
	sflow_r_u64(r, &a->accelerated, "own ingress_arbitration accelerated");
	sflow_r_u64(r, &a->not_accelerated, "own ingress_arbitration not_accelerated");
	sflow_r_u64(r, &a->dropped, "own ingress_arbitration dropped");
	for (uint32_t i = 0; i < SFLOW_OWN_IARB_CAUSES; i++)
		sflow_r_u64(r, &a->by_cause[i], "own ingress_arbitration by_cause");
	sflow_r_u64(r, &a->transitions, "own ingress_arbitration transitions");
	sflow_r_u64(r, &a->congested_ns, "own ingress_arbitration congested_ns");
	sflow_r_u32(r, &a->congested, "own ingress_arbitration congested");
	sflow_r_u32(r, &a->am_cur, "own ingress_arbitration am_cur");
	sflow_r_u32(r, &a->am_peak, "own ingress_arbitration am_peak");
	sflow_r_u32(r, &v, "own ingress_arbitration am_cur_pc");
	a->am_cur_pc = (int32_t)v;
	sflow_r_u32(r, &v, "own ingress_arbitration am_peak_pc");
	a->am_peak_pc = (int32_t)v;
	sflow_r_u32(r, &a->am_lat_min, "own ingress_arbitration am_lat_min");
	sflow_r_u32(r, &a->am_lat_mean, "own ingress_arbitration am_lat_mean");
	sflow_r_u32(r, &a->am_lat_max, "own ingress_arbitration am_lat_max");
	sflow_r_u32(r, &a->pb_lat_min, "own ingress_arbitration pb_lat_min");
	sflow_r_u32(r, &a->pb_lat_mean, "own ingress_arbitration pb_lat_mean");
	sflow_r_u32(r, &a->pb_lat_max, "own ingress_arbitration pb_lat_max");
}

int sflow_own_decode_record(uint32_t format, uint32_t in_sample, struct sflow_r *r,
			    struct sflow_own_record *out)
{
	memset(out, 0, sizeof *out);
	out->format = format;
	if (sflow_own_event_context(in_sample)) {
		if (format == SFLOW_OWN_REGION_DROP && in_sample == SFLOW_SAMPLE_DISCARD) {
			struct sflow_own_region_drop *d = &out->u.region_drop;
			sflow_r_u32(r, &d->region, "own flow_region_drop region");
			sflow_r_u32(r, &d->cause, "own flow_region_drop cause");
			sflow_r_u32(r, &d->unit, "own flow_region_drop unit");
			sflow_r_u32(r, &d->region_pc, "own flow_region_drop region_pc");
			sflow_r_u32(r, &d->ingress_pc, "own flow_region_drop ingress_pc");
			sflow_r_u32(r, &d->egress_pc, "own flow_region_drop egress_pc");
			sflow_r_u32(r, &d->count, "own flow_region_drop count");
			sflow_r_u32(r, &d->bound, "own flow_region_drop bound");
			return read_end(r, "own flow_region_drop: bytes after bound");
		}
		if (format != SFLOW_OWN_VIS_EVENT)
			return 1;
		read_vis_event(r, &out->u.event);
		return read_end(r, "own visibility_event: bytes after duration");
	}
	if (!is_counters(in_sample))
		return 1;
	switch (format) {
	case SFLOW_OWN_PORT_BUFFERS: {
		struct sflow_own_port_buffers *b = &out->u.port;
		read_buffer(r, &b->ingress_uc, "own port_buffers ingress_uc");
		read_buffer(r, &b->ingress_mc, "own port_buffers ingress_mc");
		read_buffer(r, &b->egress_uc, "own port_buffers egress_uc");
		read_buffer(r, &b->egress_mc, "own port_buffers egress_mc");
		return read_end(r, "own port_buffers: bytes after egress_mc");
	}
	case SFLOW_OWN_QUEUE_BUFFERS:
		read_array(r, &out->u.queues.uc, SFLOW_OWN_BUFFER_SIZE,
			   "own queue_buffers uc count",
			   "own queue_buffers: uc count larger than the record");
		read_array(r, &out->u.queues.mc, SFLOW_OWN_BUFFER_SIZE,
			   "own queue_buffers mc count",
			   "own queue_buffers: mc count larger than the record");
		return read_end(r, "own queue_buffers: bytes after the mc queues");
	case SFLOW_OWN_QUEUE_DELAYS:
		read_array(r, &out->u.delays.uc, SFLOW_OWN_QDELAY_SIZE, "own queue_delays uc count",
			   "own queue_delays: uc count larger than the record");
		read_array(r, &out->u.delays.mc, SFLOW_OWN_QDELAY_SIZE, "own queue_delays mc count",
			   "own queue_delays: mc count larger than the record");
		return read_end(r, "own queue_delays: bytes after the mc queues");
	case SFLOW_OWN_PG_BUFFERS:
		read_array(r, &out->u.pgs.pgs, SFLOW_OWN_PG_SIZE, "own pg_buffers count",
			   "own pg_buffers: count larger than the record");
		return read_end(r, "own pg_buffers: bytes after the PGs");
	case SFLOW_OWN_DEVICE_POOLS: {
		struct sflow_own_device_pools *d = &out->u.pools;
		sflow_r_u32(r, &d->cell_bytes, "own device_pools cell_bytes");
		sflow_r_u32(r, &d->total_cells, "own device_pools total_cells");
		read_buffer(r, &d->uc, "own device_pools uc");
		read_buffer(r, &d->mc, "own device_pools mc");
		read_array(r, &d->ingress, SFLOW_OWN_BUFFER_SIZE, "own device_pools ingress count",
			   "own device_pools: ingress count larger than the record");
		read_array(r, &d->egress, SFLOW_OWN_BUFFER_SIZE, "own device_pools egress count",
			   "own device_pools: egress count larger than the record");
		return read_end(r, "own device_pools: bytes after the egress pools");
	}
	case SFLOW_OWN_CPU_QUEUES:
		read_array(r, &out->u.cpu.queues, SFLOW_OWN_BUFFER_SIZE, "own cpu_queues count",
			   "own cpu_queues: count larger than the record");
		return read_end(r, "own cpu_queues: bytes after the queues");
	case SFLOW_OWN_SAMPLER_STATS:
		read_var(r, &samplers_kind, &out->u.samplers.n, &out->u.samplers.len,
			 &out->u.samplers.p);
		return read_end(r, "own sampler_stats: bytes after the samplers");
	case SFLOW_OWN_INGRESS_ARB:
		read_iarb(r, &out->u.iarb);
		return read_end(r, "own ingress_arbitration: bytes after pb_lat_max");
	case SFLOW_OWN_FLOW_REGIONS:
		sflow_r_u32(r, &out->u.regions.unit, "own flow_regions unit");
		sflow_r_u32(r, &out->u.regions.total, "own flow_regions total");
		read_array(r, &out->u.regions.regions, SFLOW_OWN_REGION_SIZE,
			   "own flow_regions count",
			   "own flow_regions: count larger than the record");
		return read_end(r, "own flow_regions: bytes after the regions");
	case SFLOW_OWN_QUEUE_DROPS:
		read_array(r, &out->u.qdrops.uc, SFLOW_OWN_QDROP_SIZE, "own queue_drops uc count",
			   "own queue_drops: uc count larger than the record");
		read_array(r, &out->u.qdrops.mc, SFLOW_OWN_QDROP_SIZE, "own queue_drops mc count",
			   "own queue_drops: mc count larger than the record");
		return read_end(r, "own queue_drops: bytes after the mc queues");
	case SFLOW_OWN_DROP_COUNTERS:
		read_var(r, &dropctrs_kind, &out->u.dropctrs.n, &out->u.dropctrs.len,
			 &out->u.dropctrs.p);
		return read_end(r, "own drop_counters: bytes after the counters");
	case SFLOW_OWN_SOJOURN_HISTS:
		read_var(r, &sojourns_kind, &out->u.sojourns.n, &out->u.sojourns.len,
			 &out->u.sojourns.p);
		return read_end(r, "own sojourn_histograms: bytes after the queues");
	case SFLOW_OWN_QUEUE_ECN:
		read_array(r, &out->u.ecn.uc, 8, "own queue_ecn uc count",
			   "own queue_ecn: uc count larger than the record");
		read_array(r, &out->u.ecn.mc, 8, "own queue_ecn mc count",
			   "own queue_ecn: mc count larger than the record");
		return read_end(r, "own queue_ecn: bytes after the mc queues");
	default:
		return 1;
	}
}

int sflow_own_decode_sample(uint32_t format, struct sflow_r *r, struct sflow_own_sample *out)
{
	memset(out, 0, sizeof *out);
	out->format = format;
	if (format != SFLOW_OWN_SMP_EVENT)
		return 1;
	struct sflow_own_event_sample *h = &out->u.event;
	sflow_r_u32(r, &h->sequence_number, "sequence_number");
	sflow_r_u32(r, &h->source_id_type, "source_id_type");
	sflow_r_u32(r, &h->source_id_index, "source_id_index");
	sflow_r_u32(r, &h->drops, "drops");
	sflow_r_u32(r, &h->input, "input");
	sflow_r_u32(r, &h->output, "output");
	return r->err;
}

const char *sflow_own_record_name(uint32_t format, uint32_t in_sample)
{
	if (sflow_own_event_context(in_sample))
		return format == SFLOW_OWN_VIS_EVENT ? "visibility_event"
		       : format == SFLOW_OWN_REGION_DROP && in_sample == SFLOW_SAMPLE_DISCARD
			   ? "flow_region_drop"
			   : NULL;
	if (!is_counters(in_sample))
		return NULL;
	switch (format) {
	case SFLOW_OWN_PORT_BUFFERS:
		return "port_buffers";
	case SFLOW_OWN_QUEUE_BUFFERS:
		return "queue_buffers";
	case SFLOW_OWN_QUEUE_DELAYS:
		return "queue_delays";
	case SFLOW_OWN_PG_BUFFERS:
		return "pg_buffers";
	case SFLOW_OWN_DEVICE_POOLS:
		return "device_pools";
	case SFLOW_OWN_CPU_QUEUES:
		return "cpu_queues";
	case SFLOW_OWN_SAMPLER_STATS:
		return "sampler_stats";
	case SFLOW_OWN_INGRESS_ARB:
		return "ingress_arbitration";
	case SFLOW_OWN_FLOW_REGIONS:
		return "flow_regions";
	case SFLOW_OWN_QUEUE_DROPS:
		return "queue_drops";
	case SFLOW_OWN_DROP_COUNTERS:
		return "drop_counters";
	case SFLOW_OWN_SOJOURN_HISTS:
		return "sojourn_histograms";
	case SFLOW_OWN_QUEUE_ECN:
		return "queue_ecn";
	default:
		return NULL;
	}
}

const char *sflow_own_sample_name(uint32_t format)
{
	return format == SFLOW_OWN_SMP_EVENT ? "visibility_event_sample" : NULL;
}

const char *sflow_own_vis_type_name(uint32_t type)
{
	switch (type) {
	case SFLOW_OWN_VIS_DROP:
		return "drop";
	case SFLOW_OWN_VIS_HIGH_DELAY:
		return "high_delay";
	case SFLOW_OWN_VIS_FORENSICS:
		return "forensics";
	case SFLOW_OWN_VIS_CONGESTION_START:
		return "congestion_start";
	case SFLOW_OWN_VIS_CONGESTION_END:
		return "congestion_end";
	default:
		return NULL;
	}
}

int sflow_own_buffer_at(const struct sflow_own_array *a, uint32_t i, struct sflow_own_buffer *out)
{
	if (i >= a->n)
		return -1;
	buffer_from(a->p + (size_t)i * SFLOW_OWN_BUFFER_SIZE, out);
	return 0;
}

int sflow_own_qdelay_at(const struct sflow_own_array *a, uint32_t i, struct sflow_own_qdelay *out)
{
	if (i >= a->n)
		return -1;
	const uint8_t *p = a->p + (size_t)i * SFLOW_OWN_QDELAY_SIZE;
	out->latest_ns = get32(p);
	out->max_ns = get32(p + 4);
	out->count = get32(p + 8);
	out->marker_ns = get32(p + 12);
	return 0;
}

int sflow_own_pg_at(const struct sflow_own_array *a, uint32_t i, struct sflow_own_pg *out)
{
	if (i >= a->n)
		return -1;
	const uint8_t *p = a->p + (size_t)i * SFLOW_OWN_PG_SIZE;
	buffer_from(p, &out->shared);
	buffer_from(p + SFLOW_OWN_BUFFER_SIZE, &out->headroom);
	return 0;
}

int sflow_own_qdrop_at(const struct sflow_own_array *a, uint32_t i, struct sflow_own_qdrop *out)
{
	if (i >= a->n)
		return -1;
	const uint8_t *p = a->p + (size_t)i * SFLOW_OWN_QDROP_SIZE;
	out->packets = get64(p);
	out->bytes = get64(p + 8);
	return 0;
}

int sflow_own_drop_counter_next(const struct sflow_own_drop_counters *a, uint32_t *pos,
				struct sflow_own_drop_counter *out)
{
	return var_next(a->p, a->len, pos, dropctr_from, out);
}

int sflow_own_drop_counter_at(const struct sflow_own_drop_counters *a, uint32_t i,
			      struct sflow_own_drop_counter *out)
{
	return var_at(a->p, a->n, a->len, i, dropctr_from, out);
}

const char *sflow_own_direction_name(uint32_t direction)
{
	return direction == SFLOW_OWN_DIR_INGRESS  ? "ingress"
	       : direction == SFLOW_OWN_DIR_EGRESS ? "egress"
						   : "unknown";
}

int sflow_own_sampler_next(const struct sflow_own_sampler_stats *a, uint32_t *pos,
			   struct sflow_own_sampler_stat *out)
{
	return var_next(a->p, a->len, pos, sampler_from, out);
}

int sflow_own_sampler_at(const struct sflow_own_sampler_stats *a, uint32_t i,
			 struct sflow_own_sampler_stat *out)
{
	return var_at(a->p, a->n, a->len, i, sampler_from, out);
}

void sflow_own_sampler_rejects(const struct sflow_own_sampler_stat *st,
			       uint64_t out[SFLOW_OWN_SAMPLER_REJECTS])
{
	out[0] = st->not_eligible;
	out[1] = st->duplicate;
	out[2] = st->limiter;
	out[3] = st->recurrent;
	out[4] = st->no_ticket;
	out[5] = st->probability;
	out[6] = st->flow_filter;
	out[7] = st->downstream;
}

const char *sflow_own_sampler_reject_name(uint32_t i)
{
	static const char *const names[SFLOW_OWN_SAMPLER_REJECTS] = {
	    "not_eligible", "duplicate",   "limiter",	  "recurrent",
	    "no_ticket",    "probability", "flow_filter", "downstream"};
	return i < SFLOW_OWN_SAMPLER_REJECTS ? names[i] : NULL;
}

int sflow_own_sampler_adds_up(const struct sflow_own_sampler_stat *st)
{
	uint64_t rej[SFLOW_OWN_SAMPLER_REJECTS];
	uint64_t sum = st->passed;

	sflow_own_sampler_rejects(st, rej);
	for (uint32_t i = 0; i < SFLOW_OWN_SAMPLER_REJECTS; i++) {
		if (rej[i] > UINT64_MAX - sum)
			return 0;
		sum += rej[i];
	}
	return sum == st->seen;
}

/* ---- ingress arbitration (E:8) and flow regions (E:9) */

void sflow_own_enc_iarb(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
			const struct sflow_own_iarb *a)
{
	size_t m = sflow_enc_record_begin(w, s, SFLOW_TAG(enterprise, SFLOW_OWN_INGRESS_ARB));
	sflow_w_u64(w, a->accelerated);
	sflow_w_u64(w, a->not_accelerated);
	sflow_w_u64(w, a->dropped);
	for (uint32_t i = 0; i < SFLOW_OWN_IARB_CAUSES; i++)
		sflow_w_u64(w, a->by_cause[i]);
	sflow_w_u64(w, a->transitions);
	sflow_w_u64(w, a->congested_ns);
	sflow_w_u32(w, a->congested);
	sflow_w_u32(w, a->am_cur);
	sflow_w_u32(w, a->am_peak);
	sflow_w_i32(w, a->am_cur_pc);
	sflow_w_i32(w, a->am_peak_pc);
	sflow_w_u32(w, a->am_lat_min);
	sflow_w_u32(w, a->am_lat_mean);
	sflow_w_u32(w, a->am_lat_max);
	sflow_w_u32(w, a->pb_lat_min);
	sflow_w_u32(w, a->pb_lat_mean);
	sflow_w_u32(w, a->pb_lat_max);
	sflow_enc_record_end(w, m);
}

void sflow_own_enc_flow_regions(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
				uint32_t unit, uint32_t total, const struct sflow_own_region *r,
				uint32_t n)
{
	if (bad_array(w, r, n))
		return;
	if (n > SFLOW_OWN_REGIONS_MAX) {
		if (!w->err)
			w->err = SFLOW_ERR_INVALID;
		return;
	}
	size_t m = sflow_enc_record_begin(w, s, SFLOW_TAG(enterprise, SFLOW_OWN_FLOW_REGIONS));
	sflow_w_u32(w, unit);
	sflow_w_u32(w, total);
	sflow_w_u32(w, n);
	for (uint32_t i = 0; i < n && !w->err; i++) {
		sflow_w_u32(w, r[i].region);
		sflow_w_u32(w, r[i].cur);
		sflow_w_u32(w, r[i].peak);
		sflow_w_u32(w, r[i].bound);
		sflow_w_i32(w, r[i].cur_pc);
		sflow_w_i32(w, r[i].peak_pc);
		sflow_w_u32(w, r[i].state);
		sflow_w_u32(w, r[i].flags);
		sflow_w_u64(w, r[i].admitted);
		sflow_w_u64(w, r[i].dropped);
		sflow_w_u64(w, r[i].mirrored);
	}
	sflow_enc_record_end(w, m);
}

int sflow_own_region_at(const struct sflow_own_array *a, uint32_t i, struct sflow_own_region *out)
{
	if (i >= a->n)
		return -1;
	const uint8_t *p = a->p + (size_t)i * SFLOW_OWN_REGION_SIZE;
	out->region = get32(p);
	out->cur = get32(p + 4);
	out->peak = get32(p + 8);
	out->bound = get32(p + 12);
	out->cur_pc = (int32_t)get32(p + 16);
	out->peak_pc = (int32_t)get32(p + 20);
	out->state = get32(p + 24);
	out->flags = get32(p + 28);
	out->admitted = get64(p + 32);
	out->dropped = get64(p + 40);
	out->mirrored = get64(p + 48);
	return 0;
}

/* ---- ECN marks (E:10) and a flow region's drop (E:2 in 0:5) */

void sflow_own_enc_queue_ecn(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
			     const uint64_t *uc, uint32_t n_uc, const uint64_t *mc, uint32_t n_mc)
{
	if (bad_array(w, uc, n_uc) || bad_array(w, mc, n_mc))
		return;
	size_t m = sflow_enc_record_begin(w, s, SFLOW_TAG(enterprise, SFLOW_OWN_QUEUE_ECN));
	sflow_w_u32(w, n_uc);
	for (uint32_t i = 0; i < n_uc && !w->err; i++)
		sflow_w_u64(w, uc[i]);
	sflow_w_u32(w, n_mc);
	for (uint32_t i = 0; i < n_mc && !w->err; i++)
		sflow_w_u64(w, mc[i]);
	sflow_enc_record_end(w, m);
}

int sflow_own_u64_at(const struct sflow_own_array *a, uint32_t i, uint64_t *out)
{
	if (i >= a->n)
		return -1;
	*out = get64(a->p + (size_t)i * 8);
	return 0;
}

void sflow_own_enc_region_drop(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
			       const struct sflow_own_region_drop *d)
{
	size_t m = sflow_enc_record_begin(w, s, SFLOW_TAG(enterprise, SFLOW_OWN_REGION_DROP));
	sflow_w_u32(w, d->region);
	sflow_w_u32(w, d->cause);
	sflow_w_u32(w, d->unit);
	sflow_w_u32(w, d->region_pc);
	sflow_w_u32(w, d->ingress_pc);
	sflow_w_u32(w, d->egress_pc);
	sflow_w_u32(w, d->count);
	sflow_w_u32(w, d->bound);
	sflow_enc_record_end(w, m);
}

const char *sflow_own_region_cause_name(uint32_t cause)
{
	switch (cause) {
	case SFLOW_OWN_REGION_BOUND:
		return "bound";
	case SFLOW_OWN_REGION_WRED:
		return "wred";
	case SFLOW_OWN_REGION_STC:
		return "short_time_change";
	default:
		return NULL;
	}
}

const char *sflow_own_iarb_cause_name(uint32_t i)
{
	static const char *const names[SFLOW_OWN_IARB_CAUSES] = {"am_fill",
								 "pfc_ingress",
								 "pfc_egress",
								 "pfc_ingress_resources",
								 "pfc_egress_resources",
								 "oversubscription",
								 "egress_over"};
	return i < SFLOW_OWN_IARB_CAUSES ? names[i] : NULL;
}
