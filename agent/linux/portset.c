/*
 * portset.c - what a change of the linux backend's ports means, without
 * I/O (the unit tests call these directly): which new index each old port
 * has (same ifindex: the same port, even renamed), the events of the
 * backend's queue renumbered into the new numbering (or dropped where
 * their port is gone), and the one log line that says what changed.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "agent/linux/portset.h"

void linuxbe_port_map(const uint32_t *old_ifx, uint32_t nold, const uint32_t *new_ifx,
		      uint32_t nnew, uint32_t *map)
{
	uint32_t i, j;

	for (i = 0; i < nold; i++) {
		map[i] = UINT32_MAX;
		for (j = 0; j < nnew; j++)
			if (new_ifx[j] == old_ifx[i]) {
				map[i] = j;
				break;
			}
	}
}

/* A port index of the old numbering in the new one: UINT32_MAX stays
 * unknown, a port gone becomes unknown (*gone set). */
static uint32_t renum(uint32_t port, const uint32_t *map, uint32_t nold, int *gone)
{
	if (port == UINT32_MAX)
		return port;
	if (port >= nold || map[port] == UINT32_MAX) {
		*gone = 1;
		return UINT32_MAX;
	}
	return map[port];
}

int linuxbe_event_renumber(struct bsf_event *e, const uint32_t *map, uint32_t nold)
{
	int in_gone = 0, out_gone = 0;

	e->in_port = renum(e->in_port, map, nold, &in_gone);
	e->out_port = renum(e->out_port, map, nold, &out_gone);
	switch (e->type) {
	case BSF_EV_SAMPLE:
		/* a sample belongs to its input port's data source */
		return in_gone ? -1 : 0;
	case BSF_EV_ENQUEUE:
	case BSF_EV_DEQUEUE:
		/* a queue's event without its queue means nothing */
		return out_gone ? -1 : 0;
	default:
		/* a drop happened all the same: kept, its port unknown */
		return 0;
	}
}

size_t linuxbe_evq_renumber(struct linuxbe_evq *q, const uint32_t *map, uint32_t nold)
{
	size_t i, kept = 0, dropped = 0;

	for (i = 0; i < q->n; i++) {
		struct bsf_event *e = &q->ev[(q->head + i) % q->cap];

		if (linuxbe_event_renumber(e, map, nold) < 0) {
			dropped++;
			continue;
		}
		if (kept != i)
			bsf_event_copy(&q->ev[(q->head + kept) % q->cap], e);
		kept++;
	}
	q->n = kept;
	return dropped;
}

/* Append to buf (at *used, of len) printf-style, never past its end. */
static void add(char *buf, size_t len, size_t *used, const char *what, const char *name,
		uint32_t ifx, const char *name2)
{
	int n;

	if (*used >= len)
		return;
	if (name2)
		n = snprintf(buf + *used, len - *used, "%s%s %s -> %s (ifindex %u)",
			     *used ? ", " : "", what, name, name2, ifx);
	else
		n = snprintf(buf + *used, len - *used, "%s%s %s (ifindex %u)", *used ? ", " : "",
			     what, name, ifx);
	if (n > 0)
		*used += (size_t)n;
}

unsigned linuxbe_port_changes(const struct linuxbe_port_id *old, uint32_t nold,
			      const struct linuxbe_port_id *nw, uint32_t nnew, char *buf,
			      size_t len)
{
	size_t used = 0;
	unsigned changes = 0;
	uint32_t i, j;

	if (len)
		buf[0] = '\0';
	for (j = 0; j < nnew; j++) {
		for (i = 0; i < nold && old[i].ifindex != nw[j].ifindex; i++)
			;
		if (i == nold) {
			add(buf, len, &used, "added", nw[j].name, nw[j].ifindex, NULL);
			changes++;
		} else if (strcmp(old[i].name, nw[j].name) != 0) {
			add(buf, len, &used, "renamed", old[i].name, nw[j].ifindex, nw[j].name);
			changes++;
		}
	}
	for (i = 0; i < nold; i++) {
		for (j = 0; j < nnew && nw[j].ifindex != old[i].ifindex; j++)
			;
		if (j == nnew) {
			add(buf, len, &used, "removed", old[i].name, old[i].ifindex, NULL);
			changes++;
		}
	}
	return changes;
}
