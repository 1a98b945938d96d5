/*
 * xdr.c - bounds-checked XDR (RFC 4506) writer and reader (see xdr.h).
 *
 * Writer: every call first checks that its whole item fits, so an item is
 * written completely or not at all; the first one that does not fit sets
 * SFLOW_ERR_FULL and every later call is a no-op.  Reader: every read checks
 * the bytes left first; the first failure records the datagram offset and
 * what was being read, and every later read fails the same way.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <string.h>

#include "proto/xdr.h"

const char *sflow_strerror(int status)
{
	switch (status) {
	case SFLOW_OK:
		return "success";
	case SFLOW_ERR_FULL:
		return "buffer full";
	case SFLOW_ERR_TRUNC:
		return "input truncated";
	case SFLOW_ERR_FORMAT:
		return "malformed input";
	case SFLOW_ERR_TOOBIG:
		return "sample larger than a datagram can hold";
	case SFLOW_ERR_INVALID:
		return "invalid argument";
	case SFLOW_ERR_NOMEM:
		return "out of memory";
	default:
		return "unknown error";
	}
}

/* ---- writer */

void sflow_w_init(struct sflow_w *w, uint8_t *buf, size_t cap)
{
	w->buf = buf;
	w->cap = buf ? cap : 0;
	w->len = 0;
	w->err = SFLOW_OK;
}

/* 1 if n more bytes fit, else set the sticky error and return 0. */
static int w_room(struct sflow_w *w, size_t n)
{
	if (w->err != SFLOW_OK)
		return 0;
	if (w->len > w->cap || w->cap - w->len < n) {
		w->err = SFLOW_ERR_FULL;
		return 0;
	}
	return 1;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static size_t pad4(size_t n)
{
	return (4 - (n & 3)) & 3;
}

void sflow_w_u32(struct sflow_w *w, uint32_t v)
{
	if (!w_room(w, 4))
		return;
	put32(w->buf + w->len, v);
	w->len += 4;
}

void sflow_w_i32(struct sflow_w *w, int32_t v)
{
	/* two's complement bit pattern, as XDR int */
	sflow_w_u32(w, (uint32_t)v);
}

void sflow_w_u64(struct sflow_w *w, uint64_t v)
{
	if (!w_room(w, 8))
		return;
	put32(w->buf + w->len, (uint32_t)(v >> 32));
	put32(w->buf + w->len + 4, (uint32_t)v);
	w->len += 8;
}

void sflow_w_fixed(struct sflow_w *w, const void *p, size_t n)
{
	size_t pad = pad4(n);

	if (n > SIZE_MAX - pad || !w_room(w, n + pad))
		return;
	if (n)
		memcpy(w->buf + w->len, p, n);
	memset(w->buf + w->len + n, 0, pad);
	w->len += n + pad;
}

void sflow_w_opaque(struct sflow_w *w, const void *p, uint32_t n)
{
	size_t pad = pad4(n);

	/* all or nothing: the length is not written if the bytes do not fit */
	if ((size_t)n > SIZE_MAX - pad - 4 || !w_room(w, 4 + (size_t)n + pad))
		return;
	sflow_w_u32(w, n);
	sflow_w_fixed(w, p, n);
}

size_t sflow_w_open(struct sflow_w *w)
{
	size_t mark = w->len;

	sflow_w_u32(w, 0);
	return mark;
}

void sflow_w_close(struct sflow_w *w, size_t mark)
{
	if (w->err != SFLOW_OK)
		return;
	if (mark > w->len || w->len - mark < 4) {
		w->err = SFLOW_ERR_INVALID;
		return;
	}
	if (w->len - mark - 4 > 0xFFFFFFFFu) {
		w->err = SFLOW_ERR_INVALID;
		return;
	}
	put32(w->buf + mark, (uint32_t)(w->len - mark - 4));
}

void sflow_w_patch(struct sflow_w *w, size_t pos, uint32_t v)
{
	if (w->err != SFLOW_OK)
		return;
	if (pos > w->len || w->len - pos < 4) {
		w->err = SFLOW_ERR_INVALID;
		return;
	}
	put32(w->buf + pos, v);
}

/* ---- reader */

void sflow_r_init(struct sflow_r *r, const uint8_t *buf, size_t len, size_t base)
{
	r->buf = buf;
	r->len = buf ? len : 0;
	r->pos = 0;
	r->base = base;
	r->err = SFLOW_OK;
	r->err_offset = 0;
	r->err_why = 0;
}

size_t sflow_r_remaining(const struct sflow_r *r)
{
	return r->pos <= r->len ? r->len - r->pos : 0;
}

int sflow_r_fail(struct sflow_r *r, int status, const char *why)
{
	if (r->err != SFLOW_OK)
		return r->err;
	r->err = status;
	r->err_offset = r->base + r->pos;
	r->err_why = why ? why : "";
	return status;
}

int sflow_r_short(struct sflow_r *r, size_t n, const char *what)
{
	if (r->err != SFLOW_OK)
		return r->err;
	if (sflow_r_remaining(r) < n)
		return sflow_r_fail(r, SFLOW_ERR_TRUNC, what);
	return SFLOW_OK;
}

int sflow_r_opaque(struct sflow_r *r, const uint8_t **p, uint32_t *n, uint32_t max,
		   const char *what)
{
	uint32_t len;
	uint64_t padded;
	int e;

	*p = 0;
	*n = 0;
	if ((e = sflow_r_u32(r, &len, what)) != SFLOW_OK)
		return e;
	if (len > max) {
		r->pos -= 4; /* report the offset of the length field */
		return sflow_r_fail(r, SFLOW_ERR_FORMAT, what);
	}
	padded = (uint64_t)len + pad4(len);
	if ((uint64_t)sflow_r_remaining(r) < padded)
		return sflow_r_fail(r, SFLOW_ERR_TRUNC, what);
	*p = r->buf + r->pos;
	*n = len;
	r->pos += (size_t)padded;
	return SFLOW_OK;
}

int sflow_r_sub(struct sflow_r *r, struct sflow_r *sub, uint32_t n, const char *what)
{
	int e = sflow_r_has(r, n) ? SFLOW_OK : sflow_r_short(r, n, what);

	if (e != SFLOW_OK) {
		sflow_r_init(sub, 0, 0, r->base + r->pos);
		sub->err = e;
		sub->err_offset = r->err_offset;
		sub->err_why = r->err_why;
		return e;
	}
	sflow_r_init(sub, r->buf + r->pos, n, r->base + r->pos);
	r->pos += n;
	return SFLOW_OK;
}

int sflow_r_skip(struct sflow_r *r, size_t n, const char *what)
{
	int e = sflow_r_has(r, n) ? SFLOW_OK : sflow_r_short(r, n, what);

	if (e == SFLOW_OK)
		r->pos += n;
	return e;
}
