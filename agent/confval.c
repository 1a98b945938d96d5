/*
 * confval.c - raw config values with their line, the error context and
 * the value parsers shared by the config sections that check their own
 * values (see confval.h).  No dependency on the daemon: the model and the
 * visibility libraries each compile this file in.
 */
#include "config.h"

#include "agent/confval.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- comments ---- */

/* Blank text[i .. j) but its newlines. */
static void blank(char *t, size_t i, size_t j)
{
	for (; i < j; i++)
		if (t[i] != '\n')
			t[i] = ' ';
}

char *conf_blank_comments(const char *text)
{
	size_t n = strlen(text), i = 0;
	char *t = malloc(n + 1);

	if (!t)
		return NULL;
	memcpy(t, text, n + 1);
	while (i < n) {
		char c = t[i];
		int tok = i == 0 || strchr(" \t\r\n={}(),", t[i - 1]) != NULL;
		size_t j = i;

		if (c == '"' || c == '\'') {
			for (j = i + 1; j < n && t[j] != c; j++)
				if (t[j] == '\\' && j + 1 < n)
					j++;
			i = j < n ? j + 1 : n;
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
				/* not closed: left for libconfuse to report */
				i += 2;
				continue;
			}
			blank(t, i, j + 2);
			i = j + 2;
			continue;
		}
		i++;
	}
	return t;
}

/* ---- raw values with their line ---- */

int conf_val_parse(cfg_t *cfg, cfg_opt_t *opt, const char *value, void *result)
{
	size_t n = strlen(value);
	struct conf_val *v = malloc(sizeof(*v) + n + 1);

	(void)opt;
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

/* ---- error context ---- */

int conf_fail(struct conf_ctx *x, const struct conf_val *v, const char *key, const char *fmt, ...)
{
	const char *top = x->top ? x->top : "";
	int line = v ? v->line : 0;
	char msg[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line <= 0)
		line = x->sect_line;
	if (line > 0)
		snprintf(x->err, x->errlen, "%s:%d: %s%s%s%s%s", x->file, line, top, x->sect,
			 key ? key : "", key ? ": " : "", msg);
	else
		snprintf(x->err, x->errlen, "%s: %s%s%s%s%s", x->file, top, x->sect, key ? key : "",
			 key ? ": " : "", msg);
	return -1;
}

/* The quote around values in messages. */
static const char *q(const struct conf_ctx *x)
{
	return x->wording == CONF_WORDING_DOUBLE ? "\"" : "'";
}

/* ---- value parsers ---- */

int conf_int(struct conf_ctx *x, const struct conf_val *v, const char *key, long long lo,
	     long long hi, long long *out)
{
	int dq = x->wording == CONF_WORDING_DOUBLE;
	char *end;
	long long n;

	errno = 0;
	n = strtoll(v->text, &end, 10);
	if (end == v->text || *end || errno)
		return conf_fail(x, v, key, "%s%s%s is not %s", q(x), v->text, q(x),
				 dq ? "a whole number" : "an integer");
	if (n < lo || n > hi) {
		if (dq)
			return conf_fail(x, v, key, "%lld out of range (%lld..%lld)", n, lo, hi);
		return conf_fail(x, v, key, "%lld is out of range %lld..%lld", n, lo, hi);
	}
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
	char *end;
	double d;

	errno = 0;
	d = strtod(v->text, &end);
	if (end == v->text || *end || errno || !isfinite(d))
		return conf_fail(x, v, key, "%s%s%s is not a number", q(x), v->text, q(x));
	if ((lo_open ? d <= lo : d < lo) || d > hi)
		return conf_fail(x, v, key, "%s is out of range %s%g..%g", v->text,
				 lo_open ? "above " : "", lo, hi);
	*out = d;
	return 0;
}

int conf_frac(struct conf_ctx *x, const struct conf_val *v, const char *key, double lo, double hi,
	      double *out)
{
	int dq = x->wording == CONF_WORDING_DOUBLE;
	char *end;
	double d;

	errno = 0;
	d = strtod(v->text, &end);
	/* the double wording lets inf and nan through to the range message */
	if (end == v->text || errno || (*end && strcmp(end, "%") != 0) || (!dq && !isfinite(d))) {
		if (dq)
			return conf_fail(x, v, key, "\"%s\" is not a number", v->text);
		return conf_fail(x, v, key, "'%s' is not a fraction (0.25 or 25%%)", v->text);
	}
	if (*end == '%')
		d /= 100.0;
	if (!(d >= lo && d <= hi)) {
		if (dq)
			return conf_fail(x, v, key, "%s is not in %g..%g (or %g%%..%g%%)", v->text,
					 lo, hi, lo * 100, hi * 100);
		return conf_fail(x, v, key, "'%s' is out of range %g..%g (%g%%..%g%%)", v->text, lo,
				 hi, lo * 100, hi * 100);
	}
	*out = d;
	return 0;
}

int conf_enum(struct conf_ctx *x, const struct conf_val *v, const char *key,
	      const char *const *names, int *out)
{
	int nocase = x->wording == CONF_WORDING_SINGLE;
	char list[200] = "";

	for (int i = 0; names[i]; i++) {
		if ((nocase ? strcasecmp(v->text, names[i]) : strcmp(v->text, names[i])) == 0) {
			*out = i;
			return 0;
		}
	}
	for (int i = 0; names[i]; i++) {
		strncat(list, i ? ", " : "", sizeof(list) - strlen(list) - 1);
		strncat(list, names[i], sizeof(list) - strlen(list) - 1);
	}
	return conf_fail(x, v, key, "%s%s%s is not one of %s", q(x), v->text, q(x), list);
}

int conf_bool(struct conf_ctx *x, const struct conf_val *v, const char *key, int *out)
{
	const char *s = v->text;

	if (!strcasecmp(s, "true") || !strcasecmp(s, "yes") || !strcasecmp(s, "on") ||
	    !strcmp(s, "1"))
		*out = 1;
	else if (!strcasecmp(s, "false") || !strcasecmp(s, "no") || !strcasecmp(s, "off") ||
		 !strcmp(s, "0"))
		*out = 0;
	else
		return conf_fail(x, v, key, "%s%s%s is not true or false", q(x), s, q(x));
	return 0;
}

int conf_name(struct conf_ctx *x, const struct conf_val *v, const char *key, const char *what,
	      char *out, size_t size)
{
	size_t n = strlen(v->text);

	if (n == 0 || n >= size) {
		if (what)
			return conf_fail(x, v, key, "a %s of 1..%zu characters", what, size - 1);
		return conf_fail(x, v, key, "must be 1..%zu characters", size - 1);
	}
	memcpy(out, v->text, n + 1);
	return 0;
}

int conf_span(const char *s, long long *a, long long *b)
{
	char *end;

	errno = 0;
	*a = strtoll(s, &end, 10);
	*b = *a;
	if (end != s && *end == '-') {
		const char *t = end + 1;

		*b = strtoll(t, &end, 10);
		if (end == t)
			return -1;
	}
	if (end == s || *end || errno)
		return -1;
	return 0;
}

/* ---- decimal numbers with units ---- */

const struct conf_unit conf_rate_units[] = {{"k", 1000ULL},
					    {"m", 1000000ULL},
					    {"g", 1000000000ULL},
					    {"t", 1000000000000ULL},
					    {"bps", 1},
					    {"kbps", 1000ULL},
					    {"mbps", 1000000ULL},
					    {"gbps", 1000000000ULL},
					    {"tbps", 1000000000000ULL},
					    {"b/s", 1},
					    {"kb/s", 1000ULL},
					    {"mb/s", 1000000ULL},
					    {"gb/s", 1000000000ULL},
					    {"tb/s", 1000000000000ULL},
					    {NULL, 0}};
const struct conf_unit conf_byte_units[] = {
    {"b", 1},		{"k", 1ULL << 10}, {"kb", 1ULL << 10}, {"m", 1ULL << 20},
    {"mb", 1ULL << 20}, {"g", 1ULL << 30}, {"gb", 1ULL << 30}, {NULL, 0}};
const struct conf_unit conf_time_units[] = {
    {"ns", 1}, {"us", 1000ULL}, {"ms", 1000000ULL}, {"s", 1000000000ULL}, {NULL, 0}};

int conf_units(const char *s, const struct conf_unit *units, double nosuffix, double *out)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(s, &end);
	if (end == s || errno || !isfinite(d))
		return -1;
	while (*end == ' ')
		end++;
	if (!*end) {
		*out = d * nosuffix;
		return 0;
	}
	for (; units->name; units++) {
		if (strcasecmp(end, units->name) == 0) {
			*out = d * (double)units->mult;
			return 0;
		}
	}
	return -1;
}

int conf_bytes(struct conf_ctx *x, const struct conf_val *v, const char *key, double max,
	       uint64_t *out)
{
	double d;

	if (conf_units(v->text, conf_byte_units, 1, &d) < 0 || d < 0)
		return conf_fail(x, v, key,
				 "%s%s%s is not a byte count (suffix K, M or G: powers of 1024)",
				 q(x), v->text, q(x));
	if (d > max)
		return conf_fail(x, v, key, "%s%s%s is above %.0f bytes", q(x), v->text, q(x), max);
	*out = (uint64_t)llround(d);
	return 0;
}

int conf_time(struct conf_ctx *x, const struct conf_val *v, const char *key, uint64_t *out)
{
	double d;

	if (conf_units(v->text, conf_time_units, 1e9, &d) < 0 || d < 0)
		return conf_fail(x, v, key, "%s%s%s is not a time (suffix ns, us, ms or s)", q(x),
				 v->text, q(x));
	if (d > 1e18)
		return conf_fail(x, v, key, "%s%s%s is too long", q(x), v->text, q(x));
	*out = (uint64_t)llround(d);
	return 0;
}

/* ---- whole numbers with units ---- */

int conf_parse_duration(const char *s, uint64_t *ns)
{
	uint64_t mult = 0;
	unsigned long long n;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno)
		return -1;
	if (!*end)
		mult = 1000000000ULL; /* a bare number is seconds */
	for (const struct conf_unit *u = conf_time_units; !mult && u->name; u++)
		if (strcmp(end, u->name) == 0)
			mult = u->mult;
	if (!mult || n > UINT64_MAX / mult)
		return -1;
	*ns = n * mult;
	return 0;
}

int conf_duration(struct conf_ctx *x, const struct conf_val *v, const char *key, int nonzero,
		  uint64_t *out)
{
	if (conf_parse_duration(v->text, out) < 0)
		return conf_fail(x, v, key,
				 "%s%s%s is not a duration (a number with ns, us, ms or s)", q(x),
				 v->text, q(x));
	if (nonzero && *out == 0)
		return conf_fail(x, v, key, "must be more than 0");
	return 0;
}

int conf_count(struct conf_ctx *x, const struct conf_val *v, const char *key, int bytes,
	       uint64_t *out)
{
	/* digits first: strtoull would take blanks and a sign, and a bare
	 * suffix ("K") would read as 0 */
	int ok = v->text[0] >= '0' && v->text[0] <= '9';
	uint64_t mult = 1;
	unsigned long long n = 0;
	char *end = NULL;

	if (ok) {
		errno = 0;
		n = strtoull(v->text, &end, 10);
		ok = !errno;
	}
	if (ok && bytes && *end && !end[1]) {
		mult = *end == 'K'   ? 1ULL << 10
		       : *end == 'M' ? 1ULL << 20
		       : *end == 'G' ? 1ULL << 30
				     : 0;
		if (mult)
			end++;
		else
			mult = 1;
	}
	if (!ok || *end || n > UINT64_MAX / mult)
		return conf_fail(x, v, key, "%s%s%s is not a whole number%s", q(x), v->text, q(x),
				 bytes ? " of bytes (with K, M or G)" : "");
	*out = n * mult;
	return 0;
}
