/*
 * sflow_own.c - encoding and decoding of bsflowd's own sFlow structures.
 *
 * The XDR of every structure is in sflow_own.h and bsflowd-structures(7).
 * Encoders write through struct sflow_w (no allocation); decoders validate
 * a whole record body before returning and leave arrays in the input, read
 * later element by element with the *_at() accessors.
 */
#include <string.h>

#include "proto/sflow_own.h"

/* ---- encoding */

static void enc_buffer(struct sflow_w *w, const struct sflow_own_buffer *b)
{
	sflow_w_u32(w, b->cur_cells);
	sflow_w_u32(w, b->cur_bytes);
	sflow_w_u32(w, b->peak_cells);
	sflow_w_u32(w, b->peak_bytes);
	sflow_w_u32(w, b->alloc_cells);
	sflow_w_i32(w, b->peak_pc);
	sflow_w_u64(w, b->peak_time_ns);
}

static void enc_buffers(struct sflow_w *w, const struct sflow_own_buffer *b, uint32_t n)
{
	sflow_w_u32(w, n);
	for (uint32_t i = 0; i < n && !w->err; i++)
		enc_buffer(w, &b[i]);
}

static void enc_qdelays(struct sflow_w *w, const struct sflow_own_qdelay *d, uint32_t n)
{
	sflow_w_u32(w, n);
	for (uint32_t i = 0; i < n && !w->err; i++) {
		sflow_w_u32(w, d[i].latest_ns);
		sflow_w_u32(w, d[i].max_ns);
		sflow_w_u32(w, d[i].count);
		sflow_w_u32(w, d[i].marker_ns);
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

int sflow_own_decode_record(uint32_t format, uint32_t in_sample, struct sflow_r *r,
			    struct sflow_own_record *out)
{
	memset(out, 0, sizeof *out);
	out->format = format;
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
	default:
		return 1;
	}
}

int sflow_own_decode_sample(uint32_t format, struct sflow_r *r, struct sflow_own_sample *out)
{
	(void)r;
	out->format = format;
	return 1; /* SFLOW_OWN_SMP_EVENT is reserved, not defined yet */
}

const char *sflow_own_record_name(uint32_t format, uint32_t in_sample)
{
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
	default:
		return NULL;
	}
}

const char *sflow_own_sample_name(uint32_t format)
{
	(void)format;
	return NULL;
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
