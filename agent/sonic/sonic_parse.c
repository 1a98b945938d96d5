/*
 * sonic_parse.c - reading SONiC's Redis values (see sonic_parse.h).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <hiredis/hiredis.h>
#include <stdlib.h>
#include <string.h>

#include "agent/sonic/sonic_parse.h"

int sonic_parse_u64(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;

	*out = SONIC_UNKNOWN;
	if (len == 0 || len > 20)
		return -1;
	for (size_t i = 0; i < len; i++) {
		unsigned d = (unsigned char)s[i] - '0';

		if (d > 9 || v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	if (v == SONIC_UNKNOWN)
		return -1;
	*out = v;
	return 0;
}

int sonic_reply_u64(const redisReply *r, uint64_t *out)
{
	*out = SONIC_UNKNOWN;
	if (!r)
		return -1;
	switch (r->type) {
	case REDIS_REPLY_NIL:
		return 1;
	case REDIS_REPLY_INTEGER:
		if (r->integer < 0)
			return -1;
		*out = (uint64_t)r->integer;
		return 0;
	case REDIS_REPLY_STRING:
		return sonic_parse_u64(r->str, r->len, out);
	default:
		return -1;
	}
}

int sonic_parse_small_int(const char *s, int *out)
{
	int neg = 0, v = 0;

	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 64)
			return -1;
		v = v * 10 + (*s - '0');
	}
	if (v > 64)
		return -1;
	*out = neg ? -v : v;
	return 0;
}

int sonic_parse_obj_key(const char *key, char *name, size_t size, unsigned *idx)
{
	const char *c = strrchr(key, ':');
	uint64_t v;

	if (!c || c == key || (size_t)(c - key) >= size ||
	    sonic_parse_u64(c + 1, strlen(c + 1), &v) < 0 || v >= 4096)
		return -1;
	memcpy(name, key, (size_t)(c - key));
	name[c - key] = '\0';
	*idx = (unsigned)v;
	return 0;
}

/* The last '|' or ':' of s (CONFIG_DB's and APPL_DB's separators; port
 * names have neither), or NULL. */
static const char *last_sep(const char *s, size_t len)
{
	for (size_t i = len; i > 0; i--)
		if (s[i - 1] == '|' || s[i - 1] == ':')
			return s + i - 1;
	return NULL;
}

int sonic_parse_binding(const char *key, char *ports, size_t size, unsigned *lo, unsigned *hi)
{
	const char *bar = last_sep(key, strlen(key)), *dash;
	uint64_t a, b;

	if (!bar || bar == key || (size_t)(bar - key) >= size)
		return -1;
	memcpy(ports, key, (size_t)(bar - key));
	ports[bar - key] = '\0';
	dash = strchr(bar + 1, '-');
	if (dash) {
		if (sonic_parse_u64(bar + 1, (size_t)(dash - bar - 1), &a) < 0 ||
		    sonic_parse_u64(dash + 1, strlen(dash + 1), &b) < 0)
			return -1;
	} else {
		if (sonic_parse_u64(bar + 1, strlen(bar + 1), &a) < 0)
			return -1;
		b = a;
	}
	if (a > b || b >= 4096)
		return -1;
	*lo = (unsigned)a;
	*hi = (unsigned)b;
	return 0;
}

int sonic_list_has(const char *list, const char *port)
{
	size_t n = strlen(port);

	for (const char *p = list; *p;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len == n && strncmp(p, port, n) == 0)
			return 1;
		if (!e)
			break;
		p = e + 1;
	}
	return 0;
}

int sonic_parse_ref(const char *ref, char *out, size_t size)
{
	const char *s = ref, *bar;
	size_t len = strlen(ref);

	if (len && s[0] == '[' && s[len - 1] == ']') {
		s++;
		len -= 2;
	}
	bar = last_sep(s, len);
	if (bar) {
		len -= (size_t)(bar + 1 - s);
		s = bar + 1;
	}
	if (len == 0 || len >= size)
		return -1;
	memcpy(out, s, len);
	out[len] = '\0';
	return 0;
}

uint64_t sonic_alloc_bytes(uint64_t static_th, int have_dyn, int dyn_th, uint64_t pool_size)
{
	uint64_t a;

	if (static_th != SONIC_UNKNOWN)
		return static_th;
	if (!have_dyn || pool_size == SONIC_UNKNOWN || dyn_th < -20 || dyn_th > 20 ||
	    pool_size > (UINT64_MAX >> 21))
		return SONIC_UNKNOWN;
	if (dyn_th >= 0) { /* 2^k / (1 + 2^k) x size */
		a = (uint64_t)1 << dyn_th;
		return pool_size * a / (a + 1);
	}
	/* alpha = 1 / 2^-k: alpha / (1 + alpha) = 1 / (2^-k + 1) */
	a = (uint64_t)1 << -dyn_th;
	return pool_size / (a + 1);
}
