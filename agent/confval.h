/*
 * confval.h - the one module for configuration values: reading a config
 * file within bounds, the lexical checks libconfuse does not make, the raw
 * values with their line, one error wording and one parser per kind of
 * value (integers, sizes, rates, times, percentages, enums, names, lists
 * and ranges).  Used by the daemon's sections (agent/conf.c), the model
 * section (agent/model/scenario.c) and the visibility section
 * (agent/visibility/vis_conf.c) alike; compiled into each library that
 * needs it, with no dependency on the daemon.
 *
 * The pattern: every value option is a libconfuse "pointer" option
 * (CONF_V / CONF_VL) whose parse callback only records the raw text and
 * the line it was on (struct conf_val).  The section's code checks the
 * values afterwards with the parsers below, when the file name and the
 * whole section are known.  Every message reads
 *
 *	FILE:LINE: SECTION key = value: problem; allowed: what is allowed
 *
 * SECTION is the path of sections, each `name: ` or `name "title": `
 * (e.g. `visibility: sampler "x": `), empty at the top level; the value
 * is quoted "..." when it is empty or holds blanks or quotes, and cut
 * after CONF_SHOW_MAX characters.  Messages about a key with no value
 * read `key: problem`, about a section `SECTION problem`.
 *
 * The grammar of each kind (bsflowd.conf(5), VALUES):
 *   integer   decimal digits with an optional sign ("010" is ten; hex is
 *             not accepted)
 *   number    a decimal number, point and exponent allowed
 *   fraction  a number or a percentage: "0.25" or "25%"
 *   size      bytes: a number, optional blanks, then optionally B, K, KB,
 *             KiB, M, MB, MiB, G, GB, GiB, T, TB or TiB in any case; every
 *             suffix is binary (K = KB = KiB = 1024), as the model and the
 *             visibility sections have always read them
 *   rate      bits/s: a number, then optionally K, M, G or T, bps, Kbps ..
 *             Tbps or b/s, Kb/s .. Tb/s in any case, all decimal (K = 1000)
 *   time      a number, then optionally ns, us, ms or s in any case; a bare
 *             number is seconds, for every key
 *   enum      one of a list of words, in any case
 *   boolean   yes/no, true/false, on/off, 1/0, in any case
 *   range     "N" or "A-B" of integers
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_CONFVAL_H
#define BSFLOWD_AGENT_CONFVAL_H

#include <confuse.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* ---- input bounds ---- */

/* The largest config file read, and its longest line (bytes, newline not
 * counted).  libconfuse takes time growing with the length of a token
 * (a 4 MiB number took 20 s to check), so input is bounded up front. */
#define CONF_FILE_MAX (1 << 20)
#define CONF_LINE_MAX 4096

/* Read a config file: a regular file (a FIFO, a device or a directory is
 * refused at once, without reading it) of at most CONF_FILE_MAX bytes,
 * with no NUL byte and no line longer than CONF_LINE_MAX.  The text
 * (free() it), or NULL with "PATH: reason" or "PATH:LINE: reason" in
 * err. */
char *conf_read_file(const char *path, char *err, size_t errlen);

/* Check text's length and line lengths as conf_read_file does (for text
 * given in memory): 0, or -1 with "NAME[:LINE]: reason" in err. */
int conf_check_text(const char *text, const char *name, char *err, size_t errlen);

/* ---- comments and what libconfuse's lexer lets through ---- */

/*
 * A copy of text with its comments blanked out (every byte of a comment
 * but its newlines becomes a space).  Works around libconfuse 3.3, whose
 * lexer counts the line of each # or // comment twice, so that every
 * error after a comment named the wrong line.  What is a comment, as
 * libconfuse reads it: # anywhere outside quotes; // and a C comment at
 * the start of a token (after a blank, a line start or one of = { } ( ) ,).
 * Quoted strings ("..." and '...', with backslash escapes) are left alone.
 *
 * libconfuse 3.3 also takes a C comment or a string left open as the end
 * of the file, silently: everything after it is lost.  Such text is
 * refused here: NULL with "NAME:LINE: comment not closed (the comment
 * opened here)" or "... string not closed ..." in err, LINE being where
 * it opened.  So is a key with nothing after its = on the line (libconfuse
 * would take the next line's first word as its value and complain there
 * about something else): "NAME:LINE: KEY: no value after =; ...".  NULL
 * with "NAME: out of memory" otherwise.  free() it.
 */
char *conf_blank_comments(const char *text, const char *name, char *err, size_t errlen);

/* ---- libconfuse's own messages ---- */

/* A message libconfuse passes to its error function (fmt, ap) in the one
 * wording: "no such option 'k'" becomes "k: unknown key; allowed: ...",
 * a duplicate section title likewise; others are formatted as they are.
 * The caller adds "FILE:LINE: " and the section. */
__attribute__((format(printf, 1, 0))) void conf_lib_message(const char *fmt, va_list ap, char *msg,
							    size_t size);

/* Parse text into root (from cfg_init) with libconfuse, name naming it in
 * messages: 0, or -1 with libconfuse's first message in err as "NAME:LINE:
 * SECTION message", in the one wording, SECTION the path of sections
 * (libconfuse's sections know no parent, nor the file's name).
 * libconfuse's error function has no user pointer, so the message goes
 * through a file-local sink that exists only during the call (not
 * reentrant; the daemon and bsflow-sim are single-threaded). */
int conf_lib_parse(cfg_t *root, const char *name, const char *text, char *err, size_t errlen);

/* ---- keys and sections given once ---- */

/*
 * libconfuse 3.3 keeps the last of a key given twice in a section, and
 * merges a section (not CFGF_MULTI) written twice, silently.  Every parse
 * callback calls conf_once(cfg, opt, value) first: -1, through cfg_error,
 * when opt was given before in this section, "KEY = VALUE: given twice
 * (first on line N); allowed: once" ("KEY: given twice ..." for a list,
 * whose `key = { ... }` counts once however many values it has; `key +=
 * { ... }` adds to it).  conf_lib_parse also refuses a section written
 * twice ("NAME: a second section of that name ...") and a list emptied by
 * a later `key = { }` (no callback sees it).
 *
 * conf_once_str, conf_once_int (decimal, as conf_parse_int) and conf_once_bool
 * (libconfuse's words) are the callbacks of plain CFG_STR_CB / CFG_INT_CB /
 * CFG_BOOL_CB options (and their _LIST_CB forms) that want the same check.
 */
int conf_once(cfg_t *cfg, cfg_opt_t *opt, const char *value);
int conf_once_str(cfg_t *cfg, cfg_opt_t *opt, const char *value, void *result);
int conf_once_int(cfg_t *cfg, cfg_opt_t *opt, const char *value, void *result);
int conf_once_bool(cfg_t *cfg, cfg_opt_t *opt, const char *value, void *result);

/* ---- raw values with their line ---- */

struct conf_val {
	int line;
	char text[];
};

/* The libconfuse callbacks behind CONF_V / CONF_VL.  A key given twice
 * in one section is refused (conf_once). */
int conf_val_parse(cfg_t *cfg, cfg_opt_t *opt, const char *value, void *result);
void conf_val_free(void *p);

#define CONF_V(name)  CFG_PTR_CB(name, NULL, CFGF_NONE, conf_val_parse, conf_val_free)
#define CONF_VL(name) CFG_PTR_LIST_CB(name, NULL, CFGF_NONE, conf_val_parse, conf_val_free)

/* The value of key in sec, or NULL (absent, or sec is NULL). */
const struct conf_val *conf_get(cfg_t *sec, const char *key);

/* The line of the first value set in sec (any key, nested sections
 * included), or sec's own line (libconfuse's: where it closes) when it
 * has none: the line messages about a whole section give. */
int conf_section_line(cfg_t *sec);

/* ---- error context ---- */

#define CONF_SHOW_MAX 64

struct conf_ctx {
	const char *file; /* the file's name, for messages */
	char *err;	  /* the message goes here */
	size_t errlen;
	char sect[160]; /* the section path, e.g. "visibility: sampler \"x\": " */
	int sect_line;	/* used when a message has no value; 0 for none */
};

/* Set x->sect to "TOP: " (top may be NULL or "") and, with name, append
 * `name "title": ` (title NULL: `name: `); the line is line. */
void conf_enter(struct conf_ctx *x, const char *top, const char *name, const char *title, int line);

/* Write "FILE:LINE: SECT key = value: message" into x->err and return -1.
 * v NULL: "key: message" at x->sect_line; key NULL too: "SECT message". */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
int conf_fail(struct conf_ctx *x, const struct conf_val *v, const char *key, const char *fmt,
	      ...);

/* v's text as messages show it (quoted when needed, cut when long). */
const char *conf_show(const char *text, char *buf, size_t size);

/* ---- value parsers ----
 * Each returns 0 with the result in *out, or -1 with the message in
 * x->err.  The conf_get_* forms read key from sec and return 0 leaving
 * *out untouched when it is absent. */

/* An integer in lo..hi. */
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

/* One of names[] (NULL-terminated, lower case), in any case: its index. */
int conf_enum(struct conf_ctx *x, const struct conf_val *v, const char *key,
	      const char *const *names, int *out);

/* A boolean (see above). */
int conf_bool(struct conf_ctx *x, const struct conf_val *v, const char *key, int *out);

/* A name of 1..size-1 characters copied into out; what ("sampler name")
 * is named in the message. */
int conf_name(struct conf_ctx *x, const struct conf_val *v, const char *key, const char *what,
	      char *out, size_t size);

/* A size in bytes in lo..hi. */
int conf_size(struct conf_ctx *x, const struct conf_val *v, const char *key, uint64_t lo,
	      uint64_t hi, uint64_t *out);

/* A rate in bits/s in lo..hi. */
int conf_rate(struct conf_ctx *x, const struct conf_val *v, const char *key, uint64_t lo,
	      uint64_t hi, uint64_t *out);

/* The longest time any key takes: 1e18 ns (about 31 years). */
#define CONF_TIME_MAX 1000000000000000000ULL

/* A time in ns in lo..hi (hi at most CONF_TIME_MAX: no bound). */
int conf_time(struct conf_ctx *x, const struct conf_val *v, const char *key, uint64_t lo,
	      uint64_t hi, uint64_t *out);

/* "N" or "A-B" with lo <= A <= B <= hi: *a and *b (equal for "N"). */
int conf_range(struct conf_ctx *x, const struct conf_val *v, const char *key, long long lo,
	       long long hi, long long *a, long long *b);

/* ---- the grammars alone (no message): 0, or -1 ---- */

int conf_parse_int(const char *s, long long *out);
int conf_parse_size(const char *s, double *bytes);
int conf_parse_rate(const char *s, double *bps);
int conf_parse_time(const char *s, uint64_t *ns);
int conf_parse_range(const char *s, long long *a, long long *b);

/* ---- network names ---- */

/* An IPv4 or IPv6 literal (1), a host name of RFC 1123 syntax: labels of
 * letters, digits and -, 1..63 characters, not starting or ending with
 * -, at most 253 characters, the last label not all digits (2), or
 * neither (0). */
int conf_host_kind(const char *s);

#endif
