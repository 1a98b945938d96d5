/*
 * output.c - the two output shapes of bsflow-collect (see output.h):
 * sflowtool-style "key value" text lines, or one JSON object per datagram
 * per line.  Only this file knows the difference.
 *
 * Everything is formatted by hand (decimal and hex digits, addresses,
 * escapes) into o->obuf, which goes to the stream with one fwrite per
 * datagram (or per buffer-full in batch mode).  Each item reserves the
 * room it can need once (separator, prefix, key and the longest value of
 * its kind) and is then written without further checks; only values of
 * unbounded length (strings, hex bytes) reserve in pieces.  Keys come with
 * their length (output.h's wrappers), numbers are written two digits at a
 * time from a table.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "collector/output.h"

/* Room an item needs besides its value: ',' '"' prefix key '"' ':' (JSON)
 * or prefix key '.' index ' ' (text), and the text newline.  Prefix and
 * key are each less than COLLECT_OUT_KEYMAX bytes. */
#define ITEM_ROOM (2 * COLLECT_OUT_KEYMAX + 32)
/* Longest number: 20 digits and a sign. */
#define NUM_ROOM 24
/* Strings and hex bytes are written in pieces of at most this many input
 * bytes, so that one piece's output always fits the buffer. */
#define PIECE 1024

/* ---- the buffer */

/* The buffer to the stream: straight to its descriptor when it has one,
 * after what stdio holds for it (a buffer-full through fwrite took two or
 * three write calls and a copy into stdio's buffer); a failed write hands
 * the rest to fwrite, which fails too and leaves the stream's error flag
 * for the caller's final fflush. */
static void out_drain(struct collect_out *o)
{
	const char *p = o->obuf;
	size_t n = o->olen;
	int fd;

	if (!n)
		return;
	o->olen = 0;
	fd = fileno(o->fp);
	if (fd >= 0 && fflush(o->fp) == 0) {
		while (n) {
			ssize_t w = write(fd, p, n);

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				break;
			p += w;
			n -= (size_t)w;
		}
	}
	if (n)
		fwrite(p, 1, n, o->fp);
}

void collect_out_flush(struct collect_out *o)
{
	out_drain(o);
	fflush(o->fp);
}

/* Room for n more bytes (n <= COLLECT_OUT_BUFSZ); returns where they go.
 * The caller writes at most n bytes there and hands the end to out_done. */
static inline char *out_room(struct collect_out *o, size_t n)
{
	if (COLLECT_OUT_BUFSZ - o->olen < n)
		out_drain(o);
	return o->obuf + o->olen;
}

static inline void out_done(struct collect_out *o, const char *end)
{
	o->olen = (size_t)(end - o->obuf);
}

static inline char *put(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

/* put() for the short strings keys are: whole 16, 8 or 4-byte moves, the
 * last one overlapping the one before (never reading outside s). */
static inline char *put_short(char *p, const char *s, size_t n)
{
	if (n >= 16) {
		for (size_t i = 0; i + 16 <= n; i += 16)
			memcpy(p + i, s + i, 16);
		memcpy(p + n - 16, s + n - 16, 16);
	} else if (n >= 8) {
		memcpy(p, s, 8);
		memcpy(p + n - 8, s + n - 8, 8);
	} else if (n >= 4) {
		memcpy(p, s, 4);
		memcpy(p + n - 4, s + n - 4, 4);
	} else if (n) {
		p[0] = s[0];
		p[n / 2] = s[n / 2];
		p[n - 1] = s[n - 1];
	}
	return p + n;
}

/* ---- numbers */

static const char digits2[200] = "00010203040506070809"
				 "10111213141516171819"
				 "20212223242526272829"
				 "30313233343536373839"
				 "40414243444546474849"
				 "50515253545556575859"
				 "60616263646566676869"
				 "70717273747576777879"
				 "80818283848586878889"
				 "90919293949596979899";

static inline unsigned ndigits32(uint32_t v)
{
	if (v < 10)
		return 1;
	if (v < 100)
		return 2;
	if (v < 1000)
		return 3;
	if (v < 10000)
		return 4;
	if (v < 100000)
		return 5;
	if (v < 1000000)
		return 6;
	if (v < 10000000)
		return 7;
	if (v < 100000000)
		return 8;
	if (v < 1000000000)
		return 9;
	return 10;
}

/* Decimal digits of v, without leading zeros; returns the end. */
static inline char *put_u32(char *p, uint32_t v)
{
	char *end = p + ndigits32(v), *q = end;

	while (v >= 100) {
		uint32_t r = v % 100;

		v /= 100;
		q -= 2;
		memcpy(q, digits2 + 2 * r, 2);
	}
	if (v >= 10)
		memcpy(q - 2, digits2 + 2 * v, 2);
	else
		q[-1] = (char)('0' + v);
	return end;
}

static inline char *put_u64(char *p, uint64_t v)
{
	uint64_t hi;
	uint32_t lo;

	if (v <= UINT32_MAX)
		return put_u32(p, (uint32_t)v);
	/* v = hi * 10^8 + lo: hi's digits, then lo's eight, zero-padded */
	hi = v / 100000000u;
	lo = (uint32_t)(v % 100000000u);
	p = put_u64(p, hi);
	for (int i = 3; i >= 0; i--) {
		memcpy(p + 2 * i, digits2 + 2 * (lo % 100), 2);
		lo /= 100;
	}
	return p + 8;
}

static inline char *put_i64(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		return put_u64(p, (uint64_t)0 - (uint64_t)v); /* INT64_MIN too */
	}
	return put_u64(p, (uint64_t)v);
}

static const char hex_lower[] = "0123456789abcdef";

/* ---- state */

void collect_out_init(struct collect_out *o, enum collect_fmt fmt, FILE *fp)
{
	memset(o, 0, sizeof(*o));
	o->fmt = fmt;
	o->fp = fp;
	o->own_enterprise = SFLOW_ENT_OWN_DEFAULT;
}

static size_t key_cut(size_t n)
{
	return n < COLLECT_OUT_KEYMAX ? n : COLLECT_OUT_KEYMAX - 1;
}

void collect_out_set_prefix(struct collect_out *o, const char *prefix)
{
	size_t n = key_cut(prefix ? strlen(prefix) : 0);

	memcpy(o->prefix, prefix ? prefix : "", n);
	o->prefix[n] = '\0';
	o->plen = n;
}

/*
 * Start one item with room for vmax bytes of value after its key: in JSON
 * the separating comma and the "key": part; in text the "key " part (with
 * the array key and index for keyless items).  Returns where the value
 * goes, or NULL if the item must not be printed (nesting overflow).
 * o->comma and o->in_array stand for the innermost container's state, so
 * that a JSON item looks at nothing else.
 */
static inline __attribute__((always_inline)) char *
item_begin(struct collect_out *o, const char *key, size_t klen, size_t vmax)
{
	char *p;

	if (o->overflow)
		return NULL;
	klen = key_cut(klen);
	p = out_room(o, ITEM_ROOM + vmax);
	if (o->fmt == COLLECT_FMT_JSON) {
		if (o->comma)
			*p++ = ',';
		o->comma = o->depth != 0; /* items outside any container: none */
		if (key && !o->in_array) {
			*p++ = '"';
			if (o->plen)
				p = put_short(p, o->prefix, o->plen);
			p = put_short(p, key, klen);
			*p++ = '"';
			*p++ = ':';
		}
		return p;
	}
	/* text */
	if (key) {
		if (o->in_array)
			o->lv[o->depth - 1].count++;
		if (o->plen)
			p = put_short(p, o->prefix, o->plen);
		p = put_short(p, key, klen);
		*p++ = ' ';
	} else if (o->in_array) {
		struct collect_out_level *l = &o->lv[o->depth - 1];

		l->count++;
		if (o->plen)
			p = put_short(p, o->prefix, o->plen);
		p = put_short(p, l->key, l->klen);
		*p++ = '.';
		p = put_u32(p, (uint32_t)(l->count - 1));
		*p++ = ' ';
	} else {
		p = put(p, "value ", 6);
	}
	return p;
}

/* End an item whose bytes end at p. */
static inline void item_end(struct collect_out *o, char *p)
{
	if (o->fmt == COLLECT_FMT_TEXT)
		*p++ = '\n';
	out_done(o, p);
}

/* ---- strings */

/* A byte JSON prints as is: printable ASCII but '"' and '\\'. */
static inline int json_plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

/* A byte text prints as is: printable ASCII but '\\'. */
static inline int text_plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '\\';
}

/* Eight bytes at a time: whether a word holds a byte that needs care (in
 * JSON: below 0x20, 0x7f and up, '"' or '\\'; in text the same but '"').
 * Exact for the plain words, and may flag a plain word now and then (a
 * borrow between bytes): a flagged word is done byte by byte. */
#define ONES  0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

static inline int word_has(uint64_t w, unsigned char c)
{
	uint64_t x = w ^ (ONES * c);

	return ((x - ONES) & ~x & HIGHS) != 0;
}

static inline int word_special(uint64_t w, int json)
{
	return (w & HIGHS) || ((w - ONES * 0x20) & ~w & HIGHS) || word_has(w, 0x7f) ||
	       word_has(w, '\\') || (json && word_has(w, '"'));
}

/* Copy the plain prefix of s[0..n) to p, whole words while they are plain:
 * returns how many bytes were copied (the caller goes on byte by byte). */
static inline size_t plain_words(char *p, const unsigned char *s, size_t n, int json)
{
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t w;

		memcpy(&w, s + i, 8);
		if (word_special(w, json))
			break;
		memcpy(p + i, &w, 8);
	}
	return i;
}

/* JSON: a piece of a string with escapes (at most 6 bytes per input
 * byte); bytes >= 0x80 are taken as Latin-1 code points so the output is
 * always valid UTF-8: escaped as \u00NN, or with utf8 written as that
 * character's two UTF-8 bytes (collect_utf8_piece). */
static char *json_piece(char *p, const unsigned char *s, size_t n, int utf8)
{
	size_t i = plain_words(p, s, n, 1);

	for (; i < n && json_plain(s[i]); i++) /* usually all of it */
		p[i] = (char)s[i];
	p += i;
	for (; i < n; i++) {
		unsigned char c = s[i];

		if (json_plain(c)) {
			*p++ = (char)c;
			continue;
		}
		if (c >= 0x80 && utf8) {
			*p++ = (char)(0xc0 | c >> 6);
			*p++ = (char)(0x80 | (c & 0x3f));
			continue;
		}
		*p++ = '\\';
		switch (c) {
		case '"':
		case '\\':
			*p++ = (char)c;
			break;
		case '\n':
			*p++ = 'n';
			break;
		case '\r':
			*p++ = 'r';
			break;
		case '\t':
			*p++ = 't';
			break;
		default:
			p = put(p, "u00", 3);
			*p++ = hex_lower[c >> 4];
			*p++ = hex_lower[c & 15];
		}
	}
	return p;
}

char *collect_utf8_piece(char *p, const char *s, size_t n)
{
	return json_piece(p, (const unsigned char *)s, n, 1);
}

/* Text: printable ASCII as is, anything else (including space-breaking
 * control characters) as \xNN so one field stays on one line (at most 4
 * bytes per input byte). */
static char *text_piece(char *p, const unsigned char *s, size_t n)
{
	size_t i = plain_words(p, s, n, 0);

	for (; i < n && text_plain(s[i]); i++) /* usually all of it */
		p[i] = (char)s[i];
	p += i;
	for (; i < n; i++) {
		unsigned char c = s[i];

		if (text_plain(c)) {
			*p++ = (char)c;
		} else {
			*p++ = '\\';
			*p++ = 'x';
			*p++ = hex_lower[c >> 4];
			*p++ = hex_lower[c & 15];
		}
	}
	return p;
}

/* The value of a string item, its item begun at p with room for
 * min(n, PIECE) * 6 + 2 bytes. */
static void string_value(struct collect_out *o, char *p, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	int json = o->fmt == COLLECT_FMT_JSON;

	if (json)
		*p++ = '"';
	for (;;) {
		size_t k = n < PIECE ? n : PIECE;

		p = json ? json_piece(p, u, k, 0) : text_piece(p, u, k);
		u += k;
		n -= k;
		if (!n)
			break;
		out_done(o, p);
		p = out_room(o, PIECE * 6 + 2);
	}
	if (json)
		*p++ = '"';
	item_end(o, p);
}

void collect_out_strn_k(struct collect_out *o, const char *key, size_t klen, const char *s,
			size_t n)
{
	char *p = item_begin(o, key, klen, (n < PIECE ? n : PIECE) * 6 + 2);

	if (p)
		string_value(o, p, s, n);
}

void collect_out_strf(struct collect_out *o, const char *key, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	collect_out_strn_k(o, key, COLLECT_OUT_KLEN(key), buf,
			   (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

/* ---- containers and datagrams */

void collect_out_container_k(struct collect_out *o, const char *key, size_t klen, int is_array)
{
	struct collect_out_level *l;

	if (o->overflow || o->depth >= COLLECT_OUT_MAXDEPTH) {
		o->overflow++;
		return;
	}
	if (o->fmt == COLLECT_FMT_JSON) {
		char *p = item_begin(o, key, klen, 1);

		*p++ = is_array ? '[' : '{';
		out_done(o, p);
	} else if (o->in_array) {
		o->lv[o->depth - 1].count++;
	}
	l = &o->lv[o->depth++];
	l->is_array = is_array;
	l->count = 0;
	if (o->fmt == COLLECT_FMT_TEXT && is_array) { /* for "key.N" */
		l->klen = key ? key_cut(klen) : 0;
		memcpy(l->key, key ? key : "", l->klen);
		l->key[l->klen] = '\0';
	}
	o->in_array = is_array;
	o->comma = 0;
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
	o->in_array = o->depth ? o->lv[o->depth - 1].is_array : 0;
	o->comma = o->depth != 0; /* the container was an item of its parent */
	if (o->fmt == COLLECT_FMT_JSON) {
		char *p = out_room(o, 1);

		*p++ = is_array ? ']' : '}';
		out_done(o, p);
	}
}

static const char start_line[] = "startDatagram =================================\n";
static const char end_line[] = "endDatagram   =================================\n";

void collect_out_begin_datagram(struct collect_out *o)
{
	o->depth = 0;
	o->overflow = 0;
	o->in_array = 0;
	o->comma = 0;
	o->prefix[0] = '\0';
	o->plen = 0;
	if (o->fmt == COLLECT_FMT_TEXT) {
		char *p = out_room(o, sizeof start_line);

		out_done(o, put(p, start_line, sizeof start_line - 1));
	}
	collect_out_container_k(o, NULL, 0, 0);
}

void collect_out_end_datagram(struct collect_out *o)
{
	char *p;

	while (o->depth > 1)
		container_end(o, o->lv[o->depth - 1].is_array);
	container_end(o, 0);
	o->prefix[0] = '\0';
	o->plen = 0;
	p = out_room(o, sizeof end_line);
	if (o->fmt == COLLECT_FMT_TEXT)
		p = put(p, end_line, sizeof end_line - 1);
	else
		*p++ = '\n';
	out_done(o, p);
	if (!o->batch)
		collect_out_flush(o);
}

void collect_out_end_object(struct collect_out *o)
{
	container_end(o, 0);
}

void collect_out_end_array(struct collect_out *o)
{
	container_end(o, 1);
}

void collect_out_text_k(struct collect_out *o, const char *line, size_t n)
{
	if (o->fmt == COLLECT_FMT_TEXT && !o->overflow) {
		char *p;

		if (n > PIECE)
			n = PIECE;
		p = out_room(o, n + 1);
		p = put(p, line, n);
		*p++ = '\n';
		out_done(o, p);
	}
}

/* ---- scalars */

void collect_out_u32_k(struct collect_out *o, const char *key, size_t klen, uint32_t v)
{
	char *p = item_begin(o, key, klen, NUM_ROOM);

	if (p)
		item_end(o, put_u32(p, v));
}

void collect_out_u64_k(struct collect_out *o, const char *key, size_t klen, uint64_t v)
{
	char *p = item_begin(o, key, klen, NUM_ROOM);

	if (p)
		item_end(o, put_u64(p, v));
}

void collect_out_i64_k(struct collect_out *o, const char *key, size_t klen, int64_t v)
{
	char *p = item_begin(o, key, klen, NUM_ROOM);

	if (p)
		item_end(o, put_i64(p, v));
}

void collect_out_u32_pair_k(struct collect_out *o, const char *key, size_t klen, uint32_t a,
			    uint32_t b)
{
	/* digits and ':' only: nothing to escape in either shape */
	char *p = item_begin(o, key, klen, 2 * NUM_ROOM + 3);
	int json = o->fmt == COLLECT_FMT_JSON;

	if (!p)
		return;
	if (json)
		*p++ = '"';
	p = put_u32(p, a);
	*p++ = ':';
	p = put_u32(p, b);
	if (json)
		*p++ = '"';
	item_end(o, p);
}

void collect_out_str_u32(struct collect_out *o, const char *key, const char *text, uint32_t v)
{
	/* text is a caller's constant without characters to escape */
	size_t n = strlen(text) < PIECE ? strlen(text) : PIECE;
	char *p = item_begin(o, key, COLLECT_OUT_KLEN(key), n + NUM_ROOM + 2);
	int json = o->fmt == COLLECT_FMT_JSON;

	if (!p)
		return;
	if (json)
		*p++ = '"';
	p = put(p, text, n);
	p = put_u32(p, v);
	if (json)
		*p++ = '"';
	item_end(o, p);
}

/* Upper-case hex pairs of every byte value, "00" to "FF". */
static const char hex_pairs[512] = "000102030405060708090A0B0C0D0E0F"
				   "101112131415161718191A1B1C1D1E1F"
				   "202122232425262728292A2B2C2D2E2F"
				   "303132333435363738393A3B3C3D3E3F"
				   "404142434445464748494A4B4C4D4E4F"
				   "505152535455565758595A5B5C5D5E5F"
				   "606162636465666768696A6B6C6D6E6F"
				   "707172737475767778797A7B7C7D7E7F"
				   "808182838485868788898A8B8C8D8E8F"
				   "909192939495969798999A9B9C9D9E9F"
				   "A0A1A2A3A4A5A6A7A8A9AAABACADAEAF"
				   "B0B1B2B3B4B5B6B7B8B9BABBBCBDBEBF"
				   "C0C1C2C3C4C5C6C7C8C9CACBCCCDCECF"
				   "D0D1D2D3D4D5D6D7D8D9DADBDCDDDEDF"
				   "E0E1E2E3E4E5E6E7E8E9EAEBECEDEEEF"
				   "F0F1F2F3F4F5F6F7F8F9FAFBFCFDFEFF";

/* Hex bytes, upper case and '-' between pairs (sep), or lower case and
 * nothing between (MAC addresses). */
static void hex_value(struct collect_out *o, const char *key, size_t klen, const uint8_t *b,
		      size_t n, int sep)
{
	int json = o->fmt == COLLECT_FMT_JSON;
	char *p = item_begin(o, key, klen, (n < PIECE ? n : PIECE) * 3 + 2);
	size_t i = 0;

	if (!p)
		return;
	if (json)
		*p++ = '"';
	if (!sep) {
		for (; i < n; i++, p += 2) {
			if (i && i % PIECE == 0) {
				out_done(o, p);
				p = out_room(o, PIECE * 2 + 2);
			}
			p[0] = hex_lower[b[i] >> 4];
			p[1] = hex_lower[b[i] & 15];
		}
	} else if (n) {
		memcpy(p, hex_pairs + 2 * b[0], 2);
		p += 2;
		for (i = 1; i < n;) {
			size_t end = n - i < PIECE ? n : i + PIECE;

			/* the first piece has one byte more than PIECE: item_begin's
			 * ITEM_ROOM has room for it */
			if (i > 1) { /* the next piece */
				out_done(o, p);
				p = out_room(o, PIECE * 3 + 2);
			}
			for (; i < end; i++, p += 3) {
				p[0] = '-';
				memcpy(p + 1, hex_pairs + 2 * b[i], 2);
			}
		}
	}
	if (json)
		*p++ = '"';
	item_end(o, p);
}

void collect_out_hex_k(struct collect_out *o, const char *key, size_t klen, const uint8_t *p,
		       size_t n)
{
	hex_value(o, key, klen, p, n, 1);
}

void collect_out_hexl_k(struct collect_out *o, const char *key, size_t klen, const uint8_t *p,
			size_t n)
{
	hex_value(o, key, klen, p, n, 0);
}

/* Addresses: digits and separators only, nothing to escape. */

static inline char *put_ip4(char *p, const uint8_t *a)
{
	for (int i = 0; i < 4; i++) {
		unsigned v = a[i];

		if (i)
			*p++ = '.';
		if (v >= 100)
			*p++ = (char)('0' + v / 100);
		if (v >= 10)
			*p++ = (char)('0' + v / 10 % 10);
		*p++ = (char)('0' + v % 10);
	}
	return p;
}

static inline char *put_ip6(char *p, const uint8_t *a)
{
	for (int i = 0; i < 16; i += 2) {
		if (i)
			*p++ = ':';
		p[0] = hex_lower[a[i] >> 4];
		p[1] = hex_lower[a[i] & 15];
		p[2] = hex_lower[a[i + 1] >> 4];
		p[3] = hex_lower[a[i + 1] & 15];
		p += 4;
	}
	return p;
}

void collect_out_addr_k(struct collect_out *o, const char *key, size_t klen,
			const struct sflow_addr *a)
{
	char *p = item_begin(o, key, klen, 48);
	int json = o->fmt == COLLECT_FMT_JSON;

	if (!p)
		return;
	if (json)
		*p++ = '"';
	if (a->type == SFLOW_ADDR_IP4)
		p = put_ip4(p, a->a);
	else if (a->type == SFLOW_ADDR_IP6)
		p = put_ip6(p, a->a);
	else
		*p++ = '-';
	if (json)
		*p++ = '"';
	item_end(o, p);
}

void collect_out_ip4_k(struct collect_out *o, const char *key, size_t klen, const uint8_t *a)
{
	char *p = item_begin(o, key, klen, 18);
	int json = o->fmt == COLLECT_FMT_JSON;

	if (!p)
		return;
	if (json)
		*p++ = '"';
	p = put_ip4(p, a);
	if (json)
		*p++ = '"';
	item_end(o, p);
}

void collect_out_i32_array(struct collect_out *o, const char *key, const int32_t *v, size_t n)
{
	collect_out_begin_array(o, key);
	for (size_t i = 0; i < n; i++)
		collect_out_i64_k(o, NULL, 0, v[i]);
	collect_out_end_array(o);
}

void collect_out_unknown_body(struct collect_out *o, uint32_t length, const uint8_t *body)
{
	collect_out_u32(o, "unknownLength", length);
	if (body && length)
		collect_out_hex(o, "unknownBytes", body, length);
}
