/*
 * confval.h - checking config values read with libconfuse, shared by the
 * config sections that do their own checks (the model section,
 * agent/model/scenario.c, and the visibility section,
 * agent/visibility/vis_conf.c).
 *
 * The pattern: every value option is a libconfuse "pointer" option
 * (CONF_V / CONF_VL) whose parse callback only records the raw text and the
 * line it was on (struct conf_val).  The section's own code checks the
 * values afterwards with the parsers below, when the file name and the
 * whole section are known, so each error reads
 *
 *	FILE:LINE: [TOP][SECTION]key: problem
 *
 * (TOP is a fixed prefix such as "visibility: ", SECTION the sub-section
 * being read, such as "traffic \"x\": ").
 *
 * Independent of the daemon: compiled into each library that needs it.
 * Two wordings of the messages exist, one per section that used this
 * machinery first; the wording also decides whether enum words match
 * regardless of case (see enum conf_wording).  Where the two sections
 * accept different syntaxes for the same kind of value (times, byte
 * counts), both parsers are here under different names.
 */
#ifndef BSFLOWD_AGENT_CONFVAL_H
#define BSFLOWD_AGENT_CONFVAL_H

#include <confuse.h>
#include <stddef.h>
#include <stdint.h>

/* ---- comments ---- */

/*
 * A copy of text with its comments blanked out (every byte of a comment
 * but its newlines becomes a space), for libconfuse, whose 3.3 lexer
 * counts the line of each # or // comment twice, so that every error after
 * a comment named the wrong line.  What is a comment, as libconfuse reads
 * it: # anywhere outside quotes; // and a C comment at the start of a
 * token (after a blank, a line start or one of = { } ( ) ,).  Quoted
 * strings ("..." and '...', with backslash escapes) are left alone.
 * Returns NULL when out of memory; free() it.
 */
char *conf_blank_comments(const char *text);

/* ---- raw values with their line ---- */

struct conf_val {
	int line;
	char text[];
};

/* The libconfuse callbacks behind CONF_V / CONF_VL. */
int conf_val_parse(cfg_t *cfg, cfg_opt_t *opt, const char *value, void *result);
void conf_val_free(void *p);

#define CONF_V(name)  CFG_PTR_CB(name, NULL, CFGF_NONE, conf_val_parse, conf_val_free)
#define CONF_VL(name) CFG_PTR_LIST_CB(name, NULL, CFGF_NONE, conf_val_parse, conf_val_free)

/* The value of key in sec, or NULL (absent, or sec is NULL). */
const struct conf_val *conf_get(cfg_t *sec, const char *key);

/* ---- error context ---- */

enum conf_wording {
	/* values quoted '...', "N is out of range LO..HI", enum words match
	 * in any case (the model section) */
	CONF_WORDING_SINGLE = 0,
	/* values quoted "...", "N out of range (LO..HI)", enum words match
	 * exactly (the visibility section) */
	CONF_WORDING_DOUBLE,
};

struct conf_ctx {
	const char *file; /* the file's name, for messages */
	const char *top;  /* after "FILE:LINE: ", e.g. "visibility: "; "" for none */
	enum conf_wording wording;
	char *err; /* the message goes here */
	size_t errlen;
	char sect[96]; /* the sub-section being read, e.g. "port 3: "; "" for none */
	int sect_line; /* its line: used when a message has no value; 0 for none */
};

/* Write "FILE:LINE: TOP SECT key: message" into x->err and return -1.  The
 * line is v's, or x->sect_line if v is NULL; with neither the message
 * reads "FILE: ...".  key may be NULL. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
int conf_fail(struct conf_ctx *x, const struct conf_val *v, const char *key, const char *fmt,
	      ...);

/* ---- value parsers ----
 * Each returns 0 with the result in *out, or -1 with the message in
 * x->err.  The conf_get_* forms read key from sec and return 0 leaving
 * *out untouched when it is absent. */

/* A decimal integer in lo..hi. */
int conf_int(struct conf_ctx *x, const struct conf_val *v, const char *key, long long lo,
	     long long hi, long long *out);
int conf_get_int(struct conf_ctx *x, cfg_t *sec, const char *key, long long lo, long long hi,
		 long long *out);

/* A number in lo..hi, or above lo when lo_open. */
int conf_double(struct conf_ctx *x, const struct conf_val *v, const char *key, double lo, double hi,
		int lo_open, double *out);

/* A fraction in lo..hi: a number ("0.25") or a percentage ("25%"). */
int conf_frac(struct conf_ctx *x, const struct conf_val *v, const char *key, double lo, double hi,
	      double *out);

/* One of names[] (NULL-terminated): its index. */
int conf_enum(struct conf_ctx *x, const struct conf_val *v, const char *key,
	      const char *const *names, int *out);

/* true/yes/on/1 or false/no/off/0 (words in any case). */
int conf_bool(struct conf_ctx *x, const struct conf_val *v, const char *key, int *out);

/* A name of 1..size-1 characters copied into out.  The message names what
 * ("a sampler name of 1..N characters"); what NULL: "must be 1..N
 * characters". */
int conf_name(struct conf_ctx *x, const struct conf_val *v, const char *key, const char *what,
	      char *out, size_t size);

/* "N" or a range "A-B" of decimal integers: *a and *b (equal for "N").
 * Only the syntax is checked: 0, or -1 (no message). */
int conf_span(const char *s, long long *a, long long *b);

/* ---- decimal numbers with units (the model section's form) ----
 * A number (decimal point and exponent allowed), optional spaces, then
 * optionally one of the suffixes of a table, in any case.  A bare number
 * is worth nosuffix. */

struct conf_unit {
	const char *name;
	uint64_t mult;
};

/* bits/s: k m g t (powers of 1000), bps, kbps..tbps, b/s, kb/s..tb/s */
extern const struct conf_unit conf_rate_units[];
/* bytes: b k kb m mb g gb (powers of 1024) */
extern const struct conf_unit conf_byte_units[];
/* ns us ms s */
extern const struct conf_unit conf_time_units[];

/* 0 with the value in *out, or -1 (no message). */
int conf_units(const char *s, const struct conf_unit *units, double nosuffix, double *out);

/* Bytes (conf_byte_units), at most max. */
int conf_bytes(struct conf_ctx *x, const struct conf_val *v, const char *key, double max,
	       uint64_t *out);

/* A time in ns (conf_time_units; a bare number is seconds), at most 1e18. */
int conf_time(struct conf_ctx *x, const struct conf_val *v, const char *key, uint64_t *out);

/* ---- whole numbers with units (the visibility section's form) ----
 * Digits only, then a suffix written exactly (no space, no other case). */

/* "250ns", "10us", "5ms", "1s", or a bare number of seconds: 0 with the
 * value in *ns, or -1 (no message; also on overflow). */
int conf_parse_duration(const char *s, uint64_t *ns);

/* conf_parse_duration with a message; nonzero refuses 0. */
int conf_duration(struct conf_ctx *x, const struct conf_val *v, const char *key, int nonzero,
		  uint64_t *out);

/* A whole number; with bytes, a suffix K, M or G (powers of 1024) is
 * allowed. */
int conf_count(struct conf_ctx *x, const struct conf_val *v, const char *key, int bytes,
	       uint64_t *out);

#endif
