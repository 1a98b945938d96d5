/*
 * output.c - the two output shapes of bsflow-collect (see output.h):
 * sflowtool-style "key value" text lines, or one JSON object per datagram
 * per line.  Only this file knows the difference.
 *
 * Everything is formatted by hand (decimal and hex digits, addresses,
 * escapes) into o->obuf, which goes to the stream with one fwrite and one
 * fflush per datagram: printf's format parsing and stdio's per-call locking
 * were most of bsflow-collect's time.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdarg.h>
#include <string.h>

#include "collector/output.h"

/* ---- the buffer */

static void out_drain(struct collect_out *o)
{
	if (o->olen) {
		fwrite(o->obuf, 1, o->olen, o->fp);
		o->olen = 0;
	}
}

void collect_out_flush(struct collect_out *o)
{
	out_drain(o);
	fflush(o->fp);
}

/* Room for n more bytes (n <= COLLECT_OUT_BUFSZ); returns where they go. */
static char *out_room(struct collect_out *o, size_t n)
{
	if (COLLECT_OUT_BUFSZ - o->olen < n)
		out_drain(o);
	return o->obuf + o->olen;
}

static void out_c(struct collect_out *o, char c)
{
	*out_room(o, 1) = c;
	o->olen++;
}

static void out_mem(struct collect_out *o, const char *p, size_t n)
{
	if (COLLECT_OUT_BUFSZ - o->olen >= n) { /* the usual case: it fits */
		memcpy(o->obuf + o->olen, p, n);
		o->olen += n;
		return;
	}
	while (n) {
		size_t k = n < COLLECT_OUT_BUFSZ ? n : COLLECT_OUT_BUFSZ;

		memcpy(out_room(o, k), p, k);
		o->olen += k;
		p += k;
		n -= k;
	}
}

static void out_s(struct collect_out *o, const char *s)
{
	out_mem(o, s, strlen(s));
}

/* Decimal digits of v, without leading zeros. */
static void out_u64(struct collect_out *o, uint64_t v)
{
	char tmp[20];
	size_t i = sizeof tmp;

	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	out_mem(o, tmp + i, sizeof tmp - i);
}

static void out_i64(struct collect_out *o, int64_t v)
{
	if (v < 0) {
		out_c(o, '-');
		out_u64(o, (uint64_t)0 - (uint64_t)v); /* INT64_MIN too */
	} else {
		out_u64(o, (uint64_t)v);
	}
}

static const char hex_lower[] = "0123456789abcdef";
static const char hex_upper[] = "0123456789ABCDEF";

/* Copy s into dst[COLLECT_OUT_KEYMAX], cut to fit with its NUL. */
static void key_copy(char *dst, const char *s)
{
	size_t n = strlen(s);

	if (n > COLLECT_OUT_KEYMAX - 1)
		n = COLLECT_OUT_KEYMAX - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

void collect_out_init(struct collect_out *o, enum collect_fmt fmt, FILE *fp)
{
	memset(o, 0, sizeof(*o));
	o->fmt = fmt;
	o->fp = fp;
	o->own_enterprise = SFLOW_ENT_OWN_DEFAULT;
}

void collect_out_set_prefix(struct collect_out *o, const char *prefix)
{
	key_copy(o->prefix, prefix ? prefix : "");
}

static struct collect_out_level *cur(struct collect_out *o)
{
	if (o->depth == 0)
		return NULL;
	return &o->lv[o->depth - 1];
}

/* JSON: print a string with escapes; bytes >= 0x80 are taken as Latin-1
 * code points so the output is always valid UTF-8. */
static void json_string(struct collect_out *o, const char *s, size_t n)
{
	out_c(o, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '"':
			out_mem(o, "\\\"", 2);
			break;
		case '\\':
			out_mem(o, "\\\\", 2);
			break;
		case '\n':
			out_mem(o, "\\n", 2);
			break;
		case '\r':
			out_mem(o, "\\r", 2);
			break;
		case '\t':
			out_mem(o, "\\t", 2);
			break;
		default:
			if (c < 0x20 || c >= 0x7f) {
				char u[6] = {
				    '\\', 'u', '0', '0', hex_lower[c >> 4], hex_lower[c & 15]};

				out_mem(o, u, sizeof u);
			} else {
				out_c(o, (char)c);
			}
		}
	}
	out_c(o, '"');
}

/* Text: printable ASCII as is, anything else (including space-breaking
 * control characters) as \xNN so one field stays on one line. */
static void text_string(struct collect_out *o, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c >= 0x7f || c == '\\') {
			char x[4] = {'\\', 'x', hex_lower[c >> 4], hex_lower[c & 15]};

			out_mem(o, x, sizeof x);
		} else {
			out_c(o, (char)c);
		}
	}
}

/*
 * Start one item: in JSON the separating comma and the "key": part; in
 * text the "key " part (with the array key and index for keyless items).
 * Returns 0 if the item must not be printed (nesting overflow).
 */
static int item_begin(struct collect_out *o, const char *key)
{
	struct collect_out_level *l = cur(o);

	if (o->overflow)
		return 0;
	if (o->fmt == COLLECT_FMT_JSON) {
		if (l) {
			if (l->count > 0)
				out_c(o, ',');
			l->count++;
		}
		if (key && !(l && l->is_array)) {
			out_c(o, '"');
			out_s(o, o->prefix);
			out_s(o, key);
			out_mem(o, "\":", 2);
		}
		return 1;
	}
	/* text */
	if (l)
		l->count++;
	if (key) {
		out_s(o, o->prefix);
		out_s(o, key);
		out_c(o, ' ');
	} else if (l && l->is_array) {
		out_s(o, o->prefix);
		out_s(o, l->key);
		out_c(o, '.');
		out_i64(o, l->count - 1);
		out_c(o, ' ');
	} else {
		out_mem(o, "value ", 6);
	}
	return 1;
}

static void item_end(struct collect_out *o)
{
	if (o->fmt == COLLECT_FMT_TEXT)
		out_c(o, '\n');
}

static void container_begin(struct collect_out *o, const char *key, int is_array)
{
	struct collect_out_level *l;

	if (o->overflow || o->depth >= COLLECT_OUT_MAXDEPTH) {
		o->overflow++;
		return;
	}
	if (o->fmt == COLLECT_FMT_JSON) {
		item_begin(o, key);
		out_c(o, is_array ? '[' : '{');
	} else if ((l = cur(o)) != NULL) {
		l->count++;
	}
	l = &o->lv[o->depth++];
	l->is_array = is_array;
	l->count = 0;
	key_copy(l->key, key ? key : "");
}

static void container_end(struct collect_out *o, int is_array)
{
	if (o->overflow) {
		o->overflow--;
		return;
	}
	if (o->depth == 0)
		return;
	o->depth--;
	if (o->fmt == COLLECT_FMT_JSON)
		out_c(o, is_array ? ']' : '}');
}

void collect_out_begin_datagram(struct collect_out *o)
{
	o->depth = 0;
	o->overflow = 0;
	o->prefix[0] = '\0';
	if (o->fmt == COLLECT_FMT_TEXT)
		out_s(o, "startDatagram =================================\n");
	container_begin(o, NULL, 0);
}

void collect_out_end_datagram(struct collect_out *o)
{
	while (o->depth > 1)
		container_end(o, o->lv[o->depth - 1].is_array);
	container_end(o, 0);
	o->prefix[0] = '\0';
	if (o->fmt == COLLECT_FMT_TEXT)
		out_s(o, "endDatagram   =================================\n");
	else
		out_c(o, '\n');
	if (!o->batch)
		collect_out_flush(o);
}

void collect_out_begin_object(struct collect_out *o, const char *key)
{
	container_begin(o, key, 0);
}

void collect_out_end_object(struct collect_out *o)
{
	container_end(o, 0);
}

void collect_out_begin_array(struct collect_out *o, const char *key)
{
	container_begin(o, key, 1);
}

void collect_out_end_array(struct collect_out *o)
{
	container_end(o, 1);
}

void collect_out_text(struct collect_out *o, const char *line)
{
	if (o->fmt == COLLECT_FMT_TEXT && !o->overflow) {
		out_s(o, line);
		out_c(o, '\n');
	}
}

void collect_out_u32(struct collect_out *o, const char *key, uint32_t v)
{
	if (!item_begin(o, key))
		return;
	out_u64(o, v);
	item_end(o);
}

void collect_out_u64(struct collect_out *o, const char *key, uint64_t v)
{
	if (!item_begin(o, key))
		return;
	out_u64(o, v);
	item_end(o);
}

void collect_out_i64(struct collect_out *o, const char *key, int64_t v)
{
	if (!item_begin(o, key))
		return;
	out_i64(o, v);
	item_end(o);
}

void collect_out_strn(struct collect_out *o, const char *key, const char *s, size_t n)
{
	if (!item_begin(o, key))
		return;
	if (o->fmt == COLLECT_FMT_JSON)
		json_string(o, s, n);
	else
		text_string(o, s, n);
	item_end(o);
}

void collect_out_str(struct collect_out *o, const char *key, const char *s)
{
	collect_out_strn(o, key, s, strlen(s));
}

void collect_out_strf(struct collect_out *o, const char *key, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	collect_out_str(o, key, buf);
}

void collect_out_u32_pair(struct collect_out *o, const char *key, uint32_t a, uint32_t b)
{
	/* digits and ':' only: nothing to escape in either shape */
	if (!item_begin(o, key))
		return;
	if (o->fmt == COLLECT_FMT_JSON)
		out_c(o, '"');
	out_u64(o, a);
	out_c(o, ':');
	out_u64(o, b);
	if (o->fmt == COLLECT_FMT_JSON)
		out_c(o, '"');
	item_end(o);
}

void collect_out_str_u32(struct collect_out *o, const char *key, const char *text, uint32_t v)
{
	/* text is a caller's constant without characters to escape */
	if (!item_begin(o, key))
		return;
	if (o->fmt == COLLECT_FMT_JSON)
		out_c(o, '"');
	out_s(o, text);
	out_u64(o, v);
	if (o->fmt == COLLECT_FMT_JSON)
		out_c(o, '"');
	item_end(o);
}

void collect_out_hex(struct collect_out *o, const char *key, const uint8_t *p, size_t n)
{
	if (!item_begin(o, key))
		return;
	if (o->fmt == COLLECT_FMT_JSON)
		out_c(o, '"');
	for (size_t i = 0; i < n; i++) {
		char *q = out_room(o, 3);
		size_t k = 0;

		if (i)
			q[k++] = '-';
		q[k++] = hex_upper[p[i] >> 4];
		q[k++] = hex_upper[p[i] & 15];
		o->olen += k;
	}
	if (o->fmt == COLLECT_FMT_JSON)
		out_c(o, '"');
	item_end(o);
}

void collect_out_tag(struct collect_out *o, const char *key, uint32_t tag)
{
	collect_out_u32_pair(o, key, SFLOW_TAG_ENTERPRISE(tag), SFLOW_TAG_FORMAT(tag));
}

void collect_out_addr(struct collect_out *o, const char *key, const struct sflow_addr *a)
{
	char buf[48];
	size_t n = 0;

	if (a->type == SFLOW_ADDR_IP4) {
		for (int i = 0; i < 4; i++) {
			unsigned v = a->a[i];

			if (i)
				buf[n++] = '.';
			if (v >= 100)
				buf[n++] = (char)('0' + v / 100);
			if (v >= 10)
				buf[n++] = (char)('0' + v / 10 % 10);
			buf[n++] = (char)('0' + v % 10);
		}
	} else if (a->type == SFLOW_ADDR_IP6) {
		for (int i = 0; i < 16; i += 2) {
			if (i)
				buf[n++] = ':';
			buf[n++] = hex_lower[a->a[i] >> 4];
			buf[n++] = hex_lower[a->a[i] & 15];
			buf[n++] = hex_lower[a->a[i + 1] >> 4];
			buf[n++] = hex_lower[a->a[i + 1] & 15];
		}
	} else {
		buf[n++] = '-';
	}
	collect_out_strn(o, key, buf, n);
}

void collect_out_i32_array(struct collect_out *o, const char *key, const int32_t *v, size_t n)
{
	collect_out_begin_array(o, key);
	for (size_t i = 0; i < n; i++)
		collect_out_i64(o, NULL, v[i]);
	collect_out_end_array(o);
}

void collect_out_unknown_body(struct collect_out *o, uint32_t length, const uint8_t *body)
{
	collect_out_u32(o, "unknownLength", length);
	if (body && length)
		collect_out_hex(o, "unknownBytes", body, length);
}
