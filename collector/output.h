/*
 * output.h - bsflow-collect's output abstraction: one API, two shapes.
 *
 * Every decoded field goes through these calls, so the printers
 * (print.c, print_own.c) never know whether they write sflowtool-style
 * text or JSON:
 *
 *   text (default)  one "key value" line per field, like sflowtool's
 *                   default output.  Objects and arrays print no brackets;
 *                   an element of an array that has no key of its own is
 *                   printed as "arraykey.N value" (N from 0), e.g.
 *                   "bst_egress_queue_uc_pc.0 10000".
 *   json (-j)       one JSON object per datagram on one line, shaped like
 *                   sflowtool -j; numbers are JSON numbers (64-bit values
 *                   printed exactly), strings are escaped.
 *
 * Rules for callers: inside an object pass a key to every call; inside an
 * array pass key NULL (JSON array elements have no names).  Nesting is
 * limited to COLLECT_OUT_MAXDEPTH levels; deeper calls are ignored.
 * collect_out_text() prints a line in text mode only (the sflowtool
 * "startSample ----" markers); everything else appears in both shapes.
 * Nothing here calls printf (but collect_out_strf): numbers and addresses
 * are formatted by hand into a buffer that goes out with one write per
 * datagram, or per buffer-full for a capture read to a file.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_COLLECT_OUTPUT_H
#define BSFLOWD_COLLECT_OUTPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "proto/sflow.h"

#define COLLECT_OUT_MAXDEPTH 16
#define COLLECT_OUT_KEYMAX   64
#define COLLECT_OUT_BUFSZ    65536

enum collect_fmt {
	COLLECT_FMT_TEXT = 0,
	COLLECT_FMT_JSON = 1,
};

struct collect_out_level {
	int is_array;
	int count;		      /* text mode: items emitted so far in this array */
	size_t klen;		      /* text mode: strlen(key) */
	char key[COLLECT_OUT_KEYMAX]; /* text mode: the array's key, for "key.N" */
};

struct collect_out {
	enum collect_fmt fmt;
	FILE *fp;
	int depth;    /* open containers */
	int overflow; /* containers opened beyond MAXDEPTH, ignored */
	int in_array; /* the innermost open container is an array */
	int comma;    /* JSON: the next item in it needs a ',' before it */
	struct collect_out_level lv[COLLECT_OUT_MAXDEPTH];
	char prefix[COLLECT_OUT_KEYMAX];
	size_t plen; /* strlen(prefix) */
	/* Context for print_own.c, set by print.c: */
	uint32_t own_enterprise; /* the configured own enterprise (-e) */
	uint32_t sample_tag;	 /* tag of the sample whose records are printed */
	/* print.c's "localtime" of the second lt_sec (if lt_valid), lt_len
	 * bytes, kept from one datagram to the next */
	int lt_valid;
	int64_t lt_sec;
	size_t lt_len;
	char lt_buf[64];
	/* Output is formatted by hand into this buffer and written to fp in
	 * one piece at the end of a datagram (or when it fills).  With batch
	 * set (a capture read to a file of its own) the end of a datagram does
	 * not write: the buffer goes out when full and at collect_out_flush. */
	int batch;
	size_t olen;
	char obuf[COLLECT_OUT_BUFSZ];
};

void collect_out_init(struct collect_out *o, enum collect_fmt fmt, FILE *fp);

/* A whole datagram: JSON "{" ... "}\n"; text "startDatagram ===..." /
 * "endDatagram ===..." marker lines.  The end writes and flushes the
 * datagram's output to fp. */
void collect_out_begin_datagram(struct collect_out *o);
void collect_out_end_datagram(struct collect_out *o);
/* Write what is buffered to fp and flush it (end_datagram does this
 * unless o->batch). */
void collect_out_flush(struct collect_out *o);

/*
 * Every call below that takes a key is an inline wrapper passing the key's
 * length to an out-of-line function (the *_k form): for the string
 * constants the printers pass, the compiler counts it, so nothing measures
 * a key at run time.  Keys are at most COLLECT_OUT_KEYMAX - 1 bytes (a
 * longer one is cut).
 */
#define COLLECT_OUT_KLEN(key) ((key) ? __builtin_strlen(key) : 0)

/* Containers.  key NULL inside arrays. */
void collect_out_container_k(struct collect_out *o, const char *key, size_t klen, int is_array);
void collect_out_end_object(struct collect_out *o);
void collect_out_end_array(struct collect_out *o);
static inline void collect_out_begin_object(struct collect_out *o, const char *key)
{
	collect_out_container_k(o, key, COLLECT_OUT_KLEN(key), 0);
}
static inline void collect_out_begin_array(struct collect_out *o, const char *key)
{
	collect_out_container_k(o, key, COLLECT_OUT_KLEN(key), 1);
}

/* A prefix put before every key printed from now on, in both shapes, until
 * changed; NULL or "" for none.  sflowtool prints the records of a discard
 * sample with the prefix "discarded_" ("discarded_flowBlock_tag 0:1"). */
void collect_out_set_prefix(struct collect_out *o, const char *prefix);

/* A line printed only in text mode, as is (a newline is added). */
void collect_out_text_k(struct collect_out *o, const char *line, size_t n);
static inline void collect_out_text(struct collect_out *o, const char *line)
{
	collect_out_text_k(o, line, __builtin_strlen(line));
}

/* Scalars. */
void collect_out_u32_k(struct collect_out *o, const char *key, size_t klen, uint32_t v);
void collect_out_u64_k(struct collect_out *o, const char *key, size_t klen, uint64_t v);
void collect_out_i64_k(struct collect_out *o, const char *key, size_t klen, int64_t v);
static inline void collect_out_u32(struct collect_out *o, const char *key, uint32_t v)
{
	collect_out_u32_k(o, key, COLLECT_OUT_KLEN(key), v);
}
static inline void collect_out_u64(struct collect_out *o, const char *key, uint64_t v)
{
	collect_out_u64_k(o, key, COLLECT_OUT_KLEN(key), v);
}
static inline void collect_out_i64(struct collect_out *o, const char *key, int64_t v)
{
	collect_out_i64_k(o, key, COLLECT_OUT_KLEN(key), v);
}
/* A string of n bytes, not necessarily NUL-terminated (wire strings);
 * JSON-escaped in JSON, printed raw in text (control characters, \ and
 * non-printables as \xNN in text). */
void collect_out_strn_k(struct collect_out *o, const char *key, size_t klen, const char *s,
			size_t n);
static inline void collect_out_strn(struct collect_out *o, const char *key, const char *s, size_t n)
{
	collect_out_strn_k(o, key, COLLECT_OUT_KLEN(key), s, n);
}
/* s[0..n), a string from the wire, written at p as the JSON output writes
 * it between its quotes (escapes for '"', '\\' and control bytes), but a
 * byte from 0x80 on as the two UTF-8 bytes of that Latin-1 character
 * rather than its \u00NN escape: valid UTF-8 without a NUL, for text that
 * is not JSON (pcapng comments).  At most 6 * n bytes; returns the end. */
char *collect_utf8_piece(char *p, const char *s, size_t n);
/* NUL-terminated string. */
static inline void collect_out_str(struct collect_out *o, const char *key, const char *s)
{
	collect_out_strn_k(o, key, COLLECT_OUT_KLEN(key), s, __builtin_strlen(s));
}
/* printf-style string value (not for the hot paths). */
void collect_out_strf(struct collect_out *o, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Two numbers as the string "a:b" (sourceId, tags). */
void collect_out_u32_pair_k(struct collect_out *o, const char *key, size_t klen, uint32_t a,
			    uint32_t b);
static inline void collect_out_u32_pair(struct collect_out *o, const char *key, uint32_t a,
					uint32_t b)
{
	collect_out_u32_pair_k(o, key, COLLECT_OUT_KLEN(key), a, b);
}
/* The string "<text><v>" ("dropCode 258"); text must need no escaping. */
void collect_out_str_u32(struct collect_out *o, const char *key, const char *text, uint32_t v);
/* Bytes as sflowtool prints header bytes: upper-case hex pairs joined by
 * '-' ("00-1B-21-..."); a string in JSON. */
void collect_out_hex_k(struct collect_out *o, const char *key, size_t klen, const uint8_t *p,
		       size_t n);
static inline void collect_out_hex(struct collect_out *o, const char *key, const uint8_t *p,
				   size_t n)
{
	collect_out_hex_k(o, key, COLLECT_OUT_KLEN(key), p, n);
}
/* n bytes as lower-case hex digits without separators, as a string: a MAC
 * address "020000000115" (sflowtool's srcMAC/dstMAC). */
void collect_out_hexl_k(struct collect_out *o, const char *key, size_t klen, const uint8_t *p,
			size_t n);
static inline void collect_out_hexl(struct collect_out *o, const char *key, const uint8_t *p,
				    size_t n)
{
	collect_out_hexl_k(o, key, COLLECT_OUT_KLEN(key), p, n);
}
/* A data_format tag as "enterprise:format" (a string in JSON). */
static inline void collect_out_tag(struct collect_out *o, const char *key, uint32_t tag)
{
	collect_out_u32_pair_k(o, key, COLLECT_OUT_KLEN(key), SFLOW_TAG_ENTERPRISE(tag),
			       SFLOW_TAG_FORMAT(tag));
}
/* An sFlow address as text (dotted quad, or 8 groups of 4 lower-case hex
 * digits for IPv6, as sflowtool prints them); "-" if unknown type. */
void collect_out_addr_k(struct collect_out *o, const char *key, size_t klen,
			const struct sflow_addr *a);
static inline void collect_out_addr(struct collect_out *o, const char *key,
				    const struct sflow_addr *a)
{
	collect_out_addr_k(o, key, COLLECT_OUT_KLEN(key), a);
}
/* Four bytes as a dotted quad, as collect_out_addr prints an IPv4 one. */
void collect_out_ip4_k(struct collect_out *o, const char *key, size_t klen, const uint8_t *p);
static inline void collect_out_ip4(struct collect_out *o, const char *key, const uint8_t *p)
{
	collect_out_ip4_k(o, key, COLLECT_OUT_KLEN(key), p);
}

/* Convenience: an array of signed 32-bit values (BST percentages): JSON
 * array of numbers; text one "key.N value" line per element. */
void collect_out_i32_array(struct collect_out *o, const char *key, const int32_t *v, size_t n);

/* The body of a record or sample the decoder did not know, after the
 * caller printed its tag ("flowBlock_tag 0:999"): "unknownLength N" and
 * "unknownBytes XX-XX-..." (the body, as collect_out_hex).  Used by
 * print.c and by print_own.c for own formats it does not know. */
void collect_out_unknown_body(struct collect_out *o, uint32_t length, const uint8_t *body);

#endif
