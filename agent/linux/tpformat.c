/*
 * tpformat.c - the parser of the skb:kfree_skb tracepoint's format file
 * (tracepoint.h): the reason field's offset and size in the raw record and
 * the names of its values from the print fmt's __print_symbolic list, so
 * that drops are counted by reason NAME on any kernel.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/linux/tracepoint.h"

int linuxbe_tp_format_parse(const char *text, struct linuxbe_tp_format *f, char *err, size_t errlen)
{
	const char *p, *sym;

	memset(f, 0, sizeof *f);
	p = strstr(text, " reason;");
	if (!p) {
		snprintf(err, errlen, "no field \"reason\" in the format");
		return -1;
	}
	p = strstr(p, "offset:");
	if (!p || sscanf(p, "offset:%u;\tsize:%u;", &f->reason_off, &f->reason_size) != 2 ||
	    (f->reason_size != 4 && f->reason_size != 2)) {
		snprintf(err, errlen, "field \"reason\": no offset / size 2 or 4");
		return -1;
	}
	sym = strstr(text, "__print_symbolic(REC->reason");
	if (!sym) {
		snprintf(err, errlen, "no reason names (__print_symbolic) in the print fmt");
		return -1;
	}
	for (p = sym; (p = strstr(p, "{ ")) != NULL;) {
		unsigned long v;
		char *e;
		const char *q, *end;

		v = strtoul(p + 2, &e, 0);
		if (e == p + 2 || strncmp(e, ", \"", 3) != 0)
			break;
		q = e + 3;
		end = strchr(q, '"');
		if (!end)
			break;
		if (v < LINUXBE_TP_MAX_REASONS && (size_t)(end - q) < sizeof f->names[0]) {
			memcpy(f->names[v], q, (size_t)(end - q));
			f->names[v][end - q] = '\0';
			if (v + 1 > f->n)
				f->n = (unsigned)v + 1;
		}
		p = end;
	}
	if (f->n == 0) {
		snprintf(err, errlen, "no reason names in the print fmt");
		return -1;
	}
	return 0;
}
