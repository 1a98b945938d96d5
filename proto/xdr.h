/*
 * xdr.h - bounds-checked XDR (RFC 4506) writer and reader.
 *
 * The writer fills a caller-provided buffer and never writes past its end:
 * the first write that would not fit sets a sticky error and every later
 * write is a no-op, so a caller can encode a whole structure and check once.
 * Opaque bodies whose length is only known afterwards (sFlow samples and
 * records, variable-length arrays) are written with a placeholder that
 * sflow_w_close() back-patches.  Items whose size is known up front are
 * checked once with sflow_w_reserve() and then written unchecked.
 *
 * The reader checks every read against the end of its input; the first
 * failure records the byte offset and a reason and makes every later read
 * fail too.  Nothing here allocates or does I/O.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_PROTO_XDR_H
#define BSFLOWD_PROTO_XDR_H

#include <stddef.h>
#include <stdint.h>

enum sflow_status {
	SFLOW_OK = 0,
	SFLOW_ERR_FULL = -1,	/* writer: the buffer is too small */
	SFLOW_ERR_TRUNC = -2,	/* reader: input ends inside a field */
	SFLOW_ERR_FORMAT = -3,	/* reader: a value is impossible (length, count, version) */
	SFLOW_ERR_TOOBIG = -4,	/* builder: a sample larger than any datagram can hold */
	SFLOW_ERR_INVALID = -5, /* caller passed an impossible argument */
	SFLOW_ERR_NOMEM = -6,	/* decoder: out of memory */
};

const char *sflow_strerror(int status);

struct sflow_w {
	uint8_t *buf;
	size_t cap;
	size_t len;
	int err; /* SFLOW_OK, SFLOW_ERR_FULL or SFLOW_ERR_INVALID, sticky */
};

void sflow_w_init(struct sflow_w *w, uint8_t *buf, size_t cap);
void sflow_w_u32(struct sflow_w *w, uint32_t v);
void sflow_w_i32(struct sflow_w *w, int32_t v);
void sflow_w_u64(struct sflow_w *w, uint64_t v);
/* Fixed-length opaque: the bytes, then zero padding to a multiple of 4. */
void sflow_w_fixed(struct sflow_w *w, const void *p, size_t n);
/* Variable-length opaque or string: length, bytes, padding. */
void sflow_w_opaque(struct sflow_w *w, const void *p, uint32_t n);
/*
 * Open a length-prefixed body: writes a 4-byte placeholder and returns its
 * position.  sflow_w_close() writes (current length - position - 4) there.
 * Used for sample/record bodies and, with the count instead of a byte
 * length, via sflow_w_patch() for element counts.
 */
size_t sflow_w_open(struct sflow_w *w);
void sflow_w_close(struct sflow_w *w, size_t mark);
/* Overwrite the 4 bytes at pos (pos + 4 <= len) with v. */
void sflow_w_patch(struct sflow_w *w, size_t pos, uint32_t v);

/*
 * Whole items whose size is known before they are written (a record, a
 * sample header): sflow_w_reserve() checks the space once and returns where
 * exactly n bytes go, advancing len past them, or NULL (sticky error set,
 * nothing written).  The caller then fills those n bytes with the unchecked
 * sflow_put_* helpers, each returning the position after what it wrote; it
 * must write exactly n bytes, which is the only bound it has to get right.
 */
static inline uint8_t *sflow_w_reserve(struct sflow_w *w, size_t n)
{
	uint8_t *p;

	if (w->err != SFLOW_OK)
		return NULL;
	if (w->len > w->cap || w->cap - w->len < n) {
		w->err = SFLOW_ERR_FULL;
		return NULL;
	}
	p = w->buf + w->len;
	w->len += n;
	return p;
}

static inline uint8_t *sflow_put_u32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
	return p + 4;
}

static inline uint8_t *sflow_put_i32(uint8_t *p, int32_t v)
{
	return sflow_put_u32(p, (uint32_t)v); /* two's complement, as XDR int */
}

static inline uint8_t *sflow_put_u64(uint8_t *p, uint64_t v)
{
	sflow_put_u32(p, (uint32_t)(v >> 32));
	return sflow_put_u32(p + 4, (uint32_t)v);
}

struct sflow_r {
	const uint8_t *buf;
	size_t len;
	size_t pos;
	size_t base;	     /* offset of buf[0] in the whole datagram, for errors */
	int err;	     /* SFLOW_OK or an SFLOW_ERR_*, sticky */
	size_t err_offset;   /* datagram offset of the failed read */
	const char *err_why; /* static text: what was being read */
};

void sflow_r_init(struct sflow_r *r, const uint8_t *buf, size_t len, size_t base);

/* The reader cannot give n more bytes: returns its sticky error, or sets
 * SFLOW_ERR_TRUNC for `what` at the current position. */
int sflow_r_short(struct sflow_r *r, size_t n, const char *what);

/* Whether n more bytes can be read (and no read failed before). */
static inline int sflow_r_has(const struct sflow_r *r, size_t n)
{
	return r->err == SFLOW_OK && r->pos <= r->len && r->len - r->pos >= n;
}

static inline uint32_t sflow_get_u32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Each returns SFLOW_OK or the sticky error; *v is 0 on error. `what`
 * names the field for the error message.  Inline: one check and the load
 * on the usual path. */
static inline int sflow_r_u32(struct sflow_r *r, uint32_t *v, const char *what)
{
	if (sflow_r_has(r, 4)) {
		*v = sflow_get_u32(r->buf + r->pos);
		r->pos += 4;
		return SFLOW_OK;
	}
	*v = 0;
	return sflow_r_short(r, 4, what);
}

static inline int sflow_r_i32(struct sflow_r *r, int32_t *v, const char *what)
{
	uint32_t u;
	int e = sflow_r_u32(r, &u, what);

	/* two's complement without implementation-defined conversion */
	*v = u <= 0x7FFFFFFFu ? (int32_t)u : -(int32_t)(~u) - 1;
	return e;
}

static inline int sflow_r_u64(struct sflow_r *r, uint64_t *v, const char *what)
{
	if (sflow_r_has(r, 8)) {
		*v = (uint64_t)sflow_get_u32(r->buf + r->pos) << 32 |
		     sflow_get_u32(r->buf + r->pos + 4);
		r->pos += 8;
		return SFLOW_OK;
	}
	*v = 0;
	return sflow_r_short(r, 8, what);
}
/* Variable-length opaque: reads the length (at most max bytes) and returns a
 * pointer into the input; skips the padding. */
int sflow_r_opaque(struct sflow_r *r, const uint8_t **p, uint32_t *n, uint32_t max,
		   const char *what);
/* A length-prefixed sub-body: a reader over exactly the next n bytes, which
 * the parent skips.  Fails if n is more than what remains. */
int sflow_r_sub(struct sflow_r *r, struct sflow_r *sub, uint32_t n, const char *what);
int sflow_r_skip(struct sflow_r *r, size_t n, const char *what);
size_t sflow_r_remaining(const struct sflow_r *r);
/* Mark the reader failed with a format error at the current position. */
int sflow_r_fail(struct sflow_r *r, int status, const char *why);

/* Saturating conversions for 32-bit wire fields (delay ns, depth bytes). */
static inline uint32_t sflow_sat32(uint64_t v)
{
	return v > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)v;
}

#endif
