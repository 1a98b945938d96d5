/*
 * confhint.c - "did you mean" and "belongs in section" hints for unknown
 * configuration keys (confhint.h).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "agent/confhint.h"

#define HINT_CAP 3

unsigned conf_hint_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned d[3][64];

	if (la >= 63 || lb >= 63)
		return strcmp(a, b) == 0 ? 0 : HINT_CAP;
	if ((la > lb ? la - lb : lb - la) >= HINT_CAP)
		return HINT_CAP;
	/* three rolling rows of the optimal-string-alignment table */
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned *cur = d[i % 3], *prev = d[(i - 1) % 3], *prev2 = d[(i + 1) % 3];

		cur[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned cost = a[i - 1] != b[j - 1];
			unsigned v = prev[j] + 1;

			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (prev[j - 1] + cost < v)
				v = prev[j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v;
		}
	}
	return d[la % 3][lb] < HINT_CAP ? d[la % 3][lb] : HINT_CAP;
}

/* The section (by option table) holding key, searched depth first below
 * opts; its name in *where ("" for opts itself).  1 when found. */
static int find_key(const cfg_opt_t *opts, const char *key, const char *name, const char **where)
{
	if (!opts)
		return 0;
	for (const cfg_opt_t *o = opts; o->name; o++)
		if (o->type != CFGT_SEC && strcmp(o->name, key) == 0) {
			*where = name;
			return 1;
		}
	for (const cfg_opt_t *o = opts; o->name; o++)
		if (o->type == CFGT_SEC && find_key(o->subopts, key, o->name, where))
			return 1;
	return 0;
}

void conf_hint_unknown(const cfg_t *sec, const cfg_t *root, const char *key, char *out, size_t len)
{
	const char *best = NULL, *where = NULL;
	unsigned bestd = HINT_CAP;
	size_t used = strlen(out);

	if (!sec || !sec->opts)
		return;
	for (const cfg_opt_t *o = sec->opts; o->name; o++) {
		unsigned dd = conf_hint_distance(key, o->name);

		if (dd < bestd) {
			bestd = dd;
			best = o->name;
		}
	}
	if (best && bestd >= 1) {
		snprintf(out + used, len - used, "; did you mean %s?", best);
		return;
	}
	if (root && root->opts && find_key(root->opts, key, "", &where)) {
		if (!*where)
			snprintf(out + used, len - used, "; %s belongs at the top level", key);
		else if (strcmp(where, sec->name) != 0)
			snprintf(out + used, len - used, "; %s belongs in a %s section", key,
				 where);
	}
}
