/*
 * confval.c - the configuration values module (see confval.h): bounded
 * file input, the lexical checks libconfuse skips, raw values with their
 * line, the one error wording and the parsers of every kind of value.
 * No dependency on the daemon: the model and the visibility libraries
 * each compile this file in.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include "agent/confhint.h"
#include "agent/confval.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- input bounds ---- */

int conf_check_text(const char *text, const char *name, char *err, size_t errlen)
{
	size_t n = 0, col = 0;
	int line = 1;

	for (const char *p = text; *p; p++, n++) {
		if (n >= CONF_FILE_MAX) {
			snprintf(err, errlen,
				 "%s: larger than %d bytes (a config file is at most %d)", name,
				 CONF_FILE_MAX, CONF_FILE_MAX);
			return -1;
		}
		if (*p == '\n') {
			line++;
			col = 0;
		} else if (++col > CONF_LINE_MAX) {
			snprintf(err, errlen, "%s:%d: line longer than %d characters", name, line,
				 CONF_LINE_MAX);
			return -1;
		}
	}
	return 0;
}

char *conf_read_file(const char *path, char *err, size_t errlen)
{
	/* O_NONBLOCK: opening a FIFO must not wait for a writer */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	char *buf;
	size_t len = 0;

	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: %s", path,
			 S_ISDIR(st.st_mode) ? strerror(EISDIR) : "not a regular file");
		close(fd);
		return NULL;
	}
	if (st.st_size > CONF_FILE_MAX) {
		snprintf(err, errlen, "%s: larger than %d bytes (a config file is at most %d)",
			 path, CONF_FILE_MAX, CONF_FILE_MAX);
		close(fd);
		return NULL;
	}
	buf = malloc(CONF_FILE_MAX + 2);
	if (!buf) {
		snprintf(err, errlen, "%s: out of memory", path);
		close(fd);
		return NULL;
	}
	/* read one byte more than allowed: a file that grew is refused too */
	while (len < CONF_FILE_MAX + 1) {
		ssize_t r = read(fd, buf + len, CONF_FILE_MAX + 1 - len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			free(buf);
			close(fd);
			return NULL;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	buf[len] = '\0';
	if (strlen(buf) != len) {
		snprintf(err, errlen, "%s: not a text file (it holds a NUL byte)", path);
		free(buf);
		return NULL;
	}
	if (conf_check_text(buf, path, err, errlen) < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* ---- comments ---- */

/* Blank text[i .. j) but its newlines. */
static void blank(char *t, size_t i, size_t j)
{
	for (; i < j; i++)
		if (t[i] != '\n')
			t[i] = ' ';
}

static int line_at(const char *t, size_t i)
{
	int line = 1;

	for (size_t k = 0; k < i; k++)
		line += t[k] == '\n';
	return line;
}

/* A key with nothing after its = on the line (t has no comments left):
 * libconfuse would take the next line's first word as the value and
 * complain there, about something else.  -1 with "NAME:LINE: KEY: no
 * value" in err. */
static int no_value(const char *t, const char *name, char *err, size_t errlen)
{
	for (size_t i = 0; t[i]; i++) {
		size_t j, k;

		if (t[i] == '"' || t[i] == '\'') {
			char q = t[i];

			for (i++; t[i] && t[i] != q; i++)
				if (t[i] == '\\' && t[i + 1])
					i++;
			if (!t[i])
				break;
			continue;
		}
		if (t[i] != '=')
			continue;
		for (j = i + 1; t[j] == ' ' || t[j] == '\t' || t[j] == '\r'; j++)
			;
		if (t[j] != '\n' && t[j] != '\0')
			continue;
		/* the key: the word before the = (or +=) */
		for (k = i; k > 0 && strchr(" \t+", t[k - 1]); k--)
			;
		j = k;
		while (k > 0 && !strchr(" \t\r\n{}=,()\"'", t[k - 1]))
			k--;
		snprintf(err, errlen,
			 "%s:%d: %.*s: no value after =; allowed: the value on the same line", name,
			 line_at(t, i), (int)(j - k < 64 ? j - k : 64), t + k);
		return -1;
	}
	return 0;
}

char *conf_blank_comments(const char *text, const char *name, char *err, size_t errlen)
{
	size_t n = strlen(text), i = 0;
	char *t = malloc(n + 1);

	if (!t) {
		snprintf(err, errlen, "%s: out of memory", name);
		return NULL;
	}
	memcpy(t, text, n + 1);
	while (i < n) {
		char c = t[i];
		int tok = i == 0 || strchr(" \t\r\n={}(),", t[i - 1]) != NULL;
		size_t j = i;

		if (c == '"' || c == '\'') {
			for (j = i + 1; j < n && t[j] != c; j++)
				if (t[j] == '\\' && j + 1 < n)
					j++;
			if (j >= n) {
				snprintf(err, errlen,
					 "%s:%d: string not closed (the %c opened here runs to the "
					 "end of the file)",
					 name, line_at(t, i), c);
				free(t);
				return NULL;
			}
			i = j + 1;
			continue;
		}
		if (c == '#' || (tok && c == '/' && t[i + 1] == '/')) {
			while (j < n && t[j] != '\n')
				j++;
			blank(t, i, j);
			i = j;
			continue;
		}
		if (tok && c == '/' && t[i + 1] == '*') {
			for (j = i + 2; j < n && !(t[j] == '*' && t[j + 1] == '/'); j++)
				;
			if (j >= n) {
				snprintf(err, errlen,
					 "%s:%d: comment not closed (the /* opened here has no */)",
					 name, line_at(t, i));
				free(t);
				return NULL;
			}
			blank(t, i, j + 2);
			i = j + 2;
			continue;
		}
		i++;
	}
	if (no_value(t, name, err, errlen) < 0) {
		free(t);
		return NULL;
	}
	return t;
}

/* ---- keys and sections given once ---- */

int conf_once(cfg_t *cfg, cfg_opt_t *opt, const char *value)
{
	char first[24];

	/* libconfuse 3.3 keeps the last of a key given twice and has freed
	 * the first by now: the line of the first is kept in the option's
	 * comment field (unused without CFGF_COMMENTS; freed with the option;
	 * each section has its own copy of its options).  A list's values
	 * come one call each: only the first of an assignment counts (libconfuse
	 * has just emptied the list for it: it holds this value alone); key +=
	 * { ... } adds to values already there.  A list's default values are
	 * set by cfg_init, before any line is read (line 0): not given. */
	if (opt->flags & CFGF_LIST) {
		if (opt->nvalues != 1 || cfg->line <= 0)
			return 0;
		if (opt->comment) {
			cfg_error(cfg,
				  "%s: given twice (first on line %s); allowed: once, with all "
				  "its values in one { }",
				  opt->name, opt->comment);
			return -1;
		}
	} else if (opt->comment) {
		cfg_error(cfg, "%s = %.*s: given twice (first on line %s); allowed: once",
			  opt->name, CONF_SHOW_MAX, value, opt->comment);
		return -1;
	}
	snprintf(first, sizeof(first), "%d", cfg->line);
	opt->comment = strdup(first);
	return opt->comment ? 0 : -1;
}

int conf_once_str(cfg_t *cfg, cfg_opt_t *opt, const char *value, void *result)
{
	if (conf_once(cfg, opt, value) < 0)
		return -1;
	*(const char **)result = value;
	return 0;
}

int conf_once_int(cfg_t *cfg, cfg_opt_t *opt, const char *value, void *result)
{
	long long n;

	if (conf_once(cfg, opt, value) < 0)
		return -1;
	/* the one integer grammar: decimal (libconfuse's own took 0x10 and
	 * read 010 as eight) */
	if (conf_parse_int(value, &n) < 0 || n < LONG_MIN || n > LONG_MAX) {
		cfg_error(cfg, "%s = %.*s: not an integer; allowed: decimal digits", opt->name,
			  CONF_SHOW_MAX, value);
		return -1;
	}
	*(long *)result = (long)n;
	return 0;
}

int conf_once_bool(cfg_t *cfg, cfg_opt_t *opt, const char *value, void *result)
{
	int b;

	if (conf_once(cfg, opt, value) < 0)
		return -1;
	b = cfg_parse_boolean(value);
	if (b < 0) {
		cfg_error(cfg,
			  "%s = %.*s: not a boolean; allowed: yes or no (true, false, on, off)",
			  opt->name, CONF_SHOW_MAX, value);
		return -1;
	}
	*(int *)result = b; /* libconfuse's cfg_setopt passes an int */
	return 0;
}

/* The first line of a value in s above line after (keys read by
 * conf_val_parse, nested sections included), or 0. */
static int first_line_after(cfg_t *s, int after);

/* A section (not CFGF_MULTI) written twice: libconfuse 3.3 merges the
 * second into the first silently.  Called as the section's validate
 * function when each one closes (cfg is the parent, at the line of the
 * closing brace): the line the first closed on is kept in the option's
 * comment field. */
static int sec_once(cfg_t *cfg, cfg_opt_t *opt)
{
	char first[24];

	if (opt->comment) {
		cfg_t *sec = cfg_opt_getnsec(opt, 0);
		int line = sec ? first_line_after(sec, atoi(opt->comment)) : 0;

		if (line > 0)
			cfg->line = line;
		cfg_error(cfg,
			  "%s: a second section of that name (the first ends on line %s); "
			  "allowed: one",
			  opt->name, opt->comment);
		return -1;
	}
	snprintf(first, sizeof(first), "%d", cfg->line);
	opt->comment = strdup(first);
	return opt->comment ? 0 : -1;
}

/* sec_once as the validate function of every section of opts (and of the
 * sections in them) that is not CFGF_MULTI, in the option trees of a
 * cfg_init'ed root (its own copies) and of the sections it holds. */
static void watch_sections(cfg_opt_t *opts)
{
	for (cfg_opt_t *o = opts; o && o->name; o++) {
		if (o->type != CFGT_SEC)
			continue;
		if (!(o->flags & CFGF_MULTI) && !o->validcb)
			o->validcb = sec_once;
		watch_sections(o->subopts);
		for (unsigned i = 0; i < cfg_opt_size(o); i++) {
			cfg_t *sec = cfg_opt_getnsec(o, i);

			if (sec)
				watch_sections(sec->opts);
		}
	}
}

/* A list given, then emptied by a later key = { } (which calls no
 * callback): its comment holds the first line, it holds no value.  The
 * first such key in s, or NULL. */
static cfg_opt_t *emptied_list(cfg_t *s, cfg_t **where)
{
	for (cfg_opt_t *o = s->opts; o && o->name; o++) {
		if ((o->flags & CFGF_LIST) && o->type != CFGT_SEC && o->comment &&
		    cfg_opt_size(o) == 0) {
			*where = s;
			return o;
		}
		if (o->type != CFGT_SEC)
			continue;
		for (unsigned i = 0; i < cfg_opt_size(o); i++) {
			cfg_t *sec = cfg_opt_getnsec(o, i);
			cfg_opt_t *e = sec ? emptied_list(sec, where) : NULL;

			if (e)
				return e;
		}
	}
	return NULL;
}

/* ---- libconfuse's own messages ---- */

void conf_lib_message(const char *fmt, va_list ap, char *msg, size_t size)
{
	if (strcmp(fmt, "no such option '%s'") == 0) {
		const char *key = va_arg(ap, const char *);

		snprintf(msg, size, "%s: unknown key; allowed: the keys of bsflowd.conf(5)", key);
	} else if (strcmp(fmt, "found duplicate title '%s'") == 0) {
		const char *title = va_arg(ap, const char *);

		snprintf(msg, size, "\"%s\": a second section of that name; allowed: one", title);
	} else {
		vsnprintf(msg, size, fmt, ap);
	}
}

/* libconfuse's error callback has no user pointer: the messages of the
 * parse in progress go to this file-local sink, which exists only during
 * conf_lib_parse() (the daemon and bsflow-sim are single-threaded). */
struct lib_sink {
	char *buf;
	size_t len;
	int nerr;
	cfg_t *root; /* for the file name, and the path of a section */
};

static struct lib_sink *lib_cur_sink;

/* The path of sections from root down to target, `name "title": ` each,
 * appended to buf: 1 when found.  (libconfuse's sections know no parent;
 * the one being read is already in its parent's values.) */
static int sect_path(cfg_t *root, cfg_t *target, char *buf, size_t size)
{
	for (cfg_opt_t *o = root->opts; o && o->name; o++) {
		if (o->type != CFGT_SEC)
			continue;
		for (unsigned i = 0; i < cfg_opt_size(o); i++) {
			cfg_t *sec = cfg_opt_getnsec(o, i);
			size_t n = strlen(buf);

			if (!sec)
				continue;
			if (sec->title)
				snprintf(buf + n, size - n, "%s \"%s\": ", sec->name, sec->title);
			else
				snprintf(buf + n, size - n, "%s: ", sec->name);
			if (sec == target || sect_path(sec, target, buf, size))
				return 1;
			buf[n] = '\0';
		}
	}
	return 0;
}

__attribute__((format(printf, 2, 0))) static void lib_errfunc(cfg_t *cfg, const char *fmt,
							      va_list ap)
{
	struct lib_sink *s = lib_cur_sink;
	char msg[512], sect[200];
	const char *file;
	size_t used;
	int line;

	va_list ap2;

	if (!s)
		return;
	va_copy(ap2, ap);
	conf_lib_message(fmt, ap, msg, sizeof msg);
	if (strcmp(fmt, "no such option '%s'") == 0)
		conf_hint_unknown(cfg, s->root, va_arg(ap2, const char *), msg, sizeof msg);
	va_end(ap2);
	s->nerr++;
	if (s->nerr > 1)
		return; /* the first error is the one that matters */
	used = strlen(s->buf);
	file = cfg && cfg->filename ? cfg->filename : s->root ? s->root->filename : NULL;
	line = cfg && cfg->line > 0 ? cfg->line : s->root ? s->root->line : 0;
	/* inside a section: name it, as the sections' own checks do */
	sect[0] = '\0';
	if (cfg && s->root && cfg != s->root && !sect_path(s->root, cfg, sect, sizeof sect))
		snprintf(sect, sizeof sect, "%s: ", cfg->name);
	if (file && line > 0)
		snprintf(s->buf + used, s->len - used, "%s:%d: %s%s", file, line, sect, msg);
	else if (file)
		snprintf(s->buf + used, s->len - used, "%s: %s%s", file, sect, msg);
	else
		snprintf(s->buf + used, s->len - used, "%s%s", sect, msg);
}

int conf_lib_parse(cfg_t *root, const char *name, const char *text, char *err, size_t errlen)
{
	struct lib_sink sink = {err, errlen, 0, root};
	char *file = strdup(name);
	FILE *f;
	int r;

	err[0] = '\0';
	if (!file) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -1;
	}
	free(root->filename);
	root->filename = file;
	cfg_set_error_function(root, lib_errfunc);
	/* cfg_parse_buf would name the file "[buf]" */
	f = fmemopen((void *)text, strlen(text), "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s", name, strerror(errno));
		return -1;
	}
	watch_sections(root->opts);
	lib_cur_sink = &sink;
	r = cfg_parse_fp(root, f);
	if (r == CFG_SUCCESS) {
		cfg_t *sec = root;
		cfg_opt_t *e = emptied_list(root, &sec);

		if (e) {
			sec->line = atoi(e->comment);
			cfg_error(
			    sec,
			    "%s: given twice (first on line %s, emptied by a later %s = { }); "
			    "allowed: once",
			    e->name, e->comment, e->name);
			r = CFG_PARSE_ERROR;
		}
	}
	lib_cur_sink = NULL;
	fclose(f);
	if (r == CFG_SUCCESS)
		return 0;
	if (!err[0])
		snprintf(err, errlen, "%s: cannot parse", name);
	return -1;
}

/* ---- raw values with their line ---- */

int conf_val_parse(cfg_t *cfg, cfg_opt_t *opt, const char *value, void *result)
{
	size_t n = strlen(value);
	struct conf_val *v;

	if (conf_once(cfg, opt, value) < 0)
		return -1;
	v = malloc(sizeof(*v) + n + 1);
	if (!v)
		return -1;
	v->line = cfg->line;
	memcpy(v->text, value, n + 1);
	*(void **)result = v;
	return 0;
}

void conf_val_free(void *p)
{
	free(p);
}

const struct conf_val *conf_get(cfg_t *sec, const char *key)
{
	return sec ? cfg_getptr(sec, key) : NULL;
}

static int first_line_after(cfg_t *s, int after)
{
	int line = 0;

	for (cfg_opt_t *o = s->opts; o && o->name; o++) {
		for (unsigned i = 0; i < cfg_opt_size(o); i++) {
			int l = 0;

			if (o->type == CFGT_PTR && o->parsecb == conf_val_parse) {
				const struct conf_val *v = cfg_opt_getnptr(o, i);

				l = v ? v->line : 0;
			} else if (o->type == CFGT_SEC) {
				l = first_line_after(cfg_opt_getnsec(o, i), after);
			}
			if (l > after && (line == 0 || l < line))
				line = l;
		}
	}
	return line;
}

int conf_section_line(cfg_t *sec)
{
	int line = first_line_after(sec, 0);

	return line > 0 ? line : sec->line;
}

/* ---- error context ---- */

void conf_enter(struct conf_ctx *x, const char *top, const char *name, const char *title, int line)
{
	size_t n;

	x->sect[0] = '\0';
	if (top && *top)
		snprintf(x->sect, sizeof(x->sect), "%s: ", top);
	n = strlen(x->sect);
	if (name && title)
		snprintf(x->sect + n, sizeof(x->sect) - n, "%s \"%.40s\": ", name, title);
	else if (name)
		snprintf(x->sect + n, sizeof(x->sect) - n, "%s: ", name);
	x->sect_line = line;
}

const char *conf_show(const char *text, char *buf, size_t size)
{
	size_t n = strlen(text);
	int quote = n == 0 || strpbrk(text, " \t\r\n\"'") != NULL;
	size_t k = 0;

	if (size < 8)
		return "";
	if (quote)
		buf[k++] = '"';
	for (size_t i = 0; i < n && k + 6 < size; i++) {
		unsigned char c = (unsigned char)text[i];

		if (i == CONF_SHOW_MAX) {
			memcpy(buf + k, "...", 3);
			k += 3;
			break;
		}
		buf[k++] = c == '\n' || c == '\t' || c == '\r' ? ' ' : (char)c;
	}
	if (quote)
		buf[k++] = '"';
	buf[k] = '\0';
	return buf;
}

int conf_fail(struct conf_ctx *x, const struct conf_val *v, const char *key, const char *fmt, ...)
{
	int line = v ? v->line : 0;
	char msg[400], what[CONF_SHOW_MAX + 120], shown[CONF_SHOW_MAX + 8];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line <= 0)
		line = x->sect_line;
	what[0] = '\0';
	if (key && v)
		snprintf(what, sizeof(what), "%s = %s: ", key,
			 conf_show(v->text, shown, sizeof(shown)));
	else if (key)
		snprintf(what, sizeof(what), "%s: ", key);
	if (line > 0)
		snprintf(x->err, x->errlen, "%s:%d: %s%s%s", x->file, line, x->sect, what, msg);
	else
		snprintf(x->err, x->errlen, "%s: %s%s%s", x->file, x->sect, what, msg);
	return -1;
}

/* ---- the grammars ---- */

/* The end of a decimal number at s (digits, a point, an exponent; a sign
 * when sign_ok), or NULL when there is none.  strtod alone would also take
 * blanks, hex, inf and nan. */
static const char *scan_number(const char *s, int sign_ok)
{
	const char *p = s;
	int digits = 0;

	if (sign_ok && (*p == '-' || *p == '+'))
		p++;
	while (*p >= '0' && *p <= '9')
		p++, digits++;
	if (*p == '.') {
		p++;
		while (*p >= '0' && *p <= '9')
			p++, digits++;
	}
	if (!digits)
		return NULL;
	if ((*p == 'e' || *p == 'E')) {
		const char *e = p + 1;

		if (*e == '-' || *e == '+')
			e++;
		if (*e >= '0' && *e <= '9') {
			while (*e >= '0' && *e <= '9')
				e++;
			p = e;
		}
	}
	return p;
}

int conf_parse_int(const char *s, long long *out)
{
	const char *p = s;
	char *end;

	if (*p == '-' || *p == '+')
		p++;
	if (*p < '0' || *p > '9')
		return -1;
	errno = 0;
	*out = strtoll(s, &end, 10);
	return *end || errno ? -1 : 0;
}

struct unit {
	const char *name;
	double mult;
};

/* A number (no sign), optional blanks, then one of units (any case) or
 * none (worth bare). */
static int parse_units(const char *s, const struct unit *units, double bare, double *out)
{
	const char *end = scan_number(s, 0);
	double d;

	if (!end)
		return -1;
	d = strtod(s, NULL);
	if (!isfinite(d))
		return -1;
	while (*end == ' ' || *end == '\t')
		end++;
	if (!*end) {
		*out = d * bare;
		return isfinite(*out) ? 0 : -1;
	}
	for (; units->name; units++) {
		if (strcasecmp(end, units->name) == 0) {
			*out = d * units->mult;
			return isfinite(*out) ? 0 : -1;
		}
	}
	return -1;
}

static const struct unit size_units[] = {{"b", 1},
					 {"k", 1024.0},
					 {"kb", 1024.0},
					 {"kib", 1024.0},
					 {"m", 1048576.0},
					 {"mb", 1048576.0},
					 {"mib", 1048576.0},
					 {"g", 1073741824.0},
					 {"gb", 1073741824.0},
					 {"gib", 1073741824.0},
					 {"t", 1099511627776.0},
					 {"tb", 1099511627776.0},
					 {"tib", 1099511627776.0},
					 {NULL, 0}};

static const struct unit rate_units[] = {
    {"k", 1e3},	   {"m", 1e6},	  {"g", 1e9},	 {"t", 1e12},	 {"bps", 1},
    {"kbps", 1e3}, {"mbps", 1e6}, {"gbps", 1e9}, {"tbps", 1e12}, {"b/s", 1},
    {"kb/s", 1e3}, {"mb/s", 1e6}, {"gb/s", 1e9}, {"tb/s", 1e12}, {NULL, 0}};

static const struct unit time_units[] = {
    {"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}, {NULL, 0}};

int conf_parse_size(const char *s, double *bytes)
{
	return parse_units(s, size_units, 1, bytes);
}

int conf_parse_rate(const char *s, double *bps)
{
	return parse_units(s, rate_units, 1, bps);
}

int conf_parse_time(const char *s, uint64_t *ns)
{
	double d;

	if (parse_units(s, time_units, 1e9, &d) < 0 || d > (double)CONF_TIME_MAX)
		return -1;
	*ns = (uint64_t)llround(d);
	return 0;
}

int conf_parse_range(const char *s, long long *a, long long *b)
{
	const char *dash;
	char first[32];
	size_t n;

	/* the dash between the two: not a sign of the first */
	dash = strchr(s + (*s == '-' || *s == '+'), '-');
	if (!dash) {
		if (conf_parse_int(s, a) < 0)
			return -1;
		*b = *a;
		return 0;
	}
	n = (size_t)(dash - s);
	if (n == 0 || n >= sizeof(first))
		return -1;
	memcpy(first, s, n);
	first[n] = '\0';
	if (conf_parse_int(first, a) < 0 || conf_parse_int(dash + 1, b) < 0)
		return -1;
	return 0;
}

/* ---- value parsers ---- */

int conf_int(struct conf_ctx *x, const struct conf_val *v, const char *key, long long lo,
	     long long hi, long long *out)
{
	long long n;

	if (conf_parse_int(v->text, &n) < 0)
		return conf_fail(x, v, key, "not an integer; allowed: %lld..%lld", lo, hi);
	if (n < lo || n > hi)
		return conf_fail(x, v, key, "out of range; allowed: %lld..%lld", lo, hi);
	*out = n;
	return 0;
}

int conf_get_int(struct conf_ctx *x, cfg_t *sec, const char *key, long long lo, long long hi,
		 long long *out)
{
	const struct conf_val *v = conf_get(sec, key);

	return v ? conf_int(x, v, key, lo, hi, out) : 0;
}

int conf_double(struct conf_ctx *x, const struct conf_val *v, const char *key, double lo, double hi,
		int lo_open, double *out)
{
	const char *end = scan_number(v->text, 1);
	double d;

	if (!end || *end)
		return conf_fail(x, v, key, "not a number; allowed: %s%g..%g",
				 lo_open ? "above " : "", lo, hi);
	d = strtod(v->text, NULL);
	if (!isfinite(d) || (lo_open ? d <= lo : d < lo) || d > hi)
		return conf_fail(x, v, key, "out of range; allowed: %s%g..%g",
				 lo_open ? "above " : "", lo, hi);
	*out = d;
	return 0;
}

int conf_frac(struct conf_ctx *x, const struct conf_val *v, const char *key, double lo, double hi,
	      double *out)
{
	const char *end = scan_number(v->text, 1);
	double d;

	if (!end || (*end && strcmp(end, "%") != 0))
		return conf_fail(x, v, key,
				 "not a fraction; allowed: %g..%g or a percentage %g%%..%g%%", lo,
				 hi, lo * 100, hi * 100);
	d = strtod(v->text, NULL);
	if (*end == '%')
		d /= 100.0;
	if (!(d >= lo && d <= hi))
		return conf_fail(x, v, key,
				 "out of range; allowed: %g..%g or a percentage %g%%..%g%%", lo, hi,
				 lo * 100, hi * 100);
	*out = d;
	return 0;
}

/* names[] joined with ", " into buf. */
static const char *join(const char *const *names, char *buf, size_t size)
{
	buf[0] = '\0';
	for (int i = 0; names[i]; i++) {
		strncat(buf, i ? ", " : "", size - strlen(buf) - 1);
		strncat(buf, names[i], size - strlen(buf) - 1);
	}
	return buf;
}

int conf_enum(struct conf_ctx *x, const struct conf_val *v, const char *key,
	      const char *const *names, int *out)
{
	char list[240];

	for (int i = 0; names[i]; i++) {
		if (strcasecmp(v->text, names[i]) == 0) {
			*out = i;
			return 0;
		}
	}
	return conf_fail(x, v, key, "unknown word; allowed: %s", join(names, list, sizeof(list)));
}

int conf_bool(struct conf_ctx *x, const struct conf_val *v, const char *key, int *out)
{
	static const char *const yes[] = {"yes", "true", "on", "1", NULL};
	static const char *const no[] = {"no", "false", "off", "0", NULL};

	for (int i = 0; yes[i]; i++) {
		if (strcasecmp(v->text, yes[i]) == 0) {
			*out = 1;
			return 0;
		}
		if (strcasecmp(v->text, no[i]) == 0) {
			*out = 0;
			return 0;
		}
	}
	return conf_fail(x, v, key,
			 "not a boolean; allowed: yes or no (true, false, on, off, 1, 0)");
}

int conf_name(struct conf_ctx *x, const struct conf_val *v, const char *key, const char *what,
	      char *out, size_t size)
{
	size_t n = strlen(v->text);

	if (n == 0 || n >= size)
		return conf_fail(x, v, key, "%s; allowed: a %s of 1..%zu characters",
				 n ? "too long" : "empty", what ? what : "name", size - 1);
	memcpy(out, v->text, n + 1);
	return 0;
}

/* A byte count as written in the docs: with the largest binary suffix
 * that divides it. */
static const char *fmt_size(uint64_t b, char *buf, size_t size)
{
	static const char sfx[] = "KMGT";
	int k = -1;

	while (b && k < 3 && b % 1024 == 0) {
		b /= 1024;
		k++;
	}
	if (k >= 0)
		snprintf(buf, size, "%llu%c", (unsigned long long)b, sfx[k]);
	else
		snprintf(buf, size, "%llu", (unsigned long long)b);
	return buf;
}

int conf_size(struct conf_ctx *x, const struct conf_val *v, const char *key, uint64_t lo,
	      uint64_t hi, uint64_t *out)
{
	char a[32], b[32];
	double d;

	if (conf_parse_size(v->text, &d) < 0)
		return conf_fail(x, v, key,
				 "not a size; allowed: %s..%s bytes, suffix K, M, G or T (powers "
				 "of 1024)",
				 fmt_size(lo, a, sizeof(a)), fmt_size(hi, b, sizeof(b)));
	if (d < (double)lo || d > (double)hi)
		return conf_fail(x, v, key, "out of range; allowed: %s..%s bytes",
				 fmt_size(lo, a, sizeof(a)), fmt_size(hi, b, sizeof(b)));
	*out = (uint64_t)llround(d);
	return 0;
}

static const char *fmt_rate(uint64_t r, char *buf, size_t size)
{
	static const char sfx[] = "KMGT";
	int k = -1;

	while (r && k < 3 && r % 1000 == 0) {
		r /= 1000;
		k++;
	}
	if (k >= 0)
		snprintf(buf, size, "%llu%c", (unsigned long long)r, sfx[k]);
	else
		snprintf(buf, size, "%llu", (unsigned long long)r);
	return buf;
}

int conf_rate(struct conf_ctx *x, const struct conf_val *v, const char *key, uint64_t lo,
	      uint64_t hi, uint64_t *out)
{
	char a[32], b[32];
	double d;

	if (conf_parse_rate(v->text, &d) < 0)
		return conf_fail(x, v, key,
				 "not a rate; allowed: %s..%s bits/s, suffix K, M, G or T "
				 "(powers of 1000)",
				 fmt_rate(lo, a, sizeof(a)), fmt_rate(hi, b, sizeof(b)));
	if (d < (double)lo || d > (double)hi)
		return conf_fail(x, v, key, "out of range; allowed: %s..%s bits/s",
				 fmt_rate(lo, a, sizeof(a)), fmt_rate(hi, b, sizeof(b)));
	*out = (uint64_t)llround(d);
	return 0;
}

/* A time as written in the docs, with the largest unit that divides it;
 * a bound of 1e18 ns (the most any key takes) is no bound: "". */
static const char *fmt_time(uint64_t ns, char *buf, size_t size)
{
	static const char *const sfx[] = {"ns", "us", "ms", "s"};
	int k = 0;

	while (ns && k < 3 && ns % 1000 == 0) {
		ns /= 1000;
		k++;
	}
	snprintf(buf, size, "%llu%s", (unsigned long long)ns, sfx[k]);
	return buf;
}

int conf_time(struct conf_ctx *x, const struct conf_val *v, const char *key, uint64_t lo,
	      uint64_t hi, uint64_t *out)
{
	char a[32], b[32];
	char range[80];
	uint64_t ns;

	fmt_time(lo, a, sizeof(a));
	if (hi >= CONF_TIME_MAX)
		snprintf(range, sizeof(range), "%s and up", a);
	else
		snprintf(range, sizeof(range), "%s..%s", a, fmt_time(hi, b, sizeof(b)));
	if (conf_parse_time(v->text, &ns) < 0)
		return conf_fail(x, v, key,
				 "not a time; allowed: %s, a number with ns, us, ms or s (a bare "
				 "number is seconds)",
				 range);
	if (ns < lo || ns > hi)
		return conf_fail(x, v, key, "out of range; allowed: %s", range);
	*out = ns;
	return 0;
}

int conf_range(struct conf_ctx *x, const struct conf_val *v, const char *key, long long lo,
	       long long hi, long long *a, long long *b)
{
	if (conf_parse_range(v->text, a, b) < 0)
		return conf_fail(x, v, key, "not a number or a range A-B; allowed: %lld..%lld", lo,
				 hi);
	if (*a > *b)
		return conf_fail(x, v, key,
				 "not a range (A above B); allowed: A-B with A <= B in "
				 "%lld..%lld",
				 lo, hi);
	if (*a < lo || *b > hi)
		return conf_fail(x, v, key, "out of range; allowed: %lld..%lld", lo, hi);
	return 0;
}

/* ---- network names ---- */

int conf_host_kind(const char *s)
{
	unsigned char buf[16];
	size_t n = strlen(s), label = 0;
	int alldigits = 1;

	if (inet_pton(AF_INET, s, buf) == 1 || inet_pton(AF_INET6, s, buf) == 1)
		return 1;
	if (n == 0 || n > 254 || (n == 254 && s[253] != '.'))
		return 0;
	for (size_t i = 0; i <= n; i++) {
		char c = s[i];

		if (c == '.' || c == '\0') {
			if (label == 0)
				return c == '\0' && i == n && i > 0 && s[i - 1] == '.' ? 1 : 0;
			if (s[i - 1] == '-' || label > 63)
				return 0;
			if (c == '\0' || (c == '.' && i + 1 == n)) {
				/* the last label */
				return alldigits ? 0 : 2;
			}
			label = 0;
			alldigits = 1;
			continue;
		}
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '-'))
			return 0;
		if (c == '-' && label == 0)
			return 0;
		if (c < '0' || c > '9')
			alldigits = 0;
		label++;
	}
	return 0;
}
